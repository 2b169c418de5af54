"""compare_models: k classifiers ranked with simultaneous rank sets.

References: scikit-learn's weighted AP / ROC AUC for the joint replicates (the same
weights replayed from the seed), statsmodels' Holm adjustment, a direct single-step max-t
computation, and simulation for the family-wise coverage (reduced here, the full study in
benchmarks/coverage_ranking.py, figures in docs/coverage.md).
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score as sk_ap
from sklearn.metrics import roc_auc_score as sk_auc

import bayes_prc as bp
from bayes_prc.empirical import Ranked
from bayes_prc.frequentist import (
    holm,
    max_t_step_down,
    model_replicates,
    pair_standard_errors,
    posterior_rank_sets,
    rank_draws,
    rank_sets,
)


def simulate(rng, n=300, sizes=(0.6, 0.6, 1.0, 1.4), prevalence=0.3, decimals=None):
    y = (rng.random(n) < prevalence).astype(int)
    y[:3], y[3:6] = 1, 0
    s = 1.2 * y[:, None] + rng.normal(size=(n, len(sizes))) * np.asarray(sizes)
    if decimals is not None:
        s = np.round(s, decimals)
    return y, s


# ------------------------------------------------------------------ joint replicates
@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_bayesian_replicates_are_weighted_metrics_of_sklearn(rng, metric):
    """Replayed Dirichlet weights: each replicate is sklearn's weighted metric (1e-12)."""
    y, s = simulate(rng, n=80, decimals=1)  # ties included
    ranked = [Ranked(y.astype(bool), s[:, j], None, 1) for j in range(s.shape[1])]
    seed = int(rng.integers(2**31))
    reps = model_replicates(ranked, 5, "bayesian", np.random.default_rng(seed), metric=metric)
    replay = np.random.default_rng(seed)
    ref = sk_ap if metric == "average_precision" else sk_auc
    for r in range(5):
        w = replay.standard_exponential(size=(1, y.size))[0]
        w /= w.sum()
        for j in range(s.shape[1]):
            assert reps[j, r] == pytest.approx(ref(y, s[:, j], sample_weight=w), abs=1e-12)


def test_stratified_replicates_are_the_metrics_of_the_resampled_items(rng):
    y, s = simulate(rng, n=60, decimals=1)
    ranked = [Ranked(y.astype(bool), s[:, j], None, 1) for j in range(s.shape[1])]
    seed = int(rng.integers(2**31))
    reps = model_replicates(ranked, 4, "stratified", np.random.default_rng(seed), metric="roc_auc")
    replay = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    for r in range(4):
        dp = replay.integers(0, pos.size, size=(1, pos.size))[0]
        dn = replay.integers(0, neg.size, size=(1, neg.size))[0]
        idx = np.r_[pos[dp], neg[dn]]
        for j in range(s.shape[1]):
            assert reps[j, r] == pytest.approx(sk_auc(y[idx], s[idx, j]), abs=1e-12)


def test_two_models_are_the_paired_replicates(rng):
    from bayes_prc.frequentist import paired_replicates

    y, s = simulate(rng, n=90, sizes=(0.8, 1.0))
    ra, rb = (Ranked(y.astype(bool), s[:, j], None, 1) for j in range(2))
    seed = int(rng.integers(2**31))
    a = paired_replicates(ra, rb, 20, "stratified", np.random.default_rng(seed), recall=0.5)
    b = model_replicates([ra, rb], 20, "stratified", np.random.default_rng(seed), recall=0.5)
    np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------ kernels
def test_holm_matches_statsmodels(rng):
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    p = rng.random(12) ** 3
    np.testing.assert_allclose(holm(p), multipletests(p, method="holm")[1], atol=1e-15)


def test_max_t_single_step_against_a_direct_computation(rng):
    k, b = 4, 3000
    est = np.array([0.9, 0.7, 0.69, 0.3])
    reps = est[:, None] + rng.normal(0, 0.05, size=(k, b)) + rng.normal(0, 0.05, size=(1, b))
    better, crit, se = max_t_step_down(est, reps, 0.9, step_down=False)
    # direct: the 0.9 quantile of the largest |centred studentized difference| over pairs
    t = [
        np.abs((reps[i] - reps[j]) - (est[i] - est[j])) / np.std(reps[i] - reps[j], ddof=1)
        for i in range(k)
        for j in range(i + 1, k)
    ]
    c = np.quantile(np.max(t, axis=0), 0.9)
    assert crit == pytest.approx(c, rel=1e-12)
    np.testing.assert_allclose(se, pair_standard_errors(reps))
    for i in range(k):
        for j in range(k):
            if i != j:
                assert better[i, j] == ((est[i] - est[j]) / se[i, j] > c)
    step, _, _ = max_t_step_down(est, reps, 0.9)
    assert np.all(step >= better)  # the step-down declares at least as much
    lo, hi = rank_sets(step)
    assert lo[0] == 1 and hi[-1] == k and np.all(lo <= hi)
    assert lo[1] == lo[2] == 2 and hi[1] == hi[2] == 3  # a near tie stays unresolved


