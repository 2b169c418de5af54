r"""Two classifiers scored on one pool, compared on one labelled selection.

Both models score every pool item; one selection is labelled (drawn on one score, or,
better for a fair comparison, on the mean of the two pool ranks:
``select_labels((rankdata(score_a) + rankdata(score_b)) / 2, budget)``, so that the high
scores of both models are oversampled).

``method="model"`` (the default): a joint monotone calibration model of the two scores
(:mod:`bayes_prc.pool._pair_model`) fitted to the labelled items; each posterior draw
labels the unlabelled items once and ranks that one labelling by both models, so the
difference ``AP_B - AP_A`` is paired draw by draw.

``method="design"``: each model's pool AP is estimated from the same labelled items by
the Horvitz-Thompson estimator of :func:`bayes_prc.pool.design_ap_interval` (with that
model's ordering and exact pool counts); the difference is paired: every resample
re-weights the same items for both models, so what the two share cancels.

References
----------
.. [1] J. N. K. Rao, C. F. J. Wu and K. Yue, "Some recent work on resampling methods for
   complex surveys", Survey Methodology 18 (1992) 209-217 (the rescaling bootstrap).
.. [2] D. B. Rubin, "The Bayesian bootstrap", Ann. Statist. 9 (1981) 130-134; A. Y. Lo,
   "A large sample study of the Bayesian bootstrap", Ann. Statist. 15 (1987) 360-375.
.. [3] J. K. Kruschke, "Rejecting or accepting parameter values in Bayesian estimation",
   Adv. Methods Pract. Psychol. Sci. 1 (2018) 270-280 (the ROPE).
.. [4] D. B. Rubin, "Inference and missing data", Biometrika 63 (1976) 581-592.
.. [5] A. Gelman, J. B. Carlin, H. S. Stern, D. B. Dunson, A. Vehtari and D. B. Rubin,
   *Bayesian Data Analysis*, 3rd ed., CRC Press (2013), ch. 8 (ignorable designs).
.. [6] J. Kossen, S. Farquhar, Y. Gal and T. Rainforth, "Active testing:
   sample-efficient model evaluation", ICML 2021, PMLR 139, 5753-5763.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .._core import (
    check_1d,
    check_choice,
    check_finite_scores,
    check_int,
    check_probability,
    check_random_state,
    check_rope,
    check_selected_labels,
)
from ..frequentist import IntervalResult
from ._design import ValidatedSelection, rescaling_bootstrap_weights, sampling_fractions
from ._pair_model import fit_pool_pair
from ._selection import LabelSelection

__all__ = ["POOL_COMPARE_METHODS", "PoolComparison", "compare_on_selection", "compare_pool"]

#: Methods of :func:`compare_pool`.
POOL_COMPARE_METHODS = ("model", "design")


@dataclass(frozen=True)
class PoolComparison(IntervalResult):
    """Result of :func:`compare_pool`: the pool AP difference ``AP_B - AP_A``.

    Attributes
    ----------
    estimate : float
        ``AP_B - AP_A`` on the whole pool: the posterior mean (``"calibration model"``)
        or the design-based (Horvitz-Thompson) estimate (``"stratified bootstrap"``).
    low, high : float
        Equal-tailed credible interval of the model's draws, or percentile interval of
        the paired stratified rescaling bootstrap.
    confidence_level : float
    method : str
        ``"calibration model"`` (``compare_pool(method="model")``) or
        ``"stratified bootstrap"`` (``method="design"``).
    p_value : float or None
        Design only (None for the model): two-sided bootstrap p-value of "no
        difference": twice the smaller share of bootstrap replicates on either side of
        0 (at least ``1 / n_resamples``), the p-value that inverts the percentile
        interval.
    ap_a, ap_b : float
        Each model's pool AP: posterior means, or design-based estimates.
    prob_b_better : float
        Posterior probability ``P(AP_B > AP_A)``: share of the model's draws, or of the
        stratified Bayesian bootstrap's (design).
    rope : tuple of float or None
    prob_below_rope, prob_in_rope, prob_above_rope : float or None
        Posterior shares of the difference below, in (ends included) and above ``rope``.
    n_labelled, n_labelled_positives, n_pool : int
    strategy : str
    bootstrap_distribution : ndarray or None
        The rescaling-bootstrap replicates of ``AP_B - AP_A`` (design; None for the
        model).
    difference_draws : ndarray
        Posterior draws of ``AP_B - AP_A``: the model's, or the stratified Bayesian
        bootstrap's (design).
    importance : dict or None
        The model's sampler diagnostics (Pareto ``khat``, ``ess``, ``smc``, ...); None
        for the design.
    value_a, value_b : float
        ``ap_a`` and ``ap_b`` under the metric-neutral names of ``PairedComparison``.
    """

    p_value: float | None
    ap_a: float
    ap_b: float
    prob_b_better: float
    rope: tuple | None
    prob_below_rope: float | None
    prob_in_rope: float | None
    prob_above_rope: float | None
    n_labelled: int
    n_labelled_positives: int
    n_pool: int
    strategy: str
    bootstrap_distribution: np.ndarray | None = field(repr=False)
    difference_draws: np.ndarray = field(repr=False)
    importance: dict | None = field(default=None, repr=False)

    @property
    def value_a(self):
        """The compared metric's value for A (the pool AP ``ap_a``), metric-neutral name
        as :class:`~bayes_prc.paired.PairedComparison`'s."""
        return self.ap_a

    @property
    def value_b(self):
        """The compared metric's value for B (``ap_b``)."""
        return self.ap_b


