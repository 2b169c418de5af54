"""Display objects for posterior PR curves, ROC curves, thresholds and AP (matplotlib).

Each display follows scikit-learn's pattern: the constructor stores precomputed arrays
(no statistics are computed when drawing); ``plot(ax=None, **kwargs)`` draws them on the
given axes (a new, pyplot-free :class:`matplotlib.figure.Figure` when ``ax`` is None) and
returns the display with ``ax_``, ``figure_`` and the named artists; the classmethods
``from_posterior`` / ``from_predictions`` call bayes_prc's computation functions, build
the display and plot it. matplotlib is imported only when something is drawn.

Figures: seed 000 (posterior predictive spaghetti of empirical curves around the model
curve), seed 001 (PR curve coloured by threshold, chance baseline, bootstrap error bars),
seed 004 (precision and recall as functions of the threshold).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._base import (
    band_arrays,
    check_same_length,
    eti,
    float_1d,
    get_axes,
    merge,
    optional_1d,
    percent,
    to_fitted_scale,
    to_original_scale,
)

__all__ = [
    "PRCurveDisplay",
    "PredictiveCurvesDisplay",
    "ThresholdColoredPRDisplay",
    "ThresholdCurvesDisplay",
    "APForestDisplay",
    "ROCCurveDisplay",
    "ScorePPCDisplay",
]

POSTERIOR_COLOR = "C0"
EMPIRICAL_COLOR = "black"
BOOTSTRAP_COLOR = "C1"
BASELINE_COLOR = "0.45"
CLASS_COLORS = {"neg": "C0", "pos": "C3"}
UNIT_LIMITS = (0.0, 1.02)


def _default_recall_grid():
    """201-point recall grid without recall 0.

    At recall 0 the binormal precision is a limit that is 0 or 1 depending on the sign
    of ``sigma_pos - sigma_neg``; its posterior median and band there are 0/1 jumps that
    would draw a misleading vertical segment on the precision axis.
    """
    return np.linspace(0.0, 1.0, 201)[1:]


def _labels_scores(y_true, y_score, pos_label):
    """Validated 0/1 labels (int64) and scores, so every function sees the same positives."""
    from .._validation import validate_binary_inputs

    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    return is_pos.astype(np.int64), score


def _ci_prob(posterior, ci_prob):
    return posterior.ci_prob if ci_prob is None else float(ci_prob)


def _pair(a, b, names):
    if (a is None) != (b is None):
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be given together")


def _unit_axes(ax, xlabel, ylabel):
    ax.set(xlabel=xlabel, ylabel=ylabel, xlim=UNIT_LIMITS, ylim=UNIT_LIMITS, aspect="equal")


# ======================================================================================
# PR curve with credible bands
# ======================================================================================
class PRCurveDisplay:
    """Precision-recall curve with its posterior credible band(s).

    Draws, in this order: the simultaneous credible band (``simultaneous_band_``), the
    pointwise credible band (``band_``), an optional bootstrap band (``bootstrap_band_``,
    dashed outline), the chance baseline at the prevalence (``baseline_``), the empirical
    curve as steps (``empirical_line_``) and the posterior median curve (``line_``). Every
    part is optional; give the arrays you have. Use :meth:`from_posterior` or
    :meth:`from_predictions` to compute them.

    Parameters
    ----------
    recall : array of shape (n_grid,), optional
        Recall grid of the posterior curve and bands.
    precision : array of shape (n_grid,), optional
        Posterior median precision at each recall.
    lower, upper : array of shape (n_grid,), optional
        Pointwise credible band.
    simultaneous_lower, simultaneous_upper : array of shape (n_grid,), optional
        Simultaneous credible band (contains whole posterior curves).
    ci_prob : float, optional
        Probability of the credible bands (for the legend).
    empirical_recall, empirical_precision : array of shape (n_points,), optional
        The empirical curve in :func:`bayes_prc.precision_recall_curve`'s order
        (decreasing recall, ending at ``(0, 1)``); drawn with ``drawstyle="steps-post"``
        so the area under the steps is the average precision.
    bootstrap_recall, bootstrap_lower, bootstrap_upper : array of shape (n_boot,), optional
        A bootstrap band over its own recall grid.
    bootstrap_label : str, optional
        Legend entry of the bootstrap band (default ``"bootstrap band"``).
    prevalence : float, optional
        Precision of a random classifier: the horizontal chance baseline.
    average_precision, empirical_average_precision : float, optional
        Shown in the legend next to the posterior median and the empirical curve.
    name : str, optional
        Legend label of the posterior median curve (default ``"posterior median"``).

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D or None
    band_, simultaneous_band_, bootstrap_band_ : matplotlib.collections.PolyCollection or None
        Polygons made by :meth:`matplotlib.axes.Axes.fill_between`.
    empirical_line_ : matplotlib.lines.Line2D or None
    baseline_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    BinormalPosterior.pr_band : the bands drawn here.
    PredictiveCurvesDisplay : how much empirical curves move between test sets.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import PRCurveDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = PRCurveDisplay.from_posterior(post, y, s, ci_prob=0.9)
    >>> disp.ax_.get_xlabel(), disp.ax_.get_ylabel()
    ('Recall', 'Precision')
    >>> disp.band_.get_label(), disp.empirical_line_.get_drawstyle()
    ('90% pointwise credible band', 'steps-post')
    """

    def __init__(
        self,
        *,
        recall=None,
        precision=None,
        lower=None,
        upper=None,
        simultaneous_lower=None,
        simultaneous_upper=None,
        ci_prob=None,
        empirical_recall=None,
        empirical_precision=None,
        bootstrap_recall=None,
        bootstrap_lower=None,
        bootstrap_upper=None,
        bootstrap_label=None,
        prevalence=None,
        average_precision=None,
        empirical_average_precision=None,
        name=None,
    ):
        self.recall = optional_1d(recall, "recall")
        self.precision = optional_1d(precision, "precision")
        self.lower = optional_1d(lower, "lower")
        self.upper = optional_1d(upper, "upper")
        self.simultaneous_lower = optional_1d(simultaneous_lower, "simultaneous_lower")
        self.simultaneous_upper = optional_1d(simultaneous_upper, "simultaneous_upper")
        _pair(self.lower, self.upper, ("lower", "upper"))
        _pair(
            self.simultaneous_lower,
            self.simultaneous_upper,
            ("simultaneous_lower", "simultaneous_upper"),
        )
        grid_arrays = {
            "precision": self.precision,
            "lower": self.lower,
            "upper": self.upper,
            "simultaneous_lower": self.simultaneous_lower,
            "simultaneous_upper": self.simultaneous_upper,
        }
        if self.recall is None and any(v is not None for v in grid_arrays.values()):
            raise ValueError("`recall` (the grid) is needed to draw a posterior curve or band")
        check_same_length(recall=self.recall, **grid_arrays)
        self.empirical_recall = optional_1d(empirical_recall, "empirical_recall")
        self.empirical_precision = optional_1d(empirical_precision, "empirical_precision")
        _pair(
            self.empirical_recall,
            self.empirical_precision,
            ("empirical_recall", "empirical_precision"),
        )
        check_same_length(
            empirical_recall=self.empirical_recall, empirical_precision=self.empirical_precision
        )
        self.bootstrap_recall = optional_1d(bootstrap_recall, "bootstrap_recall")
        self.bootstrap_lower = optional_1d(bootstrap_lower, "bootstrap_lower")
        self.bootstrap_upper = optional_1d(bootstrap_upper, "bootstrap_upper")
        boot = (self.bootstrap_recall, self.bootstrap_lower, self.bootstrap_upper)
        if any(v is None for v in boot) and any(v is not None for v in boot):
            raise ValueError(
                "`bootstrap_recall`, `bootstrap_lower` and `bootstrap_upper` must be given together"
            )
        check_same_length(
            bootstrap_recall=self.bootstrap_recall,
            bootstrap_lower=self.bootstrap_lower,
            bootstrap_upper=self.bootstrap_upper,
        )
        self.bootstrap_label = bootstrap_label
        self.ci_prob = ci_prob
        self.prevalence = None if prevalence is None else float(prevalence)
        self.average_precision = average_precision
        self.empirical_average_precision = empirical_average_precision
        self.name = name

    def plot(
        self,
        ax=None,
        *,
        name=None,
        legend=True,
        band_kw=None,
        simultaneous_band_kw=None,
        empirical_kw=None,
        bootstrap_kw=None,
        baseline_kw=None,
        **kwargs,
    ):
        """Draw the curves and bands.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Axes to draw on; by default a new figure (not registered with pyplot).
        name : str, optional
            Legend label of the posterior median; overrides the constructor's ``name``.
        legend : bool, default True
            Add a legend.
        band_kw, simultaneous_band_kw, empirical_kw, bootstrap_kw, baseline_kw : dict, optional
            Keyword arguments for the pointwise band, the simultaneous band
            (``fill_between``), the empirical line (``plot``), the bootstrap band
            (``fill_between``) and the baseline (``axhline``).
        **kwargs
            Passed to ``ax.plot`` for the posterior median curve.

        Returns
        -------
        PRCurveDisplay
            ``self``, with the artists and ``ax_``, ``figure_`` set.
        """
        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        self.line_ = self.band_ = self.simultaneous_band_ = self.bootstrap_band_ = None
        self.empirical_line_ = self.baseline_ = None
        if self.simultaneous_lower is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "alpha": 0.14,
                "linewidth": 0,
                "label": f"{ci}simultaneous credible band",
            }
            self.simultaneous_band_ = ax.fill_between(
                self.recall,
                self.simultaneous_lower,
                self.simultaneous_upper,
                **merge(style, simultaneous_band_kw),
            )
        if self.lower is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "alpha": 0.32,
                "linewidth": 0,
                "label": f"{ci}pointwise credible band",
            }
            self.band_ = ax.fill_between(
                self.recall, self.lower, self.upper, **merge(style, band_kw)
            )
        if self.bootstrap_recall is not None:
            style = {
                "facecolor": "none",
                "edgecolor": BOOTSTRAP_COLOR,
                "linestyle": "--",
                "linewidth": 1.3,
                "label": self.bootstrap_label or "bootstrap band",
            }
            self.bootstrap_band_ = ax.fill_between(
                self.bootstrap_recall,
                self.bootstrap_lower,
                self.bootstrap_upper,
                **merge(style, bootstrap_kw),
            )
        if self.prevalence is not None:
            style = {
                "color": BASELINE_COLOR,
                "linestyle": ":",
                "linewidth": 1.2,
                "label": f"chance (prevalence {self.prevalence:.3g})",
            }
            self.baseline_ = ax.axhline(self.prevalence, **merge(style, baseline_kw))
        if self.empirical_recall is not None:
            label = "empirical"
            if self.empirical_average_precision is not None:
                label += f" (AP {self.empirical_average_precision:.3f})"
            style = {
                "color": EMPIRICAL_COLOR,
                "linewidth": 1.1,
                "drawstyle": "steps-post",
                "label": label,
            }
            (self.empirical_line_,) = ax.plot(
                self.empirical_recall, self.empirical_precision, **merge(style, empirical_kw)
            )
        if self.precision is not None:
            label = name or "posterior median"
            if self.average_precision is not None:
                label += f" (AP {self.average_precision:.3f})"
            style = {"color": POSTERIOR_COLOR, "linewidth": 2.0, "label": label}
            (self.line_,) = ax.plot(self.recall, self.precision, **merge(style, kwargs))
        _unit_axes(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true,
        y_score,
        *,
        ci_prob=None,
        simultaneous=True,
        bootstrap_band=None,
        recall=None,
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Posterior bands and median from a fit, the empirical curve from the data.

        Parameters
        ----------
        posterior : BinormalPosterior
            The fit (from :func:`bayes_prc.fit_binormal`).
        y_true, y_score : array-like of shape (n_samples,)
            The labelled scores the fit was made on (for the empirical curve and the
            prevalence).
        ci_prob : float, optional
            Probability of the bands; defaults to the fit's ``ci_prob``.
        simultaneous : bool, default True
            Also draw the simultaneous band (``pr_band(kind="simultaneous")``).
        bootstrap_band : xarray.Dataset, mapping or tuple, optional
            ``lower`` and ``upper`` over dim ``recall`` (e.g. from
            ``bayes_prc.bootstrap_pr_band``), or ``(recall, lower, upper)``. Its
            ``confidence_level`` attribute, if any, goes into the legend.
        recall : array-like, optional
            Recall grid of the posterior band; default 200 even points in (0, 1] (recall
            0 left out: there the binormal precision is a 0/1 limit).
        pos_label : label, optional
            Positive label when ``y_true`` is not {0, 1} / {-1, 1}.
        name : str, optional
            Legend label of the posterior median.
        ax : matplotlib.axes.Axes, optional
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRCurveDisplay
        """
        from .._ranking import average_precision_score, chance_baseline, precision_recall_curve

        prob = _ci_prob(posterior, ci_prob)
        recall = _default_recall_grid() if recall is None else recall
        band = posterior.pr_band(recall=recall, ci_prob=prob, kind="pointwise")
        sim = (
            posterior.pr_band(recall=recall, ci_prob=prob, kind="simultaneous")
            if simultaneous
            else None
        )
        y01, score = _labels_scores(y_true, y_score, pos_label)
        emp_p, emp_r, _ = precision_recall_curve(y01, score)
        boot = cls._bootstrap_kwargs(bootstrap_band)
        disp = cls(
            recall=band["recall"].values,
            precision=band["median"].values,
            lower=band["lower"].values,
            upper=band["upper"].values,
            simultaneous_lower=None if sim is None else sim["lower"].values,
            simultaneous_upper=None if sim is None else sim["upper"].values,
            ci_prob=prob,
            empirical_recall=emp_r,
            empirical_precision=emp_p,
            prevalence=chance_baseline(y01),
            average_precision=float(posterior.average_precision().median()),
            empirical_average_precision=average_precision_score(y01, score),
            name=name,
            **boot,
        )
        return disp.plot(ax=ax, **kwargs)

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, bootstrap_band=None, pos_label=None, ax=None, **kwargs
    ):
        """Empirical curve, chance baseline and an optional bootstrap band (no fit needed).

        Parameters
        ----------
        y_true, y_score : array-like of shape (n_samples,)
        bootstrap_band : xarray.Dataset, mapping or tuple, optional
            As in :meth:`from_posterior`.
        pos_label : label, optional
        ax : matplotlib.axes.Axes, optional
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from bayes_prc.plotting import PRCurveDisplay
        >>> disp = PRCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> disp.empirical_line_.get_xdata().tolist(), disp.baseline_.get_ydata()[0]
        ([1.0, 1.0, 0.5, 0.5, 0.0], 0.5)
        """
        from .._ranking import average_precision_score, chance_baseline, precision_recall_curve

        y01, score = _labels_scores(y_true, y_score, pos_label)
        emp_p, emp_r, _ = precision_recall_curve(y01, score)
        disp = cls(
            empirical_recall=emp_r,
            empirical_precision=emp_p,
            prevalence=chance_baseline(y01),
            empirical_average_precision=average_precision_score(y01, score),
            **cls._bootstrap_kwargs(bootstrap_band),
        )
        return disp.plot(ax=ax, **kwargs)

    @staticmethod
    def _bootstrap_kwargs(bootstrap_band):
        if bootstrap_band is None:
            return {}
        r, lo, hi = band_arrays(bootstrap_band, "bootstrap_band")
        label = "bootstrap band"
        level = getattr(bootstrap_band, "attrs", {}).get("confidence_level")
        if level is not None:
            label = f"{percent(level)} bootstrap band"
        return {
            "bootstrap_recall": r,
            "bootstrap_lower": lo,
            "bootstrap_upper": hi,
            "bootstrap_label": label,
        }


