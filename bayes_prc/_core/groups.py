"""Cluster ids of a clustered test set (``groups=``): validated once, passed down.

Items of one cluster (a patient's lesions, an image's detections, a query's documents)
share their difficulty, so the cluster, not the item, is the independent unit of the
intervals that take ``groups``. :func:`check_groups` turns the user's ids (any hashable
labels, one per item: the name scikit-learn's grouped cross-validation uses) into
:class:`Clusters`, integer codes with the cluster sizes. numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import check_1d, plain

__all__ = ["Clusters", "check_groups", "cluster_weight_blocks", "object_array"]


def object_array(values):
    """A 1-D object array of ``values`` (tuples stay elements, not rows)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@dataclass(frozen=True, eq=False)
class Clusters:
    """Validated cluster ids.

    Attributes
    ----------
    codes : ndarray of int64, shape (n_samples,)
        Cluster index of each item, in ``0 .. n_clusters - 1`` (clusters numbered in the
        order of their sorted ids).
    n_clusters : int
    sizes : ndarray of int64, shape (n_clusters,)
        Items per cluster.
    labels : list, optional
        The id of each cluster, in the order of the codes.
    """

    codes: np.ndarray
    n_clusters: int
    sizes: np.ndarray
    labels: list | None = None

    @property
    def singletons(self):
        """True when every cluster is a single item (the ungrouped case)."""
        return bool(self.sizes.max() == 1)

    def positives(self, is_pos):
        """Positives per cluster (n_clusters,) for the positive mask ``is_pos``."""
        return np.bincount(self.codes, weights=is_pos, minlength=self.n_clusters)

    def describe(self):
        """``"120 clusters of 1-8 items (mean 3.2)"``."""
        lo, hi = int(self.sizes.min()), int(self.sizes.max())
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        return f"{self.n_clusters} clusters of {span} items (mean {self.sizes.mean():.3g})"


def check_groups(groups, n_samples, *, name="groups", noun="cluster"):
    """Validate ``groups``: one cluster id per item, at least two clusters.

    Parameters
    ----------
    groups : array-like of shape (n_samples,) or Clusters
        Cluster ids (numbers, strings or any labels numpy can sort); NaN or None ids are
        an error naming the first one. A :class:`Clusters` is returned as is.
    n_samples : int
        Number of items the ids must match.
    name, noun : str
        The parameter's name and what an id names, for the error messages
        (``compare_subgroups`` passes ``"subgroup"`` for both).

    Returns
    -------
    Clusters

    Examples
    --------
    >>> from bayes_prc._core.groups import check_groups
    >>> c = check_groups(["p1", "p1", "p2", "p3", "p3", "p3"], 6)
    >>> c.codes.tolist(), c.sizes.tolist(), c.describe()
    ([0, 0, 1, 2, 2, 2], [2, 1, 3], '3 clusters of 1-3 items (mean 2)')
    """
    if isinstance(groups, Clusters):  # validated already (a table passes it to its rows)
        if groups.codes.shape[0] != n_samples:
            raise ValueError(
                f"`{name}` must hold one {noun} id per item ({n_samples}); "
                f"got {groups.codes.shape[0]}"
            )
        return groups
    try:
        g = check_1d(groups, name)
    except ValueError:
        # labels numpy reads as a ragged array (tuples, ...): keep them as objects
        if not hasattr(groups, "__len__") or isinstance(groups, (str, bytes)):
            raise
        g = object_array(list(groups))
    if g.shape[0] != n_samples:
        raise ValueError(
            f"`{name}` must hold one {noun} id per item ({n_samples}); got {g.shape[0]}"
        )
    if g.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(g))
        if bad.size:
            raise ValueError(
                f"`{name}` contains a missing or non-finite {noun} id "
                f"({plain(g[bad[0]].item())} at index {int(bad[0])})"
            )
    elif g.dtype.kind == "O":
        bad = [i for i, v in enumerate(g) if v is None or (isinstance(v, float) and v != v)]
        if bad:
            raise ValueError(
                f"`{name}` contains a missing {noun} id ({plain(g[bad[0]])} at index {bad[0]})"
            )
    try:
        labels, codes = np.unique(g, return_inverse=True)
        labels = labels.tolist()
    except TypeError:  # mixed types numpy cannot sort: number them by first appearance
        first = {}
        codes = np.array([first.setdefault(v, len(first)) for v in g.tolist()])
        labels = list(first)
    codes = codes.astype(np.int64).reshape(-1)
    sizes = np.bincount(codes)
    if sizes.size < 2:
        raise ValueError(
            f"`{name}` holds a single {noun}; at least two are needed"
            + (" (the clusters are the independent units)" if noun == "cluster" else "")
        )
    codes.setflags(write=False)
    sizes.setflags(write=False)
    return Clusters(codes=codes, n_clusters=int(sizes.size), sizes=sizes, labels=labels)


def cluster_weight_blocks(
    rng, clusters, is_pos, n_resamples, block, *, bayesian=False, both_classes=False
):
    """Yield item weights (b, n_samples) of cluster-bootstrap replicates, block by block.

    Ordinary (``bayesian=False``): each replicate draws ``n_clusters`` clusters with
    replacement (``rng.integers(0, G, size=(b, G))``) and an item's weight is the number
    of times its cluster was drawn (Davison & Hinkley 1997, sec. 3.8; Field & Welsh 2007).
    A replicate that draws no positive is redrawn (``rng.integers(0, G, size=(m, G))``
    for the ``m`` such rows, in row order, until each has one), as the unstratified item
    bootstrap; with ``both_classes``, a replicate without a negative is redrawn too (the
    ROC AUC needs both). Bayesian: Dirichlet(1, ..., 1) weights over the clusters
    (``rng.standard_exponential(size=(b, G))``, rows normalized), each item taking its
    cluster's weight (the cluster Bayesian bootstrap; Rubin 1981).
    """
    n_clusters = clusters.n_clusters
    pos_per = clusters.positives(is_pos)
    neg_per = clusters.sizes - pos_per
    if not pos_per.any():
        raise ValueError("`y_true` has no positive sample; the cluster bootstrap needs one")
    if both_classes and not neg_per.any():
        raise ValueError("`y_true` has no negative sample; the cluster bootstrap needs one")

    def lacking(rows):
        bad = pos_per[rows].sum(axis=1) == 0
        if both_classes:
            bad |= neg_per[rows].sum(axis=1) == 0
        return bad

    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        if bayesian:
            w = rng.standard_exponential(size=(b, n_clusters))
            w /= w.sum(axis=1, keepdims=True)
        else:
            draws = rng.integers(0, n_clusters, size=(b, n_clusters))
            bad = np.flatnonzero(lacking(draws))
            while bad.size:
                draws[bad] = rng.integers(0, n_clusters, size=(bad.size, n_clusters))
                bad = bad[lacking(draws[bad])]
            w = np.empty((b, n_clusters))
            for r in range(b):
                w[r] = np.bincount(draws[r], minlength=n_clusters)
        yield w[:, clusters.codes]
        done += b
