"""Paired tests of two classifiers: DeLong, permutation (``compare_classifiers``), McNemar.

References are independent of the code under test: the textbook O(n_pos * n_neg) DeLong
covariance from the explicit pairwise kernel (ties 1/2) and scipy's normal distribution;
for the permutation test, the exact permutation distribution enumerated over all 2**n
swaps with scikit-learn's metrics; statsmodels' ``mcnemar`` for McNemar's test.
Tolerances: 1e-9 for DeLong (sums of O(n) products), 1e-12 for McNemar (same formulas).
Statistical checks allow at least 5 Monte Carlo standard errors, so every test passes for
any seed except with negligible probability.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score as sk_ap
from sklearn.metrics import roc_auc_score as sk_auc

import bayes_prc as bp
from bayes_prc.frequentist import MCNEMAR_EXACT_BELOW, McNemarResult, mcnemar_test
from bayes_prc.paired import PairedComparison, compare_classifiers

Z975 = stats.norm.ppf(0.975)


def simulate(rng, n=200, prevalence=0.35, rho=0.6, shift_a=1.0, shift_b=1.0, decimals=None):
    """Correlated bivariate normal scores per item, positives shifted (both classes)."""
    y = (rng.random(n) < prevalence).astype(np.int64)
    y[:3], y[3:6] = 1, 0
    z = rng.multivariate_normal([0.0, 0.0], [[1.0, rho], [rho, 1.0]], n)
    a, b = z[:, 0] + shift_a * y, z[:, 1] + shift_b * y
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return y, a, b


def textbook_delong(y, a, b):
    """AUCs and DeLong's 2 x 2 covariance from the explicit kernel over all pairs."""
    v10, v01, auc = [], [], []
    for s in (a, b):
        x, z = s[y == 1], s[y == 0]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        auc.append(psi.mean())
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    v10, v01, auc = np.array(v10), np.array(v01), np.array(auc)
    m, n = v10.shape[1], v01.shape[1]
    d10, d01 = v10 - auc[:, None], v01 - auc[:, None]
    cov = (d10 @ d10.T) / ((m - 1) * m) + (d01 @ d01.T) / ((n - 1) * n)
    return auc, cov


# ------------------------------------------------------------------------ paired DeLong
def test_paired_delong_equals_textbook(rng):
    for decimals in (None, 1, 0):
        y, a, b = simulate(rng, n=int(rng.integers(30, 250)), shift_b=1.3, decimals=decimals)
        auc, cov = textbook_delong(y, a, b)
        diff = auc[1] - auc[0]
        se = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
        res = compare_classifiers(y, a, b, metric="roc_auc", method="delong")
        assert isinstance(res, PairedComparison)
        assert res.method == "delong" and res.metric == "roc_auc"
        assert res.value_a == pytest.approx(sk_auc(y, a), abs=1e-12)
        assert res.value_b == pytest.approx(sk_auc(y, b), abs=1e-12)
        assert res.estimate == pytest.approx(diff, abs=1e-12)
        assert res.standard_error == pytest.approx(se, rel=1e-9)
        p_ref = 2 * stats.norm.sf(abs(diff) / se)
        assert res.p_value == pytest.approx(p_ref, rel=1e-9, abs=1e-12)
        assert res.low == pytest.approx(diff - Z975 * se, abs=1e-9)
        assert res.high == pytest.approx(diff + Z975 * se, abs=1e-9)
        # a test: its evidence is the p-value, no probability field, no AP in AUC fields
        assert res.prob_b_better is None and res.prob_in_rope is None
        assert res.ap_a is None and res.ap_b is None
        assert res.difference_draws is None and res.null_distribution is None
        assert res.empirical_ap_a == pytest.approx(sk_ap(y, a), abs=1e-12)


def test_metric_roc_auc_defaults_to_delong(rng):
    y, a, b = simulate(rng, n=120)
    r1 = compare_classifiers(y, a, b, metric="roc_auc")
    r2 = compare_classifiers(y, a, b, metric="roc_auc", method="delong", ci_prob=0.95)
    assert r1.method == "delong" and (r1.p_value, r1.low) == (r2.p_value, r2.low)


