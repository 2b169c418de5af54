"""Average precision and the estimators of the area under the precision-recall curve.

:func:`average_precision_score` has scikit-learn's values for binary, multilabel and
multiclass input; :func:`auc_pr` offers six ways of filling the gaps between the points
of the empirical curve (Boyd, Eng & Page 2013).
"""

from __future__ import annotations

import numpy as np

from .._core import (
    as_array,
    check_1d,
    plain,
    type_of_target,
    unique_labels,
    warn_at_caller,
)
from ..exceptions import UndefinedMetricWarning
from ._counting import positive_rank_counts
from ._curves import _trapezoid_area, pr_from_counts
from ._multiclass_roc import _average_binary_score, _check_average, _check_weights, _score_matrix
from ._ranked import Ranked, as_ranked

__all__ = ["AUC_PR_ESTIMATORS", "auc_pr", "average_precision_score"]

AUC_PR_ESTIMATORS = (
    "average_precision",
    "lower_trapezoid",
    "upper_trapezoid",
    "interpolated_median",
    "davis_goadrich",
    "trapezoid",
)
_RECALL_GROUP_ESTIMATORS = ("lower_trapezoid", "upper_trapezoid", "interpolated_median")


def check_auc_pr_estimator(estimator):
    """Raise ``ValueError`` unless ``estimator`` is one of :data:`AUC_PR_ESTIMATORS`."""
    if estimator not in AUC_PR_ESTIMATORS:
        raise ValueError(f"`estimator` must be one of {AUC_PR_ESTIMATORS}; got {plain(estimator)}")


# --------------------------------------------------------------------------------------
# Average precision
# --------------------------------------------------------------------------------------
def _average_precision(r):
    """AP of a :class:`Ranked`, computed once per prepared object (kept in its memo)."""
    memo = r.derived
    if "average_precision" not in memo:
        memo["average_precision"] = _compute_average_precision(r)
    return memo["average_precision"]


def _compute_average_precision(r):
    """AP of a :class:`Ranked`; the fast per-class-sort path when unweighted."""
    if r.sample_weight is None:
        tp_at, fp_at, n_at = positive_rank_counts(r.is_pos, r.y_score)
        if tp_at.shape[0] == 0:
            warn_at_caller(
                "No positive class found in y_true, recall is set to one for all thresholds.",
                UndefinedMetricWarning,
            )
            return 0.0
        n_pos = tp_at[-1]  # lowest positive score: all positives at or above it
        # sum over distinct positive scores of (recall gain) * precision
        return float(max(0.0, np.sum((n_at / n_pos) * (tp_at / (tp_at + fp_at)))))
    fps, tps, thr = r.counts
    if tps.shape[0] == 0 or tps[-1] == 0:  # no positive weight: the curve's warning
        precision, recall, _ = pr_from_counts(fps, tps, thr)
        return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))
    return float(max(0.0, -np.sum(_step_areas(fps, tps))))


def _step_areas(fps, tps, chunk=1 << 14):
    """``np.diff(recall) * precision[:-1]`` of :func:`pr_from_counts` (same floats, same
    operations), in chunks: without the curve's arrays (memory of one array, not four).
    ``tps[-1]`` must be positive."""
    m = tps.shape[0]
    t, f = tps[::-1], fps[::-1]  # the curve's increasing-threshold layout
    n_pos = tps[-1]
    out = np.empty(m)
    for a in range(0, m, chunk):
        b = min(a + chunk, m)
        recall = np.empty(b - a + 1)
        np.divide(t[a : b + 1], n_pos, out=recall[: min(b + 1, m) - a])
        if b == m:
            recall[-1] = 0.0  # the curve's last point (recall 0, precision 1)
        precision = np.add(t[a:b], f[a:b])
        np.divide(t[a:b], precision, out=precision, where=precision != 0)
        np.subtract(recall[1:], recall[:-1], out=out[a:b])
        out[a:b] *= precision
    return out


