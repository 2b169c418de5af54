"""Operating points of the empirical curve: precision at k, best F-beta, targets.

Each reads the counts of a :class:`Ranked` once; thresholds classify ``score >=
threshold`` as positive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import check_binary_target, check_sample_weight, plain, warn_at_caller
from ..exceptions import UndefinedMetricWarning
from ._ranked import Ranked, as_ranked

__all__ = [
    "FBetaResult",
    "OperatingPoint",
    "chance_baseline",
    "max_fbeta",
    "precision_at_k",
    "precision_at_recall",
    "recall_at_precision",
]


@dataclass(frozen=True)
class FBetaResult:
    """Best F-beta over thresholds: of the empirical curve (floats) or of a model's
    curve per parameter draw (arrays of the model's ``batch_shape``).

    Attributes
    ----------
    score : float or numpy.ndarray
        The maximal F-beta (also readable as ``fbeta``).
    threshold : float or numpy.ndarray
        The threshold attaining it (``score >= threshold`` is classified positive).
    precision, recall : float or numpy.ndarray
        Precision and recall there.
    beta : float
        The ``beta`` of F-beta.
    """

    score: float
    threshold: float
    precision: float
    recall: float
    beta: float = 1.0

    @property
    def fbeta(self):
        """The maximal F-beta (``score``; the field name of the former model result)."""
        return self.score


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


def _curve_arrays(r):
    """Precision, recall (increasing) and thresholds (decreasing) of a :class:`Ranked`."""
    fps, tps, thr = r.counts
    if tps[-1] == 0:
        raise ValueError("`y_true` has no positive sample; recall is undefined")
    precision = np.zeros_like(tps)
    np.divide(tps, tps + fps, out=precision, where=(tps + fps) != 0)
    return precision, tps / tps[-1], thr


def precision_at_k(y_true, y_score, k, *, pos_label=None, sample_weight=None):
    """Precision among the ``k`` highest-scored items, ties shared fairly.

    When the k-th place falls inside a group of tied scores, the group contributes its
    positive fraction for the places it fills (the expectation over random tie-breaking,
    McSherry & Najork 2008), so the result does not depend on input order. With
    weights, ``k`` counts weight. ``y_true`` may be a prepared
    :class:`~bayes_prc.empirical.Ranked` (then ``y_score=None``), as in every function
    here.

    References
    ----------
    McSherry, F. and Najork, M. (2008). Computing information retrieval performance
    measures efficiently in the presence of tied scores. ECIR.

    Examples
    --------
    >>> from bayes_prc import precision_at_k
    >>> precision_at_k([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], k=2)
    0.5
    """
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    fps, tps, _ = r.counts
    total = fps[-1] + tps[-1]
    if isinstance(k, bool) or not np.isscalar(k) or not (0 < k <= total):
        raise ValueError(f"`k` must be a number in (0, n_samples={total:g}]; got {plain(k)}")
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

    F-beta = (1 + beta^2) P R / (beta^2 P + R) (van Rijsbergen 1979), 0 where
    P = R = 0. Ties between thresholds go to the highest threshold.

    Returns
    -------
    FBetaResult
        ``score``, ``threshold``, ``precision``, ``recall``, ``beta``.

    References
    ----------
    van Rijsbergen, C. J. (1979). Information Retrieval, 2nd ed. Butterworths.

    Examples
    --------
    >>> from bayes_prc import max_fbeta
    >>> res = max_fbeta([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(res.score, 4), res.threshold
    (0.8, 0.35)
    """
    if not np.isscalar(beta) or not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"`beta` must be a positive finite number; got {plain(beta)}")
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    precision, recall, thr = _curve_arrays(r)
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
        raise ValueError(f"`min_precision` must be in [0, 1]; got {plain(min_precision)}")
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    precision, recall, thr = _curve_arrays(r)
    ok = np.flatnonzero(precision >= min_precision)
    if ok.size == 0:
        warn_at_caller(
            f"no threshold reaches precision >= {min_precision}; the best is "
            f"{precision.max():.4g}. Returning recall 0 at threshold +inf.",
            UndefinedMetricWarning,
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
        raise ValueError(f"`min_recall` must be in [0, 1]; got {plain(min_recall)}")
    r = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    precision, recall, thr = _curve_arrays(r)
    ok = np.flatnonzero(recall >= min_recall)
    best = precision[ok].max()
    cand = ok[precision[ok] == best]
    i = cand[np.argmax(recall[cand])]
    return OperatingPoint(
        float(precision[i]), thr[i].item(), float(precision[i]), float(recall[i]), True
    )


def chance_baseline(y_true, *, pos_label=None, sample_weight=None):
    """Precision of a random classifier: the (weighted) prevalence of the positive class.

    ``y_true`` may be a prepared :class:`~bayes_prc.empirical.Ranked` (its weights are
    used). Saito & Rehmsmeier (2015) recommend showing it with every PR curve.

    References
    ----------
    Saito, T. and Rehmsmeier, M. (2015). The precision-recall plot is more informative
    than the ROC plot when evaluating binary classifiers on imbalanced datasets. PLoS ONE.

    Examples
    --------
    >>> from bayes_prc import chance_baseline
    >>> chance_baseline([0, 0, 0, 1])
    0.25
    """
    if isinstance(y_true, Ranked):
        if sample_weight is not None:
            as_ranked(y_true, None, sample_weight=sample_weight)  # raises: naming both
        is_pos, w = y_true.is_pos, y_true.sample_weight
    else:
        is_pos, _, _ = check_binary_target(y_true, pos_label)
        w = check_sample_weight(sample_weight, is_pos.shape[0])
    if w is None:
        return float(is_pos.mean())
    if w.sum() == 0:
        raise ValueError("`sample_weight` sums to zero; the prevalence is undefined")
    return float(np.sum(w[is_pos]) / np.sum(w))
