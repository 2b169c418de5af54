"""Tests of :func:`operating_point_interval` and :func:`precision_at_k_interval`.

References: scikit-learn's metrics on the thresholded predictions (point estimates),
statsmodels' ``proportion_confint`` (binomial rows), a finite-difference delta method
written out here (standard errors), scipy's Beta quantiles and Dirichlet draws made here
(Bayesian rows), explicit item resamples replayed from the same seed (bootstrap), the
enumeration of every tie-breaking (ties at place k), and simulation from a binormal
model whose population F1 is known in closed form (coverage).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

import bayes_prc
import bayes_prc.frequentist as fq
from bayes_prc import UndefinedMetricWarning, precision_at_k
from bayes_prc.binormal import Binormal
from bayes_prc.empirical import as_ranked
from bayes_prc.frequentist import operating_point_interval, precision_at_k_interval
from bayes_prc.intervals import proportion_interval

METRICS = fq.OPERATING_POINT_METRICS
PROPORTIONS = ("accuracy", "precision", "recall", "specificity", "npv", "fpr")


def _seed(rng):
    return int(rng.integers(2**31))


def _data(rng, n=300, prevalence=0.3, mu=1.5):
    """Binormal scores; the threshold is a random score near the middle (no 0/0 at n=300)."""
    y, s = Binormal(mu, 1.0, 0.0, 1.0, prevalence).sample(n, random_seed=rng)
    y[:4] = [1, 1, 0, 0]
    s[:4] = [3.0, -3.0, 3.0, -3.0]  # every cell of the confusion matrix is occupied
    return y, s, float(np.quantile(s, rng.uniform(0.4, 0.7)))


# independent formulas of the metrics, as functions of the cells (tp, fp, tn, fn)
def _ref_metric(metric, c):
    tp, fp, tn, fn = c
    return {
        "f1": lambda: 2 * tp / (2 * tp + fp + fn),
        "mcc": lambda: (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)),
        "accuracy": lambda: (tp + tn) / (tp + fp + tn + fn),
        "balanced_accuracy": lambda: (tp / (tp + fn) + tn / (tn + fp)) / 2,
        "precision": lambda: tp / (tp + fp),
        "recall": lambda: tp / (tp + fn),
        "specificity": lambda: tn / (tn + fp),
        "npv": lambda: tn / (tn + fn),
        "fpr": lambda: fp / (fp + tn),
    }[metric]()


def _fd_delta_se(metric, cells, n, h=1e-6):
    """Delta method with a central-difference gradient and the multinomial covariance / n."""
    p = np.asarray(cells, float) / np.sum(cells)
    grad = np.empty(4)
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        grad[j] = (_ref_metric(metric, p + e) - _ref_metric(metric, p - e)) / (2 * h)
    cov = (np.diag(p) - np.outer(p, p)) / n
    return float(np.sqrt(grad @ cov @ grad))


# --------------------------------------------------------------------------------------
# point estimates
# --------------------------------------------------------------------------------------
def _sklearn_value(metric, y, pred, w=None):
    kw = {"sample_weight": w}
    if metric == "f1":
        return f1_score(y, pred, **kw)
    if metric == "mcc":
        return matthews_corrcoef(y, pred, **kw)
    if metric == "accuracy":
        return accuracy_score(y, pred, **kw)
    if metric == "balanced_accuracy":
        return balanced_accuracy_score(y, pred, **kw)
    if metric == "precision":
        return precision_score(y, pred, **kw)
    if metric == "recall":
        return recall_score(y, pred, **kw)
    if metric == "specificity":
        return recall_score(y, pred, pos_label=0, **kw)
    if metric == "npv":
        return precision_score(y, pred, pos_label=0, **kw)
    tn, fp, _, _ = confusion_matrix(y, pred, sample_weight=w).ravel()
    return fp / (fp + tn)


@pytest.mark.parametrize("metric", METRICS)
def test_estimate_equals_sklearn(rng, metric):
    """The estimate is scikit-learn's metric of ``score >= threshold``.

    Same formulas on the same counts: exactly equal without weights; with weights to
    1e-12 (the weighted cell sums are added in another order than scikit-learn's).
    """
    y, s, t = _data(rng)
    pred = (s >= t).astype(int)
    res = operating_point_interval(y, s, t, metric=metric, method="delta")
    assert res.estimate == _sklearn_value(metric, y, pred)
    cm = confusion_matrix(y, pred)
    assert (res.tn, res.fp, res.fn, res.tp) == tuple(int(v) for v in cm.ravel())
    w = rng.uniform(0.1, 3.0, size=y.shape[0])
    res_w = operating_point_interval(y, s, t, metric=metric, method="delta", sample_weight=w)
    want = _sklearn_value(metric, y, pred, w)
    assert res_w.estimate == pytest.approx(want, rel=1e-12, abs=1e-14)


# --------------------------------------------------------------------------------------
# delta method
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", METRICS)
def test_delta_se_equals_numeric_delta_method(rng, metric):
    """SE = finite-difference gradient of the metric times the multinomial covariance / n.

    Central differences with h = 1e-6 have truncation error O(h^2) and rounding error
    O(1e-16 / h): far below the tolerance 1e-6 (relative).
    """
    y, s, t = _data(rng)
    res = operating_point_interval(y, s, t, metric=metric, method="delta")
    cells = (res.tp, res.fp, res.tn, res.fn)
    want = _fd_delta_se(metric, cells, y.shape[0])
    assert res.standard_error == pytest.approx(want, rel=1e-6)
    z = stats.norm.ppf(0.975)
    lo, hi = (-1.0, 1.0) if metric == "mcc" else (0.0, 1.0)
    assert res.low == pytest.approx(max(res.estimate - z * want, lo), rel=1e-6, abs=1e-12)
    assert res.high == pytest.approx(min(res.estimate + z * want, hi), rel=1e-6, abs=1e-12)


def test_delta_f1_closed_form(rng):
    """F1's delta variance is F1 (1 - F1) (2 - F1) / (2TP + FP + FN) (to 1e-12)."""
    y, s, t = _data(rng)
    res = operating_point_interval(y, s, t)
    f = res.estimate
    assert res.method == "delta"
    want = np.sqrt(f * (1 - f) * (2 - f) / (2 * res.tp + res.fp + res.fn))
    assert res.standard_error == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("metric", METRICS)
def test_weighted_delta_is_the_linearised_variance(rng, metric):
    """With weights: sum_i (w_i / W)^2 (g . (z_i - p))^2, g by finite differences (1e-6).

    Unit weights give the unweighted SE (to 1e-12).
    """
    y, s, t = _data(rng)
    w = rng.uniform(0.2, 2.0, size=y.shape[0])
    res = operating_point_interval(y, s, t, metric=metric, method="delta", sample_weight=w)
    pred = s >= t
    cell = np.where(pred, np.where(y == 1, 0, 1), np.where(y == 1, 3, 2))
    z = np.eye(4)[cell]
    p = (w @ z) / w.sum()
    h = 1e-6
    grad = np.array(
        [
            (_ref_metric(metric, p + h * e) - _ref_metric(metric, p - h * e)) / (2 * h)
            for e in np.eye(4)
        ]
    )
    want = np.sqrt(np.sum((w / w.sum()) ** 2 * ((z - p) @ grad) ** 2))
    assert res.standard_error == pytest.approx(want, rel=1e-6)
    ones = operating_point_interval(y, s, t, metric=metric, sample_weight=np.ones(y.shape[0]))
    plain = operating_point_interval(y, s, t, metric=metric, method="delta")
    if ones.method == "delta":
        assert ones.standard_error == pytest.approx(plain.standard_error, rel=1e-12)


# --------------------------------------------------------------------------------------
# binomial-proportion rows
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", PROPORTIONS)
@pytest.mark.parametrize(
    ("method", "sm_method"), [("wilson", "wilson"), ("clopper_pearson", "beta")]
)
def test_proportion_rows_equal_statsmodels(rng, metric, method, sm_method):
    """Wilson / Clopper-Pearson rows equal statsmodels' proportion_confint (1e-12)."""
    smp = pytest.importorskip("statsmodels.stats.proportion")
    y, s, t = _data(rng)
    res = operating_point_interval(y, s, t, metric=metric, method=method)
    tp, fp, tn, fn = res.tp, res.fp, res.tn, res.fn
    k, n = {
        "accuracy": (tp + tn, tp + fp + tn + fn),
        "precision": (tp, tp + fp),
        "recall": (tp, tp + fn),
        "specificity": (tn, tn + fp),
        "npv": (tn, tn + fn),
        "fpr": (fp, fp + tn),
    }[metric]
    low, high = smp.proportion_confint(k, n, alpha=0.05, method=sm_method)
    assert res.low == pytest.approx(low, abs=1e-12)
    assert res.high == pytest.approx(high, abs=1e-12)
    if method == "wilson":
        assert operating_point_interval(y, s, t, metric=metric).method == "wilson"  # default


# --------------------------------------------------------------------------------------
# Bayesian rows
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", ["precision", "recall", "specificity", "npv", "fpr"])
def test_bayes_jeffreys_prior_is_the_jeffreys_interval(rng, metric):
    """Dirichlet(1/2) cells: a rate k/n has posterior Beta(k + 1/2, n - k + 1/2) (1e-12)."""
    y, s, t = _data(rng)
    res = operating_point_interval(y, s, t, metric=metric, method="bayes", prior=0.5)
    tp, fp, tn, fn = res.tp, res.fp, res.tn, res.fn
    k, n = {
        "precision": (tp, tp + fp),
        "recall": (tp, tp + fn),
        "specificity": (tn, tn + fp),
        "npv": (tn, tn + fn),
        "fpr": (fp, fp + tn),
    }[metric]
    ref = proportion_interval(k, n, method="jeffreys")
    assert res.low == pytest.approx(ref.low, abs=1e-12)
    assert res.high == pytest.approx(ref.high, abs=1e-12)
    assert res.n_resamples is None


def test_bayes_proportion_matches_dirichlet_draws(rng):
    """The exact Beta interval of accuracy = quantiles of 400k Dirichlet draws made here.

    Quantile Monte Carlo SE ~ sqrt(q (1 - q) / N) / density ~ 2e-4 / 2 here; tolerance
    2e-3 (over 10 SE).
    """
    y, s, t = _data(rng)
    res = operating_point_interval(y, s, t, metric="accuracy", method="bayes", prior=1.0)
    cells = np.array([res.tp, res.fp, res.tn, res.fn], float)
    g = rng.standard_gamma(cells + 1.0, size=(400_000, 4))
    acc = (g[:, 0] + g[:, 2]) / g.sum(axis=1)
    low, high = np.quantile(acc, [0.025, 0.975])
    assert res.low == pytest.approx(low, abs=2e-3)
    assert res.high == pytest.approx(high, abs=2e-3)
    assert res.standard_error == pytest.approx(acc.std(), rel=0.01)


@pytest.mark.parametrize("metric", ["f1", "mcc", "balanced_accuracy"])
def test_bayes_draws_match_independent_dirichlet(rng, metric):
    """Posterior quantiles of f(p), p ~ Dirichlet(counts + 1), against 400k draws made here.

    The function uses 20k draws: quantile MC SE about 1e-3 at most for these posteriors
    (sd < 0.06, density at the 2.5% quantile > 0.9 / sd); tolerance 6e-3.
    """
    y, s, t = _data(rng)
    res = operating_point_interval(
        y, s, t, metric=metric, method="bayes", n_resamples=20_000, random_seed=_seed(rng)
    )
    cells = np.array([res.tp, res.fp, res.tn, res.fn], float)
    g = rng.standard_gamma(cells + 1.0, size=(400_000, 4))
    p = g / g.sum(axis=1, keepdims=True)
    vals = _ref_metric(metric, p.T)
    low, high = np.quantile(vals, [0.025, 0.975])
    assert res.low == pytest.approx(low, abs=6e-3)
    assert res.high == pytest.approx(high, abs=6e-3)
    assert res.n_resamples == 20_000 and res.distribution.shape == (20_000,)


# --------------------------------------------------------------------------------------
# bootstrap
# --------------------------------------------------------------------------------------
def test_bootstrap_is_the_item_bootstrap(rng):
    """Multinomial cells = resampling items: compare with 4000 explicit item resamples.

    The SD of 4000 replicates has relative SE ~1.1%; tolerance 8% on the ratio of SDs;
    the quantiles within 0.02 (their MC SE is ~0.004 for an SD ~0.04).
    """
    y, s, t = _data(rng, n=400)
    res = operating_point_interval(
        y, s, t, metric="f1", method="bootstrap", n_resamples=4000, random_seed=_seed(rng)
    )
    pred = s >= t
    idx = rng.integers(0, y.shape[0], size=(4000, y.shape[0]))
    yy, pp = y[idx] == 1, pred[idx]
    tp = (yy & pp).sum(axis=1)
    f1 = 2 * tp / (2 * tp + (~yy & pp).sum(axis=1) + (yy & ~pp).sum(axis=1))
    assert res.standard_error / f1.std(ddof=1) == pytest.approx(1.0, abs=0.08)
    want = np.quantile(f1, [0.025, 0.975])
    assert [res.low, res.high] == pytest.approx(want, abs=0.02)
    assert res.distribution.shape == (4000,)


def test_weighted_bootstrap_replays_item_resamples(rng):
    """With weights each replicate resamples items: replayed from the seed, equal (1e-12)."""
    y, s, t = _data(rng, n=60)
    w = rng.uniform(0.5, 2.0, size=60)
    seed = _seed(rng)
    res = operating_point_interval(
        y,
        s,
        t,
        metric="mcc",
        method="bootstrap",
        n_resamples=300,
        random_seed=seed,
        sample_weight=w,
    )
    idx = np.random.default_rng(seed).integers(0, 60, size=(300, 60))
    want = np.array(
        [matthews_corrcoef(y[i], (s[i] >= t).astype(int), sample_weight=w[i]) for i in idx]
    )
    got = res.distribution
    ok = np.isfinite(got)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------------------
# coverage of the population F1 (binormal model)
# --------------------------------------------------------------------------------------
MODEL = Binormal(1.5, 1.0, 0.0, 1.0, 0.3)
THRESHOLD = 0.75


def _population_f1():
    r, f, pi = float(MODEL.recall(THRESHOLD)), float(MODEL.fpr(THRESHOLD)), 0.3
    # cross-check the model's rates with scipy.stats.norm
    assert r == pytest.approx(stats.norm.sf(THRESHOLD, 1.5, 1.0), rel=1e-12)
    assert f == pytest.approx(stats.norm.sf(THRESHOLD, 0.0, 1.0), rel=1e-12)
    tp, fp, fn = pi * r, (1 - pi) * f, pi * (1 - r)
    return 2 * tp / (2 * tp + fp + fn)


def _coverage(rng, reps, **kwargs):
    truth = _population_f1()
    hits, se, est = [], [], []
    for _ in range(reps):
        y, s = MODEL.sample(500, random_seed=rng)
        res = operating_point_interval(y, s, THRESHOLD, random_seed=rng, **kwargs)
        hits.append(res.low <= truth <= res.high)
        se.append(res.standard_error)
        est.append(res.estimate)
    return np.mean(hits), np.mean(se), np.std(est, ddof=1)


@pytest.mark.parametrize("kwargs", [{"method": "delta"}, {"method": "bayes", "n_resamples": 1000}])
def test_f1_coverage_reduced(rng, kwargs):
    """200 data sets of n=500: coverage of the population F1 within 4 binomial MC SE of 95%.

    MC SE = sqrt(0.95 * 0.05 / 200) = 0.0154, so coverage >= 0.888 (the upper side cannot
    fail at 200 reps; the width is checked instead: the mean SE must match the spread of
    the estimates across data sets within 20%, ~4 SE of an SD from 200 values).
    Measured with 1000 reps (slow test): delta 0.947, bayes 0.953.
    """
    cov, mean_se, sd = _coverage(rng, 200, **kwargs)
    assert cov >= 0.95 - 4 * np.sqrt(0.95 * 0.05 / 200)
    assert mean_se / sd == pytest.approx(1.0, abs=0.2)


@pytest.mark.slow
@pytest.mark.parametrize(
    "kwargs",
    [{"method": "delta"}, {"method": "bayes"}, {"method": "bayes", "prior": 0.5}],
)
def test_f1_coverage(rng, kwargs):
    """Issue 15 acceptance: 1000 data sets of n=500, coverage of the population F1 in
    [0.93, 0.97] at nominal 95% (MC SE 0.0069: the band is +-2.9 SE)."""
    cov, _, _ = _coverage(rng, 1000, **kwargs)
    assert 0.93 <= cov <= 0.97


# --------------------------------------------------------------------------------------
# undefined metrics and bad input
# --------------------------------------------------------------------------------------
def test_undefined_metric_warns_and_gives_nan(rng):
    y, s, _ = _data(rng)
    for metric, method in [("precision", "wilson"), ("f1", "delta"), ("mcc", "bayes")]:
        t = float(s.max()) + 1.0  # nothing predicted positive
        if metric == "f1":
            y = np.zeros_like(y)  # no positive, nothing predicted positive: 0/0
        with pytest.warns(UndefinedMetricWarning, match=f"{metric} is undefined"):
            res = operating_point_interval(y, s, t, metric=metric, method=method)
        assert np.isnan(res.estimate)
        assert (res.low, res.high) == ((-1.0, 1.0) if metric == "mcc" else (0.0, 1.0))


def test_undefined_replicates_are_left_out_with_a_warning():
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    s = np.array([0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.05])
    with pytest.warns(UndefinedMetricWarning, match="left out"):
        res = operating_point_interval(
            y, s, 0.85, metric="recall", method="bootstrap", random_seed=0
        )
    assert np.isnan(res.distribution).any()
    assert 0.0 <= res.low <= res.high <= 1.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"metric": "f2"}, "`metric` must be one of .* got 'f2'"),
        ({"method": "exact"}, "`method` must be one of .* got 'exact'"),
        ({"metric": "f1", "method": "wilson"}, "`method`='wilson' .* `metric`='f1'"),
        ({"sample_weight": np.ones(300), "method": "bayes"}, "`method`='bayes' .*sample_weight"),
        ({"prior": 0.0}, "`prior` must be a positive finite number; got 0.0"),
        ({"confidence_level": 95}, "`confidence_level` must be a number in \\(0, 1\\); got 95"),
        ({"n_resamples": 0}, "`n_resamples` must be an integer >= 1; got 0"),
    ],
)
def test_bad_options_name_the_parameter(rng, kwargs, match):
    y, s, t = _data(rng)
    with pytest.raises(ValueError, match=match):
        operating_point_interval(y, s, t, **kwargs)


