"""Area under the ROC curve for binary, multilabel and multiclass targets.

:func:`roc_auc_score` has the values, warnings and errors of scikit-learn 1.9's function
of the same name: binary labels; label indicator matrices, averaged over labels
("micro", "macro", "weighted", "samples" or none); multiclass labels with probability
scores, one-vs-rest (the prevalence-weighted average is Provost & Domingos 2000) or
one-vs-one (Hand & Till 2001). :func:`_average_binary_score`, the averaging over the
columns of an indicator matrix, is shared with average precision. Every binary area is
read off a :class:`Ranked` built from already validated arrays.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from .._core import (
    as_array,
    check_1d,
    check_choice,
    check_consistent_length,
    check_finite_scores,
    check_sample_weight,
    plain,
    type_of_target,
    unique_labels,
    warn_at_caller,
)
from ..exceptions import UndefinedMetricWarning
from ._curves import _binary_roc_auc
from ._ranked import Ranked, as_ranked

__all__ = ["roc_auc_score"]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")
_MULTI_CLASS = ("raise", "ovr", "ovo")


def _check_average(average):
    if not (average is None or isinstance(average, str)) or average not in _AVERAGES:
        raise ValueError(f"`average` must be one of {_AVERAGES}; got {plain(average)}")


def _check_max_fpr(max_fpr):
    if max_fpr is not None and not (0 < max_fpr <= 1):
        raise ValueError(f"`max_fpr` must be in (0, 1]; got {plain(max_fpr)}")


def _score_matrix(y_score, shape, y_type):
    """``y_score`` as a finite numeric matrix of ``shape`` (that of the indicator matrix)."""
    s2 = as_array(y_score, "y_score")
    if s2.ndim != 2 and y_type == "multiclass":
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
            f"contains multiple classes. Got `y_score.shape={s2.shape}`."
        )
    if s2.shape != shape:
        raise ValueError(
            f"`y_score` must have shape (n_samples, n_classes) = {shape} for {y_type} "
            f"y_true; got {s2.shape}"
        )
    check_finite_scores(s2, "y_score")
    return s2.astype(np.int64) if s2.dtype.kind == "b" else s2


def _check_weights(sample_weight, n_samples):
    """:func:`check_sample_weight`, and not all zero (nothing to evaluate then)."""
    w = check_sample_weight(sample_weight, n_samples)
    if w is not None and not np.any(w):
        raise ValueError("`sample_weight` is zero for every sample; nothing to evaluate")
    return w


def _average_binary_score(binary_metric, y2, s2, average, w):
    """Average ``binary_metric(is_pos, score, weight)`` over an indicator matrix.

    scikit-learn's ``_average_binary_score`` on validated arrays: ``y2`` boolean and
    ``s2`` scores of shape (n_samples, n_classes), ``w`` float64 weights or None.
    "micro" pools every (sample, class) pair, "macro" is the plain mean over classes,
    "weighted" weighs each class by its (weighted) support, "samples" averages over the
    rows (weighted by ``w``); ``None`` returns the per-class values. Classes of zero
    weight count 0, so that their NaN does not spread; a total weight of 0 gives 0.
    """
    score_weight, average_weight, axis = w, None, 1
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y2.shape[1])
        y2, s2 = y2.ravel()[:, None], s2.ravel()[:, None]
    elif average == "weighted":
        if score_weight is not None:
            average_weight = np.sum(y2 * score_weight[:, None], axis=0)
        else:
            average_weight = np.sum(y2, axis=0)
        if np.isclose(average_weight.sum(), 0.0):
            return 0
    elif average == "samples":
        average_weight, score_weight, axis = score_weight, None, 0
    if axis == 0:
        y2, s2 = y2.T, s2.T
    scores = np.array(
        [binary_metric(y2[:, c], s2[:, c], score_weight) for c in range(y2.shape[1])],
        dtype=np.float64,
    )
    if average is None:
        return scores
    if average_weight is not None:
        scores[np.asarray(average_weight) == 0] = 0
    return float(np.average(scores, weights=average_weight))


def _check_labels(y, labels, n_columns):
    """The sorted classes that index the columns of ``y_score`` (scikit-learn's checks)."""
    if labels is None:
        classes = unique_labels(y)
        if classes.size != n_columns:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in "
                f"'y_score': {classes.size} classes in `y_true`, {n_columns} columns; "
                "pass `labels` if some classes are absent from y_true"
            )
        return classes
    given = check_1d(labels, "labels")
    classes = np.unique(given)
    if classes.size != given.size:
        raise ValueError(f"Parameter 'labels' must be unique; got labels={given.tolist()}")
    if not np.array_equal(classes, given):
        raise ValueError(f"Parameter 'labels' must be ordered; got labels={given.tolist()}")
    if classes.size != n_columns:
        raise ValueError(
            f"Number of given labels, {classes.size}, not equal to the number of columns "
            f"in 'y_score', {n_columns}."
        )
    missing = np.setdiff1d(y, classes)
    if missing.size:
        raise ValueError(
            "'y_true' contains labels not in parameter 'labels': "
            f"{missing[:10].tolist()} not in {given.tolist()}"
        )
    return classes


