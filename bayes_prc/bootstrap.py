r"""The bootstrap engine: resampled AUC-PR estimates without re-sorting.

Every resample of a labelled data set is a vector of non-negative weights over its
items: integer resampling counts for the ordinary bootstrap, Dirichlet(1, ..., 1) weights
for Rubin's (1981) Bayesian bootstrap. Average precision on weighted data depends only on
the weighted true- and false-positive counts at each distinct threshold, so the data are
sorted **once** and each replicate is reduced to cumulative sums over that fixed order.

Counting scheme
---------------
Let :math:`v_1 > v_2 > \dots > v_K` be the distinct scores held by at least one positive.
Each positive belongs to the group :math:`g` with :math:`s = v_g`; each negative belongs to
the bin :math:`b = \#\{g : v_g > s\}` (the first positive group it counts against: a
negative tied with :math:`v_g` is counted at :math:`v_g`, as ``score >= threshold``
requires; :math:`b = K` for negatives below every positive, which never matter). For
weights :math:`w`, with :math:`a_g` the positive weight of group :math:`g` and
:math:`c_b` the negative weight of bin :math:`b`,

.. math::

    TP_g = \sum_{h \le g} a_h, \qquad FP_g = \sum_{b \le g} c_b, \qquad
    \mathrm{AP} = \frac{1}{TP_K} \sum_{g} a_g \, \frac{TP_g}{TP_g + FP_g},

which is scikit-learn's step-wise AP :math:`\sum_n (R_n - R_{n-1}) P_n` of the weighted
data: thresholds that hold no positive weight add no recall, and groups of weight zero
are absent from the resample but contribute zero. With integer counts as weights this is
the AP of the resample with its duplicated (tied) items written out.

Each replicate therefore costs two :func:`numpy.bincount` calls (O(n), no sort), and the
AP of a block of replicates is a few vectorized operations on ``(block, K)`` arrays.
Blocks are sized from a memory budget (see :func:`bootstrap_replicates`). The other
AUC-PR estimators need every threshold, so for them each replicate's weights are passed,
in the pre-sorted order, to the kernel of :func:`bayes_prc.auc_pr` (``sample_weight`` =
counts; items of weight zero are dropped by the kernel); the stable sort of already sorted
scores is O(n). For the three recall-group estimators ("lower_trapezoid",
"upper_trapezoid", "interpolated_median") the per-group minimum, maximum and median are
read off the curve's layout instead of a per-group loop (same numbers).

Random draws
------------
One :class:`numpy.random.Generator` (from ``random_seed``) is used in a fixed order, a
block of ``b`` replicates at a time: ``rng.integers(0, n_pos, size=(b, n_pos))`` (which
positives each replicate draws, by their rank among the positives in input order), then
``rng.integers(0, n_neg, size=(b, n_neg))`` for the negatives (stratified bootstrap: each
class is resampled to its own size); for the Bayesian bootstrap
``rng.standard_exponential(size=(b, n))`` with each row divided by its sum (Dirichlet(1,
..., 1) draws). :func:`stratified_indices`, :func:`stratified_counts` and
:func:`dirichlet_weights` replay exactly these draws, so every replicate can be checked
against another implementation on the explicit resample.

References
----------
.. [1] Efron, B. (1987). "Better bootstrap confidence intervals". JASA 82 (397): 171-185.
.. [2] Rubin, D. B. (1981). "The Bayesian bootstrap". Annals of Statistics 9 (1): 130-134.
.. [3] Davison, A. C.; Hinkley, D. V. (1997). Bootstrap Methods and their Application,
   Cambridge University Press (stratified resampling; BCa intervals, chapter 5).
"""

from __future__ import annotations

import numbers
import sys
import time
from collections import namedtuple
from functools import cached_property

import numpy as np
from scipy.special import ndtr, ndtri

from .empirical._counting import binary_clf_counts, stable_descending_order
from ._ranking import AUC_PR_ESTIMATORS, _auc_pr_validated, _pr_from_counts
from ._validation import check_binary_target, check_random_state, validate_binary_inputs

