r"""Partial pooling across subgroups: the hierarchical rank-based binormal model.

numpy/scipy only, except :func:`build_subgroup_model` (the PyMC version of the same
model, the NUTS reference of the tests), which imports PyMC when called.

Model
-----
One classifier scores every subgroup, so one unknown increasing map takes the scores to
a latent scale shared by all subgroups: the scores enter only through their order, as in
the semiparametric model (:mod:`._ordinal`), through ``K`` ordered categories of the
pooled scores with shared cutpoints ``c``. In subgroup ``g`` the latent negatives are
``N(d_g, e^{l_g})`` and the positives ``N(d_g + e^{l_g} mu_g, e^{l_g} sigma_g)``: the
subgroup's binormal ROC curve has ``a = mu_g / sigma_g``, ``b = 1 / sigma_g``, and
``d_g``, ``l_g`` let the subgroup's scores sit higher or spread wider (a site whose
scores run high) without changing its ROC curve. The priors of the shifts and of the
cutpoints' mean are stated in units of the typical subgroup's negatives (``e^{m_l}``),
and the cutpoints' gaps have a flat prior in their logs, so that rescaling the whole
latent axis changes nothing but ``m_l``: with a fixed scale, the volume of the
``K - 1 + G`` scaled coordinates would push the axis outwards until the cutpoints' prior
binds, and that prior would then distort the tails of every subgroup's ROC curve. The
gaps' prior has no shape on purpose: an ordered normal prior whose scale is learned
(this model's prior before) settles at the cutpoints' own spread, so it acts as a
normal prior of that spread on each cutpoint, a shape (normal order statistics) that the
latent axis of a skewed score need not have. In the coverage study the change moved the
subgroups' AP by less than the Monte Carlo error (docs/coverage.md). Each subgroup's
parameters are drawn from a population distribution whose spread is learned (partial
pooling)::

    mu_g            ~ StudentT(mu_df, m_mu, s_mu) m_mu ~ Normal(0, mu_sd)
    log sigma_g     ~ Normal(m_ls, s_ls)         m_ls ~ Normal(0, log_sigma_sd)
    logit pi_g      ~ Normal(m_pi, s_pi)         m_pi ~ Normal(0, logit_prevalence_sd)
    d_g             ~ Normal(0, s_d e^m_l)       s_* ~ HalfNormal(*_spread)
    l_g             ~ Normal(m_l, s_l)           m_l ~ Normal(0, log_scale_sd)
    cutpoints       ~ flat in log(c_{k+1} - c_k), mean(c) ~ Normal(0, cutpoint_sd e^m_l)
    n_pos_g         ~ Binomial(n_g, pi_g)
    counts[g, j]    ~ Multinomial(n_gj, p_gj(cutpoints))

A subgroup with few positives is pulled towards the others by as much as the spread the
data support; a subgroup with no positive still has a posterior (its ROC parameters are
those of the population, its prevalence is shrunk towards the others'). Hierarchical
ROC models of this kind: Gatsonis (1995); for small subpopulations, Miller et al. (2021).

Sampler
-------
Metropolis-within-Gibbs, vectorized over chains and subgroups:

1. each subgroup's ``(d, l, mu, log sigma)`` by random-walk Metropolis steps whose
   proposal covariance is learned per subgroup in the warm-up (Haario et al. 2001),
   by independence proposals from the population distribution (which let a
   subgroup with few positives, whose posterior is mostly its prior, jump across it),
   and, once the warm-up has seen the chains, by independence proposals of
   ``(mu, log sigma)`` from a Student-t fitted to each subgroup's warm-up draws
   (Gasemyr 2003: they let a subgroup unlike the others, whose population proposals
   are rejected, cross its posterior in one move);
2. the cutpoints by a Langevin-Newton step: the proposal is the Gaussian of a step
   towards the Newton point of their full conditional (tridiagonal Hessian; the
   simplified manifold MALA of Girolami & Calderhead 2011, its step tuned in the
   warm-up), every other iteration; in the others, every subgroup's ``mu`` (or
   ``log sigma``) and their population mean shift together and the cutpoints are
   redrawn from that proposal given the shift: the shared monotone transform can trade
   the positives' place and spread for its own shape, a ridge the one-at-a-time moves
   crossed slowly (the smallest subgroup AP ESS at 200 subgroups of 50 items went from
   70 to 454 of 2000 draws with these moves and the fitted proposals);
3. the common translation and scale of the latent axis (cutpoints and subgroup
   locations together, a likelihood-free direction pinned only by the priors) by exact
   generalized Gibbs draws (Liu & Sabatti 2000), and ``m_l`` given the rest;
4. the population means and spreads by their full conditionals (normal; the spread on a
   fine grid of ``log s``), and, for ``mu`` and ``log sigma``, by a Metropolis move of the
   spread and of the mean in the non-centred parametrization (the subgroups' standardized
   effects held fixed), which keeps the chain moving when the spread is small
   (interweaving: Yu & Meng 2011);
5. each subgroup's logit prevalence by a random-walk Metropolis step, its population
   mean and spread as in 4.

Checked against PyMC's NUTS on :func:`build_subgroup_model` in the tests.

References
----------
.. [1] C. Gatsonis, "Random-effects models for diagnostic accuracy data", Acad. Radiol.
   2 (1995) S14-S21.
.. [2] A. C. Miller, L. A. Gatys, J. Futoma and E. B. Fox, "Model-based metrics:
   sample-efficient estimates of predictive model subpopulation performance", Machine
   Learning for Healthcare (2021).
.. [3] Y. Qi and T. P. Minka, "Hessian-based Markov chain Monte-Carlo algorithms",
   First Cape Cod Workshop on Monte Carlo Methods (2002).
.. [4] H. Haario, E. Saksman and J. Tamminen, "An adaptive Metropolis algorithm",
   Bernoulli 7 (2001) 223-242.
.. [6] J. S. Liu and C. Sabatti, "Generalised Gibbs sampler and multigrid Monte Carlo
   for Bayesian computation", Biometrika 87 (2000) 353-369.
.. [5] Y. Yu and X.-L. Meng, "To center or not to center: that is not the question",
   J. Comput. Graph. Stat. 20 (2011) 531-570.
.. [7] J. Gasemyr, "On an adaptive version of the Metropolis-Hastings algorithm with
   independent proposal distribution", Scand. J. Stat. 30 (2003) 159-173.
.. [8] M. Girolami and B. Calderhead, "Riemann manifold Langevin and Hamiltonian Monte
   Carlo methods", J. R. Stat. Soc. B 73 (2011) 123-214.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, log_expit

from .._core.groups import object_array
from ..bayes import (
    OrdinalData,
    PriorsBase,
    count_weighted,
    default_max_categories,
    initial_cutpoints,
    log_diff_ndtr,
    ordinal_categories,
    pad_cutpoints,
    ratio_terms,
    starting_mu,
    tridiag_back,
    tridiag_cholesky,
    tridiag_solve,
)

__all__ = [
    "SubgroupPriors",
    "SubgroupData",
    "subgroup_data",
    "sample_subgroups",
    "group_log_likelihood",
    "build_subgroup_model",
]

#: Random-walk steps of the subgroups' ROC parameters per iteration of the sampler.
ROC_STEPS = 3
#: Degrees of freedom and covariance inflation of the fitted independence proposal.
FITTED_DF = 5.0
FITTED_INFLATION = 1.3
#: Order of the per-subgroup ROC parameters in the sampler's ``theta`` arrays.
THETA_NAMES = ("shift", "log_scale", "mu", "log_sigma")


@dataclass(frozen=True)
class SubgroupPriors(PriorsBase):
    """Prior of the hierarchical subgroup model (see :mod:`bayes_prc.subgroups`).

    Parameters
    ----------
    mu_sd, log_sigma_sd : float, default 3, 1
        Normal priors of the population means of ``mu`` and ``log sigma`` (as the
        semiparametric model's priors of one subgroup).
    mu_df : float, default 4
        Degrees of freedom of the Student-t population distribution of ``mu``: heavier
        tails than a normal, so one clearly different subgroup (the one a fairness
        audit is looking for) is not pulled into the crowd, while typical subgroups
        are still pooled (Gelman et al., BDA3, section 17.4).
    mu_spread, log_sigma_spread : float, default 0.5, 0.3
        Half-normal priors of the spreads of ``mu`` and ``log sigma`` across subgroups.
        A spread of 0.5 in ``mu`` is a difference in ROC AUC of about 0.1 between
        typical subgroups.
    logit_prevalence_sd, prevalence_spread : float, default 2.5, 1
        Normal prior of the population mean of the logit prevalence and half-normal
        prior of its spread.
    shift_spread, log_scale_spread : float, default 1, 0.5
        Half-normal priors of the spreads of the subgroups' latent location and log
        scale (scores that run higher or wider in one subgroup); the location's spread
        is in units of the typical subgroup's negatives (``e^{m_l}``).
    log_scale_sd : float, default 1
        Normal prior of ``m_l``, the population mean of the subgroups' log scale: it
        sets the unit of the latent axis, which no quantity of interest depends on.
    cutpoint_sd : float, default 5
        ``Normal(0, cutpoint_sd e^{m_l})`` prior of the mean of the shared cutpoints (their
        gaps have a flat prior in their logs).

    Examples
    --------
    >>> from bayes_prc.subgroups import SubgroupPriors
    >>> SubgroupPriors(mu_spread=1.0).mu_spread
    1.0
    """

    mu_sd: float = 3.0
    log_sigma_sd: float = 1.0
    mu_df: float = 4.0
    mu_spread: float = 0.5
    log_sigma_spread: float = 0.3
    logit_prevalence_sd: float = 2.5
    prevalence_spread: float = 1.0
    shift_spread: float = 1.0
    log_scale_spread: float = 0.5
    log_scale_sd: float = 1.0
    cutpoint_sd: float = 5.0

    def __post_init__(self):
        self._check_fields()


@dataclass(frozen=True, eq=False)
class SubgroupData:
    """Validated subgroup data: pooled ordered categories and per-subgroup counts.

    Attributes
    ----------
    labels : ndarray of shape (G,)
        The subgroup labels, in the order of the other arrays.
    ordinal : OrdinalData
        The ordered categories of the pooled scores.
    counts : ndarray of shape (G, 2, K)
        Negatives (``[:, 0]``) and positives (``[:, 1]``) of each subgroup per category.
    """

    labels: np.ndarray
    ordinal: OrdinalData
    counts: np.ndarray

    @property
    def n_groups(self):
        return int(self.counts.shape[0])

    @property
    def n_categories(self):
        return int(self.counts.shape[2])

    @property
    def n(self):
        return self.counts.sum(axis=(1, 2))

    @property
    def n_pos(self):
        return self.counts[:, 1].sum(axis=1)

    def entries(self, cls):
        """Non-zero counts of class ``cls``: (group, category, count) arrays."""
        g, k = np.nonzero(self.counts[:, cls])
        return g, k, self.counts[g, cls, k].astype(np.float64)


def subgroup_data(is_pos, score, codes, labels, n_categories=None):
    """Pooled ordered categories of the scores and each subgroup's counts in them.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n,)
    score : ndarray of float, shape (n,)
        Finite scores (validated).
    codes : ndarray of int, shape (n,)
        Subgroup index of each item, in ``range(len(labels))``; every subgroup occurs.
    labels : ndarray of shape (G,)
    n_categories : int, optional
        Upper bound on the number of categories. Default: the semiparametric model's
        bound for the pooled data, at most ``max(8, round(2 sqrt(m)))`` with ``m`` the
        median subgroup size: categories finer than a typical subgroup can resolve add
        cost (every likelihood term is a category of a subgroup) and no information.

    Returns
    -------
    SubgroupData
    """
    if n_categories is None:
        n_pos = int(is_pos.sum())
        sizes = np.bincount(codes, minlength=len(labels))
        n_categories = min(
            default_max_categories(n_pos, is_pos.size - n_pos),
            max(8, round(2 * np.sqrt(np.median(sizes)))),
        )
    ordinal = ordinal_categories(is_pos, score, n_categories)
    k = ordinal.n_categories
    cat = np.searchsorted(ordinal.score_low, score, side="right") - 1
    g = len(labels)
    flat = (codes * 2 + is_pos.astype(np.int64)) * k + cat
    counts = np.bincount(flat, minlength=g * 2 * k).reshape(g, 2, k)
    return SubgroupData(labels=object_array(list(labels)), ordinal=ordinal, counts=counts)


# ----------------------------------------------------------------------------- likelihood
def _loc_scale(theta):
    """Latent (location, scale) of each class of each subgroup: arrays (..., G, 2)."""
    d, lsc, mu, lsig = np.moveaxis(theta, -1, 0)
    scale0 = np.exp(lsc)
    loc = np.stack([d, d + scale0 * mu], axis=-1)
    scale = np.stack([scale0, scale0 * np.exp(lsig)], axis=-1)
    return loc, scale


class _Likelihood:
    """Per-subgroup log-likelihood of the category counts, vectorized over chains."""

    def __init__(self, data):
        self.n_groups = data.n_groups
        self.n_cut = data.n_categories - 1
        self.entries = [data.entries(cls) for cls in (0, 1)]

    def _z(self, cls, c, loc, scale):
        g, k, _ = self.entries[cls]
        edges = pad_cutpoints(c)  # (B, K + 1)
        m = loc[:, g, cls]
        s = scale[:, g, cls]
        return (edges[:, k] - m) / s, (edges[:, k + 1] - m) / s, s

    def _by_group(self, cls, values):
        g = self.entries[cls][0]
        b = values.shape[0]
        idx = (np.arange(b)[:, None] * self.n_groups + g[None, :]).ravel()
        out = np.bincount(idx, weights=values.ravel(), minlength=b * self.n_groups)
        return out.reshape(b, self.n_groups)

    def class_loglik(self, cls, c, theta):
        """Log-likelihood of class ``cls`` per (chain, subgroup), shape (B, G)."""
        loc, scale = _loc_scale(theta)
        lo, hi, _ = self._z(cls, c, loc, scale)
        return self._by_group(cls, self.entries[cls][2] * log_diff_ndtr(lo, hi))

    def loglik(self, c, theta):
        """Both classes, per (chain, subgroup)."""
        return self.class_loglik(0, c, theta) + self.class_loglik(1, c, theta)

    def cutpoint_derivatives(self, c, theta):
        """Log-likelihoods per (chain, subgroup) of each class, and the gradient (B, J) and
        tridiagonal Hessian of their total in ``c``."""
        b, j = c.shape
        loc, scale = _loc_scale(theta)
        ll = []
        grad = np.zeros(b * j)
        hd = np.zeros(b * j)
        ho = np.zeros(b * max(j - 1, 0))
        rows = np.arange(b)[:, None]
        for cls in (0, 1):
            g, k, n = self.entries[cls]
            lo, hi, s = self._z(cls, c, loc, scale)
            logp = log_diff_ndtr(lo, hi)
            ll.append(self._by_group(cls, n * logp))
            g_lo, g_hi, x_lo, x_hi = ratio_terms(lo, hi, logp)
            inv = 1.0 / s
            nn = np.broadcast_to(n, lo.shape)
            with np.errstate(over="ignore", invalid="ignore"):
                # category k has upper edge cutpoint k (if k < K - 1) and lower edge k - 1
                up = k < j
                low = k > 0
                flat_up = (rows * j + k[None, :])[:, up].ravel()
                flat_low = (rows * j + (k[None, :] - 1))[:, low].ravel()
                grad += np.bincount(
                    flat_up, (inv * count_weighted(nn, g_hi))[:, up].ravel(), minlength=b * j
                )
                grad -= np.bincount(
                    flat_low, (inv * count_weighted(nn, g_lo))[:, low].ravel(), minlength=b * j
                )
                hd += np.bincount(
                    flat_up,
                    (inv**2 * count_weighted(nn, -x_hi - g_hi * g_hi))[:, up].ravel(),
                    minlength=b * j,
                )
                hd += np.bincount(
                    flat_low,
                    (inv**2 * count_weighted(nn, x_lo - g_lo * g_lo))[:, low].ravel(),
                    minlength=b * j,
                )
                both = up & low  # a category between two cutpoints couples k - 1 and k
                if j > 1 and both.any():
                    flat_off = (rows * (j - 1) + (k[None, :] - 1))[:, both].ravel()
                    ho += np.bincount(
                        flat_off,
                        (inv**2 * count_weighted(nn, g_lo * g_hi))[:, both].ravel(),
                        minlength=b * (j - 1),
                    )
        return (*ll, grad.reshape(b, j), hd.reshape(b, j), ho.reshape(b, max(j - 1, 0)))


def group_log_likelihood(data, cutpoints, theta):
    """Log-likelihood of each subgroup's category counts given the ROC parameters.

    Parameters
    ----------
    data : SubgroupData
    cutpoints : ndarray of shape (B, K - 1)
    theta : ndarray of shape (B, G, 4)
        ``(shift, log_scale, mu, log_sigma)`` of each subgroup.

    Returns
    -------
    ndarray of shape (B, G)
    """
    return _Likelihood(data).loglik(np.atleast_2d(cutpoints), np.asarray(theta))


# ------------------------------------------------------------------------- the sampler
class _CutpointPrior:
    """The cutpoints' prior given the latent unit ``e^{m_l}`` (one per chain).

    Flat in the log gaps between neighbouring cutpoints, and their mean
    ``Normal(0, cutpoint_sd e^{m_l})``: the density
    ``prod_k (c_{k+1} - c_k)^{-1} N(mean(c); 0, cutpoint_sd e^{m_l})`` has no shape (the
    log gaps are flat: no cutpoint is pulled towards the others, as an ordered normal
    prior pulls the outer ones), and it is homogeneous of degree ``-(K - 1)`` in the
    cutpoints with the unit moved along, so rescaling the latent axis changes nothing but
    ``m_l``'s prior.
    """

    def __init__(self, cutpoint_sd, unit):
        self.scale = cutpoint_sd * np.asarray(unit, dtype=float)  # (B,)

    def log_density(self, c):
        """Log density (B,), up to a constant; ``-inf`` where ``c`` is not increasing."""
        gaps = np.diff(c, axis=1)
        log_gaps = np.where(gaps > 0, np.log(np.where(gaps > 0, gaps, 1.0)), np.inf)
        mean = c.mean(axis=1)
        return -log_gaps.sum(axis=1) - 0.5 * (mean / self.scale) ** 2 - np.log(self.scale)

    def gradient(self, c):
        """Gradient of :meth:`log_density` with respect to ``c`` (B, K - 1)."""
        inv = 1.0 / np.diff(c, axis=1)
        grad = np.zeros_like(c)
        grad[:, :-1] += inv
        grad[:, 1:] -= inv
        return grad - (c.mean(axis=1) / self.scale**2 / c.shape[1])[:, None]


def _cutpoint_mode(lik, c, theta, prior, max_iter=50, tol=1e-9):
    """Mode of the cutpoints' full conditional (Newton with backtracking), batched.

    The Newton direction uses the likelihood's negative Hessian only (positive definite;
    the prior's log gaps are convex), so it is an ascent direction.
    """

    def objective(cc):
        return lik.loglik(cc, theta).sum(axis=1) + prior.log_density(cc)

    obj = objective(c)
    for _ in range(max_iter):
        _, _, grad, hd, ho = lik.cutpoint_derivatives(c, theta)
        ld, ls = tridiag_cholesky(-hd, -ho)
        step = tridiag_solve(ld, ls, grad + prior.gradient(c))
        step[~np.isfinite(step)] = 0.0
        t = np.ones(c.shape[0])
        for _ in range(30):
            trial = c + t[:, None] * step
            new = objective(trial)
            ok = new >= obj - 1e-10
            if ok.all():
                break
            t = np.where(ok, t, 0.5 * t)
        trial = c + t[:, None] * step
        new = objective(trial)
        keep = new >= obj - 1e-10
        c = np.where(keep[:, None], trial, c)
        obj = np.where(keep, new, obj)
        if np.max(np.abs(t[:, None] * step)) < tol:
            break
    return c


def _newton_terms(lik, c, theta, prior):
    """Log-likelihoods at ``c`` and the Newton proposal N(mean, H^{-1}) made there.

    ``H`` is the likelihood's negative Hessian (tridiagonal, positive definite); the
    gradient is the full conditional's (likelihood and ``prior``, a
    :class:`_CutpointPrior`).
    """
    ll0, ll1, grad, hd, ho = lik.cutpoint_derivatives(c, theta)
    ld, ls = tridiag_cholesky(-hd, -ho)
    ok = np.all(np.isfinite(ld), axis=1) & np.all(np.isfinite(ls), axis=1)
    ld = np.where(ok[:, None], ld, 1.0)
    ls = np.where(ok[:, None], ls, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = tridiag_solve(ld, ls, grad + prior.gradient(c))
    ok &= np.all(np.isfinite(step), axis=1)
    mean = c + np.where(ok[:, None], step, 0.0)
    return ll0, ll1, mean, ld, ls, ok


def _cutpoint_forward(lik, c, theta, prior, h, rng):
    """The cutpoints' Langevin-Newton proposal from ``c`` given ``theta``.

    With ``m = c + H^{-1} g`` the Newton point of the full conditional (gradient ``g``,
    negative Hessian ``H``, tridiagonal), the proposal is
    ``N(c + h^2 / 2 (m - c), h^2 H^{-1})`` (simplified manifold MALA, Girolami & Calderhead
    2011; ``h = sqrt 2`` is the Newton point itself).

    Returns
    -------
    ll0, ll1 : log-likelihoods at ``(c, theta)`` per (chain, subgroup)
    c_prop : the proposal, ``c`` where it is not ordered or not finite
    log_q : log proposal density of ``c_prop`` (up to the constant the reverse shares)
    ok : whether the proposal is usable
    """
    ll0, ll1, mean, ld, ls, ok = _newton_terms(lik, c, theta, prior)
    mean = c + 0.5 * h**2 * (mean - c)
    c_prop = mean + h * tridiag_back(ld, ls, rng.standard_normal(c.shape))
    if c.shape[1] > 1:
        ok &= np.all(np.diff(c_prop, axis=1) > 0, axis=1)
    log_q = _gauss_logq(c_prop, mean, ld / h, ls / h)
    return ll0, ll1, np.where(ok[:, None], c_prop, c), log_q, ok


def _cutpoint_reverse(lik, c_prop, c, theta, prior, h):
    """Log-likelihoods at ``(c_prop, theta)`` and the log density of proposing ``c`` from
    ``c_prop`` (see :func:`_cutpoint_forward`)."""
    q0, q1, mean, ld, ls, ok = _newton_terms(lik, c_prop, theta, prior)
    mean = c_prop + 0.5 * h**2 * (mean - c_prop)
    return q0, q1, _gauss_logq(c, mean, ld / h, ls / h), ok


def _gauss_logq(x, mean, ld, ls):
    """Log density (up to a shared constant) of N(mean, (L L^T)^{-1}) at ``x``."""
    d = x - mean
    y = ld * d
    y[:, :-1] += ls * d[:, 1:]  # L^T d: L lower bidiagonal, so L^T is upper
    return -0.5 * np.sum(y * y, axis=1) + np.sum(np.log(ld), axis=1)


def _t_logpdf(x, m, s, nu):
    """Student-t log density (up to a constant in ``x``, ``m``; with ``-log s``)."""
    return -0.5 * (nu + 1) * np.log1p(((x - m) / s) ** 2 / nu) - np.log(s)


def _norm_logpdf(x, m, s):
    return -0.5 * ((x - m) / s) ** 2 - np.log(s)


class _Spread:
    """Gibbs draws of a population spread ``s`` (HalfNormal prior) on a grid of log s.

    The grid runs from ``1e-4`` prior scales to the larger of 6 prior scales and 4 times
    the effects' root mean square (many subgroups that differ by more than the prior
    expects move the posterior beyond 6 prior scales), per chain.
    """

    def __init__(self, prior_scale, n_groups, points=600):
        self.unit = np.linspace(0.0, 1.0, points)
        self.lo = np.log(1e-4 * prior_scale)
        self.hi = np.log(6 * prior_scale)
        self.n_groups = n_groups
        self.prior_scale = prior_scale

    def draw(self, ss, rng):
        """Draw ``s`` per chain given the sums of squares ``ss`` (B,) of the effects."""
        hi = np.maximum(self.hi, np.log(4.0 * np.sqrt(ss / self.n_groups) + 1e-300))
        log_s = self.lo + (hi - self.lo)[:, None] * self.unit[None, :]
        s = np.exp(log_s)
        logd = (
            self.log_prior(s)
            + log_s  # the log-grid's Jacobian
            - self.n_groups * log_s
            - 0.5 * ss[:, None] / s**2
        )
        logd -= logd.max(axis=1, keepdims=True)
        cdf = np.cumsum(np.exp(logd), axis=1)
        u = rng.uniform(size=ss.shape[0]) * cdf[:, -1]
        idx = (cdf < u[:, None]).sum(axis=1)
        idx = np.minimum(idx, self.unit.size - 1)
        step = (hi - self.lo) * (self.unit[1] - self.unit[0])
        rows = np.arange(ss.shape[0])
        return np.exp(log_s[rows, idx] + step * rng.uniform(-0.5, 0.5, size=idx.size))

    def log_prior(self, s):
        return -0.5 * (s / self.prior_scale) ** 2


def _acceptance(log_a):
    """Metropolis acceptance probabilities ``min(1, e^log_a)``, elementwise (a NaN
    proposal counts as 0): what the warm-up's step-size adaptation steers."""
    return np.exp(np.minimum(np.nan_to_num(log_a, nan=-np.inf), 0.0))


