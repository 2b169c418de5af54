"""Tests of the bootstrap engine (:mod:`bayes_prc.bootstrap`).

References are independent implementations run on the same resamples: scikit-learn's
``average_precision_score`` on the explicit resample indices (or with the Dirichlet weights
as ``sample_weight``), ``bayes_prc.auc_pr`` on the explicit resample for the other
estimators, brute-force leave-one-out for the jackknife, and ``scipy.stats.bootstrap`` for
BCa. Tolerances: 1e-12 absolute for AP values (the sums are the same up to the order of
floating-point additions), exact for the other estimators (same kernel and same order).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from bayes_prc import AUC_PR_ESTIMATORS, auc_pr
from bayes_prc import bootstrap as bs
from bayes_prc.frequentist._resample import _block_size

TOL = 1e-12


def _data(rng, n=60, prevalence=0.35, decimals=1):
    """Labels with at least one positive and one negative; rounded scores give ties."""
    y = (rng.random(n) < prevalence).astype(np.int64)
    y[:2] = [1, 0]
    s = np.round(rng.normal(size=n) + y, decimals)
    return y, s


def _seed(rng):
    return int(rng.integers(2**31))


# --------------------------------------------------------------------------------------
# draws
# --------------------------------------------------------------------------------------
def test_stratified_indices_keep_class_sizes(rng):
    y, _ = _data(rng)
    idx = bs.stratified_indices(y, 40, random_seed=_seed(rng))
    n_pos = int(y.sum())
    assert idx.shape == (40, y.shape[0])
    assert np.all(y[idx[:, :n_pos]] == 1)
    assert np.all(y[idx[:, n_pos:]] == 0)


def test_stratified_counts_match_indices(rng):
    y, _ = _data(rng)
    seed = _seed(rng)
    idx = bs.stratified_indices(y, 25, random_seed=seed)
    counts = bs.stratified_counts(y, 25, random_seed=seed)
    for row, c in zip(idx, counts, strict=True):
        np.testing.assert_array_equal(np.bincount(row, minlength=y.shape[0]), c)


def test_stratified_counts_are_uniform_on_average(rng):
    # each positive is drawn once per resample on average: mean count 1, and the
    # multinomial variance (1 - 1/n_pos) per item; 4000 resamples give SE ~ 0.016
    y = np.r_[np.ones(10, dtype=int), np.zeros(30, dtype=int)]
    counts = bs.stratified_counts(y, 4000, random_seed=_seed(rng))
    mean = counts.mean(axis=0)
    assert np.all(np.abs(mean - 1.0) < 6 * np.sqrt((1 - 1 / 10) / 4000))


def test_dirichlet_weights_are_on_the_simplex(rng):
    w = bs.dirichlet_weights(30, 50, random_seed=_seed(rng))
    assert w.shape == (50, 30)
    assert np.all(w > 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------------------
# replicates against scikit-learn on the explicit resamples
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_ap_replicates_equal_sklearn_on_explicit_indices(rng, decimals):
    y, s = _data(rng, n=int(rng.integers(20, 120)), decimals=decimals)
    seed = _seed(rng)
    reps = bs.bootstrap_replicates(y, s, n_resamples=60, random_seed=seed)
    idx = bs.stratified_indices(y, 60, random_seed=seed)
    ref = np.array([average_precision_score(y[i], s[i]) for i in idx])
    np.testing.assert_allclose(reps, ref, rtol=0, atol=TOL)


def test_counts_as_weights_equal_duplicated_resample(rng):
    # integer counts as weights over distinct items = the resample with duplicates
    y, s = _data(rng, decimals=0)
    n = y.shape[0]
    idx = rng.integers(0, n, size=(30, n))  # arbitrary (not stratified) resamples
    idx[:, 0] = np.flatnonzero(y == 1)[0]  # at least one positive
    counts = np.stack([np.bincount(i, minlength=n) for i in idx])
    ours = bs.average_precision_replicates(y, s, counts)
    dup = np.array([average_precision_score(y[i], s[i]) for i in idx])
    weighted = np.array([average_precision_score(y, s, sample_weight=c) for c in counts])
    np.testing.assert_allclose(ours, dup, rtol=0, atol=TOL)
    np.testing.assert_allclose(ours, weighted, rtol=0, atol=TOL)


def test_bayesian_replicates_equal_sklearn_with_dirichlet_weights(rng):
    y, s = _data(rng)
    seed = _seed(rng)
    reps = bs.bootstrap_replicates(y, s, n_resamples=40, scheme="bayesian", random_seed=seed)
    w = bs.dirichlet_weights(y.shape[0], 40, random_seed=seed)
    ref = np.array([average_precision_score(y, s, sample_weight=wi) for wi in w])
    np.testing.assert_allclose(reps, ref, rtol=0, atol=TOL)


@pytest.mark.parametrize("estimator", [e for e in AUC_PR_ESTIMATORS if e != "average_precision"])
@pytest.mark.parametrize("kind", ["stratified", "bayesian"])
def test_other_estimators_equal_auc_pr_on_explicit_resamples(rng, estimator, kind):
    y, s = _data(rng, n=int(rng.integers(10, 70)), decimals=int(rng.integers(0, 3)))
    seed = _seed(rng)
    reps = bs.bootstrap_replicates(
        y, s, estimator=estimator, n_resamples=25, scheme=kind, random_seed=seed
    )
    if kind == "stratified":
        idx = bs.stratified_indices(y, 25, random_seed=seed)
        ref = [auc_pr(y[i], s[i], estimator=estimator) for i in idx]
    else:
        w = bs.dirichlet_weights(y.shape[0], 25, random_seed=seed)
        ref = [auc_pr(y, s, estimator=estimator, sample_weight=wi) for wi in w]
    np.testing.assert_allclose(reps, ref, rtol=0, atol=TOL)


def test_block_size_does_not_change_the_replicates_given_the_replay(rng):
    # a tiny memory budget forces one replicate per block; the replay with the same
    # budget reproduces the resamples, and the values still match scikit-learn
    y, s = _data(rng)
    seed = _seed(rng)
    reps = bs.bootstrap_replicates(y, s, n_resamples=12, random_seed=seed, memory_budget=1)
    idx = bs.stratified_indices(y, 12, random_seed=seed, memory_budget=1)
    ref = np.array([average_precision_score(y[i], s[i]) for i in idx])
    np.testing.assert_allclose(reps, ref, rtol=0, atol=TOL)
    assert _block_size(y.shape[0], 1) == 1
    assert _block_size(1000, bs.DEFAULT_MEMORY_BUDGET) * 1000 * bs.BYTES_PER_ITEM <= (
        bs.DEFAULT_MEMORY_BUDGET
    )


def test_all_negative_replicate_weights_and_no_negatives(rng):
    # without negatives AP is 1 in every replicate
    y = np.ones(7, dtype=int)
    s = rng.normal(size=7)
    np.testing.assert_array_equal(bs.bootstrap_replicates(y, s, n_resamples=5), 1.0)


def test_seed_reproducibility(rng):
    y, s = _data(rng)
    seed = _seed(rng)
    a = bs.bootstrap_replicates(y, s, n_resamples=30, random_seed=seed)
    b = bs.bootstrap_replicates(y, s, n_resamples=30, random_seed=np.random.default_rng(seed))
    np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------------------
# jackknife
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("decimals", [0, 1, 4])
def test_ap_jackknife_equals_brute_force(rng, decimals):
    y, s = _data(rng, n=int(rng.integers(5, 80)), decimals=decimals)
    y[2] = 1  # at least two positives
    ours = bs.jackknife_values(y, s)
    ref = np.array(
        [average_precision_score(np.delete(y, i), np.delete(s, i)) for i in range(y.shape[0])]
    )
    np.testing.assert_allclose(ours, ref, rtol=0, atol=TOL)


@pytest.mark.parametrize("estimator", [e for e in AUC_PR_ESTIMATORS if e != "average_precision"])
def test_other_jackknife_equals_brute_force(rng, estimator):
    y, s = _data(rng, n=30, decimals=1)
    y[2] = 1
    ours = bs.jackknife_values(y, s, estimator=estimator)
    ref = [auc_pr(np.delete(y, i), np.delete(s, i), estimator=estimator) for i in range(30)]
    np.testing.assert_allclose(ours, ref, rtol=0, atol=TOL)


def test_jackknife_of_single_positive_is_nan(rng):
    y = np.array([1, 0, 0, 0])
    vals = bs.jackknife_values(y, rng.normal(size=4))
    assert np.isnan(vals[0]) and np.all(np.isfinite(vals[1:]))


# --------------------------------------------------------------------------------------
# intervals from a distribution
# --------------------------------------------------------------------------------------
def _efron_bca(theta, dist, strata, level):
    """Efron's (1987) formulas written out directly (no shared code with the engine)."""
    from scipy.stats import norm

    b = dist.shape[0]
    z0 = norm.ppf((np.sum(dist < theta) + np.sum(dist <= theta)) / (2 * b))
    num = den = 0.0
    for t in strata:
        m = t.shape[0]
        u = (m - 1) * (t.mean() - t)
        num += np.sum(u**3) / m**3
        den += np.sum(u**2) / m**2
    a = num / (6 * den**1.5)
    out = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        zq = norm.ppf(q)
        out.append(np.quantile(dist, norm.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))))
    return out, z0, a


