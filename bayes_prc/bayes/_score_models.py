"""PyMC models of the per-class scores with a pointwise log-likelihood, for PSIS-LOO.

Each model of :data:`SCORE_MODELS` is fit by NUTS on standardized scores (and the
``"binormal_logit"`` model on standardized ``logit(score)``), with one observed score per
item so that the posterior carries a pointwise log-likelihood; its draws are then pushed
through the model's own analytic PR curve (:mod:`bayes_prc.models`) in a
:class:`~bayes_prc.bayes._score_model_fit.ScoreModelFit`. PyMC is imported only when a
model is built or fit.

References
----------
.. [1] A. Vehtari, A. Gelman and J. Gabry, "Practical Bayesian model evaluation using
   leave-one-out cross-validation and WAIC", Statistics and Computing 27 (2017),
   pp. 1413-1432.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from .._transforms import location_scale, log_jacobian, transform_scores
from ._common import warn_if_unreliable
from ._score_model_fit import ScoreModelFit

__all__ = ["SCORE_MODELS", "build_pymc_model", "fit_score_model"]

SCORE_MODELS = ("binormal", "binormal_logit", "bi_t", "mixture")


def build_pymc_model(name, z, is_pos):
    """The :class:`pymc.Model` of score model ``name`` on standardized scores ``z``.

    Classes are indexed ``class = ["neg", "pos"]``; the observed scores are one variable
    ``score`` over dim ``item`` (so the pointwise log-likelihood is per item), the label
    count ``n_pos ~ Binomial(n, prevalence)`` is a separate observed variable.
    """
    import pymc as pm

    idx = is_pos.astype(np.int64)
    n = int(z.size)
    coords = {"class": ["neg", "pos"], "item": np.arange(n)}
    if name == "mixture":
        coords["component"] = [0, 1]
    with pm.Model(coords=coords) as model:
        prevalence = pm.Beta("prevalence", 1.0, 1.0)
        pm.Binomial("n_pos", n=n, p=prevalence, observed=int(is_pos.sum()))
        if name in ("binormal", "binormal_logit"):
            mu = pm.Normal("mu", 0.0, 3.0, dims="class")
            sigma = pm.HalfNormal("sigma", 2.0, dims="class")
            pm.Normal("score", mu[idx], sigma[idx], observed=z, dims="item")
        elif name == "bi_t":
            mu = pm.Normal("mu", 0.0, 3.0, dims="class")
            sigma = pm.HalfNormal("sigma", 2.0, dims="class")
            nu = pm.Gamma("nu", alpha=2.0, beta=0.1, dims="class")
            pm.StudentT("score", nu=nu[idx], mu=mu[idx], sigma=sigma[idx], observed=z, dims="item")
        elif name == "mixture":
            weight = pm.Dirichlet("weight", a=np.full((2, 2), 2.0), dims=("class", "component"))
            mu = pm.Normal(
                "mu",
                0.0,
                3.0,
                dims=("class", "component"),
                transform=pm.distributions.transforms.ordered,
            )
            sigma = pm.Gamma("sigma", alpha=2.0, beta=2.0, dims=("class", "component"))
            pm.NormalMixture(
                "score", w=weight[idx], mu=mu[idx], sigma=sigma[idx], observed=z, dims="item"
            )
        else:  # pragma: no cover - validated by the callers
            raise ValueError(f"unknown score model {name!r}")
    return model


def _mixture_initvals(z, is_pos):
    """Ordered start values for the component means: each class's quartiles."""
    mu = np.empty((2, 2))
    for c, mask in enumerate((~is_pos, is_pos)):
        q1, q3 = np.quantile(z[mask], [0.25, 0.75])
        if not q3 > q1:
            q1, q3 = q1 - 0.5, q1 + 0.5
        mu[c] = (q1, q3)
    return {"mu": mu}


def fit_score_model(
    name,
    is_pos,
    score,
    *,
    draws,
    chains,
    tune,
    cores,
    target_accept,
    random_seed,
    progressbar,
    ci_prob,
):
    """Fit one score model by NUTS; returns a :class:`ScoreModelFit`.

    ``is_pos`` (bool) and ``score`` (float, finite; in [0, 1] for ``"binormal_logit"``)
    are validated by the caller. ``random_seed`` is a list of per-chain seeds.
    """
    import pymc as pm

    transform = "logit" if name == "binormal_logit" else None
    t = transform_scores(score, transform)
    log_jac = log_jacobian(t, transform)
    location, scale = location_scale(t)  # safe for scores of any magnitude
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    z = (t - location) / scale
    log_jac = log_jac - math.log(scale)  # d z / d x = (d t / d x) / scale
    model = build_pymc_model(name, z, is_pos)
    with model:
        idata = pm.sample(
            draws=draws,
            tune=tune,
            chains=chains,
            cores=cores,
            random_seed=random_seed,
            progressbar=progressbar,
            target_accept=target_accept,
            initvals=_mixture_initvals(z, is_pos) if name == "mixture" else None,
            compute_convergence_checks=False,
        )
        pm.compute_log_likelihood(idata, var_names=["score"], progressbar=False)
    ll = idata["log_likelihood"].to_dataset()
    ll["score"] = ll["score"] + xr.DataArray(log_jac, dims="item", coords={"item": ll["item"]})
    ll.attrs["note"] = (
        "log density of each item's ORIGINAL score given its label: the model's density of "
        "the standardized score plus the log-Jacobian of the standardization"
        + (" and of the logit transform" if transform else "")
        + "; the label likelihood (prevalence) is common to all score models and left out"
    )
    idata["log_likelihood"] = ll
    idata["constant_data"] = xr.Dataset(
        {
            "y_score": ("item", np.asarray(score, dtype=np.float64)),
            "is_pos": ("item", is_pos.astype(np.int8)),
            "log_jacobian": ("item", log_jac),
        },
        coords={"item": ll["item"].values},
        attrs={"location": location, "scale": scale, "transform": str(transform)},
    )
    fit = ScoreModelFit._from_idata(
        name=name,
        idata=idata,
        transform=transform,
        location=location,
        scale=scale,
        ci_prob=ci_prob,
        n=int(is_pos.size),
        n_pos=int(is_pos.sum()),
    )
    chains = fit._idata["posterior"].sizes["chain"]
    warn_if_unreliable(fit.diagnostics(), chains, what=f"the NUTS fit of score model {name!r}")
    return fit
