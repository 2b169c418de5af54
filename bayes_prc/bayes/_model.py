"""The PyMC models of the binormal fits and their NUTS entry point.

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

The data enter through :func:`pymc.Data` containers and the fits go through
:mod:`._compiled`, which compiles each model structure once per process.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

__all__ = [
    "binormal_data",
    "build_model",
    "priors_key",
    "rank_data",
    "sample_nuts",
    "sample_binormal_nuts",
    "sample_rank_nuts",
    "build_semiparametric_model",
    "build_flexible_model",
    "build_contaminated_model",
    "RANK_BUILDERS",
]

_TINY_SS = 1e-300  # a class whose scores are all tied has S = 0; see build_model


def priors_key(priors, exclude=()):
    """The prior's numbers as a hashable part of a model's structure key."""
    return (type(priors).__name__,) + tuple(
        (f.name, getattr(priors, f.name)) for f in fields(priors) if f.name not in exclude
    )


def _binormal_structure(stats_neg, stats_pos):
    n = np.array([stats_neg.n, stats_pos.n], dtype=np.float64)
    if not np.all(n > 0):  # pragma: no cover - fit_binormal requires both classes
        raise ValueError("both classes need at least one score")
    return n, np.flatnonzero(n >= 2)


def binormal_data(stats_neg, stats_pos):
    """The data containers of :func:`build_model` for these statistics."""
    n, two = _binormal_structure(stats_neg, stats_pos)
    # S / sigma^2 ~ chi2(n - 1): only informative with two or more scores per class.
    # S = 0 (all scores of a class tied) has density 0 under the continuous model;
    # a tiny positive S changes the log-likelihood by a constant in the parameters.
    ss = np.maximum(np.array([stats_neg.ss, stats_pos.ss], dtype=np.float64)[two], _TINY_SS)
    return {
        "n_total": np.int64(n.sum()),
        "n_pos_observed": np.int64(stats_pos.n),
        "class_n": n,
        "class_mean": np.array([stats_neg.mean, stats_pos.mean], dtype=np.float64),
        "ss_n": n[two],
        "ss_observed": ss,
    }


def build_model(stats_neg, stats_pos, priors):
    """The :class:`pymc.Model` for the given sufficient statistics and priors.

    The statistics sit in :func:`pymc.Data` containers (:func:`binormal_data`), so one
    compiled model serves every data set with the same classes of two or more scores.
    """
    import pymc as pm

    _, two = _binormal_structure(stats_neg, stats_pos)
    data = binormal_data(stats_neg, stats_pos)
    coords = {"class": ["neg", "pos"]}
    with pm.Model(coords=coords) as model:
        d = {name: pm.Data(name, value) for name, value in data.items()}
        prevalence = pm.Beta("prevalence", priors.prevalence_alpha, priors.prevalence_beta)
        sigma2 = pm.InverseGamma("sigma2", priors.sigma2_alpha, priors.sigma2_beta, dims="class")
        sigma = pm.Deterministic("sigma", pm.math.sqrt(sigma2), dims="class")
        mu = pm.Normal("mu", priors.mu_loc, sigma / np.sqrt(priors.mu_kappa), dims="class")
        pm.Binomial("n_pos", n=d["n_total"], p=prevalence, observed=d["n_pos_observed"])
        pm.Normal(
            "score_mean",
            mu,
            sigma / pm.math.sqrt(d["class_n"]),
            observed=d["class_mean"],
            dims="class",
        )
        if two.size:
            pm.Gamma(
                "score_ss",
                alpha=(d["ss_n"] - 1) / 2,
                beta=1 / (2 * sigma2[two.tolist()]),
                observed=d["ss_observed"],
            )
    return model


def sample_binormal_nuts(stats_neg, stats_pos, priors, **kwargs):
    """NUTS draws of :func:`build_model` through the compiled-model cache (:mod:`._compiled`)."""
    _, two = _binormal_structure(stats_neg, stats_pos)
    key = ("binormal", tuple(two.tolist()), priors_key(priors, exclude=("location", "scale")))
    return sample_nuts(
        key,
        lambda: build_model(stats_neg, stats_pos, priors),
        binormal_data(stats_neg, stats_pos),
        **kwargs,
    )


def sample_nuts(key, build, data, *, rng, sampler, coords=None, log_likelihood=None):
    """NUTS with one seed per chain drawn from ``rng``; returns the DataTree.

    The model of structure ``key`` is compiled once per process (``build()`` the first
    time) and given ``data`` (see :mod:`._compiled`); ``sampler`` is a
    :class:`~bayes_prc.bayes.SamplerOptions`.
    """
    from . import _compiled

    seeds = rng.integers(0, 2**31 - 1, size=int(sampler.chains)).tolist()
    return _compiled.sample(
        key,
        build,
        data,
        seeds=seeds,
        sampler=sampler,
        coords=coords,
        log_likelihood=log_likelihood,
    )


def _bin_probs(z):
    """Probabilities of the K bins of N(0, 1) between edges ``z`` (..., K - 1) (PyTensor)."""
    import pymc as pm
    import pytensor.tensor as pt

    cdf = pm.math.invprobit(z)
    end = pt.zeros_like(z[..., :1])
    full = pt.concatenate([end, cdf, end + 1.0], axis=-1)
    return full[..., 1:] - full[..., :-1]


def _rank_model(data, priors, positives, extra_coords=None, both_classes=False):
    """The PyMC model shared by the rank-based models (ordered probit on category counts).

    ``positives()`` is called inside the model after the prevalence: it creates the
    positives' latent parameters (before the cutpoints) and returns a function of the
    cutpoints giving the positives' category probabilities; negatives are N(0, 1). With
    ``both_classes`` that function returns both classes' probabilities ``(neg, pos)``.
    """
    import pymc as pm
    import pytensor.tensor as pt
    from pymc.distributions.transforms import ordered

    from ._semiparametric import initial_cutpoints

    k = data.n_categories
    coords = {"category": np.arange(k), "cutpoint": np.arange(k - 1), **(extra_coords or {})}
    # a start that depends on K only (so one compiled model serves all data with K
    # categories): the pooled CDF at the cutpoints equals k / K for equal class masses
    # (the categories are class-balanced, see _ordinal) when mu = sigma = 1
    init = initial_cutpoints(np.ones((2, k), dtype=np.int64), np.array([1.0]), np.array([1.0]))[0]
    with pm.Model(coords=coords) as model:
        d = {name: pm.Data(name, value) for name, value in rank_data(data).items()}
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
        pm.Binomial(
            "n_pos", n=d["n_neg"] + d["n_pos_observed"], p=prevalence, observed=d["n_pos_observed"]
        )
        neg, pos = positive_probs(cut) if both_classes else (_bin_probs(cut), positive_probs(cut))
        for name, n, p, observed in (
            ("counts_neg", d["n_neg"], neg, d["counts_neg_observed"]),
            ("counts_pos", d["n_pos_observed"], pos, d["counts_pos_observed"]),
        ):
            p = pt.clip(p, 1e-300, 1.0)
            pm.Multinomial(name, n=n, p=p, observed=observed, dims="category")
    return model


def rank_data(data):
    """The data containers of the rank-based models for :class:`OrdinalData` ``data``."""
    counts = np.asarray(data.counts, dtype=np.int64)
    return {
        "n_neg": np.int64(counts[0].sum()),
        "n_pos_observed": np.int64(counts[1].sum()),
        "counts_neg_observed": counts[0],
        "counts_pos_observed": counts[1],
    }


def sample_rank_nuts(model_name, data, priors, **kwargs):
    """NUTS draws of a rank-based model (:data:`RANK_BUILDERS`) through the compiled-model cache.

    One compiled model per ``model_name``, number of categories and prior.
    """
    key = (model_name, data.n_categories, priors_key(priors))
    build = RANK_BUILDERS[model_name]
    return sample_nuts(key, lambda: build(data, priors), rank_data(data), **kwargs)


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


def build_contaminated_model(data, priors):
    """The PyMC contaminated binormal model (the NUTS reference of its fast sampler).

    See :mod:`._contaminated`: each class's latent distribution borrows a share of the
    other's, ``negatives ~ (1 - eps_neg) N(0, 1) + eps_neg N(mu, sigma)`` and
    ``positives ~ (1 - eps_pos) N(mu, sigma) + eps_pos N(0, 1)``. ``data`` is an
    :class:`OrdinalData`; ``priors`` a :class:`ContaminatedPriors`.
    """
    import pymc as pm

    def classes():
        mu = pm.Normal("mu", 0.0, priors.mu_sd)
        sigma = pm.LogNormal("sigma", 0.0, priors.log_sigma_sd)
        eps = {
            name: pm.Beta(name, priors.contamination_alpha, priors.contamination_beta)
            for name in ("eps_neg", "eps_pos")
        }

        def probs(cut):
            base, shifted = _bin_probs(cut), _bin_probs((cut - mu) / sigma)
            neg = (1 - eps["eps_neg"]) * base + eps["eps_neg"] * shifted
            return neg, (1 - eps["eps_pos"]) * shifted + eps["eps_pos"] * base

        return probs

    return _rank_model(data, priors, classes, both_classes=True)


#: The PyMC builder of each rank-based model.
RANK_BUILDERS = {
    "semiparametric": build_semiparametric_model,
    "flexible": build_flexible_model,
    "contaminated": build_contaminated_model,
}
