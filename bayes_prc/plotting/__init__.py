"""Plots of posterior and empirical PR curves, thresholds and AP (matplotlib).

Display objects in scikit-learn's manner: each holds precomputed arrays, draws them with
``plot(ax=None, **kwargs)`` on the axes you pass (or on a new pyplot figure,
``plt.subplots()``) and keeps the artists it made (``line_``, ``band_``, ...) with
``ax_`` and ``figure_``. The ``from_posterior`` / ``from_predictions`` constructors call
bayes_prc's computation functions first. Importing this module imports neither
matplotlib nor PyMC; matplotlib is imported when something is drawn.

Without ``ax`` the figure is a pyplot figure, as scikit-learn's: a notebook shows it
where it is made, ``plt.show()`` shows it elsewhere, ``disp.figure_.savefig(...)``
saves it; pass ``ax=`` to draw into your own layout.
"""

from ._ap_forest import APForestDisplay
from ._folds import FoldCurvesDisplay
from ._joint import PRJointRegionDisplay
from ._multiclass import PerClassAPDisplay
from ._plan import LabelPlanDisplay, PlanDisplay
from ._pr import PRCurveDisplay
from ._predictive import PredictiveCurvesDisplay
from ._ranking import ModelComparisonDisplay
from ._roc import ROCCurveDisplay
from ._score_ppc import ScorePPCDisplay
from ._subgroups import SubgroupDisplay, SubgroupPRDisplay
from ._summary import plot_posterior_summary
from ._threshold_choice import ThresholdChoiceDisplay
from ._threshold_colored import ThresholdColoredPRDisplay
from ._threshold_curves import ThresholdCurvesDisplay

__all__ = [
    "APForestDisplay",
    "FoldCurvesDisplay",
    "LabelPlanDisplay",
    "ModelComparisonDisplay",
    "PRCurveDisplay",
    "PRJointRegionDisplay",
    "PerClassAPDisplay",
    "PlanDisplay",
    "PredictiveCurvesDisplay",
    "ROCCurveDisplay",
    "ScorePPCDisplay",
    "SubgroupDisplay",
    "SubgroupPRDisplay",
    "ThresholdChoiceDisplay",
    "ThresholdColoredPRDisplay",
    "ThresholdCurvesDisplay",
    "plot_posterior_summary",
]
