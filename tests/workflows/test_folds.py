"""Curves and metrics across folds (bayes_prc.folds) against independent references.

References: scikit-learn's ``average_precision_score`` / ``roc_auc_score`` per fold, a
brute-force read-out of the curves over every distinct threshold, the closed forms of
Nadeau & Bengio's (2003) corrected t and of Corani & Benavoli's (2015) correlated
Bayesian t-test (baycomp's ``CorrelatedTTest.compute_statistics`` / ``Posterior.probs``
written out with scipy's t distribution; baycomp is not a dependency), and a coverage
simulation on binormal scores.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

from bayes_prc import Binormal, compare_folds, fold_ap_interval, fold_curves
from bayes_prc.empirical import as_ranked
from bayes_prc.plotting import FoldCurvesDisplay

matplotlib.use("Agg")


def _folds(rng, k=5, n=(40, 120), prevalence=0.3, ties=False):
    out = []
    for _ in range(k):
        size = int(rng.integers(*n))
        y = rng.random(size) < prevalence
        y[rng.integers(size)] = True  # at least one positive
        y[rng.integers(size)] = False if y.all() else y[0]
        s = rng.normal(size=size) + 1.2 * y
        if ties:
            s = np.round(s, 1)
        out.append((y.astype(int), s))
    return out


# --------------------------------------------------------------------------------------
# per-fold metrics
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("ties", [False, True])
def test_fold_metrics_equal_sklearn(rng, ties):
    folds = _folds(rng, k=6, ties=ties)
    ap = fold_ap_interval(folds)
    auc = fold_ap_interval(folds, metric="roc_auc")
    ref_ap = [average_precision_score(y, s) for y, s in folds]
    ref_auc = [roc_auc_score(y, s) for y, s in folds]
    # exact: the fold AP is summed over the curve in scikit-learn's order
    np.testing.assert_array_equal(ap.fold_values, ref_ap)
    np.testing.assert_array_equal(auc.fold_values, ref_auc)
    curves = fold_curves(folds)
    np.testing.assert_array_equal(curves.average_precision.values, ap.fold_values)
    np.testing.assert_array_equal(fold_curves(folds, curve="roc").roc_auc.values, auc.fold_values)


# --------------------------------------------------------------------------------------
# curves: brute-force read-out
# --------------------------------------------------------------------------------------
def _brute_pr(y, s, grid):
    y = np.asarray(y, bool)
    thresholds = np.unique(s)[::-1]  # highest first
    out = []
    for r in grid:
        for t in thresholds:  # the highest threshold whose recall reaches r (r=0: > 0)
            pred = s >= t
            tp = np.sum(pred & y)
            recall = tp / y.sum()
            if recall >= r and tp > 0:
                out.append(tp / pred.sum())
                break
    return np.array(out)


def _brute_roc(y, s, grid):
    y = np.asarray(y, bool)
    pts = [(0.0, 0.0)] + [
        (np.sum((s >= t) & ~y) / np.sum(~y), np.sum((s >= t) & y) / y.sum()) for t in np.unique(s)
    ]
    return np.array([max(tpr for fpr, tpr in pts if fpr <= f) for f in grid])


@pytest.mark.parametrize("ties", [False, True])
def test_curve_readout_equals_brute_force(rng, ties):
    folds = _folds(rng, k=4, n=(20, 60), ties=ties)
    grid = np.concatenate(([0.0, 1.0], rng.random(30), np.arange(1, 20) / 20))
    pr = fold_curves(folds, grid_points=grid)
    roc = fold_curves(folds, curve="roc", grid_points=grid)
    for j, (y, s) in enumerate(folds):
        # exact: both compare the same floating-point ratios with the grid
        np.testing.assert_array_equal(pr.precision.values[j], _brute_pr(y, s, grid))
        np.testing.assert_array_equal(roc.tpr.values[j], _brute_roc(y, s, grid))


def test_curve_band_closed_form(rng):
    folds = _folds(rng, k=7)
    level = 0.9
    res = fold_curves(folds, grid_points=41, confidence_level=level)
    c = res.precision.values
    k = c.shape[0]
    half = stats.t.ppf(0.95, k - 1) * c.std(axis=0, ddof=1) / np.sqrt(k)
    np.testing.assert_allclose(res["mean"].values, c.mean(axis=0), rtol=1e-15)
    np.testing.assert_allclose(res.lower.values, np.clip(c.mean(0) - half, 0, 1), atol=1e-14)
    np.testing.assert_allclose(res.upper.values, np.clip(c.mean(0) + half, 0, 1), atol=1e-14)
    np.testing.assert_array_equal(res.minimum.values, c.min(axis=0))
    np.testing.assert_array_equal(res.maximum.values, c.max(axis=0))
    assert np.all((c >= 0) & (c <= 1))
    assert res.precision.dims == ("fold", "recall") and res.attrs["confidence_level"] == level


def test_curves_invariant_to_monotone_rescaling(rng):
    folds = _folds(rng, k=3)
    moved = [(y, np.exp(2 * s) + 5) for y, s in folds]
    for kind in ("pr", "roc"):
        a, b = fold_curves(folds, curve=kind), fold_curves(moved, curve=kind)
        np.testing.assert_array_equal(a["mean"].values, b["mean"].values)


# --------------------------------------------------------------------------------------
# Nadeau-Bengio interval
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("test_fraction", [None, 0.2, 1 / 3])
def test_nadeau_bengio_closed_form(rng, test_fraction):
    folds = _folds(rng, k=8)
    x = np.array([average_precision_score(y, s) for y, s in folds])
    k = x.size
    frac = 1 / k if test_fraction is None else test_fraction
    level = 0.9
    for method, factor in (("nadeau_bengio", 1 / k + frac / (1 - frac)), ("t", 1 / k)):
        res = fold_ap_interval(
            folds, method=method, test_fraction=test_fraction, confidence_level=level
        )
        se = np.sqrt(factor * np.var(x, ddof=1))
        half = stats.t.ppf(0.95, k - 1) * se
        # same fold values (exact); 1e-14: round-off of the same formula in another order
        assert res.estimate == pytest.approx(x.mean(), abs=1e-14)
        assert res.standard_error == pytest.approx(se, abs=1e-14)
        assert res.low == pytest.approx(max(0.0, x.mean() - half), abs=1e-14)
        assert res.high == pytest.approx(min(1.0, x.mean() + half), abs=1e-14)
        assert res.low <= res.estimate <= res.high
        assert (res.method, res.df, res.confidence_level) == (method, k - 1, level)
    # k-fold default: n_test / n_train = 1 / (k - 1)
    if test_fraction is None:
        res = fold_ap_interval(folds)
        assert res.standard_error == pytest.approx(
            np.sqrt((1 / k + 1 / (k - 1)) * np.var(x, ddof=1)), abs=1e-14
        )


# --------------------------------------------------------------------------------------
# correlated Bayesian t-test
# --------------------------------------------------------------------------------------
def _baycomp(x, y, rope, runs=1):
    """baycomp 1.0's CorrelatedTTest(x, y, rope, runs).probs(), written out."""
    diff = y - x
    n = len(diff)
    nfolds = n / runs
    mean = np.mean(diff)
    var = np.var(diff, ddof=1) * (1 / n + 1 / (nfolds - 1))
    pl = stats.t.cdf(-rope, n - 1, mean, np.sqrt(var))
    pr = 1 - stats.t.cdf(rope, n - 1, mean, np.sqrt(var))
    return mean, var, (pl, 1 - pl - pr, pr)


