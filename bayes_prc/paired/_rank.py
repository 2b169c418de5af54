r"""The joint rank-based binormal model of two classifiers scored on the same items.

numpy/scipy only; the PyMC version of the same model (the NUTS reference) is in
:mod:`._rank_model`.

Model. Each classifier's scores are grouped into ordered categories (``K_a`` for A,
``K_b`` for B; :func:`._ordinal.ordinal_categories` with class-balanced mass), and the
data are the two ``K_a x K_b`` tables cross-classifying each class's items by their A and
B categories. Each classifier has its own unknown increasing map from a latent scale to
its scores (cutpoints ``c`` for A, ``d`` for B); on the latent scale the pair of an
item's scores is bivariate normal within its class, the correlated-ROC model of Metz,
Wang & Kronman (1984, CORROC)::

    prevalence          ~ Beta(a, b)
    mu_a, mu_b          ~ Normal(0, mu_sd)
    sigma_a, sigma_b    ~ LogNormal(0, log_sigma_sd)
    atanh(rho_neg), atanh(rho_pos) ~ Normal(rho_z_loc, rho_z_sd)    (Fisher z)
    c, d                ~ Normal(0, cutpoint_sd), each ordered
    latent negatives    ~ N_2((0, 0), [[1, rho_neg], [rho_neg, 1]])
    latent positives    ~ N_2((mu_a, mu_b), [[sa^2, rho_pos sa sb], [., sb^2]])
    table[class]        ~ Multinomial(n_class, rectangle probabilities)

A cell's probability is the bivariate normal probability of the rectangle
``(c_{i-1}, c_i] x (d_{j-1}, d_j]`` (:func:`._bvn.bvn_cdf`). The marginal of each
classifier is the univariate rank-based binormal model of :mod:`._semiparametric`, with
the same priors (:class:`~bayes_prc.bayes.SemiparametricPriors`), so each posterior draw
gives both classifiers' binormal PR curves and the AP difference keeps the pairing.

Prior of the correlations. Fisher's ``z = atanh(rho) ~ Normal(0.5, 1)`` by default:
prior median ``rho = 0.46`` and 90% prior interval ``(-0.76, 0.98)``. Two classifiers
scored on one test set are nearly always positively correlated (an item hard for one is
hard for the other), so the prior leans positive, but it is wide: from ``n`` items the
posterior sd of ``z`` is about ``1 / sqrt(n)``, so the data dominate except for
identical or nearly identical classifiers, where the likelihood keeps growing as
``rho -> 1`` and the prior keeps ``z`` finite (about 3-4, ``rho`` about 0.998).

Fast sampler. On the unconstrained vector ``(c_1, log(c_i - c_{i-1}), d_1, log(d_j -
d_{j-1}), mu_a, log sigma_a, mu_b, log sigma_b, z_neg, z_pos)`` (log-Jacobians added):
the posterior mode (L-BFGS-B with the analytic gradient, Plackett's derivatives of the
bivariate normal CDF), the Laplace covariance (central differences of the gradient),
importance sampling from a multivariate Student-t (5 degrees of freedom) there, with
Pareto-smoothed weights (PSIS, Vehtari et al. 2024) and systematic resampling, as in
:mod:`._pool_model`; when the Pareto ``k > 0.7`` the proposal moves to the weighted
draws' mean and covariance, up to three times. The prevalence posterior is
Beta(a + n_pos, b + n_neg), independent of the rest.

Fit check. The deviance ``G^2 = 2 sum n log(n / (n_class p))`` of the two tables
against the saturated multinomial, computed on the tables coarsened to ``4 x 4`` per
class and at the posterior mode *refitted to those coarse tables* (so the reference
is the usual asymptotic chi-square with ``df = 2 (16 - 1) - (3 + 3 + 6) = 18``). It is
deterministic (no simulation), so its decision does not depend on the random seed. It
fails at p < 0.01. With sparse tables the chi-square reference is rough: on three
binormal populations of ``benchmarks/coverage_paired.py`` (150 data sets each) it
rejected 0-2.7% at n = 200 (0.05 would have given up to 14%) and 0.7-2% at n = 1000;
on the hard-negative population it rejected 38% at n = 200 and all of 20 at n = 1000.

References
----------
.. [1] C. E. Metz, P.-L. Wang and H. B. Kronman, "A new approach for testing the
   significance of differences between ROC curves measured from correlated data", in
   F. Deconinck (ed.), Information Processing in Medical Imaging, Nijhoff, 1984,
   pp. 432-445.
.. [2] A. Vehtari, D. Simpson, A. Gelman, Y. Yao and J. Gabry, "Pareto smoothed
   importance sampling", J. Mach. Learn. Res. 25(72) (2024) 1-58.
.. [3] A. Agresti, *Categorical Data Analysis*, 3rd ed., Wiley, 2013, section 1.5
   (likelihood-ratio chi-square) and 16.3 (its asymptotic reference).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats
from scipy.special import ndtr

from ..bayes import (
    KHAT_OK,
    FitCheck,
    PriorsBase,
    adaptive_importance,
    grade_of,
    importance_summary,
    initial_cutpoints,
    ordinal_categories,
    starting_mu,
    systematic,
)
from ..exceptions import ConvergenceWarning
from ._bvn import bvn_cdf_grad, bvn_cdf_grid

__all__ = [
    "PairedOrdinalData",
    "JointRankPriors",
    "cell_log_probs",
    "default_paired_categories",
    "paired_categories",
    "paired_fit_check",
    "paired_log_posterior",
    "sample_paired_laplace",
]

_FIT_CHECK_CATEGORIES = 4
_FIT_CHECK_ALPHA = 0.01


@dataclass(frozen=True)
class JointRankPriors(PriorsBase):
    """Prior of the joint rank-based model of two classifiers (see the module docstring).

    Parameters
    ----------
    prevalence_alpha, prevalence_beta : float, default 1, 1
        Beta prior of the prevalence.
    mu_sd, log_sigma_sd, cutpoint_sd : float, default 3, 1, 5
        As :class:`~bayes_prc.bayes.SemiparametricPriors`, for each classifier.
    rho_z_loc, rho_z_sd : float, default 0.5, 1
        ``atanh(rho) ~ Normal(rho_z_loc, rho_z_sd)`` for each class's correlation of the
        two classifiers' latent scores.
    """

    prevalence_alpha: float = 1.0
    prevalence_beta: float = 1.0
    mu_sd: float = 3.0
    log_sigma_sd: float = 1.0
    cutpoint_sd: float = 5.0
    rho_z_loc: float = 0.5
    rho_z_sd: float = 1.0

    def __post_init__(self):
        self._check_fields(any_sign=("rho_z_loc",))


# ------------------------------------------------------------------------ data
@dataclass(frozen=True, eq=False)
class PairedOrdinalData:
    """Both classifiers' ordered categories and the per-class cross tables.

    Attributes
    ----------
    counts : ndarray of shape (2, K_a, K_b)
        Items of each class (negatives first) in each (A category, B category) cell.
    data_a, data_b : OrdinalData
        Each classifier's own categories (their ``counts`` are the tables' margins).
    """

    counts: np.ndarray
    data_a: object
    data_b: object

    @property
    def shape(self):
        return self.counts.shape[1:]


def default_paired_categories(n_pos, n_neg):
    """``clip(round(2 sqrt(min(n_pos, n_neg))), 6, 12)`` categories per classifier.

    The univariate model's rule (:func:`._ordinal.default_max_categories`) capped at 12
    instead of 40: the cross table has ``K_a K_b`` cells per class and the cost of a
    fit grows with it. Fewer categories lose the information that the two classifiers'
    fine orderings carry about their difference: on a near tie of strongly correlated
    classifiers (n = 200, 60 positives, ``benchmarks/coverage_paired.py``) the 90%
    interval of the AP difference was 1.23x as wide as the paired bootstrap's with 8
    categories, 1.09x with 12 and 1.04x with 20 (20 data sets each; 0.5, 0.9 and 2.6 s
    per fit).
    """
    return int(np.clip(round(2 * np.sqrt(min(n_pos, n_neg))), 6, 12))


def _category_of(data, score):
    return np.searchsorted(data.score_low, score, side="right") - 1


def paired_categories(is_pos, score_a, score_b, n_categories=None):
    """Group both classifiers' scores and cross-classify the items per class.

    Only the order of each classifier's scores matters (the categories follow ranks), so
    the tables are invariant to an increasing transform of either classifier's scores.
    """
    n_pos = int(is_pos.sum())
    k = n_categories or default_paired_categories(n_pos, is_pos.size - n_pos)
    data_a = ordinal_categories(is_pos, score_a, k)
    data_b = ordinal_categories(is_pos, score_b, k)
    ia, ib = _category_of(data_a, score_a), _category_of(data_b, score_b)
    ka, kb = data_a.n_categories, data_b.n_categories
    counts = np.zeros((2, ka, kb), dtype=np.int64)
    np.add.at(counts, (is_pos.astype(np.int64), ia, ib), 1)
    return PairedOrdinalData(counts=counts, data_a=data_a, data_b=data_b)


# ------------------------------------------------------------------------ likelihood
def _edges(cut):
    inf = np.full(cut.shape[:-1] + (1,), np.inf)
    return np.concatenate([-inf, cut, inf], axis=-1)


def _cdf_grid(h, k, r):
    """``Phi2(h_i, k_j; r)`` on the edge grid: ``h`` (S, A + 1), ``k`` (S, B + 1), ``r`` (S,)."""
    s, a1, b1 = h.shape[0], h.shape[1], k.shape[1]
    f = np.zeros((s, a1, b1))
    f[:, -1, :] = ndtr(k)
    f[:, :, -1] = ndtr(h)
    f[:, 1:-1, 1:-1] = bvn_cdf_grid(h[:, 1:-1], k[:, 1:-1], r)
    return f


def cell_log_probs(h, k, r):
    """Log rectangle probabilities ``(S, A, B)`` of the standardized edges ``h``, ``k``.

    ``h`` (S, A + 1) and ``k`` (S, B + 1) increasing with infinite ends, ``r`` (S,).
    """
    f = _cdf_grid(h, k, r)
    p = f[:, 1:, 1:] - f[:, :-1, 1:] - f[:, 1:, :-1] + f[:, :-1, :-1]
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(p, 1e-300)), p


def _split(theta, ka, kb):
    """Unconstrained rows (S, D) -> cutpoints c, d, ROC parameters (S, 6), log-Jacobian."""
    na, nb = ka - 1, kb - 1
    ta, tb = theta[:, :na], theta[:, na : na + nb]
    c = np.cumsum(np.concatenate([ta[:, :1], np.exp(ta[:, 1:])], axis=1), axis=1)
    d = np.cumsum(np.concatenate([tb[:, :1], np.exp(tb[:, 1:])], axis=1), axis=1)
    log_jac = ta[:, 1:].sum(axis=1) + tb[:, 1:].sum(axis=1)
    return c, d, theta[:, na + nb :], log_jac


def _pack(c, d, roc):
    return np.concatenate([c[:1], np.log(np.diff(c)), d[:1], np.log(np.diff(d)), roc])


def _standardized(c, d, roc):
    """Per class (neg, pos): standardized edges h (S, A + 1), k (S, B + 1) and rho (S,)."""
    mu_a, ls_a, mu_b, ls_b, z_neg, z_pos = roc.T
    ea, eb = _edges(c), _edges(d)
    sa, sb = np.exp(ls_a)[:, None], np.exp(ls_b)[:, None]
    return (
        (ea, eb, np.tanh(z_neg)),
        ((ea - mu_a[:, None]) / sa, (eb - mu_b[:, None]) / sb, np.tanh(z_pos)),
    )


def _log_prior(c, d, roc, priors):
    mu = roc[:, [0, 2]]
    ls = roc[:, [1, 3]]
    z = roc[:, [4, 5]]
    return (
        -0.5 * (np.sum(c * c, axis=1) + np.sum(d * d, axis=1)) / priors.cutpoint_sd**2
        - 0.5 * np.sum(mu * mu, axis=1) / priors.mu_sd**2
        - 0.5 * np.sum(ls * ls, axis=1) / priors.log_sigma_sd**2
        - 0.5 * np.sum((z - priors.rho_z_loc) ** 2, axis=1) / priors.rho_z_sd**2
    )


def paired_log_posterior(theta, counts, priors, chunk=500):
    """Unnormalized log posterior of unconstrained rows ``theta`` (S, D), prevalence aside.

    Evaluated ``chunk`` rows at a time (memory: ``chunk * K_a * K_b * 20`` floats).
    Non-finite values become ``-inf``.
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    ka, kb = counts.shape[1:]
    out = np.empty(theta.shape[0])
    n = counts.astype(np.float64)
    for start in range(0, theta.shape[0], chunk):
        rows = theta[start : start + chunk]
        c, d, roc, log_jac = _split(rows, ka, kb)
        ll = np.zeros(rows.shape[0])
        with np.errstate(over="ignore", invalid="ignore"):
            for cls, (h, k, r) in enumerate(_standardized(c, d, roc)):
                lp = cell_log_probs(h, k, r)[0]
                ll += np.sum(np.where(n[cls] > 0, n[cls] * lp, 0.0), axis=(1, 2))
        out[start : start + chunk] = ll + _log_prior(c, d, roc, priors) + log_jac
    out[~np.isfinite(out)] = -np.inf
    return out