def test_paired_delong_size_under_null(rng):
    """Exchangeable classifiers: the 5% test rejects 5% of the time (n = 200, 1000 runs)."""
    reps = 1000
    p = np.array(
        [
            compare_classifiers(*simulate(rng), metric="roc_auc", method="delong").p_value
            for _ in range(reps)
        ]
    )
    rate = np.mean(p <= 0.05)
    assert abs(rate - 0.05) <= 5 * np.sqrt(0.05 * 0.95 / reps), rate


def test_identical_classifiers(rng):
    y, a, _ = simulate(rng, n=80, decimals=1)
    d = compare_classifiers(y, a, a.copy(), metric="roc_auc")
    assert d.estimate == 0.0 and d.standard_error == 0.0 and d.p_value == 1.0
    assert d.prob_b_better is None and d.low == d.high == 0.0
    for metric in ("roc_auc", "average_precision"):
        p = compare_classifiers(
            y, a, a.copy(), metric=metric, method="permutation", n_resamples=50, random_seed=rng
        )
        assert p.p_value == 1.0 and np.all(p.null_distribution == 0.0)


def test_fields_say_what_they_hold(rng):
    """A p-value only in ``p_value``; AP-named fields hold AP or None; value_* the metric."""
    y, a, b = simulate(rng, n=120)
    auc_a, auc_b = sk_auc(y, a), sk_auc(y, b)
    for method in ("delong", "permutation"):
        res = compare_classifiers(
            y, a, b, metric="roc_auc", method=method, n_resamples=50, random_seed=rng
        )
        assert 0.0 <= res.p_value <= 1.0 and res.prob_b_better is None
        assert res.ap_a is None and res.ap_b is None
        assert res.value_a == pytest.approx(auc_a, abs=1e-12)
        assert res.value_b == pytest.approx(auc_b, abs=1e-12)
    perm = compare_classifiers(y, a, b, method="permutation", n_resamples=50, random_seed=rng)
    assert perm.prob_b_better is None and perm.ap_a == pytest.approx(sk_ap(y, a), abs=1e-12)
    boot = compare_classifiers(y, a, b, method="bootstrap", n_resamples=50, random_seed=rng)
    assert boot.p_value is None and 0.0 <= boot.prob_b_better <= 1.0


# ------------------------------------------------------------------------ permutation
def kernel_auc(y, s):
    x, z = s[y == 1], s[y == 0]
    return np.mean((x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :]))


def exact_permutation_p(y, a, b, metric):
    """p-value of the exact permutation distribution: all 2**n swaps of the scores.

    Swapping every item negates the statistic, so half of the patterns are computed.
    The AUC is the explicit pairwise kernel (ties 1/2; faster than scikit-learn's here).
    """
    fn = kernel_auc if metric == "roc_auc" else sk_ap
    ra, rb = a, b
    half = []
    for rest in itertools.product((False, True), repeat=y.size - 1):
        swap = np.array((False, *rest))
        half.append(fn(y, np.where(swap, ra, rb)) - fn(y, np.where(swap, rb, ra)))
    null = np.concatenate((half, -np.array(half)))
    obs = fn(y, b) - fn(y, a)
    return obs, np.mean(np.abs(null) >= abs(obs) - 1e-12), null


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_permutation_matches_exact_enumeration(rng, metric):
    y, a, b = simulate(rng, n=9, shift_b=1.5, decimals=1)
    obs, p_exact, exact_null = exact_permutation_p(y, a, b, metric)
    reps = 2000
    res = compare_classifiers(
        y, a, b, metric=metric, method="permutation", n_resamples=reps, random_seed=rng
    )
    assert res.estimate == pytest.approx(obs, abs=1e-12)
    support = np.unique(exact_null)
    gap = np.min(np.abs(res.null_distribution[:, None] - support[None, :]), axis=1)
    assert np.all(gap <= 1e-12)  # every replicate is one of the 2**n swaps
    expected = (1 + reps * p_exact) / (reps + 1)  # mean of the Monte Carlo p-value
    sd = np.sqrt(reps * p_exact * (1 - p_exact)) / (reps + 1)
    assert abs(res.p_value - expected) <= 5 * sd + 1e-12
    assert np.isnan(res.low) and np.isnan(res.high) and res.difference_draws is None


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_permutation_p_uniformish_under_null(rng, metric):
    """Exchangeable classifiers: P(p <= alpha) ~ alpha (Phipson & Smyth: at most alpha).

    Also at a small size with strong correlation and low prevalence, where swapping
    within-classifier ranks (not the scores) was found anti-conservative for AP.
    """
    reps, n_res = 300, 99
    p = np.array(
        [
            compare_classifiers(
                *simulate(rng, n=60, prevalence=0.2, rho=0.9),
                metric=metric,
                method="permutation",
                n_resamples=n_res,
                random_seed=rng,
            ).p_value
            for _ in range(reps)
        ]
    )
    for alpha in (0.1, 0.3, 0.5):
        rate = np.mean(p <= alpha)
        assert abs(rate - alpha) <= 5 * np.sqrt(alpha * (1 - alpha) / reps), (alpha, rate)
    assert abs(p.mean() - 0.505) <= 5 * np.sqrt(1 / 12 / reps)


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_permutation_small_when_b_is_clearly_better(rng, metric):
    y, a, b = simulate(rng, n=300, shift_a=0.5, shift_b=2.0)
    res = compare_classifiers(
        y, a, b, metric=metric, method="permutation", n_resamples=199, random_seed=rng
    )
    assert res.estimate > 0 and res.p_value == 1 / 200
    if metric == "roc_auc":
        assert compare_classifiers(y, a, b, metric="roc_auc").p_value < 1e-6