@pytest.mark.parametrize("runs", [1, 3])
@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_correlated_t_equals_baycomp(rng, runs, metric):
    k = 5
    folds_a = _folds(rng, k=k * runs)
    folds_b = [(y, s + 0.4 * y + 0.5 * rng.normal(size=s.size)) for y, s in folds_a]
    ref = average_precision_score if metric == "average_precision" else roc_auc_score
    x = np.array([ref(y, s) for y, s in folds_a])
    yb = np.array([ref(y, s) for y, s in folds_b])
    rope = 0.01
    res = compare_folds(folds_a, folds_b, metric=metric, rope=rope, test_fraction=1 / k)
    mean, var, (pl, pin, pr) = _baycomp(x, yb, rope, runs)
    # the fold metrics equal scikit-learn's exactly; 1e-12: the same scipy formulas, the
    # variance factor written as 1/k + rho/(1-rho) instead of baycomp's 1/n + 1/(nfolds-1)
    assert res.estimate == pytest.approx(mean, abs=1e-12)
    assert res.scale == pytest.approx(np.sqrt(var), abs=1e-12)
    assert res.prob_a_better == pytest.approx(pl, abs=1e-12)
    assert res.prob_in_rope == pytest.approx(pin, abs=1e-12)
    assert res.prob_b_better == pytest.approx(pr, abs=1e-12)
    lo, hi = stats.t.interval(0.95, len(x) - 1, mean, np.sqrt(var))
    assert (res.low, res.high) == (pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12))
    p = 2 * stats.t.sf(abs(mean / np.sqrt(var)), len(x) - 1)
    assert res.p_value == pytest.approx(p, abs=1e-12)
    assert res.df == k * runs - 1 and res.rho == pytest.approx(1 / k)


