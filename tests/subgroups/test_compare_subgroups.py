"""compare_subgroups (issue 29): the table, the posterior, edge cases, errors, references.

References: the empirical column against scikit-learn per subgroup; the bootstrap row
against ``ap_interval(method="bootstrap")`` (its estimate is the empirical AP); the
independent row against ``fit_binormal`` on the subgroup alone (Monte Carlo tolerance);
``prob_below_overall`` and the intervals against the draws and ``arviz.hdi``.
"""

from __future__ import annotations

import warnings

import arviz as az
import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

import bayes_prc as bp
from bayes_prc.subgroups import BORDERLINE_NOTE, SubgroupComparison, compare_subgroups
from bayes_prc.subgroups._compare import _probability_mcse
from bayes_prc.subgroups._fit import pooled_curve_summaries

FAST = {"draws": 150, "tune": 150, "chains": 2}


def _data(rng, sizes=(80, 150, 60, 120), mus=(1.5, 1.5, 0.6, 1.2), prevalence=0.2):
    ys, ss, gs = [], [], []
    for g, (n, mu) in enumerate(zip(sizes, mus, strict=True)):
        while True:
            y = rng.random(n) < prevalence
            if 2 <= y.sum() <= n - 2:
                break
        ys.append(y)
        ss.append(np.where(y, rng.normal(mu, 1.0, n), rng.normal(0.0, 1.0, n)))
        gs.append(np.full(n, f"site-{g}"))
    return np.concatenate(ys), np.concatenate(ss), np.concatenate(gs)


@pytest.fixture(scope="module")
def fitted(request, rng_for):
    rng = rng_for(f"{request.node.nodeid}::fitted")
    y, s, g = _data(rng)
    res = compare_subgroups(y, s, g, margin=0.05, random_seed=int(rng.integers(2**32)), **FAST)
    return y, s, g, res


def test_table_and_posterior(fitted):
    y, s, g, res = fitted
    assert isinstance(res, SubgroupComparison)
    cols = ["n", "positives", "empirical", "estimate", "low", "high", "prob_below_others"]
    assert list(res.table.columns[:7]) == cols
    assert res.table.index.tolist() == ["site-0", "site-1", "site-2", "site-3"]
    assert res.posterior.dims == ("chain", "draw", "subgroup")
    assert res.posterior.sizes == {"chain": 2, "draw": 150, "subgroup": 4}
    for label, row in res.table.iterrows():
        mask = g == label
        assert row["n"] == mask.sum() and row["positives"] == y[mask].sum()
        assert row["empirical"] == pytest.approx(average_precision_score(y[mask], s[mask]))
        assert row["low"] <= row["estimate"] <= row["high"]
    # the columns are the draws' summaries
    draws = res.posterior
    np.testing.assert_allclose(res.table["estimate"], draws.mean(("chain", "draw")))
    hdi = az.hdi(draws, prob=0.95)
    np.testing.assert_allclose(res.table["low"], hdi.sel(ci_bound="lower"))
    overall = res.overall.draws.values[..., None]
    below = (draws.values < overall - 0.05).mean(axis=(0, 1))
    np.testing.assert_allclose(res.table["prob_below_overall"], below)
    # the complement of each subgroup, recomputed from the posterior's parameters as the
    # pooled population without that subgroup (its own integration grid)
    post = res.idata["posterior"]
    params = {k: post[k].values for k in ("mu", "sigma", "shift", "scale", "prevalence")}
    n = res.table["n"].to_numpy(dtype=float)
    others = np.empty(draws.shape)
    for j in range(n.size):
        keep = np.arange(n.size) != j
        sub = {k: v[..., keep] for k, v in params.items()}
        others[..., j] = pooled_curve_summaries(sub, n[keep] / n[keep].sum(), np.linspace(0, 1, 3))[
            "average_precision"
        ]
    below_others = (draws.values < others - 0.05).mean(axis=(0, 1))
    # 2e-4 integration differences can move a draw across the margin: allow 1% of draws
    np.testing.assert_allclose(res.table["prob_below_others"], below_others, atol=0.01)
    # the draws behind it are in the posterior (2e-4: the two integration grids)
    np.testing.assert_allclose(post["others_average_precision"].values, others, atol=2e-4)
    flag = res.table["prob_below_others"].to_numpy()
    assert res.table["flagged"].tolist() == (flag > 0.9).tolist()
    below = flag
    mcse = res.table["prob_below_others_mcse"].to_numpy()
    assert np.all(mcse >= 0) and np.all(mcse[(below == 0) | (below == 1)] == 0)
    borderline = np.abs(below - 0.9) < 2 * mcse
    assert res.table["borderline"].tolist() == borderline.tolist()
    assert [BORDERLINE_NOTE in n for n in res.table["note"]] == borderline.tolist()
    assert res.table.attrs["margin"] == 0.05
    assert res.overall.empirical == pytest.approx(average_precision_score(y, s))


