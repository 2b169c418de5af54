"""Helpers shared by the display objects: axes creation, array checks, styles, data.

Nothing here imports matplotlib at module level; :func:`get_axes` imports pyplot when
a display is drawn without ``ax``. Nothing here computes a statistic: the ``from_*`` constructors get
every band, density and histogram from the result objects (``BinormalPosterior.pr_band``,
``roc_band``, ``threshold_band``, ...) and the empirical functions.
"""

from __future__ import annotations

import numpy as np

from .._core import as_array

__all__ = [
    "DisplayMixin",
    "thin_curve",
    "POSTERIOR_COLOR",
    "EMPIRICAL_COLOR",
    "BOOTSTRAP_COLOR",
    "BASELINE_COLOR",
    "CLASS_COLORS",
    "get_axes",
    "float_1d",
    "optional_1d",
    "check_same_length",
    "check_pair",
    "band_arrays",
    "percent",
    "merge",
    "plot_empirical_pr",
    "finish",
    "unit_axes",
    "default_recall_grid",
]

POSTERIOR_COLOR = "C0"
EMPIRICAL_COLOR = "black"
BOOTSTRAP_COLOR = "C1"
BASELINE_COLOR = "0.45"
CLASS_COLORS = {"neg": "C0", "pos": "C3"}
UNIT_LIMITS = (0.0, 1.02)


def get_axes(ax, figsize=None):
    """Return ``(ax, figure)``: the given axes, or new ones on a new pyplot figure.

    As scikit-learn's displays do: without ``ax`` a display draws on
    ``plt.subplots()``, so a notebook shows it where it is made (Jupyter's inline
    backend shows the pyplot figures of a cell); with ``ax`` it draws there.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        figure, ax = plt.subplots(figsize=figsize, layout="constrained")
        return ax, figure
    return ax, ax.figure


class DisplayMixin:
    """Notebook manners of a display: a cell that ends with it shows its figure, once.

    Drawn without ``ax``, a display is on a new pyplot figure, which Jupyter's inline
    backend shows at the end of the cell. When the cell *ends with* the display (or a
    later cell is just ``disp``), IPython asks for ``_repr_png_``: the figure is
    rendered there and released from pyplot, so the inline backend does not show it a
    second time. The ``repr`` names the display and its axes instead of an address.
    """

    def _repr_png_(self):
        import io
        import sys

        fig = getattr(self, "figure_", None)
        if fig is None:  # not drawn yet: IPython falls back to the text repr
            return None
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:  # shown here: the inline backend must not show it again
            plt.close(fig)  # (a no-op for a figure pyplot does not manage)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", bbox_inches="tight")
        return buf.getvalue()

    def __repr__(self):
        ax = getattr(self, "ax_", None)
        if ax is None:
            return f"<{type(self).__name__} (not drawn yet: call .plot())>"
        title = ax.get_title() or " vs ".join(v for v in (ax.get_ylabel(), ax.get_xlabel()) if v)
        return f"<{type(self).__name__}: {title}>" if title else f"<{type(self).__name__}>"


def float_1d(x, name):
    """``x`` as a 1-D float64 array; the error names the parameter."""
    arr = np.asarray(as_array(x, name), dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-dimensional; got an array of shape {arr.shape}")
    return arr


def optional_1d(x, name):
    return None if x is None else float_1d(x, name)


def check_same_length(**arrays):
    """Raise if the non-None 1-D arrays given by keyword differ in length."""
    present = {k: v for k, v in arrays.items() if v is not None}
    sizes = {k: v.shape[0] for k, v in present.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"`{k}` has {n}" for k, n in sizes.items())
        raise ValueError(f"these arrays must have the same length: {listed}")


def check_pair(a, b, names):
    """Raise unless ``a`` and ``b`` are both given or both None."""
    if (a is None) != (b is None):
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be given together")


def band_arrays(band, name, x_name="recall"):
    """``(x, lower, upper)`` of a band given as a Dataset, a mapping or a 3-tuple.

    Accepts an :class:`xarray.Dataset` (or any mapping) with ``lower`` and ``upper``
    over the coordinate ``x_name`` (as returned by ``BinormalPosterior.pr_band`` and
    ``bayes_prc.bootstrap_pr_band``), or a tuple ``(x, lower, upper)``.
    """
    if isinstance(band, tuple | list) and len(band) == 3:
        x, lower, upper = band
    else:
        try:
            lower, upper = band["lower"], band["upper"]
            x = band[x_name]
        except (KeyError, TypeError, IndexError) as err:
            raise ValueError(
                f"`{name}` must be a Dataset or mapping with `lower`, `upper` and "
                f"`{x_name}`, or a tuple ({x_name}, lower, upper); got {type(band).__name__}"
            ) from err
    x = float_1d(getattr(x, "values", x), f"{name}[{x_name!r}]")
    lower = float_1d(getattr(lower, "values", lower), f"{name}['lower']")
    upper = float_1d(getattr(upper, "values", upper), f"{name}['upper']")
    check_same_length(**{x_name: x, "lower": lower, "upper": upper})
    return x, lower, upper


def percent(prob):
    """``0.94 -> '94%'``, ``0.945 -> '94.5%'``."""
    return f"{100 * float(prob):.4g}%"


def merge(defaults, overrides):
    """Keyword arguments: ``defaults`` updated with the caller's ``overrides``."""
    out = dict(defaults)
    if overrides:
        out.update(overrides)
    return out


