r"""Joint regions for (precision, recall) at a threshold, frequentist and Dirichlet-Bayes.

At ``score >= threshold`` the confusion counts ``(tp, fp, fn, tn)`` are multinomial with
cell probabilities ``pi``. Precision ``p = pi_tp / (pi_tp + pi_fp)`` and recall
``r = pi_tp / (pi_tp + pi_fn)`` fix two of the three free parameters; the third (the
nuisance) may be taken as ``pi_tn``. Writing ``d = p + r - p r`` the cells are

    pi_tp = (1 - pi_tn) p r / d,  pi_fp = (1 - pi_tn) (1 - p) r / d,
    pi_fn = (1 - pi_tn) p (1 - r) / d,

and the log-likelihood separates into a term in ``pi_tn`` alone and the multinomial
log-likelihood of ``(tp, fp, fn)`` with the shares ``(p r, (1 - p) r, p (1 - r)) / d``.
The profile over the nuisance is therefore in closed form (``pi_tn = tn / n`` for every
``(p, r)``), and

    -2 log LR(p, r) = 2 sum_k c_k log(c_k / (m s_k(p, r))),   c = (tp, fp, fn), m = sum c.

The profile likelihood-ratio region (Pawitan 2001, ch. 3 and 9) is
``{(p, r): -2 log LR <= chi2_2 quantile at confidence_level}``, the construction of the
``mmu`` package's multinomial profile likelihood. The delta-method ("normal") ellipse has
``var(p) = p (1 - p) / (tp + fp)``, ``var(r) = r (1 - r) / (tp + fn)`` and correlation
``sqrt((1 - p)(1 - r))``. Both are computed without optimisation, on a grid and at any
point; the boundary polygon comes from rays cast from the estimate.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import interpolate, special, stats

from .._core import (
    check_choice,
    check_int,
    check_probability,
    check_random_state,
    plain,
    warn_at_caller,
)
from .._core.display import HTMLReprMixin
from ..exceptions import UndefinedMetricWarning
from ._engine import _prepare
from ._results import frozen_float_array

__all__ = [
    "PR_JOINT_REGION_METHODS",
    "PRJointRegion",
    "pr_joint_credible_region",
    "pr_joint_region",
    "pr_joint_regions",
]

#: Valid ``method`` values of :func:`pr_joint_region`.
PR_JOINT_REGION_METHODS = ("profile", "normal")


@dataclass(frozen=True, eq=False)
class PRJointRegion(HTMLReprMixin):
    """A joint region for (precision, recall) at one threshold.

    The region is ``{(p, r): statistic(p, r) <= cutoff}``.

    Attributes
    ----------
    estimate : tuple of float
        ``(precision, recall)``: the maximum-likelihood estimate ``(tp / (tp + fp),
        tp / (tp + fn))`` for ``"profile"`` / ``"normal"``, the posterior mean for
        ``"dirichlet"``.
    confidence_level : float
        Probability the region holds: the confidence level (frequentist methods) or
        the posterior probability ``ci_prob`` (``"dirichlet"``). Also readable as
        ``level`` (its former name).
    method : {"profile", "normal", "dirichlet"}
    threshold : float
        Items with ``score >= threshold`` are predicted positive.
    tp, fp, fn, tn : int
        Confusion-matrix counts at the threshold.
    precision_grid : ndarray of shape (n_precision,)
    recall_grid : ndarray of shape (n_recall,)
        Grids on ``[0, 1]`` holding the estimate exactly.
    statistic : ndarray of shape (n_precision, n_recall)
        ``-2 log LR`` (``"profile"``), the squared Mahalanobis distance (``"normal"``)
        or minus the log posterior density estimate (``"dirichlet"``), at
        ``(precision_grid[i], recall_grid[j])``.
    cutoff : float
        ``chi2_2`` quantile at ``confidence_level`` (frequentist) or the density level of the
        highest-density region (``"dirichlet"``).
    """

    estimate: tuple
    confidence_level: float
    method: str
    threshold: float
    tp: int
    fp: int
    fn: int
    tn: int
    precision_grid: np.ndarray = field(repr=False)
    recall_grid: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    cutoff: float
    _statistic_fn: Callable = field(repr=False)
    _center: tuple = field(repr=False)
    _boundary_fn: Callable | None = field(default=None, repr=False)

    @property
    def level(self):
        """The region's probability (``confidence_level``; the name of earlier versions)."""
        return self.confidence_level

    @property
    def inside(self):
        """Boolean mask of shape (n_precision, n_recall): grid points in the region."""
        return self.statistic <= self.cutoff

    def statistic_at(self, precision, recall):
        """The statistic at any points (broadcast arrays of precision and recall)."""
        p, r = np.broadcast_arrays(np.asarray(precision, float), np.asarray(recall, float))
        return self._statistic_fn(p, r)

    def contains(self, precision, recall):
        """True where ``(precision, recall)`` lies in the region (computed exactly)."""
        return self.statistic_at(precision, recall) <= self.cutoff

    def contour(self, n_points=256):
        """The boundary polygon, an array of shape (n_points, 2) of (precision, recall).

        Found along ``n_points`` rays from the estimate (the highest-density draw for
        ``"dirichlet"``): on each ray, the first point where the statistic exceeds the
        cutoff (refined by bisection), or the edge of the unit square. This is the
        boundary of the region when the region is star-shaped about that point, as
        the regions here are in practice (the tests check it against the grid mask).
        For ``"dirichlet"`` the statistic on the rays is interpolated (bilinearly) from
        ``statistic`` on the grid rather than re-evaluating the density estimate.
        """
        n_points = check_int(n_points, "n_points", minimum=3)
        fn = self._statistic_fn if self._boundary_fn is None else self._boundary_fn
        return _ray_boundary(fn, self._center, self.cutoff, n_points)