__all__ = [
    "DEFAULT_MEMORY_BUDGET",
    "BOOTSTRAP_KINDS",
    "BCaInterval",
    "average_precision_replicates",
    "bca_interval",
    "bootstrap_replicates",
    "dirichlet_weights",
    "jackknife_values",
    "percentile_interval",
    "stratified_counts",
    "stratified_indices",
]

#: Default memory budget (bytes) of the chunked replicate computations: 256 MiB.
DEFAULT_MEMORY_BUDGET = 256 * 2**20

#: Valid values of the ``kind`` argument of :func:`bootstrap_replicates`.
BOOTSTRAP_KINDS = ("stratified", "bayesian")

#: For estimators other than AP the BCa jackknife is brute force (O(n) per leave-one-out);
#: at most this many items per class are left out (a random subset above it).
JACKKNIFE_MAX_PER_CLASS = 1000

BCaInterval = namedtuple("BCaInterval", ["low", "high", "bias_correction", "acceleration"])
BCaInterval.__doc__ = (
    "BCa interval ends with Efron's bias correction z0 and acceleration a (Efron 1987)."
)


# --------------------------------------------------------------------------------------
# validation helpers (messages name the parameter and quote the value)
# --------------------------------------------------------------------------------------
def _check_int(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {value!r}")
    return int(value)


def _check_choice(value, choices, name):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"`{name}` must be one of {choices}; got {value!r}")
    return value


def _check_level(confidence_level):
    ok = isinstance(confidence_level, numbers.Real) and not isinstance(confidence_level, bool)
    if not ok or not (0.0 < float(confidence_level) < 1.0):
        raise ValueError(f"`confidence_level` must be a number in (0, 1); got {confidence_level!r}")
    return float(confidence_level)


def _check_progressbar(progressbar):
    if progressbar is not None and not isinstance(progressbar, (bool, np.bool_)):
        raise ValueError(f"`progressbar` must be True, False or None; got {progressbar!r}")
    return progressbar


def _check_budget(memory_budget):
    ok = isinstance(memory_budget, numbers.Real) and not isinstance(memory_budget, bool)
    if not ok or not np.isfinite(memory_budget) or memory_budget <= 0:
        raise ValueError(
            f"`memory_budget` must be a positive number of bytes; got {memory_budget!r}"
        )
    return float(memory_budget)


# --------------------------------------------------------------------------------------
# progress on stderr (no dependency)
# --------------------------------------------------------------------------------------
class _Progress:
    """A one-line text progress indicator on stderr.

    ``enabled=None`` means: on when stderr is a terminal. Updates are throttled to ten per
    second; :meth:`close` ends the line.
    """

    def __init__(self, total, label, enabled):
        if enabled is None:
            isatty = getattr(sys.stderr, "isatty", None)
            enabled = bool(isatty()) if callable(isatty) else False
        self.enabled = bool(enabled) and total > 0
        self.total = total
        self.label = label
        self._last = -np.inf
        self._start = time.monotonic()

    def update(self, done):
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / self.total
        bar = "#" * int(20 * frac)
        sys.stderr.write(
            f"\r{self.label}: {done}/{self.total} [{bar:<20}] {100 * frac:3.0f}% "
            f"{now - self._start:.1f}s"
        )
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