def test_permutation_reproducible_and_invariant(rng):
    """Same seed, same swaps; one increasing map applied to both classifiers changes nothing."""
    y, a, b = simulate(rng, n=60, decimals=1)
    kw = dict(metric="average_precision", method="permutation", n_resamples=100)
    r1 = compare_classifiers(y, a, b, random_seed=4, **kw)
    r2 = compare_classifiers(
        y, np.exp(a) - 3, np.exp(b) - 3, random_seed=np.random.default_rng(4), **kw
    )
    np.testing.assert_allclose(r1.null_distribution, r2.null_distribution, atol=1e-12)
    assert r1.p_value == r2.p_value and not r1.null_distribution.flags.writeable
    assert r1.value_a == r1.ap_a == pytest.approx(sk_ap(y, a), abs=1e-12)


# ------------------------------------------------------------------------ AP unchanged
def test_average_precision_default_unchanged(rng):
    y, a, b = simulate(rng, n=150)
    seed = int(rng.integers(2**31))
    kw = dict(n_resamples=100, random_seed=seed)
    old = compare_classifiers(y, a, b, method="bootstrap", **kw)
    new = compare_classifiers(y, a, b, metric="average_precision", method="bootstrap", **kw)
    np.testing.assert_array_equal(old.difference_draws, new.difference_draws)
    assert old.metric == "average_precision" and old.p_value is None
    assert (old.value_a, old.value_b) == (old.ap_a, old.ap_b)
    bayes = compare_classifiers(y, a, b, draws=100, chains=1, random_seed=seed)
    explicit = compare_classifiers(y, a, b, method="bayes", draws=100, chains=1, random_seed=seed)
    assert bayes.method == "bayes" and bayes.p_value is None
    np.testing.assert_array_equal(bayes.difference_draws, explicit.difference_draws)


def test_bad_combinations_named_errors(rng):
    y, a, b = simulate(rng, n=40)
    with pytest.raises(ValueError, match="`metric` must be one of"):
        compare_classifiers(y, a, b, metric="auc")
    with pytest.raises(ValueError, match="`method` must be one of"):
        compare_classifiers(y, a, b, method="DeLong")
    with pytest.raises(ValueError, match="pass metric='roc_auc'"):
        compare_classifiers(y, a, b, method="delong")
    with pytest.raises(ValueError, match="with metric='roc_auc'; got 'bootstrap'"):
        compare_classifiers(y, a, b, metric="roc_auc", method="bootstrap")
    with pytest.raises(ValueError, match="`recall`"):
        compare_classifiers(y, a, b, metric="roc_auc", recall=0.5)
    with pytest.raises(ValueError, match="`rope` needs a distribution"):
        compare_classifiers(y, a, b, method="permutation", rope=(-0.01, 0.01))
    with pytest.raises(ValueError, match="`rope` needs a distribution.*'delong'"):
        compare_classifiers(y, a, b, metric="roc_auc", method="delong", rope=(-0.01, 0.01))
    with pytest.raises(ValueError, match="`n_resamples`"):
        compare_classifiers(y, a, b, method="permutation", n_resamples=0)
    with pytest.raises(ValueError, match="`score_b`"):
        compare_classifiers(y, a, b[:-1], metric="roc_auc")
    with pytest.raises(ValueError, match="at least 2 positives"):
        compare_classifiers(np.r_[1, np.zeros(39, int)], a, b, metric="roc_auc")


