"""The counting kernel: true and false positive counts at every distinct threshold.

Everything empirical in bayes_prc (curves, AP and its estimators, operating points,
bootstrap replicates) derives from :func:`binary_clf_counts`. Two paths give the same
numbers:

* unweighted: ``np.sort`` of the scores (a vectorized value sort, several times faster
  than a stable indirect argsort), distinct thresholds from the sorted values, and the
  positives counted with :func:`numpy.searchsorted` in the sorted positive scores. All
  counts are integers held exactly in float64, so the results are bit-identical to a
  cumulative sum.
* weighted: a stable descending argsort and cumulative sums of the weights, the same
  order of floating-point additions as scikit-learn, so results agree to the last bit.

For average precision alone, :func:`positive_rank_counts` avoids sorting the negatives
against the positives: each class is sorted on its own and the negatives scoring at or
above each positive are counted by ``searchsorted``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["binary_clf_counts", "positive_rank_counts", "stable_descending_order"]


def stable_descending_order(y_score):
    """Indices sorting ``y_score`` in descending order, ties kept in input order."""
    n = y_score.shape[0]
    return (n - 1) - np.argsort(y_score[::-1], kind="stable")[::-1]


def binary_clf_counts(is_pos, y_score, sample_weight=None):
    """False and true positive counts at each distinct threshold, highest first.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n_samples,)
        True for positive samples.
    y_score : ndarray, shape (n_samples,)
        Finite scores; higher means more likely positive.
    sample_weight : ndarray of float64, shape (n_samples,), optional
        Non-negative weights. Samples of weight zero are dropped first (they do not
        create thresholds), as scikit-learn does.

    Returns
    -------
    fps, tps : ndarray of float64, shape (n_thresholds,)
        Weighted counts of negatives and positives with ``score >= thresholds[i]``.
    thresholds : ndarray, shape (n_thresholds,)
        Distinct score values in decreasing order (dtype of ``y_score``).
    """
    if sample_weight is not None:
        keep = sample_weight != 0
        if not keep.all():
            is_pos, y_score, sample_weight = is_pos[keep], y_score[keep], sample_weight[keep]
        order = stable_descending_order(y_score)
        s = y_score[order]
        t = is_pos[order].astype(np.float64)
        w = sample_weight[order]
        idx = np.flatnonzero(np.diff(s))
        idx = np.append(idx, s.shape[0] - 1)
        tps = np.cumsum(t * w)[idx]
        fps = np.cumsum((1.0 - t) * w)[idx]
        return fps, tps, s[idx]

    s = np.sort(y_score)  # ascending value sort: no indirect, stable argsort needed
    n = s.shape[0]
    if n == 0:
        return np.zeros(0), np.zeros(0), s
    boundary = np.empty(n, dtype=bool)
    boundary[0] = True
    np.not_equal(s[1:], s[:-1], out=boundary[1:])
    starts = np.flatnonzero(boundary)  # first index of each distinct value
    del boundary
    thresholds = s[starts[::-1]]  # decreasing
    # each positive lands at the start of its tie group in the sorted scores
    pos_at = np.searchsorted(s, np.sort(y_score[is_pos]), side="left")
    del s
    pos_in_group = np.bincount(pos_at, minlength=n)[starts[::-1]]
    tps = np.cumsum(pos_in_group, dtype=np.float64)
    del pos_in_group
    # samples with score >= threshold, minus the positives among them
    fps = np.subtract(n, starts[::-1], dtype=np.float64)
    fps -= tps
    return fps, tps, thresholds


def positive_rank_counts(is_pos, y_score):
    """Counts at each distinct positive score, for AP without a global sort.

    Returns ``(tp_at, fp_at, n_at)``: for each distinct score ``v`` held by at least one
    positive (in decreasing order), the number of positives and of negatives with score
    ``>= v`` and the number of positives with score exactly ``v``.
    """
    pos = np.sort(y_score[is_pos])
    n_pos = pos.shape[0]
    if n_pos == 0:
        z = np.zeros(0)
        return z, z, z
    neg = np.sort(y_score[~is_pos])
    starts = np.flatnonzero(np.concatenate(([True], pos[1:] != pos[:-1])))
    values = pos[starts]
    n_at = np.diff(np.append(starts, n_pos)).astype(np.float64)
    tp_at = (n_pos - starts).astype(np.float64)
    fp_at = (neg.shape[0] - np.searchsorted(neg, values, side="left")).astype(np.float64)
    return tp_at[::-1], fp_at[::-1], n_at[::-1]
