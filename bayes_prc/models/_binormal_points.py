"""Operating points of the binormal model: recall and threshold at a precision, max F-beta.

A mixin of :class:`bayes_prc.binormal.Binormal` (it uses the model's standardised
separation ``_d``, spread ratio ``_s`` and tail limit ``_limit``). Precision need not be
monotone in recall when ``sigma_pos != sigma_neg``, so every search scans a fine grid of
thresholds per draw (:func:`._search.search_grid`) before refining.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit, log_ndtr, logit, ndtr

from .._core import check_positive_number
from ..empirical import FBetaResult
from ._common import _as_scalar_or_array, _check_unit_interval, _logit_precision_u, expand_to_draws
from ._search import first_index_geq, golden_max, search_grid, solve_crossing

__all__ = ["BinormalFBetaResult"]


#: The former name of the F-beta result of the models: the one :class:`FBetaResult`.
BinormalFBetaResult = FBetaResult


class _BinormalOperatingPoints:
    """Operating points of :class:`bayes_prc.binormal.Binormal` (mixin)."""

    def _precision_crossing(self, min_precision, prevalence):
        """Smallest standardised threshold u with precision >= ``min_precision``.

        Returns u of shape ``batch_shape + np.shape(min_precision)``: ``-inf`` when the
        target is met at recall 1 (``min_precision <= prevalence``), ``+inf`` when it is
        unreachable (or only reached at recalls below ~1e-300, i.e. u > 40).
        """
        p = _check_unit_interval(min_precision, "min_precision")
        out_shape = self.batch_shape + p.shape
        lp = np.broadcast_to(self._logit_prevalence(prevalence), self.batch_shape).ravel()
        m, n = lp.size, p.size
        if m == 0 or n == 0:
            return np.empty(out_shape)
        d, s, lim = self._d.reshape(m, 1), self._s.reshape(m, 1), self._limit.reshape(m, 1)
        lp = lp.reshape(m, 1)
        c = np.broadcast_to(logit(p).reshape(1, n), (m, n))

        def zfun(u):
            return _logit_precision_u(u, d, s, lp, lim)

        grid = search_grid(d[:, 0], s[:, 0])
        z_grid = zfun(grid)
        idx = first_index_geq(np.maximum.accumulate(z_grid, axis=1), c)
        on_grid = idx < grid.shape[1]
        # No grid point reaches c: refine the maximum of the precision (it may lie between
        # grid points when precision is not monotone in recall, sigma_pos < sigma_neg).
        k_best = np.argmax(z_grid, axis=1)
        rows = np.arange(m)
        g_last = grid.shape[1] - 1
        a = grid[rows, np.maximum(k_best - 1, 0)][:, None]
        b = grid[rows, np.minimum(k_best + 1, g_last)][:, None]
        if np.any(~on_grid & (c > lp)):
            u_star, z_star = golden_max(zfun, a, b)
        else:
            u_star, z_star = a, np.full_like(a, -np.inf)
        off_grid = ~on_grid & (z_star >= c)
        idx_c = np.minimum(idx, g_last)
        hi = np.where(on_grid, np.take_along_axis(grid, idx_c, axis=1), u_star)
        lo = np.where(on_grid, np.take_along_axis(grid, np.maximum(idx_c - 1, 0), axis=1), a)
        solve = ((on_grid & (idx > 0)) | off_grid) & (c > lp)
        u = hi.copy()
        if np.any(solve):
            rows_s = np.broadcast_to(np.arange(m)[:, None], (m, n))[solve]
            u[solve] = solve_crossing(
                self._d.ravel()[rows_s],
                self._s.ravel()[rows_s],
                lp[rows_s, 0],
                self._limit.ravel()[rows_s],
                c[solve],
                lo[solve],
                hi[solve],
            )
        u = np.where(on_grid | off_grid, u, np.inf)
        u = np.where(c <= lp, -np.inf, u)  # prevalence already meets the target
        return u.reshape(out_shape)

    def recall_at_precision(self, min_precision, prevalence=None):
        """Largest recall whose precision is at least ``min_precision``.

        Precision need not be monotone in recall when ``sigma_pos != sigma_neg``; the
        answer is the largest recall over all thresholds, found on a fine grid of
        thresholds (step <= 0.25 in the positive class's and <= 0.5 in the negative
        class's standard units), refined by a bracketing root finder to double precision.

        Conventions: recall 1.0 when ``min_precision <= prevalence`` (precision at
        recall 1 is the prevalence); recall 0.0 when the target is unreachable, which
        includes ``min_precision == 1`` and targets first met at recalls below about
        1e-300 (they underflow to 0.0 anyway). Never NaN.

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

        See Also
        --------
        threshold_at_precision : the threshold attaining this recall.

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> model = Binormal(2.0, 1.0, 0.0, 1.0, 0.1)
        >>> round(float(model.recall_at_precision(0.5)), 4)
        0.7254
        >>> float(model.recall_at_precision(0.05)), float(model.recall_at_precision(1.0))
        (1.0, 0.0)
        """
        u = self._precision_crossing(min_precision, prevalence)
        return _as_scalar_or_array(ndtr(-u))

    def threshold_at_precision(self, min_precision, prevalence=None):
        """Smallest threshold whose precision is at least ``min_precision``.

        The threshold attaining :meth:`recall_at_precision` (largest recall):
        ``-inf`` when ``min_precision <= prevalence`` and ``+inf`` when the target is
        unreachable (same conventions as :meth:`recall_at_precision`).

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
        >>> from bayes_prc.binormal import Binormal
        >>> model = Binormal(2.0, 1.0, 0.0, 1.0, 0.1)
        >>> t = model.threshold_at_precision(0.5)
        >>> round(float(t), 4), round(float(model.precision(t)), 6)
        (1.401, 0.5)
        """
        u = self._precision_crossing(min_precision, prevalence)
        k = np.ndim(min_precision)
        out = expand_to_draws(self.mu_pos, k) + expand_to_draws(self.sigma_pos, k) * u
        return _as_scalar_or_array(out)

    def max_fbeta(self, beta=1.0, prevalence=None):
        """Maximum of F-beta over all thresholds.

        ``F_beta = (1 + beta**2) P R / (beta**2 P + R)``. Maximised per draw over a fine
        grid of thresholds (as in :meth:`recall_at_precision`), then refined by
        golden-section search between the neighbours of the best grid point (to about
        1e-12 in the threshold, far below 1e-9 in F).

        Parameters
        ----------
        beta : float, default 1.0
            Weight of recall relative to precision (> 0, finite).
        prevalence : float or array_like, optional
            Prevalence to evaluate at (broadcastable to ``batch_shape``); default the
            model's own.

        Returns
        -------
        FBetaResult
            The one F-beta result of the package (as the empirical
            :func:`bayes_prc.max_fbeta`'s): ``score`` (also ``fbeta``), ``threshold``,
            ``precision`` and ``recall``, each of shape ``batch_shape``, and ``beta``.

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> best = Binormal(2.0, 1.0, 0.0, 1.0, 0.1).max_fbeta()
        >>> round(float(best.fbeta), 4), round(float(best.threshold), 3)
        (0.6121, 1.689)
        """
        beta_f = check_positive_number(beta, "beta")
        b2 = beta_f * beta_f
        lp = np.broadcast_to(self._logit_prevalence(prevalence), self.batch_shape).ravel()
        m = lp.size
        d, s, lim = self._d.reshape(m, 1), self._s.reshape(m, 1), self._limit.reshape(m, 1)
        lp = lp.reshape(m, 1)

        def parts(u):
            log_r = log_ndtr(-u)
            z = _logit_precision_u(u, d, s, lp, lim, log_r=log_r)
            return log_r, z

        def fbeta(u):
            log_r, z = parts(u)
            with np.errstate(over="ignore", divide="ignore"):
                return (1.0 + b2) / (b2 * np.exp(-log_r) + np.exp(-log_expit(z)))

        grid = search_grid(d[:, 0], s[:, 0])
        f_grid = fbeta(grid)
        k_best = np.argmax(f_grid, axis=1)[:, None]
        g_last = grid.shape[1] - 1
        a = np.take_along_axis(grid, np.maximum(k_best - 1, 0), axis=1)
        b = np.take_along_axis(grid, np.minimum(k_best + 1, g_last), axis=1)
        u_gold, f_gold = golden_max(fbeta, a, b)
        u_grid = np.take_along_axis(grid, k_best, axis=1)
        f_grid_best = np.take_along_axis(f_grid, k_best, axis=1)
        use_gold = f_gold >= f_grid_best
        u = np.where(use_gold, u_gold, u_grid)
        log_r, z = parts(u)
        shape = self.batch_shape
        return FBetaResult(
            score=_as_scalar_or_array(np.where(use_gold, f_gold, f_grid_best).reshape(shape)),
            threshold=_as_scalar_or_array(
                (self.mu_pos.ravel() + self.sigma_pos.ravel() * u[:, 0]).reshape(shape)
            ),
            precision=_as_scalar_or_array(expit(z).reshape(shape)),
            recall=_as_scalar_or_array(np.exp(log_r).reshape(shape)),
            beta=float(beta),
        )
