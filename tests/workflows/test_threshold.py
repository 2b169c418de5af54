"""choose_threshold against independent references (scipy.stats.binom, brute force, sklearn)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import precision_score

from bayes_prc.threshold import binomial_pvalue, choose_threshold, score_grid


def test_pvalue_matches_scipy_binom(rng):
    # exact identity P(X >= x) = I_p(x, n - x + 1): tolerance 1e-10 (floating point only)
    n = rng.integers(1, 200, 50)
    x = rng.integers(0, n + 1)
    p = rng.uniform(0.05, 0.95, 50)
    ref = stats.binom.sf(x - 1, n, p)
    np.testing.assert_allclose(binomial_pvalue(x, n, p), ref, rtol=1e-10, atol=1e-12)


def test_bonferroni_row_matches_brute_force(rng):
    y = rng.random(300) < 0.4
    s = rng.normal(1.5 * y, 1.0)
    c = choose_threshold(y, s, min_precision=0.7, random_seed=1)
    grid = score_grid(s)
    ok = [
        t
        for t in grid
        if (s >= t).sum() > 0
        and stats.binom.sf((y & (s >= t)).sum() - 1, (s >= t).sum(), 0.7) <= 0.05 / grid.size
    ]
    expected = min(ok) if ok else np.nan
    got = c.table.loc["ltt_bonferroni", "threshold"]
    assert (np.isnan(expected) and np.isnan(got)) or got == expected
    emp = c.table.loc["empirical", "threshold"]
    assert precision_score(y, s >= emp) >= 0.7  # sklearn: the empirical row reaches the target


def test_refusals_and_uncertifiable(rng):
    y = rng.random(100) < 0.5
    s = rng.random(100)
    with pytest.raises(ValueError, match="exactly one"):
        choose_threshold(y, s)
    with pytest.raises(ValueError, match="min_precision"):
        choose_threshold(y, s, min_precision=1.5)
    c = choose_threshold(y, s, min_precision=0.99, random_seed=0)
    assert not c.certified and c.threshold is None and "no threshold certifies" in c.guarantee


def test_same_seed_same_result(rng):
    y = rng.random(400) < 0.3
    s = rng.normal(2 * y, 1.0)
    a = choose_threshold(y, s, min_precision=0.8, random_seed=3)
    b = choose_threshold(y, s, min_precision=0.8, random_seed=3)
    assert a.table.equals(b.table) and a.threshold == b.threshold
