"""The counting kernel: true and false positive counts at every distinct threshold.

Everything empirical in bayes_prc (curves, AP and its estimators, operating points,
bootstrap replicates) derives from :func:`binary_clf_counts`. Its paths give the same
numbers as scikit-learn's ``_binary_clf_curve`` (1.9: ``confusion_matrix_at_thresholds``),
which spends most of its time in an indirect, stable argsort, to the last bit (counts and
thresholds, even the sign of a zero threshold):

* compiled (numba, :mod:`._radix`, from :data:`_NUMBA_LOAD_N` samples on and then from
  :data:`_NUMBA_MIN_N`): the scores' keys (below) are sorted by an LSD radix sort, a few
  linear passes instead of a comparison sort. Unweighted, each class is sorted on its
  own and the two merged: the counts are positions in the merge. Weighted, each key
  carries its label-signed weight through the (stable) sort, and the running sums add
  the same weights in the same order as scikit-learn's cumulative sums.
* numpy (small inputs, ``longdouble`` scores, negative weights, or no numba):
  unweighted, ``np.sort`` of the scores (a vectorized value sort), distinct thresholds
  from the sorted values, and each positive placed in them by :func:`numpy.searchsorted`
  (in chunks, so that each binary search stays in cache). Weighted, the stable descending
  order comes from a *value* sort of integer keys that hold the score's leading bits
  above the sample's index (the index makes the order stable; the rare distinct scores
  whose leading bits agree are re-sorted exactly afterwards). Score and label-signed
  weight travel in one 16-byte record, one gather instead of three.

All unweighted counts are integers held exactly in float64. The keys of float scores are
their IEEE-754 bit patterns mapped to integers of the same order, the device of radix
sorts for floats (M. Herf, "Radix tricks", 2001); ``-0.0`` and ``0.0`` share a key, so
they tie, as scikit-learn's ``np.diff`` sees them. ``longdouble`` scores, which have no
64-bit key, take the indirect stable sort.

For average precision alone, :func:`positive_rank_counts` reads the counts only at the
scores held by a positive (compiled: from the positives' sorted keys, the negatives'
counted by the merge; numpy: the positives sorted on their own, the samples below each
positive score counted by ``searchsorted`` in the sorted scores).
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = [
    "binary_clf_counts",
    "counting_kernel",
    "positive_rank_counts",
    "roc_corner_counts",
    "stable_descending_order",
]

_SIGN = np.uint64(1 << 63)
_I64_MAX = np.int64((1 << 63) - 1)
_I64_MIN = np.int64(-(1 << 63))

# --------------------------------------------------------------------------------------
# the compiled radix kernels (numba), loaded on first use
# --------------------------------------------------------------------------------------
# Once loaded, the compiled kernels beat numpy's sorts from a few hundred samples on (2x at
# 1e4; benchmarks/bench_empirical.py --crossover); loading them (importing numba and its
# cached machine code, about 0.6-1 s once per process) is worth it from LOAD_N samples
# on. Tests set these to force either path.
_NUMBA_MIN_N = 1_000
_NUMBA_LOAD_N = 100_000
_kernels = None  # the module bayes_prc.empirical._radix once loaded, False if it failed


def _radix_kernels(n):
    """The compiled kernels if ``n`` samples are worth them and numba loads, else None."""
    global _kernels
    if n < _NUMBA_MIN_N or (_kernels is None and n < _NUMBA_LOAD_N):
        return None
    if _kernels is None:
        try:
            from . import _radix
        except Exception:  # numba missing or broken: the numpy path is exact too
            _kernels = False
        else:
            _kernels = _radix
    return _kernels or None


def counting_kernel(n_samples):
    """The kernel counting ``n_samples`` scores in this process: ``"numba"`` or ``"numpy"``.

    :func:`binary_clf_counts` and :func:`positive_rank_counts` (so every curve, average
    precision and ROC AUC) count scores of 64 bits or fewer by an LSD radix sort compiled
    with numba once a call has at least 100 000 samples, and from then on for every call
    of at least 1 000; otherwise, and when numba cannot be imported, by numpy's sorts.
    Both give the same numbers. The first compiled call of a process imports numba and
    loads the machine code from numba's disk cache (about 0.6-1 s); the first on a
    machine compiles it (about 20 s) into that cache. ``longdouble`` scores always take
    the numpy path. Asking about a large ``n_samples`` loads the kernels.

    Examples
    --------
    >>> from bayes_prc.empirical import counting_kernel
    >>> counting_kernel(100)
    'numpy'
    """
    return "numba" if _radix_kernels(int(n_samples)) is not None else "numpy"


def _kernel_input(y_score):
    """``(values, kind)``: the scores as a read-only contiguous int64 array (float64 bits
    for floats, the raw bits for uint64) and their kind, or None for ``longdouble``."""
    dt = y_score.dtype
    if dt.kind == "f":
        if dt.itemsize > 8:
            return None
        v, kind = np.ascontiguousarray(y_score, dtype=np.float64).view(np.int64), 0
    elif dt.kind == "u" and dt.itemsize == 8:
        v, kind = np.ascontiguousarray(y_score, dtype=np.uint64).view(np.int64), 2
    else:
        v, kind = np.ascontiguousarray(y_score, dtype=np.int64), 1
    return _read_only(v), kind


def _read_only(a):
    """A read-only view: numba then compiles one version for writable and read-only input."""
    a = a.view()
    a.flags.writeable = False
    return a


# --------------------------------------------------------------------------------------
# exact keys: uint64, ascending as the scores descend, equal iff the scores are equal
# --------------------------------------------------------------------------------------
def _float64(y_score):
    """Scores as native float64 (exact for float16/32), or None if that would round."""
    if y_score.dtype.kind != "f" or y_score.dtype.itemsize > 8:
        return None
    return y_score.astype(np.float64, copy=False)


def _float_desc_key(x):
    """Keys of float64 ``x``: ``bits ^ (2**63 - 1)`` for ``x >= 0``, ``bits`` for ``x < 0``.

    As unsigned integers they ascend as ``x`` descends (the larger a positive float, the
    larger its bit pattern; the larger a negative one, the smaller). ``-0.0`` gets the
    key of ``0.0``. Returns the keys as int64.
    """
    bits = x.view(np.int64)
    key = bits >> 63
    np.invert(key, out=key)  # all ones for x >= 0, 0 for x < 0
    key &= _I64_MAX
    key ^= bits
    if key.min() == _I64_MIN:  # only -0.0 has this key: make it tie with 0.0
        key[x == 0] = _I64_MAX
    return key


def _int_desc_key(y_score):
    """uint64 keys of integer or bool scores, ascending as the scores descend."""
    if y_score.dtype.kind == "u":
        d = y_score.astype(np.uint64)
    else:
        d = y_score.astype(np.int64).view(np.uint64)
        d ^= _SIGN  # ascending as unsigned
    np.invert(d, out=d)
    return d


def _exact_keys(y_score):
    """uint64 keys ascending as the scores descend, equal iff the scores are equal (a
    fresh array), or None for ``longdouble`` scores."""
    x = _float64(y_score)
    if x is not None:
        return _float_desc_key(x).view(np.uint64)
    if y_score.dtype.kind in "biu":
        return _int_desc_key(y_score)
    return None


def _as_8_bytes(y_score):
    """The scores as float64, int64 or uint64 (exact), the dtype records hold them in."""
    kind = y_score.dtype.kind
    return np.float64 if kind == "f" else np.uint64 if kind == "u" else np.int64


# --------------------------------------------------------------------------------------
# stable descending order: value sort of (leading key bits | index)
# --------------------------------------------------------------------------------------
def _index_sort(key):
    """``(order, same_bucket)``: stable ascending order of the exact ``key`` (consumed),
    up to buckets of equal leading bits.

    The sorted integers are ``(key - min) >> shift`` above the sample's index, with
    ``shift`` as small as leaves room for the index. ``same_bucket`` is None when
    ``shift == 0`` (``order`` is then exact), else ``same_bucket[i]`` tells whether
    sorted positions ``i`` and ``i + 1`` share their leading bits. Within a bucket
    ``order`` is by index, so distinct keys may be out of order there: see
    :func:`_misordered_positions`.
    """
    n = key.shape[0]
    key -= key.min()
    index_bits = max(1, (n - 1).bit_length())
    shift = max(0, int(key.max()).bit_length() - (64 - index_bits))
    if shift:
        key >>= np.uint64(shift)
    key <<= np.uint64(index_bits)
    # the index below the key bits, and the top bit flipped: numpy sorts int64 faster
    key ^= np.arange(1 << 63, (1 << 63) + n, dtype=np.uint64)
    key.view(np.int64).sort()
    mask = np.uint64((1 << index_bits) - 1)
    same_bucket = (key[1:] ^ key[:-1]) <= mask if shift else None
    key &= mask
    return key.view(np.intp), same_bucket


def _misordered_positions(same_bucket, differs):
    """Sorted positions of the buckets holding distinct scores, or None if none does.

    ``differs[i]``: the scores at sorted positions ``i`` and ``i + 1`` differ. Such
    buckets are rare and short: each is grown from its misordered pair, and only if one
    is long are all buckets numbered instead.
    """
    misordered = same_bucket & differs
    if not misordered.any():
        return None
    first = np.flatnonzero(misordered)
    last = first + 1
    n_pairs = same_bucket.shape[0]
    for _ in range(16):
        grow_first = same_bucket[np.maximum(first - 1, 0)] & (first > 0)
        grow_last = same_bucket[np.minimum(last, n_pairs - 1)] & (last < n_pairs)
        if not (grow_first.any() or grow_last.any()):
            first, keep = np.unique(first, return_index=True)
            lengths = last[keep] - first + 1
            offsets = np.cumsum(lengths) - lengths
            return np.repeat(first - offsets, lengths) + np.arange(int(lengths.sum()))
        first -= grow_first
        last += grow_last
    bucket = np.zeros(n_pairs + 1, dtype=np.uint32 if n_pairs < 1 << 32 else np.uint64)
    np.cumsum(~same_bucket, out=bucket[1:])
    flagged = np.zeros(int(bucket[-1]) + 1, dtype=bool)
    flagged[bucket[np.flatnonzero(misordered)]] = True
    return np.flatnonzero(flagged[bucket])


def _resort(order, pos, scores):
    """Re-sort ``order[pos]`` by exact score, descending, ties kept in order (in place);
    ``scores`` are the scores at ``pos``. Returns the permutation applied."""
    fix = np.argsort(_exact_keys(scores), kind="stable")
    order[pos] = order[pos][fix]
    return fix


def _stable_order(y_score):
    """Stable descending order of ``y_score`` (intp indices)."""
    n = y_score.shape[0]
    key = _exact_keys(y_score) if n else None
    if key is None:
        return (n - 1) - np.argsort(y_score[::-1], kind="stable")[::-1]
    order, same_bucket = _index_sort(key)
    if same_bucket is not None:
        s = y_score[order]
        pos = _misordered_positions(same_bucket, s[1:] != s[:-1])
        if pos is not None:
            _resort(order, pos, s[pos])
    return order


def stable_descending_order(y_score):
    """Indices sorting ``y_score`` in descending order, ties kept in input order.

    The result of a stable argsort of the negated scores (without the overflow of
    negating the smallest integer), computed as a value sort of packed keys.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.empirical import stable_descending_order
    >>> stable_descending_order(np.array([0.2, 0.9, 0.2, 0.5])).tolist()
    [1, 3, 0, 2]
    """
    return _stable_order(np.asarray(y_score))


# --------------------------------------------------------------------------------------
# unweighted: radix sort and merge (compiled), or value sorts and searchsorted
# --------------------------------------------------------------------------------------
def _split_sorted_keys(k, is_pos, y_score):
    """``(keys, n_pos, kind, zero_bits)``: the positives' keys then the negatives', each
    sorted ascending by the compiled radix sort; None for ``longdouble`` scores."""
    inp = _kernel_input(y_score)
    if inp is None:
        return None
    v, kind = inp
    n = v.shape[0]
    keys = np.empty(n, dtype=np.uint64)
    n_pos, *extremes, zero_bits = k.split_keys(
        v, kind, _read_only(np.ascontiguousarray(is_pos, dtype=bool)), keys
    )
    # as uint64 scalars: a Python int would be typed int64 or uint64 by its value, and
    # each combination compiled on its own
    extremes = [np.uint64(x) for x in extremes]
    k.sort_split(keys, np.empty(n, dtype=np.uint64), n_pos, *extremes)
    return keys, n_pos, kind, zero_bits


def _unweighted_counts(is_pos, y_score):
    """Unweighted counts: each class's keys radix-sorted and merged (compiled), or a
    value sort and each positive placed by ``searchsorted`` (numpy)."""
    k = _radix_kernels(y_score.shape[0])
    split = _split_sorted_keys(k, is_pos, y_score) if k is not None else None
    if split is None:
        return _unweighted_counts_numpy(is_pos, y_score)
    keys, n_pos, kind, zero_bits = split
    m = k.n_distinct_merged(keys, n_pos)
    fps, tps, values = np.empty(m), np.empty(m), np.empty(m, dtype=np.int64)
    k.curve_counts(keys, n_pos, kind, zero_bits, fps, tps, values)
    return fps, tps, _thresholds(values, kind, y_score.dtype)


def _last_zero_sign(thresholds, y_score):
    """Give a zero threshold the sign of the last zero score, as scikit-learn's (the
    last sample of the tie group in its stable order); in place."""
    if thresholds.dtype.kind == "f" and thresholds.shape[0]:
        at = np.flatnonzero(thresholds == 0)
        if at.shape[0]:
            thresholds[at[0]] = y_score[np.flatnonzero(y_score == 0)[-1]]


def _unweighted_counts_numpy(is_pos, y_score):
    """:func:`_unweighted_counts` by numpy: value sort and ``searchsorted``."""
    s = np.sort(y_score)  # ascending value sort: no indirect, stable argsort needed
    n = s.shape[0]
    if n == 0:
        return np.zeros(0), np.zeros(0), s
    boundary = np.empty(n, dtype=bool)
    boundary[0] = True
    np.not_equal(s[1:], s[:-1], out=boundary[1:])
    starts = np.flatnonzero(boundary)[::-1]  # first index of each distinct value, decreasing
    del boundary
    thresholds = s[starts]
    pos = np.compress(is_pos, y_score)  # faster than a boolean index for few positives
    pos.sort()
    pos_at = _search_sorted(s, pos)  # each positive: the start of its tie group
    del pos
    del s
    tps = np.bincount(pos_at, minlength=n)[starts]  # positives at each threshold
    del pos_at
    np.cumsum(tps, out=tps)  # integer sums, then one conversion: faster than casting ones
    tps = tps.astype(np.float64)
    fps = np.subtract(n, starts, dtype=np.float64)
    fps -= tps
    _last_zero_sign(thresholds, y_score)
    return fps, tps, thresholds


def _search_sorted(a, v):
    """``np.searchsorted(a, v, side="left")`` for sorted ``v``, in chunks of ``v`` whose
    answers span a short stretch of ``a``: shallower, cache-resident binary searches."""
    chunk = 4096
    if v.shape[0] <= 4 * chunk:
        return np.searchsorted(a, v, side="left")
    heads = np.searchsorted(a, v[::chunk], side="left")
    bounds = np.append(heads, a.shape[0]).tolist()
    out = np.empty(v.shape[0], dtype=np.intp)
    for i, (lo, hi) in enumerate(itertools.pairwise(bounds)):
        j = i * chunk
        np.add(np.searchsorted(a[lo:hi], v[j : j + chunk], side="left"), lo, out=out[j : j + chunk])
    return out


def _positive_counts(is_pos, y_score):
    """:func:`positive_rank_counts`: each class's keys radix-sorted and merged (compiled),
    or the positives and all scores sorted and ``searchsorted`` (numpy)."""
    k = _radix_kernels(y_score.shape[0])
    split = _split_sorted_keys(k, is_pos, y_score) if k is not None else None
    if split is not None:
        keys, n_pos, _, _ = split
        m = k.n_distinct(keys[:n_pos])
        tp_at, fp_at, n_at = np.empty(m), np.empty(m), np.empty(m)
        k.ap_counts(keys, n_pos, tp_at, fp_at, n_at)
        return tp_at, fp_at, n_at
    pos = np.compress(is_pos, y_score)
    pos.sort()
    n_pos = pos.shape[0]
    if n_pos == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    starts = np.flatnonzero(np.concatenate(([True], pos[1:] != pos[:-1])))
    values = pos[starts]
    del pos
    s = np.sort(y_score)
    below = _search_sorted(s, values)[::-1]  # samples below each positive score
    n = s.shape[0]
    del s, values
    ends = np.append(starts[1:], n_pos)[::-1]
    starts = starts[::-1]  # decreasing scores from here on
    n_at = np.subtract(ends, starts, dtype=np.float64)
    tp_at = np.subtract(n_pos, starts, dtype=np.float64)
    fp_at = np.subtract(n, below, dtype=np.float64)  # samples at or above, then negatives
    fp_at -= tp_at
    return tp_at, fp_at, n_at


# --------------------------------------------------------------------------------------
# weighted: stable order, then scikit-learn's cumulative sums
# --------------------------------------------------------------------------------------
def _weighted_counts_by_gather(is_pos, y_score, w):
    """Weighted counts with separate gathers (``longdouble`` scores, negative weights)."""
    order = _stable_order(y_score)
    s = y_score[order]
    t = is_pos[order].astype(np.float64)
    ws = w[order]
    idx = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)
    tps = np.cumsum(t * ws)[idx]
    fps = np.cumsum((1.0 - t) * ws)[idx]
    return fps, tps, s[idx]


def _drop_zero_weights(is_pos, y_score, w):
    """Samples of weight zero dropped, as scikit-learn does (they create no threshold);
    also returns the smallest remaining weight (1.0 when none remain)."""
    w_min = w.min() if w.shape[0] else 1.0
    if w_min == 0:
        keep = w != 0
        is_pos, y_score, w = is_pos[keep], y_score[keep], w[keep]
        del keep
        w_min = w.min() if w.shape[0] else 1.0
    return is_pos, y_score, w, w_min


def _sorted_weighted_keys(k, is_pos, w, v, kind):
    """The kernels' keys of the scores, each carrying its label-signed weight, stably
    radix-sorted. Returns ``keys``, ``signed_w``, ``zero_bits`` and the sort's two
    scratch buffers (free again: callers reuse them as output or drop them)."""
    n = v.shape[0]
    keys = np.empty(n, dtype=np.uint64)
    signed_w = np.empty(n)
    kmin, kmax, zero_bits = k.weighted_keys(
        v,
        kind,
        _read_only(np.ascontiguousarray(is_pos, dtype=bool)),
        _read_only(np.ascontiguousarray(w, dtype=np.float64)),
        keys,
        signed_w,
    )
    tmp, tmp_w = np.empty(n, dtype=np.uint64), np.empty(n)
    k.sort_pairs(keys, signed_w, tmp, tmp_w, np.uint64(kmin), np.uint64(kmax))
    return keys, signed_w, zero_bits, tmp, tmp_w


def _weighted_counts(is_pos, y_score, w):
    is_pos, y_score, w, w_min = _drop_zero_weights(is_pos, y_score, w)
    n = y_score.shape[0]
    if n == 0:
        return np.zeros(0), np.zeros(0), y_score[:0].copy()
    k = _radix_kernels(n) if w_min > 0 else None
    inp = _kernel_input(y_score) if k is not None else None
    if inp is not None:
        return _weighted_counts_radix(k, is_pos, y_score, w, *inp)
    key = _exact_keys(y_score) if w_min > 0 else None
    if key is None:
        return _weighted_counts_by_gather(is_pos, y_score, w)
    order, same_bucket = _index_sort(key)
    del key
    # one 16-byte record per sample: the score, and the weight signed by the label
    rec = np.empty(n, dtype=np.complex128)
    rec_score = rec.view(_as_8_bytes(y_score))[0::2]
    rec_score[...] = y_score
    rec_w = rec.view(np.float64)[1::2]
    np.copysign(w, np.subtract(is_pos, 0.5, dtype=np.float64), out=rec_w)
    del rec_score, rec_w  # views: they would keep the unsorted records alive
    rec = rec[order]  # the one random gather (cheaper than three narrower ones)
    scores = rec.view(_as_8_bytes(y_score))[0::2]
    last = np.empty(n, dtype=bool)  # last sample of each tie group
    np.not_equal(scores[1:], scores[:-1], out=last[:-1])
    last[-1] = True
    if same_bucket is not None:
        pos = _misordered_positions(same_bucket, last[:-1])
        del same_bucket
        if pos is not None:  # by exact score; ties stay by index
            rec[pos] = rec[pos][_resort(order, pos, scores[pos])]
            np.not_equal(scores[1:], scores[:-1], out=last[:-1])
    del order
    # the group's last score, as scikit-learn (even the sign of a zero)
    thresholds = scores[last].astype(y_score.dtype, copy=False)
    # scikit-learn's cumsum(y_true * weight) and cumsum((1 - y_true) * weight), bit for
    # bit: 1.0 * w is w, 0.0 * w is +0.0, and adding +0.0 leaves a partial sum unchanged
    acc = rec.view(np.float64).reshape(n, 2)  # the scores' column is free now
    np.maximum(acc[:, 1], 0.0, out=acc[:, 0])  # y_true * weight: w or +0.0
    np.subtract(acc[:, 0], acc[:, 1], out=acc[:, 1])  # (1 - y_true) * weight: w - w = +0.0
    # a complex cumulative sum is two real ones, each adding in order: np.cumsum's bits
    np.cumsum(rec, out=rec)
    tps = acc[:, 0][last]
    fps = acc[:, 1][last]
    return fps, tps, thresholds


def _weighted_counts_radix(k, is_pos, y_score, w, v, kind):
    """Weighted counts by the compiled kernels (positive weights): a stable radix sort
    of the keys, each carrying its label-signed weight, then scikit-learn's running sums
    in that order."""
    n = v.shape[0]
    keys, signed_w, zero_bits, tmp, tmp_w = _sorted_weighted_keys(k, is_pos, w, v, kind)
    del tmp, tmp_w
    fps = np.empty(k.n_distinct(keys))
    k.weighted_counts(keys, signed_w, kind, zero_bits, fps)  # tps, thresholds in place
    m = fps.shape[0]
    tps, values = signed_w[:m], keys[:m].view(np.int64)
    if m <= n // 2:  # many ties: do not keep the long buffers alive
        tps, values = tps.copy(), values.copy()
    return fps, tps, _thresholds(values, kind, y_score.dtype)


def _thresholds(values, kind, dtype):
    """Thresholds of ``dtype`` from the kernels' int64 values (float64 bits for floats)."""
    as_8 = np.float64 if kind == 0 else np.uint64 if kind == 2 else np.int64
    return values.view(as_8).astype(dtype, copy=False)


