"""The hierarchical subgroup model (issue 29): likelihood, derivatives, pooled population, NUTS.

References: the per-subgroup likelihood against scipy's normal CDF term by term; the
cutpoint gradient and Hessian against central finite differences; the cutpoints' prior
and the latent axis' translation and rescaling draws against scipy densities and a
quadrature of the translation's target; the pooled population's
AP and ROC AUC against the closed form (one subgroup) and scipy adaptive quadrature (a
mixture); the sampler against PyMC's NUTS on the same model.
"""

from __future__ import annotations

import arviz as az
import numpy as np
import pytest
import xarray as xr
from scipy import integrate, stats

from bayes_prc.binormal import Binormal
from bayes_prc.subgroups._fit import _metric_draws, pooled_curve_summaries
from bayes_prc.subgroups._model import (
    CutpointPrior,
    Likelihood,
    SubgroupPriors,
    _loc_scale,
    cutpoint_tilt,
    group_log_likelihood,
    subgroup_data,
)
from bayes_prc.subgroups._proposals import (
    FITTED_DF,
    cutpoint_forward,
    cutpoint_reverse,
    fitted_proposal,
    log_unit_target,
    newton_terms,
    rescale,
    translate,
)
from bayes_prc.subgroups._sampler import sample_subgroups


def _data(rng, sizes=(60, 120, 90), mus=(0.8, 1.5, 1.3), prevalence=0.2):
    ys, ss, cs = [], [], []
    for g, (n, mu) in enumerate(zip(sizes, mus, strict=True)):
        while True:
            y = rng.random(n) < prevalence
            if 2 <= y.sum() <= n - 2:
                break
        s = np.where(y, rng.normal(mu, 1.0, n), rng.normal(0.0, 1.0, n)) + 0.3 * g
        ys.append(y)
        ss.append(s)
        cs.append(np.full(n, g))
    y, s, c = map(np.concatenate, (ys, ss, cs))
    return y, s, c, subgroup_data(y, s, c, np.arange(len(sizes)))


def _random_state(rng, data, chains=3):
    k = data.n_categories
    # cutpoints at least 0.15 apart: two nearly coincident cutpoints (sorted normal draws
    # gave such pairs) make a category's probability tiny and its derivatives huge, where
    # central differences lose their accuracy (seeds 17, 22, 26 of 30 failed so)
    gaps = rng.uniform(0.15, 0.8, (chains, k - 1))
    c = np.cumsum(gaps, axis=1) - gaps.sum(axis=1, keepdims=True) / 2
    theta = rng.normal(0.0, 0.4, (chains, data.n_groups, 4))
    theta[..., 2] += 1.2
    return c, theta


def test_subgroup_data_counts_every_item(rng):
    y, s, c, data = _data(rng)
    assert data.counts.sum() == y.size
    np.testing.assert_array_equal(data.n_pos, [y[c == g].sum() for g in range(3)])
    # the categories are those of the pooled scores: pooled counts equal the ordinal counts
    np.testing.assert_array_equal(data.counts.sum(axis=0), data.ordinal.counts)


def test_group_log_likelihood_matches_scipy(rng):
    """Each subgroup's multinomial kernel, sum n log(Phi(hi) - Phi(lo)), term by term
    (scipy's normal CDF, with the upper tail from its survival function; 1e-10 relative:
    differences of probabilities near 1 lose a few digits)."""
    _, _, _, data = _data(rng)
    c, theta = _random_state(rng, data)
    got = group_log_likelihood(data, c, theta)
    loc, scale = _loc_scale(theta)
    for b in range(c.shape[0]):
        edges = np.concatenate([[-np.inf], c[b], [np.inf]])
        for g in range(data.n_groups):
            want = 0.0
            for cls in (0, 1):
                z = (edges - loc[b, g, cls]) / scale[b, g, cls]
                lo, hi = z[:-1], z[1:]
                # the tail-accurate difference: sf(lo) - sf(hi) above the mode
                p = np.where(
                    lo > 0, stats.norm.sf(lo) - stats.norm.sf(hi), np.diff(stats.norm.cdf(z))
                )
                counts = data.counts[g, cls]
                want += np.sum(counts * np.log(p), where=counts > 0)
            assert got[b, g] == pytest.approx(want, rel=1e-10, abs=1e-9)


