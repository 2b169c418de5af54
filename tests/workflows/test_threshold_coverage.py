"""Reduced coverage of choose_threshold (the full study: benchmarks/coverage_threshold.py).

The violation rate (true precision at the chosen threshold below the target) over 200
calibration sets, against the acceptance bound ``1 - ci_prob + 0.02`` plus 3 Monte Carlo
standard errors ``sqrt(p (1 - p) / 200)`` at ``p`` = the bound (so a correct method fails
with probability well under 0.2%). Truth: analytic (scipy.stats.gamma) or, for the
clustered design, counts above the threshold in 300 000 items.
"""

import numpy as np
from scipy import stats

from bayes_prc.threshold import choose_threshold

SETS = 200
CI_PROB = 0.95
BOUND = 1 - CI_PROB + 0.02
TOLERANCE = BOUND + 3 * np.sqrt(BOUND * (1 - BOUND) / SETS)


def _rates(rows, truth_precision, target, draw, rng, groups=False):
    violated = {r: 0 for r in rows}
    for _ in range(SETS):
        y, s, g = draw(rng)
        c = choose_threshold(
            y, s, min_precision=target, groups=g if groups else None, random_seed=rng
        )
        for r in rows:
            t = c.table.loc[r, "threshold"]
            violated[r] += bool(np.isfinite(t) and truth_precision(t) < target)
    return {r: v / SETS for r, v in violated.items()}


def test_recommended_row_keeps_the_violation_rate(rng):
    # gamma_skewed at prevalence 0.5: negatives Gamma(1.5), positives Gamma(4); 200 each
    pos, neg = stats.gamma(4.0), stats.gamma(1.5)

    def precision(t):
        return pos.sf(t) / (pos.sf(t) + neg.sf(t))

    def draw(r):
        s = np.r_[pos.rvs(200, random_state=r), neg.rvs(200, random_state=r)]
        return np.r_[np.ones(200, bool), np.zeros(200, bool)], s, None

    rows = ("ltt_fixed_sequence", "ltt_bonferroni", "empirical")
    rates = _rates(rows, precision, 0.9, draw, rng)
    c = choose_threshold(*draw(rng)[:2], min_precision=0.9)
    assert c.table.attrs["recommended"] == "ltt_fixed_sequence"
    assert rates["ltt_fixed_sequence"] <= TOLERANCE, rates
    assert rates["ltt_bonferroni"] <= TOLERANCE, rates
    # the truth is wired right: the unguaranteed empirical row violates often (measured
    # 0.4 to 0.5 in this setting; 0.2 is more than 8 Monte Carlo errors below)
    assert rates["empirical"] > 0.2, rates


def _clustered(rng, n_items, a):
    # clusters of 5-10 items with random effects on label (3 v) and score (1.5 u)
    sizes = rng.integers(5, 11, n_items // 5 + 2)
    sizes = sizes[: np.searchsorted(np.cumsum(sizes), n_items) + 1]
    g = np.repeat(np.arange(sizes.size), sizes)[:n_items]
    u, v = rng.normal(size=(2, sizes.size))
    y = rng.random(g.size) < 1 / (1 + np.exp(-(a + 3.0 * v[g])))
    s = 3.0 * y + 1.5 * u[g] + 0.3 * rng.normal(size=g.size)
    return y, s, g


def test_clustered_naive_rows_violate_and_groups_keep(rng):
    # Near-duplicate items in clusters: the naive fixed sequence certifies thresholds the
    # clusters do not support (violation rate measured 0.11 to 0.14 over 200 sets, here
    # asserted above 1 - ci_prob = 0.05, 3.6 Monte Carlo errors below 0.14); with groups=
    # it is within the bound (measured 0.015 to 0.05).
    a = -4.47  # prevalence about 0.1
    y, s, _ = _clustered(rng, 300_000, a)
    order = np.argsort(s)
    s_sorted, pos_above = s[order], np.cumsum(y[order][::-1])[::-1]

    def precision(t):  # positives among the items with score >= t
        i = np.searchsorted(s_sorted, t, side="left")
        return 1.0 if i == s_sorted.size else pos_above[i] / (s_sorted.size - i)

    def draw(r):
        while True:
            y, s, g = _clustered(r, 2000, a)
            if 2 <= y.sum() <= y.size - 2:
                return y, s, g

    naive = _rates(("ltt_fixed_sequence",), precision, 0.8, draw, rng)
    grouped = _rates(("ltt_fixed_sequence",), precision, 0.8, draw, rng, groups=True)
    assert naive["ltt_fixed_sequence"] > 1 - CI_PROB, naive
    assert grouped["ltt_fixed_sequence"] <= TOLERANCE, grouped
