"""Two classifiers on the same items: :func:`compare_classifiers` and its result.

The posterior, the bootstrap or the test of the difference of their metric; the methods
are described in :mod:`bayes_prc.paired`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import (
    check_binary_target,
    check_choice,
    check_int,
    check_paired_scores,
    check_probability,
    check_random_state,
    check_rope,
)
from .._core.groups import check_groups
from .._core.transforms import check_transform, transform_scores
from ..empirical import Ranked, average_precision_score, precision_at_recall
from ..exceptions import BayesPRCWarning
from ..frequentist import paired_replicates
from ..intervals import IntervalResult
from ..pool import compare_on_selection
from ..recommend import recommend_paired_method
from ._tests import (
    METRICS,
    check_metric_method,
    frequentist_fields,
    within_class_rank_correlation,
)

__all__ = ["BAYES_METHODS", "COMPARISON_METHODS", "PairedComparison", "compare_classifiers"]

#: Valid values of the ``method`` argument of :func:`compare_classifiers`.
COMPARISON_METHODS: tuple[str, ...] = (
    "bayes",
    "bayesian_bootstrap",
    "bootstrap",
    "delong",
    "jackknife",
    "permutation",
)
#: Valid values of its ``bayes_method`` argument.
BAYES_METHODS: tuple[str, ...] = ("exact", "nuts")


@dataclass(frozen=True, eq=False)
class PairedComparison(IntervalResult):
    """Result of :func:`compare_classifiers`: the posterior, bootstrap or test of B - A.

    The difference is ``AP_B - AP_A`` for ``metric="average_precision"`` and
    ``AUC_B - AUC_A`` for ``metric="roc_auc"``.

    Attributes
    ----------
    estimate : float
        Point estimate of the difference: the posterior mean (``"bayes"``,
        ``"bayesian_bootstrap"``) or the empirical difference (``"bootstrap"``,
        ``"delong"``, ``"permutation"``).
    low, high : float
        Equal-tailed interval of the difference with probability ``confidence_level``
        (credible interval, or percentile bootstrap interval); for ``"delong"`` the
        normal interval ``estimate -+ z SE`` (clipped to [-1, 1]); NaN for
        ``"permutation"``, which only tests.
    confidence_level : float
        The interval's probability (also available as :attr:`ci_prob`).
    method : str
        One of :data:`COMPARISON_METHODS`.
    prob_b_better : float or None
        Share of the draws (replicates) with ``AP_B > AP_A`` strictly: the posterior
        probability that B is better for the Bayesian methods; for ``"bootstrap"`` the
        bootstrap proportion, not a probability that B is better. None for the tests
        (``"delong"``, ``"permutation"``), whose evidence is ``p_value``.
    ap_a, ap_b : float or None
        Point values of each AP, on the same footing as ``estimate`` (posterior means, or
        the empirical AP for ``"bootstrap"`` and the permutation test of AP); None with
        ``metric="roc_auc"`` (the compared values are ``value_a``, ``value_b``; the
        empirical APs stay in ``empirical_ap_a``, ``empirical_ap_b``).
    empirical_ap_a, empirical_ap_b : float
        Empirical (step-wise, scikit-learn) AP of each classifier on the data.
    n, n_pos : int
        Number of items and of positives.
    difference_draws : numpy.ndarray of shape (n_draws,) or None
        Draws (replicates) of ``AP_B - AP_A``: ``chains * draws`` for ``"bayes"``,
        ``n_resamples`` for the bootstrap methods; None for the tests.
    ap_a_draws, ap_b_draws : numpy.ndarray of shape (n_draws,) or None
        The corresponding draws of each AP; None for the tests.
    rope : tuple of float or None
        The region of practical equivalence ``(low, high)`` if one was given.
    prob_below_rope, prob_in_rope, prob_above_rope : float or None
        Share of the difference's draws below ``rope[0]``, in ``[rope[0], rope[1]]``
        (ends included) and above ``rope[1]``; they sum to 1 (Kruschke 2018). The tests
        do not take a ``rope`` (set their interval against it instead).
    recall : float or None
        The recall at which precisions were compared, if asked.
    precision_a, precision_b : float or None
        Point values of each classifier's precision at ``recall``.
    precision_estimate, precision_low, precision_high : float or None
        Point estimate and interval of ``precision_B - precision_A`` at ``recall``.
    prob_b_better_precision : float or None
        Share of draws where B's precision at ``recall`` is strictly higher.
    precision_difference_draws : numpy.ndarray or None
        Its draws (replicates).
    correlation : dict or None
        ``"bayes"`` only: posterior mean of the within-class correlation of the two
        classifiers' (latent or transformed) scores, ``{"neg": ..., "pos": ...}``.
    bayes_method, transform : str or None
        How the ``"bayes"`` posterior was sampled and the score transform.
    diagnostics : dict or None
        ``"bayes"`` with NUTS: max R-hat, min bulk/tail ESS, number of divergences; with
        the rank-based model's fast sampler: Pareto ``khat``, ``ess`` (Kish), ``n_distinct``
        draws, ``ess_draws = min(ess, n_distinct)``, ``n_proposals``, ``adaptations``.
    fit_check : JointFitCheck or None
        ``"bayes"`` with ``model="semiparametric"``: the deviance check of the joint
        model (``statistic``, ``df``, ``p_value``, ``passed``; deterministic, see
        :mod:`bayes_prc.paired._rank`).
    recommendation : str or None
        Its verdict; a failed check says so, recommends the paired bootstrap and warns.
        The default method on a near tie (``"jackknife"``): why it was chosen.
    idata : xarray.DataTree or None
        ``"bayes"`` with NUTS only: the ArviZ DataTree of the fit (with ``ap_a``,
        ``ap_b`` and ``ap_difference`` in its posterior group).
    metric : str
        ``"average_precision"`` or ``"roc_auc"``.
    value_a, value_b : float or None
        Point values of the compared metric for A and B, whatever the metric: the
        documented metric-neutral fields (equal to ``ap_a``, ``ap_b`` for AP; the
        empirical AUCs for ``metric="roc_auc"``).
    p_value : float or None
        Two-sided p-value of "the classifiers are equally good": DeLong's normal test of
        the AUC difference with his covariance (``"delong"``), or the permutation
        p-value ``(1 + #{|T*| >= |T|}) / (n_resamples + 1)`` (``"permutation"``); None
        for the Bayesian and bootstrap methods.
    standard_error : float or None
        ``"delong"``: DeLong's standard error of the AUC difference.
    null_distribution : numpy.ndarray of shape (n_resamples,) or None
        ``"permutation"``: the differences of the randomly swapped data.
    """

    prob_b_better: float | None
    ap_a: float | None
    ap_b: float | None
    empirical_ap_a: float
    empirical_ap_b: float
    n: int
    n_pos: int
    difference_draws: np.ndarray | None = field(repr=False)
    ap_a_draws: np.ndarray | None = field(repr=False)
    ap_b_draws: np.ndarray | None = field(repr=False)
    rope: tuple[float, float] | None = None
    prob_below_rope: float | None = None
    prob_in_rope: float | None = None
    prob_above_rope: float | None = None
    recall: float | None = None
    precision_a: float | None = None
    precision_b: float | None = None
    precision_estimate: float | None = None
    precision_low: float | None = None
    precision_high: float | None = None
    prob_b_better_precision: float | None = None
    precision_difference_draws: np.ndarray | None = field(default=None, repr=False)
    correlation: dict[str, float] | None = None
    bayes_method: str | None = None
    transform: str | None = None
    model: str | None = None
    diagnostics: dict[str, Any] | None = field(default=None, repr=False)
    idata: Any = field(default=None, repr=False)
    metric: str = "average_precision"
    value_a: float | None = None
    value_b: float | None = None
    p_value: float | None = None
    standard_error: float | None = None
    null_distribution: np.ndarray | None = field(default=None, repr=False)
    fit_check: Any = field(default=None, repr=False)
    recommendation: str | None = None

    @property
    def ci_prob(self) -> float:
        """The interval's probability (same as ``confidence_level``)."""
        return self.confidence_level


# --------------------------------------------------------------------------------------
# input validation
# --------------------------------------------------------------------------------------
def _compare_iv(y_true, score_a, score_b, pos_label):
    """The two classifiers as prepared :class:`~bayes_prc.empirical.Ranked` data.

    Validated once (1-D, same length, finite, both classes), with messages naming
    ``score_a`` / ``score_b``; the two share the labels.
    """
    y, a, b = check_paired_scores(y_true, score_a, score_b)
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if b.dtype.kind == "b":
        b = b.astype(np.int64)
    is_pos, pos_label, _ = check_binary_target(y, pos_label)
    n_pos = int(is_pos.sum())
    if n_pos == 0 or n_pos == is_pos.size:
        raise ValueError(
            f"`y_true` must contain both classes to compare average precisions; got {n_pos} "
            f"positive(s) out of {is_pos.size}"
        )
    return Ranked(is_pos, a, None, pos_label), Ranked(is_pos, b, None, pos_label)


def _summary(diff, level):
    low, high = np.quantile(diff, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high), float(np.mean(diff > 0))


# --------------------------------------------------------------------------------------
# the public function
# --------------------------------------------------------------------------------------
def compare_classifiers(
    y_true,
    score_a,
    score_b,
    *,
    metric="average_precision",
    method=None,
    recall=None,
    rope=None,
    ci_prob=0.95,
    n_resamples=2000,
    transform=None,
    priors=None,
    bayes_method="exact",
    draws=1000,
    chains=4,
    tune=1000,
    cores=None,
    target_accept=0.9,
    progressbar=None,
    pos_label=None,
    random_seed=None,
    model="semiparametric",
    selection=None,
    groups=None,
):
    """Compare two classifiers' AP or ROC AUC on the same items: is B better than A?

    Draws (posterior draws or bootstrap replicates) of ``AP_B - AP_A`` that keep the
    pairing of the two classifiers' scores, and from them the probability that B is
    better, an interval of the difference and, optionally, the probabilities of a region
    of practical equivalence and the same comparison for precision at a given recall.
    Or a paired test of equal ROC AUC (DeLong) or equal AP / ROC AUC (permutation),
    with its p-value.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; both classes must be present.
    score_a, score_b : array-like of shape (n_samples,)
        Scores of classifiers A and B for the same items, in the same order; higher
        means more likely positive.
    metric : {"average_precision", "roc_auc"}, default "average_precision"
        What is compared. ``"roc_auc"`` works with ``"delong"`` and ``"permutation"``.
    method : {"bayes", "bayesian_bootstrap", "bootstrap", "delong", "jackknife", "permutation"}, optional
        Default ``"bayes"`` for AP and ``"delong"`` for the ROC AUC; for AP on a near tie
        (the two classifiers' within-class Spearman correlation at least
        :data:`NEAR_TIE_RANK_CORRELATION`, e.g. the same learner trained twice, and none
        of ``groups``, ``recall``, ``rope``, ``priors``, ``transform``, ``model``,
        ``bayes_method`` given) ``"jackknife"``, and ``recommendation`` says why.
        ``"bayes"``: joint binormal model, bivariate normal (latent) scores per class and
        a Beta prevalence (see ``model``); each draw's marginals are the two
        classifiers' binormal models, whose analytic AP (Brodersen et al. 2010) is
        compared.
        ``"bayesian_bootstrap"``: Dirichlet(1, ..., 1) weights over the items, the same
        for A and B, and each classifier's weighted empirical AP (Rubin 1981).
        ``"bootstrap"``: stratified resampling (items drawn with replacement within each
        class, so the number of positives is fixed), the same resampled items for A and
        B; the interval is the percentile interval.
        ``"delong"`` (ROC AUC only): DeLong, DeLong & Clarke-Pearson's (1988) test, the
        difference of the empirical AUCs over its standard error from the structural
        components' covariance (computed from midranks, Sun & Xu 2014), two-sided
        normal p-value, and the normal interval of the difference.
        ``"jackknife"`` (AP only): the empirical difference with the paired jackknife
        standard error (leave one item, or with ``groups`` one cluster, out; both
        classifiers recomputed on the same items; Quenouille 1956, Efron & Stein 1981):
        the normal interval ``d +- z se`` and the two-sided p-value of ``d / se``. The
        calibrated interval for near ties (the same learner trained twice), where the
        joint model is honest but wide and the bootstrap's percentile interval is
        off-centre (docs/coverage.md, "Near ties").
        ``"permutation"`` (AP or ROC AUC): the paired permutation test. Each of
        ``n_resamples`` replicates swaps the two classifiers' scores of every item with
        probability 1/2 and recomputes the difference;
        ``p = (1 + #{|T*| >= |T|}) / (n_resamples + 1)`` (Bandos et al. 2005; Phipson &
        Smyth 2010). Exact under its null hypothesis, that A's and B's scores of an item
        are exchangeable: the scores must be on a common scale (e.g. both
        probabilities). It reports no interval.
    recall : float in (0, 1), optional
        Also compare precision at this recall. ``"bayes"``: the binormal precision at
        exactly this recall; the bootstrap methods: the empirical precision at recall
        (the highest precision among thresholds reaching at least this recall, as
        :func:`bayes_prc.precision_at_recall`).
    rope : (float, float), optional
        Region of practical equivalence ``(low, high)`` of ``AP_B - AP_A``, e.g.
        ``(-0.01, 0.01)``: report the share of draws below, inside (ends included) and
        above it (Kruschke 2018). Used with the methods that give draws (``"bayes"``
        and the bootstraps), not with the tests.
    ci_prob : float in (0, 1), default 0.95
        Probability of the equal-tailed interval of every method (the package's name for
        the level of functions that mix Bayesian and frequentist results; the result
        carries it as ``confidence_level`` and ``ci_prob``).
    n_resamples : int, default 2000
        Number of replicates of the bootstrap methods and of the permutation test.
    transform : {None, "logit", "probit"}, default None
        ``"bayes"`` with ``model="parametric"`` only: fit the model to ``logit(score)``
        or ``probit(score)`` for probability outputs (as :func:`bayes_prc.fit_binormal`).
        The empirical AP is invariant to it.
    model : {"semiparametric", "parametric"}, default "semiparametric"
        ``"bayes"`` only. ``"semiparametric"``: the joint rank-based (CORROC) model of
        Metz, Wang & Kronman (1984): each classifier's scores are grouped into 6-12
        ordered categories (class-balanced), each classifier has its own unknown
        monotone map from a latent scale (its cutpoints), and per class the two latent
        scores are bivariate normal (negatives standard with correlation ``rho_neg``,
        positives ``(mu_a, mu_b)``, ``(sigma_a, sigma_b)``, ``rho_pos``); the data are
        the two cross-classified count tables. Only the order of each classifier's
        scores matters. Its fit is checked (``fit_check``). ``"parametric"``: a
        bivariate normal fit to the scores themselves (after ``transform``), with a
        conjugate Normal-Inverse-Wishart prior on standardized scores.
    priors : JointRankPriors, BinormalPriors, dict or None
        ``"bayes"`` only. ``model="semiparametric"``: a
        :class:`~bayes_prc.paired.JointRankPriors` (or a dict of its fields).
        ``model="parametric"``: the univariate prior of :func:`bayes_prc.fit_binormal`; the
        Normal-Inverse-Wishart prior built from it has exactly these marginals for each
        classifier (``nu0 = 2 sigma2_alpha + 1``, ``Psi0 = 2 sigma2_beta I``,
        ``kappa0 = mu_kappa``), see :mod:`bayes_prc.paired._bivariate`. Each classifier's
        scores are standardized by their own mean and standard deviation unless
        ``location``/``scale`` are set, which then apply to both.
    bayes_method : {"exact", "nuts"}, default "exact"
        ``"exact"``: the fast sampler: for ``model="parametric"`` independent draws from
        the closed-form conjugate posterior, for ``"semiparametric"`` the posterior mode,
        its Laplace approximation and Pareto-smoothed importance sampling (about 1 s
        at n = 200). ``"nuts"``: PyMC's NUTS on the same prior and likelihood;
        diagnostics are checked.
    draws, chains : int, default 1000, 4
        ``"bayes"``: draws per chain and number of chains (``"exact"`` gives
        ``draws * chains`` independent draws).
    tune, cores, target_accept, progressbar
        Passed to :func:`pymc.sample` (NUTS only).
    pos_label : label, optional
        Positive label when ``y_true`` is not {0, 1} / {-1, 1}.
    random_seed : int, numpy.random.Generator or None
        Same seed, same result.
    selection : LabelSelection, optional
        Both models scored a whole pool and only ``selection``'s items
        (:func:`bayes_prc.pool.select_labels`) are labelled: ``score_a``, ``score_b``
        are the pool scores, ``y_true`` the labels of ``selection.indices``. The pool
        APs are compared by :func:`bayes_prc.pool.compare_pool` with its default
        method (the joint calibration model of both scores, ``draws`` posterior
        draws, each labelling the unlabelled items once for both models; for the
        design-based paired bootstrap call ``compare_pool(..., method="design")``),
        which returns a :class:`~bayes_prc.pool.PoolComparison`; ``metric``,
        ``method``, ``recall``, ``transform``, ``priors``, ``model`` and
        ``bayes_method`` must keep their defaults.
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (patients, images, queries): the clusters, not the
        items, are independent. ``"bootstrap"`` (the default for AP with ``groups``)
        and ``"bayesian_bootstrap"`` then resample whole clusters, the same draw for
        both classifiers; ``"delong"`` (ROC AUC) uses Obuchowski's (1997) clustered
        variance of the difference of the components. ``"bayes"`` and
        ``"permutation"`` do not take ``groups`` (yet). With every cluster a single
        item the result is the ungrouped one (same seed).

    Returns
    -------
    PairedComparison or PoolComparison
        Without ``selection``: a :class:`PairedComparison`, a frozen dataclass with
        ``estimate``, ``low``, ``high``, ``confidence_level`` (alias ``ci_prob``),
        ``method``, ``prob_b_better``, ``ap_a``, ``ap_b`` (metric-neutral ``value_a``,
        ``value_b``), ``difference_draws`` (shape ``(n_draws,)``), the ROPE and precision
        fields when asked. With ``selection=``: the delegation to
        :func:`bayes_prc.pool.compare_pool`, whose :class:`~bayes_prc.pool.PoolComparison`
        it returns unchanged (same fields for the interval, the ROPE shares,
        ``value_a`` / ``value_b``).

    Warns
    -----
    ConvergenceWarning
        ``bayes_method="nuts"`` with bad diagnostics (R-hat > 1.01, ESS < 100 per chain,
        divergences).

    Notes
    -----
    Ignoring the pairing (two separate intervals, or the difference of independent
    posteriors) overstates the uncertainty of the difference when the classifiers'
    errors are positively correlated, as they usually are on a shared test set. The
    Bayesian model also reports that correlation (``correlation``).

    All intervals are equal-tailed quantiles of the draws. For a decision with the ROPE,
    Kruschke's rule compares the interval with the ROPE: entirely outside, the
    difference is practically non-zero; entirely inside, practically equivalent.

    References
    ----------
    .. [1] D. B. Rubin, "The Bayesian bootstrap", The Annals of Statistics 9(1), 1981,
       pp. 130-134.
    .. [2] J. K. Kruschke, "Rejecting or accepting parameter values in Bayesian
       estimation", Advances in Methods and Practices in Psychological Science 1(2),
       2018, pp. 270-280.
    .. [3] K. H. Brodersen, C. S. Ong, K. E. Stephan and J. M. Buhmann, "The binormal
       assumption on precision-recall curves", ICPR 2010, pp. 4263-4266.
    .. [4] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas
       under two or more correlated receiver operating characteristic curves: a
       nonparametric approach", Biometrics 44(3), 1988, pp. 837-845.
    .. [5] X. Sun and W. Xu, "Fast implementation of DeLong's algorithm for comparing
       the areas under correlated receiver operating characteristic curves", IEEE
       Signal Processing Letters 21(11), 2014, pp. 1389-1393.
    .. [6] A. I. Bandos, H. E. Rockette and D. Gur, "A permutation test sensitive to
       differences in areas for comparing ROC curves from a paired design", Statistics
       in Medicine 24(18), 2005, pp. 2873-2893.
    .. [7] B. Phipson and G. K. Smyth, "Permutation p-values should never be zero",
       Statistical Applications in Genetics and Molecular Biology 9(1), 2010.

    Examples
    --------
    >>> from bayes_prc.datasets import load_example
    >>> from bayes_prc.paired import compare_classifiers
    >>> data = load_example("digits_nine")
    >>> y, a, b = data.y_true, data.scores["score_a"], data.scores["score_b"]
    >>> res = compare_classifiers(y, a, b, random_seed=0)  # rank-based (default)
    >>> res.method, res.model, res.confidence_level, res.difference_draws.shape
    ('bayes', 'semiparametric', 0.95, (4000,))
    >>> print(f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}], P(B better) = "
    ...       f"{res.prob_b_better:.2f}")
    -0.018 [-0.053, 0.019], P(B better) = 0.14
    >>> res.recommendation  # the deterministic deviance check of the joint model
    'the joint binormal model fits the 4x4 tables (G2 = 12.4, df = 18, p = 0.824)'
    >>> par = compare_classifiers(y, a, b, model="parametric", transform="logit", random_seed=0)
    >>> print(f"{par.estimate:.3f} [{par.low:.3f}, {par.high:.3f}], P(B better) = "
    ...       f"{par.prob_b_better:.2f}")
    -0.013 [-0.047, 0.017], P(B better) = 0.20
    >>> boot = compare_classifiers(
    ...     y, a, b, method="bayesian_bootstrap", n_resamples=200, rope=(-0.01, 0.01),
    ...     random_seed=0,
    ... )
    >>> print(f"{boot.prob_below_rope:.3f} {boot.prob_in_rope:.3f} {boot.prob_above_rope:.3f}")
    0.715 0.235 0.050
    >>> auc = compare_classifiers(y, a, b, metric="roc_auc")  # DeLong et al. (1988)
    >>> print(f"{auc.value_a:.3f} {auc.value_b:.3f} {auc.estimate:.4f} p = {auc.p_value:.3f}")
    0.981 0.969 -0.0120 p = 0.003
    >>> perm = compare_classifiers(  # Bandos et al. (2005)
    ...     y, a, b, metric="roc_auc", method="permutation", n_resamples=999, random_seed=0
    ... )
    >>> print(f"{perm.estimate:.4f} p = {perm.p_value:.3f}")
    -0.0120 p = 0.001
    """
    check_choice(metric, "metric", METRICS)
    if method is not None:
        check_choice(method, "method", COMPARISON_METHODS)
    check_choice(bayes_method, "bayes_method", BAYES_METHODS)
    check_transform(transform)
    check_choice(model, "model", ("semiparametric", "parametric"))
    level = check_probability(ci_prob, "ci_prob")
    rope = check_rope(rope)
    if selection is not None:
        if groups is not None:
            raise ValueError("`groups` and `selection` cannot be combined")
        return compare_on_selection(
            y_true,
            score_a,
            score_b,
            selection,
            rope=rope,
            ci_prob=level,
            n_resamples=n_resamples,
            random_seed=random_seed,
            pos_label=pos_label,
            draws=draws,
            unsupported={
                "metric": metric != "average_precision",
                "method": method is not None,
                "recall": recall is not None,
                "transform": transform is not None,
                "priors": priors is not None,
                "model": model != "semiparametric",
                "bayes_method": bayes_method != "exact",
            },
        )
    recall = None if recall is None else check_probability(recall, "recall")
    method_given = method
    if groups is not None and method is None and metric == "average_precision":
        method = "bootstrap"  # the cluster bootstrap: the cluster-aware default
    method = check_metric_method(metric, method, recall, rope)
    n_resamples = check_int(n_resamples, "n_resamples")
    draws = check_int(draws, "draws")
    chains = check_int(chains, "chains")
    if method == "bayes" and bayes_method == "nuts":
        tune = check_int(tune, "tune")
    rng = check_random_state(random_seed)
    ranked_a, ranked_b = _compare_iv(y_true, score_a, score_b, pos_label)
    is_pos, a, b = ranked_a.is_pos, ranked_a.y_score, ranked_b.y_score
    clusters = None
    if groups is not None:
        clusters = check_groups(groups, is_pos.size)
        if clusters.singletons:  # the ungrouped comparison, its default method included
            clusters = None
            if method_given is None:
                method = check_metric_method(metric, None, recall, rope)
                if method == "bayes" and bayes_method == "nuts":
                    tune = check_int(tune, "tune")
        elif method in ("bayes", "permutation"):
            raise ValueError(
                f"method={method!r} does not take `groups`; use 'bootstrap' or "
                "'bayesian_bootstrap' (whole clusters resampled), 'jackknife' (whole clusters "
                "left out) or, for the ROC AUC, 'delong'"
            )
    decision = None
    if method_given is None and method == "bayes" and clusters is None and recall is None:
        explicit_bayes = rope is not None or priors is not None or transform is not None
        explicit_bayes |= model != "semiparametric" or bayes_method != "exact"
        if not explicit_bayes:
            corr = within_class_rank_correlation(is_pos, a, b)
            decision = recommend_paired_method(method, corr)
            method = decision.row
    if method in ("delong", "jackknife", "permutation"):
        fields = frequentist_fields(
            ranked_a,
            ranked_b,
            metric=metric,
            method=method,
            level=level,
            rope=rope,
            n_resamples=n_resamples,
            rng=rng,
            clusters=clusters,
        )
        return PairedComparison(
            confidence_level=level,
            method=method,
            n=int(is_pos.size),
            n_pos=int(is_pos.sum()),
            recommendation=None if decision is None else decision.reason,
            **fields,
        )

    emp_a = average_precision_score(ranked_a, None)
    emp_b = average_precision_score(ranked_b, None)
    extra = {}
    if method == "bayes":
        kw = dict(
            priors=priors,
            bayes_method=bayes_method,
            draws=draws,
            chains=chains,
            rng=rng,
            recall=recall,
            tune=tune,
            cores=cores,
            target_accept=target_accept,
            progressbar=progressbar,
        )
        if model == "semiparametric":
            from ._rank_model import fit_joint_rank_posterior

            if transform is not None:  # validated (and warned) as for the parametric fit
                transform_scores(a, transform, "score_a", stacklevel=3)
                transform_scores(b, transform, "score_b", stacklevel=3)
            fit = fit_joint_rank_posterior(is_pos, a, b, **kw)  # ranks only: no transform
            check = fit.fit_check
            extra = {"fit_check": check, "recommendation": check.verdict}
            if not check.passed:
                warnings.warn(check.verdict, BayesPRCWarning, stacklevel=2)
        else:
            from ._bivariate import fit_paired_posterior

            fit = fit_paired_posterior(is_pos, a, b, transform=transform, **kw)
        ap_a_d, ap_b_d = fit.ap_a, fit.ap_b
        prec_a_d, prec_b_d = fit.precision_a, fit.precision_b
        corr = fit.correlation.mean(axis=0)
        extra |= {
            "correlation": {"neg": float(corr[0]), "pos": float(corr[1])},
            "bayes_method": bayes_method,
            "transform": transform,
            "model": model,
            "diagnostics": fit.diagnostics,
            "idata": fit.idata,
        }
    else:
        kind = "stratified" if method == "bootstrap" else "bayesian"
        if clusters is not None:
            kind = "cluster" if method == "bootstrap" else "cluster_bayesian"
        reps = paired_replicates(ranked_a, ranked_b, n_resamples, kind, rng, recall, clusters)
        ap_a_d, ap_b_d = reps[0], reps[1]
        prec_a_d, prec_b_d = (reps[2], reps[3]) if recall is not None else (None, None)

    diff = ap_b_d - ap_a_d
    low, high, prob = _summary(diff, level)
    if method == "bootstrap":
        point_a, point_b = emp_a, emp_b
    else:
        point_a, point_b = float(np.mean(ap_a_d)), float(np.mean(ap_b_d))
    estimate = point_b - point_a if method == "bootstrap" else float(np.mean(diff))

    if rope is not None:
        extra["rope"] = rope
        extra["prob_below_rope"] = float(np.mean(diff < rope[0]))
        extra["prob_in_rope"] = float(np.mean((diff >= rope[0]) & (diff <= rope[1])))
        extra["prob_above_rope"] = float(np.mean(diff > rope[1]))
    if recall is not None:
        pdiff = prec_b_d - prec_a_d
        p_low, p_high, p_prob = _summary(pdiff, level)
        if method == "bootstrap":
            pa = precision_at_recall(ranked_a, None, recall).value
            pb = precision_at_recall(ranked_b, None, recall).value
            p_est = pb - pa
        else:
            pa, pb = float(np.mean(prec_a_d)), float(np.mean(prec_b_d))
            p_est = float(np.mean(pdiff))
        extra.update(
            recall=recall,
            precision_a=pa,
            precision_b=pb,
            precision_estimate=p_est,
            precision_low=p_low,
            precision_high=p_high,
            prob_b_better_precision=p_prob,
            precision_difference_draws=pdiff,
        )
    return PairedComparison(
        estimate=estimate,
        low=low,
        high=high,
        confidence_level=level,
        method=method,
        prob_b_better=prob,
        ap_a=point_a,
        ap_b=point_b,
        empirical_ap_a=emp_a,
        empirical_ap_b=emp_b,
        n=int(is_pos.size),
        n_pos=int(is_pos.sum()),
        difference_draws=diff,
        ap_a_draws=ap_a_d,
        ap_b_draws=ap_b_d,
        value_a=point_a,
        value_b=point_b,
        **extra,
    )