def test_cutpoint_derivatives_match_finite_differences(rng):
    """Gradient and tridiagonal Hessian of the total log-likelihood (central differences,
    step 1e-5: truncation error ~1e-10, rounding ~1e-6 relative on the Hessian)."""
    _, _, _, data = _data(rng)
    c, theta = _random_state(rng, data, chains=1)
    lik = Likelihood(data)

    def total(cc):
        return lik.loglik(cc, theta).sum()

    ll0, ll1, grad, hd, ho = lik.cutpoint_derivatives(c, theta)
    assert (ll0 + ll1).sum() == pytest.approx(total(c), rel=1e-12)
    h = 1e-5
    j = c.shape[1]
    num_grad = np.empty(j)
    num_hess = np.empty((j, j))
    for a in range(j):
        e = np.zeros_like(c)
        e[0, a] = h
        num_grad[a] = (total(c + e) - total(c - e)) / (2 * h)
        for b in range(j):
            f = np.zeros_like(c)
            f[0, b] = h
            num_hess[a, b] = (
                total(c + e + f) - total(c + e - f) - total(c - e + f) + total(c - e - f)
            ) / (4 * h * h)
    np.testing.assert_allclose(grad[0], num_grad, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(hd[0], np.diag(num_hess), rtol=1e-3, atol=1e-2)
    np.testing.assert_allclose(ho[0], np.diag(num_hess, 1), rtol=1e-3, atol=1e-2)
    # tridiagonal: entries further off the diagonal vanish
    assert np.max(np.abs(np.triu(num_hess, 2))) < 1e-2


def test_cutpoint_prior_is_flat_and_scale_free(rng):
    """The cutpoints' prior: differences of its log density against scipy's normal density
    of their mean (flat otherwise; to 1e-10, floating point), its gradient against
    central differences (1e-6 relative: the differences' truncation error at step 1e-6),
    and the homogeneity the exact rescaling draw relies on: scaling the cutpoints and
    their unit by ``f`` and shifting every subgroup's log scale by ``log f`` multiplies
    the density (with its factor on the log scales, ``cutpoint_tilt``) by ``f^-J``, which
    the ``J``-dimensional volume cancels."""
    j, chains, groups = 12, 3, 5
    c = np.cumsum(rng.uniform(0.05, 1.0, (chains, j)), axis=1) + rng.normal(0, 2, (chains, 1))
    unit = np.exp(rng.normal(0.0, 1.0, chains))
    prior = CutpointPrior(5.0, unit)
    other = np.sort(c + rng.normal(0.0, 0.02, c.shape), axis=1)
    ref = [stats.norm.logpdf(x.mean(1), 0, 5 * unit) for x in (c, other)]
    got = prior.log_density(c) - prior.log_density(other)
    np.testing.assert_allclose(got, ref[0] - ref[1], rtol=1e-10, atol=1e-10)

    step = 1e-6
    num = np.empty_like(c)
    for k in range(j):
        e = np.zeros_like(c)
        e[:, k] = step
        num[:, k] = (prior.log_density(c + e) - prior.log_density(c - e)) / (2 * step)
    np.testing.assert_allclose(prior.gradient(c), num, rtol=1e-6, atol=1e-6)

    f = np.exp(rng.normal(0.0, 1.0, chains))
    log_scales = rng.normal(0.0, 0.5, (chains, groups))
    weights = rng.dirichlet(np.ones(groups))
    tilt = cutpoint_tilt(j, weights)
    before = prior.log_density(c) - (tilt * log_scales).sum(1)
    after = CutpointPrior(5.0, unit * f).log_density(c * f[:, None]) - (
        tilt * (log_scales + np.log(f)[:, None])
    ).sum(1)
    np.testing.assert_allclose(after - before, -j * np.log(f), atol=1e-9)
    swapped = c.copy()
    swapped[:, [3, 4]] = swapped[:, [4, 3]]
    assert np.all(prior.log_density(swapped) == -np.inf)


def test_proposal_densities_match_scipy(rng):
    """The sampler's proposal log densities enter its acceptance ratios only through
    differences between two points: checked against scipy's densities (to 1e-9,
    floating-point error) for the fitted Student-t and the cutpoints' Gaussian."""
    g = 4
    mean = rng.normal(size=(g, 2))
    a = rng.normal(size=(g, 2, 2))
    cov = np.einsum("gij,gkj->gik", a, a) + 0.1 * np.eye(2)
    fitted = fitted_proposal(mean, cov)
    x, z = fitted.draw(rng, 3), fitted.draw(rng, 3)  # (chains, G, 2)
    got = fitted.log_density(x) - fitted.log_density(z)
    for j in range(g):
        shape = fitted.chol[j] @ fitted.chol[j].T
        ref = stats.multivariate_t(mean[j], shape, df=FITTED_DF)
        np.testing.assert_allclose(got[:, j], ref.logpdf(x[:, j]) - ref.logpdf(z[:, j]), atol=1e-9)

    _, _, _, data = _data(rng)
    lik = Likelihood(data)
    # 12 chains: a chain's proposal is valid (ordered cutpoints) in 0.71 of random states,
    # and with 3 chains none was in 0.053 of 400 seeds (a CI run failed so); 0 of 400 with 12
    c, theta = _random_state(rng, data, chains=12)
    prior = CutpointPrior(5.0, rng.uniform(0.5, 2.0, c.shape[0]))
    h = rng.uniform(0.3, 1.2, (c.shape[0], 1))
    _, _, c_prop, log_q, ok = cutpoint_forward(lik, c, theta, prior, h, np.random.default_rng(1))
    _, _, log_q_back, _ = cutpoint_reverse(lik, c_prop, c, theta, prior, h)
    assert ok.any()
    for i in np.flatnonzero(ok):
        # the proposal from point p is N(p + h^2 / 2 (newton(p) - p), h^2 (L L^T)^{-1})
        def gaussian(p, i=i):
            one = CutpointPrior(5.0, prior.scale[i : i + 1] / 5.0)
            _, _, newton, ld, ls, _ = newton_terms(lik, p[None], theta[i : i + 1], one)
            lower = np.diag(ld[0]) + np.diag(ls[0], -1)
            precision = lower @ lower.T / h[i, 0] ** 2
            centre = p + 0.5 * h[i, 0] ** 2 * (newton[0] - p)
            return stats.multivariate_normal(centre, np.linalg.inv(precision))

        fwd, back = gaussian(c[i]), gaussian(c_prop[i])
        # both log densities drop the same constant (-d/2 log 2 pi and the h terms);
        # far from the mode the quadratic forms reach 1e5, hence a relative tolerance
        # (floating-point error of sums of that size) beside the absolute one
        assert log_q[i] - log_q_back[i] == pytest.approx(
            fwd.logpdf(c_prop[i]) - back.logpdf(c[i]), rel=1e-11, abs=1e-7
        )


def test_pooled_population_one_subgroup_is_the_binormal_closed_form(rng):
    """One subgroup: AP and ROC AUC equal the binormal closed forms (whatever the latent
    location and scale) to 1e-5, the quadrature's stated error."""
    d = 50
    mu = rng.uniform(-0.5, 4.0, d)
    sigma = np.exp(rng.uniform(-1.0, 1.0, d))
    prev = rng.uniform(0.02, 0.6, d)
    draws = {
        "mu": mu[:, None],
        "sigma": sigma[:, None],
        "shift": rng.normal(size=(d, 1)),
        "scale": np.exp(0.3 * rng.normal(size=(d, 1))),
        "prevalence": prev[:, None],
    }
    out = pooled_curve_summaries(draws, np.ones(1), np.linspace(0, 1, 11))
    ap = Binormal(mu, sigma, 0.0, 1.0, prev).average_precision()
    auc = stats.norm.cdf(mu / np.sqrt(1 + sigma**2))
    np.testing.assert_allclose(out["average_precision"], ap, atol=1e-5)
    np.testing.assert_allclose(out["roc_auc"], auc, atol=1e-6)
    # the precision curve at recall 0.5 is the binormal curve's
    want = Binormal(mu, sigma, 0.0, 1.0, prev).precision_at_recall(0.5)
    np.testing.assert_allclose(out["precision"][:, 5], want, atol=1e-3)


def test_others_of_two_subgroups_is_the_other_binormal(rng):
    """Two subgroups: each one's complement is the other subgroup alone, so its AP and ROC
    AUC are that subgroup's binormal closed forms. Tolerances 1e-3 (AP) and 3e-4 (ROC AUC):
    the complement is integrated on the 257-point grid that spans both subgroups (wider
    than its own), whose quadrature error over 150 seeds of this test (40 draws each) was
    at most 3.7e-4 and 1.0e-4, at the extreme separations drawn here (AUC ~0.98, shifted
    and rescaled subgroups); a complement that kept the subgroup itself is off by > 1e-2.
    The subtraction itself is exact to ~1e-5 (next test)."""
    d = 40
    mu = rng.uniform(0.0, 3.0, (d, 2))
    sigma = np.exp(rng.uniform(-0.7, 0.7, (d, 2)))
    prev = rng.uniform(0.05, 0.5, (d, 2))
    draws = {
        "mu": mu,
        "sigma": sigma,
        "shift": rng.normal(0, 0.5, (d, 2)),
        "scale": np.exp(0.3 * rng.normal(size=(d, 2))),
        "prevalence": prev,
    }
    out = pooled_curve_summaries(draws, np.array([0.4, 0.6]), np.linspace(0, 1, 5), others=True)
    for g, other in ((0, 1), (1, 0)):
        ap = Binormal(mu[:, other], sigma[:, other], 0.0, 1.0, prev[:, other]).average_precision()
        auc = stats.norm.cdf(mu[:, other] / np.sqrt(1 + sigma[:, other] ** 2))
        np.testing.assert_allclose(out["others_average_precision"][:, g], ap, atol=1e-3)
        np.testing.assert_allclose(out["others_roc_auc"][:, g], auc, atol=3e-4)


def test_others_equal_the_mixture_without_the_subgroup(rng):
    """Four subgroups: each complement equals the pooled population with that subgroup's
    weight set to 0 (its own grid), to 2e-4 in AP and 2e-5 in ROC AUC (the two grids'
    quadrature errors: at most 5.5e-6 and 7.8e-6 over 150 seeds of this test)."""
    d, g = 30, 4
    draws = {
        "mu": rng.uniform(0.3, 2.5, (d, g)),
        "sigma": np.exp(rng.uniform(-0.5, 0.5, (d, g))),
        "shift": rng.normal(0, 0.5, (d, g)),
        "scale": np.exp(0.2 * rng.normal(size=(d, g))),
        "prevalence": rng.uniform(0.05, 0.4, (d, g)),
    }
    w = rng.dirichlet(np.ones(g) * 3)
    out = pooled_curve_summaries(draws, w, np.linspace(0, 1, 5), others=True)
    for j in range(g):
        keep = np.arange(g) != j
        sub = {k: v[:, keep] for k, v in draws.items()}
        ref = pooled_curve_summaries(sub, w[keep] / w[keep].sum(), np.linspace(0, 1, 5))
        np.testing.assert_allclose(
            out["others_average_precision"][:, j], ref["average_precision"], atol=2e-4
        )
        np.testing.assert_allclose(out["others_roc_auc"][:, j], ref["roc_auc"], atol=2e-5)


def test_pooled_population_mixture_matches_adaptive_quadrature(rng):
    """Two different subgroups mixed: AP = integral of precision d recall by scipy.quad."""
    draws = {
        "mu": np.array([[rng.uniform(0.5, 2.5), rng.uniform(0.5, 2.5)]]),
        "sigma": np.exp(rng.uniform(-0.5, 0.5, (1, 2))),
        "shift": rng.normal(0, 0.7, (1, 2)),
        "scale": np.exp(rng.normal(0, 0.3, (1, 2))),
        "prevalence": rng.uniform(0.05, 0.4, (1, 2)),
    }
    w = np.array([0.3, 0.7])
    out = pooled_curve_summaries(draws, w, np.linspace(0, 1, 5))
    loc1 = draws["shift"][0] + draws["scale"][0] * draws["mu"][0]
    sc1 = draws["scale"][0] * draws["sigma"][0]
    loc0, sc0 = draws["shift"][0], draws["scale"][0]
    pi = draws["prevalence"][0]
    p_mass = np.sum(w * pi)
    n_mass = np.sum(w * (1 - pi))

    def tp(t):
        return np.sum(w * pi * stats.norm.sf(t, loc1, sc1))

    def fp(t):
        return np.sum(w * (1 - pi) * stats.norm.sf(t, loc0, sc0))

    def ap_integrand(t):  # precision(t) times the positives' density at t
        dens = np.sum(w * pi * stats.norm.pdf(t, loc1, sc1)) / p_mass
        return tp(t) / (tp(t) + fp(t)) * dens

    def auc_integrand(t):
        dens = np.sum(w * (1 - pi) * stats.norm.pdf(t, loc0, sc0)) / n_mass
        return tp(t) / p_mass * dens

    # the whole line: 12 sd beyond every component (a fixed [-15, 15] cut off a wide
    # positive component and missed 4e-3 of AP on one seed of 1500), split at the locations
    locs, scales = np.r_[loc0, loc1], np.r_[sc0, sc1]
    lo, hi = (locs - 12 * scales).min(), (locs + 12 * scales).max()
    opts = {"points": np.sort(locs), "limit": 400, "epsabs": 1e-13, "epsrel": 1e-12}
    ap = integrate.quad(ap_integrand, lo, hi, **opts)[0]
    auc = integrate.quad(auc_integrand, lo, hi, **opts)[0]
    # the default grid (257 thresholds, Richardson-extrapolated): over 1500 draws of these
    # parameters the largest errors were 4.6e-5 (AP) and 1.7e-5 (ROC AUC), all of it the
    # grid's (it falls 250-fold at 1025 thresholds: 1.9e-7 and 6.6e-8 at most)
    assert out["average_precision"][0] == pytest.approx(ap, abs=1e-4)
    assert out["roc_auc"][0] == pytest.approx(auc, abs=5e-5)
    fine = pooled_curve_summaries(draws, w, np.linspace(0, 1, 5), n_grid=1025)
    assert fine["average_precision"][0] == pytest.approx(ap, abs=1e-6)
    assert fine["roc_auc"][0] == pytest.approx(auc, abs=5e-7)


def test_latent_axis_moves_against_quadrature_and_scipy(rng):
    """The moves along the likelihood-free directions of the latent axis, with the
    cutpoints' prior as the sampler uses it.

    - The translation draw against its target along the orbit, evaluated on a grid and
      integrated by the trapezoid rule (scipy's normal densities of the subgroups'
      locations and of the cutpoints' mean): Kolmogorov-Smirnov on 4000 draws, at a
      level that fails a correct sampler once in 10^6.
    - The rescaling draw: the unit ``m_l`` it returns is ``Normal(0, log_scale_sd)``
      whatever the state (KS as above), and the cutpoints, locations and log scales move
      by the same factor.
    - ``m_l``'s conditional: differences of its log density against scipy's normal
      densities of every term it enters (to 1e-9, floating point).
    """
    g, j, n = 5, 9, 4000
    priors = SubgroupPriors()
    c0 = np.cumsum(rng.uniform(0.1, 0.6, j)) + rng.normal(0.0, 1.0)
    theta0 = rng.normal(0.0, 0.5, (g, 4))
    s_shift, cut_scale = 0.7, 3.0
    c, theta = np.repeat(c0[None], n, 0), np.repeat(theta0[None], n, 0)
    prior = CutpointPrior(5.0, np.full(n, cut_scale / 5.0))
    c_new, th_new = translate(c, theta, np.full(n, s_shift), prior, rng)
    delta = c_new[:, 0] - c0[0]  # the cutpoints and every location move by the same delta
    np.testing.assert_allclose(c_new - c, np.repeat(delta[:, None], j, 1), atol=1e-12)
    np.testing.assert_allclose(th_new[..., 0] - theta[..., 0], np.repeat(delta[:, None], g, 1))
    np.testing.assert_array_equal(th_new[..., 1:], theta[..., 1:])
    grid = np.linspace(-15.0, 15.0, 30001)
    log_t = stats.norm.logpdf(theta0[:, 0][None] + grid[:, None], 0.0, s_shift).sum(1)
    log_t += stats.norm.logpdf(c0.mean() + grid, 0.0, cut_scale)
    dens = np.exp(log_t - log_t.max())
    cdf = integrate.cumulative_trapezoid(dens, grid, initial=0.0)
    cdf /= cdf[-1]
    assert stats.kstest(delta, lambda x: np.interp(x, grid, cdf)).pvalue > 1e-6

    m_l = rng.normal(0.0, 2.0, n)
    c, theta = np.repeat(c0[None], n, 0), np.repeat(theta0[None], n, 0)
    c_new, th_new, m_new = rescale(c, theta, m_l, priors.log_scale_sd, rng)
    lam = m_new - m_l
    np.testing.assert_allclose(c_new, c * np.exp(lam)[:, None])
    np.testing.assert_allclose(th_new[..., 0], theta[..., 0] * np.exp(lam)[:, None])
    np.testing.assert_allclose(th_new[..., 1], theta[..., 1] + lam[:, None])
    np.testing.assert_array_equal(th_new[..., 2:], theta[..., 2:])
    assert stats.kstest(m_new, stats.norm(0.0, priors.log_scale_sd).cdf).pvalue > 1e-6

    s = np.array([[s_shift, 0.4, 0.3, 0.2, 0.5]] * 3)
    c3, th3 = np.repeat(c0[None], 3, 0), np.repeat(theta0[None], 3, 0)
    a, b = rng.normal(0.0, 1.0, 3), rng.normal(0.0, 1.0, 3)

    def scipy_target(m):
        unit = np.exp(m)
        return (
            stats.norm.logpdf(m, 0.0, priors.log_scale_sd)
            + stats.norm.logpdf(th3[..., 1], m[:, None], s[:, 1, None]).sum(1)
            + stats.norm.logpdf(th3[..., 0], 0.0, (s[:, 0] * unit)[:, None]).sum(1)
            + stats.norm.logpdf(c3.mean(1), 0.0, priors.cutpoint_sd * unit)
        )

    got = log_unit_target(a, c3, th3, s, priors) - log_unit_target(b, c3, th3, s, priors)
    np.testing.assert_allclose(got, scipy_target(a) - scipy_target(b), atol=1e-9)


def test_sampler_is_reproducible_and_shaped(rng):
    _, _, _, data = _data(rng)
    seed = int(rng.integers(2**32))
    a = sample_subgroups(
        data, SubgroupPriors(), draws=30, tune=30, chains=2, rng=np.random.default_rng(seed)
    )
    b = sample_subgroups(
        data, SubgroupPriors(), draws=30, tune=30, chains=2, rng=np.random.default_rng(seed)
    )
    np.testing.assert_array_equal(a["mu"], b["mu"])
    assert a["mu"].shape == (2, 30, 3)
    assert a["cutpoints"].shape == (2, 30, data.n_categories - 1)
    assert np.all(np.diff(a["cutpoints"], axis=2) > 0)
    assert np.all((a["prevalence"] > 0) & (a["prevalence"] < 1))


@pytest.mark.parametrize("where", ["progress", "step"])
def test_sampler_restores_numpy_error_state_when_interrupted(rng, monkeypatch, where):
    """The sampler ignores overflow inside its loop only: a KeyboardInterrupt (Ctrl-C in
    the progress callback) or an error raised by a step mid-run leaves NumPy's error
    state as it was before the call."""
    import bayes_prc.subgroups._sampler as sampler

    _, _, _, data = _data(rng)
    seen = []

    def interrupt(*args):
        seen.append(np.geterr())
        raise KeyboardInterrupt

    progress = None
    if where == "progress":
        progress = interrupt
    else:
        step = sampler._population_step
        calls = []

        def failing_step(*args):
            calls.append(None)
            if len(calls) == 7:
                interrupt()
            return step(*args)

        monkeypatch.setattr(sampler, "_population_step", failing_step)
    with np.errstate(over="raise", divide="warn", invalid="call", under="print"):
        before = np.geterr()
        with pytest.raises(KeyboardInterrupt):
            sample_subgroups(
                data, SubgroupPriors(), draws=40, tune=30, chains=2, rng=rng, progress=progress
            )
        assert np.geterr() == before
    assert len(seen) == 1  # interrupted mid-run, inside the loop's error state
    assert {seen[0][k] for k in ("over", "divide", "invalid")} == {"ignore"}


def _nuts_vs_fast(rng, draws):
    pm = pytest.importorskip("pymc")
    from bayes_prc.subgroups._pymc import build_subgroup_model

    _, _, _, data = _data(rng)
    priors = SubgroupPriors()
    fast = sample_subgroups(data, priors, draws=draws, tune=draws, chains=4, rng=rng)
    # The reference must have converged itself: NUTS on this hierarchical model sometimes
    # leaves a chain stuck in the spreads' funnel (a CI run: reference sds 0.65-0.76 of the
    # fast sampler's, where a rerun of the same seed elsewhere gave 0.95-1.05: PyMC's
    # chains are not bit-reproducible across processes). Measured locally: most runs have
    # 10-50 divergences in 800 draws and R-hat near 1.00; about one in ten has a chain
    # stuck (R-hat 1.2-1.6, hundreds of divergences). A run with R-hat above 1.05 on any
    # subgroup's AP, or divergences in more than 10% of its draws, is redrawn with a new
    # seed (3 tries); the try with the smallest R-hat is kept.
    best = None
    for _ in range(3):
        with build_subgroup_model(data, priors):
            idata = pm.sample(
                draws,
                tune=draws,
                chains=2,
                cores=1,
                random_seed=int(rng.integers(2**32)),
                target_accept=0.95,
                progressbar=False,
                compute_convergence_checks=False,
            )
        post = idata.posterior
        ref = _metric_draws(
            post["mu"].values, post["sigma"].values, post["prevalence"].values, "average_precision"
        )
        rhat = float(az.rhat(xr.DataArray(ref, dims=("chain", "draw", "subgroup"))).max())
        if best is None or rhat < best[0]:
            best = (rhat, ref, post)
        divergent = float(idata.sample_stats["diverging"].mean())
        if rhat <= 1.05 and divergent <= 0.1:
            break
    _, ref, post = best
    ap = _metric_draws(fast["mu"], fast["sigma"], fast["prevalence"], "average_precision")
    dims = ("chain", "draw", "subgroup")
    return xr.DataArray(ap, dims=dims), xr.DataArray(ref, dims=dims), fast, post


# Measured on 10 data sets (90 quantile gaps between two exact samplers): the gap over its
# estimated standard error had heavier tails than a normal (4 of 90 beyond 2.8, largest
# 3.3): ArviZ's quantile MCSE at ESS 150-600 is itself uncertain, by about 30%. At 5 such
# standard errors a gap of an exact sampler is rare (about 1e-4 each, 1e-3 for the 9 gaps).
_Z = 5.0


def _assert_close(ap, ref, bias_sd):
    """Quantiles of the two samplers' AP draws agree within their Monte Carlo error.

    For each subgroup and each of the 5/50/95% quantiles the gap is compared with the
    standard error of the difference, from ArviZ's quantile MCSE of each chain set
    (Vehtari et al. 2021): ``|gap| < _Z * se + bias_sd * sd``. ``bias_sd`` is a small
    allowance for the bias of MCSE estimates at short chains, in posterior sds.
    """
    sd = ref.std(("chain", "draw")).values
    for q in (0.05, 0.5, 0.95):
        gap = np.abs(
            ap.quantile(q, ("chain", "draw")).values - ref.quantile(q, ("chain", "draw")).values
        )
        se = np.hypot(
            az.mcse(ap, method="quantile", prob=q).values,
            az.mcse(ref, method="quantile", prob=q).values,
        )
        assert np.all(gap < _Z * se + bias_sd * sd), (q, gap / sd, se / sd)
    # the sds: relative error of an sd at ESS >= 200 is below 0.05 per sampler
    np.testing.assert_allclose(ap.std(("chain", "draw")).values / sd, 1.0, atol=0.3)


def test_fast_sampler_matches_nuts_reduced(rng):
    """Each subgroup's AP: the 5/50/95% quantiles of the fast sampler (4 x 400 draws) and of
    NUTS (2 x 400 draws) agree within 5 Monte Carlo standard errors of their difference
    (typically 0.5-0.8 posterior sd), plus 0.1 sd; their sds within 30%."""
    ap, ref, _, _ = _nuts_vs_fast(rng, 400)
    _assert_close(ap, ref, 0.1)


@pytest.mark.slow
def test_fast_sampler_matches_nuts(rng):
    """Longer runs (ESS ~1000-2000 each): the subgroups' AP and four hyperparameters
    (spreads mix slowest: their ESS is a few hundred), quantiles within their Monte Carlo
    error as in the reduced test."""
    ap, ref, fast, post = _nuts_vs_fast(rng, 2000)
    _assert_close(ap, ref, 0.05)
    for name in ("s_mu", "m_mu", "s_shift", "s_log_scale"):
        dims = ("chain", "draw", "subgroup")
        hyper = xr.DataArray(fast[name][..., None], dims=dims)
        hyper_ref = xr.DataArray(post[name].values[..., None], dims=dims)
        _assert_close(hyper, hyper_ref, 0.05)
