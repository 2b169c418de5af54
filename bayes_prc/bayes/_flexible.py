r"""The flexible (rank-based) ROC model: priors, log posterior, fast sampler, analytic model.

numpy/scipy only; the PyMC version of the same model is in :mod:`._model`.

Model (same ordered categories and latent scale as :mod:`._semiparametric`)::

    prevalence         ~ Beta(a, b)
    weights            ~ Dirichlet(weight_alpha, ..., weight_alpha)     (J components)
    means              ~ Normal(0, mean_sd), ordered (breaks label switching)
    sds                ~ LogNormal(0, log_sd_sd)
    cutpoints          ~ Normal(0, cutpoint_sd), ordered (K - 1 of them)
    counts[neg]        ~ Multinomial(n_neg, p_0(cutpoints))                latent N(0, 1)
    counts[pos]        ~ Multinomial(n_pos, sum_j w_j p_1(cutpoints, m_j, s_j))

The latent negatives are N(0, 1) and the latent positives a finite mixture of normals
(a semi-parametric Bayesian ROC model in the spirit of Erkanli et al. 2006 and Branscum
et al. 2008, with a sparse finite Dirichlet mixture instead of a Dirichlet process).
The ROC curve depends only on the positives' distribution relative to the negatives',
so with N(0, 1) negatives a normal mixture of positives approximates any ROC curve,
for instance the non-binormal curve of "hard negatives" (a subgroup of negatives scoring
like positives). ``weight_alpha < 1`` lets unneeded components empty out.

Fast sampler (``method="laplace"``)
-----------------------------------
On the unconstrained vector ``(c_1, log(c_k - c_{k-1}), logits of the weights (last
component the reference), m_1, log(m_j - m_{j-1}), log s_j)`` (with the log-Jacobians;
the Dirichlet density times the Jacobian of the softmax is ``sum_j alpha_j log w_j``):
the mode (L-BFGS-B, central-difference gradient), the Laplace covariance (second
differences), then importance sampling from a multivariate Student-t (5 degrees of
freedom) at the mode with that covariance. The importance weights are Pareto smoothed
(PSIS, Vehtari et al. 2024; ``arviz_stats``) and, when the Pareto ``k <= 0.7``, the
draws are resampled from them (systematic resampling, then shuffled). A sparse mixture's
posterior is rarely close to Gaussian (components that empty out, skewed weights), and
``k`` is often above 0.7 (0.8-1.1 on hard-negative data with n = 300-1000); then the
Student-t draws are moved to the posterior by an adaptive tempered SMC sampler (targets
``q^(1-b) p^b``, random-walk Metropolis moves; Del Moral, Doucet & Jasra 2006), which
agrees with NUTS in the tests. It warns (:class:`ConvergenceWarning`, suggesting
``method="nuts"``) when its moves are hardly ever accepted. ``posterior.importance``
holds ``khat``, the importance-sampling ``ess`` (and the normalized PSIS log weights)
and the SMC steps and acceptance. The returned draws are resampled, hence partly
duplicated, so ArviZ's ESS of them overstates their worth: ``diagnostics()`` and
``summary()`` report at most ``importance["ess_draws"]``, the importance-sampling ESS
(Kish's ``1 / sum(w**2)``; after the SMC fallback, the ESS of its last reweighting)
capped at the number of distinct draws.

References
----------
.. [1] A. Erkanli, M. Sung, E. J. Costello and A. Angold, "Bayesian semi-parametric ROC
   analysis", Stat. Med. 25 (2006) 3905-3928.
.. [2] A. J. Branscum, W. O. Johnson, T. E. Hanson and I. A. Gardner, "Bayesian
   semiparametric ROC curve estimation and disease diagnosis", Stat. Med. 27 (2008)
   2474-2496.
.. [3] A. Vehtari, D. Simpson, A. Gelman, Y. Yao and J. Gabry, "Pareto smoothed
   importance sampling", J. Mach. Learn. Res. 25(72) (2024) 1-58.
.. [4] P. Del Moral, A. Doucet and A. Jasra, "Sequential Monte Carlo samplers", J. R.
   Stat. Soc. B 68 (2006) 411-436.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..exceptions import ConvergenceWarning
from ..models import (
    NormalMixtureScoreModel,
)
from ._flexible_points import FlexibleOperatingPoints
from ._laplace import (
    fd_mode,
    fd_neg_hessian,
    importance_summary,
    psis,
    systematic,
    t_draws,
    tempered_smc,
)
from ._ordinal import bin_log_probs
from ._priors import _Priors

__all__ = [
    "FlexiblePriors",
    "FlexibleROCModel",
    "flexible_log_posterior",
    "mixture_category_log_probs",
    "sample_flexible_laplace",
]

_KHAT_WARN = 0.7


@dataclass(frozen=True)
class FlexiblePriors(_Priors):
    """Prior of the flexible ROC model (latent negatives N(0, 1), positives a mixture).

    Parameters
    ----------
    prevalence_alpha, prevalence_beta : float, default 1, 1
        Beta prior of the prevalence.
    n_components : int, default 3
        Number of normal components ``J`` of the positives' latent distribution.
    weight_alpha : float, default 0.5
        Symmetric sparse Dirichlet prior of the weights (< 1: components can empty out).
    mean_sd : float, default 3
        Ordered ``Normal(0, mean_sd)`` prior of the component means.
    log_sd_sd : float, default 0.75
        ``sds ~ LogNormal(0, log_sd_sd)``.
    cutpoint_sd : float, default 5
        Ordered ``Normal(0, cutpoint_sd)`` prior of the cutpoints.
    """

    prevalence_alpha: float = 1.0
    prevalence_beta: float = 1.0
    n_components: int = 3
    weight_alpha: float = 0.5
    mean_sd: float = 3.0
    log_sd_sd: float = 0.75
    cutpoint_sd: float = 5.0

    def __post_init__(self):
        self._check_fields(integers=("n_components",))


# ------------------------------------------------------------------------ likelihood
def mixture_bin_log_probs(cutpoints, log_weights, means, sds):
    """Log category probabilities (S, K) of a normal mixture (one class).

    ``cutpoints`` (S, K - 1) increasing; ``log_weights``, ``means``, ``sds`` (S, J): a
    log-sum-exp over components of ``log w_j + log(Phi(b_j) - Phi(a_j))`` (no underflow
    in the tails).
    """
    c = np.asarray(cutpoints, dtype=np.float64)
    comp = bin_log_probs(c[..., None, :], means, sds) + log_weights[..., :, None]  # (S, J, K)
    top = np.max(comp, axis=-2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(comp - top), axis=-2)) + top[..., 0, :]


def mixture_category_log_probs(cutpoints, log_weights, means, sds):
    """Log category probabilities, shape (2, S, K): N(0, 1) negatives, mixture positives.

    ``cutpoints`` (S, K - 1) increasing; ``log_weights``, ``means``, ``sds`` (S, J) of the
    positives (:func:`mixture_bin_log_probs`).
    """
    c = np.asarray(cutpoints, dtype=np.float64)
    return np.stack([bin_log_probs(c), mixture_bin_log_probs(c, log_weights, means, sds)])


def _unpack(theta, k, j):
    """Unconstrained rows (S, D) -> cutpoints, log weights, means, sds, log-Jacobian."""
    nc = k - 1
    c = theta[:, :nc]
    cut = np.cumsum(np.concatenate([c[:, :1], np.exp(c[:, 1:])], axis=1), axis=1)
    z = np.concatenate([theta[:, nc : nc + j - 1], np.zeros((theta.shape[0], 1))], axis=1)
    log_w = z - special.logsumexp(z, axis=1, keepdims=True)
    m = theta[:, nc + j - 1 : nc + 2 * j - 1]
    means = np.cumsum(np.concatenate([m[:, :1], np.exp(m[:, 1:])], axis=1), axis=1)
    log_sds = theta[:, nc + 2 * j - 1 :]
    log_jac = c[:, 1:].sum(axis=1) + m[:, 1:].sum(axis=1)
    return cut, log_w, means, log_sds, log_jac


def _pack(cut, weights, means, sds):
    """Constrained values (1-D) -> the unconstrained vector (inverse of :func:`_unpack`)."""
    lw = np.log(weights)
    return np.concatenate(
        [
            cut[:1],
            np.log(np.diff(cut)),
            lw[:-1] - lw[-1],
            means[:1],
            np.log(np.diff(means)),
            np.log(sds),
        ]
    )


def flexible_log_posterior(theta, counts, priors):
    """Unnormalized log posterior density of unconstrained rows ``theta`` (S, D).

    The prevalence is left out (its posterior is Beta(a + n_pos, b + n_neg),
    independent of the rest). Non-finite values become ``-inf``.
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    k, j = counts.shape[1], priors.n_components
    cut, log_w, means, log_sds, log_jac = _unpack(theta, k, j)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        lp = mixture_category_log_probs(cut, log_w, means, np.exp(log_sds))
        n = counts[:, None, :].astype(np.float64)
        ll = np.sum(np.where(n > 0, n * lp, 0.0), axis=(0, 2))
    prior = (
        -0.5 * np.sum(cut * cut, axis=1) / priors.cutpoint_sd**2
        + priors.weight_alpha * log_w.sum(axis=1)
        - 0.5 * np.sum(means * means, axis=1) / priors.mean_sd**2
        - 0.5 * np.sum(log_sds * log_sds, axis=1) / priors.log_sd_sd**2
    )
    out = ll + prior + log_jac
    out[~np.isfinite(out)] = -np.inf
    return out


