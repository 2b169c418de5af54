"""The compiled (numba radix) and numpy paths of the counting kernel, against scikit-learn.

Each test runs on both paths, forced through ``_counting``'s private thresholds
(``_NUMBA_MIN_N``, ``_NUMBA_LOAD_N``): ``numba`` counts every input with the compiled
LSD radix sort, ``numpy`` none. Oracles: scikit-learn 1.9's
``confusion_matrix_at_thresholds`` (counts and thresholds), ``average_precision_score``
and ``roc_auc_score``; and the other path.

Tolerances: counts and thresholds bit for bit (a zero threshold carries the sign of the
last zero score, as scikit-learn's); ROC AUC exactly; average precision to 1e-12 against
scikit-learn (it sums over every threshold, bayes_prc over the positives' thresholds) and
exactly between the two paths (same counts, same formula). Data are drawn from the
unseeded ``rng`` fixture: every seed must pass.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning as skm_warning

import bayes_prc as bp
from bayes_prc.empirical import (
    _counting,
    binary_clf_counts,
    counting_kernel,
    positive_rank_counts,
)
from bayes_prc.exceptions import UndefinedMetricWarning

EPS = np.finfo(np.float64).eps
KERNELS = ("numba", "numpy")


def _force(monkeypatch, kernel):
    if kernel == "numba":
        pytest.importorskip("numba")
        monkeypatch.setattr(_counting, "_NUMBA_MIN_N", 0)
        monkeypatch.setattr(_counting, "_NUMBA_LOAD_N", 0)
    else:
        monkeypatch.setattr(_counting, "_NUMBA_MIN_N", 1 << 62)
    assert counting_kernel(1) == kernel


@pytest.fixture(params=KERNELS)
def kernel(request, monkeypatch):
    _force(monkeypatch, request.param)
    return request.param


def _scores(kind, rng, n):
    """Scores of one kind: each aims at a path or an edge of the kernels."""
    if kind == "normal":  # both signs: a 64-bit key range, the sort truncated to 40 bits
        return rng.normal(size=n) * 3
    if kind == "probability":  # one sign, exact 0 and 1
        return np.clip(rng.uniform(-0.1, 1.1, n), 0.0, 1.0)
    if kind == "heavy_ties":
        return np.round(rng.normal(size=n) * 2) / 2
    if kind == "signed_zero":  # -0.0 and 0.0 tie, in any order
        return rng.choice([0.0, -0.0, 1.0, -1.0, 0.5], n)
    if kind == "only_zeros":
        return rng.choice([0.0, -0.0], n)
    if kind == "ulp_runs":  # distinct scores a few ulps apart, both signs: long runs of
        # equal top bits to re-sort exactly (more than the insertion-sort length)
        return rng.choice([-3.0, -1.0, 1.0, 2.0], n) * (1.0 + rng.integers(0, 200, n) * EPS)
    if kind == "near_pairs":  # some scores one ulp above others: short runs
        x = rng.normal(size=n)
        j = rng.integers(0, n, n // 3)
        x[j] = np.nextafter(x[rng.integers(0, n, j.shape[0])], np.inf)
        return x
    if kind == "large":  # subnormal to near-overflow magnitudes of both signs
        return rng.choice([5e-324, 1e-300, 1e-3, 1.0, 1e300, 1.7e308], n) * rng.choice(
            [-1.0, 1.0], n
        )
    if kind == "all_same":
        return np.full(n, rng.normal())
    if kind == "float32":
        return rng.normal(size=n).astype(np.float32)
    if kind == "float32_ties":
        return np.round(rng.normal(size=n), 1).astype(np.float32)
    if kind == "float16":
        return rng.normal(size=n).astype(np.float16)
    if kind == "int8":
        return rng.integers(-128, 128, n).astype(np.int8)
    if kind == "int64":  # a short range: one or two passes
        return rng.integers(-20, 20, n)
    if kind == "int64_wide":  # the full int64 range
        return rng.choice([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max], n)
    if kind == "int64_far":  # close integers far apart: runs of equal top bits
        return rng.choice([-(2**62), 2**62], n) + rng.integers(0, 50, n)
    if kind == "uint64":
        return rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    if kind == "uint32":
        return rng.integers(0, 2**32 - 1, n, dtype=np.uint64).astype(np.uint32)
    if kind == "bool":
        return rng.random(n) < 0.5
    raise AssertionError(kind)


KINDS = [
    "normal",
    "probability",
    "heavy_ties",
    "signed_zero",
    "only_zeros",
    "ulp_runs",
    "near_pairs",
    "large",
    "all_same",
    "float32",
    "float32_ties",
    "float16",
    "int8",
    "int64",
    "int64_wide",
    "int64_far",
    "uint64",
    "uint32",
    "bool",
]


def _labels(rng, n, which):
    if which == "one_positive":
        is_pos = np.zeros(n, dtype=bool)
        is_pos[rng.integers(0, n)] = True
        return is_pos
    if which == "one_negative":
        is_pos = np.ones(n, dtype=bool)
        is_pos[rng.integers(0, n)] = False
        return is_pos
    if which == "none":
        return np.zeros(n, dtype=bool)
    if which == "all":
        return np.ones(n, dtype=bool)
    return rng.random(n) < rng.uniform(0.02, 0.98)


def _sk_counts(is_pos, s, w=None):
    """``(fps, tps, thresholds)`` of scikit-learn (its finiteness check sums the scores:
    the sum of the "large" scores overflows, harmlessly)."""
    with np.errstate(over="ignore", invalid="ignore"):
        _, fps, _, tps, thr = skm.confusion_matrix_at_thresholds(is_pos, s, sample_weight=w)
    return fps, tps, thr


def _same_bits(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    bits = [np.ascontiguousarray(x).view(np.uint8) for x in (a, b)]
    np.testing.assert_array_equal(*bits)


def _weights(rng, n):
    w = rng.uniform(0, 3, n) * (rng.random(n) < 0.9)  # about 10% zero weights
    if not w.any():
        w[0] = 1.0
    return w


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_counts_match_sklearn_bit_for_bit(kernel, kind, weighted, rng):
    for n in (1, 2, 5, int(rng.integers(20, 200)), int(rng.integers(2000, 6000))):
        is_pos = _labels(rng, n, "mixed")
        s = _scores(kind, rng, n)
        w = _weights(rng, n) if weighted else None
        s_before = s.copy()
        fps, tps, thr = binary_clf_counts(is_pos, s, w)
        sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
        _same_bits(fps, sk_fps)
        _same_bits(tps, sk_tps)
        _same_bits(thr, sk_thr)  # the dtype, and the sign of a zero threshold
        _same_bits(s, s_before)  # the input untouched


@pytest.mark.parametrize("kind", ["normal", "heavy_ties", "signed_zero", "int64", "float32"])
@pytest.mark.parametrize("labels", ["one_positive", "one_negative", "none", "all"])
@pytest.mark.parametrize("weighted", [False, True])
def test_one_class_or_a_single_sample_of_one(kernel, kind, labels, weighted, rng):
    n = int(rng.integers(50, 500))
    is_pos = _labels(rng, n, labels)
    s = _scores(kind, rng, n)
    w = rng.uniform(0.1, 2, n) if weighted else None
    fps, tps, thr = binary_clf_counts(is_pos, s, w)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    _same_bits(thr, sk_thr)
    tp_at, fp_at, n_at = positive_rank_counts(is_pos, s)
    sk_fps, sk_tps, _ = _sk_counts(is_pos, s)
    gained = np.diff(sk_tps, prepend=0.0)
    held = gained > 0
    _same_bits(tp_at, sk_tps[held])
    _same_bits(fp_at, sk_fps[held])
    _same_bits(n_at, gained[held])


@pytest.mark.parametrize("kind", KINDS)
def test_positive_rank_counts_are_the_counts_where_a_positive_sits(kernel, kind, rng):
    for n in (1, 3, int(rng.integers(20, 200)), int(rng.integers(2000, 6000))):
        is_pos = _labels(rng, n, "mixed")
        s = _scores(kind, rng, n)
        tp_at, fp_at, n_at = positive_rank_counts(is_pos, s)
        fps, tps, _ = _sk_counts(is_pos, s)
        gained = np.diff(tps, prepend=0.0)
        held = gained > 0
        _same_bits(tp_at, tps[held])
        _same_bits(fp_at, fps[held])
        _same_bits(n_at, gained[held])


@pytest.mark.parametrize("kind", [k for k in KINDS if k not in ("bool", "large")])
@pytest.mark.parametrize("weighted", [False, True])
def test_public_scores_match_sklearn_and_the_other_path(monkeypatch, kind, weighted, rng):
    """AP (1e-12 to scikit-learn, exactly between paths), ROC AUC and curves exactly."""
    n = int(rng.integers(2000, 6000))
    y = (rng.random(n) < rng.uniform(0.05, 0.5)).astype(np.int64)
    y[:2] = [0, 1]
    s = _scores(kind, rng, n)
    w = rng.uniform(0.1, 3, n) if weighted else None
    results = {}
    for kernel in KERNELS:
        with monkeypatch.context() as m:
            _force(m, kernel)
            results[kernel] = (
                bp.average_precision_score(y, s, sample_weight=w),
                bp.roc_auc_score(y, s, sample_weight=w),
                bp.precision_recall_curve(y, s, sample_weight=w),
                bp.roc_curve(y, s, sample_weight=w),
            )
    ap, auc, pr, roc = results["numba"]
    assert (ap, auc) == results["numpy"][:2]
    assert abs(ap - skm.average_precision_score(y, s, sample_weight=w)) < 1e-12
    assert auc == skm.roc_auc_score(y, s, sample_weight=w)
    for ours, theirs in ((pr, skm.precision_recall_curve), (roc, skm.roc_curve)):
        for a, b in zip(ours, theirs(y, s, sample_weight=w), strict=True):
            _same_bits(a, b)


def test_read_only_and_strided_input(kernel, rng):
    n = 3000
    is_pos = rng.random(2 * n) < 0.3
    s = np.round(rng.normal(size=2 * n), 2)
    w = rng.uniform(0.1, 2, 2 * n)
    for a in (is_pos, s, w):
        a.flags.writeable = False
    for weights in (None, w[::2]):
        fps, tps, thr = binary_clf_counts(is_pos[::2], s[::2], weights)
        sk_fps, sk_tps, sk_thr = _sk_counts(is_pos[::2], s[::2], weights)
        _same_bits(fps, sk_fps)
        _same_bits(tps, sk_tps)
        _same_bits(thr, sk_thr)


def test_negative_and_longdouble_inputs_take_the_numpy_path(kernel, rng):
    """Negative weights and ``longdouble`` scores have no compiled path: same answers."""
    n = 500
    is_pos = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n), 1)
    w = rng.uniform(-1, 2, n)
    fps, tps, thr = binary_clf_counts(is_pos, s, w)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    _same_bits(thr, sk_thr)
    s_long = s.astype(np.longdouble)
    fps, tps, thr = binary_clf_counts(is_pos, s_long)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s_long)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    assert thr.dtype == np.longdouble
    np.testing.assert_array_equal(thr, sk_thr)


def test_without_numba_the_numpy_path_counts(monkeypatch, rng):
    """A failed import of the compiled kernels leaves the numpy path, silently."""
    monkeypatch.setattr(_counting, "_kernels", False)
    monkeypatch.setattr(_counting, "_NUMBA_MIN_N", 0)
    monkeypatch.setattr(_counting, "_NUMBA_LOAD_N", 0)
    assert counting_kernel(10**6) == "numpy"
    is_pos = rng.random(300) < 0.5
    s = rng.normal(size=300)
    _same_bits(binary_clf_counts(is_pos, s)[1], _sk_counts(is_pos, s)[1])


def test_kernel_thresholds():
    """Small calls never load numba; large ones do; once loaded, mid-size calls use it."""
    assert counting_kernel(_counting._NUMBA_MIN_N - 1) == "numpy"
    if _counting._kernels is None:
        assert counting_kernel(_counting._NUMBA_LOAD_N - 1) == "numpy"
    pytest.importorskip("numba")
    assert counting_kernel(_counting._NUMBA_LOAD_N) == "numba"
    assert counting_kernel(_counting._NUMBA_MIN_N) == "numba"


def test_uncacheable_location_compiles_without_cache(monkeypatch):
    """A read-only install with no writable cache directory: numba refuses ``cache=True``
    at decoration; the kernels are then compiled in memory."""
    numba = pytest.importorskip("numba")
    from bayes_prc.empirical import _radix

    real = numba.njit

    def njit(*args, cache=False, **kwargs):
        if cache:
            raise RuntimeError("cannot cache function 'f': no locator available for file")
        return real(*args, **kwargs)

    monkeypatch.setattr(numba, "njit", njit)

    def add_one(x):
        return x + 1

    assert _radix._jit(add_one)(1) == 2


@pytest.mark.parametrize("chunk", [1, 7, 1 << 14])
def test_weighted_ap_terms_in_chunks_are_the_curve_terms(chunk, rng):
    """The weighted AP sums ``diff(recall) * precision[:-1]`` computed chunk by chunk,
    without the curve's arrays: the same floats as from the curve, bit for bit."""
    from bayes_prc.empirical._ap import _step_areas
    from bayes_prc.empirical._curves import pr_from_counts

    for _ in range(20):
        n = int(rng.integers(1, 3000))
        is_pos = rng.random(n) < rng.uniform(0.05, 0.95)
        is_pos[0] = True
        s = np.round(rng.normal(size=n), int(rng.integers(0, 4)))
        w = rng.uniform(0, 3, n) * (rng.random(n) < 0.9)
        w[0] = 1.0
        fps, tps, thr = binary_clf_counts(is_pos, s, w)
        precision, recall, _ = pr_from_counts(fps, tps, thr)
        _same_bits(_step_areas(fps, tps, chunk), np.diff(recall) * precision[:-1])


