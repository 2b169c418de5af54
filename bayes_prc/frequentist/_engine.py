"""The counting engine: bootstrap replicates of AUC-PR estimators without re-sorting.

The data are prepared once (a :class:`bayes_prc.empirical.Ranked`, then its bins, see
:class:`_Bins`), and each replicate's weights are reduced to per-bin class weights with
:func:`numpy.bincount`; the scheme and the draws are described in
:mod:`bayes_prc.bootstrap`, which re-exports the public names.
"""

from __future__ import annotations

import warnings
from functools import cached_property

import numpy as np

from .._core import Progress, check_choice, check_int, check_progressbar, check_random_state, plain
from .._core.groups import cluster_weight_blocks
from ..empirical import AUC_PR_ESTIMATORS, as_ranked, auc_pr_validated
from ._aggregate import coarsen, count_blocks, use_counts
from ._resample import (
    BOOTSTRAP_KINDS,
    DEFAULT_MEMORY_BUDGET,
    _block_size,
    _check_budget,
    _draw_blocks,
)

__all__ = ["CLUSTER_SCHEMES", "average_precision_replicates", "bootstrap_replicates"]

#: Resampling schemes of whole clusters (``groups=``): the cluster bootstrap and the
#: cluster Bayesian bootstrap.
CLUSTER_SCHEMES = ("cluster", "cluster_bayesian")


# --------------------------------------------------------------------------------------
# the prepared data and its bins
# --------------------------------------------------------------------------------------
def _prepare(y_true, y_score, pos_label):
    """The one validation of a public entry point: ``as_ranked``, without sample weights."""
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)
    if ranked.sample_weight is not None:
        raise ValueError(
            "the bootstrap and interval functions do not take sample weights; got a "
            "`Ranked` with `sample_weight`"
        )
    return ranked


class _Bins:
    """The bins of a :class:`~bayes_prc.empirical.Ranked` that every replicate counts in.

    Positives are grouped by distinct score (group 0 holds the highest positive score);
    each negative goes to the bin of the first positive group it counts against (ties
    count, as ``score >= threshold``; bin ``n_groups`` for negatives below every
    positive). Built once per call and shared by the replicates and the jackknife.
    """

    def __init__(self, ranked):
        self.ranked = ranked
        score = ranked.y_score
        self.n = ranked.n_samples
        self.pos_items = np.flatnonzero(ranked.is_pos)
        self.neg_items = np.flatnonzero(~ranked.is_pos)
        self.n_pos = self.pos_items.shape[0]
        self.n_neg = self.neg_items.shape[0]
        pos_scores = score[self.pos_items]
        levels = np.unique(pos_scores)  # ascending distinct positive scores
        self.n_groups = levels.shape[0]
        self.pos_group = (self.n_groups - 1) - np.searchsorted(levels, pos_scores)
        # number of positive groups strictly above each negative
        self.neg_bin = self.n_groups - np.searchsorted(levels, score[self.neg_items], side="right")

    @property
    def spec(self):
        """``(pos_bins, neg_bins, n_bins)`` of the positive groups, for :func:`_binned_blocks`."""
        return self.pos_group, self.neg_bin, self.n_groups + 1

    @cached_property
    def data_counts(self):
        """``(cp, cn)`` of the data itself (unit weights), shapes (1, K) and (1, K + 1)."""
        k = self.n_groups
        cp = np.bincount(self.pos_group, minlength=k).astype(np.float64)[None, :]
        cn = np.bincount(self.neg_bin, minlength=k + 1).astype(np.float64)[None, :]
        cp.setflags(write=False)
        cn.setflags(write=False)
        return cp, cn

    @cached_property
    def sorted_view(self):
        """Descending stable order, and labels and scores in that order."""
        order = self.ranked.order
        return order, self.ranked.is_pos[order], self.ranked.y_score[order]

    @cached_property
    def threshold_bins(self):
        """All distinct scores (decreasing) and each positive's / negative's index in it."""
        order, _, ss = self.sorted_view  # descending, stable (cached on the Ranked)
        new = np.empty(ss.shape[0], dtype=bool)  # a new distinct score starts here
        new[:1] = True
        np.not_equal(ss[1:], ss[:-1], out=new[1:])
        idx = np.empty(ss.shape[0], dtype=np.intp)
        idx[order] = np.cumsum(new) - 1  # level of each item, 0 = the highest score
        return ss[new], idx[self.pos_items], idx[self.neg_items]


