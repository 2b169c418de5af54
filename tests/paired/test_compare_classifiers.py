"""Paired comparison of two classifiers (``bayes_prc.paired``, ``bayes_prc.paired._bivariate``).

References are independent of the code under test: scikit-learn's AP on explicit
resample indices / Dirichlet weights, the conjugate Normal-Inverse-Wishart formulas
written out here from the raw data (Gelman et al., BDA3, 3.6), scipy's densities for the
PyMC model's log-density, and the univariate ``fit_binormal`` for the marginals.
Statistical checks are at level 1e-4 or use 5 Monte-Carlo standard errors (two-sided
failure probability 6e-7 each), so every test passes for any seed except with
negligible probability; seeds are not tuned.
"""

import numpy as np
import pytest
from scipy import special, stats
from sklearn.metrics import average_precision_score as sk_ap
from sklearn.metrics import precision_recall_curve as sk_prc

import bayes_prc as bp
from bayes_prc.bayes import BinormalPriors
from bayes_prc.bayes._priors import conjugate_parameters, sufficient_statistics
from bayes_prc.paired import PairedComparison, compare_classifiers
from bayes_prc.paired._bivariate import (
    NIWPrior,
    build_model,
    paired_sufficient_statistics,
    sample_exact_posterior,
    standardize_pair,
)

METHODS = ("bayes", "bayesian_bootstrap", "bootstrap")
FAST = {"n_resamples": 300, "draws": 500}  # small but enough for the stated checks


def simulate(rng, n=600, prevalence=0.3, rho=0.8, shift_a=1.0, shift_b=1.2):
    """Bivariate normal scores per class (correlation ``rho``), positives shifted."""
    y = (rng.random(n) < prevalence).astype(np.int64)
    y[:3], y[3:6] = 1, 0  # both classes present whatever the draw
    z = rng.multivariate_normal([0.0, 0.0], [[1.0, rho], [rho, 1.0]], n)
    return y, z[:, 0] + shift_a * y, z[:, 1] + shift_b * y


def eti_width(draws, prob=0.95):
    lo, hi = np.quantile(draws, [(1 - prob) / 2, (1 + prob) / 2])
    return hi - lo


# ------------------------------------------------------------------------ basic contract
@pytest.mark.parametrize("method", METHODS)
def test_result_fields_and_rope(rng, method):
    y, a, b = simulate(rng, n=300)
    res = compare_classifiers(
        y, a, b, method=method, rope=(-0.02, 0.02), recall=0.5, random_seed=rng, **FAST
    )
    assert isinstance(res, PairedComparison) and res.method == method
    n_draws = 2000 if method == "bayes" else 300  # draws * chains
    d = res.difference_draws
    assert d.shape == (n_draws,) and res.ap_a_draws.shape == res.ap_b_draws.shape == d.shape
    np.testing.assert_array_equal(d, res.ap_b_draws - res.ap_a_draws)
    assert res.confidence_level == res.ci_prob == 0.95
    assert res.low <= res.high and res.confidence_interval == (res.low, res.high)
    assert np.isclose(res.low, np.quantile(d, 0.025)) and np.isclose(
        res.high, np.quantile(d, 0.975)
    )
    assert res.prob_b_better == np.mean(d > 0)
    # ROPE: shares of the same draws, Kruschke's closed ROPE, summing to one
    assert res.rope == (-0.02, 0.02)
    assert res.prob_below_rope == np.mean(d < -0.02)
    assert res.prob_in_rope == np.mean((d >= -0.02) & (d <= 0.02))
    assert res.prob_above_rope == np.mean(d > 0.02)
    assert res.prob_below_rope + res.prob_in_rope + res.prob_above_rope == pytest.approx(1.0)
    # precision at recall: same summaries for its own draws
    pd = res.precision_difference_draws
    assert pd.shape == (n_draws,) and res.recall == 0.5
    assert res.prob_b_better_precision == np.mean(pd > 0)
    assert res.precision_low <= res.precision_high
    # point values on the footing of each method
    assert res.empirical_ap_a == pytest.approx(sk_ap(y, a), abs=1e-12)
    assert res.empirical_ap_b == pytest.approx(sk_ap(y, b), abs=1e-12)
    if method == "bootstrap":
        assert res.ap_a == res.empirical_ap_a and res.ap_b == res.empirical_ap_b
        assert res.estimate == res.empirical_ap_b - res.empirical_ap_a
        assert res.precision_a == bp.precision_at_recall(y, a, 0.5).value
        assert res.precision_b == bp.precision_at_recall(y, b, 0.5).value
    else:
        assert res.estimate == pytest.approx(d.mean(), abs=1e-14)
        assert res.ap_a == pytest.approx(res.ap_a_draws.mean(), abs=1e-14)
    assert (res.correlation is not None) == (method == "bayes")
    assert res.n == y.size and res.n_pos == int(y.sum())
    with pytest.raises(AttributeError):
        res.estimate = 0.0  # frozen
    assert "difference_draws" not in repr(res)