# ------------------------------------------------------------------------ McNemar
def test_mcnemar_equals_statsmodels(rng):
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    checked = {True: 0, False: 0}
    for _ in range(40):
        n = int(rng.integers(20, 400))
        y, a, b = simulate(rng, n=n, shift_b=float(rng.uniform(0.5, 2.0)))
        thr_a, thr_b = rng.normal(0.5, 0.3, 2)
        for exact in (True, False):
            res = mcnemar_test(y, a, b, thr_a, thr_b, exact=exact)
            right_a, right_b = (a >= thr_a) == (y == 1), (b >= thr_b) == (y == 1)
            table = np.array(
                [
                    [np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                    [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)],
                ]
            )
            np.testing.assert_array_equal(res.table, table)
            bc, cb = table[0, 1], table[1, 0]
            assert (res.n_only_a_correct, res.n_only_b_correct) == (bc, cb)
            assert res.accuracy_a == pytest.approx(np.mean(right_a), abs=1e-15)
            if not exact and bc == cb:  # statsmodels' formula differs (mcnemar_test Notes)
                assert res.statistic == 0.0 and res.p_value == 1.0
                continue
            ref = contingency.mcnemar(table, exact=exact, correction=True)
            assert res.exact is exact
            assert res.statistic == pytest.approx(ref.statistic, abs=1e-12)
            assert res.p_value == pytest.approx(ref.pvalue, abs=1e-12)
            checked[exact] += 1
    assert min(checked.values()) > 20


def test_mcnemar_auto_exact_and_edge_cases():
    # b discordant items right only for A, c only for B (all positives, threshold 0.5)
    def data(b, c, both=5):
        y = np.ones(b + c + both, int)
        a = np.r_[np.ones(b), np.zeros(c), np.ones(both)]
        s = np.r_[np.zeros(b), np.ones(c), np.ones(both)]
        return y, a, s

    below = mcnemar_test(*data(5, MCNEMAR_EXACT_BELOW - 6), 0.5)
    at = mcnemar_test(*data(5, MCNEMAR_EXACT_BELOW - 5), 0.5)
    assert below.exact and not at.exact
    assert below.p_value == pytest.approx(
        stats.binomtest(5, MCNEMAR_EXACT_BELOW - 1).pvalue, abs=1e-12
    )
    none = mcnemar_test(*data(0, 0), 0.5, exact=False)
    assert none.statistic == 0.0 and none.p_value == 1.0
    assert isinstance(none, McNemarResult) and bp.mcnemar_test is mcnemar_test
    y, a, s = data(3, 7)
    same = mcnemar_test(y, a, s, 0.5, 0.5)
    labels = mcnemar_test(np.where(y == 1, "yes", "no"), a, s, 0.5, pos_label="yes")
    assert (same.p_value, same.n_only_b_correct) == (labels.p_value, labels.n_only_b_correct)


def test_mcnemar_named_errors(rng):
    y, a, b = simulate(rng, n=30)
    with pytest.raises(ValueError, match="`threshold_a` must be a finite number"):
        mcnemar_test(y, a, b, np.nan)
    with pytest.raises(ValueError, match="`threshold_b` must be a finite number"):
        mcnemar_test(y, a, b, 0.5, "0.5")
    with pytest.raises(ValueError, match="`exact` must be True, False or None"):
        mcnemar_test(y, a, b, 0.5, exact="yes")
    with pytest.raises(ValueError, match="score_b"):
        mcnemar_test(y, a, b[:-1], 0.5)
    with pytest.raises(ValueError, match="`score_a`"):
        mcnemar_test(y, np.r_[np.inf, a[1:]], b, 0.5)


