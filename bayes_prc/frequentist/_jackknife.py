"""Jackknife (leave one out) values, and the percentile and BCa intervals of a bootstrap.

See :mod:`bayes_prc.bootstrap`, which re-exports the public names, for the engine they
belong to.

References
----------
.. [1] Efron, B. (1987). "Better bootstrap confidence intervals". JASA 82 (397): 171-185.
.. [2] Davison, A. C.; Hinkley, D. V. (1997). Bootstrap Methods and their Application,
   Cambridge University Press (stratified resampling; BCa intervals, chapter 5).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from scipy.special import ndtr, ndtri

from .._core import check_choice, check_probability
from ..empirical import AUC_PR_ESTIMATORS, auc_pr_validated
from ._engine import _Bins, _prepare, _require_positive

__all__ = ["BCaInterval", "bca_interval", "jackknife_values", "percentile_interval"]

#: For estimators other than AP the BCa jackknife is brute force (O(n) per leave-one-out);
#: at most this many items per class are left out (a random subset above it).
JACKKNIFE_MAX_PER_CLASS = 1000

BCaInterval = namedtuple("BCaInterval", ["low", "high", "bias_correction", "acceleration"])
BCaInterval.__doc__ = (
    "BCa interval ends with Efron's bias correction z0 and acceleration a (Efron 1987)."
)


# --------------------------------------------------------------------------------------
# jackknife (leave one out)
# --------------------------------------------------------------------------------------
def _ap_jackknife(bins):
    """Exact leave-one-out AP of every positive and every negative, O(n) after the bins.

    Returns ``(loo_pos, loo_neg)`` in the order of ``bins.pos_items`` /
    ``bins.neg_items``. Leaving out the only positive gives NaN.
    """
    k = bins.n_groups
    a, c = (v[0] for v in bins.data_counts)
    tp = np.cumsum(a)
    fp = np.cumsum(c[:k])
    p = tp[-1]
    term = a * tp / (tp + fp)
    prefix = np.concatenate(([0.0], np.cumsum(term)))  # prefix[g]: groups before g
    full = prefix[-1] / p
    # a negative of bin b < K lowers FP_g by one for every g >= b (FP_g >= 1 there)
    t_neg = np.zeros(k)
    np.divide(a * tp, tp + fp - 1.0, out=t_neg, where=fp >= 1)
    suffix_neg = np.concatenate((np.cumsum(t_neg[::-1])[::-1], [0.0]))
    loo_bin = (prefix + suffix_neg) / p
    loo_bin[k] = full  # negatives below every positive change nothing
    loo_neg = loo_bin[bins.neg_bin]
    if p <= 1:
        return np.full(bins.n_pos, np.nan), loo_neg
    # a positive of group h: P -> P - 1, a_h -> a_h - 1, TP_g -> TP_g - 1 for g >= h
    d = tp - 1.0 + fp
    t_pos = np.zeros(k)
    np.divide(a * (tp - 1.0), d, out=t_pos, where=d > 0)
    after = np.concatenate((np.cumsum(t_pos[::-1])[::-1][1:], [0.0]))  # sum over g > h
    own = np.zeros(k)
    np.divide((a - 1.0) * (tp - 1.0), d, out=own, where=(a > 1) & (d > 0))
    loo_group = (prefix[:k] + own + after) / (p - 1.0)
    return loo_group[bins.pos_group], loo_neg


def _brute_jackknife(bins, estimator, items):
    """Leave-one-out estimates for the given items (input indices), O(n) each."""
    order, is_pos_s, score_s = bins.sorted_view
    where = np.empty(bins.n, dtype=np.int64)
    where[order] = np.arange(bins.n)
    w = np.ones(bins.n)
    out = np.empty(items.shape[0])
    for j, item in enumerate(items):
        w[where[item]] = 0.0
        out[j] = auc_pr_validated(is_pos_s, score_s, w, estimator)
        w[where[item]] = 1.0
    return out


def _jackknife_strata(bins, estimator, rng, max_per_class=JACKKNIFE_MAX_PER_CLASS, pooled=False):
    """Leave-one-out values per class for the BCa acceleration, with the class sizes.

    AP: exact for every item. Other estimators: every item of a class of at most
    ``max_per_class`` items, otherwise a uniform random subset of that size. A class of
    a single item gives no leave-one-out value (its influence is taken as zero).

    ``pooled=True`` (the unstratified bootstrap): one stratum of all items, the
    one-sample jackknife. AP: every item, except that leaving out the only positive
    (AP undefined) is dropped. Other estimators: all items, or a uniform random subset
    of ``2 * max_per_class`` of them.
    """
    if pooled:
        if estimator == "average_precision":
            values = np.concatenate(_ap_jackknife(bins))
            values = values[np.isfinite(values)]
            return [values], [values.shape[0]]
        items = np.arange(bins.n)
        if bins.n_pos == 1:  # leaving out the only positive: undefined, dropped
            items = items[items != bins.pos_items[0]]
        if items.shape[0] > 2 * max_per_class:
            items = np.sort(rng.choice(items, size=2 * max_per_class, replace=False))
        return [_brute_jackknife(bins, estimator, items)], [bins.n - (bins.n_pos == 1)]
    if estimator == "average_precision":
        loo_pos, loo_neg = _ap_jackknife(bins)
        strata = [loo_pos, loo_neg]
    else:
        strata = []
        for items in (bins.pos_items, bins.neg_items):
            if items.shape[0] > max_per_class:
                items = np.sort(rng.choice(items, size=max_per_class, replace=False))
            if items.shape[0] > 1:
                strata.append(_brute_jackknife(bins, estimator, items))
            else:
                strata.append(np.zeros(0))
    sizes = [bins.n_pos, bins.n_neg]
    keep = [(v, m) for v, m in zip(strata, sizes, strict=True) if m > 1 and v.shape[0] > 0]
    return [v for v, _ in keep], [m for _, m in keep]


def jackknife_values(y_true, y_score, *, estimator="average_precision", pos_label=None):
    """Leave-one-out values of an AUC-PR estimator, one per item.

    For average precision the values are exact and computed in O(n) after one sort:
    leaving out a negative lowers the false positives of every positive group at or below
    its score by one, and leaving out a positive lowers the true positives from its group
    on, so prefix and suffix sums over the positive groups give all leave-one-out values
    at once. The other estimators are recomputed n times (O(n^2)); use them on small
    data.

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        ``values[i]`` is the estimator on the data without item ``i``; NaN when ``i`` is
        the only positive.

    Examples
    --------
    >>> from bayes_prc.bootstrap import jackknife_values
    >>> jackknife_values([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).round(4).tolist()
    [0.8333, 1.0, 1.0, 0.5]
    """
    estimator = check_choice(estimator, "estimator", AUC_PR_ESTIMATORS)
    bins = _Bins(_prepare(y_true, y_score, pos_label))
    _require_positive(bins)
    out = np.empty(bins.n)
    if estimator == "average_precision":
        loo_pos, loo_neg = _ap_jackknife(bins)
    else:
        loo_neg = _brute_jackknife(bins, estimator, bins.neg_items)
        if bins.n_pos > 1:
            loo_pos = _brute_jackknife(bins, estimator, bins.pos_items)
        else:
            loo_pos = np.full(1, np.nan)
    out[bins.pos_items] = loo_pos
    out[bins.neg_items] = loo_neg
    return out


# --------------------------------------------------------------------------------------
# intervals from a bootstrap distribution
# --------------------------------------------------------------------------------------
def percentile_interval(distribution, *, confidence_level=0.95):
    """Equal-tailed percentile interval of a bootstrap (or posterior) distribution.

    The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles with linear interpolation
    (:func:`numpy.quantile`'s default, as :func:`scipy.stats.bootstrap` uses).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bootstrap import percentile_interval
    >>> [round(float(v), 3) for v in percentile_interval(np.arange(101.0) / 100)]
    [0.025, 0.975]
    """
    level = check_probability(confidence_level)
    dist = np.asarray(distribution, dtype=np.float64)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(dist, [alpha, 1.0 - alpha])
    return float(low), float(high)


def _acceleration(strata, sizes):
    """Multi-sample jackknife acceleration (Efron 1987; Davison & Hinkley 1997).

    For stratum ``k`` of size ``n_k`` with leave-one-out values ``t_kj`` (all of them, or
    a random subset standing for them) and ``U_kj = (n_k - 1)(mean_k - t_kj)``,
    ``a = sum_k n_k^-3 S3_k / (6 (sum_k n_k^-2 S2_k)^(3/2))`` where ``S_p`` are the sums
    of ``U^p`` over the stratum (estimated as ``n_k`` times the subset mean).
    """
    num = 0.0
    den = 0.0
    for values, n_k in zip(strata, sizes, strict=True):
        v = np.asarray(values, dtype=np.float64)
        if v.shape[0] == 0 or n_k < 2:
            continue
        u = (n_k - 1.0) * (v.mean() - v)
        num += n_k * np.mean(u**3) / n_k**3
        den += n_k * np.mean(u**2) / n_k**2
    if den <= 0.0:
        return 0.0
    return float(num / (6.0 * den**1.5))


def bca_interval(estimate, distribution, jackknife, *, confidence_level=0.95, sizes=None):
    r"""Bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987).

    With :math:`\hat\theta` the estimate, :math:`\theta^*_b` the bootstrap distribution
    and :math:`z_\alpha = \Phi^{-1}(\alpha)`:

    .. math::

        z_0 = \Phi^{-1}\Bigl(\frac{\#\{\theta^*_b < \hat\theta\}
              + \#\{\theta^*_b \le \hat\theta\}}{2B}\Bigr), \qquad
        \alpha_{1,2} = \Phi\Bigl(z_0 + \frac{z_0 + z_{\alpha/2,\,1-\alpha/2}}
              {1 - a (z_0 + z_{\alpha/2,\,1-\alpha/2})}\Bigr),

    and the interval is the :math:`\alpha_1` and :math:`\alpha_2` quantiles of the
    distribution (linear interpolation). Ties with :math:`\hat\theta` count one half
    (values within ``1e-12`` relative of it are ties), the convention of
    :func:`scipy.stats.bootstrap`. The acceleration :math:`a` comes from jackknife values
    per stratum (one array per independently resampled class) with the multi-sample
    formula used by :func:`scipy.stats.bootstrap` (Davison & Hinkley 1997):
    :math:`a = \frac{1}{6} \sum_k n_k^{-3} \sum_j U_{kj}^3 /
    (\sum_k n_k^{-2} \sum_j U_{kj}^2)^{3/2}` with
    :math:`U_{kj} = (n_k - 1)(\bar t_k - t_{kj})`.

    Parameters
    ----------
    estimate : float
        The estimate on the full data.
    distribution : array-like of shape (n_resamples,)
        Bootstrap distribution.
    jackknife : sequence of array-like
        Leave-one-out values, one array per stratum.
    confidence_level : float, default 0.95
    sizes : sequence of int, optional
        Stratum sizes when the jackknife arrays are random subsets of their strata
        (default: the array lengths).

    Returns
    -------
    BCaInterval
        ``(low, high, bias_correction, acceleration)``; ``low`` and ``high`` are NaN when
        the estimate lies outside the range of the distribution (``z0`` infinite), as in
        :func:`scipy.stats.bootstrap`.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.bootstrap import bca_interval, percentile_interval
    >>> dist = np.linspace(0.0, 1.0, 1001)
    >>> res = bca_interval(0.5, dist, [np.array([0.4, 0.5, 0.6])])  # z0 = a = 0
    >>> [round(res.low, 4), round(res.high, 4)], [round(v, 4) for v in percentile_interval(dist)]
    ([0.025, 0.975], [0.025, 0.975])
    """
    level = check_probability(confidence_level)
    dist = np.asarray(distribution, dtype=np.float64)
    theta = float(estimate)
    tol = 1e-12 * max(1.0, abs(theta))
    below = np.count_nonzero(dist < theta - tol)
    at_or_below = np.count_nonzero(dist <= theta + tol)
    frac = (below + at_or_below) / (2.0 * dist.shape[0])
    z0 = float(ndtri(frac))
    strata = [np.asarray(v, dtype=np.float64) for v in jackknife]
    sizes = [v.shape[0] for v in strata] if sizes is None else list(sizes)
    a = _acceleration(strata, sizes)
    if not np.isfinite(z0):
        return BCaInterval(float("nan"), float("nan"), z0, a)
    alpha = (1.0 - level) / 2.0
    z = np.array([ndtri(alpha), -ndtri(alpha)])
    num = z0 + z
    den = 1.0 - a * num
    # beyond the pole of Efron's map the level would wrap around: take the limit 0 or 1
    with np.errstate(divide="ignore"):
        levels = np.where(den > 0, ndtr(z0 + num / np.where(den > 0, den, 1.0)), num > 0)
    levels = np.clip(levels.astype(np.float64), 0.0, 1.0)
    low, high = np.quantile(dist, levels)
    return BCaInterval(float(low), float(high), z0, a)
