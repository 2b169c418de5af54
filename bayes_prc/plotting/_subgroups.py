"""``SubgroupDisplay`` (a forest of per-subgroup intervals) and ``SubgroupPRDisplay``."""

from __future__ import annotations

import numpy as np

from .._core import plain
from ._base import (
    BOOTSTRAP_COLOR,
    EMPIRICAL_COLOR,
    POSTERIOR_COLOR,
    UNIT_LIMITS,
    DisplayMixin,
    finish,
    get_axes,
    merge,
    percent,
    unit_axes,
)

__all__ = ["SubgroupDisplay", "SubgroupPRDisplay"]

_METHOD_STYLE = {
    "pooled": {"color": POSTERIOR_COLOR, "linewidth": 2.6, "marker": "o"},
    "independent": {"color": "0.55", "linewidth": 1.4, "marker": "s"},
    "bootstrap": {"color": BOOTSTRAP_COLOR, "linewidth": 1.4, "marker": "D"},
}
_METRIC_NAMES = {"average_precision": "Average precision", "roc_auc": "ROC AUC"}


def _rows(values, n, name):
    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (n, 3):
        raise ValueError(
            f"`{name}` must have shape ({n}, 3) (estimate, low, high); got {arr.shape}"
        )
    return arr


class SubgroupDisplay(DisplayMixin):
    """Forest plot of each subgroup's interval: partial pooling beside the alternatives.

    One row per subgroup (top to bottom in the given order), with the pooled
    (hierarchical model) interval and, slightly offset, the independent and bootstrap
    intervals when given; a cross marks the subgroup's empirical value. The pooled
    population's interval is a shaded vertical band with its estimate. Flagged subgroups
    (``flagged``: ``prob_below_others > 0.9`` by default) have their label in red.

    Parameters
    ----------
    labels : sequence of str
    intervals : dict
        ``method -> array (n_subgroups, 3)`` of (estimate, low, high); methods among
        ``"pooled"``, ``"independent"``, ``"bootstrap"``.
    overall : (float, float, float)
        Estimate, low and high of all subgroups together.
    empirical : array of shape (n_subgroups,), optional
        NaN where undefined (a subgroup without a positive).
    flagged : array of bool, optional
    metric : {"average_precision", "roc_auc"}, default "average_precision"
    ci_prob : float, optional
        For the legend.

    Attributes
    ----------
    lines_ : dict
        ``method -> LineCollection`` of the interval segments.
    markers_ : dict
        ``method -> Line2D`` of the estimates.
    empirical_markers_ : matplotlib.lines.Line2D or None
    overall_band_ : matplotlib.patches.Polygon
    overall_line_ : matplotlib.lines.Line2D
    row_positions_ : numpy.ndarray
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayes_prc.plotting import SubgroupDisplay
    >>> disp = SubgroupDisplay(
    ...     ["a", "b"], {"pooled": [[0.5, 0.4, 0.6], [0.3, 0.2, 0.45]]}, (0.45, 0.4, 0.5)
    ... ).plot()
    >>> [t.get_text() for t in disp.ax_.get_yticklabels()]
    ['a', 'b']
    """

    def __init__(
        self,
        labels,
        intervals,
        overall,
        *,
        empirical=None,
        flagged=None,
        metric="average_precision",
        ci_prob=None,
    ):
        self.labels = [str(v) for v in labels]
        n = len(self.labels)
        unknown = sorted(set(intervals) - set(_METHOD_STYLE))
        if unknown:
            raise ValueError(
                f"`intervals` has unknown method(s) {unknown}; expected {list(_METHOD_STYLE)}"
            )
        self.intervals = {m: _rows(v, n, f"intervals[{m!r}]") for m, v in intervals.items()}
        overall = np.asarray(overall, dtype=np.float64).ravel()
        if overall.size != 3:
            raise ValueError(f"`overall` must be (estimate, low, high); got {plain(overall)}")
        self.overall = overall
        self.empirical = None if empirical is None else np.asarray(empirical, dtype=float)
        self.flagged = np.zeros(n, bool) if flagged is None else np.asarray(flagged, dtype=bool)
        if metric not in _METRIC_NAMES:
            raise ValueError(f"`metric` must be one of {list(_METRIC_NAMES)}; got {plain(metric)}")
        self.metric = metric
        self.ci_prob = ci_prob

    def plot(self, ax=None, *, legend=True, **kwargs):
        """Draw the forest.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Default: a new figure sized to the number of subgroups.
        legend : bool, default True
            A legend outside the axes, on the right.
        **kwargs
            Keyword arguments of the pooled rows' ``hlines``.

        Returns
        -------
        SubgroupDisplay
        """
        n = len(self.labels)
        ax, fig = get_axes(ax, figsize=(7.5, max(2.5, 0.45 * n + 1.2)))
        ys = -np.arange(n, dtype=float)
        self.row_positions_ = ys
        est, lo, hi = self.overall
        level = f" ({percent(self.ci_prob)})" if self.ci_prob is not None else ""
        self.overall_band_ = ax.axvspan(
            lo, hi, color="0.85", zorder=0, label=f"all subgroups together{level}"
        )
        self.overall_line_ = ax.axvline(est, color="0.4", linestyle="--", linewidth=1.0)
        offsets = {"pooled": 0.0, "independent": 0.22, "bootstrap": -0.22}
        names = {
            "pooled": "partial pooling",
            "independent": "independent fit",
            "bootstrap": "bootstrap",
        }
        self.lines_, self.markers_ = {}, {}
        for method, rows in self.intervals.items():
            style = dict(_METHOD_STYLE[method])
            marker = style.pop("marker")
            line_kw = merge(style, kwargs if method == "pooled" else None)
            y = ys + (offsets[method] if len(self.intervals) > 1 else 0.0)
            ok = np.all(np.isfinite(rows), axis=1)
            self.lines_[method] = ax.hlines(y[ok], rows[ok, 1], rows[ok, 2], **line_kw)
            (self.markers_[method],) = ax.plot(
                rows[ok, 0],
                y[ok],
                marker=marker,
                linestyle="none",
                color=line_kw["color"],
                markersize=5,
                label=names[method] + level,
            )
        self.empirical_markers_ = None
        if self.empirical is not None:
            (self.empirical_markers_,) = ax.plot(
                self.empirical, ys, "x", color=EMPIRICAL_COLOR, markersize=6, label="empirical"
            )
        ax.set_yticks(ys, self.labels)
        for tick, flag in zip(ax.get_yticklabels(), self.flagged, strict=True):
            if flag:
                tick.set_color("C3")
                tick.set_fontweight("bold")
        ax.set_ylim(ys[-1] - 0.7, 0.7)
        ax.set_xlim(0.0, 1.0)
        ax.set_xlabel(_METRIC_NAMES[self.metric])
        ax.tick_params(axis="y", length=0)
        ax.grid(axis="x", alpha=0.3)
        ax.set_title("Per subgroup (flagged in red)" if self.flagged.any() else "Per subgroup")
        if legend:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return finish(self, ax, fig, False)

    @classmethod
    def from_comparison(cls, comparison, *, methods=("pooled", "independent"), ax=None, **kwargs):
        """Draw a :class:`bayes_prc.subgroups.SubgroupComparison`.

        Parameters
        ----------
        comparison : SubgroupComparison
        methods : sequence of str, default ("pooled", "independent")
            Rows of ``comparison.comparison`` to draw (``"bootstrap"`` too); only
            ``("pooled",)`` avoids fitting every subgroup alone.
        ax, **kwargs
            As :meth:`plot`.

        Returns
        -------
        SubgroupDisplay
        """
        t = comparison.table
        intervals = {"pooled": t[["estimate", "low", "high"]].to_numpy(dtype=float)}
        others = [m for m in methods if m != "pooled"]
        if others:
            comp = comparison.comparison
            for m in others:
                rows = comp.xs(m, level="method").reindex(t.index)
                intervals[m] = rows[["estimate", "low", "high"]].to_numpy(dtype=float)
        a = t.attrs
        disp = cls(
            list(t.index),
            intervals,
            (a["overall_estimate"], a["overall_low"], a["overall_high"]),
            empirical=t["empirical"].to_numpy(dtype=float),
            flagged=t["flagged"].to_numpy(),
            metric=comparison.metric,
            ci_prob=comparison.ci_prob,
        )
        return disp.plot(ax=ax, **kwargs)


