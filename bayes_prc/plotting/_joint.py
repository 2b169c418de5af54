"""``PRJointRegionDisplay``: joint (precision, recall) regions over an empirical PR curve."""

from __future__ import annotations

import numpy as np

from ..empirical import as_ranked, precision_recall_curve
from ..frequentist import pr_joint_regions
from ._base import (
    DisplayMixin,
    check_pair,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    merge,
    optional_1d,
    percent,
    plot_empirical_pr,
    thin_curve,
    unit_axes,
)

__all__ = ["PRJointRegionDisplay"]


class PRJointRegionDisplay(DisplayMixin):
    """Joint regions for (precision, recall) at one or more thresholds, filled.

    Parameters
    ----------
    precision, recall : array of shape (n_regions,)
        The point estimate of each region.
    boundaries : sequence of arrays of shape (n_vertices, 2)
        One boundary polygon per region, columns (precision, recall), as returned by
        :meth:`bayes_prc.PRJointRegion.contour`.
    thresholds : array of shape (n_regions,), optional
        Threshold of each region (used in the labels).
    curve_recall, curve_precision : array of shape (n_points,), optional
        An empirical PR curve drawn under the regions (steps).
    confidence_level : float, optional
        Probability of the regions (for the legend).
    method : str or sequence of str, optional
        Name of the method (for the legend), one for all regions or one per region.
    name : str, optional
        Legend label of the curve.

    Attributes
    ----------
    regions_ : list of matplotlib.patches.Polygon
        One filled polygon per region.
    points_ : matplotlib.collections.PathCollection
        The point estimates.
    line_ : matplotlib.lines.Line2D or None
        The empirical curve.
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from bayes_prc.plotting import PRJointRegionDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> s = y + rng.normal(0, 1, 300)
    >>> disp = PRJointRegionDisplay.from_predictions(y, s, [0.0, 0.5, 1.0])
    >>> len(disp.regions_), disp.points_.get_offsets().shape
    (3, (3, 2))
    """

    def __init__(
        self,
        precision,
        recall,
        boundaries,
        *,
        thresholds=None,
        curve_recall=None,
        curve_precision=None,
        confidence_level=None,
        method=None,
        name=None,
    ):
        self.precision = float_1d(precision, "precision")
        self.recall = float_1d(recall, "recall")
        self.thresholds = optional_1d(thresholds, "thresholds")
        check_same_length(precision=self.precision, recall=self.recall, thresholds=self.thresholds)
        self.boundaries = [np.asarray(b, dtype=np.float64) for b in boundaries]
        if len(self.boundaries) != self.precision.shape[0]:
            raise ValueError(
                f"`boundaries` must hold one polygon per region ({self.precision.shape[0]}); "
                f"got {len(self.boundaries)}"
            )
        for i, b in enumerate(self.boundaries):
            if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 3:
                raise ValueError(
                    f"`boundaries[{i}]` must have shape (n_vertices >= 3, 2); got {b.shape}"
                )
        check_pair(curve_recall, curve_precision, ("curve_recall", "curve_precision"))
        self.curve_recall = optional_1d(curve_recall, "curve_recall")
        self.curve_precision = optional_1d(curve_precision, "curve_precision")
        check_same_length(curve_recall=self.curve_recall, curve_precision=self.curve_precision)
        self.confidence_level = confidence_level
        if not (method is None or isinstance(method, str)):
            method = [str(m) for m in method]
            if len(method) != len(self.boundaries):
                raise ValueError(
                    f"`method` must be one name or one per region ({len(self.boundaries)}); "
                    f"got {len(method)}"
                )
        self.method = method
        self.name = name

    def plot(self, ax=None, *, name=None, legend=True, fill_kw=None, point_kw=None, curve_kw=None):
        """Draw the curve (if any), the filled regions and the point estimates.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        name : str, optional
            Legend label of the curve.
        legend : bool, default True
        fill_kw, point_kw, curve_kw : dict, optional
            Passed to :meth:`~matplotlib.axes.Axes.fill`,
            :meth:`~matplotlib.axes.Axes.scatter` and the curve's
            :meth:`~matplotlib.axes.Axes.plot`.

        Returns
        -------
        PRJointRegionDisplay
        """
        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        self.line_ = None
        if self.curve_recall is not None:
            self.line_ = plot_empirical_pr(
                ax, self.curve_recall, self.curve_precision, name or "empirical", curve_kw
            )
        level = self.confidence_level
        base = "region" if level is None else f"{percent(level)} region"
        methods = self.method
        if methods is None or isinstance(methods, str):
            methods = [methods] * len(self.boundaries)
        self.regions_ = []
        for i, b in enumerate(self.boundaries):
            what = base if methods[i] is None else f"{base} ({methods[i]})"
            style = {"color": f"C{i % 10}", "alpha": 0.35, "linewidth": 0.8}
            if self.thresholds is not None:
                style["label"] = f"{what}, threshold {self.thresholds[i]:.3g}"
            elif i == 0 or methods[i] != methods[i - 1]:
                style["label"] = what
            (patch,) = ax.fill(b[:, 1], b[:, 0], **merge(style, fill_kw))
            self.regions_.append(patch)
        point_style = {"color": "black", "marker": "x", "s": 30, "zorder": 3, "label": "estimate"}
        self.points_ = ax.scatter(self.recall, self.precision, **merge(point_style, point_kw))
        unit_axes(ax, "Recall", "Precision")
        return finish(self, ax, fig, legend)

    @classmethod
    def from_regions(cls, regions, *, curve=None, name=None, ax=None, n_points=256, **kwargs):
        """Draw :class:`bayes_prc.PRJointRegion` results (any method, one level).

        Parameters
        ----------
        regions : PRJointRegion or sequence of PRJointRegion
        curve : tuple (recall, precision), optional
            A curve to draw under the regions.
        name, ax
        n_points : int, default 256
            Vertices of each boundary polygon.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRJointRegionDisplay
        """
        regions = [regions] if hasattr(regions, "contour") else list(regions)
        if not regions:
            raise ValueError("`regions` is empty; pass at least one PRJointRegion")
        curve_r, curve_p = (None, None) if curve is None else curve
        disp = cls(
            [r.estimate[0] for r in regions],
            [r.estimate[1] for r in regions],
            [r.contour(n_points) for r in regions],
            thresholds=[r.threshold for r in regions],
            curve_recall=curve_r,
            curve_precision=curve_p,
            confidence_level=regions[0].confidence_level,
            method=[r.method for r in regions],
            name=name,
        )
        return disp.plot(ax=ax, **kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        threshold,
        *,
        method="profile",
        confidence_level=0.95,
        pos_label=None,
        name=None,
        ax=None,
        n_points=256,
        **kwargs,
    ):
        """Regions of :func:`bayes_prc.pr_joint_regions` over the empirical PR curve.

        Parameters
        ----------
        y_true, y_score : array-like of shape (n_samples,)
        threshold : float or array-like of float
            One threshold, or several to show regions along the curve.
        method : {"profile", "normal"}, default "profile"
        confidence_level : float, default 0.95
        pos_label, name, ax
        n_points : int, default 256
            Vertices of each boundary polygon.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PRJointRegionDisplay
        """
        data = as_ranked(y_true, y_score, pos_label=pos_label)
        regions = pr_joint_regions(
            data,
            None,
            threshold,
            method=method,
            confidence_level=confidence_level,
            grid_size=2,  # the boundary comes from contour(), not from the grid
        )
        p, r, _ = precision_recall_curve(data, None)
        r, p = thin_curve(r, p)
        return cls.from_regions(
            regions, curve=(r, p), name=name, ax=ax, n_points=n_points, **kwargs
        )
