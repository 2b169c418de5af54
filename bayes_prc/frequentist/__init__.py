r"""Frequentist intervals for average precision, precision, recall and the PR curve.

* :func:`ap_interval`: confidence intervals for the area under the PR curve by any of
  :data:`bayes_prc.AUC_PR_ESTIMATORS`, with the methods compared by Boyd, Eng & Page
  (2013) (binomial, logit, bootstrap, cross-validation) plus BCa (Efron 1987) and the
  Bayesian bootstrap (Rubin 1981).
* :func:`precision_interval`, :func:`recall_interval`: intervals at one threshold, from the
  confusion-matrix counts (every :func:`bayes_prc.intervals.proportion_interval` method,
  including the likelihood-ratio inversion of seed 002), a cheap stratified bootstrap, and
  seed 002's Monte Carlo construction of recall from precision and NPV.
* :func:`bootstrap_pr_band`: bootstrap bands for the curve (pointwise; simultaneous as a
  depth envelope or a studentized sup-t band), on a recall grid or on seed 001's
  common-threshold grid, as an :class:`xarray.Dataset`.

Resampling goes through one engine (:mod:`bayes_prc.bootstrap`: sort once, count per
replicate). Thresholds classify ``score >= threshold`` as positive throughout.

The package also holds the binomial-proportion intervals and the bootstrap engine, whose
public paths are :mod:`bayes_prc.intervals` and :mod:`bayes_prc.bootstrap`.
"""

from ._ap import AP_INTERVAL_METHODS, APInterval, ap_interval
from ._bands import bootstrap_pr_band

# names this module had before it became a package (`name as name`: kept importable)
from ._jackknife import bca_interval as bca_interval
from ._jackknife import percentile_interval as percentile_interval
from ._joint import (
    PR_JOINT_REGION_METHODS,
    PRJointRegion,
    pr_joint_credible_region,
    pr_joint_region,
    pr_joint_regions,
)
from ._operating_point import (
    OPERATING_POINT_METHODS,
    OPERATING_POINT_METRICS,
    PRECISION_AT_K_METHODS,
    OperatingPointInterval,
    PrecisionAtKInterval,
    operating_point_interval,
    precision_at_k_interval,
)
from ._paired_tests import MCNEMAR_EXACT_BELOW, McNemarResult, mcnemar_test
from ._proportion import METHODS as PROPORTION_METHODS  # noqa: F401
from ._proportion import logit_interval as logit_interval
from ._proportion import proportion_interval as proportion_interval
from ._proportion import wald_interval as wald_interval
from ._resample import DEFAULT_MEMORY_BUDGET as DEFAULT_MEMORY_BUDGET
from ._results import IntervalResult as IntervalResult
from ._roc_auc import ROC_AUC_INTERVAL_METHODS, ROCAUCInterval, roc_auc_interval
from ._threshold import (
    PRECISION_INTERVAL_METHODS,
    RECALL_INTERVAL_METHODS,
    ThresholdInterval,
    precision_interval,
    recall_interval,
)

__all__ = [
    "AP_INTERVAL_METHODS",
    "MCNEMAR_EXACT_BELOW",
    "ROC_AUC_INTERVAL_METHODS",
    "McNemarResult",
    "ROCAUCInterval",
    "mcnemar_test",
    "roc_auc_interval",
    "OPERATING_POINT_METHODS",
    "OPERATING_POINT_METRICS",
    "PRECISION_AT_K_METHODS",
    "PRECISION_INTERVAL_METHODS",
    "RECALL_INTERVAL_METHODS",
    "APInterval",
    "OperatingPointInterval",
    "PrecisionAtKInterval",
    "ThresholdInterval",
    "ap_interval",
    "bootstrap_pr_band",
    "operating_point_interval",
    "precision_at_k_interval",
    "precision_interval",
    "recall_interval",
    "PR_JOINT_REGION_METHODS",
    "PRJointRegion",
    "pr_joint_credible_region",
    "pr_joint_region",
    "pr_joint_regions",
]
