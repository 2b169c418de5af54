"""Plans: the pool-AP width against the labelling budget, the test-set width or power against n."""

from __future__ import annotations

import numpy as np

from ._base import (
    POSTERIOR_COLOR,
    DisplayMixin,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    optional_1d,
)

__all__ = ["LabelPlanDisplay", "PlanDisplay"]


class LabelPlanDisplay(DisplayMixin):
    """Planned width of the AP interval against the labelling budget, with error bars.

    Parameters
    ----------
    budget : array-like of shape (n_budgets,)
        Total labelled items (pilot included).
    width : array-like of shape (n_budgets,)
        Expected width of the AP interval at each budget (``plan_labels``' ``ap_width``).
    width_sd : array-like of shape (n_budgets,), optional
        Spread of the width over replicates (``ap_width_sd``): drawn as error bars, the
        range one labelling may land in.
    n_pilot : int, optional
        Labels already paid for: a vertical line.
    ci_prob : float, optional
        Probability of the planned intervals (for the axis label).

    Attributes
    ----------
    line_ : matplotlib.container.ErrorbarContainer
    pilot_line_ : matplotlib.lines.Line2D or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayes_prc.plotting import LabelPlanDisplay
    >>> disp = LabelPlanDisplay([200, 400, 800], [0.3, 0.21, 0.15], width_sd=[0.05, 0.04, 0.03],
    ...                         n_pilot=200, ci_prob=0.9).plot()
    >>> disp.ax_.get_xlabel(), disp.ax_.get_xscale()
    ('Labelled items (budget)', 'log')
    """

    def __init__(self, budget, width, *, width_sd=None, n_pilot=None, ci_prob=None):
        self.budget = float_1d(budget, "budget")
        self.width = float_1d(width, "width")
        self.width_sd = optional_1d(width_sd, "width_sd")
        check_same_length(budget=self.budget, width=self.width, width_sd=self.width_sd)
        self.n_pilot = n_pilot
        self.ci_prob = ci_prob

    @classmethod
    def from_plan(cls, plan, *, ax=None, **kwargs):
        """Plot the DataFrame returned by :func:`bayes_prc.plan_labels`."""
        attrs = getattr(plan, "attrs", {})
        disp = cls(
            np.asarray(plan.index, dtype=np.float64),
            plan["ap_width"].to_numpy(),
            width_sd=plan["ap_width_sd"].to_numpy() if "ap_width_sd" in plan else None,
            n_pilot=attrs.get("n_pilot") or None,
            ci_prob=attrs.get("ci_prob"),
        )
        return disp.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, color=POSTERIOR_COLOR, **kwargs):
        """Draw width against budget (log budget axis) with the error bars."""
        ax, fig = get_axes(ax, figsize=(6.0, 4.0))
        yerr = None if self.width_sd is None else np.nan_to_num(self.width_sd)
        style = {
            "color": color,
            "marker": "o",
            "capsize": 3,
            "label": "expected width (bars: +-1 sd over labellings)",
        }
        style.update(kwargs)
        self.line_ = ax.errorbar(self.budget, self.width, yerr=yerr, **style)
        self.pilot_line_ = None
        if self.n_pilot:
            self.pilot_line_ = ax.axvline(
                self.n_pilot, color="0.5", ls=":", label=f"pilot ({self.n_pilot} labels)"
            )
        ax.set_xscale("log")
        pct = "" if self.ci_prob is None else f"{100 * self.ci_prob:.4g}% "
        ax.set_xlabel("Labelled items (budget)")
        ax.set_ylabel(f"Width of the {pct}AP interval")
        ax.set_ylim(bottom=0.0)
        return finish(self, ax, fig, True, "upper right")