def test_identical_models_are_never_told_apart(rng):
    reps = np.tile(rng.random(500), (3, 1))
    better, crit, _ = max_t_step_down(np.full(3, 0.5), reps, 0.95)
    assert not better.any() and crit == 0.0
    lo, hi = rank_sets(better)
    assert lo.tolist() == [1, 1, 1] and hi.tolist() == [3, 3, 3]


def test_posterior_rank_sets_hold_the_draws_jointly(rng):
    draws = np.array([0.8, 0.75, 0.74, 0.5, 0.49])[:, None] + rng.normal(0, 0.03, (5, 4000))
    lo, hi = posterior_rank_sets(draws, 0.9)
    ranks = rank_draws(draws)
    inside = np.all((ranks >= lo[:, None]) & (ranks <= hi[:, None]), axis=0)
    assert inside.mean() >= 0.9
    assert np.all(lo <= hi) and lo[0] == 1 and hi[-1] == 5


# ------------------------------------------------------------------ compare_models
def test_inputs_mapping_frame_array_give_the_same_result(rng):
    y, s = simulate(rng)
    names = [f"model_{j}" for j in range(s.shape[1])]
    kw = dict(n_resamples=200, random_seed=3)
    a = bp.compare_models(y, s, **kw)
    b = bp.compare_models(y, dict(zip(names, s.T, strict=True)), **kw)
    c = bp.compare_models(y, pd.DataFrame(s, columns=names), **kw)
    for other in (b, c):
        pd.testing.assert_frame_equal(a.table, other.table)
        pd.testing.assert_frame_equal(a.pairs, other.pairs)
    assert a.posterior.dims == ("chain", "draw", "model")
    assert a.posterior.sizes["draw"] == 200


def test_table_pairs_tiers_are_consistent(rng):
    y, s = simulate(rng, n=400)
    res = bp.compare_models(y, s, ci_prob=0.9, n_resamples=500, random_seed=rng)
    t, p = res.table, res.pairs
    assert list(t["rank"]) == list(range(1, 5))
    assert t["estimate"].is_monotonic_decreasing
    assert (t["rank_low"] <= t["rank"]).all() and (t["rank"] <= t["rank_high"]).all()
    assert t["prob_best"].sum() == pytest.approx(1.0)
    emp = [sk_ap(y, s[:, j]) for j in range(4)]
    np.testing.assert_allclose(t.loc[[f"model_{j}" for j in range(4)], "estimate"], emp)
    assert len(p) == 6 and p.index.names == ["model_a", "model_b"]
    assert ((p["low"] <= p["difference"]) & (p["difference"] <= p["high"])).all()
    assert ((p["p_value"] >= 0) & (p["p_value"] <= 1)).all()
    for (a, b), row in p.iterrows():
        if row["verdict"] == f"{a} better":  # declared: a's rank set is not below b's
            assert t.loc[a, "rank_low"] < t.loc[b, "rank_high"]
            assert t.loc[a, "tier"] < t.loc[b, "tier"]
    assert sum(len(tier) for tier in res.tiers) == 4
    assert "ModelComparison" in res._repr_html_()


def test_reference_compares_every_model_with_it(rng):
    y, s = simulate(rng)
    res = bp.compare_models(y, s, reference="model_2", n_resamples=200, random_seed=1)
    assert list(res.pairs.index.get_level_values("model_b")) == ["model_2"] * 3


def test_same_seed_same_result_and_rank_invariance(rng):
    y, s = simulate(rng, decimals=2)
    a = bp.compare_models(y, s, n_resamples=200, random_seed=7)
    b = bp.compare_models(y, np.exp(3 * s), n_resamples=200, random_seed=7)
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.pairs, b.pairs)