def _ovo_auc(codes, s2, average):
    """Hand & Till's one-vs-one AUC of class codes (indices of the columns of ``s2``).

    For each pair of classes present, the mean of the two AUCs (a against b with the
    scores of a, b against a with the scores of b) on the samples of the pair; the mean
    over pairs ("macro", Hand & Till's M) or weighted by the pair's prevalence.
    """
    present = unique_labels(codes)
    if present.size < 2:
        warn_at_caller(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            UndefinedMetricWarning,
        )
        return float("nan")
    pair_scores, prevalence = [], []
    for a, b in combinations(present.tolist(), 2):
        a_mask = codes == a
        ab_mask = a_mask | (codes == b)
        prevalence.append(np.count_nonzero(ab_mask) / codes.shape[0])
        a_true = a_mask[ab_mask]
        a_auc = _binary_roc_auc(Ranked(a_true, s2[ab_mask, a], None, True))
        b_auc = _binary_roc_auc(Ranked(~a_true, s2[ab_mask, b], None, True))
        pair_scores.append((a_auc + b_auc) / 2)
    weights = prevalence if average == "weighted" else None
    return float(np.average(pair_scores, weights=weights))


def _multiclass_roc_auc(y, y_score, labels, multi_class, average, sample_weight):
    """One-vs-rest or one-vs-one ROC AUC of multiclass ``y`` (scikit-learn's order of checks)."""
    s2 = as_array(y_score, "y_score")
    if s2.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
            f"contains multiple classes. Got `y_score.shape={s2.shape}`."
        )
    check_consistent_length(y_true=y, y_score=s2)
    check_finite_scores(s2, "y_score")
    row_sums = s2.sum(axis=1, dtype=np.float64)
    if not np.allclose(1, row_sums):
        i = int(np.flatnonzero(~np.isclose(1, row_sums))[0])
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they "
            f"should sum up to 1.0 over classes; row {i} of `y_score` sums to "
            f"{row_sums[i].item()!r}"
        )
    options = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise ValueError(
            f"average must be one of {options} for multiclass problems "
            f"(multi_class={multi_class!r}); got average={average!r}"
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = _check_labels(y, labels, s2.shape[1])
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case."
            )
        return _ovo_auc(np.searchsorted(classes, y), s2, average)
    w = _check_weights(sample_weight, y.shape[0])
    indicator = y[:, None] == classes[None, :]
    return _average_binary_score(
        lambda is_pos, s, sw: _binary_roc_auc(Ranked(is_pos, s, sw, True)),
        indicator,
        s2,
        average,
        w,
    )


