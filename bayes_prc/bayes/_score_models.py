r"""Alternative models of the per-class score distributions, for model criticism.

Two layers live here, the lower one usable without PyMC:

1. **Analytic PR models** (numpy/scipy). A score model gives each class a score
   distribution with survival function :math:`S_c(t) = P(X_c \ge t)`; classifying
   ``score >= t`` as positive gives recall :math:`r(t) = S_1(t)`, false-positive rate
   :math:`f(t) = S_0(t)` and precision

   .. math::

       \operatorname{prec}(t) = \frac{\pi r(t)}{\pi r(t) + (1 - \pi) f(t)}
         = \operatorname{expit}\bigl(\operatorname{logit}\pi + \log r(t) - \log f(t)\bigr),

   computed from log survival functions so that far tails give no ``0/0``. The average
   precision is :math:`\mathrm{AP} = \int_0^1 \operatorname{prec}(r)\,dr
   = E[\operatorname{prec}(X_1)]` (Boyd et al. 2013), the expectation over the positives'
   scores. :class:`StudentTScoreModel` (a Student-t per class) and
   :class:`NormalMixtureScoreModel` (a finite normal mixture per class) mirror
   :class:`bayes_prc.binormal.Binormal`, which is reused for the normal models.

2. **PyMC models** with a pointwise (per item) log-likelihood, for PSIS-LOO, each fit on
   standardized scores and pushed through its own analytic PR curve
   (:func:`fit_score_model`, :class:`ScoreModelFit`). PyMC is imported only when a model
   is fit.

Average-precision quadrature
----------------------------
For the Student-t and mixture models the integral :math:`\int p_1(t)\,
\operatorname{prec}(t)\,dt` is evaluated by composite 10-point Gauss-Legendre quadrature
on panels between *breakpoints* chosen per draw: for every normal component (mean
:math:`\mu`, sd :math:`\sigma`) of either class the points :math:`\mu + \sigma u`, and for
every Student-t class the quantiles :math:`\mu + \sigma F_\nu^{-1}(\Phi(u))`, for
:math:`u = -8.5, -7.5, \dots, 8.5`. Every class's density and log survival function is
then smooth on the scale of a panel, and the precision's logistic transition (whose
width is at least about :math:`\sigma / 8.5` of the negative component that causes it)
is resolved by the negative class's own breakpoints. Far in a Student-t tail adjacent
quantiles can be orders of magnitude apart; panels whose far end is more than twice as
far from the positives' location as their near end are integrated in
:math:`\log|t - \mu_1|`, where power-law tails are smooth. The positives' mass outside
the outermost breakpoints is at most :math:`2\Phi(-8.5) = 2 \times 10^{-17}` per
component. Accuracy against adaptive quadrature (:func:`scipy.integrate.quad`), over
random parameters in the tests: about 1e-13 for mixtures and 1e-8 for Student-t classes
with :math:`\nu \ge 0.5` (1e-10 for :math:`\nu \ge 1`); for :math:`\nu > 10^6` the
incomplete beta function limits it to ~1e-7. Cost: about 350 (t) and 700 (mixture)
nodes per draw, 1-2 s for 4000 draws.

Precision at recall needs the threshold of a given recall: closed form for the normal
and the Student-t (``scipy.special.stdtrit``), safeguarded Newton iterations on
:math:`\log S_1(t) = \log r` for the mixture, started from interpolation on the
breakpoint grid (about 5 iterations to ~1e-15 in recall).

References
----------
.. [1] K. Boyd, K. H. Eng and C. D. Page, "Area under the precision-recall curve: point
   estimates and confidence intervals", ECML PKDD 2013, LNCS 8190, pp. 451-466.
.. [2] A. Vehtari, A. Gelman and J. Gabry, "Practical Bayesian model evaluation using
   leave-one-out cross-validation and WAIC", Statistics and Computing 27 (2017),
   pp. 1413-1432.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import xarray as xr
from scipy import special

from .._validation import check_random_state
from ..binormal import (
    Binormal,
    _as_scalar_or_array,
    _check_unit_interval,
    _expand,
    _logit_precision,
    _sample_size,
)
from ..exceptions import ConvergenceWarning
from ._common import add_curve_summaries

__all__ = [
    "NormalMixtureScoreModel",
    "SCORE_MODELS",
    "ScoreModelFit",
    "StudentTScoreModel",
    "fit_score_model",
]

SCORE_MODELS = ("binormal", "binormal_logit", "bi_t", "mixture")
SAMPLE_DIMS = ("chain", "draw")
DEFAULT_RECALL = np.linspace(0.0, 1.0, 201)

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_BREAK_U = np.linspace(-8.5, 8.5, 18)  # breakpoints in standard-normal units (step 1)
_BREAK_SIGN = np.sign(_BREAK_U)
_BREAK_P = special.ndtr(-np.abs(_BREAK_U))  # tail probabilities (no rounding to 1)
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(10)
_CHUNK = 512  # draws per block of the vectorised quadrature (bounds memory)
_T_SERIES_TERMS = 60
_T_BREAK_MAX = 1e250  # clip standardized Student-t breakpoints (only nu < ~0.1 reaches it)


# --------------------------------------------------------------------------------------
# one class's score distribution (parameters of shape batch_shape [+ (K,)])
# --------------------------------------------------------------------------------------


def _t_log_sf(x, nu):
    """``log P(T_nu >= x)`` for standardized Student-t, stable far in both tails.

    Uses ``P(T >= |x|) = I_z(nu/2, 1/2) / 2`` with ``z = nu / (nu + x^2)``; where that
    underflows the regularized incomplete beta is evaluated in log space from its
    hypergeometric series ``I_z(a, b) = z^a (1-z)^b / (a B(a, b)) 2F1(a+b, 1; a+1; z)``.
    """
    x, nu = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(nu, np.float64))
    a = 0.5 * nu
    with np.errstate(over="ignore"):
        z = nu / (nu + x * x)
    half_tail = 0.5 * special.betainc(a, 0.5, z)
    with np.errstate(divide="ignore"):
        out = np.where(x >= 0, np.log(half_tail), np.log1p(-half_tail))
    under = (x > 0) & (half_tail < 1e-290) & np.isfinite(x)
    if np.any(under):
        xs, nus, aa = x[under], nu[under], a[under]
        ratio = (nus / xs) / xs  # no overflow (xs**2 may overflow)
        log1p_ratio = np.log1p(ratio)
        log_z = np.log(nus) - 2.0 * np.log(xs) - log1p_ratio
        zs = np.exp(log_z)
        term = np.ones_like(zs)
        total = np.ones_like(zs)
        for j in range(_T_SERIES_TERMS):
            term = term * (aa + 0.5 + j) / (aa + 1.0 + j) * zs
            total = total + term
        out[under] = (
            aa * log_z - 0.5 * log1p_ratio - np.log(aa) - special.betaln(aa, 0.5) + np.log(total)
        ) - math.log(2.0)
    return out


def _logsumexp_last(x):
    """``log(sum(exp(x), axis=-1))`` for a short last axis (much faster than scipy's)."""
    if x.shape[-1] == 2:
        return np.logaddexp(x[..., 0], x[..., 1])
    return np.logaddexp.reduce(x, axis=-1)


def _gl_panels(edges):
    """Composite Gauss-Legendre nodes and weights on the panels between sorted edges."""
    mid = 0.5 * (edges[:, 1:] + edges[:, :-1])[:, :, None]
    half = 0.5 * (edges[:, 1:] - edges[:, :-1])[:, :, None]
    m = edges.shape[0]
    return (mid + half * _GL_NODES).reshape(m, -1), (half * _GL_WEIGHTS).reshape(m, -1)


def _gl_panels_log(edges, center):
    """As :func:`_gl_panels`, but panels far from ``center`` are mapped to ``log|t - c|``.

    A panel ``[a, b]`` on one side of ``c`` whose far end is more than twice as far from
    ``c`` as its near end is integrated in ``s = log|t - c|`` (``dt = |t - c| ds``):
    power-law tails ``|t|^(-nu-1)`` become exponentials in ``s``, smooth on the panel
    whatever its width.
    """
    a, b = edges[:, :-1], edges[:, 1:]
    c = center[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        right = (a > c) & ((b - c) > 2.0 * (a - c))
        left = (b < c) & ((c - a) > 2.0 * (c - b))
        near = np.where(right, a - c, np.where(left, c - b, 1.0))
        far = np.where(right, b - c, np.where(left, c - a, 2.0))
        s_mid = 0.5 * (np.log(far) + np.log(near))[:, :, None]
        s_half = 0.5 * (np.log(far) - np.log(near))[:, :, None]
    s = s_mid + s_half * _GL_NODES
    e = np.exp(s)
    sign = np.where(right, 1.0, -1.0)[:, :, None]
    t_log = c[:, :, None] + sign * e
    w_log = s_half * _GL_WEIGHTS * e
    mid = 0.5 * (a + b)[:, :, None]
    half = 0.5 * (b - a)[:, :, None]
    use = (right | left)[:, :, None]
    m = edges.shape[0]
    nodes = np.where(use, t_log, mid + half * _GL_NODES).reshape(m, -1)
    weights = np.where(use, w_log, half * _GL_WEIGHTS).reshape(m, -1)
    return nodes, weights


class _NormalClass:
    """N(mu, sigma); parameters of shape ``batch_shape``."""

    family = "normal"

    def __init__(self, mu, sigma):
        self.mu, self.sigma = mu, sigma

    def take(self, idx):
        return _NormalClass(self.mu.reshape(-1)[idx], self.sigma.reshape(-1)[idx])

    def log_sf(self, t, k):
        return special.log_ndtr((_expand(self.mu, k) - t) / _expand(self.sigma, k))

    def log_pdf(self, t, k):
        sig = _expand(self.sigma, k)
        x = (t - _expand(self.mu, k)) / sig
        return -0.5 * x * x - _LOG_SQRT_2PI - np.log(sig)

    def cdf(self, t, k):
        return special.ndtr((t - _expand(self.mu, k)) / _expand(self.sigma, k))

    def isf(self, r, k):
        return _expand(self.mu, k) - _expand(self.sigma, k) * special.ndtri(r)

    def breakpoints(self):  # for 1-D parameters: (m, 18)
        return self.mu[:, None] + self.sigma[:, None] * _BREAK_U

    def rvs(self, rng, n):  # for 1-D parameters: (m, n)
        return self.mu[:, None] + self.sigma[:, None] * rng.standard_normal((self.mu.size, n))


class _StudentTClass:
    """Student-t(nu, mu, sigma); parameters of shape ``batch_shape``."""

    family = "student_t"

    def __init__(self, mu, sigma, nu):
        self.mu, self.sigma, self.nu = mu, sigma, nu

    def take(self, idx):
        return _StudentTClass(*(p.reshape(-1)[idx] for p in (self.mu, self.sigma, self.nu)))

    def log_sf(self, t, k):
        x = (t - _expand(self.mu, k)) / _expand(self.sigma, k)
        return _t_log_sf(x, _expand(self.nu, k))

    def log_pdf(self, t, k):
        nu, sig = _expand(self.nu, k), _expand(self.sigma, k)
        x = np.abs(t - _expand(self.mu, k)) / sig
        const = (
            special.gammaln(0.5 * (nu + 1.0))
            - special.gammaln(0.5 * nu)
            - 0.5 * np.log(nu * np.pi)
            - np.log(sig)
        )
        big = x > 1e100  # x * x would overflow: log1p(x^2/nu) = 2 log x - log nu + ...
        with np.errstate(over="ignore", divide="ignore"):
            small_form = np.log1p(x * x / nu)
            xb = np.where(big, x, 1.0)
            big_form = 2.0 * np.log(xb) - np.log(nu) + np.log1p(nu / xb / xb)
        return const - 0.5 * (nu + 1.0) * np.where(big, big_form, small_form)

    def cdf(self, t, k):
        x = (t - _expand(self.mu, k)) / _expand(self.sigma, k)
        return special.stdtr(_expand(self.nu, k), x)

    def isf(self, r, k):
        # P(T >= q) = r  <=>  q = -F^{-1}(r): accurate for tiny recalls. scipy's stdtrit
        # returns +inf at both p = 0 and p = 1, so the ends are set here.
        q = special.stdtrit(_expand(self.nu, k), r)
        q = np.where(r == 0.0, -np.inf, np.where(r == 1.0, np.inf, q))
        return _expand(self.mu, k) - _expand(self.sigma, k) * q

    def breakpoints(self):
        q = -_BREAK_SIGN * special.stdtrit(self.nu[:, None], _BREAK_P)
        q = np.clip(q, -_T_BREAK_MAX, _T_BREAK_MAX)  # nu < ~0.1 only
        return self.mu[:, None] + self.sigma[:, None] * q

    def rvs(self, rng, n):
        m = self.mu.size
        return self.mu[:, None] + self.sigma[:, None] * rng.standard_t(self.nu[:, None], (m, n))


class _MixtureClass:
    """Normal mixture; weights, means and sds of shape ``batch_shape + (K,)``."""

    family = "normal_mixture"

    def __init__(self, weight, mu, sigma):
        self.weight, self.mu, self.sigma = weight, mu, sigma
        with np.errstate(divide="ignore"):
            self._log_w = np.log(weight)
        self._log_sigma = np.log(sigma)

    def take(self, idx):
        k = self.weight.shape[-1]
        return _MixtureClass(*(p.reshape(-1, k)[idx] for p in (self.weight, self.mu, self.sigma)))

    @staticmethod
    def _comp(p, k):  # (B..., K) -> (B..., 1 x k, K)
        return np.expand_dims(p, tuple(range(p.ndim - 1, p.ndim - 1 + k)))

    def log_sf(self, t, k):
        t = np.asarray(t)[..., None]
        lw, mu, sig = (self._comp(p, k) for p in (self._log_w, self.mu, self.sigma))
        return _logsumexp_last(lw + special.log_ndtr((mu - t) / sig))

    def log_pdf(self, t, k):
        t = np.asarray(t)[..., None]
        lw, mu, sig, lsig = (
            self._comp(p, k) for p in (self._log_w, self.mu, self.sigma, self._log_sigma)
        )
        x = (t - mu) / sig
        return _logsumexp_last(lw - 0.5 * x * x - _LOG_SQRT_2PI - lsig)

    def cdf(self, t, k):
        t = np.asarray(t)[..., None]
        w, mu, sig = (self._comp(p, k) for p in (self.weight, self.mu, self.sigma))
        return np.sum(w * special.ndtr((t - mu) / sig), axis=-1)

    def isf(self, r, k):
        """Threshold with ``P(X >= t) = r``: safeguarded Newton on ``log S(t) - log r``.

        The components' own thresholds at recall ``r`` bracket the root (the mixture's
        survival function is a weighted mean of theirs); Newton steps leaving the bracket
        are replaced by bisection, and the bracket shrinks with every evaluation.
        """
        r = np.asarray(r, dtype=np.float64)
        batch = self.weight.shape[:-1]
        flat = self.take(slice(None))
        rr = r.reshape(-1)
        z = special.ndtri(rr)
        comp_t = flat.mu[:, None, :] - flat.sigma[:, None, :] * z[None, :, None]  # (m, G, K)
        lo, hi = comp_t.min(axis=-1), comp_t.max(axis=-1)
        out = lo.copy()
        todo = np.isfinite(lo) & (hi > lo)
        if np.any(todo):
            # tighter brackets and a start value from log S on the breakpoint grid
            grid = np.sort(flat.breakpoints(), axis=1)  # (m, J)
            log_s = flat.log_sf(grid, 1)  # nonincreasing along the row
            with np.errstate(divide="ignore"):
                target = np.log(rr)
            j = np.sum(log_s[:, None, :] >= target[None, :, None], axis=-1)  # (m, G)
            n_grid = grid.shape[1]
            jl, jh = np.clip(j - 1, 0, n_grid - 1), np.clip(j, 0, n_grid - 1)
            t_l, t_h = np.take_along_axis(grid, jl, 1), np.take_along_axis(grid, jh, 1)
            l_l, l_h = np.take_along_axis(log_s, jl, 1), np.take_along_axis(log_s, jh, 1)
            inside = (j > 0) & (j < n_grid)
            lo = np.where(inside, np.maximum(lo, t_l), lo)
            hi = np.where(inside, np.minimum(hi, t_h), hi)
            tgt = np.broadcast_to(target, lo.shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                frac = (l_l - tgt) / (l_l - l_h)
                start = np.where(
                    inside & np.isfinite(frac), t_l + frac * (t_h - t_l), 0.5 * (lo + hi)
                )
            start = np.clip(start, lo, hi)
            rows = np.nonzero(todo)[0]
            out[todo] = _newton_isf(flat.take(rows), tgt[todo], lo[todo], hi[todo], start[todo])
        return out.reshape(batch + r.shape)

    def breakpoints(self):
        m, k = self.mu.shape
        return (self.mu[..., None] + self.sigma[..., None] * _BREAK_U).reshape(m, k * _BREAK_U.size)

    def rvs(self, rng, n):
        m, k = self.weight.shape
        cum = np.cumsum(self.weight, axis=1)
        u = rng.random((m, n)) * cum[:, -1:]
        comp = np.minimum((u[:, :, None] >= cum[:, None, :]).sum(axis=2), k - 1)
        mu = np.take_along_axis(self.mu, comp, axis=1)
        sig = np.take_along_axis(self.sigma, comp, axis=1)
        return mu + sig * rng.standard_normal((m, n))


def _newton_isf(dist, target, lo, hi, start, max_iter=100):
    """Solve ``log S(t) = target`` elementwise for 1-D mixture parameters ``dist``.

    ``dist`` has one parameter row per element of ``target``; ``[lo, hi]`` brackets the
    root (``log S(lo) >= target >= log S(hi)``); Newton steps start at ``start`` and
    fall back to bisection when they leave the bracket. Converged elements are dropped
    from the working arrays once they are the majority.
    """
    out = np.array(start, dtype=np.float64)
    pos = np.arange(out.size)  # positions of the working elements in ``out``
    lw, mu, sig = dist._log_w, dist.mu, dist.sigma
    lsig = np.log(sig)
    tgt, lo, hi, t = target, lo.copy(), hi.copy(), out.copy()
    scale = np.min(sig, axis=-1)  # convergence tolerance: 1e-13 (|t| + min sd)
    active = np.ones(t.size, dtype=bool)
    for _ in range(max_iter):
        x = (t[:, None] - mu) / sig
        log_s = _logsumexp_last(lw + special.log_ndtr(-x))
        log_p = _logsumexp_last(lw - 0.5 * x * x - _LOG_SQRT_2PI - lsig)
        g = log_s - tgt
        right = g > 0  # S(t) > r: the root is to the right of t
        lo = np.where(right, t, lo)
        hi = np.where(right, hi, t)
        with np.errstate(over="ignore", invalid="ignore"):
            new = t + g * np.exp(log_s - log_p)  # Newton: t - g / g', g' = -p / S
        ok = np.isfinite(new) & (new > lo) & (new < hi)
        new = np.where(ok, new, 0.5 * (lo + hi))
        tol = 1e-13 * (np.abs(t) + scale)
        small_g = np.abs(g) <= 4e-16 * (1.0 + np.abs(tgt))  # recall to ~1e-15
        done = active & ((np.abs(new - t) <= tol) | small_g | (hi - lo <= tol))
        t = np.where(active & ~small_g, new, t)
        active &= ~done
        n_active = int(active.sum())
        if n_active == 0:
            break
        if n_active < 0.5 * active.size:  # compact the working arrays
            out[pos] = t
            keep = active
            pos, tgt, lo, hi, t = pos[keep], tgt[keep], lo[keep], hi[keep], t[keep]
            lw, mu, sig, lsig, scale = lw[keep], mu[keep], sig[keep], lsig[keep], scale[keep]
            active = np.ones(t.size, dtype=bool)
    out[pos] = t
    return out


def class_distributions(model):
    """``(negative, positive)`` class distributions of a Binormal or a score model."""
    if isinstance(model, Binormal):
        return (
            _NormalClass(model.mu_neg, model.sigma_neg),
            _NormalClass(model.mu_pos, model.sigma_pos),
        )
    return model._neg, model._pos


# --------------------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------------------


def _as_float_array(name, value):
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"`{name}` must be a real number or array; got {value!r}") from err


def _check_param(name, arr, kind):
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ValueError(f"`{name}` must be finite; got {float(arr[bad].flat[0])!r}")
    if kind in ("positive", "nu"):
        bad = ~(arr > 0.0)
        if np.any(bad):
            raise ValueError(f"`{name}` must be > 0; got {float(arr[bad].flat[0])!r}")
    elif kind == "prevalence":
        bad = ~((arr > 0.0) & (arr < 1.0))
        if np.any(bad):
            raise ValueError(f"`{name}` must be in (0, 1); got {float(arr[bad].flat[0])!r}")
    elif kind == "weight":
        bad = ~(arr >= 0.0)
        if np.any(bad):
            raise ValueError(f"`{name}` must be >= 0; got {float(arr[bad].flat[0])!r}")


def _readonly(arr):
    out = np.array(arr, dtype=np.float64)
    out.flags.writeable = False
    return out


# --------------------------------------------------------------------------------------
# analytic PR models
# --------------------------------------------------------------------------------------


class _ScoreModelBase:
    """Everything that follows from the two class distributions and the prevalence."""

    _neg: object
    _pos: object
    prevalence: np.ndarray
    batch_shape: tuple

    def _logit_prevalence(self, prevalence):
        if prevalence is None:
            return special.logit(self.prevalence)
        q = np.asarray(prevalence, dtype=np.float64)
        bad = ~((q > 0.0) & (q < 1.0))
        if np.any(bad):
            raise ValueError(f"`prevalence` must be in (0, 1); got {float(q[bad].flat[0])!r}")
        try:
            q = np.broadcast_to(q, self.batch_shape)
        except ValueError as err:
            raise ValueError(
                f"`prevalence` of shape {q.shape} cannot be broadcast to the model's "
                f"batch_shape {self.batch_shape}"
            ) from err
        return special.logit(q)

    def _tail_limit(self):  # pragma: no cover - implemented by subclasses
        raise NotImplementedError

    # ------------------------------------------------------------------ threshold curves
    def recall(self, threshold):
        """Recall (true-positive rate) ``P(X_pos >= threshold)``.

        Returns an array of shape ``batch_shape + np.shape(threshold)``.
        """
        t = np.asarray(threshold, dtype=np.float64)
        return _as_scalar_or_array(np.exp(self._pos.log_sf(t, t.ndim)))

    def fpr(self, threshold):
        """False-positive rate ``P(X_neg >= threshold)``, shape ``batch_shape + np.shape(threshold)``."""
        t = np.asarray(threshold, dtype=np.float64)
        return _as_scalar_or_array(np.exp(self._neg.log_sf(t, t.ndim)))

    def precision(self, threshold, prevalence=None):
        """Precision ``P(positive | score >= threshold)`` from the log survival functions.

        At ``threshold = +inf`` the analytic limit of the tail ratio is used (see the
        class docstring); at ``-inf`` the result is the prevalence. Shape
        ``batch_shape + np.shape(threshold)``.
        """
        t = np.asarray(threshold, dtype=np.float64)
        k = t.ndim
        lp = _expand(self._logit_prevalence(prevalence), k)
        z = _logit_precision(
            lp, self._pos.log_sf(t, k), self._neg.log_sf(t, k), _expand(self._tail_limit(), k)
        )
        return _as_scalar_or_array(special.expit(z))

    # ------------------------------------------------------------------- recall curves
    def threshold_at_recall(self, recall):
        """Threshold whose recall is ``recall`` (``+inf`` at recall 0, ``-inf`` at 1).

        Shape ``batch_shape + np.shape(recall)``.
        """
        r = _check_unit_interval(recall, "recall")
        return _as_scalar_or_array(self._pos.isf(r, r.ndim))

    def precision_at_recall(self, recall, prevalence=None):
        """Precision as a function of recall: the model's precision-recall curve.

        Uses the exact ``log(recall)`` and the negatives' log survival function at
        :meth:`threshold_at_recall`; the limits are the prevalence at recall 1 and the
        tail limit at recall 0.

        Parameters
        ----------
        recall : float or array_like
            Values in [0, 1].
        prevalence : float or array_like, optional
            Prevalence to evaluate at; default the model's own.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape + np.shape(recall)``.
        """
        r = _check_unit_interval(recall, "recall")
        k = r.ndim
        t = self._pos.isf(r, k)
        with np.errstate(divide="ignore"):
            log_r = np.broadcast_to(np.log(r), t.shape)
        log_f = self._neg.log_sf(t, k)
        lp = _expand(self._logit_prevalence(prevalence), k)
        z = _logit_precision(lp, log_r, log_f, _expand(self._tail_limit(), k))
        return _as_scalar_or_array(special.expit(z))

    # ------------------------------------------------------------------------ summaries
    def _quadrature(self, integrand, prevalence=None):
        """``int p_pos(t) g(t) dt`` per draw on the breakpoint panels (module docstring)."""
        lp_all = np.broadcast_to(self._logit_prevalence(prevalence), self.batch_shape).ravel()
        lim_all = np.broadcast_to(self._tail_limit(), self.batch_shape).ravel()
        m = lp_all.size
        out = np.empty(m)
        for start in range(0, m, _CHUNK):
            idx = slice(start, min(start + _CHUNK, m))
            pos, neg = self._pos.take(idx), self._neg.take(idx)
            edges = np.sort(np.concatenate([pos.breakpoints(), neg.breakpoints()], axis=1), 1)
            if pos.family == "student_t":
                nodes, weights = _gl_panels_log(edges, pos.mu)
            else:
                nodes, weights = _gl_panels(edges)
            values = integrand(pos, neg, nodes, lp_all[idx, None], lim_all[idx, None])
            dens = np.exp(pos.log_pdf(nodes, 1))
            out[idx] = np.sum(weights * dens * values, axis=1)
        return out.reshape(self.batch_shape)

    def average_precision(self, prevalence=None):
        r"""Average precision, :math:`\int_0^1 \operatorname{prec}(r)\,dr = E[\operatorname{prec}(X_1)]`.

        Composite Gauss-Legendre quadrature on per-draw breakpoint panels, vectorised
        over the batch (see the module docstring; absolute error < 1e-9 against adaptive
        quadrature in the tests).

        Parameters
        ----------
        prevalence : float or array_like, optional
            Prevalence to evaluate at; default the model's own.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape``.
        """

        def prec(pos, neg, t, lp, lim):
            z = _logit_precision(lp, pos.log_sf(t, 1), neg.log_sf(t, 1), lim)
            return special.expit(z)

        return _as_scalar_or_array(self._quadrature(prec, prevalence))

    def roc_auc(self):
        """Area under the ROC curve, ``P(X_pos > X_neg)``, by the same quadrature.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape``.
        """

        def cdf_neg(pos, neg, t, lp, lim):
            return -np.expm1(neg.log_sf(t, 1))

        return _as_scalar_or_array(self._quadrature(cdf_neg))

    def sample(self, n, random_seed=None):
        """Simulate ``n`` labelled scores ``(y_true, y_score)`` from a single model.

        Parameters
        ----------
        n : int
            Number of items (>= 0).
        random_seed : int, numpy.random.Generator or None

        Returns
        -------
        y_true : numpy.ndarray of int64, shape (n,)
        y_score : numpy.ndarray of float64, shape (n,)
        """
        n_items = _sample_size(self.batch_shape, n)
        rng = check_random_state(random_seed)
        y_true = (rng.random(n_items) < self.prevalence).astype(np.int64)
        pos, neg = self._pos.take(slice(None)), self._neg.take(slice(None))
        s_pos = pos.rvs(rng, n_items)[0]
        s_neg = neg.rvs(rng, n_items)[0]
        return y_true, np.where(y_true == 1, s_pos, s_neg)

    def __repr__(self):
        names = self._param_names
        if self.batch_shape == ():
            body = ", ".join(
                f"{k}={np.array2string(np.asarray(getattr(self, k)), precision=6)}"
                if np.ndim(getattr(self, k))
                else f"{k}={float(getattr(self, k)):.6g}"
                for k in names
            )
            return f"{type(self).__name__}({body})"
        return f"{type(self).__name__}(batch_shape={self.batch_shape})"


class StudentTScoreModel(_ScoreModelBase):
    r"""Student-t scores per class ("bi-t"): a heavy-tailed alternative to the binormal.

    Positives' scores are :math:`\mu_1 + \sigma_1 T_{\nu_1}`, negatives'
    :math:`\mu_0 + \sigma_0 T_{\nu_0}`, an item is positive with probability
    ``prevalence``. Large ``nu`` gives the binormal model.

    Parameters
    ----------
    mu_pos, sigma_pos, nu_pos : float or array_like
        Location, scale (> 0) and degrees of freedom (finite, > 0) of the
        positives' scores.
    mu_neg, sigma_neg, nu_neg : float or array_like
        The same for the negatives.
    prevalence : float or array_like
        In (0, 1).

    Attributes
    ----------
    mu_pos, sigma_pos, nu_pos, mu_neg, sigma_neg, nu_neg, prevalence : numpy.ndarray
        Read-only arrays broadcast to ``batch_shape``.
    batch_shape : tuple of int

    Notes
    -----
    Survival functions are :math:`P(T_\nu \ge x) = I_{\nu/(\nu+x^2)}(\nu/2, 1/2)/2`
    (:math:`x \ge 0`), evaluated in log space. The precision at recall 0 (threshold
    :math:`+\infty`) is the limit of the tail ratio
    :math:`S_1(t)/S_0(t) \sim C\, t^{\nu_0 - \nu_1}`: 1 when :math:`\nu_1 < \nu_0`
    (heavier positive tail), 0 when :math:`\nu_1 > \nu_0`, and
    :math:`\operatorname{expit}(\operatorname{logit}\pi + \nu\log(\sigma_1/\sigma_0))`
    for equal degrees of freedom. Methods taking an evaluation argument return arrays of
    shape ``batch_shape + np.shape(x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bayes._score_models import StudentTScoreModel
    >>> model = StudentTScoreModel(1.0, 1.0, 3.0, 0.0, 1.0, 3.0, prevalence=0.1)
    >>> round(float(model.average_precision()), 4)  # binormal with these mu, sigma: 0.2928
    0.1952
    >>> np.round(model.precision_at_recall([0.5, 1.0]), 4)
    array([0.2213, 0.1   ])
    >>> draws = StudentTScoreModel(np.array([1.0, 2.0]), 1.0, 5.0, 0.0, 1.0, 5.0, 0.1)
    >>> draws.precision_at_recall(np.linspace(0, 1, 5)).shape
    (2, 5)
    """

    _param_names = ("mu_pos", "sigma_pos", "nu_pos", "mu_neg", "sigma_neg", "nu_neg", "prevalence")
    _kinds = ("real", "positive", "nu", "real", "positive", "nu", "prevalence")

    def __init__(self, mu_pos, sigma_pos, nu_pos, mu_neg, sigma_neg, nu_neg, prevalence):
        values = (mu_pos, sigma_pos, nu_pos, mu_neg, sigma_neg, nu_neg, prevalence)
        arrays = [_as_float_array(n, v) for n, v in zip(self._param_names, values, strict=True)]
        try:
            arrays = np.broadcast_arrays(*arrays)
        except ValueError as err:
            shapes = ", ".join(
                f"`{n}` {a.shape}" for n, a in zip(self._param_names, arrays, strict=True)
            )
            raise ValueError(
                f"the parameters cannot be broadcast to a common shape: {shapes}"
            ) from err
        for name, arr, kind in zip(self._param_names, arrays, self._kinds, strict=True):
            _check_param(name, arr, kind)
            setattr(self, name, _readonly(arr))
        self.batch_shape = tuple(arrays[0].shape)
        self._pos = _StudentTClass(self.mu_pos, self.sigma_pos, self.nu_pos)
        self._neg = _StudentTClass(self.mu_neg, self.sigma_neg, self.nu_neg)

    def _tail_limit(self):
        equal_nu = self.nu_pos * np.log(self.sigma_pos / self.sigma_neg)
        return np.select(
            [self.nu_pos < self.nu_neg, self.nu_pos > self.nu_neg], [np.inf, -np.inf], equal_nu
        )


class NormalMixtureScoreModel(_ScoreModelBase):
    r"""A finite normal mixture of scores per class (e.g. bimodal classes).

    A positive item's score is drawn from component :math:`k` with probability
    ``weight_pos[..., k]``, then :math:`N(\mu_{1k}, \sigma_{1k})`; likewise for the
    negatives. An item is positive with probability ``prevalence``.

    Parameters
    ----------
    weight_pos, mu_pos, sigma_pos : array_like, shape ``batch_shape + (K_pos,)``
        Component weights (>= 0, normalized to sum to 1), means and sds (> 0) of the
        positives' scores; the last axis indexes the components.
    weight_neg, mu_neg, sigma_neg : array_like, shape ``batch_shape + (K_neg,)``
        The same for the negatives.
    prevalence : float or array_like, shape ``batch_shape``
        In (0, 1).

    Attributes
    ----------
    weight_pos, mu_pos, sigma_pos, weight_neg, mu_neg, sigma_neg : numpy.ndarray
        Read-only arrays of shape ``batch_shape + (K,)``.
    prevalence : numpy.ndarray
        Shape ``batch_shape``.
    batch_shape : tuple of int

    Notes
    -----
    Survival functions are weighted sums of normal tails, evaluated as a log-sum-exp of
    ``log_ndtr``. :meth:`threshold_at_recall` solves :math:`S_1(t) = r` by bracketing
    root finding (the components' own thresholds bracket the root). The precision at
    recall 0 is the limit of the tail ratio, decided by the dominant component of each
    class (the largest sd, then the largest mean): 1 or 0 as in the binormal model, or
    :math:`\operatorname{expit}(\operatorname{logit}\pi + \log(w_1/w_0))` when both
    dominant components are equal.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bayes._score_models import NormalMixtureScoreModel
    >>> model = NormalMixtureScoreModel(
    ...     [0.5, 0.5], [1.0, 3.0], [0.5, 0.5], [0.6, 0.4], [-1.0, 1.5], [0.6, 0.6], 0.3
    ... )
    >>> round(float(model.average_precision()), 4)
    0.7393
    >>> round(float(model.threshold_at_recall(0.5)), 4)
    2.0
    >>> round(float(model.roc_auc()), 4)
    0.8452
    """

    _param_names = (
        "weight_pos",
        "mu_pos",
        "sigma_pos",
        "weight_neg",
        "mu_neg",
        "sigma_neg",
        "prevalence",
    )

    def __init__(self, weight_pos, mu_pos, sigma_pos, weight_neg, mu_neg, sigma_neg, prevalence):
        prev = _as_float_array("prevalence", prevalence)
        classes = {}
        batch = prev.shape
        for cls, (w, mu, sig) in (
            ("pos", (weight_pos, mu_pos, sigma_pos)),
            ("neg", (weight_neg, mu_neg, sigma_neg)),
        ):
            arrs = [
                np.atleast_1d(_as_float_array(f"{n}_{cls}", v))
                for n, v in (("weight", w), ("mu", mu), ("sigma", sig))
            ]
            try:
                arrs = np.broadcast_arrays(*arrs)
            except ValueError as err:
                shapes = ", ".join(
                    f"{n}_{cls} {a.shape}"
                    for n, a in zip(("weight", "mu", "sigma"), arrs, strict=True)
                )
                raise ValueError(
                    f"the {cls} mixture parameters cannot be broadcast: {shapes}"
                ) from err
            classes[cls] = arrs
            try:
                batch = np.broadcast_shapes(batch, arrs[0].shape[:-1])
            except ValueError as err:
                raise ValueError(
                    f"the batch shapes do not broadcast: `prevalence` {prev.shape}, the "
                    f"{cls} components {arrs[0].shape[:-1]} (components on the last axis)"
                ) from err
        self.batch_shape = tuple(batch)
        _check_param("prevalence", prev, "prevalence")
        self.prevalence = _readonly(np.broadcast_to(prev, batch))
        for cls, (w, mu, sig) in classes.items():
            k = w.shape[-1]
            w, mu, sig = (np.broadcast_to(a, batch + (k,)) for a in (w, mu, sig))
            _check_param(f"weight_{cls}", w, "weight")
            _check_param(f"mu_{cls}", mu, "real")
            _check_param(f"sigma_{cls}", sig, "positive")
            total = w.sum(axis=-1, keepdims=True)
            if np.any(~(total > 0)):
                raise ValueError(f"`weight_{cls}` must have a positive sum over components")
            setattr(self, f"weight_{cls}", _readonly(w / total))
            setattr(self, f"mu_{cls}", _readonly(mu))
            setattr(self, f"sigma_{cls}", _readonly(sig))
        self._pos = _MixtureClass(self.weight_pos, self.mu_pos, self.sigma_pos)
        self._neg = _MixtureClass(self.weight_neg, self.mu_neg, self.sigma_neg)

    @staticmethod
    def _dominant(weight, mu, sigma):
        """sd, mean and total weight of the component(s) with the heaviest right tail."""
        live = weight > 0
        s_max = np.max(np.where(live, sigma, -np.inf), axis=-1, keepdims=True)
        top = live & (sigma == s_max)
        m_max = np.max(np.where(top, mu, -np.inf), axis=-1, keepdims=True)
        top &= mu == m_max
        return s_max[..., 0], m_max[..., 0], np.sum(np.where(top, weight, 0.0), axis=-1)

    def _tail_limit(self):
        sp, mp, wp = self._dominant(self.weight_pos, self.mu_pos, self.sigma_pos)
        sn, mn, wn = self._dominant(self.weight_neg, self.mu_neg, self.sigma_neg)
        with np.errstate(divide="ignore", invalid="ignore"):
            tie = np.log(wp) - np.log(wn)
        return np.select(
            [sp > sn, sp < sn, mp > mn, mp < mn], [np.inf, -np.inf, np.inf, -np.inf], tie
        )


# --------------------------------------------------------------------------------------
# PyMC models with a pointwise log-likelihood
# --------------------------------------------------------------------------------------


def transform_scores(score, transform):
    """Scores on the fitted scale and the per-item log-Jacobian of the transform.

    ``transform`` is None, ``"logit"`` or ``"probit"`` (exact 0 and 1 moved inside with
    a warning, as in :func:`bayes_prc.fit_binormal`). The log-Jacobian is
    ``log|dt/dx|``: ``-log(x (1 - x))`` for the logit, ``-log(phi(t))`` for the probit
    (at the clipped scores), 0 without transform.
    """
    from ._fit import _transform_scores

    t, _ = _transform_scores(score, transform)
    if transform == "logit":
        log_jac = -(special.log_expit(t) + special.log_expit(-t))  # -log(x (1 - x))
    elif transform == "probit":
        log_jac = 0.5 * t * t + _LOG_SQRT_2PI
    else:
        log_jac = np.zeros_like(t)
    return t, log_jac


def build_pymc_model(name, z, is_pos):
    """The :class:`pymc.Model` of score model ``name`` on standardized scores ``z``.

    Classes are indexed ``class = ["neg", "pos"]``; the observed scores are one variable
    ``score`` over dim ``item`` (so the pointwise log-likelihood is per item), the label
    count ``n_pos ~ Binomial(n, prevalence)`` is a separate observed variable.
    """
    import pymc as pm

    idx = is_pos.astype(np.int64)
    n = int(z.size)
    coords = {"class": ["neg", "pos"], "item": np.arange(n)}
    if name == "mixture":
        coords["component"] = [0, 1]
    with pm.Model(coords=coords) as model:
        prevalence = pm.Beta("prevalence", 1.0, 1.0)
        pm.Binomial("n_pos", n=n, p=prevalence, observed=int(is_pos.sum()))
        if name in ("binormal", "binormal_logit"):
            mu = pm.Normal("mu", 0.0, 3.0, dims="class")
            sigma = pm.HalfNormal("sigma", 2.0, dims="class")
            pm.Normal("score", mu[idx], sigma[idx], observed=z, dims="item")
        elif name == "bi_t":
            mu = pm.Normal("mu", 0.0, 3.0, dims="class")
            sigma = pm.HalfNormal("sigma", 2.0, dims="class")
            nu = pm.Gamma("nu", alpha=2.0, beta=0.1, dims="class")
            pm.StudentT("score", nu=nu[idx], mu=mu[idx], sigma=sigma[idx], observed=z, dims="item")
        elif name == "mixture":
            weight = pm.Dirichlet("weight", a=np.full((2, 2), 2.0), dims=("class", "component"))
            mu = pm.Normal(
                "mu",
                0.0,
                3.0,
                dims=("class", "component"),
                transform=pm.distributions.transforms.ordered,
            )
            sigma = pm.Gamma("sigma", alpha=2.0, beta=2.0, dims=("class", "component"))
            pm.NormalMixture(
                "score", w=weight[idx], mu=mu[idx], sigma=sigma[idx], observed=z, dims="item"
            )
        else:  # pragma: no cover - validated by the callers
            raise ValueError(f"unknown score model {name!r}")
    return model


def _mixture_initvals(z, is_pos):
    """Ordered start values for the component means: each class's quartiles."""
    mu = np.empty((2, 2))
    for c, mask in enumerate((~is_pos, is_pos)):
        q1, q3 = np.quantile(z[mask], [0.25, 0.75])
        if not q3 > q1:
            q1, q3 = q1 - 0.5, q1 + 0.5
        mu[c] = (q1, q3)
    return {"mu": mu}


def fit_score_model(
    name,
    is_pos,
    score,
    *,
    draws,
    chains,
    tune,
    cores,
    target_accept,
    random_seed,
    progressbar,
    ci_prob,
):
    """Fit one score model by NUTS; returns a :class:`ScoreModelFit`.

    ``is_pos`` (bool) and ``score`` (float, finite; in [0, 1] for ``"binormal_logit"``)
    are validated by the caller. ``random_seed`` is a list of per-chain seeds.
    """
    import pymc as pm

    transform = "logit" if name == "binormal_logit" else None
    t, log_jac = transform_scores(score, transform)
    location, scale = float(np.mean(t)), float(np.std(t))
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    z = (t - location) / scale
    log_jac = log_jac - math.log(scale)  # d z / d x = (d t / d x) / scale
    model = build_pymc_model(name, z, is_pos)
    with model:
        idata = pm.sample(
            draws=draws,
            tune=tune,
            chains=chains,
            cores=cores,
            random_seed=random_seed,
            progressbar=progressbar,
            target_accept=target_accept,
            initvals=_mixture_initvals(z, is_pos) if name == "mixture" else None,
            compute_convergence_checks=False,
        )
        pm.compute_log_likelihood(idata, var_names=["score"], progressbar=False)
    ll = idata["log_likelihood"].to_dataset()
    ll["score"] = ll["score"] + xr.DataArray(log_jac, dims="item", coords={"item": ll["item"]})
    ll.attrs["note"] = (
        "log density of each item's ORIGINAL score given its label: the model's density of "
        "the standardized score plus the log-Jacobian of the standardization"
        + (" and of the logit transform" if transform else "")
        + "; the label likelihood (prevalence) is common to all score models and left out"
    )
    idata["log_likelihood"] = ll
    idata["constant_data"] = xr.Dataset(
        {
            "y_score": ("item", np.asarray(score, dtype=np.float64)),
            "is_pos": ("item", is_pos.astype(np.int8)),
            "log_jacobian": ("item", log_jac),
        },
        coords={"item": ll["item"].values},
        attrs={"location": location, "scale": scale, "transform": str(transform)},
    )
    fit = ScoreModelFit._from_idata(
        name=name,
        idata=idata,
        transform=transform,
        location=location,
        scale=scale,
        ci_prob=ci_prob,
        n=int(is_pos.size),
        n_pos=int(is_pos.sum()),
    )
    fit._check_diagnostics()
    return fit


def _model_from_posterior(name, post, location, scale):
    """The analytic model (parameter arrays of shape (chain, draw)) on the fitted scale."""
    prevalence = post["prevalence"].values
    mu = location + scale * post["mu"].values
    sigma = scale * post["sigma"].values
    if name in ("binormal", "binormal_logit"):
        return Binormal(mu[..., 1], sigma[..., 1], mu[..., 0], sigma[..., 0], prevalence)
    if name == "bi_t":
        nu = post["nu"].values
        return StudentTScoreModel(
            mu[..., 1], sigma[..., 1], nu[..., 1], mu[..., 0], sigma[..., 0], nu[..., 0], prevalence
        )
    weight = post["weight"].values
    return NormalMixtureScoreModel(
        weight[..., 1, :],
        mu[..., 1, :],
        sigma[..., 1, :],
        weight[..., 0, :],
        mu[..., 0, :],
        sigma[..., 0, :],
        prevalence,
    )


class ScoreModelFit:
    """Posterior of one score model (built by :func:`bayes_prc.fit_score_models`).

    Attributes
    ----------
    name : str
        ``"binormal"``, ``"binormal_logit"``, ``"bi_t"`` or ``"mixture"``.
    idata : xarray.DataTree
        ArviZ DataTree with groups ``posterior`` (model variables on standardized scores,
        over dims ``class`` and, for the mixture, ``component``; plus the derived
        ``average_precision`` and ``roc_auc``), ``log_likelihood`` (``score`` over dim
        ``item``: the log density of each item's *original* score, Jacobians included),
        ``observed_data``, ``constant_data`` (the original scores, labels and
        log-Jacobians) and ``sample_stats``.
    model : Binormal, StudentTScoreModel or NormalMixtureScoreModel
        The analytic model with parameter arrays of shape (chain, draw), on the fitted
        score scale (the logit scale for ``"binormal_logit"``).
    transform : None or "logit"
    location, scale : float
        The standardization: fitted-scale score = location + scale * standardized.
    ci_prob : float
        Default probability of bands and intervals.
    n, n_pos : int
    """

    def __init__(self):  # pragma: no cover - built by fit_score_models
        raise TypeError("ScoreModelFit objects are created by bayes_prc.fit_score_models")

    @classmethod
    def _from_idata(cls, *, name, idata, transform, location, scale, ci_prob, n, n_pos):
        self = object.__new__(cls)
        self.name = name
        self.transform = transform
        self.location = location
        self.scale = scale
        self.ci_prob = ci_prob
        self.n = n
        self.n_pos = n_pos
        self.model = _model_from_posterior(name, idata["posterior"], location, scale)
        self._idata = idata
        self._derived_done = False
        return self

    @property
    def idata(self):
        """The ArviZ DataTree; AP and ROC AUC draws are added on first access."""
        if not self._derived_done:
            add_curve_summaries(self._idata, self.model)
            self._derived_done = True
        return self._idata

    def __repr__(self):
        ap = self.idata["posterior"]["average_precision"]
        return (
            f"ScoreModelFit(name={self.name!r}, n={self.n}, n_pos={self.n_pos}, "
            f"chains={ap.sizes['chain']}, draws={ap.sizes['draw']}, "
            f"AP mean={float(ap.mean()):.4f})"
        )

    def _da(self, values, name, extra_dims=(), coords=None):
        post = self._idata["posterior"]
        return xr.DataArray(
            values,
            dims=(*SAMPLE_DIMS, *extra_dims),
            coords={"chain": post["chain"].values, "draw": post["draw"].values, **(coords or {})},
            name=name,
        )

    def _prevalence_kw(self, prevalence):
        if prevalence is None:
            return {}
        arr = np.asarray(prevalence, dtype=np.float64)
        if arr.ndim and arr.shape != self.model.batch_shape:
            raise ValueError(
                "`prevalence` must be a number in (0, 1) or an array of draws of shape "
                f"{self.model.batch_shape}; got shape {arr.shape}"
            )
        return {"prevalence": arr}

    def average_precision(self, prevalence=None):
        """Posterior draws of the AP under this model, dims (chain, draw).

        Parameters
        ----------
        prevalence : float or array of shape (chain, draw), optional
            AP at another prevalence than the fitted one.
        """
        kw = self._prevalence_kw(prevalence)
        if not kw:
            return self.idata["posterior"]["average_precision"].copy()
        return self._da(self.model.average_precision(**kw), "average_precision")

    def roc_auc(self):
        """Posterior draws of the ROC AUC, dims (chain, draw)."""
        return self.idata["posterior"]["roc_auc"].copy()

    def precision_at_recall(self, recall, prevalence=None):
        """Posterior draws of precision at the given recall(s): dims (chain, draw, recall)."""
        r = _check_recall_grid(recall)
        kw = self._prevalence_kw(prevalence)
        values = self.model.precision_at_recall(r, **kw)
        return self._da(values, "precision", ("recall",), {"recall": r})

    def pr_band(self, recall=None, ci_prob=None, kind="pointwise", prevalence=None):
        """Credible band of the PR curve over a recall grid (as :meth:`BinormalPosterior.pr_band`).

        Parameters
        ----------
        recall : array-like, optional
            Recall grid in [0, 1]; default 201 equally spaced points.
        ci_prob : float, optional
            Probability of the band; default the fit's ``ci_prob`` (0.94).
        kind : {"pointwise", "simultaneous"}
            Pointwise equal-tailed intervals, or a band containing whole posterior curves
            with probability ``ci_prob`` (extremal depth, as in ``BinormalPosterior``).
        prevalence : float, optional
            Band at another prevalence.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` over dim ``recall``; attrs ``ci_prob``,
            ``kind``, ``ci_kind`` (and ``coverage`` for simultaneous bands), ``model``.
        """
        from ._common import simultaneous_band

        prob = self.ci_prob if ci_prob is None else _check_prob(ci_prob, "ci_prob")
        if kind not in ("pointwise", "simultaneous"):
            raise ValueError(f"`kind` must be 'pointwise' or 'simultaneous'; got {kind!r}")
        r = DEFAULT_RECALL if recall is None else _check_recall_grid(recall)
        kw = self._prevalence_kw(prevalence)
        curves = self.model.precision_at_recall(r, **kw).reshape(-1, r.size)
        curves = np.ascontiguousarray(curves.T)
        alpha = 1 - prob
        lower, median, upper = np.quantile(curves, [alpha / 2, 0.5, 1 - alpha / 2], axis=1)
        attrs = {"ci_prob": prob, "kind": kind, "ci_kind": "eti", "model": self.name}
        if kind == "simultaneous":
            lower, upper, coverage = simultaneous_band(curves, prob, lower, upper)
            attrs["coverage"] = coverage
        return xr.Dataset(
            {"lower": ("recall", lower), "median": ("recall", median), "upper": ("recall", upper)},
            coords={"recall": r},
            attrs=attrs,
        )

    def loo(self, pointwise=False):
        """PSIS-LOO of the score log-likelihood (:func:`arviz.loo`; Vehtari et al. 2017)."""
        import arviz as az

        return az.loo(self.idata, pointwise=pointwise, var_name="score")

    def summary(self, var_names=None, ci_prob=None):
        """ArviZ summary of the model parameters and the derived AP / ROC AUC."""
        import arviz as az

        if var_names is None:
            var_names = [v for v in _PARAM_VARS[self.name]] + ["average_precision", "roc_auc"]
        prob = self.ci_prob if ci_prob is None else _check_prob(ci_prob, "ci_prob")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return az.summary(self.idata, var_names=var_names, ci_prob=prob)

    def diagnostics(self):
        """Max R-hat, min bulk/tail ESS over the model parameters, number of divergences."""
        import arviz as az

        names = list(_PARAM_VARS[self.name])
        data = self._idata
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            rhat = az.rhat(data, var_names=names)
            ess_bulk = az.ess(data, var_names=names, method="bulk")
            ess_tail = az.ess(data, var_names=names, method="tail")
        n_div = int(data["sample_stats"]["diverging"].values.sum())
        return {
            "max_rhat": float(max(float(rhat[v].max()) for v in names)),
            "min_ess_bulk": float(min(float(ess_bulk[v].min()) for v in names)),
            "min_ess_tail": float(min(float(ess_tail[v].min()) for v in names)),
            "n_divergent": n_div,
        }

    def _check_diagnostics(self):
        d = self.diagnostics()
        chains = self._idata["posterior"].sizes["chain"]
        problems = []
        if chains > 1 and d["max_rhat"] > 1.01:
            problems.append(f"R-hat up to {d['max_rhat']:.3f} (> 1.01)")
        if d["min_ess_bulk"] < 100 * chains:
            problems.append(f"bulk ESS down to {d['min_ess_bulk']:.0f} (< 100 per chain)")
        if d["min_ess_tail"] < 100 * chains:
            problems.append(f"tail ESS down to {d['min_ess_tail']:.0f} (< 100 per chain)")
        if d["n_divergent"]:
            problems.append(f"{d['n_divergent']} divergent transition(s)")
        if problems:
            warnings.warn(
                f"the NUTS fit of score model {self.name!r} may not be reliable: "
                + "; ".join(problems),
                ConvergenceWarning,
                stacklevel=4,
            )
        return d


_PARAM_VARS = {
    "binormal": ("prevalence", "mu", "sigma"),
    "binormal_logit": ("prevalence", "mu", "sigma"),
    "bi_t": ("prevalence", "mu", "sigma", "nu"),
    "mixture": ("prevalence", "weight", "mu", "sigma"),
}


def _check_prob(value, name):
    if not (isinstance(value, (float, int, np.floating)) and 0 < value < 1):
        raise ValueError(f"`{name}` must be in (0, 1); got {value!r}")
    return float(value)


def _check_recall_grid(values):
    arr = np.atleast_1d(np.asarray(values, dtype=np.float64))
    if arr.ndim != 1 or not np.all(np.isfinite(arr)) or arr.min() < 0 or arr.max() > 1:
        raise ValueError(f"`recall` must be a 1-D array of values in [0, 1]; got {values!r}")
    return arr
