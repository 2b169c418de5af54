"""Empirical precision-recall and ROC curves, average precision and its estimators.

Pure numpy. Every function goes through :mod:`bayes_prc._validation` and the counting
kernel :func:`bayes_prc.empirical.binary_clf_counts`. Curves, orders, dtypes, warnings
and errors follow scikit-learn 1.9's functions of the same names, so the two can be
swapped; values agree to floating-point round-off (tested to 1e-12, thresholds exactly).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .empirical._counting import binary_clf_counts, positive_rank_counts
from ._validation import (
    as_array,
    check_1d,
    check_binary_target,
    check_consistent_length,
    check_finite_scores,
    check_sample_weight,
    type_of_target,
    unique_labels,
    validate_binary_inputs,
)
from .exceptions import UndefinedMetricWarning

__all__ = [
    "precision_recall_curve",
    "average_precision_score",
    "roc_curve",
    "roc_auc_score",
    "auc_pr",
    "AUC_PR_ESTIMATORS",
    "precision_at_k",
    "max_fbeta",
    "recall_at_precision",
    "precision_at_recall",
    "chance_baseline",
    "FBetaResult",
    "OperatingPoint",
]

AUC_PR_ESTIMATORS = (
    "average_precision",
    "lower_trapezoid",
    "upper_trapezoid",
    "interpolated_median",
    "davis_goadrich",
    "trapezoid",
)


def _is_dask(x):
    """True for dask collections and dask-backed xarray objects (never imports dask).

    Such input goes to :mod:`bayes_prc.scale`, which computes lazily and in parallel.
    """
    if type(x).__module__.partition(".")[0] == "dask":
        return True
    data = getattr(x, "data", None) if hasattr(x, "dims") else None  # xarray.DataArray
    return type(data).__module__.partition(".")[0] == "dask"


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"`{name}` must be True or False; got {value!r}")


# --------------------------------------------------------------------------------------
# Curves
# --------------------------------------------------------------------------------------
def _curve_counts(y_true, y_score, pos_label, sample_weight):
    is_pos, score, w, _ = validate_binary_inputs(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return binary_clf_counts(is_pos, score, w)


def _pr_from_counts(fps, tps, thresholds, drop_intermediate=False, warn=True):
    """Precision/recall arrays in scikit-learn's layout; overwrites ``fps``."""
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    m = tps.shape[0]
    # outputs are filled in reversed (increasing threshold) order without extra copies
    precision = np.empty(m + 1)
    recall = np.empty(m + 1)
    ps = np.add(tps, fps, out=fps)  # fps is a temporary of the caller: reuse its memory
    precision[:m] = 0.0
    np.divide(tps[::-1], ps[::-1], out=precision[:m], where=ps[::-1] != 0)
    del ps
    precision[m] = 1.0
    if m == 0 or tps[-1] == 0:
        if warn:
            warnings.warn(
                "No positive class found in y_true, recall is set to one for all thresholds.",
                UndefinedMetricWarning,
                stacklevel=3,
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
    y_true : array-like of shape (n_samples,)
        Binary labels: {0, 1}, {-1, 1}, booleans, or any two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
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

    Examples
    --------
    >>> from bayes_prc import precision_recall_curve
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(3).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    if _is_dask(y_true) or _is_dask(y_score):  # see bayes_prc.scale
        from .scale import _dask_precision_recall_curve

        return _dask_precision_recall_curve(
            y_true,
            y_score,
            pos_label=pos_label,
            sample_weight=sample_weight,
            drop_intermediate=drop_intermediate,
        )
    _check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = _curve_counts(y_true, y_score, pos_label, sample_weight)
    return _pr_from_counts(fps, tps, thresholds, drop_intermediate)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: false and true positive rates per threshold.

    Same output as :func:`sklearn.metrics.roc_curve`: the first threshold is ``inf`` so
    that the curve starts at (0, 0); thresholds are float64 and decreasing.

    Returns
    -------
    fpr, tpr : ndarray of float64, shape (n_thresholds + 1,)
    thresholds : ndarray of float64, shape (n_thresholds + 1,)

    Examples
    --------
    >>> from bayes_prc import roc_curve
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    _check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = _curve_counts(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    tps = np.concatenate(([0.0], tps))
    fps = np.concatenate(([0.0], fps))
    thresholds = np.concatenate(([np.inf], thresholds.astype(np.float64)))
    if fps[-1] <= 0:
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thresholds


def roc_auc_score(y_true, y_score, *, sample_weight=None, max_fpr=None):
    """Area under the ROC curve for binary labels (trapezoid rule, ties count half).

    Equals :func:`sklearn.metrics.roc_auc_score` on binary input, including the
    standardized partial AUC (McClish correction) when ``max_fpr`` is given. The larger
    label is the positive class. With a single class present it warns and returns NaN.

    Examples
    --------
    >>> from bayes_prc import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y = check_1d(y_true, "y_true")
    if type_of_target(y) != "binary":
        raise ValueError(
            f"`y_true` must be binary for roc_auc_score; got {np.unique(y).size} classes"
        )
    if max_fpr is not None and not (0 < max_fpr <= 1):
        raise ValueError(f"`max_fpr` must be in (0, 1]; got {max_fpr!r}")
    classes = np.unique(y)
    if classes.size != 2:
        check_consistent_length(y_true=y, y_score=check_1d(y_score, "y_score"))
        warnings.warn(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float("nan")
    fpr, tpr, _ = roc_curve(y, y_score, pos_label=classes[1], sample_weight=sample_weight)
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


# --------------------------------------------------------------------------------------
# Average precision
# --------------------------------------------------------------------------------------
def _binary_average_precision(is_pos, score, w):
    """AP from validated input; the fast per-class-sort path when unweighted."""
    if w is None:
        tp_at, fp_at, n_at = positive_rank_counts(is_pos, score)
        if tp_at.shape[0] == 0:
            warnings.warn(
                "No positive class found in y_true, recall is set to one for all thresholds.",
                UndefinedMetricWarning,
                stacklevel=4,
            )
            return 0.0
        n_pos = tp_at[-1]  # lowest positive score: all positives at or above it
        # sum over distinct positive scores of (recall gain) * precision
        return float(max(0.0, np.sum((n_at / n_pos) * (tp_at / (tp_at + fp_at)))))
    fps, tps, thr = binary_clf_counts(is_pos, score, w)
    precision, recall, _ = _pr_from_counts(fps, tps, thr)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _label_binarize(y, classes):
    return (y[:, None] == np.asarray(classes)[None, :]).astype(np.int64)


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    r"""Average precision (AP): the step-wise area under the empirical PR curve.

    .. math:: \mathrm{AP} = \sum_n (R_n - R_{n-1}) P_n

    over thresholds, no interpolation. Same values as
    :func:`sklearn.metrics.average_precision_score` for binary, multilabel-indicator and
    multiclass (one-vs-rest over the labels present) input.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary labels, a label indicator matrix, or multiclass labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
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

    Examples
    --------
    >>> from bayes_prc import average_precision_score
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    if _is_dask(y_true) or _is_dask(y_score):  # see bayes_prc.scale
        from .scale import _dask_average_precision_score

        return _dask_average_precision_score(
            y_true, y_score, average=average, pos_label=pos_label, sample_weight=sample_weight
        )
    average_options = (None, "micro", "macro", "weighted", "samples")
    if average not in average_options:
        raise ValueError(f"`average` must be one of {average_options}; got {average!r}")
    y_arr = as_array(y_true, "y_true")
    y_type = type_of_target(y_arr, "y_true")
    if y_type == "binary":
        y1 = check_1d(y_arr, "y_true")
        present = unique_labels(y1)
        if present.size == 2 and pos_label not in present.tolist():
            raise ValueError(
                f"`pos_label`={pos_label!r} is not a valid label: it should be one of "
                f"{present.tolist()}"
            )
        is_pos, score, w, _ = validate_binary_inputs(
            y1, y_score, pos_label=pos_label, sample_weight=sample_weight
        )
        return _binary_average_precision(is_pos, score, w)
    if y_type == "multilabel-indicator":
        if pos_label != 1:
            raise ValueError(
                "`pos_label` is fixed to 1 for multilabel-indicator y_true; "
                f"got pos_label={pos_label!r}"
            )
        y2 = y_arr.astype(np.int64)
    elif y_type == "multiclass":
        if pos_label != 1:
            raise ValueError(
                f"`pos_label` is fixed to 1 for multiclass y_true; got pos_label={pos_label!r}"
            )
        y1 = check_1d(y_arr, "y_true")
        y2 = _label_binarize(y1, np.unique(y1))
    else:
        raise ValueError(f"`y_true` of type {y_type!r} is not supported for average precision")

    s2 = as_array(y_score, "y_score")
    if s2.ndim == 1:
        s2 = s2[:, None]
    if s2.shape != y2.shape:
        raise ValueError(
            f"`y_score` must have shape (n_samples, n_classes) = {y2.shape} for "
            f"{y_type} y_true; got {s2.shape}"
        )
    check_finite_scores(s2, "y_score")
    w = check_sample_weight(sample_weight, y2.shape[0])

    def binary_ap(yc, sc, wc):
        is_pos = yc == 1
        return _binary_average_precision(is_pos, sc, wc)

    score_weight, average_weight, axis = w, None, 1
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y2.shape[1])
        y2, s2 = y2.ravel()[:, None], s2.ravel()[:, None]
    elif average == "weighted":
        average_weight = (
            np.sum(y2 * score_weight[:, None], axis=0)
            if score_weight is not None
            else np.sum(y2, axis=0)
        )
        if np.isclose(average_weight.sum(), 0.0):
            return 0
    elif average == "samples":
        average_weight, score_weight, axis = score_weight, None, 0

    n_items = s2.shape[axis]
    scores = np.zeros(n_items)
    for c in range(n_items):
        yc = y2[:, c] if axis == 1 else y2[c, :]
        sc = s2[:, c] if axis == 1 else s2[c, :]
        scores[c] = binary_ap(yc, sc, score_weight)
    if average is None:
        return scores
    if average_weight is not None:
        average_weight = np.asarray(average_weight, dtype=np.float64)
        scores[average_weight == 0] = 0
    return float(np.average(scores, weights=average_weight))


# --------------------------------------------------------------------------------------
# AUC-PR estimators
# --------------------------------------------------------------------------------------
def _recall_groups(precision, recall):
    """Group PR points by recall (increasing); min, max and median precision per group."""
    order = np.argsort(recall, kind="stable")
    r, p = recall[order], precision[order]
    starts = np.flatnonzero(np.concatenate(([True], r[1:] != r[:-1])))
    r_u = r[starts]
    p_min = np.minimum.reduceat(p, starts)
    p_max = np.maximum.reduceat(p, starts)
    bounds = np.append(starts, r.shape[0])
    p_med = np.array([np.median(p[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)])
    return r_u, p_min, p_max, p_med


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
    if estimator not in AUC_PR_ESTIMATORS:
        raise ValueError(f"`estimator` must be one of {AUC_PR_ESTIMATORS}; got {estimator!r}")
    if _is_dask(y_true) or _is_dask(y_score):  # see bayes_prc.scale
        from .scale import _dask_auc_pr

        return _dask_auc_pr(
            y_true, y_score, estimator=estimator, pos_label=pos_label, sample_weight=sample_weight
        )
    is_pos, score, w, _ = validate_binary_inputs(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _auc_pr_validated(is_pos, score, w, estimator)


def _auc_pr_validated(is_pos, score, w, estimator):
    if estimator == "average_precision":
        return _binary_average_precision(is_pos, score, w)
    fps, tps, thr = binary_clf_counts(is_pos, score, w)
    if tps.shape[0] == 0 or tps[-1] == 0:
        warnings.warn(
            "No positive class found in y_true; the area under the PR curve is 0.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return 0.0
    if estimator == "davis_goadrich":
        return _davis_goadrich_area(fps, tps)
    precision, recall, _ = _pr_from_counts(fps, tps, thr, warn=False)
    if estimator == "trapezoid":
        return _trapezoid_area(recall, precision)
    r, p_min, p_max, p_med = _recall_groups(precision, recall)
    dr = np.diff(r)
    if estimator == "lower_trapezoid":
        return float(np.sum((p_min[:-1] + p_max[1:]) / 2 * dr))
    if estimator == "upper_trapezoid":
        return float(np.sum((p_max[:-1] + p_max[1:]) / 2 * dr))
    return float(np.sum((p_med[:-1] + p_med[1:]) / 2 * dr))  # interpolated_median


# --------------------------------------------------------------------------------------
# Operating points
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FBetaResult:
    """Best F-beta over the thresholds of the empirical curve."""

    score: float
    threshold: float
    precision: float
    recall: float
    beta: float


@dataclass(frozen=True)
class OperatingPoint:
    """An operating point chosen for a target.

    ``value`` is the answer (the recall for :func:`recall_at_precision`, the precision
    for :func:`precision_at_recall`); ``threshold`` classifies ``score >= threshold`` as
    positive; ``reachable`` is False when no threshold meets the target, in which case
    ``value`` is 0.0 and ``threshold`` is +inf (predict nothing positive).
    """

    value: float
    threshold: float
    precision: float
    recall: float
    reachable: bool


def _curve_arrays(y_true, y_score, pos_label, sample_weight):
    fps, tps, thr = _curve_counts(y_true, y_score, pos_label, sample_weight)
    if tps[-1] == 0:
        raise ValueError("`y_true` has no positive sample; recall is undefined")
    precision = np.zeros_like(tps)
    np.divide(tps, tps + fps, out=precision, where=(tps + fps) != 0)
    return precision, tps / tps[-1], thr  # thresholds decreasing, recall increasing


def precision_at_k(y_true, y_score, k, *, pos_label=None, sample_weight=None):
    """Precision among the ``k`` highest-scored items, ties shared fairly.

    When the k-th place falls inside a group of tied scores, the group contributes its
    positive fraction for the places it fills (the expectation over random tie-breaking),
    so the result does not depend on input order. With weights, ``k`` counts weight.

    Examples
    --------
    >>> from bayes_prc import precision_at_k
    >>> precision_at_k([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], k=2)
    0.5
    """
    fps, tps, _ = _curve_counts(y_true, y_score, pos_label, sample_weight)
    total = fps[-1] + tps[-1]
    if isinstance(k, bool) or not np.isscalar(k) or not (0 < k <= total):
        raise ValueError(f"`k` must be a number in (0, n_samples={total:g}]; got {k!r}")
    n_ge = fps + tps
    i = int(np.searchsorted(n_ge, k, side="left"))  # first threshold reaching k items
    prev_n = n_ge[i - 1] if i > 0 else 0.0
    prev_tp = tps[i - 1] if i > 0 else 0.0
    group_n = n_ge[i] - prev_n
    group_tp = tps[i] - prev_tp
    tp = prev_tp + (k - prev_n) * (group_tp / group_n)
    return float(tp / k)


def max_fbeta(y_true, y_score, *, beta=1.0, pos_label=None, sample_weight=None):
    """The threshold maximizing F-beta on the empirical curve.

    F-beta = (1 + beta^2) P R / (beta^2 P + R), 0 where P = R = 0. Ties between
    thresholds go to the highest threshold.

    Returns
    -------
    FBetaResult
        ``score``, ``threshold``, ``precision``, ``recall``, ``beta``.

    Examples
    --------
    >>> from bayes_prc import max_fbeta
    >>> res = max_fbeta([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(res.score, 4), res.threshold
    (0.8, 0.35)
    """
    if not np.isscalar(beta) or not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"`beta` must be a positive finite number; got {beta!r}")
    precision, recall, thr = _curve_arrays(y_true, y_score, pos_label, sample_weight)
    b2 = float(beta) ** 2
    denom = b2 * precision + recall
    f = np.zeros_like(precision)
    np.divide((1 + b2) * precision * recall, denom, out=f, where=denom > 0)
    i = int(np.argmax(f))
    return FBetaResult(
        score=float(f[i]),
        threshold=thr[i].item(),
        precision=float(precision[i]),
        recall=float(recall[i]),
        beta=float(beta),
    )


def recall_at_precision(y_true, y_score, min_precision, *, pos_label=None, sample_weight=None):
    """Highest recall among thresholds whose precision is at least ``min_precision``.

    Returns
    -------
    OperatingPoint
        With ``reachable=False`` (and a warning) when no threshold reaches the precision.

    Examples
    --------
    >>> from bayes_prc import recall_at_precision
    >>> op = recall_at_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.6)
    >>> op.value, op.threshold, round(op.precision, 4)
    (1.0, 0.35, 0.6667)
    """
    if not np.isscalar(min_precision) or not (0 <= min_precision <= 1):
        raise ValueError(f"`min_precision` must be in [0, 1]; got {min_precision!r}")
    precision, recall, thr = _curve_arrays(y_true, y_score, pos_label, sample_weight)
    ok = np.flatnonzero(precision >= min_precision)
    if ok.size == 0:
        warnings.warn(
            f"no threshold reaches precision >= {min_precision}; the best is "
            f"{precision.max():.4g}. Returning recall 0 at threshold +inf.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return OperatingPoint(0.0, float("inf"), float("nan"), 0.0, False)
    i = ok[np.argmax(recall[ok])]
    return OperatingPoint(
        float(recall[i]), thr[i].item(), float(precision[i]), float(recall[i]), True
    )


def precision_at_recall(y_true, y_score, min_recall, *, pos_label=None, sample_weight=None):
    """Highest precision among thresholds whose recall is at least ``min_recall``.

    Always reachable for ``min_recall`` in [0, 1] (the lowest threshold has recall 1).
    Ties in precision go to the higher recall.

    Examples
    --------
    >>> from bayes_prc import precision_at_recall
    >>> op = precision_at_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.9)
    >>> round(op.value, 4), op.threshold
    (0.6667, 0.35)
    """
    if not np.isscalar(min_recall) or not (0 <= min_recall <= 1):
        raise ValueError(f"`min_recall` must be in [0, 1]; got {min_recall!r}")
    precision, recall, thr = _curve_arrays(y_true, y_score, pos_label, sample_weight)
    ok = np.flatnonzero(recall >= min_recall)
    best = precision[ok].max()
    cand = ok[precision[ok] == best]
    i = cand[np.argmax(recall[cand])]
    return OperatingPoint(
        float(precision[i]), thr[i].item(), float(precision[i]), float(recall[i]), True
    )


def chance_baseline(y_true, *, pos_label=None, sample_weight=None):
    """Precision of a random classifier: the (weighted) prevalence of the positive class.

    Examples
    --------
    >>> from bayes_prc import chance_baseline
    >>> chance_baseline([0, 0, 0, 1])
    0.25
    """
    is_pos, _, _ = check_binary_target(y_true, pos_label)
    w = check_sample_weight(sample_weight, is_pos.shape[0])
    if w is None:
        return float(is_pos.mean())
    if w.sum() == 0:
        raise ValueError("`sample_weight` sums to zero; the prevalence is undefined")
    return float(np.sum(w[is_pos]) / np.sum(w))