# --------------------------------------------------------------------------------------
# the sorted data, prepared once
# --------------------------------------------------------------------------------------
class _Ranked:
    """Validated binary data with its bins: prepared once, shared by every replicate."""

    def __init__(self, is_pos, score):
        self.is_pos = is_pos
        self.score = score
        self.n = is_pos.shape[0]
        self.pos_items = np.flatnonzero(is_pos)
        self.neg_items = np.flatnonzero(~is_pos)
        self.n_pos = self.pos_items.shape[0]
        self.n_neg = self.neg_items.shape[0]
        pos_scores = score[self.pos_items]
        levels = np.unique(pos_scores)  # ascending distinct positive scores
        self.n_groups = levels.shape[0]
        # group 0 holds the highest positive score
        self.pos_group = (self.n_groups - 1) - np.searchsorted(levels, pos_scores)
        # number of positive groups strictly above each negative
        self.neg_bin = self.n_groups - np.searchsorted(levels, score[self.neg_items], side="right")

    @cached_property
    def sorted_view(self):
        """Descending stable order, and labels and scores in that order."""
        order = stable_descending_order(self.score)
        return order, self.is_pos[order], self.score[order]

    @cached_property
    def threshold_bins(self):
        """All distinct scores (decreasing) and each positive's / negative's index in it."""
        levels = np.unique(self.score)
        g = levels.shape[0]
        idx = (g - 1) - np.searchsorted(levels, self.score)
        return levels[::-1], idx[self.pos_items], idx[self.neg_items]


def _ranked_from_inputs(y_true, y_score, pos_label):
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    return _Ranked(is_pos, score)


def _require_positive(ranked):
    if ranked.n_pos == 0:
        raise ValueError(
            "`y_true` has no positive sample; the area under the PR curve and its "
            "bootstrap distribution are undefined"
        )


# --------------------------------------------------------------------------------------
# random draws (the single place where the random stream is consumed)
# --------------------------------------------------------------------------------------
#: Bytes of working memory per (replicate, item) pair of a block of replicates: drawn
#: indices or weights, their bins, the per-bin counts and the AP temporaries (an upper
#: bound; the per-bin arrays have at most n + 1 columns).
BYTES_PER_ITEM = 128


