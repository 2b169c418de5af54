"""Vectorised searches over thresholds of the binormal model, one row per parameter draw.

The search grid of ``recall_at_precision`` / ``threshold_at_precision`` / ``max_fbeta``
(:func:`search_grid`), a binary search on monotone rows (:func:`first_index_geq`),
golden-section maximisation (:func:`golden_max`) and the bracketing root of a precision
crossing (:func:`solve_crossing`).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import elementwise

from ._common import _logit_precision_u

# Union of a grid in u (step 0.25) and of a grid in x (step 0.5) mapped to u, where
# u = (t - mu_pos) / sigma_pos and x = d + s u the standardised negative score. Recall
# underflows to 0.0 for u > 38.5, so points beyond _SEARCH_U_MAX are not searched.
_SEARCH_U_MAX = 40.0
_SEARCH_U = np.linspace(-10.0, _SEARCH_U_MAX, 201)
_SEARCH_X = np.linspace(-10.0, 42.0, 105)
_SEARCH_U_MIN = -1e6  # x-grid points below this are clipped (recall is 1.0 there anyway)
_GOLDEN_ITER = 80
_INV_PHI = (math.sqrt(5.0) - 1.0) / 2.0


def search_grid(d, s):
    """Per-draw search grid in u (rows sorted): shape ``(m, 306)`` for 1-D ``d``, ``s``."""
    with np.errstate(over="ignore", divide="ignore"):
        ux = (_SEARCH_X - d[:, None]) / s[:, None]
    ux = np.clip(ux, _SEARCH_U_MIN, _SEARCH_U_MAX)
    grid = np.concatenate([np.broadcast_to(_SEARCH_U, (d.shape[0], _SEARCH_U.size)), ux], 1)
    return np.sort(grid, axis=1)


def first_index_geq(rows, c):
    """First column index where each nondecreasing row of ``rows`` is >= ``c``.

    ``rows`` has shape ``(m, G)``, ``c`` shape ``(m, n)``; returns integers in
    ``[0, G]`` of shape ``(m, n)`` (``G`` when never reached). Vectorised binary search.
    """
    n_grid = rows.shape[1]
    lo = np.zeros(c.shape, dtype=np.intp)
    hi = np.full(c.shape, n_grid, dtype=np.intp)
    for _ in range(n_grid.bit_length() + 1):
        active = lo < hi
        mid = (lo + hi) // 2
        val = np.take_along_axis(rows, np.minimum(mid, n_grid - 1), axis=1)
        ge = val >= c
        hi = np.where(active & ge, mid, hi)
        lo = np.where(active & ~ge, mid + 1, lo)
    return lo


def golden_max(fun, lo, hi, n_iter=_GOLDEN_ITER):
    """Vectorised golden-section maximisation of ``fun`` on ``[lo, hi]``; ``(x, fun(x))``."""
    a, b = lo, hi
    c = b - _INV_PHI * (b - a)
    d = a + _INV_PHI * (b - a)
    fc, fd = fun(c), fun(d)
    for _ in range(n_iter):
        left = fc >= fd  # the maximum lies in [a, d]
        a, b = np.where(left, a, c), np.where(left, d, b)
        x_new = np.where(left, b - _INV_PHI * (b - a), a + _INV_PHI * (b - a))
        f_new = fun(x_new)
        c, d, fc, fd = (
            np.where(left, x_new, d),
            np.where(left, c, x_new),
            np.where(left, f_new, fd),
            np.where(left, fc, f_new),
        )
    best_c = fc >= fd
    return np.where(best_c, c, d), np.where(best_c, fc, fd)


def solve_crossing(d, s, logit_pi, limit, c, lo, hi):
    """Root of ``logit precision(u) = c`` in ``[lo, hi]`` (1-D arrays, valid brackets).

    Uses the bracketing Chandrupatla method of :func:`scipy.optimize.elementwise.find_root`
    to full double precision and returns the final bracket end at which the precision
    is >= the target (``hi`` itself where the solver does not report success).
    """

    def g(u, d, s, logit_pi, limit, c):
        return _logit_precision_u(u, d, s, logit_pi, limit) - c

    args = (d, s, logit_pi, limit, c)
    res = elementwise.find_root(g, (lo, hi), args=args)
    xl, xr = res.bracket
    fl, fr = res.f_bracket
    root = np.where(fl >= 0.0, xl, np.where(fr >= 0.0, xr, hi))
    return np.where(res.success, root, hi)
