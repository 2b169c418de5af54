"""The joint rank-based model of two classifiers (``bayes_prc.paired._rank``).

Independent references: scipy's bivariate normal CDF (``multivariate_normal.cdf``, Genz's
TVPACK) for the numpy CDF and the cell probabilities, central finite differences for
the analytic gradients, ``ordinal_categories`` of each classifier for the tables'
margins, PyMC's NUTS on the PyMC model for the fast sampler, and the population AP by
quadrature (``benchmarks/coverage_paired.py``) for coverage. Statistical checks use 5
Monte Carlo standard errors or bounds with failure probability below 1e-4, so they pass
for any seed except with negligible probability; seeds are not tuned (fixed seeds only
where a test needs a deterministic data set, stated there).
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from bayes_prc.bayes._ordinal import ordinal_categories
from bayes_prc.binormal import Binormal
from bayes_prc.exceptions import BayesPRCWarning
from bayes_prc.paired import JointRankPriors, compare_classifiers, fit_joint_rank_posterior
from bayes_prc.paired._bvn import bvn_cdf, bvn_cdf_grad, bvn_cdf_grid
from bayes_prc.paired._rank import (
    _grad,
    _initial_theta,
    _split,
    _standardized,
    cell_log_probs,
    paired_categories,
    paired_fit_check,
    paired_log_posterior,
    posterior_mode,
    sample_paired_laplace,
)


def simulate(rng, n=300, prevalence=0.3, rho=(0.7, 0.5), mu=(1.0, 1.4), sd=(1.0, 1.2)):
    """Correlated binormal pairs: negatives N((0, 0), rho_neg), positives (mu, sd, rho_pos)."""
    y = (rng.random(n) < prevalence).astype(np.int64)
    y[:3], y[3:6] = 1, 0
    z = np.empty((n, 2))
    for cls, (m, s, r) in enumerate((((0, 0), (1, 1), rho[0]), (mu, sd, rho[1]))):
        cov = [[s[0] ** 2, r * s[0] * s[1]], [r * s[0] * s[1], s[1] ** 2]]
        z[y == cls] = rng.multivariate_normal(m, cov, int(np.sum(y == cls)))
    return y, z[:, 0], z[:, 1]


# ------------------------------------------------------------------ bivariate normal CDF
def test_bvn_cdf_matches_scipy_on_a_grid():
    """Max abs error < 1e-10 (asked: ~1e-7) over limits incl. +-inf and rho up to +-0.999."""
    vals = np.array([-np.inf, -8, -3.5, -1.2, -0.3, 0, 0.4, 1.1, 2.5, 5, np.inf])
    rs = np.array([-0.999, -0.99, -0.95, -0.9, -0.5, 0, 0.3, 0.8, 0.92, 0.93, 0.99, 0.999])
    h, k, r = np.meshgrid(vals, vals, rs, indexing="ij")
    mine = bvn_cdf(h, k, r)
    ref = np.array(
        [
            stats.multivariate_normal([0, 0], [[1, ri], [ri, 1]]).cdf([hi, ki])
            for hi, ki, ri in zip(h.ravel(), k.ravel(), r.ravel(), strict=True)
        ]
    ).reshape(h.shape)
    np.testing.assert_allclose(mine, ref, rtol=0, atol=1e-10)
    assert bvn_cdf(0.0, 0.0, 0.5) == pytest.approx(1 / 3, abs=1e-15)  # 1/4 + asin(r)/(2 pi)


def test_bvn_cdf_grid_matches_the_elementwise_cdf(rng):
    """The per-row grid version (rows with |r| below and above 0.925) to 1e-14."""
    h, k = 2 * rng.standard_normal((50, 7)), 2 * rng.standard_normal((50, 5))
    r = rng.uniform(-0.999, 0.999, 50)
    ref = bvn_cdf(h[:, :, None], k[:, None, :], r[:, None, None])
    np.testing.assert_allclose(bvn_cdf_grid(h, k, r), ref, rtol=0, atol=1e-14)


def test_bvn_cdf_derivatives_match_finite_differences(rng):
    h, k = 2 * rng.standard_normal(40), 2 * rng.standard_normal(40)
    r = rng.uniform(-0.99, 0.99, 40)
    dh, dk, dr = bvn_cdf_grad(h, k, r)
    e = 1e-6
    for got, (dx, dy, dz) in ((dh, (e, 0, 0)), (dk, (0, e, 0)), (dr, (0, 0, e))):
        fd = (bvn_cdf(h + dx, k + dy, r + dz) - bvn_cdf(h - dx, k - dy, r - dz)) / (2 * e)
        np.testing.assert_allclose(got, fd, rtol=0, atol=1e-8)


# ------------------------------------------------------------------ tables and likelihood
def test_tables_margins_are_each_classifiers_categories(rng):
    y, a, b = simulate(rng)
    is_pos = y.astype(bool)
    data = paired_categories(is_pos, a, b, 9)
    assert data.counts.sum() == y.size and data.counts[1].sum() == y.sum()
    np.testing.assert_array_equal(data.counts.sum(axis=2), ordinal_categories(is_pos, a, 9).counts)
    np.testing.assert_array_equal(data.counts.sum(axis=1), ordinal_categories(is_pos, b, 9).counts)


def test_cell_probabilities_sum_to_one_and_match_scipy(rng):
    c = np.sort(rng.normal(0, 1.5, 5))
    d = np.sort(rng.normal(0, 1.5, 4))
    roc = np.array([[0.8, np.log(1.3), 1.1, np.log(0.7), np.arctanh(0.6), np.arctanh(0.95)]])
    for cls, (h, k, r) in enumerate(_standardized(c[None], d[None], roc)):
        p = np.exp(cell_log_probs(h, k, r)[0][0])
        assert p.shape == (6, 5) and p.sum() == pytest.approx(1.0, abs=1e-12)
        mvn = stats.multivariate_normal([0, 0], [[1, r[0]], [r[0], 1]])
        for i, j in [(0, 0), (2, 3), (5, 4), (3, 0), (1, 2)]:
            ref = mvn.cdf([h[0, i + 1], k[0, j + 1]], lower_limit=[h[0, i], k[0, j]])
            assert p[i, j] == pytest.approx(ref, abs=1e-9), (cls, i, j)


def test_log_posterior_gradient_matches_finite_differences(rng):
    y, a, b = simulate(rng)
    counts = paired_categories(y.astype(bool), a, b, 7).counts
    priors = JointRankPriors()
    theta0 = _initial_theta(counts, priors)  # (K_a - 1) + (K_b - 1) cutpoints + 6
    theta = theta0 + 0.1 * rng.standard_normal(theta0.size)
    value, grad = _grad(theta[None], counts, priors)
    assert value[0] == pytest.approx(paired_log_posterior(theta, counts, priors)[0], abs=1e-9)
    e = 1e-6
    eye = np.eye(theta.size) * e
    fd = (
        paired_log_posterior(theta + eye, counts, priors)
        - paired_log_posterior(theta - eye, counts, priors)
    ) / (2 * e)
    np.testing.assert_allclose(grad[0], fd, rtol=1e-5, atol=1e-5)


def test_mode_recovers_the_population_parameters():
    """n = 4000 (fixed seed 11, a deterministic data set): mu, log sigma, rho within 0.1."""
    y, a, b = simulate(np.random.default_rng(11), n=4000)
    counts = paired_categories(y.astype(bool), np.exp(a), b**3, 12).counts
    mode, _ = posterior_mode(counts, JointRankPriors())
    roc = _split(mode[None], 12, 12)[2][0]
    truth = [1.0, 0.0, 1.4, np.log(1.2), np.arctanh(0.7), np.arctanh(0.5)]
    np.testing.assert_allclose(roc, truth, atol=0.1)


# ------------------------------------------------------------------ compare_classifiers
def test_invariant_to_monotone_transforms_and_seeded(rng):
    y, a, b = simulate(rng, n=200)
    kw = {"draws": 200, "chains": 2, "recall": 0.5}
    r1 = compare_classifiers(y, a, b, random_seed=5, **kw)
    r2 = compare_classifiers(y, np.exp(a), 3 * b**3 - 1, random_seed=np.random.default_rng(5), **kw)
    r3 = compare_classifiers(y, a, b, random_seed=6, **kw)
    np.testing.assert_array_equal(r1.difference_draws, r2.difference_draws)
    np.testing.assert_array_equal(r1.precision_difference_draws, r2.precision_difference_draws)
    assert r1.fit_check == r2.fit_check and r1.recommendation == r2.recommendation
    assert not np.array_equal(r1.difference_draws, r3.difference_draws)
    assert r1.fit_check.p_value == r3.fit_check.p_value  # deterministic, seed-free
    assert r1.model == "semiparametric" and r1.diagnostics["khat"] <= 0.7


def test_draws_are_the_binormal_ap_of_each_classifier(rng):
    """The fit's AP draws are :class:`Binormal`'s AP of the sampler's draws (same seed)."""
    y, a, b = simulate(rng, n=200)
    is_pos = y.astype(bool)
    fit = fit_joint_rank_posterior(
        is_pos,
        a,
        b,
        priors=None,
        bayes_method="exact",
        draws=50,
        chains=1,
        rng=np.random.default_rng(4),
        recall=0.4,
    )
    out = sample_paired_laplace(
        paired_categories(is_pos, a, b),
        JointRankPriors(),
        draws=50,
        chains=1,
        rng=np.random.default_rng(4),
    )
    for j, name in enumerate("ab"):
        model = Binormal(
            mu_pos=out[f"mu_{name}"],
            sigma_pos=out[f"sigma_{name}"],
            mu_neg=0.0,
            sigma_neg=1.0,
            prevalence=out["prevalence"],
        )
        ap = (fit.ap_a, fit.ap_b)[j]
        np.testing.assert_allclose(ap, model.average_precision().ravel(), rtol=1e-12)
        prec = (fit.precision_a, fit.precision_b)[j]
        np.testing.assert_allclose(prec, model.precision_at_recall(0.4).ravel(), rtol=1e-12)
    np.testing.assert_allclose(fit.correlation, np.stack([out["rho_neg"], out["rho_pos"]], -1)[0])
    assert fit.fit_check.df == 18 and fit.fit_check.n_categories == (4, 4)