def test_bca_equals_efron_formulas(rng):
    theta = 0.4
    dist = rng.beta(4, 6, size=500)
    strata = [rng.normal(0.4, 0.01, size=20), rng.normal(0.4, 0.002, size=50)]
    (low, high), z0, a = _efron_bca(theta, dist, strata, 0.9)
    res = bs.bca_interval(theta, dist, strata, confidence_level=0.9)
    assert res.low == pytest.approx(low, abs=1e-12)
    assert res.high == pytest.approx(high, abs=1e-12)
    assert res.bias_correction == pytest.approx(z0, abs=1e-12)
    assert res.acceleration == pytest.approx(a, abs=1e-12)


def test_bca_reduces_to_percentile_without_bias_or_skewness(rng):
    dist = np.sort(rng.normal(size=1001))
    theta = float(np.median(dist))  # z0 = 0 exactly: 500 below, 1 tie, 500 above
    symmetric = [np.array([-1.0, 0.0, 1.0])]  # a = 0
    res = bs.bca_interval(theta, dist, symmetric, confidence_level=0.95)
    assert res.bias_correction == 0.0 and res.acceleration == 0.0
    low, high = bs.percentile_interval(dist, confidence_level=0.95)
    assert res.low == pytest.approx(low, abs=1e-14)
    assert res.high == pytest.approx(high, abs=1e-14)


