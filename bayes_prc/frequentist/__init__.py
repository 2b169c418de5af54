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

from ._aggregate import multinomial_rows
from ._ap import AP_INTERVAL_METHODS, APInterval, ap_interval, cluster_design_effect
from ._bands import bootstrap_pr_band, recall_target_counts, simultaneous_band

# the bootstrap engine: public path bayes_prc.bootstrap (`name as name`: importable here)
from ._engine import average_precision_replicates as average_precision_replicates
from ._engine import bootstrap_replicates as bootstrap_replicates
from ._engine import model_replicates, paired_replicates
from ._jackknife import JACKKNIFE_MAX_PER_CLASS as JACKKNIFE_MAX_PER_CLASS
from ._jackknife import BCaInterval as BCaInterval
from ._jackknife import bca_interval as bca_interval
from ._jackknife import jackknife_values as jackknife_values
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
from ._paired_tests import MCNEMAR_EXACT_BELOW, McNemarResult, mcnemar_test, paired_permutation_test

# the proportion intervals: public path bayes_prc.intervals (`name as name`: importable here)
from ._proportion import PROPORTION_METHODS as PROPORTION_METHODS
from ._proportion import logit_interval as logit_interval
from ._proportion import proportion_interval as proportion_interval
from ._proportion import wald_interval as wald_interval
from ._rank_sets import (
    bootstrap_p_values,
    holm,
    max_t_step_down,
    pair_standard_errors,
    posterior_rank_sets,
    rank_draws,
    rank_sets,
)
from ._resample import BOOTSTRAP_KINDS as BOOTSTRAP_KINDS
from ._resample import BYTES_PER_ITEM as BYTES_PER_ITEM
from ._resample import DEFAULT_MEMORY_BUDGET as DEFAULT_MEMORY_BUDGET
from ._resample import dirichlet_weights as dirichlet_weights
from ._resample import stratified_counts as stratified_counts
from ._resample import stratified_indices as stratified_indices
from ._resample import unstratified_indices as unstratified_indices
from ._results import ConfidenceInterval as ConfidenceInterval
from ._results import IntervalResult as IntervalResult
from ._results import ProportionInterval as ProportionInterval
from ._results import frozen_float_array
from ._roc_auc import (
    ROC_AUC_INTERVAL_METHODS,
    ROCAUCInterval,
    delong_components,
    paired_delong_test,
    roc_auc_interval,
)
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
    # helpers of the layers above (compare, paired, pool, folds, bayes, cli)
    "cluster_design_effect",
    "delong_components",
    "frozen_float_array",
    "multinomial_rows",
    "paired_delong_test",
    "paired_permutation_test",
    "paired_replicates",
    "model_replicates",
    "bootstrap_p_values",
    "holm",
    "max_t_step_down",
    "posterior_rank_sets",
    "pair_standard_errors",
    "rank_draws",
    "rank_sets",
    "recall_target_counts",
    "simultaneous_band",
]