def test_clusters_are_resampled_whole(rng):
    y, s = simulate(rng, n=300)
    res = bp.compare_models(y, s, groups=np.arange(300) // 5, n_resamples=200, random_seed=1)
    assert res.attrs["clusters"].startswith("60 clusters")
    single = bp.compare_models(y, s, groups=np.arange(300), n_resamples=200, random_seed=1)
    plain = bp.compare_models(y, s, n_resamples=200, random_seed=1)
    pd.testing.assert_frame_equal(single.table, plain.table)


def test_bad_input_names_the_parameter(rng):
    y, s = simulate(rng, n=50)
    with pytest.raises(ValueError, match="at least 2 models"):
        bp.compare_models(y, s[:, :1])
    with pytest.raises(ValueError, match="duplicate model names: a"):
        bp.compare_models(y, pd.DataFrame(s[:, :2], columns=["a", "a"]))
    with pytest.raises(ValueError, match=r"`scores\['b'\]` has 49 values"):
        bp.compare_models(y, {"a": s[:, 0], "b": s[:-1, 1]})
    with pytest.raises(ValueError, match="`reference` must be one of"):
        bp.compare_models(y, s, reference="nope")
    with pytest.raises(ValueError, match="`method` must be one of"):
        bp.compare_models(y, s, method="bonferroni")
    one = np.zeros(50, dtype=int)
    one[7] = 1  # a single positive ranks nothing: refused, not ranked with false certainty
    with pytest.raises(
        ValueError, match="at least 2 positives and 2 negatives to rank models; got 1 positive"
    ):
        bp.compare_models(one, s)


def _family_wise(rng, reps, k=5, n=300):
    sizes = np.linspace(0.6, 1.6, k)
    sizes[1] = sizes[0]
    big_y, big_s = simulate(rng, n=200_000, sizes=sizes)
    theta = np.array([sk_ap(big_y, big_s[:, j]) for j in range(k)])
    ranks = 1 + np.sum(theta[None, :] > theta[:, None] + 2e-3, axis=1)
    hits = {"max_t": 0, "bayesian_bootstrap": 0}
    for _ in range(reps):
        y, s = simulate(rng, n=n, sizes=sizes)
        res = bp.compare_models(y, s, ci_prob=0.9, n_resamples=500, random_seed=rng)
        for m, frames in res.attrs["methods"].items():
            t = frames["table"].loc[[f"model_{j}" for j in range(k)]]
            hits[m] += bool(np.all((t["rank_low"] <= ranks) & (ranks <= t["rank_high"])))
    return {m: h / reps for m, h in hits.items()}


def test_family_wise_coverage_reduced(rng):
    """80 data sets at nominal 0.9: with the study's family-wise coverage (0.887 for the
    Bayesian sets, 0.967 max-t) a rate below 0.75 has probability 0.0002 (binomial);
    sets that covered only 0.70 would pass with probability 0.2."""
    rates = _family_wise(rng, 80)
    assert rates["max_t"] >= 0.75, rates
    assert rates["bayesian_bootstrap"] >= 0.75, rates


def test_recommended_rank_sets_hold_a_group_of_exact_ties(rng):
    """Five equally good classifiers (the same noise size: every true rank is 1, by
    symmetry): the recommended sets hold all five ranks at once in at least 0.70 of 60
    data sets. The study measured 0.880 (0.027) for max-t (a rate below 0.70 then has
    binomial probability 5e-5, 9e-4 at 0.85) and 0.153 (0.029) for the Bayesian
    bootstrap's sets (docs/coverage.md), which would pass with probability 3e-21; sets
    covering 0.60 would pass with probability 0.07."""
    k, reps, hits = 5, 60, 0
    for _ in range(reps):
        y, s = simulate(rng, n=300, sizes=(1.0,) * k)
        res = bp.compare_models(y, s, ci_prob=0.9, n_resamples=500, random_seed=rng)
        assert res.method == bp.ranking.RECOMMENDED_METHOD
        hits += bool(np.all(res.table["rank_low"] == 1))  # true rank 1 for all
    assert hits / reps >= 0.70, hits


@pytest.mark.slow
def test_family_wise_coverage(rng):
    """200 data sets: the recommended (max-t) sets within 2.5 binomial standard errors
    (0.053) of 0.9 or above. The Bayesian bootstrap's sets are not held to it: this
    population has a tied pair, where they undercover (0.84-0.89 here, 0.15 with five
    exact ties; docs/coverage.md), which is why they are not recommended."""
    rates = _family_wise(rng, 200)
    assert rates["max_t"] >= 0.9 - 0.053, rates


def test_display_draws_the_forest_and_the_rank_sets(rng):
    import matplotlib

    matplotlib.use("Agg")
    y, s = simulate(rng)
    res = bp.compare_models(y, s, n_resamples=200, random_seed=1)
    disp = bp.ModelComparisonDisplay.from_comparison(res)
    forest, ranks = disp.ax_
    shown = {t.get_text(): t.get_position()[1] for t in ranks.get_yticklabels()}
    assert sorted(shown, key=shown.get, reverse=True) == list(res.table.index)  # best on top
    assert len(forest.get_yticklabels()) == len(res.pairs)
    np.testing.assert_array_equal(disp.rank_low, res.table["rank_low"].to_numpy())
    assert disp._repr_png_()[:4] == b"\x89PNG"


def test_recommended_method_is_fixed_and_both_methods_are_kept(rng):
    y, s = simulate(rng, n=200)
    for seed in (1, 2):
        res = bp.compare_models(y, s, n_resamples=200, random_seed=seed)
        assert res.method == res.attrs["recommended"] == bp.ranking.RECOMMENDED_METHOD
        assert set(res.attrs["methods"]) == set(bp.ranking.MODEL_COMPARISON_METHODS)
    other = bp.compare_models(y, s, n_resamples=200, random_seed=2, method="max_t")
    pd.testing.assert_frame_equal(other.table, res.attrs["methods"]["max_t"]["table"])
    assert "chosen by `method`" in other.recommendation
