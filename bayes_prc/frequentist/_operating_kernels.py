r"""Metrics of the 2x2 confusion matrix as functions of its cells, and their kernels.

The cells are ordered ``(tp, fp, tn, fn)`` along the last axis. Every metric except
the MCC and the balanced accuracy is a ratio of two linear forms of the cells,
:math:`m(c) = a^\top c / b^\top c`, so its value and gradient come from the
coefficient vectors ``(a, b)`` alone; the balanced accuracy is the mean of recall and
specificity, and the MCC has its own formula. A metric is undefined exactly where one of
its denominators is zero (the numerator then is zero too: ``0 / 0``), and is NaN there.

Private kernels of :mod:`bayes_prc.frequentist._operating_point`: they take validated
input and never validate again.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, stats

__all__ = [
    "METRICS",
    "PROPORTION_CELLS",
    "RANGES",
    "beta_mixture_interval",
    "cluster_cell_replicates",
    "cluster_delta_standard_error",
    "cluster_proportion_design_effect",
    "delta_standard_error",
    "metric_value",
    "precision_at_k_replicates",
    "weighted_cell_replicates",
]

#: Metrics of :func:`metric_value`, in the order the documentation lists them.
METRICS = (
    "f1",
    "mcc",
    "accuracy",
    "balanced_accuracy",
    "precision",
    "recall",
    "specificity",
    "npv",
    "fpr",
)

# numerator and denominator coefficients over (tp, fp, tn, fn)
_RATIOS = {
    "f1": ((2, 0, 0, 0), (2, 1, 0, 1)),
    "accuracy": ((1, 0, 1, 0), (1, 1, 1, 1)),
    "precision": ((1, 0, 0, 0), (1, 1, 0, 0)),
    "recall": ((1, 0, 0, 0), (1, 0, 0, 1)),
    "specificity": ((0, 0, 1, 0), (0, 1, 1, 0)),
    "npv": ((0, 0, 1, 0), (0, 0, 1, 1)),
    "fpr": ((0, 1, 0, 0), (0, 1, 1, 0)),
}
_RATIOS = {k: (np.array(a, float), np.array(b, float)) for k, (a, b) in _RATIOS.items()}

#: The binomial-proportion metrics: ``metric -> (success cells, trial cells)`` (indices
#: into ``(tp, fp, tn, fn)``).
PROPORTION_CELLS = {
    m: (tuple(np.flatnonzero(_RATIOS[m][0])), tuple(np.flatnonzero(_RATIOS[m][1])))
    for m in ("accuracy", "precision", "recall", "specificity", "npv", "fpr")
}

#: Range of each metric (where the delta-method interval is clipped).
RANGES = {m: (-1.0, 1.0) if m == "mcc" else (0.0, 1.0) for m in METRICS}


def metric_value(metric, cells):
    """The metric of cells ``(..., 4)`` (counts or probabilities); NaN where undefined."""
    c = np.asarray(cells, dtype=np.float64)
    tp, fp, tn, fn = np.moveaxis(c, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric in _RATIOS:
            a, b = _RATIOS[metric]
            return (c @ a) / (c @ b)
        if metric == "balanced_accuracy":
            return (tp / (tp + fn) + tn / (tn + fp)) / 2.0
        # mcc
        den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        return (tp * tn - fp * fn) / den


def _gradient(metric, p):
    """Gradient of the metric with respect to the cells, at a point where it is defined."""
    if metric in _RATIOS:
        a, b = _RATIOS[metric]
        return (a - metric_value(metric, p) * b) / (p @ b)
    if metric == "balanced_accuracy":
        return (_gradient("recall", p) + _gradient("specificity", p)) / 2.0
    # mcc = N / sqrt(P), N = tp tn - fp fn, P the product of the four margins
    tp, fp, tn, fn = p
    d_num = np.array([tn, -fn, tp, -fp])
    pp, ap, pn, an = tp + fp, tp + fn, tn + fn, tn + fp  # predicted/actual pos/neg
    d_log_den = np.array([1 / pp + 1 / ap, 1 / pp + 1 / an, 1 / pn + 1 / an, 1 / pn + 1 / ap])
    value = metric_value("mcc", p)
    return d_num / np.sqrt(pp * ap * pn * an) - value * d_log_den / 2.0


def delta_standard_error(metric, cells, cells_sq):
    r"""Delta-method standard error of the metric of the (weighted) cell totals.

    With cell totals :math:`c_j = \sum_{i \in j} w_i`, :math:`W = \sum_j c_j`,
    :math:`\hat p = c / W` and :math:`g = \nabla m(\hat p)`, the linearised variance is
    :math:`\sum_j s_j (g_j - g^\top \hat p)^2 / W^2` with :math:`s_j = \sum_{i \in j}
    w_i^2`; for unit weights (:math:`s = c`, :math:`W = n`) this is the multinomial
    delta method :math:`g^\top(\operatorname{diag}\hat p - \hat p \hat p^\top) g / n`.
    """
    total = cells.sum()
    p = cells / total
    g = _gradient(metric, p)
    centred = g - g @ p
    return float(np.sqrt(cells_sq @ centred**2) / total)


def cluster_delta_standard_error(metric, cluster_cells):
    r"""Delta-method standard error of the metric with the clusters as the units.

    ``cluster_cells`` (G, 4) holds each cluster's cell counts, :math:`T = \sum_k C_k`,
    :math:`W = \sum_j T_j`, :math:`\hat p = T / W` and :math:`g = \nabla m(\hat p)`; each
    cluster's linearised contribution is :math:`z_k = \sum_j (g_j - g^\top \hat p)
    C_{kj} / W` (they sum to 0) and the variance is :math:`G / (G - 1) \sum_k z_k^2`,
    the cluster-robust (sandwich) variance of a smooth function of totals (Binder 1983).
    """
    total_cells = cluster_cells.sum(axis=0)
    total = total_cells.sum()
    p = total_cells / total
    g = _gradient(metric, p)
    z = cluster_cells @ (g - g @ p) / total
    n_clusters = cluster_cells.shape[0]
    return float(np.sqrt(n_clusters / (n_clusters - 1.0) * np.sum(z * z)))


def cluster_proportion_design_effect(num, den):
    """Design effect of the ratio ``sum num / sum den`` over clusters (at least 1).

    The cluster-robust variance of the ratio estimator, ``G / (G - 1) sum_k (num_k - p
    den_k)^2 / (sum den)^2``, over the binomial one ``p (1 - p) / sum den`` (Kish 1965);
    1 when either is 0.
    """
    n = den.sum()
    p = num.sum() / n
    g = num.shape[0]
    var_cl = g / (g - 1.0) * np.sum((num - p * den) ** 2) / n**2
    var_bin = p * (1.0 - p) / n
    return float(max(1.0, var_cl / var_bin)) if var_bin > 0 and var_cl > 0 else 1.0


def cluster_cell_replicates(rng, cluster_cells, n_resamples, block):
    """Cell totals ``(n_resamples, 4)`` of cluster bootstrap resamples.

    Resample ``r`` draws the ``G`` clusters with replacement
    (``rng.integers(0, G, size=(b, G))``, ``block`` resamples per call) and sums their
    cells.
    """
    n_clusters = cluster_cells.shape[0]
    out = np.empty((n_resamples, cluster_cells.shape[1]))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        draws = rng.integers(0, n_clusters, size=(b, n_clusters))
        for r in range(b):
            out[done + r] = np.bincount(draws[r], minlength=n_clusters) @ cluster_cells
        done += b
    return out


def weighted_cell_replicates(rng, cell, weight, n_resamples, block):
    """Cell totals ``(n_resamples, 4)`` of item bootstrap resamples with weights.

    Resample ``r`` draws ``n`` items with replacement (``rng.integers(0, n, size=n)``,
    ``block`` resamples per call) and sums their weights per cell.
    """
    n = cell.shape[0]
    out = np.empty((n_resamples, 4))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        idx = rng.integers(0, n, size=(b, n))
        codes = cell[idx] + 4 * np.arange(b)[:, None]
        out[done : done + b] = np.bincount(
            codes.ravel(), weights=weight[idx].ravel(), minlength=4 * b
        ).reshape(b, 4)
        done += b
    return out


def precision_at_k_replicates(rng, group, is_pos, n_groups, k, n_resamples, block):
    """Precision at ``k`` of ``n_resamples`` item bootstrap resamples, ties shared.

    ``group[i]`` is the rank of item ``i``'s score among the distinct scores (0 for the
    highest). Resample ``r`` draws ``n`` items with replacement
    (``rng.integers(0, n, size=n)`` in input order, ``block`` resamples per call); its
    top ``k`` shares the tie group straddling place ``k`` as
    :func:`bayes_prc.precision_at_k` does.
    """
    n = group.shape[0]
    cell = 2 * group + is_pos.astype(np.int64)
    out = np.empty(n_resamples)
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        idx = rng.integers(0, n, size=(b, n))
        codes = cell[idx] + 2 * n_groups * np.arange(b)[:, None]
        counts = np.bincount(codes.ravel(), minlength=2 * n_groups * b)
        counts = counts.reshape(b, n_groups, 2)
        cum_n = np.cumsum(counts.sum(axis=2), axis=1)
        cum_tp = np.cumsum(counts[:, :, 1], axis=1)
        i = np.count_nonzero(cum_n < k, axis=1)  # first group reaching k items
        rows = np.arange(b)
        prev_n = np.where(i > 0, cum_n[rows, i - 1], 0)
        prev_tp = np.where(i > 0, cum_tp[rows, i - 1], 0)
        group_n = cum_n[rows, i] - prev_n
        group_tp = cum_tp[rows, i] - prev_tp
        out[done : done + b] = (prev_tp + (k - prev_n) * (group_tp / group_n)) / k
        done += b
    return out


def beta_mixture_interval(weights, a, b, level):
    """Equal-tailed interval, mean and sd of the mixture ``sum_j weights_j Beta(a_j, b_j)``."""
    alpha = (1.0 - level) / 2.0
    mean_j = a / (a + b)
    var_j = a * b / ((a + b) ** 2 * (a + b + 1.0))
    mean = float(weights @ mean_j)
    sd = float(np.sqrt(max(weights @ (var_j + mean_j**2) - mean**2, 0.0)))
    if weights.shape[0] == 1:
        low, high = stats.beta.ppf([alpha, 1.0 - alpha], a[0], b[0])
        return float(low), float(high), mean, sd

    def quantile(q):
        # the mixture quantile lies between the extreme component quantiles
        qs = stats.beta.ppf(q, a, b)
        lo, hi = float(qs.min()), float(qs.max())
        if hi - lo <= 0.0:
            return lo
        return optimize.brentq(
            lambda x: weights @ stats.beta.cdf(x, a, b) - q, lo, hi, xtol=1e-14, rtol=1e-14
        )

    return float(quantile(alpha)), float(quantile(1.0 - alpha)), mean, sd