# ---------------------------------------------------------------------------------------
# kernels (prepared counts in, no validation)
# ---------------------------------------------------------------------------------------
def _profile_statistic(counts, p, r):
    """``-2 log LR(p, r)`` of the multinomial, the nuisance profiled out in closed form."""
    tp, fp, fn, _ = counts
    m = tp + fp + fn
    c = np.array([tp, fp, fn], dtype=float)
    best = special.xlogy(c, c / m).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        d = p + r - p * r
        loglik = (
            special.xlogy(tp, p * r / d)
            + special.xlogy(fp, (1 - p) * r / d)
            + special.xlogy(fn, p * (1 - r) / d)
        )
    stat = 2.0 * (best - loglik)
    origin = d == 0  # (0, 0): the limit is 0 along r / p = fp / fn when tp == 0
    stat = np.where(origin, 0.0 if tp == 0 else np.inf, stat)
    return np.maximum(stat, 0.0)


def _normal_statistic(counts, p, r):
    """Squared Mahalanobis distance from the estimate under the delta-method covariance."""
    tp, fp, fn, _ = counts
    p_hat, r_hat = tp / (tp + fp), tp / (tp + fn)
    dp, dr = p - p_hat, r - r_hat
    if tp == 0:  # both estimates 0, covariance 0: the ellipse is the point itself
        return np.where((dp == 0) & (dr == 0), 0.0, np.inf)
    sd_p = np.sqrt(p_hat * (1 - p_hat) / (tp + fp))
    sd_r = np.sqrt(r_hat * (1 - r_hat) / (tp + fn))
    rho = np.sqrt((1 - p_hat) * (1 - r_hat))

    def z(dev, sd):
        if sd > 0:
            return dev / sd
        return np.where(dev == 0, 0.0, np.inf)

    zp, zr = z(dp, sd_p), z(dr, sd_r)
    cross = 2 * rho * zp * zr if rho > 0 else 0.0
    return (zp**2 - cross + zr**2) / (1 - rho**2)


