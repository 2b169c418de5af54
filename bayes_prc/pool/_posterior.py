r"""The posterior of a whole pool's PR curve from a labelled selection (:func:`fit_pool`).

The model (a monotone calibration curve of the pool ranks, Bernoulli likelihood of the
labelled items; the design is ignorable) and its samplers are in :mod:`._pool_model`.
This module pushes each posterior draw through the pool.

Pool quantities per draw. The labelled items keep their known labels; each unlabelled
item is positive with its calibrated probability ``p_i = eps + (1 - eps) expit(f(u_i))``. The pool
sorted by score is compressed into rank bins: one bin per item for the 1000 highest
scores, then bins growing by 1% of their start rank (about 1500 bins for 2e5 items),
never splitting tied scores. In bin ``b`` (items ``a+1 .. a+m``) the number of positives
is the labelled positives plus ``Binomial(unlabelled, p_b)`` (``label_noise=True``, the
default: the pool's AP is that of its realized labels, whose Bernoulli noise is part of
the uncertainty) or its expectation (``label_noise=False``), with ``p_b`` the calibration
at the unlabelled items' mean ``u``. Positions inside a bin are exchangeable, so the AP
numerator ``sum_i y_i TP(i) / i`` of the bin has the closed form
``(A - B (a + 1)) (H_{a+m} - H_a) + B m`` with ``A = (c/m)(TP_before + 1)``,
``B = c (c - 1) / (m (m - 1))`` (``B = (c/m)^2`` without label noise) and harmonic
numbers ``H``; a bin that is one tie group takes the precision at its end, as
scikit-learn does. ``AP = numerator / P``. The error of the binning is measured in the
tests (below 1e-3 in AP at 2e5 items). Memory is O(draws x bins), in chunks of draws.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy import special

from .._core import check_choice, check_int, check_probability, check_random_state, plain
from ..bayes import (
    DEFAULT_RECALL,
    SAMPLE_DIMS,
    PosteriorDraws,
    SamplerOptions,
    check_unit_grid,
)
from ..frequentist import simultaneous_band
from ._design import prepare_selection
from ._model import (
    PoolData,
    PoolPriors,
    pool_normal_scores,
    prevalence_estimate,
    rate,
    sample_pool_laplace,
    sample_pool_nuts,
)

__all__ = ["PoolPosterior", "fit_pool", "pool_bins"]

_EXACT_TOP = 1000
_GROWTH = 1.01
_CHUNK = 500


class PoolBins:
    """The pool sorted by score, compressed into rank bins (see the module docstring)."""

    def __init__(self, score, u_pool, indices, is_pos, exact_top=_EXACT_TOP, growth=_GROWTH):
        n = score.shape[0]
        order = np.argsort(-score, kind="stable")
        s = score[order]
        top = min(exact_top, n)
        grid = [np.arange(top + 1)]
        if top < n:
            k = np.ceil(np.log(n / top) / np.log(growth)) + 1
            grid.append(np.round(top * growth ** np.arange(1, k + 1)).astype(np.int64))
        cuts = np.unique(np.minimum(np.concatenate(grid), n))
        ends = np.concatenate([np.flatnonzero(np.diff(s) != 0) + 1, [n]])
        edges = np.unique(np.concatenate([[0], ends[np.searchsorted(ends, cuts[1:])]]))
        self.edges, self.n = edges, n
        self.start, self.size = edges[:-1].astype(np.float64), np.diff(edges).astype(np.float64)
        self.tied = (s[edges[:-1]] == s[edges[1:] - 1]) & (self.size > 1)
        with np.errstate(divide="ignore"):
            self.hdiff = special.digamma(edges[1:] + 1.0) - special.digamma(edges[:-1] + 1.0)
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n)
        lab_bin = np.searchsorted(edges, pos[indices], side="right") - 1
        nb = edges.size - 1
        self.n_labelled = np.bincount(lab_bin, minlength=nb).astype(np.float64)
        self.known_pos = np.bincount(lab_bin, weights=is_pos, minlength=nb)
        self.unlabelled = self.size - self.n_labelled
        u_sorted = u_pool[order]
        u_sum = np.add.reduceat(u_sorted, edges[:-1]) - np.bincount(
            lab_bin, weights=u_pool[indices], minlength=nb
        )
        mean_all = np.add.reduceat(u_sorted, edges[:-1]) / self.size
        with np.errstate(invalid="ignore", divide="ignore"):
            self.u = np.where(self.unlabelled > 0, u_sum / self.unlabelled, mean_all)
        self.score_sorted_asc = np.sort(score)

    def counts(self, p, rng=None):
        """Positives per bin (S, B) given unlabelled rates ``p`` (S, B)."""
        if rng is None:
            return self.known_pos + self.unlabelled * p
        return self.known_pos + rng.binomial(self.unlabelled.astype(np.int64), p)

    def average_precision(self, c, noise=True):
        """AP per row of bin counts ``c`` (S, B) (closed form per bin)."""
        m, a = self.size, self.start
        cum = np.cumsum(c, axis=-1)
        before = cum - c
        r = c / m
        if noise:
            with np.errstate(invalid="ignore", divide="ignore"):
                b = np.where(m > 1, c * (c - 1) / (m * (m - 1)), 0.0)
        else:
            b = r * r
        untied = (r * (before + 1) - b * (a + 1)) * self.hdiff + b * m
        tied = c * (before + c) / (a + m)
        num = np.sum(np.where(self.tied, tied, untied), axis=-1)
        total = cum[..., -1]
        return np.where(total > 0, num / np.maximum(total, 1e-300), 0.0)

    def roc_auc(self, c):
        neg = self.size - c
        total_neg = neg.sum(axis=-1, keepdims=True)
        below = total_neg - np.cumsum(neg, axis=-1)
        total = c.sum(axis=-1)
        num = np.sum(c * (below + 0.5 * neg), axis=-1)
        den = total * total_neg[..., 0]
        return np.where(den > 0, num / np.maximum(den, 1e-300), 0.5)

    def tp_at_rank(self, c, k):
        """True positives among the ``k`` highest scores (linear inside a bin)."""
        k = np.asarray(k, dtype=np.float64)
        b = np.clip(np.searchsorted(self.edges, k, side="right") - 1, 0, self.size.size - 1)
        cum = np.cumsum(c, axis=-1)
        before = cum[..., b] - c[..., b]
        return before + c[..., b] * np.clip((k - self.start[b]) / self.size[b], 0, 1)

    def precision_at_recall(self, c, recall):
        """Precision at each recall, per row (S, R): rank found linearly inside the bin."""
        cum = np.cumsum(c, axis=-1)
        out = np.empty((c.shape[0], recall.size))
        for i in range(c.shape[0]):
            target = np.maximum(recall * cum[i, -1], 1e-9)
            b = np.minimum(np.searchsorted(cum[i], target, side="left"), c.shape[1] - 1)
            before = cum[i, b] - c[i, b]
            with np.errstate(invalid="ignore", divide="ignore"):
                frac = np.where(c[i, b] > 0, (target - before) / c[i, b], 1.0)
            k = np.where(
                self.tied[b], self.start[b] + self.size[b], self.start[b] + self.size[b] * frac
            )
            tp = np.where(self.tied[b], cum[i, b], target)
            out[i] = np.clip(tp / np.maximum(k, 1e-12), 0.0, 1.0)
        return out


def pool_bins(y_score, indices, is_pos):
    """:class:`PoolBins` of a pool (for tests and the workflow layer)."""
    score = np.asarray(y_score, dtype=np.float64)
    return PoolBins(
        score, pool_normal_scores(score), np.asarray(indices), np.asarray(is_pos, float)
    )


# --------------------------------------------------------------------------------------
# the posterior
# --------------------------------------------------------------------------------------
class PoolPosterior(PosteriorDraws):
    """Posterior of a whole pool's PR curve, AP and ROC AUC (returned by :func:`fit_pool`).

    Every posterior draw is a calibration curve, hence (with the known labels and the
    Bernoulli noise of the others) a labelling of the whole pool and a whole PR curve:
    bands, AP and operating points are computed per draw and summarized afterwards.

    Attributes
    ----------
    idata : xarray.DataTree
        Group ``posterior``: ``alpha``, ``log_slopes`` (dim ``segment``), ``floor`` (the
        score-independent positive rate ``eps``; 0 without a floor), ``f_knots``
        (the log-odds of the monotone part at the knots, dim ``knot``),
        ``average_precision``, ``roc_auc``,
        ``n_positives`` (positives in the pool) and ``prevalence``.
    method : {"laplace", "nuts"}
    ci_prob : float
    priors : PoolPriors
    n_pool, n_labelled, n_labelled_positives : int
    strategy : str
        The selection's strategy.
    label_noise : bool
    knots, anchor
        Knots and anchor of ``f`` on the ``u`` scale.
    importance : dict or None
        Diagnostics of the fast sampler (``khat``, ``ess``, ...).
    """

    def __init__(self):  # pragma: no cover - built by fit_pool
        raise TypeError("PoolPosterior objects are created by bayes_prc.pool.fit_pool")

    @classmethod
    def _build(
        cls,
        draws,
        data,
        bins,
        priors,
        *,
        method,
        ci_prob,
        strategy,
        label_noise,
        noise_seed,
        idata=None,
        importance=None,
    ):
        import arviz as az

        self = object.__new__(cls)
        self.method, self.ci_prob, self.priors = method, ci_prob, priors
        self.strategy, self.label_noise = strategy, label_noise
        self.n_pool, self.n_labelled = bins.n, int(data.y.size)
        self.n_labelled_positives = int(data.y.sum())
        self.knots, self.anchor, self.importance = data.knots, data.anchor, importance
        self._data, self._bins, self._seed = data, bins, noise_seed
        self._alpha = draws["alpha"]
        self._log_slopes = draws["log_slopes"]
        self._floor = draws["floor"]
        shape = self._alpha.shape
        ap, auc, npos = [], [], []
        for c in self._chunks():
            ap.append(bins.average_precision(c, label_noise))
            auc.append(bins.roc_auc(c))
            npos.append(c.sum(axis=-1))
        derived = {
            "average_precision": np.concatenate(ap).reshape(shape),
            "roc_auc": np.concatenate(auc).reshape(shape),
            "n_positives": np.concatenate(npos).reshape(shape),
        }
        derived["prevalence"] = derived["n_positives"] / bins.n
        flat_a, flat_l = self._flat()
        f_knots = data.f(flat_a, flat_l, data.knots).reshape(*shape, -1)
        post = {
            "alpha": self._alpha,
            "log_slopes": self._log_slopes,
            "floor": self._floor,
            "f_knots": f_knots,
        }
        tree = az.from_dict(
            {"posterior": {**post, **derived}},
            dims={"log_slopes": ["segment"], "f_knots": ["knot"]},
            coords={"knot": data.knots},
            attrs={"posterior": {"inference_library": f"bayes_prc ({method})"}},
        )
        if idata is not None and "sample_stats" in idata.children:
            tree["sample_stats"] = idata["sample_stats"].to_dataset()
        self.idata = tree
        return self

    # ------------------------------------------------------------------------ per draw
    def _flat(self):
        return self._alpha.reshape(-1), self._log_slopes.reshape(-1, self._log_slopes.shape[-1])

    def _rates(self, u, sl=slice(None)):
        """``P(y = 1)`` at ``u`` for the draws ``sl`` (flattened): (draws, u.size)."""
        alpha, log_slopes = self._flat()
        return rate(self._data.f(alpha[sl], log_slopes[sl], u), self._floor.reshape(-1)[sl])

    def _chunks(self):
        """Bin counts (chunk, B) for successive chunks of draws (deterministic noise)."""
        for j, start in enumerate(range(0, self._alpha.size, _CHUNK)):
            p = self._rates(self._bins.u, slice(start, start + _CHUNK))
            rng = np.random.default_rng([self._seed, j]) if self.label_noise else None
            yield self._bins.counts(p, rng)

    def _da(self, values, name, extra_dims=(), coords=None):
        post = self.idata["posterior"]
        shape = self._alpha.shape
        return xr.DataArray(
            np.reshape(values, shape + np.shape(values)[1:]),
            dims=(*SAMPLE_DIMS, *extra_dims),
            coords={"chain": post["chain"].values, "draw": post["draw"].values, **(coords or {})},
            name=name,
        )

    # ---------------------------------------------------------------------- quantities
    def average_precision(self):
        """Posterior draws of the pool's AP (scikit-learn's step definition), (chain, draw)."""
        return self.idata["posterior"]["average_precision"].copy()

    def roc_auc(self):
        """Posterior draws of the pool's ROC AUC (ties count 1/2), dims (chain, draw)."""
        return self.idata["posterior"]["roc_auc"].copy()

    def precision_at_recall(self, recall):
        """Posterior draws of the pool's precision at recall(s): dims (chain, draw, recall)."""
        r = check_unit_grid(recall, "recall")
        values = np.concatenate([self._bins.precision_at_recall(c, r) for c in self._chunks()])
        return self._da(values, "precision", ("recall",), {"recall": r})

    def _threshold_ranks(self, threshold):
        thr = np.atleast_1d(np.asarray(threshold, dtype=np.float64))
        if thr.ndim != 1 or not np.all(np.isfinite(thr)):
            raise ValueError(
                f"`threshold` must be a finite number or 1-D array; got {plain(threshold)}"
            )
        asc = self._bins.score_sorted_asc
        return thr, (asc.size - np.searchsorted(asc, thr, side="left")).astype(np.float64)

    def precision_at_threshold(self, threshold):
        """Posterior draws of precision when ``score >= threshold`` is called positive.

        The denominator is the exact pool count. Dims (chain, draw, threshold); NaN where
        no pool item reaches the threshold.
        """
        thr, k = self._threshold_ranks(threshold)
        tp = np.concatenate([self._bins.tp_at_rank(c, k) for c in self._chunks()])
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.where(k > 0, tp / np.where(k > 0, k, 1.0), np.nan)
        return self._da(values, "precision", ("threshold",), {"threshold": thr})

    def recall_at_threshold(self, threshold):
        """Posterior draws of recall at score threshold(s): dims (chain, draw, threshold)."""
        thr, k = self._threshold_ranks(threshold)
        parts = [
            self._bins.tp_at_rank(c, k) / c.sum(axis=-1, keepdims=True) for c in self._chunks()
        ]
        return self._da(np.concatenate(parts), "recall", ("threshold",), {"threshold": thr})

    def calibration(self, score):
        """Posterior draws of ``P(y = 1 | score)`` at pool score values: (chain, draw, score).

        A score between pool scores takes the ``u`` of its pool rank (interpolated).
        """
        s = np.atleast_1d(np.asarray(score, dtype=np.float64))
        if s.ndim != 1 or not np.all(np.isfinite(s)):
            raise ValueError(f"`score` must be a finite number or 1-D array; got {plain(score)}")
        asc = self._bins.score_sorted_asc
        n = asc.size
        rank = 0.5 * (np.searchsorted(asc, s, "left") + np.searchsorted(asc, s, "right")) + 0.5
        u = special.ndtri(np.clip(rank - 0.5, 0.5, n - 0.5) / n)
        return self._da(self._rates(u), "calibration", ("score",), {"score": s})

    # --------------------------------------------------------------------------- bands
    def pr_band(self, recall=None, ci_prob=None, kind="pointwise"):
        """Credible band of the pool's PR curve over a recall grid.

        Parameters
        ----------
        recall : array-like, optional
            Recall grid in [0, 1]; default 201 equally spaced points.
        ci_prob : float, optional
            Defaults to the fit's ``ci_prob``.
        kind : {"pointwise", "simultaneous"}
            As in ``BinormalPosterior.pr_band`` (simultaneous: the envelope of the
            deepest ``ci_prob`` share of whole posterior curves, joined with the
            pointwise band).

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` over dim ``recall``; attrs ``ci_prob``,
            ``kind``, ``ci_kind`` and, for simultaneous bands, ``coverage``.
        """
        check_choice(kind, "kind", ("pointwise", "simultaneous"))
        r = check_unit_grid(recall, "recall", DEFAULT_RECALL)
        prob = self._ci_prob(ci_prob)
        curves = np.concatenate([self._bins.precision_at_recall(c, r) for c in self._chunks()])
        curves = np.ascontiguousarray(curves.T)
        alpha = 1 - prob
        lower, median, upper = np.quantile(curves, [alpha / 2, 0.5, 1 - alpha / 2], axis=1)
        attrs = {"ci_prob": prob, "kind": kind, "ci_kind": "eti"}
        if kind == "simultaneous":
            lower, upper, attrs["coverage"] = simultaneous_band(curves, prob, lower, upper)
        return xr.Dataset(
            {"lower": ("recall", lower), "median": ("recall", median), "upper": ("recall", upper)},
            coords={"recall": r},
            attrs=attrs,
        )

    def summary(self, var_names=None, ci_prob=None, kind="all", ci_kind=None):
        """ArviZ summary of the main quantities (a pandas DataFrame).

        With ``method="laplace"`` the draws are resampled from importance-weighted
        proposals, so ``ess_bulk`` / ``ess_tail`` are capped at
        ``importance["ess_draws"]`` (the importance-sampling ESS, at most the number of
        distinct draws).
        """
        names = var_names or ["average_precision", "roc_auc", "prevalence", "f_knots"]
        return self._summary(names, ci_prob, kind=kind, ci_kind=ci_kind)

    def __repr__(self):
        ap = self.idata["posterior"]["average_precision"]
        return (
            f"PoolPosterior(method={self.method!r}, strategy={self.strategy!r}, "
            f"n_pool={self.n_pool}, n_labelled={self.n_labelled}, "
            f"n_labelled_positives={self.n_labelled_positives}, chains={ap.sizes['chain']}, "
            f"draws={ap.sizes['draw']}, AP mean={float(ap.mean()):.4f})"
        )


