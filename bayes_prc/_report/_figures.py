"""The report's figures, drawn from the computed numbers and embedded as inline SVG."""

from __future__ import annotations

import io
import re

import numpy as np

from .._core import Progress
from ..plotting import (
    APForestDisplay,
    PRCurveDisplay,
    PredictiveCurvesDisplay,
    ROCCurveDisplay,
    ScorePPCDisplay,
    ThresholdCurvesDisplay,
)
from ._subgroups import subgroup_figures

__all__ = ["svg", "report_figures"]


def svg(fig):
    """The figure as an inline ``<svg>`` element (no XML header, no RDF metadata)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    # drop the RDF metadata block (creator/date links): inline figures need none of it
    return re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)


def _new_ax(w=6.4, h=4.6):
    from matplotlib.figure import Figure  # not registered with pyplot: no GUI backend

    fig = Figure(figsize=(w, h))
    return fig, fig.add_subplot()


def _score_models_figure(d, ci_prob):
    """PR band of each alternative score model over the empirical curve, best LOO first."""
    fig, ax = _new_ax()
    grid = np.linspace(0.0, 1.0, 101)[1:]
    for k, name in enumerate(d.loo_table.index):
        band = d.loo_fits[name].pr_band(recall=grid, ci_prob=ci_prob)
        ax.fill_between(grid, band["lower"], band["upper"], color=f"C{k}", alpha=0.15)
        ax.plot(grid, band["median"], color=f"C{k}", label=f"{name} (LOO rank {k})")
    p, r = d.empirical_curve
    ax.step(r, p, where="post", color="k", lw=1, label="empirical")
    ax.set(xlabel="Recall", ylabel="Precision", xlim=(0, 1.02), ylim=(0, 1.02))
    ax.legend(loc="lower left", fontsize="small")
    return fig


def report_figures(d, ci_prob, progressbar=None):
    """``{name: svg text}`` of every figure of the report.

    Names: ``"pr"``, ``"forest"``, ``"predictive"``, ``"threshold"``, ``"roc"``, and
    ``"ppc"`` (parametric fits) and ``"score_models"`` (with the LOO comparison).
    ``progressbar`` shows a progress line on stderr, one step a figure.
    """
    post, r = d.posterior, d.data
    figs = {}
    n_figs = 5 + (post.model_type == "parametric") + (d.loo_table is not None)
    progress = Progress(n_figs, "figures", progressbar)
    try:
        return _draw_all(d, ci_prob, post, r, figs, progress)
    finally:
        progress.close()


def _draw_all(d, ci_prob, post, r, figs, progress):
    fig, ax = _new_ax()
    boot_recommended = d.bands is not None and d.bands.attrs["recommended"].startswith("bootstrap")
    PRCurveDisplay.from_posterior(
        post,
        r,
        None,
        ci_prob=ci_prob,
        bootstrap_band=None if boot_recommended else d.bootstrap_band,
        bands=d.bands,
        ax=ax,
    )
    figs["pr"] = fig
    progress.update(len(figs))
    fig, ax = _new_ax(6.4, 4.0)
    intervals = [
        (row.label, row.estimate, row.low, row.high)
        for row in d.ap_table.itertuples()
        if not row.Index.startswith("binormal")
    ]
    APForestDisplay.from_posterior(post, intervals, ci_prob=ci_prob, ax=ax)
    figs["forest"] = fig
    progress.update(len(figs))
    fig, ax = _new_ax()
    PredictiveCurvesDisplay.from_posterior(
        post, r, None, n_test=d.n, n_curves=30, random_seed=d.figure_seed, ax=ax
    )
    figs["predictive"] = fig
    progress.update(len(figs))
    fig, ax = _new_ax()
    ThresholdCurvesDisplay.from_posterior(post, r, None, ci_prob=ci_prob, ax=ax)
    figs["threshold"] = fig
    progress.update(len(figs))
    fig, ax = _new_ax(5.2, 4.6)
    ROCCurveDisplay.from_posterior(post, r, None, ci_prob=ci_prob, ax=ax)
    figs["roc"] = fig
    progress.update(len(figs))
    if post.model_type == "parametric":
        fig, ax = _new_ax()
        ScorePPCDisplay.from_posterior(post, r, None, ci_prob=ci_prob, ax=ax)
        figs["ppc"] = fig
        progress.update(len(figs))
    if d.loo_table is not None:
        figs["score_models"] = _score_models_figure(d, ci_prob)
        progress.update(len(figs))
    out = {k: svg(f) for k, f in figs.items()}
    if d.subgroups is not None:
        out.update(subgroup_figures(d.subgroups, _new_ax, svg))
    return out