# --------------------------------------------------------------------------------------
# method="jackknife": the paired jackknife of the AP difference (issue 40, near ties)
# --------------------------------------------------------------------------------------
def brute_jackknife_se(y, a, b, groups=None):
    """Leave each item (or cluster) out, both APs by scikit-learn, textbook formula."""
    keys = np.arange(y.size) if groups is None else np.unique(groups)
    member = np.arange(y.size) if groups is None else groups
    d = np.array(
        [
            sk_ap(y[member != g], b[member != g]) - sk_ap(y[member != g], a[member != g])
            for g in keys
        ]
    )
    m = d.size
    return float(np.sqrt((m - 1) / m * np.sum((d - d.mean()) ** 2)))


@pytest.mark.parametrize("decimals", [None, 1])
def test_jackknife_equals_brute_force(rng, decimals):
    """The O(n) leave-one-out equals n scikit-learn recomputations (ties too), 1e-12."""
    y, a, b = simulate(rng, n=120, rho=0.9, decimals=decimals)
    res = compare_classifiers(y, a, b, method="jackknife", ci_prob=0.9)
    se = brute_jackknife_se(y, a, b)
    assert res.standard_error == pytest.approx(se, rel=1e-12, abs=1e-15)
    assert res.estimate == pytest.approx(sk_ap(y, b) - sk_ap(y, a), abs=1e-12)
    z = stats.norm.ppf(0.95)
    assert res.low == pytest.approx(res.estimate - z * se, abs=1e-12)
    assert res.high == pytest.approx(res.estimate + z * se, abs=1e-12)
    assert res.p_value == pytest.approx(2 * stats.norm.sf(abs(res.estimate) / se), rel=1e-9)
    assert res.prob_b_better is None and res.method == "jackknife"
    assert (res.ap_a, res.ap_b) == (pytest.approx(sk_ap(y, a)), pytest.approx(sk_ap(y, b)))


def test_jackknife_clusters_leave_whole_clusters_out(rng):
    y, a, b = simulate(rng, n=150, rho=0.8)
    groups = rng.integers(0, 30, y.size)
    res = compare_classifiers(y, a, b, method="jackknife", groups=groups)
    assert res.standard_error == pytest.approx(brute_jackknife_se(y, a, b, groups), rel=1e-12)
    single = compare_classifiers(y, a, b, method="jackknife", groups=np.arange(y.size))
    plain_res = compare_classifiers(y, a, b, method="jackknife")
    assert single.standard_error == plain_res.standard_error


def test_jackknife_refusals(rng):
    y, a, b = simulate(rng, n=60)
    with pytest.raises(ValueError, match="metric='roc_auc'"):
        compare_classifiers(y, a, b, metric="roc_auc", method="jackknife")
    one = np.zeros(60, dtype=int)
    one[0] = 1
    with pytest.raises(ValueError, match="at least 2 positives"):
        compare_classifiers(one, a, b, method="jackknife")


def test_jackknife_covers_a_near_tie(rng):
    """Near tie (latent correlation 0.98, B slightly better): 90% coverage of the true
    difference over 300 data sets of n = 200. Truth from 400,000 items (its error, about
    1e-3, is a tenth of the interval's half-width). Bounds: 0.90 +- 4.5 MC se
    (se = sqrt(0.09 / 300) = 0.017) on the low side, 0.985 on the high side."""

    def draw(n, gen):
        y = gen.random(n) < 0.2
        x = gen.normal(size=n) + 1.4 * y
        a = x + gen.normal(0, 0.2, n)
        b = x + gen.normal(0, 0.2, n) + 0.1 * y
        return y, a, b

    big = np.random.default_rng(rng.integers(2**31))
    yb, ab, bb = draw(400_000, big)
    truth = sk_ap(yb, bb) - sk_ap(yb, ab)
    hits = 0
    for _ in range(300):
        y, a, b = draw(200, rng)
        res = compare_classifiers(y, a, b, method="jackknife", ci_prob=0.9)
        hits += res.low <= truth <= res.high
    assert 0.82 <= hits / 300 <= 0.985, hits / 300