def _mean_acceptance(log_a):
    """Mean of :func:`_acceptance` over chains."""
    return np.mean(_acceptance(log_a))


def _normal_mean(effects, s, prior_sd, rng, weights=None):
    """Gibbs draw of a population mean with a Normal(0, prior_sd) prior, per chain.

    ``weights`` (B, G): effect ``g`` has variance ``s^2 / weights[g]`` (a scale mixture).
    """
    w = np.ones_like(effects) if weights is None else weights
    prec = 1.0 / prior_sd**2 + w.sum(axis=1) / s**2
    mean = (np.sum(w * effects, axis=1) / s**2) / prec
    return mean + rng.standard_normal(effects.shape[0]) / np.sqrt(prec)


def _initial_state(data, lik, priors, chains, rng):
    counts = data.ordinal.counts
    mu0 = starting_mu(counts)
    c0 = initial_cutpoints(counts, [mu0], [1.0])[0]
    g = data.n_groups
    theta = np.zeros((chains, g, 4))
    theta[..., 2] = mu0
    theta += 0.05 * rng.standard_normal(theta.shape)
    c = np.repeat(c0[None], chains, axis=0)
    c = _cutpoint_mode(lik, c, theta, _CutpointPrior(priors.cutpoint_sd, np.ones(chains)))
    n = data.n.astype(float)
    npos = data.n_pos.astype(float)
    logit_p = np.log((npos + 0.5) / (n - npos + 0.5))
    state = {
        "c": c,
        "theta": theta,
        "logit_p": np.repeat(logit_p[None], chains, axis=0)
        + 0.05 * rng.standard_normal((chains, g)),
        "s": np.repeat(
            np.array([[0.3, 0.2, 0.2, 0.1, 0.5]]) * rng.uniform(0.8, 1.2, (chains, 1)), 1, 0
        ),
        "m_mu": np.full(chains, mu0),
        "m_ls": np.zeros(chains),
        "m_p": np.full(chains, float(np.mean(logit_p))),
    }
    return state


