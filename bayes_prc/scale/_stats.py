"""Per-class sufficient statistics of the binormal model in one pass (Chan et al.)."""

from __future__ import annotations

import numpy as np

from .._core.transforms import check_transform, edge_eps, forward, warn_edges
from ._blocks import (
    _aligned,
    _block_checks,
    _map_reduce,
    _merge_checks,
    _raise_invalid,
)

__all__ = ["class_statistics"]

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
        t = forward(t, transform)
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
    from ..bayes import ClassStats

    check_transform(transform)
    blocks = _aligned(y_true, y_score)
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
        eps = edge_eps(info["int_min"], info["int_max"]) if n_interior else edge_eps()
        warn_edges(n_edge, transform, eps)
        if n_interior and (info["int_min"] < eps or info["int_max"] > 1 - eps):
            # eps hit its floor and clips interior scores too: a second pass, clipping
            info = _map_reduce(blocks, _stats_block, _merge_stats, pos_label, transform, eps)
            classes = info["classes"]
        else:  # add the moved 0s and 1s as groups of equal values
            at_edge = forward(np.array([eps, 1 - eps]), transform)
            for c in range(2):
                for k in range(2):
                    group = (int(info["edge"][c, k]), float(at_edge[k]), 0.0)
                    classes[c] = _chan(classes[c], group)
    return tuple(ClassStats(int(n), float(m), float(m2)) for n, m, m2 in classes)
