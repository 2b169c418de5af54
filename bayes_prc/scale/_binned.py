"""The binned precision-recall curve: exact points at bin thresholds, AP with a bound."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from .._core import plain
from ..empirical import pr_from_counts
from ..exceptions import BayesPRCWarning
from ._blocks import _aligned, _block_checks, _map_reduce, _merge_checks, _raise_invalid
from ._options import _OPTIONS, GRIDS, _check_option

__all__ = ["BinnedCurveWarning", "BinnedPRCurve", "binned_pr_curve"]


class BinnedCurveWarning(BayesPRCWarning):
    """A curve or AP was computed from score bins because the data exceed ``max_exact``.

    The message states the number of bins and, for AP, the error bound.
    """


@dataclass(frozen=True)
class BinnedPRCurve:
    r"""Precision-recall curve at bin thresholds, and AP with a guaranteed error bound.

    Attributes
    ----------
    precision, recall : ndarray of float64, shape (n_bins + 1,)
        As in :func:`bayes_prc.precision_recall_curve`: increasing thresholds, then the
        point (recall 0, precision 1). Every point is an exact point of the empirical
        curve.
    thresholds : ndarray, shape (n_bins,)
        The lowest score of each non-empty bin, increasing (real scores, dtype of
        ``y_score``). Precision and recall at ``score >= thresholds[i]`` are exact.
    tps, fps : ndarray of float64, shape (n_bins,)
        Positives and negatives with ``score >= thresholds[i]``.
    average_precision : float
        The step area of this curve, i.e. AP as if the scores of each bin were tied.
    ap_low, ap_high : float
        Guaranteed bounds of the exact AP (computed from the bin counts alone).
    ap_error_bound : float
        ``max(average_precision - ap_low, ap_high - average_precision)``: the exact AP is
        within this distance of ``average_precision``.
    n_samples, n_positive : int
        Number of items and of positives.
    grid : str
        How the bin edges were placed (``"explicit"`` for given edges).

    Notes
    -----
    **The bound.** Number the non-empty bins from the top; bin :math:`j` holds
    :math:`p_j` positives and :math:`n_j` negatives, and :math:`T_j`, :math:`F_j`
    positives and negatives score in higher bins. The exact AP is
    :math:`\frac1P\sum_i \mathrm{prec}_i` over the positives, with
    :math:`\mathrm{prec}_i = (T_j + a)/(T_j + F_j + a + b)` for a positive of bin
    :math:`j` that has :math:`a` positives (itself and its ties included, so
    :math:`k \le a \le p_j` for the :math:`k`-th positive of the bin) and
    :math:`0 \le b \le n_j` negatives of its bin at or above its score. Hence

    .. math::

        \sum_{k=1}^{p_j} \frac{T_j + k}{T_j + F_j + n_j + k}
        \;\le\; \sum_{i \in j} \mathrm{prec}_i \;\le\;
        p_j \, \frac{T_j + p_j}{T_j + F_j + p_j},

    the left sum in closed form,
    :math:`p_j - (F_j + n_j)\,[\psi(C_j + p_j + 1) - \psi(C_j + 1)]` with
    :math:`C_j = T_j + F_j + n_j`. Summed over bins and divided by :math:`P` these are
    ``ap_low`` and ``ap_high``. A bin whose items all have the same score is exact (the
    exact curve treats them as one tie group too), so it adds nothing to the bound. The
    binned AP, :math:`\frac1P\sum_j p_j (T_j + p_j)/(T_j + F_j + p_j + n_j)`, lies in
    between.

    Within a bin, precision changes by at most about (items in the bin) / (items ranked
    above it), so ``ap_error_bound`` is at most about the largest such ratio over the
    bins holding positives. The ``"tail"`` grid keeps that ratio near
    :math:`\ln(n) / \mathrm{bins}` for every bin.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    tps: np.ndarray
    fps: np.ndarray
    average_precision: float
    ap_low: float
    ap_high: float
    ap_error_bound: float
    n_samples: int
    n_positive: int
    grid: str

    @property
    def n_bins(self):
        """Number of non-empty bins, i.e. of thresholds."""
        return int(self.thresholds.shape[0])