def sample_subgroups(data, priors, *, draws=1000, tune=1000, chains=4, rng, progress=None):
    """Draws from the hierarchical subgroup model by Metropolis-within-Gibbs.

    Parameters
    ----------
    data : SubgroupData
    priors : SubgroupPriors
    draws, tune, chains : int
        Kept draws and warm-up iterations per chain, number of chains.
    rng : numpy.random.Generator
    progress : callable, optional
        Called as ``progress(iterations_done)`` every 50 iterations.

    Returns
    -------
    dict
        ``mu``, ``sigma``, ``shift``, ``scale``, ``prevalence`` of shape
        (chains, draws, G); the population means and spreads (``m_mu``, ``s_mu``, ...)
        and ``cutpoints`` (chains, draws, K - 1); ``acceptance`` (mean acceptance rates
        of the Metropolis steps).
    """
    lik = _Likelihood(data)
    g = data.n_groups
    n = data.n.astype(float)
    npos = data.n_pos.astype(float)
    state = _initial_state(data, lik, priors, chains, rng)
    c, theta = state["c"], state["theta"]
    logit_p, s = state["logit_p"], state["s"]
    m_mu, m_ls, m_p = state["m_mu"], state["m_ls"], state["m_p"]
    spreads = [
        _Spread(priors.shift_spread, g),
        _Spread(priors.log_scale_spread, g),
        _Spread(priors.mu_spread, g),
        _Spread(priors.log_sigma_spread, g),
        _Spread(priors.prevalence_spread, g),
    ]
    ll0 = lik.class_loglik(0, c, theta)
    ll1 = lik.class_loglik(1, c, theta)

    # per-subgroup random-walk proposal: Cholesky factors (G, 4, 4) and log scale factors
    nn = data.counts[:, 0].sum(axis=1) + 1.0
    n1 = npos + 1.0
    sd0 = np.stack([1.5 / np.sqrt(nn), 1.0 / np.sqrt(nn), 1.5 / np.sqrt(n1), 1.0 / np.sqrt(n1)], 1)
    chol = np.zeros((g, 4, 4))
    chol[:, np.arange(4), np.arange(4)] = np.minimum(sd0, 0.5)
    log_lam = np.zeros((chains, g))
    p_step = np.full((chains, g), 1.0) * 2.0 / np.sqrt(n * expit(logit_p.mean(0)) + 4.0)
    spread_step = np.full(5, 0.5)
    mean_step = np.full(2, 0.1)  # the mean moves of mu and log sigma
    pooled = (npos.sum() + 0.5) / (n.sum() + 1.0)
    p_mean_step = 1.7 / np.sqrt(n.sum() * pooled * (1.0 - pooled) + 1.0)
    nu = priors.mu_df
    w_mu = np.ones((chains, g))
    adapt_at = {int(tune * f) for f in (0.2, 0.4, 0.6)} if tune >= 100 else set()
    window = []
    fitted = None  # the warm-up's fit of each subgroup's (mu, log sigma): see 1c
    cut_step = np.full(chains, 1.0)  # the cutpoints' Langevin step (1: a Newton step)
    ridge_step = np.full(2, 0.05)  # the ridge moves of mu and log sigma (2')

    total = tune + draws
    keep = {
        name: np.empty((chains, draws, g))
        for name in ("shift", "log_scale", "mu", "log_sigma", "logit_p")
    }
    hyper = {
        name: np.empty((chains, draws))
        for name in (
            "s_shift",
            "s_log_scale",
            "s_mu",
            "s_log_sigma",
            "s_prevalence",
            "m_mu",
            "m_log_sigma",
            "m_logit_prevalence",
            "m_log_scale",
        )
    }
    cut = np.empty((chains, draws, c.shape[1]))
    acc = {
        "prior": 0.0,
        "fitted": 0.0,
        "roc": 0.0,
        "cutpoints": 0.0,
        "ridge": 0.0,
        "prevalence": 0.0,
        "spread": 0.0,
        "mean": 0.0,
    }
    m_l = np.zeros(chains)  # population mean of the subgroups' log scale (the latent unit)

    def group_prior(th):
        # mu's Student-t population with its mixing weights integrated out (the weights
        # are drawn from their conditional just before the population's update: a
        # partially collapsed Gibbs sampler, van Dyk & Park 2008)
        means = np.stack([np.zeros(chains), m_l, m_ls], axis=1)
        sds = np.stack([s[:, 0] * np.exp(m_l), s[:, 1], s[:, 3]], axis=1)
        normal = _norm_logpdf(th[..., [0, 1, 3]], means[:, None, :], sds[:, None, :])
        return normal.sum(axis=2) + _t_logpdf(th[..., 2], m_mu[:, None], s[:, 2, None], nu)

    errstate = np.errstate(over="ignore", divide="ignore", invalid="ignore")
    errstate.__enter__()  # far random-walk proposals overflow and are rejected
    for it in range(total):
        warm = it < tune
        # 1. each subgroup's ROC parameters: random-walk Metropolis (a few steps: they
        # are cheap beside the cutpoint step)
        for _ in range(ROC_STEPS):
            eps = rng.standard_normal((chains, g, 4))
            step = np.einsum("gij,bgj->bgi", chol, eps) * np.exp(log_lam)[..., None]
            step[..., 0] *= np.exp(m_l)[:, None]  # locations move in the latent axis' unit
            prop = theta + step
            p0 = lik.class_loglik(0, c, prop)
            p1 = lik.class_loglik(1, c, prop)
            log_a = p0 + p1 + group_prior(prop) - ll0 - ll1 - group_prior(theta)
            accept = np.log(rng.uniform(size=log_a.shape)) < log_a
            theta = np.where(accept[..., None], prop, theta)
            ll0 = np.where(accept, p0, ll0)
            ll1 = np.where(accept, p1, ll1)
            rate = _acceptance(log_a)
            if warm:
                log_lam += (rate - 0.3) / np.sqrt(1.0 + it / 3.0)
                # locations in the latent axis' unit (e^m_l), log scales about m_l: the
                # unit is redrawn every iteration (2b), and with it every location and
                # log scale, so their raw spread in the window is the unit's, far wider
                # than a subgroup's own conditional (it made the log scales' random-walk
                # steps about six times too long)
                unit_free = theta.copy()
                unit_free[..., 0] /= np.exp(m_l)[:, None]
                unit_free[..., 1] -= m_l[:, None]
                window.append(unit_free)
                if it + 1 in adapt_at and len(window) > 20:
                    w = np.concatenate(window[len(window) // 2 :], axis=0)  # (draws * chains, G, 4)
                    centre = w.mean(axis=0)
                    w = w - centre
                    cov = np.einsum("ngi,ngj->gij", w, w) / max(w.shape[0] - 1, 1)
                    fitted = _fitted_proposal(centre[:, 2:], cov[:, 2:, 2:])
                    cov = 2.38**2 / 4 * cov + 1e-8 * np.eye(4)
                    try:
                        chol = np.linalg.cholesky(cov)
                    except np.linalg.LinAlgError:  # pragma: no cover - keep the last proposal
                        pass
                    log_lam[:] = 0.0
                    window = []
            else:
                acc["roc"] += rate.mean() / ROC_STEPS

        # 1b. independence proposals from the population distribution, per subgroup:
        # the ROC parameters (positives' likelihood only), then the location and scale.
        # Subgroups with few positives (or items) are mostly prior: these moves let
        # them jump across it, where a random walk crawls.
        for cols in ((2, 3), (0, 1)) if it % 2 else ((2, 3),):
            prop = theta.copy()
            means = np.stack([np.zeros(chains), m_l, m_mu, m_ls], axis=1)
            for k in cols:
                sd = s[:, k, None] * (np.exp(m_l)[:, None] if k == 0 else 1.0)
                z = rng.standard_t(nu, (chains, g)) if k == 2 else rng.standard_normal((chains, g))
                prop[..., k] = means[:, k, None] + sd * z
            p1 = lik.class_loglik(1, c, prop)
            p0 = ll0 if cols == (2, 3) else lik.class_loglik(0, c, prop)
            log_a = p0 + p1 - ll0 - ll1
            accept = np.log(rng.uniform(size=log_a.shape)) < log_a
            theta = np.where(accept[..., None], prop, theta)
            ll0 = np.where(accept, p0, ll0)
            ll1 = np.where(accept, p1, ll1)
            if not warm:
                acc["prior"] += accept.mean() / 1.5

        # 1c. each subgroup's (mu, log sigma) by an independence proposal from a
        # Student-t fitted to its warm-up draws (Gasemyr 2003): one move that can cross
        # the whole posterior, where the random walk needs many; it matters for a
        # subgroup unlike the others, whose population proposals (1b) are rejected
        if fitted is not None:
            prop = theta.copy()
            prop[..., 2:] = fitted.draw(rng, chains)
            p1 = lik.class_loglik(1, c, prop)
            log_a = (
                p1
                + group_prior(prop)
                + fitted.log_density(theta[..., 2:])
                - ll1
                - group_prior(theta)
                - fitted.log_density(prop[..., 2:])
            )
            accept = np.log(rng.uniform(size=log_a.shape)) < log_a
            theta = np.where(accept[..., None], prop, theta)
            ll1 = np.where(accept, p1, ll1)
            if not warm:
                acc["fitted"] += accept.mean()

        # 2. the shared cutpoints: Langevin-Newton Metropolis (a Gaussian proposal
        # towards the Newton point of their full conditional; Qi & Minka 2002, Girolami &
        # Calderhead 2011), every other iteration (they are pinned down by all the data)
        cut_prior = _CutpointPrior(priors.cutpoint_sd, np.exp(m_l))
        h = cut_step[:, None]
        if it % 2 == 0:
            ll0, ll1, c_prop, log_q_fwd, ok_f = _cutpoint_forward(lik, c, theta, cut_prior, h, rng)
            q0, q1, log_q_rev, ok_r = _cutpoint_reverse(lik, c_prop, c, theta, cut_prior, h)
            log_a = (
                (q0 + q1).sum(1)
                - (ll0 + ll1).sum(1)
                + cut_prior.log_density(c_prop)
                - cut_prior.log_density(c)
                + log_q_rev
                - log_q_fwd
            )
            accept = ok_f & ok_r & (np.log(rng.uniform(size=chains)) < log_a)
            c = np.where(accept[:, None], c_prop, c)
            ll0 = np.where(accept[:, None], q0, ll0)
            ll1 = np.where(accept[:, None], q1, ll1)
            if warm:
                rate = np.where(ok_f, _acceptance(log_a), 0.0)
                cut_step *= np.exp((rate - 0.57) / np.sqrt(1.0 + it / 6.0))
                np.clip(cut_step, 0.05, 1.5, out=cut_step)
            else:
                acc["cutpoints"] += 2 * accept.mean()
        else:
            # 2'. the subgroups' common mu (or, alternately, log sigma) and the cutpoints
            # together: a monotone transform can trade the positives' place and spread
            # for the cutpoints' shape, a ridge that one-at-a-time moves cross slowly.
            # Every subgroup's mu (log sigma) and their mean shift by delta, and the
            # cutpoints are redrawn from their proposal given the shift.
            k = 2 if it % 4 == 1 else 3
            m, prior_sd = (m_mu, priors.mu_sd) if k == 2 else (m_ls, priors.log_sigma_sd)
            delta = ridge_step[k - 2] * rng.standard_normal(chains)
            prop = theta.copy()
            prop[..., k] += delta[:, None]
            _, _, c_prop, log_q_fwd, ok_f = _cutpoint_forward(lik, c, prop, cut_prior, h, rng)
            _, _, log_q_rev, ok_r = _cutpoint_reverse(lik, c_prop, c, theta, cut_prior, h)
            q0 = lik.class_loglik(0, c_prop, prop)  # c_prop is c where it is unusable
            q1 = lik.class_loglik(1, c_prop, prop)
            log_a = (
                (q0 + q1).sum(1)
                - (ll0 + ll1).sum(1)
                + cut_prior.log_density(c_prop)
                - cut_prior.log_density(c)
                + _norm_logpdf(m + delta, 0.0, prior_sd)
                - _norm_logpdf(m, 0.0, prior_sd)
                + log_q_rev
                - log_q_fwd
            )
            accept = ok_f & ok_r & (np.log(rng.uniform(size=chains)) < log_a)
            c = np.where(accept[:, None], c_prop, c)
            theta = np.where(accept[:, None, None], prop, theta)
            m[:] = np.where(accept, m + delta, m)
            ll0 = np.where(accept[:, None], q0, ll0)
            ll1 = np.where(accept[:, None], q1, ll1)
            if warm:
                rate = np.where(ok_f, _acceptance(log_a), 0.0)
                ridge_step[k - 2] *= np.exp((rate.mean() - 0.4) / np.sqrt(1.0 + it / 12.0))
            else:
                acc["ridge"] += 2 * accept.mean()

        # 2b. the latent scale's origin and unit: translating (or scaling) the cutpoints
        # and every subgroup's location together leaves the likelihood unchanged, so
        # only the priors pin these directions down; one exact Gibbs draw of the
        # translation and a few Metropolis steps of the log scale factor move along them
        c, theta = _translate(c, theta, s[:, 0] * np.exp(m_l), cut_prior, rng)
        c, theta, m_l = _rescale(c, theta, m_l, priors.log_scale_sd, rng)
        m_l = _log_unit_step(m_l, c, theta, s, priors, rng)

        # 3. population means and spreads (centred Gibbs, then non-centred moves)
        s[:, 0] = spreads[0].draw(np.sum((theta[..., 0] / np.exp(m_l)[:, None]) ** 2, 1), rng)
        s[:, 1] = spreads[1].draw(np.sum((theta[..., 1] - m_l[:, None]) ** 2, axis=1), rng)
        # mu's Student-t population as a scale mixture of normals: weights w_g | rest
        dev = (theta[..., 2] - m_mu[:, None]) / s[:, 2, None]
        w_mu = rng.gamma((nu + 1) / 2, 2.0 / (nu + dev**2))
        m_mu = _normal_mean(theta[..., 2], s[:, 2], priors.mu_sd, rng, w_mu)
        m_ls = _normal_mean(theta[..., 3], s[:, 3], priors.log_sigma_sd, rng)
        s[:, 2] = spreads[2].draw(np.sum(w_mu * (theta[..., 2] - m_mu[:, None]) ** 2, axis=1), rng)
        s[:, 3] = spreads[3].draw(np.sum((theta[..., 3] - m_ls[:, None]) ** 2, axis=1), rng)
        # the locations' or (alternately) the log scales' spread, non-centred (both classes)
        for k in (it % 2,):
            centre = np.zeros(chains) if k == 0 else m_l
            f = np.exp(spread_step[k] * rng.standard_normal(chains))
            prop = theta.copy()
            prop[..., k] = centre[:, None] + f[:, None] * (theta[..., k] - centre[:, None])
            p0 = lik.class_loglik(0, c, prop)
            p1 = lik.class_loglik(1, c, prop)
            log_a = (
                (p0 + p1 - ll0 - ll1).sum(1)
                + spreads[k].log_prior(s[:, k] * f)
                - spreads[k].log_prior(s[:, k])
                + np.log(f)
            )
            accept = np.log(rng.uniform(size=chains)) < log_a
            theta = np.where(accept[:, None, None], prop, theta)
            ll0 = np.where(accept[:, None], p0, ll0)
            ll1 = np.where(accept[:, None], p1, ll1)
            s[:, k] = np.where(accept, s[:, k] * f, s[:, k])
            if warm:
                rate = _mean_acceptance(log_a)
                spread_step[k] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 6.0))
        for k, m, prior_sd in ((2, m_mu, priors.mu_sd), (3, m_ls, priors.log_sigma_sd)):
            # spread move: effects scaled about their mean (standardized effects fixed)
            f = np.exp(spread_step[k] * rng.standard_normal(chains))
            prop = theta.copy()
            prop[..., k] = m[:, None] + f[:, None] * (theta[..., k] - m[:, None])
            p1 = lik.class_loglik(1, c, prop)
            log_a = (
                (p1 - ll1).sum(1)
                + spreads[k].log_prior(s[:, k] * f)
                - spreads[k].log_prior(s[:, k])
                + np.log(f)
            )
            accept = np.log(rng.uniform(size=chains)) < log_a
            theta = np.where(accept[:, None, None], prop, theta)
            ll1 = np.where(accept[:, None], p1, ll1)
            s[:, k] = np.where(accept, s[:, k] * f, s[:, k])
            if warm:
                rate = _mean_acceptance(log_a)
                spread_step[k] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 3.0))
            else:
                acc["spread"] += accept.mean() / 2
            # mean move: every subgroup's effect shifted together (its step is tuned in
            # the warm-up: with a small spread the data pin the mean far more loosely than
            # the centred draw's s / sqrt(G) steps, and a fixed step crawled)
            delta = mean_step[k - 2] * rng.standard_normal(chains)
            prop = theta.copy()
            prop[..., k] += delta[:, None]
            p1 = lik.class_loglik(1, c, prop)
            new_m = m + delta
            log_a = (
                (p1 - ll1).sum(1)
                + _norm_logpdf(new_m, 0.0, prior_sd)
                - _norm_logpdf(m, 0.0, prior_sd)
            )
            accept = np.log(rng.uniform(size=chains)) < log_a
            theta = np.where(accept[:, None, None], prop, theta)
            ll1 = np.where(accept[:, None], p1, ll1)
            m[:] = np.where(accept, new_m, m)
            if warm:
                rate = _mean_acceptance(log_a)
                mean_step[k - 2] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 3.0))
            else:
                acc["mean"] += accept.mean() / 2

        # 4. prevalences: random-walk Metropolis per subgroup, then their population
        for _ in range(ROC_STEPS):
            prop = logit_p + p_step * rng.standard_normal(logit_p.shape)
            log_a = (
                _binomial_loglik(prop, npos, n)
                - _binomial_loglik(logit_p, npos, n)
                + _norm_logpdf(prop, m_p[:, None], s[:, 4:5])
                - _norm_logpdf(logit_p, m_p[:, None], s[:, 4:5])
            )
            accept = np.log(rng.uniform(size=log_a.shape)) < log_a
            logit_p = np.where(accept, prop, logit_p)
            if warm:
                p_step *= np.exp((_acceptance(log_a) - 0.4) / np.sqrt(1.0 + it / 10.0))
            else:
                acc["prevalence"] += accept.mean() / ROC_STEPS
        m_p = _normal_mean(logit_p, s[:, 4], priors.logit_prevalence_sd, rng)
        s[:, 4] = spreads[4].draw(np.sum((logit_p - m_p[:, None]) ** 2, axis=1), rng)
        f = np.exp(spread_step[4] * rng.standard_normal(chains))
        prop = m_p[:, None] + f[:, None] * (logit_p - m_p[:, None])
        log_a = (
            (_binomial_loglik(prop, npos, n) - _binomial_loglik(logit_p, npos, n)).sum(1)
            + spreads[4].log_prior(s[:, 4] * f)
            - spreads[4].log_prior(s[:, 4])
            + np.log(f)
        )
        accept = np.log(rng.uniform(size=chains)) < log_a
        logit_p = np.where(accept[:, None], prop, logit_p)
        s[:, 4] = np.where(accept, s[:, 4] * f, s[:, 4])
        if warm:
            rate = _mean_acceptance(log_a)
            spread_step[4] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 3.0))
        # mean move: every logit prevalence shifted with the population mean (the
        # deviations held fixed). With a small spread the centred draw of m_p crawls in
        # steps of s / sqrt(G), while the data pin it to 1 / sqrt(sum n p (1 - p)).
        delta = p_mean_step * rng.standard_normal(chains)
        prop = logit_p + delta[:, None]
        new_m = m_p + delta
        log_a = (
            (_binomial_loglik(prop, npos, n) - _binomial_loglik(logit_p, npos, n)).sum(1)
            + _norm_logpdf(new_m, 0.0, priors.logit_prevalence_sd)
            - _norm_logpdf(m_p, 0.0, priors.logit_prevalence_sd)
        )
        accept = np.log(rng.uniform(size=chains)) < log_a
        logit_p = np.where(accept[:, None], prop, logit_p)
        m_p = np.where(accept, new_m, m_p)

        if not warm:
            i = it - tune
            for k, name in enumerate(THETA_NAMES):
                keep[name][:, i] = theta[..., k]
            keep["logit_p"][:, i] = logit_p
            cut[:, i] = c
            for k, name in enumerate(
                ("s_shift", "s_log_scale", "s_mu", "s_log_sigma", "s_prevalence")
            ):
                hyper[name][:, i] = s[:, k]
            hyper["m_mu"][:, i] = m_mu
            hyper["m_log_scale"][:, i] = m_l
            hyper["m_log_sigma"][:, i] = m_ls
            hyper["m_logit_prevalence"][:, i] = m_p
        if progress is not None and (it + 1) % 50 == 0:
            progress(it + 1)

    errstate.__exit__(None, None, None)
    out = {
        "mu": keep["mu"],
        "sigma": np.exp(keep["log_sigma"]),
        "shift": keep["shift"],
        "scale": np.exp(keep["log_scale"]),
        "prevalence": expit(keep["logit_p"]),
        "cutpoints": cut,
        **hyper,
        "acceptance": {k: v / max(draws, 1) for k, v in acc.items()},
    }
    return out


