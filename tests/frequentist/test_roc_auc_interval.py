"""Confidence intervals for the ROC AUC (``bayes_prc.frequentist.roc_auc_interval``).

References are independent of the code under test: the textbook O(n_pos * n_neg)
structural components of DeLong, DeLong & Clarke-Pearson (1988) written out here from the
pairwise kernel (ties 1/2); scikit-learn's ``roc_auc_score`` for the AUC and for every
bootstrap replicate (on the explicit resamples of ``stratified_indices``); Hanley &
McNeil's (1982) closed form; coverage by simulation from the binormal model, whose AUC is
``Phi(mu / sqrt(2))``. Tolerances: 1e-12 where only summation order differs, 1e-9
(relative) for variances (products and sums of O(n) terms). Simulation checks use at
least 5 Monte Carlo standard errors, so they pass for any seed except with negligible
probability.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special, stats
from sklearn.metrics import roc_auc_score as sk_auc

import bayes_prc as bp
from bayes_prc.bootstrap import bca_interval, stratified_indices
from bayes_prc.empirical import as_ranked
from bayes_prc.exceptions import UndefinedMetricWarning
from bayes_prc.frequentist import ROC_AUC_INTERVAL_METHODS, ROCAUCInterval, roc_auc_interval

Z975 = stats.norm.ppf(0.975)


def tied_data(rng, n=150, prevalence=0.35, decimals=1):
    """Binormal scores rounded to ``decimals`` (many ties, within and across classes)."""
    y = (rng.random(n) < prevalence).astype(np.int64)
    y[:2], y[2:4] = 1, 0
    s = np.round(rng.normal(size=n) + 0.8 * y, decimals)
    return y, s


def reference_components(y, s):
    """Textbook DeLong: explicit kernel psi(X_i, Y_j) over all pairs (ties 1/2)."""
    x, z = s[y == 1], s[y == 0]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)


def reference_variance(y, s):
    auc, v10, v01 = reference_components(y, s)
    m, n = v10.size, v01.size
    s10 = np.sum((v10 - auc) ** 2) / (m - 1)
    s01 = np.sum((v01 - auc) ** 2) / (n - 1)
    return auc, s10 / m + s01 / n


# ------------------------------------------------------------------------ closed forms
def test_delong_variance_equals_textbook_components(rng):
    for decimals in (0, 1, 3):
        y, s = tied_data(rng, n=int(rng.integers(20, 200)), decimals=decimals)
        auc, var = reference_variance(y, s)
        res = roc_auc_interval(y, s)
        assert isinstance(res, ROCAUCInterval) and res.method == "delong"
        assert res.estimate == pytest.approx(auc, abs=1e-12)
        assert res.standard_error**2 == pytest.approx(var, rel=1e-9)
        se = np.sqrt(var)
        assert res.low == pytest.approx(max(0.0, auc - Z975 * se), abs=1e-12)
        assert res.high == pytest.approx(min(1.0, auc + Z975 * se), abs=1e-12)
        assert (res.n_positives, res.n_negatives) == (int(y.sum()), int((1 - y).sum()))
        assert res.n_resamples is None and res.bootstrap_distribution is None


def test_auc_equals_sklearn(rng):
    y, s = tied_data(rng)
    cases = [
        (y, s, {}),
        (y, np.round(s).astype(np.int64), {}),  # integer scores, heavy ties
        (y, s > 0.5, {}),  # boolean scores: two values
        (np.where(y == 1, "spam", "ham"), s, {"pos_label": "spam"}),
        (1 - y, -s, {"pos_label": 0}),
    ]
    for labels, score, kw in cases:
        ref = sk_auc(labels == kw.get("pos_label", 1), score)
        for method in ("delong", "hanley_mcneil"):
            res = roc_auc_interval(labels, score, method=method, **kw)
            assert abs(res.estimate - ref) <= 1e-12
            assert res.low <= res.estimate <= res.high


def test_delong_logit_closed_form(rng):
    y, s = tied_data(rng)
    auc, var = reference_variance(y, s)
    res = roc_auc_interval(y, s, method="delong_logit", confidence_level=0.9)
    half = stats.norm.ppf(0.95) * np.sqrt(var) / (auc * (1 - auc))
    assert res.low == pytest.approx(special.expit(special.logit(auc) - half), abs=1e-12)
    assert res.high == pytest.approx(special.expit(special.logit(auc) + half), abs=1e-12)
    assert res.standard_error**2 == pytest.approx(var, rel=1e-9)
    assert 0 < res.low < auc < res.high < 1


def test_hanley_mcneil_closed_form(rng):
    y, s = tied_data(rng, decimals=2)
    a = sk_auc(y, s)
    na, nn = int(y.sum()), int((1 - y).sum())
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    se = np.sqrt((a * (1 - a) + (na - 1) * (q1 - a * a) + (nn - 1) * (q2 - a * a)) / (na * nn))
    res = roc_auc_interval(y, s, method="hanley_mcneil", confidence_level=0.8)
    z = stats.norm.ppf(0.9)
    assert res.standard_error == pytest.approx(se, rel=1e-12)
    assert res.low == pytest.approx(a - z * se, abs=1e-12)
    assert res.high == pytest.approx(a + z * se, abs=1e-12)


def test_invariant_to_monotone_rescaling(rng):
    y, s = tied_data(rng)
    for method in ("delong", "delong_logit", "hanley_mcneil"):
        r1 = roc_auc_interval(y, s, method=method)
        r2 = roc_auc_interval(y, np.exp(3 * s) - 7, method=method)
        assert (r1.low, r1.high) == pytest.approx((r2.low, r2.high), abs=1e-12)


# ------------------------------------------------------------------------ bootstrap
def test_bootstrap_replicates_equal_sklearn_on_explicit_resamples(rng):
    y, s = tied_data(rng, n=80)
    seed = int(rng.integers(2**31))
    res = roc_auc_interval(y, s, method="bootstrap", n_resamples=40, random_seed=seed)
    idx = stratified_indices(y, 40, random_seed=seed)
    ref = np.array([sk_auc(y[i], s[i]) for i in idx])
    np.testing.assert_allclose(res.bootstrap_distribution, ref, rtol=0, atol=1e-12)
    lo, hi = np.quantile(ref, [0.025, 0.975])
    assert res.low == pytest.approx(lo, abs=1e-12) and res.high == pytest.approx(hi, abs=1e-12)
    assert res.standard_error == pytest.approx(np.std(ref, ddof=1), abs=1e-12)
    assert res.n_resamples == 40 and not res.bootstrap_distribution.flags.writeable


def test_bca_uses_the_exact_jackknife(rng):
    """BCa ends equal bca_interval with leave-one-out AUCs recomputed by scikit-learn."""
    y, s = tied_data(rng, n=60)
    seed = int(rng.integers(2**31))
    res = roc_auc_interval(y, s, method="bca", n_resamples=300, random_seed=seed)
    boot = roc_auc_interval(y, s, method="bootstrap", n_resamples=300, random_seed=seed)
    np.testing.assert_array_equal(res.bootstrap_distribution, boot.bootstrap_distribution)
    keep = np.ones(y.size, dtype=bool)
    loo = []
    for cls in (1, 0):
        vals = []
        for i in np.flatnonzero(y == cls):
            keep[i] = False
            vals.append(sk_auc(y[keep], s[keep]))
            keep[i] = True
        loo.append(np.array(vals))
    ref = bca_interval(sk_auc(y, s), boot.bootstrap_distribution, loo)
    assert res.low == pytest.approx(ref.low, abs=1e-12)
    assert res.high == pytest.approx(ref.high, abs=1e-12)


def test_seed_reproducible_and_generator_accepted(rng):
    y, s = tied_data(rng, n=60)
    r1 = roc_auc_interval(y, s, method="bootstrap", n_resamples=50, random_seed=3)
    r2 = roc_auc_interval(
        y, s, method="bootstrap", n_resamples=50, random_seed=np.random.default_rng(3)
    )
    np.testing.assert_array_equal(r1.bootstrap_distribution, r2.bootstrap_distribution)


# ------------------------------------------------------------------------ coverage
def _coverage(rng, methods, reps, m=60, n=140, mu=1.0, **kw):
    """Share of intervals covering the binormal AUC Phi(mu / sqrt 2), fixed class sizes."""
    true = stats.norm.cdf(mu / np.sqrt(2))
    y = np.r_[np.ones(m, np.int64), np.zeros(n, np.int64)]
    hits = dict.fromkeys(methods, 0)
    for _ in range(reps):
        s = np.r_[rng.normal(mu, 1, m), rng.normal(0, 1, n)]
        for method in methods:
            res = roc_auc_interval(y, s, method=method, **kw)
            hits[method] += res.low <= true <= res.high
    return {k: v / reps for k, v in hits.items()}


def test_delong_coverage(rng):
    """n = 200 binormal (AUC 0.76), nominal 95%: DeLong covers within [0.92, 0.98].

    2000 replicates (MC SE of a 95% coverage: 0.0049); the brief's 400 would leave the
    observed coverage (0.943 over 4000 runs) only 2 MC SE from 0.92, a failure in about
    one run of 40, so the same bounds are checked with five times the replicates (about
    2 s).
    """
    reps = 2000
    cov = _coverage(rng, ("delong", "delong_logit"), reps)
    mc_se = np.sqrt(0.95 * 0.05 / reps)
    assert mc_se < 0.005
    for method, c in cov.items():
        assert 0.92 <= c <= 0.98, (method, c, mc_se)


@pytest.mark.slow
def test_coverage_study_all_methods(rng):
    """20 000 closed-form and 1000 bootstrap replicates (MC SE 0.0015 and 0.007).

    Observed once with 4000 / 2000 replicates: DeLong 0.943, logit 0.954, Hanley-McNeil
    0.963 (conservative for the binormal), bootstrap 0.945, BCa 0.950; the bounds are at
    least 4 MC SE from these.
    """
    cov = _coverage(rng, ("delong", "delong_logit", "hanley_mcneil"), 20_000)
    assert 0.935 <= cov["delong"] <= 0.96, cov
    assert 0.935 <= cov["delong_logit"] <= 0.965, cov
    assert 0.94 <= cov["hanley_mcneil"] <= 0.98, cov
    boot = _coverage(rng, ("bootstrap", "bca"), 1000, n_resamples=500, random_seed=rng)
    for method, c in boot.items():
        assert 0.915 <= c <= 0.985, (method, c)


# ------------------------------------------------------------------------ input
def test_ranked_input_gives_the_same_interval(rng):
    y, s = tied_data(rng)
    r = as_ranked(y, s)
    for method in ROC_AUC_INTERVAL_METHODS:
        a = roc_auc_interval(y, s, method=method, n_resamples=30, random_seed=1)
        b = roc_auc_interval(r, None, method=method, n_resamples=30, random_seed=1)
        assert (a.estimate, a.low, a.high) == (b.estimate, b.low, b.high)
    assert bp.roc_auc_interval is roc_auc_interval


def test_bad_input_named_errors(rng):
    y, s = tied_data(rng, n=40)
    with pytest.raises(ValueError, match="`method` must be one of"):
        roc_auc_interval(y, s, method="DeLong")
    with pytest.raises(ValueError, match="`confidence_level`"):
        roc_auc_interval(y, s, confidence_level=95)
    with pytest.raises(ValueError, match="`n_resamples` must be an integer >= 1; got 0"):
        roc_auc_interval(y, s, method="bootstrap", n_resamples=0)
    with pytest.raises(ValueError, match="`sample_weight` is not supported"):
        roc_auc_interval(y, s, sample_weight=np.ones(40))
    with pytest.raises(ValueError, match="`sample_weight` is not supported"):
        roc_auc_interval(as_ranked(y, s, sample_weight=np.ones(40)), None)
    with pytest.raises(ValueError, match="`sample_weight` has 3 elements"):
        roc_auc_interval(y, s, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="both classes"):
        roc_auc_interval(np.zeros(40, int), s)
    with pytest.raises(ValueError, match="at least 2 positives"):
        roc_auc_interval(np.r_[1, np.zeros(39, int)], s)
    with pytest.raises(ValueError, match="`y_score` contains"):
        roc_auc_interval(y, np.r_[np.nan, s[1:]])
    with pytest.raises(ValueError, match="not both"):
        roc_auc_interval(as_ranked(y, s), s)
    with pytest.raises(ValueError, match="`random_seed`"):
        roc_auc_interval(y, s, method="bootstrap", random_seed="seed")
    # one positive is enough for Hanley-McNeil and the bootstrap
    res = roc_auc_interval(np.r_[1, np.zeros(39, int)], s, method="hanley_mcneil")
    assert 0 <= res.low <= res.estimate <= res.high <= 1


def test_perfect_separation_warns_and_is_a_point(rng):
    y = np.r_[np.ones(10, int), np.zeros(20, int)]
    s = np.r_[rng.uniform(2, 3, 10), rng.uniform(0, 1, 20)]
    for method in ("delong", "delong_logit", "hanley_mcneil"):
        with pytest.warns(UndefinedMetricWarning, match="single point"):
            res = roc_auc_interval(y, s, method=method)
        assert res.estimate == res.low == res.high == 1.0 and res.standard_error == 0.0
    res = roc_auc_interval(y, s, method="bootstrap", n_resamples=20, random_seed=0)
    assert np.all(res.bootstrap_distribution == 1.0)


def test_delong_components_computed_once_per_prepared_data(monkeypatch):
    # a table of AUC intervals on one prepared object (compare_intervals, the report)
    # sorts for DeLong's components once; the intervals are those of separate calls
    import bayes_prc as bp
    from bayes_prc.frequentist import _roc_auc

    rng = np.random.default_rng(3)
    y = rng.random(400) < 0.3
    s = rng.normal(size=400) + y
    calls = []
    real = _roc_auc.delong_components
    monkeypatch.setattr(_roc_auc, "delong_components", lambda *a: calls.append(1) or real(*a))
    table = bp.compare_intervals(y, s, metric="roc_auc", ci_prob=0.9, n_resamples=50, random_seed=0)
    assert len(calls) == 1
    for method in ("delong", "delong_logit", "hanley_mcneil"):
        row = (
            table.loc[method] if method in table.index else table[table["method"] == method].iloc[0]
        )
        ref = bp.roc_auc_interval(y, s, method=method, confidence_level=0.9)
        assert (row["low"], row["high"]) == pytest.approx((ref.low, ref.high), rel=1e-12)
