"""Empirical precision-recall and ROC curves, and the binary ROC AUC kernel.

Arrays, order, dtypes, warnings and errors follow scikit-learn 1.9's functions of the same
names, so the two can be swapped; values agree to floating-point round-off (tested to
1e-12, thresholds exactly). Every curve is read off :attr:`Ranked.counts`. The public
``roc_auc_score`` (binary, multilabel, multiclass) is in :mod:`._multiclass_roc`.
"""

from __future__ import annotations

import numpy as np

from .._core import check_bool, warn_at_caller
from ..exceptions import UndefinedMetricWarning
from ._counting import roc_corner_counts
from ._ranked import as_ranked

__all__ = ["precision_recall_curve", "roc_curve"]


def pr_from_counts(fps, tps, thresholds, drop_intermediate=False, warn=True):
    """Precision, recall and thresholds in scikit-learn's layout from descending counts.

    ``fps``, ``tps``, ``thresholds`` are :func:`binary_clf_counts` output (highest
    threshold first); they are not modified, and the returned thresholds are a reversed
    view of ``thresholds``.
    """
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    m = tps.shape[0]
    # outputs are filled in reversed (increasing threshold) order without extra copies
    precision = np.empty(m + 1)
    recall = np.empty(m + 1)
    p = precision[:m]
    np.add(tps[::-1], fps[::-1], out=p)  # predicted positives; 0 stays 0 below
    np.divide(tps[::-1], p, out=p, where=p != 0)
    precision[m] = 1.0
    if m == 0 or tps[-1] == 0:
        if warn:
            warn_at_caller(
                "No positive class found in y_true, recall is set to one for all thresholds.",
                UndefinedMetricWarning,
            )
        recall[:m] = 1.0
    else:
        np.divide(tps[::-1], tps[-1], out=recall[:m])
    recall[m] = 0.0
    return precision, recall, thresholds[::-1]


def precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    """Empirical precision-recall pairs at every distinct score threshold.

    Same arrays, order, dtypes, warnings and errors as
    :func:`sklearn.metrics.precision_recall_curve` (scikit-learn 1.9). The last point
    ``(recall=0, precision=1)`` is artificial: it has no threshold and is there so the
    curve starts on the precision axis.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranked
        Binary labels: {0, 1}, {-1, 1}, booleans, or any two labels with ``pos_label``.
        A prepared :class:`~bayes_prc.empirical.Ranked` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Scores, probabilities or decision values; higher means more likely positive.
    pos_label : int, float, bool or str, default=None
        The positive label. ``None`` means 1 (labels must then be {0, 1} or {-1, 1}).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Drop thresholds that do not change recall, keeping the first and last point of
        each vertical run. Lighter curves for plotting; the step area is unchanged.

    Returns
    -------
    precision : ndarray of float64, shape (n_thresholds + 1,)
        Precision at each threshold, increasing threshold order, then 1.
    recall : ndarray of float64, shape (n_thresholds + 1,)
        Recall at each threshold (decreasing), then 0.
    thresholds : ndarray, shape (n_thresholds,)
        Distinct scores in increasing order, dtype of ``y_score``.

    Warns
    -----
    UndefinedMetricWarning
        If ``y_true`` has no positive: recall is set to one.

    References
    ----------
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML.

    Examples
    --------
    >>> from bayes_prc import precision_recall_curve
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(3).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    check_bool(drop_intermediate, "drop_intermediate")
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return pr_from_counts(*r.counts, drop_intermediate)


def _roc_from_counts(fps, tps, thresholds, drop_intermediate):
    """``(fpr, tpr, thresholds)`` of :func:`roc_curve` from descending counts."""
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    fpr, tpr = _roc_rates(fps, tps)
    return fpr, tpr, np.concatenate(([np.inf], thresholds.astype(np.float64)))


def _roc_rates(fps, tps):
    """``(fpr, tpr)`` of :func:`roc_curve` from the kept counts: the point (0, 0) first.

    Each rate is ``counts / counts[-1]`` divided in place of the prepended copy (the
    same floats as a new array, in half the memory).
    """
    rates = []
    for counts, message in (
        (fps, "No negative samples in y_true, false positive value should be meaningless"),
        (tps, "No positive samples in y_true, true positive value should be meaningless"),
    ):
        rate = np.concatenate(([0.0], counts))
        total = rate[-1].copy()
        if total <= 0:
            warn_at_caller(message, UndefinedMetricWarning)
            rate[:] = np.nan
        else:
            np.divide(rate, total, out=rate)
        rates.append(rate)
    return tuple(rates)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: false and true positive rates per threshold.

    Same output as :func:`sklearn.metrics.roc_curve`: the first threshold is ``inf`` so
    that the curve starts at (0, 0); thresholds are float64 and decreasing. Parameters
    as :func:`precision_recall_curve`; ``drop_intermediate`` drops thresholds on
    straight segments of the curve.

    Returns
    -------
    fpr, tpr : ndarray of float64, shape (n_thresholds + 1,)
    thresholds : ndarray of float64, shape (n_thresholds + 1,)

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27.

    Examples
    --------
    >>> from bayes_prc import roc_curve
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    check_bool(drop_intermediate, "drop_intermediate")
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return _roc_from_counts(*r.counts, drop_intermediate)


def _binary_roc_auc(r, max_fpr=None):
    """ROC AUC of a :class:`Ranked` (``max_fpr`` already checked), as scikit-learn's.

    With one class present (counted without weights, as scikit-learn does) it warns and
    returns NaN; ``max_fpr`` below 1 gives the standardized partial AUC (McClish 1989).
    """
    if not 0 < r.n_pos < r.n_samples:
        warn_at_caller(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            UndefinedMetricWarning,
        )
        return float("nan")
    corners = (
        None if "counts" in vars(r) else roc_corner_counts(r.is_pos, r.y_score, r.sample_weight)
    )
    if corners is None:  # from the whole curve (counted already, or by numpy)
        fpr, tpr, _ = _roc_from_counts(*r.counts, True)
    else:  # the compiled kernels count the kept points only: the same floats
        fpr, tpr = _roc_rates(*corners)
    del corners
    if max_fpr is None or max_fpr == 1:
        return _trapezoid_area(fpr, tpr)
    stop = np.searchsorted(fpr, max_fpr, "right")
    x_interp = [fpr[stop - 1], fpr[stop]]
    y_interp = [tpr[stop - 1], tpr[stop]]
    tpr = np.append(tpr[:stop], np.interp(max_fpr, x_interp, y_interp))
    fpr = np.append(fpr[:stop], max_fpr)
    partial_auc = _trapezoid_area(fpr, tpr)
    min_area = 0.5 * max_fpr**2
    max_area = max_fpr
    return float(0.5 * (1 + (partial_auc - min_area) / (max_area - min_area)))


def _trapezoid_area(x, y):
    dx = np.diff(x)
    direction = 1.0
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1.0
        else:
            raise ValueError("`x` is neither increasing nor decreasing")
    return float(direction * np.trapezoid(y, x))