@pytest.mark.parametrize("method", METHODS)
def test_same_seed_same_draws(rng, method):
    y, a, b = simulate(rng, n=200)
    kw = {"method": method, "n_resamples": 40, "draws": 50, "chains": 2}
    r1 = compare_classifiers(y, a, b, random_seed=7, **kw)
    r2 = compare_classifiers(y, a, b, random_seed=np.random.default_rng(7), **kw)
    r3 = compare_classifiers(y, a, b, random_seed=8, **kw)
    np.testing.assert_array_equal(r1.difference_draws, r2.difference_draws)
    assert not np.array_equal(r1.difference_draws, r3.difference_draws)


def test_level_keywords(rng):
    y, a, b = simulate(rng, n=200)
    r90 = compare_classifiers(y, a, b, method="bootstrap", ci_prob=0.9, n_resamples=50)
    assert r90.confidence_level == 0.9
    r = compare_classifiers(y, a, b, ci_prob=0.8, draws=100, random_seed=1)
    assert r.ci_prob == 0.8
    d = r.difference_draws
    assert (r.low, r.high) == pytest.approx(tuple(np.quantile(d, [0.1, 0.9])), abs=1e-15)


# ------------------------------------------------------------------ identical classifiers
@pytest.mark.parametrize("method", ["bootstrap", "bayesian_bootstrap"])
def test_identical_classifiers_resampling_exactly_zero(rng, method):
    """Same scores, same resamples/weights: every replicate of the difference is 0."""
    y, a, _ = simulate(rng, n=300)
    res = compare_classifiers(
        y, a, a.copy(), method=method, n_resamples=200, rope=(-0.01, 0.01), random_seed=rng
    )
    assert np.all(res.difference_draws == 0.0)
    assert res.estimate == 0.0 and res.low == 0.0 and res.high == 0.0
    assert res.prob_b_better == 0.0 and res.prob_in_rope == 1.0


