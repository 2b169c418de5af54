"""The subgroups' prevalences, drawn collapsed (bayes_prc.subgroups._prevalence).

References: each subgroup's integral against scipy's adaptive quadrature of scipy's
binomial and normal densities; the exact conditional draws against the CDF of their
target by numerical integration on a fine grid (Kolmogorov-Smirnov bound); the chain of
the population's mean and spread against their marginal posterior by quadrature on a
grid. The whole sampler is checked against NUTS in test_model.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, optimize, stats
from scipy.special import expit

from bayes_prc.subgroups._prevalence import PrevalencePopulation


def _log_target(x, y, n, m, s):
    return stats.binom.logpmf(y, n, expit(x)) + stats.norm.logpdf(x, m, s)


@pytest.mark.parametrize(
    ("m", "s"), [(-1.7, 0.01), (-1.7, 0.3), (-2.5, 1.5), (0.0, 3.0), (2.0, 0.8)]
)
def test_log_marginal_matches_adaptive_quadrature(rng, m, s):
    """Each subgroup's integral (20 Gauss-Hermite nodes at the Laplace point) against
    scipy's adaptive quadrature over +-40 Laplace sds (relative tolerance 1e-12);
    measured error at most 1.2e-5 per subgroup (0 positives, s = 2, a skewed
    integrand), so 2e-4 summed over 8 subgroups of every kind (0, 1, all positives)."""
    n = np.array([50, 50, 50, 5, 5, 200, 30, 30])
    y = np.array([0, 1, 7, 5, 0, 31, 30, 12])
    pop = PrevalencePopulation(y, n, 2.5, 1.0)
    ref = -0.5 * (m / 2.5) ** 2 - 0.5 * s**2
    for yy, nn in zip(y, n, strict=True):
        grid = np.linspace(-30, 30, 60001)
        logf = _log_target(grid, yy, nn, m, s)
        x0 = grid[np.argmax(logf)]
        peak = logf.max()
        width = max(s, 0.05) if s < 0.5 else 0.5
        lo, hi = x0 - 40 * width, x0 + 40 * width
        val, _ = integrate.quad(
            lambda x, yy=yy, nn=nn, peak=peak: np.exp(_log_target(x, yy, nn, m, s) - peak),
            lo,
            hi,
            points=[x0],
            limit=500,
            epsabs=0,
            epsrel=1e-12,
        )
        ref += np.log(val) + peak
    got = pop.log_marginal(np.array([m]), np.array([s]))[0]
    # the module drops log C(n, y), the same for every (m, s)
    const = float(np.sum(stats.binom.logpmf(y, n, 0.5) - n * np.log(0.5)))
    assert got + const == pytest.approx(ref, abs=2e-4)
    assert pop.log_marginal(np.array([m]), np.array([0.0]))[0] == -np.inf


@pytest.mark.parametrize(
    ("y", "n", "m", "s"),
    [(0, 50, -3.0, 2.0), (7, 50, -1.7, 1.0), (1, 5, 0.0, 3.0), (40, 50, -2.0, 0.01)],
)
def test_conditional_draws_are_exact(rng, y, n, m, s):
    """20000 draws against the target's CDF (trapezoid on 400001 points): the KS distance
    stays below its 1e-6 critical value 2.69 / sqrt(N) (a false failure in one seed of a
    million); the rejection sampler is exact, so only Monte Carlo error is allowed."""
    pop = PrevalencePopulation(np.array([y]), np.array([n]), 2.5, 1.0)
    size = 20000
    x = pop.draw_effects(np.full(size, m), np.full(size, s), rng)[:, 0]
    grid = np.linspace(x.min() - 5, x.max() + 5, 400001)
    dens = np.exp(_log_target(grid, y, n, m, s) - _log_target(grid, y, n, m, s).max())
    cdf = np.concatenate([[0.0], np.cumsum(0.5 * (dens[1:] + dens[:-1]))])
    cdf /= cdf[-1]
    distance = stats.kstest(x, lambda v: np.interp(v, grid, cdf)).statistic
    assert distance < 2.69 / np.sqrt(size)


def test_population_chain_matches_its_marginal(rng):
    """The mean and spread's chain (8 chains x 600 draws) against their marginal
    posterior by quadrature on a 200 x 200 grid: means and standard deviations within 5
    Monte Carlo standard errors (from the chains' batch means) plus the grid's error
    (1e-3); the independence proposal is accepted in most steps."""
    n = np.full(30, 40)
    y = rng.binomial(40, expit(rng.normal(-1.5, 0.6, 30)))
    pop = PrevalencePopulation(y, n, 2.5, 1.0)
    m, s, logit_p, accepted = pop.sample(8, 600, rng)
    assert logit_p.shape == (8, 600, 30) and accepted > 0.7
    mg = np.linspace(pop.m_edges[0] - 1, pop.m_edges[-1] + 1, 200)
    sg = np.linspace(1e-4, pop.s_edges[-1] + 1, 200)
    logd = pop.log_marginal(mg[:, None], sg[None, :])
    w = np.exp(logd - logd.max())
    w /= w.sum()
    for chain, grid, weights in ((m, mg, w.sum(1)), (s, sg, w.sum(0))):
        mean = np.sum(weights * grid)
        sd = np.sqrt(np.sum(weights * (grid - mean) ** 2))
        for stat, ref in ((chain, mean), ((chain - mean) ** 2, sd**2)):
            batches = stat.reshape(8, 6, 100).mean(axis=2)  # 48 batches of 100 draws
            mcse = batches.std(ddof=1) / np.sqrt(batches.size)
            assert abs(stat.mean() - ref) < 5 * mcse + 1e-3


def test_prevalences_given_the_population_match_their_conditional(rng):
    """The kept logit prevalences are the exact conditional draws given each kept
    ``(m, s)``: standardized by the conditional's mean and sd (by quadrature per draw,
    200 draws of one subgroup), their mean and sd are 0 and 1 within 5 standard errors."""
    pop = PrevalencePopulation(np.array([2, 9, 0]), np.array([30, 40, 25]), 2.5, 1.0)
    m, s, logit_p, _ = pop.sample(2, 100, rng)
    z = []
    for mm, ss, x in zip(m.ravel(), s.ravel(), logit_p[..., 1].ravel(), strict=True):
        # the conditional's sd is at most s (its curvature is at least 1 / s^2): a grid of
        # +-12 s about its mode
        mode = optimize.minimize_scalar(lambda v, mm=mm, ss=ss: -_log_target(v, 9, 40, mm, ss))
        grid = np.linspace(mode.x - 12 * ss, mode.x + 12 * ss, 4001)
        logf = _log_target(grid, 9, 40, mm, ss)
        f = np.exp(logf - logf.max())
        f /= f.sum()
        mean = np.sum(f * grid)
        z.append((x - mean) / np.sqrt(np.sum(f * (grid - mean) ** 2)))
    z = np.array(z)
    assert abs(z.mean()) < 5 / np.sqrt(z.size)
    assert abs(z.std() - 1.0) < 5 / np.sqrt(2 * z.size)


def test_one_subgroup_and_extreme_counts_give_finite_draws(rng):
    """No NaN: a single subgroup, every item positive, none positive."""
    pop = PrevalencePopulation(np.array([0, 25]), np.array([25, 25]), 2.5, 1.0)
    m, s, x, _ = pop.sample(3, 200, rng)
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(m)) and np.all(s > 0)
    one = PrevalencePopulation(np.array([3]), np.array([20]), 2.5, 1.0)
    assert np.all(np.isfinite(one.sample(2, 200, rng)[2]))