@pytest.mark.parametrize("threshold", [np.inf, -np.inf, np.nan, "0.5", None, True])
def test_threshold_must_be_finite(rng, threshold):
    y, s, _ = _data(rng)
    with pytest.raises(ValueError, match=r"`threshold` must be a finite real number; got"):
        operating_point_interval(y, s, threshold)


def test_ranked_input_pos_label_and_seed(rng):
    """A prepared Ranked gives the same result; string labels with pos_label; same seed,
    same draws."""
    y, s, t = _data(rng)
    labels = np.where(y == 1, "spam", "ham")
    a = operating_point_interval(
        labels, s, t, metric="mcc", method="bootstrap", random_seed=3, pos_label="spam"
    )
    b = operating_point_interval(
        as_ranked(y, s), None, t, metric="mcc", method="bootstrap", random_seed=3
    )
    for name in ("estimate", "low", "high", "standard_error", "tp", "fp", "tn", "fn"):
        assert getattr(a, name) == getattr(b, name)
    np.testing.assert_array_equal(a.distribution, b.distribution)
    assert bayes_prc.operating_point_interval is operating_point_interval
    assert isinstance(a, bayes_prc.IntervalResult)
    with pytest.raises(AttributeError):
        a.low = 0.0  # frozen


@pytest.mark.parametrize("metric", METRICS)
def test_intervals_contain_estimate_and_stay_in_range(rng, metric):
    y, s, t = _data(rng)
    for method in ("delta", "bootstrap", "bayes", *(("wilson",) if metric in PROPORTIONS else ())):
        res = operating_point_interval(y, s, t, metric=metric, method=method, random_seed=rng)
        lo, hi = (-1.0, 1.0) if metric == "mcc" else (0.0, 1.0)
        assert lo <= res.low <= res.high <= hi
        if method in ("delta", "wilson"):
            assert res.low <= res.estimate <= res.high


