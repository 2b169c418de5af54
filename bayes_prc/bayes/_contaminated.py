r"""The contaminated binormal (rank-based) model: a precision ceiling below 1.

numpy/scipy only: the model, its log posterior and its fast sampler
(``fit_binormal(model="contaminated")``); the PyMC version of the same model, the NUTS
reference, is :func:`._model.build_contaminated_model`. One of the three models pooled by
the recommended band of :func:`bayes_prc.compare_bands` (:func:`averaged_pr_band`).

Why: the binormal curve always tends to precision 1 as recall goes to 0, so where some
items that look certain are labelled negative (label noise, hard negatives) its bands sit
above the true curve exactly where people read them. In this model each class borrows a
small share of the other's latent distribution (same ordered categories and latent scale
as :mod:`._semiparametric`)::

    prevalence   ~ Beta(a, b)
    mu           ~ Normal(0, mu_sd)
    sigma        ~ LogNormal(0, log_sigma_sd)
    eps_neg      ~ Beta(contamination_alpha, contamination_beta)   negatives scoring like positives
    eps_pos      ~ Beta(contamination_alpha, contamination_beta)   positives scoring like negatives
    cutpoints    ~ Normal(0, cutpoint_sd), ordered
    negatives    ~ (1 - eps_neg) N(0, 1) + eps_neg N(mu, sigma)      (latent)
    positives    ~ (1 - eps_pos) N(mu, sigma) + eps_pos N(0, 1)

so the precision tends to ``pi (1 - eps_pos) / (pi (1 - eps_pos) + (1 - pi) eps_neg)`` at
recall 0 (for ``sigma >= 1``). With ``eps = 0`` it is the semiparametric binormal model.
The contamination prior must be tight (default Beta(1, 200), mean 0.005): few positives
inform the top of the ranking, and a looser prior (Beta(1, 15)) put a ceiling the data do
not ask for on binormal data (whole-curve band coverage 0.45 instead of 0.92 at n = 200;
``benchmarks/study_band_models.py``). Too tight has its own cost: with 8% hard
negatives in n = 4000 items the Beta(1, 200) posterior of ``eps_neg`` has median 0.008
(99% interval [0, 0.053]); Beta(1, 15) recovers 0.082 [0.043, 0.126]. And every draw has
a ceiling below 1, so where the true precision is 1 at low recall (well separated tops)
the band alone misses it: that is why the library pools this model with the binormal
and the flexible ones instead of using it alone.

Fast sampler: the posterior mode of the unconstrained vector ``(c_1, log(c_k - c_{k-1}),
mu, log sigma, logit eps_neg, logit eps_pos)`` (L-BFGS-B, central differences), the
Laplace covariance and Student-t importance sampling with Pareto smoothing, adapting the
proposal while ``k > 0.7`` (:func:`~._laplace.adaptive_importance`); when ``k`` stays
above 0.7, a tempered SMC sampler from the Laplace proposal
(:func:`~._laplace.tempered_smc`, as the flexible model's).

References: label noise in ROC analysis as a mixture of the class distributions
(contaminated binormal model, Dorfman, Berbaum & Brandser 2000, "A contaminated binormal
model for ROC data", Academic Radiology 7: 420-426).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..exceptions import ConvergenceWarning
from ._flexible import FlexibleROCModel
from ._laplace import (
    KHAT_OK,
    adaptive_importance,
    fd_mode,
    fd_neg_hessian,
    importance_summary,
    proposal_chol,
    systematic,
    t_draws,
    tempered_smc,
)
from ._ordinal import bin_log_probs
from ._priors import _Priors
from ._semiparametric import initial_cutpoints, starting_mu

__all__ = [
    "ContaminatedPriors",
    "contaminated_category_log_probs",
    "contaminated_log_posterior",
    "contaminated_model",
    "sample_contaminated_laplace",
]


@dataclass(frozen=True)
class ContaminatedPriors(_Priors):
    """Prior of the contaminated binormal model (see the module docstring).

    Examples
    --------
    >>> from bayes_prc.bayes._contaminated import ContaminatedPriors
    >>> ContaminatedPriors().contamination_beta
    200.0
    """

    prevalence_alpha: float = 1.0
    prevalence_beta: float = 1.0
    mu_sd: float = 3.0
    log_sigma_sd: float = 1.0
    cutpoint_sd: float = 5.0
    contamination_alpha: float = 1.0
    contamination_beta: float = 200.0

    def __post_init__(self):
        self._check_fields()


def contaminated_category_log_probs(cutpoints, mu, sigma, eps_neg, eps_pos):
    """Log category probabilities of both classes, shape ``(2, S, K)``.

    ``cutpoints`` (S, K - 1) increasing; ``mu``, ``sigma``, ``eps_neg``, ``eps_pos`` (S,).
    """
    c = np.atleast_2d(np.asarray(cutpoints, dtype=np.float64))
    a = bin_log_probs(c)  # N(0, 1)
    b = bin_log_probs(c, mu, sigma)  # N(mu, sigma)
    e0 = np.asarray(eps_neg, dtype=np.float64)[..., None]
    e1 = np.asarray(eps_pos, dtype=np.float64)[..., None]
    with np.errstate(divide="ignore"):
        neg = np.logaddexp(np.log1p(-e0) + a, np.log(e0) + b)
        pos = np.logaddexp(np.log1p(-e1) + b, np.log(e1) + a)
    return np.stack([neg, pos])


def _unpack(theta, k):
    """Unconstrained rows (S, D) -> cutpoints, mu, log sigma, logit eps (2), log-Jacobian."""
    nc = k - 1
    c = theta[:, :nc]
    cut = np.cumsum(np.concatenate([c[:, :1], np.exp(c[:, 1:])], axis=1), axis=1)
    rest = theta[:, nc:]
    return cut, rest[:, 0], rest[:, 1], rest[:, 2], rest[:, 3], c[:, 1:].sum(axis=1)


def contaminated_log_posterior(theta, counts, priors):
    """Unnormalized log posterior of unconstrained rows ``theta`` (S, K + 3).

    The prevalence is left out (its posterior is Beta(a + n_pos, b + n_neg), independent
    of the rest). The Beta priors of the shares are taken on the logit scale with their
    Jacobian: ``alpha log(eps) + beta log(1 - eps)``. Non-finite values become ``-inf``.
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    cut, mu, log_sigma, z0, z1, log_jac = _unpack(theta, counts.shape[1])
    e0, e1 = special.expit(z0), special.expit(z1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        lp = contaminated_category_log_probs(cut, mu, np.exp(log_sigma), e0, e1)
        n = counts[:, None, :].astype(np.float64)
        ll = np.sum(np.where(n > 0, n * lp, 0.0), axis=(0, 2))
    ca, cb = priors.contamination_alpha, priors.contamination_beta
    prior = (
        -0.5 * np.sum(cut * cut, axis=1) / priors.cutpoint_sd**2
        - 0.5 * (mu / priors.mu_sd) ** 2
        - 0.5 * (log_sigma / priors.log_sigma_sd) ** 2
        + ca * special.log_expit(z0)
        + cb * special.log_expit(-z0)
        + ca * special.log_expit(z1)
        + cb * special.log_expit(-z1)
    )
    out = ll + prior + log_jac
    out[~np.isfinite(out)] = -np.inf
    return out


def _initial_theta(counts, priors):
    mu = starting_mu(counts)
    cut = initial_cutpoints(counts, np.array([mu]), np.array([1.0]))[0]
    z = special.logit(
        priors.contamination_alpha / (priors.contamination_alpha + priors.contamination_beta)
    )
    return np.concatenate([cut[:1], np.log(np.diff(cut)), [mu, 0.0, z, z]])


def sample_contaminated_laplace(data, priors, *, draws, chains, rng, n_proposals=None):
    """Draws from the contaminated binormal posterior (Laplace + PSIS importance sampling).

    Parameters
    ----------
    data : OrdinalData
    priors : ContaminatedPriors
    draws, chains : int
    rng : numpy.random.Generator
    n_proposals : int, optional
        Default ``max(4000, 2 * chains * draws)``.

    Returns
    -------
    dict
        ``prevalence``, ``mu``, ``sigma``, ``eps_neg``, ``eps_pos`` (chains, draws),
        ``cutpoints`` (chains, draws, K - 1) and ``importance``: ``khat``, ``ess``
        (Kish's ``1 / sum(w**2)``), ``n_distinct``, ``ess_draws``, ``adaptations``.
    """
    counts = data.counts
    n0, n1 = counts.sum(axis=1)
    shape = (int(chains), int(draws))
    total = shape[0] * shape[1]
    m = int(n_proposals) if n_proposals is not None else max(4000, 2 * total)
    log_post = lambda t: contaminated_log_posterior(t, counts, priors)  # noqa: E731
    mode = fd_mode(log_post, _initial_theta(counts, priors), {"maxiter": 3000})
    neg_hess = fd_neg_hessian(log_post, mode)
    x, lw, khat, adaptations = adaptive_importance(rng, log_post, mode, neg_hess, m)
    w = np.exp(lw)
    smc = None
    if khat > KHAT_OK:  # the adapted proposal is still not close enough: temper to the posterior
        evals, evecs = np.linalg.eigh(0.5 * (neg_hess + neg_hess.T))
        chol = proposal_chol((evecs / np.maximum(evals, 1e-2)) @ evecs.T)
        n_part = max(total, 2000)
        xq, log_q = t_draws(rng, mode, chol, n_part)
        xs, steps, acc, smc_ess = tempered_smc(rng, xq, log_q, log_post(xq), mode, chol, log_post)
        smc = {"steps": steps, "acceptance": acc, "ess": smc_ess}
        if acc < 0.05:
            warnings.warn(
                f"the contaminated model's fast sampler may be unreliable: importance "
                f"sampling has Pareto k-hat = {khat:.2f} (> {KHAT_OK}) and the tempered SMC "
                f"fallback accepted only {acc:.1%} of its moves; use method='nuts' for "
                "this data",
                ConvergenceWarning,
                stacklevel=4,
            )
        x, pick = xs, rng.permutation(n_part)[:total]
    else:
        pick = rng.permutation(systematic(rng, w, total))
    importance = importance_summary(
        khat,
        lw,
        x[pick],
        ess_used=None if smc is None else smc["ess"],
        adaptations=adaptations,
        smc=smc,
    )
    cut, mu, log_sigma, z0, z1, _ = _unpack(x[pick], counts.shape[1])
    return {
        "prevalence": rng.beta(priors.prevalence_alpha + n1, priors.prevalence_beta + n0, shape),
        "mu": mu.reshape(shape),
        "sigma": np.exp(log_sigma).reshape(shape),
        "eps_neg": special.expit(z0).reshape(shape),
        "eps_pos": special.expit(z1).reshape(shape),
        "cutpoints": cut.reshape(*shape, -1),
        "importance": importance,
    }


def contaminated_model(mu, sigma, eps_neg, eps_pos, prevalence):
    """The analytic PR model of parameter draws (latent scale): a two-component normal
    mixture per class, as a :class:`~._flexible.FlexibleROCModel` (a
    :class:`~bayes_prc.models.NormalMixtureScoreModel` with per-draw operating points).

    Examples
    --------
    >>> from bayes_prc.bayes._contaminated import contaminated_model
    >>> m = contaminated_model(2.0, 1.0, 0.05, 0.0, 0.2)
    >>> round(float(m.precision_at_recall(0.001)), 3)  # ceiling 0.2 / (0.2 + 0.8 * 0.05)
    0.833
    """
    mu, sigma, e0, e1 = (np.asarray(v, dtype=np.float64) for v in (mu, sigma, eps_neg, eps_pos))
    one, zero = np.ones_like(mu), np.zeros_like(mu)
    return FlexibleROCModel(
        np.stack([1 - e1, e1], -1),
        np.stack([mu, zero], -1),
        np.stack([sigma, one], -1),
        prevalence,
        weights_neg=np.stack([1 - e0, e0], -1),
        means_neg=np.stack([zero, mu], -1),
        sds_neg=np.stack([one, sigma], -1),
    )
