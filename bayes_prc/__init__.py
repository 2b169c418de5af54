"""bayes_prc: how much to trust a precision-recall curve.

Empirical curves and average precision (numpy only), the analytic binormal model,
frequentist intervals and a Bayesian binormal fit (PyMC) whose posterior draws are pushed
through the analytic PR curve. Heavy dependencies (PyMC, matplotlib) are imported only by
the functions that need them, so frequentist-only use stays fast.

``precision_recall_curve``, ``average_precision_score``, ``auc_pr`` and ``fit_binormal``
also take dask input (see :mod:`bayes_prc._dispatch` and :mod:`bayes_prc.scale`); the
other empirical functions are those of :mod:`bayes_prc.empirical`.
"""

from importlib import import_module
from typing import TYPE_CHECKING

from ._dispatch import auc_pr, average_precision_score, precision_recall_curve
from ._version import __version__ as __version__
from .empirical import (
    AUC_PR_ESTIMATORS,
    FBetaResult,
    OperatingPoint,
    chance_baseline,
    max_fbeta,
    precision_at_k,
    precision_at_recall,
    recall_at_precision,
    roc_auc_score,
    roc_curve,
)
from .exceptions import BayesPRCWarning, ConvergenceWarning, UndefinedMetricWarning

if TYPE_CHECKING:  # static tools (and the API docs) see the cores the faces wrap
    from .empirical import auc_pr, average_precision_score, precision_recall_curve


# name -> submodule, imported on first access (PEP 562)
_LAZY = {
    "Binormal": "binormal",
    "proportion_interval": "intervals",
    "ProportionInterval": "intervals",
    "fit_binormal": "_dispatch",  # routes dask input to bayes_prc.scale
    "BinormalPosterior": "bayes",
    "BinormalPriors": "bayes",
    "SemiparametricPriors": "bayes",
    "ContaminatedPriors": "bayes",
    "FlexiblePriors": "bayes",
    "averaged_pr_band": "bayes",
    "FitCheck": "bayes",
    "fit_binormal_ovr": "bayes",
    "OvRPosterior": "bayes",
    "prevalence_weights": "prevalence",
    "deployment_prevalence": "prevalence",
    "logit_interval": "intervals",
    "wald_interval": "intervals",
    "ConfidenceInterval": "intervals",
    "datasets": None,
    "compare": None,
    "report": "_report",
    "compare_intervals": "compare",
    "compare_operating_point": "compare",
    "compare_bands": "compare",
    "ap_interval": "frequentist",
    "precision_interval": "frequentist",
    "recall_interval": "frequentist",
    "bootstrap_pr_band": "frequentist",
    "APInterval": "frequentist",
    "AP_INTERVAL_METHODS": "frequentist",
    "IntervalResult": "intervals",
    "compare_classifiers": "paired",
    "compare_models": "ranking",
    "ModelComparison": "ranking",
    "choose_threshold": "threshold",
    "ThresholdChoice": "threshold",
    "threshold": None,
    "ThresholdChoiceDisplay": "plotting",
    "PairedComparison": "paired",
    "simulate": None,
    "scale": None,
    "criticism": None,
    "fit_score_models": "criticism",
    "compare_score_models": "criticism",
    "score_ppc": "criticism",
    "ThresholdInterval": "frequentist",
    "roc_auc_interval": "frequentist",
    "ROCAUCInterval": "frequentist",
    "ROC_AUC_INTERVAL_METHODS": "frequentist",
    "mcnemar_test": "frequentist",
    "McNemarResult": "frequentist",
    "operating_point_interval": "frequentist",
    "precision_at_k_interval": "frequentist",
    "OperatingPointInterval": "frequentist",
    "PrecisionAtKInterval": "frequentist",
    "pr_joint_region": "frequentist",
    "pr_joint_regions": "frequentist",
    "pr_joint_credible_region": "frequentist",
    "PRJointRegion": "frequentist",
    "fold_curves": "folds",
    "fold_ap_interval": "folds",
    "compare_folds": "folds",
    "FoldInterval": "folds",
    "FoldComparison": "folds",
    "folds": None,
    "plotting": None,
    "plot_posterior_summary": "plotting",
    "PRCurveDisplay": "plotting",
    "PredictiveCurvesDisplay": "plotting",
    "ThresholdColoredPRDisplay": "plotting",
    "ThresholdCurvesDisplay": "plotting",
    "APForestDisplay": "plotting",
    "ROCCurveDisplay": "plotting",
    "ScorePPCDisplay": "plotting",
    "FoldCurvesDisplay": "plotting",
    "PerClassAPDisplay": "plotting",
    "PRJointRegionDisplay": "plotting",
    "pool": None,
    "select_labels": "pool",
    "fit_pool": "pool",
    "design_ap_interval": "pool",
    "design_threshold_interval": "pool",
    "LabelSelection": "pool",
    "PoolPosterior": "pool",
    "DesignInterval": "pool",
    "plan_labels": "pool",
    "compare_pool": "pool",
    "pool_intervals": "pool",
    "PoolComparison": "pool",
    "ranking": None,
    "subgroups": None,
    "compare_subgroups": "subgroups",
    "SubgroupComparison": "subgroups",
    "SubgroupDisplay": "plotting",
    "SubgroupPRDisplay": "plotting",
    "ModelComparisonDisplay": "plotting",
    "planning": None,
    "plan_test_set": "planning",
    "SampleSizePlan": "planning",
    "PlanDisplay": "plotting",
}

__all__ = [
    "AUC_PR_ESTIMATORS",
    "BayesPRCWarning",
    "ConvergenceWarning",
    "FBetaResult",
    "OperatingPoint",
    "UndefinedMetricWarning",
    "auc_pr",
    "average_precision_score",
    "chance_baseline",
    "max_fbeta",
    "precision_at_k",
    "precision_at_recall",
    "precision_recall_curve",
    "recall_at_precision",
    "roc_auc_score",
    "roc_curve",
    *_LAZY,
]


def __getattr__(name):
    if name in _LAZY:
        sub = _LAZY[name]
        if sub is None:
            return import_module(f".{name}", __name__)
        return getattr(import_module(f".{sub}", __name__), name)
    raise AttributeError(f"module 'bayes_prc' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
