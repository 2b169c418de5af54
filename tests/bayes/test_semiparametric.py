"""The semiparametric (rank-based) binormal model: categories, likelihood, samplers, checks."""

import numpy as np
import pytest
from scipy import integrate, stats

import bayes_prc as bp
from bayes_prc.bayes._ordinal import (
    cutpoint_derivatives,
    latent_to_score,
    log_diff_ndtr,
    ordinal_categories,
    score_to_latent,
)


@pytest.fixture(scope="module")
def data300():
    return bp.Binormal(1.2, 1.4, 0.0, 1.0, 0.25).sample(300, random_seed=123)


@pytest.fixture(scope="module")
def fits300(data300):
    """Fast sampler and NUTS (the PyMC reference) on the same data set of 300."""
    y, s = data300
    fast = bp.fit_binormal(y, s, draws=2000, chains=4, random_seed=5)
    nuts = bp.fit_binormal(
        y,
        s,
        method="nuts",
        draws=1500,
        tune=1000,
        chains=2,
        cores=1,
        random_seed=6,
        progressbar=False,
    )
    return fast, nuts


# ------------------------------------------------------------------------- categories
def test_categories_keep_ties_together_and_count_everything():
    rng = np.random.default_rng(0)
    s = np.round(rng.normal(size=400), 1)  # many ties
    y = rng.random(400) < 0.3
    d = ordinal_categories(y, s)
    assert d.counts.sum() == 400 and d.n_pos == y.sum()
    assert np.all(d.counts.sum(axis=0) > 0)
    # no tied value is split between categories
    assert np.all(d.score_high[:-1] < d.score_low[1:])
    assert d.n_categories <= 40


def test_categories_are_truth_state_runs_when_few():
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1])
    s = np.arange(8.0)
    d = ordinal_categories(y.astype(bool), s)
    np.testing.assert_array_equal(d.counts, [[2, 0, 1, 0, 1, 0], [0, 1, 0, 2, 0, 1]])
    assert d.n_runs == 6


def _brute_runs(y, s):
    """Truth-state runs by a plain loop over the distinct scores (the reference)."""
    runs = []  # [state, negatives, positives, lowest score, highest score]
    for v in sorted(set(s.tolist())):
        pos = int(np.sum(y[s == v]))
        neg = int(np.sum(s == v)) - pos
        state = 2 if pos and neg else int(pos > 0)
        if runs and state != 2 and runs[-1][0] == state:
            runs[-1][1:3] = [runs[-1][1] + neg, runs[-1][2] + pos]
            runs[-1][4] = v
        else:
            runs.append([state, neg, pos, v, v])
    return runs


def test_categories_equal_brute_force_runs_with_ties(rng):
    for _ in range(200):
        n = int(rng.integers(3, 60))
        y = rng.random(n) < 0.4
        s = rng.integers(0, int(rng.integers(2, 30)), n).astype(float)
        runs = _brute_runs(y, s)
        d = ordinal_categories(y, s, n_categories=len(runs) + 1)  # no merging
        assert d.n_runs == len(runs)
        np.testing.assert_array_equal(d.counts, np.array([r[1:3] for r in runs]).T)
        np.testing.assert_array_equal(d.score_low, [r[3] for r in runs])
        np.testing.assert_array_equal(d.score_high, [r[4] for r in runs])
        if len(runs) > 2:  # merged: whole runs, in order, every item counted
            m = ordinal_categories(y, s, n_categories=2)
            assert m.n_categories <= 2 and m.counts.sum() == n
            assert set(m.score_low) <= {r[3] for r in runs}


def test_log_diff_ndtr_matches_direct_and_far_tails():
    a = np.array([-3.0, -1.0, 0.5, -0.2])
    b = np.array([-1.0, 2.0, 3.0, 0.1])
    np.testing.assert_allclose(
        np.exp(log_diff_ndtr(a, b)), stats.norm.cdf(b) - stats.norm.cdf(a), rtol=1e-12
    )
    # far right tail: Phi(-a) - Phi(-b) with both ~1e-350; reference by quadrature of
    # the log density around the interval (relative to phi(40))
    val = log_diff_ndtr(40.0, 41.0)
    ref = np.log(integrate.quad(lambda x: np.exp(-0.5 * (x * x - 1600)), 40, 41)[0])
    assert np.isclose(val, ref - 800 - 0.5 * np.log(2 * np.pi), rtol=1e-10)
    assert log_diff_ndtr(1.0, 1.0) == -np.inf


