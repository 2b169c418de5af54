"""Bootstrap replicates of large data drawn as counts per score bin, not per item.

A stratified bootstrap replicate is a multinomial resample of each class; aggregated to
the engine's bins (see :class:`bayes_prc.frequentist._engine._Bins`) its class counts are
``Multinomial(n_pos, cp / n_pos)`` over the positive groups and ``Multinomial(n_neg, cn /
n_neg)`` over the negative bins, exactly. The Bayesian bootstrap's Dirichlet(1, ..., 1)
item weights summed over a bin with ``c`` items are ``Gamma(c, 1)`` (then normalized),
exactly. Drawing these counts costs O(bins) per replicate instead of O(n), so above
:data:`AGGREGATE_MIN_ITEMS` items the engine draws per bin (Efron & Tibshirani 1993,
ch. 6; Rubin 1981).

When the positives have more than :data:`MAX_GROUPS` distinct scores, consecutive
positive groups are merged into at most that many bins of about equal numbers of
positives (:func:`coarsen`). This is the one approximation: inside a merged bin the
items are treated as tied, so a replicate's AP is the AP of the data with ties within
bins. The bias this introduces is almost the same for every replicate, so the replicates
are shifted by the difference between the exact AP of the data and its AP on the merged
bins (``ap_shift``); what is left is the change of that difference from replicate to
replicate, which ``benchmarks/bench_report.py`` measures (interval ends within 1e-4 of the
per-item bootstrap at n = 1e6, well inside the Monte Carlo error of the ends).
"""

from __future__ import annotations

import numpy as np

__all__ = ["AGGREGATE_MIN_ITEMS", "MAX_GROUPS", "coarsen", "count_blocks", "use_counts"]

#: Data with at least this many items are resampled per bin (see the module docstring).
AGGREGATE_MIN_ITEMS = 100_000

#: At most this many positive bins in the per-bin resampling of large data.
MAX_GROUPS = 2_000

#: Working memory of a block of per-bin replicates, in bytes.
_BLOCK_BYTES = 64 * 2**20


def use_counts(n_items):
    """True when replicates are drawn per bin (large data; see the module docstring)."""
    return n_items >= AGGREGATE_MIN_ITEMS


def class_counts(spec):
    """Data counts ``(cp, cn)`` per bin of a ``(pos_bins, neg_bins, n_bins)`` spec."""
    pos_bins, neg_bins, n_bins = spec
    cp = np.bincount(pos_bins, minlength=n_bins).astype(np.float64)
    cn = np.bincount(neg_bins, minlength=n_bins).astype(np.float64)
    return cp, cn


def coarsen(cp, cn, n_groups, max_groups=MAX_GROUPS):
    """Merge consecutive positive groups into at most ``max_groups`` bins.

    Parameters
    ----------
    cp, cn : ndarray of shape (n_groups + 1,)
        Positives per positive group (the last entry 0) and negatives per bin (the last
        bin holds the negatives below every positive), highest scores first.
    n_groups : int
    max_groups : int

    Returns
    -------
    cp, cn : ndarray of shape (g + 1,)
        The counts of the merged bins, same layout.
    g : int
        Number of merged positive bins (``n_groups`` when no merge was needed).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.frequentist._aggregate import coarsen
    >>> cp, cn, g = coarsen(np.array([1.0, 1, 1, 1, 0]), np.array([0.0, 2, 0, 1, 5]), 4, 2)
    >>> cp.tolist(), cn.tolist(), g
    ([2.0, 2.0, 0.0], [2.0, 1.0, 5.0], 2)
    """
    k = n_groups
    if k <= max_groups:
        return cp, cn, k
    pos = cp[:k]
    before = np.cumsum(pos) - pos
    merged = np.floor(before * (max_groups / pos.sum())).astype(np.int64)
    _, merged = np.unique(merged, return_inverse=True)  # consecutive bin numbers
    g = int(merged[-1]) + 1
    cp_new = np.bincount(merged, weights=pos, minlength=g + 1)
    cn_new = np.bincount(np.append(merged, g), weights=cn[: k + 1], minlength=g + 1)
    return cp_new, cn_new, g


def _multinomial_rows(rng, counts, b):
    """``b`` rows of ``Multinomial(N, counts / N)`` with ``N = counts.sum()``, exactly.

    Poisson counts ``Poisson(counts)`` per bin are, given their total ``T``,
    ``Multinomial(T, counts / N)``; a row with ``T < N`` gets ``N - T`` more categorical
    draws, a row with ``T > N`` loses ``T - N`` of its draws chosen uniformly without
    replacement. Both leave an exact ``Multinomial(N, counts / N)`` row, at the cost of
    O(bins + sqrt(N)) per row instead of O(N) (or a binomial per bin).
    """
    m = counts.shape[0]
    total = int(round(counts.sum()))
    out = rng.poisson(counts, size=(b, m)).astype(np.float64)
    if total == 0:
        return out
    cum = np.cumsum(counts)
    drawn = out.sum(axis=1)
    for r in np.flatnonzero(drawn != total):
        d = int(total - drawn[r])
        if d > 0:
            cells = np.searchsorted(cum, rng.random(d) * cum[-1], side="right")
            out[r] += np.bincount(np.minimum(cells, m - 1), minlength=m)
        else:
            gone = rng.choice(int(drawn[r]), size=-d, replace=False)
            cells = np.searchsorted(np.cumsum(out[r]), gone, side="right")
            out[r] -= np.bincount(cells, minlength=m)
    return out


def count_blocks(cp, cn, n_resamples, rng, kind, progress):
    """Yield ``(cp, cn)`` class counts (or Bayesian weights) of blocks of replicates.

    Stratified: each class resampled to its own size (conditional binomials per bin).
    Bayesian: ``Gamma(count)`` per (class, bin), normalized per replicate over both
    classes (the Dirichlet(1, ..., 1) item weights summed per bin).
    """
    m = cp.shape[0]
    block = int(max(1, min(n_resamples, _BLOCK_BYTES // (32 * max(m, 1)))))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        if kind == "stratified":
            rp = _multinomial_rows(rng, cp, b)
            rn = _multinomial_rows(rng, cn, b)
        else:
            rp = rng.standard_gamma(np.broadcast_to(cp, (b, m)))
            rn = rng.standard_gamma(np.broadcast_to(cn, (b, m)))
            total = rp.sum(axis=1, keepdims=True) + rn.sum(axis=1, keepdims=True)
            rp /= total
            rn /= total
        done += b
        progress.update(done)
        yield rp, rn
