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

from .._core.transforms import location_scale, log_jacobian, transform_scores
from . import _compiled
from ._common import warn_if_unreliable
from ._score_model_fit import ScoreModelFit

__all__ = ["SCORE_MODELS", "build_pymc_model", "fit_score_model", "score_data"]

SCORE_MODELS = ("binormal", "binormal_logit", "bi_t", "mixture")


def score_data(z, is_pos):
    """The data containers of :func:`build_pymc_model` (and the ``item`` coordinate)."""
    data = {
        "n_total": np.int64(z.size),
        "n_pos_observed": np.int64(is_pos.sum()),
        "z": np.asarray(z, dtype=np.float64),
        "class_index": is_pos.astype(np.int64),
    }
    return data, {"item": np.arange(z.size)}


def build_pymc_model(name, z, is_pos):
    """The :class:`pymc.Model` of score model ``name`` on standardized scores ``z``.

    Classes are indexed ``class = ["neg", "pos"]``; the observed scores are one variable
    ``score`` over dim ``item`` (so the pointwise log-likelihood is per item), the label
    count ``n_pos ~ Binomial(n, prevalence)`` is a separate observed variable. The data
    sit in :func:`pymc.Data` containers whose length is a runtime input, so one compiled
    model serves every data set and every n (see :mod:`._compiled`).
    """
    import pymc as pm

    data, item = score_data(z, is_pos)
    coords = {"class": ["neg", "pos"], **item}
    if name == "mixture":
        coords["component"] = [0, 1]
    with pm.Model(coords=coords) as model:
        d = {k: pm.Data(k, v, dims="item" if np.ndim(v) else None) for k, v in data.items()}
        idx, z = d["class_index"], d["z"]
        prevalence = pm.Beta("prevalence", 1.0, 1.0)
        pm.Binomial("n_pos", n=d["n_total"], p=prevalence, observed=d["n_pos_observed"])
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
                # ordered start values (the quartiles of N(0, 1)); data-free so that one
                # compiled model serves every data set
                initval=np.array([[-0.67, 0.67], [-0.67, 0.67]]),
            )
            sigma = pm.Gamma("sigma", alpha=2.0, beta=2.0, dims=("class", "component"))
            pm.NormalMixture(
                "score", w=weight[idx], mu=mu[idx], sigma=sigma[idx], observed=z, dims="item"
            )
        else:  # pragma: no cover - validated by the callers
            raise ValueError(f"unknown score model {name!r}")
    return model


def fit_score_model(
    name,
    is_pos,
    score,
    *,
    sampler,
    random_seed,
    ci_prob,
):
    """Fit one score model by NUTS; returns a :class:`ScoreModelFit`.

    ``is_pos`` (bool) and ``score`` (float, finite; in [0, 1] for ``"binormal_logit"``)
    are validated by the caller. ``random_seed`` is a list of per-chain seeds;
    ``sampler`` a :class:`~bayes_prc.bayes.SamplerOptions`. The model
    is compiled once per process (:mod:`._compiled`).
    """
    transform = "logit" if name == "binormal_logit" else None
    t = transform_scores(score, transform)
    log_jac = log_jacobian(t, transform)
    location, scale = location_scale(t)  # safe for scores of any magnitude
    if not scale > 0 or np.min(t) == np.max(t):  # np.std of equal floats can be 1e-17
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    z = (t - location) / scale
    log_jac = log_jac - math.log(scale)  # d z / d x = (d t / d x) / scale
    data, item = score_data(z, is_pos)
    idata = _compiled.sample(
        ("score model", name),
        lambda: build_pymc_model(name, z, is_pos),
        data,
        seeds=list(random_seed),
        sampler=sampler,
        coords=item,
        log_likelihood="score",
    )
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
