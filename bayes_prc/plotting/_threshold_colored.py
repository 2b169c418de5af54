"""``ThresholdColoredPRDisplay``: a PR curve whose colour encodes the score threshold
(seed 001)."""

from __future__ import annotations

import numpy as np

from ..empirical import as_ranked, precision_recall_curve
from ._base import (
    DisplayMixin,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    merge,
    thin_curve,
    unit_axes,
)

__all__ = ["ThresholdColoredPRDisplay"]


class ThresholdColoredPRDisplay(DisplayMixin):
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
        unit_axes(ax, "Recall", "Precision")
        return finish(self, ax, fig, legend)

    @classmethod
    def from_predictions(cls, y_true, y_score, *, pos_label=None, name=None, ax=None, **kwargs):
        """The empirical curve as steps, coloured by its thresholds.

        Parameters
        ----------
        y_true, y_score : array-like of shape (n_samples,)
            A prepared ``Ranked`` (:func:`bayes_prc.empirical.as_ranked`) may be
            passed as ``y_true`` with ``y_score=None``.
        pos_label, name, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ThresholdColoredPRDisplay
        """
        data = as_ranked(y_true, y_score, pos_label=pos_label)
        p, r, t = precision_recall_curve(data, None)
        rt, pt, t = thin_curve(r[:-1], p[:-1], t)  # the last point has no threshold
        r, p = np.append(rt, r[-1]), np.append(pt, p[-1])
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