#: One colour per subgroup, twelve distinct ones (matplotlib's ten, then two more).
SUBGROUP_COLORS = [f"C{i}" for i in range(10)] + ["#000080", "#a6761d"]


class SubgroupPRDisplay(DisplayMixin):
    """Credible bands of subgroups' PR curves over the pooled population's band.

    Two layouts, both readable with a dozen subgroups: small multiples (default), one
    panel per subgroup with its band over the pooled population's grey band, panels
    sharing their axes; or all subgroups on one axes as median lines with light fills
    and the band's edges as thin lines of the subgroup's colour (no stack of
    translucent fills). Colours are distinct for up to 12 subgroups
    (:data:`SUBGROUP_COLORS`).

    Parameters
    ----------
    recall : array of shape (R,)
    bands : dict
        ``label -> (lower, median, upper)`` arrays of shape (R,).
    overall : (lower, median, upper), optional
        The pooled population's band.
    ci_prob : float, optional

    Attributes
    ----------
    fills_ : dict
        ``label -> PolyCollection``.
    lines_ : dict
        ``label -> Line2D`` (the median curves).
    axes_ : numpy.ndarray of Axes
        Every axes drawn on (one per subgroup with ``layout="panels"``, in the order of
        ``bands``; a single one with ``layout="overlay"``).
    overall_fill_ : matplotlib.collections.PolyCollection or None
        The pooled band of the first axes.
    ax_, figure_
        The first axes and the figure.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from bayes_prc.plotting import SubgroupPRDisplay
    >>> r = np.linspace(0, 1, 5)
    >>> disp = SubgroupPRDisplay(r, {"a": (r * 0 + 0.2, r * 0 + 0.5, r * 0 + 0.8)}).plot()
    >>> sorted(disp.lines_)
    ['a']
    """

    def __init__(self, recall, bands, overall=None, *, ci_prob=None):
        self.recall = np.asarray(recall, dtype=float)
        self.bands = {
            str(k): tuple(np.asarray(b, dtype=float) for b in v) for k, v in bands.items()
        }
        for k, v in self.bands.items():
            if len(v) != 3 or any(b.shape != self.recall.shape for b in v):
                raise ValueError(
                    f"`bands[{k!r}]` must be (lower, median, upper) arrays shaped as `recall`"
                )
        self.overall = None if overall is None else tuple(np.asarray(b, float) for b in overall)
        self.ci_prob = ci_prob

    def plot(self, ax=None, *, layout="panels", legend=True, ncols=None):
        """Draw the bands (one colour per subgroup) and the pooled population's band.

        Parameters
        ----------
        ax : Axes or array of Axes, optional
            ``layout="panels"``: as many axes as subgroups (a figure's ``subplots``),
            or a single axes, which then holds every subgroup (the overlay); default a
            new figure with a grid of panels. ``layout="overlay"``: one axes, default a
            new figure.
        layout : {"panels", "overlay"}, default "panels"
        legend : bool, default True
            The overlay's legend (outside the axes, on the right); the panels are titled
            instead.
        ncols : int, optional
            Columns of the new grid of panels; default ``min(4, n_subgroups)``.

        Returns
        -------
        SubgroupPRDisplay
        """
        if layout not in ("panels", "overlay"):
            raise ValueError(f"`layout` must be 'panels' or 'overlay'; got {layout!r}")
        k = len(self.bands)
        if layout == "panels" and k > 1 and not _is_single_axes(ax):
            return self._plot_panels(ax, ncols)
        ax, fig = get_axes(ax, figsize=(7.5, 4.8))
        level = f" ({percent(self.ci_prob)})" if self.ci_prob is not None else ""
        self.overall_fill_ = self._overall(ax, level)
        self.fills_, self.lines_ = {}, {}
        for i, (label, (lo, med, hi)) in enumerate(self.bands.items()):
            color = SUBGROUP_COLORS[i % len(SUBGROUP_COLORS)]
            self.fills_[label] = ax.fill_between(self.recall, lo, hi, color=color, alpha=0.08)
            for edge in (lo, hi):
                ax.plot(self.recall, edge, color=color, linewidth=0.6, alpha=0.7)
            (self.lines_[label],) = ax.plot(
                self.recall, med, color=color, linewidth=1.8, label=label + level
            )
        unit_axes(ax, "Recall", "Precision")
        self.axes_ = np.array([ax], dtype=object)
        if legend:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return finish(self, ax, fig, False)

    def _overall(self, ax, level):
        if self.overall is None:
            return None
        lo, med, hi = self.overall
        fill = ax.fill_between(
            self.recall, lo, hi, color="0.85", label=f"all subgroups{level}", zorder=0
        )
        ax.plot(self.recall, med, color="0.4", linestyle="--", linewidth=1.0)
        return fill

    def _plot_panels(self, ax, ncols):
        k = len(self.bands)
        if ax is None:
            import matplotlib.pyplot as plt

            ncols = min(4, k) if ncols is None else int(ncols)
            nrows = -(-k // ncols)
            fig, grid = plt.subplots(
                nrows,
                ncols,
                figsize=(2.3 * ncols + 0.6, 2.3 * nrows + 0.5),
                sharex=True,
                sharey=True,
                squeeze=False,
                layout="constrained",
            )
            axes = grid.ravel()
        else:
            axes = np.asarray(ax, dtype=object).ravel()
            if axes.size < k:
                raise ValueError(
                    f"`ax` must hold at least one axes per subgroup ({k}); got {axes.size}"
                )
            fig = axes[0].figure
        for extra in axes[k:]:
            extra.set_visible(False)
        level = f" ({percent(self.ci_prob)})" if self.ci_prob is not None else ""
        self.fills_, self.lines_ = {}, {}
        self.overall_fill_ = None
        for i, (label, (lo, med, hi)) in enumerate(self.bands.items()):
            a = axes[i]
            color = SUBGROUP_COLORS[i % len(SUBGROUP_COLORS)]
            fill = self._overall(a, level)
            self.overall_fill_ = fill if i == 0 else self.overall_fill_
            self.fills_[label] = a.fill_between(self.recall, lo, hi, color=color, alpha=0.3)
            (self.lines_[label],) = a.plot(
                self.recall, med, color=color, linewidth=1.6, label=label + level
            )
            a.set(xlim=UNIT_LIMITS, ylim=UNIT_LIMITS, aspect="equal")
            a.set_title(label, color=color, fontsize="medium")
        ncols = _grid_columns(axes[:k])
        for i, a in enumerate(axes[:k]):
            if i % ncols == 0:
                a.set_ylabel("Precision")
            if i >= k - ncols:  # the last panel of its column: its recall axis labelled
                a.set_xlabel("Recall")
                a.xaxis.set_tick_params(labelbottom=True)
        self.axes_ = axes[:k]
        note = "grey: all subgroups together" if self.overall is not None else ""
        if note:
            fig.suptitle(f"PR band per subgroup{level}; {note}", fontsize="medium")
        self.ax_, self.figure_ = axes[0], fig
        return self

    @classmethod
    def from_comparison(cls, comparison, subgroups=None, *, ci_prob=None, ax=None, **kwargs):
        """Bands of ``subgroups`` (default: the flagged ones, then the lowest, 4 in all,
        in the table's natural order).

        Parameters
        ----------
        comparison : SubgroupComparison
        subgroups : label or list of labels, optional
        ci_prob : float, optional
        ax, **kwargs
            As :meth:`plot` (``layout``, ``legend``, ``ncols``).
        """
        t = comparison.table
        if subgroups is None:
            order = t.sort_values("estimate").index.tolist()
            chosen = [s for s in order if t.loc[s, "flagged"]][:4]
            chosen += [s for s in order if s not in chosen][: max(0, min(4, len(t)) - len(chosen))]
            subgroups = [s for s in t.index if s in chosen[:4]]  # in the table's order
        elif not isinstance(subgroups, (list, tuple, np.ndarray)):
            subgroups = [subgroups]  # one label
        band = comparison.pr_band(subgroup=list(subgroups), ci_prob=ci_prob)
        bands = {
            str(s): (band["lower"].values[i], band["median"].values[i], band["upper"].values[i])
            for i, s in enumerate(subgroups)
        }
        overall = comparison.overall.pr_band(ci_prob=ci_prob)
        disp = cls(
            band["recall"].values,
            bands,
            (overall["lower"].values, overall["median"].values, overall["upper"].values),
            ci_prob=band.attrs["ci_prob"],
        )
        return disp.plot(ax=ax, **kwargs)


def _is_single_axes(ax):
    return ax is not None and hasattr(ax, "plot")


def _grid_columns(axes):
    """Columns of a grid of panels (from their positions): the count in the first row."""
    try:
        spec = axes[0].get_subplotspec()
        return spec.get_gridspec().ncols
    except AttributeError:  # axes not from a grid: one column
        return 1