# --------------------------------------------------------------------------------------
# precision_at_k_interval
# --------------------------------------------------------------------------------------
def _tied_data(rng, n=40):
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.integers(0, 6, size=n).astype(float)  # heavy ties
    return y, s


@pytest.mark.parametrize("method", ["wilson", "clopper_pearson", "jeffreys"])
def test_precision_at_k_without_ties_equals_statsmodels(rng, method):
    smp = pytest.importorskip("statsmodels.stats.proportion")
    y, s, _ = _data(rng)
    # _data's scores tie (the +-3.0 pairs): draw k among the places that split no tie,
    # where precision at k is one count and the reference applies (a k inside a tie
    # is the next test's case)
    desc = np.sort(s)[::-1]
    clean = np.flatnonzero(np.append(desc[:-1] != desc[1:], True)) + 1
    k = int(rng.choice(clean))
    res = precision_at_k_interval(y, s, k, method=method)
    hits = int(y[np.argsort(-s, kind="stable")[:k]].sum())
    sm = {"wilson": "wilson", "clopper_pearson": "beta", "jeffreys": "jeffreys"}[method]
    low, high = smp.proportion_confint(hits, k, alpha=0.05, method=sm)
    assert res.estimate == precision_at_k(y, s, k) == hits / k
    assert (res.low, res.high) == pytest.approx((low, high), abs=1e-12)
    assert res.threshold == np.sort(s)[::-1][k - 1]