def test_curves_bands_and_check(fitted):
    *_, res = fitted
    band = res.pr_band(subgroup=["site-0", "site-2"], ci_prob=0.9)
    assert band["lower"].dims == ("subgroup", "recall")
    assert np.all(band["lower"] <= band["upper"] + 1e-12)
    curves = res.curve_draws(max_draws=50)
    assert curves.shape == (50, 4, 101)
    overall = res.overall.pr_band()
    assert overall.sizes["recall"] == 101
    check = res.fit_check(random_seed=0, n_draws=100)
    assert 0.0 <= check.p_value <= 1.0 and check.p_values.shape == (4,)
    assert "<table" in check._repr_html_()
    assert "<table" in res._repr_html_() and "site-0" in res._repr_html_()
    assert "SubgroupComparison(AP, 4 subgroups" in repr(res)
    with pytest.raises(ValueError, match="`subgroup` 'nowhere'"):
        res.pr_band(subgroup="nowhere")


def test_comparison_rows_against_references(fitted):
    y, s, g, res = fitted
    comp = res.comparison
    assert comp.index.names == ["subgroup", "method"]
    assert set(comp.index.get_level_values("method")) == {"pooled", "independent", "bootstrap"}
    for label in res.table.index:
        mask = g == label
        boot = comp.loc[(label, "bootstrap")]
        assert boot["estimate"] == pytest.approx(average_precision_score(y[mask], s[mask]))
        assert boot["low"] <= boot["estimate"] <= boot["high"]
        # the independent row is the semiparametric model of the subgroup alone: its mean
        # agrees with fit_binormal's within Monte Carlo error (both ~300 effective draws,
        # posterior sd ~0.1: 4 standard errors of the difference is about 0.035)
        ref = bp.fit_binormal(y[mask], s[mask], random_seed=1).average_precision()
        ind = comp.loc[(label, "independent")]
        assert ind["estimate"] == pytest.approx(float(ref.mean()), abs=0.25 * float(ref.std()))
    pooled = comp.xs("pooled", level="method")
    np.testing.assert_allclose(pooled["estimate"], res.table["estimate"])
    # the independent row summarizes the independent draws, shaped as the pooled ones
    ind = res.independent_posterior
    assert ind.dims == ("chain", "draw", "subgroup") and ind.shape == res.posterior.shape
    assert ind["subgroup"].values.tolist() == res.labels
    independent = comp.xs("independent", level="method")
    np.testing.assert_allclose(independent["estimate"], ind.mean(("chain", "draw")))
    np.testing.assert_allclose(independent["low"], az.hdi(ind, prob=0.95).sel(ci_bound="lower"))


def test_same_seed_same_result(rng):
    y, s, g = _data(rng, sizes=(60, 60), mus=(1.5, 1.0))
    seed = int(rng.integers(2**32))
    a = compare_subgroups(y, s, g, random_seed=seed, **FAST)
    b = compare_subgroups(y, s, g, random_seed=seed, **FAST)
    np.testing.assert_array_equal(a.posterior.values, b.posterior.values)
    assert a.table.equals(b.table)


def test_roc_auc_metric(rng):
    y, s, g = _data(rng, sizes=(70, 90), mus=(1.5, 0.8))
    res = compare_subgroups(y, s, g, metric="roc_auc", random_seed=1, **FAST)
    assert res.posterior.name == "roc_auc"
    for label, row in res.table.iterrows():
        mask = g == label
        assert row["empirical"] == pytest.approx(roc_auc_score(y[mask], s[mask]))
    assert "ROC AUC" in repr(res)


