r"""The paired permutation test of the difference of a ranking metric (ROC AUC or AP).

Under the null hypothesis that the two classifiers are exchangeable on every item,
swapping their scores of an item changes nothing in distribution, so the observed
difference is compared with the differences of random swaps (Bandos, Rockette & Gur 2005;
exact for any sample size); reached through
:func:`bayes_prc.paired.compare_classifiers` with ``method="permutation"``.

References
----------
.. [1] Bandos, A. I.; Rockette, H. E.; Gur, D. (2005). "A permutation test sensitive to
   differences in areas for comparing ROC curves from a paired design". Statistics in
   Medicine 24 (18): 2873-2893.
.. [2] Phipson, B.; Smyth, G. K. (2010). "Permutation p-values should never be zero".
   Statistical Applications in Genetics and Molecular Biology 9 (1): 39.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from ..bootstrap import DEFAULT_MEMORY_BUDGET

__all__ = ["PAIRED_METRICS", "paired_permutation_test"]

#: Metrics of the paired permutation test.
PAIRED_METRICS = ("average_precision", "roc_auc")

#: Differences within this of the observed one count as ties ("at least as extreme"):
#: round-off, far below the spacing 1 / (2 n_pos n_neg) of AUC values.
_TIE_TOL = 1e-12


def _auc_rows(is_pos, scores):
    """ROC AUC of each row of ``scores`` (b, n), ties one half (rank-sum form)."""
    m = int(np.count_nonzero(is_pos))
    n = is_pos.shape[0] - m
    r = rankdata(scores, axis=1)
    return (r[:, is_pos].sum(axis=1) - m * (m + 1) / 2.0) / (m * n)


def _ap_rows(is_pos, scores):
    """Average precision of each row of ``scores`` (b, n), one 2-D sort for all rows.

    Scikit-learn's step-wise AP: over the distinct scores (tie groups of the descending
    order), the recall gained at the group times the precision at its end.
    """
    b, n = scores.shape
    order = np.argsort(-scores, axis=1, kind="stable")
    s = np.take_along_axis(scores, order, axis=1)
    tp = np.cumsum(is_pos[order], axis=1, dtype=np.float64)
    end = np.ones((b, n), dtype=bool)  # the last item of each tie group
    end[:, :-1] = s[:, 1:] != s[:, :-1]
    tp_end = np.where(end, tp, 0.0)
    prev = np.zeros((b, n))  # true positives at the end of the previous group
    prev[:, 1:] = np.maximum.accumulate(tp_end, axis=1)[:, :-1]
    gain = np.where(end, (tp - prev) * tp / np.arange(1.0, n + 1.0), 0.0)
    return gain.sum(axis=1) / tp[:, -1]


def paired_permutation_test(is_pos, score_a, score_b, metric, n_resamples, rng):
    """Paired permutation test of ``metric(B) - metric(A)`` (both classes present).

    The scores themselves are swapped, so the two classifiers must score on a common
    scale (exchangeability is the null hypothesis). Swapping within-classifier ranks
    instead would make the test scale-free but not exact: in simulations it rejected
    28% at the 25% level for AP (n = 60, correlation 0.9). Replicate ``r`` swaps item
    ``i`` where ``rng.random((b, n))`` (blocks of ``b`` replicates) is below 1/2. The
    two-sided p-value counts the replicates at least as extreme as the data, plus one
    (Phipson & Smyth 2010): ``(1 + #{|T*| >= |T|}) / (n_resamples + 1)``, so
    ``P(p <= alpha) <= alpha`` under the null hypothesis.

    Returns
    -------
    observed : float
    p_value : float
    null_distribution : ndarray of shape (n_resamples,)
    """
    stat = _auc_rows if metric == "roc_auc" else _ap_rows
    ra = np.asarray(score_a, dtype=np.float64)
    rb = np.asarray(score_b, dtype=np.float64)
    obs = float(stat(is_pos, rb[None, :])[0] - stat(is_pos, ra[None, :])[0])
    n = is_pos.shape[0]
    block = int(max(1, min(n_resamples, DEFAULT_MEMORY_BUDGET // (48 * n))))
    null = np.empty(n_resamples)
    for start in range(0, n_resamples, block):
        b = min(block, n_resamples - start)
        swap = rng.random((b, n)) < 0.5
        sa = np.where(swap, rb, ra)
        sb = np.where(swap, ra, rb)
        null[start : start + b] = stat(is_pos, sb) - stat(is_pos, sa)
    extreme = np.count_nonzero(np.abs(null) >= abs(obs) - _TIE_TOL)
    return obs, (1.0 + extreme) / (n_resamples + 1.0), null
