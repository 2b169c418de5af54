"""Dask plumbing: input aligned block by block, tree reductions, and the validation
every pass shares (each block reports, the driver raises the in-memory path's errors).

dask is imported only inside functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import (
    check_1d,
    check_binary_target,
    check_consistent_length,
    is_dask,
    unique_labels,
)
from ._options import _OPTIONS

_MAX_LABELS = 12  # distinct labels kept per block: enough to show a non-binary y_true


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


def _aligned(y_true, y_score):
    """Align the two inputs block by block (``y_score`` is rechunked like ``y_true``)."""
    if not (is_dask(y_true) or is_dask(y_score)):
        y = check_1d(y_true, "y_true")
        s = check_1d(y_score, "y_score")
        check_consistent_length(y_true=y, y_score=s)
        _check_score_dtype(s.dtype)
        return _Blocks([(y, s)], False, int(s.shape[0]), s.dtype)
    dask = _import_dask()
    da = dask.array
    if is_dask(y_true):
        y = _as_dask_array(y_true, "y_true")
    if is_dask(y_score):
        s = _as_dask_array(y_score, "y_score")
    if not is_dask(y_true):
        if not _known(s.shape[0]):
            s = s.compute_chunk_sizes()
        y = da.from_array(_numpy_1d(y_true, "y_true", s.shape[0]), chunks=s.chunks)
    if not is_dask(y_score):
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
    if is_dask(w):
        w = _as_dask_array(w, "sample_weight")
    y_parts, s_parts, w = dask.compute(list(ys), list(ss), w)
    return np.concatenate(y_parts), np.concatenate(s_parts), w


def _exact_path(blocks):
    """True when the input has at most ``max_exact`` items (computed into memory)."""
    return _n_items(blocks) <= _OPTIONS["max_exact"]


def in_memory_arrays(y_true, y_score):
    """The input as numpy arrays when it has at most ``max_exact`` items (the exact path).

    Parameters
    ----------
    y_true, y_score : array-like or dask array of shape (n_samples,)

    Returns
    -------
    y_true, y_score : ndarray or None
        The computed arrays, or ``None`` when the input has more than
        ``get_options()["max_exact"]`` items.
    n_samples : int
        Number of items.
    """
    blocks = _aligned(y_true, y_score)
    if not _exact_path(blocks):
        return None, None, blocks.n
    y, s, _ = _compute_numpy(blocks)
    return y, s, blocks.n


def distinct_labels(y):
    """Distinct values of a dask label array, in one lazy pass over its blocks.

    At most ``_MAX_LABELS + 1`` values: past ``_MAX_LABELS`` distinct values, the last
    one is repeated to stand for "more than that" (all a check of binary labels needs).

    Parameters
    ----------
    y : dask array of shape (n_samples,)

    Returns
    -------
    ndarray
    """
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
            # the in-memory average_precision_score's (scikit-learn's) message
            f"pos_label={pos_label} is not a valid label. It should be one of {labels}"
        )
    check_binary_target(labels, pos_label)  # the pos_label rules of the in-memory path