class _FittedT:
    """Independence proposal of each subgroup's ``(mu, log sigma)``: a bivariate Student-t
    (``FITTED_DF`` degrees of freedom) centred at the warm-up draws' mean with their
    covariance inflated by ``FITTED_INFLATION**2`` (heavier tails and more spread than
    the target, so that the importance ratio stays bounded)."""

    def __init__(self, mean, chol):
        self.mean, self.chol = mean, chol  # (G, 2), (G, 2, 2)
        self.log_det = np.log(chol[:, 0, 0]) + np.log(chol[:, 1, 1])

    def draw(self, rng, chains):
        g = self.mean.shape[0]
        z = rng.standard_normal((chains, g, 2))
        z /= np.sqrt(rng.chisquare(FITTED_DF, (chains, g, 1)) / FITTED_DF)
        return self.mean + np.einsum("gij,bgj->bgi", self.chol, z)

    def log_density(self, x):
        """Log density up to a constant, shape (chains, G)."""
        d = x - self.mean
        # forward substitution with the lower-triangular factor
        u0 = d[..., 0] / self.chol[:, 0, 0]
        u1 = (d[..., 1] - self.chol[:, 1, 0] * u0) / self.chol[:, 1, 1]
        return -0.5 * (FITTED_DF + 2) * np.log1p((u0**2 + u1**2) / FITTED_DF) - self.log_det