def _check_bins(bins, grid):
    bins = _OPTIONS["bins"] if bins is None else bins
    grid = _OPTIONS["grid"] if grid is None else grid
    if grid not in GRIDS:
        raise ValueError(f"`grid` must be one of {GRIDS}; got {plain(grid)}")
    if np.ndim(bins) == 1:
        edges = np.asarray(bins, dtype=np.float64)
        if edges.size == 0 or not np.all(np.isfinite(edges)) or np.any(np.diff(edges) <= 0):
            raise ValueError(
                "`bins` given as edges must be a non-empty, finite, strictly increasing "
                f"sequence; got {plain(bins)}"
            )
        return edges, "explicit"
    bins = _check_option("bins", bins)
    return bins, grid


def binned_pr_curve(y_true, y_score, *, bins=None, grid=None, pos_label=None):
    """The PR curve at score-bin thresholds and AP with an error bound, for any data size.

    Two passes over the data (lazy and parallel for dask input; numpy input works too,
    without dask): the first validates the data and summarizes the score distribution
    (a mergeable sketch of its quantiles), from which the bin edges are chosen; the
    second counts all items and the positives in each bin (per block, summed in a tree).

    Parameters
    ----------
    y_true, y_score : array-like or dask array of shape (n_samples,)
        Binary labels and scores (see :func:`bayes_prc.precision_recall_curve`).
    bins : int or array-like of float, default ``get_options()["bins"]`` (262,144)
        Number of bins, or increasing bin edges (items below the first edge form one more
        bin).
    grid : {"tail", "quantile", "uniform"}, default ``get_options()["grid"]`` ("tail")
        Where the edges go when ``bins`` is a number.

        ``"tail"``
            Approximate quantiles at geometrically spaced upper-tail fractions, from the
            highest score down to the lowest: every bin holds about the same fraction
            (~ln(n)/bins) of the items ranked above it, which is what the AP error
            depends on. The default.
        ``"quantile"``
            Approximate equal-count bins. The bound is loose at the top of the ranking,
            where a bin of n/bins items may hold most of the positives ranked there.
        ``"uniform"``
            Equal-width bins between the lowest and the highest score (cheapest edges;
            poor for scores piled up near 0 or 1).
    pos_label : label, default None
        The positive label (as for :func:`bayes_prc.precision_recall_curve`).

    Returns
    -------
    BinnedPRCurve
        ``precision``, ``recall``, ``thresholds`` (exact points of the empirical curve),
        ``average_precision`` with ``ap_low``, ``ap_high`` and ``ap_error_bound``.

    Warns
    -----
    UndefinedMetricWarning
        If ``y_true`` has no positive: recall is set to one and AP is 0.

    Notes
    -----
    The quantile sketch only decides where the edges go: the counts, the curve and the
    bound never depend on its accuracy. See :class:`BinnedPRCurve` for the bound.

    Examples
    --------
    >>> import dask.array as da
    >>> import bayes_prc as bp
    >>> from bayes_prc.scale import binned_pr_curve
    >>> y, s = bp.Binormal(2, 1, 0, 1, 0.05).sample(40_000, random_seed=1)
    >>> res = binned_pr_curve(da.from_array(y, chunks=10_000), da.from_array(s, chunks=10_000),
    ...                       bins=1024)
    >>> res.n_bins <= 1024, res.precision.shape == res.recall.shape == (res.n_bins + 1,)
    (True, True)
    >>> exact = bp.average_precision_score(y, s)
    >>> bool(abs(res.average_precision - exact) <= res.ap_error_bound < 0.01)
    True
    """
    bins, grid = _check_bins(bins, grid)
    blocks = _aligned(y_true, y_score)
    return _binned(blocks, bins, grid, pos_label)


def _binned(blocks, bins, grid, pos_label, *, ap_pos_label=False, drop_intermediate=False):
    sketch_k = bins if grid in ("tail", "quantile") else 0
    scan = _map_reduce(blocks, _scan_block, _merge_scan, pos_label, sketch_k)
    _raise_invalid(scan, pos_label, ap_pos_label=ap_pos_label)
    blocks.n = scan["n"]
    edges = bins if grid == "explicit" else _grid_edges(scan, bins, grid)
    hist = _map_reduce(blocks, _hist_block, _merge_hist, pos_label, edges)
    return _binned_result(hist, grid, blocks.score_dtype, drop_intermediate)


def _sketch_ranks(n, k):
    """Ranks (1 = highest) a sketch of ``n`` values keeps: geometric and linear, ~2k."""
    if n <= 2 * k:
        return np.arange(1, n + 1, dtype=np.float64)
    ranks = np.concatenate([np.geomspace(1, n, k), np.linspace(1, n, k)])
    return np.unique(np.round(ranks))


