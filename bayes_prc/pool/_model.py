r"""The calibration model of a labelled pool: priors, data, log posterior, samplers.

numpy/scipy only, except :func:`sample_pool_nuts` (PyMC, imported inside it).

Model. Every score of the pool is known; the unknown is the calibration curve
``P(y = 1 | score)``, taken monotone non-decreasing in the score::

    u_i = Phi^-1((rank_i - 1/2) / N)        pool ranks of the scores (ties averaged)
    P(y_i = 1) = eps + (1 - eps) expit(f(u_i))
    f(u) = alpha + sum_j s_j (clip(u, e_j, e_{j+1}) - clip(c, e_j, e_{j+1}))
    alpha ~ Normal(intercept_loc, intercept_sd)              f at the anchor c
    log s_0 ~ Normal(log_slope_loc, log_slope_sd)
    log s_{j+1} - log s_j ~ Normal(0, log_slope_step_sd)     (random walk: smooth slopes)
    logit eps ~ Normal(logit(floor_share * pi_hat), floor_sd)   the floor
    y_i ~ Bernoulli(P(y_i = 1))                              labelled items only

``f`` is piecewise linear in ``u`` with ``K`` knots ``e_1 < ... < e_K`` (``e_0 = -inf``,
``e_{K+1} = +inf``) at the ``j / (K + 1)`` quantiles of the labelled items' ``u``, so they
sit where the labels are (the selection oversamples high scores); ``K + 1`` slopes
``s_j = exp(log s_j) > 0`` make ``f`` increasing. ``c`` is the labelled items' median
``u``. Ranks make the model invariant to monotone transforms of the scores.

The floor ``eps`` is a positive rate that does not depend on the score: positives the
classifier cannot see (a blind spot), spread over the whole pool, as the lower
asymptote ("guess rate") of a psychometric function (Wichmann & Hill 2001). Without it
a monotone curve forces the rate of the lowest scores towards zero, and a pool whose
low scores still hold positives (a third of them, in the ``classifier_probabilities``
population of :mod:`bayes_prc.populations`) gets a posterior of its number of positives,
hence of its AP, that is confidently wrong. Its prior is centred on ``floor_share``
times ``pi_hat``, the Horvitz-Thompson estimate of the pool's prevalence from the
selection, so it is scale free: with no labelled positive among the low scores the
floor stays a small fraction of the positives, and a few such positives raise it.

Likelihood. The selection depends on the scores only (and, with ``next_batch``, on labels
already observed), so the design is ignorable for likelihood inference (Rubin 1976): the
likelihood is the plain Bernoulli likelihood of the labelled items, without weights.

Fast sampler (``method="laplace"``): the posterior mode (L-BFGS-B, analytic gradient),
the Laplace covariance (analytic Hessian), importance sampling from a multivariate
Student-t (5 degrees of freedom) at the mode, Pareto-smoothed weights (PSIS, Vehtari et
al. 2024) and systematic resampling, as :func:`._flexible.sample_flexible_laplace`. When
the Pareto ``k > 0.7`` the proposal is moved to the weighted draws' mean and covariance
(adaptive importance sampling) up to three times; a :class:`ConvergenceWarning` suggests
``method="nuts"`` if ``k`` stays above 0.7.

References
----------
.. [1] D. B. Rubin, "Inference and missing data", Biometrika 63 (1976) 581-592.
.. [2] A. Vehtari, D. Simpson, A. Gelman, Y. Yao and J. Gabry, "Pareto smoothed
   importance sampling", J. Mach. Learn. Res. 25(72) (2024) 1-58.
.. [3] F. A. Wichmann and N. J. Hill, "The psychometric function: I. Fitting, sampling,
   and goodness of fit", Perception & Psychophysics 63 (2001) 1293-1313.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

from .._core import plain
from ..bayes import KHAT_OK, PriorsBase, adaptive_importance, importance_summary, systematic
from ..exceptions import ConvergenceWarning

__all__ = [
    "PoolData",
    "PoolPriors",
    "pool_log_posterior",
    "sample_pool_laplace",
    "sample_pool_nuts",
]


@dataclass(frozen=True)
class PoolPriors(PriorsBase):
    """Prior of the pool calibration model (see :mod:`bayes_prc.pool._model`).

    Parameters
    ----------
    intercept_loc, intercept_sd : float, default -2, 2.5
        ``alpha = f(c) ~ Normal``: the log-odds of a positive at the labelled items'
        median rank (prior 90% range of the rate there: 0.002 to 0.9).
    log_slope_loc, log_slope_sd : float, default 0, 1.5
        ``log s_0 ~ Normal``: the slope of the lowest segment (log-odds per unit of
        ``u``, the probit of the pool rank).
    log_slope_step_sd : float, default 1.5
        Random-walk step of the log slopes from one segment to the next. Wide enough
        for a calibration that rises and then plateaus (slopes near 0 at the top, as
        with "hard negatives" scoring like positives): with 0.75 the 90% interval of
        such a pool's AP covered 67% of 30 selections, with 1.5 it covered 87% (binormal
        pool: 97% and 93%).
    n_knots : int, default 6
        Number of knots ``K`` (``K + 1`` segments).
    floor_share : float in [0, 1), default 0.05
        Prior median of the floor ``eps`` as a share of the estimated prevalence
        ``pi_hat``: ``logit eps ~ Normal(logit(floor_share * pi_hat), floor_sd)``.
        ``0`` removes the floor (a strictly monotone calibration from 0).
    floor_sd : float, default 2
        Prior standard deviation of ``logit eps`` (90% of the prior within a factor of
        about 27 of its median).
    """

    intercept_loc: float = -2.0
    intercept_sd: float = 2.5
    log_slope_loc: float = 0.0
    log_slope_sd: float = 1.5
    log_slope_step_sd: float = 1.5
    n_knots: int = 6
    floor_share: float = 0.05
    floor_sd: float = 2.0

    def __post_init__(self):
        self._check_fields(
            any_sign=("intercept_loc", "log_slope_loc", "floor_share"), integers=("n_knots",)
        )
        if not 0.0 <= self.floor_share < 1.0:
            raise ValueError(
                f"`priors.floor_share` must be in [0, 1); got {plain(self.floor_share)}"
            )


def pool_normal_scores(score):
    """Normal scores of a pool: ``Phi^-1((rank - 1/2) / N)`` of each score.

    The pool calibration model's scale ``u`` (average ranks for ties).

    Parameters
    ----------
    score : ndarray of shape (N,)
        Scores of the whole pool.

    Returns
    -------
    ndarray of shape (N,)
    """
    n = score.shape[0]
    return special.ndtri((stats.rankdata(score, method="average") - 0.5) / n)


def calibration_basis(u, knots, anchor):
    """Piecewise-linear basis of the calibration model: segment lengths from ``anchor``.

    Parameters
    ----------
    u : array-like
        Points on the model's scale (:func:`pool_normal_scores`).
    knots : ndarray of shape (K,)
        Increasing knots, splitting the line into ``K + 1`` segments.
    anchor : float
        The point where the calibration curve takes its intercept.

    Returns
    -------
    ndarray of shape ``u.shape + (K + 1,)``
        Signed length of each segment between ``anchor`` and ``u``.
    """
    e = np.concatenate([[-np.inf], knots, [np.inf]])
    lo, hi = e[:-1], e[1:]
    u = np.asarray(u, dtype=np.float64)[..., None]
    return np.clip(u, lo, hi) - np.clip(anchor, lo, hi)


def rate(f, floor):
    """``P(y = 1) = floor + (1 - floor) expit(f)``; ``floor`` (S,) broadcast over ``f``."""
    floor = np.asarray(floor, dtype=np.float64)[..., None]
    return floor + (1.0 - floor) * special.expit(f)


def prevalence_estimate(is_pos, inclusion_prob, n_pool):
    """Horvitz-Thompson prevalence of the pool; half a positive when none is labelled."""
    w = 1.0 / np.asarray(inclusion_prob, dtype=np.float64)
    total = float(np.sum(w[is_pos])) if np.any(is_pos) else 0.5 * float(np.mean(w))
    return min(total / n_pool, 0.5)


class PoolData:
    """The labelled items on the model's scale: ``u``, labels, knots, basis, floor prior.

    ``prevalence`` (the Horvitz-Thompson estimate) centres the floor's prior; with
    ``floor_share = 0`` there is no floor parameter.
    """

    def __init__(self, u_pool, indices, is_pos, n_knots, *, prevalence=0.01, floor_share=0.0):
        self.u_pool = u_pool
        self.indices = indices
        self.u = u_pool[indices]
        self.y = is_pos.astype(np.float64)
        levels = np.arange(1, n_knots + 1) / (n_knots + 1)
        self.knots = np.unique(np.quantile(self.u, levels))
        self.anchor = float(np.median(self.u))
        self.h = calibration_basis(self.u, self.knots, self.anchor)  # (n, K + 1)
        self.has_floor = floor_share > 0
        self.floor_loc = float(special.logit(floor_share * prevalence)) if self.has_floor else None

    def f(self, alpha, log_slopes, u):
        """``f(u)`` per draw: ``alpha`` (S,), ``log_slopes`` (S, K + 1) -> (S,) + u.shape."""
        b = calibration_basis(u, self.knots, self.anchor)
        return alpha[..., None] + np.exp(log_slopes) @ b.reshape(-1, b.shape[-1]).T

    def split(self, theta):
        """``(alpha, log_slopes, floor)`` of rows ``theta`` (floor 0 without one)."""
        k = self.knots.size + 1
        floor = special.expit(theta[:, k + 1]) if self.has_floor else np.zeros(theta.shape[0])
        return theta[:, 0], theta[:, 1 : k + 1], floor


# --------------------------------------------------------------------------------------
# log posterior on theta = (alpha, log s_0, ..., log s_K[, logit eps])
# --------------------------------------------------------------------------------------
def _prior_terms(theta, data, priors):
    k = data.knots.size + 1
    a, ls = theta[:, 0], theta[:, 1 : k + 1]
    step = np.diff(ls, axis=1)
    out = (
        -0.5 * ((a - priors.intercept_loc) / priors.intercept_sd) ** 2
        - 0.5 * ((ls[:, 0] - priors.log_slope_loc) / priors.log_slope_sd) ** 2
        - 0.5 * np.sum(step * step, axis=1) / priors.log_slope_step_sd**2
    )
    if data.has_floor:
        out = out - 0.5 * ((theta[:, k + 1] - data.floor_loc) / priors.floor_sd) ** 2
    return out


def pool_log_posterior(theta, data, priors):
    """Unnormalized log posterior of rows ``theta`` (S, K + 2 [+ 1]); non-finite -> ``-inf``."""
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    k = data.knots.size + 1
    with np.errstate(over="ignore", invalid="ignore"):
        f = theta[:, :1] + np.exp(theta[:, 1 : k + 1]) @ data.h.T
        if data.has_floor:
            eta = theta[:, k + 1 : k + 2]
            log_1m_eps = -np.logaddexp(0.0, eta)
            log_q = log_1m_eps - np.logaddexp(0.0, f)  # log P(y = 0)
            log_p = np.logaddexp(-np.logaddexp(0.0, -eta), log_1m_eps - np.logaddexp(0.0, -f))
            ll = np.sum(data.y * log_p + (1.0 - data.y) * log_q, axis=1)
        else:
            ll = np.sum(data.y * f - np.logaddexp(0.0, f), axis=1)
        out = ll + _prior_terms(theta, data, priors)
    out[~np.isfinite(out)] = -np.inf
    return out


def _item_derivatives(f, eta, y):
    """Per-item first and second derivatives of the log likelihood in ``f`` and ``eta``.

    With ``P = eps + (1 - eps) sigma``: a negative contributes ``log(1 - eps) +
    log(1 - sigma)``, a positive ``log P`` (derivatives through ``dP/df = (1 - eps)
    sigma (1 - sigma)`` and ``dP/deta = eps (1 - eps) (1 - sigma)``).
    """
    sig = special.expit(f)
    if eta is None:
        return y - sig, -sig * (1 - sig), None, None, None
    eps = special.expit(eta)
    p = eps + (1 - eps) * sig
    a = (1 - eps) * sig * (1 - sig)
    b = eps * (1 - eps) * (1 - sig)
    pos = y > 0
    l_f = np.where(pos, a / p, -sig)
    l_e = np.where(pos, b / p, -eps)
    l_ff = np.where(pos, a * (1 - 2 * sig) / p - (a / p) ** 2, -sig * (1 - sig))
    l_ee = np.where(pos, b * (1 - 2 * eps) / p - (b / p) ** 2, -eps * (1 - eps))
    l_fe = np.where(pos, -eps * (1 - eps) * sig * (1 - sig) / p - a * b / p**2, 0.0)
    return l_f, l_ff, l_e, l_ee, l_fe


def _grad_hess(theta, data, priors):
    """Gradient and Hessian of the log posterior at one ``theta`` (analytic)."""
    k = data.knots.size + 1
    s = np.exp(theta[1 : k + 1])
    f = theta[0] + data.h @ s
    eta = theta[k + 1] if data.has_floor else None
    l_f, l_ff, l_e, l_ee, l_fe = _item_derivatives(f, eta, data.y)
    d = np.concatenate([np.ones((data.h.shape[0], 1)), data.h * s], axis=1)  # df/dtheta
    m = theta.size
    grad, hess = np.zeros(m), np.zeros((m, m))
    grad[: k + 1] = d.T @ l_f
    hess[: k + 1, : k + 1] = (d * l_ff[:, None]).T @ d
    hess[1 : k + 1, 1 : k + 1] += np.diag(data.h.T @ l_f * s)
    if data.has_floor:
        grad[k + 1] = l_e.sum() - (eta - data.floor_loc) / priors.floor_sd**2
        hess[k + 1, k + 1] = l_ee.sum() - 1 / priors.floor_sd**2
        hess[: k + 1, k + 1] = hess[k + 1, : k + 1] = d.T @ l_fe
    # priors of alpha and the log slopes
    grad[0] -= (theta[0] - priors.intercept_loc) / priors.intercept_sd**2
    hess[0, 0] -= 1 / priors.intercept_sd**2
    grad[1] -= (theta[1] - priors.log_slope_loc) / priors.log_slope_sd**2
    hess[1, 1] -= 1 / priors.log_slope_sd**2
    if k > 1:
        lap = np.zeros((k, k))
        idx = np.arange(k - 1)
        lap[idx, idx] += 1
        lap[idx + 1, idx + 1] += 1
        lap[idx, idx + 1] -= 1
        lap[idx + 1, idx] -= 1
        lap /= priors.log_slope_step_sd**2
        grad[1 : k + 1] -= lap @ theta[1 : k + 1]
        hess[1 : k + 1, 1 : k + 1] -= lap
    return grad, hess


def _mode(data, priors):
    k = data.knots.size + 1
    rate0 = (data.y.sum() + 0.5) / (data.y.size + 1.0)
    x0 = np.concatenate([[special.logit(rate0)], np.full(k, priors.log_slope_loc)])
    if data.has_floor:
        x0 = np.append(x0, data.floor_loc)

    def fun(x):
        lp = pool_log_posterior(x, data, priors)[0]
        if not np.isfinite(lp):
            return np.inf, np.zeros_like(x)
        return -lp, -_grad_hess(x, data, priors)[0]

    res = optimize.minimize(fun, x0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    return res.x


def sample_pool_laplace(data, priors, *, draws, chains, rng, n_proposals=None):
    """Posterior draws of ``theta``: Laplace + Student-t importance sampling (PSIS).

    Returns
    -------
    dict
        ``alpha`` (chains, draws), ``log_slopes`` (chains, draws, K + 1), ``floor``
        (chains, draws; zeros without a floor) and ``importance``: ``khat``, ``ess``
        (Kish's ``1 / sum(w**2)`` of the normalized PSIS weights), ``n_distinct``
        (distinct resampled draws), ``ess_draws`` (``min(ess, n_distinct)``: the ESS
        of the resampled draws, reported by ``PoolPosterior.summary``),
        ``n_proposals``, ``mode``, ``adaptations``.
    """
    shape = (int(chains), int(draws))
    total = shape[0] * shape[1]
    m = int(n_proposals) if n_proposals is not None else max(4000, 2 * total)
    mode = _mode(data, priors)
    x, lw, khat, adaptations = adaptive_importance(
        rng,
        lambda t: pool_log_posterior(t, data, priors),
        mode,
        -_grad_hess(mode, data, priors)[1],
        m,
    )
    if khat > KHAT_OK:
        warnings.warn(
            f"fit_pool's fast sampler may be unreliable: importance sampling has Pareto "
            f"k-hat = {khat:.2f} (> 0.7) after {adaptations} adaptations; use method='nuts'",
            ConvergenceWarning,
            stacklevel=4,
        )
    w = np.exp(lw)
    pick = rng.permutation(systematic(rng, w, total))
    alpha, log_slopes, floor = data.split(x[pick])
    return {
        "alpha": alpha.reshape(shape),
        "log_slopes": log_slopes.reshape(*shape, -1),
        "floor": floor.reshape(shape),
        "importance": importance_summary(
            khat, lw, x[pick], n_proposals=m, mode=mode, adaptations=adaptations
        ),
    }


def sample_prior(data, priors, size, rng):
    """Prior draws of ``(alpha, log_slopes, floor)`` (for prior predictive checks)."""
    k = data.knots.size + 1
    alpha = rng.normal(priors.intercept_loc, priors.intercept_sd, size)
    steps = rng.normal(0.0, priors.log_slope_step_sd, (size, k - 1))
    first = rng.normal(priors.log_slope_loc, priors.log_slope_sd, (size, 1))
    floor = (
        special.expit(rng.normal(data.floor_loc, priors.floor_sd, size))
        if data.has_floor
        else np.zeros(size)
    )
    return alpha, np.cumsum(np.concatenate([first, steps], axis=1), axis=1), floor


# --------------------------------------------------------------------------------------
# PyMC reference
# --------------------------------------------------------------------------------------
def build_pool_model(data, priors):
    """The PyMC model (basis and labels in ``pm.Data`` containers over dim ``item``)."""
    import pymc as pm

    k = data.knots.size + 1
    coords = {"item": np.arange(data.y.size), "segment": np.arange(k)}
    with pm.Model(coords=coords) as model:
        h = pm.Data("basis", data.h, dims=("item", "segment"))
        y = pm.Data("labels", data.y.astype(np.int64), dims="item")
        alpha = pm.Normal("alpha", priors.intercept_loc, priors.intercept_sd)
        first = pm.Normal("log_slope_first", priors.log_slope_loc, priors.log_slope_sd)
        steps = pm.Normal("log_slope_steps", 0.0, priors.log_slope_step_sd, shape=k - 1)
        log_slopes = pm.Deterministic(
            "log_slopes",
            pm.math.concatenate([first[None], first + pm.math.cumsum(steps)]),
            dims="segment",
        )
        f = alpha + pm.math.dot(h, pm.math.exp(log_slopes))
        if data.has_floor:
            # non-centred: the prior's centre is data (the model is compiled once)
            loc = pm.Data("floor_loc", np.float64(data.floor_loc))
            z = pm.Normal("logit_floor_z", 0.0, 1.0)
            floor = pm.Deterministic("floor", pm.math.invlogit(loc + priors.floor_sd * z))
            pm.Bernoulli("y", p=floor + (1 - floor) * pm.math.invlogit(f), observed=y, dims="item")
        else:
            pm.Bernoulli("y", logit_p=f, observed=y, dims="item")
    return model


def sample_pool_nuts(data, priors, *, rng, sampler):
    """NUTS draws of the PyMC model through the compiled-model cache.

    ``sampler`` is a :class:`~bayes_prc.bayes.SamplerOptions`.
    """
    from ..bayes import priors_key, sample_nuts

    key = ("pool", data.knots.size, data.has_floor, priors_key(priors))
    values = {"basis": data.h, "labels": data.y.astype(np.int64)}
    if data.has_floor:
        values["floor_loc"] = np.float64(data.floor_loc)
    idata = sample_nuts(
        key,
        lambda: build_pool_model(data, priors),
        values,
        rng=rng,
        sampler=sampler,
        coords={"item": np.arange(data.y.size)},
    )
    post = idata["posterior"]
    alpha = post["alpha"].values
    floor = post["floor"].values if data.has_floor else np.zeros_like(alpha)
    return idata, {"alpha": alpha, "log_slopes": post["log_slopes"].values, "floor": floor}