def fit_pool(
    y_score,
    selection,
    y_labels=None,
    *,
    method="laplace",
    priors=None,
    draws=1000,
    chains=4,
    ci_prob=0.95,
    label_noise=True,
    random_seed=None,
    tune=1000,
    progressbar=None,
    cores=None,
    target_accept=0.9,
):
    r"""Posterior of the whole pool's PR curve, AP and ROC AUC from a labelled selection.

    Model (:mod:`bayes_prc.pool._model`): the unknown is the calibration curve
    ``P(y = 1 | score)``, monotone non-decreasing in the score:
    ``P(y = 1 | s) = eps + (1 - eps) expit(f(u))`` with
    ``u = Phi^-1((pool rank - 1/2) / N)`` (ties averaged, so any increasing transform of
    the scores gives the same fit), ``f`` piecewise linear with ``K`` knots at quantiles
    of the labelled items' ``u`` and positive slopes (log slopes a Gaussian random walk),
    and a floor ``eps``: a positive rate that does not depend on the score (positives
    the classifier cannot see), with a prior centred on 5% of the Horvitz-Thompson
    prevalence (``priors.floor_share``; 0 removes it). The selection depends on the
    scores only (and, with ``next_batch``, on labels already seen), so the design is
    ignorable (Rubin 1976): the likelihood is the plain Bernoulli likelihood of the
    labelled items; ``inclusion_prob`` only centres the floor's prior. Each draw labels
    the unlabelled items with their calibrated probabilities (with Bernoulli noise when
    ``label_noise``), the labelled items keep their labels, and the pool's PR curve, AP
    (scikit-learn's definition) and ROC AUC follow (:mod:`bayes_prc.pool._posterior`).
    Assumptions: the calibration is a monotone curve, smooth on the probit-rank scale
    (``K + 1`` linear segments), above a constant floor; labels are independent given
    the scores.

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)
        The pool's scores (those the selection was drawn from).
    selection : LabelSelection or ValidatedSelection
        From :func:`bayes_prc.pool.select_labels` (any strategy), or prepared with its
        scores and labels by :func:`bayes_prc.pool.prepare_selection` (then ``y_score``
        and ``y_labels`` may be None and the pool is not validated again).
    y_labels : array-like of shape (len(selection.indices),)
        Labels of the selected items, aligned with ``selection.indices``.
    method : {"laplace", "nuts"}, default "laplace"
        ``"laplace"``: Laplace approximation at the mode + Student-t importance sampling
        with Pareto smoothing (fast, numpy). ``"nuts"``: PyMC's NUTS (the reference).
    priors : PoolPriors or dict, optional
    draws, chains : int, default 1000, 4
    ci_prob : float, default 0.95
        Default probability of the intervals and bands.
    label_noise : bool, default True
        Include the Bernoulli noise of the unlabelled items' labels (the target is the
        pool's realized AP). At 2e5 items, prevalence 1% and 400 stratified labels it
        widens the 90% AP interval by about 2% and changes coverage by less than the
        Monte Carlo error (``benchmarks/coverage_pool.py``, rows ``nonoise``).
    random_seed : int, numpy.random.Generator or None
    tune, progressbar, cores, target_accept
        NUTS settings (``method="nuts"`` only).

    Returns
    -------
    PoolPosterior

    References
    ----------
    Rubin (1976), "Inference and missing data", Biometrika 63; Sawade et al. (2010);
    Marchant & Rubinstein (2017); Kossen et al. (2021); Poms et al. (2021).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import fit_pool, select_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(20_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.5 * y
    >>> sel = select_labels(s, 300, random_seed=1)
    >>> post = fit_pool(s, sel, y[sel.indices], random_seed=2)
    >>> iv = post.interval("average_precision", ci_kind="eti").values
    >>> bool(0 <= iv[0] < iv[1] <= 1)
    True
    """
    prepared = prepare_selection(y_score, selection, y_labels)
    score, is_pos, selection = prepared.score, prepared.is_pos, prepared.selection
    check_choice(method, "method", ("laplace", "nuts"))
    priors = PoolPriors.from_any(priors)
    draws, chains = check_int(draws, "draws"), check_int(chains, "chains")
    ci_prob = check_probability(ci_prob, "ci_prob")
    rng = check_random_state(random_seed)
    u_pool = pool_normal_scores(score.astype(np.float64))
    prevalence = prevalence_estimate(is_pos, selection.inclusion_prob, selection.n_pool)
    data = PoolData(
        u_pool,
        np.asarray(selection.indices),
        is_pos,
        priors.n_knots,
        prevalence=prevalence,
        floor_share=priors.floor_share,
    )
    bins = PoolBins(score.astype(np.float64), u_pool, selection.indices, is_pos.astype(float))
    idata = importance = None
    if method == "laplace":
        out = sample_pool_laplace(data, priors, draws=draws, chains=chains, rng=rng)
        importance = out.pop("importance")
    else:
        sampler = SamplerOptions(
            draws=draws,
            chains=chains,
            tune=check_int(tune, "tune", 0),
            cores=cores,
            target_accept=target_accept,
            progressbar=progressbar,
        )
        idata, out = sample_pool_nuts(data, priors, rng=rng, sampler=sampler)
    return PoolPosterior._build(
        out,
        data,
        bins,
        priors,
        method=method,
        ci_prob=ci_prob,
        strategy=selection.strategy,
        label_noise=bool(label_noise),
        noise_seed=int(rng.integers(0, 2**63 - 1)),
        idata=idata,
        importance=importance,
    )
