"""Laplace approximation and importance sampling: the pieces the fast samplers share.

numpy/scipy only. The rank-based flexible and contaminated models, the joint rank model
of two classifiers and the pool calibration model all sample the same way: the posterior
mode of an unconstrained vector (L-BFGS-B), the Laplace covariance (second differences or
an analytic Hessian), Student-t proposals at the mode with Pareto-smoothed importance
weights (:func:`psis`), adapting the proposal while ``k > 0.7``.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special

__all__ = [
    "KHAT_OK",
    "adaptive_importance",
    "fd_mode",
    "fd_neg_hessian",
    "importance_summary",
    "proposal_chol",
    "psis",
    "systematic",
    "t_draws",
    "t_logpdf",
    "tempered_smc",
]

#: Degrees of freedom of the Student-t proposals.
_T_DF = 5.0
#: Pareto k above which importance weights are unreliable (Vehtari et al. 2024).
KHAT_OK = 0.7


def fd_mode(log_posterior, x0, options=None, h=1e-6):
    """Mode of ``log_posterior`` (rows -> values) by L-BFGS-B with a central-difference
    gradient evaluated in one batched call; ``options`` are L-BFGS-B's."""
    d = x0.size
    eye = np.eye(d) * h

    def fun(x):
        f = log_posterior(np.concatenate([x[None], x + eye, x - eye]))
        if not np.isfinite(f[0]):
            return np.inf, np.zeros(d)
        g = (f[1 : d + 1] - f[d + 1 :]) / (2 * h)
        g[~np.isfinite(g)] = 0.0
        return -f[0], -g

    opts = {"maxiter": 2000} if options is None else options
    return optimize.minimize(fun, x0, jac=True, method="L-BFGS-B", options=opts).x


def fd_neg_hessian(log_posterior, theta, h=1e-4):
    """Negative Hessian of ``log_posterior`` at ``theta`` by second central differences
    (one batched evaluation of ``4 d^2`` rows), symmetrized; non-finite entries are 0."""
    d = theta.size
    e = np.eye(d) * h
    plus = theta + e[:, None, :] + e[None, :, :]  # (d, d, D)
    minus = theta - e[:, None, :] - e[None, :, :]
    pm = theta + e[:, None, :] - e[None, :, :]
    mp = theta - e[:, None, :] + e[None, :, :]
    rows = np.concatenate([a.reshape(-1, d) for a in (plus, minus, pm, mp)])
    f = log_posterior(rows).reshape(4, d, d)
    hess = (f[0] + f[1] - f[2] - f[3]) / (4 * h * h)
    neg = -0.5 * (hess + hess.T)
    neg[~np.isfinite(neg)] = 0.0
    return neg


def proposal_chol(cov):
    """Cholesky factor of a covariance with its eigenvalues clipped to [1e-6, 100]."""
    cov = 0.5 * (cov + cov.T)
    evals, evecs = np.linalg.eigh(cov)
    evals = np.clip(evals, 1e-6, 100.0)
    return np.linalg.cholesky((evecs * evals) @ evecs.T)


def t_logpdf(x, loc, chol):
    """Log density (up to a constant) of the multivariate Student-t proposal."""
    u = np.linalg.solve(chol, (x - loc).T).T
    d = loc.size
    return -0.5 * (_T_DF + d) * np.log1p(np.sum(u * u, axis=1) / _T_DF) - np.sum(
        np.log(np.diag(chol))
    )


def t_draws(rng, loc, chol, size):
    """Multivariate Student-t draws and their log density (up to a constant)."""
    z = rng.standard_normal((size, loc.size))
    w = rng.chisquare(_T_DF, size) / _T_DF
    x = loc + (z @ chol.T) / np.sqrt(w)[:, None]
    return x, t_logpdf(x, loc, chol)


def systematic(rng, w, size):
    """Systematic resampling: ``size`` indices drawn with probabilities ``w`` (normalized)."""
    cum = np.cumsum(w)
    cum[-1] = 1.0
    pick = np.searchsorted(cum, (rng.random() + np.arange(size)) / size, side="left")
    return np.minimum(pick, w.size - 1)


def psis(log_ratios):
    """Pareto-smoothed log weights (normalized) and the Pareto k-hat (arviz_stats)."""
    from arviz_stats.base import array_stats

    finite = np.isfinite(log_ratios)
    lr = np.where(finite, log_ratios, np.min(log_ratios[finite]) - 50.0)
    # arviz_stats' psislw takes log-likelihoods (LOO ratios are their negatives)
    lw, khat = array_stats.psislw(-(lr - lr.max()))
    lw = np.asarray(lw, dtype=np.float64)
    lw = np.where(finite, lw, -np.inf)
    return lw - special.logsumexp(lw), float(khat)


