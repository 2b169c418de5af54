"""The PyMC binormal model (the only module of bayes_prc that imports PyMC).

Generative model on standardized scores, classes indexed ``class = ["neg", "pos"]``::

    prevalence       ~ Beta(a, b)
    sigma2[c]        ~ InverseGamma(alpha0, beta0)
    mu[c]            ~ Normal(m0, sqrt(sigma2[c] / kappa0))
    n_pos            ~ Binomial(n, prevalence)                         (observed)
    score_mean[c]    ~ Normal(mu[c], sqrt(sigma2[c] / n_c))             (observed)
    score_ss[c]      ~ Gamma((n_c - 1) / 2, rate = 1 / (2 sigma2[c]))   (observed, n_c >= 2)

For normal data the class mean and the sum of squared deviations are independent with
exactly these sampling distributions (S / sigma^2 ~ chi^2 with n_c - 1 degrees of
freedom), and their joint density is proportional in the parameters to the likelihood of
all n_c scores. So the posterior is exactly that of the full-data model while the cost
of one gradient does not depend on n; prior and posterior predictive sampling work
through PyMC and draw the sufficient statistics.
"""

from __future__ import annotations

import numpy as np

__all__ = ["build_model", "sample_nuts", "build_semiparametric_model", "build_flexible_model"]

_TINY_SS = 1e-300  # a class whose scores are all tied has S = 0; see build_model


def build_model(stats_neg, stats_pos, priors):
    """The :class:`pymc.Model` for the given sufficient statistics and priors."""
    import pymc as pm

    n = np.array([stats_neg.n, stats_pos.n], dtype=np.float64)
    means = np.array([stats_neg.mean, stats_pos.mean])
    coords = {"class": ["neg", "pos"]}
    with pm.Model(coords=coords) as model:
        prevalence = pm.Beta("prevalence", priors.prevalence_alpha, priors.prevalence_beta)
        sigma2 = pm.InverseGamma("sigma2", priors.sigma2_alpha, priors.sigma2_beta, dims="class")
        sigma = pm.Deterministic("sigma", pm.math.sqrt(sigma2), dims="class")
        mu = pm.Normal("mu", priors.mu_loc, sigma / np.sqrt(priors.mu_kappa), dims="class")
        pm.Binomial("n_pos", n=int(n.sum()), p=prevalence, observed=stats_pos.n)
        has = n > 0
        if has.all():
            pm.Normal("score_mean", mu, sigma / np.sqrt(n), observed=means, dims="class")
        else:  # pragma: no cover - fit_binormal requires both classes
            raise ValueError("both classes need at least one score")
        # S / sigma^2 ~ chi2(n - 1): only informative with two or more scores per class.
        # S = 0 (all scores of a class tied) has density 0 under the continuous model;
        # a tiny positive S changes the log-likelihood by a constant in the parameters.
        two = np.flatnonzero(n >= 2)
        if two.size:
            ss = np.array([stats_neg.ss, stats_pos.ss])[two]
            ss = np.maximum(ss, _TINY_SS)
            idx = two.tolist()
            pm.Gamma(
                "score_ss",
                alpha=(n[two] - 1) / 2,
                beta=1 / (2 * sigma2[idx]),
                observed=ss,
            )
    return model


def sample_nuts(model, *, rng, draws, chains, tune, progressbar, cores, target_accept):
    """Run PyMC's NUTS with one seed per chain drawn from ``rng``; returns the DataTree."""
    import pymc as pm

    random_seed = rng.integers(0, 2**31 - 1, size=int(chains)).tolist()
    with model:
        return pm.sample(
            draws=draws,
            tune=tune,
            chains=chains,
            cores=cores,
            random_seed=random_seed,
            progressbar=progressbar,
            target_accept=target_accept,
            compute_convergence_checks=False,
        )


def _bin_probs(z):
    """Probabilities of the K bins of N(0, 1) between edges ``z`` (..., K - 1) (PyTensor)."""
    import pymc as pm
    import pytensor.tensor as pt

    cdf = pm.math.invprobit(z)
    end = pt.zeros_like(z[..., :1])
    full = pt.concatenate([end, cdf, end + 1.0], axis=-1)
    return full[..., 1:] - full[..., :-1]


def _rank_model(data, priors, positives, extra_coords=None):
    """The PyMC model shared by the rank-based models (ordered probit on category counts).

    ``positives()`` is called inside the model after the prevalence: it creates the
    positives' latent parameters (before the cutpoints) and returns a function of the
    cutpoints giving the positives' category probabilities. Negatives are N(0, 1).
    """
    import pymc as pm
    import pytensor.tensor as pt
    from pymc.distributions.transforms import ordered

    from ._semiparametric import initial_cutpoints

    counts = data.counts
    n0, n1 = (int(v) for v in counts.sum(axis=1))
    k = data.n_categories
    coords = {"category": np.arange(k), "cutpoint": np.arange(k - 1), **(extra_coords or {})}
    init = initial_cutpoints(counts, np.array([1.0]), np.array([1.0]))[0]
    with pm.Model(coords=coords) as model:
        prevalence = pm.Beta("prevalence", priors.prevalence_alpha, priors.prevalence_beta)
        positive_probs = positives()
        cut = pm.Normal(
            "cutpoints",
            0.0,
            priors.cutpoint_sd,
            dims="cutpoint",
            transform=ordered,
            initval=init,
        )
        pm.Binomial("n_pos", n=n0 + n1, p=prevalence, observed=n1)
        for name, n, p, observed in (
            ("counts_neg", n0, _bin_probs(cut), counts[0]),
            ("counts_pos", n1, positive_probs(cut), counts[1]),
        ):
            p = pt.clip(p, 1e-300, 1.0)
            pm.Multinomial(name, n=n, p=p, observed=observed, dims="category")
    return model


def build_semiparametric_model(data, priors):
    """The PyMC semiparametric binormal model (two-group ordered probit on category counts).

    See :mod:`._semiparametric` for the model. ``data`` is an :class:`OrdinalData`;
    ``priors`` a :class:`SemiparametricPriors`.
    """
    import pymc as pm

    def positives():
        mu = pm.Normal("mu", 0.0, priors.mu_sd)
        sigma = pm.LogNormal("sigma", 0.0, priors.log_sigma_sd)
        return lambda cut: _bin_probs((cut - mu) / sigma)

    return _rank_model(data, priors, positives)


def build_flexible_model(data, priors):
    """The PyMC flexible ROC model: N(0, 1) latent negatives, a normal mixture of positives.

    See :mod:`._flexible` for the model (the NUTS reference of its fast sampler).
    ``data`` is an :class:`OrdinalData`; ``priors`` a :class:`FlexiblePriors`.
    """
    import pymc as pm
    import pytensor.tensor as pt
    from pymc.distributions.transforms import ordered

    j = priors.n_components

    def positives():
        weights = pm.Dirichlet("weights", a=np.full(j, priors.weight_alpha), dims="component")
        means = pm.Normal(
            "means",
            0.0,
            priors.mean_sd,
            dims="component",
            transform=ordered if j > 1 else None,
            initval=np.linspace(0.0, 2.0, j) if j > 1 else np.array([1.0]),
        )
        sds = pm.LogNormal("sds", 0.0, priors.log_sd_sd, dims="component")

        def probs(cut):  # (J, K) per component, weighted
            per_component = _bin_probs((cut[None, :] - means[:, None]) / sds[:, None])
            return pt.sum(weights[:, None] * per_component, axis=0)

        return probs

    return _rank_model(data, priors, positives, {"component": np.arange(j)})