def _fitted_proposal(mean, cov):
    """The :class:`_FittedT` of the warm-up's (mu, log sigma) draws, or None if their
    covariance is not positive definite."""
    try:
        chol = np.linalg.cholesky(FITTED_INFLATION**2 * cov + 1e-8 * np.eye(2))
    except np.linalg.LinAlgError:  # pragma: no cover - keep the random walk only
        return None
    return _FittedT(mean, chol)


def _translate(c, theta, s_shift, prior, rng):
    """Exact Gibbs draw of a common translation of the cutpoints and subgroup locations.

    The likelihood and the cutpoints' gaps do not change; the subgroups' locations
    (``Normal(0, s_shift)``) and the cutpoints' mean (``Normal(0, prior.scale)``, a
    :class:`_CutpointPrior`) do.
    """
    g = theta.shape[1]
    cut_scale = prior.scale
    prec = g / s_shift**2 + 1.0 / cut_scale**2
    mean = -(theta[..., 0].sum(axis=1) / s_shift**2 + c.mean(axis=1) / cut_scale**2) / prec
    delta = mean + rng.standard_normal(c.shape[0]) / np.sqrt(prec)
    theta = theta.copy()
    theta[..., 0] += delta[:, None]
    return c + delta[:, None], theta


def _rescale(c, theta, m_l, log_scale_sd, rng):
    """Exact draw along the scale orbit of the latent axis (the likelihood is unchanged).

    ``c -> e^lam c``, ``shift -> e^lam shift``, ``log_scale -> log_scale + lam`` and
    ``m_l -> m_l + lam``. The priors of the cutpoints (see :class:`_CutpointPrior`) and of
    the shifts are homogeneous of degrees ``-J`` and ``-G`` with the unit ``e^m_l`` moved
    along, which cancels the Jacobian of the scaled coordinates: along the orbit only
    the ``Normal(0, log_scale_sd)`` prior of ``m_l`` varies, and the generalized Gibbs
    step (Liu & Sabatti 2000) draws ``lam`` from it, ``Normal(-m_l, log_scale_sd^2)``.
    """
    lam = -m_l + log_scale_sd * rng.standard_normal(m_l.shape)
    f = np.exp(lam)
    theta = theta.copy()
    theta[..., 0] *= f[:, None]
    theta[..., 1] += lam[:, None]
    return c * f[:, None], theta, m_l + lam