def test_cutpoint_derivatives_match_finite_differences():
    counts = np.array([[5, 3, 4, 1], [1, 2, 3, 6]])
    c = np.array([[-0.8, 0.1, 0.9]])
    mu, sigma = np.array([0.7]), np.array([1.3])
    ll, g, hd, ho = cutpoint_derivatives(c, mu, sigma, counts)
    h = 1e-5
    for j in range(3):
        e = np.zeros_like(c)
        e[0, j] = h
        lp, gp, *_ = cutpoint_derivatives(c + e, mu, sigma, counts)
        lm, gm, *_ = cutpoint_derivatives(c - e, mu, sigma, counts)
        assert np.isclose(g[0, j], (lp - lm)[0] / (2 * h), rtol=1e-6)
        assert np.isclose(hd[0, j], (gp - gm)[0, j] / (2 * h), rtol=1e-5)
        if j < 2:
            assert np.isclose(ho[0, j], (gp - gm)[0, j + 1] / (2 * h), rtol=1e-5)


# ------------------------------------------------------------------------- the fit
def test_default_model_is_semiparametric_and_invariant_to_monotone_maps(data300):
    y, s = data300
    post = bp.fit_binormal(y, s, random_seed=1)
    assert post.model_type == "semiparametric" and post.method == "laplace"
    ap = post.average_precision().values
    s_pos = s - s.min() + 1.0  # log needs positive scores
    ref = bp.fit_binormal(y, s_pos, random_seed=1).average_precision().values
    np.testing.assert_array_equal(ap, ref)
    for f in (lambda x: 2 * x + 5, np.log, lambda x: x**3):
        other = bp.fit_binormal(y, f(s_pos), random_seed=1).average_precision().values
        np.testing.assert_array_equal(other, ap)


def test_same_seed_same_draws_and_generator_seeds(data300):
    y, s = data300
    a = bp.fit_binormal(y, s, random_seed=np.random.default_rng(3)).average_precision()
    b = bp.fit_binormal(y, s, random_seed=np.random.default_rng(3)).average_precision()
    np.testing.assert_array_equal(a.values, b.values)


def test_fast_sampler_agrees_with_nuts(fits300):
    """Acceptance: AP means within 0.01, 5/50/95% quantiles within 0.02.

    Monte-Carlo error of the NUTS quantiles with ~3000 effective draws of an AP whose sd
    is ~0.04 is ~0.002; the grid approximation itself was within 0.002 in development,
    so these bounds fail only if the fast sampler targets another posterior.
    """
    fast, nuts = fits300
    a = fast.average_precision().values.ravel()
    b = nuts.average_precision().values.ravel()
    assert abs(a.mean() - b.mean()) < 0.01
    q = [0.05, 0.5, 0.95]
    np.testing.assert_allclose(np.quantile(a, q), np.quantile(b, q), atol=0.02)
    for name in ("mu", "sigma"):
        x = fast.idata["posterior"][name].values.ravel()
        z = nuts.idata["posterior"][name].values.ravel()
        assert abs(x.mean() - z.mean()) < 0.1 * z.std() + 0.02
        assert np.isclose(x.std(), z.std(), rtol=0.15)


def test_recovers_population_ap_on_skewed_scores():
    """Rank-based: gamma scores (not normal on any simple scale) with a binormal ROC."""
    # Latent binormal ROC, then a monotone skewing map: the population AP is the
    # binormal one, which the parametric fit on raw scores misses.
    truth = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.2)
    y, z = truth.sample(4000, random_seed=7)
    s = stats.gamma(1.5).ppf(stats.norm.cdf(z / 2))  # strictly increasing in z
    post = bp.fit_binormal(y, s, random_seed=0)
    ap = post.average_precision().values
    true_ap = float(truth.average_precision())
    lo, hi = np.quantile(ap, [0.001, 0.999])
    assert lo < true_ap < hi