def test_fit_check_is_the_deviance_against_the_saturated_model():
    """G2 from scipy's multinomial log-pmfs at the coarse tables' mode (fixed seed 3)."""
    y, a, b = simulate(np.random.default_rng(3), n=400)
    priors = JointRankPriors()
    check = paired_fit_check(y.astype(bool), a, b, priors)
    counts = paired_categories(y.astype(bool), a, b, 4).counts
    mode, _ = posterior_mode(counts, priors)
    g2 = 0.0
    for cls, (h, k, r) in enumerate(_standardized(*_split(mode[None], 4, 4)[:3])):
        p = np.exp(cell_log_probs(h, k, r)[0][0]).ravel()
        n = counts[cls].ravel()
        sat = stats.multinomial(n.sum(), n / n.sum()).logpmf(n)
        g2 += 2 * (sat - stats.multinomial(n.sum(), p / p.sum()).logpmf(n))
    assert check.statistic == pytest.approx(g2, rel=1e-6)
    assert check.p_value == pytest.approx(stats.chi2.sf(g2, 18), rel=1e-6)
    assert check.passed and "fits" in check.verdict
    assert check.grade == "pass" and check.reason is None


def test_fit_check_without_degrees_of_freedom_is_inconclusive_and_says_why(rng):
    """Two-valued scores: 2x2 tables leave df < 1; the grade and reason say so."""
    y, a, b = simulate(rng, n=300)
    a, b = (a > np.median(a)).astype(float), (b > np.median(b)).astype(float)
    check = paired_fit_check(y.astype(bool), a, b, JointRankPriors())
    assert check.df < 1 and np.isnan(check.p_value) and check.passed
    assert check.grade == "inconclusive" and "too few distinct scores" in check.reason