def _log_unit_target(m_l, c, theta, s, priors):
    """Log density of ``m_l`` given the rest (its prior and the priors it enters)."""
    g = theta.shape[1]
    unit = np.exp(m_l)
    return (
        -0.5 * (m_l / priors.log_scale_sd) ** 2
        - 0.5 * np.sum(((theta[..., 1] - m_l[:, None]) / s[:, 1, None]) ** 2, axis=1)
        - 0.5 * np.sum((theta[..., 0] / (s[:, 0] * unit)[:, None]) ** 2, axis=1)
        - g * m_l
        + _CutpointPrior(priors.cutpoint_sd, unit).log_density(c)
    )


def _metropolis_1d(x, target, step_sd, rng, steps=3):
    """A few random-walk Metropolis steps of one scalar per chain (no likelihood needed)."""
    cur = target(x)
    for _ in range(steps):
        prop = x + step_sd * rng.standard_normal(x.shape)
        new = target(prop)
        accept = np.log(rng.uniform(size=x.shape)) < new - cur
        x = np.where(accept, prop, x)
        cur = np.where(accept, new, cur)
    return x


def _log_unit_step(m_l, c, theta, s, priors, rng):
    """Random-walk Metropolis steps of ``m_l`` given the rest (its conditional sd is at
    most ``s_l / sqrt(G)``, from the subgroups' log scales)."""
    step = 1.5 / np.sqrt(theta.shape[1] / s[:, 1] ** 2 + 1.0 / priors.log_scale_sd**2)

    def target(x):
        return _log_unit_target(x, c, theta, s, priors)

    return _metropolis_1d(m_l, target, step, rng)


