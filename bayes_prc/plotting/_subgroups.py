"""``SubgroupDisplay`` (a forest of per-subgroup intervals) and ``SubgroupPRDisplay``."""

from __future__ import annotations

import numpy as np

from .._core import plain
from ._base import (
    BOOTSTRAP_COLOR,
    EMPIRICAL_COLOR,
    POSTERIOR_COLOR,
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


class SubgroupDisplay:
    """Forest plot of each subgroup's interval: partial pooling beside the alternatives.

    One row per subgroup (top to bottom in the given order), with the pooled
    (hierarchical model) interval and, slightly offset, the independent and bootstrap
    intervals when given; a cross marks the subgroup's empirical value. The pooled
    population's interval is a shaded vertical band with its estimate. Flagged subgroups
    (``prob_below_overall > 0.9``) have their label in red.

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
        self.overall_band_ = ax.axvspan(lo, hi, color="0.85", zorder=0, label=f"overall{level}")
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


class SubgroupPRDisplay:
    """Credible bands of subgroups' PR curves over the pooled population's band.

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
    overall_fill_ : matplotlib.collections.PolyCollection or None
    ax_, figure_

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

    def plot(self, ax=None, *, legend=True):
        """Draw the bands (one colour per subgroup) and the pooled population's band."""
        ax, fig = get_axes(ax, figsize=(7.5, 4.8))
        level = f" ({percent(self.ci_prob)})" if self.ci_prob is not None else ""
        self.overall_fill_ = None
        if self.overall is not None:
            lo, med, hi = self.overall
            self.overall_fill_ = ax.fill_between(
                self.recall, lo, hi, color="0.85", label=f"overall{level}", zorder=0
            )
            ax.plot(self.recall, med, color="0.4", linestyle="--", linewidth=1.0)
        self.fills_, self.lines_ = {}, {}
        for i, (label, (lo, med, hi)) in enumerate(self.bands.items()):
            color = f"C{i % 10}"
            self.fills_[label] = ax.fill_between(self.recall, lo, hi, color=color, alpha=0.18)
            (self.lines_[label],) = ax.plot(self.recall, med, color=color, label=label + level)
        unit_axes(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return finish(self, ax, fig, False)

    @classmethod
    def from_comparison(cls, comparison, subgroups=None, *, ci_prob=None, ax=None, **kwargs):
        """Bands of ``subgroups`` (default: the flagged ones, then the lowest, 4 in all).

        Parameters
        ----------
        comparison : SubgroupComparison
        subgroups : label or list of labels, optional
        ci_prob : float, optional
        ax, **kwargs
            As :meth:`plot`.
        """
        t = comparison.table
        if subgroups is None:
            order = t.sort_values("estimate").index.tolist()
            chosen = [s for s in order if t.loc[s, "flagged"]][:4]
            chosen += [s for s in order if s not in chosen][: max(0, min(4, len(t)) - len(chosen))]
            subgroups = chosen[:4]
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