def _strata_cols(selection):
    return [np.flatnonzero(selection.strata == h) for h in np.unique(selection.strata)]


def _rescaling_weights(selection, rng, n_resamples):
    """Rao-Wu-Yue weights (n_resamples, n) in selection order (the one implementation,
    :func:`bayes_prc.pool._design.rescaling_bootstrap_weights`)."""
    w = 1.0 / np.asarray(selection.inclusion_prob, dtype=np.float64)
    return rescaling_bootstrap_weights(
        w, selection.strata, sampling_fractions(selection), rng, n_resamples
    )


def _bayesian_weights(selection, rng, n_draws):
    """Stratified Bayesian bootstrap: Dirichlet(1, ..., 1) in each stratum, times its HT
    total ``sum 1 / pi`` (``N_h`` for a stratified sample)."""
    w = 1.0 / np.asarray(selection.inclusion_prob, dtype=np.float64)
    out = np.empty((n_draws, w.size))
    for cols in _strata_cols(selection):
        g = rng.standard_exponential((n_draws, cols.size)) * w[cols]
        out[:, cols] = g / g.sum(axis=1, keepdims=True) * w[cols].sum()
    return out


def compare_pool(
    score_a,
    score_b,
    selection,
    y_labels,
    *,
    rope=None,
    ci_prob=0.95,
    n_resamples=2000,
    random_seed=None,
    method="model",
    draws=1000,
    priors=None,
):
    r"""Compare two classifiers' pool AP on one labelled selection (``AP_B - AP_A``).

    ``method="model"`` (default), Bayesian: both classifiers' calibrations are fitted
    jointly to the labelled items,
    ``P(y = 1 | s_A, s_B) = eps + (1 - eps) expit(alpha + g_A(u_A) + g_B(u_B))``, with
    ``u_X`` the normal score of classifier ``X``'s pool rank and ``g_X`` piecewise linear
    (slopes a Gaussian random walk, of either sign: given B's score, A's may be
    negatively related to the label; ``bayes_prc.bayes.PoolPairPriors``), ``eps`` a
    score-independent floor. The
    selection depends on the scores only, so the design is ignorable (Rubin 1976;
    Gelman et al. 2013, ch. 8): the likelihood is the plain Bernoulli likelihood of the
    labelled items. Posterior draws come from a Laplace approximation with Student-t
    importance sampling and a tempered-SMC fallback. Each draw labels every unlabelled
    item once (Bernoulli with its probability; the labelled items keep their labels),
    and that one labelling gives both pool APs (scikit-learn's definition, ties
    grouped, exactly as :func:`bayes_prc.average_precision_score`) and their
    difference. The interval is equal-tailed; ``prob_b_better`` and the ROPE shares are
    read from the same draws. Assumptions: the log-odds of a positive are additive in
    the two (rank-transformed) scores, each smooth (``K + 1`` linear segments); labels
    are independent given the scores.

    ``method="design"``, frequentist: the design-based estimate of each pool AP
    (:func:`bayes_prc.pool.design_ap_interval`'s Horvitz-Thompson ratio, with each
    model's own ordering and exact pool counts ``N(score >= s)``) and a percentile
    interval of the paired rescaling bootstrap within strata (Rao, Wu & Yue 1992): each
    replicate re-weights the labelled items once and both APs are recomputed with these
    weights; ``prob_b_better`` and the ROPE shares from the stratified Bayesian
    bootstrap (Rubin 1981): in each stratum Dirichlet(1, ..., 1) weights, scaled to the
    stratum's Horvitz-Thompson total. No calibration model is assumed, and a stratum
    with no labelled positive adds no uncertainty: it under-covers at low prevalence
    (90% intervals covered 83-88% of pool differences, ``docs/pool.md``).

    Parameters
    ----------
    score_a, score_b : array-like of shape (n_pool,)
        Both models' scores of every pool item, in the same order.
    selection : LabelSelection
        From :func:`bayes_prc.pool.select_labels` on the same pool (drawn on either
        score, or on their mean rank: see the module docstring).
    y_labels : array-like of shape (len(selection.indices),)
        Labels of the selected items, aligned with ``selection.indices``.
    rope : (float, float), optional
        Region of practical equivalence of ``AP_B - AP_A``, e.g. ``(-0.01, 0.01)``.
    ci_prob : float, default 0.95
        Probability of the interval.
    n_resamples : int, default 2000
        ``method="design"``: bootstrap replicates, and draws of the Bayesian bootstrap.
    random_seed : int, numpy.random.Generator or None
    method : {"model", "design"}, default "model"
        The joint calibration model, or the design-based paired bootstrap.
    draws : int, default 1000
        ``method="model"``: posterior draws (each labels the whole pool; about 1 s per
        1000 draws per 1e5 pool items).
    priors : PoolPairPriors or dict, optional
        ``method="model"``: priors of each ``g_X``, of ``alpha`` and of the floor
        (``bayes_prc.bayes.PoolPairPriors``).

    Returns
    -------
    PoolComparison

    Warns
    -----
    ConvergenceWarning
        ``method="model"``, when the sampler's tempered-SMC fallback accepts fewer than
        5% of its moves.

    References
    ----------
    Rubin (1976), "Inference and missing data", Biometrika 63; Gelman et al. (2013),
    *Bayesian Data Analysis*, ch. 8; Kossen et al. (2021), "Active testing:
    sample-efficient model evaluation", ICML; Rao, Wu & Yue (1992); Rubin (1981).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import rankdata
    >>> from bayes_prc.pool import select_labels
    >>> from bayes_prc.pool._compare import compare_pool
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(20_000) < 0.03
    >>> a = rng.normal(size=y.size) + 1.5 * y
    >>> b = a + rng.normal(size=y.size) + 1.0 * y     # B adds signal
    >>> sel = select_labels((rankdata(a) + rankdata(b)) / 2, 400, random_seed=1)
    >>> res = compare_pool(a, b, sel, y[sel.indices], rope=(-0.01, 0.01), random_seed=2)
    >>> res.method, bool(res.low <= res.estimate <= res.high), bool(res.prob_b_better > 0.9)
    ('calibration model', True, True)
    >>> design = compare_pool(a, b, sel, y[sel.indices], method="design", random_seed=2)
    >>> design.method, bool(design.low <= design.estimate <= design.high)
    ('stratified bootstrap', True)
    """
    a, b = _check_pool_scores(score_a, score_b, selection)
    is_pos = check_selected_labels(y_labels, selection.indices.size)
    return _compare(
        a,
        b,
        selection,
        is_pos,
        rope=check_rope(rope),
        level=check_probability(ci_prob, "ci_prob"),
        n_resamples=check_int(n_resamples, "n_resamples"),
        rng=check_random_state(random_seed),
        method=check_choice(method, "method", POOL_COMPARE_METHODS),
        draws=check_int(draws, "draws"),
        priors=priors,
    )


