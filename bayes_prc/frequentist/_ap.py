"""Confidence intervals for the area under the precision-recall curve (:func:`ap_interval`)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._core import (
    check_choice,
    check_int,
    check_probability,
    check_progressbar,
    check_random_state,
    plain,
)
from .._core.groups import check_groups
from ..empirical import AUC_PR_ESTIMATORS, as_ranked, auc_pr, auc_pr_validated
from ..exceptions import UndefinedMetricWarning
from ._engine import _Bins, _prepare, _replicates
from ._jackknife import (
    _ap_jackknife,
    _brute_jackknife,
    _jackknife_strata,
    bca_interval,
    percentile_interval,
)
from ._proportion import logit_interval, wald_interval
from ._resample import DEFAULT_MEMORY_BUDGET, _block_size
from ._results import IntervalResult, frozen_float_array

__all__ = ["cluster_design_effect", "AP_INTERVAL_METHODS", "APInterval", "ap_interval"]

#: Valid ``method`` values of :func:`ap_interval`.
AP_INTERVAL_METHODS = (
    "binomial",
    "logit",
    "bootstrap",
    "bca",
    "bayesian_bootstrap",
    "cross_validation",
)


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
    note : str or None
        With ``sample_weight``, the effective number of positives used. For the
        bootstrap methods on large data (at least 100 000 items), how the
        replicates were drawn: per score bin rather than per item (exact in distribution
        for the bin counts), with the positives merged into at most 2000 bins and the
        replicates shifted by the AP that merging loses on the data (see
        :mod:`bayes_prc.frequentist._aggregate`). With ``stratified=False``, that the
        bootstrap was unstratified. With ``groups``, the clusters and the design effect.
        None otherwise.
    n_clusters : int or None
        Number of clusters (``groups``); None without ``groups``.
    design_effect : float or None
        With ``groups`` and ``method="logit"`` / ``"binomial"``: the ratio of the
        leave-one-cluster-out to the leave-one-item-out jackknife variance of the
        estimator (at least 1); the interval uses ``n_positives / design_effect``
        positives. For the resampling methods with ``groups``, the ratio of the cluster
        bootstrap's variance to that jackknife item variance (how much wider the
        cluster-aware interval is, squared). None without ``groups``.
    """

    estimator: str
    n_resamples: int | None
    standard_error: float
    bootstrap_distribution: np.ndarray | None = field(repr=False)
    fold_estimates: np.ndarray | None = field(repr=False)
    n_positives: int
    n_negatives: int
    note: str | None = None
    n_clusters: int | None = None
    design_effect: float | None = None


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
    progressbar=None,
    sample_weight=None,
    stratified=True,
    groups=None,
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
    progressbar : bool or None, default None
        Text progress on stderr for the resampling methods; None: only on a terminal.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative item weights, for ``"binomial"`` and ``"logit"`` only: the estimate
        is the weighted estimator and :math:`n_+` is Kish's (1965) effective number of
        positives :math:`(\sum_+ w)^2 / \sum_+ w^2` (the number of positives for equal
        weights). The weights are read as survey or importance weights, so their scale
        does not matter; for frequency weights (an item standing for ``w`` identical
        items) repeat the items instead. The resampling and cross-validation methods
        raise ``ValueError`` for weighted data (their resampling units are unweighted
        items).
    stratified : bool, default True
        For ``"bootstrap"`` and ``"bca"`` only. ``False``: resample all items jointly
        (the ordinary one-sample bootstrap; the number of positives varies between
        replicates, and a replicate without a positive is redrawn, i.e. the bootstrap
        conditioned on at least one positive; the draws of
        :func:`bayes_prc.bootstrap.unstratified_indices`). BCa then uses the one-sample
        jackknife of all items. In the binormal study of ``docs/coverage.md`` (section
        "Simultaneous bootstrap PR bands") the unstratified 95% percentile interval
        covered 0.915-0.97 where the stratified one covered 0.86-0.945 (0.925 vs
        0.885 at about 20 positives).
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (patients, images, queries, ...): items of one cluster
        are not independent, the clusters are. ``"bootstrap"`` and ``"bca"`` then
        resample whole clusters (the cluster bootstrap; a replicate without a positive
        is redrawn; BCa's acceleration from the leave-one-cluster-out jackknife),
        ``"bayesian_bootstrap"`` puts Dirichlet weights on the clusters, and
        ``"logit"`` / ``"binomial"`` use the effective number of positives
        ``n_positives / design_effect`` (Kish 1965), the design effect estimated as the
        ratio of the leave-one-cluster-out to the leave-one-item-out jackknife variance
        (at least 1). ``"cross_validation"`` does not take ``groups``. When every
        cluster is a single item the result is the ungrouped one (same seed), with a
        note.

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
    method = check_choice(method, "method", AP_INTERVAL_METHODS)
    estimator = check_choice(estimator, "estimator", AUC_PR_ESTIMATORS)
    level = check_probability(confidence_level)
    n_resamples = check_int(n_resamples, "n_resamples")
    n_folds = check_int(n_folds, "n_folds", 2)
    progressbar = check_progressbar(progressbar)
    if not isinstance(stratified, (bool, np.bool_)):
        raise ValueError(f"`stratified` must be True or False; got {plain(stratified)}")
    if not stratified and method not in ("bootstrap", "bca"):
        raise ValueError(
            f"`stratified=False` applies to method='bootstrap' and 'bca' only; got "
            f"method={method!r}"
        )
    if sample_weight is not None:
        if groups is not None:
            raise ValueError("`groups` and `sample_weight` cannot be combined")
        return _weighted_ap_interval(
            y_true, y_score, sample_weight, method, estimator, level, pos_label
        )
    ranked = _prepare(y_true, y_score, pos_label)
    clusters, cluster_note = None, None
    if groups is not None:
        clusters = check_groups(groups, ranked.n_samples)
        if method == "cross_validation":
            raise ValueError("method='cross_validation' does not take `groups`")
        if not stratified:
            raise ValueError("`stratified=False` and `groups` cannot be combined")
        if clusters.singletons:
            clusters, cluster_note = None, "every cluster is a single item: ungrouped"
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos, n_neg = ranked.n_pos, ranked.n_neg
    if n_pos == 0:
        raise ValueError(
            "`y_true` has no positive sample; the area under the PR curve is undefined"
        )
    # clipped against round-off: a perfect ranking can sum to 1 + 2e-16
    estimate = min(1.0, max(0.0, auc_pr(ranked, None, estimator=estimator)))
    common = dict(
        estimate=estimate,
        confidence_level=level,
        method=method,
        estimator=estimator,
        n_positives=n_pos,
        n_negatives=n_neg,
    )
    if clusters is not None:
        common["n_clusters"] = clusters.n_clusters
    elif cluster_note is not None:
        common.update(n_clusters=int(ranked.n_samples), note=cluster_note)
    if method in ("binomial", "logit"):
        fn = wald_interval if method == "binomial" else logit_interval
        n_eff = n_pos
        if clusters is not None:
            deff = max(1.0, _jackknife_design_effect(_Bins(ranked), clusters, estimator))
            n_eff = n_pos / deff
            common["design_effect"] = deff
            common["note"] = (
                f"{clusters.describe()}: design effect {deff:.3g}, "
                f"{n_eff:.3g} effective positives of {n_pos}"
            )
        res = fn(estimate, n_eff, confidence_level=level)
        return APInterval(
            low=float(res.low),
            high=float(res.high),
            n_resamples=None,
            standard_error=float(np.sqrt(estimate * (1.0 - estimate) / n_eff)),
            bootstrap_distribution=None,
            fold_estimates=None,
            **common,
        )
    rng = check_random_state(random_seed)
    if method == "cross_validation":
        if n_folds > n_pos:
            raise ValueError(
                f"`n_folds` must be at most the number of positives ({n_pos}) so that "
                f"every fold holds a positive; got {plain(n_folds)}"
            )
        fold = _stratified_folds(is_pos, n_folds, rng)
        folds = np.array(
            [
                auc_pr_validated(is_pos[fold == f], score[fold == f], None, estimator)
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
            fold_estimates=frozen_float_array(folds),
            **common,
        )
    bins = _Bins(ranked)
    kind = "bayesian" if method == "bayesian_bootstrap" else "stratified"
    kind = kind if stratified else "unstratified"
    if clusters is not None:
        bins.clusters = clusters
        kind = "cluster_bayesian" if method == "bayesian_bootstrap" else "cluster"
    block = _block_size(bins.n, DEFAULT_MEMORY_BUDGET)
    info = {}
    dist = _replicates(bins, estimator, n_resamples, kind, rng, block, progressbar, method, info)
    if clusters is not None:
        item_var = _jackknife_variance(_item_jackknife(bins, estimator))
        ratio = float(np.var(dist, ddof=1) / item_var) if item_var > 0 and dist.size > 1 else None
        common["design_effect"] = ratio
        common["note"] = f"{clusters.describe()}: whole clusters resampled" + (
            f"; variance {ratio:.3g} x the item jackknife's" if ratio is not None else ""
        )
    if method == "bca" and clusters is not None:
        loo = _cluster_jackknife(bins, clusters, estimator)
        bca = bca_interval(estimate, dist, [loo], confidence_level=level, sizes=[loo.size])
        low, high = bca.low, bca.high
    elif method == "bca":
        strata, sizes = _jackknife_strata(bins, estimator, rng, pooled=not stratified)
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
        bootstrap_distribution=frozen_float_array(dist),
        fold_estimates=None,
        **{
            **common,
            "note": _join_notes(
                common.get("note"),
                None if stratified else "unstratified bootstrap: all items resampled jointly",
                _per_bin_note(info, bins),
            ),
        },
    )


def _weighted_ap_interval(y_true, y_score, sample_weight, method, estimator, level, pos_label):
    """``"binomial"`` / ``"logit"`` with item weights: Kish's effective number of positives."""
    if method not in ("binomial", "logit"):
        raise ValueError(
            f"`sample_weight` is supported by method='binomial' and 'logit' only; got "
            f"method={method!r} (its resampling units are unweighted items)"
        )
    ranked = as_ranked(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    w_pos = ranked.sample_weight[ranked.is_pos]
    if not (w_pos > 0).any():
        raise ValueError(
            "`y_true` has no positive sample of non-zero weight; the area under the PR "
            "curve is undefined"
        )
    n_eff = float(w_pos.sum() ** 2 / np.sum(w_pos**2))
    estimate = min(1.0, max(0.0, auc_pr(ranked, None, estimator=estimator)))
    fn = wald_interval if method == "binomial" else logit_interval
    res = fn(estimate, n_eff, confidence_level=level)
    return APInterval(
        estimate=estimate,
        low=float(res.low),
        high=float(res.high),
        confidence_level=level,
        method=method,
        estimator=estimator,
        n_resamples=None,
        standard_error=float(np.sqrt(estimate * (1.0 - estimate) / n_eff)),
        bootstrap_distribution=None,
        fold_estimates=None,
        n_positives=ranked.n_pos,
        n_negatives=ranked.n_neg,
        note=f"weighted: Kish effective number of positives {n_eff:.4g}",
    )


def _join_notes(*notes):
    kept = [n for n in notes if n]
    return "; ".join(kept) if kept else None


def _per_bin_note(info, bins):
    """How the replicates of large data were drawn (None for the per-item draws)."""
    if not info.get("per_bin"):
        return None
    note = f"{bins.n:,} items: replicates drawn as class counts per score bin"
    if info["n_bins"] < bins.n_groups:
        note += (
            f", the {bins.n_groups:,} distinct positive scores merged into "
            f"{info['n_bins']:,} bins and the replicates shifted by "
            f"{info['ap_shift']:+.1e} (the AP the merge loses on the data)"
        )
    return note


# --------------------------------------------------------------------------------------
# clusters (groups=)
# --------------------------------------------------------------------------------------
def _jackknife_variance(values):
    """The jackknife variance ``(m - 1) / m * sum (t_j - mean)^2`` of leave-one-out values."""
    values = values[np.isfinite(values)]
    m = values.size
    return float((m - 1) / m * np.sum((values - values.mean()) ** 2)) if m > 1 else 0.0


def _item_jackknife(bins, estimator):
    """Leave-one-item-out values (all items; NaN for the only positive)."""
    if estimator == "average_precision":
        return np.concatenate(_ap_jackknife(bins))
    return _brute_jackknife(bins, estimator, np.arange(bins.n))


def _cluster_jackknife(bins, clusters, estimator):
    """Leave-one-cluster-out values of the estimator (clusters whose removal leaves no
    positive dropped): one weighted evaluation per cluster on the sorted data."""
    order, is_pos_s, score_s = bins.sorted_view
    codes_s = clusters.codes[order]
    pos_per = clusters.positives(bins.ranked.is_pos)
    total = pos_per.sum()
    out = []
    for g in range(clusters.n_clusters):
        if pos_per[g] == total:
            continue
        w = (codes_s != g).astype(np.float64)
        out.append(auc_pr_validated(is_pos_s, score_s, w, estimator))
    return np.asarray(out, dtype=np.float64)


def _jackknife_design_effect(bins, clusters, estimator):
    """Leave-one-cluster-out over leave-one-item-out jackknife variance of the estimator."""
    item = _jackknife_variance(_item_jackknife(bins, estimator))
    cluster = _jackknife_variance(_cluster_jackknife(bins, clusters, estimator))
    return cluster / item if item > 0 else 1.0


def cluster_design_effect(ranked, groups, estimator="average_precision"):
    """Design effect of the AUC-PR estimator for clustered items (at least 1).

    The leave-one-cluster-out over the leave-one-item-out jackknife variance of
    ``estimator`` on the validated data ``ranked``
    (:class:`~bayes_prc.empirical.Ranked`); ``groups`` as in :func:`ap_interval` (or a
    validated :class:`~bayes_prc._core.groups.Clusters`). 1 for singleton clusters.
    The Bayesian fit uses it to temper its likelihood (``fit_binormal(groups=...)``).
    """
    clusters = check_groups(groups, ranked.n_samples)
    if clusters.singletons:
        return 1.0
    return max(1.0, _jackknife_design_effect(_Bins(ranked), clusters, estimator))