@pytest.mark.parametrize("method", fq.PRECISION_AT_K_METHODS[:6])
def test_precision_at_k_ties_average_over_every_tie_breaking(rng, method):
    """Ties at place k: the ends are the mean over all equally likely tie-breakings,
    enumerated here with itertools.combinations (1e-12)."""
    y, s = _tied_data(rng)
    order = np.argsort(-s, kind="stable")
    for k in range(1, y.shape[0] + 1):
        kth = s[order[k - 1]]
        above = int(np.sum(y[s > kth]))
        n_above = int(np.sum(s > kth))
        tie = y[s == kth]
        picks = itertools.combinations(range(tie.shape[0]), k - n_above)
        hits = [above + int(tie[list(c)].sum()) for c in itertools.islice(picks, 20_001)]
        if len(hits) > 20_000:
            continue  # too many tie-breakings to enumerate
        ref = proportion_interval(np.array(hits), k, method=method)
        lows, highs = ref.low, ref.high
        res = precision_at_k_interval(y, s, k, method=method)
        assert res.estimate == precision_at_k(y, s, k)
        assert res.low == pytest.approx(np.mean(lows), abs=1e-12)
        assert res.high == pytest.approx(np.mean(highs), abs=1e-12)


def test_precision_at_k_bayes(rng):
    """Beta(hits + a, k - hits + a) quantiles; with ties the mixture CDF over every
    tie-breaking (enumerated here) is (1 -+ level) / 2 at the ends (1e-10)."""
    y, s, _ = _data(rng)
    k = 25
    res = precision_at_k_interval(y, s, k, method="bayes", prior=0.5)
    hits = int(y[np.argsort(-s, kind="stable")[:k]].sum())
    want = stats.beta.ppf([0.025, 0.975], hits + 0.5, k - hits + 0.5)
    assert (res.low, res.high) == pytest.approx(tuple(want), abs=1e-12)
    y, s = _tied_data(rng)
    for k in (5, 13, 22):
        res = precision_at_k_interval(y, s, k, method="bayes")
        kth = np.sort(s)[::-1][k - 1]
        above, tie = int(np.sum(y[s > kth])), y[s == kth]
        picks = [
            above + int(tie[list(c)].sum())
            for c in itertools.combinations(range(tie.shape[0]), k - int(np.sum(s > kth)))
        ]

        def cdf(x, picks=picks, k=k):
            return np.mean([stats.beta.cdf(x, h + 1, k - h + 1) for h in picks])

        assert cdf(res.low) == pytest.approx(0.025, abs=1e-10)
        assert cdf(res.high) == pytest.approx(0.975, abs=1e-10)