def compare_on_selection(
    y_true,
    score_a,
    score_b,
    selection,
    *,
    rope,
    ci_prob,
    n_resamples,
    random_seed,
    pos_label,
    unsupported,
    draws=1000,
):
    """:func:`compare_pool` behind ``compare_classifiers(..., selection=...)``.

    ``y_true`` holds the labels of ``selection.indices`` (``pos_label`` as in
    ``compare_classifiers``), ``score_a`` / ``score_b`` the two models' pool scores;
    ``rope`` and ``ci_prob`` come validated. ``unsupported`` maps the names of
    ``compare_classifiers``'s options that do not apply here to whether they were set.
    The method is :func:`compare_pool`'s default (the joint calibration model, with
    ``draws`` posterior draws).
    """
    given = [k for k, v in unsupported.items() if v]
    if given:
        raise ValueError(
            "with `selection`, compare_classifiers compares the two pool APs by "
            "bayes_prc.pool.compare_pool (its default: the joint calibration model; "
            "method='design' there for the design-based paired bootstrap); these "
            f"options do not apply: {', '.join(f'`{k}`' for k in given)}"
        )
    a, b = _check_pool_scores(score_a, score_b, selection)
    is_pos = check_selected_labels(
        y_true, selection.indices.size, name="y_true", pos_label=pos_label
    )
    return _compare(
        a,
        b,
        selection,
        is_pos,
        rope=rope,
        level=ci_prob,
        n_resamples=check_int(n_resamples, "n_resamples"),
        rng=check_random_state(random_seed),
        method="model",
        draws=check_int(draws, "draws"),
        priors=None,
    )


