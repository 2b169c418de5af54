"""Bootstrap replicates of large data drawn as counts per score bin, not per item.

A stratified bootstrap replicate is a multinomial resample of each class; aggregated to
the engine's bins (see :class:`bayes_prc.frequentist._engine._Bins`) its class counts are
``Multinomial(n_pos, cp / n_pos)`` over the positive groups and ``Multinomial(n_neg, cn /
n_neg)`` over the negative bins, exactly (an unstratified replicate: one ``Multinomial(n,
.)`` over the cells of both classes). The Bayesian bootstrap's Dirichlet(1, ..., 1)
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

__all__ = [
    "AGGREGATE_MIN_ITEMS",
    "MAX_GROUPS",
    "coarsen",
    "count_blocks",
    "multinomial_rows",
    "use_counts",
]

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


def _categorical_counts(rng, cum, need):
    """Counts per cell of ``need[r]`` categorical draws in row ``r`` (cells by ``cum``).

    Inverse-CDF sampling with a lookup table: a uniform ``x`` starts at the first cell
    whose upper edge exceeds the table point just below ``x`` and moves up while its
    edge is ``<= x`` (one step or none, typically), so each draw costs O(1).
    """
    b, m = need.shape[0], cum.shape[0]
    edges = cum / cum[-1]
    edges[-1] = 1.0
    size = 16 * m
    table = np.searchsorted(edges, np.arange(size) / size, side="right")
    x = rng.random(int(need.sum()))
    cell = table[(x * size).astype(np.int64)]
    todo = np.flatnonzero(edges[cell] <= x)
    while todo.size:
        cell[todo] += 1
        todo = todo[edges[cell[todo]] <= x[todo]]
    flat = np.repeat(np.arange(b) * m, need) + cell
    return np.bincount(flat, minlength=b * m).reshape(b, m)


def multinomial_rows(rng, counts, b):
    """``b`` rows of ``Multinomial(N, counts / N)`` with ``N = counts.sum()``, exactly.

    Poisson counts with means ``s * counts`` (``s = 1 - 3 / sqrt(N)``, so their total
    ``T`` is below ``N`` for all but about one row in a thousand) are, given ``T``,
    ``Multinomial(T, counts / N)``; each row then gets ``N - T`` more categorical draws,
    which leaves an exact ``Multinomial(N, counts / N)`` row. A row with ``T > N`` loses
    ``T - N`` of its draws chosen uniformly without replacement (also exact). Cost
    O(bins + sqrt(N)) per row, vectorized, instead of O(N) or a binomial per bin.
    """
    m = counts.shape[0]
    total = int(round(float(counts.sum())))
    out = np.zeros((b, m))
    if total == 0:
        return out
    scale = max(0.0, 1.0 - 3.0 / np.sqrt(total))
    if scale > 0.0:
        out += rng.poisson(counts * scale, size=(b, m))
    drawn = out.sum(axis=1)
    for r in np.flatnonzero(drawn > total):  # rare: thin the row to `total` draws
        gone = rng.choice(int(drawn[r]), size=int(drawn[r]) - total, replace=False)
        cells = np.searchsorted(np.cumsum(out[r]), gone, side="right")
        out[r] -= np.bincount(cells, minlength=m)
    need = np.maximum(total - drawn, 0.0).astype(np.int64)
    cum = np.cumsum(counts)
    step = max(1, int(2_000_000 // (np.mean(need) + m)))  # rows per group (memory)
    for start in range(0, b, step):
        out[start : start + step] += _categorical_counts(rng, cum, need[start : start + step])
    return out


def count_blocks(cp, cn, n_resamples, rng, kind, progress):
    """Yield ``(cp, cn)`` class counts (or Bayesian weights) of blocks of replicates.

    Stratified: each class resampled to its own size (conditional binomials per bin).
    Unstratified: one ``Multinomial(n, .)`` over the (class, bin) cells of both classes
    (the joint resample of all items, aggregated); a replicate without a positive is
    redrawn, as in the per-item draws (the bootstrap conditioned on a positive).
    Bayesian: ``Gamma(count)`` per (class, bin), normalized per replicate over both
    classes (the Dirichlet(1, ..., 1) item weights summed per bin).
    """
    if kind == "unstratified" and cp.sum() == 0:
        raise ValueError(
            "`y_true` has no positive sample; the unstratified bootstrap is conditioned "
            "on at least one positive per replicate"
        )
    m = cp.shape[0]
    block = int(max(1, min(n_resamples, _BLOCK_BYTES // (32 * max(m, 1)))))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        if kind == "stratified":
            rp = multinomial_rows(rng, cp, b)
            rn = multinomial_rows(rng, cn, b)
        elif kind == "unstratified":
            both = np.concatenate((cp, cn))
            rows = multinomial_rows(rng, both, b)
            bad = np.flatnonzero(rows[:, :m].sum(axis=1) == 0)
            while bad.size:
                rows[bad] = multinomial_rows(rng, both, bad.size)
                bad = bad[rows[bad, :m].sum(axis=1) == 0]
            rp, rn = rows[:, :m], rows[:, m:]
        else:
            rp = rng.standard_gamma(np.broadcast_to(cp, (b, m)))
            rn = rng.standard_gamma(np.broadcast_to(cn, (b, m)))
            total = rp.sum(axis=1, keepdims=True) + rn.sum(axis=1, keepdims=True)
            rp /= total
            rn /= total
        done += b
        progress.update(done)
        yield rp, rn