def adaptive_importance(rng, log_posterior, mode, neg_hess, size, max_adaptations=3):
    """Laplace + Student-t importance sampling with PSIS, adapting the proposal.

    The proposal starts at the mode with the inverse of ``neg_hess`` (eigenvalues below
    1e-2 raised: flat directions get a capped spread); while the Pareto ``k`` exceeds
    0.7 (at most ``max_adaptations`` times) it moves to the weighted mean and 1.2 times
    the weighted covariance of the last draws.

    Returns ``(x, log_weights, khat, adaptations)``: the proposals (size, D), their
    Pareto-smoothed normalized log weights, ``k`` and the number of adaptations.
    """
    evals, evecs = np.linalg.eigh(0.5 * (neg_hess + neg_hess.T))
    cov = (evecs / np.maximum(evals, 1e-2)) @ evecs.T
    loc, chol = mode, proposal_chol(cov)
    adaptations = 0
    while True:
        x, log_q = t_draws(rng, loc, chol, size)
        lw, khat = psis(log_posterior(x) - log_q)
        if khat <= KHAT_OK or adaptations == max_adaptations:
            return x, lw, khat, adaptations
        w = np.exp(lw)
        loc = w @ x
        cov = ((x - loc) * w[:, None]).T @ (x - loc) * 1.2
        chol = proposal_chol(cov)
        adaptations += 1


def importance_summary(khat, lw, draws, *, ess_used=None, **extra):
    """The ``importance`` record of a fast fit: what its resampled draws are worth.

    Parameters
    ----------
    khat : float
        Pareto k-hat of the importance weights.
    lw : ndarray
        The proposals' normalized log weights (:func:`psis`).
    draws : ndarray of shape (total, D)
        The resampled (unconstrained) draws.
    ess_used : float, optional
        The ESS of the weights the draws were taken with when that is not
        ``log_weights`` (the tempered-SMC fallback's last reweighting).
    **extra
        Further entries (``n_proposals``, ``mode``, ``adaptations``, ``smc``, ...).

    Returns
    -------
    dict
        ``khat``, ``ess`` (Kish's ``1 / sum(w**2)`` of ``lw``), ``n_distinct``
        (distinct draws), ``ess_draws`` (``min(ess_used or ess, n_distinct)``: the ESS the
        summaries and diagnostics cap at) and ``extra``.
    """
    w = np.exp(lw)
    ess = float(1.0 / np.sum(w * w))
    n_distinct = int(np.unique(np.asarray(draws).reshape(len(draws), -1), axis=0).shape[0])
    used = ess if ess_used is None else float(ess_used)
    return {
        "khat": float(khat),
        "ess": ess,
        "n_distinct": n_distinct,
        "ess_draws": min(used, float(n_distinct)),
        **extra,
    }


def _ess(log_w):  # Kish's effective sample size of unnormalized log weights
    w = np.exp(log_w - log_w.max())
    return w.sum() ** 2 / np.sum(w * w)


def tempered_smc(rng, x, log_q, log_p, loc, chol, log_posterior, n_moves=6):
    """Move importance draws to the posterior by an adaptive tempered SMC sampler.

    ``x`` (n, D) are draws of the Student-t proposal ``t(loc, chol)`` with log densities
    ``log_q``; ``log_p`` their values of ``log_posterior`` (a function of rows (n, D)).

    Targets ``q^(1 - b) p^b`` for ``b`` from 0 (the Student-t proposal) to 1, each step
    chosen so that the effective sample size of the incremental weights is half the
    particles; after each resampling, ``n_moves`` random-walk Metropolis moves with the
    particles' covariance scaled by ``2.38^2 / d`` (Del Moral, Doucet & Jasra 2006).
    Returns the particles, the number of tempering steps, the mean acceptance rate and
    the effective sample size of the last reweighting (its incremental weights).
    """
    n, d = x.shape
    beta, steps, acc, last_ess = 0.0, 0, [], float(n)
    log_r = log_p - log_q
    while beta < 1.0 and steps < 100:
        lo, hi = beta, 1.0

        def ess(b, beta=beta, log_r=log_r):
            return _ess((b - beta) * log_r)

        if ess(1.0) >= 0.5 * n:
            new = 1.0
        else:
            for _ in range(50):
                mid = 0.5 * (lo + hi)
                lo, hi = (mid, hi) if ess(mid) >= 0.5 * n else (lo, mid)
            new = max(lo, beta + 1e-6)
        lw = (new - beta) * log_r
        last_ess = float(_ess(lw))
        w = np.exp(lw - lw.max())
        pick = systematic(rng, w / w.sum(), n)
        x, log_q, log_p = x[pick], log_q[pick], log_p[pick]
        beta, steps = new, steps + 1
        cov = np.cov(x, rowvar=False) + 1e-9 * np.eye(d)
        step_chol = np.linalg.cholesky(cov) * (2.38 / np.sqrt(d))
        for _ in range(n_moves):
            y = x + rng.standard_normal((n, d)) @ step_chol.T
            lq_y = t_logpdf(y, loc, chol)
            lp_y = log_posterior(y)
            with np.errstate(invalid="ignore"):
                log_a = (1 - beta) * (lq_y - log_q) + beta * (lp_y - log_p)
            ok = np.log(rng.random(n)) < np.where(np.isfinite(log_a), log_a, -np.inf)
            x[ok], log_q[ok], log_p[ok] = y[ok], lq_y[ok], lp_y[ok]
            acc.append(ok.mean())
        log_r = log_p - log_q
    return x, steps, float(np.mean(acc)) if acc else 1.0, last_ess