def _binomial_loglik(logit_p, npos, n):
    """Binomial log-likelihood of ``npos`` positives in ``n`` items, per subgroup."""
    return npos * log_expit(logit_p) + (n - npos) * log_expit(-logit_p)


# ------------------------------------------------------------------- the PyMC reference
def build_subgroup_model(data, priors):
    """The hierarchical subgroup model in PyMC (non-centred), the reference of the sampler.

    Parameters
    ----------
    data : SubgroupData
    priors : SubgroupPriors

    Returns
    -------
    pymc.Model
        Variables ``mu``, ``sigma``, ``shift``, ``scale``, ``prevalence`` (dim
        ``subgroup``), the population means and spreads, and ``cutpoints``.
    """
    import pymc as pm
    import pytensor.tensor as pt

    from ..bayes import normal_bin_probs

    g, k = data.n_groups, data.n_categories
    coords = {"subgroup": np.arange(g), "cutpoint": np.arange(k - 1)}
    counts = data.counts.astype(np.int64)
    with pm.Model(coords=coords) as model:
        s_shift = pm.HalfNormal("s_shift", priors.shift_spread)
        s_log_scale = pm.HalfNormal("s_log_scale", priors.log_scale_spread)
        s_mu = pm.HalfNormal("s_mu", priors.mu_spread)
        s_log_sigma = pm.HalfNormal("s_log_sigma", priors.log_sigma_spread)
        s_prev = pm.HalfNormal("s_prevalence", priors.prevalence_spread)
        m_mu = pm.Normal("m_mu", 0.0, priors.mu_sd)
        m_ls = pm.Normal("m_log_sigma", 0.0, priors.log_sigma_sd)
        m_p = pm.Normal("m_logit_prevalence", 0.0, priors.logit_prevalence_sd)
        m_l = pm.Normal("m_log_scale", 0.0, priors.log_scale_sd)
        unit = pt.exp(m_l)
        z = pm.Normal("z", 0.0, 1.0, shape=(5, g))  # row 2 unused: mu is Student-t
        shift = pm.Deterministic("shift", s_shift * unit * z[0], dims="subgroup")
        log_scale = m_l + s_log_scale * z[1]
        t_mu = pm.StudentT("t_mu", nu=priors.mu_df, mu=0.0, sigma=1.0, shape=g)
        mu = pm.Deterministic("mu", m_mu + s_mu * t_mu, dims="subgroup")
        log_sigma = m_ls + s_log_sigma * z[3]
        logit_p = m_p + s_prev * z[4]
        scale = pm.Deterministic("scale", pt.exp(log_scale), dims="subgroup")
        sigma = pm.Deterministic("sigma", pt.exp(log_sigma), dims="subgroup")
        pm.Deterministic("prevalence", pm.math.invlogit(logit_p), dims="subgroup")
        # the cutpoints: flat in their log gaps, their mean Normal(0, cutpoint_sd e^m_l)
        c0 = initial_cutpoints(data.ordinal.counts, [1.0], [1.0])[0]
        cut_mean = pm.Normal("cutpoint_mean", 0.0, priors.cutpoint_sd * unit, initval=c0.mean())
        if k > 2:
            log_gaps = pm.Flat("log_gaps", shape=k - 2, initval=np.log(np.diff(c0)))
            raw = pt.concatenate([pt.zeros(1), pt.cumsum(pt.exp(log_gaps))])
            raw = raw - raw.mean()
        else:
            raw = pt.zeros(1)
        cut = pm.Deterministic("cutpoints", raw + cut_mean, dims="cutpoint")
        pm.Binomial("n_pos", n=data.n, logit_p=logit_p, observed=data.n_pos)
        locs = (shift, shift + scale * mu)
        scales = (scale, scale * sigma)
        for cls in (0, 1):
            probs = normal_bin_probs((cut[None, :] - locs[cls][:, None]) / scales[cls][:, None])
            probs = pt.clip(probs, 1e-300, 1.0)
            pm.Potential(f"counts_{cls}", pt.sum(counts[:, cls] * pt.log(probs)))
    return model
