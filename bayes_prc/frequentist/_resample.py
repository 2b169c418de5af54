"""Random draws of the bootstrap engine and its memory blocks.

The single place where the engine consumes a random stream: :func:`_draw_blocks` draws
a block of replicates at a time, in the fixed order described in
:mod:`bayes_prc.bootstrap`, and :func:`stratified_indices`, :func:`stratified_counts`
and :func:`dirichlet_weights` replay these draws as explicit resamples or weights.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._core import check_binary_target, check_int, check_random_state, plain

__all__ = [
    "BOOTSTRAP_KINDS",
    "DEFAULT_MEMORY_BUDGET",
    "dirichlet_weights",
    "stratified_counts",
    "stratified_indices",
    "unstratified_indices",
]

#: Default memory budget (bytes) of the chunked replicate computations: 256 MiB.
DEFAULT_MEMORY_BUDGET = 256 * 2**20

#: Valid values of the ``kind`` argument of :func:`bootstrap_replicates`.
BOOTSTRAP_KINDS = ("stratified", "bayesian", "unstratified")

#: Bytes of working memory per (replicate, item) pair of a block of replicates: drawn
#: indices or weights, their bins, the per-bin counts and the AP temporaries (an upper
#: bound; the per-bin arrays have at most n + 1 columns).
BYTES_PER_ITEM = 128


def _check_budget(memory_budget):
    ok = isinstance(memory_budget, numbers.Real) and not isinstance(memory_budget, bool)
    if not ok or not np.isfinite(memory_budget) or memory_budget <= 0:
        raise ValueError(
            f"`memory_budget` must be a positive number of bytes; got {plain(memory_budget)}"
        )
    return float(memory_budget)


def _block_size(n, memory_budget):
    """Replicates per block: ``max(1, memory_budget // (BYTES_PER_ITEM * n))``."""
    return int(max(1, memory_budget // (BYTES_PER_ITEM * max(n, 1))))


def _draw_blocks(rng, n_resamples, n_pos, n_neg, kind, block):
    """Yield the draws block by block, in the engine's fixed order.

    Stratified: ``(dp, dn)``, ranks of the drawn positives (b, n_pos) then of the drawn
    negatives (b, n_neg), from ``rng.integers(0, n_pos, size=(b, n_pos))`` and
    ``rng.integers(0, n_neg, size=(b, n_neg))``. Bayesian: Dirichlet(1, ..., 1) weights
    (b, n) from ``rng.standard_exponential(size=(b, n))`` with each row divided by its sum.
    Unstratified: ``d`` (b, n), ranks into the positives followed by the negatives (a rank
    below ``n_pos`` is a positive), from ``rng.integers(0, n, size=(b, n))``; see
    :func:`_redraw_without_positive` for rows that draw no positive.
    """
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        if kind == "stratified":
            dp = rng.integers(0, n_pos, size=(b, n_pos)) if n_pos else np.zeros((b, 0), np.int64)
            dn = rng.integers(0, n_neg, size=(b, n_neg)) if n_neg else np.zeros((b, 0), np.int64)
            yield dp, dn
        elif kind == "unstratified":
            n = n_pos + n_neg
            d = rng.integers(0, n, size=(b, n))
            yield _redraw_without_positive(rng, d, n_pos)
        else:
            w = rng.standard_exponential(size=(b, n_pos + n_neg))
            w /= w.sum(axis=1, keepdims=True)
            yield w
        done += b


def _redraw_without_positive(rng, rows, n_pos):
    """Redraw, in place and in row order, the unstratified rows without a positive.

    The unstratified bootstrap is conditioned on at least one positive (AP and recall
    are undefined without one): a replicate that draws no positive is replaced by a
    fresh draw (``rng.integers(0, n, size=(m, n))`` for the ``m`` such rows, in row
    order), repeatedly, until every row has one.
    This keeps ``n_resamples`` replicates and the draws replayable. The chance of a
    redraw is ``(1 - n_pos / n) ** n`` per row (about ``exp(-n_pos)``), so it only
    matters for a handful of positives. ``rows`` holds ranks (a rank below ``n_pos`` is
    a positive).
    """
    if n_pos == 0:
        raise ValueError(
            "`y_true` has no positive sample; the unstratified bootstrap is conditioned "
            "on at least one positive per replicate"
        )
    bad = np.flatnonzero(rows.min(axis=1) >= n_pos)
    while bad.size:
        rows[bad] = rng.integers(0, rows.shape[1], size=(bad.size, rows.shape[1]))
        bad = bad[rows[bad].min(axis=1) >= n_pos]
    return rows


def stratified_indices(
    y_true, n_resamples, *, random_seed=None, pos_label=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Explicit indices of the stratified bootstrap resamples used by the engine.

    Replays the random draws of :func:`bootstrap_replicates` (``scheme="stratified"``),
    :func:`bayes_prc.frequentist.ap_interval` (``"bootstrap"`` and ``"bca"``) and
    :func:`bayes_prc.frequentist.bootstrap_pr_band` for the same ``random_seed`` (and
    ``memory_budget``, which sets how many replicates are drawn per call of the
    generator): row ``r`` holds the resample behind their replicate ``r``. Each class is
    resampled with replacement to its own size.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    n_resamples : int
        Number of resamples (>= 1).
    random_seed : None, int or numpy.random.Generator, optional
        Seed of the draws.
    pos_label : label, optional
        The positive label (default 1).
    memory_budget : float, default 256 MiB
        As in :func:`bootstrap_replicates`.

    Returns
    -------
    ndarray of int64, shape (n_resamples, n_samples)
        Row ``r``: the indices of the drawn positives (``n_pos`` of them) followed by those
        of the drawn negatives (``n_neg``), into ``y_true``.

    Examples
    --------
    >>> from bayes_prc.bootstrap import stratified_indices
    >>> idx = stratified_indices([0, 1, 0, 1, 0], 3, random_seed=0)
    >>> idx.shape
    (3, 5)
    >>> [sorted(int(i) % 2 for i in row) for row in idx]  # two positives in every row
    [[0, 0, 0, 1, 1], [0, 0, 0, 1, 1], [0, 0, 0, 1, 1]]
    """
    is_pos, _, _ = check_binary_target(y_true, pos_label)
    n_resamples = check_int(n_resamples, "n_resamples")
    memory_budget = _check_budget(memory_budget)
    rng = check_random_state(random_seed)
    pos_items, neg_items = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    n_pos, n = pos_items.shape[0], is_pos.shape[0]
    out = np.empty((n_resamples, n), dtype=np.int64)
    start = 0
    for dp, dn in _draw_blocks(
        rng, n_resamples, n_pos, n - n_pos, "stratified", _block_size(n, memory_budget)
    ):
        b = dp.shape[0]
        out[start : start + b, :n_pos] = pos_items[dp]
        out[start : start + b, n_pos:] = neg_items[dn]
        start += b
    return out


def unstratified_indices(
    y_true, n_resamples, *, random_seed=None, pos_label=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Explicit indices of the unstratified bootstrap resamples used by the engine.

    Replays the draws of :func:`bootstrap_replicates` with ``scheme="unstratified"`` and of
    :func:`bayes_prc.frequentist.ap_interval` / :func:`bayes_prc.frequentist.bootstrap_pr_band`
    with ``stratified=False`` (fewer than 100 000 items) for the same ``random_seed`` and
    ``memory_budget``: row ``r`` holds the resample behind their replicate ``r``. All
    ``n`` items are resampled jointly with replacement, so the number of positives
    varies between replicates; a replicate without a positive is redrawn (the bootstrap
    conditioned on at least one positive, see :func:`_redraw_without_positive`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels, at least one positive.
    n_resamples : int
        Number of resamples (>= 1).
    random_seed : None, int or numpy.random.Generator, optional
    pos_label : label, optional
    memory_budget : float, default 256 MiB
        As in :func:`bootstrap_replicates`.

    Returns
    -------
    ndarray of int64, shape (n_resamples, n_samples)
        Indices into ``y_true``.

    Examples
    --------
    >>> from bayes_prc.bootstrap import unstratified_indices
    >>> idx = unstratified_indices([0, 1, 0, 0, 0], 200, random_seed=0)
    >>> idx.shape, bool(((idx == 1).sum(axis=1) >= 1).all())  # a positive in every row
    ((200, 5), True)
    """
    is_pos, _, _ = check_binary_target(y_true, pos_label)
    n_resamples = check_int(n_resamples, "n_resamples")
    memory_budget = _check_budget(memory_budget)
    rng = check_random_state(random_seed)
    items = np.concatenate((np.flatnonzero(is_pos), np.flatnonzero(~is_pos)))
    n_pos, n = int(is_pos.sum()), is_pos.shape[0]
    blocks = _draw_blocks(
        rng, n_resamples, n_pos, n - n_pos, "unstratified", _block_size(n, memory_budget)
    )
    return np.concatenate([items[d] for d in blocks], axis=0)


def stratified_counts(
    y_true, n_resamples, *, random_seed=None, pos_label=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Resampling counts of the stratified bootstrap used by the engine.

    ``counts[r, i]`` is how many times item ``i`` appears in resample ``r`` of
    :func:`stratified_indices` (same arguments, same draws): a multinomial vector
    within each class, summing to ``n_pos`` over the positives and ``n_neg`` over the
    negatives.

    Returns
    -------
    ndarray of int64, shape (n_resamples, n_samples)

    Examples
    --------
    >>> from bayes_prc.bootstrap import stratified_counts
    >>> c = stratified_counts([0, 1, 0, 1, 0], 4, random_seed=1)
    >>> c[:, [1, 3]].sum(axis=1).tolist(), c[:, [0, 2, 4]].sum(axis=1).tolist()
    ([2, 2, 2, 2], [3, 3, 3, 3])
    """
    idx = stratified_indices(
        y_true,
        n_resamples,
        random_seed=random_seed,
        pos_label=pos_label,
        memory_budget=memory_budget,
    )
    n = idx.shape[1]
    offsets = np.arange(idx.shape[0], dtype=np.int64)[:, None] * n
    flat = np.bincount((idx + offsets).ravel(), minlength=idx.shape[0] * n)
    return flat.reshape(idx.shape[0], n)


def dirichlet_weights(
    n_samples, n_resamples, *, random_seed=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Dirichlet(1, ..., 1) weights of the Bayesian bootstrap used by the engine.

    Row ``r`` is ``e / e.sum()`` with ``e`` standard exponential draws: a uniform draw
    from the simplex (Rubin 1981). Replays the draws of :func:`bootstrap_replicates` with
    ``scheme="bayesian"`` and of :func:`bayes_prc.frequentist.ap_interval` with
    ``method="bayesian_bootstrap"`` for the same ``random_seed`` and ``memory_budget``.

    Returns
    -------
    ndarray of float64, shape (n_resamples, n_samples)

    Examples
    --------
    >>> from bayes_prc.bootstrap import dirichlet_weights
    >>> w = dirichlet_weights(4, 2, random_seed=0)
    >>> w.shape, bool((w > 0).all()), w.sum(axis=1).round(12).tolist()
    ((2, 4), True, [1.0, 1.0])
    """
    n_samples = check_int(n_samples, "n_samples")
    n_resamples = check_int(n_resamples, "n_resamples")
    memory_budget = _check_budget(memory_budget)
    rng = check_random_state(random_seed)
    blocks = _draw_blocks(
        rng, n_resamples, n_samples, 0, "bayesian", _block_size(n_samples, memory_budget)
    )
    return np.concatenate(list(blocks), axis=0)