def _grad(theta, counts, priors):
    """Log posterior and its gradient at unconstrained rows ``theta`` (S, D)."""
    ka, kb = counts.shape[1:]
    na, nb = ka - 1, kb - 1
    c, d, roc, log_jac = _split(theta, ka, kb)
    s = theta.shape[0]
    g_c, g_d, g_roc = np.zeros((s, na)), np.zeros((s, nb)), np.zeros((s, 6))
    value = _log_prior(c, d, roc, priors) + log_jac
    sa, sb = np.exp(roc[:, 1]), np.exp(roc[:, 3])
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for cls, (h, k, r) in enumerate(_standardized(c, d, roc)):
            n = counts[cls].astype(np.float64)
            lp, p = cell_log_probs(h, k, r)
            value += np.sum(np.where(n > 0, n * lp, 0.0), axis=(1, 2))
            w = np.zeros((s, ka + 2, kb + 2))
            w[:, 1:-1, 1:-1] = np.where(n > 0, n / np.maximum(p, 1e-300), 0.0)
            gf = w[:, :-1, :-1] - w[:, 1:, :-1] - w[:, :-1, 1:] + w[:, 1:, 1:]  # dL/dF
            dh, dk, dr = bvn_cdf_grad(h[:, :, None], k[:, None, :], r[:, None, None])
            gh = np.sum(gf * np.nan_to_num(dh), axis=2)[:, 1:-1]  # interior edges
            gk = np.sum(gf * np.nan_to_num(dk), axis=1)[:, 1:-1]
            grho = np.sum(gf * np.nan_to_num(dr), axis=(1, 2)) * (1 - r * r)
            if cls == 0:
                g_c += gh
                g_d += gk
                g_roc[:, 4] += grho
            else:
                g_c += gh / sa[:, None]
                g_d += gk / sb[:, None]
                g_roc[:, 0] += -gh.sum(axis=1) / sa
                g_roc[:, 1] += -np.sum(gh * h[:, 1:-1], axis=1)
                g_roc[:, 2] += -gk.sum(axis=1) / sb
                g_roc[:, 3] += -np.sum(gk * k[:, 1:-1], axis=1)
                g_roc[:, 5] += grho
    g_c -= c / priors.cutpoint_sd**2
    g_d -= d / priors.cutpoint_sd**2
    g_roc[:, [0, 2]] -= roc[:, [0, 2]] / priors.mu_sd**2
    g_roc[:, [1, 3]] -= roc[:, [1, 3]] / priors.log_sigma_sd**2
    g_roc[:, [4, 5]] -= (roc[:, [4, 5]] - priors.rho_z_loc) / priors.rho_z_sd**2
    out = []
    for g, t in ((g_c, theta[:, :na]), (g_d, theta[:, na : na + nb])):
        tail = np.cumsum(g[:, ::-1], axis=1)[:, ::-1]  # dL/dc_i summed over i >= j
        gt = tail * np.concatenate([np.ones((s, 1)), np.exp(t[:, 1:])], axis=1)
        gt[:, 1:] += 1.0  # log-Jacobian
        out.append(gt)
    return value, np.concatenate([*out, g_roc], axis=1)


