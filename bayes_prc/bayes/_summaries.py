"""Summaries of a binormal posterior for display: bands, densities and histograms.

Each function takes a :class:`BinormalPosterior` (duck-typed: this module does not import
it) and returns an :mod:`xarray` object of plain arrays; the posterior exposes each one as
a method (``roc_band``, ``threshold_band``, ``ap_density``, ``score_density``,
``score_histograms``). The display objects of :mod:`bayes_prc.plotting` draw these arrays
and compute nothing themselves.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._transforms import transform_scores
from .._validation import check_random_state
from ..empirical import as_ranked

__all__ = [
    "DEFAULT_FPR",
    "eti",
    "roc_band",
    "threshold_band",
    "reflected_kde",
    "ap_density",
    "score_density",
    "score_histograms",
]

#: Default false-positive-rate grid of :func:`roc_band`: 201 even points plus 30
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


def roc_band(posterior, fpr, ci_prob):
    """Pointwise credible band of the ROC curve (see ``BinormalPosterior.roc_band``)."""
    grid = DEFAULT_FPR if fpr is None else _float_1d(fpr, "fpr")
    draws = posterior.model.tpr_at_fpr(grid).reshape(-1, grid.shape[0])
    lower, median, upper = eti(draws, ci_prob)
    attrs = {"ci_prob": ci_prob, "kind": "pointwise", "ci_kind": "eti"}
    return _band(lower, median, upper, "fpr", {"fpr": grid}, attrs)


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
        fitted = transform_scores(score, posterior.transform, "y_score", stacklevel=5)
        lo, hi = min(lo, float(fitted.min())), max(hi, float(fitted.max()))
    grid_fit = np.linspace(lo, hi, int(n_thresholds))
    return posterior._to_score(grid_fit), grid_fit


def threshold_band(posterior, thresholds, n_thresholds, ci_prob, y_score):
    """Precision and recall against the threshold (see ``BinormalPosterior.threshold_band``)."""
    score = None if y_score is None else _float_1d(y_score, "y_score")
    if thresholds is None:
        grid, grid_fit = _default_threshold_grid(posterior, n_thresholds, score)
    else:
        grid, grid_fit = _float_1d(thresholds, "thresholds"), None
    s = grid.shape[0]
    if grid_fit is not None:  # evaluated where it was built: no round trip through the scale
        prec = posterior.model.precision(grid_fit)
        rec = posterior.model.recall(grid_fit)
    else:
        prec = posterior.precision_at_threshold(grid).values
        rec = posterior.recall_at_threshold(grid).values
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


def ap_density(posterior, prevalence, bw_method, n_points):
    """Posterior density of the AP (see ``BinormalPosterior.ap_density``)."""
    ap = posterior.average_precision(prevalence)
    x, density = reflected_kde(ap.values, bw_method=bw_method, n_points=n_points)
    return xr.DataArray(
        density,
        dims="average_precision",
        coords={"average_precision": x},
        name="density",
        attrs={"kernel": "gaussian", "boundary": "reflected at 0 and 1"},
    )


def _check_parametric(posterior, what):
    if posterior.model_type != "parametric":
        raise ValueError(
            f"the {what} needs a model of the scores themselves (fit_binormal(..., "
            "model='parametric')); a rank-based fit is checked with `posterior.fit_check()`"
        )


def score_density(posterior, x, ci_prob, n_draws, random_seed):
    """Posterior predictive score densities (see ``BinormalPosterior.score_density``)."""
    _check_parametric(posterior, "score posterior predictive check")
    x = _float_1d(x, "x")
    n_total = int(np.prod(posterior.model.batch_shape))
    pick = slice(None)
    if n_draws is not None and int(n_draws) < n_total:
        rng = check_random_state(random_seed)
        pick = rng.choice(n_total, size=int(n_draws), replace=False)
    mean, lower, upper = [], [], []
    for label in (0, 1):
        dens = posterior.model.pdf(x, label=label).reshape(-1, x.shape[0])[pick]
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
        attrs={"ci_prob": ci_prob, "ci_kind": "eti", "transform": posterior.transform or "none"},
    )


def score_histograms(posterior, y_true, y_score, bins, pos_label):
    """Observed score histograms per class (see ``BinormalPosterior.score_histograms``)."""
    _check_parametric(posterior, "score posterior predictive check")
    r = as_ranked(y_true, y_score, pos_label=pos_label)
    t = transform_scores(r.y_score, posterior.transform, "y_score", stacklevel=4)
    edges = np.histogram_bin_edges(t, bins=bins)
    hist_neg, _ = np.histogram(t[~r.is_pos], bins=edges, density=True)
    hist_pos, _ = np.histogram(t[r.is_pos], bins=edges, density=True)
    return xr.Dataset(
        {
            "density": (("class", "bin"), np.stack([hist_neg, hist_pos])),
            "bin_edges": ("edge", edges),
        },
        coords={"class": ["neg", "pos"]},
        attrs={"transform": posterior.transform or "none"},
    )