def test_default_on_a_near_tie_is_the_jackknife(rng):
    """Identical scores are the extreme near tie: the default is the paired jackknife,
    whose difference is exactly 0 with standard error 0 (every leave-one-out difference
    is 0), p = 1, and the recommendation says why; a clear difference keeps the joint
    model."""
    y, a, b = simulate(rng)
    res = compare_classifiers(y, a, a.copy(), random_seed=rng)
    assert res.method == "jackknife" and res.prob_b_better is None
    assert (res.estimate, res.low, res.high, res.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert "near tie" in res.recommendation and "method='bayes'" in res.recommendation
    far = compare_classifiers(y, a, rng.normal(size=y.size) + y, random_seed=rng)
    assert far.method == "bayes" and far.prob_b_better is not None


def test_identical_classifiers_bayes_centred(rng):
    """The posterior is exchangeable in (A, B) when the scores are equal.

    So the difference is symmetric about 0: P(AP_B > AP_A) is a mean of n iid Bernoulli
    (1/2), checked within 5 standard errors; the interval contains 0 and is narrow: less
    than a quarter of the width of AP_A's own interval (observed ~0.13 at n = 600).
    """
    y, a, _ = simulate(rng)
    res = compare_classifiers(y, a, a.copy(), method="bayes", draws=2000, chains=2, random_seed=rng)
    n = res.difference_draws.size
    assert abs(res.prob_b_better - 0.5) < 5 * np.sqrt(0.25 / n)
    assert res.low < 0 < res.high
    assert res.high - res.low < 0.25 * eti_width(res.ap_a_draws)
    assert res.correlation["neg"] > 0.95 and res.correlation["pos"] > 0.95


# --------------------------------------------------------------- a clearly better model
@pytest.mark.parametrize("method", METHODS)
def test_clearly_better_classifier(rng, method):
    """B = A + 1.5 y + small noise: AP ~0.55 vs ~0.9 with 300 positives; P(B better) > 0.99."""
    n = 1000
    y = (rng.random(n) < 0.3).astype(np.int64)
    a = y * 1.0 + rng.standard_normal(n)
    b = a + 1.5 * y + 0.3 * rng.standard_normal(n)
    res = compare_classifiers(y, a, b, method=method, recall=0.5, random_seed=rng, **FAST)
    assert res.prob_b_better > 0.99 and res.low > 0
    assert res.prob_b_better_precision > 0.99 and res.precision_low > 0


# ----------------------------------------------------------- pairing narrows the interval
@pytest.mark.parametrize("method", METHODS)
def test_pairing_narrows_interval(rng, method):
    """Correlation 0.8 within class: the paired interval is narrower than the unpaired one.

    Unpaired references: for "bayes", two independent univariate fits
    (``fit_binormal(model="parametric", method="exact")`` on each classifier: on these
    binormal scores a close stand-in for the marginals of the default rank-based joint
    model); for the resampling methods, A's and B's AP from two independent
    runs (independent resamples / weights). Observed width ratios 0.38-0.55; asserted
    < 0.75.
    """
    y, a, b = simulate(rng)
    if method == "bayes":
        res = compare_classifiers(y, a, b, random_seed=rng)
        ap_a = bp.fit_binormal(
            y, a, model="parametric", method="exact", random_seed=rng
        ).average_precision()
        ap_b = bp.fit_binormal(
            y, b, model="parametric", method="exact", random_seed=rng
        ).average_precision()
        unpaired = ap_b.values.ravel() - ap_a.values.ravel()
        assert 0.6 < res.correlation["neg"] < 0.95 and 0.6 < res.correlation["pos"] < 0.95
    else:
        res = compare_classifiers(y, a, b, method=method, n_resamples=500, random_seed=rng)
        other = compare_classifiers(y, a, b, method=method, n_resamples=500, random_seed=rng)
        unpaired = other.ap_b_draws - res.ap_a_draws
    assert res.high - res.low < 0.75 * eti_width(unpaired)


# --------------------------------------------------- resampling replicates vs scikit-learn
def test_bootstrap_replicates_match_sklearn(rng):
    """Each replicate = sklearn's AP on the explicit stratified resample, B minus A.

    The resampling scheme (documented): per replicate, positives' indices drawn with
    replacement by ``rng.integers(0, n_pos, n_pos)``, then negatives' likewise.
    Precision at recall: the highest precision of sklearn's curve with recall >= r.
    """
    y, a, b = simulate(rng, n=150)
    a = np.round(a, 1)  # ties, so that threshold-level handling is exercised
    seed, r = int(rng.integers(2**32)), 0.6
    res = compare_classifiers(
        y, a, b, method="bootstrap", n_resamples=25, recall=r, random_seed=seed
    )
    ref_rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)

    def prec_at(yy, ss):
        p, rec, _ = sk_prc(yy, ss)
        return p[rec >= r].max()

    for k in range(25):
        idx = np.concatenate(
            (
                pos[ref_rng.integers(0, pos.size, pos.size)],
                neg[ref_rng.integers(0, neg.size, neg.size)],
            )
        )
        yy = y[idx]
        assert yy.sum() == pos.size  # stratified
        ref = sk_ap(yy, b[idx]) - sk_ap(yy, a[idx])
        assert abs(res.difference_draws[k] - ref) <= 1e-12
        ref_p = prec_at(yy, b[idx]) - prec_at(yy, a[idx])
        assert abs(res.precision_difference_draws[k] - ref_p) <= 1e-12