# ------------------------------------------------------------------------ mode, Laplace
def _initial_theta(counts, priors):
    """Start: each classifier's univariate start, correlations of the category indices."""
    parts, roc = [], []
    for margin in (counts.sum(axis=2), counts.sum(axis=1)):  # (2, K_a), (2, K_b)
        mu = starting_mu(margin)
        parts.append(initial_cutpoints(margin, np.array([mu]), np.array([1.0]))[0])
        roc += [mu, 0.0]
    for cls in range(2):
        t = counts[cls].astype(np.float64)
        i, j = np.meshgrid(np.arange(t.shape[0]), np.arange(t.shape[1]), indexing="ij")
        tot = max(t.sum(), 1.0)
        mi, mj = np.sum(t * i) / tot, np.sum(t * j) / tot
        cov = np.sum(t * (i - mi) * (j - mj))
        var = np.sqrt(np.sum(t * (i - mi) ** 2) * np.sum(t * (j - mj) ** 2))
        rho = cov / var if var > 0 else 0.0
        roc.append(float(np.arctanh(np.clip(rho, -0.95, 0.95))))
    return _pack(parts[0], parts[1], np.array(roc))


def posterior_mode(counts, priors):
    """Posterior mode (unconstrained) by L-BFGS-B with the analytic gradient."""

    def fun(x):
        v, g = _grad(x[None], counts, priors)
        if not np.isfinite(v[0]) or not np.all(np.isfinite(g)):
            return np.inf, np.zeros_like(x)
        return -v[0], -g[0]

    res = optimize.minimize(
        fun,
        _initial_theta(counts, priors),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 3000, "maxcor": 30, "ftol": 1e-13, "gtol": 1e-7},
    )
    return res.x, -res.fun


