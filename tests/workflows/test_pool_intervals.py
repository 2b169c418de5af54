"""The prediction-powered pool estimates (bayes_prc.pool._ppi) and pool_intervals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import average_precision_score

import bayes_prc as bp
from bayes_prc.pool import (
    design_ap_interval,
    pool_intervals,
    ppi_ap_interval,
    ppi_threshold_interval,
    ppi_tp_reference,
    prepare_selection,
    select_labels,
)


def _pool(rng, n=3000, prevalence=0.05, ties=True):
    y = rng.random(n) < prevalence
    s = rng.normal(size=n) + 2.0 * y
    if ties:
        s = np.round(s, 1)
    return y, s


def _step_fit(s, sel, labels):
    """Reference calibration of n_folds=1: sklearn's weighted isotonic fit at the labelled
    scores, each pool item taking the fit at the nearest labelled score at or below it
    (the lowest labelled score's below all of them)."""
    xs = s[sel.indices]
    iso = IsotonicRegression(out_of_bounds="clip").fit(
        xs, labels.astype(float), sample_weight=1.0 / sel.inclusion_prob
    )
    known = np.unique(xs)
    at = iso.predict(known)
    pos = np.clip(np.searchsorted(known, s, side="right") - 1, 0, None)
    return at[pos], iso.predict(xs)


@pytest.mark.parametrize("ties", [True, False])
def test_all_labelled_equals_sklearn(rng, ties):
    """Every pool item labelled, inclusion probability 1: TP(t) = sum f + sum (y - f) is the
    exact count for any power, and the PPI AP is the pool's AP."""
    y, s = _pool(rng, 2000, ties=ties)
    y[:2] = True
    sel = select_labels(s, s.size, strategy="random", random_seed=1)
    assert np.all(sel.inclusion_prob == 1)
    exact = average_precision_score(y, s)
    for power in (1.0, 0.5, "tuned"):
        res = ppi_ap_interval(
            s, sel, y[sel.indices], n_folds=1, power=power, n_resamples=20, random_seed=2
        )
        assert res.estimate == pytest.approx(exact, abs=1e-12)


def test_power_zero_is_horvitz_thompson(rng):
    y, s = _pool(rng)
    y[np.argmax(s)] = True
    sel = select_labels(s, 300, random_seed=rng)
    prepared = prepare_selection(s, sel, y[sel.indices])
    ht = design_ap_interval(None, prepared, method="linearization").estimate
    for folds in (1, 5):
        res = ppi_ap_interval(None, prepared, None, power=0.0, n_folds=folds, n_resamples=50)
        assert res.estimate == pytest.approx(ht, abs=1e-12)
    prec = ppi_threshold_interval(None, prepared, None, 1.0, power=0.0, n_resamples=50)
    ht_prec = bp.design_threshold_interval(None, prepared, None, 1.0, method="linearization")
    assert prec.estimate == pytest.approx(ht_prec.estimate, abs=1e-12)


@pytest.mark.parametrize("ties", [True, False])
def test_difference_estimator_equals_a_direct_sum(rng, ties):
    """TP(t) and the AP of the fast (segment) estimator against a loop over the pool with
    an independently fitted calibration (n_folds=1, so no random folds)."""
    y, s = _pool(rng, 1500, ties=ties)
    y[np.argmax(s)] = True
    sel = select_labels(s, 200, random_seed=rng)
    labels = y[sel.indices]
    w = 1.0 / sel.inclusion_prob
    pool_f, lab_f = _step_fit(s, sel, labels)
    for t in np.quantile(s, [0.1, 0.5, 0.9, 0.99]):
        for metric in ("precision", "recall"):
            res = ppi_threshold_interval(
                s, sel, labels, t, metric=metric, power=1.0, n_folds=1, n_resamples=20
            )
            tp = ppi_tp_reference(pool_f, lab_f, s, sel.indices, labels, w, t)
            total = ppi_tp_reference(pool_f, lab_f, s, sel.indices, labels, w, -np.inf)
            want = tp / np.sum(s >= t) if metric == "precision" else tp / total
            assert res.estimate == pytest.approx(np.clip(want, 0, 1), abs=1e-10)
    # the AP: sum over distinct pool scores of dTP_g TP_g / N_g, minus the (i, i) terms
    grid = np.unique(s)[::-1]
    tps = np.array([ppi_tp_reference(pool_f, lab_f, s, sel.indices, labels, w, g) for g in grid])
    n_at = np.array([np.sum(s >= g) for g in grid])
    dtp = np.diff(np.concatenate([[0.0], tps]))
    r = labels - lab_f
    diag = np.sum((w * w - w) * r * r / np.array([np.sum(s >= v) for v in s[sel.indices]]))
    want = (np.sum(dtp * tps / n_at) - diag) / tps[-1]
    res = ppi_ap_interval(s, sel, labels, power=1.0, n_folds=1, n_resamples=20)
    assert res.estimate == pytest.approx(np.clip(want, 0, 1), abs=1e-10)


def test_interval_is_ordered_and_in_unit_range(rng):
    y, s = _pool(rng, 20_000, 0.02, ties=False)
    y[np.argmax(s)] = True
    sel = select_labels(s, 300, random_seed=rng)
    res = ppi_ap_interval(s, sel, y[sel.indices], n_resamples=200, random_seed=rng)
    assert 0 <= res.low <= res.high <= 1
    assert 0 <= res.power <= 1
    assert res.n_folds == 5 and res.bootstrap_distribution.size >= 100


def test_bad_input():
    rng = np.random.default_rng(3)
    y, s = _pool(rng, 3000)
    sel = select_labels(s, 100, random_seed=1)
    none = np.zeros(sel.indices.size, dtype=bool)
    with pytest.raises(ValueError, match="no positive among the labelled items"):
        ppi_ap_interval(s, sel, none)
    with pytest.raises(ValueError, match="no positive among the labelled items"):
        ppi_threshold_interval(s, sel, none, 0.0, metric="recall")
    labels = y[sel.indices]
    with pytest.raises(ValueError, match="power"):
        ppi_ap_interval(s, sel, labels, power=1.5)
    with pytest.raises(ValueError, match="power"):
        ppi_ap_interval(s, sel, labels, power="best")
    with pytest.raises(ValueError, match="above every pool score"):
        ppi_threshold_interval(s, sel, labels, s.max() + 1)
    with pytest.raises(ValueError, match="metric"):
        ppi_threshold_interval(s, sel, labels, 0.0, metric="f1")
    with pytest.raises(ValueError, match="threshold"):
        ppi_threshold_interval(s, sel, labels, np.nan)
    with pytest.raises(ValueError, match="y_labels"):
        pool_intervals(s, sel, None)


@pytest.fixture(scope="module")
def small_pool():
    rng = np.random.default_rng(5)
    y = rng.random(8000) < 0.03
    s = rng.normal(size=y.size) + 2.0 * y
    sel = select_labels(s, 200, random_seed=6)
    return y, s, sel


def test_pool_intervals_table(small_pool):
    y, s, sel = small_pool
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = pool_intervals(s, sel, y[sel.indices], ci_prob=0.9, random_seed=7, draws=300)
        b = bp.pool_intervals(s, sel, y[sel.indices], ci_prob=0.9, random_seed=7, draws=300)
    assert list(a.index) == ["fit_pool", "design", "ppi"]
    assert {"estimate", "low", "high", "width", "family", "label"} <= set(a.columns)
    assert a.equals(b)  # same seed, same table
    assert a.attrs["recommended"] in a.index and a.attrs["ci_prob"] == 0.9
    assert 0 <= a.attrs["calibration_p_value"] <= 1
    assert ((a["low"] <= a["estimate"]) & (a["estimate"] <= a["high"])).all()
    assert np.allclose(a["width"], a["high"] - a["low"])


def test_pool_intervals_without_positive(small_pool):
    y, s, sel = small_pool
    none = np.zeros(sel.indices.size, dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = pool_intervals(s, sel, none, random_seed=1, draws=200, n_resamples=50)
    assert list(t.index) == ["fit_pool"] and t.attrs["recommended"] == "fit_pool"
    assert "no positive" in t.attrs["notes"]["ppi"]


def test_ppi_coverage_small_simulation():
    """60 stratified selections of 300 from one pool of 20 000 at 3% prevalence: the
    90% PPI interval covers the pool's AP at least 75% of the time (Monte Carlo se of a
    true 0.9 about 0.04, so 0.75 is 3.9 se below: a broken interval, not chance)."""
    rng = np.random.default_rng(20)
    y = rng.random(20_000) < 0.03
    s = rng.normal(size=y.size) + 2.0 * y
    target = average_precision_score(y, s)
    hits = []
    for r in range(60):
        sel = select_labels(s, 300, random_seed=100 + r)
        res = ppi_ap_interval(
            s, sel, y[sel.indices], confidence_level=0.9, n_resamples=200, random_seed=r
        )
        hits.append(res.low <= target <= res.high)
    assert np.mean(hits) >= 0.75, np.mean(hits)