def test_edge_cases_no_positive_one_item_any_labels(rng):
    """A subgroup without a positive and one of a single item still get a posterior."""
    y, s, g = _data(rng, sizes=(100, 120), mus=(1.5, 1.2))
    labels = np.array([(1, "a") if v == "site-0" else 2.5 for v in g], dtype=object)
    extra_neg = rng.normal(size=30)
    y = np.concatenate([y, np.zeros(30, bool), [True]])
    s = np.concatenate([s, extra_neg, [1.0]])
    labels = np.concatenate([labels, np.array(["none"] * 30 + ["single"], dtype=object)])
    res = compare_subgroups(y, s, labels, random_seed=2, **FAST)
    t = res.table
    assert len(t) == 4
    assert np.isnan(t.loc["none", "empirical"])
    assert "no positive" in t.loc["none", "note"]
    assert t.loc["single", "note"] == "one item" or "no negative" in t.loc["single", "note"]
    assert np.all(np.isfinite(t[["estimate", "low", "high", "prob_below_overall"]]))
    comp = res.comparison
    assert np.isnan(comp.loc[("none", "independent"), "estimate"])
    assert comp.loc[("none", "bootstrap"), "note"] == "needs both classes"


def test_many_subgroups_any_label_type(rng):
    n = 40 * 30
    g = np.repeat(np.arange(30), 40)
    y = rng.random(n) < 0.2
    s = rng.normal(size=n) + 1.4 * y
    res = compare_subgroups(y, s, g, random_seed=3, draws=60, tune=60, chains=2)
    assert res.table.index.tolist() == list(range(30))
    assert np.all(np.isfinite(res.table["estimate"]))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"subgroup": ["a"] * 5}, "one subgroup id per item"),
        ({"subgroup": ["a"] * 10}, "single subgroup"),
        ({"subgroup": ["a"] * 9 + [None]}, "missing subgroup id"),
        ({"metric": "f1"}, "`metric`"),
        ({"margin": 1.5}, "`margin`"),
        ({"margin": "x"}, "`margin`"),
        ({"ci_prob": 1.5}, "`ci_prob`"),
        ({"draws": 0}, "`draws`"),
        ({"priors": {"mu_spred": 1.0}}, "unknown key"),
        ({"flag_probability": 1.0}, "`flag_probability`"),
    ],
)
def test_errors_name_the_parameter(kwargs, match):
    y = np.array([0, 1] * 5)
    s = np.arange(10.0)
    args = {"subgroup": ["a", "b"] * 5} | kwargs
    sub = args.pop("subgroup")
    with pytest.raises(ValueError, match=match):
        compare_subgroups(y, s, sub, **args)


def test_flag_probability_moves_only_the_threshold(rng):
    """The same fit (same seed) flagged at another threshold: the probabilities are the
    same, ``flagged`` and ``borderline`` follow the threshold, and it is recorded."""
    n = 300
    site = np.repeat(["a", "b", "c"], n // 3)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + np.where(site == "c", 0.3, 1.5) * y
    seed = int(rng.integers(2**32))
    kw = dict(margin=0.05, random_seed=seed, **FAST)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bp.ConvergenceWarning)
        base = compare_subgroups(y, s, site, **kw)
        low = compare_subgroups(y, s, site, flag_probability=0.55, **kw)
    prob = base.table["prob_below_others"].to_numpy()
    np.testing.assert_array_equal(low.table["prob_below_others"], prob)
    assert base.table["flagged"].tolist() == (prob > 0.9).tolist()
    assert low.table["flagged"].tolist() == (prob > 0.55).tolist()
    mcse = low.table["prob_below_others_mcse"].to_numpy()
    assert low.table["borderline"].tolist() == (np.abs(prob - 0.55) < 2 * mcse).tolist()
    assert low.table.attrs["flag_probability"] == 0.55
    assert "above 0.55 flagged" in low._repr_html_()


def test_reduced_coverage_and_shrinkage(rng):
    """A reduced version of benchmarks/coverage_subgroups.py (8 data sets of 5 binormal
    subgroups, 90% intervals): coverage of at least 28 of 40 subgroup intervals (the full
    study measures 0.85-0.94 on binormal data; at 0.85 the chance of fewer than 28 is
    about 0.2%), and the pooled estimates' squared error not gross: below 1.5 times the
    empirical APs' (the study measures 0.55-0.8 times; over 40 subgroups the ratio's
    spread is about 0.15, so 1.5 fails only for a broken fit)."""
    hits = 0
    err_pooled = err_emp = 0.0
    for _ in range(8):
        mus = 1.4 + 0.3 * rng.normal(size=5)
        sizes = rng.integers(60, 200, 5)
        y, s, g = _data(rng, sizes=tuple(sizes), mus=tuple(mus), prevalence=0.15)
        res = compare_subgroups(
            y,
            s,
            g,
            ci_prob=0.9,
            random_seed=int(rng.integers(2**32)),
            draws=200,
            tune=200,
            chains=2,
        )
        truth = bp.binormal.Binormal(mus, np.ones(5), 0.0, 1.0, 0.15).average_precision()
        t = res.table
        hits += int(np.sum((t["low"].to_numpy() <= truth) & (truth <= t["high"].to_numpy())))
        err_pooled += np.sum((t["estimate"].to_numpy() - truth) ** 2)
        err_emp += np.sum((t["empirical"].to_numpy() - truth) ** 2)
    assert hits >= 28
    assert err_pooled < 1.5 * err_emp


