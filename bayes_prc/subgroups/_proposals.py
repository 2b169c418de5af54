"""The proposals and exact draws the subgroup sampler's steps are made of (numpy only).

The cutpoints' Newton and Langevin-Newton proposals, the Student-t fitted to the warm-up
draws, the population spreads' grid draws and means' Gibbs draws, the latent axis'
translation and rescaling, and the log densities they need. :mod:`._sampler` composes
them into its five steps.
"""

from __future__ import annotations

import numpy as np

from ..bayes import tridiag_back, tridiag_cholesky, tridiag_solve
from ._model import CutpointPrior

__all__ = [
    "FITTED_DF",
    "FITTED_INFLATION",
    "FittedT",
    "Spread",
    "acceptance",
    "cutpoint_forward",
    "cutpoint_mode",
    "cutpoint_reverse",
    "fitted_proposal",
    "log_unit_step",
    "log_unit_target",
    "mean_acceptance",
    "newton_terms",
    "norm_logpdf",
    "normal_mean",
    "rescale",
    "t_logpdf",
    "translate",
]

#: Degrees of freedom and covariance inflation of the fitted independence proposal.
FITTED_DF = 5.0
FITTED_INFLATION = 1.3


# ----------------------------------------------------------------------- the cutpoints
def cutpoint_mode(lik, c, theta, prior, max_iter=50, tol=1e-9):
    """Mode of the cutpoints' full conditional (Newton with backtracking), batched.

    The Newton direction uses the likelihood's negative Hessian only (positive definite;
    the prior's Hessian, from the cutpoints' mean, is negative semidefinite), so it is an
    ascent direction.
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


def newton_terms(lik, c, theta, prior):
    """Log-likelihoods at ``c`` and the Newton proposal N(mean, H^{-1}) made there.

    ``H`` is the likelihood's negative Hessian (tridiagonal, positive definite); the
    gradient is the full conditional's (likelihood and ``prior``, a
    :class:`CutpointPrior`).
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


def cutpoint_forward(lik, c, theta, prior, h, rng):
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
    ll0, ll1, mean, ld, ls, ok = newton_terms(lik, c, theta, prior)
    mean = c + 0.5 * h**2 * (mean - c)
    c_prop = mean + h * tridiag_back(ld, ls, rng.standard_normal(c.shape))
    if c.shape[1] > 1:
        ok &= np.all(np.diff(c_prop, axis=1) > 0, axis=1)
    log_q = _gauss_logq(c_prop, mean, ld / h, ls / h)
    return ll0, ll1, np.where(ok[:, None], c_prop, c), log_q, ok


def cutpoint_reverse(lik, c_prop, c, theta, prior, h):
    """Log-likelihoods at ``(c_prop, theta)`` and the log density of proposing ``c`` from
    ``c_prop`` (see :func:`cutpoint_forward`)."""
    q0, q1, mean, ld, ls, ok = newton_terms(lik, c_prop, theta, prior)
    mean = c_prop + 0.5 * h**2 * (mean - c_prop)
    return q0, q1, _gauss_logq(c, mean, ld / h, ls / h), ok


def _gauss_logq(x, mean, ld, ls):
    """Log density (up to a shared constant) of N(mean, (L L^T)^{-1}) at ``x``."""
    d = x - mean
    y = ld * d
    y[:, :-1] += ls * d[:, 1:]  # L^T d: L lower bidiagonal, so L^T is upper
    return -0.5 * np.sum(y * y, axis=1) + np.sum(np.log(ld), axis=1)


def t_logpdf(x, m, s, nu):
    """Student-t log density (up to a constant in ``x``, ``m``; with ``-log s``)."""
    return -0.5 * (nu + 1) * np.log1p(((x - m) / s) ** 2 / nu) - np.log(s)


def norm_logpdf(x, m, s):
    return -0.5 * ((x - m) / s) ** 2 - np.log(s)


class Spread:
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


def acceptance(log_a):
    """Metropolis acceptance probabilities ``min(1, e^log_a)``, elementwise (a NaN
    proposal counts as 0): what the warm-up's step-size adaptation steers."""
    return np.exp(np.minimum(np.nan_to_num(log_a, nan=-np.inf), 0.0))


def mean_acceptance(log_a):
    """Mean of :func:`acceptance` over chains."""
    return np.mean(acceptance(log_a))


