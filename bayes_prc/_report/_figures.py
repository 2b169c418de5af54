"""The report's figures, drawn from the computed numbers and embedded as inline SVG.

Every figure is at least :data:`MIN_WIDTH_PX` wide (the SVG's size is given in pixels),
and its legend stands below the axes, never over the data. The page lets a figure shrink
to the width of its column (``max-width: 100%``), so on a phone (390 px wide, a column of
:data:`PHONE_WIDTH_PX`) every text of a figure is drawn scaled down by the column's width
over the figure's: figures are narrow (about 5 inches, legends below instead of beside)
and :func:`svg` raises the size of any legend, tick, axis label or title text that would
be drawn below :data:`MIN_TEXT_PX` there.
"""

from __future__ import annotations

import io
import re
import textwrap

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

__all__ = [
    "MIN_TEXT_PX",
    "MIN_WIDTH_PX",
    "PHONE_WIDTH_PX",
    "forest_display",
    "legend_outside",
    "svg",
    "report_figures",
]

#: The narrowest figure of a report, in CSS pixels.
MIN_WIDTH_PX = 560
#: The width of the page's column on a 390 px phone (the body's padding is 1em a side).
PHONE_WIDTH_PX = 358
#: The smallest text of a figure as drawn on that phone, in CSS pixels.
MIN_TEXT_PX = 9.0

_PT_TO_PX = 4 / 3  # CSS: 1pt = 1/72 in, 1px = 1/96 in


