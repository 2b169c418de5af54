"""Confidence intervals for precision and recall at one threshold."""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._core import check_choice, check_int, check_probability, check_random_state, plain
from ..exceptions import UndefinedMetricWarning
from ._engine import _prepare
from ._jackknife import percentile_interval
from ._proportion import PROPORTION_METHODS, proportion_interval
from ._results import IntervalResult, frozen_float_array

__all__ = [
    "PRECISION_INTERVAL_METHODS",
    "RECALL_INTERVAL_METHODS",
    "ThresholdInterval",
    "precision_interval",
    "recall_interval",
]

#: Valid ``method`` values of :func:`precision_interval`.
PRECISION_INTERVAL_METHODS = (*PROPORTION_METHODS, "bootstrap")
#: Valid ``method`` values of :func:`recall_interval`.
RECALL_INTERVAL_METHODS = (*PROPORTION_METHODS, "bootstrap", "mc_npv")


@dataclass(frozen=True)
class ThresholdInterval(IntervalResult):
    """Confidence interval for precision or recall at one threshold.

    Attributes
    ----------
    estimate : float
        ``tp / (tp + fp)`` (precision) or ``tp / (tp + fn)`` (recall); NaN when the
        denominator is zero.
    low, high : float
        Interval ends (``[0, 1]`` when the metric is undefined).
    confidence_level : float
    method : str
        One of :data:`PRECISION_INTERVAL_METHODS` / :data:`RECALL_INTERVAL_METHODS`.
    metric : {"precision", "recall"}
    threshold : float
        Items with ``score >= threshold`` are predicted positive.
    tp, fp, tn, fn : int
        Confusion-matrix counts at the threshold.
    n_draws : int or None
        Number of bootstrap replicates / Monte Carlo draws; None for the count methods.
    distribution : ndarray or None
        The simulated values (NaN for bootstrap replicates where precision is undefined).
    """

    metric: str
    threshold: float
    tp: int
    fp: int
    tn: int
    fn: int
    n_draws: int | None = None
    distribution: np.ndarray | None = field(default=None, repr=False)


def _check_threshold(threshold):
    ok = (
        isinstance(threshold, numbers.Real)
        and not isinstance(threshold, (bool, np.bool_))
        or (
            isinstance(threshold, np.ndarray)
            and threshold.ndim == 0
            and threshold.dtype.kind in "iuf"
        )
    )
    if not ok:
        raise ValueError(f"`threshold` must be a real number; got {plain(threshold)}")
    value = float(threshold)
    if np.isnan(value):
        raise ValueError(f"`threshold` must be a real number, not NaN; got {plain(threshold)}")
    return value


def _confusion(y_true, y_score, threshold, pos_label):
    ranked = _prepare(y_true, y_score, pos_label)
    is_pos, pred = ranked.is_pos, ranked.y_score >= threshold
    tp = int(np.count_nonzero(is_pos & pred))
    fp = int(np.count_nonzero(~is_pos & pred))
    n_pos, n_neg = ranked.n_pos, ranked.n_neg
    return tp, fp, n_neg - fp, n_pos - tp


def _threshold_result(metric, method, level, counts, threshold, estimate, low, high, **extra):
    """A :class:`ThresholdInterval` carrying the confusion counts ``(tp, fp, tn, fn)``."""
    tp, fp, tn, fn = counts
    return ThresholdInterval(
        estimate=estimate,
        low=low,
        high=high,
        confidence_level=level,
        method=method,
        metric=metric,
        threshold=threshold,
        tp=tp,
        fp=fp,
        tn=tn,
        fn=fn,
        **extra,
    )


def _count_interval(metric, successes, trials, method, level, counts, threshold):
    res = proportion_interval(successes, trials, method=method, confidence_level=level)
    return _threshold_result(
        metric,
        method,
        level,
        counts,
        threshold,
        float(res.estimate),
        float(res.low),
        float(res.high),
    )