def roc_corner_counts(is_pos, y_score, sample_weight=None):
    """``(fps, tps)`` at the thresholds scikit-learn's ``roc_curve`` keeps with
    ``drop_intermediate=True``, by the compiled kernels without the whole curve; None
    when they do not apply (small or ``longdouble`` input, negative weights, no numba).

    The same floats as ``binary_clf_counts`` followed by the drop (counted in one merge
    or running sum, the kept points picked on the way): an ROC AUC from them is
    bit-identical, at a fraction of the memory.
    """
    n = y_score.shape[0]
    k = _radix_kernels(n)
    if k is None or n >= 1 << 32:
        return None
    if sample_weight is None:
        split = _split_sorted_keys(k, is_pos, y_score)
        if split is None:
            return None
        keys, n_pos, _, _ = split
        packed = np.empty(n, dtype=np.uint64)
        packed = packed[: k.roc_corners(keys, n_pos, packed)].copy()
        del keys
        return (packed >> np.uint64(32)).astype(np.float64), (
            packed & np.uint64(0xFFFFFFFF)
        ).astype(np.float64)
    is_pos, y_score, w, w_min = _drop_zero_weights(is_pos, y_score, sample_weight)
    n = y_score.shape[0]
    inp = _kernel_input(y_score)
    if n == 0 or w_min < 0 or inp is None:
        return None
    keys, signed_w, _, tmp, tmp_w = _sorted_weighted_keys(k, is_pos, w, *inp)
    out_f = tmp.view(np.float64)  # the sort's scratch buffers are free again
    m = k.roc_corners_weighted(keys, signed_w, out_f, tmp_w)
    if m <= n // 2:  # few corners (ties, or straight runs): do not keep the buffers
        return out_f[:m].copy(), tmp_w[:m].copy()
    return out_f[:m], tmp_w[:m]