def neg_hessian(theta, counts, priors, h=1e-5):
    """Negative Hessian at ``theta`` by central differences of the analytic gradient."""
    d = theta.size
    e = np.eye(d) * h
    g = _grad(np.concatenate([theta + e, theta - e]), counts, priors)[1]
    hess = (g[:d] - g[d:]) / (2 * h)
    return -0.5 * (hess + hess.T)


# ------------------------------------------------------------------------ sampler
def _roc_draws(x, counts):
    """Unconstrained rows -> dict of the named parameters (flat)."""
    c, d, roc, _ = _split(x, *counts.shape[1:])
    return {
        "mu_a": roc[:, 0],
        "sigma_a": np.exp(roc[:, 1]),
        "mu_b": roc[:, 2],
        "sigma_b": np.exp(roc[:, 3]),
        "rho_neg": np.tanh(roc[:, 4]),
        "rho_pos": np.tanh(roc[:, 5]),
        "cutpoints_a": c,
        "cutpoints_b": d,
    }


def sample_paired_laplace(data, priors, *, draws, chains, rng, n_proposals=None):
    """Posterior draws of the joint rank model: Laplace + Student-t importance sampling.

    Parameters
    ----------
    data : PairedOrdinalData
    priors : JointRankPriors
    draws, chains : int
    rng : numpy.random.Generator
    n_proposals : int, optional
        Importance-sampling proposals; default ``max(4000, chains * draws)``.

    Returns
    -------
    dict
        ``prevalence``, ``mu_a``, ``sigma_a``, ``mu_b``, ``sigma_b``, ``rho_neg``,
        ``rho_pos`` of shape (chains, draws), ``cutpoints_a`` / ``cutpoints_b`` of shape
        (chains, draws, K - 1), and ``importance``: ``khat`` (Pareto k-hat), ``ess``
        (Kish's ``1 / sum(w**2)`` of the normalized PSIS weights), ``n_distinct``
        (distinct resampled draws), ``ess_draws`` (``min(ess, n_distinct)``, what the
        resampled draws are worth), ``n_proposals``, ``mode`` (unconstrained) and
        ``adaptations``.
    """
    counts = data.counts
    n0, n1 = counts.sum(axis=(1, 2))
    shape = (int(chains), int(draws))
    total = shape[0] * shape[1]
    m = int(n_proposals) if n_proposals is not None else max(4000, total)
    mode, _ = posterior_mode(counts, priors)
    x, lw, khat, adaptations = adaptive_importance(
        rng,
        lambda t: paired_log_posterior(t, counts, priors),
        mode,
        neg_hessian(mode, counts, priors),
        m,
    )
    if khat > KHAT_OK:
        warnings.warn(
            f"the joint rank model's fast sampler may be unreliable: importance sampling "
            f"has Pareto k-hat = {khat:.2f} (> 0.7) after {adaptations} adaptations; use "
            "bayes_method='nuts' or method='bootstrap'",
            ConvergenceWarning,
            stacklevel=5,
        )
    w = np.exp(lw)
    pick = rng.permutation(systematic(rng, w, total))
    named = _roc_draws(x[pick], counts)
    if counts.shape[1] == counts.shape[2] and np.array_equal(counts, counts.transpose(0, 2, 1)):
        # symmetric tables (e.g. identical rankings): the posterior is exchangeable in A
        # and B, so swapping the two classifiers in a random half of the draws keeps it
        # and makes that symmetry exact in the draws
        swap = rng.random(total) < 0.5
        for one, two in (("mu_a", "mu_b"), ("sigma_a", "sigma_b"), ("cutpoints_a", "cutpoints_b")):
            named[one][swap], named[two][swap] = named[two][swap], named[one][swap]
    out = {k: v.reshape(*shape, *v.shape[1:]) for k, v in named.items()}
    out["prevalence"] = rng.beta(priors.prevalence_alpha + n1, priors.prevalence_beta + n0, shape)
    out["importance"] = importance_summary(
        khat, lw, x[pick], n_proposals=m, mode=mode, adaptations=adaptations
    )
    return out


