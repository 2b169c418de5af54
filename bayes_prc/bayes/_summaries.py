"""Summaries of a binormal posterior: PR and ROC bands, threshold curves, densities.

The computations behind :class:`BinormalPosterior`'s bands and display summaries, all
draw by draw. :func:`pr_band` (shared with the score models of
:mod:`bayes_prc.criticism`) and :func:`predictive_curves` take the posterior's pieces;
:class:`DisplaySummaries` is the base class giving the posterior the methods that the
display objects of :mod:`bayes_prc.plotting` draw (``roc_band``, ``threshold_band``,
``ap_density``, ``score_density``, ``score_histograms``). Every one returns an
:mod:`xarray` object of plain arrays; the displays compute nothing themselves.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core import check_choice, check_int, check_probability, check_random_state
from .._core.transforms import transform_scores
from ..binormal import Binormal
from ..empirical import Ranked, as_ranked
from ..models import NormalMixtureScoreModel
from ._common import DEFAULT_RECALL, check_unit_grid, simultaneous_band

__all__ = [
    "DEFAULT_FPR",
    "DisplaySummaries",
    "eti",
    "pr_band",
    "predictive_curves",
    "reflected_kde",
]

#: Default false-positive-rate grid of ``roc_band``: 201 even points plus 30
#: log-spaced points in [1e-4, 0.02], where the binormal ROC curve is steep.
DEFAULT_FPR = np.unique(np.concatenate([np.linspace(0.0, 1.0, 201), np.geomspace(1e-4, 0.02, 30)]))


def eti(draws, ci_prob):
    """Pointwise equal-tailed interval and median over the first axis of ``draws``.

    Returns
    -------
    lower, median, upper : numpy.ndarray
        Each of shape ``draws.shape[1:]``.

    Examples
    --------
    >>> import numpy as np
    >>> lower, median, upper = eti(np.arange(101.0)[:, None], 0.5)
    >>> float(lower[0]), float(median[0]), float(upper[0])
    (25.0, 50.0, 75.0)
    """
    alpha = 1.0 - ci_prob
    lower, median, upper = np.quantile(draws, [alpha / 2, 0.5, 1 - alpha / 2], axis=0)
    return lower, median, upper


def _band(lower, median, upper, dims, coords, attrs):
    return xr.Dataset(
        {"lower": (dims, lower), "median": (dims, median), "upper": (dims, upper)},
        coords=coords,
        attrs=attrs,
    )


def _float_1d(values, name):
    arr = np.asarray(getattr(values, "values", values), dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-dimensional; got an array of shape {arr.shape}")
    return arr


def pr_band(model, recall, ci_prob, kind, **prevalence):
    """Credible band of the PR curve of ``model`` (see ``BinormalPosterior.pr_band``).

    ``model`` is an analytic score model with parameter arrays of shape (chain, draw),
    ``ci_prob`` a checked probability; ``recall`` (default :data:`DEFAULT_RECALL`) and
    ``kind`` are checked here; ``prevalence`` (a keyword, optional) is passed on to
    ``model.precision_at_recall``.
    """
    check_choice(kind, "kind", ("pointwise", "simultaneous"))
    r = check_unit_grid(recall, "recall", DEFAULT_RECALL)
    return curve_band(
        model.precision_at_recall(r, **prevalence).reshape(-1, r.size), r, ci_prob, kind
    )


def averaged_pr_band(posteriors, recall=None, ci_prob=0.95, kind="pointwise"):
    """Credible band of the PR curve under an equal-weight mixture of posteriors.

    Bayesian model averaging with equal model probabilities (Hoeting et al. 1999): the
    posterior curves of every model in ``posteriors`` are pooled, each model with the
    same number of curves (the first ``min`` draws of each), and the band is taken as in
    :meth:`BinormalPosterior.pr_band`. Where the models agree the band is theirs; where
    they disagree (the shape of the curve is not pinned down by a rank-based binormal,
    contaminated or mixture model) it spans them. Equal weights, not weights learned
    from the data: at the sample sizes where the models disagree, the data cannot tell
    them apart reliably (their fit checks have little power, ``docs/coverage.md``).

    Parameters
    ----------
    posteriors : sequence of posteriors
        Fits with an analytic ``model`` of parameter arrays of shape (chain, draw)
        (e.g. :func:`bayes_prc.fit_binormal` with ``model="semiparametric"``,
        ``"contaminated"`` and ``"flexible"``), on the same data.
    recall : array-like, optional
        Recall grid in [0, 1]; default 201 equally spaced points.
    ci_prob : float, default 0.95
    kind : {"pointwise", "simultaneous"}

    Returns
    -------
    xarray.Dataset
        As :meth:`BinormalPosterior.pr_band`; attrs also ``models`` (the models pooled).

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.bayes import averaged_pr_band
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> fits = [bp.fit_binormal(y, s, model=m, random_seed=0, draws=200)
    ...         for m in ("semiparametric", "contaminated")]
    >>> band = averaged_pr_band(fits, recall=[0.2, 0.5, 0.8], ci_prob=0.9)
    >>> band.attrs["models"]
    ['semiparametric', 'contaminated']
    >>> bool((band["lower"] <= band["upper"]).all())
    True
    """
    check_choice(kind, "kind", ("pointwise", "simultaneous"))
    ci_prob = check_probability(ci_prob, "ci_prob")
    posteriors = list(posteriors)
    if not posteriors:
        raise ValueError("`posteriors` must hold at least one fit; got none")
    r = check_unit_grid(recall, "recall", DEFAULT_RECALL)
    per_model = [p.model.precision_at_recall(r).reshape(-1, r.size) for p in posteriors]
    band = curve_band(pool_curves(per_model), r, ci_prob, kind)
    band.attrs["models"] = [getattr(p, "model_type", type(p).__name__) for p in posteriors]
    return band


def pool_curves(per_model):
    """Equal-weight pool of several posteriors' curves, each (S_i, R): the first
    ``min S_i`` curves of each, stacked (the pooling of :func:`averaged_pr_band`)."""
    m = min(c.shape[0] for c in per_model)
    return np.concatenate([c[:m] for c in per_model])


def positives_above_negatives(is_pos, score):
    """How many positives score strictly above every negative (the empirical curve's
    run of precision 1 from recall 0)."""
    is_pos = np.asarray(is_pos, dtype=bool)
    score = np.asarray(score, dtype=np.float64)
    if not (~is_pos).any():
        return int(is_pos.sum())
    return int((score[is_pos] > score[~is_pos].max()).sum())


def precision_one_reach(n_above, n_pos, ci_prob):
    """The largest recall up to which the data cannot rule out a true precision of 1.

    If the population's precision is exactly 1 up to recall ``rho`` (no negative scores
    above the positives' ``1 - rho`` quantile), the number of sampled positives above
    every sampled negative is at least Binomial(``n_pos``, ``rho``). With ``n_above``
    observed, ``rho`` is ruled out at level ``(1 - ci_prob) / 2`` (the upper tail of an
    equal-tailed band) beyond the Clopper-Pearson upper bound
    ``Beta(1 - (1 - ci_prob) / 2; n_above + 1, n_pos - n_above)`` (1 when every positive
    is above every negative). Finite populations (a pool of scored items, a classifier
    whose top scores are all positives) have such a run of precision exactly 1, which
    continuous model curves approach but never reach.
    """
    from scipy import special

    if n_pos <= 0:
        return 0.0
    if n_above >= n_pos:
        return 1.0
    q = 1.0 - (1.0 - ci_prob) / 2.0
    return float(special.betaincinv(n_above + 1, n_pos - n_above, q))


def reach_precision_one(band, reach):
    """``band`` with its upper bound set to 1 at every recall up to ``reach`` (in place).

    The upper bound of a model band where the data cannot rule out precision 1
    (:func:`precision_one_reach`); ``attrs["precision_one_until"]`` records ``reach``.
    """
    r = band["recall"].values
    upper = band["upper"].values.copy()
    upper[r <= reach] = 1.0
    band["upper"] = ("recall", upper)
    band.attrs["precision_one_until"] = float(reach)
    return band


def curve_band(curves, r, ci_prob, kind):
    """Pointwise or simultaneous band of posterior curves (S, R) on the recall grid ``r``.

    The kernel of :meth:`BinormalPosterior.pr_band` and :func:`averaged_pr_band`, for
    callers that already hold the curves (e.g. one draw matrix serving several bands);
    ``r``, ``ci_prob`` and ``kind`` are taken as checked.
    """
    # (R, S): one contiguous row per recall value, so per-recall sorts are fast
    curves = np.ascontiguousarray(curves.T)
    alpha = 1 - ci_prob
    lower, median, upper = np.quantile(curves, [alpha / 2, 0.5, 1 - alpha / 2], axis=1)
    attrs = {"ci_prob": ci_prob, "kind": kind, "ci_kind": "eti"}
    if kind == "simultaneous":
        lower, upper, coverage = simultaneous_band(curves, ci_prob, lower, upper)
        attrs["coverage"] = coverage
    return _band(lower, median, upper, "recall", {"recall": r}, attrs)


#: Test sets of at least this many items are simulated as counts per score bin.
BINNED_TEST_MIN = 100_000

#: Bins (of equal probability for the positives) of the binned test sets.
TEST_BINS = 2000


def _binned_test_curve(model, n_test, rng, r_grid):
    """One simulated test set of a large ``n_test``, as class counts per score bin.

    ``model`` is a single-draw score model (a :class:`Binormal` or a normal mixture,
    e.g. the flexible model). The bin edges are the ``k / TEST_BINS`` quantiles of the
    positive class, so each bin holds a ``1 / TEST_BINS`` share of the positives in
    expectation; the negatives' bin probabilities are the differences of their survival
    function at the edges (for a mixture, its class-conditional bin probabilities). The
    positives and negatives per bin are exact multinomial draws, the scores inside a bin
    are treated as tied. The curve is therefore exact at the bin edges (recall steps of
    about ``1 / TEST_BINS``) and the AP is that of scores tied within bins.
    """
    from scipy import special

    from ..frequentist import multinomial_rows

    prevalence = float(model.prevalence)
    for _ in range(1000):
        n_pos = int(rng.binomial(n_test, prevalence))
        if n_pos:
            break
    else:  # pragma: no cover - astronomically unlikely for sane prevalences
        raise RuntimeError("could not simulate a test set with a positive")
    q = np.arange(1, TEST_BINS) / TEST_BINS
    if isinstance(model, Binormal):
        edges = model.mu_pos + model.sigma_pos * special.ndtri(1.0 - q)  # decreasing
        neg_sf_edges = special.ndtr((model.mu_neg - edges) / model.sigma_neg)
    else:
        edges = np.asarray(model.threshold_at_recall(q), dtype=np.float64)
        neg_sf_edges = np.asarray(model.fpr(edges), dtype=np.float64)
    neg_sf = np.concatenate(([0.0], neg_sf_edges, [1.0]))
    p_neg = np.clip(np.diff(neg_sf), 0.0, None)
    cp = multinomial_rows(rng, np.full(TEST_BINS, n_pos / TEST_BINS), 1)[0]
    n_neg = n_test - n_pos
    cn = multinomial_rows(rng, n_neg * p_neg / p_neg.sum(), 1)[0] if n_neg else np.zeros_like(cp)
    tp, fp = np.cumsum(cp), np.cumsum(cn)
    seen = tp + fp > 0
    precision = tp[seen] / (tp[seen] + fp[seen])
    rc_inc = np.concatenate(([0.0], tp[seen] / n_pos))
    p_inc = np.concatenate(([1.0], precision))
    idx = np.searchsorted(rc_inc, r_grid, side="left")
    ap = float(np.sum(cp[seen] * precision) / n_pos)
    return p_inc[np.minimum(idx, rc_inc.size - 1)], ap, n_pos


def _draw_models(model):
    """``(number of draws, function j -> the single-draw model j)`` of a posterior model.

    :class:`Binormal` draws, or normal-mixture draws (the flexible model: its positives'
    and negatives' mixture components on the last axis).
    """
    if isinstance(model, Binormal):
        names = ("mu_pos", "sigma_pos", "mu_neg", "sigma_neg", "prevalence")
        flat = {k: getattr(model, k).reshape(-1) for k in names}
        return flat["prevalence"].size, lambda j: Binormal(*(flat[k][j] for k in names))
    names = ("weight_pos", "mu_pos", "sigma_pos", "weight_neg", "mu_neg", "sigma_neg")
    flat = {k: np.reshape(getattr(model, k), (-1, getattr(model, k).shape[-1])) for k in names}
    prev = model.prevalence.reshape(-1)
    return prev.size, lambda j: NormalMixtureScoreModel(
        *(flat[k][j] for k in names), float(prev[j])
    )


def predictive_curves(model, n_test, n_curves, random_seed, recall):
    """Empirical PR curves of test sets simulated from ``model``, draw by draw.

    See ``BinormalPosterior.predictive_curves``; ``model`` (a :class:`Binormal` or a
    normal-mixture model such as the flexible model's) has parameter arrays of shape
    (chain, draw), from which ``n_curves`` draws are picked at random. Test sets of at
    least :data:`BINNED_TEST_MIN` items are simulated per score bin
    (:func:`_binned_test_curve`): O(bins) instead of O(n) per curve.
    """
    from ..empirical import average_precision_score, precision_recall_curve

    n_test = check_int(n_test, "n_test")
    n_curves = check_int(n_curves, "n_curves")
    rng = check_random_state(random_seed)
    r_grid = check_unit_grid(recall, "recall", DEFAULT_RECALL)
    n_draws, draw_model = _draw_models(model)
    picks = rng.integers(0, n_draws, size=n_curves)
    prec = np.empty((n_curves, r_grid.size))
    aps = np.empty(n_curves)
    npos = np.empty(n_curves, dtype=np.int64)
    for i, j in enumerate(picks):
        m = draw_model(j)
        if n_test >= BINNED_TEST_MIN:
            prec[i], aps[i], npos[i] = _binned_test_curve(m, n_test, rng, r_grid)
            continue
        for _ in range(1000):
            y, s = m.sample(n_test, random_seed=rng)
            if y.any():
                break
        else:  # pragma: no cover - astronomically unlikely for sane prevalences
            raise RuntimeError("could not simulate a test set with a positive")
        # simulated, not user data: prepared directly (no validation), counted once
        ranked = Ranked(np.asarray(y, dtype=bool), s, None, 1)
        p, rc, _ = precision_recall_curve(ranked, None)
        # step read-out: recall is decreasing in p/rc; for each grid value take the
        # precision at the last index (highest threshold ... ) whose recall >= r
        rc_inc, p_inc = rc[::-1], p[::-1]
        idx = np.searchsorted(rc_inc, r_grid, side="left")
        prec[i] = p_inc[np.minimum(idx, rc_inc.size - 1)]
        aps[i] = average_precision_score(ranked, None)
        npos[i] = int(y.sum())
    return xr.Dataset(
        {
            "precision": (("curve", "recall"), prec),
            "average_precision": ("curve", aps),
            "n_pos": ("curve", npos),
        },
        coords={"recall": r_grid, "curve": np.arange(n_curves)},
        attrs={"n_test": n_test},
    )


def reflected_kde(draws, *, bw_method=None, n_points=512, lower=0.0, upper=1.0):
    """Gaussian kernel density of ``draws`` with the mass beyond the bounds reflected back.

    The kernel density estimate (Silverman 1986) leaks mass past the ends of a bounded
    support; reflecting it at ``lower`` and ``upper`` (Schuster 1985) keeps a density
    that integrates to 1 over [lower, upper] even for draws near a bound.

    Parameters
    ----------
    draws : array-like
        Draws (flattened).
    bw_method : str, float or callable, optional
        Bandwidth of :class:`scipy.stats.gaussian_kde`.
    n_points : int, default 512
        Grid size; the grid spans the draws +- 3 bandwidths, within the bounds.
    lower, upper : float, default 0 and 1
        The support.

    Returns
    -------
    x, density : numpy.ndarray of shape (n_points,)

    Examples
    --------
    >>> import numpy as np
    >>> draws = np.random.default_rng(0).beta(20, 2, size=2000)
    >>> x, density = reflected_kde(draws)
    >>> bool(x.max() <= 1.0), round(float(np.trapezoid(density, x)), 2)
    (True, 1.0)
    """
    from scipy import stats

    draws = np.asarray(draws, dtype=np.float64).reshape(-1)
    kde = stats.gaussian_kde(draws, bw_method=bw_method)
    bw = float(np.sqrt(kde.covariance[0, 0]))
    x = np.linspace(
        max(lower, draws.min() - 3 * bw), min(upper, draws.max() + 3 * bw), int(n_points)
    )
    density = kde(x) + kde(2.0 * lower - x) + kde(2.0 * upper - x)
    return x, density


def _default_threshold_grid(posterior, n_thresholds, score):
    """``(grid on the score scale, grid on the fitted scale or None)`` spanning the model.

    Rank-based fits: from the median thresholds at recall 0.999 and 0.001. Parametric
    fits: both classes' posterior median mean +- 3.5 sd on the fitted scale, evenly spaced
    there. Either range is widened to cover the observed scores ``score``.
    """
    if posterior.model_type != "parametric":
        lat = posterior.threshold_at_recall([0.999, 0.001]).values
        lo, hi = float(np.median(lat[..., 0])), float(np.median(lat[..., 1]))
        if score is not None:
            lo, hi = min(lo, float(score.min())), max(hi, float(score.max()))
        return np.linspace(lo, hi, int(n_thresholds)), None
    m = posterior.model
    med = {
        k: float(np.median(getattr(m, k))) for k in ("mu_pos", "sigma_pos", "mu_neg", "sigma_neg")
    }
    lo = min(med["mu_neg"] - 3.5 * med["sigma_neg"], med["mu_pos"] - 3.5 * med["sigma_pos"])
    hi = max(med["mu_neg"] + 3.5 * med["sigma_neg"], med["mu_pos"] + 3.5 * med["sigma_pos"])
    if score is not None:
        fitted = transform_scores(score, posterior.transform, "y_score", stacklevel=4)
        lo, hi = min(lo, float(fitted.min())), max(hi, float(fitted.max()))
    grid_fit = np.linspace(lo, hi, int(n_thresholds))
    return posterior._to_score(grid_fit), grid_fit


def _check_parametric(posterior, what):
    if posterior.model_type != "parametric":
        raise ValueError(
            f"the {what} needs a model of the scores themselves (fit_binormal(..., "
            "model='parametric')); a rank-based fit is checked with `posterior.fit_check()`"
        )


class DisplaySummaries:
    """Base class of :class:`BinormalPosterior`: the summaries its displays draw.

    Needs the posterior's ``model``, ``model_type``, ``transform``, ``ci_prob``,
    ``average_precision``, ``threshold_at_recall``, ``precision_at_threshold``,
    ``recall_at_threshold`` and ``_to_score``.
    """

    def roc_band(self, fpr=None, ci_prob=None):
        """Pointwise equal-tailed credible band of the binormal ROC curve.

        Per draw ``tpr = Phi((mu_pos - mu_neg + sigma_neg * ndtri(fpr)) / sigma_pos)``
        (Dorfman & Alf 1969; Metz 1978). ``fpr`` defaults to 201 even points plus 30
        log-spaced points in [1e-4, 0.02]; ``ci_prob`` to the fit's.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` over dim ``fpr``; attrs ``ci_prob``, ...

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> post.roc_band(fpr=[0.0, 0.1, 1.0])["median"].values.round(3).tolist()
        [0.0, 0.399, 1.0]
        """
        ci_prob = self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")
        grid = DEFAULT_FPR if fpr is None else _float_1d(fpr, "fpr")
        draws = self.model.tpr_at_fpr(grid).reshape(-1, grid.shape[0])
        lower, median, upper = eti(draws, ci_prob)
        attrs = {"ci_prob": ci_prob, "kind": "pointwise", "ci_kind": "eti"}
        return _band(lower, median, upper, "fpr", {"fpr": grid}, attrs)

    def threshold_band(self, thresholds=None, *, n_thresholds=201, ci_prob=None, y_score=None):
        """Precision and recall against the score threshold, median and equal-tailed band.

        Per draw, the binormal precision and recall of ``score >= t`` (Brodersen et al.
        2010). ``thresholds`` (original score scale) default to ``n_thresholds`` points
        spanning both fitted classes (parametric: posterior median mean +- 3.5 sd, evenly
        spaced on the fitted scale; rank-based: the median thresholds at recall 0.999 and
        0.001), widened to cover the observed scores ``y_score`` if given.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` with dims (quantity, threshold), quantity
            ``["precision", "recall"]``.

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> band = post.threshold_band([0.0, 1.0], ci_prob=0.9)
        >>> band["median"].sel(quantity="recall").values.round(2).tolist()
        [0.87, 0.51]
        """
        ci_prob = self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")
        score = None if y_score is None else _float_1d(y_score, "y_score")
        if thresholds is None:
            grid, grid_fit = _default_threshold_grid(self, n_thresholds, score)
        else:
            grid, grid_fit = _float_1d(thresholds, "thresholds"), None
        s = grid.shape[0]
        if grid_fit is not None:  # evaluated where it was built: no round trip through the scale
            prec = self.model.precision(grid_fit)
            rec = self.model.recall(grid_fit)
        else:
            prec = self.precision_at_threshold(grid).values
            rec = self.recall_at_threshold(grid).values
        bands = [eti(v.reshape(-1, s), ci_prob) for v in (prec, rec)]
        lower, median, upper = (np.stack([b[i] for b in bands]) for i in range(3))
        return _band(
            lower,
            median,
            upper,
            ("quantity", "threshold"),
            {"quantity": ["precision", "recall"], "threshold": grid},
            {"ci_prob": ci_prob, "kind": "pointwise", "ci_kind": "eti"},
        )

    def ap_density(self, prevalence=None, *, bw_method=None, n_points=512):
        """Posterior density of the AP: Gaussian KDE of the draws, reflected at 0 and 1.

        The kernel mass past 0 or 1 is reflected back (Schuster 1985), so the density
        integrates to 1 over [0, 1]. ``prevalence`` as in :meth:`average_precision`;
        ``bw_method`` of :class:`scipy.stats.gaussian_kde`; ``n_points`` grid points
        spanning the draws +- 3 bandwidths.

        Returns
        -------
        xarray.DataArray
            ``density`` over dim ``average_precision``.

        Examples
        --------
        >>> import numpy as np
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> dens = post.ap_density()
        >>> round(float(np.trapezoid(dens.values, dens["average_precision"].values)), 2)
        1.0
        """
        ap = self.average_precision(prevalence)
        x, density = reflected_kde(ap.values, bw_method=bw_method, n_points=n_points)
        return xr.DataArray(
            density,
            dims="average_precision",
            coords={"average_precision": x},
            name="density",
            attrs={"kernel": "gaussian", "boundary": "reflected at 0 and 1"},
        )

    def score_density(self, x, *, ci_prob=None, n_draws=None, random_seed=None):
        """Posterior predictive density of each class's scores at ``x`` (fitted scale).

        The mixture over draws (a random subset of ``n_draws``, if given) of each class's
        normal density, with a pointwise equal-tailed band of the per-draw densities,
        for a graphical posterior predictive check (Gelman, Meng & Stern 1996; Gabry et
        al. 2019) against :meth:`score_histograms`. Parametric fits only.

        Returns
        -------
        xarray.Dataset
            ``density``, ``lower``, ``upper`` with dims (class, score), class
            ``["neg", "pos"]``.

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> dict(post.score_density([-1.0, 0.0, 1.0])["density"].sizes)
        {'class': 2, 'score': 3}
        """
        ci_prob = self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")
        _check_parametric(self, "score posterior predictive check")
        x = _float_1d(x, "x")
        n_total = int(np.prod(self.model.batch_shape))
        pick = slice(None)
        if n_draws is not None and int(n_draws) < n_total:
            rng = check_random_state(random_seed)
            pick = rng.choice(n_total, size=int(n_draws), replace=False)
        mean, lower, upper = [], [], []
        for label in (0, 1):
            dens = self.model.pdf(x, label=label).reshape(-1, x.shape[0])[pick]
            lo, _, hi = eti(dens, ci_prob)
            mean.append(dens.mean(axis=0))
            lower.append(lo)
            upper.append(hi)
        return xr.Dataset(
            {
                "density": (("class", "score"), np.stack(mean)),
                "lower": (("class", "score"), np.stack(lower)),
                "upper": (("class", "score"), np.stack(upper)),
            },
            coords={"class": ["neg", "pos"], "score": x},
            attrs={"ci_prob": ci_prob, "ci_kind": "eti", "transform": self.transform or "none"},
        )

    def score_histograms(self, y_true, y_score=None, *, bins="auto", pos_label=None):
        """Density histograms of each class's observed scores on the fitted scale.

        The fit's transform is applied (exact 0 and 1 moved inside, as in the fit); both
        classes share the :func:`numpy.histogram_bin_edges` ``bins``. ``y_true`` may be a
        ``Ranked`` (with ``y_score=None``). Parametric fits only.

        Returns
        -------
        xarray.Dataset
            ``density`` with dims (class, bin), class ``["neg", "pos"]``, and
            ``bin_edges`` over dim ``edge``.

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> hist = post.score_histograms(y, s, bins=10)
        >>> hist.sizes["bin"], hist.sizes["edge"]
        (10, 11)
        """
        _check_parametric(self, "score posterior predictive check")
        r = as_ranked(y_true, y_score, pos_label=pos_label)
        t = transform_scores(r.y_score, self.transform, "y_score", stacklevel=3)
        edges = np.histogram_bin_edges(t, bins=bins)
        hist_neg, _ = np.histogram(t[~r.is_pos], bins=edges, density=True)
        hist_pos, _ = np.histogram(t[r.is_pos], bins=edges, density=True)
        return xr.Dataset(
            {
                "density": (("class", "bin"), np.stack([hist_neg, hist_pos])),
                "bin_edges": ("edge", edges),
            },
            coords={"class": ["neg", "pos"]},
            attrs={"transform": self.transform or "none"},
        )