def _block_size(n, memory_budget):
    """Replicates per block: ``max(1, memory_budget // (BYTES_PER_ITEM * n))``."""
    return int(max(1, memory_budget // (BYTES_PER_ITEM * max(n, 1))))


def _draw_blocks(rng, n_resamples, n_pos, n_neg, kind, block):
    """Yield the draws block by block, in the engine's fixed order.

    Stratified: ``(dp, dn)``, ranks of the drawn positives (b, n_pos) then of the drawn
    negatives (b, n_neg), from ``rng.integers(0, n_pos, size=(b, n_pos))`` and
    ``rng.integers(0, n_neg, size=(b, n_neg))``. Bayesian: Dirichlet(1, ..., 1) weights
    (b, n) from ``rng.standard_exponential(size=(b, n))`` with each row divided by its sum.
    """
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        if kind == "stratified":
            dp = rng.integers(0, n_pos, size=(b, n_pos)) if n_pos else np.zeros((b, 0), np.int64)
            dn = rng.integers(0, n_neg, size=(b, n_neg)) if n_neg else np.zeros((b, 0), np.int64)
            yield dp, dn
        else:
            w = rng.standard_exponential(size=(b, n_pos + n_neg))
            w /= w.sum(axis=1, keepdims=True)
            yield w
        done += b


def stratified_indices(
    y_true, n_resamples, *, random_seed=None, pos_label=None, memory_budget=DEFAULT_MEMORY_BUDGET
):
    """Explicit indices of the stratified bootstrap resamples used by the engine.

    Replays the random draws of :func:`bootstrap_replicates` (``kind="stratified"``),
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
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
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
    ``kind="bayesian"`` and of :func:`bayes_prc.frequentist.ap_interval` with
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
    n_samples = _check_int(n_samples, "n_samples", 1)
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
    memory_budget = _check_budget(memory_budget)
    rng = check_random_state(random_seed)
    blocks = _draw_blocks(
        rng, n_resamples, n_samples, 0, "bayesian", _block_size(n_samples, memory_budget)
    )
    return np.concatenate(list(blocks), axis=0)


# --------------------------------------------------------------------------------------
# the counting core
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


_RECALL_GROUP_ESTIMATORS = ("lower_trapezoid", "upper_trapezoid", "interpolated_median")


def _recall_group_area(precision, recall, estimator):
    """The recall-group estimators of :func:`bayes_prc.auc_pr` without a per-group loop.

    In scikit-learn's layout (increasing thresholds, then the artificial point) the points
    of one recall level are contiguous and their precision is non-decreasing (true
    positives fixed, false positives falling as the threshold rises), so the minimum,
    maximum and median of a group are its first, last and middle entries. Same numbers as
    :func:`bayes_prc.auc_pr` (checked in the tests on explicit resamples).
    """
    n = recall.shape[0]
    starts = np.flatnonzero(np.concatenate(([True], recall[1:] != recall[:-1])))
    ends = np.append(starts[1:], n)
    length = ends - starts
    # groups in increasing recall
    r = recall[starts][::-1]
    dr = np.diff(r)
    if estimator == "interpolated_median":
        p_med = ((precision[starts + (length - 1) // 2] + precision[starts + length // 2]) / 2)[
            ::-1
        ]
        return float(np.sum((p_med[:-1] + p_med[1:]) / 2 * dr))
    p_max = precision[ends - 1][::-1]
    if estimator == "upper_trapezoid":
        return float(np.sum((p_max[:-1] + p_max[1:]) / 2 * dr))
    p_min = precision[starts][::-1]
    return float(np.sum((p_min[:-1] + p_max[1:]) / 2 * dr))  # lower_trapezoid


def _estimate_weighted(is_pos, score, w, estimator):
    """``auc_pr`` of validated, possibly weighted data with at least one positive."""
    if estimator not in _RECALL_GROUP_ESTIMATORS:
        return _auc_pr_validated(is_pos, score, w, estimator)
    fps, tps, thr = binary_clf_counts(is_pos, score, w)
    precision, recall, _ = _pr_from_counts(fps, tps, thr, warn=False)
    return _recall_group_area(precision, recall, estimator)


def _binned_blocks(ranked, n_resamples, rng, kind, bins, memory_budget, progress):
    """Yield ``(cp, cn)``: each replicate's class weights per bin, a block at a time.

    ``bins = (pos_bins, neg_bins, n_bins)`` maps each positive / negative (ranked within
    its class in input order) to one of ``n_bins`` bins; ``cp`` and ``cn`` have shape
    ``(b, n_bins)``.
    """
    pos_bins, neg_bins, n_bins = bins
    block = _block_size(ranked.n, memory_budget)
    done = 0
    for draws in _draw_blocks(rng, n_resamples, ranked.n_pos, ranked.n_neg, kind, block):
        if kind == "stratified":
            dp, dn = draws
            b = dp.shape[0]
            cp = np.empty((b, n_bins))
            cn = np.empty((b, n_bins))
            for r in range(b):
                cp[r] = np.bincount(pos_bins[dp[r]], minlength=n_bins)
                cn[r] = np.bincount(neg_bins[dn[r]], minlength=n_bins)
        else:
            w = draws
            b = w.shape[0]
            cp = np.empty((b, n_bins))
            cn = np.empty((b, n_bins))
            wp = w[:, ranked.pos_items]
            wn = w[:, ranked.neg_items]
            for r in range(b):
                cp[r] = np.bincount(pos_bins, weights=wp[r], minlength=n_bins)
                cn[r] = np.bincount(neg_bins, weights=wn[r], minlength=n_bins)
        done += b
        progress.update(done)
        yield cp, cn


def _replicate_weights(ranked, n_resamples, rng, kind, memory_budget):
    """Yield each replicate's weights over the items, in the pre-sorted order."""
    order = ranked.sorted_view[0]
    block = _block_size(ranked.n, memory_budget)
    for draws in _draw_blocks(rng, n_resamples, ranked.n_pos, ranked.n_neg, kind, block):
        if kind == "stratified":
            dp, dn = draws
            for r in range(dp.shape[0]):
                drawn = np.concatenate((ranked.pos_items[dp[r]], ranked.neg_items[dn[r]]))
                w = np.bincount(drawn, minlength=ranked.n).astype(np.float64)
                yield w[order]
        else:
            for w in draws:
                yield w[order]


def _replicates(ranked, estimator, n_resamples, kind, rng, memory_budget, progressbar, label):
    """Bootstrap distribution of ``estimator``; shared by the public entry points."""
    _require_positive(ranked)
    out = np.empty(n_resamples)
    progress = _Progress(n_resamples, label, progressbar)
    try:
        if estimator == "average_precision":
            k = ranked.n_groups
            bins = (ranked.pos_group, ranked.neg_bin, k + 1)
            start = 0
            for cp, cn in _binned_blocks(
                ranked, n_resamples, rng, kind, bins, memory_budget, progress
            ):
                out[start : start + cp.shape[0]] = _ap_from_binned(cp[:, :k], cn)
                start += cp.shape[0]
        else:
            _, is_pos_s, score_s = ranked.sorted_view
            weights = _replicate_weights(ranked, n_resamples, rng, kind, memory_budget)
            for r, w in enumerate(weights):
                out[r] = _estimate_weighted(is_pos_s, score_s, w, estimator)
                progress.update(r + 1)
    finally:
        progress.close()
    # areas lie in [0, 1]; weighted sums can leave it by round-off (1 + 2e-16)
    return np.clip(out, 0.0, 1.0, out=out)


def bootstrap_replicates(
    y_true,
    y_score,
    *,
    estimator="average_precision",
    n_resamples=1000,
    kind="stratified",
    random_seed=None,
    pos_label=None,
    memory_budget=DEFAULT_MEMORY_BUDGET,
    progressbar=False,
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
    kind : {"stratified", "bayesian"}, default "stratified"
        ``"stratified"``: ordinary bootstrap, positives and negatives each resampled with
        replacement to their own size (replicate ``r`` is the resample in row ``r`` of
        :func:`stratified_indices`). ``"bayesian"``: Rubin's Bayesian bootstrap,
        Dirichlet(1, ..., 1) weights over all items (row ``r`` of
        :func:`dirichlet_weights`); the class proportions vary with the weights.
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
    progressbar : bool or None, default False
        Text progress on stderr; ``None`` shows it only when stderr is a terminal.

    Returns
    -------
    ndarray of float64, shape (n_resamples,)
        The estimator on each replicate.

    Notes
    -----
    AP uses the vectorized counting path described in the module docstring (O(n) per
    replicate, no sort); its replicates equal scikit-learn's
    ``average_precision_score(y[idx], s[idx])`` on the explicit resample ``idx`` (or with
    ``sample_weight`` set to the Dirichlet weights) up to floating-point round-off. The
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
    estimator = _check_choice(estimator, AUC_PR_ESTIMATORS, "estimator")
    n_resamples = _check_int(n_resamples, "n_resamples", 1)
    kind = _check_choice(kind, BOOTSTRAP_KINDS, "kind")
    memory_budget = _check_budget(memory_budget)
    progressbar = _check_progressbar(progressbar)
    ranked = _ranked_from_inputs(y_true, y_score, pos_label)
    rng = check_random_state(random_seed)
    return _replicates(
        ranked, estimator, n_resamples, kind, rng, memory_budget, progressbar, "bootstrap"
    )


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
    ranked = _ranked_from_inputs(y_true, y_score, pos_label)
    memory_budget = _check_budget(memory_budget)
    w = np.asarray(weights)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2 or w.shape[1] != ranked.n:
        raise ValueError(
            f"`weights` must have shape (n_resamples, {ranked.n}); got an array of shape "
            f"{np.shape(weights)}"
        )
    if w.dtype.kind not in "biuf":
        raise ValueError(f"`weights` must be numeric; got dtype {w.dtype}")
    w = w.astype(np.float64, copy=False)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        r, i = np.argwhere(bad)[0]
        raise ValueError(
            f"`weights` must be finite and non-negative; got {w[r, i].item()!r} at index ({r}, {i})"
        )
    k = ranked.n_groups
    out = np.zeros(w.shape[0])
    if k == 0:
        return out
    chunk = _block_size(ranked.n, memory_budget)
    for start in range(0, w.shape[0], chunk):
        rows = w[start : start + chunk]
        cp = np.empty((rows.shape[0], k))
        cn = np.empty((rows.shape[0], k + 1))
        for r in range(rows.shape[0]):
            cp[r] = np.bincount(ranked.pos_group, rows[r, ranked.pos_items], minlength=k)
            cn[r] = np.bincount(ranked.neg_bin, rows[r, ranked.neg_items], minlength=k + 1)
        out[start : start + rows.shape[0]] = _ap_from_binned(cp, cn)
    return out


# --------------------------------------------------------------------------------------
# jackknife (leave one out)
# --------------------------------------------------------------------------------------
def _ap_jackknife(ranked):
    """Exact leave-one-out AP of every positive and every negative, O(n) after the bins.

    Returns ``(loo_pos, loo_neg)`` in the order of ``ranked.pos_items`` /
    ``ranked.neg_items``. Leaving out the only positive gives NaN.
    """
    k = ranked.n_groups
    a = np.bincount(ranked.pos_group, minlength=k).astype(np.float64)
    c = np.bincount(ranked.neg_bin, minlength=k + 1).astype(np.float64)
    tp = np.cumsum(a)
    fp = np.cumsum(c[:k])
    p = tp[-1]
    term = a * tp / (tp + fp)
    prefix = np.concatenate(([0.0], np.cumsum(term)))  # prefix[g]: groups before g
    full = prefix[-1] / p
    # a negative of bin b < K lowers FP_g by one for every g >= b (FP_g >= 1 there)
    t_neg = np.zeros(k)
    np.divide(a * tp, tp + fp - 1.0, out=t_neg, where=fp >= 1)
    suffix_neg = np.concatenate((np.cumsum(t_neg[::-1])[::-1], [0.0]))
    loo_bin = (prefix + suffix_neg) / p
    loo_bin[k] = full  # negatives below every positive change nothing
    loo_neg = loo_bin[ranked.neg_bin]
    if p <= 1:
        return np.full(ranked.n_pos, np.nan), loo_neg
    # a positive of group h: P -> P - 1, a_h -> a_h - 1, TP_g -> TP_g - 1 for g >= h
    d = tp - 1.0 + fp
    t_pos = np.zeros(k)
    np.divide(a * (tp - 1.0), d, out=t_pos, where=d > 0)
    after = np.concatenate((np.cumsum(t_pos[::-1])[::-1][1:], [0.0]))  # sum over g > h
    own = np.zeros(k)
    np.divide((a - 1.0) * (tp - 1.0), d, out=own, where=(a > 1) & (d > 0))
    loo_group = (prefix[:k] + own + after) / (p - 1.0)
    return loo_group[ranked.pos_group], loo_neg


def _brute_jackknife(ranked, estimator, items):
    """Leave-one-out estimates for the given items (input indices), O(n) each."""
    order, is_pos_s, score_s = ranked.sorted_view
    where = np.empty(ranked.n, dtype=np.int64)
    where[order] = np.arange(ranked.n)
    w = np.ones(ranked.n)
    out = np.empty(items.shape[0])
    for j, item in enumerate(items):
        w[where[item]] = 0.0
        out[j] = _estimate_weighted(is_pos_s, score_s, w, estimator)
        w[where[item]] = 1.0
    return out


def _jackknife_strata(ranked, estimator, rng, max_per_class=JACKKNIFE_MAX_PER_CLASS):
    """Leave-one-out values per class for the BCa acceleration, with the class sizes.

    AP: exact for every item. Other estimators: every item of a class of at most
    ``max_per_class`` items, otherwise a uniform random subset of that size. A class of
    a single item gives no leave-one-out value (its influence is taken as zero).
    """
    if estimator == "average_precision":
        loo_pos, loo_neg = _ap_jackknife(ranked)
        strata = [loo_pos, loo_neg]
    else:
        strata = []
        for items in (ranked.pos_items, ranked.neg_items):
            if items.shape[0] > max_per_class:
                items = np.sort(rng.choice(items, size=max_per_class, replace=False))
            if items.shape[0] > 1:
                strata.append(_brute_jackknife(ranked, estimator, items))
            else:
                strata.append(np.zeros(0))
    sizes = [ranked.n_pos, ranked.n_neg]
    keep = [(v, m) for v, m in zip(strata, sizes, strict=True) if m > 1 and v.shape[0] > 0]
    return [v for v, _ in keep], [m for _, m in keep]


def jackknife_values(y_true, y_score, *, estimator="average_precision", pos_label=None):
    """Leave-one-out values of an AUC-PR estimator, one per item.

    For average precision the values are exact and computed in O(n) after one sort:
    leaving out a negative lowers the false positives of every positive group at or below
    its score by one, and leaving out a positive lowers the true positives from its group
    on, so prefix and suffix sums over the positive groups give all leave-one-out values
    at once. The other estimators are recomputed n times (O(n^2)); use them on small
    data.

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        ``values[i]`` is the estimator on the data without item ``i``; NaN when ``i`` is
        the only positive.

    Examples
    --------
    >>> from bayes_prc.bootstrap import jackknife_values
    >>> jackknife_values([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).round(4).tolist()
    [0.8333, 1.0, 1.0, 0.5]
    """
    estimator = _check_choice(estimator, AUC_PR_ESTIMATORS, "estimator")
    ranked = _ranked_from_inputs(y_true, y_score, pos_label)
    _require_positive(ranked)
    out = np.empty(ranked.n)
    if estimator == "average_precision":
        loo_pos, loo_neg = _ap_jackknife(ranked)
    else:
        loo_neg = _brute_jackknife(ranked, estimator, ranked.neg_items)
        if ranked.n_pos > 1:
            loo_pos = _brute_jackknife(ranked, estimator, ranked.pos_items)
        else:
            loo_pos = np.full(1, np.nan)
    out[ranked.pos_items] = loo_pos
    out[ranked.neg_items] = loo_neg
    return out


# --------------------------------------------------------------------------------------
# intervals from a bootstrap distribution
# --------------------------------------------------------------------------------------
def percentile_interval(distribution, *, confidence_level=0.95):
    """Equal-tailed percentile interval of a bootstrap (or posterior) distribution.

    The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles with linear interpolation
    (:func:`numpy.quantile`'s default, as :func:`scipy.stats.bootstrap` uses).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bootstrap import percentile_interval
    >>> [round(float(v), 3) for v in percentile_interval(np.arange(101.0) / 100)]
    [0.025, 0.975]
    """
    level = _check_level(confidence_level)
    dist = np.asarray(distribution, dtype=np.float64)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(dist, [alpha, 1.0 - alpha])
    return float(low), float(high)


def _acceleration(strata, sizes):
    """Multi-sample jackknife acceleration (Efron 1987; Davison & Hinkley 1997).

    For stratum ``k`` of size ``n_k`` with leave-one-out values ``t_kj`` (all of them, or
    a random subset standing for them) and ``U_kj = (n_k - 1)(mean_k - t_kj)``,
    ``a = sum_k n_k^-3 S3_k / (6 (sum_k n_k^-2 S2_k)^(3/2))`` where ``S_p`` are the sums
    of ``U^p`` over the stratum (estimated as ``n_k`` times the subset mean).
    """
    num = 0.0
    den = 0.0
    for values, n_k in zip(strata, sizes, strict=True):
        v = np.asarray(values, dtype=np.float64)
        if v.shape[0] == 0 or n_k < 2:
            continue
        u = (n_k - 1.0) * (v.mean() - v)
        num += n_k * np.mean(u**3) / n_k**3
        den += n_k * np.mean(u**2) / n_k**2
    if den <= 0.0:
        return 0.0
    return float(num / (6.0 * den**1.5))


def bca_interval(estimate, distribution, jackknife, *, confidence_level=0.95, sizes=None):
    r"""Bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987).

    With :math:`\hat\theta` the estimate, :math:`\theta^*_b` the bootstrap distribution
    and :math:`z_\alpha = \Phi^{-1}(\alpha)`:

    .. math::

        z_0 = \Phi^{-1}\Bigl(\frac{\#\{\theta^*_b < \hat\theta\}
              + \#\{\theta^*_b \le \hat\theta\}}{2B}\Bigr), \qquad
        \alpha_{1,2} = \Phi\Bigl(z_0 + \frac{z_0 + z_{\alpha/2,\,1-\alpha/2}}
              {1 - a (z_0 + z_{\alpha/2,\,1-\alpha/2})}\Bigr),

    and the interval is the :math:`\alpha_1` and :math:`\alpha_2` quantiles of the
    distribution (linear interpolation). Ties with :math:`\hat\theta` count one half
    (values within ``1e-12`` relative of it are ties), the convention of
    :func:`scipy.stats.bootstrap`. The acceleration :math:`a` comes from jackknife values
    per stratum (one array per independently resampled class) with the multi-sample
    formula used by :func:`scipy.stats.bootstrap` (Davison & Hinkley 1997):
    :math:`a = \frac{1}{6} \sum_k n_k^{-3} \sum_j U_{kj}^3 /
    (\sum_k n_k^{-2} \sum_j U_{kj}^2)^{3/2}` with
    :math:`U_{kj} = (n_k - 1)(\bar t_k - t_{kj})`.

    Parameters
    ----------
    estimate : float
        The estimate on the full data.
    distribution : array-like of shape (n_resamples,)
        Bootstrap distribution.
    jackknife : sequence of array-like
        Leave-one-out values, one array per stratum.
    confidence_level : float, default 0.95
    sizes : sequence of int, optional
        Stratum sizes when the jackknife arrays are random subsets of their strata
        (default: the array lengths).

    Returns
    -------
    BCaInterval
        ``(low, high, bias_correction, acceleration)``; ``low`` and ``high`` are NaN when
        the estimate lies outside the range of the distribution (``z0`` infinite), as in
        :func:`scipy.stats.bootstrap`.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bootstrap import bca_interval, percentile_interval
    >>> dist = np.linspace(0.0, 1.0, 1001)
    >>> res = bca_interval(0.5, dist, [np.array([0.4, 0.5, 0.6])])  # z0 = a = 0
    >>> [round(res.low, 4), round(res.high, 4)], [round(v, 4) for v in percentile_interval(dist)]
    ([0.025, 0.975], [0.025, 0.975])
    """
    level = _check_level(confidence_level)
    dist = np.asarray(distribution, dtype=np.float64)
    theta = float(estimate)
    tol = 1e-12 * max(1.0, abs(theta))
    below = np.count_nonzero(dist < theta - tol)
    at_or_below = np.count_nonzero(dist <= theta + tol)
    frac = (below + at_or_below) / (2.0 * dist.shape[0])
    z0 = float(ndtri(frac))
    strata = [np.asarray(v, dtype=np.float64) for v in jackknife]
    sizes = [v.shape[0] for v in strata] if sizes is None else list(sizes)
    a = _acceleration(strata, sizes)
    if not np.isfinite(z0):
        return BCaInterval(float("nan"), float("nan"), z0, a)
    alpha = (1.0 - level) / 2.0
    z = np.array([ndtri(alpha), -ndtri(alpha)])
    num = z0 + z
    den = 1.0 - a * num
    # beyond the pole of Efron's map the level would wrap around: take the limit 0 or 1
    with np.errstate(divide="ignore"):
        levels = np.where(den > 0, ndtr(z0 + num / np.where(den > 0, den, 1.0)), num > 0)
    levels = np.clip(levels.astype(np.float64), 0.0, 1.0)
    low, high = np.quantile(dist, levels)
    return BCaInterval(float(low), float(high), z0, a)
