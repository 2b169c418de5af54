r"""The subgroups' prevalences: their population drawn collapsed, then each one exactly.

numpy/scipy only. The prevalence part of the subgroup model stands apart from the ROC
part (the category counts are conditioned on each subgroup's class sizes)::

    n_pos_g ~ Binomial(n_g, expit(x_g)),   x_g ~ Normal(m, s),
    m ~ Normal(0, mean_sd),                s ~ HalfNormal(spread_scale),

so it is sampled on its own, without the random walks that crawl along its funnel (with
200 subgroups of 50 items a centred random walk gave the spread a bulk ESS of 28 in 2000
draws), and apart from the sampler's loop (no other parameter depends on it):

1. ``(m, s)`` by an independence Metropolis chain on their marginal posterior (the
   ``x_g`` integrated out, each integral by Gauss-Hermite quadrature centred and scaled
   at the integrand's mode, the Laplace point: Liu & Pierce 1994), whose proposal is a
   fine grid of that marginal (piecewise constant over cells) mixed with the prior (so
   that it is positive wherever the posterior is: Hesterberg 1995);
2. for every kept ``(m, s)``, every ``x_g`` exactly from its conditional, which is
   log-concave: rejection from the envelope of the tangents at the mode +- one Laplace
   standard deviation and the flat line at the mode (Gilks & Wild 1992; about 1.3 trials
   per draw).

The pair is a partially collapsed Gibbs sampler (van Dyk & Park 2008): a kernel that leaves
the marginal of ``(m, s)`` invariant followed by an exact draw of the rest from its
conditional leaves the joint posterior invariant, whatever ``x_g`` was before.

References
----------
.. [1] Q. Liu and D. A. Pierce, "A note on Gauss-Hermite quadrature", Biometrika 81
   (1994) 624-629.
.. [2] W. R. Gilks and P. Wild, "Adaptive rejection sampling for Gibbs sampling", J. R.
   Stat. Soc. C 41 (1992) 337-348.
.. [3] T. Hesterberg, "Weighted average importance sampling and defensive mixture
   distributions", Technometrics 37 (1995) 185-194.
.. [4] D. A. van Dyk and T. Park, "Partially collapsed Gibbs samplers: theory and
   methods", J. Am. Stat. Assoc. 103 (2008) 790-796.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit, roots_hermite

__all__ = ["PrevalencePopulation"]

#: Gauss-Hermite nodes of each subgroup's integral (against adaptive quadrature: error
#: in the log integral below 1e-12 for most integrands, up to 1.2e-5 for a skewed one,
#: 0 positives of 50 with spread 2; tests/subgroups/test_prevalence.py).
NODES = 20
#: ``log sqrt(2 pi)``, the normal density's constant.
_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)
#: Cells per axis of the grid proposal of ``(m, s)``.
GRID = 64
#: The grid covers where the log marginal is within this of its maximum.
GRID_DEPTH = 30.0
#: Weight of the prior in the independence proposal of ``(m, s)`` (its tails).
DEFENSIVE = 0.05
#: Steps of the ``(m, s)`` chain dropped before the kept draws.
BURN = 50


def _log_integrand(x, y, n, m, s):
    """``log [Binomial(y | n, expit x) Normal(x | m, s)]`` without ``log C(n, y)``."""
    z = (x - m) / s
    return y * log_expit(x) + (n - y) * log_expit(-x) - 0.5 * z * z - np.log(s) - _LOG_SQRT_2PI


def _mode(y, n, m, s, iterations=40):
    """Mode and Laplace standard deviation of the (log-concave) integrand, by Newton's
    method with the step limited to 2 (the curvature is at least ``1 / s^2``)."""
    inv_s2 = 1.0 / s**2
    info = (y + 0.5) * (n - y + 0.5) / (n + 1.0)
    x = (m * inv_s2 + np.log((y + 0.5) / (n - y + 0.5)) * info) / (inv_s2 + info)
    for _ in range(iterations):
        p = expit(x)
        curv = n * p * (1.0 - p) + inv_s2
        step = np.clip((y - n * p - (x - m) * inv_s2) / curv, -2.0, 2.0)
        x = x + step
        if np.max(np.abs(step) * np.sqrt(curv)) < 1e-10:
            break
    p = expit(x)
    return x, 1.0 / np.sqrt(n * p * (1.0 - p) + inv_s2)


class PrevalencePopulation:
    """Collapsed draws of the prevalences' population and exact draws of each prevalence.

    Parameters
    ----------
    npos, n : ndarray of shape (G,)
        Positives and items of each subgroup.
    mean_sd, spread_scale : float
        Normal prior sd of the population mean of the logit prevalences and HalfNormal
        prior scale of their spread.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.subgroups._prevalence import PrevalencePopulation
    >>> pop = PrevalencePopulation(np.array([3, 8, 5]), np.array([40, 60, 50]), 2.5, 1.0)
    >>> m, s, logit_p, accepted = pop.sample(2, 100, np.random.default_rng(0))
    >>> m.shape, logit_p.shape
    ((2, 100), (2, 100, 3))
    """

    def __init__(self, npos, n, mean_sd, spread_scale):
        pairs = np.stack([np.asarray(npos, float), np.asarray(n, float)], axis=1)
        unique, weight = np.unique(pairs, axis=0, return_counts=True)
        self.y, self.n = unique[:, 0], unique[:, 1]
        self.weight = weight.astype(float)  # subgroups sharing each (positives, items)
        self.y_all, self.n_all = pairs[:, 0], pairs[:, 1]
        self.mean_sd = float(mean_sd)
        self.spread_scale = float(spread_scale)
        t, w = roots_hermite(NODES)
        self.nodes, self.log_w = t, np.log(w) + t * t
        self._grid()

    # ---------------------------------------------------------------- the marginal
    def log_marginal(self, m, s):
        """Log marginal posterior of ``(m, s)`` up to a constant, elementwise; ``-inf``
        where ``s <= 0``."""
        m, s = np.broadcast_arrays(np.asarray(m, float), np.asarray(s, float))
        out = np.full(m.shape, -np.inf)
        ok = s > 0
        if not ok.any():
            return out
        mm, ss = m[ok][:, None], s[ok][:, None]  # (P, 1) against the pairs (U,)
        x0, sd = _mode(self.y, self.n, mm, ss)
        x = x0[..., None] + np.sqrt(2.0) * sd[..., None] * self.nodes
        f = _log_integrand(x, self.y[:, None], self.n[:, None], mm[..., None], ss[..., None])
        peak = f.max(axis=-1, keepdims=True)
        log_int = (
            np.log(np.sqrt(2.0) * sd)
            + peak[..., 0]
            + np.log(np.sum(np.exp(f - peak + self.log_w), axis=-1))
        )
        out[ok] = (
            log_int @ self.weight
            - 0.5 * (m[ok] / self.mean_sd) ** 2
            - 0.5 * (s[ok] / self.spread_scale) ** 2
        )
        return out

    def _grid(self):
        """The grid proposal: cells of ``(m, s)`` over the region where the marginal is
        within :data:`GRID_DEPTH` of its maximum (a coarse pass, then a fine one)."""
        emp = np.log((self.y_all + 0.5) / (self.n_all - self.y_all + 0.5))
        m_lo, m_hi = emp.min() - 1.5, emp.max() + 1.5
        s_hi = max(4.0 * self.spread_scale, 2.0 * (emp.max() - emp.min()))
        for _ in range(2):
            m_edges = np.linspace(m_lo, m_hi, GRID + 1)
            s_edges = np.linspace(0.0, s_hi, GRID + 1)
            mc = 0.5 * (m_edges[1:] + m_edges[:-1])
            sc = 0.5 * (s_edges[1:] + s_edges[:-1])
            logd = self.log_marginal(mc[:, None], sc[None, :])
            keep = logd > logd.max() - GRID_DEPTH
            rows, cols = np.nonzero(keep)
            dm, ds = m_edges[1] - m_edges[0], s_edges[1] - s_edges[0]
            m_lo = m_edges[max(rows.min() - 1, 0)] - (dm if rows.min() == 0 else 0.0)
            m_hi = m_edges[min(rows.max() + 2, GRID)] + (dm if rows.max() == GRID - 1 else 0.0)
            s_hi = s_edges[min(cols.max() + 2, GRID)] + (ds if cols.max() == GRID - 1 else 0.0)
        self.m_edges, self.s_edges = m_edges, s_edges
        logd = logd - logd.max()
        prob = np.exp(logd).ravel()
        self.cell_prob = prob / prob.sum()
        self.cell_cdf = np.cumsum(self.cell_prob)
        area = (m_edges[1] - m_edges[0]) * (s_edges[1] - s_edges[0])
        with np.errstate(divide="ignore"):  # cells far below the peak: never proposed
            self.log_cell_density = np.log(self.cell_prob / area)

    def _log_proposal(self, m, s):
        """Log density of the grid proposal at ``(m, s)`` (``-inf`` outside the grid)."""
        i = np.searchsorted(self.m_edges, m, side="right") - 1
        j = np.searchsorted(self.s_edges, s, side="right") - 1
        inside = (i >= 0) & (i < GRID) & (j >= 0) & (j < GRID)
        flat = np.where(inside, i * GRID + j, 0)
        return np.where(inside, self.log_cell_density[flat], -np.inf)

    def _log_defensive(self, m, s):
        """Log density of the prior of ``(m, s)`` (normalized; ``-inf`` for ``s <= 0``)."""
        with np.errstate(divide="ignore"):
            return np.where(
                s > 0,
                -0.5 * (m / self.mean_sd) ** 2
                - np.log(self.mean_sd)
                - 0.5 * (s / self.spread_scale) ** 2
                + np.log(2.0 / self.spread_scale)
                - 2.0 * _LOG_SQRT_2PI,
                -np.inf,
            )

    def _log_proposal_mixture(self, m, s):
        """Log density of the independence proposal: the grid with weight
        ``1 - DEFENSIVE``, the prior with weight ``DEFENSIVE``."""
        return np.logaddexp(
            np.log1p(-DEFENSIVE) + self._log_proposal(m, s),
            np.log(DEFENSIVE) + self._log_defensive(m, s),
        )

    def _propose(self, size, rng):
        """``size`` draws of the independence proposal."""
        cell = np.minimum(np.searchsorted(self.cell_cdf, rng.uniform(size=size)), GRID * GRID - 1)
        i, j = np.divmod(cell, GRID)
        u = rng.uniform(size=(2, size))
        m = self.m_edges[i] + u[0] * (self.m_edges[1] - self.m_edges[0])
        s = self.s_edges[j] + u[1] * (self.s_edges[1] - self.s_edges[0])
        wide = rng.uniform(size=size) < DEFENSIVE
        m = np.where(wide, self.mean_sd * rng.standard_normal(size), m)
        s = np.where(wide, np.abs(self.spread_scale * rng.standard_normal(size)), s)
        return m, s

    def sample(self, chains, draws, rng, burn=BURN):
        """Draws of the population's mean and spread and of every logit prevalence.

        ``(m, s)`` by an independence Metropolis chain on their marginal posterior (the
        proposal: the grid, mixed with the prior so that it covers every value the
        posterior has), ``burn`` steps dropped; then each draw's logit prevalences
        exactly given it. No other parameter of the subgroup model depends on them, so
        they are drawn apart from the sampler's loop, all at once.

        Returns
        -------
        m, s : ndarray of shape (chains, draws)
        logit_p : ndarray of shape (chains, draws, G)
        acceptance : float
            Share of accepted proposals after ``burn``.
        """
        steps = burn + draws
        m_prop, s_prop = self._propose(chains * steps, rng)
        log_w = self.log_marginal(m_prop, s_prop) - self._log_proposal_mixture(m_prop, s_prop)
        m_prop, s_prop, log_w = (x.reshape(steps, chains) for x in (m_prop, s_prop, log_w))
        log_u = np.log(rng.uniform(size=(steps, chains)))
        m = np.empty((steps, chains))
        s = np.empty((steps, chains))
        m[0], s[0] = m_prop[0], s_prop[0]
        current = log_w[0].copy()
        accepted = 0
        for t in range(1, steps):
            take = log_u[t] < log_w[t] - current
            m[t] = np.where(take, m_prop[t], m[t - 1])
            s[t] = np.where(take, s_prop[t], s[t - 1])
            current = np.where(take, log_w[t], current)
            if t >= burn:
                accepted += int(take.sum())
        m, s = m[burn:].T, s[burn:].T  # (chains, draws)
        logit_p = self.draw_effects(m.ravel(), s.ravel(), rng).reshape(chains, draws, -1)
        return m, s, logit_p, accepted / max(chains * draws, 1)

    # --------------------------------------------------------------- the prevalences
    def draw_effects(self, m, s, rng):
        """Exact draws of every subgroup's logit prevalence given ``(m, s)`` per chain:
        an array (B, G)."""
        b = m.shape[0]
        y = np.broadcast_to(self.y_all, (b, self.y_all.size))
        n = np.broadcast_to(self.n_all, y.shape)
        mm = np.broadcast_to(m[:, None], y.shape)
        ss = np.broadcast_to(s[:, None], y.shape)
        x0, sd = _mode(y, n, mm, ss)
        h0 = _log_integrand(x0, y, n, mm, ss)

        def grad(x):
            return y - n * expit(x) - (x - mm) / ss**2

        x1, x2 = x0 - sd, x0 + sd
        a = grad(x1)  # > 0
        c = -grad(x2)  # > 0
        xl = x1 + (h0 - _log_integrand(x1, y, n, mm, ss)) / a
        xr = x2 - (h0 - _log_integrand(x2, y, n, mm, ss)) / c
        mass = np.stack([1.0 / a, xr - xl, 1.0 / c], axis=-1)  # times e^h0
        cdf = np.cumsum(mass, axis=-1)
        out = np.empty(y.shape)
        todo = np.ones(y.shape, bool)
        while todo.any():
            idx = np.nonzero(todo)
            u_piece = rng.uniform(size=idx[0].size) * cdf[idx][:, -1]
            piece = (u_piece[:, None] > cdf[idx][:, :2]).sum(axis=1)
            e = rng.exponential(size=idx[0].size)
            xs = np.where(
                piece == 0,
                xl[idx] - e / a[idx],
                np.where(
                    piece == 2,
                    xr[idx] + e / c[idx],
                    xl[idx] + rng.uniform(size=e.size) * (xr - xl)[idx],
                ),
            )
            env = np.where(
                piece == 0,
                h0[idx] - a[idx] * (xl[idx] - xs),
                np.where(piece == 2, h0[idx] - c[idx] * (xs - xr[idx]), h0[idx]),
            )
            target = _log_integrand(xs, y[idx], n[idx], mm[idx], ss[idx])
            ok = np.log(rng.uniform(size=e.size)) < target - env
            out[tuple(k[ok] for k in idx)] = xs[ok]
            todo[tuple(k[ok] for k in idx)] = False
        return out
