"""Binned simulation of large predictive test sets (bayes/_summaries.py).

Reference: the per-item simulation of the same function (forced by raising the
threshold), compared in distribution by Monte Carlo; and numpy's Binomial for the counts.
"""

import numpy as np
import pytest

import bayes_prc.bayes._summaries as summaries
from bayes_prc.binormal import Binormal


def _model():
    one = np.ones((1, 1))
    return Binormal(1.2 * one, 1.3 * one, 0 * one, one, 0.05 * one)


@pytest.fixture(scope="module")
def both_paths():
    n_test, n_curves = 110_000, 30
    binned = summaries.predictive_curves(_model(), n_test, n_curves, 1, None)
    old = summaries.BINNED_TEST_MIN
    summaries.BINNED_TEST_MIN = 10**12
    try:
        exact = summaries.predictive_curves(_model(), n_test, n_curves, 2, None)
    finally:
        summaries.BINNED_TEST_MIN = old
    return binned, exact


def test_binned_test_sets_match_per_item_simulation(both_paths):
    # AP: means within 4 standard errors of their difference (30 curves each); sd within
    # 40% (the sd of a 30-sample sd is ~13%). Precision at each recall of the grid: means
    # within 4 SE + 0.002 (the bin read-out moves recall by at most ~1/2000, below 0.002
    # in precision where the curve is steepest here).
    binned, exact = both_paths
    a, b = binned.average_precision.values, exact.average_precision.values
    se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    assert abs(a.mean() - b.mean()) < 4 * se
    assert 0.6 < a.std() / b.std() < 1.4
    pa, pb = binned.precision.values, exact.precision.values
    se_p = np.sqrt(pa.var(axis=0, ddof=1) / 30 + pb.var(axis=0, ddof=1) / 30)
    np.testing.assert_array_less(np.abs(pa.mean(0) - pb.mean(0)), 4 * se_p + 0.002)


def test_binned_counts_are_binomial_in_positives(both_paths):
    # n_pos ~ Binomial(n_test, 0.05): mean 5500, sd 72.3; 30 draws
    binned, _ = both_paths
    n_pos = binned.n_pos.values
    assert abs(n_pos.mean() - 5500) < 5 * 72.3 / np.sqrt(30)
    assert np.all(np.diff(binned.recall.values) > 0)
    assert np.all((binned.precision.values >= 0) & (binned.precision.values <= 1))
    assert np.all(binned.precision.values[:, 0] == 1.0)  # recall 0: the curve's start