def _binary_average_precision(is_pos, score, w):
    """AP of already validated arrays (resampling loops build no :class:`Ranked` API)."""
    return _average_precision(Ranked(is_pos, score, w, True))


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    r"""Average precision (AP): the step-wise area under the empirical PR curve.

    .. math:: \mathrm{AP} = \sum_n (R_n - R_{n-1}) P_n

    over thresholds, no interpolation. Same values as
    :func:`sklearn.metrics.average_precision_score` for binary, multilabel-indicator and
    multiclass (one-vs-rest over the labels present) input.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes), or Ranked
        Binary labels, a label indicator matrix, or multiclass labels; or a prepared
        binary :class:`~bayes_prc.empirical.Ranked` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes), or None
        Scores. For multiclass ``y_true``, one column per class in sorted label order.
    average : {"macro", "micro", "weighted", "samples"} or None, default="macro"
        Averaging over classes (ignored for binary input): "micro" pools all
        (sample, class) pairs; "macro" is the plain mean of per-class AP; "weighted"
        weighs each class by its support; "samples" averages per-sample AP over the
        labels of each row; None returns the per-class values.
    pos_label : int, float, bool or str, default=1
        Positive label for binary ``y_true`` (fixed to 1 otherwise).
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float or ndarray of shape (n_classes,)

    References
    ----------
    Zhu, M. (2004). Recall, precision and average precision. Working paper 2004-09,
    University of Waterloo.

    Examples
    --------
    >>> from bayes_prc import average_precision_score
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    _check_average(average)
    if isinstance(y_true, Ranked):
        return _average_precision(as_ranked(y_true, y_score, sample_weight=sample_weight))
    y_arr = as_array(y_true, "y_true")
    y_type = type_of_target(y_arr, "y_true")
    if y_type == "binary":
        y1 = check_1d(y_arr, "y_true")
        present = unique_labels(y1)
        if present.size == 2 and pos_label not in present.tolist():
            raise ValueError(  # scikit-learn's message, word for word
                f"pos_label={pos_label} is not a valid label. It should be one of {present}"
            )
        r = as_ranked(y1, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return _average_precision(r)
    return _multi_average_precision(y_arr, y_type, y_score, average, pos_label, sample_weight)


def _fixed_pos_label(pos_label, y_type):
    if pos_label != 1:
        raise ValueError(  # scikit-learn's message, then the value
            f"Parameter pos_label is fixed to 1 for {y_type} y_true. Do not set pos_label "
            f"or set pos_label to 1. Got pos_label={pos_label!r}."
        )


def _multi_average_precision(y_arr, y_type, y_score, average, pos_label, sample_weight):
    """:func:`average_precision_score` of multilabel-indicator or multiclass ``y_true``."""
    if y_type == "multilabel-indicator":
        _fixed_pos_label(pos_label, y_type)
        y2 = y_arr == 1
    elif y_type == "multiclass":
        _fixed_pos_label(pos_label, y_type)
        y1 = check_1d(y_arr, "y_true")
        y2 = y1[:, None] == unique_labels(y1)[None, :]
    else:
        raise ValueError(f"`y_true` of type {y_type!r} is not supported for average precision")
    s2 = _score_matrix(y_score, y2.shape, y_type)
    w = _check_weights(sample_weight, y2.shape[0])
    return _average_binary_score(
        lambda is_pos, s, sw: _average_precision(Ranked(is_pos, s, sw, 1)), y2, s2, average, w
    )


# --------------------------------------------------------------------------------------
# AUC-PR estimators
# --------------------------------------------------------------------------------------
def _recall_group_area(precision, recall, estimator):
    """The recall-group estimators of :func:`auc_pr` from a curve in scikit-learn's layout.

    In that layout (increasing thresholds, then the artificial point) the points of one
    recall level are contiguous and their precision is non-decreasing (true positives
    fixed, false positives falling as the threshold rises), so the minimum, maximum and
    median of a group are its first, last and middle entries: no per-group loop.
    """
    n = recall.shape[0]
    starts = np.flatnonzero(np.concatenate(([True], recall[1:] != recall[:-1])))
    ends = np.append(starts[1:], n)
    length = ends - starts
    dr = np.diff(recall[starts][::-1])  # groups in increasing recall
    if estimator == "interpolated_median":
        mid = (precision[starts + (length - 1) // 2] + precision[starts + length // 2]) / 2
        p_med = mid[::-1]
        return float(np.sum((p_med[:-1] + p_med[1:]) / 2 * dr))
    p_max = precision[ends - 1][::-1]
    if estimator == "upper_trapezoid":
        return float(np.sum((p_max[:-1] + p_max[1:]) / 2 * dr))
    p_min = precision[starts][::-1]
    return float(np.sum((p_min[:-1] + p_max[1:]) / 2 * dr))  # lower_trapezoid


def _davis_goadrich_area(fps, tps):
    """Exact area under Davis & Goadrich's interpolation between consecutive PR points.

    Between points A=(TP_a, FP_a) and B=(TP_b, FP_b) false positives grow linearly with
    true positives, so precision(x) = (TP_a + x) / (TP_a + FP_a + (1 + s) x) with
    s = (FP_b - FP_a) / (TP_b - TP_a) for x in [0, TP_b - TP_a]; its integral is taken
    in closed form. The curve starts at (TP, FP) = (0, 0), where the first point's
    precision extends to recall 0.
    """
    n_pos = tps[-1]
    tp0 = np.concatenate(([0.0], tps[:-1]))
    fp0 = np.concatenate(([0.0], fps[:-1]))
    dtp = tps - tp0
    dfp = fps - fp0
    seg = dtp > 0
    a, b0, d = tp0[seg], tp0[seg] + fp0[seg], dtp[seg]
    k = 1.0 + dfp[seg] / d
    area = np.empty_like(a)
    start = b0 == 0
    # from the origin precision is constant: x / (k x) = 1 / k
    area[start] = d[start] / k[start]
    ns = ~start
    coef = a[ns] - b0[ns] / k[ns]
    area[ns] = d[ns] / k[ns] + coef / k[ns] * np.log1p(k[ns] * d[ns] / b0[ns])
    return float(np.sum(area) / n_pos)


def auc_pr(
    y_true,
    y_score,
    *,
    estimator="average_precision",
    pos_label=None,
    sample_weight=None,
):
    """Area under the precision-recall curve by one of several estimators.

    The true PR curve is a function precision(recall) of the population; a finite test
    set shows it only at the recalls k/P reached by its thresholds, and how the gaps are
    filled decides the estimate (Boyd, Eng & Page 2013):

    ``"average_precision"``
        The step function: each recall gain weighted by the precision reached there
        (scikit-learn's AP). No interpolation, ties handled at the threshold level. The
        recommended default; nearly unbiased for large samples.
    ``"lower_trapezoid"``
        Group the PR points by recall; join the *minimum* precision of each recall
        level to the *maximum* precision of the next with trapezoids (Boyd et al.;
        seed 000). A conservative area that does not reward the saw-tooth peaks.
    ``"upper_trapezoid"``
        Trapezoids between the maximum precisions of consecutive recall levels: the
        optimistic counterpart, an upper envelope of the saw.
    ``"interpolated_median"``
        Trapezoids between the median precisions of consecutive recall levels.
    ``"davis_goadrich"``
        Davis & Goadrich (2006): between two PR points the false positives grow linearly
        with the true positives, so precision follows a hyperbola, not a line; this
        returns the exact area under that non-linear interpolation.
    ``"trapezoid"``
        Straight lines between consecutive points of the curve, including the artificial
        first point (recall 0, precision 1), i.e. ``sklearn.metrics.auc(recall,
        precision)``. Linear interpolation in PR space is optimistic (Davis & Goadrich
        2006): precision between two points is below the straight line, and the
        artificial point adds area when the top-ranked item is negative.

    All estimators include the artificial point (0, 1) where they interpolate from recall
    0; with tied scores they all work on threshold-level points (a tie group is one
    point), never on an arbitrary order within the tie.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Or a prepared :class:`~bayes_prc.empirical.Ranked` and None.
    estimator : str, default="average_precision"
        One of :data:`AUC_PR_ESTIMATORS`.
    pos_label : label, default=None
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float

    References
    ----------
    Boyd, K., Eng, K. H. and Page, C. D. (2013). Area under the precision-recall curve:
    point estimates and confidence intervals. ECML PKDD.
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML.

    Examples
    --------
    >>> from bayes_prc import auc_pr
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> [round(auc_pr(y, s, estimator=e), 4) for e in ("average_precision", "trapezoid")]
    [0.8333, 0.7917]
    """
    check_auc_pr_estimator(estimator)
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return _auc_pr(r, estimator)


def _auc_pr(r, estimator):
    """:func:`auc_pr` of a :class:`Ranked` (``estimator`` already checked)."""
    if estimator == "average_precision":
        return _average_precision(r)
    fps, tps, thr = r.counts
    if tps.shape[0] == 0 or tps[-1] == 0:
        warn_at_caller(
            "No positive class found in y_true; the area under the PR curve is 0.",
            UndefinedMetricWarning,
        )
        return 0.0
    if estimator == "davis_goadrich":
        return _davis_goadrich_area(fps, tps)
    precision, recall, _ = pr_from_counts(fps, tps, thr, warn=False)
    if estimator == "trapezoid":
        return _trapezoid_area(recall, precision)
    return _recall_group_area(precision, recall, estimator)


def auc_pr_validated(is_pos, score, w, estimator):
    """:func:`auc_pr` of already validated arrays (for resampling loops).

    Parameters
    ----------
    is_pos : ndarray of bool
        Positive mask, as :func:`as_ranked` returns it.
    score : ndarray of float
        Finite scores, aligned with ``is_pos``.
    w : ndarray of float or None
        Sample weights.
    estimator : str
        One of :data:`AUC_PR_ESTIMATORS` (not checked here).

    Returns
    -------
    float
    """
    return _auc_pr(Ranked(is_pos, score, w, True), estimator)
