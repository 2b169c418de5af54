"""Tests for :mod:`bayes_prc.intervals` against independent references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import brentq
from scipy.special import expit, logit

from bayes_prc.intervals import (
    PROPORTION_METHODS,
    ConfidenceInterval,
    ProportionInterval,
    logit_interval,
    proportion_interval,
    wald_interval,
)

sm_proportion = pytest.importorskip("statsmodels.stats.proportion")

LEVELS = (0.8, 0.95, 0.99)
NS = (1, 2, 5, 17, 100, 1000)


def _grid() -> tuple[np.ndarray, np.ndarray]:
    """All (k, n) for n in NS, with k subsampled (but including 0..3, n-3..n) for n=1000."""
    ks, ns = [], []
    for n in NS:
        if n <= 100:
            k = np.arange(n + 1)
        else:
            k = np.unique(np.r_[0:4, np.linspace(0, n, 41).astype(int), n - 3 : n + 1])
        ks.append(k)
        ns.append(np.full(k.shape, n))
    return np.concatenate(ks), np.concatenate(ns)


K_GRID, N_GRID = _grid()

# our name -> statsmodels name
SM_METHODS = {
    "wald": "normal",
    "wilson": "wilson",
    "clopper_pearson": "beta",
    "jeffreys": "jeffreys",
}


# --------------------------------------------------------------------------
# statsmodels reference
# --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("method", sorted(SM_METHODS))
def test_matches_statsmodels(method, level):
    # Tolerance 1e-10 absolute: both sides evaluate the same closed forms /
    # the same scipy beta quantiles, so agreement is to rounding (~1e-16).
    res = proportion_interval(K_GRID, N_GRID, method=method, confidence_level=level)
    lo, hi = sm_proportion.proportion_confint(
        K_GRID, N_GRID, alpha=1 - level, method=SM_METHODS[method]
    )
    np.testing.assert_allclose(res.low, lo, rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.high, hi, rtol=0, atol=1e-10)


# --------------------------------------------------------------------------
# likelihood ratio
# --------------------------------------------------------------------------


def _lr_stat(p0: float, k: int, n: int) -> float:
    """2 (l(k/n) - l(p0)) written directly, l(p) = k log p + (n-k) log(1-p)."""

    def loglik(p):
        out = 0.0
        if k > 0:
            out += k * math.log(p)
        if n - k > 0:
            out += (n - k) * math.log1p(-p)
        return out

    return 2.0 * (loglik(k / n) - loglik(p0))


@pytest.mark.parametrize("level", LEVELS)
def test_likelihood_ratio_against_brentq(level):
    # Independent scalar reference: scipy.optimize.brentq per case at xtol=1e-14
    # (rtol at its minimum).  Both solvers resolve the root to ~1e-14, so 1e-9
    # leaves ample room.
    c = stats.chi2.ppf(level, df=1)
    res = proportion_interval(K_GRID, N_GRID, method="likelihood_ratio", confidence_level=level)
    for i, (k, n) in enumerate(zip(K_GRID.tolist(), N_GRID.tolist(), strict=True)):
        p_hat = k / n

        def g(p, k=k, n=n):
            return _lr_stat(p, k, n) - c

        ref_lo = 0.0 if k == 0 else brentq(g, 1e-300, p_hat, xtol=1e-14)
        ref_hi = 1.0 if k == n else brentq(g, p_hat, math.nextafter(1.0, 0.0), xtol=1e-14)
        assert res.low[i] == pytest.approx(ref_lo, abs=1e-9), (k, n)
        assert res.high[i] == pytest.approx(ref_hi, abs=1e-9), (k, n)


@pytest.mark.parametrize("level", LEVELS)
def test_likelihood_ratio_statistic_at_ends(level):
    # The LR statistic equals the chi2_1 quantile at every finite (interior) end.
    # Tolerance 1e-9 relative: the statistic is re-evaluated (in plain Python)
    # at the returned root; its slope is ~2k/p, so root errors of a few ulp
    # show up as ~1e-12 relative (observed max ~1e-12 on this grid).
    c = stats.chi2.ppf(level, df=1)
    res = proportion_interval(K_GRID, N_GRID, method="likelihood_ratio", confidence_level=level)
    for i, (k, n) in enumerate(zip(K_GRID.tolist(), N_GRID.tolist(), strict=True)):
        if k > 0:
            assert _lr_stat(float(res.low[i]), k, n) == pytest.approx(c, rel=1e-9), (k, n)
        if k < n:
            assert _lr_stat(float(res.high[i]), k, n) == pytest.approx(c, rel=1e-9), (k, n)


def test_likelihood_ratio_limits():
    c = stats.chi2.ppf(0.95, df=1)
    for n in (1, 2, 17, 1000):
        r0 = proportion_interval(0, n, method="likelihood_ratio")
        assert r0.low == 0.0
        assert r0.high == pytest.approx(1 - math.exp(-c / (2 * n)), rel=1e-14)
        rn = proportion_interval(n, n, method="likelihood_ratio")
        assert rn.high == 1.0
        assert rn.low == pytest.approx(math.exp(-c / (2 * n)), rel=1e-14)
    # n = 1: both outcomes are boundary cases and mirror each other
    r0 = proportion_interval(0, 1, method="likelihood_ratio")
    r1 = proportion_interval(1, 1, method="likelihood_ratio")
    assert r0.high == pytest.approx(1 - r1.low, abs=1e-15)
    # symmetry low(k, n) = 1 - high(n - k, n)
    k = np.arange(18)
    a = proportion_interval(k, 17, method="likelihood_ratio")
    b = proportion_interval(17 - k, 17, method="likelihood_ratio")
    np.testing.assert_allclose(a.low, 1 - b.high, atol=1e-15)


# --------------------------------------------------------------------------
# logit
# --------------------------------------------------------------------------


def test_logit_hand_computation():
    k, n, level = 13, 40, 0.9
    p = k / n
    z = stats.norm.ppf(0.95)
    eta = math.log(p / (1 - p))
    tau = 1 / math.sqrt(n * p * (1 - p))
    lo = 1 / (1 + math.exp(-(eta - z * tau)))
    hi = 1 / (1 + math.exp(-(eta + z * tau)))
    res = proportion_interval(k, n, method="logit", confidence_level=level)
    assert res.low == pytest.approx(lo, rel=1e-13)
    assert res.high == pytest.approx(hi, rel=1e-13)
    # the estimate-based entry point agrees
    res2 = logit_interval(p, n, confidence_level=level)
    assert res2.low == pytest.approx(lo, rel=1e-13)
    assert res2.high == pytest.approx(hi, rel=1e-13)
    assert res2.method == "logit"


def test_logit_boundaries_haldane():
    z = stats.norm.ppf(0.975)
    for n in (1, 2, 5, 100):
        pt = 0.5 / (n + 1)
        tau = 1 / math.sqrt(n * pt * (1 - pt))
        r0 = proportion_interval(0, n, method="logit")
        assert r0.low == 0.0
        assert r0.high == pytest.approx(expit(logit(pt) + z * tau), rel=1e-13)
        rn = proportion_interval(n, n, method="logit")
        assert rn.high == 1.0
        ptn = (n + 0.5) / (n + 1)
        assert rn.low == pytest.approx(expit(logit(ptn) - z * tau), rel=1e-13)
        # mirror image
        assert rn.low == pytest.approx(1 - r0.high, abs=1e-14)


def test_logit_non_integer_estimate_and_no_nan():
    # Boyd et al. use case: non-integer AP estimate, n = number of positives.
    res = logit_interval([0.0, 1e-300, 0.4137, 1 - 1e-12, 1.0], [25, 3, 25, 7.5, 25])
    assert not np.any(np.isnan(res.low)) and not np.any(np.isnan(res.high))
    assert np.all(res.low <= res.estimate) and np.all(res.estimate <= res.high)
    for level in LEVELS:
        r = proportion_interval(K_GRID, N_GRID, method="logit", confidence_level=level)
        assert np.all(np.isfinite(r.low)) and np.all(np.isfinite(r.high))


def test_wald_interval_direct():
    res = wald_interval(np.array([0.25, 0.0]), 30.5, confidence_level=0.99)
    z = stats.norm.ppf(0.995)
    half = z * math.sqrt(0.25 * 0.75 / 30.5)
    np.testing.assert_allclose(res.low, [0.25 - half, 0.0], rtol=1e-14)
    np.testing.assert_allclose(res.high, [0.25 + half, 0.0], rtol=1e-14)
    np.testing.assert_allclose(res.successes, [0.25 * 30.5, 0.0])
    r = proportion_interval(3, 10, method="wald")
    assert r.low == pytest.approx(wald_interval(0.3, 10).low, rel=1e-15)


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_ordering(method, level):
    res = proportion_interval(K_GRID, N_GRID, method=method, confidence_level=level)
    low, high, est = res.low, res.high, res.estimate
    assert np.all(np.isfinite(low)) and np.all(np.isfinite(high))
    assert np.all(low >= 0) and np.all(high <= 1) and np.all(low <= high)
    if method == "jeffreys":
        # statsmodels convention: no boundary fix, so at k = 0 (k = n) the
        # interval lies strictly above (below) the estimate.
        inner = (K_GRID > 0) & (K_GRID < N_GRID)
        assert np.all(low[K_GRID == 0] > 0) and np.all(high[K_GRID == N_GRID] < 1)
        assert np.all(low[inner] <= est[inner]) and np.all(est[inner] <= high[inner])
    else:
        assert np.all(low <= est) and np.all(est <= high)


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_width_shrinks_with_n(method):
    ns = np.array([10, 20, 40, 100, 200, 1000])
    for p_hat in (0.1, 0.3, 0.5, 0.7):
        w = proportion_interval(np.round(p_hat * ns), ns, method=method).width
        assert np.all(np.diff(w) < 0), (p_hat, w)
    for p_hat in (0.0, 1.0):
        w = proportion_interval(p_hat * ns, ns, method=method).width
        assert np.all(np.diff(w) <= 0), (p_hat, w)


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_vectorized_equals_elementwise(method):
    # 2-d broadcast of k (column) against n (row), only valid pairs used.
    k = np.array([[0], [1], [3], [5]])
    n = np.array([5, 7, 17])
    res = proportion_interval(k, n, method=method, confidence_level=0.9)
    assert res.low.shape == (4, 3)
    for i in range(4):
        for j in range(3):
            r = proportion_interval(int(k[i, 0]), int(n[j]), method=method, confidence_level=0.9)
            assert isinstance(r.low, float) and isinstance(r.high, float)
            assert res.low[i, j] == pytest.approx(r.low, rel=1e-14, abs=1e-15)
            assert res.high[i, j] == pytest.approx(r.high, rel=1e-14, abs=1e-15)
            assert res.estimate[i, j] == r.estimate


def test_coverage_p03_n50():
    # Exact coverage: sum of Binomial(50, 0.3) pmf over k whose interval holds p.
    p, n = 0.3, 50
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k, n, p)

    def coverage(method):
        r = proportion_interval(k, n, method=method, confidence_level=0.95)
        return float(np.sum(pmf[(r.low <= p) & (p <= r.high)]))

    assert coverage("clopper_pearson") >= 0.95
    for method in ("wilson", "jeffreys", "likelihood_ratio"):
        assert 0.92 <= coverage(method) <= 0.98, method


# --------------------------------------------------------------------------
# result object
# --------------------------------------------------------------------------


def test_result_object():
    r = proportion_interval(3, 10, method="clopper_pearson", confidence_level=0.9)
    assert isinstance(r, ProportionInterval)
    assert r.method == "clopper_pearson" and r.confidence_level == 0.9
    assert r.successes == 3.0 and r.trials == 10.0 and r.estimate == 0.3
    assert isinstance(r.confidence_interval, ConfidenceInterval)
    assert r.confidence_interval == (r.low, r.high)
    assert r.width == r.high - r.low
    with pytest.raises(AttributeError):
        r.low = 0.0  # frozen
    ra = proportion_interval([3, 4], 10)
    assert isinstance(ra.low, np.ndarray) and ra.low.shape == (2,)
    assert not ra.low.flags.writeable
    assert proportion_interval(3.0, np.int64(10)).low == proportion_interval(3, 10).low
    empty = proportion_interval(np.array([], dtype=int), 5, method="likelihood_ratio")
    assert empty.low.shape == (0,)


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"successes": 1, "trials": 0}, r"trials must be positive integers.*got 0"),
        ({"successes": 1, "trials": [5, 2.5]}, r"trials must be positive integers.*2\.5"),
        ({"successes": 1.5, "trials": 5}, r"successes must be integers.*1\.5"),
        ({"successes": -1, "trials": 5}, r"0 <= successes <= trials.*successes=-1"),
        ({"successes": [1, 6], "trials": 5}, r"0 <= successes <= trials.*successes=6"),
        ({"successes": np.nan, "trials": 5}, r"successes must be finite.*nan"),
        ({"successes": 1, "trials": np.inf}, r"trials must be finite.*inf"),
        ({"successes": "3", "trials": 5}, r"successes must be real numbers"),
        ({"successes": [1, 2], "trials": [3, 4, 5]}, r"not broadcastable"),
        (
            {"successes": 1, "trials": 5, "confidence_level": 1.0},
            r"confidence_level.*\(0, 1\).*1\.0",
        ),
        ({"successes": 1, "trials": 5, "confidence_level": 0}, r"confidence_level.*got 0"),
        (
            {"successes": 1, "trials": 5, "confidence_level": [0.9]},
            r"`confidence_level` must be a number in \(0, 1\); got \[0\.9\]",
        ),
        (
            {"successes": 1, "trials": 5, "method": "wils"},
            r"`method` must be one of .*'wilson'.*'wils'",
        ),
        (
            {"successes": 1, "trials": 5, "method": "beta"},
            r"one of \('wald', 'wilson', .*got 'beta'",
        ),
    ],
)
def test_proportion_interval_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        proportion_interval(**kwargs)


@pytest.mark.parametrize("func", [logit_interval, wald_interval])
def test_estimate_n_validation(func):
    with pytest.raises(ValueError, match=r"estimate must be in \[0, 1\].*1\.2"):
        func(1.2, 10)
    with pytest.raises(ValueError, match=r"n must be positive.*-3"):
        func(0.5, -3)
    with pytest.raises(ValueError, match=r"estimate must be finite"):
        func(np.nan, 10)
    with pytest.raises(
        ValueError, match=r"`confidence_level` must be a number in \(0, 1\); got 95"
    ):
        func(0.5, 10, confidence_level=95)