# ------------------------------------------------------------------------ fast sampler
def _initial_theta(counts, priors):
    """Start: binormal-like positives from the empirical AUC, cutpoints from the pooled CDF."""
    from ._semiparametric import initial_cutpoints, starting_mu

    mu = starting_mu(counts)
    j = priors.n_components
    cut = initial_cutpoints(counts, np.array([mu]), np.array([1.0]))[0]
    means = mu + np.linspace(-1.0, 1.0, j) if j > 1 else np.array([mu])
    return _pack(cut, np.full(j, 1.0 / j), means, np.full(j, 0.8 if j > 1 else 1.0))


def _mode(counts, priors):
    """Posterior mode by L-BFGS-B with a batched central-difference gradient."""
    return fd_mode(
        lambda t: flexible_log_posterior(t, counts, priors),
        _initial_theta(counts, priors),
        {"maxiter": 2000, "maxcor": 30},
    )


def _neg_hessian(theta, counts, priors, h=1e-4):
    """Negative Hessian by second central differences, eigenvalues raised to 1e-2."""
    neg = fd_neg_hessian(lambda t: flexible_log_posterior(t, counts, priors), theta, h)
    evals, evecs = np.linalg.eigh(neg)
    evals = np.maximum(evals, 1e-2)  # flat or non-concave directions: cap the spread at 10
    return (evecs * evals) @ evecs.T


