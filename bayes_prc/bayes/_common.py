"""Pieces shared by the Bayesian models: the recall grid, MCMC diagnostics, curve summaries.

The score transforms (logit, probit) are in :mod:`bayes_prc._core.transforms`, the generic
argument checks (integers, choices, probabilities) in :mod:`bayes_prc._core.validation`.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._core import plain
from ..exceptions import ConvergenceWarning
from ..frequentist import simultaneous_band

__all__ = [
    "DEFAULT_RECALL",
    "cap_summary_ess",
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
        raise ValueError(f"`{name}` must be a 1-D array of values in [0, 1]; got {plain(values)}")
    return arr


def convergence_diagnostics(idata, var_names, ess_cap=None):
    """Max R-hat, min bulk/tail ESS over ``var_names`` and the number of divergences.

    ``ess_cap``: for draws resampled from weighted ones (the fast samplers'
    importance sampling), the ESS they are worth (see :func:`cap_summary_ess`); the ESS
    reported is then ArviZ's capped at it.
    """
    import arviz as az

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # R-hat of constant draws
        rhat = az.rhat(idata, var_names=var_names)
        ess_bulk = az.ess(idata, var_names=var_names, method="bulk")
        ess_tail = az.ess(idata, var_names=var_names, method="tail")
    n_div = 0
    if "sample_stats" in idata.children and "diverging" in idata["sample_stats"]:
        n_div = int(idata["sample_stats"]["diverging"].values.sum())
    cap = np.inf if ess_cap is None else float(ess_cap)
    return {
        "max_rhat": float(max(float(rhat[v].max()) for v in var_names)),
        "min_ess_bulk": min(float(min(float(ess_bulk[v].min()) for v in var_names)), cap),
        "min_ess_tail": min(float(min(float(ess_tail[v].min()) for v in var_names)), cap),
        "n_divergent": n_div,
    }


def cap_summary_ess(summary, ess_cap):
    """Cap the ``ess_bulk`` / ``ess_tail`` columns of an ArviZ summary at ``ess_cap``.

    A fast sampler that resamples importance-weighted proposals returns duplicated
    draws; ArviZ's ESS of them (about the number of draws) is not their effective
    sample size. The honest one is the importance-sampling ESS, Kish's
    ``1 / sum(w**2)`` of the normalized weights (for a tempered SMC, the ESS of its
    last reweighting), capped at the number of distinct draws: the sampler's
    ``importance["ess_draws"]``. ``mcse_mean`` is raised to at least ``sd /
    sqrt(ess_cap)`` accordingly (``mcse_sd`` is left as ArviZ computed it).
    ``ess_cap=None`` (NUTS, exact draws) leaves the summary unchanged. Returns the
    summary (modified in place).
    """
    if ess_cap is None:
        return summary
    # arviz_stats' SummaryDataFrame displays preformatted strings (``_fmt_map``): keep
    # them in step with the capped values
    fmt = getattr(summary, "_fmt_map", None)
    for col in ("ess_bulk", "ess_tail"):
        if col in summary.columns:
            summary[col] = np.minimum(summary[col].astype(float), float(ess_cap))
            if isinstance(fmt, dict) and col in fmt:
                fmt[col] = {idx: f"{summary.at[idx, col]:.0f}" for idx in fmt[col]}
    if {"mcse_mean", "sd"} <= set(summary.columns):  # the mean's error with that ESS
        mcse = summary["sd"].astype(float) / np.sqrt(float(ess_cap))
        summary["mcse_mean"] = np.maximum(summary["mcse_mean"].astype(float), mcse)
        if isinstance(fmt, dict) and "mcse_mean" in fmt:
            fmt["mcse_mean"] = {i: f"{summary.at[i, 'mcse_mean']:.2g}" for i in fmt["mcse_mean"]}
    return summary


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
