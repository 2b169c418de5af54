"""Issue 39 item 1: constant and heavily tied scores.

References: scikit-learn's ``average_precision_score`` / ``roc_auc_score`` (the tied step
curve, ties grouped), evaluated *exactly* on the population of a posterior draw by
enumeration (one weighted item per class and score value, weight = the class's
probability of that value, from scipy's normal CDF at the draw's cutpoints): agreement to
1e-10 (float rounding of sums of at most 20 terms). Jeffreys' interval from scipy's beta
quantiles (1e-12).
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

import bayes_prc as bp
from bayes_prc.bayes._tied import discrete_values


def _discrete(rng, n, n_values, prevalence=0.3, shift=1.2):
    """Latent binormal scores cut into ``n_values`` values, every value in both classes."""
    y = (rng.random(n) < prevalence).astype(int)
    y[: 2 * n_values] = np.tile([0, 1], n_values)
    z = np.where(y == 1, rng.normal(shift, 1.0, n), rng.normal(0.0, 1.0, n))
    cuts = np.quantile(z, np.arange(1, n_values) / n_values)
    cat = np.searchsorted(cuts, z)
    cat[: 2 * n_values] = np.repeat(np.arange(n_values), 2)  # both classes in each value
    return y, 0.1 + 0.8 * cat / max(n_values - 1, 1)


def _population_of_draw(post, i):
    """Each value's class probabilities under draw ``i`` (scipy, not the library's code)."""
    post_ds = post.idata["posterior"]
    mu = float(post_ds["mu_pos"].values.ravel()[i])
    sd = float(post_ds["sigma_pos"].values.ravel()[i])
    pi = float(post_ds["prevalence"].values.ravel()[i])
    cuts = post._cutpoints.reshape(-1, post._cutpoints.shape[-1])[i]
    edges = np.r_[-np.inf, cuts, np.inf]
    p = np.diff(stats.norm.cdf(edges, mu, sd))
    q = np.diff(stats.norm.cdf(edges))
    return pi, p, q


@pytest.mark.parametrize("n_values", [2, 5])
def test_tied_ap_and_auc_per_draw_equal_sklearn_on_the_population(rng, n_values):
    y, s = _discrete(rng, 200, n_values)
    post = bp.fit_binormal(y, s, random_seed=int(rng.integers(2**31)), draws=100, chains=2)
    np.testing.assert_array_equal(post.tied_values, np.unique(s))
    assert post.ordinal.n_categories == n_values  # each value its own category
    ap = post.average_precision().values.ravel()
    auc = post.roc_auc().values.ravel()
    values = np.unique(s)
    for i in rng.choice(ap.size, 5, replace=False):
        pi, p, q = _population_of_draw(post, i)
        yy = np.r_[np.ones(n_values), np.zeros(n_values)]
        ss = np.r_[values, values]
        w = np.r_[pi * p, (1 - pi) * q]
        assert ap[i] == pytest.approx(average_precision_score(yy, ss, sample_weight=w), abs=1e-10)
        assert auc[i] == pytest.approx(roc_auc_score(yy, ss, sample_weight=w), abs=1e-10)
    # another prevalence: the same enumeration at that prevalence
    alt = post.average_precision(prevalence=0.05).values.ravel()
    pi, p, q = _population_of_draw(post, 0)
    w = np.r_[0.05 * p, 0.95 * q]
    ref = average_precision_score(
        np.r_[np.ones(n_values), np.zeros(n_values)], np.r_[values, values], sample_weight=w
    )
    assert alt[0] == pytest.approx(ref, abs=1e-10)


def test_discrete_rule():
    n = 200
    assert discrete_values(np.repeat(np.arange(50.0), 4)) is not None  # 50 = n / 4 values
    assert discrete_values(np.r_[np.repeat(np.arange(50.0), 4)[:-1], 99.0]) is None  # 51
    s = np.linspace(0, 1, n)
    s[1] = s[0]  # a stray tie among continuous scores changes nothing
    assert discrete_values(s) is None
    assert discrete_values(np.full(n, 0.3)) is None  # constant: no curve at all


def test_continuous_scores_keep_the_latent_ap(rng):
    y = (rng.random(120) < 0.4).astype(int)
    y[:2], y[2:4] = 1, 0
    s = rng.normal(size=120) + y
    s[5] = s[6]  # a stray tie
    post = bp.fit_binormal(y, s, random_seed=int(rng.integers(2**31)), draws=100, chains=2)
    assert post.tied_values is None
    np.testing.assert_allclose(
        post.average_precision().values, post.model.average_precision(), rtol=0, atol=1e-12
    )


@pytest.fixture(scope="module")
def constant(rng_for):
    rng = rng_for("constant")
    y = (rng.random(200) < 0.115).astype(int)
    y[:3], y[3:6] = 1, 0
    return y, np.full(200, 0.3)


def test_constant_scores_ap_table(constant):
    y, s = constant
    tab = bp.compare_intervals(y, s, ci_prob=0.9, random_seed=1, n_resamples=100)
    assert tab.attrs["recommended"] == "prevalence"
    assert "prevalence" in tab.attrs["recommendation"]
    row = tab.loc["prevalence"]
    k, n = int(y.sum()), y.size
    lo, hi = stats.beta.ppf([0.05, 0.95], k + 0.5, n - k + 0.5)
    assert row["estimate"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert (row["low"], row["high"]) == pytest.approx((lo, hi), abs=1e-12)
    # no model row was fit to data without ranks
    assert not any(m.startswith(("semiparametric", "binormal")) for m in tab.index)
    assert {"semiparametric", "parametric"} <= set(tab.attrs["notes"])
    # zero-width resampling rows: marked, never recommended
    for m in ("bootstrap", "bca"):
        assert tab.loc[m, "width"] == 0 and tab.loc[m, "note"].startswith("degenerate")
    assert tab.loc["prevalence", "note"] == ""
    assert row["width"] > 0


def test_constant_scores_auc_table(constant):
    y, s = constant
    tab = bp.compare_intervals(y, s, metric="roc_auc", ci_prob=0.9, random_seed=1, n_resamples=100)
    assert tab.attrs["recommended"] == "all_tied"
    row = tab.loc["all_tied"]
    assert row["estimate"] == roc_auc_score(y, s) == 0.5
    assert (row["low"], row["high"]) == (0.5, 0.5)  # exact: no sampling uncertainty
    for m in ("delong", "bootstrap"):
        assert tab.loc[m, "note"].startswith("degenerate")


@pytest.mark.parametrize("model", ["parametric", "semiparametric", "flexible", "contaminated"])
def test_every_model_refuses_constant_scores(constant, model):
    y, s = constant
    with pytest.raises(ValueError, match=r"`y_score` has a single distinct value \(0\.3\)"):
        bp.fit_binormal(y, s, model=model)


def test_paired_models_refuse_a_constant_score(constant, rng):
    y, s = constant
    a = rng.normal(size=y.size) + y
    with pytest.raises(ValueError, match=r"`score_b` has a single distinct value: all its"):
        bp.compare_classifiers(y, a, s, random_seed=0)
    res = bp.compare_classifiers(y, a, s, method="bootstrap", random_seed=0, n_resamples=100)
    assert res.value_b == pytest.approx(y.mean(), abs=1e-12)  # the constant's AP
    assert res.high > res.low


def test_separated_zero_width_rows_are_marked(rng):
    y = np.r_[np.zeros(30), np.ones(10)].astype(int)
    s = np.r_[rng.random(30), 2 + rng.random(10)]
    tab = bp.compare_intervals(y, s, ci_prob=0.9, random_seed=1, n_resamples=100)
    assert tab.loc["bootstrap", "note"].startswith("degenerate")
    rec = tab.loc[tab.attrs["recommended"]]
    assert rec["width"] > 0 and rec["note"] == ""


@pytest.mark.parametrize("n_values", [2, 5])
def test_tied_scores_recommended_row(rng, n_values):
    """The deterministic part of benchmarks/coverage_ties.py (coverage: docs/coverage.md)."""
    y, s = _discrete(rng, 200, n_values)
    tab = bp.compare_intervals(
        y, s, ci_prob=0.9, random_seed=int(rng.integers(2**31)), n_resamples=100
    )
    rec = tab.loc[tab.attrs["recommended"]]
    assert rec["width"] > 0 and rec["note"] == ""
    assert tab.attrs["recommended"] == "discrete_eti"
    assert f"only {n_values} distinct values" in tab.attrs["recommendation"]


def test_discrete_posterior_concentrates_on_sklearns_tied_ap(rng):
    """With 1e5 items the saturated model's AP draws sit at the sample's tied AP
    (scikit-learn, ties grouped): posterior sd about 2e-3, so |median - AP| < 0.01."""
    y, s = _discrete(rng, 100_000, 5)
    draws = bp.bayes.discrete_ap_draws(y == 1, s, np.unique(s), draws=2000, rng=rng)
    assert np.median(draws) == pytest.approx(average_precision_score(y, s), abs=0.01)
    assert np.std(draws) < 0.005


def test_continuous_scores_get_no_discrete_row(rng):
    y = (rng.random(120) < 0.4).astype(int)
    y[:2], y[2:4] = 1, 0
    tab = bp.compare_intervals(y, rng.normal(size=120) + y, random_seed=0, n_resamples=50)
    assert "discrete_eti" not in tab.index
