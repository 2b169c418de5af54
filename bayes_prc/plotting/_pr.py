"""``PRCurveDisplay``: the PR curve with its posterior credible bands, the empirical curve,
an optional bootstrap band and the chance baseline (seed 001: bootstrap error bars)."""

from __future__ import annotations

import numpy as np

from ..empirical import as_ranked, average_precision_score, chance_baseline, precision_recall_curve
from ._base import (
    BASELINE_COLOR,
    BOOTSTRAP_COLOR,
    POSTERIOR_COLOR,
    DisplayMixin,
    band_arrays,
    check_pair,
    check_same_length,
    default_recall_grid,
    finish,
    get_axes,
    merge,
    optional_1d,
    percent,
    plot_empirical_pr,
    thin_curve,
    unit_axes,
)

__all__ = ["PRCurveDisplay"]


class PRCurveDisplay(DisplayMixin):
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
    simultaneous_label : str, optional
        Legend entry of the simultaneous band (default ``"<ci> simultaneous credible
        band"``), e.g. which band of :func:`bayes_prc.compare_bands` it is.
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
        simultaneous_label=None,
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
        check_pair(self.lower, self.upper, ("lower", "upper"))
        check_pair(
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
        check_pair(
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
        self.simultaneous_label = simultaneous_label
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
            Axes to draw on; by default a new pyplot figure (``plt.subplots()``).
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
                "label": self.simultaneous_label or f"{ci}simultaneous credible band",
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
            self.empirical_line_ = plot_empirical_pr(
                ax, self.empirical_recall, self.empirical_precision, label, empirical_kw
            )
        if self.precision is not None:
            label = name or "posterior median"
            if self.average_precision is not None:
                label += f" (AP {self.average_precision:.3f})"
            style = {"color": POSTERIOR_COLOR, "linewidth": 2.0, "label": label}
            (self.line_,) = ax.plot(self.recall, self.precision, **merge(style, kwargs))
        unit_axes(ax, "Recall", "Precision")
        return finish(self, ax, fig, legend)

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
        bands=None,
        **kwargs,
    ):
        """Posterior bands and median from a fit, the empirical curve from the data.

        The bands are the posterior's :meth:`~BinormalPosterior.pr_band`: for the default
        fit (``fit_binormal(y, s)``, the rank-based binormal model) the model-averaged
        bands of the three rank-based models, whose coverage is measured in
        ``docs/coverage.md`` ("The default band"); a single model's band with
        ``fit_binormal(..., model=...)`` chosen explicitly.

        Parameters
        ----------
        posterior : BinormalPosterior
            The fit (from :func:`bayes_prc.fit_binormal`).
        y_true, y_score : array-like of shape (n_samples,)
            The labelled scores the fit was made on (for the empirical curve and the
            prevalence). A prepared ``Ranked`` (:func:`bayes_prc.empirical.as_ranked`)
            may be passed as ``y_true`` with ``y_score=None``.
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
        bands : xarray.Dataset, optional
            The result of :func:`bayes_prc.compare_bands` on the same data: its
            recommended simultaneous band (``attrs["recommended"]``) is drawn instead of
            the posterior's own, on its recall grid, and the legend names it (a
            recommended bootstrap band is drawn as the bootstrap band, so
            ``bootstrap_band`` cannot be given too). When it recommends none (too few
            positives, ``attrs["recommendation"]`` says why), no posterior band is
            drawn, only the median curve.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRCurveDisplay
            With ``recommended_band`` set to the drawn band's ``band`` name when ``bands``
            is given (else None), and ``posterior_band`` naming the posterior bands drawn
            (``"averaged"`` for the default fit: :meth:`BinormalPosterior.pr_band`'s
            model-averaged band; else the model's name).
        """
        data = as_ranked(y_true, y_score, pos_label=pos_label)
        emp_p, emp_r = thin_curve(*precision_recall_curve(data, None)[:2])
        boot = cls._bootstrap_kwargs(bootstrap_band)
        picked = {}
        if bands is not None:
            recall, ci_prob, picked = _recommended_band(bands, ci_prob, bootstrap_band)
            simultaneous = False
        post_kw = _posterior_bands(posterior, recall, ci_prob, simultaneous)
        source = post_kw.pop("band_source")
        if picked.pop("no_band", False):
            for key in ("lower", "upper", "simultaneous_lower", "simultaneous_upper"):
                post_kw[key] = None
        for key in ("simultaneous_lower", "simultaneous_upper"):
            if key in picked:
                post_kw[key] = picked.pop(key)
        boot.update(picked.pop("boot", {}))
        disp = cls(
            **post_kw,
            simultaneous_label=picked.pop("label", None),
            empirical_recall=emp_r,
            empirical_precision=emp_p,
            prevalence=chance_baseline(data),
            average_precision=float(posterior.average_precision().median()),
            empirical_average_precision=average_precision_score(data, None),
            name=name,
            **boot,
        )
        disp.recommended_band = None if bands is None else bands.attrs["recommended"]
        disp.posterior_band = source
        return disp.plot(ax=ax, **kwargs)

    @classmethod
    def from_pool(
        cls,
        posterior,
        *,
        ci_prob=None,
        simultaneous=True,
        recall=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Posterior band and median of a whole pool's PR curve (:func:`bayes_prc.fit_pool`).

        No empirical curve is drawn: the labelled items of a score-stratified selection
        are not a random sample of the pool, so their own PR curve is biased (it
        over-represents high scores). The chance line is the posterior median of the
        pool's prevalence.

        Parameters
        ----------
        posterior : PoolPosterior
        ci_prob : float, optional
            Probability of the bands; defaults to the fit's ``ci_prob``.
        simultaneous : bool, default True
            Also draw the simultaneous band.
        recall : array-like, optional
            Recall grid; default 200 even points in (0, 1].
        name : str, optional
            Legend label of the posterior median.
        ax : matplotlib.axes.Axes, optional
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRCurveDisplay

        Examples
        --------
        >>> import numpy as np
        >>> import bayes_prc as bp
        >>> from bayes_prc.plotting import PRCurveDisplay
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(20_000) < 0.02
        >>> s = rng.normal(size=y.size) + 2.5 * y
        >>> sel = bp.select_labels(s, 200, random_seed=1)
        >>> post = bp.fit_pool(s, sel, y[sel.indices], random_seed=2)
        >>> disp = PRCurveDisplay.from_pool(post)
        >>> disp.empirical_recall is None, disp.lower.shape
        (True, (200,))
        """
        prevalence = float(posterior.idata["posterior"]["prevalence"].median())
        post_kw = _posterior_bands(posterior, recall, ci_prob, simultaneous)
        post_kw.pop("band_source")
        disp = cls(
            **post_kw,
            prevalence=prevalence,
            average_precision=float(posterior.average_precision().median()),
            name=name,
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
            A prepared ``Ranked`` (:func:`bayes_prc.empirical.as_ranked`) may be
            passed as ``y_true`` with ``y_score=None``.
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
        data = as_ranked(y_true, y_score, pos_label=pos_label)
        emp_p, emp_r = thin_curve(*precision_recall_curve(data, None)[:2])
        disp = cls(
            empirical_recall=emp_r,
            empirical_precision=emp_p,
            prevalence=chance_baseline(data),
            empirical_average_precision=average_precision_score(data, None),
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


def _recommended_band(bands, ci_prob, bootstrap_band):
    """Grid, level and constructor arguments of a compare_bands result's recommended band."""
    attrs = getattr(bands, "attrs", {})
    if "recommended" not in attrs or "band" not in getattr(bands, "dims", ()):
        raise ValueError(
            "`bands` must be the result of bayes_prc.compare_bands (a Dataset over `band` "
            "with attrs['recommended'])"
        )
    rec = attrs["recommended"]
    prob = float(bands.attrs["ci_prob"])
    if ci_prob is not None and not np.isclose(ci_prob, prob):
        raise ValueError(f"`ci_prob`={ci_prob!r} differs from the level of `bands` ({prob!r})")
    if rec is None:  # too few positives for any band: the posterior median alone
        return bands["recall"].values, prob, {"no_band": True}
    row = bands.sel(band=rec)
    source = str(row["source"].item())
    label = f"{percent(prob)} simultaneous band, {source} (recommended)"
    grid = bands["recall"].values
    if rec.startswith("bootstrap"):
        if bootstrap_band is not None:
            raise ValueError(
                "`bootstrap_band` cannot be given with `bands` whose recommended band is "
                f"the bootstrap's ({rec!r}): it is drawn as the bootstrap band"
            )
        boot = dict(
            bootstrap_recall=grid,
            bootstrap_lower=row["lower"].values,
            bootstrap_upper=row["upper"].values,
            bootstrap_label=label,
        )
        return grid, prob, {"boot": boot}
    return (
        grid,
        prob,
        {
            "simultaneous_lower": row["lower"].values,
            "simultaneous_upper": row["upper"].values,
            "label": label,
        },
    )


def _posterior_bands(posterior, recall, ci_prob, simultaneous):
    """Constructor arguments of the posterior's pointwise (and simultaneous) band."""
    recall = default_recall_grid() if recall is None else recall
    band = posterior.pr_band(recall=recall, ci_prob=ci_prob, kind="pointwise")
    prob = band.attrs["ci_prob"]
    sim = (
        posterior.pr_band(recall=recall, ci_prob=prob, kind="simultaneous")
        if simultaneous
        else None
    )
    return dict(
        band_source=band.attrs.get("band", "").rsplit("_", 1)[0] or None,
        recall=band["recall"].values,
        precision=band["median"].values,
        lower=band["lower"].values,
        upper=band["upper"].values,
        simultaneous_lower=None if sim is None else sim["lower"].values,
        simultaneous_upper=None if sim is None else sim["upper"].values,
        ci_prob=prob,
    )