def _scan_block(y, s, i, pos_label, sketch_k):
    """Pass 1 on one block: validation, min and max, quantile sketch of the scores."""
    info, y, s, is_pos = _block_checks(y, s, i, pos_label)
    info["n_pos"] = int(is_pos.sum())
    info["sketch_k"] = sketch_k
    if info["bad"] is not None or s.size == 0:
        info.update(min=np.inf, max=-np.inf, sketch=None)
        return info
    srt = np.sort(s.astype(np.float64, copy=False))
    info["min"], info["max"] = float(srt[0]), float(srt[-1])
    info["sketch"] = None
    if sketch_k:
        n = srt.shape[0]
        ranks = _sketch_ranks(n, sketch_k)
        v = np.unique(srt[n - ranks.astype(np.int64)])
        count_ge = n - np.searchsorted(srt, v, side="left")  # exact within the block
        info["sketch"] = (v, count_ge.astype(np.float64), float(n))
    return info


def _merge_sketches(sketches, k):
    """One sketch of the union: counts summed by interpolation, then thinned to ~2k."""
    sketches = [sk for sk in sketches if sk is not None]
    if not sketches:
        return None
    if len(sketches) == 1:
        return sketches[0]
    v = np.unique(np.concatenate([sk[0] for sk in sketches]))
    count = np.zeros_like(v)
    for sv, sc, sn in sketches:
        count += np.interp(v, sv, sc, left=sn, right=0.0)
    n = sum(sk[2] for sk in sketches)
    ranks = _sketch_ranks(int(n), k)
    if ranks.size < v.size:  # thin: values at the kept ranks (count decreases with v)
        keep = np.interp(ranks, count[::-1], v[::-1])
        keep = np.unique(np.concatenate([keep, v[[0, -1]]]))
        count = np.interp(keep, v, count)
        v = keep
    return v, count, n


def _merge_scan(infos):
    out = _merge_checks(infos)
    out["n_pos"] = sum(info["n_pos"] for info in infos)
    out["min"] = min(info["min"] for info in infos)
    out["max"] = max(info["max"] for info in infos)
    out["sketch_k"] = infos[0]["sketch_k"]
    out["sketch"] = _merge_sketches([info["sketch"] for info in infos], out["sketch_k"])
    return out


def _grid_edges(scan, bins, grid):
    """Increasing bin edges from the merged scan."""
    lo, hi, n = scan["min"], scan["max"], float(scan["n"])
    if grid == "uniform" or lo == hi:
        if lo == hi:
            return np.array([lo])
        return lo + (hi - lo) * (np.arange(bins) / bins)
    j = np.arange(bins, dtype=np.float64)
    if grid == "quantile":
        count_ge = n * (1.0 - j / bins)
    else:  # tail: from n items at or above the lowest edge down to 1 at the highest
        count_ge = n ** (1.0 - j / max(bins - 1, 1))
    v, count, _ = scan["sketch"]
    edges = np.interp(count_ge, count[::-1], v[::-1])
    return np.unique(np.concatenate([[lo], edges]))


def _hist_block(y, s, i, pos_label, edges):
    """Pass 2 on one block: items and positives per bin, lowest and highest score per bin.

    Bin 0 holds the scores below ``edges[0]``, bin ``j`` those in
    ``[edges[j-1], edges[j])``, the last bin those at or above ``edges[-1]``.
    """
    y = np.asarray(y)
    is_pos = np.asarray(y == (1 if pos_label is None else pos_label), dtype=bool)
    if is_pos.shape != y.shape:
        is_pos = np.zeros(y.shape, dtype=bool)
    s = np.asarray(s).astype(np.float64, copy=False)
    srt = np.sort(s)
    bounds = np.concatenate(([0], np.searchsorted(srt, edges, side="left"), [srt.size]))
    count = np.diff(bounds)
    pos = np.sort(s[is_pos])
    pos_bounds = np.concatenate(([0], np.searchsorted(pos, edges, side="left"), [pos.size]))
    count_pos = np.diff(pos_bounds)
    filled = count > 0
    low = np.full(count.shape, np.inf)
    high = np.full(count.shape, -np.inf)
    low[filled] = srt[bounds[:-1][filled]]
    high[filled] = srt[bounds[1:][filled] - 1]
    return count, count_pos, low, high


def _merge_hist(parts):
    count, count_pos, low, high = (np.array(a, copy=True) for a in parts[0])
    for c, cp, lo, hi in parts[1:]:
        count += c
        count_pos += cp
        np.minimum(low, lo, out=low)
        np.maximum(high, hi, out=high)
    return count, count_pos, low, high


