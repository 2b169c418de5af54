"""Per-bin resampling of large data (bayes_prc.frequentist._aggregate).

References: numpy's own multinomial and Dirichlet samplers (distributional moments), the
per-item bootstrap path of the same engine (forced by patching ``use_counts``) and
scikit-learn's AP on the merged bins.
"""

import numpy as np
import pytest

import bayes_prc.frequentist._bands as bands_mod
import bayes_prc.frequentist._engine as engine
from bayes_prc._core import Progress
from bayes_prc.binormal import Binormal
from bayes_prc.bootstrap import bootstrap_replicates
from bayes_prc.empirical import as_ranked
from bayes_prc.frequentist import ap_interval, bootstrap_pr_band
from bayes_prc.frequentist._aggregate import (
    AGGREGATE_MIN_ITEMS,
    MAX_GROUPS,
    coarsen,
    count_blocks,
    multinomial_rows,
)
from bayes_prc.frequentist._engine import _ap_from_binned, _Bins


@pytest.mark.parametrize(
    "counts", [[5.0, 0, 3, 2, 0, 10], [1.0], [0.0, 7, 0], [2.0] * 300, [1.0, 5e4, 0, 49992.0, 7]]
)
def testmultinomial_rows_moments_equal_the_multinomial(counts):
    # exact row totals; mean N p and covariance N (diag(p) - p p^T) of the multinomial,
    # checked to 5 Monte Carlo standard errors (b = 40 000 rows)
    counts = np.array(counts)
    b = 40_000
    x = multinomial_rows(np.random.default_rng(1), counts, b)
    total = counts.sum()
    assert np.all(x.sum(axis=1) == total) and np.all(x >= 0)
    assert np.all(x[:, counts == 0] == 0)
    p = counts / total
    cov = total * (np.diag(p) - np.outer(p, p))
    se_mean = np.sqrt(np.diag(cov) / b)
    np.testing.assert_array_less(np.abs(x.mean(axis=0) - total * p), 5 * se_mean + 1e-12)
    j = int(np.argmax(counts))
    # variance of a count: its sampling SE is about var * sqrt(2 / b)
    var = x[:, j].var()
    assert abs(var - cov[j, j]) < 5 * cov[j, j] * np.sqrt(2 / b) + 1e-12


def testmultinomial_rows_distribution_matches_numpy_multinomial():
    # the joint law on a small support: chi-square over the observed cells of both
    rng = np.random.default_rng(2)
    counts = np.array([3.0, 1.0, 2.0])
    a = multinomial_rows(rng, counts, 30_000).astype(int)
    b = rng.multinomial(6, counts / 6, size=30_000)
    from scipy import stats

    keys_a = a @ [49, 7, 1]
    keys_b = b @ [49, 7, 1]
    cells = np.union1d(keys_a, keys_b)
    table = np.array([[np.sum(keys_a == c), np.sum(keys_b == c)] for c in cells])
    table = table[table.sum(axis=1) >= 10]
    assert stats.chi2_contingency(table).pvalue > 1e-4


def test_count_blocks_bayesian_equals_dirichlet_summed_per_bin():
    # Dirichlet(1,...,1) item weights summed per bin: mean c/N, var c (N - c) / (N^2 (N + 1))
    cp = np.array([3.0, 1.0, 0.0])
    cn = np.array([2.0, 0.0, 4.0])
    n = cp.sum() + cn.sum()
    prog = Progress(20_000, "t", False)
    rp, rn = next(count_blocks(cp, cn, 20_000, np.random.default_rng(3), "bayesian", prog))
    w = np.concatenate([rp, rn], axis=1)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-12)
    c = np.concatenate([cp, cn])
    mean = c / n
    var = c * (n - c) / (n**2 * (n + 1))
    se = np.sqrt(var / 20_000)
    np.testing.assert_array_less(np.abs(w.mean(axis=0) - mean), 5 * se + 1e-15)
    ok = c > 0
    np.testing.assert_allclose(w.var(axis=0)[ok], var[ok], rtol=0.1)


