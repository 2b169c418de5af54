r"""Design-based (Horvitz-Thompson) estimates of a pool's AP, precision and recall.

The labelled items of a :class:`~._design.LabelSelection` are weighted by
``1 / inclusion_prob`` (Horvitz & Thompson 1952); precision denominators are the exact
pool counts ``N(score >= t)``, since every score of the pool is known. Intervals: the
rescaling bootstrap within strata (Rao, Wu & Yue 1992) or linearization (Cochran 1977,
ch. 6). See :mod:`._design` for the selection and the references.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._core import check_choice, check_int, check_probability, check_random_state, plain
from ..frequentist import IntervalResult
from ._selection import check_selection, read_only_array

__all__ = [
    "DESIGN_INTERVAL_METHODS",
    "DesignInterval",
    "design_ap_interval",
    "design_threshold_interval",
    "prepare_selection",
]

#: Valid ``method`` values of the design-based intervals.
DESIGN_INTERVAL_METHODS = ("bootstrap", "linearization")


# --------------------------------------------------------------------------------------
# design-based estimates
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DesignInterval(IntervalResult):
    """Design-based (Horvitz-Thompson) estimate and interval for a pool quantity.

    Attributes
    ----------
    estimate, low, high : float
        Point estimate and interval ends, in [0, 1].
    confidence_level : float
    method : str
        One of :data:`DESIGN_INTERVAL_METHODS`.
    quantity : str
        ``"average_precision"``, ``"precision"`` or ``"recall"``.
    threshold : float or None
        The score threshold (``score >= threshold`` is positive) of precision / recall.
    strategy : str
        The selection's strategy.
    standard_error : float
        Linearization standard error, or the standard deviation of the bootstrap
        replicates.
    n_labelled, n_labelled_positives, n_pool : int
    n_resamples : int or None
    bootstrap_distribution : ndarray or None
    note : str or None
    """

    quantity: str
    threshold: float | None
    strategy: str
    standard_error: float
    n_labelled: int
    n_labelled_positives: int
    n_pool: int
    n_resamples: int | None
    bootstrap_distribution: np.ndarray | None = field(repr=False)
    note: str | None = None


class ValidatedSelection:
    """Validated labels of a selection, sorted by decreasing score, with pool counts.

    The common input of the design-based (Horvitz-Thompson) estimates: the selected
    items' scores ``s``, labels ``y`` and weights ``w = 1 / inclusion_prob`` in decreasing
    score order, with the number of pool items at or above each score (``n_at``).

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)
        Scores of the whole pool.
    selection : LabelSelection
        The selection drawn from these scores.
    y_labels : array-like of shape (n_selected,)
        Binary labels of the selected items, aligned with ``selection.indices``.
    name : str, default "selection"
        The parameter name error messages give the selection.

    Attributes
    ----------
    score : ndarray of shape (n_pool,)
        The pool's validated scores.
    is_pos : ndarray of bool, shape (n_selected,)
        The validated labels, aligned with ``selection.indices``.
    """

    def __init__(self, y_score, selection, y_labels, *, name="selection"):
        score, is_pos = check_selection(y_score, selection, y_labels, name=name)
        self.score, self.is_pos = score, is_pos
        s = score[selection.indices].astype(np.float64)
        order = np.argsort(-s, kind="stable")
        self.selection = selection
        self.s = s[order]
        self.y = is_pos[order].astype(np.float64)
        self.w = 1.0 / selection.inclusion_prob[order]
        self.strata = selection.strata[order]
        asc = np.sort(score)
        self.pool_sorted = asc
        self.n_at = (score.size - np.searchsorted(asc, self.s, side="left")).astype(np.float64)
        # last labelled position of each item's tie group (threshold = its score)
        change = np.flatnonzero(np.diff(self.s) != 0)
        ends = np.concatenate([change, [self.s.size - 1]])
        starts = np.concatenate([[0], change + 1])
        gid = np.repeat(np.arange(ends.size), np.diff(np.concatenate([[0], ends + 1])))
        self.group_end, self.group_start = ends[gid], starts[gid]
        self.fpc = sampling_fractions(selection)
        self.n_pos = int(self.y.sum())

    @property
    def strategy(self):
        return self.selection.strategy

    def ap(self, w):
        """Plug-in AP for weight rows ``w`` (..., n): ``sum_g P_g TP_g / N_g / P``."""
        wy = w * self.y
        cs = np.cumsum(wy, axis=-1)
        # the pair (i, i) counts y_i once, not w_i^2 y_i: HT estimate of sum_i y_i TP_i / N_i
        tp = cs[..., self.group_end] - wy + self.y
        num = np.sum(wy * tp / self.n_at, axis=-1)
        total = cs[..., -1]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, num / np.where(total > 0, total, 1.0), np.nan)

    def ap_influence(self):
        """Linearization values ``z_j`` of the AP estimate (per labelled item)."""
        wy = self.w * self.y
        cs = np.cumsum(wy)
        total, tp = cs[-1], cs[self.group_end] - wy + self.y
        ap = float(np.sum(wy * tp / self.n_at) / total)
        q = wy / self.n_at
        below = np.cumsum(q[::-1])[::-1][self.group_start]  # items scoring <= s_j
        own = (1.0 - 2.0 * self.w) / self.n_at  # derivative of the (i, i) correction
        return self.y * (tp / self.n_at + below + own - ap) / total

    def require_positive(self, estimator, quantity):
        """Raise the error of a selection without a labelled positive, if it has none."""
        if self.n_pos == 0:
            raise ValueError(
                f"no positive among the labelled items: the {estimator} {quantity} is "
                "undefined (label more items, or use bayes_prc.pool.fit_pool, whose prior "
                "keeps it defined)"
            )

    def threshold_parts(self, threshold, metric):
        """The validated ``threshold`` (a float), the labelled items at or above it (0/1
        floats) and the pool's count at or above it (``N(score >= t)``).

        Raises a ValueError naming ``threshold`` if it is not a finite number, or if
        ``metric`` is ``"precision"`` and no pool item reaches it.
        """
        thr = np.asarray(threshold, dtype=np.float64)
        if thr.ndim or not np.isfinite(thr):
            raise ValueError(f"`threshold` must be a finite number; got {plain(threshold)}")
        t = float(thr)
        n_t = float(self.pool_sorted.size - np.searchsorted(self.pool_sorted, t, "left"))
        if metric == "precision" and n_t == 0:
            raise ValueError(f"`threshold` = {t!r} is above every pool score")
        return t, (self.s >= t).astype(np.float64), n_t

    def variance(self, z):
        """Stratified variance of the Horvitz-Thompson total of ``z`` (Cochran 5.6)."""
        wz = self.w * z
        var = 0.0
        for h in np.unique(self.strata):
            v = wz[self.strata == h]
            if v.size >= 2:
                var += (1 - self.fpc[h]) * v.size * np.var(v, ddof=1)
        return float(var)

    def rescaled_weights(self, rng, n_resamples):
        """Rao-Wu-Yue rescaling-bootstrap weight rows (n_resamples, n)."""
        return rescaling_bootstrap_weights(self.w, self.strata, self.fpc, rng, n_resamples)


def sampling_fractions(selection):
    """Each stratum's sampling fraction ``n_h / N_h`` (0 for importance sampling, which
    draws with replacement-like inclusion probabilities and has no finite-population
    correction), indexed by stratum id."""
    if selection.strategy == "importance":
        return np.zeros(selection.stratum_sizes.size)
    return selection.stratum_samples / selection.stratum_sizes


def rescaling_bootstrap_weights(weights, strata, fractions, rng, n_resamples):
    """Rao-Wu-Yue rescaling-bootstrap weight rows (n_resamples, n) of a stratified sample.

    In each stratum ``h`` with ``n_h >= 2`` items, ``n_h - 1`` of them are drawn with
    replacement (multinomial counts ``r``) and each item's weight ``weights`` is scaled
    by ``1 - lam + lam * n_h / (n_h - 1) * r`` with ``lam = sqrt(1 - f_h)``, ``f_h`` the
    stratum's sampling fraction (``fractions[h]``); strata of one item keep their weight.
    Rao, Wu & Yue (1992), Survey Methodology 18: 209-217. The items may be in any order:
    ``strata`` gives each one's stratum id, and the draws go stratum by stratum (ids in
    increasing order), items in their given order.

    Parameters
    ----------
    weights : ndarray of shape (n,)
        Design weights ``1 / inclusion_prob``.
    strata : ndarray of shape (n,)
        Stratum id of each item.
    fractions : ndarray
        Sampling fraction of each stratum id (:func:`sampling_fractions`).
    rng : numpy.random.Generator
    n_resamples : int

    Returns
    -------
    ndarray of shape (n_resamples, n)

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool._design import rescaling_bootstrap_weights
    >>> w = rescaling_bootstrap_weights(np.full(4, 2.0), np.array([0, 0, 1, 1]),
    ...                                 np.array([0.5, 0.5]), np.random.default_rng(0), 1000)
    >>> w.shape, bool(abs(w.mean() - 2.0) < 0.1)
    ((1000, 4), True)
    """
    out = np.broadcast_to(weights, (n_resamples, weights.size)).copy()
    for h in np.unique(strata):
        cols = np.flatnonzero(strata == h)
        n_h = cols.size
        if n_h < 2:
            continue
        lam = np.sqrt(1.0 - fractions[h])
        r = rng.multinomial(n_h - 1, np.full(n_h, 1.0 / n_h), size=n_resamples)
        out[:, cols] *= 1.0 - lam + lam * (n_h / (n_h - 1.0)) * r
    return out


def _interval(design, estimate, z, replicates, method, level, n_resamples, **fields):
    if method == "linearization":
        se = float(np.sqrt(design.variance(z)))
        half = special.ndtri(0.5 + level / 2) * se
        low, high, dist = estimate - half, estimate + half, None
    else:
        dist = replicates[np.isfinite(replicates)]
        se = float(np.std(dist, ddof=1)) if dist.size > 1 else float("nan")
        low, high = np.quantile(dist, [(1 - level) / 2, (1 + level) / 2])
    sel = design.selection
    return DesignInterval(
        estimate=float(np.clip(estimate, 0, 1)),
        low=float(np.clip(low, 0, 1)),
        high=float(np.clip(high, 0, 1)),
        confidence_level=level,
        method=method,
        strategy=sel.strategy,
        standard_error=se,
        n_labelled=int(sel.indices.size),
        n_labelled_positives=design.n_pos,
        n_pool=int(sel.n_pool),
        n_resamples=None if method == "linearization" else int(n_resamples),
        bootstrap_distribution=None if dist is None else read_only_array(dist),
        **fields,
    )


def _check_interval_options(confidence_level, method, n_resamples):
    level = check_probability(confidence_level, "confidence_level")
    check_choice(method, "method", DESIGN_INTERVAL_METHODS)
    return level, check_int(n_resamples, "n_resamples")


def prepare_selection(y_score, selection, y_labels=None):
    """The pool, its selection and the labels, validated and sorted once.

    Every pool function (:func:`design_ap_interval`, :func:`design_threshold_interval`,
    :func:`bayes_prc.pool.fit_pool`, :func:`bayes_prc.pool.plan_labels`'s ``pilot``) takes
    either a :class:`~._design.LabelSelection` with its pool scores and labels, which it
    validates, or the :class:`ValidatedSelection` this function returns, which it uses as
    is: a workflow that calls several of them validates the pool once.

    Parameters
    ----------
    y_score : array-like of shape (n_pool,) or None
        The pool's scores; None, or the prepared object's own ``score``, when
        ``selection`` is already a :class:`ValidatedSelection`.
    selection : LabelSelection or ValidatedSelection
    y_labels : array-like of shape (n_selected,) or None
        The selected items' labels; None, or equal to the prepared ones, when
        ``selection`` is a :class:`ValidatedSelection`.

    Returns
    -------
    ValidatedSelection

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import design_ap_interval, prepare_selection, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(20_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.0 * y
    >>> sel = select_labels(s, 300, random_seed=1)
    >>> prepared = prepare_selection(s, sel, y[sel.indices])
    >>> a = design_ap_interval(None, prepared, method="linearization")
    >>> b = design_ap_interval(s, sel, y[sel.indices], method="linearization")
    >>> a.estimate == b.estimate
    True
    """
    if not isinstance(selection, ValidatedSelection):
        if y_labels is None:
            raise ValueError("`y_labels` is required with a LabelSelection")
        return ValidatedSelection(y_score, selection, y_labels)
    if y_score is not None and y_score is not selection.score:
        score = np.asarray(y_score)
        if score.shape != selection.score.shape or not np.array_equal(score, selection.score):
            raise ValueError(
                "`y_score` must be None or the pool scores of the prepared `selection` "
                f"({selection.score.size} scores); got different scores"
            )
    if y_labels is not None and y_labels is not selection.is_pos:
        labels = np.asarray(y_labels)
        if labels.shape != selection.is_pos.shape or not np.array_equal(
            labels.astype(bool), selection.is_pos
        ):
            raise ValueError(
                "`y_labels` must be None or the labels of the prepared `selection`; "
                "got different labels"
            )
    return selection


def design_ap_interval(
    y_score,
    selection,
    y_labels=None,
    *,
    confidence_level=0.95,
    method="bootstrap",
    n_resamples=2000,
    random_seed=None,
):
    r"""Design-based estimate and interval for the average precision of the whole pool.

    The pool's AP in scikit-learn's step definition (ties grouped),
    ``AP = sum_g (P_g / P) TP_g / N_g`` over distinct pool scores ``g`` (``P_g``
    positives at score ``g``, ``TP_g`` positives and ``N_g`` items with score ``>= g``),
    is estimated by Horvitz-Thompson sums over the labelled items (weights
    ``w = 1 / inclusion_prob``): the numerator ``sum_i y_i TP_i / N_i`` over pairs of
    labelled positives ``j`` scoring at least ``i`` with weight ``w_i w_j`` (``w_i`` for
    the pair ``(i, i)``, which counts once), the denominator ``P`` by its HT total;
    ``N_i`` is the exact pool count (every score is known). A ratio of HT estimates:
    consistent, with a bias of order ``1 / n`` (the pair weights take the joint inclusion
    probability of two items of a stratum as the product of their own).

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)
        The pool's scores (those the selection was drawn from).
    selection : LabelSelection or ValidatedSelection
    y_labels : array-like of shape (len(selection.indices),)
        Labels of the selected items, aligned with ``selection.indices``. With a
        prepared ``selection`` (:func:`prepare_selection`), ``y_score`` and ``y_labels``
        may be None: the pool is then not validated again.
    confidence_level : float, default 0.95
    method : {"bootstrap", "linearization"}, default "bootstrap"
        ``"bootstrap"``: percentile interval of the rescaling bootstrap of Rao, Wu & Yue
        (1992) within strata: ``n_h - 1`` items are drawn with replacement in each
        stratum and the weights rescaled by ``lambda_h = sqrt(1 - n_h / N_h)``, which
        reproduces the finite-population-corrected stratified variance for linear
        statistics (for "importance" selections, one stratum without the correction:
        the with-replacement approximation). ``"linearization"``: normal interval with the
        Taylor (influence-value) variance of the ratio estimator (Cochran 1977, ch. 6),
        same corrections; clipped to [0, 1].
    n_resamples : int, default 2000
    random_seed : int, numpy.random.Generator or None

    Returns
    -------
    DesignInterval

    Notes
    -----
    A stratum whose labelled items are all negative contributes no variance though it may
    hold positives: with very rare positives the design-based interval is optimistic;
    :func:`bayes_prc.pool.fit_pool` borrows strength across strata through its monotone
    calibration model.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import design_ap_interval, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(50_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.0 * y
    >>> sel = select_labels(s, 400, random_seed=1)
    >>> res = design_ap_interval(s, sel, y[sel.indices], random_seed=2)
    >>> bool(res.low <= res.estimate <= res.high), res.method
    (True, 'bootstrap')
    """
    level, n_resamples = _check_interval_options(confidence_level, method, n_resamples)
    d = prepare_selection(y_score, selection, y_labels)
    d.require_positive("design-based", "average precision")
    estimate = float(d.ap(d.w))
    z = reps = None
    if method == "linearization":
        z = d.ap_influence()
    else:
        reps = d.ap(d.rescaled_weights(check_random_state(random_seed), n_resamples))
    return _interval(
        d,
        estimate,
        z,
        reps,
        method,
        level,
        n_resamples,
        quantity="average_precision",
        threshold=None,
    )


def design_threshold_interval(
    y_score,
    selection,
    y_labels,
    threshold,
    *,
    metric="precision",
    confidence_level=0.95,
    method="bootstrap",
    n_resamples=2000,
    random_seed=None,
):
    r"""Design-based precision or recall of the whole pool at a score threshold.

    ``precision(t) = TP(t) / N(score >= t)`` with the exact pool count as denominator and
    the Horvitz-Thompson total ``TP(t)`` of the labelled positives scoring ``>= t``;
    ``recall(t) = TP(t) / P`` (a ratio of HT totals). Intervals as in
    :func:`design_ap_interval` (precision is linear in the totals, so its linearization
    variance is the exact stratified variance).

    Parameters
    ----------
    y_score, selection, y_labels
        As in :func:`design_ap_interval`.
    threshold : float
        Items with ``score >= threshold`` are called positive.
    metric : {"precision", "recall"}, default "precision"
    confidence_level, method, n_resamples, random_seed
        As in :func:`design_ap_interval`.

    Returns
    -------
    DesignInterval

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import design_threshold_interval, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(50_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.0 * y
    >>> sel = select_labels(s, 400, random_seed=1)
    >>> res = design_threshold_interval(s, sel, y[sel.indices], 2.5, method="linearization")
    >>> bool(0 <= res.low <= res.estimate <= res.high <= 1), res.quantity
    (True, 'precision')
    """
    level, n_resamples = _check_interval_options(confidence_level, method, n_resamples)
    check_choice(metric, "metric", ("precision", "recall"))
    d = prepare_selection(y_score, selection, y_labels)
    thr, above, n_t = d.threshold_parts(threshold, metric)
    if metric == "recall":
        d.require_positive("design-based", "recall")

    def value(w):
        tp = np.sum(w * d.y * above, axis=-1)
        if metric == "precision":
            return tp / n_t
        return tp / np.sum(w * d.y, axis=-1)

    estimate = float(value(d.w))
    z = reps = None
    if method == "linearization":
        total = float(np.sum(d.w * d.y))
        z = d.y * above / n_t if metric == "precision" else d.y * (above - estimate) / total
    else:
        reps = value(d.rescaled_weights(check_random_state(random_seed), n_resamples))
    return _interval(
        d, estimate, z, reps, method, level, n_resamples, quantity=metric, threshold=thr
    )