def normal_mean(effects, s, prior_sd, rng, weights=None):
    """Gibbs draw of a population mean with a Normal(0, prior_sd) prior, per chain.

    ``weights`` (B, G): effect ``g`` has variance ``s^2 / weights[g]`` (a scale mixture).
    """
    w = np.ones_like(effects) if weights is None else weights
    prec = 1.0 / prior_sd**2 + w.sum(axis=1) / s**2
    mean = (np.sum(w * effects, axis=1) / s**2) / prec
    return mean + rng.standard_normal(effects.shape[0]) / np.sqrt(prec)


# ------------------------------------------------------------ the fitted Student-t proposal
class FittedT:
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


def fitted_proposal(mean, cov):
    """The :class:`FittedT` of the warm-up's (mu, log sigma) draws, or None if their
    covariance is not positive definite."""
    try:
        chol = np.linalg.cholesky(FITTED_INFLATION**2 * cov + 1e-8 * np.eye(2))
    except np.linalg.LinAlgError:  # pragma: no cover - keep the random walk only
        return None
    return FittedT(mean, chol)


def translate(c, theta, s_shift, prior, rng):
    """Exact Gibbs draw of a common translation of the cutpoints and subgroup locations.

    The likelihood and the cutpoints' gaps do not change; the subgroups' locations
    (``Normal(0, s_shift)``) and the cutpoints' mean (``Normal(0, prior.scale)``, a
    :class:`CutpointPrior`) do.
    """
    g = theta.shape[1]
    cut_scale = prior.scale
    prec = g / s_shift**2 + 1.0 / cut_scale**2
    mean = -(theta[..., 0].sum(axis=1) / s_shift**2 + c.mean(axis=1) / cut_scale**2) / prec
    delta = mean + rng.standard_normal(c.shape[0]) / np.sqrt(prec)
    theta = theta.copy()
    theta[..., 0] += delta[:, None]
    return c + delta[:, None], theta


def rescale(c, theta, m_l, log_scale_sd, rng):
    """Exact draw along the scale orbit of the latent axis (the likelihood is unchanged).

    ``c -> e^lam c``, ``shift -> e^lam shift``, ``log_scale -> log_scale + lam`` and
    ``m_l -> m_l + lam``. The priors of the cutpoints (see :class:`CutpointPrior`, with
    its factor on the log scales) and of the shifts are homogeneous of degrees ``-J`` and
    ``-G`` with the log scales and the unit ``e^m_l`` moved along, which cancels the
    Jacobian of the scaled coordinates: along the orbit only the
    ``Normal(0, log_scale_sd)`` prior of ``m_l`` varies, and the generalized Gibbs step
    (Liu & Sabatti 2000) draws ``lam`` from it, ``Normal(-m_l, log_scale_sd^2)``.
    """
    lam = -m_l + log_scale_sd * rng.standard_normal(m_l.shape)
    f = np.exp(lam)
    theta = theta.copy()
    theta[..., 0] *= f[:, None]
    theta[..., 1] += lam[:, None]
    return c * f[:, None], theta, m_l + lam


def log_unit_target(m_l, c, theta, s, priors):
    """Log density of ``m_l`` given the rest (its prior and the priors it enters)."""
    g = theta.shape[1]
    unit = np.exp(m_l)
    return (
        -0.5 * (m_l / priors.log_scale_sd) ** 2
        - 0.5 * np.sum(((theta[..., 1] - m_l[:, None]) / s[:, 1, None]) ** 2, axis=1)
        - 0.5 * np.sum((theta[..., 0] / (s[:, 0] * unit)[:, None]) ** 2, axis=1)
        - g * m_l
        + CutpointPrior(priors.cutpoint_sd, unit).log_density(c)
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


def log_unit_step(m_l, c, theta, s, priors, rng):
    """Random-walk Metropolis steps of ``m_l`` given the rest (its conditional sd is at
    most ``s_l / sqrt(G)``, from the subgroups' log scales)."""
    step = 1.5 / np.sqrt(theta.shape[1] / s[:, 1] ** 2 + 1.0 / priors.log_scale_sd**2)

    def target(x):
        return log_unit_target(x, c, theta, s, priors)

    return _metropolis_1d(m_l, target, step, rng)