# ======================================================================================
# Posterior predictive spaghetti (seed 000)
# ======================================================================================
class PredictiveCurvesDisplay:
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
        _pair(
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
            style = {
                "color": EMPIRICAL_COLOR,
                "linewidth": 1.1,
                "drawstyle": "steps-post",
                "label": "observed (empirical)",
            }
            (self.empirical_line_,) = ax.plot(
                self.empirical_recall, self.empirical_precision, **merge(style, empirical_kw)
            )
        if self.precision is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "linewidth": 2.2,
                "label": name or "posterior median",
            }
            (self.line_,) = ax.plot(self.recall, self.precision, **merge(style, kwargs))
        _unit_axes(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

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
            The observed data, to draw its empirical curve on top.
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
        recall = _default_recall_grid() if recall is None else recall
        pred = posterior.predictive_curves(
            n_test, n_curves=n_curves, random_seed=random_seed, recall=recall
        )
        grid = pred["recall"].values
        median = posterior.pr_band(recall=grid)["median"].values
        emp = {}
        if y_true is not None or y_score is not None:
            from .._ranking import precision_recall_curve

            y01, score = _labels_scores(y_true, y_score, pos_label)
            p, r, _ = precision_recall_curve(y01, score)
            emp = {"empirical_recall": r, "empirical_precision": p}
        disp = cls(
            grid, pred["precision"].values, precision=median, n_test=n_test, name=name, **emp
        )
        return disp.plot(ax=ax, **kwargs)


# ======================================================================================
# PR curve coloured by threshold (seed 001)
# ======================================================================================
class ThresholdColoredPRDisplay:
    """PR curve whose colour encodes the score threshold, with a colour bar.

    Two classifiers can have the same PR curve and very different thresholds (seed 001);
    colouring the curve shows where each operating point sits on the score scale.

    Parameters
    ----------
    recall, precision : array of shape (n_points,)
        Points of the curve, in drawing order.
    thresholds : array of shape (n_points,) or (n_points - 1,)
        Threshold of each point; segment ``i`` (from point ``i`` to ``i + 1``) gets the
        colour of ``thresholds[i]``. The shorter layout is
        :func:`bayes_prc.precision_recall_curve`'s (the last point has no threshold).
    steps : bool, default False
        Draw each segment as a step (horizontal, then vertical: ``steps-post``) instead
        of a straight line; used for empirical curves.
    threshold_label : str, default "Threshold"
        Colour bar label.
    name : str, optional
        Legend label.

    Attributes
    ----------
    line_ : matplotlib.collections.LineCollection
        One segment (polyline) per threshold; ``line_.get_array()`` holds the thresholds.
    colorbar_ : matplotlib.colorbar.Colorbar or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayes_prc.plotting import ThresholdColoredPRDisplay
    >>> disp = ThresholdColoredPRDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> disp.line_.get_array().tolist(), disp.colorbar_.ax.get_ylabel()
    ([0.1, 0.35, 0.4, 0.8], 'Threshold')
    """

    def __init__(
        self, recall, precision, thresholds, *, steps=False, threshold_label="Threshold", name=None
    ):
        self.recall = float_1d(recall, "recall")
        self.precision = float_1d(precision, "precision")
        check_same_length(recall=self.recall, precision=self.precision)
        self.thresholds = float_1d(thresholds, "thresholds")
        n = self.recall.shape[0]
        if self.thresholds.shape[0] not in (n, n - 1) or n < 2:
            raise ValueError(
                f"`thresholds` must have {n} or {n - 1} values for {n} points (and at "
                f"least 2 points); got {self.thresholds.shape[0]}"
            )
        self.steps = bool(steps)
        self.threshold_label = threshold_label
        self.name = name

    def _segments(self):
        r, p = self.recall, self.precision
        if self.steps:
            return np.stack(
                [
                    np.column_stack([r[:-1], p[:-1]]),
                    np.column_stack([r[1:], p[:-1]]),
                    np.column_stack([r[1:], p[1:]]),
                ],
                axis=1,
            )
        return np.stack(
            [np.column_stack([r[:-1], p[:-1]]), np.column_stack([r[1:], p[1:]])], axis=1
        )

    def plot(self, ax=None, *, cmap="viridis", colorbar=True, name=None, legend=False, **kwargs):
        """Draw the coloured curve (a LineCollection) and its colour bar.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        cmap : str or matplotlib.colors.Colormap, default "viridis"
        colorbar : bool, default True
        name : str, optional
            Legend label (used when ``legend=True``).
        legend : bool, default False
        **kwargs
            Passed to :class:`matplotlib.collections.LineCollection`.

        Returns
        -------
        ThresholdColoredPRDisplay
        """
        from matplotlib.collections import LineCollection
        from matplotlib.colors import Normalize

        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        values = self.thresholds[: self.recall.shape[0] - 1]
        finite = values[np.isfinite(values)]
        norm = Normalize(
            vmin=finite.min() if finite.size else 0.0,
            vmax=finite.max() if finite.size else 1.0,
            clip=True,
        )
        style = {"cmap": cmap, "norm": norm, "linewidths": 2.5, "label": name or "PR curve"}
        style["capstyle"] = "round"
        self.line_ = LineCollection(self._segments(), **merge(style, kwargs))
        self.line_.set_array(values)
        ax.add_collection(self.line_)
        self.colorbar_ = None
        if colorbar:
            self.colorbar_ = fig.colorbar(self.line_, ax=ax, label=self.threshold_label)
        _unit_axes(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, pos_label=None, name=None, ax=None, **kwargs):
        """The empirical curve as steps, coloured by its thresholds.

        Parameters
        ----------
        y_true, y_score : array-like of shape (n_samples,)
        pos_label, name, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ThresholdColoredPRDisplay
        """
        from .._ranking import precision_recall_curve

        y01, score = _labels_scores(y_true, y_score, pos_label)
        p, r, t = precision_recall_curve(y01, score)
        return cls(r, p, t, steps=True, name=name).plot(ax=ax, **kwargs)

    @classmethod
    def from_posterior(cls, posterior, *, recall=None, name=None, ax=None, **kwargs):
        """The posterior median curve coloured by the posterior median threshold.

        At each recall of the grid, the median over draws of the precision and of the
        threshold reaching that recall (``posterior.threshold_at_recall``, original
        score scale). The grid excludes recall 0 and 1 (thresholds +-inf).

        Parameters
        ----------
        posterior : BinormalPosterior
        recall : array-like, optional
            Recall grid in (0, 1); default 199 interior points of a 201-point grid.
        name, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ThresholdColoredPRDisplay
        """
        grid = np.linspace(0.0, 1.0, 201)[1:-1] if recall is None else recall
        band = posterior.pr_band(recall=grid)
        thr = posterior.threshold_at_recall(band["recall"].values).median(("chain", "draw"))
        label = "Threshold" if posterior.transform is None else "Threshold (score scale)"
        disp = cls(
            band["recall"].values,
            band["median"].values,
            thr.values,
            threshold_label=label,
            name=name or "posterior median",
        )
        return disp.plot(ax=ax, **kwargs)


# ======================================================================================
# Precision and recall as functions of the threshold (seed 004)
# ======================================================================================
class ThresholdCurvesDisplay:
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
        _pair(self.precision_lower, self.precision_upper, names[1:3])
        _pair(self.recall_lower, self.recall_upper, names[4:6])
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
        if legend:
            ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

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
            Observed data for the empirical step curves (and the grid's range).
        thresholds : array-like, optional
            Threshold grid on the original score scale. By default ``n_thresholds``
            points spanning both classes' fitted distributions (posterior median mean
            +- 3.5 sd) and the observed scores, evenly spaced on the fitted scale.
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
        prob = _ci_prob(posterior, ci_prob)
        transform = posterior.transform
        y01 = score = None
        if y_true is not None or y_score is not None:
            y01, score = _labels_scores(y_true, y_score, pos_label)
        if getattr(posterior, "model_type", "parametric") != "parametric":
            # rank-based fit: thresholds live on the score scale through the cutpoints
            if thresholds is None:
                lat = posterior.threshold_at_recall([0.999, 0.001]).values
                lo, hi = float(np.median(lat[..., 0])), float(np.median(lat[..., 1]))
                if score is not None:
                    lo, hi = min(lo, float(score.min())), max(hi, float(score.max()))
                grid = np.linspace(lo, hi, int(n_thresholds))
            else:
                grid = float_1d(thresholds, "thresholds")
            s = grid.shape[0]
            prec = posterior.precision_at_threshold(grid).values.reshape(-1, s)
            rec = posterior.recall_at_threshold(grid).values.reshape(-1, s)
            p_lo, p_med, p_hi = eti(prec, prob)
            r_lo, r_med, r_hi = eti(rec, prob)
            grid_fit = None
        elif thresholds is None:
            from ..bayes._fit import _transform_scores

            m = posterior.model
            med = {
                k: float(np.median(getattr(m, k)))
                for k in ("mu_pos", "sigma_pos", "mu_neg", "sigma_neg")
            }
            lo = min(med["mu_neg"] - 3.5 * med["sigma_neg"], med["mu_pos"] - 3.5 * med["sigma_pos"])
            hi = max(med["mu_neg"] + 3.5 * med["sigma_neg"], med["mu_pos"] + 3.5 * med["sigma_pos"])
            if score is not None:
                fitted, _ = _transform_scores(score, transform)
                lo, hi = min(lo, float(fitted.min())), max(hi, float(fitted.max()))
            grid_fit = np.linspace(lo, hi, int(n_thresholds))
            grid = to_original_scale(grid_fit, transform)
        else:
            grid = float_1d(thresholds, "thresholds")
            grid_fit = to_fitted_scale(grid, transform)
        if grid_fit is not None:
            s = grid_fit.shape[0]
            p_lo, p_med, p_hi = eti(posterior.model.precision(grid_fit).reshape(-1, s), prob)
            r_lo, r_med, r_hi = eti(posterior.model.recall(grid_fit).reshape(-1, s), prob)
        emp = {}
        if score is not None:
            from .._ranking import precision_recall_curve

            p, r, t = precision_recall_curve(y01, score)
            emp = {
                "empirical_thresholds": t,
                "empirical_precision": p[:-1],
                "empirical_recall": r[:-1],
            }
        xlabel = "Threshold" if transform is None else "Threshold (score scale)"
        disp = cls(
            grid,
            precision=p_med,
            precision_lower=p_lo,
            precision_upper=p_hi,
            recall=r_med,
            recall_lower=r_lo,
            recall_upper=r_hi,
            ci_prob=prob,
            xlabel=xlabel,
            **emp,
        )
        return disp.plot(ax=ax, **kwargs)


# ======================================================================================
# AP posterior density with a forest of frequentist intervals
# ======================================================================================
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
                f"with `estimate`, `low`, `high` (and `method`); got {item!r}"
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


class APForestDisplay:
    """Posterior density of the AP with every frequentist interval drawn under it.

    The top of the axes shows the posterior density of the average precision (a
    Gaussian KDE of the draws, computed in :meth:`from_posterior`) and the posterior
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
    ['posterior (94% HDI)', 'bootstrap (95%)']
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
        if legend:
            ax.legend(loc="upper left", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

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
            Bandwidth of :class:`scipy.stats.gaussian_kde`. The kernel mass beyond 0
            and 1 is reflected back (AP lies in [0, 1]), so the density integrates to 1
            over [0, 1] even for draws close to 1.
        n_points : int, default 512
            Size of the density grid (spanning the draws +- 3 bandwidths, within [0, 1]).
        ax, **kwargs
            ``ax`` and keyword arguments of :meth:`plot`.

        Returns
        -------
        APForestDisplay
        """
        from scipy import stats

        prob = _ci_prob(posterior, ci_prob)
        ap = posterior.average_precision(prevalence)
        draws = ap.values.reshape(-1)
        kde = stats.gaussian_kde(draws, bw_method=bw_method)
        bw = float(np.sqrt(kde.covariance[0, 0]))
        x = np.linspace(
            max(0.0, draws.min() - 3 * bw), min(1.0, draws.max() + 3 * bw), int(n_points)
        )
        # AP lies in [0, 1]: reflect the kernel mass that leaks past 0 or 1 back inside
        density = kde(x) + kde(-x) + kde(2.0 - x)
        ci = posterior.interval(ap, ci_prob=prob, ci_kind=ci_kind)
        disp = cls(
            x,
            density,
            intervals=intervals,
            posterior_median=float(np.median(draws)),
            credible_interval=(float(ci.sel(ci_bound="lower")), float(ci.sel(ci_bound="upper"))),
            ci_prob=prob,
            ci_kind=ci_kind,
        )
        return disp.plot(ax=ax, **kwargs)


# ======================================================================================
# ROC curve with credible band
# ======================================================================================
def _default_fpr_grid():
    return np.unique(np.concatenate([np.linspace(0.0, 1.0, 201), np.geomspace(1e-4, 0.02, 30)]))


class ROCCurveDisplay:
    """ROC curve: posterior median, pointwise credible band and the empirical curve.

    Parameters
    ----------
    fpr : array of shape (n_grid,), optional
        False-positive-rate grid of the posterior curve.
    tpr : array of shape (n_grid,), optional
        Posterior median true-positive rate.
    lower, upper : array of shape (n_grid,), optional
        Pointwise credible band.
    ci_prob : float, optional
    empirical_fpr, empirical_tpr : array, optional
        The empirical ROC curve (:func:`bayes_prc.roc_curve`), drawn as straight segments.
    roc_auc, empirical_roc_auc : float, optional
        Shown in the legend.
    name : str, optional
        Legend label of the median curve.

    Attributes
    ----------
    line_, empirical_line_, chance_line_ : matplotlib.lines.Line2D or None
    band_ : matplotlib.collections.PolyCollection or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import ROCCurveDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = ROCCurveDisplay.from_posterior(post, y, s)
    >>> disp.ax_.get_xlabel(), disp.ax_.get_ylabel()
    ('False positive rate', 'True positive rate (recall)')
    """

    def __init__(
        self,
        *,
        fpr=None,
        tpr=None,
        lower=None,
        upper=None,
        ci_prob=None,
        empirical_fpr=None,
        empirical_tpr=None,
        roc_auc=None,
        empirical_roc_auc=None,
        name=None,
    ):
        self.fpr = optional_1d(fpr, "fpr")
        self.tpr = optional_1d(tpr, "tpr")
        self.lower = optional_1d(lower, "lower")
        self.upper = optional_1d(upper, "upper")
        _pair(self.lower, self.upper, ("lower", "upper"))
        if self.fpr is None and any(v is not None for v in (self.tpr, self.lower)):
            raise ValueError("`fpr` (the grid) is needed to draw a posterior curve or band")
        check_same_length(fpr=self.fpr, tpr=self.tpr, lower=self.lower, upper=self.upper)
        self.empirical_fpr = optional_1d(empirical_fpr, "empirical_fpr")
        self.empirical_tpr = optional_1d(empirical_tpr, "empirical_tpr")
        _pair(self.empirical_fpr, self.empirical_tpr, ("empirical_fpr", "empirical_tpr"))
        check_same_length(empirical_fpr=self.empirical_fpr, empirical_tpr=self.empirical_tpr)
        self.ci_prob = ci_prob
        self.roc_auc = roc_auc
        self.empirical_roc_auc = empirical_roc_auc
        self.name = name

    def plot(
        self,
        ax=None,
        *,
        name=None,
        legend=True,
        band_kw=None,
        empirical_kw=None,
        chance_kw=None,
        **kwargs,
    ):
        """Draw the band, the chance diagonal, the empirical and the median curve.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        name : str, optional
        legend : bool, default True
        band_kw, empirical_kw, chance_kw : dict, optional
        **kwargs
            Passed to ``ax.plot`` for the posterior median curve.

        Returns
        -------
        ROCCurveDisplay
        """
        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        self.line_ = self.band_ = self.empirical_line_ = None
        if self.lower is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "alpha": 0.32,
                "linewidth": 0,
                "label": f"{ci}pointwise credible band",
            }
            self.band_ = ax.fill_between(self.fpr, self.lower, self.upper, **merge(style, band_kw))
        style = {"color": BASELINE_COLOR, "linestyle": ":", "linewidth": 1.2, "label": "chance"}
        (self.chance_line_,) = ax.plot([0.0, 1.0], [0.0, 1.0], **merge(style, chance_kw))
        if self.empirical_fpr is not None:
            label = "empirical"
            if self.empirical_roc_auc is not None:
                label += f" (AUC {self.empirical_roc_auc:.3f})"
            style = {"color": EMPIRICAL_COLOR, "linewidth": 1.1, "label": label}
            (self.empirical_line_,) = ax.plot(
                self.empirical_fpr, self.empirical_tpr, **merge(style, empirical_kw)
            )
        if self.tpr is not None:
            label = name or "posterior median"
            if self.roc_auc is not None:
                label += f" (AUC {self.roc_auc:.3f})"
            style = {"color": POSTERIOR_COLOR, "linewidth": 2.0, "label": label}
            (self.line_,) = ax.plot(self.fpr, self.tpr, **merge(style, kwargs))
        _unit_axes(ax, "False positive rate", "True positive rate (recall)")
        if legend:
            ax.legend(loc="lower right", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true=None,
        y_score=None,
        *,
        fpr=None,
        ci_prob=None,
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Per-draw ``tpr_at_fpr`` on a grid, summarized pointwise; empirical ROC from data.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like, optional
            Observed data for the empirical ROC curve.
        fpr : array-like, optional
            Grid of false-positive rates; default 201 even points plus 30 log-spaced
            points in [1e-4, 0.02] (the curve is steep near 0).
        ci_prob : float, optional
            Band probability (equal-tailed); defaults to the fit's ``ci_prob``.
        pos_label, name, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ROCCurveDisplay
        """
        prob = _ci_prob(posterior, ci_prob)
        grid = _default_fpr_grid() if fpr is None else float_1d(fpr, "fpr")
        draws = posterior.model.tpr_at_fpr(grid).reshape(-1, grid.shape[0])
        lower, median, upper = eti(draws, prob)
        emp = {}
        if y_true is not None or y_score is not None:
            from .._ranking import roc_auc_score, roc_curve

            y01, score = _labels_scores(y_true, y_score, pos_label)
            e_fpr, e_tpr, _ = roc_curve(y01, score)
            emp = {
                "empirical_fpr": e_fpr,
                "empirical_tpr": e_tpr,
                "empirical_roc_auc": roc_auc_score(y01, score),
            }
        disp = cls(
            fpr=grid,
            tpr=median,
            lower=lower,
            upper=upper,
            ci_prob=prob,
            roc_auc=float(posterior.roc_auc().median()),
            name=name,
            **emp,
        )
        return disp.plot(ax=ax, **kwargs)


# ======================================================================================
# Posterior predictive check of the score distributions
# ======================================================================================
class ScorePPCDisplay:
    """Observed score histograms per class against the posterior predictive densities.

    For each class (``"neg"``, ``"pos"``): the density histogram of the observed scores
    on the scale the binormal model was fit on (logit/probit of the scores when the fit
    used a transform), the posterior predictive density (the mixture over posterior
    draws of the class's normal density) and a pointwise credible band of the per-draw
    densities. A histogram far outside its band means the normal model of that class is
    off (skew, heavy tails, bimodality), and the PR curve built on it is suspect.

    Drawn with plain matplotlib (not ArviZ's ``plot_ppc``) so the artists and numbers are
    under our control.

    Parameters
    ----------
    x : array of shape (n_grid,)
        Score grid (fitted scale) of the densities.
    bin_edges : array of shape (n_bins + 1,)
        Histogram bin edges, shared by both classes.
    hist_neg, hist_pos : array of shape (n_bins,)
        Observed density histograms (each integrates to 1).
    density_neg, density_pos : array of shape (n_grid,)
        Posterior predictive density of each class.
    lower_neg, upper_neg, lower_pos, upper_pos : array of shape (n_grid,), optional
        Pointwise credible bands of the per-draw densities.
    ci_prob : float, optional
    xlabel : str, default "Score"

    Attributes
    ----------
    hist_ : dict of {"neg", "pos"} -> matplotlib.patches.StepPatch
    lines_ : dict of {"neg", "pos"} -> matplotlib.lines.Line2D
    bands_ : dict of {"neg", "pos"} -> matplotlib.collections.PolyCollection or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import ScorePPCDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = ScorePPCDisplay.from_posterior(post, y, s)
    >>> sorted(disp.hist_), disp.ax_.get_ylabel()
    (['neg', 'pos'], 'Density')
    """

    def __init__(
        self,
        x,
        bin_edges,
        hist_neg,
        hist_pos,
        density_neg,
        density_pos,
        *,
        lower_neg=None,
        upper_neg=None,
        lower_pos=None,
        upper_pos=None,
        ci_prob=None,
        xlabel="Score",
    ):
        self.x = float_1d(x, "x")
        self.bin_edges = float_1d(bin_edges, "bin_edges")
        self.hist_neg = float_1d(hist_neg, "hist_neg")
        self.hist_pos = float_1d(hist_pos, "hist_pos")
        if not (self.hist_neg.shape[0] == self.hist_pos.shape[0] == self.bin_edges.shape[0] - 1):
            raise ValueError(
                "`hist_neg` and `hist_pos` must have len(bin_edges) - 1 = "
                f"{self.bin_edges.shape[0] - 1} values; got {self.hist_neg.shape[0]} and "
                f"{self.hist_pos.shape[0]}"
            )
        self.density_neg = float_1d(density_neg, "density_neg")
        self.density_pos = float_1d(density_pos, "density_pos")
        self.lower_neg, self.upper_neg = (
            optional_1d(lower_neg, "lower_neg"),
            optional_1d(upper_neg, "upper_neg"),
        )
        self.lower_pos, self.upper_pos = (
            optional_1d(lower_pos, "lower_pos"),
            optional_1d(upper_pos, "upper_pos"),
        )
        _pair(self.lower_neg, self.upper_neg, ("lower_neg", "upper_neg"))
        _pair(self.lower_pos, self.upper_pos, ("lower_pos", "upper_pos"))
        check_same_length(
            x=self.x,
            density_neg=self.density_neg,
            density_pos=self.density_pos,
            lower_neg=self.lower_neg,
            upper_neg=self.upper_neg,
            lower_pos=self.lower_pos,
            upper_pos=self.upper_pos,
        )
        self.ci_prob = ci_prob
        self.xlabel = xlabel

    def plot(self, ax=None, *, legend=True, colors=None, hist_kw=None, band_kw=None, **kwargs):
        """Draw both histograms, bands and predictive densities.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        legend : bool, default True
        colors : dict, optional
            Colours per class, e.g. ``{"neg": "C0", "pos": "C3"}`` (the default).
        hist_kw, band_kw : dict, optional
            Keyword arguments of the histograms (``ax.stairs``) and the bands.
        **kwargs
            Passed to ``ax.plot`` for the predictive density lines.

        Returns
        -------
        ScorePPCDisplay
        """
        ax, fig = get_axes(ax)
        colors = merge(CLASS_COLORS, colors)
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        self.hist_, self.lines_, self.bands_ = {}, {}, {}
        names = {"neg": "negatives", "pos": "positives"}
        for cls_ in ("neg", "pos"):
            c = colors[cls_]
            style = {"color": c, "linewidth": 1.4, "label": f"{names[cls_]}: observed"}
            self.hist_[cls_] = ax.stairs(
                getattr(self, f"hist_{cls_}"), self.bin_edges, **merge(style, hist_kw)
            )
            lower, upper = getattr(self, f"lower_{cls_}"), getattr(self, f"upper_{cls_}")
            self.bands_[cls_] = None
            if lower is not None:
                style = {
                    "color": c,
                    "alpha": 0.2,
                    "linewidth": 0,
                    "label": f"{names[cls_]}: {ci}band",
                }
                self.bands_[cls_] = ax.fill_between(self.x, lower, upper, **merge(style, band_kw))
            style = {"color": c, "linewidth": 2.0, "label": f"{names[cls_]}: posterior predictive"}
            (self.lines_[cls_],) = ax.plot(
                self.x, getattr(self, f"density_{cls_}"), **merge(style, kwargs)
            )
        ax.set(xlabel=self.xlabel, ylabel="Density")
        ax.set_ylim(bottom=0.0)
        if legend:
            ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true,
        y_score,
        *,
        ci_prob=None,
        bins="auto",
        n_points=300,
        n_draws=None,
        random_seed=None,
        pos_label=None,
        ax=None,
        **kwargs,
    ):
        """Histograms of the data and predictive densities of the fit, on the fitted scale.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like of shape (n_samples,)
            The data the model was fit on (original scale; the fit's transform is
            applied here, exact 0 and 1 being moved inside as in the fit).
        ci_prob : float, optional
            Probability of the density bands (equal-tailed); defaults to the fit's.
        bins : int, sequence or str, default "auto"
            :func:`numpy.histogram_bin_edges` of all fitted-scale scores.
        n_points : int, default 300
            Grid size of the densities (the bins' range padded by 10%).
        n_draws : int, optional
            Use a random subset of this many posterior draws (default all draws).
        random_seed : int, numpy.random.Generator or None
            For the subset.
        pos_label, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ScorePPCDisplay
        """
        from .._validation import check_random_state
        from ..bayes._fit import _transform_scores

        if getattr(posterior, "model_type", "parametric") != "parametric":
            raise ValueError(
                "the score posterior predictive check needs a model of the scores "
                "themselves (fit_binormal(..., model='parametric')); a rank-based fit is "
                "checked with `posterior.fit_check()`"
            )
        prob = _ci_prob(posterior, ci_prob)
        y01, score = _labels_scores(y_true, y_score, pos_label)
        t, _ = _transform_scores(score, posterior.transform)
        is_pos = y01 == 1
        edges = np.histogram_bin_edges(t, bins=bins)
        hist_neg, _ = np.histogram(t[~is_pos], bins=edges, density=True)
        hist_pos, _ = np.histogram(t[is_pos], bins=edges, density=True)
        pad = 0.1 * (edges[-1] - edges[0])
        x = np.linspace(edges[0] - pad, edges[-1] + pad, int(n_points))
        out = {}
        n_total = int(np.prod(posterior.model.batch_shape))
        pick = slice(None)
        if n_draws is not None and int(n_draws) < n_total:
            rng = check_random_state(random_seed)
            pick = rng.choice(n_total, size=int(n_draws), replace=False)
        for cls_, label in (("neg", 0), ("pos", 1)):
            dens = posterior.model.pdf(x, label=label).reshape(-1, x.shape[0])[pick]
            lower, _, upper = eti(dens, prob)
            out[f"density_{cls_}"] = dens.mean(axis=0)
            out[f"lower_{cls_}"], out[f"upper_{cls_}"] = lower, upper
        xlabel = {None: "Score", "logit": "logit(score)", "probit": "probit(score)"}[
            posterior.transform
        ]
        disp = cls(x, edges, hist_neg, hist_pos, ci_prob=prob, xlabel=xlabel, **out)
        return disp.plot(ax=ax, **kwargs)