def test_correlated_t_point_mass(rng):
    folds = _folds(rng, k=4)
    res = compare_folds(folds, folds, rope=0.01)
    assert (res.prob_a_better, res.prob_in_rope, res.prob_b_better) == (0.0, 1.0, 0.0)
    assert res.low == res.high == res.estimate == 0.0 and res.p_value == 1.0


# --------------------------------------------------------------------------------------
# coverage: repeated 10-fold cross-validation of fixed binormal scores
# --------------------------------------------------------------------------------------
def _coverage(rng, n_datasets, n=1000, k=10, repeats=5):
    """Coverage of the population AP by the corrected and the naive t interval.

    Nothing is fitted: the scores come from a fixed binormal, and each data set is cut
    into ``k`` folds ``repeats`` times (Bouckaert & Frank's repeated cross-validation), so
    the ``repeats * k`` fold APs share their items and are strongly correlated.
    """
    model = Binormal(1.0, 1.0, 0.0, 1.0, 0.3)
    target = model.average_precision()
    hits = {"nadeau_bengio": 0, "t": 0}
    for _ in range(n_datasets):
        y, s = model.sample(n, random_seed=rng)
        folds = []
        for _ in range(repeats):
            for part in np.array_split(rng.permutation(n), k):
                folds.append(as_ranked(y[part], s[part]))  # validated once, for both calls
        for method in hits:
            res = fold_ap_interval(folds, method=method, test_fraction=1 / k)
            hits[method] += res.low <= target <= res.high
    return {m: h / n_datasets for m, h in hits.items()}


def _check_coverage(cov):
    # the naive t treats 50 correlated folds as independent: its coverage is near 0.55;
    # the corrected one is near 0.93 (a little under 0.95: the AP of 30 positives is
    # biased). The gap is > 8 binomial standard errors even at 100 data sets.
    assert abs(cov["nadeau_bengio"] - 0.95) < abs(cov["t"] - 0.95)
    assert cov["t"] < cov["nadeau_bengio"]


def test_coverage_corrected_beats_naive(rng):
    _check_coverage(_coverage(rng, 100))


@pytest.mark.slow
def test_coverage_corrected_beats_naive_large(rng):
    cov = _coverage(rng, 1000)
    _check_coverage(cov)
    assert cov["nadeau_bengio"] > 0.9  # 1000 data sets: binomial s.e. about 0.008
    assert cov["t"] < 0.8