def _require_positive(bins):
    if bins.n_pos == 0:
        raise ValueError(
            "`y_true` has no positive sample; the area under the PR curve and its "
            "bootstrap distribution are undefined"
        )


# --------------------------------------------------------------------------------------
# estimators on binned or weighted data
# --------------------------------------------------------------------------------------
def _ap_from_binned(cp, cn):
    """AP of each row from positive group weights ``cp`` (b, K) and negative bins ``cn``.

    ``cn`` has ``K`` or ``K + 1`` columns; a last column (negatives below every positive)
    is ignored.
    """
    k = cp.shape[1]
    tp = np.cumsum(cp, axis=1)
    fp = np.cumsum(cn[:, :k], axis=1)
    denom = tp + fp
    prec = np.zeros_like(tp)
    np.divide(tp, denom, out=prec, where=denom > 0)
    total = tp[:, -1]
    num = np.einsum("ij,ij->i", cp, prec)
    out = np.zeros(cp.shape[0])
    np.divide(num, total, out=out, where=total > 0)
    return out


def _max_precision_at_recall(cp, cn, recall):
    """Per row, the highest precision over thresholds whose recall is at least ``recall``.

    The definition of :func:`bayes_prc.precision_at_recall`, for ``0 < recall``: the
    maximum is reached at a positive group's score (below it, only false positives are
    added at the same recall), so only the groups are read.
    """
    k = cp.shape[1]
    tp = np.cumsum(cp, axis=1)
    fp = np.cumsum(cn[:, :k], axis=1)
    prec = np.zeros_like(tp)
    np.divide(tp, tp + fp, out=prec, where=tp / tp[:, -1:] >= recall)
    return prec.max(axis=1)


# --------------------------------------------------------------------------------------
# replicates
# --------------------------------------------------------------------------------------
def _draws(bins, rng, n_resamples, kind, block):
    """The draws of ``kind``, block by block: item draws, or item weights (b, n).

    ``"cluster"`` / ``"cluster_bayesian"`` (the clusters in ``bins.clusters``, a
    :class:`~bayes_prc._core.groups.Clusters`) give item weights in the input order, as
    ``"bayesian"`` does; the others come from :func:`._resample._draw_blocks`.
    """
    if kind in CLUSTER_SCHEMES:
        return cluster_weight_blocks(
            rng,
            bins.clusters,
            bins.ranked.is_pos,
            n_resamples,
            block,
            bayesian=kind == "cluster_bayesian",
            both_classes=getattr(bins, "both_classes", False),
        )
    return _draw_blocks(rng, n_resamples, bins.n_pos, bins.n_neg, kind, block)


def _row_bincount(bins, n_bins, weights=None):
    """``np.bincount`` of each row of ``bins`` (b, m) into ``n_bins``, as float64 (b, n_bins).

    One call over the rows shifted to their own range of bins: each bin adds its row's
    weights in the same order as a call per row would, so the sums are the same to the
    last bit (counts are integers).
    """
    b = bins.shape[0]
    flat = (bins + (np.arange(b) * n_bins)[:, None]).ravel()
    w = None if weights is None else weights.ravel()
    return np.bincount(flat, weights=w, minlength=b * n_bins).astype(np.float64).reshape(b, n_bins)


