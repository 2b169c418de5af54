"""Compiled kernels of :mod:`._counting`: LSD radix sorts of 64-bit score keys (numba).

Imported by :mod:`._counting` on the first call large enough to use it, never by
``import bayes_prc``: importing numba takes about 0.3 s, and the first call on a machine
compiles these functions (seconds) into numba's on-disk cache (``cache=True``: next to
this file, or in the user's cache directory if that is read-only), which later processes
load instead.

The keys are the scores' IEEE-754 bit patterns mapped to unsigned integers of the
reverse order (ascending keys, descending scores; ``-0.0`` has the key of ``0.0``), the
device of radix sorts for floats (M. Herf, "Radix tricks", 2001); integer scores map the
same way. A least-significant-digit radix sort (D. E. Knuth, *The Art of Computer
Programming*, vol. 3, 2nd ed., 1998, section 5.2.5) then orders them in a few linear
passes instead of a comparison sort's ``log2 n``:

* the keys are taken relative to their minimum, and only the top :data:`SORT_BITS` bits
  of that range are sorted, :data:`DIGIT_BITS` bits a pass (256 buckets: the write
  cursors stay in L1 cache), all histograms counted in one read; a pass whose digits are
  all equal is skipped. Integer scores of a short range sort in one or two passes;
* distinct keys that share those top bits (rare: scores a few ulps apart, relative to
  the range) are put in order afterwards, run by run (insertion sort, or numpy's sort if
  the run is long), so the result is exact for any data.

An LSD sort is stable, and so is the run fix-up: the weighted path sorts each key with
its sample's label-signed weight and adds the weights in scikit-learn's order (stable,
descending). All large arrays are allocated by the caller (numpy, which asks the kernel
for huge pages; first touching numba's 4 KiB pages took longer than the counting).
"""

from __future__ import annotations

import warnings

import numba
import numpy as np

__all__ = [
    "DIGIT_BITS",
    "SORT_BITS",
    "ap_counts",
    "curve_counts",
    "n_distinct",
    "n_distinct_merged",
    "roc_corners",
    "roc_corners_weighted",
    "sort_pairs",
    "sort_split",
    "split_keys",
    "weighted_counts",
    "weighted_keys",
]

DIGIT_BITS = 8  # 256 buckets a pass
SORT_BITS = 40  # at most 5 passes; closer keys are ordered by the run fix-up
_RADIX = 1 << DIGIT_BITS
_SHORT_RUN = 32  # runs up to this length are insertion-sorted

_SIGN = np.uint64(1 << 63)
_LOW = np.uint64((1 << 63) - 1)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_MASK = np.uint64(_RADIX - 1)
_U64_MAX = np.uint64((1 << 64) - 1)