def test_bca_is_equivariant_under_increasing_affine_maps(rng):
    dist = rng.gamma(3.0, size=400)
    theta = 2.7
    strata = [rng.gamma(3.0, size=30), rng.gamma(2.0, size=15)]
    res = bs.bca_interval(theta, dist, strata)
    c, d = 2.5, -1.0
    mapped = bs.bca_interval(c * theta + d, c * dist + d, [c * t + d for t in strata])
    assert mapped.acceleration == pytest.approx(res.acceleration, rel=1e-10)
    assert mapped.low == pytest.approx(c * res.low + d, rel=1e-10)
    assert mapped.high == pytest.approx(c * res.high + d, rel=1e-10)


def test_bca_is_nan_when_estimate_is_outside_distribution():
    res = bs.bca_interval(2.0, np.array([0.0, 0.5, 1.0]), [np.array([1.0, 2.0, 3.0])])
    assert np.isnan(res.low) and np.isnan(res.high) and res.bias_correction == np.inf


def test_bca_matches_scipy_on_the_same_resamples(rng):
    """scipy.stats.bootstrap(method="BCa") on two samples (positive and negative scores).

    scipy draws ``rng.integers(0, n, (n_resamples, n))`` per sample, in order; the test
    replays that to get the explicit resamples, checks that scipy's bootstrap distribution
    is sklearn's AP on them (else scipy changed its scheme: skip), then feeds scipy's own
    distribution and our exact O(n) jackknife to :func:`bca_interval`. scipy's jackknife is
    brute force, so agreement tests the jackknife and the BCa formulas together.
    """
    from scipy import stats

    y, s = _data(rng, n=40, decimals=2)
    pos, neg = s[y == 1], s[y == 0]

    def ap(p, q, axis=-1):
        return average_precision_score(
            np.r_[np.ones(p.shape[-1]), np.zeros(q.shape[-1])], np.r_[p, q]
        )

    seed = _seed(rng)
    res = stats.bootstrap((pos, neg), ap, n_resamples=199, method="BCa", rng=seed, vectorized=False)
    g = np.random.default_rng(seed)
    ip = g.integers(0, pos.shape[0], (199, pos.shape[0]))
    ineg = g.integers(0, neg.shape[0], (199, neg.shape[0]))
    replay = np.array([ap(pos[a], neg[b]) for a, b in zip(ip, ineg, strict=True)])
    if not np.allclose(replay, res.bootstrap_distribution, rtol=0, atol=TOL):
        pytest.skip("scipy.stats.bootstrap changed its resampling scheme")
    y2 = np.r_[np.ones(pos.shape[0]), np.zeros(neg.shape[0])]
    s2 = np.r_[pos, neg]
    jack = bs.jackknife_values(y2, s2)
    theta = ap(pos, neg)
    ours = bs.bca_interval(
        theta,
        res.bootstrap_distribution,
        [jack[: pos.shape[0]], jack[pos.shape[0] :]],
        confidence_level=0.95,
    )
    assert ours.low == pytest.approx(res.confidence_interval.low, abs=1e-10)
    assert ours.high == pytest.approx(res.confidence_interval.high, abs=1e-10)