def _ray_boundary(stat_fn, center, cutoff, n_points, n_steps=256, n_bisect=48):
    """First crossing of ``stat_fn = cutoff`` on rays from ``center``, clipped to [0, 1]^2."""
    theta = np.linspace(0.0, 2 * np.pi, n_points, endpoint=False)
    u = np.column_stack([np.cos(theta), np.sin(theta)])  # (precision, recall) directions
    c = np.asarray(center, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        room = np.where(u > 0, (1 - c) / u, np.where(u < 0, -c / u, np.inf))
    t_max = room.min(axis=1)
    s = np.linspace(0.0, 1.0, n_steps + 1)[1:]
    t = t_max[:, None] * s[None, :]

    def at(tt):
        pts = c + tt[..., None] * u[:, None, :] if tt.ndim == 2 else c + tt[:, None] * u
        return stat_fn(np.clip(pts[..., 0], 0, 1), np.clip(pts[..., 1], 0, 1))

    out = at(t) > cutoff
    crosses = out.any(axis=1)
    first = np.argmax(out, axis=1)
    hi = np.where(crosses, t[np.arange(n_points), first], t_max)
    lo = np.where(crosses & (first > 0), t[np.arange(n_points), np.maximum(first - 1, 0)], 0.0)
    for _ in range(n_bisect):
        mid = 0.5 * (lo + hi)
        bad = at(mid) > cutoff
        hi = np.where(crosses & bad, mid, hi)
        lo = np.where(crosses & ~bad, mid, lo)
    radius = np.where(crosses, lo, t_max)
    return np.clip(c + radius[:, None] * u, 0.0, 1.0)


# ---------------------------------------------------------------------------------------
# public boundary
# ---------------------------------------------------------------------------------------
def _grid_interpolator(pg, rg, surface):
    """Bilinear interpolation of a grid surface (infinite values made huge but finite)."""
    big = np.finfo(float).max / 8
    fit = interpolate.RegularGridInterpolator((pg, rg), np.minimum(surface, big))

    def fn(p, r):
        return fit(np.stack(np.broadcast_arrays(p, r), axis=-1))

    return fn


def _check_threshold(threshold, name="threshold"):
    ok = (isinstance(threshold, numbers.Real) and not isinstance(threshold, (bool, np.bool_))) or (
        isinstance(threshold, np.ndarray) and threshold.ndim == 0 and threshold.dtype.kind in "iuf"
    )
    if not ok or not np.isfinite(float(threshold)):
        raise ValueError(f"`{name}` must be a finite real number; got {plain(threshold)}")
    return float(threshold)


def _confusion_at(ranked, thresholds):
    """``(tp, fp, fn, tn)`` int arrays at each threshold (``score >= threshold``)."""
    if ranked.n_pos == 0:
        raise ValueError(
            "`y_true` has no positive item: recall is undefined, so there is no joint "
            "region for (precision, recall)"
        )
    pos = np.sort(ranked.y_score[ranked.is_pos])
    neg = np.sort(ranked.y_score[~ranked.is_pos])
    t = np.asarray(thresholds, float)
    tp = pos.shape[0] - np.searchsorted(pos, t, side="left")
    fp = neg.shape[0] - np.searchsorted(neg, t, side="left")
    bad = np.flatnonzero(tp + fp == 0)
    if bad.size:
        raise ValueError(
            f"`threshold` {t[bad[0]].item()!r} is above every score (max "
            f"{ranked.y_score.max().item()!r}): no item is predicted positive, so precision "
            "is undefined"
        )
    return tp, fp, ranked.n_pos - tp, ranked.n_neg - fp


def _grid(point, size):
    return np.union1d(np.linspace(0.0, 1.0, size), [point])


def _region(counts, threshold, method, level, grid_size):
    tp, fp, fn, tn = (int(x) for x in counts)
    counts = (tp, fp, fn, tn)
    est = (tp / (tp + fp), tp / (tp + fn))
    kernel = _profile_statistic if method == "profile" else _normal_statistic
    if method == "normal" and (est[0] in (0.0, 1.0) or est[1] in (0.0, 1.0)):
        warn_at_caller(
            f"at threshold {threshold!r} the estimate (precision, recall) = {est} is on the "
            "edge of [0, 1]: the normal ellipse is degenerate (a segment or a point); "
            "use method='profile'",
            UndefinedMetricWarning,
        )

    def stat_fn(p, r):
        return kernel(counts, p, r)

    return _region_on_grid(
        stat_fn,
        est,
        grid_size,
        counts,
        confidence_level=level,
        method=method,
        threshold=threshold,
        cutoff=float(stats.chi2.ppf(level, df=2)),
        _center=est,
    )


def _region_on_grid(stat_fn, est, grid_size, counts, *, with_boundary=False, **fields):
    """The :class:`PRJointRegion` of ``stat_fn`` evaluated on the grid around ``est``."""
    pg, rg = _grid(est[0], grid_size), _grid(est[1], grid_size)
    surface = stat_fn(pg[:, None], rg[None, :])
    if with_boundary:
        fields["_boundary_fn"] = _grid_interpolator(pg, rg, surface)
    tp, fp, fn, tn = counts
    return PRJointRegion(
        estimate=est,
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        precision_grid=frozen_float_array(pg),
        recall_grid=frozen_float_array(rg),
        statistic=frozen_float_array(surface),
        _statistic_fn=stat_fn,
        **fields,
    )


def pr_joint_region(
    y_true,
    y_score,
    threshold,
    *,
    method="profile",
    confidence_level=0.95,
    grid_size=201,
    pos_label=None,
):
    r"""Joint confidence region for (precision, recall) at ``score >= threshold``.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        A prepared ``Ranked`` may be passed as ``y_true`` with ``y_score=None``.
    threshold : float
        Finite; items with ``score >= threshold`` are predicted positive. At least one
        item must be (else precision is undefined and a ``ValueError`` is raised).
    method : {"profile", "normal"}, default "profile"
        ``"profile"``: the profile likelihood-ratio region of the multinomial confusion
        matrix, ``-2 log LR(p, r) <= chi2_2.ppf(confidence_level)`` (Pawitan 2001), the
        nuisance parameter profiled out in closed form (module docstring). ``"normal"``:
        the delta-method (bivariate normal) ellipse with the same cutoff; it is a
        segment or a point when an estimate is 0 or 1 (a warning says so).
    confidence_level : float, default 0.95
        Probability that the region holds the true (precision, recall), in ``(0, 1)``.
        (Not a tail probability: ``mmu``'s ``alpha=0.95`` for its normal ellipse means
        a 5% region; here 0.95 is a 95% region.)
    grid_size : int, default 201
        Points per axis of the grid on ``[0, 1]`` (the estimate is added to each).
    pos_label : int, float, bool or str, optional

    Returns
    -------
    PRJointRegion
        With ``statistic`` on the grid, ``cutoff``, ``inside``, ``contains()`` (exact
        at any point) and ``contour()`` (the boundary polygon).

    References
    ----------
    Pawitan, Y. (2001). *In All Likelihood: Statistical Modelling and Inference Using
    Likelihood*. Oxford University Press (profile likelihood, ch. 3 and 9).
    Wilks, S. S. (1938). The large-sample distribution of the likelihood ratio for
    testing composite hypotheses. *Ann. Math. Statist.* 9(1), 60-62.
    The peer implementation is ``mmu`` (Multinomial Metric Uncertainty,
    https://mmu.readthedocs.io), ``mmu.precision_recall_uncertainty``.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc import pr_joint_region
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> s = y + rng.normal(0, 1, 400)
    >>> reg = pr_joint_region(y, s, 0.5, confidence_level=0.95)
    >>> reg.estimate == (reg.tp / (reg.tp + reg.fp), reg.tp / (reg.tp + reg.fn))
    True
    >>> bool(reg.contains(*reg.estimate)), reg.contour().shape
    (True, (256, 2))
    """
    ranked = _prepare(y_true, y_score, pos_label)
    threshold = _check_threshold(threshold)
    method = check_choice(method, "method", PR_JOINT_REGION_METHODS)
    level = check_probability(confidence_level, "confidence_level")
    grid_size = check_int(grid_size, "grid_size", minimum=2)
    counts = _confusion_at(ranked, [threshold])
    return _region([c[0] for c in counts], threshold, method, level, grid_size)


def pr_joint_regions(
    y_true,
    y_score,
    thresholds,
    *,
    method="profile",
    confidence_level=0.95,
    grid_size=201,
    pos_label=None,
):
    """Joint (precision, recall) regions at several thresholds along the curve.

    Each region is :func:`pr_joint_region`'s at its threshold, at ``confidence_level``
    each (pointwise: the regions do not hold all true points jointly with that
    probability). The data are validated and sorted once.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    thresholds : array-like of shape (n_thresholds,)
        Finite thresholds, each with at least one item scored at or above it.
    method, confidence_level, grid_size, pos_label
        As in :func:`pr_joint_region`.

    Returns
    -------
    tuple of PRJointRegion
        One per threshold, in the order given.

    Examples
    --------
    >>> from bayes_prc import pr_joint_regions
    >>> regs = pr_joint_regions([0, 1, 1, 0, 1, 0, 1, 1], [.1, .9, .6, .4, .7, .65, .3, .8],
    ...                         [0.35, 0.62], grid_size=21)
    >>> [(r.tp, r.fp, r.fn) for r in regs], [r.estimate for r in regs][1]
    ([(4, 2, 1), (3, 1, 2)], (0.75, 0.6))
    """
    ranked = _prepare(y_true, y_score, pos_label)
    ts = np.atleast_1d(np.asarray(thresholds, dtype=object))  # keeps bools and strings
    if ts.ndim != 1 or ts.size == 0:
        raise ValueError(f"`thresholds` must be a non-empty 1-D array; got shape {ts.shape}")
    ts = [_check_threshold(t, "thresholds") for t in ts]
    method = check_choice(method, "method", PR_JOINT_REGION_METHODS)
    level = check_probability(confidence_level, "confidence_level")
    grid_size = check_int(grid_size, "grid_size", minimum=2)
    counts = np.column_stack(_confusion_at(ranked, ts))
    return tuple(_region(c, t, method, level, grid_size) for c, t in zip(counts, ts, strict=True))


def pr_joint_credible_region(
    y_true,
    y_score,
    threshold,
    *,
    ci_prob=0.95,
    prior=1.0,
    n_draws=2000,
    grid_size=101,
    pos_label=None,
    random_seed=None,
):
    r"""Highest-posterior-density region of (precision, recall) under a Dirichlet posterior.

    The confusion cells get a symmetric ``Dirichlet(prior)`` prior, so the posterior of
    the shares of ``(tp, fp, fn)`` is ``Dirichlet(tp + prior, fp + prior, fn + prior)``;
    ``n_draws`` draws of (precision, recall) are smoothed by a Gaussian kernel density
    estimate and the region is the density level set holding ``ci_prob`` of the draws
    (Hyndman 1996). No PyMC is needed.

    Parameters
    ----------
    y_true, y_score, threshold, pos_label
        As in :func:`pr_joint_region`.
    ci_prob : float, default 0.95
        Posterior probability of the region, in ``(0, 1)``.
    prior : float, default 1.0
        Dirichlet concentration per cell (1: uniform on the simplex).
    n_draws : int, default 2000
    grid_size : int, default 101
    random_seed : None, int or numpy.random.Generator

    Returns
    -------
    PRJointRegion
        ``method="dirichlet"``, ``estimate`` the posterior mean, ``statistic`` minus the
        log density estimate, ``confidence_level`` = ``ci_prob``. The kernel estimate spills over
        the edges of ``[0, 1]``, so regions touching an edge are approximate there.

    References
    ----------
    Hyndman, R. J. (1996). Computing and graphing highest density regions. *The
    American Statistician* 50(2), 120-126.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc import pr_joint_credible_region
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> s = y + rng.normal(0, 1, 400)
    >>> reg = pr_joint_credible_region(y, s, 0.5, ci_prob=0.9, random_seed=1, grid_size=41)
    >>> reg.method, reg.confidence_level, bool(reg.contains(*reg.estimate))
    ('dirichlet', 0.9, True)
    """
    ranked = _prepare(y_true, y_score, pos_label)
    threshold = _check_threshold(threshold)
    level = check_probability(ci_prob, "ci_prob")
    if not (isinstance(prior, numbers.Real) and np.isfinite(prior) and prior > 0):
        raise ValueError(f"`prior` must be a positive finite number; got {plain(prior)}")
    n_draws = check_int(n_draws, "n_draws", minimum=10)
    grid_size = check_int(grid_size, "grid_size", minimum=2)
    rng = check_random_state(random_seed)
    tp, fp, fn, tn = (int(c[0]) for c in _confusion_at(ranked, [threshold]))
    q = rng.dirichlet([tp + prior, fp + prior, fn + prior], size=n_draws)
    draws = np.column_stack([q[:, 0] / (q[:, 0] + q[:, 1]), q[:, 0] / (q[:, 0] + q[:, 2])])
    kde = stats.gaussian_kde(draws.T)

    def stat_fn(p, r):
        p, r = np.broadcast_arrays(p, r)
        dens = kde(np.vstack([p.ravel(), r.ravel()])).reshape(p.shape)
        with np.errstate(divide="ignore"):
            return -np.log(dens)

    at_draws = stat_fn(draws[:, 0], draws[:, 1])
    cutoff = float(np.quantile(at_draws, level))
    center = tuple(float(x) for x in draws[np.argmin(at_draws)])
    est = tuple(float(x) for x in draws.mean(axis=0))
    return _region_on_grid(
        stat_fn,
        est,
        grid_size,
        (tp, fp, fn, tn),
        with_boundary=True,
        confidence_level=level,
        method="dirichlet",
        threshold=threshold,
        cutoff=cutoff,
        _center=center,
    )
