"""Empirical layer (numpy; numba for large inputs): the counting kernel, the prepared :class:`Ranked` input,
curves, average precision and its estimators, operating points.

Every public function taking ``(y_true, y_score, ...)`` validates once through
:func:`as_ranked`, so a :class:`Ranked` may be passed as ``y_true`` (with
``y_score=None``) to reuse the validation, the order and the counts:

>>> import bayes_prc.empirical as emp
>>> r = emp.as_ranked([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> round(emp.average_precision_score(r, None), 4), emp.max_fbeta(r, None).threshold
(0.8333, 0.35)

Nothing here imports scipy-based models, PyMC, arviz, pandas, matplotlib or dask; dask
input goes through the top-level faces (:mod:`bayes_prc._dispatch`). The counting
kernel's compiled path imports numba on its first large input, never at import
(:func:`counting_kernel`); numba itself then loads part of scipy.
"""

from ._ap import (
    AUC_PR_ESTIMATORS,
    auc_pr,
    auc_pr_validated,
    average_precision_score,
    check_auc_pr_estimator,
)
from ._counting import (
    binary_clf_counts,
    counting_kernel,
    positive_rank_counts,
    stable_descending_order,
)
from ._curves import pr_from_counts, precision_recall_curve, roc_curve
from ._multiclass_roc import roc_auc_score
from ._operating import (
    FBetaResult,
    OperatingPoint,
    chance_baseline,
    max_fbeta,
    precision_at_k,
    precision_at_recall,
    recall_at_precision,
)
from ._ranked import Ranked, as_ranked

__all__ = [
    "AUC_PR_ESTIMATORS",
    "FBetaResult",
    "OperatingPoint",
    "Ranked",
    "as_ranked",
    "auc_pr",
    "auc_pr_validated",
    "average_precision_score",
    "binary_clf_counts",
    "chance_baseline",
    "check_auc_pr_estimator",
    "counting_kernel",
    "max_fbeta",
    "positive_rank_counts",
    "precision_at_k",
    "precision_at_recall",
    "pr_from_counts",
    "precision_recall_curve",
    "recall_at_precision",
    "roc_auc_score",
    "roc_curve",
    "stable_descending_order",
]