def test_bayesian_bootstrap_replicates_match_sklearn(rng):
    """Each replicate = sklearn's weighted AP under the same Dirichlet(1, ..., 1) weights.

    Weights (documented): ``rng.standard_exponential(n)`` normalized to sum 1.
    """
    y, a, b = simulate(rng, n=150)
    seed = int(rng.integers(2**32))
    res = compare_classifiers(
        y, a, b, method="bayesian_bootstrap", n_resamples=25, random_seed=seed
    )
    ref_rng = np.random.default_rng(seed)
    for k in range(25):
        w = ref_rng.standard_exponential(y.size)
        w /= w.sum()
        ref_a, ref_b = sk_ap(y, a, sample_weight=w), sk_ap(y, b, sample_weight=w)
        assert abs(res.ap_a_draws[k] - ref_a) <= 1e-12
        assert abs(res.difference_draws[k] - (ref_b - ref_a)) <= 1e-12


# ---------------------------------------------------------- exact NIW posterior vs formulas
@pytest.fixture(scope="module")
def niw_case(request, rng_for):
    rng = rng_for(f"{request.node.nodeid}::niw_case")
    y, a, b = simulate(rng, n=400, rho=0.6)
    z = np.column_stack([(a - a.mean()) / a.std(), (b - b.mean()) / b.std()])
    return y, a, b, z


def test_exact_niw_posterior_matches_closed_form(niw_case, rng):
    """Posterior means of mu, Sigma and the prevalence within 5 Monte-Carlo SE.

    Closed form written out here from the raw standardized data (BDA3, 3.6) with the
    default prior m0 = 0, kappa0 = 0.01, nu0 = 5, Psi0 = 2 I: E[mu] = m_n and
    E[Sigma] = Psi_n / (nu_n - p - 1), p = 2.
    """
    y, _, _, z = niw_case
    is_pos = y == 1
    prior = NIWPrior.from_binormal_priors(BinormalPriors())
    st = paired_sufficient_statistics(z, is_pos)
    n_draws = 20000
    post = sample_exact_posterior(*st, prior, draws=n_draws, chains=1, rng=rng)
    se = lambda x: x.std() / np.sqrt(x.size)  # noqa: E731
    prev = post.prevalence.ravel()
    a_n, b_n = 1 + is_pos.sum(), 1 + (~is_pos).sum()
    assert abs(prev.mean() - a_n / (a_n + b_n)) < 5 * se(prev)
    for c, mask in enumerate((~is_pos, is_pos)):
        x = z[mask]
        n = x.shape[0]
        xbar = x.mean(axis=0)
        scatter = (n - 1) * np.cov(x, rowvar=False)
        k_n, nu_n = 0.01 + n, 5 + n
        m_n = n * xbar / k_n
        psi_n = 2 * np.eye(2) + scatter + 0.01 * n / k_n * np.outer(xbar, xbar)
        mu = post.mu[0, :, c, :]
        cov = post.cov[0, :, c, :, :]
        for j in range(2):
            assert abs(mu[:, j].mean() - m_n[j]) < 5 * se(mu[:, j])
        expected = psi_n / (nu_n - 3)
        for j, k in ((0, 0), (0, 1), (1, 1)):
            assert abs(cov[:, j, k].mean() - expected[j, k]) < 5 * se(cov[:, j, k])
        np.testing.assert_array_equal(cov, np.swapaxes(cov, -1, -2))


