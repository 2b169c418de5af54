"""The per-bin bootstrap of the ROC AUC on large data (``_roc_auc._binned_bootstrap_aucs``).

From 100 000 items the AUC bootstrap draws class counts per merged score bin. Two
references: (1) the same replicate's AUC at full resolution (class counts per distinct
score, exact Mann-Whitney): the merged AUC plus the data's shift must agree to 2% of the
bootstrap standard deviation (the module's claim: the remaining error is the change of
within-bin pairs, far below the sampling spread); (2) DeLong's standard error (an
independent, closed-form variance): the bootstrap SD over 400 replicates agrees within
15% (the SD of an SD estimate from 400 draws is about 3.5%, so 15% is > 4 of its SEs).
"""

from __future__ import annotations

import numpy as np

import bayes_prc as bp
from bayes_prc.empirical import as_ranked
from bayes_prc.frequentist._roc_auc import (
    _auc_from_level_counts,
    _binned_bootstrap_aucs,
    _merged_counts,
)


def _level_counts(y, s):
    levels, inv = np.unique(-s, return_inverse=True)  # highest score first
    cp = np.bincount(inv[y == 1], minlength=levels.size).astype(float)
    cn = np.bincount(inv[y == 0], minlength=levels.size).astype(float)
    return cp, cn


def test_merged_replicates_equal_full_resolution_replicates(rng):
    y, s = bp.Binormal(1.2, 1.0, 0.0, 1.0, 0.1).sample(200_000, random_seed=rng)
    s = np.round(s, 3)  # some ties too
    cp, cn = _level_counts(y, s)
    max_bins = 4000
    total = cp + cn
    before = np.cumsum(total) - total
    _, merged = np.unique(np.floor(before * (max_bins / total.sum())), return_inverse=True)
    full = _auc_from_level_counts(cp[None], cn[None])[0]
    assert abs(full - bp.roc_auc_score(y, s)) < 1e-12  # the level counts are right

    def merge(c):
        return np.bincount(merged, weights=c, minlength=merged.max() + 1)

    shift = full - _auc_from_level_counts(merge(cp)[None], merge(cn)[None])[0]
    reps_full, reps_merged = [], []
    for _ in range(30):  # stratified replicates at full resolution
        rp = rng.multinomial(int(cp.sum()), cp / cp.sum()).astype(float)
        rn = rng.multinomial(int(cn.sum()), cn / cn.sum()).astype(float)
        reps_full.append(_auc_from_level_counts(rp[None], rn[None])[0])
        reps_merged.append(_auc_from_level_counts(merge(rp)[None], merge(rn)[None])[0] + shift)
    err = np.abs(np.array(reps_full) - np.array(reps_merged)).max()
    assert err < 0.02 * np.std(reps_full, ddof=1), (err, np.std(reps_full, ddof=1))


def test_merged_counts_are_whole_tie_groups_in_score_order(rng):
    """Reference: a plain loop over the distinct scores, highest first."""
    y = rng.random(3000) < 0.3
    s = rng.integers(0, 50, 3000).astype(float)  # heavy ties
    cp, cn = _merged_counts(as_ranked(y.astype(int), s), 8)
    levels = np.unique(s)[::-1]
    n_above = 0
    bins = {}
    for v in levels:  # a tie group's bin: where it starts in the descending order
        b = n_above * 8 // s.size
        bins.setdefault(b, [0, 0])
        bins[b][0] += int(np.sum(y[s == v]))
        bins[b][1] += int(np.sum(~y[s == v]))
        n_above += int(np.sum(s == v))
    ref = np.array([bins[b] for b in sorted(bins)], dtype=float)
    np.testing.assert_array_equal(cp, ref[:, 0])
    np.testing.assert_array_equal(cn, ref[:, 1])


def test_binned_bootstrap_sd_matches_delong_and_the_public_path_uses_it(rng):
    y, s = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.2).sample(150_000, random_seed=rng)
    delong = bp.roc_auc_interval(y, s, method="delong")
    cp, cn = _merged_counts(as_ranked(y, s), 4000)
    dist = _binned_bootstrap_aucs(cp, cn, delong.estimate, 400, rng, False)
    assert abs(dist.std(ddof=1) / delong.standard_error - 1) < 0.15
    assert abs(dist.mean() - delong.estimate) < 5 * delong.standard_error / np.sqrt(400) + 1e-6
    boot = bp.roc_auc_interval(y, s, method="bootstrap", n_resamples=200, random_seed=rng)
    assert boot.low < delong.estimate < boot.high
    assert abs(boot.standard_error / delong.standard_error - 1) < 0.25  # 200 replicates
