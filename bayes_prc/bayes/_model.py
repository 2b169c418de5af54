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

__all__ = ["build_model", "sample_nuts"]

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


def sample_nuts(model, *, draws, chains, tune, random_seed, progressbar, cores, target_accept):
    """Run PyMC's NUTS; returns the ArviZ DataTree."""
    import pymc as pm

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


def build_semiparametric_model(data, priors):
    """The PyMC semiparametric binormal model (two-group ordered probit on category counts).

    See :mod:`._semiparametric` for the model. ``data`` is an :class:`OrdinalData`;
    ``priors`` a :class:`SemiparametricPriors`.
    """
    import pymc as pm
    import pytensor.tensor as pt
    from pymc.distributions.transforms import ordered

    from ._semiparametric import initial_cutpoints

    counts = data.counts
    n0, n1 = (int(v) for v in counts.sum(axis=1))
    k = data.n_categories
    coords = {"category": np.arange(k), "cutpoint": np.arange(k - 1)}
    init = initial_cutpoints(counts, np.array([1.0]), np.array([1.0]))[0]
    with pm.Model(coords=coords) as model:
        prevalence = pm.Beta("prevalence", priors.prevalence_alpha, priors.prevalence_beta)
        mu = pm.Normal("mu", 0.0, priors.mu_sd)
        sigma = pm.LogNormal("sigma", 0.0, priors.log_sigma_sd)
        cut = pm.Normal(
            "cutpoints",
            0.0,
            priors.cutpoint_sd,
            dims="cutpoint",
            transform=ordered,
            initval=init,
        )
        pm.Binomial("n_pos", n=n0 + n1, p=prevalence, observed=n1)

        def probs(z):
            cdf = pm.math.invprobit(z)
            full = pt.concatenate([pt.zeros(1), cdf, pt.ones(1)])
            return pt.clip(full[1:] - full[:-1], 1e-300, 1.0)

        pm.Multinomial("counts_neg", n=n0, p=probs(cut), observed=counts[0], dims="category")
        pm.Multinomial(
            "counts_pos", n=n1, p=probs((cut - mu) / sigma), observed=counts[1], dims="category"
        )
    return model
