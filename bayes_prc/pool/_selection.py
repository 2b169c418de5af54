r"""Which items of a scored pool to label, and design-based estimates from those labels.

Every score of the pool is known; only labels cost. :func:`select_labels` draws a
probability sample of the pool whose inclusion probabilities are known exactly, and
:func:`design_ap_interval` / :func:`design_threshold_interval` weight the labelled items
back by ``1 / inclusion_prob`` (Horvitz & Thompson 1952) to estimate the pool's AP,
precision and recall, with the exact pool counts ``N(score >= t)`` as precision
denominators. The model-based alternative (a posterior of the whole pool's PR curve from
a monotone calibration model) is :func:`bayes_prc.pool.fit_pool`.

Sampling by score rather than at random is the idea of Sawade et al. (2010), Marchant &
Rubinstein (2017, OASIS), Kossen et al. (2021) and Poms et al. (2021): with rare
positives, random labels hold almost no positive, while oversampling the high scores,
where precision is decided, and weighting back gives far tighter answers.

References
----------
.. [1] D. G. Horvitz and D. J. Thompson, "A generalization of sampling without
   replacement from a finite universe", JASA 47 (1952) 663-685.
.. [2] W. G. Cochran, *Sampling Techniques*, 3rd ed., Wiley (1977): stratified sampling,
   Neyman allocation (ch. 5), ratio estimators and linearization (ch. 6).
.. [3] C. Sawade, N. Landwehr and T. Scheffer, "Active estimation of F-measures",
   NeurIPS (2010).
.. [4] N. G. Marchant and B. I. P. Rubinstein, "In search of an entity resolution OASIS:
   optimal asymptotic sequential importance sampling", PVLDB 10 (2017) 1322-1333.
.. [5] J. Kossen, S. Farquhar, Y. Gal and T. Rainforth, "Active testing: sample-efficient
   model evaluation", ICML (2021).
.. [6] J. Poms et al., "Low-shot validation: active importance sampling for estimating
   classifier performance on rare categories", ICCV (2021).
.. [7] J. N. K. Rao, C. F. J. Wu and K. Yue, "Some recent work on resampling methods for
   complex surveys", Survey Methodology 18 (1992) 209-217 (the rescaling bootstrap).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._core import (
    check_choice,
    check_pool_scores,
    check_probability,
    check_random_state,
    check_selected_labels,
    plain,
)
from .._core.display import HTMLReprMixin

__all__ = [
    "SELECTION_STRATEGIES",
    "LabelSelection",
    "select_labels",
]

#: Valid ``strategy`` values of :func:`select_labels`.
SELECTION_STRATEGIES = ("random", "stratified", "importance")

# guessed calibrations p(q) of the top-rank fraction q (see _guess_family)
_GUESS_POWERS = (0.3, 0.5, 0.7, 0.9)  # p ~ q^-g: steeper and flatter rises to the top
_GUESS_PLATEAUS = (0.02, 0.1, 0.3)  # p flat over the top rho of the pool, then falling
_GUESS_CAP = 0.95
_DEFENSIVE = 0.2  # share of the budget spread evenly over the strata (or items)
_MAX_STRATA = 16


# --------------------------------------------------------------------------------------
# the selection
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class LabelSelection(HTMLReprMixin):
    """Items of a scored pool chosen for labelling (returned by :func:`select_labels`).

    Attributes
    ----------
    indices : ndarray of int, shape (n,)
        Pool positions to label. After :meth:`next_batch` the earlier items come first,
        in their earlier order.
    inclusion_prob : ndarray of float, shape (n,)
        First-order inclusion probability of each selected item (aligned with
        ``indices``): ``n_h / N_h`` in its stratum for "random" and "stratified", the
        systematic-PPS probability for "importance".
    strata : ndarray of int, shape (n,)
        Stratum of each selected item (0 = the highest scores).
    n_pool : int
        Size of the pool.
    strategy : str
        One of :data:`SELECTION_STRATEGIES`.
    stratum_sizes : ndarray of int, shape (H,)
        Pool items per stratum ``N_h``.
    stratum_samples : ndarray of int, shape (H,)
        Selected items per stratum ``n_h``.
    stratum_bounds : ndarray of float, shape (H, 2)
        Lowest and highest pool score of each stratum. Strata are contiguous score ranges
        of the pool; tied scores are never split across strata.
    n_previous : int
        Items selected before the last :meth:`next_batch` (0 for a first selection):
        ``indices[n_previous:]`` are the new items to label.
    y_score : ndarray
        The pool's scores (a reference, not a copy).
    """

    indices: np.ndarray
    inclusion_prob: np.ndarray
    strata: np.ndarray
    n_pool: int
    strategy: str
    stratum_sizes: np.ndarray
    stratum_samples: np.ndarray
    stratum_bounds: np.ndarray
    n_previous: int = 0
    y_score: np.ndarray = field(default=None, repr=False)
    _stratum_edges: np.ndarray = field(default=None, repr=False)  # sorted-order positions
    _rng_state: Any = field(default=None, repr=False)
    _prevalence_guess: float = field(default=0.02, repr=False)

    @property
    def sampling_fraction(self):
        """``n_h / N_h`` per stratum."""
        return self.stratum_samples / self.stratum_sizes

    def next_batch(self, y_labels, size, random_seed=None):
        """Select ``size`` more items, re-allocated using the labels seen so far.

        The strata stay fixed. Each stratum's positive rate is estimated by its Beta
        posterior mean ``(k_h + 1/2) / (n_h + 1)`` (Jeffreys prior), the allocation rule
        of :func:`select_labels` is applied to the total ``n + size`` with these rates in
        place of the guessed calibration, and the new items of each stratum are a simple
        random sample of its unselected items.

        Inclusion probabilities: given the first batch, the union in a stratum is the
        first batch plus a simple random sample of the rest, and ``n_h / N_h`` is used
        for every item. That is exact when the allocation does not depend on the labels,
        and otherwise the usual adaptive (two-phase) approximation: the design-based
        estimators get a small bias of the order of the correlation between the labels
        seen and the re-allocation. The model-based :func:`bayes_prc.pool.fit_pool` is
        unaffected: a design that depends on observed labels only is ignorable for
        likelihood inference (Rubin 1976).

        Parameters
        ----------
        y_labels : array-like of shape (len(indices),)
            Labels (0/1 or bool) of the selected items, aligned with ``indices``.
        size : int
            Number of new items, at least 1 and at most the unselected pool.
        random_seed : int, numpy.random.Generator or None, optional
            Stream for the new items. None (default) continues the selection's own
            stream, so the same selection extended twice gives the same new items; pass a
            seed or Generator for other draws (e.g. replicates of a plan).

        Returns
        -------
        LabelSelection
            The old items (first, same order) plus the new ones; ``n_previous`` is the
            old count.

        Examples
        --------
        >>> import numpy as np
        >>> from bayes_prc.pool import select_labels
        >>> s = np.random.default_rng(0).normal(size=5000)
        >>> first = select_labels(s, 100, random_seed=0)
        >>> y = (s[first.indices] > 1.5).astype(int)  # labels from an oracle
        >>> more = first.next_batch(y, 50)
        >>> more.indices.size, more.n_previous, bool(np.all(more.indices[:100] == first.indices))
        (150, 100, True)
        """
        if self.strategy == "importance":
            raise NotImplementedError(
                "`next_batch` is not available for strategy='importance' (a systematic "
                "PPS sample cannot be extended keeping exact inclusion probabilities); use "
                "strategy='stratified'"
            )
        is_pos = check_selected_labels(y_labels, self.indices.size)
        free = int(self.n_pool - self.indices.size)
        if free < 1:
            raise ValueError("`size`: every pool item is already selected")
        size = _check_budget(size, free, "size")
        n_h = self.stratum_samples.astype(np.int64)
        k_h = np.bincount(self.strata, weights=is_pos, minlength=n_h.size)
        rate = (k_h + 0.5) / (n_h + 1.0)
        order = _descending_order(self.y_score)
        p = np.repeat(rate, self.stratum_sizes)
        weights = _defensive(_neyman_share(p, self._stratum_edges))
        if self.strategy == "random":
            weights = np.ones(1)
        target = _allocate(weights, self.stratum_sizes, n_h.sum() + size, n_h)
        if random_seed is None:
            rng = np.random.default_rng()
            rng.bit_generator.state = self._rng_state
        else:
            rng = check_random_state(random_seed)
        chosen = np.zeros(self.n_pool, dtype=bool)
        chosen[self.indices] = True
        new_idx, new_strata = [], []
        for h in range(n_h.size):
            extra = int(target[h] - n_h[h])
            if extra <= 0:
                continue
            items = order[self._stratum_edges[h] : self._stratum_edges[h + 1]]
            items = items[~chosen[items]]
            new_idx.append(rng.choice(items, extra, replace=False))
            new_strata.append(np.full(extra, h))
        indices = np.concatenate([self.indices, *new_idx]).astype(np.int64)
        strata = np.concatenate([self.strata, *new_strata]).astype(np.int64)
        fraction = target / self.stratum_sizes
        return replace(
            self,
            indices=read_only_array(indices),
            strata=read_only_array(strata),
            inclusion_prob=read_only_array(fraction[strata]),
            stratum_samples=read_only_array(target.astype(np.int64)),
            n_previous=int(self.indices.size),
            _rng_state=rng.bit_generator.state,
        )


def read_only_array(a):
    """``a`` as an array made read-only in place (no copy when it is already an array).

    Parameters
    ----------
    a : array-like

    Returns
    -------
    ndarray
        The array, with ``a.flags.writeable`` False.
    """
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def _descending_order(score):
    """Pool positions sorted by decreasing score (stable: ties keep pool order)."""
    return np.argsort(-np.asarray(score, dtype=np.float64), kind="stable")


def _check_budget(budget, n_pool, name="budget"):
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, (int, np.integer)):
        raise ValueError(f"`{name}` must be an integer in [1, {n_pool}]; got {plain(budget)}")
    if not 1 <= budget <= n_pool:
        raise ValueError(
            f"`{name}` must be an integer in [1, {n_pool}] (the pool has {n_pool} "
            f"{'unselected ' if name == 'size' else ''}items); got {plain(budget)}"
        )
    return int(budget)


def check_selection(y_score, selection, y_labels, name="selection"):
    """``(score, is_pos)`` of a pool, its selection and the selected items' labels.

    The one check of the pool-label functions: ``selection`` is a :class:`LabelSelection`
    drawn from exactly these scores, and ``y_labels`` holds one binary label per selected
    item (errors name the parameter and the value).
    """
    if not isinstance(selection, LabelSelection):
        raise TypeError(
            f"`{name}` must be a LabelSelection (from select_labels); got {type(selection)}"
        )
    score = check_pool_scores(y_score)
    if score.shape[0] != selection.n_pool or not (
        score is selection.y_score or np.array_equal(score, selection.y_score)
    ):
        raise ValueError(
            f"`y_score` must be the pool the {name} was drawn from (the same "
            f"{selection.n_pool} scores in the same order)"
        )
    return score, check_selected_labels(y_labels, selection.indices.size)


# --------------------------------------------------------------------------------------
# allocation
# --------------------------------------------------------------------------------------
def _guess_family(n_pool, prevalence):
    """Guessed positive rates by rank (decreasing score), one array per shape.

    Power laws ``p(q) = c q^-g`` (``g`` in ``_GUESS_POWERS``: the rate rises towards the
    top scores, steeply or gently) and plateaus ``p(q) = c exp(-3 max(q / rho - 1, 0))``
    (``rho`` in ``_GUESS_PLATEAUS``: a flat rate over the top ``rho`` of the pool, as when
    hard negatives score like the positives, then a fast fall), each scaled to the mean
    ``prevalence`` and capped at 0.95.
    """
    q = (np.arange(n_pool) + 0.5) / n_pool
    shapes = [q**-g for g in _GUESS_POWERS]
    shapes += [np.exp(-3.0 * np.maximum(q / rho - 1.0, 0.0)) for rho in _GUESS_PLATEAUS]
    for shape in shapes:
        yield np.minimum(_GUESS_CAP, prevalence * shape / shape.mean())


def _ap_influence(p):
    """Linearized AP influence of each item's label, pool sorted by decreasing score.

    With expected counts ``TP_k = sum_{j <= k} p_j``, ``AP = sum_k p_k TP_k / k / P``;
    the derivative with respect to label ``k`` is
    ``(TP_k / k + sum_{i >= k} p_i / i - AP) / P``.
    """
    rank = np.arange(1, p.size + 1, dtype=np.float64)
    tp = np.cumsum(p)
    total = tp[-1]
    prec = tp / rank
    ap = float(np.sum(p * prec) / total)
    below = np.cumsum((p / rank)[::-1])[::-1]
    return (prec + below - ap) / total


def _neyman_share(p, edges):
    """Neyman allocation shares ``N_h S_h / sum(N_h S_h)`` of the linearized AP under ``p``."""
    z = _ap_influence(p)
    zp, zzp = z * p, z * z * p
    sizes = np.diff(edges).astype(np.float64)
    mean_zp = np.add.reduceat(zp, edges[:-1]) / sizes
    mean_zzp = np.add.reduceat(zzp, edges[:-1]) / sizes
    sd = np.sqrt(np.maximum(mean_zzp - mean_zp**2, 0.0))
    ney = sizes * sd
    return ney / ney.sum() if ney.sum() > 0 else np.full(sizes.size, 1.0 / sizes.size)


def _defensive(share):
    """``share`` mixed with an even share (weight ``_DEFENSIVE``) against a bad guess."""
    return (1 - _DEFENSIVE) * share + _DEFENSIVE / share.size


def _family_weights(n_pool, prevalence, edges):
    """Allocation weights: Neyman shares averaged over :func:`_guess_family`, defended."""
    shares = [_neyman_share(p, edges) for p in _guess_family(n_pool, prevalence)]
    return _defensive(np.mean(shares, axis=0))


def _family_sizes(n_pool, prevalence):
    """PPS size measure ``sqrt(p (1 - p)) |z|`` averaged over :func:`_guess_family`."""
    size = np.zeros(n_pool)
    for p in _guess_family(n_pool, prevalence):
        part = np.sqrt(p * (1 - p)) * np.abs(_ap_influence(p))
        size += part / part.sum()
    return _defensive(size / size.sum())


def _allocate(weights, caps, total, floor):
    """Integers ``floor <= n_h <= caps`` summing to ``total``, close to ``c * weights``."""
    caps = np.asarray(caps, dtype=np.float64)
    lo = np.minimum(np.asarray(floor, dtype=np.float64), caps)
    w = np.asarray(weights, dtype=np.float64)
    a, b = 0.0, 1.0
    while np.clip(b * w, lo, caps).sum() < total:
        b *= 2.0
    for _ in range(200):
        c = 0.5 * (a + b)
        a, b = (c, b) if np.clip(c * w, lo, caps).sum() < total else (a, c)
    real = np.clip(b * w, lo, caps)
    n = np.floor(real + 1e-9)
    left = int(round(total - n.sum()))
    frac = np.where(n < caps, real - n, -np.inf)
    for j in np.argsort(-frac, kind="stable")[: max(left, 0)]:
        n[j] += 1
    while n.sum() > total:  # rounding overshoot (only from floors)
        j = int(np.argmax(np.where(n > lo, n - real, -np.inf)))
        n[j] -= 1
    return n.astype(np.int64)


def _strata_edges(sorted_score, budget):
    """Sorted-order positions bounding geometric score strata, tie groups kept whole.

    The top stratum holds about ``budget`` items (at most half the pool); the sizes grow
    geometrically to the bottom of the pool. ``H = clip(budget // 25, 2, 16)`` strata,
    at most ``budget // 2`` (each gets two labels) and fewer when ties merge them.
    """
    n = sorted_score.size
    h = int(min(max(budget // 25, 2), _MAX_STRATA, max(budget // 2, 1)))
    if h <= 1 or n < 4:
        return np.array([0, n])
    top = min(max(budget, 2), n // 2)
    cuts = np.unique(np.round(np.geomspace(top, n, h)).astype(np.int64))
    # a cut after position c - 1 is allowed where the score changes: snap to a group end
    group_end = np.flatnonzero(np.diff(sorted_score) != 0) + 1
    if not group_end.size:  # every score tied: one stratum (a random sample)
        return np.array([0, n])
    snapped = group_end[np.minimum(np.searchsorted(group_end, cuts), group_end.size - 1)]
    snapped = np.where(np.searchsorted(group_end, cuts) >= group_end.size, n, snapped)
    edges = np.unique(np.concatenate([[0], snapped, [n]]))
    # strata of one item cannot take two labels: merge them into the next one down
    keep = [0]
    for e in edges[1:]:
        if e - keep[-1] >= 2 or e == n:
            keep.append(int(e))
    if len(keep) > 2 and keep[-1] - keep[-2] < 2:
        del keep[-2]
    return np.asarray(keep, dtype=np.int64)


def _default_guess(score):
    """Mean score when the scores look like probabilities, else 0.02."""
    lo, hi = float(score.min()), float(score.max())
    if 0.0 <= lo and hi <= 1.0 and hi > lo:
        return float(np.clip(np.mean(score), 1e-3, 0.5))
    return 0.02


def _systematic_pps(rng, pi):
    """Randomized systematic sample with inclusion probabilities ``pi`` (sum integer)."""
    perm = rng.permutation(pi.size)
    cum = np.cumsum(pi[perm])
    n = int(round(cum[-1]))
    points = rng.random() + np.arange(n)
    picked = perm[np.searchsorted(cum, points, side="right")]
    return np.sort(picked)


def _pps_probabilities(size, budget):
    """``budget * size / sum(size)`` with the items above 1 capped at 1, iteratively."""
    pi = np.zeros_like(size)
    certain = np.zeros(size.size, dtype=bool)
    for _ in range(size.size):
        rest = budget - certain.sum()
        pi = np.where(certain, 1.0, rest * size / size[~certain].sum())
        over = (pi >= 1.0) & ~certain
        if not over.any():
            break
        certain |= over
    return np.minimum(pi, 1.0)


def select_labels(
    y_score, budget, *, strategy="stratified", random_seed=None, prevalence_guess=None
):
    r"""Choose which items of a scored pool to label, with known inclusion probabilities.

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)
        Scores of every pool item (higher means more likely positive); finite.
    budget : int
        Number of items to label, in ``[1, n_pool]``.
    strategy : {"stratified", "random", "importance"}, default "stratified"
        ``"random"``
            Simple random sample without replacement: ``inclusion_prob = budget / N``,
            one stratum.
        ``"stratified"``
            Score strata, a simple random sample in each (Cochran 1977, ch. 5). The pool
            sorted by score is cut into ``H = clip(budget // 25, 2, 16)`` contiguous strata
            whose sizes shrink geometrically towards the top scores (the top stratum
            holds about ``budget`` items); tied scores are never split. Allocation:
            Neyman allocation ``n_h \propto N_h S_h`` for the linearized pool AP, where
            ``S_h`` is the standard deviation in stratum ``h`` of ``z_k y_k``, ``z_k``
            the derivative of the AP with respect to label ``k`` (precision at ``k`` plus
            the sum of ``p_i / i`` below it, minus AP, over the number of positives)
            under a guessed calibration ``p(q)`` of the top-rank fraction ``q``. The
            calibration is unknown, so the Neyman shares are averaged over seven guesses
            of mean ``prevalence_guess``: rates rising to the top like ``q^{-g}`` for
            ``g`` in (0.3, 0.5, 0.7, 0.9), and plateaus, flat over the top 2%, 10% or 30%
            of the pool and falling fast below (the shape of "hard negatives" that score
            like positives), capped at 0.95. 20% of the budget is then spread evenly over
            the strata as a further guard, and every stratum gets at least 2 labels.
            Rationale: the AP is decided by the highest-ranked items (an item's
            influence grows like ``log(1 / q)`` there, and precision is a ratio over few
            items), and its denominator, the number of positives, needs the lower strata
            sampled too; where the positives sit depends on the calibration, and an
            allocation tuned to one guess starves the ranks another would need (with the
            ``q^{-0.7}`` guess alone, pools whose rate plateaus got a third as many labels
            in the ranks holding half their positives, and ``fit_pool``'s 90% interval
            covered 72% of 100 selections; ``benchmarks/coverage_pool.py``).
            ``inclusion_prob = n_h / N_h``.
        ``"importance"``
            Randomized systematic PPS sampling (a random order of the pool, then
            systematic sampling on the cumulated sizes; Hartley & Rao 1962) with size
            measure ``sqrt(p_k (1 - p_k)) |z_k|`` (normalized, averaged over the same
            seven guesses), mixed 80/20 with an even size; probabilities above 1 are capped at 1 (those items are taken
            with certainty) and the rest rescaled. The first-order inclusion probability
            of item ``k`` is exactly ``budget * size_k / sum(size)`` after capping.
            One stratum; :meth:`LabelSelection.next_batch` is not available.
    random_seed : int, numpy.random.Generator or None
        Seed of the sample (and of later :meth:`LabelSelection.next_batch` calls).
    prevalence_guess : float in (0, 1), optional
        Prevalence of the guessed calibration; default the mean score when the scores
        lie in [0, 1], else 0.02. The allocation depends on it only weakly.

    Returns
    -------
    LabelSelection

    References
    ----------
    Cochran (1977), *Sampling Techniques*, ch. 5 (Neyman allocation); Horvitz & Thompson
    (1952); Hartley & Rao (1962), Ann. Math. Statist. 33, 350-374; Sawade et al. (2010);
    Marchant & Rubinstein (2017); Kossen et al. (2021); Poms et al. (2021).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import select_labels
    >>> s = np.random.default_rng(0).normal(size=20_000)
    >>> sel = select_labels(s, 400, random_seed=1)
    >>> sel.indices.size, int(sel.stratum_samples.sum()), bool(sel.stratum_samples.min() >= 2)
    (400, 400, True)
    >>> bool(sel.inclusion_prob.max() > 10 * sel.inclusion_prob.min())  # top oversampled
    True
    """
    score = check_pool_scores(y_score)
    n = score.shape[0]
    budget = _check_budget(budget, n)
    check_choice(strategy, "strategy", SELECTION_STRATEGIES)
    rng = check_random_state(random_seed)
    guess = (
        _default_guess(score)
        if prevalence_guess is None
        else check_probability(prevalence_guess, "prevalence_guess")
    )
    order = _descending_order(score)
    sorted_score = score[order]
    if strategy == "importance":
        size = _family_sizes(n, guess)
        # tied scores share one size (the design depends on the scores only)
        _, inverse = np.unique(-sorted_score, return_inverse=True)
        size = (np.bincount(inverse, weights=size) / np.bincount(inverse))[inverse]
        pi_sorted = _pps_probabilities(size, budget)
        picked = _systematic_pps(rng, pi_sorted)
        indices = order[picked]
        edges = np.array([0, n])
        pi = pi_sorted[picked]
        samples = np.array([budget])
        strata = np.zeros(budget, dtype=np.int64)
    else:
        edges = (
            _strata_edges(sorted_score, budget) if strategy == "stratified" else np.array([0, n])
        )
        sizes = np.diff(edges)
        if strategy == "stratified":
            weights = _family_weights(n, guess, edges)
            floor = np.full(sizes.size, 2 if budget >= 2 * sizes.size else 1)
            samples = _allocate(weights, sizes, budget, floor)
        else:
            samples = np.array([budget])
        parts = [
            edges[h] + rng.choice(sizes[h], samples[h], replace=False) for h in range(sizes.size)
        ]
        picked = np.concatenate(parts)
        indices = order[picked]
        strata = np.repeat(np.arange(sizes.size), samples)
        pi = (samples / sizes)[strata]
    bounds = np.column_stack([sorted_score[edges[1:] - 1], sorted_score[edges[:-1]]]).astype(
        np.float64
    )
    return LabelSelection(
        indices=read_only_array(indices.astype(np.int64)),
        inclusion_prob=read_only_array(np.asarray(pi, dtype=np.float64)),
        strata=read_only_array(strata.astype(np.int64)),
        n_pool=int(n),
        strategy=strategy,
        stratum_sizes=read_only_array(np.diff(edges).astype(np.int64)),
        stratum_samples=read_only_array(np.asarray(samples, dtype=np.int64)),
        stratum_bounds=read_only_array(bounds),
        y_score=score,
        _stratum_edges=read_only_array(edges.astype(np.int64)),
        _rng_state=rng.bit_generator.state,
        _prevalence_guess=guess,
    )
