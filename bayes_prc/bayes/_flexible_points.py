r"""Operating points of the flexible ROC model: recall and threshold at a precision, max F-beta.

A mixin of :class:`~._flexible.FlexibleROCModel` (latent negatives N(0, 1), positives a
normal mixture). A mixture's precision is in general *not* monotone in the threshold
(it can rise, fall and rise again), so the operating points are defined over all
thresholds, as the empirical ones are:

* ``recall_at_precision(p)``: the largest recall among thresholds whose precision is at
  least ``p`` (1 when ``p <= prevalence``, the precision at recall 1; 0 when no
  threshold reaches ``p``);
* ``threshold_at_precision(p)``: the threshold attaining it (the smallest latent
  threshold with precision ``>= p``; ``-inf`` and ``+inf`` in the two limit cases);
* ``max_fbeta(beta)``: the maximum over thresholds of ``F_beta`` and where it is reached.

Search, per draw and vectorized over draws (in chunks of :data:`_CHUNK` draws, so the
working arrays stay at a few MB): a grid of latent thresholds made of every positive
component's ``m_j + s_j u`` and the negatives' ``u``, ``u`` in steps of 1/8 of a standard
deviation from -10 to 40 (about 1600 points for 3 components; beyond that range the
recall or the false-positive rate underflows), then a refinement near the grid point
found: bisection of the precision crossing between the two grid points that bracket it
(64 halvings: the threshold to ~1e-16 of the grid step) and golden-section search for a
maximum between the neighbours of the best grid point (to ~1e-12 in the threshold).
A precision peak narrower than the grid step (1/8 of the narrowest component's sd)
that rises above ``p`` only between two grid points would be missed; on a smooth
mixture density such a peak exceeds its grid neighbours by ~1e-3 in logit precision at
most.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit, logit

from .._core import check_positive_number, plain
from ..empirical import FBetaResult
from ..models import golden_max

__all__ = ["FlexibleOperatingPoints"]

_CHUNK = 64  # draws per block: (64, ~1600, J) float64 arrays of ~2.5 MB per component
_GRID_U = np.linspace(-10.0, 40.0, 401)  # step 1/8, in each positive component's sds
_GRID_X = np.linspace(-10.0, 42.0, 417)  # step 1/8, in each negative component's sds
_BISECT = 64


def _neighbours(grid, k):
    """The distinct grid values just below and above ``grid[row, k]`` (ends: itself).

    Component grids can share points (e.g. ``m_j + s_j u`` with the negatives' ``u``),
    so the direct neighbours in the sorted row may equal the point itself.
    """
    rows = np.arange(grid.shape[0])
    g = grid.shape[1]
    x = grid[rows, k][:, None]
    first = np.argmax(grid >= x, axis=1)
    after = np.sum(grid <= x, axis=1)
    return grid[rows, np.maximum(first - 1, 0)], grid[rows, np.minimum(after, g - 1)]


class _Block:
    """The draws ``idx`` of a flexible model, flattened: logit precision and recall."""

    def __init__(self, model, idx, logit_prev, limit):
        self.pos, self.neg = model._pos.take(idx), model._neg.take(idx)
        self.lp, self.lim = logit_prev[idx], limit[idx]

    def take(self, rows):
        out = object.__new__(_Block)
        out.pos, out.neg = self.pos.take(rows), self.neg.take(rows)
        out.lp, out.lim = self.lp[rows], self.lim[rows]
        return out

    def grid(self):
        """Sorted latent thresholds per draw: (m, J * 401 + J_neg * 417)."""
        comp = self.pos.mu[:, :, None] + self.pos.sigma[:, :, None] * _GRID_U
        neg = self.neg.mu[:, :, None] + self.neg.sigma[:, :, None] * _GRID_X
        m = comp.shape[0]
        return np.sort(np.concatenate([comp.reshape(m, -1), neg.reshape(m, -1)], axis=1), axis=1)

    def parts(self, t):
        """``(log recall, logit precision)`` at thresholds ``t`` of shape (m,) or (m, G)."""
        k = t.ndim - 1
        log_r = self.pos.log_sf(t, k)
        log_f = self.neg.log_sf(t, k)
        lp = self.lp.reshape(self.lp.shape + (1,) * k)
        lim = self.lim.reshape(self.lim.shape + (1,) * k)
        both = np.isneginf(log_r) & np.isneginf(log_f)
        with np.errstate(invalid="ignore"):
            z = lp + np.where(both, lim, log_r - log_f)
        return log_r, z


def _bisect_crossing(block, c, lo, hi):
    """Smallest ``t`` in ``(lo, hi]`` with logit precision ``>= c``; ``z(lo) < c <= z(hi)``."""
    for _ in range(_BISECT):
        mid = 0.5 * (lo + hi)
        ge = block.parts(mid)[1] >= c
        lo, hi = np.where(ge, lo, mid), np.where(ge, mid, hi)
    return hi


class FlexibleOperatingPoints:
    """Operating points of :class:`~._flexible.FlexibleROCModel` (mixin; see the module)."""

    def _flat_blocks(self, prevalence):
        lp = np.broadcast_to(self._logit_prevalence(prevalence), self.batch_shape).ravel()
        lim = np.broadcast_to(self._tail_limit(), self.batch_shape).ravel()
        for start in range(0, lp.size, _CHUNK):
            idx = slice(start, min(start + _CHUNK, lp.size))
            yield idx, _Block(self, idx, lp, lim)

    def _precision_crossing(self, min_precision, prevalence):
        """Latent threshold of :meth:`recall_at_precision`: ``batch_shape + p.shape``."""
        p = np.asarray(min_precision, dtype=np.float64)
        bad = ~((p >= 0.0) & (p <= 1.0))
        if np.any(bad):
            raise ValueError(
                f"`min_precision` must be in [0, 1]; got {plain(float(p[bad].flat[0]))}"
            )
        m = int(np.prod(self.batch_shape))
        c = logit(p.ravel())
        out = np.empty((m, c.size))
        for idx, blk in self._flat_blocks(prevalence):
            out[idx] = self._crossing_block(blk, c)
        return out.reshape(self.batch_shape + p.shape)

    @staticmethod
    def _crossing_block(blk, c):
        grid = blk.grid()
        z_grid = blk.parts(grid)[1]
        m, g = grid.shape
        rows = np.arange(m)
        zmax = np.maximum.accumulate(np.where(np.isnan(z_grid), -np.inf, z_grid), axis=1)
        idx = np.stack([np.searchsorted(zmax[i], c, side="left") for i in range(m)])  # (m, n)
        t = np.full(idx.shape, np.inf)
        need = c[None, :] > blk.lp[:, None]
        on_grid = (idx < g) & need
        t = np.where(on_grid & (idx == 0), grid[:, :1], t)
        brk = on_grid & (idx > 0)
        if np.any(brk):
            r_s = np.broadcast_to(rows[:, None], idx.shape)[brk]
            i_s = idx[brk]
            t[brk] = _bisect_crossing(
                blk.take(r_s), c[np.nonzero(brk)[1]], grid[r_s, i_s - 1], grid[r_s, i_s]
            )
        off = ~(idx < g) & need
        if np.any(off):
            # no grid point reaches c: the curve's maximum may lie between grid points
            k = np.argmax(np.where(np.isnan(z_grid), -np.inf, z_grid), axis=1)
            a, b = _neighbours(grid, k)
            t_star, z_star = golden_max(lambda x: blk.parts(x)[1], a, b)
            reach = off & (z_star[:, None] >= c[None, :])
            if np.any(reach):  # z(a) < c (a is a grid point): the crossing is in (a, t*]
                r_s = np.broadcast_to(rows[:, None], idx.shape)[reach]
                t[reach] = _bisect_crossing(
                    blk.take(r_s), c[np.nonzero(reach)[1]], a[r_s], t_star[r_s]
                )
        t[~need] = -np.inf  # the prevalence (precision at recall 1) already meets it
        return t

    def recall_at_precision(self, min_precision, prevalence=None):
        """Largest recall among thresholds whose precision is at least ``min_precision``.

        The mixture's precision need not be monotone in the threshold: this is the
        highest recall over *all* thresholds with precision ``>= min_precision``, the
        convention of the empirical :func:`bayes_prc.recall_at_precision`. Found per draw
        on a grid of latent thresholds (1/8-sd steps of every component) and refined by
        bisection of the crossing (see :mod:`._flexible_points`); accurate to ~1e-12
        in recall in the tests.

        Conventions (as for :meth:`bayes_prc.binormal.Binormal.recall_at_precision`):
        1.0 when ``min_precision <= prevalence``; 0.0 when no threshold reaches it
        (including ``min_precision == 1``). Never NaN.

        Parameters
        ----------
        min_precision : float or array_like
            Target precisions in [0, 1].
        prevalence : float or array_like, optional
            Prevalence to evaluate at (broadcastable to ``batch_shape``); default the
            model's own.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape + np.shape(min_precision)``.

        Examples
        --------
        >>> from bayes_prc.bayes._flexible import FlexibleROCModel
        >>> model = FlexibleROCModel([0.7, 0.3], [0.5, 3.0], [0.6, 0.5], 0.2)
        >>> round(float(model.recall_at_precision(0.8)), 4)
        0.2925
        >>> float(model.recall_at_precision(0.1)), float(model.recall_at_precision(1.0))
        (1.0, 0.0)
        """
        t = self._precision_crossing(min_precision, prevalence)
        r = self.recall(t, per_draw=True)
        r = np.where(np.isneginf(t), 1.0, np.where(np.isposinf(t), 0.0, r))
        return r[()] if r.ndim == 0 else r

    def threshold_at_precision(self, min_precision, prevalence=None):
        """Latent threshold attaining :meth:`recall_at_precision`.

        The smallest threshold with precision ``>= min_precision`` (``score >= t`` is
        positive): ``-inf`` when ``min_precision <= prevalence`` and ``+inf`` when no
        threshold reaches it. ``BinormalPosterior.threshold_at_precision`` maps it to the
        score scale.

        Parameters
        ----------
        min_precision : float or array_like
            Target precisions in [0, 1].
        prevalence : float or array_like, optional
            Prevalence to evaluate at; default the model's own.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape + np.shape(min_precision)``.

        Examples
        --------
        >>> from bayes_prc.bayes._flexible import FlexibleROCModel
        >>> model = FlexibleROCModel([0.7, 0.3], [0.5, 3.0], [0.6, 0.5], 0.2)
        >>> t = model.threshold_at_precision(0.8)
        >>> round(float(t), 4), round(float(model.precision(t)), 6)
        (2.0907, 0.8)
        """
        t = self._precision_crossing(min_precision, prevalence)
        return t[()] if t.ndim == 0 else t

    def max_fbeta(self, beta=1.0, prevalence=None):
        """Maximum of F-beta over all latent thresholds, with its threshold, precision, recall.

        ``F_beta = (1 + beta**2) P R / (beta**2 P + R)``, maximized per draw on the grid
        of :meth:`recall_at_precision` and refined by golden-section search between the
        neighbours of the best grid point (the global maximum, even when F-beta has
        several local maxima).

        Parameters
        ----------
        beta : float, default 1.0
            Weight of recall relative to precision (> 0, finite).
        prevalence : float or array_like, optional
            Prevalence to evaluate at; default the model's own.

        Returns
        -------
        FBetaResult
            ``score`` (also ``fbeta``), ``threshold`` (latent), ``precision`` and
            ``recall``, each of shape ``batch_shape``, and ``beta``, as for the binormal
            model.

        Examples
        --------
        >>> from bayes_prc.bayes._flexible import FlexibleROCModel
        >>> best = FlexibleROCModel([0.7, 0.3], [0.5, 3.0], [0.6, 0.5], 0.2).max_fbeta()
        >>> round(float(best.fbeta), 4), round(float(best.threshold), 3)
        (0.4535, 0.319)
        """
        beta_f = check_positive_number(beta, "beta")
        b2 = beta_f * beta_f
        m = int(np.prod(self.batch_shape))
        res = {k: np.empty(m) for k in ("fbeta", "threshold", "precision", "recall")}
        for idx, blk in self._flat_blocks(prevalence):

            def fbeta(t, blk=blk):
                log_r, z = blk.parts(t)
                with np.errstate(over="ignore", divide="ignore"):
                    f = (1.0 + b2) / (b2 * np.exp(-log_r) + np.exp(-log_expit(z)))
                return np.where(np.isnan(f), 0.0, f)

            grid = blk.grid()
            f_grid = fbeta(grid)
            rows = np.arange(grid.shape[0])
            k = np.argmax(f_grid, axis=1)
            a, b = _neighbours(grid, k)
            t_gold, f_gold = golden_max(fbeta, a, b)
            use = f_gold >= f_grid[rows, k]
            t = np.where(use, t_gold, grid[rows, k])
            log_r, z = blk.parts(t)
            res["fbeta"][idx] = np.where(use, f_gold, f_grid[rows, k])
            res["threshold"][idx], res["precision"][idx] = t, expit(z)
            res["recall"][idx] = np.exp(log_r)
        out = {k: v.reshape(self.batch_shape) for k, v in res.items()}
        out["score"] = out.pop("fbeta")
        return FBetaResult(
            **{k: v[()] if v.ndim == 0 else v for k, v in out.items()}, beta=float(beta_f)
        )
