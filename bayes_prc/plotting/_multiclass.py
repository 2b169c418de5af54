"""Per-class AP posteriors of a one-vs-rest fit (multiclass / multilabel)."""

from __future__ import annotations

import numpy as np

from ._base import (
    DisplayMixin,
    finish,
    float_1d,
    get_axes,
)

__all__ = ["PerClassAPDisplay"]


class PerClassAPDisplay(DisplayMixin):
    """Per-class AP posteriors as violins, with credible intervals and empirical APs.

    Parameters
    ----------
    classes : sequence of str
        Class names, one row each.
    draws : list of 1-D arrays
        AP posterior draws of each class.
    lower, median, upper : array-like of shape (n_classes,)
        Equal-tailed credible interval and median of each class.
    empirical : array-like of shape (n_classes,), optional
        Empirical one-vs-rest AP of each class.
    macro : (float, float, float), optional
        ``(lower, median, upper)`` of the macro-average AP posterior.
    ci_prob : float, optional

    Attributes
    ----------
    violins_ : dict
        The artists of :meth:`matplotlib.axes.Axes.violinplot`.
    interval_lines_ : matplotlib.collections.LineCollection
        One horizontal segment ``[(lower, y), (upper, y)]`` per class.
    median_markers_, empirical_markers_ : matplotlib.lines.Line2D
    macro_band_ : matplotlib.patches.Rectangle or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import PerClassAPDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 300)
    >>> scores = rng.normal(size=(300, 3)) + 1.5 * np.eye(3)[y]
    >>> ovr = bp.fit_binormal_ovr(y, scores, draws=200, random_seed=1)
    >>> disp = PerClassAPDisplay.from_posterior(ovr, y, scores)
    >>> [t.get_text() for t in disp.ax_.get_yticklabels()]
    ['0', '1', '2']
    """

    def __init__(
        self, classes, draws, lower, median, upper, *, empirical=None, macro=None, ci_prob=None
    ):
        self.classes = [str(c) for c in classes]
        self.draws = [float_1d(d, "draws") for d in draws]
        self.lower = float_1d(lower, "lower")
        self.median = float_1d(median, "median")
        self.upper = float_1d(upper, "upper")
        self.empirical = None if empirical is None else float_1d(empirical, "empirical")
        n = len(self.classes)
        for name in ("lower", "median", "upper"):
            if getattr(self, name).shape[0] != n:
                raise ValueError(f"`{name}` must have one value per class ({n})")
        if len(self.draws) != n or (self.empirical is not None and self.empirical.size != n):
            raise ValueError(f"`draws` and `empirical` must have one entry per class ({n})")
        self.macro = macro
        self.ci_prob = ci_prob

    @classmethod
    def from_posterior(cls, ovr, y_true=None, y_score=None, *, ci_prob=0.95, ax=None, **kwargs):
        """Summarize an :class:`~bayes_prc.bayes.OvRPosterior` and plot it.

        The intervals and medians are :meth:`~bayes_prc.bayes.OvRPosterior.ap_summary`'s;
        ``y_true``/``y_score`` (optional) add the empirical per-class APs (as
        :func:`bayes_prc.average_precision_score` with ``average=None``).
        """
        from ..empirical import average_precision_score

        per = ovr.average_precision()  # (chain, draw, class)
        flat = per.values.reshape(-1, per.sizes["class"])
        summary = ovr.ap_summary(ci_prob=ci_prob)
        macro = ovr.ap_summary("macro", ci_prob=ci_prob)
        emp = None
        if y_true is not None and y_score is not None:
            emp = average_precision_score(y_true, y_score, average=None)
        disp = cls(
            list(ovr.classes),
            [flat[:, j] for j in range(flat.shape[1])],
            summary["lower"].values,
            summary["median"].values,
            summary["upper"].values,
            empirical=emp,
            macro=tuple(float(macro[k]) for k in ("lower", "median", "upper")),
            ci_prob=ci_prob,
        )
        return disp.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, color="C0"):
        """Draw the violins, intervals, medians, empirical APs and the macro band."""
        ax, fig = get_axes(ax, figsize=(6.4, 1.0 + 0.6 * len(self.classes)))
        pos = np.arange(len(self.classes))[::-1].astype(float)
        self.violins_ = ax.violinplot(
            self.draws, positions=pos, orientation="horizontal", showextrema=False, widths=0.8
        )
        for body in self.violins_["bodies"]:
            body.set_facecolor(color)
            body.set_alpha(0.3)
        pct = "" if self.ci_prob is None else f"{self.ci_prob:.0%} "
        self.interval_lines_ = ax.hlines(
            pos, self.lower, self.upper, color=color, lw=2.5, label=f"{pct}credible interval"
        )
        (self.median_markers_,) = ax.plot(
            self.median, pos, "o", color=color, label="posterior median"
        )
        self.empirical_markers_ = None
        if self.empirical is not None:
            (self.empirical_markers_,) = ax.plot(
                self.empirical, pos, "kD", ms=5, label="empirical AP"
            )
        self.macro_band_ = None
        if self.macro is not None:
            lo, _, hi = self.macro
            self.macro_band_ = ax.axvspan(
                lo, hi, color="0.6", alpha=0.2, label=f"macro average ({pct}interval)"
            )
        ax.set_yticks(pos, self.classes)
        ax.set_xlabel("Average precision")
        ax.set_ylabel("Class (one vs rest)")
        ax.set_xlim(min(0.0, float(self.lower.min()) - 0.02), 1.02)
        return finish(self, ax, fig, True, "lower left")