def test_failed_fit_check_warns_and_recommends_the_bootstrap(rng):
    """A fifth of the negatives score like positives for A: at n = 1500 the check fails.

    With a tenth, the check passed on 1 of 60 seeds (its power is not 1; CI met such a
    seed); with a fifth its p-value was at most 1e-5 over 300 seeds."""
    y, a, b = simulate(rng, n=1500)
    hard = (y == 0) & (rng.random(y.size) < 0.2)
    a[hard] = rng.normal(2.0, 1.0, int(hard.sum()))
    with pytest.warns(BayesPRCWarning, match="method='bootstrap'"):
        res = compare_classifiers(y, a, b, draws=100, chains=1, random_seed=rng)
    assert not res.fit_check.passed and "bootstrap" in res.recommendation


def test_priors_validated_by_name(rng):
    y, a, b = simulate(rng, n=60)
    with pytest.raises(ValueError, match=r"`score_b` has a single distinct value"):
        compare_classifiers(y, a, np.zeros_like(b))
    with pytest.raises(ValueError, match=r"`priors.rho_z_sd` must be > 0"):
        compare_classifiers(y, a, b, priors={"rho_z_sd": 0.0})
    with pytest.raises(ValueError, match=r"`priors` has unknown key"):
        compare_classifiers(y, a, b, priors={"kappa": 1.0})