def binary_clf_counts(is_pos, y_score, sample_weight=None):
    """False and true positive counts at each distinct threshold, highest first.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n_samples,)
        True for positive samples.
    y_score : ndarray, shape (n_samples,)
        Finite scores; higher means more likely positive.
    sample_weight : ndarray of float64, shape (n_samples,), optional
        Non-negative weights. Samples of weight zero are dropped first (they do not
        create thresholds), as scikit-learn does.

    Returns
    -------
    fps, tps : ndarray of float64, shape (n_thresholds,)
        Weighted counts of negatives and positives with ``score >= thresholds[i]``.
    thresholds : ndarray, shape (n_thresholds,)
        Distinct score values in decreasing order (dtype of ``y_score``).

    Notes
    -----
    ``fps``, ``tps`` and the thresholds equal those of scikit-learn's
    ``confusion_matrix_at_thresholds`` (1.9) to the last bit, weighted or not; where
    ``0.0`` and ``-0.0`` tie, the threshold is the last zero's, as scikit-learn's. See
    :func:`counting_kernel` for which kernel (numba or numpy) counts.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.empirical import binary_clf_counts
    >>> fps, tps, thr = binary_clf_counts(
    ...     np.array([False, True, True, False]), np.array([0.1, 0.9, 0.4, 0.4])
    ... )
    >>> fps.tolist(), tps.tolist(), thr.tolist()
    ([0.0, 1.0, 2.0], [1.0, 2.0, 2.0], [0.9, 0.4, 0.1])
    """
    if sample_weight is not None:
        return _weighted_counts(is_pos, y_score, sample_weight)
    return _unweighted_counts(is_pos, y_score)


def positive_rank_counts(is_pos, y_score):
    """Counts at each distinct score held by a positive, for average precision.

    Returns ``(tp_at, fp_at, n_at)``: for each distinct score ``v`` held by at least one
    positive (in decreasing order), the number of positives and of negatives with score
    ``>= v`` and the number of positives with score exactly ``v`` (float64 arrays).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.empirical import positive_rank_counts
    >>> tp, fp, k = positive_rank_counts(
    ...     np.array([False, True, True, False]), np.array([0.1, 0.9, 0.4, 0.4])
    ... )
    >>> tp.tolist(), fp.tolist(), k.tolist()
    ([1.0, 2.0], [0.0, 1.0], [1.0, 1.0])
    """
    return _positive_counts(is_pos, y_score)
