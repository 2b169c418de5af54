r"""Prediction-powered (model-assisted difference) estimates of a pool's AP, precision
and recall from a labelled selection.

Every pool item gets a prediction ``f(s) = P(y = 1 | score)``, a weighted isotonic
(monotone) regression of the labelled items' labels on their scores with the design
weights ``w = 1 / inclusion_prob``, cross-fitted: the labelled items are split into
``K`` folds, each labelled item takes the fit of the folds that do not contain it and
the pool takes the average of the ``K`` fits (Zrnic & Candes 2024). The pool's number
of positives scoring at least ``t`` is estimated by the difference estimator

.. math::

    \widehat{TP}(t) = \lambda \sum_{\mathrm{pool},\, s_i \ge t} f(s_i)
    + \sum_{\mathrm{labelled},\, s_i \ge t} w_i (y_i - \lambda f_{-k(i)}(s_i)),

the prediction-powered estimate with design weights (Angelopoulos et al. 2023; the
survey statistician's difference / model-assisted estimator, Sarndal, Swensson &
Wretman 1992), with the power-tuning factor ``lambda`` of PPI++ (Angelopoulos, Duchi &
Zrnic 2024): ``lambda = 0`` is the Horvitz-Thompson estimate, ``lambda = 1`` plain PPI.
Precision is ``TP(t) / N(s >= t)`` (exact pool count), recall ``TP(t) / P`` with
``P = TP(-inf)``, and the AP is scikit-learn's step sum ``sum_g (dTP_g / P) TP_g / N_g``
over distinct pool scores, with the Horvitz-Thompson treatment of the pair ``(i, i)``
(so that ``lambda = 0`` gives exactly :func:`~bayes_prc.pool.design_ap_interval`'s
estimate).

Intervals: percentile bootstrap with the design's rescaling weights within strata (Rao,
Wu & Yue 1992), the calibration refit (all ``K`` folds) in every replicate
("predict-then-debias", Kluger et al. 2025). The isotonic fits are step functions that
change only at labelled scores, so the pool enters through per-segment sums computed
once (the pool between two consecutive labelled scores is one segment): a replicate
costs ``O(n_labelled)``, never ``O(n_pool)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import isotonic_regression

from .._core import check_choice, check_int, check_probability, check_random_state, plain
from ._design import DesignInterval, prepare_selection

__all__ = ["PPIInterval", "ppi_ap_interval", "ppi_threshold_interval", "ppi_tp_reference"]

#: The PPI++ power grid searched by ``power="tuned"``.
POWER_GRID = np.linspace(0.0, 1.0, 11)
_CHUNK = 250  # bootstrap replicates evaluated at once


@dataclass(frozen=True)
class PPIInterval(DesignInterval):
    """Prediction-powered estimate and interval for a pool quantity.

    The fields of :class:`~bayes_prc.pool.DesignInterval` (``method`` is
    ``"ppi_bootstrap"``), plus:

    Attributes
    ----------
    power : float
        The power-tuning factor ``lambda`` used (1: plain PPI, 0: Horvitz-Thompson).
    n_folds : int
        Cross-fitting folds of the calibration.
    """

    power: float = 1.0
    n_folds: int = 5


# --------------------------------------------------------------------------------------
# the pool as segments between labelled scores
# --------------------------------------------------------------------------------------
class _Segments:
    """The sorted pool cut at the distinct labelled scores ``L_0 > ... > L_{m-1}``.

    Units in decreasing score order: gap 0 (above ``L_0``), the group at ``L_0``, gap 1
    (between ``L_1`` and ``L_0``), ..., the group at ``L_{m-1}``, gap ``m`` (below).
    A step calibration (value at the nearest labelled score at or below; below all of
    them, the lowest one's) is constant on each unit: ``value[u]`` indexes ``L``.
    """

    def __init__(self, d):
        self.d = d
        s = d.s  # labelled scores, decreasing
        first = np.concatenate([[True], s[1:] != s[:-1]])
        self.starts = np.flatnonzero(first)  # labelled items of each distinct score
        self.group = np.cumsum(first) - 1  # labelled item -> its distinct score
        L = s[self.starts]
        m = self.m = L.size
        asc = d.pool_sorted
        g_asc, n_asc = np.unique(asc, return_counts=True)
        g, n_g = g_asc[::-1], n_asc[::-1].astype(np.float64)  # distinct pool scores, desc
        N_g = np.cumsum(n_g)
        j = np.searchsorted(-L, -g, side="left")  # labelled scores above g
        on = (j < m) & (L[np.minimum(j, m - 1)] == g)
        unit = np.where(on, 2 * j + 1, 2 * j)
        n_units = 2 * m + 1
        self.K = np.bincount(unit, n_g, n_units)
        n_start = np.cumsum(self.K) - self.K
        k_g = N_g - n_start[unit]
        self.A = np.bincount(unit, n_g / N_g, n_units)
        self.B = np.bincount(unit, n_g * k_g / N_g, n_units)
        self.is_lab = np.arange(n_units) % 2 == 1
        self.N_lab = N_g[on]  # pool count at or above each labelled score
        self.value = np.minimum(np.arange(n_units) // 2, m - 1)
        self.unit_score, self.unit_n = g, n_g
        self.unit_of_group = unit

    # ------------------------------------------------------------------- the fit
    def fit(self, weights, y, train):
        """Weighted isotonic fit on the rows ``weights * train`` (B, n): values at ``L``."""
        wt = weights * train
        ws = np.add.reduceat(wt, self.starts, axis=-1)
        ys = np.add.reduceat(wt * y, self.starts, axis=-1)
        out = np.zeros(ws.shape)
        idx = np.arange(self.m)
        for b in range(ws.shape[0]):
            keep = np.flatnonzero(ws[b] > 0)
            if keep.size == 0:
                continue
            # ascending score for the regression: reverse
            k = keep[::-1]
            fitted = isotonic_regression(ys[b, k] / ws[b, k], weights=ws[b, k]).x[::-1]
            pos = np.minimum(np.searchsorted(keep, idx, side="left"), keep.size - 1)
            out[b] = fitted[pos]
        return out

    def calibrate(self, weights, folds, n_folds):
        """Pool values (B, m) at ``L`` (fold average) and each labelled item's cross-fit
        prediction (B, n)."""
        y = self.d.y
        if n_folds == 1:
            full = self.fit(weights, y, 1.0)
            return full, full[:, self.group]
        pool = np.zeros((weights.shape[0], self.m))
        own = np.zeros(weights.shape)
        for k in range(n_folds):
            held = folds == k
            fk = self.fit(weights, y, ~held)
            pool += fk / n_folds
            own[:, held] = fk[:, self.group[held]]
        return pool, own

    # ------------------------------------------------------------ the estimates
    def _parts(self, weights, pool, own, lam):
        y = self.d.y
        lam = np.asarray(lam, dtype=np.float64)[..., None]
        r = y - lam * own[..., None, :] if lam.ndim > 1 else y - lam * own
        wr = weights[..., None, :] * r if lam.ndim > 1 else weights * r
        D = np.add.reduceat(wr, self.starts, axis=-1)
        c = (lam * pool[..., None, :] if lam.ndim > 1 else lam * pool)[..., self.value]
        w = weights[..., None, :] if lam.ndim > 1 else weights
        diag = np.add.reduceat((w * w - w) * r * r, self.starts, axis=-1)
        return c, D, diag

    def ap(self, weights, pool, own, lam):
        """AP for weight rows (B, n), calibrations (B, m) / (B, n) and powers ``lam``
        (scalar, or (P,) giving shape (B, P))."""
        c, D, diag = self._parts(weights, pool, own, lam)
        dtp = c * self.K
        dtp[..., self.is_lab] += D
        total = np.cumsum(dtp, axis=-1)
        before = total - dtp
        gap = ~self.is_lab
        num = np.sum(c[..., gap] * (before[..., gap] * self.A[gap] + c[..., gap] * self.B[gap]), -1)
        lab = dtp[..., self.is_lab]
        num = num + np.sum((lab * (before[..., self.is_lab] + lab) - diag) / self.N_lab, -1)
        p = total[..., -1]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(p > 0, num / np.where(p > 0, p, 1.0), np.nan)

    def tp_at(self, weights, pool, own, lam, threshold):
        """``(TP(t), P)`` for weight rows (B, n) (and powers, as in :meth:`ap`)."""
        c, D, _ = self._parts(weights, pool, own, lam)
        above = self.unit_score >= threshold
        k_t = np.bincount(self.unit_of_group, self.unit_n * above, 2 * self.m + 1)
        lab_above = self.d.s[self.starts] >= threshold
        tp = np.sum(c * k_t, -1) + np.sum(D * lab_above, -1)
        total = np.sum(c * self.K, -1) + np.sum(D, -1)
        return tp, total


def ppi_tp_reference(pool_f, labelled_f, score, indices, y_labels, weights, threshold, power=1.0):
    """The difference estimate of ``TP(threshold)`` by a direct sum (a reference).

    ``power * sum_{pool, s >= t} pool_f + sum_{labelled, s >= t} w (y - power * f)``,
    for any predictions (not only step ones): the check of the fast estimator.

    Parameters
    ----------
    pool_f : ndarray of shape (n_pool,)
        Predictions of every pool item.
    labelled_f : ndarray of shape (n_selected,)
        Predictions of the selected items used in the correction (cross-fitted).
    score : ndarray of shape (n_pool,)
    indices : ndarray of shape (n_selected,)
    y_labels, weights : ndarray of shape (n_selected,)
    threshold : float
    power : float, default 1.0

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([0.1, 0.5, 0.9])
    >>> ppi_tp_reference(np.full(3, 0.5), np.array([0.5]), s, np.array([2]),
    ...                  np.array([1.0]), np.array([3.0]), 0.4)
    2.5
    """
    score = np.asarray(score, dtype=np.float64)
    idx = np.asarray(indices)
    above = score[idx] >= threshold
    pool_part = float(np.sum(np.asarray(pool_f)[score >= threshold]))
    corr = np.asarray(weights) * (np.asarray(y_labels, dtype=np.float64) - power * labelled_f)
    return power * pool_part + float(np.sum(corr[above]))


# --------------------------------------------------------------------------------------
# public intervals
# --------------------------------------------------------------------------------------
def _folds(y, n_folds, rng):
    """Fold of each labelled item: positives and negatives spread evenly, at random."""
    perm = rng.permutation(y.size)
    order = perm[np.argsort(-y[perm], kind="stable")]
    folds = np.empty(y.size, dtype=np.int64)
    folds[order] = np.arange(y.size) % n_folds
    return folds


def _check_options(confidence_level, n_resamples, n_folds, power):
    level = check_probability(confidence_level, "confidence_level")
    n_resamples = check_int(n_resamples, "n_resamples")
    n_folds = check_int(n_folds, "n_folds")
    if isinstance(power, str):
        check_choice(power, "power", ("tuned",))
    else:
        p = float(power)
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"`power` must be 'tuned' or a number in [0, 1]; got {plain(power)}")
    return level, n_resamples, n_folds


def _run(d, n_folds, n_resamples, power, rng, stat):
    """Point estimate, replicates and power of statistic ``stat(weights, pool, own, lam)``."""
    seg = _Segments(d)
    n_folds = int(min(n_folds, max(1, d.s.size // 2)))
    folds = _folds(d.y, n_folds, rng)
    w0 = d.w[None, :]
    pool0, own0 = seg.calibrate(w0, folds, n_folds)
    grid = POWER_GRID if isinstance(power, str) else np.array([float(power)])
    reps = []
    for start in range(0, n_resamples, _CHUNK):
        wb = d.rescaled_weights(rng, min(_CHUNK, n_resamples - start))
        pool, own = seg.calibrate(wb, folds, n_folds)
        reps.append(stat(seg, wb, pool, own, grid))  # (B, len(grid))
    reps = np.concatenate(reps)
    if grid.size > 1:
        with np.errstate(invalid="ignore"):
            var = [
                np.var(r[np.isfinite(r)]) if np.isfinite(r).sum() > 1 else np.inf for r in reps.T
            ]
        best = int(np.argmin(var))
    else:
        best = 0
    lam = float(grid[best])
    estimate = float(stat(seg, w0, pool0, own0, np.array([lam]))[0, 0])
    return estimate, reps[:, best], lam, n_folds


def _result(d, estimate, reps, lam, n_folds, level, n_resamples, **fields):
    dist = reps[np.isfinite(reps)]
    if dist.size < 2:
        raise ValueError("fewer than 2 bootstrap replicates are defined; label more items")
    low, high = np.quantile(np.clip(dist, 0, 1), [(1 - level) / 2, (1 + level) / 2])
    sel = d.selection
    dropped = reps.size - dist.size
    note = (
        f"{dropped} of {reps.size} bootstrap replicates estimated no positive in the pool "
        "and were left out"
        if dropped
        else None
    )
    return PPIInterval(
        estimate=float(np.clip(estimate, 0, 1)),
        low=float(np.clip(low, 0, 1)),
        high=float(np.clip(high, 0, 1)),
        confidence_level=level,
        method="ppi_bootstrap",
        strategy=sel.strategy,
        standard_error=float(np.std(dist, ddof=1)),
        n_labelled=int(sel.indices.size),
        n_labelled_positives=d.n_pos,
        n_pool=int(sel.n_pool),
        n_resamples=int(n_resamples),
        bootstrap_distribution=dist,
        power=lam,
        n_folds=int(n_folds),
        note=note,
        **fields,
    )


def ppi_ap_interval(
    y_score,
    selection,
    y_labels=None,
    *,
    confidence_level=0.95,
    n_resamples=1000,
    n_folds=5,
    power="tuned",
    random_seed=None,
):
    r"""Prediction-powered estimate and interval for the average precision of the pool.

    The pool's AP (scikit-learn's step definition) from the difference estimates
    ``TP(t)`` of the module docstring: a cross-fitted weighted isotonic calibration
    predicts every pool item, and the labelled items correct the predictions with their
    design weights, so the estimate stays design-consistent however poor the calibration
    (a monotone fit of a non-monotone truth only costs variance).

    Parameters
    ----------
    y_score : array-like of shape (n_pool,) or None
        The pool's scores; None with a prepared ``selection``.
    selection : LabelSelection or ValidatedSelection
        From :func:`~bayes_prc.pool.select_labels`, or
        :func:`~bayes_prc.pool.prepare_selection`.
    y_labels : array-like of shape (n_selected,) or None
        Labels of the selected items (None with a prepared ``selection``).
    confidence_level : float, default 0.95
    n_resamples : int, default 1000
        Rescaling-bootstrap replicates (Rao, Wu & Yue 1992), the calibration refit in
        each.
    n_folds : int, default 5
        Cross-fitting folds (at most half the labelled items); 1 fits the calibration on
        all labelled items and uses it for the pool and the correction alike.
    power : "tuned" or float in [0, 1], default "tuned"
        PPI++'s factor ``lambda`` on the predictions: ``"tuned"`` takes the value of
        :data:`POWER_GRID` whose bootstrap replicates vary least (the same replicates
        then give the interval); 1 is plain PPI, 0 the Horvitz-Thompson estimate.
    random_seed : int, numpy.random.Generator or None

    Returns
    -------
    PPIInterval

    Raises
    ------
    ValueError
        No labelled positive (the AP is undefined).

    Notes
    -----
    Like every design-based estimate, a stratum whose labelled items are all negative
    adds little variance though it may hold positives; the calibration borrows across
    strata only through the predictions, which the correction then removes on average.

    References
    ----------
    A. N. Angelopoulos, S. Bates, C. Fannjiang, M. I. Jordan and T. Zrnic,
    "Prediction-powered inference", Science 382 (2023).
    A. N. Angelopoulos, J. C. Duchi and T. Zrnic, "PPI++: efficient prediction-powered
    inference", arXiv:2311.01453 (2024).
    T. Zrnic and E. J. Candes, "Cross-prediction-powered inference", PNAS 121 (2024).
    A. Fisch et al., "Stratified prediction-powered inference for hybrid language model
    evaluation", NeurIPS 2024.
    D. M. Kluger et al., "Prediction-powered inference with imputed covariates and
    nonuniform sampling", arXiv:2501.18577 (2025).
    C.-E. Sarndal, B. Swensson and J. Wretman, *Model Assisted Survey Sampling*,
    Springer (1992).
    J. N. K. Rao, C. F. J. Wu and K. Yue, "Some recent work on resampling methods for
    complex surveys", Survey Methodology 18 (1992).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import ppi_ap_interval, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(50_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.0 * y
    >>> sel = select_labels(s, 400, random_seed=1)
    >>> res = ppi_ap_interval(s, sel, y[sel.indices], random_seed=2, n_resamples=200)
    >>> bool(0 <= res.low <= res.estimate <= res.high <= 1), res.method
    (True, 'ppi_bootstrap')
    """
    level, n_resamples, n_folds = _check_options(confidence_level, n_resamples, n_folds, power)
    d = prepare_selection(y_score, selection, y_labels)
    d.require_positive("prediction-powered", "average precision")
    rng = check_random_state(random_seed)

    def stat(seg, w, pool, own, grid):
        return seg.ap(w, pool, own, grid)

    estimate, reps, lam, n_folds = _run(d, n_folds, n_resamples, power, rng, stat)
    if not np.isfinite(estimate):
        raise ValueError(
            "the prediction-powered estimate of the pool's positives is not positive; "
            "label more items"
        )
    return _result(
        d,
        estimate,
        reps,
        lam,
        n_folds,
        level,
        n_resamples,
        quantity="average_precision",
        threshold=None,
    )


def ppi_threshold_interval(
    y_score,
    selection,
    y_labels,
    threshold,
    *,
    metric="precision",
    confidence_level=0.95,
    n_resamples=1000,
    n_folds=5,
    power="tuned",
    random_seed=None,
):
    r"""Prediction-powered precision or recall of the pool at a score threshold.

    ``precision(t) = TP(t) / N(score >= t)`` (exact pool count), ``recall(t) = TP(t) / P``
    with the difference estimates ``TP`` of :func:`ppi_ap_interval` (same calibration,
    bootstrap and power tuning; references there).

    Parameters
    ----------
    y_score, selection, y_labels
        As in :func:`ppi_ap_interval`.
    threshold : float
        Items with ``score >= threshold`` are called positive.
    metric : {"precision", "recall"}, default "precision"
    confidence_level, n_resamples, n_folds, power, random_seed
        As in :func:`ppi_ap_interval`.

    Returns
    -------
    PPIInterval

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import ppi_threshold_interval, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(50_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.0 * y
    >>> sel = select_labels(s, 400, random_seed=1)
    >>> res = ppi_threshold_interval(s, sel, y[sel.indices], 2.5, metric="recall",
    ...                              random_seed=2, n_resamples=200)
    >>> bool(0 <= res.low <= res.estimate <= res.high <= 1), res.quantity
    (True, 'recall')
    """
    level, n_resamples, n_folds = _check_options(confidence_level, n_resamples, n_folds, power)
    check_choice(metric, "metric", ("precision", "recall"))
    d = prepare_selection(y_score, selection, y_labels)
    t, _, n_t = d.threshold_parts(threshold, metric)
    d.require_positive("prediction-powered", metric)
    rng = check_random_state(random_seed)

    def stat(seg, w, pool, own, grid):
        tp, total = seg.tp_at(w, pool, own, grid, t)
        if metric == "precision":
            return tp / n_t
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, tp / np.where(total > 0, total, 1.0), np.nan)

    estimate, reps, lam, n_folds = _run(d, n_folds, n_resamples, power, rng, stat)
    if not np.isfinite(estimate):
        raise ValueError(
            "the prediction-powered estimate of the pool's positives is not positive; "
            "label more items"
        )
    return _result(
        d, estimate, reps, lam, n_folds, level, n_resamples, quantity=metric, threshold=t
    )
