"""bayes_prc: how much to trust a precision-recall curve.

Empirical curves and average precision (numpy only), the analytic binormal model,
frequentist intervals and a Bayesian binormal fit (PyMC) whose posterior draws are pushed
through the analytic PR curve. Heavy dependencies (PyMC, matplotlib) are imported only by
the functions that need them, so frequentist-only use stays fast.
"""

from importlib import import_module

from ._ranking import (
    AUC_PR_ESTIMATORS,
    FBetaResult,
    OperatingPoint,
    auc_pr,
    average_precision_score,
    chance_baseline,
    max_fbeta,
    precision_at_k,
    precision_at_recall,
    precision_recall_curve,
    recall_at_precision,
    roc_auc_score,
    roc_curve,
)
from .exceptions import BayesPRCWarning, ConvergenceWarning, UndefinedMetricWarning

__version__ = "0.1.0"

# name -> submodule, imported on first access (PEP 562)
_LAZY = {
    "Binormal": "binormal",
    "proportion_interval": "intervals",
    "ProportionInterval": "intervals",
    "fit_binormal": "bayes",
    "BinormalPosterior": "bayes",
    "BinormalPriors": "bayes",
    "SemiparametricPriors": "bayes",
    "FlexiblePriors": "bayes",
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
    "ap_interval": "frequentist",
    "precision_interval": "frequentist",
    "recall_interval": "frequentist",
    "bootstrap_pr_band": "frequentist",
    "APInterval": "frequentist",
    "AP_INTERVAL_METHODS": "frequentist",
    "IntervalResult": "intervals",
    "compare_classifiers": "paired",
    "PairedComparison": "paired",
    "simulate": None,
    "scale": None,
    "criticism": None,
    "fit_score_models": "criticism",
    "compare_score_models": "criticism",
    "score_ppc": "criticism",
    "ThresholdInterval": "frequentist",
    "plotting": None,
    "plot_posterior_summary": "plotting",
    "PRCurveDisplay": "plotting",
    "PredictiveCurvesDisplay": "plotting",
    "ThresholdColoredPRDisplay": "plotting",
    "ThresholdCurvesDisplay": "plotting",
    "APForestDisplay": "plotting",
    "ROCCurveDisplay": "plotting",
    "ScorePPCDisplay": "plotting",
    "PerClassAPDisplay": "plotting",
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