def svg(fig):
    """The figure as an inline ``<svg>`` element (no XML header, no RDF metadata).

    Its ``width`` and ``height`` are given in pixels (matplotlib writes points), and a
    figure narrower than :data:`MIN_WIDTH_PX` is scaled up to it. Its text is first made
    readable on a phone (:func:`readable_on_phone`).
    """
    readable_on_phone(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    # drop the RDF metadata block (creator/date links): inline figures need none of it
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    size = re.search(r'width="([\d.]+)pt" height="([\d.]+)pt"', text)
    if size is None:  # pragma: no cover - matplotlib always writes points
        return text
    w, h = (float(v) * _PT_TO_PX for v in size.groups())
    zoom = max(1.0, MIN_WIDTH_PX / w)
    return text.replace(size.group(0), f'width="{w * zoom:.0f}px" height="{h * zoom:.0f}px"', 1)


def _renderer(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()  # runs the layout engine (constrained figures) before measuring
    return canvas.get_renderer()


def _axis_texts(fig):
    for ax in fig.axes:
        yield from ax.get_xticklabels() + ax.get_yticklabels()
        yield from (ax.xaxis.label, ax.yaxis.label, ax.title)
        legend = ax.get_legend()
        if legend is not None:
            yield from legend.get_texts()
    yield from (t for t in fig.texts if t.get_text())  # suptitle and figure texts


def readable_on_phone(fig, rounds=8):
    """Raise the figure's small text so that it is at least :data:`MIN_TEXT_PX` when the
    figure is shown :data:`PHONE_WIDTH_PX` wide (or at its own width if narrower).

    Drawn at a width of ``W`` points and shown ``PHONE_WIDTH_PX`` wide, a text of ``f``
    points is ``f * PHONE_WIDTH_PX / W`` pixels high; every legend, tick label, axis
    label and title text below the floor is raised to it, the legends below the axes
    placed again, and the width measured again (larger text may widen the figure).
    """
    for _ in range(rounds):
        renderer = _renderer(fig)
        # as saved: the tight box and savefig's padding on both sides
        width_pt = (fig.get_tightbbox(renderer).width + 2 * _pad_inches()) * 72.0
        shown_px = min(PHONE_WIDTH_PX, width_pt * _PT_TO_PX)
        need = MIN_TEXT_PX * width_pt / shown_px * 1.02
        small = [t for t in _axis_texts(fig) if t.get_text() and t.get_fontsize() < need]
        for t in small:
            t.set_fontsize(need)
        for ax in fig.axes:
            _place_below(ax, renderer)
        if not small:
            return fig
    return fig


def _pad_inches():
    import matplotlib

    pad = matplotlib.rcParams["savefig.pad_inches"]
    return float(pad) if pad != "layout" else 0.0


def _new_ax(w=5.0, h=3.8):
    from matplotlib.figure import Figure  # not registered with pyplot: no GUI backend

    fig = Figure(figsize=(w, h))
    return fig, fig.add_subplot()


#: Marks a legend placed by :func:`legend_outside` (below the axes).
_BELOW = "_bayes_prc_below"


def _place_below(ax, renderer):
    """Anchor a legend of :func:`legend_outside` under the x axis's labels."""
    legend = ax.get_legend()
    if legend is None or not getattr(legend, _BELOW, False):
        return
    box = ax.xaxis.get_tightbbox(renderer)
    bottom = min(ax.bbox.y0, box.y0) if box is not None else ax.bbox.y0
    pad = 4.0 * ax.figure.dpi / 72.0  # 4 points
    y = (bottom - pad - ax.bbox.y0) / ax.bbox.height
    legend.set_bbox_to_anchor((0.5, y), transform=ax.transAxes)


def legend_outside(ax, width=60):
    """Move the legend of ``ax`` below the axes (under the x axis's labels), out of the
    data, one entry a line.

    Long labels are wrapped at ``width`` characters so the figure stays narrow.
    """
    legend = ax.get_legend()
    if legend is None:
        return None
    handles = list(legend.legend_handles)
    labels = [textwrap.fill(t.get_text(), width) for t in legend.get_texts()]
    legend.remove()
    legend = ax.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        borderaxespad=0.0,
        fontsize="small",
        frameon=False,
    )
    setattr(legend, _BELOW, True)
    _place_below(ax, _renderer(ax.figure))
    return legend


def forest_display(d, ci_prob, ax):
    """The AP posterior density with one forest row per row of the AP table.

    The rows are the table's, in its order and with its labels (:func:`_marked`: a row
    shown as not an interval is drawn as its estimate alone), so the figure and the
    table always list the same methods; the density and the dotted median are the shown
    fit's.
    """
    from ._render import _marked

    shown = _marked(d.ap_table, d.n_pos)
    rows = []
    for row in shown.itertuples():
        low, high = (v if isinstance(v, float | int) else np.nan for v in (row.low, row.high))
        rows.append((row.label, row.estimate, float(low), float(high)))
    post = d.posterior
    ap = post.average_precision()
    density = post.ap_density()
    return APForestDisplay(
        density["average_precision"].values,
        density.values,
        intervals=rows,
        posterior_median=float(ap.median()),
        ci_prob=ci_prob,
    ).plot(ax=ax)


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
    ax.legend(loc="lower left", fontsize="small")  # moved beside the axes with the others
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
    rec = None if d.bands is None else d.bands.attrs["recommended"]
    boot_recommended = rec is not None and rec.startswith("bootstrap")
    no_band = d.bands is not None and rec is None  # too few positives: none is drawn
    PRCurveDisplay.from_posterior(
        post,
        r,
        None,
        ci_prob=ci_prob,
        bootstrap_band=None if boot_recommended or no_band else d.bootstrap_band,
        bands=d.bands,
        ax=ax,
    )
    figs["pr"] = fig
    progress.update(len(figs))
    # narrow axes: the rows' labels beside them set the width (and so the phone's scale)
    fig, ax = _new_ax(2.8, 2.0 + 0.4 * len(d.ap_table))
    forest_display(d, ci_prob, ax)
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
    fig, ax = _new_ax(5.0, 4.4)
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
    if d.subgroups is not None:
        figs.update(subgroup_figures(d.subgroups, _new_ax))
    for fig in figs.values():
        for ax in fig.axes:
            legend_outside(ax)
    return {k: svg(f) for k, f in figs.items()}