# --------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------
def test_bad_input_names_parameter(rng):
    good = _folds(rng, k=3)
    with pytest.raises(ValueError, match=r"`folds` must hold at least 2 .* got 1"):
        fold_curves(good[:1])
    with pytest.raises(ValueError, match=r"`folds` must hold at least 2 .* got 1"):
        fold_ap_interval(good[:1])
    no_pos = good + [(np.zeros(5, int), np.arange(5.0))]
    with pytest.raises(ValueError, match=r"`folds\[3\]` has no positive sample"):
        fold_ap_interval(no_pos)
    with pytest.raises(ValueError, match=r"`folds_a\[3\]` has no positive sample"):
        compare_folds(no_pos, no_pos)
    only_pos = good + [(np.ones(5, int), np.arange(5.0))]
    with pytest.raises(ValueError, match=r"`folds\[3\]` has no negative sample"):
        fold_curves(only_pos, curve="roc")
    bad_len = good + [(np.array([0, 1, 1]), np.array([0.1, 0.2]))]
    with pytest.raises(ValueError, match=r"`folds\[3\]`: .*`y_true` has 3, `y_score` has 2"):
        fold_curves(bad_len)
    with pytest.raises(ValueError, match=r"`folds\[0\]` must be a \(y_true, y_score\) pair"):
        fold_curves([good[0][0], good[1]])
    with pytest.raises(ValueError, match=r"`folds_a` and `folds_b` .* got 3 and 2 folds"):
        compare_folds(good, good[:2])
    other = [good[0], good[1], (good[0][0], good[0][1])]
    with pytest.raises(ValueError, match=r"`folds_b\[2\]` must have the labels of `folds_a\[2\]`"):
        compare_folds(good, other)
    with pytest.raises(ValueError, match=r"`test_fraction` must be a number in \(0, 1\); got 1.5"):
        fold_ap_interval(good, test_fraction=1.5)
    with pytest.raises(ValueError, match=r"`method` must be one of .*; got 'naive'"):
        fold_ap_interval(good, method="naive")
    with pytest.raises(ValueError, match=r"`metric` must be one of .*; got 'auc'"):
        compare_folds(good, good, metric="auc")
    with pytest.raises(ValueError, match=r"`rope` must be .*; got -0.1"):
        compare_folds(good, good, rope=-0.1)
    with pytest.raises(ValueError, match=r"`grid_points` .* must lie in \[0, 1\]"):
        fold_curves(good, grid_points=[0.5, 1.5])
    with pytest.raises(ValueError, match=r"`curve` must be one of .*; got 'det'"):
        fold_curves(good, curve="det")


# --------------------------------------------------------------------------------------
# display
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["pr", "roc"])
@pytest.mark.parametrize("band", ["t", "envelope", None])
def test_display_draws_the_arrays_of_fold_curves(rng, kind, band):
    folds = _folds(rng, k=4)
    disp = FoldCurvesDisplay.from_folds(folds, curve=kind, grid_points=21, band=band)
    res = fold_curves(folds, curve=kind, grid_points=21)
    y_name = "precision" if kind == "pr" else "tpr"
    assert len(disp.fold_lines_) == 4
    for line, curve in zip(disp.fold_lines_, res[y_name].values, strict=True):
        np.testing.assert_array_equal(line.get_ydata(), curve)
    np.testing.assert_array_equal(disp.mean_line_.get_ydata(), res["mean"].values)
    assert (disp.band_ is None) == (band is None)
    if band is not None:
        lo, hi = ("lower", "upper") if band == "t" else ("minimum", "maximum")
        np.testing.assert_array_equal(disp.lower, res[lo].values)
        np.testing.assert_array_equal(disp.upper, res[hi].values)


def test_display_checks_shapes():
    with pytest.raises(ValueError, match=r"`curves` must have shape \(n_folds, 3\)"):
        FoldCurvesDisplay([0, 0.5, 1], [[1, 1]], [1, 1, 1])
    with pytest.raises(ValueError, match="`lower` and `upper` must be given together"):
        FoldCurvesDisplay([0, 1], [[1, 1]], [1, 1], lower=[0, 0])