def _undefined(metric, method, level, counts, threshold, why):
    warnings.warn(
        f"{metric} is undefined at threshold {threshold!r}: {why}; the estimate is NaN "
        "and the interval [0, 1]",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return _threshold_result(metric, method, level, counts, threshold, float("nan"), 0.0, 1.0)


def _simulated_interval(metric, estimate, draws, method, level, counts, threshold):
    finite = draws[np.isfinite(draws)]
    if finite.shape[0] < draws.shape[0]:
        warnings.warn(
            f"{draws.shape[0] - finite.shape[0]} of {draws.shape[0]} bootstrap replicates "
            f"have no item with score >= {threshold!r} (precision undefined); they are "
            "left out of the interval",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    if finite.shape[0] == 0:
        low = high = float("nan")
    else:
        low, high = percentile_interval(finite, confidence_level=level)
    return _threshold_result(
        metric,
        method,
        level,
        counts,
        threshold,
        estimate,
        low,
        high,
        n_draws=int(draws.shape[0]),
        distribution=frozen_float_array(draws),
    )


def precision_interval(
    y_true,
    y_score,
    threshold,
    *,
    method="wilson",
    confidence_level=0.95,
    pos_label=None,
    n_resamples=1000,
    random_seed=None,
):
    r"""Confidence interval for the precision of ``score >= threshold``.

    Precision is :math:`TP / (TP + FP)`: a binomial proportion among the
    :math:`TP + FP` items predicted positive (seed 002).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores.
    threshold : float
        Items with ``score >= threshold`` are predicted positive (``-inf`` and ``inf``
        allowed, NaN not).
    method : str, default "wilson"
        Any :func:`bayes_prc.intervals.proportion_interval` method applied to
        ``(TP, TP + FP)``: "wald", "wilson", "clopper_pearson", "jeffreys", "logit" or
        "likelihood_ratio" (the inversion of the binomial likelihood-ratio test: all
        :math:`p_0` with :math:`2\{l(\hat p) - l(p_0)\} \le \chi^2_1(\text{level})`,
        seed 002); or "bootstrap": the percentile interval of the stratified bootstrap.
        In a stratified resample the number of positives above the threshold is exactly
        Binomial(n_pos, TP / n_pos) and that of negatives Binomial(n_neg, FP / n_neg),
        independent, so replicates are drawn from these binomials directly (O(1) per
        replicate). Replicates with no predicted positive are left out (with a warning).
    confidence_level : float, default 0.95
    pos_label : label, optional
    n_resamples : int, default 1000
        Replicates of "bootstrap".
    random_seed : None, int or numpy.random.Generator, optional
        Seed of "bootstrap".

    Returns
    -------
    ThresholdInterval
        With ``metric="precision"`` and the counts ``tp``, ``fp``, ``tn``, ``fn``. When
        no item scores at or above the threshold (``TP + FP = 0``) precision is undefined:
        the estimate is NaN, the interval ``[0, 1]`` and an
        :class:`~bayes_prc.UndefinedMetricWarning` is issued.

    References
    ----------
    Seed 002 ("Precision-Recall CIs"): binomial likelihood-ratio test inversion for
    precision. Brown, Cai & DasGupta (2001) for the other binomial intervals.

    Examples
    --------
    >>> from bayes_prc.frequentist import precision_interval
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9]
    >>> res = precision_interval(y, s, 0.5, method="likelihood_ratio")
    >>> print(res.tp, res.fp, round(res.estimate, 4), round(res.low, 4), round(res.high, 4))
    4 2 0.6667 0.2808 0.9352
    """
    method = check_choice(method, "method", PRECISION_INTERVAL_METHODS)
    level = check_probability(confidence_level)
    threshold = _check_threshold(threshold)
    n_resamples = check_int(n_resamples, "n_resamples")
    counts = _confusion(y_true, y_score, threshold, pos_label)
    tp, fp, tn, fn = counts
    if tp + fp == 0:
        return _undefined(
            "precision", method, level, counts, threshold, "no item has score >= threshold"
        )
    if method != "bootstrap":
        return _count_interval("precision", tp, tp + fp, method, level, counts, threshold)
    rng = check_random_state(random_seed)
    n_pos, n_neg = tp + fn, fp + tn
    tp_b = rng.binomial(n_pos, tp / n_pos, size=n_resamples) if n_pos else np.zeros(n_resamples)
    fp_b = rng.binomial(n_neg, fp / n_neg, size=n_resamples) if n_neg else np.zeros(n_resamples)
    total = (tp_b + fp_b).astype(np.float64)
    draws = np.full(n_resamples, np.nan)
    np.divide(tp_b, total, out=draws, where=total > 0)
    return _simulated_interval("precision", tp / (tp + fp), draws, method, level, counts, threshold)


def recall_interval(
    y_true,
    y_score,
    threshold,
    *,
    method="wilson",
    confidence_level=0.95,
    pos_label=None,
    n_draws=10_000,
    n_resamples=1000,
    random_seed=None,
):
    r"""Confidence interval for the recall of ``score >= threshold``.

    Recall is :math:`TP / (TP + FN) = TP / P`.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores.
    threshold : float
        Items with ``score >= threshold`` are predicted positive (NaN not allowed).
    method : str, default "wilson"
        Any :func:`bayes_prc.intervals.proportion_interval` method applied to
        ``(TP, P)``; "bootstrap": percentile interval of the stratified bootstrap (the
        resampled TP is exactly Binomial(P, TP / P), drawn directly); or "mc_npv",
        seed 002's Monte Carlo construction (see Notes).
    confidence_level : float, default 0.95
    pos_label : label, optional
    n_draws : int, default 10000
        Monte Carlo draws of "mc_npv".
    n_resamples : int, default 1000
        Replicates of "bootstrap".
    random_seed : None, int or numpy.random.Generator, optional
        Seed of "mc_npv" and "bootstrap".

    Returns
    -------
    ThresholdInterval
        With ``metric="recall"``. Without positives (``P = 0``) recall is undefined: NaN
        estimate, interval ``[0, 1]``, :class:`~bayes_prc.UndefinedMetricWarning`.

    Notes
    -----
    **mc_npv** (seed 002). With :math:`N_p = TP + FP` items predicted positive,
    :math:`N_n = TN + FN` predicted negative, recall is a function of the precision and
    of the negative predictive value :math:`NPV = TN / N_n`:

    .. math::

        R = \frac{\mathrm{prec}\, N_p}{\mathrm{prec}\, N_p + (1 - NPV)\, N_n}.

    Precision and NPV are given independent Jeffreys Beta posteriors, the posteriors of a
    binomial proportion under the Beta(1/2, 1/2) prior:
    :math:`\mathrm{prec} \sim \mathrm{Beta}(TP + 1/2, FP + 1/2)` and
    :math:`1 - NPV \sim \mathrm{Beta}(FN + 1/2, TN + 1/2)`. ``n_draws`` pairs give
    simulated recalls, and the interval is their equal-tailed
    :math:`(1 \mp \text{level})/2` quantiles, with the boundary rule of Brown, Cai &
    DasGupta (2001) for the Jeffreys interval: ``low = 0`` when :math:`TP = 0` and
    ``high = 1`` when :math:`FN = 0` (NPV exactly 1 in the data), so the interval always
    contains the estimate. Degenerate cases: with :math:`N_p = 0` (nothing predicted
    positive) every simulated recall is 0, and with :math:`N_n = 0` every simulated
    recall is 1; the interval is then a point (a warning says so). The simulated recalls
    are in ``distribution``.

    References
    ----------
    Seed 002 ("Precision-Recall CIs"): recall intervals by Monte Carlo from independent
    precision and NPV models. Brown, L. D.; Cai, T. T.; DasGupta, A. (2001). "Interval
    estimation for a binomial proportion". Statistical Science 16 (2): 101-133.

    Examples
    --------
    >>> from bayes_prc.frequentist import recall_interval
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9]
    >>> res = recall_interval(y, s, 0.5, method="wilson")
    >>> print(res.tp, res.fn, round(res.estimate, 4), round(res.low, 4), round(res.high, 4))
    4 2 0.6667 0.3 0.9032
    >>> res = recall_interval(y, s, 0.5, method="mc_npv", random_seed=0)
    >>> print(res.n_draws, res.low < res.estimate < res.high)
    10000 True
    """
    method = check_choice(method, "method", RECALL_INTERVAL_METHODS)
    level = check_probability(confidence_level)
    threshold = _check_threshold(threshold)
    n_draws = check_int(n_draws, "n_draws")
    n_resamples = check_int(n_resamples, "n_resamples")
    counts = _confusion(y_true, y_score, threshold, pos_label)
    tp, fp, tn, fn = counts
    n_pos = tp + fn
    if n_pos == 0:
        return _undefined("recall", method, level, counts, threshold, "`y_true` has no positive")
    estimate = tp / n_pos
    if method in PROPORTION_METHODS:
        return _count_interval("recall", tp, n_pos, method, level, counts, threshold)
    rng = check_random_state(random_seed)
    if method == "bootstrap":
        draws = rng.binomial(n_pos, estimate, size=n_resamples) / n_pos
        return _simulated_interval("recall", estimate, draws, method, level, counts, threshold)
    # mc_npv
    n_p, n_n = tp + fp, tn + fn
    prec = rng.beta(tp + 0.5, fp + 0.5, size=n_draws)
    one_minus_npv = rng.beta(fn + 0.5, tn + 0.5, size=n_draws)
    num = prec * n_p
    den = num + one_minus_npv * n_n
    draws = np.zeros(n_draws)
    np.divide(num, den, out=draws, where=den > 0)
    if n_p == 0 or n_n == 0:
        warnings.warn(
            f"at threshold {threshold!r} every item is predicted "
            f"{'negative' if n_p == 0 else 'positive'}; the mc_npv recall is "
            f"{'0' if n_p == 0 else '1'} in every draw and the interval is a point",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    alpha = (1.0 - level) / 2.0
    low, high = (float(v) for v in np.quantile(draws, [alpha, 1.0 - alpha]))
    if tp == 0:
        low = 0.0
    if fn == 0:
        high = 1.0
    return _threshold_result(
        "recall",
        method,
        level,
        (tp, fp, tn, fn),
        threshold,
        estimate,
        low,
        high,
        n_draws=n_draws,
        distribution=frozen_float_array(draws),
    )
