"""The counting kernel: true and false positive counts at every distinct threshold.

Everything empirical in bayes_prc (curves, AP and its estimators, operating points,
bootstrap replicates) derives from :func:`binary_clf_counts`. Two paths give the same
numbers as scikit-learn's ``_binary_clf_curve`` (1.9: ``confusion_matrix_at_thresholds``),
which spends most of its time in an indirect, stable argsort:

* unweighted: ``np.sort`` of the scores (a vectorized value sort), distinct thresholds
  from the sorted values, and each positive placed in them by :func:`numpy.searchsorted`
  (in chunks, so that each binary search stays in cache). All counts are integers held
  exactly in float64, so they equal scikit-learn's cumulative sums to the last bit.
* weighted: the stable descending order comes from a *value* sort of integer keys that
  hold the score's leading bits above the sample's index (the index makes the order
  stable; the rare distinct scores whose leading bits agree are re-sorted exactly
  afterwards). Score and label-signed weight travel in one 16-byte record, one gather
  instead of three, and the cumulative sums add the same weights in the same order as
  scikit-learn: the counts agree to the last bit.

The keys of float scores are their IEEE-754 bit patterns mapped to integers of the same
order, the device of radix sorts for floats (M. Herf, "Radix tricks", 2001);
``longdouble`` scores, which have no 64-bit key, take the indirect stable sort.

For average precision alone, :func:`positive_rank_counts` reads the counts only at the
scores held by a positive: the positives are sorted on their own, and the samples below
each positive score are counted by ``searchsorted`` in the sorted scores.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = ["binary_clf_counts", "positive_rank_counts", "stable_descending_order"]

_SIGN = np.uint64(1 << 63)
_I64_MAX = np.int64((1 << 63) - 1)
_I64_MIN = np.int64(-(1 << 63))


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
# unweighted: value sorts and searchsorted
# --------------------------------------------------------------------------------------
def _unweighted_counts(is_pos, y_score):
    """Unweighted counts: value sort, and each positive placed by ``searchsorted``."""
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
    """:func:`positive_rank_counts`: the positives and all scores sorted, ``searchsorted``."""
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


def _weighted_counts(is_pos, y_score, w):
    n = y_score.shape[0]
    w_min = w.min() if n else 1.0
    if w_min == 0:  # dropped, as scikit-learn does: they create no threshold
        keep = w != 0
        is_pos, y_score, w = is_pos[keep], y_score[keep], w[keep]
        del keep
        n = y_score.shape[0]
        w_min = w.min() if n else 1.0
    if n == 0:
        return np.zeros(0), np.zeros(0), y_score[:0].copy()
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
    ``fps`` and ``tps`` equal those of scikit-learn's ``confusion_matrix_at_thresholds``
    (1.9) to the last bit, weighted or not; so do the thresholds, except that without
    weights a zero threshold may be ``0.0`` where scikit-learn's is ``-0.0`` (or the
    reverse) when both occur among the scores.

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
