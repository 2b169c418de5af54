"""Bootstrap bands for the precision-recall curve (:func:`bootstrap_pr_band`).

Also the home of :func:`simultaneous_band`, the extremal-depth envelope of a set of
curves, shared with the posterior bands of :mod:`bayes_prc.bayes`.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .._core import (
    Progress,
    check_choice,
    check_int,
    check_probability,
    check_progressbar,
    check_random_state,
    plain,
)
from .._core.groups import check_groups
from ._aggregate import coarsen, count_blocks, use_counts
from ._engine import _binned_blocks, _Bins, _prepare
from ._resample import DEFAULT_MEMORY_BUDGET, _block_size
from ._supt import binomial_se_floor, corrected_logit, sup_t_band

__all__ = ["bootstrap_pr_band", "simultaneous_band"]


#: Valid ``kind`` values of :func:`bootstrap_pr_band`.
BAND_KINDS = ("pointwise", "simultaneous", "simultaneous_t")


def simultaneous_band(curves, ci_prob, point_lower, point_upper):
    """Envelope of the deepest ``ci_prob`` share of whole curves, joined with the pointwise band.

    ``curves`` has shape (n_grid, n_draws). Depth of a curve = min over the grid of
    min(rank, S + 1 - rank), with pointwise ranks among the S curves (extremal depth, as
    in the global envelope tests of Myllymaki et al. 2017). The ``ceil(ci_prob * S)``
    deepest curves are kept (ties of depth in curve order) and the band is their
    envelope, widened where needed to contain the pointwise band ``point_lower``,
    ``point_upper``.

    Returns
    -------
    lower, upper : ndarray of shape (n_grid,)
    share : float
        The share of the ``S`` curves lying wholly inside the band (to 1e-12); at least
        ``ceil(ci_prob * S) / S`` by construction.

    References
    ----------
    Myllymaki, M.; Mrkvicka, T.; Grabarnik, P.; Seijo, H.; Hahn, U. (2017). "Global
    envelope tests for spatial processes". JRSS B 79 (2): 381-404.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.frequentist._bands import simultaneous_band
    >>> curves = np.random.default_rng(0).normal(size=(5, 200))
    >>> lo, hi = np.quantile(curves, [0.05, 0.95], axis=1)
    >>> lower, upper, share = simultaneous_band(curves, 0.9, lo, hi)
    >>> bool(share >= 0.9 and (lower <= lo).all() and (upper >= hi).all())
    True
    """
    s = curves.shape[1]
    order = np.argsort(curves, axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, s + 1)[None, :], axis=1)
    depth = np.minimum(ranks, s + 1 - ranks).min(axis=0)
    n_keep = int(np.ceil(ci_prob * s))
    keep = np.argsort(-depth, kind="stable")[:n_keep]
    kept = curves[:, keep]
    lower = np.minimum(kept.min(axis=1), point_lower)
    upper = np.maximum(kept.max(axis=1), point_upper)
    inside = np.all((curves >= lower[:, None] - 1e-12) & (curves <= upper[:, None] + 1e-12), axis=0)
    return lower, upper, float(inside.mean())


def _expit(x):
    """Logistic function, without overflow warnings."""
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


# --------------------------------------------------------------------------------------
# bands for the curve
# --------------------------------------------------------------------------------------
def recall_target_counts(recall, n_pos):
    """Smallest true-positive count ``m >= 1`` with ``m / n_pos >= r`` (floating point)."""
    m = np.clip(np.ceil(recall * n_pos), 0, n_pos).astype(np.int64)
    lower = m - 1
    m = np.where((lower >= 0) & (lower / n_pos >= recall), lower, m)
    m = np.where((m < n_pos) & (m / n_pos < recall), m + 1, m)
    return np.maximum(m, 1)


def _counts_at_recall_rows(cp, cn, targets=None, recall=None):
    """Per row, (TP, FP) at the first positive group whose TP reaches each target.

    ``targets`` (n_points,) are TP counts shared by the rows (the stratified bootstrap:
    every row has the data's positives); with ``recall`` instead, each row's targets come
    from its own number of positives (the unstratified bootstrap).
    """
    k = cp.shape[1]
    tp = np.cumsum(cp, axis=1)
    fp = np.cumsum(cn[:, :k], axis=1)
    rows = cp.shape[0]
    if targets is None:
        targets = recall_target_counts(recall[None, :], tp[:, -1:])
    else:
        targets = targets[None, :]
    span = tp[:, -1].max() + 1.0
    offsets = np.arange(rows)[:, None] * span
    flat = (tp + offsets).ravel()  # exact integers, increasing across rows
    pos = np.searchsorted(flat, (targets + offsets).ravel(), side="left")
    shape = (rows, targets.shape[1])
    return tp.ravel()[pos].reshape(shape), fp.ravel()[pos].reshape(shape)


def _precision_at_recall_rows(cp, cn, targets=None, recall=None):
    """Per row, precision at the first positive group whose TP reaches each target."""
    tp_at, fp_at = _counts_at_recall_rows(cp, cn, targets, recall)
    return tp_at / (tp_at + fp_at)


def _check_grid(grid_points, kind, score):
    if isinstance(grid_points, numbers.Integral) and not isinstance(grid_points, bool):
        if grid_points < 2:
            raise ValueError(
                f"`grid_points` must be an integer >= 2 or an array; got {plain(grid_points)}"
            )
        if kind == "recall":
            return np.linspace(0.0, 1.0, int(grid_points))
        return np.linspace(float(score.min()), float(score.max()), int(grid_points))
    g = np.asarray(grid_points)
    if g.ndim != 1 or g.shape[0] == 0 or g.dtype.kind not in "iuf" or not np.all(np.isfinite(g)):
        raise ValueError(
            f"`grid_points` must be an integer >= 2 or a non-empty 1-D array of finite "
            f"numbers; got {plain(grid_points)}"
        )
    g = g.astype(np.float64)
    if kind == "recall" and (g.min() < 0 or g.max() > 1):
        raise ValueError(
            f"`grid_points` (recall values) must lie in [0, 1]; got {plain(grid_points)}"
        )
    return g


def _recall_band(bins, points, n_resamples, rng, progress, draw="stratified", logits=False):
    """Replicates (and data value) of precision at each recall of ``points``.

    With ``logits``, also the replicates and the data value of the corrected logit
    (:func:`~bayes_prc.frequentist._supt.corrected_logit`) and the data's binomial
    standard-error floor: ``(reps, logit_reps), (est, logit_est, se_floor)``.
    """
    k = bins.n_groups
    targets = recall_target_counts(points, bins.n_pos)
    reps = np.empty((n_resamples, points.shape[0]))
    logit_reps = np.empty_like(reps) if logits else None
    if use_counts(bins.n) and draw != "cluster":  # per-bin draws, merged bins' ends
        cp0, cn0 = bins.data_counts
        cp_bins, cn_bins, k = coarsen(np.append(cp0[0], 0.0), cn0[0], k)
        blocks = count_blocks(cp_bins, cn_bins, n_resamples, rng, draw, progress)
    else:
        block = _block_size(bins.n, DEFAULT_MEMORY_BUDGET)
        blocks = (
            b[0] for b in _binned_blocks(bins, [bins.spec], n_resamples, rng, draw, block, progress)
        )
    start = 0
    for cp, cn in blocks:
        b = cp.shape[0]
        if draw == "stratified":
            tp_at, fp_at = _counts_at_recall_rows(cp[:, :k], cn, targets)
        else:  # each replicate's own number of positives
            tp_at, fp_at = _counts_at_recall_rows(cp[:, :k], cn, recall=points)
        reps[start : start + b] = tp_at / (tp_at + fp_at)
        if logits:
            logit_reps[start : start + b] = corrected_logit(tp_at, fp_at)
        start += b
    tp_at, fp_at = (v[0] for v in _counts_at_recall_rows(*bins.data_counts, targets))
    est = tp_at / (tp_at + fp_at)
    if logits:
        floor = binomial_se_floor(tp_at, fp_at)
        return (reps, logit_reps), (est, corrected_logit(tp_at, fp_at), floor)
    return (reps,), (est,)


def _threshold_band(bins, points, n_resamples, rng, progress, draw="stratified"):
    """Replicates (and data values) of precision and recall at the thresholds ``points``."""
    levels, pos_bins, neg_bins = bins.threshold_bins
    g = levels.shape[0]
    thr_asc = levels[::-1].astype(np.float64)
    prec = np.empty((n_resamples, points.shape[0]))
    rec = np.empty((n_resamples, points.shape[0]))

    def curve(cp_row, cn_row):
        present = (cp_row + cn_row) > 0
        tp = np.cumsum(cp_row)[present][::-1]
        fp = np.cumsum(cn_row)[present][::-1]
        t = thr_asc[present[::-1]]
        return np.interp(points, t, tp / (tp + fp)), np.interp(points, t, tp / tp[0])

    block = _block_size(bins.n, DEFAULT_MEMORY_BUDGET)
    start = 0
    for ((cp, cn),) in _binned_blocks(
        bins, [(pos_bins, neg_bins, g)], n_resamples, rng, draw, block, progress
    ):
        for r in range(cp.shape[0]):
            prec[start + r], rec[start + r] = curve(cp[r], cn[r])
        start += cp.shape[0]
    est = curve(
        np.bincount(pos_bins, minlength=g).astype(np.float64),
        np.bincount(neg_bins, minlength=g).astype(np.float64),
    )
    return (prec, rec), est


def bootstrap_pr_band(
    y_true,
    y_score,
    *,
    over="recall",
    n_resamples=1000,
    confidence_level=0.95,
    random_seed=None,
    grid_points=101,
    pos_label=None,
    progressbar=None,
    kind="pointwise",
    stratified=True,
    grid=None,
    groups=None,
):
    r"""Pointwise or simultaneous bootstrap band for the precision-recall curve.

    The data are resampled with the stratified bootstrap (each class to its own size;
    the resamples of :func:`bayes_prc.bootstrap.stratified_indices` for the same seed)
    or, with ``stratified=False``, all items jointly; each replicate's PR curve is read
    on a common grid. The pointwise band is the pointwise equal-tailed quantiles across
    replicates; the simultaneous bands are the envelope of the deepest
    ``confidence_level`` share of whole replicate curves (:func:`simultaneous_band`) or
    a studentized sup-t band on the logit scale (``kind="simultaneous_t"``).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels (at least one positive) and scores.
    over : {"recall", "threshold"}, default "recall"
        What the band is drawn over. ``"recall"``: precision as a function of recall. At recall :math:`r > 0` a
        replicate's precision is its precision at the **highest threshold whose recall
        reaches r** (the step function whose integral over recall is the replicate's
        AP); at :math:`r = 0`, the limit from the right (the precision at the highest
        threshold with a positive above it). ``"threshold"``: seed 001's recipe, for each
        replicate precision and recall interpolated linearly (:func:`numpy.interp`,
        constant beyond the ends) between the replicate's distinct thresholds, at common
        thresholds.
    n_resamples : int, default 1000
        Number of bootstrap replicates. From 100 000 items on, the ``over="recall"`` grid's
        replicates are drawn as class counts per score bin (the same distribution, no
        longer the resamples of :func:`~bayes_prc.bootstrap.stratified_indices`), with the
        positives merged into at most 2000 bins: a replicate's precision is then read at
        the end of the merged bin where its recall reaches the grid point (recall steps
        of at most 1/2000; see :mod:`bayes_prc.frequentist._aggregate`).
    confidence_level : float, default 0.95
        Level of the band: pointwise (each grid point separately) for
        ``kind="pointwise"``, for the whole curve for the simultaneous kinds.
    random_seed : None, int or numpy.random.Generator, optional
    grid_points : int or array-like, default 101
        Number of evenly spaced grid points (recall in [0, 1]; thresholds from the lowest
        to the highest score), or the grid itself.
    pos_label : label, optional
    progressbar : bool or None, default None
    kind : {"pointwise", "simultaneous", "simultaneous_t"}, default "pointwise"
        ``"pointwise"``: a band that contains the curve at each grid point with about
        the nominal probability; the whole curve leaves it somewhere much more often.
        ``"simultaneous"``: the extremal-depth envelope (Myllymaki et al. 2017) of the
        ``ceil(confidence_level * n_resamples)`` deepest replicate curves, where a
        curve's depth is its most extreme pointwise rank over the grid, joined with the
        pointwise band; it contains at least that share of whole replicate curves, but
        the true curve less often: in the binormal study of ``docs/coverage.md``
        (section "Simultaneous bootstrap PR bands") 95% bands covered the whole true
        curve on recall 0.02-0.98 in 16-50% (pointwise) and 34-78% (simultaneous) of
        the data sets, and the simultaneous band 74-94% on recall 0.1-0.9. For
        ``over="threshold"`` precision and recall get an envelope each.
        ``"simultaneous_t"`` (``over="recall"`` only): the studentized sup-t band
        (Montiel Olea & Plagborg-Moller 2019; Campbell 1994 for ROC curves) on the
        logit scale. At each grid recall :math:`r`, with :math:`TP, FP` the counts where
        recall first reaches :math:`r`, :math:`\theta(r) = \log((TP + 1/2) / (FP + 1/2))`
        (the logit of :math:`(TP + 1/2) / (TP + FP + 1)`); :math:`se(r)` is the larger of
        the replicates' standard deviation of :math:`\theta^*` and the binomial
        :math:`1 / \sqrt{m \tilde p (1 - \tilde p)}` (:math:`m = TP + FP`,
        :math:`\tilde p` the corrected precision), so it does not collapse where all
        replicates share one precision; :math:`c` is the
        ``ceil(confidence_level * n_resamples)``-th smallest replicate value of
        :math:`\max_r |\theta^*(r) - \theta(r)| / se(r)`; the band is
        :math:`\mathrm{expit}(\theta \pm c\, se)`, joined with the pointwise band. In
        the same study its 95% band covered the whole curve on recall 0.02-0.98 in
        93.5-98% (stratified) and 97.5-99% (unstratified) of the data sets: about
        nominal with the stratified bootstrap, conservative without; it is 1.2-1.8 times
        as wide as the depth envelope, widest where few positives lie above the
        threshold (low recall, small data).
    stratified : bool, default True
        ``False``: the unstratified bootstrap (all items resampled jointly, the number
        of positives varies; a replicate without a positive is redrawn: the bootstrap
        conditioned on at least one positive; the draws of
        :func:`bayes_prc.bootstrap.unstratified_indices`, or per score bin from 100 000
        items on).
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item: whole clusters are resampled (the cluster bootstrap;
        a replicate without a positive is redrawn), in place of the item bootstrap
        (``stratified`` is then ignored). With every cluster a single item, the band
        is the ungrouped one (same seed).
    grid : {"recall", "threshold"}, optional
        Deprecated alias of ``over`` (``grid`` names grid values elsewhere in the
        package).

    Returns
    -------
    xarray.Dataset
        For ``over="recall"``: coordinates ``resample`` and ``recall``; variables
        ``precision`` (resample, recall), the replicate curves; ``lower``, ``median``,
        ``upper``, ``mean``, ``std`` (recall), the band and summaries; ``estimate``
        (recall), the curve of the data read the same way.
        For ``over="threshold"``: coordinates ``resample`` and ``threshold``; variables
        ``precision`` and ``recall`` (resample, threshold); ``lower``, ``median``,
        ``upper``, ``mean``, ``std`` of precision and ``recall_lower``,
        ``recall_median``, ``recall_upper``, ``recall_mean``, ``recall_std``
        (threshold); ``estimate`` and ``recall_estimate`` for the data.
        ``kind="simultaneous_t"`` adds ``se_logit`` (recall), :math:`se(r)`, and the
        attribute ``critical_value`` (:math:`c`).
        Attributes: ``confidence_level``, ``kind``, ``stratified``, ``method``,
        ``grid``, ``n_resamples``, ``n_positives``, ``n_negatives``, ``definition``,
        ``coverage`` (the share of whole replicate precision curves inside
        ``lower``/``upper``: an in-sample check, not the coverage of the true curve) and,
        for ``over="threshold"``, ``recall_coverage``. ``median``, ``mean`` and
        ``std`` are also names of :class:`xarray.Dataset` methods: read those variables
        as ``band["median"]``. ``band.drop_dims("resample").to_dataframe()`` gives the
        band as a table.

    References
    ----------
    Seed 001 ("pr curves"): bootstrap error bars by interpolating each resample's curve
    at common thresholds. Efron, B.; Tibshirani, R. J. (1993). An Introduction to the
    Bootstrap, Chapman & Hall. Myllymaki, M.; Mrkvicka, T.; Grabarnik, P.; Seijo, H.;
    Hahn, U. (2017). "Global envelope tests for spatial processes". JRSS B 79 (2):
    381-404. Montiel Olea, J. L.; Plagborg-Moller, M. (2019). "Simultaneous confidence
    bands: theory, implementation, and an application to SVARs". Journal of Applied
    Econometrics 34 (1): 1-17. Campbell, G. (1994). "Advances in statistical
    methodology for the evaluation of diagnostic and laboratory tests". Statistics in
    Medicine 13: 499-508.

    Examples
    --------
    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.frequentist import bootstrap_pr_band
    >>> y, s = Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> band = bootstrap_pr_band(y, s, n_resamples=200, grid_points=11, random_seed=1)
    >>> band.precision.dims, band.sizes["recall"]
    (('resample', 'recall'), 11)
    >>> bool((band.lower <= band["median"]).all() and (band["median"] <= band.upper).all())
    True
    >>> band = bootstrap_pr_band(y, s, over="threshold", n_resamples=200, random_seed=1)
    >>> band.recall.dims
    ('resample', 'threshold')
    >>> band = bootstrap_pr_band(y, s, kind="simultaneous", n_resamples=200, random_seed=1)
    >>> band.attrs["kind"], band.attrs["coverage"] >= 0.95
    ('simultaneous', True)
    >>> band = bootstrap_pr_band(y, s, kind="simultaneous_t", n_resamples=200, random_seed=1)
    >>> bool(band.attrs["critical_value"] > 1.96 and (band.se_logit > 0).all())
    True
    """
    import xarray as xr

    if grid is not None:
        warnings.warn(
            "bootstrap_pr_band(grid=...) is deprecated; use over=...",
            DeprecationWarning,
            stacklevel=2,
        )
        over = grid
    grid = check_choice(over, "over", ("recall", "threshold"))
    kind = check_choice(kind, "kind", BAND_KINDS)
    if not isinstance(stratified, (bool, np.bool_)):
        raise ValueError(f"`stratified` must be True or False; got {plain(stratified)}")
    draw = "stratified" if stratified else "unstratified"
    n_resamples = check_int(n_resamples, "n_resamples")
    level = check_probability(confidence_level)
    progressbar = check_progressbar(progressbar)
    bins = _Bins(_prepare(y_true, y_score, pos_label))
    if bins.n_pos == 0:
        raise ValueError("`y_true` has no positive sample; recall is undefined")
    clusters = None if groups is None else check_groups(groups, bins.n)
    if clusters is not None and not clusters.singletons:
        bins.clusters, draw = clusters, "cluster"
    points = _check_grid(grid_points, grid, bins.ranked.y_score)
    rng = check_random_state(random_seed)
    alpha = (1.0 - level) / 2.0
    progress = Progress(n_resamples, "bootstrap_pr_band", progressbar)
    if kind == "simultaneous_t" and grid != "recall":
        raise ValueError(
            f'`kind="simultaneous_t"` needs `over="recall"` (it reads the counts TP, FP '
            f"where recall reaches each grid point); got over={grid!r}"
        )
    try:
        if grid == "recall":
            curves, estimates = _recall_band(
                bins, points, n_resamples, rng, progress, draw, logits=kind == "simultaneous_t"
            )
        else:
            curves, estimates = _threshold_band(bins, points, n_resamples, rng, progress, draw)
    finally:
        progress.close()

    extra = {}
    if kind == "simultaneous_t":  # the sup-t band on the logit scale (see _supt)
        logit_lo, logit_hi, crit, se = sup_t_band(estimates[1], curves[1], estimates[2], level)
        supt = (_expit(logit_lo), _expit(logit_hi))
        extra = {"critical_value": crit}
        curves, estimates = curves[:1], estimates[:1]
        se_logit = se

    shares = {}

    def summaries(values, prefix):
        q = np.quantile(values, [alpha, 0.5, 1.0 - alpha], axis=0)
        lower, upper = q[0], q[2]
        if kind == "simultaneous":
            lower, upper, share = simultaneous_band(values.T, level, lower, upper)
        elif kind == "simultaneous_t":
            lower, upper = np.minimum(supt[0], lower), np.maximum(supt[1], upper)
            inside = (values >= lower - 1e-12) & (values <= upper + 1e-12)
            share = float(np.all(inside, axis=1).mean())
        else:
            inside = (values >= lower - 1e-12) & (values <= upper + 1e-12)
            share = float(np.all(inside, axis=1).mean())
        shares[f"{prefix}coverage"] = share
        return {
            f"{prefix}lower": lower,
            f"{prefix}median": q[1],
            f"{prefix}upper": upper,
            f"{prefix}mean": values.mean(axis=0),
            f"{prefix}std": values.std(axis=0, ddof=1)
            if n_resamples > 1
            else np.full_like(q[0], np.nan),
        }

    dims = ("resample", grid)
    names = ("precision", "recall")[: len(curves)]
    data = {name: (dims, values) for name, values in zip(names, curves, strict=True)}
    for name, value in zip(("estimate", "recall_estimate"), estimates, strict=False):
        data[name] = ((grid,), value)
    for prefix, values in zip(("", "recall_"), curves, strict=False):
        data.update({k: ((grid,), v) for k, v in summaries(values, prefix).items()})
    definition = (
        "precision at recall r: precision at the highest threshold whose recall is >= r "
        "(r = 0: limit from the right)"
        if grid == "recall"
        else "precision and recall of score >= t, linearly interpolated between each "
        "replicate's distinct thresholds (seed 001)"
    )
    coords = {"resample": np.arange(n_resamples), dims[1]: points}
    band_name = {
        "pointwise": "pointwise equal-tailed percentile band",
        "simultaneous": "simultaneous extremal-depth envelope of the replicate curves",
        "simultaneous_t": "simultaneous studentized sup-t band on the logit scale",
    }[kind]
    if kind == "simultaneous_t":
        data["se_logit"] = ((grid,), se_logit)
    attrs = {
        "confidence_level": level,
        "kind": kind,
        "stratified": bool(stratified) and draw != "cluster",
        "method": f"{draw} bootstrap, {band_name}",
        "over": grid,
        "grid": grid,  # the attribute's former name, kept
        "n_resamples": n_resamples,
        "n_positives": bins.n_pos,
        "n_negatives": bins.n_neg,
        "definition": definition,
        **shares,
        **extra,
    }
    if draw == "cluster":
        attrs["n_clusters"] = clusters.n_clusters
    return xr.Dataset(data, coords=coords, attrs=attrs)