def test_exact_marginals_match_univariate_model(niw_case, rng):
    """Each classifier's marginal posterior is the univariate model's, exactly.

    With ``BinormalPriors`` mapped to NIW (nu0 = 2 alpha0 + 1, Psi0 = 2 beta0 I) the
    diagonal element Sigma[j, j] is InverseGamma(alpha_n, beta_n) of the univariate
    conjugate update (``conjugate_parameters``), tested by KS at level 1e-4; and the AP_A,
    AP_B draws of ``compare_classifiers`` have the distribution of
    ``fit_binormal(model="parametric", method="exact")``'s on that classifier alone: two-sample KS at level
    1e-4 (independent draws, exact null) and means within 5 MC SE.
    """
    y, a, b, z = niw_case
    is_pos = y == 1
    priors = BinormalPriors()
    post = sample_exact_posterior(
        *paired_sufficient_statistics(z, is_pos),
        NIWPrior.from_binormal_priors(priors),
        draws=4000,
        chains=1,
        rng=rng,
    )
    for j in range(2):
        for c, st in enumerate(sufficient_statistics(z[:, j], is_pos)):
            _, _, an, bn = conjugate_parameters(st, priors)
            var = post.cov[0, :, c, j, j]
            assert stats.kstest(var, stats.invgamma(an, scale=bn).cdf).pvalue > 1e-4

    res = compare_classifiers(y, a, b, draws=2000, chains=2, random_seed=rng, model="parametric")
    for draws, score in ((res.ap_a_draws, a), (res.ap_b_draws, b)):
        uni = bp.fit_binormal(
            y, score, model="parametric", method="exact", draws=2000, chains=2, random_seed=rng
        )
        ref = uni.average_precision().values.ravel()
        assert stats.ks_2samp(draws, ref).pvalue > 1e-4
        se = np.sqrt(draws.var() / draws.size + ref.var() / ref.size)
        assert abs(draws.mean() - ref.mean()) < 5 * se


def test_transform_matches_fit_binormal_scale(rng):
    """With transform="logit" the marginal is the univariate logit fit (same AP law)."""
    y, a, b = simulate(rng, n=300)
    pa, pb = special.expit(a), special.expit(b)
    res = compare_classifiers(
        y, pa, pb, transform="logit", model="parametric", draws=1000, random_seed=rng
    )
    uni = bp.fit_binormal(
        y, pa, transform="logit", model="parametric", method="exact", random_seed=rng
    )
    ref = uni.average_precision().values.ravel()
    assert stats.ks_2samp(res.ap_a_draws, ref).pvalue > 1e-4
    assert res.transform == "logit" and res.bayes_method == "exact"


# -------------------------------------------------------------- the PyMC model's density
def _reference_logp(z, is_pos, params, prior):
    """Log posterior density (up to a constant) in the model's free coordinates, by scipy.

    Prior: Beta prevalence; per class Sigma ~ InvWishart(nu0, Psi0) times the Jacobian
    |d Sigma / d(var_a, slope, resid_var)| = var_a, mu ~ N2(m0, Sigma / kappa0).
    Likelihood: every item's bivariate normal density and the binomial count.
    """
    prev = params["prevalence"]
    total = stats.beta(prior.prevalence_alpha, prior.prevalence_beta).logpdf(prev)
    total += stats.binom(is_pos.size, prev).logpmf(is_pos.sum())
    for c, mask in enumerate((~is_pos, is_pos)):
        v, s, r = params["var_a"][c], params["slope"][c], params["resid_var"][c]
        cov = np.array([[v, s * v], [s * v, r + s**2 * v]])
        mu = np.array([params["mu_a"][c], params["mu_b"][c]])
        total += stats.invwishart(df=prior.nu0, scale=prior.psi0).logpdf(cov) + np.log(v)
        total += stats.multivariate_normal(prior.m0, cov / prior.kappa0).logpdf(mu)
        total += stats.multivariate_normal(mu, cov).logpdf(z[mask]).sum()
    return total


def test_pymc_model_logp_matches_scipy(rng):
    """``build_model``'s log-density = the full-data posterior density, up to a constant.

    Differences between random parameter points agree with :func:`_reference_logp` to
    1e-8 (absolute; log-densities of order 1e3).
    """
    y, a, b = simulate(rng, n=120)
    y[:2] = 1  # classes of >= 3 items use every observed term
    z, _, _ = standardize_pair(a, b)
    is_pos = y == 1
    prior = NIWPrior.from_binormal_priors(BinormalPriors())
    model = build_model(*paired_sufficient_statistics(z, is_pos), prior)
    logp = model.compile_logp(jacobian=False, mode="FAST_COMPILE")  # no C compilation
    values, refs = [], []
    for _ in range(4):
        params = {
            "prevalence": rng.uniform(0.1, 0.6),
            "var_a": rng.uniform(0.3, 2.0, 2),
            "resid_var": rng.uniform(0.1, 1.0, 2),
            "slope": rng.uniform(-1.0, 1.0, 2),
            "mu_a": rng.normal(0.0, 1.0, 2),
            "mu_b": rng.normal(0.0, 1.0, 2),
        }
        point = {
            "prevalence_logodds__": special.logit(params["prevalence"]),
            "var_a_log__": np.log(params["var_a"]),
            "resid_var_log__": np.log(params["resid_var"]),
            "slope": params["slope"],
            "mu_a": params["mu_a"],
            "mu_b": params["mu_b"],
        }
        values.append(float(logp(point)))
        refs.append(_reference_logp(z, is_pos, params, prior))
    np.testing.assert_allclose(np.diff(values), np.diff(refs), rtol=0, atol=1e-8)