@pytest.mark.parametrize("kind", ["normal", "heavy_ties", "signed_zero", "int64", "ulp_runs"])
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_corners_are_the_kept_points_of_the_curve(monkeypatch, kind, weighted, rng):
    """The compiled ROC path counts only the points ``roc_curve(drop_intermediate=True)``
    keeps: the same floats as dropping from the whole curve, so the AUC (and the
    standardized partial AUC) is scikit-learn's to the last bit."""
    from bayes_prc.empirical._counting import roc_corner_counts

    _force(monkeypatch, "numba")
    for n in (1, 2, 3, int(rng.integers(20, 200)), int(rng.integers(2000, 6000))):
        is_pos = _labels(rng, n, "mixed")
        s = _scores(kind, rng, n)
        w = _weights(rng, n) if weighted else None
        fps, tps, _ = _sk_counts(is_pos, s, w)
        if fps.shape[0] > 2:
            keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
            fps, tps = fps[keep], tps[keep]
        got_fps, got_tps = roc_corner_counts(is_pos, s, w)
        _same_bits(got_fps, fps)
        _same_bits(got_tps, tps)
        y = is_pos.astype(np.int64)
        ww = np.ones(n) if w is None else w
        # both classes of positive weight (else scikit-learn's partial AUC raises where
        # bayes_prc's, either path, returns a number: an older difference, not this one's)
        if (ww * y).sum() > 0 and (ww * (1 - y)).sum() > 0:
            for max_fpr in (None, 0.3):
                with warnings.catch_warnings():  # a class whose weights are all zero: NaN
                    warnings.simplefilter("ignore", UndefinedMetricWarning)
                    warnings.simplefilter("ignore", skm_warning)
                    ours = _outcome(bp.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
                    theirs = _outcome(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
                assert ours == theirs or (ours != ours and theirs != theirs), (ours, theirs)


def _outcome(func, *args, **kwargs):
    """The value, or the error's type name (a partial AUC from fewer than two points);
    NaN (one class of zero weight) compares unequal to itself."""
    try:
        return func(*args, **kwargs)
    except ValueError as err:
        return type(err).__name__
