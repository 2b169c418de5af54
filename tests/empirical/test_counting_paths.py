"""The counting kernel's paths against scikit-learn and plain-Python references.

Oracles: scikit-learn 1.9's ``confusion_matrix_at_thresholds`` (the former
``_binary_clf_curve``: a stable argsort and ``cumsum`` of ``y_true * weight``),
``precision_recall_curve`` and ``average_precision_score``; and Python's ``sorted`` for
the stable descending order.

Tolerances: the false/true positive counts are compared bit for bit, weighted or not
(unweighted they are integers held exactly in float64; weighted, the kernel adds the same
weights in the same order as scikit-learn). Thresholds are compared bit for bit (a zero
threshold has the sign of the last zero score, as scikit-learn's). Average precision is
compared to 1e-12: scikit-learn sums over every threshold, bayes_prc over the positives'
thresholds, a different order of the same additions (round-off ~1e-13 for these sizes).
These sizes take the numpy path unless the compiled kernels are loaded already;
``test_radix_kernel.py`` forces each path.

Each generator below aims at one path or edge: scores of one sign or both, signed zeros,
extreme magnitudes, integer ranges of the full 64 bits, distinct scores whose leading key
bits collide (the weighted path re-sorts those buckets exactly), integer, bool,
float16/32 and ``longdouble`` scores.
"""

import numpy as np
import pytest
from sklearn import metrics as skm

import bayes_prc as bp
from bayes_prc.empirical import binary_clf_counts, positive_rank_counts, stable_descending_order

EPS = np.finfo(np.float64).eps


def _scores(kind, rng, n):
    if kind == "normal":  # both signs
        return rng.normal(size=n) * 3
    if kind == "tied":
        return np.round(rng.normal(size=n) * 2) / 2  # includes 0.0 and -0.0
    if kind == "probability":  # one sign, with exact 0 and 1
        return np.clip(rng.uniform(-0.1, 1.1, n), 0.0, 1.0)
    if kind == "negative":
        return -rng.exponential(size=n)
    if kind == "adjacent":  # distinct floats a few ulps apart: colliding leading bits
        return rng.choice([-1.0, 1.0], n) * (1.0 + rng.integers(0, 40, n) * EPS)
    if kind == "near_pairs":  # some scores one ulp above others: short mixed buckets
        x = rng.normal(size=n)
        j = rng.integers(0, n, n // 3)
        x[j] = np.nextafter(x[rng.integers(0, n, j.shape[0])], np.inf)
        return x
    if kind == "extreme":  # subnormal to near-overflow magnitudes of both signs
        return rng.choice([5e-324, 1e-300, 1e-3, 1.0, 1e300, 1.7e308], n) * rng.choice(
            [-1.0, 1.0], n
        )
    if kind == "signed_zero":
        return rng.choice([0.0, -0.0, 1.0, -1.0], n)
    if kind == "float32":
        return rng.normal(size=n).astype(np.float32)
    if kind == "float16":
        return rng.normal(size=n).astype(np.float16)
    if kind == "int64":
        return rng.integers(-20, 20, n)
    if kind == "int64_wide":  # the full int64 range
        return rng.choice([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max], n)
    if kind == "int64_far":  # close integers far apart: colliding leading bits
        return rng.choice([-(2**62), 2**62], n) + rng.integers(0, 5, n)
    if kind == "uint64":
        return rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    if kind == "int8":
        return rng.integers(-128, 128, n).astype(np.int8)
    if kind == "bool":
        return rng.random(n) < 0.5
    raise AssertionError(kind)


KINDS = [
    "normal",
    "tied",
    "probability",
    "negative",
    "adjacent",
    "near_pairs",
    "extreme",
    "signed_zero",
    "float32",
    "float16",
    "int64",
    "int64_wide",
    "int64_far",
    "uint64",
    "int8",
    "bool",
]


def _case(kind, seed, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, int(rng.integers(4, 60)), int(rng.integers(200, 3000))]))
    is_pos = rng.random(n) < rng.uniform(0.05, 0.95)
    s = _scores(kind, rng, n)
    w = None
    if weighted:
        w = rng.uniform(0, 3, n) * (rng.random(n) < 0.9)  # about 10% zero weights
        if n and not w.any():
            w[0] = 1.0
    return is_pos, s, w


def _sk_counts(is_pos, s, w=None):
    """``(fps, tps, thresholds)`` of scikit-learn (whose finiteness check sums the scores:
    the sum of the "extreme" scores overflows, harmlessly)."""
    with np.errstate(over="ignore", invalid="ignore"):
        _, fps, _, tps, thr = skm.confusion_matrix_at_thresholds(is_pos, s, sample_weight=w)
    return fps, tps, thr


def _same_bits(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_counts_match_sklearn_bit_for_bit(kind, weighted, seed):
    is_pos, s, w = _case(kind, seed, weighted)
    s_before, w_before = s.copy(), None if w is None else w.copy()
    fps, tps, thr = binary_clf_counts(is_pos, s, w)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    assert thr.dtype == s.dtype
    _same_bits(thr, sk_thr)  # even a zero threshold has scikit-learn's sign
    _same_bits(s, s_before)  # inputs untouched
    if w is not None:
        _same_bits(w, w_before)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(8))
