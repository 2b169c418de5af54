"""``ThresholdChoiceDisplay``: the chosen threshold on the PR curve and on the threshold axis."""

from __future__ import annotations

import numpy as np

from ._base import (
    EMPIRICAL_COLOR,
    UNIT_LIMITS,
    DisplayMixin,
    check_same_length,
    float_1d,
    merge,
    optional_1d,
    percent,
)

__all__ = ["ThresholdChoiceDisplay"]

CERTIFIED_COLOR = "C2"
CHOSEN_COLOR = "C3"
KINDS = ("both", "pr", "threshold")


class ThresholdChoiceDisplay(DisplayMixin):
    """The chosen threshold with its intervals, the certified region and the target.

    Two panels (``kind="both"``, the default): the empirical PR curve over the candidate
    thresholds with the chosen point (its precision and recall intervals as error bars)
    and the certified part of the curve shaded; and precision (with its pointwise
    interval when given) and recall against the threshold, the target as a horizontal
    line, the certified thresholds shaded and the chosen one as a vertical line.

    Parameters
    ----------
    thresholds : array of shape (n_grid,)
        Candidate thresholds, increasing.
    precision, recall : array of shape (n_grid,)
        Empirical precision and recall at each threshold.
    certified : array of bool, shape (n_grid,)
        Whether the guarantee holds at each threshold (the method's rule).
    threshold : float, optional
        The chosen threshold (None: nothing certified).
    point_precision, point_recall : float, optional
        Precision and recall at the chosen threshold.
    precision_interval, recall_interval : (float, float), optional
        Their intervals.
    precision_low, precision_high : array of shape (n_grid,), optional
        A pointwise precision interval per threshold (drawn on the threshold panel).
    target : float, optional
    metric : {"precision", "recall"}, default "precision"
    ci_prob : float, optional
    title : str, optional

    Attributes
    ----------
    curve_line_, point_, certified_region_ : artists of the PR panel (or None)
    precision_line_, recall_line_, band_, target_line_, threshold_line_,
    certified_span_ : artists of the threshold panel (or None)
    axes_ : list of matplotlib.axes.Axes
        The panels drawn, PR panel first.
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from bayes_prc.threshold import choose_threshold
    >>> from bayes_prc.plotting import ThresholdChoiceDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.3
    >>> s = rng.normal(2.0 * y, 1.0)
    >>> c = choose_threshold(y, s, min_precision=0.8, random_seed=0)
    >>> disp = ThresholdChoiceDisplay.from_choice(c)
    >>> len(disp.axes_), disp.point_ is not None
    (2, True)
    """

    def __init__(
        self,
        thresholds,
        precision,
        recall,
        certified,
        *,
        threshold=None,
        point_precision=None,
        point_recall=None,
        precision_interval=None,
        recall_interval=None,
        precision_low=None,
        precision_high=None,
        target=None,
        metric="precision",
        ci_prob=None,
        title=None,
    ):
        self.thresholds = float_1d(thresholds, "thresholds")
        self.precision = float_1d(precision, "precision")
        self.recall = float_1d(recall, "recall")
        self.certified = np.asarray(certified, dtype=bool)
        self.precision_low = optional_1d(precision_low, "precision_low")
        self.precision_high = optional_1d(precision_high, "precision_high")
        if (self.precision_low is None) != (self.precision_high is None):
            raise ValueError("`precision_low` and `precision_high` must be given together")
        check_same_length(
            thresholds=self.thresholds,
            precision=self.precision,
            recall=self.recall,
            certified=self.certified,
            precision_low=self.precision_low,
            precision_high=self.precision_high,
        )
        if metric not in ("precision", "recall"):
            raise ValueError(f"`metric` must be 'precision' or 'recall'; got {metric!r}")
        self.threshold = None if threshold is None else float(threshold)
        self.point_precision = point_precision
        self.point_recall = point_recall
        self.precision_interval = precision_interval
        self.recall_interval = recall_interval
        self.target = target
        self.metric = metric
        self.ci_prob = ci_prob
        self.title = title

    @classmethod
    def from_choice(cls, choice, *, kind="both", ax=None, **kwargs):
        """The display of a :class:`bayes_prc.threshold.ThresholdChoice`, drawn.

        Parameters
        ----------
        choice : ThresholdChoice
        kind : {"both", "pr", "threshold"}, default "both"
        ax : Axes or a pair of Axes, optional
            One axes for one panel, two for ``"both"``.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ThresholdChoiceDisplay
        """
        curve = choice.curve
        if curve is None:
            raise ValueError("`choice` holds no curve (made by an older choose_threshold)")
        low = curve["precision_low"].to_numpy(float)
        has_band = bool(np.isfinite(low).any())
        chosen = choice.threshold is not None
        disp = cls(
            curve["threshold"].to_numpy(float),
            curve["precision"].to_numpy(float),
            curve["recall"].to_numpy(float),
            curve["certified"].to_numpy(bool),
            threshold=choice.threshold,
            point_precision=choice.precision if chosen else None,
            point_recall=choice.recall if chosen else None,
            precision_interval=(choice.precision_low, choice.precision_high) if chosen else None,
            recall_interval=(choice.recall_low, choice.recall_high) if chosen else None,
            precision_low=low if has_band else None,
            precision_high=curve["precision_high"].to_numpy(float) if has_band else None,
            target=choice.target,
            metric=choice.metric,
            ci_prob=choice.ci_prob,
            title=f"{choice.guarantee} [{choice.method}]",
        )
        return disp.plot(ax=ax, kind=kind, **kwargs)

    def plot(self, ax=None, *, kind="both", legend=True, curve_kw=None, point_kw=None):
        """Draw the panels.

        Parameters
        ----------
        ax : Axes or a pair of Axes, optional
            One axes for ``kind="pr"`` or ``"threshold"``, two for ``"both"``; new
            pyplot axes when omitted.
        kind : {"both", "pr", "threshold"}, default "both"
        legend : bool, default True
        curve_kw, point_kw : dict, optional
            Keyword arguments of the PR curve line / the chosen point's error bars.

        Returns
        -------
        ThresholdChoiceDisplay
        """
        if kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}; got {kind!r}")
        n_panels = 2 if kind == "both" else 1
        if ax is None:
            import matplotlib.pyplot as plt

            fig, axes = plt.subplots(
                1, n_panels, figsize=(5.2 * n_panels, 4.2), layout="constrained", squeeze=False
            )
            axes = list(axes[0])
        else:
            axes = list(np.atleast_1d(ax))
            if len(axes) != n_panels:
                raise ValueError(
                    f"`ax` must hold {n_panels} axes for kind={kind!r}; got {len(axes)}"
                )
            fig = axes[0].figure
        for name in (
            "curve_line_",
            "point_",
            "certified_region_",
            "precision_line_",
            "recall_line_",
            "band_",
            "target_line_",
            "threshold_line_",
            "certified_span_",
        ):
            setattr(self, name, None)
        panels = {"both": ("pr", "threshold"), "pr": ("pr",), "threshold": ("threshold",)}[kind]
        for panel, a in zip(panels, axes, strict=True):
            if panel == "pr":
                self._plot_pr(a, curve_kw, point_kw)
            else:
                self._plot_threshold(a)
            if legend:
                a.legend(loc="best", fontsize="small")
        if self.title:
            fig.suptitle(self.title, fontsize="small")
        self.axes_, self.ax_, self.figure_ = axes, axes[0], fig
        return self

    def _plot_pr(self, ax, curve_kw, point_kw):
        order = np.argsort(self.recall, kind="stable")
        rec, prec, cert = self.recall[order], self.precision[order], self.certified[order]
        style = {"color": EMPIRICAL_COLOR, "linewidth": 1.2, "label": "empirical (grid)"}
        (self.curve_line_,) = ax.plot(rec, prec, **merge(style, curve_kw))
        if cert.any():
            self.certified_region_ = ax.fill_between(
                rec,
                0,
                prec,
                where=cert,
                color=CERTIFIED_COLOR,
                alpha=0.25,
                linewidth=0,
                label="certified",
            )
        self._target_line(ax, horizontal=self.metric == "precision")
        if self.point_precision is not None and self.point_recall is not None:
            xerr = _err(self.point_recall, self.recall_interval)
            yerr = _err(self.point_precision, self.precision_interval)
            ci = f" ({percent(self.ci_prob)} intervals)" if self.ci_prob is not None else ""
            style = {
                "color": CHOSEN_COLOR,
                "marker": "o",
                "capsize": 3,
                "label": f"chosen threshold{ci}",
            }
            self.point_ = ax.errorbar(
                [self.point_recall],
                [self.point_precision],
                xerr=xerr,
                yerr=yerr,
                **merge(style, point_kw),
            )
        ax.set(xlabel="Recall", ylabel="Precision", xlim=UNIT_LIMITS, ylim=UNIT_LIMITS)

    def _plot_threshold(self, ax):
        t = self.thresholds
        if self.precision_low is not None:
            ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
            self.band_ = ax.fill_between(
                t,
                self.precision_low,
                self.precision_high,
                color="C0",
                alpha=0.2,
                linewidth=0,
                label=f"precision: {ci}pointwise interval",
            )
        (self.precision_line_,) = ax.plot(t, self.precision, color="C0", label="precision")
        (self.recall_line_,) = ax.plot(t, self.recall, color="C1", label="recall")
        if self.certified.any():
            self.certified_span_ = ax.fill_between(
                t,
                0,
                1,
                where=self.certified,
                transform=ax.get_xaxis_transform(),
                color=CERTIFIED_COLOR,
                alpha=0.15,
                linewidth=0,
                label="certified thresholds",
            )
        self._target_line(ax, horizontal=True)
        if self.threshold is not None:
            self.threshold_line_ = ax.axvline(
                self.threshold, color=CHOSEN_COLOR, linestyle="--", label="chosen threshold"
            )
        ax.set(xlabel="Threshold (flag score >= t)", ylabel="Precision, recall", ylim=UNIT_LIMITS)

    def _target_line(self, ax, horizontal):
        if self.target is None:
            return
        label = f"target {self.metric} {self.target:g}"
        draw = ax.axhline if horizontal else ax.axvline
        self.target_line_ = draw(self.target, color="0.4", linestyle=":", label=label)


def _err(point, interval):
    if interval is None or not np.all(np.isfinite(interval)):
        return None
    low, high = interval
    return [[max(point - low, 0.0)], [max(high - point, 0.0)]]
