"""Clustered test sets (``groups=``): validation, cluster bootstrap, Obuchowski's variance.

References: scikit-learn's ``average_precision_score`` / ``roc_auc_score`` on the data
rebuilt from the drawn clusters (the replicates, exact to 1e-12), on the data without a
cluster (the leave-one-cluster-out values), and a Monte Carlo estimate of the sampling
variance of the AUC under clustering (Obuchowski's variance, 20%).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import bayes_prc as bp
from bayes_prc._core.groups import check_groups
from bayes_prc.empirical import as_ranked
from bayes_prc.frequentist._ap import _cluster_jackknife
from bayes_prc.frequentist._engine import _Bins
from bayes_prc.frequentist._roc_auc import _cluster_loo_aucs, delong_components


def clustered(rng, n_clusters=60, max_size=8, effect=1.2):
    """Clusters of 1..max_size items sharing a score effect and a positive-rate effect."""
    sizes = rng.integers(1, max_size + 1, n_clusters)
    g = np.repeat(np.arange(n_clusters), sizes)
    u, v = rng.normal(size=(2, n_clusters))
    p = 1.0 / (1.0 + np.exp(-(-1.0 + effect * v[g])))
    y = (rng.random(g.size) < p).astype(int)
    y[:2] = [0, 1]
    s = 1.0 * y + effect * u[g] + 0.7 * rng.normal(size=g.size)
    return y, s, g


def test_check_groups_errors_and_codes():
    c = check_groups(np.array(["b", "a", "b", "c"]), 4)
    assert c.codes.tolist() == [1, 0, 1, 2] and c.sizes.tolist() == [1, 2, 1]
    assert not c.singletons and check_groups([3, 1, 2], 3).singletons
    with pytest.raises(
        ValueError, match=r"`groups` must hold one cluster id per item \(4\); got 3"
    ):
        check_groups([1, 2, 3], 4)
    with pytest.raises(ValueError, match=r"missing or non-finite cluster id \(nan at index 1\)"):
        check_groups([1.0, np.nan, 2.0], 3)
    with pytest.raises(ValueError, match=r"missing cluster id \(None at index 2\)"):
        check_groups(np.array(["a", "b", None], dtype=object), 3)
    with pytest.raises(ValueError, match="single cluster"):
        check_groups([7, 7, 7], 3)
    mixed = check_groups(np.array([1, "a", 1, "a", 2.5], dtype=object), 5)
    assert mixed.n_clusters == 3 and mixed.codes[0] == mixed.codes[2]


@pytest.mark.parametrize("method", ["logit", "binomial", "bootstrap", "bca", "bayesian_bootstrap"])
def test_ap_interval_singleton_clusters_are_the_ungrouped_result(rng, method):
    y, s, _ = clustered(rng)
    seed = int(rng.integers(1 << 30))
    plain = bp.ap_interval(y, s, method=method, n_resamples=200, random_seed=seed)
    one = bp.ap_interval(
        y, s, method=method, n_resamples=200, random_seed=seed, groups=np.arange(y.size)[::-1]
    )
    assert (one.estimate, one.low, one.high) == (plain.estimate, plain.low, plain.high)
    assert one.note == "every cluster is a single item: ungrouped"


@pytest.mark.parametrize("method", ["delong", "delong_logit", "bootstrap", "bca"])
def test_roc_auc_singleton_clusters_are_the_ungrouped_result(rng, method):
    y, s, _ = clustered(rng)
    seed = int(rng.integers(1 << 30))
    plain = bp.roc_auc_interval(y, s, method=method, n_resamples=200, random_seed=seed)
    one = bp.roc_auc_interval(
        y, s, method=method, n_resamples=200, random_seed=seed, groups=np.arange(y.size)
    )
    assert (one.low, one.high) == (plain.low, plain.high)


def test_obuchowski_variance_of_singletons_is_delong(rng):
    from bayes_prc.frequentist._roc_auc import clustered_delong_variance

    y, s, _ = clustered(rng)
    is_pos = y.astype(bool)
    comp = delong_components(is_pos, s)
    codes = np.arange(y.size)
    var = clustered_delong_variance(comp.v10[0], comp.v01[0], codes[is_pos], codes[~is_pos], y.size)
    ref = bp.roc_auc_interval(y, s).standard_error ** 2
    assert var == pytest.approx(ref, rel=1e-12)


def test_cluster_bootstrap_replicates_are_the_rebuilt_data(rng):
    """Replicate r is the AP / AUC of the clusters drawn in row r, rebuilt item by item."""
    y, s, g = clustered(rng, n_clusters=30)
    seed = int(rng.integers(1 << 30))
    n_res = 40
    ap = bp.ap_interval(y, s, method="bootstrap", n_resamples=n_res, random_seed=seed, groups=g)
    auc = bp.roc_auc_interval(
        y, s, method="bootstrap", n_resamples=n_res, random_seed=seed, groups=g
    )
    pos_per = np.bincount(g, weights=y)
    neg_per = np.bincount(g, weights=1 - y)
    for dist, both in ((ap.bootstrap_distribution, False), (auc.bootstrap_distribution, True)):
        replay = np.random.default_rng(seed)
        draws = replay.integers(0, 30, size=(n_res, 30))  # one block at this size
        bad = np.flatnonzero((pos_per[draws].sum(1) == 0) | (both & (neg_per[draws].sum(1) == 0)))
        while bad.size:
            draws[bad] = replay.integers(0, 30, size=(bad.size, 30))
            bad = bad[
                (pos_per[draws[bad]].sum(1) == 0) | (both & (neg_per[draws[bad]].sum(1) == 0))
            ]
        for r in range(n_res):
            idx = np.concatenate([np.flatnonzero(g == k) for k in draws[r]])
            metric = roc_auc_score if both else average_precision_score
            assert dist[r] == pytest.approx(metric(y[idx], s[idx]), abs=1e-12)


def test_leave_one_cluster_out_values_equal_sklearn(rng):
    y, s, g = clustered(rng, n_clusters=25)
    clusters = check_groups(g, y.size)
    ranked = as_ranked(y, s)
    keep = [k for k in range(25) if 0 < y[g != k].sum() < (g != k).sum()]
    auc = _cluster_loo_aucs(ranked, delong_components(ranked.is_pos, s), clusters)
    np.testing.assert_allclose(
        auc, [roc_auc_score(y[g != k], s[g != k]) for k in keep], rtol=0, atol=1e-12
    )
    keep = [k for k in range(25) if y[g != k].sum() > 0]
    ap = _cluster_jackknife(_Bins(ranked), clusters, "average_precision")
    np.testing.assert_allclose(
        ap, [average_precision_score(y[g != k], s[g != k]) for k in keep], rtol=0, atol=1e-12
    )


def test_obuchowski_variance_matches_the_sampling_variance():
    """Over 400 clustered data sets, the mean clustered variance is within 20% of the
    Monte Carlo variance of the AUC (its own MC error: about 7%); DeLong's, ignoring the
    clusters, is far below it (fixed seed: a check of a variance formula, not of luck)."""
    rng = np.random.default_rng(20261126)
    aucs, clustered_var, naive_var = [], [], []
    for _ in range(400):
        y, s, g = clustered(rng, n_clusters=80, effect=1.5)
        a = bp.roc_auc_interval(y, s, groups=g)
        aucs.append(a.estimate)
        clustered_var.append(a.standard_error**2)
        naive_var.append(bp.roc_auc_interval(y, s).standard_error ** 2)
    mc = np.var(aucs, ddof=1)
    assert np.mean(clustered_var) == pytest.approx(mc, rel=0.2)
    assert np.mean(naive_var) < 0.7 * mc


def test_groups_errors():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.arange(6.0)
    with pytest.raises(ValueError, match="hanley_mcneil"):
        bp.roc_auc_interval(y, s, method="hanley_mcneil", groups=[0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="cross_validation"):
        bp.ap_interval(y, s, method="cross_validation", groups=[0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match=r"one cluster id per item \(6\)"):
        bp.ap_interval(y, s, method="bootstrap", groups=[0, 1])


@pytest.mark.parametrize(
    "kw",
    [
        {"method": "bootstrap"},
        {"method": "bayesian_bootstrap"},
        {"metric": "roc_auc"},
        {},  # the default method: "bayes" ungrouped, and so with singleton clusters
    ],
)
def test_compare_classifiers_singleton_clusters_are_the_ungrouped_result(rng, kw):
    y, s, _ = clustered(rng, n_clusters=40)
    s_b = s + rng.normal(size=s.size)
    seed = int(rng.integers(1 << 30))
    extra = {"draws": 100, "chains": 2} if not kw else {"n_resamples": 200}
    plain = bp.compare_classifiers(y, s, s_b, random_seed=seed, **kw, **extra)
    one = bp.compare_classifiers(
        y, s, s_b, random_seed=seed, groups=np.arange(y.size), **kw, **extra
    )
    assert one.method == plain.method and (one.low, one.high) == (plain.low, plain.high)


def test_paired_cluster_bootstrap_replicates_are_the_rebuilt_data(rng):
    y, s, g = clustered(rng, n_clusters=20)
    s_b = s + rng.normal(size=s.size)
    seed = int(rng.integers(1 << 30))
    res = bp.compare_classifiers(
        y, s, s_b, method="bootstrap", n_resamples=25, random_seed=seed, groups=g
    )
    assert res.method == "bootstrap"
    replay = np.random.default_rng(seed)
    pos_per = np.bincount(g, weights=y)
    for r in range(25):  # paired_replicates draws one replicate per block
        draws = replay.integers(0, 20, size=(1, 20))
        while pos_per[draws].sum() == 0:
            draws = replay.integers(0, 20, size=(1, 20))
        idx = np.concatenate([np.flatnonzero(g == k) for k in draws[0]])
        ref = average_precision_score(y[idx], s_b[idx]) - average_precision_score(y[idx], s[idx])
        assert res.difference_draws[r] == pytest.approx(ref, abs=1e-12)


def test_clustered_paired_delong_is_obuchowski_of_the_differences(rng):
    from bayes_prc.frequentist import paired_delong_test
    from bayes_prc.frequentist._roc_auc import clustered_delong_variance

    y, s, g = clustered(rng, n_clusters=50)
    s_b = s + rng.normal(size=s.size)
    is_pos = y.astype(bool)
    clusters = check_groups(g, y.size)
    test = paired_delong_test(is_pos, s, s_b, clusters)
    comp = delong_components(is_pos, np.vstack((s, s_b)))
    var = clustered_delong_variance(
        comp.v10[1] - comp.v10[0], comp.v01[1] - comp.v01[0], g[is_pos], g[~is_pos], 50
    )
    assert test.standard_error == pytest.approx(np.sqrt(var), rel=1e-12)
    # identical classifiers: no difference and no variance, clustered or not
    same = paired_delong_test(is_pos, s, s.copy(), clusters)
    assert same.difference == 0.0 and same.standard_error == 0.0 and same.p_value == 1.0
    with pytest.raises(ValueError, match="does not take `groups`"):
        bp.compare_classifiers(y, s, s_b, method="bayes", groups=g)
    with pytest.raises(ValueError, match="does not take `groups`"):
        bp.compare_classifiers(y, s, s_b, method="permutation", groups=g)


@pytest.mark.parametrize("over", ["recall", "threshold"])
def test_bootstrap_pr_band_groups(rng, over):
    y, s, g = clustered(rng, n_clusters=30)
    seed = int(rng.integers(1 << 30))
    kw = {"over": over, "n_resamples": 30, "random_seed": seed, "grid_points": 11}
    plain = bp.bootstrap_pr_band(y, s, **kw)
    one = bp.bootstrap_pr_band(y, s, groups=np.arange(y.size), **kw)
    assert one["precision"].equals(plain["precision"])
    band = bp.bootstrap_pr_band(y, s, groups=g, **kw)
    assert band.attrs["n_clusters"] == 30 and "cluster bootstrap" in band.attrs["method"]
    # replicate r is the curve of the data rebuilt from the clusters of row r
    replay = np.random.default_rng(seed)
    draws = replay.integers(0, 30, size=(30, 30))
    pos_per = np.bincount(g, weights=y)
    bad = np.flatnonzero(pos_per[draws].sum(1) == 0)
    while bad.size:
        draws[bad] = replay.integers(0, 30, size=(bad.size, 30))
        bad = bad[pos_per[draws[bad]].sum(1) == 0]
    for r in (0, 7, 29):
        idx = np.concatenate([np.flatnonzero(g == k) for k in draws[r]])
        ref = bp.bootstrap_pr_band(y[idx], s[idx], over=over, n_resamples=1, grid_points=11)
        if over == "recall":
            np.testing.assert_allclose(band["precision"][r], ref["estimate"], atol=1e-12)
        else:  # thresholds are the whole data's grid: compare at the common points
            pts = band["threshold"].values
            ref = bp.bootstrap_pr_band(y[idx], s[idx], over=over, n_resamples=1, grid_points=pts)
            np.testing.assert_allclose(band["precision"][r], ref["estimate"], atol=1e-12)


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_compare_intervals_groups(rng, metric):
    y, s, g = clustered(rng, n_clusters=50)
    seed = int(rng.integers(1 << 30))
    table = bp.compare_intervals(y, s, groups=g, metric=metric, n_resamples=200, random_seed=seed)
    assert table.attrs["clusters"].startswith("50 clusters")
    assert table.attrs["recommended"] == ("delong_logit" if metric == "roc_auc" else "logit")
    assert "cluster" in table.attrs["recommendation"]
    assert not any(m.startswith(("semiparametric", "binormal")) for m in table.index)
    # each row is the grouped interval of its function (same validated clusters)
    fn = bp.roc_auc_interval if metric == "roc_auc" else bp.ap_interval
    row = "delong" if metric == "roc_auc" else "logit"
    ref = fn(y, s, method=row, confidence_level=0.95, groups=g)
    assert (table.loc[row, "low"], table.loc[row, "high"]) == (ref.low, ref.high)
    assert table.loc[row, "design_effect"] == ref.design_effect
    # singletons: the ungrouped table
    plain = bp.compare_intervals(
        y, s, metric=metric, n_resamples=50, random_seed=seed, methods=[row]
    )
    one = bp.compare_intervals(
        y,
        s,
        metric=metric,
        n_resamples=50,
        random_seed=seed,
        methods=[row],
        groups=np.arange(y.size),
    )
    assert one.equals(plain) and "clusters" not in one.attrs


def test_effective_proportion_interval_of_integer_counts_is_proportion_interval():
    from bayes_prc.frequentist._proportion import effective_proportion_interval
    from bayes_prc.intervals import PROPORTION_METHODS, proportion_interval

    for method in PROPORTION_METHODS:
        for k, n in ((0, 7), (3, 7), (7, 7), (41, 120)):
            a = effective_proportion_interval(k, n, method=method, confidence_level=0.9)
            b = proportion_interval(k, n, method=method, confidence_level=0.9)
            assert (a.low, a.high) == pytest.approx((b.low, b.high), abs=1e-12)
    with pytest.raises(ValueError, match="effective counts"):
        effective_proportion_interval(5.0, 4.0, method="wilson", confidence_level=0.9)


@pytest.mark.parametrize("metric", ["f1", "mcc", "precision", "balanced_accuracy"])
def test_cluster_delta_is_the_sandwich_of_the_totals(rng, metric):
    """Reference: finite-difference gradient of the metric in the cell totals, times the
    cluster-robust covariance of the totals (1e-5: the step of the differences)."""
    from bayes_prc.frequentist._operating_kernels import (
        cluster_delta_standard_error,
        metric_value,
    )

    y, s, g = clustered(rng, n_clusters=40)
    pred = s >= np.median(s)
    cell = np.where(pred, np.where(y == 1, 0, 1), np.where(y == 1, 3, 2))
    c = np.zeros((40, 4))
    np.add.at(c, (g, cell), 1.0)
    total = c.sum(axis=0)
    grad = np.empty(4)
    for j in range(4):
        h = 1e-4 * total.sum()
        up, down = total.copy(), total.copy()
        up[j] += h
        down[j] -= h
        grad[j] = (metric_value(metric, up) - metric_value(metric, down)) / (2 * h)
    dev = c - total / 40
    cov = 40 / 39 * dev.T @ dev
    ref = np.sqrt(grad @ cov @ grad)
    assert cluster_delta_standard_error(metric, c) == pytest.approx(ref, rel=1e-5)


def test_operating_point_cluster_bootstrap_replicates_are_the_rebuilt_cells(rng):
    y, s, g = clustered(rng, n_clusters=25)
    seed = int(rng.integers(1 << 30))
    thr = float(np.median(s))
    res = bp.operating_point_interval(
        y,
        s,
        thr,
        metric="precision",
        method="bootstrap",
        n_resamples=30,
        random_seed=seed,
        groups=g,
    )
    replay = np.random.default_rng(seed)
    draws = replay.integers(0, 25, size=(30, 25))
    for r in range(30):
        idx = np.concatenate([np.flatnonzero(g == k) for k in draws[r]])
        top = s[idx] >= thr
        ref = y[idx][top].mean() if top.any() else np.nan
        if np.isfinite(ref):
            assert res.distribution[r] == pytest.approx(ref, abs=1e-12)
    with pytest.raises(ValueError, match="bayes"):
        bp.operating_point_interval(y, s, thr, metric="f1", method="bayes", groups=g)


def test_fit_binormal_groups_on_duplicated_items_recovers_the_original_posterior():
    """Each item copied 4 times is a cluster of 4 identical items: the naive fit is about
    2x too narrow, the grouped one (design effect about 4) as wide as the fit of the
    original items (15%: the jackknife design effect is not exactly 4)."""
    rng = np.random.default_rng(11)
    y = (rng.random(150) < 0.3).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=150) + 1.2 * y
    m = 4
    y4, s4, g4 = np.repeat(y, m), np.repeat(s, m), np.repeat(np.arange(150), m)
    kw = {"draws": 1000, "chains": 2, "random_seed": 1}

    def width(post):
        lo, hi = post.interval(ci_kind="eti", ci_prob=0.9).values
        return hi - lo

    original = width(bp.fit_binormal(y, s, **kw))
    naive = width(bp.fit_binormal(y4, s4, **kw))
    grouped_post = bp.fit_binormal(y4, s4, groups=g4, **kw)
    assert naive < 0.65 * original
    assert width(grouped_post) == pytest.approx(original, rel=0.15)
    assert grouped_post.design_effect == pytest.approx(m, rel=0.25)
    assert grouped_post.n_clusters == 150


def test_fit_binormal_groups_singletons_and_errors(rng):
    y, s, g = clustered(rng, n_clusters=40)
    seed = int(rng.integers(1 << 30))
    plain = bp.fit_binormal(y, s, draws=200, chains=2, random_seed=seed)
    one = bp.fit_binormal(y, s, draws=200, chains=2, random_seed=seed, groups=np.arange(y.size))
    assert np.array_equal(plain.average_precision().values, one.average_precision().values)
    assert one.design_effect is None and plain.design_effect is None
    with pytest.raises(ValueError, match="model='semiparametric'"):
        bp.fit_binormal(y, s, model="parametric", groups=g)


def test_precision_at_k_groups(rng):
    from bayes_prc.frequentist._operating_kernels import cluster_proportion_design_effect

    y, s, g = clustered(rng, n_clusters=50)
    s = np.round(s, 1)  # ties, some at place k
    k = int(rng.integers(10, y.size // 2))
    plain = bp.precision_at_k_interval(y, s, k)
    one = bp.precision_at_k_interval(y, s, k, groups=np.arange(y.size))
    assert (one.low, one.high) == (plain.low, plain.high)
    res = bp.precision_at_k_interval(y, s, k, groups=g)
    assert res.estimate == plain.estimate and res.high - res.low >= plain.high - plain.low - 1e-12
    # without a tie at place k: the effective-count Wilson interval, by hand
    s2 = s + 1e-6 * rng.random(s.size)
    top = np.argsort(-s2, kind="stable")[:k]
    share = np.zeros(y.size)
    share[top] = 1.0
    deff = cluster_proportion_design_effect(
        np.bincount(g, weights=share * y, minlength=50), np.bincount(g, weights=share, minlength=50)
    )
    hits = y[top].sum()
    p_eff, n_eff, z = hits / k, k / deff, 1.959963984540054
    centre = (p_eff + z * z / (2 * n_eff)) / (1 + z * z / n_eff)
    half = z * np.sqrt(p_eff * (1 - p_eff) / n_eff + z * z / (4 * n_eff**2)) / (1 + z * z / n_eff)
    got = bp.precision_at_k_interval(y, s2, k, groups=g)
    assert (got.low, got.high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    with pytest.raises(ValueError, match="does not take `groups`"):
        bp.precision_at_k_interval(y, s, k, method="bootstrap", groups=g)
