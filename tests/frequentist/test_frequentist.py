"""Tests of :mod:`bayes_prc.frequentist`: AP intervals, precision/recall intervals, bands.

References: scikit-learn (``average_precision_score``, ``confusion_matrix``,
``precision_recall_curve``) on explicit resamples, ``bayes_prc.intervals`` on the
confusion-matrix counts, a direct ``brentq`` inversion of the binomial likelihood-ratio
test, numerical integration of the mc_npv recall distribution, and Efron's BCa formulas
written out in the test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import integrate, optimize, stats
from sklearn.metrics import average_precision_score, confusion_matrix, precision_recall_curve

import bayes_prc.frequentist as fq
from bayes_prc import AUC_PR_ESTIMATORS, UndefinedMetricWarning, auc_pr
from bayes_prc import bootstrap as bs
from bayes_prc.binormal import Binormal
from bayes_prc.frequentist._ap import _stratified_folds
from bayes_prc.intervals import (
    PROPORTION_METHODS,
    ConfidenceInterval,
    IntervalResult,
    logit_interval,
    proportion_interval,
    wald_interval,
)

TOL = 1e-12


def _seed(rng):
    return int(rng.integers(2**31))


def _binormal(rng, n=300, prevalence=0.3, mu=1.0):
    y, s = Binormal(mu, 1.0, 0.0, 1.0, prevalence).sample(n, random_seed=rng)
    y[:2] = [1, 0]
    return y, s


# --------------------------------------------------------------------------------------
# ap_interval
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("estimator", AUC_PR_ESTIMATORS)
def test_interval_contains_estimate_for_every_method(rng, estimator):
    """low <= estimate <= high, for every method.

    300 items, ~90 positives: the estimate is far inside every bootstrap-type interval (no
    failure in 100 simulated data sets per estimator). The cross-validation interval is
    centred on its own estimate, the mean of the fold estimates (30 items each), which
    for the optimistic estimators differs from the full-data value.
    """
    y, s = _binormal(rng)
    seed = _seed(rng)
    for method in fq.AP_INTERVAL_METHODS:
        res = fq.ap_interval(
            y, s, method=method, estimator=estimator, n_resamples=200, random_seed=seed
        )
        if method == "cross_validation":
            # Boyd et al.'s CV estimate is the mean of the fold estimates
            assert res.estimate == pytest.approx(res.fold_estimates.mean(), abs=TOL)
        else:
            assert res.estimate == pytest.approx(auc_pr(y, s, estimator=estimator), abs=TOL)
        assert 0.0 <= res.low <= res.high <= 1.0
        assert res.low <= res.estimate <= res.high, method
        assert res.method == method and res.estimator == estimator
        assert res.confidence_interval == ConfidenceInterval(res.low, res.high)
        assert isinstance(res, IntervalResult)


def test_bootstrap_distribution_equals_sklearn_on_explicit_indices(rng):
    y, s = _binormal(rng, n=120)
    s = np.round(s, 1)  # ties, duplicated in the resamples
    seed = _seed(rng)
    res = fq.ap_interval(y, s, method="bootstrap", n_resamples=80, random_seed=seed)
    idx = bs.stratified_indices(y, 80, random_seed=seed)
    ref = np.array([average_precision_score(y[i], s[i]) for i in idx])
    np.testing.assert_allclose(res.bootstrap_distribution, ref, rtol=0, atol=TOL)
    low, high = np.quantile(ref, [0.025, 0.975])
    assert res.low == pytest.approx(low, abs=TOL) and res.high == pytest.approx(high, abs=TOL)
    assert res.standard_error == pytest.approx(np.std(ref, ddof=1), abs=TOL)
    assert res.n_resamples == 80


def test_bayesian_bootstrap_equals_sklearn_with_dirichlet_weights(rng):
    y, s = _binormal(rng, n=100)
    seed = _seed(rng)
    res = fq.ap_interval(y, s, method="bayesian_bootstrap", n_resamples=60, random_seed=seed)
    w = bs.dirichlet_weights(y.shape[0], 60, random_seed=seed)
    ref = np.array([average_precision_score(y, s, sample_weight=wi) for wi in w])
    np.testing.assert_allclose(res.bootstrap_distribution, ref, rtol=0, atol=TOL)
    low, high = np.quantile(ref, [0.025, 0.975])
    assert res.low == pytest.approx(low, abs=TOL) and res.high == pytest.approx(high, abs=TOL)


def test_bca_equals_efron_with_brute_force_jackknife(rng):
    """BCa from the returned distribution and a brute-force scikit-learn jackknife."""
    y, s = _binormal(rng, n=50)
    seed = _seed(rng)
    res = fq.ap_interval(y, s, method="bca", n_resamples=300, random_seed=seed)
    dist = res.bootstrap_distribution
    theta = average_precision_score(y, s)
    jack = np.array([average_precision_score(np.delete(y, i), np.delete(s, i)) for i in range(50)])
    strata = [jack[y == 1], jack[y == 0]]
    if np.any(np.abs(dist - theta) < 1e-9):
        pytest.skip("a replicate ties with the estimate; the half-count convention is tested")
    z0 = stats.norm.ppf(np.mean(dist < theta))
    num = sum(np.sum(((t.size - 1) * (t.mean() - t)) ** 3) / t.size**3 for t in strata)
    den = sum(np.sum(((t.size - 1) * (t.mean() - t)) ** 2) / t.size**2 for t in strata)
    a = num / (6 * den**1.5)
    ends = []
    for q in (0.025, 0.975):
        zq = stats.norm.ppf(q)
        ends.append(np.quantile(dist, stats.norm.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))))
    assert res.low == pytest.approx(ends[0], abs=1e-10)
    assert res.high == pytest.approx(ends[1], abs=1e-10)


def test_bca_other_estimator_uses_its_own_jackknife(rng):
    y, s = _binormal(rng, n=60)
    seed = _seed(rng)
    res = fq.ap_interval(
        y, s, method="bca", estimator="lower_trapezoid", n_resamples=200, random_seed=seed
    )
    jack = bs.jackknife_values(y, s, estimator="lower_trapezoid")
    ref = bs.bca_interval(res.estimate, res.bootstrap_distribution, [jack[y == 1], jack[y == 0]])
    assert res.low == pytest.approx(ref.low, abs=TOL)
    assert res.high == pytest.approx(ref.high, abs=TOL)


@pytest.mark.parametrize("method", ["binomial", "logit"])
def test_binomial_and_logit_use_number_of_positives(rng, method):
    y, s = _binormal(rng)
    level = float(rng.uniform(0.5, 0.99))
    res = fq.ap_interval(y, s, method=method, estimator="lower_trapezoid", confidence_level=level)
    est = auc_pr(y, s, estimator="lower_trapezoid")
    ref = (wald_interval if method == "binomial" else logit_interval)(
        est, int(y.sum()), confidence_level=level
    )
    assert res.low == pytest.approx(ref.low, abs=TOL)
    assert res.high == pytest.approx(ref.high, abs=TOL)
    assert res.standard_error == pytest.approx(np.sqrt(est * (1 - est) / y.sum()), abs=TOL)
    assert res.bootstrap_distribution is None and res.n_resamples is None
    assert res.n_positives == y.sum() and res.n_negatives == (y == 0).sum()


def test_cross_validation_interval(rng):
    y, s = _binormal(rng, n=400)
    seed = _seed(rng)
    res = fq.ap_interval(y, s, method="cross_validation", n_folds=8, random_seed=seed)
    f = res.fold_estimates
    assert f.shape == (8,)
    half = stats.t.ppf(0.975, 7) * np.std(f, ddof=1) / np.sqrt(8)
    assert res.low == pytest.approx(max(0.0, f.mean() - half), abs=TOL)
    assert res.high == pytest.approx(min(1.0, f.mean() + half), abs=TOL)
    assert res.standard_error == pytest.approx(np.std(f, ddof=1) / np.sqrt(8), abs=TOL)
    # each fold's value is AP on a class-stratified eighth of the data: the fold sizes
    # differ by at most one per class, so some subset of that shape reproduces each value
    again = fq.ap_interval(y, s, method="cross_validation", n_folds=8, random_seed=seed)
    np.testing.assert_array_equal(again.fold_estimates, f)
    fold = _stratified_folds(y == 1, 8, np.random.default_rng(seed))
    for k in range(8):
        counts = np.bincount(y[fold == k], minlength=2)
        assert abs(counts[1] - y.sum() / 8) < 1 and abs(counts[0] - (y == 0).sum() / 8) < 1
        assert f[k] == pytest.approx(average_precision_score(y[fold == k], s[fold == k]), abs=TOL)


def test_ap_interval_result_is_frozen_and_named(rng):
    y, s = _binormal(rng, n=100)
    res = fq.ap_interval(y, s)
    with pytest.raises(AttributeError):
        res.low = 0.0
    assert "bootstrap_distribution" not in repr(res)
    assert res.width == pytest.approx(res.high - res.low)


@pytest.mark.parametrize("method", fq.AP_INTERVAL_METHODS)
def test_perfect_ranking_stays_in_unit_interval(method):
    # 20 positives ranked first: AP sums to 1 + 2e-16 in floating point
    y = np.r_[np.ones(20, dtype=int), np.zeros(5, dtype=int)]
    s = -np.arange(25.0)
    res = fq.ap_interval(y, s, method=method, n_resamples=50, n_folds=2, random_seed=0)
    assert 0.0 <= res.low <= res.estimate == 1.0 <= res.high <= 1.0
    if res.bootstrap_distribution is not None:
        assert np.all(res.bootstrap_distribution <= 1.0)


def test_ap_interval_string_labels(rng):
    y, s = _binormal(rng, n=100)
    labels = np.where(y == 1, "yes", "no")
    a = fq.ap_interval(labels, s, pos_label="yes", method="binomial")
    b = fq.ap_interval(y, s, method="binomial")
    assert a.low == b.low and a.high == b.high


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "percentile"}, r"`method` must be one of .* got 'percentile'"),
        ({"method": "Logit"}, r"`method` .* got 'Logit'"),
        ({"estimator": "auc"}, r"`estimator` must be one of .* got 'auc'"),
        ({"confidence_level": 1.0}, r"`confidence_level` must be a number in \(0, 1\); got 1.0"),
        ({"confidence_level": 0}, r"`confidence_level` .* got 0"),
        ({"confidence_level": float("nan")}, r"`confidence_level` .* got nan"),
        ({"n_resamples": 0}, r"`n_resamples` must be an integer >= 1; got 0"),
        ({"n_folds": 1}, r"`n_folds` must be an integer >= 2; got 1"),
        ({"method": "cross_validation", "n_folds": 500}, r"`n_folds` .* got 500"),
        ({"random_seed": 1.5, "method": "bootstrap"}, r"`random_seed` .* got 1.5"),
        ({"progressbar": 1}, r"`progressbar` .* got 1"),
    ],
)
def test_ap_interval_validation(rng, kwargs, match):
    y, s = _binormal(rng, n=100)
    with pytest.raises(ValueError, match=match):
        fq.ap_interval(y, s, **kwargs)


def test_ap_interval_without_positives_raises(rng):
    with pytest.raises(ValueError, match="`y_true` has no positive"):
        fq.ap_interval(np.zeros(10, dtype=int), rng.normal(size=10))


# --------------------------------------------------------------------------------------
# precision and recall at a threshold
# --------------------------------------------------------------------------------------
def _threshold(rng, s):
    return float(np.quantile(s, rng.uniform(0.2, 0.8)))


def test_counts_equal_confusion_matrix(rng):
    y, s = _binormal(rng, n=200)
    t = _threshold(rng, s)
    res = fq.precision_interval(y, s, t)
    tn, fp, fn, tp = confusion_matrix(y, (s >= t).astype(int)).ravel()
    assert (res.tp, res.fp, res.tn, res.fn) == (tp, fp, tn, fn)
    res = fq.recall_interval(y, s, t)
    assert (res.tp, res.fp, res.tn, res.fn) == (tp, fp, tn, fn)
    assert res.threshold == t


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_proportion_methods_equal_proportion_interval(rng, method):
    y, s = _binormal(rng, n=150)
    t = _threshold(rng, s)
    level = float(rng.uniform(0.5, 0.99))
    p = fq.precision_interval(y, s, t, method=method, confidence_level=level)
    ref = proportion_interval(p.tp, p.tp + p.fp, method=method, confidence_level=level)
    assert (p.estimate, p.low, p.high) == (ref.estimate, ref.low, ref.high)
    r = fq.recall_interval(y, s, t, method=method, confidence_level=level)
    ref = proportion_interval(r.tp, r.tp + r.fn, method=method, confidence_level=level)
    assert (r.estimate, r.low, r.high) == (ref.estimate, ref.low, ref.high)
    assert p.metric == "precision" and r.metric == "recall"


def test_likelihood_ratio_precision_equals_brentq(rng):
    y, s = _binormal(rng, n=200)
    t = _threshold(rng, s)
    res = fq.precision_interval(y, s, t, method="likelihood_ratio", confidence_level=0.9)
    k, n = res.tp, res.tp + res.fp
    assert 0 < k < n
    crit = stats.chi2.ppf(0.9, 1)
    p_hat = k / n

    def lr(p):
        return 2 * (k * np.log(p_hat / p) + (n - k) * np.log((1 - p_hat) / (1 - p))) - crit

    low = optimize.brentq(lr, 1e-12, p_hat, xtol=1e-15)
    high = optimize.brentq(lr, p_hat, 1 - 1e-12, xtol=1e-15)
    assert res.low == pytest.approx(low, abs=1e-9)
    assert res.high == pytest.approx(high, abs=1e-9)


@pytest.mark.parametrize("metric", ["precision", "recall"])
def test_bootstrap_threshold_interval(rng, metric):
    """The stratified bootstrap of the counts: TP* ~ Bin(P, TP/P), FP* ~ Bin(N, FP/N).

    Reference: the exact resampling distribution of the replicate counts, compared by
    moments (mean within 6 standard errors of the Monte Carlo mean).
    """
    y, s = _binormal(rng, n=200)
    t = _threshold(rng, s)
    fn_ = fq.precision_interval if metric == "precision" else fq.recall_interval
    seed = _seed(rng)
    res = fn_(y, s, t, method="bootstrap", n_resamples=4000, random_seed=seed)
    again = fn_(y, s, t, method="bootstrap", n_resamples=4000, random_seed=seed)
    np.testing.assert_array_equal(res.distribution, again.distribution)
    d = res.distribution
    assert res.n_draws == 4000 and d.shape == (4000,)
    assert res.low == pytest.approx(np.quantile(d, 0.025)) and res.high == pytest.approx(
        np.quantile(d, 0.975)
    )
    if metric == "recall":
        p = res.tp / (res.tp + res.fn)
        sd = np.sqrt(p * (1 - p) / (res.tp + res.fn))
        assert abs(d.mean() - p) < 6 * sd / np.sqrt(4000)
        assert d.std() == pytest.approx(sd, rel=0.1)
    else:
        # explicit stratified resamples: same distribution (two-sample KS, p > 1e-4)
        idx = bs.stratified_indices(y, 800, random_seed=seed)
        pred = s >= t
        explicit = [np.sum(y[i] * pred[i]) / np.sum(pred[i]) for i in idx if pred[i].any()]
        assert stats.ks_2samp(d[np.isfinite(d)], explicit).pvalue > 1e-4
    assert res.low <= res.estimate <= res.high


def _mc_npv_quantile(q, tp, fp, tn, fn):
    """Quantile of R = prec Np / (prec Np + (1 - npv) Nn) by numerical integration."""
    n_p, n_n = tp + fp, tn + fn
    prec = stats.beta(tp + 0.5, fp + 0.5)
    miss = stats.beta(fn + 0.5, tn + 0.5)  # 1 - NPV

    def cdf(r):
        # R <= r  <=>  prec <= r (1 - npv) Nn / ((1 - r) Np)
        def f(u):
            return prec.cdf(r * u * n_n / ((1 - r) * n_p)) * miss.pdf(u)

        return integrate.quad(f, 0, 1, limit=200, epsabs=1e-11)[0]

    return optimize.brentq(lambda r: cdf(r) - q, 1e-9, 1 - 1e-9, xtol=1e-10)


def _data_from_counts(tp, fp, tn, fn):
    y = np.r_[np.ones(tp), np.zeros(fp), np.zeros(tn), np.ones(fn)].astype(int)
    s = np.r_[np.ones(tp + fp), np.zeros(tn + fn)]
    return y, s


def test_mc_npv_converges_to_quadrature_reference(rng):
    tp, fp, tn, fn = 30, 10, 50, 10
    y, s = _data_from_counts(tp, fp, tn, fn)
    res = fq.recall_interval(
        y, s, 0.5, method="mc_npv", n_draws=200_000, random_seed=_seed(rng), confidence_level=0.9
    )
    # Monte Carlo SE of a 5% quantile with 2e5 draws is ~5e-4 here; tolerance 4e-3
    assert res.low == pytest.approx(_mc_npv_quantile(0.05, tp, fp, tn, fn), abs=4e-3)
    assert res.high == pytest.approx(_mc_npv_quantile(0.95, tp, fp, tn, fn), abs=4e-3)
    assert res.low < res.estimate == 0.75 < res.high


def test_mc_npv_is_deterministic_given_seed(rng):
    y, s = _binormal(rng, n=150)
    t = _threshold(rng, s)
    seed = _seed(rng)
    a = fq.recall_interval(y, s, t, method="mc_npv", n_draws=500, random_seed=seed)
    b = fq.recall_interval(y, s, t, method="mc_npv", n_draws=500, random_seed=seed)
    np.testing.assert_array_equal(a.distribution, b.distribution)
    assert (a.low, a.high) == (b.low, b.high) and a.n_draws == 500
    assert a.low <= a.estimate <= a.high


def test_mc_npv_boundaries(rng):
    # no false negative: NPV is exactly 1 in the data, so the upper end is 1
    y, s = _data_from_counts(12, 5, 40, 0)
    res = fq.recall_interval(y, s, 0.5, method="mc_npv", random_seed=_seed(rng))
    assert res.estimate == 1.0 and res.high == 1.0 and res.low < 1.0
    # no true positive: the lower end is 0
    y, s = _data_from_counts(0, 5, 40, 7)
    res = fq.recall_interval(y, s, 0.5, method="mc_npv", random_seed=_seed(rng))
    assert res.estimate == 0.0 and res.low == 0.0 and res.high > 0.0
    # nothing predicted positive: every simulated recall is 0
    y, s = _data_from_counts(0, 0, 40, 7)
    with pytest.warns(UndefinedMetricWarning, match="predicted negative"):
        res = fq.recall_interval(y, s, 0.5, method="mc_npv", random_seed=_seed(rng))
    assert (res.low, res.estimate, res.high) == (0.0, 0.0, 0.0)
    # everything predicted positive: every simulated recall is 1
    y, s = _data_from_counts(7, 40, 0, 0)
    with pytest.warns(UndefinedMetricWarning, match="predicted positive"):
        res = fq.recall_interval(y, s, 0.5, method="mc_npv", random_seed=_seed(rng))
    assert (res.low, res.estimate, res.high) == (1.0, 1.0, 1.0)


def test_undefined_precision_and_recall_warn(rng):
    y, s = _binormal(rng, n=50)
    with pytest.warns(UndefinedMetricWarning, match="precision is undefined"):
        res = fq.precision_interval(y, s, np.inf)
    assert np.isnan(res.estimate) and (res.low, res.high) == (0.0, 1.0)
    assert res.tp == 0 and res.fp == 0
    with pytest.warns(UndefinedMetricWarning, match="recall is undefined"):
        res = fq.recall_interval(np.zeros(5, dtype=int), np.arange(5.0), 2.0)
    assert np.isnan(res.estimate)
    # -inf: everything predicted positive, precision = prevalence
    res = fq.precision_interval(y, s, -np.inf)
    assert res.estimate == pytest.approx(y.mean())


def test_bootstrap_precision_drops_undefined_replicates():
    # one positive and one negative above the threshold out of 40: some resamples have
    # no item above the threshold
    y = np.r_[1, 0, np.ones(5, dtype=int), np.zeros(33, dtype=int)]
    s = np.r_[1.0, 1.0, np.zeros(38)]
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        res = fq.precision_interval(y, s, 0.5, method="bootstrap", n_resamples=2000, random_seed=0)
    assert any("left out" in str(w.message) for w in rec)
    assert np.isnan(res.distribution).any()
    assert 0.0 <= res.low <= res.estimate <= res.high <= 1.0


@pytest.mark.parametrize(
    ("fn", "kwargs", "match"),
    [
        ("precision_interval", {"threshold": float("nan")}, r"`threshold` .* not NaN; got nan"),
        ("recall_interval", {"threshold": "0.5"}, r"`threshold` must be a real number; got '0.5'"),
        ("precision_interval", {"threshold": True}, r"`threshold` .* got True"),
        ("precision_interval", {"threshold": 0.0, "method": "mc_npv"}, r"`method` .* 'mc_npv'"),
        ("recall_interval", {"threshold": 0.0, "method": "exact"}, r"`method` .* got 'exact'"),
        ("recall_interval", {"threshold": 0.0, "n_draws": 0}, r"`n_draws` .* got 0"),
        ("precision_interval", {"threshold": 0.0, "confidence_level": 2}, r"`confidence_level`"),
        ("precision_interval", {"threshold": 0.0, "n_resamples": -3}, r"`n_resamples` .* -3"),
    ],
)
def test_threshold_interval_validation(rng, fn, kwargs, match):
    y, s = _binormal(rng, n=50)
    threshold = kwargs.pop("threshold")
    with pytest.raises(ValueError, match=match):
        getattr(fq, fn)(y, s, threshold, **kwargs)


# --------------------------------------------------------------------------------------
# bands
# --------------------------------------------------------------------------------------
def _step_precision(y, s, r):
    """Precision at the highest threshold whose recall reaches r (r = 0: recall > 0)."""
    p, rec, _ = precision_recall_curve(y, s)
    p, rec = p[:-1], rec[:-1]  # drop the artificial point; increasing thresholds
    ok = np.flatnonzero(rec >= r) if r > 0 else np.flatnonzero(rec > 0)
    return p[ok.max()]


def test_recall_band_replicates_equal_sklearn_curves(rng):
    y, s = _binormal(rng, n=80)
    s = np.round(s, 1)
    seed = _seed(rng)
    grid = np.r_[0.0, rng.uniform(0, 1, 8), 1.0, 0.5]
    band = fq.bootstrap_pr_band(
        y, s, n_resamples=15, grid_points=grid, random_seed=seed, confidence_level=0.8
    )
    idx = bs.stratified_indices(y, 15, random_seed=seed)
    ref = np.array([[_step_precision(y[i], s[i], r) for r in grid] for i in idx])
    np.testing.assert_allclose(band.precision.values, ref, rtol=0, atol=TOL)
    est = [_step_precision(y, s, r) for r in grid]
    np.testing.assert_allclose(band.estimate.values, est, rtol=0, atol=TOL)
    q = np.quantile(ref, [0.1, 0.5, 0.9], axis=0)
    np.testing.assert_allclose(band.lower.values, q[0], atol=TOL)
    np.testing.assert_allclose(band["median"].values, q[1], atol=TOL)
    np.testing.assert_allclose(band.upper.values, q[2], atol=TOL)
    assert band.precision.dims == ("resample", "recall")
    assert band.attrs["confidence_level"] == 0.8 and band.attrs["over"] == "recall"
    assert band.attrs["grid"] == "recall"  # the attribute's former name, kept
    assert "stratified bootstrap" in band.attrs["method"]


def test_recall_step_curve_integrates_to_ap(rng):
    # on the grid k / P (k = 1..P) the step curve averages to AP exactly
    y, s = _binormal(rng, n=120)
    s = np.round(s, 1)
    n_pos = int(y.sum())
    grid = np.arange(1, n_pos + 1) / n_pos
    band = fq.bootstrap_pr_band(y, s, n_resamples=3, grid_points=grid, random_seed=0)
    assert band.estimate.values.mean() == pytest.approx(average_precision_score(y, s), abs=TOL)


def test_threshold_band_is_seed_001_recipe(rng):
    y, s = _binormal(rng, n=90)
    seed = _seed(rng)
    band = fq.bootstrap_pr_band(
        y, s, over="threshold", n_resamples=12, grid_points=25, random_seed=seed
    )
    grid = band.threshold.values
    np.testing.assert_allclose(grid, np.linspace(s.min(), s.max(), 25))
    idx = bs.stratified_indices(y, 12, random_seed=seed)
    for r, i in enumerate(idx):
        p, rec, t = precision_recall_curve(y[i], s[i])
        np.testing.assert_allclose(band.precision.values[r], np.interp(grid, t, p[:-1]), atol=TOL)
        np.testing.assert_allclose(band.recall.values[r], np.interp(grid, t, rec[:-1]), atol=TOL)
    np.testing.assert_allclose(band["mean"].values, band.precision.values.mean(axis=0))
    np.testing.assert_allclose(band.recall_std.values, band.recall.values.std(axis=0, ddof=1))
    assert band.recall.dims == ("resample", "threshold")
    ds = band.drop_dims("resample").to_dataframe()
    assert len(ds) == 25


def test_band_ordering_and_validation(rng):
    y, s = _binormal(rng, n=100)
    band = fq.bootstrap_pr_band(y, s, n_resamples=50, random_seed=_seed(rng))
    assert band.sizes == {"resample": 50, "recall": 101}
    assert np.all(band.lower <= band["median"]) and np.all(band["median"] <= band.upper)
    with pytest.raises(ValueError, match=r"`over` must be one of .* got 'fpr'"):
        fq.bootstrap_pr_band(y, s, over="fpr")
    with pytest.raises(ValueError, match=r"`grid_points` .* got 1"):
        fq.bootstrap_pr_band(y, s, grid_points=1)
    with pytest.raises(ValueError, match=r"`grid_points` \(recall values\) must lie in \[0, 1\]"):
        fq.bootstrap_pr_band(y, s, grid_points=[0.5, 1.5])
    with pytest.raises(ValueError, match=r"`n_resamples` .* got 0"):
        fq.bootstrap_pr_band(y, s, n_resamples=0)
    with pytest.raises(ValueError, match="no positive"):
        fq.bootstrap_pr_band(np.zeros(5, dtype=int), np.arange(5.0))


def test_weighted_logit_interval_uses_kish_effective_positives():
    # reference: sklearn's weighted AP for the estimate; Kish's formula and the unweighted
    # logit interval (equal weights, any scale) for the interval
    from sklearn.metrics import average_precision_score

    from bayes_prc.binormal import Binormal
    from bayes_prc.frequentist import ap_interval

    y, s = Binormal(1.0, 1.0, 0.0, 1.0, 0.3).sample(400, random_seed=3)
    w = np.random.default_rng(4).gamma(2.0, size=400)
    res = ap_interval(y, s, method="logit", sample_weight=w)
    assert res.estimate == pytest.approx(average_precision_score(y, s, sample_weight=w), abs=1e-12)
    wp = w[np.asarray(y) == 1]
    n_eff = wp.sum() ** 2 / np.sum(wp**2)
    from bayes_prc.intervals import logit_interval

    ref = logit_interval(res.estimate, n_eff, confidence_level=0.95)
    assert (res.low, res.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    flat = ap_interval(y, s, method="binomial", sample_weight=np.full(400, 7.0))
    plain = ap_interval(y, s, method="binomial")
    assert (flat.low, flat.high) == pytest.approx((plain.low, plain.high), abs=1e-12)
    for method in ("bootstrap", "bca", "bayesian_bootstrap", "cross_validation"):
        with pytest.raises(ValueError, match=f"method={method!r}"):
            ap_interval(y, s, method=method, sample_weight=w)


def test_bootstrap_pr_band_grid_is_a_deprecated_alias_of_over():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0, 0, 1])
    s = np.linspace(0.0, 1.0, 10)
    new = fq.bootstrap_pr_band(y, s, over="threshold", n_resamples=20, random_seed=3)
    with pytest.warns(DeprecationWarning, match="use over="):
        old = fq.bootstrap_pr_band(y, s, grid="threshold", n_resamples=20, random_seed=3)
    assert new.identical(old)
    with pytest.raises(ValueError, match="`over` must be one of"):
        fq.bootstrap_pr_band(y, s, over="precision")
