"""Label selection and design-based (Horvitz-Thompson) estimates of a pool's AP.

References: inclusion probabilities are checked against their simulated frequencies;
estimators against scikit-learn's AP on a census (every item labelled) and against the
exact pool precision in repeated sampling; variances against the spread of the estimates
over repeated selections.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from bayes_prc.pool._design import (
    design_ap_interval,
    design_threshold_interval,
)
from bayes_prc.pool._selection import select_labels


def _pool(n=20_000, prevalence=0.02, seed=0, shift=2.0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    s = rng.normal(size=n) + shift * y
    return y, s


@pytest.mark.parametrize("strategy", ["random", "stratified", "importance"])
def test_selection_invariants(strategy):
    y, s = _pool()
    sel = select_labels(s, 300, strategy=strategy, random_seed=3)
    assert sel.indices.size == 300 == np.unique(sel.indices).size
    assert sel.stratum_samples.sum() == 300 and sel.stratum_sizes.sum() == s.size
    assert np.all((sel.inclusion_prob > 0) & (sel.inclusion_prob <= 1))
    if strategy != "importance":
        np.testing.assert_allclose(sel.inclusion_prob, sel.sampling_fraction[sel.strata])
    # strata are contiguous score ranges, highest first, each item in its range
    lo, hi = sel.stratum_bounds[:, 0], sel.stratum_bounds[:, 1]
    assert np.all(lo <= hi) and np.all(hi[1:] < lo[:-1])
    sc = s[sel.indices]
    assert np.all((sc >= lo[sel.strata]) & (sc <= hi[sel.strata]))
    again = select_labels(s, 300, strategy=strategy, random_seed=3)
    np.testing.assert_array_equal(again.indices, sel.indices)
    assert sel.y_score is s  # a reference to the pool, not a copy


def test_stratified_allocation_oversamples_the_top_and_keeps_ties_whole():
    _, s = _pool()
    s = np.round(s, 1)  # heavy ties
    sel = select_labels(s, 400, random_seed=0)
    assert sel.stratum_samples.min() >= 2
    assert sel.sampling_fraction[0] > 10 * sel.sampling_fraction[-1]
    for h in range(sel.stratum_sizes.size - 1):  # no score value in two strata
        assert sel.stratum_bounds[h, 0] > sel.stratum_bounds[h + 1, 1]


@pytest.mark.parametrize("strategy", ["random", "stratified", "importance"])
def test_inclusion_probabilities_match_their_frequencies(strategy):
    # reference: the frequency of each item over many selections (binomial tolerance,
    # 5 standard errors per item on 60 items: a false alarm has probability < 1e-4)
    rng = np.random.default_rng(1)
    s = np.round(rng.normal(size=60), 1)
    reps = 1500
    hits = np.zeros(60)
    pi = np.full(60, np.nan)
    for _ in range(reps):
        sel = select_labels(s, 12, strategy=strategy, random_seed=rng)
        hits[sel.indices] += 1
        known = pi[sel.indices]
        assert np.allclose(known[np.isfinite(known)], sel.inclusion_prob[np.isfinite(known)])
        pi[sel.indices] = sel.inclusion_prob
    seen = np.isfinite(pi)
    freq = hits / reps
    se = np.sqrt(pi[seen] * (1 - pi[seen]) / reps) + 1e-9
    assert np.all(np.abs(freq[seen] - pi[seen]) <= 5 * se + 1e-12)
    assert seen.mean() > 0.9


@pytest.mark.parametrize("strategy", ["random", "stratified"])
def test_census_reproduces_sklearn(strategy):
    y, s = _pool(n=1500, prevalence=0.05)
    s = np.round(s, 1)
    sel = select_labels(s, s.size, strategy=strategy, random_seed=0)
    res = design_ap_interval(s, sel, y[sel.indices], random_seed=0, n_resamples=50)
    assert res.estimate == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert res.low == pytest.approx(res.estimate) and res.high == pytest.approx(res.estimate)
    lin = design_ap_interval(s, sel, y[sel.indices], method="linearization")
    assert lin.standard_error == pytest.approx(0.0, abs=1e-12)
    prec = design_threshold_interval(s, sel, y[sel.indices], 1.0)
    assert prec.estimate == pytest.approx(y[s >= 1.0].mean(), abs=1e-12)


def test_precision_is_unbiased_and_its_variance_right():
    # Horvitz-Thompson precision at a threshold is linear: its mean over selections is
    # the pool's precision and its linearization SE the spread of the estimates.
    # Tolerances: 4 Monte Carlo standard errors of the mean; SE ratio within 15%
    # (the sd of an sd over 400 replicates is about 3.5%).
    y, s = _pool(n=10_000, prevalence=0.03)
    t = 1.5
    truth = y[s >= t].mean()
    est, ses = [], []
    for r in range(400):
        sel = select_labels(s, 200, random_seed=r)
        res = design_threshold_interval(s, sel, y[sel.indices], t, method="linearization")
        est.append(res.estimate)
        ses.append(res.standard_error)
    est = np.array(est)
    assert abs(est.mean() - truth) < 4 * est.std() / np.sqrt(est.size)
    assert np.sqrt(np.mean(np.square(ses))) == pytest.approx(est.std(), rel=0.15)


def test_ap_estimate_nearly_unbiased_and_interval_covers():
    # a ratio of HT totals: bias O(1/n). Coverage of the 90% interval over 120 selections
    # at least 0.75 (binomial sd at 0.9 is 0.027; the design interval is known to be
    # somewhat optimistic with rare positives, see the docstring)
    y, s = _pool(n=20_000, prevalence=0.03, shift=2.5)
    truth = average_precision_score(y, s)
    est, cover = [], []
    for r in range(120):
        sel = select_labels(s, 400, random_seed=r)
        res = design_ap_interval(s, sel, y[sel.indices], random_seed=r, n_resamples=300)
        est.append(res.estimate)
        cover.append(res.low <= truth <= res.high)
    est = np.array(est)
    assert abs(est.mean() - truth) < 0.02
    assert np.mean(cover) >= 0.75


def test_next_batch_extends_and_reallocates():
    y, s = _pool()
    first = select_labels(s, 100, random_seed=0)
    more = first.next_batch(y[first.indices], 60)
    assert more.n_previous == 100 and more.indices.size == 160
    np.testing.assert_array_equal(more.indices[:100], first.indices)
    assert np.unique(more.indices).size == 160
    np.testing.assert_array_equal(more.stratum_sizes, first.stratum_sizes)
    assert np.all(more.stratum_samples >= first.stratum_samples)
    np.testing.assert_allclose(more.inclusion_prob, more.sampling_fraction[more.strata])
    assert np.array_equal(np.bincount(more.strata), more.stratum_samples)
    again = first.next_batch(y[first.indices], 60)
    np.testing.assert_array_equal(again.indices, more.indices)
    design_ap_interval(s, more, y[more.indices], n_resamples=50)
    imp = select_labels(s, 100, strategy="importance", random_seed=0)
    with pytest.raises(NotImplementedError, match="importance"):
        imp.next_batch(y[imp.indices], 10)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"budget": 0}, "`budget` must be an integer in \\[1, 50\\].*got 0"),
        ({"budget": 51}, "`budget`.*got 51"),
        ({"budget": 5.0}, "`budget`.*got 5.0"),
        ({"budget": 5, "strategy": "neyman"}, "`strategy` must be one of"),
    ],
)
def test_selection_errors(kwargs, match):
    s = np.linspace(0, 1, 50)
    with pytest.raises(ValueError, match=match):
        select_labels(s, **kwargs)


def test_input_errors():
    s = np.linspace(0, 1, 50)
    bad = s.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="`y_score` contains NaN.*index 7"):
        select_labels(bad, 5)
    sel = select_labels(s, 10, random_seed=0)
    y = (s > 0.5).astype(int)
    with pytest.raises(ValueError, match="one label per selected item.*y\\[selection.indices\\]"):
        design_ap_interval(s, sel, y)
    with pytest.raises(ValueError, match="pool the selection was drawn from"):
        design_ap_interval(s[::-1], sel, y[sel.indices])
    with pytest.raises(ValueError, match="`method` must be one of"):
        design_ap_interval(s, sel, y[sel.indices], method="bca")
    with pytest.raises(ValueError, match="no positive"):
        design_ap_interval(s, sel, np.zeros(10, int))
