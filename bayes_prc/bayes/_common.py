"""Pieces shared by the Bayesian models: score transforms and MCMC diagnostics."""

from __future__ import annotations

import warnings

import numpy as np
from scipy import special

from ..exceptions import BayesPRCWarning, ConvergenceWarning

__all__ = [
    "transform_scores",
    "convergence_diagnostics",
    "warn_if_unreliable",
    "add_curve_summaries",
    "simultaneous_band",
]


def transform_scores(score, transform, name="y_score", stacklevel=4):
    """Scores on the scale where a model is fit (None, "logit" or "probit").

    Probabilities must be in [0, 1]; exact 0 and 1 are moved just inside the interior
    scores (so their ranks, and the empirical curve, are unchanged) with a warning.
    Errors name the parameter ``name``.
    """
    s = np.asarray(score, dtype=np.float64)
    if transform is None:
        return s
    bad = (s < 0) | (s > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`transform`={transform!r} needs probabilities in [0, 1]; `{name}` has "
            f"{float(s[i])!r} at index {i}"
        )
    at_edge = (s == 0) | (s == 1)
    if at_edge.any():
        interior = s[~at_edge]
        gaps = [1e-6]
        if interior.size:
            gaps += [interior.min() / 2, (1 - interior.max()) / 2]
        eps = max(min(gaps), 1e-12)
        warnings.warn(
            f"{int(at_edge.sum())} score(s) of `{name}` are exactly 0 or 1; for the "
            f"{transform} transform they are moved to {eps:.3g} and 1 - {eps:.3g} (their "
            "ranks, and so the empirical curve, are unchanged)",
            BayesPRCWarning,
            stacklevel=stacklevel,
        )
        s = np.clip(s, eps, 1 - eps)
    return special.logit(s) if transform == "logit" else special.ndtri(s)


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


def warn_if_unreliable(diagnostics, chains, stacklevel=4):
    """Warn (:class:`ConvergenceWarning`) naming each bad diagnostic; returns the list."""
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
            "the NUTS fit may not be reliable: " + "; ".join(problems),
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


def simultaneous_band(curves, prob, point_lower, point_upper):
    """Envelope of the deepest ``prob`` share of whole curves, joined with the pointwise band.

    ``curves`` has shape (n_grid, n_draws). Depth of a curve = min over the grid of
    min(rank, S + 1 - rank), with pointwise ranks among the S posterior curves (extremal
    depth, as in the global envelope tests of Myllymaki et al. 2017).
    """
    s = curves.shape[1]
    order = np.argsort(curves, axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, s + 1)[None, :], axis=1)
    depth = np.minimum(ranks, s + 1 - ranks).min(axis=0)
    n_keep = int(np.ceil(prob * s))
    keep = np.argsort(-depth, kind="stable")[:n_keep]
    kept = curves[:, keep]
    lower = np.minimum(kept.min(axis=1), point_lower)
    upper = np.maximum(kept.max(axis=1), point_upper)
    inside = np.all((curves >= lower[:, None] - 1e-12) & (curves <= upper[:, None] + 1e-12), axis=0)
    return lower, upper, float(inside.mean())
