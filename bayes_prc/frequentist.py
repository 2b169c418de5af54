r"""Frequentist intervals for average precision, precision, recall and the PR curve.

* :func:`ap_interval`: confidence intervals for the area under the PR curve by any of
  :data:`bayes_prc.AUC_PR_ESTIMATORS`, with the methods compared by Boyd, Eng & Page
  (2013) (binomial, logit, bootstrap, cross-validation) plus BCa (Efron 1987) and the
  Bayesian bootstrap (Rubin 1981).
* :func:`precision_interval`, :func:`recall_interval`: intervals at one threshold, from the
  confusion-matrix counts (every :func:`bayes_prc.intervals.proportion_interval` method,
  including the likelihood-ratio inversion of seed 002), a cheap stratified bootstrap, and
  seed 002's Monte Carlo construction of recall from precision and NPV.
* :func:`bootstrap_pr_band`: pointwise bootstrap bands for the curve, on a recall grid or
  on seed 001's common-threshold grid, as an :class:`xarray.Dataset`.

Resampling goes through :mod:`bayes_prc.bootstrap` (sort once, count per replicate).
Thresholds classify ``score >= threshold`` as positive throughout.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ._ranking import AUC_PR_ESTIMATORS
from ._validation import check_random_state, validate_binary_inputs
from .bootstrap import (
    DEFAULT_MEMORY_BUDGET,
    _binned_blocks,
    _check_choice,
    _check_int,
    _check_level,
    _check_progressbar,
    _estimate_weighted,
    _jackknife_strata,
    _Progress,
    _Ranked,
    _replicates,
    bca_interval,
    percentile_interval,
)
from .exceptions import UndefinedMetricWarning
from .intervals import METHODS as PROPORTION_METHODS
from .intervals import IntervalResult, logit_interval, proportion_interval, wald_interval

__all__ = [
    "AP_INTERVAL_METHODS",
    "PRECISION_INTERVAL_METHODS",
    "RECALL_INTERVAL_METHODS",
    "APInterval",
    "ThresholdInterval",
    "ap_interval",
    "bootstrap_pr_band",
    "precision_interval",
    "recall_interval",
]

#: Valid ``method`` values of :func:`ap_interval`.
AP_INTERVAL_METHODS = (
    "binomial",
    "logit",
    "bootstrap",
    "bca",
    "bayesian_bootstrap",
    "cross_validation",
)
#: Valid ``method`` values of :func:`precision_interval`.
PRECISION_INTERVAL_METHODS = (*PROPORTION_METHODS, "bootstrap")
#: Valid ``method`` values of :func:`recall_interval`.
RECALL_INTERVAL_METHODS = (*PROPORTION_METHODS, "bootstrap", "mc_npv")


# --------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class APInterval(IntervalResult):
    """Confidence interval for the area under the PR curve (see :func:`ap_interval`).

    Attributes
    ----------
    estimate : float
        The estimator on the full data (``bayes_prc.auc_pr(y_true, y_score,
        estimator=estimator)``, clipped to [0, 1] against round-off), whatever the
        method.
    low, high : float
        Interval ends.
    confidence_level : float
        Nominal two-sided level.
    method : str
        One of :data:`AP_INTERVAL_METHODS`.
    estimator : str
        One of :data:`bayes_prc.AUC_PR_ESTIMATORS`.
    n_resamples : int or None
        Number of bootstrap replicates (``None`` for the non-resampling methods).
    standard_error : float
        ``sqrt(estimate (1 - estimate) / n_pos)`` for "binomial" and "logit" (the
        delta-method standard error on the original scale), the standard deviation of the
        bootstrap distribution for "bootstrap" and "bca", the posterior standard deviation
        for "bayesian_bootstrap", and ``sd(folds) / sqrt(k)`` for "cross_validation"; NaN
        when undefined (a single replicate).
    bootstrap_distribution : ndarray or None
        Replicate values (bootstrap / BCa) or posterior draws (Bayesian bootstrap), shape
        ``(n_resamples,)``; None for the other methods.
    fold_estimates : ndarray or None
        The estimator on each cross-validation fold, shape ``(n_folds,)``; None otherwise.
    n_positives, n_negatives : int
        Class sizes of the data.
    """

    estimator: str
    n_resamples: int | None
    standard_error: float
    bootstrap_distribution: np.ndarray | None = field(repr=False)
    fold_estimates: np.ndarray | None = field(repr=False)
    n_positives: int
    n_negatives: int


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


def _frozen(a):
    a = np.array(a, dtype=np.float64)
    a.setflags(write=False)
    return a


def _sd(values):
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    if v.shape[0] < 2:
        return float("nan")
    return float(np.std(v, ddof=1))


# --------------------------------------------------------------------------------------
# average precision
# --------------------------------------------------------------------------------------
def _stratified_folds(is_pos, n_folds, rng):
    """Fold id of each item: each class shuffled, then dealt round-robin to the folds."""
    fold = np.empty(is_pos.shape[0], dtype=np.int64)
    for items in (np.flatnonzero(is_pos), np.flatnonzero(~is_pos)):
        fold[rng.permutation(items)] = np.arange(items.shape[0]) % n_folds
    return fold


def ap_interval(
    y_true,
    y_score,
    *,
    method="logit",
    estimator="average_precision",
    confidence_level=0.95,
    n_resamples=1000,
    random_seed=None,
    n_folds=10,
    pos_label=None,
    progressbar=False,
):
    r"""Confidence interval for the area under the precision-recall curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; at least one positive.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    method : str, default "logit"
        ``"binomial"``
            Wald interval :math:`\hat\theta \pm z \sqrt{\hat\theta(1-\hat\theta)/n_+}`
            with :math:`n_+` the number of positives, clipped to [0, 1] (Boyd et al.
            2013; :func:`bayes_prc.intervals.wald_interval`).
        ``"logit"``
            Normal interval on the logit scale with standard error
            :math:`1/\sqrt{n_+ \hat\theta (1 - \hat\theta)}`, mapped back (Boyd et al.
            2013; :func:`bayes_prc.intervals.logit_interval`). Inside (0, 1).
        ``"bootstrap"``
            Percentile interval of the stratified bootstrap: positives and negatives
            are resampled with replacement, each to its own size, so every replicate
            has the prevalence of the data (the equal-tailed quantiles, linear
            interpolation).
        ``"bca"``
            Bias-corrected and accelerated percentile interval (Efron 1987) of the same
            stratified bootstrap; see :func:`bayes_prc.bootstrap.bca_interval`. The
            acceleration uses the two-sample jackknife (each class left out one item at
            a time). For AP the leave-one-out values are exact and all computed in O(n)
            after one sort (:func:`bayes_prc.bootstrap.jackknife_values`); for the other
            estimators each leave-one-out costs O(n) and at most 1000 items per class
            are left out (a uniform random subset above that size, drawn after the
            bootstrap draws).
        ``"bayesian_bootstrap"``
            Rubin's (1981) Bayesian bootstrap: Dirichlet(1, ..., 1) weights over all
            items give draws from a nonparametric posterior of the estimator; the
            equal-tailed posterior interval is reported. Not stratified: the weights
            also express uncertainty about the prevalence.
        ``"cross_validation"``
            Boyd et al.'s cross-validation interval: the items are split into
            ``n_folds`` folds stratified by class (each class shuffled and dealt
            round-robin), the estimator is computed on each fold, and the interval is
            :math:`\bar\theta \pm t_{k-1} s / \sqrt{k}` (mean and standard deviation of
            the fold estimates), clipped to [0, 1]. Its ``estimate`` is therefore the
            mean of the fold estimates (Boyd et al.'s cross-validation estimate), not the
            full-data value: estimates from n/k items are biased relative to it, and the
            interval is about the fold-level estimator.
    estimator : str, default "average_precision"
        One of :data:`bayes_prc.AUC_PR_ESTIMATORS` (see :func:`bayes_prc.auc_pr`).
    confidence_level : float, default 0.95
        Two-sided level in (0, 1).
    n_resamples : int, default 1000
        Bootstrap replicates or Bayesian-bootstrap draws (>= 1).
    random_seed : None, int or numpy.random.Generator, optional
        Seed of the resampling (bootstrap methods) or of the fold assignment. The
        stratified draws are those of :func:`bayes_prc.bootstrap.stratified_indices`
        and the Dirichlet weights those of :func:`bayes_prc.bootstrap.dirichlet_weights`
        for the same seed.
    n_folds : int, default 10
        Number of folds of "cross_validation" (>= 2, at most the number of positives).
    pos_label : label, optional
        The positive label (default 1).
    progressbar : bool or None, default False
        Text progress on stderr for the resampling methods; None: only on a terminal.

    Returns
    -------
    APInterval
        ``estimate``, ``low``, ``high``, ``confidence_level``, ``method``,
        ``estimator``, ``n_resamples``, ``standard_error``, ``bootstrap_distribution``,
        ``fold_estimates``, ``n_positives``, ``n_negatives``; ``confidence_interval``
        gives ``(low, high)``.

    Raises
    ------
    ValueError
        For an unknown ``method`` or ``estimator``, a ``confidence_level`` outside (0, 1),
        ``n_resamples < 1``, ``n_folds`` not in ``[2, n_positives]``, or data without
        positives.

    Notes
    -----
    Boyd et al. found the binomial and logit intervals close to nominal coverage with
    enough positives (about 100 or more) and AP away from 0 and 1, and poor with few
    positives or extreme AP. Our binormal simulations (``docs/coverage.md``,
    :func:`bayes_prc.simulate.coverage_study`) agree: at 100 positives and AP 0.29 both
    cover 95.1%; they over-cover (too wide) when AP is near 1 and become uninformative
    when AP is near the prevalence with 20 positives; at prevalence 0.5 they cover about
    93%. The stratified percentile bootstrap and BCa under-cover (88-94% with 100 or more
    positives, 75-90% with 20: the bootstrap spread of AP is too narrow at these sizes);
    the Bayesian bootstrap is closer to nominal (93-94% with 100 or more positives); the
    cross-validation interval, centred on estimates from a tenth of the data, is the
    worst (59-90%).

    References
    ----------
    .. [1] Boyd, K.; Eng, K. H.; Page, C. D. (2013). "Area under the precision-recall
       curve: point estimates and confidence intervals". ECML PKDD 2013, LNCS 8190,
       pp. 451-466.
    .. [2] Efron, B. (1987). "Better bootstrap confidence intervals". JASA 82 (397):
       171-185.
    .. [3] Rubin, D. B. (1981). "The Bayesian bootstrap". Annals of Statistics 9 (1):
       130-134.

    Examples
    --------
    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.frequentist import ap_interval
    >>> y, s = Binormal(1, 1, 0, 1, 0.2).sample(500, random_seed=0)
    >>> res = ap_interval(y, s)  # logit interval with n = number of positives
    >>> print(res.method, round(res.estimate, 3), round(res.low, 3), round(res.high, 3))
    logit 0.461 0.364 0.561
    >>> res = ap_interval(y, s, method="bca", n_resamples=500, random_seed=1)
    >>> print(res.bootstrap_distribution.shape, res.low < res.estimate < res.high)
    (500,) True
    """
    method = _check_choice(method, AP_INTERVAL_METHODS, "method")
    estimator = _check_choice(estimator, AUC_PR_ESTIMATORS, "estimator")
    level = _check_level(confidence_level)
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
    n_folds = _check_int(n_folds, "n_folds", 2)
    progressbar = _check_progressbar(progressbar)
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    n_pos = int(np.count_nonzero(is_pos))
    n_neg = int(is_pos.shape[0] - n_pos)
    if n_pos == 0:
        raise ValueError(
            "`y_true` has no positive sample; the area under the PR curve is undefined"
        )
    # clipped against round-off: a perfect ranking can sum to 1 + 2e-16
    estimate = min(1.0, max(0.0, float(_estimate_weighted(is_pos, score, None, estimator))))
    common = dict(
        estimate=estimate,
        confidence_level=level,
        method=method,
        estimator=estimator,
        n_positives=n_pos,
        n_negatives=n_neg,
    )
    if method in ("binomial", "logit"):
        fn = wald_interval if method == "binomial" else logit_interval
        res = fn(estimate, n_pos, confidence_level=level)
        return APInterval(
            low=float(res.low),
            high=float(res.high),
            n_resamples=None,
            standard_error=float(np.sqrt(estimate * (1.0 - estimate) / n_pos)),
            bootstrap_distribution=None,
            fold_estimates=None,
            **common,
        )
    rng = check_random_state(random_seed)
    if method == "cross_validation":
        if n_folds > n_pos:
            raise ValueError(
                f"`n_folds` must be at most the number of positives ({n_pos}) so that "
                f"every fold holds a positive; got {n_folds!r}"
            )
        fold = _stratified_folds(is_pos, n_folds, rng)
        folds = np.array(
            [
                _estimate_weighted(is_pos[fold == f], score[fold == f], None, estimator)
                for f in range(n_folds)
            ]
        )
        mean = float(folds.mean())
        se = float(np.std(folds, ddof=1) / np.sqrt(n_folds))
        half = float(stats.t.ppf(0.5 + level / 2.0, n_folds - 1)) * se
        common["estimate"] = mean  # Boyd et al.'s cross-validation estimate: the fold mean
        return APInterval(
            low=float(np.clip(mean - half, 0.0, 1.0)),
            high=float(np.clip(mean + half, 0.0, 1.0)),
            n_resamples=None,
            standard_error=se,
            bootstrap_distribution=None,
            fold_estimates=_frozen(folds),
            **common,
        )
    ranked = _Ranked(is_pos, score)
    kind = "bayesian" if method == "bayesian_bootstrap" else "stratified"
    dist = _replicates(
        ranked, estimator, n_resamples, kind, rng, DEFAULT_MEMORY_BUDGET, progressbar, method
    )
    if method == "bca":
        strata, sizes = _jackknife_strata(ranked, estimator, rng)
        bca = bca_interval(estimate, dist, strata, confidence_level=level, sizes=sizes)
        if not np.isfinite(bca.low):
            warnings.warn(
                "the BCa interval is undefined: the estimate lies outside the range of the "
                "bootstrap distribution (degenerate data); low and high are NaN",
                UndefinedMetricWarning,
                stacklevel=2,
            )
        low, high = bca.low, bca.high
    else:
        low, high = percentile_interval(dist, confidence_level=level)
    return APInterval(
        low=low,
        high=high,
        n_resamples=n_resamples,
        standard_error=_sd(dist),
        bootstrap_distribution=_frozen(dist),
        fold_estimates=None,
        **common,
    )


# --------------------------------------------------------------------------------------
# precision and recall at a threshold
# --------------------------------------------------------------------------------------
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
        raise ValueError(f"`threshold` must be a real number; got {threshold!r}")
    value = float(threshold)
    if np.isnan(value):
        raise ValueError(f"`threshold` must be a real number, not NaN; got {threshold!r}")
    return value


def _confusion(y_true, y_score, threshold, pos_label):
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    pred = score >= threshold
    tp = int(np.count_nonzero(is_pos & pred))
    fp = int(np.count_nonzero(~is_pos & pred))
    n_pos = int(np.count_nonzero(is_pos))
    n_neg = int(is_pos.shape[0] - n_pos)
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
        metric, method, level, counts, threshold,
        float(res.estimate), float(res.low), float(res.high),
    )  # fmt: skip


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
        metric, method, level, counts, threshold, estimate, low, high,
        n_draws=int(draws.shape[0]), distribution=_frozen(draws),
    )  # fmt: skip


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
    method = _check_choice(method, PRECISION_INTERVAL_METHODS, "method")
    level = _check_level(confidence_level)
    threshold = _check_threshold(threshold)
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
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
    method = _check_choice(method, RECALL_INTERVAL_METHODS, "method")
    level = _check_level(confidence_level)
    threshold = _check_threshold(threshold)
    n_draws = _check_int(n_draws, "n_draws", 1)
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
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
        "recall", method, level, (tp, fp, tn, fn), threshold, estimate, low, high,
        n_draws=n_draws, distribution=_frozen(draws),
    )  # fmt: skip


# --------------------------------------------------------------------------------------
# bands for the curve
# --------------------------------------------------------------------------------------
def _recall_targets(recall, n_pos):
    """Smallest true-positive count ``m >= 1`` with ``m / n_pos >= r`` (floating point)."""
    m = np.clip(np.ceil(recall * n_pos), 0, n_pos).astype(np.int64)
    lower = m - 1
    m = np.where((lower >= 0) & (lower / n_pos >= recall), lower, m)
    m = np.where((m < n_pos) & (m / n_pos < recall), m + 1, m)
    return np.maximum(m, 1)


def _precision_at_recall_rows(cp, cn, targets):
    """Per row, precision at the first positive group whose TP reaches each target."""
    k = cp.shape[1]
    tp = np.cumsum(cp, axis=1)
    fp = np.cumsum(cn[:, :k], axis=1)
    rows = cp.shape[0]
    span = tp[:, -1].max() + 1.0
    offsets = np.arange(rows)[:, None] * span
    flat = (tp + offsets).ravel()  # exact integers, increasing across rows
    pos = np.searchsorted(flat, (targets[None, :] + offsets).ravel(), side="left")
    tp_at = tp.ravel()[pos]
    fp_at = fp.ravel()[pos]
    return (tp_at / (tp_at + fp_at)).reshape(rows, targets.shape[0])


def _check_grid(grid_points, kind, score):
    if isinstance(grid_points, numbers.Integral) and not isinstance(grid_points, bool):
        if grid_points < 2:
            raise ValueError(
                f"`grid_points` must be an integer >= 2 or an array; got {grid_points!r}"
            )
        if kind == "recall":
            return np.linspace(0.0, 1.0, int(grid_points))
        return np.linspace(float(score.min()), float(score.max()), int(grid_points))
    g = np.asarray(grid_points)
    if g.ndim != 1 or g.shape[0] == 0 or g.dtype.kind not in "iuf" or not np.all(np.isfinite(g)):
        raise ValueError(
            f"`grid_points` must be an integer >= 2 or a non-empty 1-D array of finite "
            f"numbers; got {grid_points!r}"
        )
    g = g.astype(np.float64)
    if kind == "recall" and (g.min() < 0 or g.max() > 1):
        raise ValueError(f"`grid_points` (recall values) must lie in [0, 1]; got {grid_points!r}")
    return g


def bootstrap_pr_band(
    y_true,
    y_score,
    *,
    grid="recall",
    n_resamples=1000,
    confidence_level=0.95,
    random_seed=None,
    grid_points=101,
    pos_label=None,
    progressbar=False,
):
    r"""Pointwise bootstrap band for the precision-recall curve.

    The data are resampled with the stratified bootstrap (each class to its own size;
    the resamples of :func:`bayes_prc.bootstrap.stratified_indices` for the same seed),
    each replicate's PR curve is read on a common grid, and the band is the pointwise
    equal-tailed quantiles across replicates.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels (at least one positive) and scores.
    grid : {"recall", "threshold"}, default "recall"
        ``"recall"``: precision as a function of recall. At recall :math:`r > 0` a
        replicate's precision is its precision at the **highest threshold whose recall
        reaches r** (the step function whose integral over recall is the replicate's
        AP); at :math:`r = 0`, the limit from the right (the precision at the highest
        threshold with a positive above it). ``"threshold"``: seed 001's recipe, for each
        replicate precision and recall interpolated linearly (:func:`numpy.interp`,
        constant beyond the ends) between the replicate's distinct thresholds, at common
        thresholds.
    n_resamples : int, default 1000
        Number of bootstrap replicates.
    confidence_level : float, default 0.95
        Pointwise level of the band (not a simultaneous band).
    random_seed : None, int or numpy.random.Generator, optional
    grid_points : int or array-like, default 101
        Number of evenly spaced grid points (recall in [0, 1]; thresholds from the lowest
        to the highest score), or the grid itself.
    pos_label : label, optional
    progressbar : bool or None, default False

    Returns
    -------
    xarray.Dataset
        For ``grid="recall"``: coordinates ``resample`` and ``recall``; variables
        ``precision`` (resample, recall), the replicate curves; ``lower``, ``median``,
        ``upper``, ``mean``, ``std`` (recall), the band and summaries; ``estimate``
        (recall), the curve of the data read the same way.
        For ``grid="threshold"``: coordinates ``resample`` and ``threshold``; variables
        ``precision`` and ``recall`` (resample, threshold); ``lower``, ``median``,
        ``upper``, ``mean``, ``std`` of precision and ``recall_lower``,
        ``recall_median``, ``recall_upper``, ``recall_mean``, ``recall_std``
        (threshold); ``estimate`` and ``recall_estimate`` for the data.
        Attributes: ``confidence_level``, ``method``, ``grid``, ``n_resamples``,
        ``n_positives``, ``n_negatives``, ``definition``. ``median``, ``mean`` and
        ``std`` are also names of :class:`xarray.Dataset` methods: read those variables
        as ``band["median"]``. ``band.drop_dims("resample").to_dataframe()`` gives the
        band as a table.

    References
    ----------
    Seed 001 ("pr curves"): bootstrap error bars by interpolating each resample's curve
    at common thresholds. Efron, B.; Tibshirani, R. J. (1993). An Introduction to the
    Bootstrap, Chapman & Hall.

    Examples
    --------
    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.frequentist import bootstrap_pr_band
    >>> y, s = Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> band = bootstrap_pr_band(y, s, n_resamples=200, grid_points=11, random_seed=1)
    >>> band.precision.dims, band.sizes["recall"]
    (('resample', 'recall'), 11)
    >>> bool((band.lower <= band["median"]).all() and (band["median"] <= band.upper).all())
    True
    >>> band = bootstrap_pr_band(y, s, grid="threshold", n_resamples=200, random_seed=1)
    >>> band.recall.dims
    ('resample', 'threshold')
    """
    import xarray as xr

    grid = _check_choice(grid, ("recall", "threshold"), "grid")
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
    level = _check_level(confidence_level)
    progressbar = _check_progressbar(progressbar)
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    ranked = _Ranked(is_pos, score)
    if ranked.n_pos == 0:
        raise ValueError("`y_true` has no positive sample; recall is undefined")
    points = _check_grid(grid_points, grid, score)
    rng = check_random_state(random_seed)
    alpha = (1.0 - level) / 2.0
    progress = _Progress(n_resamples, "bootstrap_pr_band", progressbar)

    def summaries(values, prefix):
        q = np.quantile(values, [alpha, 0.5, 1.0 - alpha], axis=0)
        return {
            f"{prefix}lower": q[0],
            f"{prefix}median": q[1],
            f"{prefix}upper": q[2],
            f"{prefix}mean": values.mean(axis=0),
            f"{prefix}std": values.std(axis=0, ddof=1)
            if n_resamples > 1
            else np.full_like(q[0], np.nan),
        }

    if grid == "recall":
        k = ranked.n_groups
        targets = _recall_targets(points, ranked.n_pos)
        reps = np.empty((n_resamples, points.shape[0]))
        bins = (ranked.pos_group, ranked.neg_bin, k + 1)
        start = 0
        try:
            for cp, cn in _binned_blocks(
                ranked, n_resamples, rng, "stratified", bins, DEFAULT_MEMORY_BUDGET, progress
            ):
                b = cp.shape[0]
                reps[start : start + b] = _precision_at_recall_rows(cp[:, :k], cn, targets)
                start += b
        finally:
            progress.close()
        a = np.bincount(ranked.pos_group, minlength=k).astype(np.float64)[None, :]
        c = np.bincount(ranked.neg_bin, minlength=k + 1).astype(np.float64)[None, :]
        est = _precision_at_recall_rows(a, c, targets)[0]
        dims = ("resample", "recall")
        data = {"precision": (dims, reps), "estimate": (("recall",), est)}
        data.update({k_: (("recall",), v) for k_, v in summaries(reps, "").items()})
        definition = (
            "precision at recall r: precision at the highest threshold whose recall is >= r "
            "(r = 0: limit from the right)"
        )
    else:
        levels, pos_bins, neg_bins = ranked.threshold_bins
        g = levels.shape[0]
        thr_asc = levels[::-1].astype(np.float64)
        prec = np.empty((n_resamples, points.shape[0]))
        rec = np.empty((n_resamples, points.shape[0]))

        def curve(cp_row, cn_row):
            present = (cp_row + cn_row) > 0
            tp = np.cumsum(cp_row)[present][::-1]
            fp = np.cumsum(cn_row)[present][::-1]
            t = thr_asc[present[::-1]]
            return np.interp(points, t, tp / (tp + fp)), np.interp(points, t, tp / tp[0])

        start = 0
        try:
            for cp, cn in _binned_blocks(
                ranked,
                n_resamples,
                rng,
                "stratified",
                (pos_bins, neg_bins, g),
                DEFAULT_MEMORY_BUDGET,
                progress,
            ):
                for r in range(cp.shape[0]):
                    prec[start + r], rec[start + r] = curve(cp[r], cn[r])
                start += cp.shape[0]
        finally:
            progress.close()
        est_p, est_r = curve(
            np.bincount(pos_bins, minlength=g).astype(np.float64),
            np.bincount(neg_bins, minlength=g).astype(np.float64),
        )
        dims = ("resample", "threshold")
        data = {
            "precision": (dims, prec),
            "recall": (dims, rec),
            "estimate": (("threshold",), est_p),
            "recall_estimate": (("threshold",), est_r),
        }
        data.update({k_: (("threshold",), v) for k_, v in summaries(prec, "").items()})
        data.update({k_: (("threshold",), v) for k_, v in summaries(rec, "recall_").items()})
        definition = (
            "precision and recall of score >= t, linearly interpolated between each "
            "replicate's distinct thresholds (seed 001)"
        )
    coords = {"resample": np.arange(n_resamples), dims[1]: points}
    attrs = {
        "confidence_level": level,
        "method": "stratified bootstrap, pointwise equal-tailed percentile band",
        "grid": grid,
        "n_resamples": n_resamples,
        "n_positives": ranked.n_pos,
        "n_negatives": ranked.n_neg,
        "definition": definition,
    }
    return xr.Dataset(data, coords=coords, attrs=attrs)