def test_percentile_interval_uses_linear_quantiles():
    dist = np.arange(11.0)
    assert bs.percentile_interval(dist, confidence_level=0.5) == (2.5, 7.5)


# --------------------------------------------------------------------------------------
# progress and validation
# --------------------------------------------------------------------------------------
def test_progressbar_writes_to_stderr_only_when_on(rng, capsys):
    y, s = _data(rng)
    bs.bootstrap_replicates(y, s, n_resamples=5, progressbar=True)
    assert "bootstrap: 5/5" in capsys.readouterr().err
    bs.bootstrap_replicates(y, s, n_resamples=5, progressbar=False)
    bs.bootstrap_replicates(y, s, n_resamples=5, progressbar=None)  # not a terminal here
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_resamples": 0}, r"`n_resamples` must be an integer >= 1; got 0"),
        ({"n_resamples": 2.5}, r"`n_resamples` .* got 2.5"),
        ({"scheme": "bayes"}, r"`scheme` must be one of .* got 'bayes'"),
        ({"estimator": "auc"}, r"`estimator` must be one of .* got 'auc'"),
        ({"memory_budget": -1}, r"`memory_budget` .* got -1"),
        ({"progressbar": "yes"}, r"`progressbar` .* got 'yes'"),
        ({"random_seed": "x"}, r"`random_seed` .* got 'x'"),
    ],
)
def test_bootstrap_replicates_validation(rng, kwargs, match):
    y, s = _data(rng)
    with pytest.raises(ValueError, match=match):
        bs.bootstrap_replicates(y, s, **kwargs)


def test_validation_of_data_and_weights(rng):
    y, s = _data(rng)
    with pytest.raises(ValueError, match="no positive"):
        bs.bootstrap_replicates(np.zeros(5), rng.normal(size=5))
    with pytest.raises(ValueError, match=r"`weights` must have shape \(n_resamples, 60\)"):
        bs.average_precision_replicates(y, s, np.ones((2, 3)))
    w = np.ones((2, 60))
    w[1, 4] = -1.0
    with pytest.raises(ValueError, match=r"`weights` must be finite and non-negative; got -1.0"):
        bs.average_precision_replicates(y, s, w)
    with pytest.raises(ValueError, match=r"`n_samples` must be an integer >= 1; got 0"):
        bs.dirichlet_weights(0, 3)
    with pytest.raises(ValueError, match=r"`confidence_level` .* got 1.5"):
        bs.percentile_interval([0.1, 0.2], confidence_level=1.5)
    with pytest.raises(ValueError, match=r"`estimator` .* got 'x'"):
        bs.jackknife_values(y, s, estimator="x")


def test_bootstrap_replicates_kind_is_a_deprecated_alias_of_scheme():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0, 0, 1])
    s = np.linspace(0.0, 1.0, 10)
    new = bs.bootstrap_replicates(y, s, n_resamples=30, scheme="bayesian", random_seed=2)
    with pytest.warns(DeprecationWarning, match="use scheme="):
        old = bs.bootstrap_replicates(y, s, n_resamples=30, kind="bayesian", random_seed=2)
    np.testing.assert_array_equal(new, old)
    with pytest.raises(ValueError, match="`scheme` must be one of"):
        bs.bootstrap_replicates(y, s, scheme="pointwise")