def test_probability_mcse_against_the_binomial_error(rng):
    """The flag's Monte Carlo error: with independent draws it is the binomial
    ``sqrt(p (1 - p) / N)`` (to 10%: the ESS estimate's own noise at N = 8000 is a few
    per cent); with autocorrelated draws (an AR(1) chain with coefficient 0.9 thresholded,
    whose ESS is about N / 10 or less) it is at least twice that; 0 where all draws
    agree."""
    p = np.array([0.3, 0.6, 0.9, 0.95])
    iid = rng.random((4, 2000, p.size)) < p
    got = _probability_mcse(iid)
    np.testing.assert_allclose(got, np.sqrt(p * (1 - p) / iid[..., 0].size), rtol=0.1)
    z = np.empty((4, 2000, p.size))
    z[:, 0] = rng.standard_normal((4, p.size))
    for t in range(1, 2000):
        z[:, t] = 0.9 * z[:, t - 1] + np.sqrt(1 - 0.81) * rng.standard_normal((4, p.size))
    sticky = z < stats.norm.ppf(p)
    freq = sticky.mean(axis=(0, 1))
    assert np.all(_probability_mcse(sticky) > 2 * np.sqrt(freq * (1 - freq) / 8000))
    constant = np.zeros((2, 50, 2), dtype=bool)
    constant[..., 1] = True
    assert _probability_mcse(constant).tolist() == [0.0, 0.0]


# ---- issue 39: an id column is refused; labels in natural order ------------------------


def _sizes_labels(sizes):
    return np.concatenate([np.full(k, f"g{i}") for i, k in enumerate(sizes)])


@pytest.mark.parametrize(
    ("sizes", "refused"),
    [
        ([1] * 200, True),  # an id column: one item per subgroup
        ([2] * 100, True),  # pairs (e.g. a visit id of two measurements)
        ([1, 2, 2, 40], True),  # 3 of 4 subgroups hold at most 2 items
        ([1, 2, 3, 40], False),  # exactly half hold at most 2: not "most", accepted
        ([1, 2, 40, 40], False),
        ([3] * 60, False),  # small subgroups of three are a subgrouping
        ([2, 3, 3], False),
    ],
)
def test_id_column_rule_both_sides(sizes, refused):
    """The rule: refused when more than half of the subgroups hold one or two items."""
    from bayes_prc.subgroups import check_subgroups

    g = _sizes_labels(sizes)
    if refused:
        with pytest.raises(ValueError, match=r"`subgroup` looks like an id column") as err:
            check_subgroups(g, g.size)
        small = sum(k <= 2 for k in sizes)
        assert f"{small} of its {len(sizes)} subgroups" in str(err.value)
        assert "np." not in str(err.value)
    else:
        assert check_subgroups(g, g.size).n_clusters == len(sizes)


def test_id_column_refused_before_any_fit(rng, monkeypatch):
    """compare_subgroups refuses an id column before the sampler runs."""
    import bayes_prc.subgroups._compare as mod

    def no_fit(*args, **kwargs):  # pragma: no cover - reached only if the check is missing
        raise AssertionError("the model was fitted")

    monkeypatch.setattr(mod, "fit_subgroups", no_fit)
    y = rng.random(200) < 0.3
    y[:2] = [True, False]
    s = rng.normal(size=200) + y
    with pytest.raises(ValueError, match=r"`subgroup` looks like an id column"):
        compare_subgroups(y, s, [f"s{i}" for i in range(200)])


def _natural_reference(labels):
    """An independent spelling of the natural order for labels "<letters><digits>" and
    plain numbers: numbers first by value, then strings by (prefix, integer suffix)."""
    import re

    nums = sorted(v for v in labels if not isinstance(v, str))
    strs = [v for v in labels if isinstance(v, str)]
    parts = {v: re.fullmatch(r"(\D*)(\d*)", v).groups() for v in strs}
    strs.sort(key=lambda v: (parts[v][0], int(parts[v][1]) if parts[v][1] else -1))
    return nums + strs