# ------------------------------------------------------------------ coverage
def _coverage(n_sets, rng):
    """Share of 90% intervals containing the population AP difference (binormal pairs)."""
    truth = [
        Binormal(
            mu_pos=m, sigma_pos=s, mu_neg=0.0, sigma_neg=1.0, prevalence=0.3
        ).average_precision()
        for m, s in ((1.0, 1.0), (1.4, 1.2))
    ]
    diff = truth[1] - truth[0]
    hits = 0
    for _ in range(n_sets):
        y, a, b = simulate(rng, n=200)
        y[:6] = (rng.random(6) < 0.3).astype(np.int64)  # the population, not forced labels
        y[0], y[1] = 1, 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = compare_classifiers(y, a, b, ci_prob=0.9, draws=500, chains=2, random_seed=rng)
        hits += r.low <= diff <= r.high
    return hits / n_sets


def test_coverage_reduced(rng):
    """40 data sets of n = 200: coverage >= 0.7 (P(Binomial(40, 0.9) < 28) = 5e-5)."""
    assert _coverage(40, rng) >= 0.7


@pytest.mark.slow
def test_coverage(rng):
    """200 data sets: coverage in [0.83, 0.96] (binomial tail probabilities < 1e-4 at 0.9)."""
    assert 0.83 <= _coverage(200, rng) <= 0.96


# ------------------------------------------------------------------ NUTS reference
def test_pytensor_cdf_matches_numpy(rng):
    """Plackett's integral (40 nodes) in PyTensor vs the numpy CDF: 2e-8 for |r| <= 0.95."""
    from bayes_prc.paired._rank_model import pt_bvn_cdf

    h, k = 2 * rng.standard_normal(200), 2 * rng.standard_normal(200)
    r = rng.uniform(-0.95, 0.95, 200)
    got = pt_bvn_cdf(h, k, r).eval()
    np.testing.assert_allclose(got, bvn_cdf(h, k, r), rtol=0, atol=2e-8)


@pytest.fixture(scope="module")
def nuts_pair(request, rng_for):
    """One data set (n = 250), fast sampler (4000 draws) and NUTS (2 x 1000) on it."""
    from bayes_prc.bayes import SamplerOptions
    from bayes_prc.paired._rank_model import sample_paired_nuts

    rng = rng_for(f"{request.node.nodeid}::nuts_pair")
    y, a, b = simulate(rng, n=250)
    data = paired_categories(y.astype(bool), a, b, 8)
    priors = JointRankPriors()
    fast = sample_paired_laplace(data, priors, draws=1000, chains=4, rng=rng)
    idata = sample_paired_nuts(
        data,
        priors,
        rng=rng,
        sampler=SamplerOptions(draws=1000, chains=2, tune=1000, cores=1, progressbar=False),
    )
    return fast, idata


def _ap_difference(draws):
    models = [
        Binormal(
            mu_pos=draws[f"mu_{c}"],
            sigma_pos=draws[f"sigma_{c}"],
            mu_neg=0.0,
            sigma_neg=1.0,
            prevalence=draws["prevalence"],
        )
        for c in "ab"
    ]
    return np.ravel(models[1].average_precision() - models[0].average_precision())


@pytest.mark.slow
def test_fast_sampler_agrees_with_nuts(nuts_pair):
    """Posterior means of the AP difference, mu's, sigma's and rho's within 5 MC SEs.

    The SE combines NUTS's (its bulk ESS) and the fast sampler's (the importance
    sampling's ESS, at most the number of draws): 5 SEs make a false alarm improbable
    (6e-7 per quantity for normal errors) while a systematic error of the Laplace +
    PSIS approximation larger than ~0.1 posterior sd would show.
    """
    import arviz as az

    fast, idata = nuts_pair
    post = idata["posterior"]
    assert int(idata["sample_stats"]["diverging"].sum()) == 0
    ess_fast = min(fast["importance"]["ess"], fast["mu_a"].size)
    nuts_draws = {
        n: post[n].values
        for n in ("mu_a", "sigma_a", "mu_b", "sigma_b", "rho_neg", "rho_pos", "prevalence")
    }
    pairs = [
        (n, fast[n].ravel(), nuts_draws[n])
        for n in ("mu_a", "sigma_a", "mu_b", "sigma_b", "rho_neg", "rho_pos")
    ]
    pairs.append(("ap_difference", _ap_difference(fast), _ap_difference(nuts_draws)))
    for name, f, nd in pairs:
        nd2 = np.reshape(nd, (2, -1))
        ess = float(az.ess(nd2[None] if nd2.ndim == 1 else nd2))
        assert float(az.rhat(nd2)) < 1.01, name
        se = np.sqrt(f.var() / ess_fast + nd2.var() / ess)
        assert abs(f.mean() - nd2.mean()) < 5 * se, (name, f.mean(), nd2.mean(), se)
        assert f.std() == pytest.approx(nd2.std(), rel=0.15), name