def _harmonic_diff(c, p):
    """``sum_{k=1..p} 1 / (c + k)`` = psi(c + p + 1) - psi(c + 1), accurately, elementwise.

    For ``c + 1 >= 100`` the difference of digammas is taken from their asymptotic
    series (the log1p term carries the size, the corrections are small differences
    computed without cancellation); truncation error < 1 / (252 (c + 1)^6).
    """
    c = np.asarray(c, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    x = c + 1.0
    out = np.empty_like(x)
    big = x >= 100.0
    xb, pb = x[big], p[big]
    xp = xb + pb
    out[big] = (
        np.log1p(pb / xb)
        + pb / (2.0 * xb * xp)
        + pb * (2.0 * xb + pb) / (12.0 * xb**2 * xp**2)
        - (1.0 / xb**4 - 1.0 / xp**4) / 120.0
    )
    out[~big] = special.digamma(x[~big] + p[~big]) - special.digamma(x[~big])
    return out


def _binned_result(hist, grid, score_dtype, drop_intermediate=False, warn=True):
    count, count_pos, low, high = hist
    filled = count > 0
    count = count[filled].astype(np.float64)
    p = count_pos[filled].astype(np.float64)
    single = low[filled] == high[filled]  # one distinct score: the bin is one tie group
    low = low[filled]
    neg = count - p
    # counts at or above each bin's lowest score (bins ascending)
    tps = np.cumsum(p[::-1])[::-1]
    fps = np.cumsum(neg[::-1])[::-1]
    n_pos = float(tps[0]) if tps.size else 0.0
    dtype = np.dtype(np.int64) if np.dtype(score_dtype).kind == "b" else np.dtype(score_dtype)
    thresholds = low.astype(dtype)
    precision, recall, thresholds_out = pr_from_counts(
        fps[::-1].copy(), tps[::-1].copy(), thresholds[::-1], drop_intermediate, warn
    )
    keep = np.isin(thresholds, thresholds_out) if drop_intermediate else slice(None)
    tps_out, fps_out = tps[keep], fps[keep]
    if n_pos == 0:
        ap = ap_low = ap_high = 0.0
    else:
        t_above, f_above = tps - p, fps - neg
        has = p > 0
        T, F, pj, nj = t_above[has], f_above[has], p[has], neg[has]
        tie = pj * (T + pj) / (T + F + pj + nj)
        up = pj * (T + pj) / (T + F + pj)
        lo = pj - (F + nj) * _harmonic_diff(T + F + nj, pj)
        exact = single[has] | (nj == 0) & (F == 0)
        up = np.where(exact, tie, np.maximum(up, tie))
        lo = np.where(exact, tie, np.minimum(lo, tie))
        ap = float(np.sum(tie) / n_pos)
        # widen by the round-off of the sums (terms <= 1, relative error ~1e-16 each)
        slack = 4 * np.finfo(float).eps * (pj.size + 8) + 1e-15
        ap_low = max(0.0, float(np.sum(lo) / n_pos) - slack)
        ap_high = min(1.0, float(np.sum(up) / n_pos) + slack)
    return BinnedPRCurve(
        precision=precision,
        recall=recall,
        thresholds=thresholds_out,
        tps=tps_out,
        fps=fps_out,
        average_precision=ap,
        ap_low=ap_low,
        ap_high=ap_high,
        ap_error_bound=max(ap - ap_low, ap_high - ap),
        n_samples=int(count.sum()),
        n_positive=int(n_pos),
        grid=grid,
    )


def _up(x, digits=2):
    """``x`` rounded *up* to ``digits`` significant digits, as text (stated bounds)."""
    if not x > 0:
        return "0"
    step = 10.0 ** (np.floor(np.log10(x)) - digits + 1)
    return f"{np.ceil(x / step) * step:.{digits}g}"


def ap_bounds_text(res, decimals=6):
    """``[ap_low, ap_high]`` as text, rounded outwards so that the printed interval still holds.

    Parameters
    ----------
    res : BinnedPRCurve
        A binned curve (:func:`binned_pr_curve`).
    decimals : int, default 6
        Decimals printed.

    Returns
    -------
    str
    """
    scale_ = 10.0**decimals
    low = np.floor(res.ap_low * scale_) / scale_
    high = np.ceil(res.ap_high * scale_) / scale_
    return f"[{low:.{decimals}f}, {high:.{decimals}f}]"