@pytest.mark.slow
def test_pymc_prior_is_the_niw_prior(rng):
    """Prior predictive of the PyMC parameterization vs scipy's inverse-Wishart draws.

    Two-sample KS at level 1e-4 on Sigma[b, b], Sigma[a, b] and the correlation (the
    regression factorization of the inverse-Wishart must reproduce it exactly).
    """
    import pymc as pm

    y, a, b = simulate(rng, n=50)
    z, _, _ = standardize_pair(a, b)
    prior = NIWPrior.from_binormal_priors(BinormalPriors())
    with build_model(*paired_sufficient_statistics(z, y == 1), prior):
        pp = pm.sample_prior_predictive(
            draws=4000, random_seed=rng, compile_kwargs={"mode": "FAST_COMPILE"}
        )["prior"]
    var_a = pp["var_a"].values[..., 0].ravel()
    var_b = pp["var_b"].values[..., 0].ravel()
    cov_ab = pp["cov_ab"].values[..., 0].ravel()
    ref = stats.invwishart(df=prior.nu0, scale=prior.psi0).rvs(4000, random_state=rng)
    ref_corr = ref[:, 0, 1] / np.sqrt(ref[:, 0, 0] * ref[:, 1, 1])
    for x, r in (
        (var_a, ref[:, 0, 0]),
        (var_b, ref[:, 1, 1]),
        (cov_ab, ref[:, 0, 1]),
        (cov_ab / np.sqrt(var_a * var_b), ref_corr),
    ):
        assert stats.ks_2samp(x, r).pvalue > 1e-4


# ----------------------------------------------------------------------------- NUTS
@pytest.fixture(scope="module")
def nuts_case(request, rng_for):
    rng = rng_for(f"{request.node.nodeid}::nuts_case")
    y, a, b = simulate(rng, n=500)
    kw = {"recall": 0.5, "random_seed": rng}
    nuts = compare_classifiers(
        y,
        a,
        b,
        bayes_method="nuts",
        draws=1000,
        tune=1000,
        chains=2,
        cores=1,
        progressbar=False,
        **kw,
    )
    exact = compare_classifiers(y, a, b, draws=4000, chains=1, **kw)
    return nuts, exact


@pytest.mark.slow
def test_nuts_matches_exact_posterior(nuts_case):
    """Same prior, same posterior: NUTS (regression parameterization) vs closed form.

    Posterior means of AP_A, AP_B, their difference and precision difference within 5
    MC standard errors (NUTS's from its ESS); P(B better) within 5 SE of a proportion
    with the NUTS ESS.
    """
    import arviz as az

    nuts, exact = nuts_case
    assert nuts.idata is not None and nuts.bayes_method == "nuts"
    assert nuts.diagnostics["n_divergent"] == 0 and nuts.diagnostics["max_rhat"] < 1.05
    pairs = (
        ("ap_a_draws", "ap_a"),
        ("ap_b_draws", "ap_b"),
        ("difference_draws", "ap_difference"),
        ("precision_difference_draws", None),
    )
    for field, var in pairs:
        a = getattr(exact, field)
        b = getattr(nuts, field)
        da = nuts.idata["posterior"][var] if var else b.reshape(2, -1)
        ess = float(az.ess(da))
        se = np.sqrt(a.var() / a.size + b.var() / ess)
        assert abs(a.mean() - b.mean()) < 5 * se, field
    ess = float(az.ess(nuts.idata["posterior"]["ap_difference"]))
    p = exact.prob_b_better
    se = np.sqrt(p * (1 - p) / ess + p * (1 - p) / exact.difference_draws.size) + 1e-3
    assert abs(nuts.prob_b_better - p) < 5 * se
    for c in ("neg", "pos"):
        assert abs(nuts.correlation[c] - exact.correlation[c]) < 0.03