def _jit(fn):
    """``numba.njit(cache=True)``; uncached if no cache location is writable."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numba.NumbaWarning)
        try:
            return numba.njit(cache=True, nogil=True)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return numba.njit(nogil=True)(fn)


# --------------------------------------------------------------------------------------
# keys
# --------------------------------------------------------------------------------------
@_jit
def _key(v, kind):
    """uint64 key of one score held in an int64: float64 bits (``kind`` 0), an int64
    (1) or uint64 bits (2). Keys ascend as the scores descend."""
    b = np.uint64(v)
    if kind == 0:
        if b & _SIGN:
            return _LOW if b == _SIGN else b  # -0.0 ties with 0.0
        return b ^ _LOW
    if kind == 1:
        return ~(b ^ _SIGN)
    return ~b


@_jit
def _value(k, kind, zero_bits):
    """Inverse of :func:`_key`: the int64 holding the score; a zero score gets
    ``zero_bits`` (the sign of the last zero, as scikit-learn's threshold)."""
    if kind == 0:
        if k & _SIGN:
            return np.int64(k)
        if k == _LOW:
            return zero_bits
        return np.int64(k ^ _LOW)
    if kind == 1:
        return np.int64(~k ^ _SIGN)
    return np.int64(~k)


@_jit
def _bit_length(r):
    """Number of bits of the uint64 ``r`` (0 for 0)."""
    bits = 0
    while r:
        bits += 1
        r >>= _ONE
    return bits


@_jit
def split_keys(v, kind, is_pos, keys):
    """Keys of the positives to the front of ``keys``, of the negatives to the back.

    Returns ``(n_pos, min_pos, max_pos, min_neg, max_neg, zero_bits)``: the extreme keys
    of each class and the bits of the last zero score (float kind), else 0.
    """
    n = v.shape[0]
    front = 0
    back = n
    min_p = _U64_MAX
    max_p = _ZERO
    min_n = _U64_MAX
    max_n = _ZERO
    zero_bits = np.int64(0)
    for i in range(n):
        k = _key(v[i], kind)
        if kind == 0 and k == _LOW:
            zero_bits = v[i]
        if is_pos[i]:
            keys[front] = k
            front += 1
            min_p = min(min_p, k)
            max_p = max(max_p, k)
        else:
            back -= 1
            keys[back] = k
            min_n = min(min_n, k)
            max_n = max(max_n, k)
    return front, min_p, max_p, min_n, max_n, zero_bits


@_jit
def weighted_keys(v, kind, is_pos, w, keys, signed_w):
    """Keys of all samples and their weights signed by the label (``+w`` positive,
    ``-w`` negative; weights positive). Returns ``(min_key, max_key, zero_bits)``."""
    lo = _U64_MAX
    hi = _ZERO
    zero_bits = np.int64(0)
    for i in range(v.shape[0]):
        k = _key(v[i], kind)
        if kind == 0 and k == _LOW:
            zero_bits = v[i]
        keys[i] = k
        lo = min(lo, k)
        hi = max(hi, k)
        signed_w[i] = w[i] if is_pos[i] else -w[i]
    return lo, hi, zero_bits


# --------------------------------------------------------------------------------------
# LSD radix sort, keys alone or with a payload
# --------------------------------------------------------------------------------------
@_jit
def _histograms(keys, base, shift, passes):
    """``(offsets, skip)``: for each pass (a row), the start of each digit's bucket of
    ``(key - base) >> shift`` (exclusive prefix sums of the counts); ``skip[p]`` is True
    when all keys share pass ``p``'s digit (that pass orders nothing)."""
    n = keys.shape[0]
    hist = np.zeros((passes, _RADIX), dtype=np.uint64)
    sh = np.uint64(shift)
    for i in range(n):
        d = (keys[i] - base) >> sh
        for p in range(passes):
            hist[p, (d >> np.uint64(DIGIT_BITS * p)) & _MASK] += _ONE
    skip = np.zeros(passes, dtype=np.bool_)
    for p in range(passes):
        total = _ZERO
        for b in range(_RADIX):
            c = hist[p, b]
            if c == np.uint64(n):
                skip[p] = True
            hist[p, b] = total
            total += c
    return hist, skip


@_jit
def _lsd(src, dst, base, shift, n_bits):
    """Stable ascending sort of ``src`` by ``(x - base) >> shift`` (``n_bits`` wide),
    ``dst`` a scratch buffer of the same length. Returns whether the result is in
    ``dst`` (an odd number of passes ran)."""
    passes = -(-n_bits // DIGIT_BITS)
    swapped = False
    if src.shape[0] < 2 or passes == 0:
        return swapped
    hist, skip = _histograms(src, base, shift, passes)
    for p in range(passes):
        if skip[p]:
            continue
        off = hist[p]
        sh = np.uint64(shift + DIGIT_BITS * p)
        for i in range(src.shape[0]):
            x = src[i]
            b = ((x - base) >> sh) & _MASK
            o = off[b]
            dst[o] = x
            off[b] = o + _ONE
        src, dst = dst, src
        swapped = not swapped
    return swapped


@_jit
def _lsd_pairs(src, src_w, dst, dst_w, base, shift, n_bits):
    """:func:`_lsd` moving a payload ``src_w`` (any dtype) with each key."""
    passes = -(-n_bits // DIGIT_BITS)
    swapped = False
    if src.shape[0] < 2 or passes == 0:
        return swapped
    hist, skip = _histograms(src, base, shift, passes)
    for p in range(passes):
        if skip[p]:
            continue
        off = hist[p]
        sh = np.uint64(shift + DIGIT_BITS * p)
        for i in range(src.shape[0]):
            x = src[i]
            b = ((x - base) >> sh) & _MASK
            o = off[b]
            dst[o] = x
            dst_w[o] = src_w[i]
            off[b] = o + _ONE
        src, dst = dst, src
        src_w, dst_w = dst_w, src_w
        swapped = not swapped
    return swapped


@_jit
def _run(keys, i, base, shift):
    """``(a, b)``: the run of keys around ``i`` sharing its top bits ``(key - base) >>
    shift`` (``i + 1`` belongs to it: the sort put it there)."""
    sh = np.uint64(shift)
    t = (keys[i] - base) >> sh
    a = i
    while a > 0 and (keys[a - 1] - base) >> sh == t:
        a -= 1
    b = i + 2
    while b < keys.shape[0] and (keys[b] - base) >> sh == t:
        b += 1
    return a, b


@_jit
def _fix_runs(keys, base, shift):
    """Sort ``keys`` exactly where it is sorted only by ``(key - base) >> shift``."""
    n = keys.shape[0]
    i = 0
    while i < n - 1:
        if keys[i] <= keys[i + 1]:
            i += 1
            continue
        a, b = _run(keys, i, base, shift)
        if b - a <= _SHORT_RUN:
            for j in range(a + 1, b):
                x = keys[j]
                m = j
                while m > a and keys[m - 1] > x:
                    keys[m] = keys[m - 1]
                    m -= 1
                keys[m] = x
        else:
            keys[a:b] = np.sort(keys[a:b])
        i = b


@_jit
def _fix_runs_pairs(keys, payload, base, shift):
    """:func:`_fix_runs` moving ``payload`` along, stably (equal keys keep their order)."""
    n = keys.shape[0]
    i = 0
    while i < n - 1:
        if keys[i] <= keys[i + 1]:
            i += 1
            continue
        a, b = _run(keys, i, base, shift)
        if b - a <= _SHORT_RUN:
            for j in range(a + 1, b):
                x = keys[j]
                y = payload[j]
                m = j
                while m > a and keys[m - 1] > x:
                    keys[m] = keys[m - 1]
                    payload[m] = payload[m - 1]
                    m -= 1
                keys[m] = x
                payload[m] = y
        else:
            fix = np.argsort(keys[a:b], kind="mergesort")
            keys[a:b] = keys[a:b][fix]
            payload[a:b] = payload[a:b][fix]
        i = b


@_jit
def _sort_exact(part, tmp, kmin, kmax):
    """Sort ``part`` ascending, exactly (``kmin``, ``kmax``: its extreme keys)."""
    if part.shape[0] < 2:
        return
    key_bits = _bit_length(kmax - kmin)
    shift = max(0, key_bits - SORT_BITS)
    if _lsd(part, tmp, kmin, shift, key_bits - shift):
        part[:] = tmp  # an odd number of passes ended in the scratch buffer
    if shift:
        _fix_runs(part, kmin, shift)


@_jit
def sort_split(keys, tmp, n_pos, min_p, max_p, min_n, max_n):
    """Sort the positives' keys ``keys[:n_pos]`` and the negatives' ``keys[n_pos:]``
    (each ascending, exactly), ``tmp`` the scratch buffer; results end in ``keys``."""
    n = keys.shape[0]
    _sort_exact(keys[:n_pos], tmp[:n_pos], min_p, max_p)
    _sort_exact(keys[n_pos:], tmp[n_pos:n], min_n, max_n)


@_jit
def sort_pairs(keys, payload, tmp, tmp_payload, kmin, kmax):
    """Stable ascending sort of ``keys`` (extremes ``kmin``, ``kmax``) moving ``payload``
    along; results in ``keys`` and ``payload``."""
    if keys.shape[0] < 2:
        return
    key_bits = _bit_length(kmax - kmin)
    shift = max(0, key_bits - SORT_BITS)
    if _lsd_pairs(keys, payload, tmp, tmp_payload, kmin, shift, key_bits - shift):
        keys[:] = tmp
        payload[:] = tmp_payload
    if shift:
        _fix_runs_pairs(keys, payload, kmin, shift)


# --------------------------------------------------------------------------------------
# counts from sorted keys (the caller allocates the outputs: numpy asks for huge pages,
# numba's allocator does not, and first touching 4 KiB pages costs more than the count)
# --------------------------------------------------------------------------------------
@_jit
def n_distinct(keys):
    """Number of distinct values of sorted ``keys``."""
    m = 1 if keys.shape[0] else 0
    for i in range(keys.shape[0] - 1):
        if keys[i] != keys[i + 1]:
            m += 1
    return m


@_jit
def ap_counts(keys, n_pos, tp_at, fp_at, n_at):
    """``(tp_at, fp_at, n_at)`` of ``positive_rank_counts`` (filled, one entry per
    distinct positive key) from :func:`sort_split` output: the positives and the
    negatives at or above each (score at least as high), and the positives on it."""
    n = keys.shape[0]
    q = n_pos
    g = 0
    i = 0
    while i < n_pos:
        k = keys[i]
        j = i + 1
        while j < n_pos and keys[j] == k:
            j += 1
        while q < n and keys[q] <= k:
            q += 1
        tp_at[g] = j
        fp_at[g] = q - n_pos
        n_at[g] = j - i
        g += 1
        i = j


@_jit
def n_distinct_merged(keys, n_pos):
    """Number of distinct keys of both classes in :func:`sort_split` output."""
    n = keys.shape[0]
    m = 0
    i = 0
    q = n_pos
    while i < n_pos and q < n:
        k = min(keys[i], keys[q])
        while i < n_pos and keys[i] == k:
            i += 1
        while q < n and keys[q] == k:
            q += 1
        m += 1
    return m + n_distinct(keys[i:n_pos]) + n_distinct(keys[q:n])


@_jit
def curve_counts(keys, n_pos, kind, zero_bits, fps, tps, values):
    """Fill ``(fps, tps, values)`` at every distinct key of both classes, merging
    :func:`sort_split` output; ``values`` (int64) receives the thresholds."""
    n = keys.shape[0]
    i = 0
    q = n_pos
    for g in range(fps.shape[0]):
        if q >= n or (i < n_pos and keys[i] <= keys[q]):
            k = keys[i]
        else:
            k = keys[q]
        while i < n_pos and keys[i] == k:
            i += 1
        while q < n and keys[q] == k:
            q += 1
        tps[g] = i
        fps[g] = q - n_pos
        values[g] = _value(k, kind, zero_bits)


@_jit
def weighted_counts(keys, signed_w, kind, zero_bits, fps):
    """scikit-learn's weighted counts from :func:`sort_pairs` output (keys, signed
    weights): running sums of the positives' and the negatives' weights in the stable
    descending order, read at the end of each tie group. Fills ``fps`` and, in place (an
    entry is written only once read), ``signed_w[:m]`` with ``tps`` and ``keys[:m]`` with
    the thresholds (int64 bits); ``m = fps.shape[0]``."""
    n = keys.shape[0]
    tp = 0.0
    fp = 0.0
    g = 0
    for i in range(n):
        # np.cumsum of y * w and of (1 - y) * w: each adds w, or +0.0 (no change)
        x = signed_w[i]
        tp += max(x, 0.0)
        fp += max(-x, 0.0)
        if i == n - 1 or keys[i] != keys[i + 1]:
            fps[g] = fp
            signed_w[g] = tp
            keys[g] = np.uint64(_value(keys[i], kind, zero_bits))
            g += 1


# --------------------------------------------------------------------------------------
# the ROC curve's corners, without the curve
# --------------------------------------------------------------------------------------
@_jit
def roc_corners(keys, n_pos, out):
    """The points scikit-learn's ``roc_curve(drop_intermediate=True)`` keeps, merged from
    :func:`sort_split` output (``n < 2**32``): a point is kept when it is the first or
    the last, or when the step to it differs from the step after it (``np.diff(fps, 2)``
    or ``np.diff(tps, 2)`` non-zero). Writes ``fp << 32 | tp`` of each kept point to
    ``out`` and returns their number."""
    n = keys.shape[0]
    i = 0
    q = n_pos
    k = 0
    g = 0
    f0 = t0 = f1 = t1 = 0
    while i < n_pos or q < n:
        if q >= n or (i < n_pos and keys[i] <= keys[q]):
            key = keys[i]
        else:
            key = keys[q]
        while i < n_pos and keys[i] == key:
            i += 1
        while q < n and keys[q] == key:
            q += 1
        f2 = q - n_pos
        t2 = i
        # the previous point is decided once the next one is known
        if g == 1 or (g > 1 and (f2 - f1 != f1 - f0 or t2 - t1 != t1 - t0)):
            out[k] = (np.uint64(f1) << np.uint64(32)) | np.uint64(t1)
            k += 1
        f0, t0, f1, t1 = f1, t1, f2, t2
        g += 1
    if g:
        out[k] = (np.uint64(f1) << np.uint64(32)) | np.uint64(t1)
        k += 1
    return k


@_jit
def roc_corners_weighted(keys, signed_w, out_f, out_t):
    """:func:`roc_corners` of the weighted counts of :func:`sort_pairs` output (the
    running sums of :func:`weighted_counts`; the kept points by the same float
    differences as ``np.diff(fps, 2)``). Fills ``out_f``, ``out_t``; returns the number."""
    n = keys.shape[0]
    tp = 0.0
    fp = 0.0
    k = 0
    g = 0
    f0 = t0 = f1 = t1 = 0.0
    for i in range(n):
        x = signed_w[i]
        tp += max(x, 0.0)
        fp += max(-x, 0.0)
        if i < n - 1 and keys[i] == keys[i + 1]:
            continue
        if g == 1 or (g > 1 and ((fp - f1) - (f1 - f0) != 0 or (tp - t1) - (t1 - t0) != 0)):
            out_f[k] = f1
            out_t[k] = t1
            k += 1
        f0, t0, f1, t1 = f1, t1, fp, tp
        g += 1
    if g:
        out_f[k] = f1
        out_t[k] = t1
        k += 1
    return k