def test_positive_rank_counts_are_the_counts_where_a_positive_sits(kind, seed):
    is_pos, s, _ = _case(kind, seed, False)
    tp_at, fp_at, n_at = positive_rank_counts(is_pos, s)
    fps, tps, _ = _sk_counts(is_pos, s)
    gained = np.diff(tps, prepend=0.0)
    held = gained > 0
    _same_bits(tp_at, tps[held])
    _same_bits(fp_at, fps[held])
    _same_bits(n_at, gained[held])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_public_curve_and_ap_match_sklearn(kind, weighted, seed):
    is_pos, s, w = _case(kind, seed, weighted)
    y = is_pos.astype(np.int64)
    if not y.any() or (w is not None and not (w * y).any()):
        y[0] = 1  # a positive of non-zero weight: sklearn and bayes_prc both warn otherwise
        if w is not None:
            w[0] = 1.0
    if s.dtype.kind == "b":
        return  # the public faces take bool scores as int64: covered by the kernel tests
    with np.errstate(over="ignore", invalid="ignore"):  # see _sk_counts
        sk_curve = skm.precision_recall_curve(y, s, sample_weight=w)
        sk_ap = skm.average_precision_score(y, s, sample_weight=w)
    for a, b in zip(bp.precision_recall_curve(y, s, sample_weight=w), sk_curve, strict=True):
        np.testing.assert_array_equal(a, b)
    assert abs(bp.average_precision_score(y, s, sample_weight=w) - sk_ap) < 1e-12


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_stable_descending_order_matches_sorted(kind, seed):
    _, s, _ = _case(kind, seed, False)
    py = s.tolist()  # Python numbers: negating the smallest int64 cannot overflow
    expected = sorted(range(len(py)), key=lambda i: (-py[i], i))
    order = stable_descending_order(s)
    assert order.dtype == np.intp
    assert order.tolist() == expected


def test_empty_and_single_sample():
    for s in (np.zeros(0), np.zeros(0, dtype=np.int64)):
        for w in (None, np.zeros(0)):
            fps, tps, thr = binary_clf_counts(np.zeros(0, dtype=bool), s, w)
            assert fps.shape == tps.shape == thr.shape == (0,) and thr.dtype == s.dtype
        assert stable_descending_order(s).shape == (0,)
        assert all(a.shape == (0,) for a in positive_rank_counts(np.zeros(0, dtype=bool), s))
    for label in (False, True):
        for w in (None, np.array([2.5])):
            fps, tps, thr = binary_clf_counts(np.array([label]), np.array([0.3]), w)
            weight = 1.0 if w is None else 2.5
            assert (fps.tolist(), tps.tolist(), thr.tolist()) == (
                [0.0 if label else weight],
                [weight if label else 0.0],
                [0.3],
            )


def test_all_weights_of_one_class_zero():
    is_pos = np.array([True, False, True, False])
    s = np.array([0.9, 0.8, 0.8, 0.1])
    w = np.array([0.0, 1.5, 0.0, 2.0])
    fps, tps, thr = binary_clf_counts(is_pos, s, w)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    _same_bits(thr, sk_thr)


def test_longdouble_scores_take_the_generic_path():
    rng = np.random.default_rng(3)
    is_pos = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300), 1).astype(np.longdouble)
    w = rng.uniform(0.1, 2, 300)
    for weights in (None, w):
        fps, tps, thr = binary_clf_counts(is_pos, s, weights)
        sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, weights)
        _same_bits(fps, sk_fps)
        _same_bits(tps, sk_tps)
        assert thr.dtype == np.longdouble
        np.testing.assert_array_equal(thr, sk_thr)
    expected = sorted(range(300), key=lambda i: (-s[i], i))
    assert stable_descending_order(s).tolist() == expected


def test_collisions_in_a_large_sample_are_reordered():
    """Many distinct scores a few ulps apart, both signs, with ties: the buckets of equal
    leading key bits hold distinct scores and must be re-sorted exactly."""
    rng = np.random.default_rng(11)
    n = 20_000
    s = rng.choice([-3.0, -1.0, 1.0, 2.0], n) * (1.0 + rng.integers(0, 200, n) * EPS)
    is_pos = rng.random(n) < 0.3
    w = rng.uniform(0.1, 2, n)
    fps, tps, thr = binary_clf_counts(is_pos, s, w)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s, w)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    _same_bits(thr, sk_thr)
    expected = np.lexsort((np.arange(n), -s))  # by descending score, then index
    np.testing.assert_array_equal(stable_descending_order(s), expected)


@pytest.mark.parametrize("kind", ["normal", "tied", "int64"])
def test_many_positives_take_the_chunked_search(kind):
    """Over 4 * 4096 distinct positive scores: ``searchsorted`` runs chunk by chunk."""
    rng = np.random.default_rng(5)
    n = 60_000
    is_pos = rng.random(n) < 0.5
    s = _scores(kind, rng, n)
    fps, tps, thr = binary_clf_counts(is_pos, s)
    sk_fps, sk_tps, sk_thr = _sk_counts(is_pos, s)
    _same_bits(fps, sk_fps)
    _same_bits(tps, sk_tps)
    np.testing.assert_array_equal(thr, sk_thr)
    tp_at, fp_at, n_at = positive_rank_counts(is_pos, s)
    gained = np.diff(sk_tps, prepend=0.0)
    held = gained > 0
    _same_bits(tp_at, sk_tps[held])
    _same_bits(fp_at, sk_fps[held])
    _same_bits(n_at, gained[held])


def test_roc_auc_score_is_bit_identical_to_sklearn():
    """Same value to the last bit (the drop-in promise): a rank-sum formula would differ
    from scikit-learn's trapezoidal area by an ulp on about half of the data sets."""
    rng = np.random.default_rng()
    for i in range(40):
        n = int(rng.integers(10, 400))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = rng.normal(size=n) if i % 2 else np.round(rng.normal(size=n), 1)
        w = rng.random(n) if i % 4 == 1 else None
        assert bp.roc_auc_score(y, s, sample_weight=w) == skm.roc_auc_score(y, s, sample_weight=w)
