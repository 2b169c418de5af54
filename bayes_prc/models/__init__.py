"""Analytic score models (numpy/scipy): per-class score distributions and their PR curves.

* :class:`Binormal` (public path :mod:`bayes_prc.binormal`): normal scores per class, the
  curves in closed form;
* :class:`StudentTScoreModel` and :class:`NormalMixtureScoreModel` (public path
  :mod:`bayes_prc.criticism`): Student-t and normal-mixture scores per class;
* :class:`ScoreModel`: their common base (parameters, prevalence, PR curve from the two
  class distributions).

Every model takes parameter arrays of any common ``batch_shape`` (e.g. posterior draws)
and evaluates each draw on a whole grid. Nothing here imports pandas, matplotlib, PyMC,
ArviZ, xarray or dask.
"""

from ._base import ScoreModel, class_distributions
from ._binormal import Binormal
from ._binormal_points import BinormalFBetaResult
from ._common import expand_to_draws, logit_precision_from_logs, threshold_extra_ndim
from ._score_models import NormalMixtureScoreModel, StudentTScoreModel
from ._search import golden_max

__all__ = [
    "Binormal",
    "BinormalFBetaResult",
    "NormalMixtureScoreModel",
    "ScoreModel",
    "StudentTScoreModel",
    "class_distributions",
    "expand_to_draws",
    "golden_max",
    "logit_precision_from_logs",
    "threshold_extra_ndim",
]