class PlanDisplay(DisplayMixin):
    """The test-set plan: interval width (or power) against the number of items.

    Parameters
    ----------
    n : array-like of shape (n_candidates,)
        Candidate numbers of labelled items.
    value : array-like of shape (n_candidates,)
        At each ``n``: the width quantile at the assurance (``target="width"``) or the
        power (``target="difference"``).
    target : {"width", "difference"}
    goal : float
        The target width, or the power wanted (drawn as a horizontal line).
    median : array-like of shape (n_candidates,), optional
        The median width (``target="width"``), drawn dashed.
    recommended : int, optional
        The recommended ``n``: a vertical line.
    assurance, ci_prob : float, optional
        For the labels.

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D
    median_line_, target_line_, recommended_line_ : matplotlib.lines.Line2D or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayes_prc.plotting import PlanDisplay
    >>> disp = PlanDisplay([100, 200, 400], [0.3, 0.2, 0.14], target="width", goal=0.15,
    ...                    recommended=400, assurance=0.8).plot()
    >>> disp.ax_.get_xlabel(), disp.ax_.get_xscale()
    ('Labelled items (n)', 'log')
    """

    def __init__(
        self,
        n,
        value,
        *,
        target,
        goal,
        median=None,
        recommended=None,
        assurance=None,
        ci_prob=None,
    ):
        if target not in ("width", "difference"):
            raise ValueError(f"`target` must be 'width' or 'difference'; got {target!r}")
        self.n = float_1d(n, "n")
        self.value = float_1d(value, "value")
        self.median = optional_1d(median, "median")
        check_same_length(n=self.n, value=self.value, median=self.median)
        self.target, self.goal = target, float(goal)
        self.recommended, self.assurance, self.ci_prob = recommended, assurance, ci_prob

    @classmethod
    def from_plan(cls, plan, *, ax=None, **kwargs):
        """Plot a :class:`bayes_prc.planning.SampleSizePlan` (its ``table``)."""
        t = plan.table
        width = plan.target == "width"
        disp = cls(
            t["n"].to_numpy(),
            t["assured_width" if width else "power"].to_numpy(),
            target=plan.target,
            goal=plan.width if width else plan.assurance,
            median=t["median_width"].to_numpy() if width else None,
            recommended=plan.n,
            assurance=plan.assurance,
            ci_prob=plan.ci_prob,
        )
        return disp.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, color=POSTERIOR_COLOR, **kwargs):
        """Draw the curve (log n axis), the target line and the recommended n."""
        ax, fig = get_axes(ax, figsize=(6.0, 4.0))
        order = np.argsort(self.n)
        x = self.n[order]
        pct = "" if self.ci_prob is None else f"{100 * self.ci_prob:.4g}% "
        if self.target == "width":
            share = "" if self.assurance is None else f"{100 * self.assurance:.4g}% quantile"
            label = f"width, {share}" if share else "width"
            ylabel = f"Width of the {pct}AP interval"
            goal_label = f"target width {self.goal:.4g}"
        else:
            label = "power"
            ylabel = f"Power ({pct}interval of AP_B - AP_A excludes 0)"
            goal_label = f"target power {self.goal:.4g}"
        style = {"color": color, "marker": "o", "ms": 3, "label": label}
        style.update(kwargs)
        (self.line_,) = ax.plot(x, self.value[order], **style)
        self.median_line_ = None
        if self.median is not None:
            (self.median_line_,) = ax.plot(
                x, self.median[order], color=color, ls="--", lw=1, label="median width"
            )
        self.target_line_ = ax.axhline(self.goal, color="0.3", ls=":", label=goal_label)
        self.recommended_line_ = None
        if self.recommended is not None:
            self.recommended_line_ = ax.axvline(
                self.recommended, color="C3", ls="-.", lw=1, label=f"n = {self.recommended}"
            )
        ax.set_xscale("log")
        ax.set_xlabel("Labelled items (n)")
        ax.set_ylabel(ylabel)
        if self.target == "difference":
            ax.set_ylim(0.0, 1.02)
        else:
            ax.set_ylim(bottom=0.0)
        return finish(self, ax, fig, True, "best")