def test_precision_at_k_bootstrap_replays_item_resamples(rng):
    """Each replicate is precision_at_k of an item resample (replayed from the seed; exact)."""
    y, s = _tied_data(rng, n=50)
    seed, k = _seed(rng), 12
    res = precision_at_k_interval(y, s, k, method="bootstrap", n_resamples=200, random_seed=seed)
    idx = np.random.default_rng(seed).integers(0, 50, size=(200, 50))
    want = np.array([precision_at_k(y[i], s[i], k) for i in idx])
    np.testing.assert_allclose(res.distribution, want, rtol=1e-15, atol=0)
    assert (res.low, res.high) == pytest.approx(tuple(np.quantile(want, [0.025, 0.975])))


@pytest.mark.parametrize("k", [0, 51, 2.5, True, "3", None])
def test_precision_at_k_bad_k(rng, k):
    y, s = _tied_data(rng, n=50)
    with pytest.raises(ValueError, match=r"`k` must be an integer in \[1, n_samples=50\]; got"):
        precision_at_k_interval(y, s, k)


def test_precision_at_k_bad_options(rng):
    y, s = _tied_data(rng, n=50)
    with pytest.raises(ValueError, match="`method` must be one of .* got 'delta'"):
        precision_at_k_interval(y, s, 5, method="delta")
    with pytest.raises(ValueError, match="sample weights"):
        precision_at_k_interval(as_ranked(y, s, sample_weight=np.ones(50)), None, 5)
    with pytest.raises(ValueError, match="`prior` must be a positive finite number; got -1"):
        precision_at_k_interval(y, s, 5, method="bayes", prior=-1)


def test_no_warning_on_ordinary_input(rng):
    y, s, t = _data(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for metric in METRICS:
            operating_point_interval(y, s, t, metric=metric)
        precision_at_k_interval(y, s, 10, method="bootstrap", random_seed=rng)


def test_validates_once(rng, monkeypatch):
    """One validation of (y_true, y_score) per public call."""
    import bayes_prc.empirical._ranked as ranked_mod

    calls = []
    original = ranked_mod.validate_binary_inputs

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(ranked_mod, "validate_binary_inputs", counting)
    y, s, t = _data(rng)
    operating_point_interval(y, s, t, metric="mcc", method="bootstrap", random_seed=0)
    precision_at_k_interval(y, s, 10, method="bayes")
    assert len(calls) == 2