def _check_pool_scores(score_a, score_b, selection):
    if not isinstance(selection, LabelSelection):
        raise TypeError(
            f"`selection` must be a LabelSelection (from select_labels); got {type(selection)}"
        )
    a, b = (
        check_finite_scores(check_1d(x, n), n).astype(np.float64)
        for x, n in ((score_a, "score_a"), (score_b, "score_b"))
    )
    for name, s in (("score_a", a), ("score_b", b)):
        if s.shape[0] != selection.n_pool:
            raise ValueError(
                f"`{name}` must score the pool the selection was drawn from "
                f"({selection.n_pool} items); got {s.shape[0]}"
            )
    return a, b


def _rope_shares(draws, rope):
    if rope is None:
        return [None, None, None]
    below, above = float(np.mean(draws < rope[0])), float(np.mean(draws > rope[1]))
    return [below, 1.0 - below - above, above]


def _compare(a, b, selection, is_pos, *, rope, level, n_resamples, rng, method, draws, priors):
    """The paired comparison on validated pool scores and labels."""
    if not is_pos.any():
        raise ValueError("no positive among the labelled items: the pool APs are undefined")
    if method == "model":
        return _compare_model(a, b, selection, is_pos, rope, level, rng, draws, priors)
    designs, orders = [], []
    for s in (a, b):
        sel = replace(selection, y_score=s)  # the same items, seen through this score
        designs.append(ValidatedSelection(s, sel, is_pos))
        orders.append(np.argsort(-s[selection.indices].astype(np.float64), kind="stable"))

    def diff(weights):
        ap = [d.ap(weights[..., o]) for d, o in zip(designs, orders, strict=True)]
        return ap[1] - ap[0], ap

    w0 = 1.0 / np.asarray(selection.inclusion_prob, dtype=np.float64)
    estimate, (ap_a, ap_b) = diff(w0)
    boot = diff(_rescaling_weights(selection, rng, n_resamples))[0]
    boot = boot[np.isfinite(boot)]
    post = diff(_bayesian_weights(selection, rng, n_resamples))[0]
    post = post[np.isfinite(post)]
    low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    p_value = min(1.0, max(2 * min(np.mean(boot <= 0), np.mean(boot >= 0)), 1 / boot.size))
    shares = _rope_shares(post, rope)
    return PoolComparison(
        estimate=float(estimate),
        low=float(low),
        high=float(high),
        confidence_level=level,
        method="stratified bootstrap",
        p_value=float(p_value),
        ap_a=float(ap_a),
        ap_b=float(ap_b),
        prob_b_better=float(np.mean(post > 0)),
        rope=rope,
        prob_below_rope=shares[0],
        prob_in_rope=shares[1],
        prob_above_rope=shares[2],
        n_labelled=int(selection.indices.size),
        n_labelled_positives=int(is_pos.sum()),
        n_pool=int(selection.n_pool),
        strategy=selection.strategy,
        bootstrap_distribution=boot,
        difference_draws=post,
    )


def _compare_model(a, b, selection, is_pos, rope, level, rng, draws, priors):
    """``method="model"``: the joint calibration model's paired draws."""
    out = fit_pool_pair(
        a,
        b,
        np.asarray(selection.indices),
        is_pos,
        selection.inclusion_prob,
        priors=priors,
        draws=draws,
        rng=rng,
    )
    ap_a, ap_b = out["ap_a"], out["ap_b"]
    diff = ap_b - ap_a
    low, high = np.quantile(diff, [(1 - level) / 2, (1 + level) / 2])
    shares = _rope_shares(diff, rope)
    return PoolComparison(
        estimate=float(np.mean(diff)),
        low=float(low),
        high=float(high),
        confidence_level=level,
        method="calibration model",
        p_value=None,
        ap_a=float(np.mean(ap_a)),
        ap_b=float(np.mean(ap_b)),
        prob_b_better=float(np.mean(diff > 0)),
        rope=rope,
        prob_below_rope=shares[0],
        prob_in_rope=shares[1],
        prob_above_rope=shares[2],
        n_labelled=int(selection.indices.size),
        n_labelled_positives=int(is_pos.sum()),
        n_pool=int(selection.n_pool),
        strategy=selection.strategy,
        bootstrap_distribution=None,
        difference_draws=diff,
        importance=out["importance"],
    )
