"""``FoldCurvesDisplay``: each fold's curve (thin), the mean curve and a band across folds."""

from __future__ import annotations

import numpy as np

from .._core import plain
from ._base import (
    EMPIRICAL_COLOR,
    POSTERIOR_COLOR,
    DisplayMixin,
    finish,
    get_axes,
    merge,
    percent,
    unit_axes,
)

__all__ = ["FoldCurvesDisplay"]


class FoldCurvesDisplay(DisplayMixin):
    """Curves across cross-validation folds (or training seeds), their mean and a band.

    Parameters
    ----------
    x : array of shape (n_grid,)
        The grid: recall (``curve="pr"``) or false positive rate (``curve="roc"``).
    curves : array of shape (n_folds, n_grid)
        Each fold's precision (or TPR) on the grid.
    mean : array of shape (n_grid,)
        The mean curve.
    lower, upper : array of shape (n_grid,), optional
        The band (given together).
    curve : {"pr", "roc"}, default "pr"
    band_label : str, optional
        Legend label of the band.

    Attributes
    ----------
    fold_lines_ : list of matplotlib.lines.Line2D
    mean_line_ : matplotlib.lines.Line2D
    band_ : matplotlib.collections.PolyCollection or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayes_prc import Binormal
    >>> from bayes_prc.plotting import FoldCurvesDisplay
    >>> folds = [Binormal(1.5, 1, 0, 1, 0.3).sample(200, random_seed=i) for i in range(5)]
    >>> disp = FoldCurvesDisplay.from_folds(folds, grid_points=21)
    >>> len(disp.fold_lines_), disp.mean_line_.get_xydata().shape
    (5, (21, 2))
    >>> disp.ax_.get_xlabel()
    'Recall'
    """

    def __init__(self, x, curves, mean, lower=None, upper=None, *, curve="pr", band_label=None):
        if curve not in ("pr", "roc"):
            raise ValueError(f"`curve` must be one of ('pr', 'roc'); got {plain(curve)}")
        self.x = np.asarray(x, dtype=np.float64)
        self.curves = np.asarray(curves, dtype=np.float64)
        self.mean = np.asarray(mean, dtype=np.float64)
        if self.x.ndim != 1:
            raise ValueError(f"`x` must be 1-dimensional; got an array of shape {self.x.shape}")
        n = self.x.shape[0]
        if self.curves.ndim != 2 or self.curves.shape[1] != n:
            raise ValueError(
                f"`curves` must have shape (n_folds, {n}) to match `x`; got {self.curves.shape}"
            )
        if self.mean.shape != (n,):
            raise ValueError(f"`mean` must have shape ({n},) to match `x`; got {self.mean.shape}")
        if (lower is None) != (upper is None):
            raise ValueError("`lower` and `upper` must be given together")
        self.lower = self.upper = None
        if lower is not None:
            self.lower = np.asarray(lower, dtype=np.float64)
            self.upper = np.asarray(upper, dtype=np.float64)
            for name, arr in (("lower", self.lower), ("upper", self.upper)):
                if arr.shape != (n,):
                    raise ValueError(
                        f"`{name}` must have shape ({n},) to match `x`; got {arr.shape}"
                    )
        self.curve = curve
        self.band_label = band_label

    def plot(self, ax=None, *, legend=True, fold_kw=None, band_kw=None, **kwargs):
        """Draw the fold curves, the band and the mean curve (steps, as the read-out).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        legend : bool, default True
        fold_kw : dict, optional
            Keyword arguments of the fold curves.
        band_kw : dict, optional
            Keyword arguments of the band (``fill_between``).
        **kwargs
            Keyword arguments of the mean curve.

        Returns
        -------
        FoldCurvesDisplay
        """
        ax, fig = get_axes(ax)
        step = "post" if self.curve == "roc" else "pre"
        fold_style = merge(
            {
                "color": EMPIRICAL_COLOR,
                "linewidth": 0.6,
                "alpha": 0.35,
                "drawstyle": f"steps-{step}",
                "label": f"folds ({self.curves.shape[0]})",
            },
            fold_kw,
        )
        self.fold_lines_ = []
        for j, curve in enumerate(self.curves):
            style = fold_style if j == 0 else {**fold_style, "label": "_nolegend_"}
            (line,) = ax.plot(self.x, curve, **style)
            self.fold_lines_.append(line)
        self.band_ = None
        if self.lower is not None:
            self.band_ = ax.fill_between(
                self.x,
                self.lower,
                self.upper,
                step=step,
                **merge(
                    {
                        "color": POSTERIOR_COLOR,
                        "alpha": 0.25,
                        "linewidth": 0,
                        "label": self.band_label,
                    },
                    band_kw,
                ),
            )
        (self.mean_line_,) = ax.plot(
            self.x,
            self.mean,
            **merge(
                {
                    "color": POSTERIOR_COLOR,
                    "linewidth": 1.8,
                    "drawstyle": f"steps-{step}",
                    "label": "mean",
                },
                kwargs,
            ),
        )
        if self.curve == "pr":
            unit_axes(ax, "Recall", "Precision")
        else:
            unit_axes(ax, "False positive rate", "True positive rate")
        return finish(self, ax, fig, legend)

    @classmethod
    def from_folds(
        cls,
        folds,
        *,
        curve="pr",
        grid_points=None,
        band="t",
        confidence_level=0.95,
        pos_label=None,
        ax=None,
        **kwargs,
    ):
        """Compute the fold curves with :func:`bayes_prc.fold_curves`, then plot them.

        Parameters
        ----------
        folds : sequence of (y_true, y_score) pairs
        curve : {"pr", "roc"}, default "pr"
        grid_points : None, int or array-like, optional
        band : {"t", "envelope", None}, default "t"
            The pointwise t band on the mean curve, the min/max envelope of the folds, or
            no band.
        confidence_level : float, default 0.95
        pos_label : label, optional
        ax, **kwargs
            ``ax`` and keyword arguments of :meth:`plot`.

        Returns
        -------
        FoldCurvesDisplay
        """
        from ..folds import fold_curves

        if band not in ("t", "envelope", None):
            raise ValueError(f"`band` must be one of ('t', 'envelope', None); got {plain(band)}")
        res = fold_curves(
            folds,
            curve=curve,
            grid_points=grid_points,
            confidence_level=confidence_level,
            pos_label=pos_label,
        )
        x_name, y_name = ("recall", "precision") if curve == "pr" else ("fpr", "tpr")
        lower = upper = label = None
        if band == "t":
            lower, upper = res["lower"].values, res["upper"].values
            label = f"{percent(res.attrs['confidence_level'])} t band"
        elif band == "envelope":
            lower, upper = res["minimum"].values, res["maximum"].values
            label = "min-max envelope"
        disp = cls(
            res[x_name].values,
            res[y_name].values,
            res["mean"].values,
            lower,
            upper,
            curve=curve,
            band_label=label,
        )
        return disp.plot(ax=ax, **kwargs)
