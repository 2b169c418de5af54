"""``ThresholdCurvesDisplay``: precision and recall as functions of the score threshold,
with credible bands (seed 004)."""

from __future__ import annotations

from ..empirical import as_ranked, precision_recall_curve
from ._base import (
    UNIT_LIMITS,
    DisplayMixin,
    check_pair,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    merge,
    optional_1d,
    percent,
    thin_curve,
)

__all__ = ["ThresholdCurvesDisplay"]


class ThresholdCurvesDisplay(DisplayMixin):
    """Precision and recall as functions of the score threshold, with credible bands.

    Parameters
    ----------
    thresholds : array of shape (n_grid,)
        Threshold grid on the original score scale.
    precision, recall : array of shape (n_grid,), optional
        Posterior median precision and recall at each threshold.
    precision_lower, precision_upper, recall_lower, recall_upper : array, optional
        Pointwise credible bands.
    ci_prob : float, optional
        Probability of the bands (legend).
    empirical_thresholds : array of shape (n_thresholds,), optional
        Distinct observed scores in increasing order (as from
        :func:`bayes_prc.precision_recall_curve`).
    empirical_precision, empirical_recall : array of shape (n_thresholds,), optional
        Empirical precision and recall at those thresholds (items with score >= t are
        called positive); drawn with ``drawstyle="steps-pre"`` (left-continuous).
    xlabel : str, default "Threshold"

    Attributes
    ----------
    precision_line_, recall_line_ : matplotlib.lines.Line2D or None
    precision_band_, recall_band_ : matplotlib.collections.PolyCollection or None
    empirical_precision_line_, empirical_recall_line_ : matplotlib.lines.Line2D or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import ThresholdCurvesDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = ThresholdCurvesDisplay.from_posterior(post, y, s)
    >>> disp.ax_.get_xlabel(), disp.precision_band_ is not None
    ('Threshold', True)
    """

    def __init__(
        self,
        thresholds,
        *,
        precision=None,
        precision_lower=None,
        precision_upper=None,
        recall=None,
        recall_lower=None,
        recall_upper=None,
        ci_prob=None,
        empirical_thresholds=None,
        empirical_precision=None,
        empirical_recall=None,
        xlabel="Threshold",
    ):
        self.thresholds = float_1d(thresholds, "thresholds")
        names = (
            "precision",
            "precision_lower",
            "precision_upper",
            "recall",
            "recall_lower",
            "recall_upper",
        )
        values = (precision, precision_lower, precision_upper, recall, recall_lower, recall_upper)
        for nm, v in zip(names, values, strict=True):
            setattr(self, nm, optional_1d(v, nm))
        check_same_length(thresholds=self.thresholds, **{nm: getattr(self, nm) for nm in names})
        check_pair(self.precision_lower, self.precision_upper, names[1:3])
        check_pair(self.recall_lower, self.recall_upper, names[4:6])
        self.empirical_thresholds = optional_1d(empirical_thresholds, "empirical_thresholds")
        self.empirical_precision = optional_1d(empirical_precision, "empirical_precision")
        self.empirical_recall = optional_1d(empirical_recall, "empirical_recall")
        if self.empirical_thresholds is None and (
            self.empirical_precision is not None or self.empirical_recall is not None
        ):
            raise ValueError("`empirical_thresholds` is needed to draw empirical curves")
        check_same_length(
            empirical_thresholds=self.empirical_thresholds,
            empirical_precision=self.empirical_precision,
            empirical_recall=self.empirical_recall,
        )
        self.ci_prob = ci_prob
        self.xlabel = xlabel

    def plot(
        self,
        ax=None,
        *,
        legend=True,
        precision_kw=None,
        recall_kw=None,
        band_kw=None,
        empirical_kw=None,
    ):
        """Draw both bands, both median curves and the empirical steps.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        legend : bool, default True
        precision_kw, recall_kw : dict, optional
            Keyword arguments of the two median lines (``color`` also colours the band
            and the empirical steps of that quantity).
        band_kw, empirical_kw : dict, optional
            Keyword arguments for both bands / both empirical step lines.

        Returns
        -------
        ThresholdCurvesDisplay
        """
        ax, fig = get_axes(ax)
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        for what, default_color, line_kw in (
            ("precision", "C0", precision_kw),
            ("recall", "C2", recall_kw),
        ):
            line_kw = merge({"color": default_color, "linewidth": 2.0}, line_kw)
            color = line_kw["color"]
            median = getattr(self, what)
            lower, upper = getattr(self, f"{what}_lower"), getattr(self, f"{what}_upper")
            band = line = emp = None
            if lower is not None:
                style = {
                    "color": color,
                    "alpha": 0.25,
                    "linewidth": 0,
                    "label": f"{what}: {ci}credible band",
                }
                band = ax.fill_between(self.thresholds, lower, upper, **merge(style, band_kw))
            emp_values = getattr(self, f"empirical_{what}")
            if emp_values is not None:
                style = {
                    "color": color,
                    "linewidth": 1.0,
                    "drawstyle": "steps-pre",
                    "linestyle": "--",
                    "label": f"{what}: empirical",
                }
                (emp,) = ax.plot(
                    self.empirical_thresholds, emp_values, **merge(style, empirical_kw)
                )
            if median is not None:
                (line,) = ax.plot(
                    self.thresholds,
                    median,
                    **merge({"label": f"{what}: posterior median"}, line_kw),
                )
            setattr(self, f"{what}_band_", band)
            setattr(self, f"{what}_line_", line)
            setattr(self, f"empirical_{what}_line_", emp)
        ax.set(xlabel=self.xlabel, ylabel="Precision, recall", ylim=UNIT_LIMITS)
        return finish(self, ax, fig, legend)

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true=None,
        y_score=None,
        *,
        thresholds=None,
        n_thresholds=201,
        ci_prob=None,
        pos_label=None,
        ax=None,
        **kwargs,
    ):
        """Per-draw precision(t) and recall(t) on a threshold grid, summarized pointwise.

        The model is evaluated on the fitted scale (logit/probit of the scores when the
        fit used a transform) and the grid is shown on the original score scale.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like, optional
            Observed data for the empirical step curves (and the grid's range). A
            prepared ``Ranked`` (:func:`bayes_prc.empirical.as_ranked`) may be passed as
            ``y_true`` with ``y_score=None``.
        thresholds : array-like, optional
            Threshold grid on the original score scale. By default ``n_thresholds``
            points spanning both classes' fitted distributions and the observed scores
            (see :meth:`BinormalPosterior.threshold_band`, which computes the bands).
        n_thresholds : int, default 201
        ci_prob : float, optional
            Band probability (equal-tailed); defaults to the fit's ``ci_prob``.
        pos_label, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ThresholdCurvesDisplay
        """
        data = None
        if y_true is not None or y_score is not None:
            data = as_ranked(y_true, y_score, pos_label=pos_label)
        band = posterior.threshold_band(
            thresholds,
            n_thresholds=n_thresholds,
            ci_prob=ci_prob,
            y_score=None if data is None else data.y_score,
        )
        emp = {}
        if data is not None:
            p, rc, t = precision_recall_curve(data, None)
            p, rc, t = thin_curve(p[:-1], rc[:-1], t)
            emp = {
                "empirical_thresholds": t,
                "empirical_precision": p,
                "empirical_recall": rc,
            }
        prec, rec = band.sel(quantity="precision"), band.sel(quantity="recall")
        xlabel = "Threshold" if posterior.transform is None else "Threshold (score scale)"
        disp = cls(
            band["threshold"].values,
            precision=prec["median"].values,
            precision_lower=prec["lower"].values,
            precision_upper=prec["upper"].values,
            recall=rec["median"].values,
            recall_lower=rec["lower"].values,
            recall_upper=rec["upper"].values,
            ci_prob=band.attrs["ci_prob"],
            xlabel=xlabel,
            **emp,
        )
        return disp.plot(ax=ax, **kwargs)
