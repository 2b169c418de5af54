"""``PredictiveCurvesDisplay``: empirical PR curves of simulated test sets around the
posterior median curve (seed 000, "the problem")."""

from __future__ import annotations

import numpy as np

from ..empirical import as_ranked, precision_recall_curve
from ._base import (
    POSTERIOR_COLOR,
    DisplayMixin,
    check_pair,
    check_same_length,
    default_recall_grid,
    finish,
    float_1d,
    get_axes,
    merge,
    optional_1d,
    plot_empirical_pr,
    thin_curve,
    unit_axes,
)

__all__ = ["PredictiveCurvesDisplay"]


class PredictiveCurvesDisplay(DisplayMixin):
    """Empirical PR curves of simulated test sets around the posterior median curve.

    The picture of seed 000's "the problem": each light grey curve is the empirical PR
    curve of a test set of ``n_test`` items drawn from one posterior draw's binormal
    model; together they show how far an empirical curve can wander from one test set to
    the next, most at high precision.

    Parameters
    ----------
    recall : array of shape (n_grid,)
        Recall grid.
    curves : array of shape (n_curves, n_grid)
        Each simulated empirical curve read as a step function on the grid (precision at
        the highest threshold reaching that recall), as returned by
        ``BinormalPosterior.predictive_curves``; drawn with ``drawstyle="steps-pre"``.
    precision : array of shape (n_grid,), optional
        Posterior median curve.
    empirical_recall, empirical_precision : array, optional
        The observed empirical curve (:func:`bayes_prc.precision_recall_curve` order).
    n_test : int, optional
        Size of the simulated test sets (for the legend).
    name : str, optional
        Legend label of the median curve.

    Attributes
    ----------
    curve_lines_ : list of matplotlib.lines.Line2D
        One line per simulated curve (only the first has a legend label).
    line_, empirical_line_ : matplotlib.lines.Line2D or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import PredictiveCurvesDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = PredictiveCurvesDisplay.from_posterior(post, y, s, n_curves=20, random_seed=1)
    >>> len(disp.curve_lines_), disp.curve_lines_[0].get_label()
    (20, '20 simulated test sets (n = 300)')
    """

    def __init__(
        self,
        recall,
        curves,
        *,
        precision=None,
        empirical_recall=None,
        empirical_precision=None,
        n_test=None,
        name=None,
    ):
        self.recall = float_1d(recall, "recall")
        curves = np.asarray(getattr(curves, "values", curves), dtype=np.float64)
        if curves.ndim != 2 or curves.shape[1] != self.recall.shape[0]:
            raise ValueError(
                f"`curves` must have shape (n_curves, {self.recall.shape[0]}) to match "
                f"`recall`; got {curves.shape}"
            )
        self.curves = curves
        self.precision = optional_1d(precision, "precision")
        check_same_length(recall=self.recall, precision=self.precision)
        self.empirical_recall = optional_1d(empirical_recall, "empirical_recall")
        self.empirical_precision = optional_1d(empirical_precision, "empirical_precision")
        check_pair(
            self.empirical_recall,
            self.empirical_precision,
            ("empirical_recall", "empirical_precision"),
        )
        check_same_length(
            empirical_recall=self.empirical_recall, empirical_precision=self.empirical_precision
        )
        self.n_test = n_test
        self.name = name

    def plot(self, ax=None, *, name=None, legend=True, curves_kw=None, empirical_kw=None, **kwargs):
        """Draw the simulated curves, then the empirical and the median curve.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        name : str, optional
            Legend label of the median curve.
        legend : bool, default True
        curves_kw, empirical_kw : dict, optional
            Keyword arguments for the simulated curves and the empirical curve.
        **kwargs
            Passed to ``ax.plot`` for the posterior median curve.

        Returns
        -------
        PredictiveCurvesDisplay
        """
        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        n = self.curves.shape[0]
        size = f" (n = {self.n_test})" if self.n_test is not None else ""
        style = merge({"color": "0.72", "linewidth": 0.8, "drawstyle": "steps-pre"}, curves_kw)
        self.curve_lines_ = []
        for i, curve in enumerate(self.curves):
            label = f"{n} simulated test sets{size}" if i == 0 else "_nolegend_"
            (line,) = ax.plot(self.recall, curve, **merge(style, {"label": label}))
            self.curve_lines_.append(line)
        self.line_ = self.empirical_line_ = None
        if self.empirical_recall is not None:
            self.empirical_line_ = plot_empirical_pr(
                ax,
                self.empirical_recall,
                self.empirical_precision,
                "observed (empirical)",
                empirical_kw,
            )
        if self.precision is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "linewidth": 2.2,
                "label": name or "posterior median",
            }
            (self.line_,) = ax.plot(self.recall, self.precision, **merge(style, kwargs))
        unit_axes(ax, "Recall", "Precision")
        return finish(self, ax, fig, legend)

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true=None,
        y_score=None,
        *,
        n_test=None,
        n_curves=30,
        random_seed=None,
        recall=None,
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Simulate test sets from the posterior predictive and plot their curves.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like, optional
            The observed data, to draw its empirical curve on top. A prepared
            ``Ranked`` (:func:`bayes_prc.empirical.as_ranked`) may be passed as
            ``y_true`` with ``y_score=None``.
        n_test : int, optional
            Size of each simulated test set; default the size of the fitted data.
        n_curves : int, default 30
        random_seed : int, numpy.random.Generator or None
            Passed to ``posterior.predictive_curves``.
        recall : array-like, optional
            Recall grid; default 200 even points in (0, 1].
        pos_label, name, ax, **kwargs
            As in :meth:`PRCurveDisplay.from_posterior`.

        Returns
        -------
        PredictiveCurvesDisplay
        """
        n_test = posterior.n if n_test is None else n_test
        recall = default_recall_grid() if recall is None else recall
        pred = posterior.predictive_curves(
            n_test, n_curves=n_curves, random_seed=random_seed, recall=recall
        )
        grid = pred["recall"].values
        median = posterior.pr_band(recall=grid)["median"].values
        emp = {}
        if y_true is not None or y_score is not None:
            data = as_ranked(y_true, y_score, pos_label=pos_label)
            p, r = thin_curve(*precision_recall_curve(data, None)[:2])
            emp = {"empirical_recall": r, "empirical_precision": p}
        disp = cls(
            grid, pred["precision"].values, precision=median, n_test=n_test, name=name, **emp
        )
        return disp.plot(ax=ax, **kwargs)