def test_coarsen_keeps_totals_order_and_exact_ap_of_tied_bins():
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(4)
    k = 50
    cp = np.append(rng.integers(1, 4, k).astype(float), 0.0)
    cn = rng.integers(0, 5, k + 1).astype(float)
    cp2, cn2, g = coarsen(cp, cn, k, 7)
    assert g <= 7 and cp2.sum() == cp.sum() and cn2.sum() == cn.sum() and cp2[-1] == 0
    assert cn2[-1] == cn[-1]  # negatives below every positive stay last
    # AP of the merged bins = sklearn's AP of data whose scores are tied within a bin
    y = np.concatenate([np.repeat([1, 0], [int(a), int(b)]) for a, b in zip(cp2, cn2, strict=True)])
    s = np.concatenate(
        [np.full(int(a + b), -i, float) for i, (a, b) in enumerate(zip(cp2, cn2, strict=True))]
    )
    ref = average_precision_score(y, s)
    np.testing.assert_allclose(_ap_from_binned(cp2[None, :g], cn2[None])[0], ref, rtol=1e-12)
    assert coarsen(cp, cn, k, 100)[2] == k  # no merge needed


@pytest.fixture(scope="module")
def large():
    # just above the per-bin threshold, 20% positives: ~24 000 positive groups -> merged
    y, s = Binormal(1.2, 1.0, 0.0, 1.0, 0.2).sample(AGGREGATE_MIN_ITEMS + 20_000, random_seed=7)
    return as_ranked(y, s)


def _quantiles(r, kind, monkeypatch, per_item, seed):
    if per_item:
        monkeypatch.setattr(engine, "use_counts", lambda n: False)
    d = bootstrap_replicates(r, None, n_resamples=1500, scheme=kind, random_seed=seed)
    monkeypatch.undo()
    return d


@pytest.mark.parametrize("kind", ["stratified", "bayesian"])
def test_per_bin_replicates_match_per_item_replicates(large, kind, monkeypatch):
    # same distribution: mean and 2.5/97.5% quantiles agree within Monte Carlo error
    # (SE of a mean of 1500 replicates is sd/39; quantile SE about 2.5 sd / 39 here)
    bins = _Bins(large)
    assert bins.n_groups > MAX_GROUPS  # the merge is exercised
    a = _quantiles(large, kind, monkeypatch, per_item=False, seed=11)
    b = _quantiles(large, kind, monkeypatch, per_item=True, seed=12)
    sd = b.std()
    assert abs(a.mean() - b.mean()) < 5 * sd * np.sqrt(2 / 1500)
    assert abs(a.std() / sd - 1) < 0.1
    for q in (2.5, 97.5):
        assert abs(np.percentile(a, q) - np.percentile(b, q)) < 0.35 * sd


def test_ap_interval_notes_the_per_bin_draws(large):
    res = ap_interval(large, None, method="bootstrap", n_resamples=200, random_seed=0)
    assert res.note is not None and "merged" in res.note
    assert res.low < res.estimate < res.high
    small = ap_interval([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], method="bootstrap", n_resamples=20)
    assert small.note is None


def test_recall_band_per_bin_matches_per_item(large, monkeypatch):
    kw = dict(n_resamples=400, grid_points=11, confidence_level=0.9)
    a = bootstrap_pr_band(large, None, random_seed=1, **kw)
    monkeypatch.setattr(bands_mod, "use_counts", lambda n: False)
    b = bootstrap_pr_band(large, None, random_seed=2, **kw)
    np.testing.assert_array_equal(a["estimate"].values, b["estimate"].values)
    # band ends within Monte Carlo error at recall 0.1 ... 0.9: 0.5 sd of the replicates
    # (the 5% quantile of 400 replicates has SE ~0.1 sd; two paths ~0.15 sd). Recall 0
    # and 1 are left out: there precision depends on the extreme scores (a discrete,
    # heavy-tailed statistic whose quantiles are not normal-approximable at this size)
    inner = slice(1, -1)
    sd = b["std"].values[inner]
    for end in ("lower", "upper"):
        diff = np.abs(a[end].values[inner] - b[end].values[inner])
        np.testing.assert_array_less(diff, 0.5 * sd)
