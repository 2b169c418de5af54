r"""The semiparametric (rank-based) binormal model: priors and the fast sampler.

numpy/scipy only; the PyMC version of the same model is in :mod:`._model`.

Model (see :mod:`._ordinal` for the categories)::

    prevalence         ~ Beta(a, b)
    mu                 ~ Normal(0, mu_sd)
    sigma              ~ LogNormal(0, log_sigma_sd)
    cutpoints          ~ Normal(0, cutpoint_sd), ordered (K - 1 of them)
    n_pos              ~ Binomial(n, prevalence)
    counts[neg]        ~ Multinomial(n_neg, p_0(cutpoints))
    counts[pos]        ~ Multinomial(n_pos, p_1(cutpoints, mu, sigma))

The latent negatives are N(0, 1) and positives N(mu, sigma): the binormal ROC curve with
``a = mu / sigma`` and ``b = 1 / sigma`` and an unknown increasing map from latent to
score scale. The prevalence posterior is Beta(a + n_pos, b + n_neg), independent of the
rest.

Fast sampler: integrated nested Laplace approximation on a grid
-------------------------------------------------------------
The posterior of the two ROC parameters ``theta = (mu, log sigma)`` is computed on a
grid, integrating the ``K - 1`` cutpoints out with a Laplace approximation at each grid
point (Rue, Martino & Chopin 2009; Tierney & Kadane 1986):

.. math::

    \log p(\theta \mid y) \approx \log p(y, \hat c_\theta, \theta)
        - \tfrac12 \log\det\bigl(-\nabla^2_c \log p(y, c, \theta)\bigr|_{\hat c_\theta}\bigr)
        + \text{const}.

The inner problem is strictly concave (ordered-probit log-likelihoods are concave in the
cutpoints) with a tridiagonal Hessian, so a batched Newton method solves every grid point
at once. The grid spans +-``grid_radius`` standard deviations of the Gaussian
approximation of the 2-D marginal along its principal axes (widened until the edge holds
no mass); draws pick grid cells by their probability and are spread uniformly within the
cell; cutpoints are drawn from the conditional Gaussian of their cell. Validated against
NUTS on the PyMC model in the tests.

References
----------
.. [1] H. Rue, S. Martino and N. Chopin, "Approximate Bayesian inference for latent
   Gaussian models by using integrated nested Laplace approximations", J. R. Stat. Soc.
   B 71 (2009) 319-392.
.. [2] L. Tierney and J. B. Kadane, "Accurate approximations for posterior moments and
   marginal densities", J. Am. Stat. Assoc. 81 (1986) 82-86.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from ._ordinal import (
    category_log_probs,
    cutpoint_derivatives,
    tridiag_back,
    tridiag_cholesky,
    tridiag_solve,
)
from ._priors import _Priors

__all__ = ["SemiparametricPriors", "sample_semiparametric_grid", "profile_mle"]


@dataclass(frozen=True)
class SemiparametricPriors(_Priors):
    """Prior of the semiparametric binormal model (latent negatives are N(0, 1)).

    Parameters
    ----------
    prevalence_alpha, prevalence_beta : float, default 1, 1
        Beta prior of the prevalence.
    mu_sd : float, default 3
        ``mu ~ Normal(0, mu_sd)``: the positives' latent mean (ROC AUC 0.5 at 0; a mean of
        3 already gives an AUC above 0.98).
    log_sigma_sd : float, default 1
        ``sigma ~ LogNormal(0, log_sigma_sd)``: the positives' latent spread relative to the
        negatives'.
    cutpoint_sd : float, default 5
        Ordered ``Normal(0, cutpoint_sd)`` prior of the cutpoints: nearly flat over the
        latent range the data can inform.

    Examples
    --------
    >>> from bayes_prc.bayes import SemiparametricPriors
    >>> SemiparametricPriors(mu_sd=2).mu_sd
    2.0
    """

    prevalence_alpha: float = 1.0
    prevalence_beta: float = 1.0
    mu_sd: float = 3.0
    log_sigma_sd: float = 1.0
    cutpoint_sd: float = 5.0

    def __post_init__(self):
        self._check_fields()


# ------------------------------------------------------------------------ inner problem
def initial_cutpoints(counts, mu, sigma):
    """Cutpoints matching the pooled empirical CDF at each category boundary.

    Solves ``(1 - pi) Phi(c) + pi Phi((c - mu) / sigma) = F_k`` by bisection (vectorized
    over the rows of ``mu``, ``sigma``); strictly increasing because every category
    holds at least one item.
    """
    n0, n1 = counts.sum(axis=1)
    pi = n1 / (n0 + n1)
    f = np.cumsum(counts.sum(axis=0))[:-1] / (n0 + n1)
    mu = np.asarray(mu, dtype=np.float64)[:, None]
    sigma = np.asarray(sigma, dtype=np.float64)[:, None]
    lo = np.minimum(-9.0, mu - 9 * sigma) * np.ones((mu.shape[0], f.size))
    hi = np.maximum(9.0, mu + 9 * sigma) * np.ones((mu.shape[0], f.size))
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        val = (1 - pi) * ndtr(mid) + pi * ndtr((mid - mu) / sigma)
        below = val < f
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    return 0.5 * (lo + hi)


def _inner_objective(c, mu, sigma, counts, tau):
    ll, grad, hd, ho = cutpoint_derivatives(c, mu, sigma, counts)
    prior = -0.5 * np.sum(c * c, axis=1) / tau**2
    return ll + prior, grad - c / tau**2, hd - 1.0 / tau**2, ho


def _inner_value(c, mu, sigma, counts, tau):
    """The inner objective alone (for the line search)."""
    with np.errstate(invalid="ignore"):
        lp = category_log_probs(c, mu, sigma)
        ll = np.sum(np.where(counts[:, None, :] > 0, counts[:, None, :] * lp, 0.0), axis=(0, 2))
    return ll - 0.5 * np.sum(c * c, axis=1) / tau**2


def solve_cutpoints(counts, mu, sigma, tau, c0=None, max_iter=100, tol=1e-8):
    """Mode of the cutpoints given (mu, sigma), batched over rows: Newton with backtracking.

    Returns ``(c_hat, objective, l_diag, l_sub)`` with the Cholesky factor of the
    negative Hessian at the mode.
    """
    c = initial_cutpoints(counts, mu, sigma) if c0 is None else c0.copy()
    obj, grad, hd, ho = _inner_objective(c, mu, sigma, counts, tau)
    active = np.ones(c.shape[0], dtype=bool)
    for _ in range(max_iter):
        ld, ls = tridiag_cholesky(-hd, -ho)
        step = tridiag_solve(ld, ls, grad)
        step[~np.isfinite(step)] = 0.0
        t = np.where(active, 1.0, 0.0)
        new_c = c
        for _ in range(40):  # backtrack until ordered and not worse
            trial = c + t[:, None] * step
            ordered = np.all(np.diff(trial, axis=1) > 0, axis=1) if c.shape[1] > 1 else True
            trial_obj = _inner_value(trial, mu, sigma, counts, tau)
            ok = ordered & (trial_obj >= obj - 1e-12) & np.isfinite(trial_obj)
            if np.all(ok | (t == 0)):
                new_c = trial
                break
            t = np.where(ok, t, 0.5 * t)
            t[t < 1e-12] = 0.0
        else:
            new_c = c + t[:, None] * step
        moved = np.max(np.abs(new_c - c), axis=1)
        c = new_c
        obj, grad, hd, ho = _inner_objective(c, mu, sigma, counts, tau)
        active = moved > tol
        if not active.any():
            break
    ld, ls = tridiag_cholesky(-hd, -ho)
    return c, obj, ld, ls


def laplace_log_marginal(theta, counts, priors, c0=None):
    """Log posterior density of ``theta = (mu, log sigma)`` (rows), cutpoints integrated out.

    Returns ``(log_density, c_hat, l_diag, l_sub)``; the density is up to a constant.
    """
    mu, log_sigma = theta[:, 0], theta[:, 1]
    sigma = np.exp(log_sigma)
    c, obj, ld, ls = solve_cutpoints(counts, mu, sigma, priors.cutpoint_sd, c0=c0)
    log_prior = -0.5 * (mu / priors.mu_sd) ** 2 - 0.5 * (log_sigma / priors.log_sigma_sd) ** 2
    log_det = 2.0 * np.sum(np.log(ld), axis=1)
    out = obj + log_prior - 0.5 * log_det
    out[~np.isfinite(out)] = -np.inf
    return out, c, ld, ls


# ------------------------------------------------------------------------ outer problem
def starting_mu(counts):
    """The positives' latent mean matching the empirical ROC AUC with sigma = 1.

    ``AUC = Phi(mu / sqrt(2))``; the AUC is clipped to [0.02, 0.98] so separated classes
    still give a finite start.
    """
    n0, n1 = counts.sum(axis=1)
    cum_neg = np.concatenate([[0], np.cumsum(counts[0])[:-1]])
    auc = float(np.sum(counts[1] * (cum_neg + 0.5 * counts[0])) / (n0 * n1))
    return float(np.sqrt(2) * ndtri(min(max(auc, 0.02), 0.98)))


_FD_STEP = 1e-3
#: Evaluation points of the central-difference gradient and Hessian in 2-D.
_FD_OFFSETS = _FD_STEP * np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1]])


def _fd_gradient_hessian(f):
    """Gradient and Hessian from values ``f`` at ``theta + _FD_OFFSETS``."""
    h = _FD_STEP
    g = np.array([f[1] - f[2], f[3] - f[4]]) / (2 * h)
    hxx = (f[1] - 2 * f[0] + f[2]) / h**2
    hyy = (f[3] - 2 * f[0] + f[4]) / h**2
    hxy = (f[5] - f[1] - f[3] + 2 * f[0] - f[2] - f[4] + f[6]) / (2 * h**2)
    return g, np.array([[hxx, hxy], [hxy, hyy]])


def _mode_2d(counts, priors):
    """Mode and negative Hessian of the 2-D Laplace marginal (Newton, finite differences)."""
    theta = np.array([starting_mu(counts), 0.0])
    offsets = _FD_OFFSETS
    c_warm = None
    for _ in range(50):
        f, c_all = laplace_log_marginal(theta + offsets, counts, priors, c0=c_warm)[:2]
        c_warm = np.repeat(c_all[:1], offsets.shape[0], axis=0)
        g, hess = _fd_gradient_hessian(f)
        try:
            evals = np.linalg.eigvalsh(hess)
            newton_ok = bool(np.all(evals < 0))
        except np.linalg.LinAlgError:  # pragma: no cover
            newton_ok = False
        step = -np.linalg.solve(hess, g) if newton_ok else 0.5 * g / max(np.abs(g).max(), 1)
        step = np.clip(step, -1.0, 1.0)
        for _ in range(30):
            trial = laplace_log_marginal((theta + step)[None], counts, priors, c0=c_warm[:1])
            if trial[0][0] >= f[0] - 1e-10:
                break
            step = step / 2
        theta = theta + step
        if np.max(np.abs(step)) < 1e-7:
            break
    f, c_all = laplace_log_marginal(theta + offsets, counts, priors, c0=c_warm)[:2]
    neg_hess = -_fd_gradient_hessian(f)[1]
    evals, evecs = np.linalg.eigh(neg_hess)
    if not np.all(evals > 0):  # flat direction (e.g. separated classes): fall back to prior
        evals = np.maximum(evals, 1.0 / max(priors.mu_sd, priors.log_sigma_sd) ** 2)
    return theta, evals, evecs, c_all[0]


#: Cutpoint prior sd of the maximum-likelihood fit: flat over any latent range that
#: matters, finite so that a category with no items of one class keeps a finite mode.
_MLE_TAU = 1e3
#: Bounds of the maximum-likelihood (mu, log sigma): separated classes drive mu to +inf.
_MLE_BOUNDS = (np.array([-12.0, -4.0]), np.array([12.0, 4.0]))


def _profile(theta, counts, c0):
    c, obj = solve_cutpoints(counts, theta[:, 0], np.exp(theta[:, 1]), _MLE_TAU, c0=c0)[:2]
    return obj + 0.5 * np.sum(c * c, axis=1) / _MLE_TAU**2, c


def profile_mle(counts):
    """Maximum-likelihood fit of the two-group ordered-probit (binormal) model.

    Newton's method on the profile log-likelihood of ``theta = (mu, log sigma)`` (the
    cutpoints maximized out by :func:`solve_cutpoints`; finite-difference derivatives as
    in the Laplace mode), bounded so that separated classes stop at a large ``mu``.

    Parameters
    ----------
    counts : ndarray of shape (2, K)

    Returns
    -------
    mu, sigma : float
    cutpoints : ndarray of shape (K - 1,)
    loglik : float
    """
    theta = np.array([starting_mu(counts), 0.0])
    f, c = _profile(theta[None], counts, None)
    c_warm = c
    for _ in range(60):
        f, c = _profile(theta + _FD_OFFSETS, counts, np.repeat(c_warm, len(_FD_OFFSETS), 0))
        c_warm = c[:1]
        g, hess = _fd_gradient_hessian(f)
        try:
            newton_ok = bool(np.all(np.linalg.eigvalsh(hess) < 0))
        except np.linalg.LinAlgError:  # pragma: no cover
            newton_ok = False
        step = -np.linalg.solve(hess, g) if newton_ok else 0.5 * g / max(np.abs(g).max(), 1)
        step = np.clip(step, -1.0, 1.0)
        for _ in range(30):
            trial = np.clip(theta + step, *_MLE_BOUNDS)
            f_trial, c_trial = _profile(trial[None], counts, c_warm)
            if f_trial[0] >= f[0] - 1e-10:
                break
            step = step / 2
        moved = np.max(np.abs(trial - theta))
        theta, c_warm = trial, c_trial
        if moved < 1e-7:
            break
    f, c = _profile(theta[None], counts, c_warm)
    return float(theta[0]), float(np.exp(theta[1])), c[0], float(f[0])


def sample_semiparametric_grid(
    data, priors, *, draws, chains, rng, grid_points=33, grid_radius=5.0
):
    """Draws from the semiparametric binormal posterior by the nested-Laplace grid.

    Parameters
    ----------
    data : OrdinalData
    priors : SemiparametricPriors
    draws, chains : int
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``prevalence``, ``mu``, ``sigma`` of shape (chains, draws) and ``cutpoints`` of
        shape (chains, draws, K - 1); key ``grid`` holds the grid, its log densities and
        the share of probability in the outermost ring of cells (``edge_mass``).
    """
    counts = data.counts
    n0, n1 = counts.sum(axis=1)
    theta0, evals, evecs, c_mode = _mode_2d(counts, priors)
    scales = 1.0 / np.sqrt(evals)
    radius = float(grid_radius)
    for _ in range(4):
        z = np.linspace(-radius, radius, grid_points)
        zz = np.stack(np.meshgrid(z, z, indexing="ij"), axis=-1).reshape(-1, 2)
        theta = theta0 + (zz * scales) @ evecs.T
        c0 = np.repeat(c_mode[None], theta.shape[0], axis=0)
        logd, c_hat, ld, ls = laplace_log_marginal(theta, counts, priors, c0=c0)
        prob = np.exp(logd - np.max(logd))
        prob /= prob.sum()
        ring = (np.abs(zz) >= radius - 1e-9).any(axis=1)
        edge_mass = float(prob[ring].sum())
        if edge_mass < 1e-6:
            break
        radius *= 1.6
    spacing = 2 * radius / (grid_points - 1)
    shape = (int(chains), int(draws))
    total = shape[0] * shape[1]
    cell = rng.choice(prob.size, size=total, p=prob)
    jitter = rng.uniform(-0.5, 0.5, size=(total, 2)) * spacing
    th = theta0 + ((zz[cell] + jitter) * scales) @ evecs.T
    noise = rng.standard_normal((total, c_hat.shape[1]))
    cut = c_hat[cell] + tridiag_back(ld[cell], ls[cell], noise)
    cut = np.sort(cut, axis=1)
    prevalence = rng.beta(priors.prevalence_alpha + n1, priors.prevalence_beta + n0, shape)
    return {
        "prevalence": prevalence,
        "mu": th[:, 0].reshape(shape),
        "sigma": np.exp(th[:, 1]).reshape(shape),
        "cutpoints": cut.reshape(*shape, -1),
        "grid": {"theta": theta, "log_density": logd, "edge_mass": edge_mass},
    }