def _importance(rng, loc, chol, size, counts, priors):
    x, log_q = t_draws(rng, loc, chol, size)
    log_p = flexible_log_posterior(x, counts, priors)
    lw, khat = psis(log_p - log_q)
    return x, log_q, log_p, lw, khat


def sample_flexible_laplace(data, priors, *, draws, chains, rng, n_proposals=None):
    """Draws from the flexible ROC posterior: Laplace + Student-t IS (+ tempered SMC).

    Parameters
    ----------
    data : OrdinalData
    priors : FlexiblePriors
    draws, chains : int
    rng : numpy.random.Generator
    n_proposals : int, optional
        Importance-sampling proposals; default ``max(4000, 2 * chains * draws)``.

    Returns
    -------
    dict
        ``prevalence`` (chains, draws), ``weights``, ``means``, ``sds`` (chains, draws,
        J), ``cutpoints`` (chains, draws, K - 1) and ``importance``: ``khat`` (Pareto
        k-hat), ``ess`` (importance-sampling effective sample size, Kish's
        ``1 / sum(w**2)`` of the normalized PSIS weights), ``log_weights`` (those
        normalized log weights, one per proposal), ``n_distinct`` (distinct returned
        draws), ``ess_draws`` (the ESS the returned draws are worth: ``ess``, or the SMC's
        ``ess`` when it ran, capped at ``n_distinct``; reported by ``diagnostics()`` and
        ``summary()``), ``n_proposals``, ``mode`` (unconstrained) and ``smc`` (None, or
        the tempering ``steps``, the mean ``acceptance`` and the ``ess`` of the last
        reweighting of the SMC fallback used when k-hat > 0.7).
    """
    counts = data.counts
    n0, n1 = counts.sum(axis=1)
    shape = (int(chains), int(draws))
    total = shape[0] * shape[1]
    m = int(n_proposals) if n_proposals is not None else max(4000, 2 * total)
    mode = _mode(counts, priors)
    cov = np.linalg.inv(_neg_hessian(mode, counts, priors))
    chol = np.linalg.cholesky(0.5 * (cov + cov.T))
    x, log_q, log_p, lw, khat = _importance(rng, mode, chol, m, counts, priors)
    w = np.exp(lw)
    smc = None
    if khat > _KHAT_WARN:  # the Laplace proposal is not close enough: temper to the posterior
        n_part = min(max(total, 2000), m)
        xs, steps, acc, smc_ess = tempered_smc(
            rng,
            x[:n_part].copy(),
            log_q[:n_part].copy(),
            log_p[:n_part].copy(),
            mode,
            chol,
            lambda t: flexible_log_posterior(t, counts, priors),
        )
        smc = {"steps": steps, "acceptance": acc, "ess": smc_ess}
        if acc < 0.05:
            warnings.warn(
                f"the flexible model's fast sampler may be unreliable: importance sampling "
                f"from the Laplace approximation has Pareto k-hat = {khat:.2f} (> 0.7) and "
                f"the tempered SMC fallback accepted only {acc:.1%} of its moves; use "
                "method='nuts' for this data",
                ConvergenceWarning,
                stacklevel=4,
            )
        pick = rng.permutation(n_part)[:total]
        x = xs
    else:
        pick = rng.permutation(systematic(rng, w, total))
    # what the resampled draws are worth: the importance-sampling (or the SMC's last
    # reweighting) ESS, never more than the number of distinct draws
    importance = importance_summary(
        khat,
        lw,
        x[pick],
        ess_used=None if smc is None else smc["ess"],
        log_weights=lw,
        n_proposals=m,
        mode=mode,
        smc=smc,
    )
    cut, log_w, means, log_sds, _ = _unpack(x[pick], counts.shape[1], priors.n_components)
    prevalence = rng.beta(priors.prevalence_alpha + n1, priors.prevalence_beta + n0, shape)
    return {
        "prevalence": prevalence,
        "weights": np.exp(log_w).reshape(*shape, -1),
        "means": means.reshape(*shape, -1),
        "sds": np.exp(log_sds).reshape(*shape, -1),
        "cutpoints": cut.reshape(*shape, -1),
        "importance": importance,
    }