# ------------------------------------------------------------------------ fit check
#: The paired rank model's deviance check returns the library's one fit-check type
#: (:class:`bayes_prc.bayes.FitCheck`, ``model="paired_rank"``); this name of earlier
#: versions stays importable.
JointFitCheck = FitCheck


def paired_fit_check(is_pos, score_a, score_b, priors, significance_level=_FIT_CHECK_ALPHA):
    """Likelihood-ratio (deviance) check of the joint rank model against the saturated model.

    Returns
    -------
    FitCheck
        ``model="paired_rank"``; ``statistic`` is ``G^2``, ``n_categories`` the
        coarsened tables' ``(K_a, K_b)``, ``df`` ``2 (K_a K_b - 1) - (K_a - 1) - (K_b -
        1) - 6``; ``"inconclusive"`` (``p_value`` NaN) when ``df < 1``.
    """
    coarse = paired_categories(is_pos, score_a, score_b, _FIT_CHECK_CATEGORIES)
    counts = coarse.counts
    ka, kb = coarse.shape
    df = 2 * (ka * kb - 1) - (ka - 1) - (kb - 1) - 6
    mode, _ = posterior_mode(counts, priors)
    c, d, roc, _ = _split(mode[None], ka, kb)
    g2 = 0.0
    for cls, (h, k, r) in enumerate(_standardized(c, d, roc)):
        n = counts[cls].astype(np.float64)
        lp = cell_log_probs(h, k, r)[0][0]
        with np.errstate(divide="ignore", invalid="ignore"):
            g2 += 2.0 * np.sum(np.where(n > 0, n * (np.log(n / n.sum()) - lp), 0.0))
    p = float(stats.chi2.sf(g2, df)) if df >= 1 else float("nan")
    reason = None
    if df < 1:
        reason = (
            f"the {ka}x{kb} tables of the two classifiers' score categories leave no degrees "
            "of freedom (too few distinct scores)"
        )
    grade, passed = grade_of(p, significance_level, reason)
    if reason:
        verdict = "too few distinct scores to check the joint binormal model"
    elif passed:
        verdict = (
            f"the joint binormal model fits the {ka}x{kb} tables (G2 = {g2:.1f}, "
            f"df = {df}, p = {p:.3f})"
        )
    else:
        verdict = (
            f"the joint binormal model does not fit the {ka}x{kb} tables (G2 = "
            f"{g2:.1f}, df = {df}, p = {p:.2g} < {significance_level}); use method='bootstrap' "
            "(the paired stratified bootstrap) for this comparison"
        )
    return FitCheck(
        p_value=p,
        passed=bool(passed),
        significance_level=float(significance_level),
        statistic=float(g2),
        replicated=float(max(df, 0)),
        n_categories=(ka, kb),
        model="paired_rank",
        verdict=verdict,
        grade=grade,
        method="G2 deviance (chi-square)",
        df=int(df),
        reason=reason,
    )
