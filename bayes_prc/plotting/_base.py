"""Helpers shared by the display objects: axes creation, array checks, band arrays.

Nothing here imports matplotlib at module level; :func:`get_axes` imports it when a
display is drawn. The helpers that prepare arrays (:func:`eti`, :func:`to_fitted_scale`)
are used by the ``from_*`` constructors only, never by ``plot``.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_array

__all__ = [
    "get_axes",
    "float_1d",
    "optional_1d",
    "check_same_length",
    "band_arrays",
    "eti",
    "percent",
    "merge",
    "to_fitted_scale",
    "to_original_scale",
]


def get_axes(ax, figsize=None):
    """Return ``(ax, figure)``: the given axes, or new ones on a new, pyplot-free figure.

    A new figure is a plain :class:`matplotlib.figure.Figure` (not registered with
    pyplot, so nothing is drawn on, or left behind in, pyplot's global state).
    """
    if ax is None:
        from matplotlib.figure import Figure

        figure = Figure(figsize=figsize, layout="constrained")
        ax = figure.add_subplot()
        return ax, figure
    return ax, ax.figure


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


def eti(draws, prob):
    """Pointwise equal-tailed interval and median over the first axis of ``draws``."""
    alpha = 1.0 - prob
    lower, median, upper = np.quantile(draws, [alpha / 2, 0.5, 1 - alpha / 2], axis=0)
    return lower, median, upper


def percent(prob):
    """``0.94 -> '94%'``, ``0.945 -> '94.5%'``."""
    return f"{100 * float(prob):.4g}%"


def merge(defaults, overrides):
    """Keyword arguments: ``defaults`` updated with the caller's ``overrides``."""
    out = dict(defaults)
    if overrides:
        out.update(overrides)
    return out


def to_fitted_scale(t, transform):
    """Original-scale scores/thresholds to the scale the binormal model was fit on."""
    from scipy import special

    t = np.asarray(t, dtype=np.float64)
    if transform is None:
        return t
    with np.errstate(divide="ignore"):
        return special.logit(t) if transform == "logit" else special.ndtri(t)


def to_original_scale(t, transform):
    """Fitted-scale thresholds back to the original score scale."""
    from scipy import special

    t = np.asarray(t, dtype=np.float64)
    if transform is None:
        return t
    return special.expit(t) if transform == "logit" else special.ndtr(t)
