r"""The per-class score distributions of the analytic score models.

Each class's scores follow one distribution object with parameters of shape
``batch_shape`` (normal, Student-t) or ``batch_shape + (K,)`` (normal mixture) and the
same small interface: ``log_sf`` (log survival function, stable far in the tails),
``log_pdf``, ``cdf``, ``isf`` (threshold of a given survival probability), ``take`` (a
subset of the flattened draws), ``breakpoints`` (quadrature panel edges, see
:mod:`bayes_prc.models._quadrature`) and ``rvs``. Methods taking thresholds ``t`` and the
number ``k`` of their axes broadcast each draw over the whole grid (shape
``batch_shape + t.shape``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._common import LOG_SQRT_2PI, expand_to_draws

_BREAK_U = np.linspace(-8.5, 8.5, 18)  # breakpoints in standard-normal units (step 1)
_BREAK_SIGN = np.sign(_BREAK_U)
_BREAK_P = special.ndtr(-np.abs(_BREAK_U))  # tail probabilities (no rounding to 1)
_T_SERIES_TERMS = 60
_T_BREAK_MAX = 1e250  # clip standardized Student-t breakpoints (only nu < ~0.1 reaches it)


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


class _NormalClass:
    """N(mu, sigma); parameters of shape ``batch_shape``."""

    family = "normal"

    def __init__(self, mu, sigma):
        self.mu, self.sigma = mu, sigma

    def take(self, idx):
        return _NormalClass(self.mu.reshape(-1)[idx], self.sigma.reshape(-1)[idx])

    def log_sf(self, t, k):
        return special.log_ndtr((expand_to_draws(self.mu, k) - t) / expand_to_draws(self.sigma, k))

    def log_pdf(self, t, k):
        sig = expand_to_draws(self.sigma, k)
        x = (t - expand_to_draws(self.mu, k)) / sig
        return -0.5 * x * x - LOG_SQRT_2PI - np.log(sig)

    def cdf(self, t, k):
        return special.ndtr((t - expand_to_draws(self.mu, k)) / expand_to_draws(self.sigma, k))

    def isf(self, r, k):
        return expand_to_draws(self.mu, k) - expand_to_draws(self.sigma, k) * special.ndtri(r)

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
        x = (t - expand_to_draws(self.mu, k)) / expand_to_draws(self.sigma, k)
        return _t_log_sf(x, expand_to_draws(self.nu, k))

    def log_pdf(self, t, k):
        nu, sig = expand_to_draws(self.nu, k), expand_to_draws(self.sigma, k)
        x = np.abs(t - expand_to_draws(self.mu, k)) / sig
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
        x = (t - expand_to_draws(self.mu, k)) / expand_to_draws(self.sigma, k)
        return special.stdtr(expand_to_draws(self.nu, k), x)

    def isf(self, r, k):
        # P(T >= q) = r  <=>  q = -F^{-1}(r): accurate for tiny recalls. scipy's stdtrit
        # returns +inf at both p = 0 and p = 1, so the ends are set here.
        q = special.stdtrit(expand_to_draws(self.nu, k), r)
        q = np.where(r == 0.0, -np.inf, np.where(r == 1.0, np.inf, q))
        return expand_to_draws(self.mu, k) - expand_to_draws(self.sigma, k) * q

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
        return _logsumexp_last(lw - 0.5 * x * x - LOG_SQRT_2PI - lsig)

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
        log_p = _logsumexp_last(lw - 0.5 * x * x - LOG_SQRT_2PI - lsig)
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