def test_natural_key_against_a_reference(rng):
    from bayes_prc.subgroups import natural_key

    labels = [f"s{i}" for i in rng.permutation(120)] + ["site", "a7", "a70", "a8"]
    labels += [float(v) for v in rng.normal(size=5)] + [3, 10, 2]
    order = [labels[i] for i in rng.permutation(len(labels))]
    assert sorted(order, key=natural_key) == _natural_reference(labels)
    assert sorted(["s10", "s2", "s1"], key=natural_key) == ["s1", "s2", "s10"]


def test_table_and_draws_in_natural_order(rng):
    """s2 before s10 in the table, the draws' coordinate and the bands; each subgroup's
    counts still its own (against a direct count)."""
    names = ["s10", "s2", "s1", "s9"]
    sizes = rng.integers(40, 70, size=4)
    g = np.concatenate([np.full(k, n) for n, k in zip(names, sizes, strict=True)])
    y = rng.random(g.size) < 0.3
    for n in names:  # both classes in every subgroup
        idx = np.flatnonzero(g == n)
        y[idx[:2]] = [True, False]
    s = rng.normal(size=g.size) + 1.2 * y
    res = compare_subgroups(y, s, g, random_seed=1, draws=40, tune=40, chains=1)
    assert res.labels == ["s1", "s2", "s9", "s10"]
    assert res.posterior["subgroup"].values.tolist() == res.labels
    for n in names:
        assert res.table.loc[n, "n"] == np.sum(g == n)
        assert res.table.loc[n, "positives"] == np.sum(y[g == n])
        assert res.table.loc[n, "empirical"] == pytest.approx(
            average_precision_score(y[g == n], s[g == n]), abs=1e-12
        )
    assert res.pr_band()["subgroup"].values.tolist() == res.labels


def test_tied_or_tiny_subgroup_keeps_the_posterior_proper(rng):
    """A subgroup whose scores are all tied (its latent scale is not bounded below by its
    data) beside an ordinary one: the cutpoints' prior's unit leaves it out
    (``unit_weights``), so nothing runs away. Before, its log scale ran off (the log
    scales' spread reached 100-900, scales underflowed with a divide-by-zero warning) and
    the ordinary subgroup's AP fell from about 0.48 to 0.18. Bounds: the log scales'
    spread below 10 (its prior is HalfNormal(0.5): 10 is 20 prior sds), and the ordinary
    subgroup's pooled AP within 0.2 of its empirical AP (its posterior sd is about 0.08
    at 40 positives)."""
    from bayes_prc.subgroups._model import subgroup_data, unit_weights

    n = 200
    while True:
        y1 = rng.random(n) < 0.2
        if y1.sum() >= 20:
            break
    s1 = np.where(y1, rng.normal(1.5, 1, n), rng.normal(0, 1, n))
    y2 = rng.random(150) < 0.2
    y = np.concatenate([y1, y2, [True]])
    s = np.concatenate([s1, np.full(150, 0.3), [0.5]])
    g = np.array(["a"] * n + ["tied"] * 150 + ["single"])
    codes = np.array([0] * n + [1] * 150 + [2])
    w = unit_weights(subgroup_data(y, s, codes, np.array(["a", "tied", "single"])))
    assert w[0] == pytest.approx(1.0) and w[1] == 0.0 and w[2] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", bp.ConvergenceWarning)
        res = compare_subgroups(y, s, g, random_seed=int(rng.integers(2**32)), **FAST)
    post = res.idata["posterior"]
    assert float(post["s_log_scale"].max()) < 10
    assert np.all(np.isfinite(post["scale"].values)) and float(post["scale"].min()) > 0
    pooled = float(post["average_precision"].sel(subgroup="a").mean())
    assert abs(pooled - average_precision_score(y1, s1)) < 0.2
    # a constant score ranks nothing: the tied subgroup's AP is its prevalence (draw by
    # draw), its ROC AUC 0.5, as compare_intervals says of tied scores; it is flagged (a
    # useless score for that subgroup), where the population's curve (AP about 0.5)
    # used to stand in for it quietly
    tied = post.sel(subgroup="tied")
    np.testing.assert_allclose(tied["average_precision"], tied["prevalence"], atol=1e-4)
    np.testing.assert_allclose(tied["roc_auc"], 0.5, atol=1e-4)
    assert res.table.loc["tied", "flagged"] and res.table.loc["tied", "estimate"] < 0.35
    assert res.table.loc["tied", "note"].startswith("all scores tied")
    assert res.table.loc["a", "note"] == ""
    assert res.comparison.loc[("tied", "independent"), "note"] == "all scores tied"