def roc_auc_score(
    y_true,
    y_score,
    *,
    average="macro",
    sample_weight=None,
    max_fpr=None,
    multi_class="raise",
    labels=None,
):
    """Area under the ROC curve (trapezoid rule, ties count half), binary or multiclass.

    Same values, warnings and errors as :func:`sklearn.metrics.roc_auc_score`
    (scikit-learn 1.9). Binary ``y_true``: the larger label is the positive class (a
    :class:`~bayes_prc.empirical.Ranked` keeps its own); ``max_fpr`` gives the
    standardized partial AUC (McClish correction). A label indicator matrix: one AUC per
    label, averaged by ``average``. Multiclass ``y_true`` needs probability scores (rows
    summing to 1) and ``multi_class``:

    ``"ovr"``
        One-vs-rest: each class against all others, averaged by ``average``; "weighted"
        weighs each class by its prevalence (Provost & Domingos 2000), "micro" pools
        all (sample, class) pairs.
    ``"ovo"``
        One-vs-one: the mean over all pairs of classes of the mean of the two AUCs of
        the pair (Hand & Till 2001); "weighted" weighs the pairs by their prevalence.

    With a single class present (in ``y_true`` or in a column) it warns and that AUC is
    NaN.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or Ranked
        Binary or multiclass labels, or a label indicator matrix; or a prepared binary
        :class:`~bayes_prc.empirical.Ranked` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes), or None
        Scores. For multiclass ``y_true``, class probabilities, one column per class in
        the order of ``labels`` (sorted).
    average : {"macro", "micro", "weighted", "samples"} or None, default="macro"
        Averaging over labels or classes (ignored for binary ``y_true``); multiclass
        allows "macro", "weighted", None and, with "ovr", "micro".
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights (not with ``multi_class="ovo"``).
    max_fpr : float in (0, 1], default=None
        Standardized partial AUC over ``[0, max_fpr]`` (not for multiclass).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Multiclass scheme; "raise" refuses multiclass input.
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the sorted labels indexing the columns of ``y_score``; default
        the labels present in ``y_true``.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        Per-class values when ``average=None``.

    References
    ----------
    Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a
    receiver operating characteristic (ROC) curve. Radiology 143.
    McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical Decision Making 9.
    Provost, F. and Domingos, P. (2000). Well-trained PETs: improving probability
    estimation trees. CeDER Working Paper IS-00-04, New York University.
    Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area under the ROC
    curve for multiple class classification problems. Machine Learning 45.

    Examples
    --------
    >>> from bayes_prc import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> y = [0, 1, 2, 2]
    >>> p = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.3, 0.4]]
    >>> roc_auc_score(y, p, multi_class="ovr", average=None).tolist()
    [1.0, 1.0, 1.0]
    >>> round(roc_auc_score(y, p, multi_class="ovo"), 4)
    1.0
    """
    _check_average(average)
    check_choice(multi_class, "multi_class", _MULTI_CLASS)
    _check_max_fpr(max_fpr)
    if isinstance(y_true, Ranked):
        return _binary_roc_auc(as_ranked(y_true, y_score, sample_weight=sample_weight), max_fpr)
    y_arr = as_array(y_true, "y_true")
    y_type = type_of_target(y_arr, "y_true")
    s_arr = as_array(y_score, "y_score")
    if y_type == "multiclass" or (y_type == "binary" and s_arr.ndim == 2 and s_arr.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' "
                f"must be set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError(
                "multi_class must be in ('ovo', 'ovr') for multiclass y_true; got "
                "multi_class='raise' (the default)"
            )
        y = check_1d(y_arr, "y_true")
        return _multiclass_roc_auc(y, s_arr, labels, multi_class, average, sample_weight)
    if y_type == "multilabel-indicator":
        s2 = _score_matrix(s_arr, y_arr.shape, y_type)
        w = _check_weights(sample_weight, y_arr.shape[0])
        return _average_binary_score(
            lambda is_pos, s, sw: _binary_roc_auc(Ranked(is_pos, s, sw, True), max_fpr),
            y_arr == 1,
            s2,
            average,
            w,
        )
    if y_type != "binary":
        raise ValueError(f"{y_type} format is not supported: `y_true` has type {y_type!r}")
    y = check_1d(y_arr, "y_true")
    pos_label = unique_labels(y)[-1]  # the larger label, as scikit-learn's label_binarize
    r = as_ranked(y, s_arr, pos_label=pos_label, sample_weight=sample_weight)
    return _binary_roc_auc(r, max_fpr)