# ------------------------------------------------------------------------- validation
def test_validation_lengths(rng):
    y, a, b = simulate(rng, n=50)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples.*`score_b` has 49"):
        compare_classifiers(y, a, b[:-1])
    with pytest.raises(ValueError, match=r"`score_a` has 49"):
        compare_classifiers(y, a[:-1], b)


@pytest.mark.parametrize("name", ["score_a", "score_b"])
def test_validation_nan_names_the_score(rng, name):
    y, a, b = simulate(rng, n=50)
    scores = {"score_a": a, "score_b": b}
    scores[name] = scores[name].copy()
    scores[name][7] = np.nan
    for method in METHODS:
        with pytest.raises(ValueError, match=rf"`{name}` contains NaN .*at index 7"):
            compare_classifiers(y, scores["score_a"], scores["score_b"], method=method)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"method": "bootstrap_bca"}, r"`method` must be one of .*'bootstrap_bca'"),
        ({"method": "Bayes"}, r"`method` must be one of"),
        ({"method": ["bayes"]}, r"`method` must be one of"),
        ({"bayes_method": "advi"}, r"`bayes_method` must be one of .*'advi'"),
        ({"transform": "log"}, r"`transform` must be one of"),
        ({"rope": (0.01, -0.01)}, r"`rope` must be a pair \(low, high\).*low < high"),
        ({"rope": (0.0, 0.0)}, r"`rope` must be a pair"),
        ({"rope": 0.01}, r"`rope` must be a pair .*got 0.01"),
        ({"rope": (-0.01, 0.01, 0.02)}, r"`rope` must be a pair"),
        ({"rope": (-np.inf, 0.01)}, r"`rope` must be a pair"),
        ({"rope": ("a", "b")}, r"`rope` must be a pair"),
        ({"recall": 1.0}, r"`recall` must be a number in \(0, 1\); got 1.0"),
        ({"ci_prob": 1.5}, r"`ci_prob` must be a number in \(0, 1\)"),
        ({"ci_prob": 0}, r"`ci_prob` must be a number in \(0, 1\)"),
        ({"n_resamples": 0}, r"`n_resamples` must be an integer >= 1; got 0"),
        ({"draws": 2.5}, r"`draws` must be an integer >= 1; got 2.5"),
        ({"random_seed": "x"}, r"`random_seed` must be"),
    ],
)
def test_validation_options(rng, kwargs, match):
    y, a, b = simulate(rng, n=50)
    with pytest.raises(ValueError, match=match):
        compare_classifiers(y, a, b, **kwargs)


@pytest.mark.parametrize("method", METHODS)
def test_validation_one_class(rng, method):
    a, b = rng.normal(size=20), rng.normal(size=20)
    for y in (np.zeros(20, dtype=int), np.ones(20, dtype=int)):
        with pytest.raises(ValueError, match=r"`y_true` must contain both classes"):
            compare_classifiers(y, a, b, method=method)


def test_validation_transform_names_the_score(rng):
    y, a, b = simulate(rng, n=50)
    pa, pb = special.expit(a), special.expit(b)
    pb[3] = 1.5
    with pytest.raises(ValueError, match=r"`score_b` has 1.5 at index 3"):
        compare_classifiers(y, pa, pb, transform="logit")
    pb[3] = 1.0  # exact 1: moved inside with a warning naming the score
    with pytest.warns(bp.BayesPRCWarning, match="`score_b`"):
        compare_classifiers(y, pa, pb, transform="logit", draws=20)


def test_pos_label_and_lists(rng):
    y, a, b = simulate(rng, n=60)
    labels = np.where(y == 1, "yes", "no")
    r1 = compare_classifiers(
        labels.tolist(),
        a.tolist(),
        b.tolist(),
        method="bootstrap",
        pos_label="yes",
        n_resamples=30,
        random_seed=3,
    )
    r2 = compare_classifiers(y, a, b, method="bootstrap", n_resamples=30, random_seed=3)
    np.testing.assert_array_equal(r1.difference_draws, r2.difference_draws)
