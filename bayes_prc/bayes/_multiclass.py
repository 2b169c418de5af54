"""One-vs-rest Bayesian binormal fits for multiclass and multilabel problems."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core import (
    as_array,
    check_finite_scores,
    check_random_state,
    plain,
    type_of_target,
)
from ._posterior_base import PosteriorDraws
from ._summaries import eti

__all__ = ["fit_binormal_ovr", "OvRPosterior"]


class OvRPosterior(PosteriorDraws):
    """Per-class binormal posteriors of a one-vs-rest problem.

    Shares ``interval`` and ``summary`` with the other posterior objects: its ``idata``
    holds the per-class ``average_precision``, ``roc_auc`` and ``prevalence`` draws over
    dim ``class``.

    Attributes
    ----------
    classes : ndarray
        Class labels (for multiclass ``y_true``) or column indices (multilabel).
    posteriors : dict
        Class label -> :class:`BinormalPosterior` of "this class vs the rest".
    support : ndarray of int
        Number of positives of each class.
    ci_prob : float
        The fits' default interval probability.
    """

    def __init__(self, classes, posteriors, support):
        self.classes = classes
        self.posteriors = posteriors
        self.support = support
        self._idata = None

    @property
    def ci_prob(self):
        return self.posteriors[self.classes[0]].ci_prob

    @property
    def importance(self):
        """The smallest per-class importance ESS (None when no fit was importance-resampled)."""
        caps = [p._ess_cap() for p in self.posteriors.values()]
        caps = [c for c in caps if c is not None]
        return {"ess_draws": min(caps)} if caps else None

    def _per_class(self, name):
        return xr.concat(
            [self.posteriors[c].idata["posterior"][name] for c in self.classes],
            dim=xr.DataArray(self.classes, dims="class", name="class"),
        ).transpose("chain", "draw", "class")

    @property
    def idata(self):
        """DataTree of the per-class ``average_precision``, ``roc_auc`` and ``prevalence``."""
        if self._idata is None:
            names = ("average_precision", "roc_auc", "prevalence")
            post = xr.Dataset({name: self._per_class(name) for name in names})
            self._idata = xr.DataTree.from_dict({"posterior": post})
        return self._idata

    def summary(self, var_names=None, ci_prob=None, kind="all", ci_kind=None):
        """ArviZ summary of the per-class AP, ROC AUC and prevalence (a pandas DataFrame).

        ESS columns are capped at the smallest per-class importance ESS when a fit's
        draws were importance-resampled (as :meth:`BinormalPosterior.summary`).
        """
        names = var_names or ["average_precision", "roc_auc", "prevalence"]
        return self._summary(names, ci_prob, kind=kind, ci_kind=ci_kind)

    def __repr__(self):
        return f"OvRPosterior(classes={list(self.classes)!r}, support={self.support.tolist()})"

    def average_precision(self, average=None):
        """Posterior draws of per-class AP or of its average.

        Parameters
        ----------
        average : {None, "macro", "weighted"}
            None: dims (chain, draw, class). "macro": plain mean over classes.
            "weighted": mean weighted by each class's *prevalence draw* (the
            posterior counterpart of scikit-learn's support-weighted average).

        Returns
        -------
        xarray.DataArray
        """
        if average not in (None, "macro", "weighted"):
            raise ValueError(f"`average` must be None, 'macro' or 'weighted'; got {plain(average)}")
        per_class = self._per_class("average_precision")
        if average is None:
            return per_class.rename("average_precision")
        if average == "macro":
            return per_class.mean("class").rename("macro_average_precision")
        prev = self._per_class("prevalence")
        weighted = (per_class * prev).sum("class") / prev.sum("class")
        return weighted.rename("weighted_average_precision")

    def ap_summary(self, average=None, ci_prob=None):
        """Posterior median and equal-tailed credible interval of the per-class AP.

        Parameters
        ----------
        average : {None, "macro", "weighted"}
            As in :meth:`average_precision`: per class, or of the average over classes.
        ci_prob : float, optional
            Probability of the interval; defaults to the fits' ``ci_prob``.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` (over dim ``class`` when ``average`` is
            None); attrs ``ci_prob`` and ``ci_kind`` (``"eti"``).

        Examples
        --------
        >>> import numpy as np
        >>> import bayes_prc as bp
        >>> rng = np.random.default_rng(0)
        >>> y = rng.integers(0, 3, 300)
        >>> scores = rng.normal(size=(300, 3)) + 1.5 * np.eye(3)[y]
        >>> ovr = bp.fit_binormal_ovr(y, scores, draws=200, random_seed=1)
        >>> summary = ovr.ap_summary(ci_prob=0.9)
        >>> bool((summary["lower"] < summary["median"]).all()), summary.sizes["class"]
        (True, 3)
        """
        ci_prob = self._ci_prob(ci_prob)
        draws = self.average_precision(average)
        flat = draws.values.reshape((-1, *draws.shape[2:]))  # (sample, [class])
        lower, median, upper = eti(flat, ci_prob)
        dims = draws.dims[2:]
        coords = {d: draws[d].values for d in dims}
        return xr.Dataset(
            {"lower": (dims, lower), "median": (dims, median), "upper": (dims, upper)},
            coords=coords,
            attrs={"ci_prob": ci_prob, "ci_kind": "eti"},
        )


def fit_binormal_ovr(y_true, y_score, *, method="auto", random_seed=None, **fit_kwargs):
    """Fit one binormal model per class, one-vs-rest.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Multiclass labels or a multilabel indicator matrix.
    y_score : array-like of shape (n_samples, n_classes)
        One score column per class (sorted label order for multiclass).
    method : {"auto", "exact", "laplace", "nuts"}, default "auto"
    random_seed : int, Generator or None
        One seed; each class gets an independent stream.
    **fit_kwargs
        Passed to :func:`fit_binormal` (``transform``, ``priors``, ``draws``, ...).

    Returns
    -------
    OvRPosterior

    Examples
    --------
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 300)
    >>> scores = rng.normal(size=(300, 3)) + 1.5 * np.eye(3)[y]
    >>> ovr = bp.fit_binormal_ovr(y, scores, random_seed=1)
    >>> ovr.average_precision().dims
    ('chain', 'draw', 'class')
    """
    from ._fit import fit_binormal

    y_arr = as_array(y_true, "y_true")
    kind = type_of_target(y_arr, "y_true")
    s = as_array(y_score, "y_score")
    if kind == "multiclass":
        classes = np.unique(y_arr)
        indicator = (y_arr[:, None] == classes[None, :]).astype(int)
    elif kind == "multilabel-indicator":
        indicator = y_arr.astype(int)
        classes = np.arange(indicator.shape[1])
    else:
        raise ValueError(
            f"`y_true` must be multiclass or multilabel-indicator for one-vs-rest; got {plain(kind)}"
            " (use fit_binormal for binary labels)"
        )
    if s.ndim != 2 or s.shape != indicator.shape:
        raise ValueError(
            f"`y_score` must have shape (n_samples, n_classes) = {indicator.shape}; got {s.shape}"
        )
    check_finite_scores(s, "y_score")
    rng = check_random_state(random_seed)
    seeds = rng.spawn(len(classes))
    posteriors = {}
    for j, c in enumerate(classes):
        posteriors[c.item() if hasattr(c, "item") else c] = fit_binormal(
            indicator[:, j], s[:, j], method=method, random_seed=seeds[j], **fit_kwargs
        )
    keys = np.array(list(posteriors))
    return OvRPosterior(keys, posteriors, indicator.sum(axis=0))