# ------------------------------------------------------------------------ analytic model
class FlexibleROCModel(FlexibleOperatingPoints, NormalMixtureScoreModel):
    """Analytic PR model of the rank-based mixture posteriors (flexible, contaminated).

    Parameters of shape ``batch_shape (+ (J,))`` on the latent scale; a
    :class:`NormalMixtureScoreModel` whose negatives are N(0, 1) (the flexible model) or
    a normal mixture (``weights_neg``, ``means_neg``, ``sds_neg``: the contaminated
    model, :mod:`._contaminated`), plus per-draw thresholds (``per_draw=True``), a
    closed-form ROC AUC and the operating points of
    :class:`~._flexible_points.FlexibleOperatingPoints` (``recall_at_precision``,
    ``threshold_at_precision``, ``max_fbeta``: over all thresholds, since a mixture's
    precision need not be monotone in the threshold).
    """

    def __init__(
        self, weights, means, sds, prevalence, weights_neg=None, means_neg=None, sds_neg=None
    ):
        prevalence = np.asarray(prevalence, dtype=np.float64)
        if weights_neg is None:
            weights_neg = np.ones(prevalence.shape + (1,))
            means_neg, sds_neg = np.zeros_like(weights_neg), weights_neg
        super().__init__(weights, means, sds, weights_neg, means_neg, sds_neg, prevalence)

    def roc_auc(self):
        """``P(X_pos > X_neg) = sum_ij v_i w_j Phi((m_j - n_i) / sqrt(s_j^2 + t_i^2))``."""
        z = (self.mu_pos[..., None, :] - self.mu_neg[..., :, None]) / np.sqrt(
            self.sigma_pos[..., None, :] ** 2 + self.sigma_neg[..., :, None] ** 2
        )
        w = self.weight_neg[..., :, None] * self.weight_pos[..., None, :]
        return np.sum(w * special.ndtr(z), axis=(-2, -1))

    def tpr_at_fpr(self, fpr):
        """True-positive rate at false-positive rate(s): shape ``batch_shape + np.shape(fpr)``."""
        f = np.asarray(fpr, dtype=np.float64)
        return np.exp(self._pos.log_sf(self._neg.isf(f, f.ndim), f.ndim))