def _binned_blocks(bins, specs, n_resamples, rng, kind, block, progress):
    """Yield, a block of replicates at a time, their class weights per bin.

    ``specs`` holds one or more ``(pos_bins, neg_bins, n_bins)``, each mapping the
    positives / negatives (in the order of ``bins.pos_items`` / ``bins.neg_items``) to
    one of ``n_bins`` bins. Every spec is counted under the same draws (two classifiers
    of the same items are paired this way); each yielded item is a list with one
    ``(cp, cn)`` of shape ``(b, n_bins)`` per spec.
    """
    done = 0
    for draws in _draws(bins, rng, n_resamples, kind, block):
        if kind == "stratified":
            dp, dn = draws
            b = dp.shape[0]
        elif kind == "unstratified":
            b = draws.shape[0]
        else:
            b = draws.shape[0]
            wp = draws[:, bins.pos_items]
            wn = draws[:, bins.neg_items]
        out = []
        for pos_bins, neg_bins, n_bins in specs:
            if kind == "unstratified":  # one bincount of (class, bin) codes per row
                code = np.concatenate((pos_bins, neg_bins + n_bins))
                both = _row_bincount(code[draws], 2 * n_bins)
                out.append((both[:, :n_bins], both[:, n_bins:]))
                continue
            if kind == "stratified":
                cp = _row_bincount(pos_bins[dp], n_bins)
                cn = _row_bincount(neg_bins[dn], n_bins)
            else:
                cp = _row_bincount(np.broadcast_to(pos_bins, wp.shape), n_bins, wp)
                cn = _row_bincount(np.broadcast_to(neg_bins, wn.shape), n_bins, wn)
            out.append((cp, cn))
        done += b
        progress.update(done)
        yield out


def _replicate_weights(bins, n_resamples, rng, kind, block):
    """Yield each replicate's weights over the items, in the pre-sorted order."""
    order = bins.sorted_view[0]
    items = np.concatenate((bins.pos_items, bins.neg_items))
    for draws in _draws(bins, rng, n_resamples, kind, block):
        if kind == "unstratified":
            for d in draws:
                yield np.bincount(items[d], minlength=bins.n).astype(np.float64)[order]
        elif kind == "stratified":
            dp, dn = draws
            for r in range(dp.shape[0]):
                drawn = np.concatenate((bins.pos_items[dp[r]], bins.neg_items[dn[r]]))
                w = np.bincount(drawn, minlength=bins.n).astype(np.float64)
                yield w[order]
        else:
            for w in draws:
                yield w[order]


def _replicates(bins, estimator, n_resamples, kind, rng, block, progressbar, label, info=None):
    """Bootstrap distribution of ``estimator``; shared by the public entry points.

    AP of data with at least ``AGGREGATE_MIN_ITEMS`` items is resampled per bin
    (:mod:`._aggregate`); ``info`` (a dict), when given, receives how.
    """
    _require_positive(bins)
    out = np.empty(n_resamples)
    progress = Progress(n_resamples, label, progressbar)
    try:
        if estimator == "average_precision":
            k = bins.n_groups
            shift = 0.0
            if use_counts(bins.n) and kind not in CLUSTER_SCHEMES:
                cp0, cn0 = bins.data_counts
                cp_bins, cn_bins, k = coarsen(np.append(cp0[0], 0.0), cn0[0], k)
                if k < bins.n_groups:  # the AP lost by merging bins, restored (module doc)
                    shift = (
                        _ap_from_binned(cp0, cn0)[0]
                        - _ap_from_binned(cp_bins[None, :k], cn_bins[None, :])[0]
                    )
                blocks = count_blocks(cp_bins, cn_bins, n_resamples, rng, kind, progress)
                if info is not None:
                    info.update(per_bin=True, n_bins=k, ap_shift=float(shift))
            else:
                blocks = (
                    b[0]
                    for b in _binned_blocks(
                        bins, [bins.spec], n_resamples, rng, kind, block, progress
                    )
                )
            start = 0
            for cp, cn in blocks:
                out[start : start + cp.shape[0]] = _ap_from_binned(cp[:, :k], cn) + shift
                start += cp.shape[0]
        else:
            _, is_pos_s, score_s = bins.sorted_view
            weights = _replicate_weights(bins, n_resamples, rng, kind, block)
            for r, w in enumerate(weights):
                out[r] = auc_pr_validated(is_pos_s, score_s, w, estimator)
                progress.update(r + 1)
    finally:
        progress.close()
    # areas lie in [0, 1]; weighted sums can leave it by round-off (1 + 2e-16)
    return np.clip(out, 0.0, 1.0, out=out)


