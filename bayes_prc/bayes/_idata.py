"""Posterior draws -> (analytic model, ArviZ DataTree) for each Bayesian model.

One place for what each fit stores: the posterior group (model variables and the class
parameters on the fitted scale) and the observed-data group (sufficient statistics of a
parametric fit, ordered-category counts of a rank-based one).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..binormal import Binormal
from ._contaminated import contaminated_model
from ._flexible import FlexibleROCModel

__all__ = [
    "binormal_idata",
    "contaminated_idata",
    "flexible_idata",
    "ordinal_dataset",
    "statistics_dataset",
]

SAMPLE_DIMS = ("chain", "draw")


def binormal_idata(std_draws, idata, method, model_type, location, scale):
    """The analytic binormal model and the DataTree of a parametric or semiparametric fit.

    ``std_draws`` are on the standardized scale (location 0 and scale 1 for the latent
    scale of the semiparametric model); the class parameters on the fitted scale are
    added to the posterior group.
    """
    import arviz as az

    params = {
        "mu_pos": location + scale * std_draws["mu_pos"],
        "sigma_pos": scale * std_draws["sigma_pos"],
        "mu_neg": location + scale * std_draws["mu_neg"],
        "sigma_neg": scale * std_draws["sigma_neg"],
        "prevalence": std_draws["prevalence"],
    }
    model = Binormal(**params)
    shape = params["prevalence"].shape
    derived = {
        k: (list(SAMPLE_DIMS), v.reshape(shape)) for k, v in params.items() if k != "prevalence"
    }
    if idata is None and model_type == "semiparametric":
        idata = az.from_dict(
            {
                "posterior": {
                    "prevalence": std_draws["prevalence"],
                    "mu": std_draws["mu_pos"],
                    "sigma": std_draws["sigma_pos"],
                    "cutpoints": std_draws["cutpoints"],
                }
            },
            dims={"cutpoints": ["cutpoint"]},
            attrs={"posterior": {"inference_library": f"bayes_prc ({method})"}},
        )
    elif idata is None:
        mu = np.stack([std_draws["mu_neg"], std_draws["mu_pos"]], axis=-1)
        sigma = np.stack([std_draws["sigma_neg"], std_draws["sigma_pos"]], axis=-1)
        idata = az.from_dict(
            {
                "posterior": {
                    "prevalence": std_draws["prevalence"],
                    "mu": mu,
                    "sigma2": sigma**2,
                    "sigma": sigma,
                }
            },
            dims={"mu": ["class"], "sigma2": ["class"], "sigma": ["class"]},
            coords={"class": ["neg", "pos"]},
            attrs={"posterior": {"inference_library": "bayes_prc (exact conjugate posterior)"}},
        )
    idata["posterior"] = idata["posterior"].to_dataset().assign(derived)
    return model, idata


def statistics_dataset(stats, location, scale, transform):
    """The sufficient statistics of a parametric fit as an xarray Dataset."""
    return xr.Dataset(
        {
            "n_pos": ((), stats[1].n),
            "score_mean": (("class",), [stats[0].mean, stats[1].mean]),
            "score_ss": (("class",), [stats[0].ss, stats[1].ss]),
            "class_n": (("class",), [stats[0].n, stats[1].n]),
        },
        coords={"class": ["neg", "pos"]},
        attrs={
            "note": "sufficient statistics of the standardized (transformed) scores",
            "location": location,
            "scale": scale,
            "transform": str(transform),
        },
    )


def flexible_idata(std_draws, idata, method):
    """The analytic model and the DataTree (fast-sampler draws or PyMC's) of a flexible fit."""
    import arviz as az

    if idata is None:
        idata = az.from_dict(
            {
                "posterior": {
                    k: std_draws[k] for k in ("prevalence", "weights", "means", "sds", "cutpoints")
                }
            },
            dims={
                "weights": ["component"],
                "means": ["component"],
                "sds": ["component"],
                "cutpoints": ["cutpoint"],
            },
            attrs={"posterior": {"inference_library": f"bayes_prc ({method})"}},
        )
    p = idata["posterior"]
    model = FlexibleROCModel(
        p["weights"].values, p["means"].values, p["sds"].values, p["prevalence"].values
    )
    return model, idata


def contaminated_idata(std_draws, idata, method):
    """The analytic model and the DataTree (fast-sampler draws or PyMC's) of a
    contaminated fit (:mod:`._contaminated`)."""
    import arviz as az

    names = ("prevalence", "mu", "sigma", "eps_neg", "eps_pos", "cutpoints")
    if idata is None:
        idata = az.from_dict(
            {"posterior": {k: std_draws[k] for k in names}},
            dims={"cutpoints": ["cutpoint"]},
            attrs={"posterior": {"inference_library": f"bayes_prc ({method})"}},
        )
    p = idata["posterior"]
    model = contaminated_model(*(p[k].values for k in names[1:5]), p["prevalence"].values)
    return model, idata


def ordinal_dataset(ordinal):
    """The ordered-category counts of a rank-based fit as an xarray Dataset."""
    return xr.Dataset(
        {
            "counts": (("class", "category"), ordinal.counts),
            "score_low": ("category", ordinal.score_low),
            "score_high": ("category", ordinal.score_high),
        },
        coords={"class": ["neg", "pos"], "category": np.arange(ordinal.n_categories)},
        attrs={
            "note": "scores grouped into ordered categories (the model sees only their order)",
            "n_runs": ordinal.n_runs,
        },
    )
