"""Past one machine: dask-backed input for PR curves, average precision and the binormal fit.

bayes_prc does not bring its own distributed engine. Dask arrays (``dask.array.Array``),
dask-backed ``xarray.DataArray`` objects, dask Series and Parquet data read with
:func:`read_parquet` are accepted by :func:`bayes_prc.fit_binormal`,
:func:`bayes_prc.average_precision_score`, :func:`bayes_prc.precision_recall_curve` and
:func:`bayes_prc.auc_pr` (binary labels): those functions hand such input to this module,
which describes the work as dask tasks, one per block, reduced in a tree, and runs it on
whatever scheduler is active (the threaded scheduler by default, a
``dask.distributed.Client`` when one exists). dask itself is imported only here and only
inside functions, so ``import bayes_prc`` never imports it.

What is computed, and at which cost:

* **Binormal fit**: the likelihood depends on the data only through per-class counts,
  means and sums of squared deviations. :func:`class_statistics` gets them in one lazy
  pass (per block ``(n, mean, M2)``, merged with Chan et al.'s parallel update, not with
  a naive sum of squares), then the posterior code of :func:`bayes_prc.fit_binormal` runs
  on them: past the pass, a fit on 10^8 items costs what it costs on 10^3.
* **Exact curves and AP** when the data fit in memory: up to ``max_exact`` items
  (default 5e7, :func:`set_options`) the arrays are computed into numpy and the exact
  in-memory core runs: same numbers, bit for bit, as for numpy input.
* **Binned curves and AP** beyond ``max_exact``: :func:`binned_pr_curve` counts the
  positives and all items in score bins (two passes: a scan that validates the data and
  sketches the score distribution for the bin edges, then the histogram). The curve's
  points are *exact*: each threshold is the lowest score of a bin, a real score, and
  precision and recall there are the exact empirical ones. Only the AP is approximate,
  and a bound computed from the bin counts alone comes with it (see
  :class:`BinnedPRCurve`).

Examples
--------
>>> import dask.array as da
>>> import bayes_prc as bp
>>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.1).sample(20_000, random_seed=0)
>>> Y, S = da.from_array(y, chunks=5_000), da.from_array(s, chunks=5_000)
>>> bp.average_precision_score(Y, S) == bp.average_precision_score(y, s)  # exact path
True
>>> res = binned_pr_curve(Y, S, bins=512)  # what runs past max_exact
>>> bool(res.ap_low <= bp.average_precision_score(y, s) <= res.ap_high)
True
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special

from ._ranking import _check_bool, _is_dask, _pr_from_counts
from ._validation import check_binary_target, unique_labels
from .exceptions import BayesPRCWarning

__all__ = [
    "BinnedCurveWarning",
    "BinnedPRCurve",
    "GRIDS",
    "binned_pr_curve",
    "class_statistics",
    "get_options",
    "read_parquet",
    "set_options",
]

GRIDS = ("tail", "quantile", "uniform")

# defaults in one place; change them with set_options
_OPTIONS = {
    "max_exact": 50_000_000,  # items computed into memory for the exact curve / AP
    "bins": 262_144,  # score bins of the binned curve
    "grid": "tail",  # how the bin edges are placed
    "split_every": 8,  # fan-in of the tree reductions
}

_MAX_LABELS = 12  # distinct labels kept per block: enough to show a non-binary y_true


class BinnedCurveWarning(BayesPRCWarning):
    """A curve or AP was computed from score bins because the data exceed ``max_exact``.

    The message states the number of bins and, for AP, the error bound.
    """


# --------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------
def _check_option(name, value):
    if name not in _OPTIONS:
        raise ValueError(f"unknown option {name!r}; valid options are {sorted(_OPTIONS)}")
    if name == "grid":
        if value not in GRIDS:
            raise ValueError(f"`grid` must be one of {GRIDS}; got {value!r}")
        return value
    minimum = {"max_exact": 0, "bins": 1, "split_every": 2}[name]
    ok = isinstance(value, (int, np.integer, float)) and not isinstance(value, bool)
    if not ok or value != int(value) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {value!r}")
    return int(value)


class set_options:  # a class used like a function, as xarray.set_options
    """Set the defaults of :mod:`bayes_prc.scale`, globally or inside a ``with`` block.

    Parameters
    ----------
    max_exact : int, default 50_000_000
        Dask input with at most this many items is computed into memory and goes through
        the exact numpy core (peak driver memory, float64 scores and boolean labels:
        about 32 bytes per item for AP, 52 for the full curve, so 1.6 and 2.6 GB at the
        default); larger input gets the binned curve and a bounded AP.
    bins : int, default 262_144
        Number of score bins of the binned curve.
    grid : {"tail", "quantile", "uniform"}, default "tail"
        Bin edges: see :func:`binned_pr_curve`.
    split_every : int, default 8
        Fan-in of the tree reductions (how many block results one task merges).

    Examples
    --------
    >>> from bayes_prc import scale
    >>> with scale.set_options(max_exact=1000, bins=128):
    ...     scale.get_options()["bins"]
    128
    >>> scale.get_options()["bins"]
    262144
    """

    def __init__(self, **options):
        checked = {k: _check_option(k, v) for k, v in options.items()}
        self._old = {k: _OPTIONS[k] for k in checked}
        _OPTIONS.update(checked)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _OPTIONS.update(self._old)


def get_options():
    """The current defaults of :mod:`bayes_prc.scale` (a copy), see :func:`set_options`."""
    return dict(_OPTIONS)


# --------------------------------------------------------------------------------------
# Input: dask collections, aligned block by block
# --------------------------------------------------------------------------------------
def _import_dask():
    try:
        import dask
        import dask.array
    except ImportError:  # pragma: no cover - dask is installed with bayes_prc[dask]
        raise ImportError("dask input needs dask: pip install 'bayes_prc[dask]'") from None
    return dask


def _as_dask_array(x, name):
    """A dask array from a dask array, dask Series or dask-backed DataArray."""
    dask = _import_dask()
    if hasattr(x, "dims"):  # xarray.DataArray
        x = x.data
    if not isinstance(x, dask.array.Array):
        if hasattr(x, "to_dask_array"):  # dask Series / DataFrame
            x = x.to_dask_array()
        else:
            raise TypeError(f"`{name}` is a dask object of type {type(x).__name__}, not an array")
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(
            f"`{name}` must be 1-dimensional for dask input; got an array of shape {x.shape}"
        )
    return x


def _known(n):
    return not (isinstance(n, float) and np.isnan(n))


@dataclass
class _Blocks:
    """Aligned (y_true, y_score) blocks: numpy arrays, or dask Delayed when ``lazy``."""

    pairs: list
    lazy: bool
    n: int | None
    score_dtype: np.dtype


def _blocks(y_true, y_score):
    """Align the two inputs block by block (``y_score`` is rechunked like ``y_true``)."""
    if not (_is_dask(y_true) or _is_dask(y_score)):
        from ._validation import check_1d, check_consistent_length

        y = check_1d(y_true, "y_true")
        s = check_1d(y_score, "y_score")
        check_consistent_length(y_true=y, y_score=s)
        _check_score_dtype(s.dtype)
        return _Blocks([(y, s)], False, int(s.shape[0]), s.dtype)
    dask = _import_dask()
    da = dask.array
    if _is_dask(y_true):
        y = _as_dask_array(y_true, "y_true")
    if _is_dask(y_score):
        s = _as_dask_array(y_score, "y_score")
    if not _is_dask(y_true):
        if not _known(s.shape[0]):
            s = s.compute_chunk_sizes()
        y = da.from_array(_numpy_1d(y_true, "y_true", s.shape[0]), chunks=s.chunks)
    if not _is_dask(y_score):
        if not _known(y.shape[0]):
            y = y.compute_chunk_sizes()
        s = da.from_array(_numpy_1d(y_score, "y_score", y.shape[0]), chunks=y.chunks)
    _check_score_dtype(s.dtype)
    n = None
    if _known(y.shape[0]) and _known(s.shape[0]):
        if y.shape[0] != s.shape[0]:
            raise ValueError(
                "inputs have inconsistent numbers of samples: "
                f"`y_true` has {y.shape[0]}, `y_score` has {s.shape[0]}"
            )
        if y.shape[0] == 0:
            raise ValueError("`y_true` is empty; at least one sample is required")
        if s.chunks != y.chunks:
            s = s.rechunk(y.chunks)
        n = int(y.shape[0])
    elif y.numblocks != s.numblocks:
        raise ValueError(
            f"`y_true` and `y_score` have unknown chunk sizes and different numbers of "
            f"blocks ({y.numblocks[0]} and {s.numblocks[0]}); call .compute_chunk_sizes() "
            "on them first"
        )
    # unoptimized graphs keep the keys the two arrays share (a common source, say), so
    # that such work is done once per pass; optimizing them fuses it into both
    yb = y.to_delayed(optimize_graph=False).ravel().tolist()
    sb = s.to_delayed(optimize_graph=False).ravel().tolist()
    return _Blocks(list(zip(yb, sb, strict=True)), True, n, s.dtype)


def _numpy_1d(x, name, n):
    from ._validation import check_1d

    arr = check_1d(x, name)
    if _known(n) and arr.shape[0] != n:
        other = "y_score" if name == "y_true" else "y_true"
        raise ValueError(
            f"inputs have inconsistent numbers of samples: `{name}` has {arr.shape[0]}, "
            f"`{other}` has {n}"
        )
    return arr


def _check_score_dtype(dtype):
    if np.dtype(dtype).kind not in "biuf":
        raise ValueError(f"`y_score` must be numeric; got dtype {dtype}")


def _map_reduce(blocks, block_fn, combine_fn, *args):
    """``combine_fn([block_fn(y, s, i, *args) for each block])``, as a dask tree if lazy."""
    if not blocks.lazy:
        return combine_fn([block_fn(y, s, i, *args) for i, (y, s) in enumerate(blocks.pairs)])
    dask = _import_dask()
    delayed = dask.delayed
    # large arguments (bin edges) become one key shared by all tasks, not a copy per task
    args = [delayed(a, pure=True) if isinstance(a, np.ndarray) and a.size > 64 else a for a in args]
    parts = [delayed(block_fn, pure=True)(y, s, i, *args) for i, (y, s) in enumerate(blocks.pairs)]
    split = _OPTIONS["split_every"]
    while len(parts) > 1:
        parts = [
            delayed(combine_fn, pure=True)(parts[i : i + split])
            for i in range(0, len(parts), split)
        ]
    if len(blocks.pairs) == 1:
        parts = [delayed(combine_fn, pure=True)(parts)]
    (out,) = dask.compute(parts[0])
    return out


def _n_items(blocks):
    """Number of items; one pass over the labels when the chunk sizes are unknown."""
    if blocks.n is None:
        dask = _import_dask()
        lengths = dask.compute([dask.delayed(len)(y) for y, _ in blocks.pairs])[0]
        blocks.n = int(sum(lengths))
    return blocks.n


def _compute_numpy(blocks, sample_weight=None):
    """The whole input as numpy arrays (the exact path)."""
    if not blocks.lazy:
        y, s = blocks.pairs[0]
        return y, s, sample_weight
    dask = _import_dask()
    ys, ss = zip(*blocks.pairs, strict=True)
    w = sample_weight
    if _is_dask(w):
        w = _as_dask_array(w, "sample_weight")
    y_parts, s_parts, w = dask.compute(list(ys), list(ss), w)
    return np.concatenate(y_parts), np.concatenate(s_parts), w


# --------------------------------------------------------------------------------------
# Validation shared by the passes: every block reports, the driver raises
# --------------------------------------------------------------------------------------
def _distinct(values):
    """Sorted distinct values (object arrays of mixed types keep first-seen order)."""
    values = np.asarray(values)
    try:
        return unique_labels(values)
    except TypeError:
        return np.asarray(list(dict.fromkeys(values.tolist())), dtype=object)


def _block_checks(y, s, i, pos_label):
    """Per-block labels, bad scores and length mismatch; also the positive mask."""
    y = np.asarray(y)
    s = np.asarray(s)
    labels = _distinct(y)
    info = {
        "n": int(s.shape[0]),
        "labels": labels[:_MAX_LABELS],
        "many_labels": labels.size > _MAX_LABELS,
        "mismatch": None if y.shape[0] == s.shape[0] else (i, y.shape[0], s.shape[0]),
        "bad": None,  # (block, position, value, count) of the first non-finite score
    }
    if s.dtype.kind == "f":
        bad = ~np.isfinite(s)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            info["bad"] = (i, j, s[j].item(), int(bad.sum()))
    is_pos = np.asarray(y == (1 if pos_label is None else pos_label), dtype=bool)
    if is_pos.shape != y.shape:  # comparison of incompatible types
        is_pos = np.zeros(y.shape, dtype=bool)
    return info, y, s, is_pos


def _merge_checks(infos):
    labels = _distinct(np.concatenate([info["labels"] for info in infos]))
    mismatches = [info["mismatch"] for info in infos if info["mismatch"] is not None]
    bads = [info["bad"] for info in infos if info["bad"] is not None]
    bad = None
    if bads:
        first = min(bads, key=lambda b: (b[0], b[1]))
        bad = (*first[:3], sum(b[3] for b in bads))
    return {
        "n": sum(info["n"] for info in infos),
        "labels": labels[:_MAX_LABELS],
        "many_labels": labels.size > _MAX_LABELS or any(info["many_labels"] for info in infos),
        "mismatch": min(mismatches) if mismatches else None,
        "bad": bad,
    }


def _raise_invalid(info, pos_label, *, ap_pos_label=False):
    """Raise the errors of the in-memory validation, from the merged block reports."""
    if info["mismatch"] is not None:
        b, ny, ns = info["mismatch"]
        raise ValueError(
            "inputs have inconsistent numbers of samples: in block "
            f"{b}, `y_true` has {ny} and `y_score` has {ns}"
        )
    if info["n"] == 0:
        raise ValueError("`y_true` is empty; at least one sample is required")
    if info["bad"] is not None:
        b, j, value, count = info["bad"]
        what = "NaN" if np.isnan(value) else "an infinite value"
        raise ValueError(
            f"`y_score` contains {what} ({value!r} in block {b} at position {j}; {count} "
            "non-finite value(s) in all); scores must be finite"
        )
    labels = info["labels"]
    if info["many_labels"] or labels.size > 2:
        shown = ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in labels[:10])
        raise ValueError(
            f"`y_true` must be binary (at most two distinct labels) here; got "
            f"{'more than ' + str(_MAX_LABELS) if info['many_labels'] else labels.size} "
            f"labels: [{shown}{', ...' if labels.size > 10 else ''}]"
        )
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError(f"`y_true` contains a non-finite label ({labels[-1].item()!r})")
    if ap_pos_label and labels.size == 2 and pos_label not in labels.tolist():
        raise ValueError(
            f"`pos_label`={pos_label!r} is not a valid label: it should be one of {labels.tolist()}"
        )
    check_binary_target(labels, pos_label)  # the pos_label rules of the in-memory path


# --------------------------------------------------------------------------------------
# The binned curve
# --------------------------------------------------------------------------------------
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
        raise ValueError(f"`grid` must be one of {GRIDS}; got {grid!r}")
    if np.ndim(bins) == 1:
        edges = np.asarray(bins, dtype=np.float64)
        if edges.size == 0 or not np.all(np.isfinite(edges)) or np.any(np.diff(edges) <= 0):
            raise ValueError(
                "`bins` given as edges must be a non-empty, finite, strictly increasing "
                f"sequence; got {bins!r}"
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
    blocks = _blocks(y_true, y_score)
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
    precision, recall, thresholds_out = _pr_from_counts(
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


# --------------------------------------------------------------------------------------
# Per-class sufficient statistics in one pass
# --------------------------------------------------------------------------------------
_EMPTY = (0, 0.0, 0.0)


def _chan(a, b):
    """Merge two ``(n, mean, M2)`` summaries (Chan, Golub & LeVeque 1979)."""
    na, ma, m2a = a
    nb, mb, m2b = b
    if nb == 0:
        return a
    if na == 0:
        return b
    n = na + nb
    delta = mb - ma
    return n, ma + delta * (nb / n), m2a + m2b + delta * delta * (na * nb / n)


def _moments(x):
    n = int(x.size)
    if n == 0:
        return _EMPTY
    mean = float(x.mean())
    return n, mean, float(np.sum((x - mean) ** 2))


def _transform(x, transform):
    return special.logit(x) if transform == "logit" else special.ndtri(x)


def _stats_block(y, s, i, pos_label, transform, clip_eps):
    """One block: validation, then per class (n, mean, M2) of the transformed scores.

    With a transform, exact 0 and 1 are only counted here (the clipping constant needs
    the global interior range) unless ``clip_eps`` is given.
    """
    info, y, s, is_pos = _block_checks(y, s, i, pos_label)
    info.update(
        n_pos=int(is_pos.sum()),
        out_of_range=None,
        edge=np.zeros((2, 2), dtype=np.int64),  # [class, 0 or 1]
        int_min=np.inf,
        int_max=-np.inf,
        classes=[_EMPTY, _EMPTY],
    )
    if info["bad"] is not None:
        return info
    t = s.astype(np.float64)
    use = np.ones(t.shape, dtype=bool)
    if transform is not None:
        bad = (t < 0) | (t > 1)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            info["out_of_range"] = (i, j, float(t[j]))
            return info
        if clip_eps is None:
            zero, one = t == 0, t == 1
            for c, mask in enumerate((~is_pos, is_pos)):
                info["edge"][c] = int(np.sum(zero & mask)), int(np.sum(one & mask))
            use = ~(zero | one)
            if use.any():
                info["int_min"], info["int_max"] = float(t[use].min()), float(t[use].max())
        else:
            t = np.clip(t, clip_eps, 1 - clip_eps)
        t = np.where(use, t, 0.5)  # placeholder for 0 and 1: not used below
        t = _transform(t, transform)
    for c, mask in enumerate((~is_pos, is_pos)):
        info["classes"][c] = _moments(t[mask & use])
    return info


def _merge_stats(infos):
    out = _merge_checks(infos)
    out["n_pos"] = sum(info["n_pos"] for info in infos)
    out["edge"] = sum(info["edge"] for info in infos)
    out["int_min"] = min(info["int_min"] for info in infos)
    out["int_max"] = max(info["int_max"] for info in infos)
    ranges = [info["out_of_range"] for info in infos if info["out_of_range"] is not None]
    out["out_of_range"] = min(ranges) if ranges else None
    classes = [_EMPTY, _EMPTY]
    for info in infos:
        classes = [_chan(classes[c], info["classes"][c]) for c in range(2)]
    out["classes"] = classes
    return out


def class_statistics(y_true, y_score, *, transform=None, pos_label=None):
    """Per-class count, mean and sum of squared deviations of the scores, in one pass.

    The sufficient statistics of the binormal model (on the ``transform`` scale, not
    standardized). For dask input each block reports its own ``(n, mean, M2)`` and the
    blocks are merged with Chan et al.'s update, which is as accurate as the two-pass
    formula (no ``sum(x**2) - n * mean**2`` cancellation). Numpy input works too.

    Parameters
    ----------
    y_true, y_score : array-like or dask array of shape (n_samples,)
    transform : {None, "logit", "probit"}, default None
        As in :func:`bayes_prc.fit_binormal`; exact 0 and 1 are moved inside (0, 1) by
        the same rule, with the same warning.
    pos_label : label, default None

    Returns
    -------
    stats_neg, stats_pos : bayes_prc.bayes._priors.ClassStats
        ``n``, ``mean`` and ``ss`` (sum of squared deviations from the mean) per class.

    References
    ----------
    Chan, T. F., Golub, G. H. and LeVeque, R. J. (1979). Updating formulae and a pairwise
    algorithm for computing sample variances. Stanford CS report STAN-CS-79-773.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bayes_prc.scale import class_statistics
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> s = np.array([0.5, 1.5, 2.0, 4.0, 1.0, 3.0])
    >>> neg, pos = class_statistics(da.from_array(y, chunks=2), da.from_array(s, chunks=2))
    >>> neg.n, neg.mean, neg.ss, pos.n, pos.mean, pos.ss
    (3, 1.0, 0.5, 3, 3.0, 2.0)
    """
    from .bayes._fit import TRANSFORMS
    from .bayes._priors import ClassStats

    if transform not in TRANSFORMS:
        raise ValueError(f"`transform` must be one of {TRANSFORMS}; got {transform!r}")
    blocks = _blocks(y_true, y_score)
    info = _map_reduce(blocks, _stats_block, _merge_stats, pos_label, transform, None)
    _raise_invalid(info, pos_label)
    blocks.n = info["n"]
    classes = info["classes"]
    if info["out_of_range"] is not None:
        b, j, value = info["out_of_range"]
        raise ValueError(
            f"`transform`={transform!r} needs probabilities in [0, 1]; `y_score` has "
            f"{value!r} in block {b} at position {j}"
        )
    n_edge = int(info["edge"].sum())
    if transform is not None and n_edge:
        n_interior = info["n"] - n_edge
        gaps = [1e-6]
        if n_interior:
            gaps += [info["int_min"] / 2, (1 - info["int_max"]) / 2]
        eps = max(min(gaps), 1e-12)
        warnings.warn(
            f"{n_edge} score(s) of `y_score` are exactly 0 or 1; for the {transform} transform "
            f"they are moved to {eps:.3g} and 1 - {eps:.3g} (their ranks, and so the empirical "
            "curve, are unchanged)",
            BayesPRCWarning,
            stacklevel=_user_stacklevel(),
        )
        if n_interior and (info["int_min"] < eps or info["int_max"] > 1 - eps):
            # eps hit its floor and clips interior scores too: a second pass, clipping
            info = _map_reduce(blocks, _stats_block, _merge_stats, pos_label, transform, eps)
            classes = info["classes"]
        else:  # add the moved 0s and 1s as groups of equal values
            at_edge = _transform(np.array([eps, 1 - eps]), transform)
            for c in range(2):
                for k in range(2):
                    group = (int(info["edge"][c, k]), float(at_edge[k]), 0.0)
                    classes[c] = _chan(classes[c], group)
    return tuple(ClassStats(int(n), float(m), float(m2)) for n, m, m2 in classes)


def _user_stacklevel():
    """Stack level of the first frame outside bayes_prc (for warnings)."""
    import sys

    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("bayes_prc"):
        frame, level = frame.f_back, level + 1
    return level


# --------------------------------------------------------------------------------------
# Parquet
# --------------------------------------------------------------------------------------
def read_parquet(path, *, label, score, lengths=True, **kwargs):
    """Label and score columns of Parquet data as dask arrays, read lazily.

    Parameters
    ----------
    path : str, path or list of them
        A Parquet file, a directory of Parquet files, a glob, or a remote URL (anything
        :func:`dask.dataframe.read_parquet` reads).
    label, score : str
        Names of the label and score columns.
    lengths : bool, default True
        Learn the number of rows of each partition (one pass over the label column), so
        that the arrays have known chunk sizes. ``False`` reads nothing now; bayes_prc's
        functions accept arrays of unknown chunk sizes too.
    **kwargs
        Passed to :func:`dask.dataframe.read_parquet` (e.g. ``split_row_groups``,
        ``blocksize``, ``filesystem``, ``storage_options``).

    Returns
    -------
    y_true, y_score : dask.array.Array of shape (n_samples,)
        One block per partition, in file order.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> import bayes_prc as bp
    >>> from bayes_prc.scale import read_parquet
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.parquet")
    >>> pd.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.8, 0.35, 0.4]}).to_parquet(path)
    >>> y, s = read_parquet(path, label="y", score="p")
    >>> y.shape, round(bp.average_precision_score(y, s), 4)
    ((4,), 0.8333)
    """
    _check_bool(lengths, "lengths")
    frame = _read_frame(path, label, score, kwargs)
    y_col, s_col = frame[label], frame[score]
    if not isinstance(y_col.dtype, np.dtype):  # string, categorical, nullable: as objects
        y_col = y_col.astype(object)
    if not isinstance(s_col.dtype, np.dtype):  # nullable numbers: missing values become NaN
        s_col = s_col.astype(np.float64)
    lengths = True if lengths else None  # dask's spelling of "unknown" is None
    return y_col.to_dask_array(lengths=lengths), s_col.to_dask_array(lengths=lengths)


def _read_frame(path, label, score, kwargs):
    _import_dask()
    import dask.dataframe as dd

    frame = dd.read_parquet(path, **kwargs)
    names = [str(c) for c in frame.columns]
    for col, what in ((label, "label"), (score, "score")):
        if col not in names:
            raise ValueError(
                f"{path}: no {what} column {col!r}; columns are {', '.join(repr(c) for c in names)}"
            )
    if frame[score].dtype.kind not in "biuf":
        raise ValueError(
            f"{path}: the score column {score!r} must be numeric; got dtype {frame[score].dtype}"
        )
    return frame[[label, score]] if label != score else frame[[label]]


# --------------------------------------------------------------------------------------
# Entry points of the hooks in bayes_prc._ranking and bayes_prc.bayes._fit
# --------------------------------------------------------------------------------------
def _exact_or_none(blocks):
    return _n_items(blocks) <= _OPTIONS["max_exact"]


def _binned_only(what, sample_weight, n):
    if sample_weight is not None:
        raise ValueError(
            f"`sample_weight` with dask input is supported up to max_exact="
            f"{_OPTIONS['max_exact']:,} items (the exact path); got {n:,} items for {what}"
        )


def _dask_precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    from ._ranking import precision_recall_curve

    _check_bool(drop_intermediate, "drop_intermediate")
    blocks = _blocks(y_true, y_score)
    if _exact_or_none(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return precision_recall_curve(
            y, s, pos_label=pos_label, sample_weight=w, drop_intermediate=drop_intermediate
        )
    _binned_only("precision_recall_curve", sample_weight, blocks.n)
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label, drop_intermediate=drop_intermediate)
    warnings.warn(
        f"precision_recall_curve of {res.n_samples:,} items (> max_exact="
        f"{_OPTIONS['max_exact']:,}): the curve is given at {res.n_bins:,} thresholds, the "
        "lowest score of each score bin, instead of at every distinct score; each point "
        "is exact. Raise bayes_prc.scale.set_options(max_exact=...) for every point.",
        BinnedCurveWarning,
        stacklevel=3,
    )
    return res.precision, res.recall, res.thresholds


def _up(x, digits=2):
    """``x`` rounded *up* to ``digits`` significant digits, as text (stated bounds)."""
    if not x > 0:
        return "0"
    step = 10.0 ** (np.floor(np.log10(x)) - digits + 1)
    return f"{np.ceil(x / step) * step:.{digits}g}"


def _interval_text(res, decimals=6):
    """``[ap_low, ap_high]`` rounded outwards, so that the printed interval still holds."""
    scale_ = 10.0**decimals
    low = np.floor(res.ap_low * scale_) / scale_
    high = np.ceil(res.ap_high * scale_) / scale_
    return f"[{low:.{decimals}f}, {high:.{decimals}f}]"


def _warn_binned_ap(res, what):
    warnings.warn(
        f"{what} of {res.n_samples:,} items (> max_exact={_OPTIONS['max_exact']:,}) from "
        f"{res.n_bins:,} score bins: {res.average_precision:.6f}, within "
        f"{_up(res.ap_error_bound)} of the exact value (exact AP in "
        f"{_interval_text(res)}). Raise bayes_prc.scale.set_options(max_exact=...) for the "
        "exact value.",
        BinnedCurveWarning,
        stacklevel=4,
    )


def _dask_average_precision_score(
    y_true, y_score, *, average="macro", pos_label=1, sample_weight=None
):
    from ._ranking import average_precision_score

    average_options = (None, "micro", "macro", "weighted", "samples")
    if average not in average_options:
        raise ValueError(f"`average` must be one of {average_options}; got {average!r}")
    multi = any(len(np.shape(x)) == 2 and np.shape(x)[1] != 1 for x in (y_true, y_score))
    if multi:
        dask = _import_dask()
        y_arr, s_arr, w = dask.compute(y_true, y_score, sample_weight)
        if y_arr.shape[0] > _OPTIONS["max_exact"]:
            raise ValueError(
                f"multilabel or multiclass average precision of dask input is supported up "
                f"to max_exact={_OPTIONS['max_exact']:,} items; got {y_arr.shape[0]:,}"
            )
        return average_precision_score(
            y_arr, s_arr, average=average, pos_label=pos_label, sample_weight=w
        )
    blocks = _blocks(y_true, y_score)
    if _exact_or_none(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return average_precision_score(y, s, average=average, pos_label=pos_label, sample_weight=w)
    _binned_only("average_precision_score", sample_weight, blocks.n)
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label, ap_pos_label=True)
    if res.n_positive:
        _warn_binned_ap(res, "average_precision_score")
    return res.average_precision


def _dask_auc_pr(
    y_true, y_score, *, estimator="average_precision", pos_label=None, sample_weight=None
):
    from ._ranking import auc_pr

    blocks = _blocks(y_true, y_score)
    if _exact_or_none(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return auc_pr(y, s, estimator=estimator, pos_label=pos_label, sample_weight=w)
    _binned_only("auc_pr", sample_weight, blocks.n)
    if estimator != "average_precision":
        raise ValueError(
            f"auc_pr(estimator={estimator!r}) needs the exact curve, and the input has "
            f"{blocks.n:,} items > max_exact={_OPTIONS['max_exact']:,}; use "
            "estimator='average_precision' (binned, with an error bound) or raise "
            "bayes_prc.scale.set_options(max_exact=...)"
        )
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label)
    if res.n_positive:
        _warn_binned_ap(res, "auc_pr")
    return res.average_precision


def _dask_fit_binormal(y_true, y_score, *, transform=None, priors=None, pos_label=None, **options):
    """:func:`bayes_prc.fit_binormal` for dask input: one pass, then the usual posterior."""
    from .bayes._fit import _check_fit_options, _fit_from_statistics
    from .bayes._priors import ClassStats

    priors = _check_fit_options(
        transform,
        options["method"],
        options["draws"],
        options["chains"],
        options["ci_prob"],
        priors,
    )
    raw_neg, raw_pos = class_statistics(y_true, y_score, transform=transform, pos_label=pos_label)
    n = raw_neg.n + raw_pos.n
    if raw_pos.n == 0 or raw_neg.n == 0:
        raise ValueError(
            f"`y_true` must contain both classes to fit the binormal model; got {raw_pos.n} "
            f"positive(s) out of {n}"
        )
    n_all, mean_all, m2_all = _chan(
        (raw_neg.n, raw_neg.mean, raw_neg.ss), (raw_pos.n, raw_pos.mean, raw_pos.ss)
    )
    location = float(mean_all) if priors.location is None else priors.location
    scale = float(np.sqrt(m2_all / n_all)) if priors.scale is None else priors.scale
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    stats = [
        ClassStats(st.n, (st.mean - location) / scale, st.ss / scale**2)
        for st in (raw_neg, raw_pos)
    ]
    return _fit_from_statistics(
        stats[0],
        stats[1],
        location=location,
        scale=scale,
        transform=transform,
        priors=priors,
        n=n,
        **options,
    )


# --------------------------------------------------------------------------------------
# Command line (`bayes-prc summary/report --dask`)
# --------------------------------------------------------------------------------------
def _label_values(y):
    """Distinct values of a label array (at most _MAX_LABELS + 1 of them)."""
    blocks = _Blocks([(b, b) for b in y.to_delayed().ravel().tolist()], True, None, y.dtype)
    info = _map_reduce(blocks, _labels_block, _merge_checks)
    values = info["labels"]
    if info["many_labels"]:
        values = np.concatenate([values, values[-1:]])  # "more than two" is all that counts
    return values


def _labels_block(y, s, i):
    y = np.asarray(y)
    labels = _distinct(y)
    return {
        "n": int(y.shape[0]),
        "labels": labels[:_MAX_LABELS],
        "many_labels": labels.size > _MAX_LABELS,
        "mismatch": None,
        "bad": None,
    }


def _cli_read(path, label, score, pos_label, parse_labels):
    """``(is_positive, score)`` dask arrays for the CLI; labels are matched as text.

    ``parse_labels`` is the CLI's rule turning text labels into 0/1 (it raises on more
    than two labels or an unknown ``--pos-label``); it is applied to the distinct values.
    """
    if not str(path).lower().endswith((".parquet", ".pq")) and not _is_dir(path):
        raise ValueError(f"--dask reads Parquet (a .parquet file or a directory); got {path}")
    y_raw, s = read_parquet(path, label=label, score=score)
    values = _label_values(y_raw)
    flags = parse_labels(np.asarray([str(v) for v in values.tolist()]), pos_label)
    positive = values[int(np.argmax(flags))]
    y = y_raw == positive
    return y, s.astype(np.float64)


def _is_dir(path):
    from pathlib import Path

    return Path(path).is_dir()


def _cli_in_memory(y, s, what):
    """Numpy arrays for the in-memory commands, or an error past max_exact."""
    blocks = _blocks(y, s)
    if not _exact_or_none(blocks):
        raise ValueError(
            f"{what} needs the data in memory and the file has {blocks.n:,} rows > max_exact="
            f"{_OPTIONS['max_exact']:,}; `bayes-prc summary --dask` works at any size"
        )
    y, s, _ = _compute_numpy(blocks)
    return y, s


def _cli_summary(title, y, s, *, n_curve_points=11):
    """Text of ``bayes-prc summary --dask``: the in-memory summary, or the binned one."""
    from .cli import empirical_summary, format_summary

    blocks = _blocks(y, s)
    if _exact_or_none(blocks):
        y_np, s_np, _ = _compute_numpy(blocks)
        return format_summary(title, empirical_summary(y_np, s_np))
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, None)
    if res.n_positive in (0, res.n_samples):
        raise ValueError("`y_true` must contain both classes for a summary")
    p, r, thr = res.precision[:-1], res.recall[:-1], res.thresholds
    f1 = np.zeros_like(p)
    np.divide(2 * p * r, p + r, out=f1, where=(p + r) > 0)
    best = int(np.argmax(f1[::-1]))
    best = f1.size - 1 - best  # highest threshold among ties
    lines = [
        f"== {title} ==",
        f"n = {res.n_samples}, positives = {res.n_positive}, prevalence (chance baseline) = "
        f"{res.n_positive / res.n_samples:.4f}",
        f"binned: {res.n_bins} score bins ({res.grid!r} grid) because n > max_exact = "
        f"{_OPTIONS['max_exact']}; curve points are exact, AP is bounded",
        "",
        f"{'AUC-PR estimator':<22}{'estimate':>10}{'exact AP in':>26}",
        f"{'average_precision':<22}{res.average_precision:>10.4f}{_interval_text(res):>26}",
        "",
        f"max F1 over the bin thresholds = {f1[best]:.4f} at threshold {thr[best].item():.6g} "
        f"(precision {p[best]:.4f}, recall {r[best]:.4f})",
        "",
        f"{'threshold':>14}{'recall':>10}{'precision':>11}",
    ]
    rows = set()
    for target in np.linspace(0, 1, n_curve_points)[1:]:
        i = int(np.argmin(np.abs(r - target)))
        rows.add((thr[i].item(), float(r[i]), float(p[i])))
    for t, rec, prec in sorted(rows, key=lambda row: row[1]):
        lines.append(f"{t:>14.6g}{rec:>10.4f}{prec:>11.4f}")
    return "\n".join(lines)
