"""Plots of posterior and empirical PR curves, thresholds and AP (matplotlib).

Display objects in scikit-learn's manner: each holds precomputed arrays, draws them with
``plot(ax=None, **kwargs)`` on the axes you pass (or on a new figure that is not
registered with pyplot) and keeps the artists it made (``line_``, ``band_``, ...) with
``ax_`` and ``figure_``. The ``from_posterior`` / ``from_predictions`` constructors call
bayes_prc's computation functions first. Importing this module imports neither
matplotlib nor PyMC; matplotlib is imported when something is drawn.

A figure made here is not known to pyplot, so ``plt.show()`` does not show it: in a
notebook display ``disp.figure_``, elsewhere ``disp.figure_.savefig(...)``, or pass
``ax=`` from your own ``plt.subplots()``.
"""

from ._ap_forest import APForestDisplay
from ._folds import FoldCurvesDisplay
from ._joint import PRJointRegionDisplay
from ._multiclass import PerClassAPDisplay
from ._plan import LabelPlanDisplay
from ._pr import PRCurveDisplay
from ._predictive import PredictiveCurvesDisplay
from ._roc import ROCCurveDisplay
from ._score_ppc import ScorePPCDisplay
from ._summary import plot_posterior_summary
from ._threshold_colored import ThresholdColoredPRDisplay
from ._threshold_curves import ThresholdCurvesDisplay

__all__ = [
    "APForestDisplay",
    "FoldCurvesDisplay",
    "LabelPlanDisplay",
    "PRCurveDisplay",
    "PRJointRegionDisplay",
    "PerClassAPDisplay",
    "PredictiveCurvesDisplay",
    "ROCCurveDisplay",
    "ScorePPCDisplay",
    "ThresholdColoredPRDisplay",
    "ThresholdCurvesDisplay",
    "plot_posterior_summary",
]
