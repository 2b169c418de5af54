"""Pieces shared by the Bayesian models: the recall grid, MCMC diagnostics, curve summaries.

The score transforms (logit, probit) are in :mod:`bayes_prc._transforms`, the generic
argument checks (integers, choices, probabilities) in :mod:`bayes_prc._validation`.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..exceptions import ConvergenceWarning
from ..frequentist._bands import simultaneous_band

__all__ = [
    "DEFAULT_RECALL",
    "check_unit_grid",
    "convergence_diagnostics",
    "warn_if_unreliable",
    "add_curve_summaries",
    "simultaneous_band",
]

#: Default recall grid of PR bands: 201 equally spaced points in [0, 1].
DEFAULT_RECALL = np.linspace(0.0, 1.0, 201)


def check_unit_grid(values, name, default=None):
    """A 1-D float grid of values in [0, 1] (``default`` when ``values`` is None)."""
    if values is None:
        return default
    arr = np.atleast_1d(np.asarray(values, dtype=np.float64))
    if arr.ndim != 1 or not np.all(np.isfinite(arr)) or arr.min() < 0 or arr.max() > 1:
        raise ValueError(f"`{name}` must be a 1-D array of values in [0, 1]; got {values!r}")
    return arr


def convergence_diagnostics(idata, var_names):
    """Max R-hat, min bulk/tail ESS over ``var_names`` and the number of divergences."""
    import arviz as az

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # R-hat of constant draws
        rhat = az.rhat(idata, var_names=var_names)
        ess_bulk = az.ess(idata, var_names=var_names, method="bulk")
        ess_tail = az.ess(idata, var_names=var_names, method="tail")
    n_div = 0
    if "sample_stats" in idata.children and "diverging" in idata["sample_stats"]:
        n_div = int(idata["sample_stats"]["diverging"].values.sum())
    return {
        "max_rhat": float(max(float(rhat[v].max()) for v in var_names)),
        "min_ess_bulk": float(min(float(ess_bulk[v].min()) for v in var_names)),
        "min_ess_tail": float(min(float(ess_tail[v].min()) for v in var_names)),
        "n_divergent": n_div,
    }


def warn_if_unreliable(diagnostics, chains, stacklevel=4, what="the NUTS fit"):
    """Warn (:class:`ConvergenceWarning`) naming each bad diagnostic; returns the list.

    The message starts with ``what`` (e.g. ``"the NUTS fit of score model 'bi_t'"``).
    """
    d = diagnostics
    problems = []
    if chains > 1 and d["max_rhat"] > 1.01:
        problems.append(f"R-hat up to {d['max_rhat']:.3f} (> 1.01)")
    if d["min_ess_bulk"] < 100 * chains:
        problems.append(f"bulk ESS down to {d['min_ess_bulk']:.0f} (< 100 per chain)")
    if d["min_ess_tail"] < 100 * chains:
        problems.append(f"tail ESS down to {d['min_ess_tail']:.0f} (< 100 per chain)")
    if d["n_divergent"]:
        problems.append(f"{d['n_divergent']} divergent transition(s)")
    if problems:
        warnings.warn(
            f"{what} may not be reliable: " + "; ".join(problems),
            ConvergenceWarning,
            stacklevel=stacklevel,
        )
    return problems


def add_curve_summaries(idata, model):
    """Add per-draw ``average_precision`` and ``roc_auc`` of ``model`` to the posterior.

    ``model`` is an analytic score model (``Binormal`` or an alternative) with parameter
    arrays of shape (chain, draw); the DataTree is updated in place and returned.
    """
    post = idata["posterior"].to_dataset()
    shape = model.batch_shape
    dims = ("chain", "draw")
    idata["posterior"] = post.assign(
        average_precision=(dims, np.reshape(model.average_precision(), shape)),
        roc_auc=(dims, np.reshape(model.roc_auc(), shape)),
    )
    return idata