def test_thresholds_map_back_to_the_score_scale(data300):
    y, s = data300
    post = bp.fit_binormal(y, s * 10 + 3, random_seed=2)
    t = post.threshold_at_recall([0.1, 0.5, 0.9]).median(("chain", "draw")).values
    assert np.all(np.diff(t) < 0) and t.min() >= (s * 10 + 3).min()
    # round trip latent -> score -> latent at the cutpoints' knots
    cut = post._cutpoints[:1, :5]
    scores = np.concatenate([post.ordinal.score_low[1:4]])
    lat = score_to_latent(scores, post.ordinal, cut)
    back = latent_to_score(lat, post.ordinal, cut)
    np.testing.assert_allclose(back[0, 0], scores, rtol=1e-9)
    # recall at a threshold vs the empirical recall (posterior band holds it)
    thr = float(np.median(s * 10 + 3))
    rec = post.recall_at_threshold(thr).values.ravel()
    emp = float(np.mean((s * 10 + 3)[y == 1] >= thr))
    lo, hi = np.quantile(rec, [0.001, 0.999])
    assert lo <= emp <= hi


def test_fit_check_flags_hard_negatives_and_passes_binormal():
    rng = np.random.default_rng(11)
    n = 3000
    y = rng.random(n) < 0.2
    hard = (~y) & (rng.random(n) < 0.15)
    s = np.where(y | hard, rng.normal(2.5, 0.5, n), rng.normal(0, 1, n))
    check = bp.fit_binormal(y, s, random_seed=0).fit_check(random_seed=0)
    assert not check.passed and check.p_value < 0.05
    y2, s2 = bp.Binormal(1.5, 1.2, 0, 1, 0.2).sample(3000, random_seed=12)
    check2 = bp.fit_binormal(y2, s2, random_seed=0).fit_check(random_seed=0)
    assert check2.p_value > 0.001  # a correct model fails this with probability ~0.001


@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], "at least 2 positives"),
        ([0, 0, 1, 0], [0.1, 0.2, 0.3, 0.4], "at least 2 positives"),
        ([0, 1, 1, 0], [0.5, 0.5, 0.5, 0.5], "`y_score` has a single distinct value"),
        ([0, 1, 1, 0], [0.1, np.nan, 0.3, 0.4], "y_score"),
    ],
)
def test_bad_input_names_the_parameter(y, s, match):
    with pytest.raises(ValueError, match=match):
        bp.fit_binormal(y, s)


def test_bad_options_name_the_parameter(data300):
    y, s = data300
    with pytest.raises(ValueError, match="`model`"):
        bp.fit_binormal(y, s, model="trinormal")
    with pytest.raises(ValueError, match="method`='exact' needs model='parametric'"):
        bp.fit_binormal(y, s, method="exact")
    with pytest.raises(ValueError, match="`n_categories`"):
        bp.fit_binormal(y, s, n_categories=1)
    with pytest.raises(ValueError, match="`priors.mu_sd`"):
        bp.fit_binormal(y, s, priors={"mu_sd": -1})


def test_compare_intervals_rows_and_recommendation(data300):
    y, s = data300
    table = bp.compare_intervals(y, s, ci_prob=0.9, random_seed=0, n_resamples=200)
    assert {"semiparametric_hdi", "semiparametric_eti", "binormal_eti"} <= set(table.index)
    assert "cross_validation" not in table.index
    rec = table.attrs["recommended"]
    assert rec in table.index
    checks = table.attrs["fit_checks"]
    if not checks["parametric"].passed:
        assert not rec.startswith("binormal")
    assert isinstance(table.attrs["recommendation"], str)


def test_recommendation_never_picks_a_failed_model():
    from bayes_prc.bayes import FitCheck
    from bayes_prc.compare import recommend_interval

    def check(ok, model):
        return FitCheck(0.5 if ok else 0.001, ok, 0.05, 1.0, 1.0, 10, model, "")

    rows = ["semiparametric_eti", "binormal_eti", "logit", "bayesian_bootstrap"]
    fails = {"semiparametric": check(False, "semiparametric"), "parametric": check(True, "p")}
    assert recommend_interval(rows, fails, 50)[0] == "logit"
    assert recommend_interval(rows, {"semiparametric": check(True, "s")}, 50)[0] == (
        "semiparametric_eti"
    )
    only_param = {"parametric": check(False, "parametric")}
    assert recommend_interval(["binormal_eti", "logit"], only_param, 50)[0] == "logit"
