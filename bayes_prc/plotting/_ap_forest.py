"""``APForestDisplay``: the posterior density of the AP with a forest of frequentist
intervals under it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._core import plain
from ._base import (
    EMPIRICAL_COLOR,
    POSTERIOR_COLOR,
    DisplayMixin,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    merge,
    percent,
)

__all__ = ["APForestDisplay"]


def _scalar(value, what):
    arr = np.asarray(value, dtype=np.float64)
    if arr.size != 1:
        raise ValueError(f"{what} must be a single number; got an array of shape {arr.shape}")
    return float(arr.reshape(()))


def _interval_label(obj):
    method = getattr(obj, "method", None)
    level = getattr(obj, "confidence_level", None)
    label = str(method) if method is not None else type(obj).__name__
    if level is not None:
        label += f" ({percent(level)})"
    return label


def _forest_rows(intervals):
    """``[(label, estimate, low, high), ...]`` from the accepted input forms."""
    if intervals is None:
        return []
    items = list(intervals.items()) if isinstance(intervals, Mapping) else list(intervals)
    rows = []
    for k, item in enumerate(items):
        label = None
        if isinstance(intervals, Mapping):
            label, item = item
        if hasattr(item, "low") and hasattr(item, "high"):
            est = getattr(item, "estimate", None)
            label = _interval_label(item) if label is None else label
            low, high = item.low, item.high
        elif isinstance(item, tuple | list) and len(item) == (3 if label is not None else 4):
            if label is None:
                label, est, low, high = item
            else:
                est, low, high = item
        else:
            raise ValueError(
                f"`intervals[{k}]` must be a (label, estimate, low, high) tuple or an object "
                f"with `estimate`, `low`, `high` (and `method`); got {plain(item)}"
            )
        where = f"`intervals[{k}]` ({label})"
        est = np.nan if est is None else _scalar(est, f"the estimate of {where}")
        rows.append(
            (
                str(label),
                est,
                _scalar(low, f"`low` of {where}"),
                _scalar(high, f"`high` of {where}"),
            )
        )
    return rows


class APForestDisplay(DisplayMixin):
    """Posterior density of the AP with every frequentist interval drawn under it.

    The top of the axes shows the posterior density of the average precision (a
    Gaussian KDE of the draws, ``BinormalPosterior.ap_density``) and the posterior
    median (dotted vertical line); below, one row per interval (a forest plot): the
    posterior credible interval first (in the posterior's colour), then each
    frequentist interval with its point estimate, so the Bayesian and frequentist
    answers can be read off the same AP axis.

    Parameters
    ----------
    x : array of shape (n_grid,)
        AP values where the density is given.
    density : array of shape (n_grid,)
        Posterior density of the AP at ``x``.
    intervals : sequence or mapping, optional
        Frequentist intervals: ``(label, estimate, low, high)`` tuples; objects with
        ``estimate``, ``low``, ``high`` and ``method`` (and optionally
        ``confidence_level``) attributes, labelled ``"method (level)"``, such as
        :class:`bayes_prc.ProportionInterval`; or a mapping ``label -> object`` or
        ``label -> (estimate, low, high)``. ``estimate`` may be None.
    posterior_median : float, optional
        Marker of the posterior row and dotted vertical line.
    credible_interval : (float, float), optional
        Posterior credible interval (the first forest row).
    ci_prob : float, optional
    ci_kind : {"hdi", "eti"}, optional
        For the label of the posterior row.

    Attributes
    ----------
    density_line_ : matplotlib.lines.Line2D
    density_fill_ : matplotlib.collections.PolyCollection
    median_line_ : matplotlib.lines.Line2D or None
    credible_interval_ : matplotlib.collections.LineCollection or None
        The posterior row's interval (``hlines``).
    interval_lines_ : matplotlib.collections.LineCollection or None
        One horizontal segment ``[(low, y), (high, y)]`` per frequentist row.
    estimate_markers_ : matplotlib.lines.Line2D or None
        Point estimates of the frequentist rows (NaN where none was given).
    row_positions_ : numpy.ndarray
        y positions of the rows (posterior row first), all below 0.
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import APForestDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> rows = [("bootstrap (95%)", 0.45, 0.37, 0.55)]
    >>> disp = APForestDisplay.from_posterior(post, rows)
    >>> [t.get_text() for t in disp.ax_.get_yticklabels()]
    ['posterior (95% HDI)', 'bootstrap (95%)']
    >>> disp.interval_lines_.get_segments()[0][:, 0].tolist()  # (low, high) of the row
    [0.37, 0.55]
    """

    def __init__(
        self,
        x,
        density,
        *,
        intervals=None,
        posterior_median=None,
        credible_interval=None,
        ci_prob=None,
        ci_kind=None,
    ):
        self.x = float_1d(x, "x")
        self.density = float_1d(density, "density")
        check_same_length(x=self.x, density=self.density)
        if self.x.shape[0] < 2:
            raise ValueError("`x` must have at least 2 points")
        rows = _forest_rows(intervals)
        self.interval_labels = [r[0] for r in rows]
        self.interval_estimates = np.array([r[1] for r in rows], dtype=np.float64)
        self.interval_lows = np.array([r[2] for r in rows], dtype=np.float64)
        self.interval_highs = np.array([r[3] for r in rows], dtype=np.float64)
        self.posterior_median = None if posterior_median is None else float(posterior_median)
        if credible_interval is not None:
            credible_interval = tuple(float(v) for v in np.asarray(credible_interval).ravel())
            if len(credible_interval) != 2:
                raise ValueError("`credible_interval` must be a (lower, upper) pair")
        self.credible_interval = credible_interval
        self.ci_prob = ci_prob
        self.ci_kind = ci_kind

    def plot(self, ax=None, *, legend=True, density_kw=None, interval_kw=None, **kwargs):
        """Draw the density and the forest rows.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        legend : bool, default True
        density_kw : dict, optional
            Keyword arguments of the density line (``color`` also colours its fill and the
            posterior row).
        interval_kw : dict, optional
            Keyword arguments of the frequentist rows' ``hlines``.
        **kwargs
            Keyword arguments of the frequentist point-estimate markers (``ax.plot``).

        Returns
        -------
        APForestDisplay
        """
        ax, fig = get_axes(ax)
        dens_style = merge(
            {"color": POSTERIOR_COLOR, "linewidth": 1.8, "label": "AP posterior density"},
            density_kw,
        )
        color = dens_style["color"]
        dmax = float(np.max(self.density)) if np.max(self.density) > 0 else 1.0
        has_post_row = self.credible_interval is not None
        n_rows = int(has_post_row) + len(self.interval_labels)
        step = dmax * (0.14 if n_rows <= 5 else 0.7 / n_rows)
        ys = -step * (np.arange(n_rows) + 1.0)
        self.row_positions_ = ys

        self.density_fill_ = ax.fill_between(
            self.x, 0.0, self.density, color=color, alpha=0.25, linewidth=0
        )
        (self.density_line_,) = ax.plot(self.x, self.density, **dens_style)
        ax.axhline(0.0, color="0.6", linewidth=0.8)
        self.median_line_ = None
        if self.posterior_median is not None:
            self.median_line_ = ax.axvline(
                self.posterior_median,
                color=color,
                linestyle=":",
                linewidth=1.2,
                label=f"posterior median {self.posterior_median:.3f}",
            )
        labels = []
        self.credible_interval_ = None
        if has_post_row:
            lo, hi = self.credible_interval
            self.credible_interval_ = ax.hlines(ys[0], lo, hi, color=color, linewidth=3.0)
            if self.posterior_median is not None:
                ax.plot([self.posterior_median], [ys[0]], "o", color=color, markersize=6)
            kind = (self.ci_kind or "").upper()
            level = percent(self.ci_prob) if self.ci_prob is not None else ""
            detail = " ".join(v for v in (level, kind) if v)
            labels.append(f"posterior ({detail})" if detail else "posterior")
        self.interval_lines_ = self.estimate_markers_ = None
        if self.interval_labels:
            rows_y = ys[int(has_post_row) :]
            self.interval_lines_ = ax.hlines(
                rows_y,
                self.interval_lows,
                self.interval_highs,
                **merge({"color": EMPIRICAL_COLOR, "linewidth": 1.8}, interval_kw),
            )
            (self.estimate_markers_,) = ax.plot(
                self.interval_estimates,
                rows_y,
                **merge(
                    {"marker": "D", "linestyle": "none", "color": EMPIRICAL_COLOR, "markersize": 5},
                    kwargs,
                ),
            )
            labels.extend(self.interval_labels)
        ax.set_yticks(ys, labels)
        bottom = ys[-1] - 0.8 * step if n_rows else -0.05 * dmax
        ax.set_ylim(bottom, 1.1 * dmax)
        ax.set_xlabel("Average precision")
        ax.tick_params(axis="y", length=0)
        return finish(self, ax, fig, legend, "upper left")

    @classmethod
    def from_posterior(
        cls,
        posterior,
        intervals=None,
        *,
        ci_prob=None,
        ci_kind="hdi",
        prevalence=None,
        bw_method=None,
        n_points=512,
        ax=None,
        **kwargs,
    ):
        """KDE of the posterior AP draws, the credible interval, and the given intervals.

        Parameters
        ----------
        posterior : BinormalPosterior
        intervals : sequence or mapping, optional
            Frequentist intervals (see the class docstring).
        ci_prob : float, optional
            Probability of the credible interval; defaults to the fit's ``ci_prob``.
        ci_kind : {"hdi", "eti"}, default "hdi"
        prevalence : float, optional
            AP at another prevalence (``posterior.average_precision(prevalence)``).
        bw_method : str, float or callable, optional
            Bandwidth of the Gaussian KDE (:meth:`BinormalPosterior.ap_density`, which
            reflects the kernel mass beyond 0 and 1 back into [0, 1]).
        n_points : int, default 512
            Size of the density grid (spanning the draws +- 3 bandwidths, within [0, 1]).
        ax, **kwargs
            ``ax`` and keyword arguments of :meth:`plot`.

        Returns
        -------
        APForestDisplay
        """
        ap = posterior.average_precision(prevalence)
        density = posterior.ap_density(prevalence, bw_method=bw_method, n_points=n_points)
        ci = posterior.interval(ap, ci_prob=ci_prob, ci_kind=ci_kind)
        disp = cls(
            density["average_precision"].values,
            density.values,
            intervals=intervals,
            posterior_median=float(ap.median()),
            credible_interval=(float(ci.sel(ci_bound="lower")), float(ci.sel(ci_bound="upper"))),
            ci_prob=ci.attrs["ci_prob"],
            ci_kind=ci_kind,
        )
        return disp.plot(ax=ax, **kwargs)
