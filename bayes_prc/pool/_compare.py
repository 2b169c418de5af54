r"""Two classifiers scored on one pool, compared on one labelled selection.

Both models score every pool item; one selection is labelled (drawn on one score, or,
better for a fair comparison, on the mean of the two pool ranks:
``select_labels((rankdata(score_a) + rankdata(score_b)) / 2, budget)``, so that the high
scores of both models are oversampled). Each model's pool AP is estimated from the same
labelled items by the Horvitz-Thompson estimator of
:func:`bayes_prc.pool.design_ap_interval` (with that model's ordering and exact pool
counts); the difference ``AP_B - AP_A`` is paired: every resample re-weights the same
items for both models, so what the two share cancels.

References
----------
.. [1] J. N. K. Rao, C. F. J. Wu and K. Yue, "Some recent work on resampling methods for
   complex surveys", Survey Methodology 18 (1992) 209-217 (the rescaling bootstrap).
.. [2] D. B. Rubin, "The Bayesian bootstrap", Ann. Statist. 9 (1981) 130-134; A. Y. Lo,
   "A large sample study of the Bayesian bootstrap", Ann. Statist. 15 (1987) 360-375.
.. [3] J. K. Kruschke, "Rejecting or accepting parameter values in Bayesian estimation",
   Adv. Methods Pract. Psychol. Sci. 1 (2018) 270-280 (the ROPE).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .._core import (
    check_1d,
    check_finite_scores,
    check_int,
    check_probability,
    check_random_state,
    check_rope,
    check_selected_labels,
)
from ..frequentist import (
    IntervalResult,
    LabelSelection,
    ValidatedSelection,
    rescaling_bootstrap_weights,
    sampling_fractions,
)

__all__ = ["PoolComparison", "compare_on_selection", "compare_pool"]


@dataclass(frozen=True)
class PoolComparison(IntervalResult):
    """Result of :func:`compare_pool`: the pool AP difference ``AP_B - AP_A``.

    Attributes
    ----------
    estimate : float
        Design-based (Horvitz-Thompson) estimate of ``AP_B - AP_A`` on the whole pool.
    low, high : float
        Percentile interval of the paired stratified rescaling bootstrap.
    confidence_level : float
    method : str
        ``"stratified bootstrap"``.
    p_value : float
        Two-sided bootstrap p-value of "no difference": twice the smaller share of
        bootstrap replicates on either side of 0 (at least ``1 / n_resamples``), the
        p-value that inverts the percentile interval.
    ap_a, ap_b : float
        Design-based estimates of each model's pool AP.
    prob_b_better : float
        Posterior probability ``P(AP_B > AP_A)`` under the stratified Bayesian bootstrap.
    rope : tuple of float or None
    prob_below_rope, prob_in_rope, prob_above_rope : float or None
        Posterior shares of the difference below, in (ends included) and above ``rope``.
    n_labelled, n_labelled_positives, n_pool : int
    strategy : str
    bootstrap_distribution, difference_draws : ndarray
        The bootstrap replicates and the posterior draws of ``AP_B - AP_A``.
    value_a, value_b : float
        ``ap_a`` and ``ap_b`` under the metric-neutral names of ``PairedComparison``.
    """

    p_value: float
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
    bootstrap_distribution: np.ndarray = field(repr=False)
    difference_draws: np.ndarray = field(repr=False)

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
    :func:`bayes_prc.frequentist.rescaling_bootstrap_weights`)."""
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
):
    r"""Compare two classifiers' pool AP on one labelled selection (``AP_B - AP_A``).

    Frequentist: the design-based estimate of each pool AP
    (:func:`bayes_prc.pool.design_ap_interval`'s Horvitz-Thompson ratio, with each
    model's own ordering and exact pool counts ``N(score >= s)``) and a percentile
    interval of the paired rescaling bootstrap within strata (Rao, Wu & Yue 1992): each
    replicate re-weights the labelled items once and both APs are recomputed with these
    weights. Bayesian: the stratified Bayesian bootstrap (Rubin 1981) of the labelled
    items: in each stratum Dirichlet(1, ..., 1) weights, scaled to the stratum's
    Horvitz-Thompson total, give a posterior of the pool's (weighted) item distribution
    and hence draws of both APs; ``prob_b_better`` and the ROPE shares are read from
    them. Both treat the pool's label distribution nonparametrically: no calibration
    model is assumed (unlike :func:`bayes_prc.pool.fit_pool`), and a stratum with no
    labelled positive adds no uncertainty, as in ``design_ap_interval``.

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
        Probability of the bootstrap interval.
    n_resamples : int, default 2000
        Bootstrap replicates, and posterior draws of the Bayesian bootstrap.
    random_seed : int, numpy.random.Generator or None

    Returns
    -------
    PoolComparison

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
    >>> bool(res.low <= res.estimate <= res.high), bool(res.prob_b_better > 0.9)
    (True, True)
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
):
    """:func:`compare_pool` behind ``compare_classifiers(..., selection=...)``.

    ``y_true`` holds the labels of ``selection.indices`` (``pos_label`` as in
    ``compare_classifiers``), ``score_a`` / ``score_b`` the two models' pool scores;
    ``rope`` and ``ci_prob`` come validated. ``unsupported`` maps the names of
    ``compare_classifiers``'s options that do not apply here to whether they were set.
    """
    given = [k for k, v in unsupported.items() if v]
    if given:
        raise ValueError(
            "with `selection`, compare_classifiers compares the two pool APs by the "
            "design-based paired bootstrap (bayes_prc.pool.compare_pool); these options do "
            f"not apply: {', '.join(f'`{k}`' for k in given)}"
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


def _compare(a, b, selection, is_pos, *, rope, level, n_resamples, rng):
    """The paired comparison on validated pool scores and labels."""
    if not is_pos.any():
        raise ValueError("no positive among the labelled items: the pool APs are undefined")
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
    shares = [None, None, None]
    if rope is not None:
        below, above = float(np.mean(post < rope[0])), float(np.mean(post > rope[1]))
        shares = [below, 1.0 - below - above, above]
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