def paired_replicates(ranked_a, ranked_b, n_resamples, kind, rng, recall=None, clusters=None):
    """AP (and precision at ``recall``) of two classifiers of the same items, paired.

    ``ranked_a`` and ``ranked_b`` hold the same labels; every replicate applies the same
    resample (or Dirichlet weights) to both. One replicate is drawn per call of the
    generator (blocks of one): per replicate ``rng.integers(0, n_pos, n_pos)`` then
    ``rng.integers(0, n_neg, n_neg)`` (stratified), or ``rng.standard_exponential(n)``
    normalized (Bayesian); with ``clusters`` and ``kind`` "cluster" /
    "cluster_bayesian", whole clusters (:func:`bayes_prc._core.groups.cluster_weight_blocks`).

    Returns
    -------
    ndarray of shape (2, n_resamples), or (4, n_resamples) with ``recall``
        AP of A, AP of B, then precision at ``recall`` of A and of B (the highest
        precision among thresholds with recall >= ``recall``).
    """
    return model_replicates(
        [ranked_a, ranked_b], n_resamples, kind, rng, recall=recall, clusters=clusters
    )


def _auc_spec(ranked):
    """``(pos_bins, neg_bins, n_bins)`` over the distinct scores, best first (ROC AUC)."""
    levels, code = np.unique(ranked.y_score, return_inverse=True)
    code = (levels.shape[0] - 1) - code  # bin 0 holds the highest score
    return code[ranked.is_pos], code[~ranked.is_pos], levels.shape[0]


def _auc_from_binned(cp, cn):
    """ROC AUC of each row from class weights per distinct score (best first); ties 1/2."""
    neg_above = np.cumsum(cn, axis=1) - cn  # negatives strictly above each score
    neg_total = cn.sum(axis=1)
    below = neg_total[:, None] - neg_above - cn
    num = np.einsum("ij,ij->i", cp, below + 0.5 * cn)
    den = cp.sum(axis=1) * neg_total
    out = np.full(cp.shape[0], 0.5)
    np.divide(num, den, out=out, where=den > 0)
    return out


def model_replicates(
    ranked_list,
    n_resamples,
    kind,
    rng,
    *,
    metric="average_precision",
    recall=None,
    clusters=None,
    block=1,
):
    """AP or ROC AUC (and precision at ``recall``) of k classifiers of the same items, paired.

    Every replicate applies the same resample (or Dirichlet weights) to all k
    classifiers, as :func:`paired_replicates` does for two (which is this function's
    two-classifier case, draw for draw).

    Parameters
    ----------
    ranked_list : list of Ranked
        The classifiers' prepared data; the same labels (``is_pos``) in each.
    n_resamples : int
    kind : {"stratified", "bayesian", "cluster", "cluster_bayesian"}
    rng : numpy.random.Generator
    metric : {"average_precision", "roc_auc"}
    recall : float, optional
        AP only: also the precision at this recall of each classifier.
    clusters : Clusters, optional
        With the cluster kinds: whole clusters are drawn.
    block : int, default 1
        Replicates drawn per call of the generator (1: :func:`paired_replicates`'
        draws). A larger block is much faster for many items or models and draws other
        (equally valid, equally reproducible) replicates; memory grows as
        ``block * n_samples``.

    Returns
    -------
    ndarray of shape (k, n_resamples), or (2 k, n_resamples) with ``recall``
        The metric of each classifier, then (with ``recall``) their precisions at it.
    """
    bins = [_Bins(r) for r in ranked_list]
    if clusters is not None:  # whole clusters ("cluster" / "cluster_bayesian")
        bins[0].clusters = clusters
    auc = metric == "roc_auc"
    specs = [_auc_spec(r) for r in ranked_list] if auc else [b.spec for b in bins]
    k = len(ranked_list)
    out = np.empty((k if recall is None else 2 * k, n_resamples))
    progress = Progress(n_resamples, "paired", False)
    start = 0
    for blocks in _binned_blocks(bins[0], specs, n_resamples, rng, kind, block, progress):
        stop = start + blocks[0][0].shape[0]
        for j, (cp, cn) in enumerate(blocks):
            if auc:
                out[j, start:stop] = _auc_from_binned(cp, cn)
                continue
            cp = cp[:, : bins[j].n_groups]
            out[j, start:stop] = _ap_from_binned(cp, cn)
            if recall is not None:
                out[k + j, start:stop] = _max_precision_at_recall(cp, cn, recall)
        start = stop
    np.clip(out[:k], 0.0, 1.0, out=out[:k])
    return out