def plot_empirical_pr(ax, recall, precision, label, overrides):
    """Draw an empirical PR curve (black steps) on ``ax``; returns the line."""
    style = {"color": EMPIRICAL_COLOR, "linewidth": 1.1, "drawstyle": "steps-post", "label": label}
    (line,) = ax.plot(recall, precision, **merge(style, overrides))
    return line


#: Curves longer than twice this are thinned to this resolution per axis before drawing.
THIN_RESOLUTION = 2000


def thin_curve(*arrays, resolution=THIN_RESOLUTION):
    """Drop the points of a curve that no figure could show; arrays share one mask.

    Each array is put on a grid of ``resolution`` cells over its range; a point is kept
    when its cell (in any array) differs from its neighbour's, and the two ends are
    always kept. A curve of a million points (the empirical PR curve of a million
    items) becomes a few thousand while every step wider than 1/``resolution`` of the
    axis stays where it was; shorter curves are returned unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.plotting._base import thin_curve
    >>> x = np.linspace(0, 1, 100_001)
    >>> y = np.where(x < 0.5, 1.0, 0.25)
    >>> tx, ty = thin_curve(x, y, resolution=100)
    >>> tx.size < 300, float(ty[tx < 0.5].min()), float(ty[tx > 0.5].max())
    (True, 1.0, 0.25)
    """
    arrays = [np.asarray(a) for a in arrays]
    n = arrays[0].shape[0]
    if n <= 2 * resolution:
        return tuple(arrays)
    change = np.zeros(n - 1, dtype=bool)
    for a in arrays:
        a = a.astype(np.float64)
        finite = np.isfinite(a)
        lo, hi = (a[finite].min(), a[finite].max()) if finite.any() else (0.0, 0.0)
        span = hi - lo if hi > lo else 1.0
        with np.errstate(invalid="ignore"):
            cell = np.where(finite, np.floor((a - lo) / span * resolution), -1.0)
        change |= cell[1:] != cell[:-1]
    keep = np.zeros(n, dtype=bool)
    keep[[0, -1]] = True
    keep[1:] |= change
    keep[:-1] |= change
    return tuple(a[keep] for a in arrays)


def finish(display, ax, fig, legend, loc="best"):
    """Draw the legend if asked, keep ``ax`` and ``fig`` on the display; returns it."""
    if legend:
        ax.legend(loc=loc, fontsize="small")
    display.ax_, display.figure_ = ax, fig
    return display


def unit_axes(ax, xlabel, ylabel):
    """Label the axes and set both limits to [0, 1.02] with equal aspect."""
    ax.set(xlabel=xlabel, ylabel=ylabel, xlim=UNIT_LIMITS, ylim=UNIT_LIMITS, aspect="equal")


def default_recall_grid():
    """201-point recall grid without recall 0.

    At recall 0 the binormal precision is a limit that is 0 or 1 depending on the sign
    of ``sigma_pos - sigma_neg``; its posterior median and band there are 0/1 jumps that
    would draw a misleading vertical segment on the precision axis.
    """
    return np.linspace(0.0, 1.0, 201)[1:]
