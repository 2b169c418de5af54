r"""Two classifiers on one labelled pool: a joint calibration model and its paired APs.

numpy/scipy only, except :func:`build_pair_model` (PyMC, imported inside it).

Model. Both classifiers score every pool item; ``u_A``, ``u_B`` are the normal scores of
each classifier's pool ranks (:func:`._pool_model.pool_normal_scores`)::

    P(y_i = 1) = eps + (1 - eps) expit(alpha + g_A(u_A,i) + g_B(u_B,i))
    g_X(u) = sum_j s_Xj (clip(u, e_Xj, e_X,j+1) - clip(c_X, e_Xj, e_X,j+1))   X = A, B
    alpha ~ Normal(intercept_loc, intercept_sd)           log-odds at (c_A, c_B)
    s_X0 ~ Normal(slope_loc, slope_sd)
    s_X,j+1 - s_Xj ~ Normal(0, slope_step_sd)             (one random walk per model)
    logit eps ~ Normal(logit(floor_share * pi_hat), floor_sd)
    y_i ~ Bernoulli(P(y_i = 1))                           labelled items only

with the priors of :class:`PoolPairPriors`, knots of ``g_X`` at the ``j / (K + 1)``
quantiles of the labelled items' ``u_X`` and anchors ``c_X`` at their median. The slopes
are not constrained to be positive: given the other model's score, a model's score may
be negatively related to the label (with "hard negatives" that fool A but less so B,
the log-odds fall in A at fixed B). Constrained to increase (log slopes a random walk,
as in :func:`bayes_prc.pool.fit_pool`), the 90% interval covered only 68% of 100
selections on such a pool and 36% on the ``classifier`` pool of
``benchmarks/coverage_pool_compare.py``; its posterior was also curved enough that
importance sampling failed (Pareto ``k`` near 1). Linear in its parameters, the model
is a Bayesian logistic regression on ``2 (K + 1)`` basis functions (with the floor):
the posterior is nearly Gaussian. The log-odds are additive in
the two scores (exact for two scores that are jointly normal given the class with a
common covariance: linear discriminant analysis). The selection depends on the scores
only, so the design is ignorable (Rubin 1976; Gelman et al. 2013, ch. 8) and the
likelihood is the plain Bernoulli likelihood of the labelled items.

Sampler: posterior mode (L-BFGS-B, analytic gradient), Laplace covariance (analytic
Hessian), Student-t importance sampling with Pareto smoothing; when Pareto ``k > 0.7``
or the importance ESS is below the draws asked for, a tempered SMC
(:func:`._laplace.tempered_smc`) moves the proposals to the posterior, and a
:class:`ConvergenceWarning` says so when its moves are rarely accepted.

Paired pool APs per draw (:class:`PairPool`). The labelled items keep their labels; every
unlabelled item is drawn positive with its probability under the draw, **once**, and that
one labelling of the pool is ranked by both models. Each model's AP is scikit-learn's
step definition with tied scores grouped: ``AP = (1 / P) sum_{positives i} TP(e_i) /
e_i``, ``e_i`` the number of pool items scoring at least ``s_i`` (the end of ``i``'s tie
group) and ``TP(e_i)`` the positives among them. Only the positives' ``e`` are sorted
(``O(P log P)`` per draw and model); the draws go in chunks, so memory is
``O(chunk x n_pool)``.

References
----------
.. [1] D. B. Rubin, "Inference and missing data", Biometrika 63 (1976) 581-592.
.. [2] A. Gelman, J. B. Carlin, H. S. Stern, D. B. Dunson, A. Vehtari and D. B. Rubin,
   *Bayesian Data Analysis*, 3rd ed., CRC Press (2013), ch. 8 (ignorable designs).
.. [3] A. Vehtari, D. Simpson, A. Gelman, Y. Yao and J. Gabry, "Pareto smoothed
   importance sampling", J. Mach. Learn. Res. 25(72) (2024) 1-58.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from .._core import plain
from ..bayes import (
    KHAT_OK,
    PriorsBase,
    importance_summary,
    proposal_chol,
    psis,
    systematic,
    t_draws,
    tempered_smc,
)
from ..exceptions import ConvergenceWarning
from ._model import (
    _item_derivatives,
    calibration_basis,
    pool_normal_scores,
    prevalence_estimate,
)

__all__ = ["PairData", "PairPool", "PoolPairPriors", "fit_pool_pair", "pair_log_posterior"]


@dataclass(frozen=True)
class PoolPairPriors(PriorsBase):
    """Prior of the joint calibration model of two classifiers on a pool.

    Parameters
    ----------
    intercept_loc, intercept_sd : float, default -2, 2.5
        ``alpha``: the log-odds of a positive at both labelled medians.
    slope_loc, slope_sd : float, default 0.5, 1.5
        ``s_X0 ~ Normal``: the slope of each model's lowest segment (log-odds per unit
        of ``u``, the probit of the pool rank).
    slope_step_sd : float, default 0.75
        Random-walk step of the slopes from one segment to the next (each model).
    n_knots : int, default 6
        Knots of each ``g_X`` (``K + 1`` segments).
    floor_share : float in [0, 1), default 0.05
        Prior median of the floor ``eps`` as a share of the Horvitz-Thompson prevalence.
    floor_sd : float, default 2
        Prior standard deviation of ``logit eps``.
    """

    intercept_loc: float = -2.0
    intercept_sd: float = 2.5
    slope_loc: float = 0.5
    slope_sd: float = 1.5
    slope_step_sd: float = 0.75
    n_knots: int = 6
    floor_share: float = 0.05
    floor_sd: float = 2.0

    def __post_init__(self):
        self._check_fields(
            any_sign=("intercept_loc", "slope_loc", "floor_share"), integers=("n_knots",)
        )
        if not 0.0 <= self.floor_share < 1.0:
            raise ValueError(
                f"`priors.floor_share` must be in [0, 1); got {plain(self.floor_share)}"
            )


#: Importance-sampling proposals (at least)
_PROPOSALS = 4000
#: Particles and Metropolis moves per tempering step of the SMC fallback
_PARTICLES = 2000
_MOVES = 6
#: Posterior draws per chunk when labelling the pool (memory ~ 3 x 8 x chunk x n_pool).
_CHUNK = 16


class PairData:
    """The labelled items on both models' scales: bases, labels, prior pieces.

    ``theta = (alpha, s_A0..A K, s_B0..B K[, logit eps])``.
    """

    def __init__(self, u_a, u_b, indices, is_pos, priors, prevalence):
        self.indices = np.asarray(indices)
        self.y = np.asarray(is_pos, dtype=np.float64)
        levels = np.arange(1, priors.n_knots + 1) / (priors.n_knots + 1)
        self.knots, self.anchors, hs = [], [], []
        for u_pool in (u_a, u_b):
            u = u_pool[self.indices]
            knots = np.unique(np.quantile(u, levels))
            anchor = float(np.median(u))
            self.knots.append(knots)
            self.anchors.append(anchor)
            hs.append(calibration_basis(u, knots, anchor))
        self.k_a, self.k_b = hs[0].shape[1], hs[1].shape[1]
        self.h = np.concatenate(hs, axis=1)  # (n, k_a + k_b)
        self.has_floor = priors.floor_share > 0
        self.floor_loc = (
            float(special.logit(priors.floor_share * prevalence)) if self.has_floor else None
        )
        self.floor_sd = priors.floor_sd
        # Gaussian prior of (alpha, log slopes): mean and precision
        k = self.k_a + self.k_b
        mean = np.concatenate([[priors.intercept_loc], np.full(k, priors.slope_loc)])
        prec = np.zeros((k + 1, k + 1))
        prec[0, 0] = 1 / priors.intercept_sd**2
        for start, size in ((1, self.k_a), (1 + self.k_a, self.k_b)):
            prec[start, start] += 1 / priors.slope_sd**2
            for j in range(start, start + size - 1):
                step = 1 / priors.slope_step_sd**2
                prec[j, j] += step
                prec[j + 1, j + 1] += step
                prec[j, j + 1] -= step
                prec[j + 1, j] -= step
        # the random walk's level is set by the first slope's prior: only its steps are
        # penalized (their differences do not see the mean)
        self.prior_mean, self.prior_prec = mean, prec
        self.dim = k + 1 + int(self.has_floor)

    def split(self, theta):
        """``(alpha, slopes_a, slopes_b, floor)`` of rows ``theta``."""
        k = self.k_a + self.k_b
        floor = special.expit(theta[:, k + 1]) if self.has_floor else np.zeros(theta.shape[0])
        return theta[:, 0], theta[:, 1 : 1 + self.k_a], theta[:, 1 + self.k_a : k + 1], floor

    def _prior(self, x):
        """Log prior of the Gaussian block (rows ``x`` of (alpha, log slopes))."""
        d = x - self.prior_mean
        return -0.5 * np.sum((d @ self.prior_prec) * d, axis=1)


def _softplus(x):
    """``log(1 + exp(x))``, stable (several times faster than ``np.logaddexp(0, x)``)."""
    out = np.abs(x)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(x, 0.0)
    return out


def pair_log_posterior(theta, data):
    """Unnormalized log posterior of rows ``theta``; non-finite -> ``-inf``."""
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    k = data.k_a + data.k_b
    pos = data.y > 0
    with np.errstate(over="ignore", invalid="ignore"):
        slopes = theta[:, 1 : k + 1]
        f_pos = theta[:, :1] + slopes @ data.h[pos].T
        f_neg = theta[:, :1] + slopes @ data.h[~pos].T
        if data.has_floor:
            eta = theta[:, k + 1 : k + 2]
            log_1m_eps = -np.logaddexp(0.0, eta)
            eps = np.exp(eta + log_1m_eps)  # expit(eta)
            # negatives: log(1 - eps) + log(1 - expit f); positives: log(eps + (1 - eps) expit f)
            ll = np.sum(log_1m_eps - _softplus(f_neg), axis=1)
            ll = ll + np.sum(np.log(eps + (1.0 - eps) * special.expit(f_pos)), axis=1)
            ll = ll - 0.5 * ((theta[:, k + 1] - data.floor_loc) / data.floor_sd) ** 2
        else:
            ll = np.sum(f_pos, axis=1) - np.sum(_softplus(f_pos), axis=1)
            ll = ll - np.sum(_softplus(f_neg), axis=1)
        out = ll + data._prior(theta[:, : k + 1])
    out[~np.isfinite(out)] = -np.inf
    return out


def _grad_hess(theta, data):
    """Analytic gradient and Hessian of the log posterior at one ``theta``."""
    k = data.k_a + data.k_b
    f = theta[0] + data.h @ theta[1 : k + 1]
    eta = theta[k + 1] if data.has_floor else None
    l_f, l_ff, l_e, l_ee, l_fe = _item_derivatives(f, eta, data.y)
    d = np.concatenate([np.ones((data.h.shape[0], 1)), data.h], axis=1)  # df/dtheta
    grad, hess = np.zeros(theta.size), np.zeros((theta.size, theta.size))
    grad[: k + 1] = d.T @ l_f
    hess[: k + 1, : k + 1] = (d * l_ff[:, None]).T @ d
    if data.has_floor:
        grad[k + 1] = l_e.sum() - (eta - data.floor_loc) / data.floor_sd**2
        hess[k + 1, k + 1] = l_ee.sum() - 1 / data.floor_sd**2
        hess[: k + 1, k + 1] = hess[k + 1, : k + 1] = d.T @ l_fe
    grad[: k + 1] -= data.prior_prec @ (theta[: k + 1] - data.prior_mean)
    hess[: k + 1, : k + 1] -= data.prior_prec
    return grad, hess


def _mode(data):
    rate0 = (data.y.sum() + 0.5) / (data.y.size + 1.0)
    x0 = np.concatenate([[special.logit(rate0)], data.prior_mean[1:]])
    if data.has_floor:
        x0 = np.append(x0, data.floor_loc)

    def fun(x):
        lp = pair_log_posterior(x, data)[0]
        if not np.isfinite(lp):
            return np.inf, np.zeros_like(x)
        return -lp, -_grad_hess(x, data)[0]

    res = optimize.minimize(fun, x0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    return res.x


def sample_pair_laplace(data, *, draws, rng, n_proposals=None):
    """Posterior draws (rows of ``theta``): Laplace + Student-t importance sampling, and a
    tempered SMC when the importance weights are not good enough.

    The posterior is nearly Gaussian (a logistic regression, plus the floor): Pareto
    ``k`` is usually below 0.5 and the Kish ESS about half the proposals. When ``k >
    0.7`` or the ESS is below ``draws``, the proposals are moved to the posterior by
    :func:`._laplace.tempered_smc` (Student-t to posterior, random-walk Metropolis
    moves), as the flexible model's fallback.

    Returns ``(theta (draws, D), importance)`` with ``importance`` as
    :func:`._laplace.importance_summary` (``khat``, ``ess``, ``n_distinct``, ``smc``, ...).
    """
    draws = int(draws)
    m = int(n_proposals) if n_proposals is not None else max(_PROPOSALS, 2 * draws)
    mode = _mode(data)
    evals, evecs = np.linalg.eigh(-_grad_hess(mode, data)[1])
    chol = proposal_chol((evecs / np.maximum(evals, 1e-2)) @ evecs.T)
    x, log_q = t_draws(rng, mode, chol, m)
    log_p = pair_log_posterior(x, data)
    lw, khat = psis(log_p - log_q)
    w = np.exp(lw)
    ess = float(1.0 / np.sum(w * w))
    smc = None
    if khat <= KHAT_OK and ess >= draws:
        theta = x[rng.permutation(systematic(rng, w, draws))]
    else:
        n_part = min(max(draws, _PARTICLES), m)
        xs, steps, acc, smc_ess = tempered_smc(
            rng,
            x[:n_part].copy(),
            log_q[:n_part].copy(),
            log_p[:n_part].copy(),
            mode,
            chol,
            lambda t: pair_log_posterior(t, data),
            n_moves=_MOVES,
        )
        smc = {"steps": steps, "acceptance": acc, "ess": smc_ess}
        if acc < 0.05:
            warnings.warn(
                f"the paired pool model's sampler may be unreliable: importance sampling "
                f"has Pareto k-hat = {khat:.2f} and the tempered SMC fallback accepted only "
                f"{acc:.1%} of its moves; compare with method='design'",
                ConvergenceWarning,
                stacklevel=4,
            )
        theta = xs[rng.permutation(n_part)[:draws]]
    return theta, importance_summary(
        khat,
        lw,
        theta,
        ess_used=None if smc is None else smc["ess"],
        n_proposals=m,
        mode=mode,
        smc=smc,
    )


def build_pair_model(data):
    """The PyMC model of :class:`PairData` (a reference for the fast sampler's tests)."""
    import pymc as pm

    k = data.k_a + data.k_b
    mean, prec = data.prior_mean, data.prior_prec
    with pm.Model() as model:
        x = pm.MvNormal("x", mu=mean, tau=prec, shape=k + 1)
        f = x[0] + pm.math.dot(data.h, x[1:])
        if data.has_floor:
            eta = pm.Normal("logit_floor", data.floor_loc, data.floor_sd)
            floor = pm.math.invlogit(eta)
            pm.Bernoulli("y", p=floor + (1 - floor) * pm.math.invlogit(f), observed=data.y)
        else:
            pm.Bernoulli("y", logit_p=f, observed=data.y)
    return model


def _group_ends(score):
    """Per item: the number of pool items scoring at least its score (1-based end of its
    tie group in the descending order)."""
    asc = np.sort(score)
    return (score.size - np.searchsorted(asc, score, side="left")).astype(np.int64)


class PairPool:
    """The pool seen by both models: what each posterior draw needs to label and rank it.

    Parameters
    ----------
    score_a, score_b : ndarray of shape (N,)
    data : PairData
    u_a, u_b : ndarray of shape (N,)
        Normal scores of the pool ranks.
    """

    def __init__(self, score_a, score_b, data, u_a, u_b):
        n = score_a.shape[0]
        self.n = n
        labelled = np.zeros(n, dtype=bool)
        labelled[data.indices] = True
        self.unlabelled = np.flatnonzero(~labelled)
        self.known_pos = np.sort(data.indices[data.y > 0])
        hu = [
            calibration_basis(u[self.unlabelled], knots, anchor)
            for u, knots, anchor in zip((u_a, u_b), data.knots, data.anchors, strict=True)
        ]
        self.h_unlabelled = np.ascontiguousarray(np.concatenate(hu, axis=1).T, np.float32)
        self.ends = (_group_ends(score_a), _group_ends(score_b))
        self.data = data

    def simulate(self, theta, rng):
        """Positives of the pool for draws ``theta`` (S, D): ``(draw, item)`` index pairs.

        Labelled positives for every draw, plus each unlabelled item with its
        probability under the draw (one uniform per draw and item).
        """
        d = self.data
        alpha, ls_a, ls_b, floor = d.split(theta)
        # float32: the probabilities to 1e-7, at half the cost of float64
        slopes = np.concatenate([ls_a, ls_b], axis=1).astype(np.float32)
        f = slopes @ self.h_unlabelled
        f += alpha.astype(np.float32)[:, None]
        special.expit(f, out=f)
        f *= (1.0 - floor).astype(np.float32)[:, None]
        f += floor.astype(np.float32)[:, None]
        hit = rng.random(f.shape, dtype=np.float32) < f
        draw, col = np.nonzero(hit)
        s = theta.shape[0]
        kp = self.known_pos
        draw = np.concatenate([draw, np.repeat(np.arange(s), kp.size)])
        item = np.concatenate([self.unlabelled[col], np.tile(kp, s)])
        return draw, item

    def average_precision(self, draw, item, n_draws, model):
        """AP per draw (n_draws,) of the labelling given by positives ``(draw, item)``,
        ranked by model ``model`` (0 = A, 1 = B); scikit-learn's step definition."""
        e = self.ends[model][item]
        key = np.sort(draw * (self.n + 1) + e)
        d = key // (self.n + 1)
        e = (key - d * (self.n + 1)).astype(np.float64)
        count = np.bincount(d, minlength=n_draws)
        start = np.concatenate([[0], np.cumsum(count)[:-1]])
        tp = np.searchsorted(key, key, side="right") - start[d]
        num = np.bincount(d, weights=tp / e, minlength=n_draws)
        with np.errstate(invalid="ignore", divide="ignore"):
            return num / count

    def ap_draws(self, theta, rng, chunk=_CHUNK):
        """Both models' pool AP for every draw (rows of ``theta``): two (S,) arrays."""
        out_a, out_b = [], []
        for start in range(0, theta.shape[0], chunk):
            t = theta[start : start + chunk]
            draw, item = self.simulate(t, rng)
            out_a.append(self.average_precision(draw, item, t.shape[0], 0))
            out_b.append(self.average_precision(draw, item, t.shape[0], 1))
        return np.concatenate(out_a), np.concatenate(out_b)


def fit_pool_pair(score_a, score_b, indices, is_pos, inclusion_prob, *, priors, draws, rng):
    """Posterior draws of both pool APs under the joint calibration model.

    Parameters
    ----------
    score_a, score_b : ndarray of shape (N,)
        Validated pool scores.
    indices, is_pos, inclusion_prob : ndarray
        The selection's labelled items, their labels and inclusion probabilities (these
        only centre the floor's prior, through the Horvitz-Thompson prevalence).
    priors : PoolPairPriors or dict or None
    draws : int
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``ap_a``, ``ap_b`` (draws,), ``theta`` (draws, D), ``importance``, ``data``.
    """
    priors = PoolPairPriors.from_any(priors)
    n = score_a.shape[0]
    u_a, u_b = pool_normal_scores(score_a), pool_normal_scores(score_b)
    prevalence = prevalence_estimate(is_pos, inclusion_prob, n)
    data = PairData(u_a, u_b, indices, is_pos, priors, prevalence)
    theta, importance = sample_pair_laplace(data, draws=draws, rng=rng)
    pool = PairPool(score_a, score_b, data, u_a, u_b)
    ap_a, ap_b = pool.ap_draws(theta, rng)
    return {
        "ap_a": ap_a,
        "ap_b": ap_b,
        "theta": theta,
        "importance": importance,
        "data": data,
        "pool": pool,
    }