def bootstrap_replicates(
    y_true,
    y_score,
    *,
    estimator="average_precision",
    n_resamples=1000,
    scheme="stratified",
    random_seed=None,
    pos_label=None,
    memory_budget=DEFAULT_MEMORY_BUDGET,
    progressbar=None,
    kind=None,
):
    r"""Bootstrap distribution of an AUC-PR estimator.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores; at least one positive.
    estimator : str, default "average_precision"
        One of :data:`bayes_prc.AUC_PR_ESTIMATORS`.
    n_resamples : int, default 1000
        Number of replicates (>= 1).
    scheme : {"stratified", "bayesian", "unstratified"}, default "stratified"
        The resampling scheme. ``"stratified"``: ordinary bootstrap, positives and negatives each resampled with
        replacement to their own size (replicate ``r`` is the resample in row ``r`` of
        :func:`stratified_indices`). ``"bayesian"``: Rubin's Bayesian bootstrap,
        Dirichlet(1, ..., 1) weights over all items (row ``r`` of
        :func:`dirichlet_weights`); the class proportions vary with the weights.
        ``"unstratified"``: ordinary bootstrap of all items jointly (row ``r`` of
        :func:`unstratified_indices`); the number of
        positives varies, and a replicate without a positive is redrawn (the bootstrap
        conditioned on at least one positive).
    random_seed : None, int or numpy.random.Generator, optional
        Seed of the draws.
    pos_label : label, optional
        The positive label (default 1).
    memory_budget : float, default 256 MiB
        Working memory of a block of replicates, in bytes. Replicates are drawn and
        counted in blocks of ``b = max(1, memory_budget // (128 n))`` (``n`` items);
        ``BYTES_PER_ITEM = 128`` bounds the bytes per (replicate, item) pair of the
        drawn indices or weights, their bins, the per-bin counts and the AP
        temporaries. The extra memory is therefore at most ``max(memory_budget,
        128 n)`` plus the output (8 bytes per replicate). The block size also fixes
        how many replicates each call of the generator draws, so
        :func:`stratified_indices` / :func:`dirichlet_weights` replay the draws for
        the same ``random_seed`` *and* ``memory_budget``.
    progressbar : bool or None, default None
        Text progress on stderr; ``None`` shows it only when stderr is a terminal.
    kind : str, optional
        Deprecated alias of ``scheme`` (``kind`` names a band type elsewhere).

    Returns
    -------
    ndarray of float64, shape (n_resamples,)
        The estimator on each replicate.

    Notes
    -----
    AP uses the vectorized counting path described in the module docstring (O(n) per
    replicate, no sort); its replicates equal scikit-learn's
    ``average_precision_score(y[idx], s[idx])`` on the explicit resample ``idx`` (or with
    ``sample_weight`` set to the Dirichlet weights) up to floating-point round-off. From
    100 000 items on, AP replicates are drawn as class counts per score bin instead
    (O(bins) per replicate, the same distribution; positives merged into at most 2000
    bins, see :mod:`bayes_prc.frequentist._aggregate`), so they do not replay
    :func:`stratified_indices` / :func:`dirichlet_weights`. The
    other estimators call the kernel of :func:`bayes_prc.auc_pr` once per replicate with
    the counts (or weights) as ``sample_weight`` on the pre-sorted data.

    References
    ----------
    Efron, B.; Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    Rubin, D. B. (1981). "The Bayesian bootstrap". Annals of Statistics 9 (1): 130-134.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.bootstrap import bootstrap_replicates
    >>> y, s = Binormal(1, 1, 0, 1, 0.3).sample(200, random_seed=0)
    >>> reps = bootstrap_replicates(y, s, n_resamples=500, random_seed=1)
    >>> reps.shape, bool(0 < reps.min() < reps.max() < 1)
    ((500,), True)
    """
    estimator = check_choice(estimator, "estimator", AUC_PR_ESTIMATORS)
    n_resamples = check_int(n_resamples, "n_resamples")
    if kind is not None:
        warnings.warn(
            "bootstrap_replicates(kind=...) is deprecated; use scheme=...",
            DeprecationWarning,
            stacklevel=2,
        )
        scheme = kind
    kind = check_choice(scheme, "scheme", BOOTSTRAP_KINDS)
    memory_budget = _check_budget(memory_budget)
    progressbar = check_progressbar(progressbar)
    bins = _Bins(_prepare(y_true, y_score, pos_label))
    rng = check_random_state(random_seed)
    block = _block_size(bins.n, memory_budget)
    return _replicates(bins, estimator, n_resamples, kind, rng, block, progressbar, "bootstrap")


