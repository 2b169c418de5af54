"""Defaults of :mod:`bayes_prc.scale`: :func:`set_options` and :func:`get_options`."""

from __future__ import annotations

import numpy as np

from .._core import plain

__all__ = ["GRIDS", "get_options", "set_options"]

GRIDS = ("tail", "quantile", "uniform")

# defaults in one place; change them with set_options
_OPTIONS = {
    "max_exact": 50_000_000,  # items computed into memory for the exact curve / AP
    "bins": 262_144,  # score bins of the binned curve
    "grid": "tail",  # how the bin edges are placed
    "split_every": 8,  # fan-in of the tree reductions
}


def _check_option(name, value):
    if name not in _OPTIONS:
        raise ValueError(f"unknown option {name!r}; valid options are {sorted(_OPTIONS)}")
    if name == "grid":
        if value not in GRIDS:
            raise ValueError(f"`grid` must be one of {GRIDS}; got {plain(value)}")
        return value
    minimum = {"max_exact": 0, "bins": 1, "split_every": 2}[name]
    ok = isinstance(value, (int, np.integer, float)) and not isinstance(value, bool)
    if not ok or value != int(value) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {plain(value)}")
    return int(value)


class set_options:  # a class used like a function, as xarray.set_options
    """Set the defaults of :mod:`bayes_prc.scale`, globally or inside a ``with`` block.

    Parameters
    ----------
    max_exact : int, default 50_000_000
        Dask input with at most this many items is computed into memory and goes through
        the exact numpy core (peak driver memory, float64 scores and boolean labels:
        about 32 bytes per item for AP, 52 for the full curve, so 1.6 and 2.6 GB at the
        default); larger input gets the binned curve and a bounded AP.
    bins : int, default 262_144
        Number of score bins of the binned curve.
    grid : {"tail", "quantile", "uniform"}, default "tail"
        Bin edges: see :func:`binned_pr_curve`.
    split_every : int, default 8
        Fan-in of the tree reductions (how many block results one task merges).

    Examples
    --------
    >>> from bayes_prc import scale
    >>> with scale.set_options(max_exact=1000, bins=128):
    ...     scale.get_options()["bins"]
    128
    >>> scale.get_options()["bins"]
    262144
    """

    def __init__(self, **options):
        checked = {k: _check_option(k, v) for k, v in options.items()}
        self._old = {k: _OPTIONS[k] for k in checked}
        _OPTIONS.update(checked)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _OPTIONS.update(self._old)


def get_options():
    """The current defaults of :mod:`bayes_prc.scale` (a copy), see :func:`set_options`."""
    return dict(_OPTIONS)