def average_precision_replicates(
    y_true, y_score, weights, *, pos_label=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Average precision of the data under each row of a weight matrix.

    The deterministic half of the engine: give it resampling counts (for instance from
    :func:`stratified_counts`, or ``np.bincount(idx, minlength=n)`` for any explicit
    resample ``idx``) or Dirichlet weights, and it returns the AP of each weighted data
    set, without sorting per row.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores.
    weights : array-like of shape (n_resamples, n_samples) or (n_samples,)
        Non-negative finite weights, one row per replicate.
    pos_label : label, optional
        The positive label (default 1).
    memory_budget : float, default 256 MiB
        Bytes per chunk of rows (see :func:`bootstrap_replicates`).

    Returns
    -------
    ndarray of float64, shape (n_resamples,)
        ``average_precision_score(y_true, y_score, sample_weight=weights[r])`` for each
        ``r``; with integer counts this is the AP of the resample with duplicates written
        out. A row with no positive weight gives 0.0 (scikit-learn returns 0.0 there too,
        with a warning).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bootstrap import average_precision_replicates
    >>> y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8, 0.35])
    >>> idx = np.array([1, 1, 3, 0, 2])  # an explicit resample
    >>> counts = np.bincount(idx, minlength=5)
    >>> float(average_precision_replicates(y, s, counts)[0].round(6))
    1.0
    >>> average_precision_replicates(y, s, np.ones((2, 5))).round(4).tolist()
    [0.9167, 0.9167]
    """
    bins = _Bins(_prepare(y_true, y_score, pos_label))
    memory_budget = _check_budget(memory_budget)
    w = np.asarray(weights)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2 or w.shape[1] != bins.n:
        raise ValueError(
            f"`weights` must have shape (n_resamples, {bins.n}); got an array of shape "
            f"{np.shape(weights)}"
        )
    if w.dtype.kind not in "biuf":
        raise ValueError(f"`weights` must be numeric; got dtype {w.dtype}")
    w = w.astype(np.float64, copy=False)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        r, i = np.argwhere(bad)[0]
        raise ValueError(
            f"`weights` must be finite and non-negative; got {plain(w[r, i].item())} at index ({r}, {i})"
        )
    k = bins.n_groups
    out = np.zeros(w.shape[0])
    if k == 0:
        return out
    chunk = _block_size(bins.n, memory_budget)
    for start in range(0, w.shape[0], chunk):
        rows = w[start : start + chunk]
        cp = np.empty((rows.shape[0], k))
        cn = np.empty((rows.shape[0], k + 1))
        for r in range(rows.shape[0]):
            cp[r] = np.bincount(bins.pos_group, rows[r, bins.pos_items], minlength=k)
            cn[r] = np.bincount(bins.neg_bin, rows[r, bins.neg_items], minlength=k + 1)
        out[start : start + rows.shape[0]] = _ap_from_binned(cp, cn)
    return out
