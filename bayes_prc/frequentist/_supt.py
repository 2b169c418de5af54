"""Studentized sup-t bands on the logit scale (``bootstrap_pr_band(kind="simultaneous_t")``).

The precision of a point of the PR curve is estimated by the continuity-corrected
proportion :math:`\\tilde p = (TP + 1/2) / (TP + FP + 1)`, on the logit scale
:math:`\\theta = \\log((TP + 1/2) / (FP + 1/2))`, which is finite for every count. Each grid
point gets a standard error that cannot collapse to 0 (the bootstrap standard deviation
of the replicates' :math:`\\theta^*`, floored by the binomial
:math:`1 / \\sqrt{m \\tilde p (1 - \\tilde p)}`, :math:`m = TP + FP`), and one critical value
:math:`c` serves the whole grid: the ``confidence_level`` quantile over replicates of
:math:`\\max_r |\\theta^*_b(r) - \\theta(r)| / se(r)` (Montiel Olea & Plagborg-Moller 2019;
Campbell 1994 for ROC curves). The band is :math:`\\mathrm{expit}(\\theta \\pm c\\, se)`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["binomial_se_floor", "corrected_logit", "sup_t_band"]


def corrected_logit(tp, fp):
    """Logit of ``(tp + 1/2) / (tp + fp + 1)``, i.e. ``log((tp + 1/2) / (fp + 1/2))``.

    Examples
    --------
    >>> from bayes_prc.frequentist._supt import corrected_logit
    >>> round(float(corrected_logit(3, 0)), 6)  # log(3.5 / 0.5) = log 7
    1.94591
    """
    return np.log(
        (np.asarray(tp, dtype=np.float64) + 0.5) / (np.asarray(fp, dtype=np.float64) + 0.5)
    )


def binomial_se_floor(tp, fp):
    """Binomial standard error of the corrected logit, ``1 / sqrt(m p (1 - p))``.

    ``m = tp + fp`` (at least 1) and ``p = (tp + 1/2) / (m + 1)``: the delta-method
    standard error of the logit of a proportion of ``m`` trials, which is also that of a
    precision read where the ``tp``-th positive is reached (negative-binomial ``fp``).

    Examples
    --------
    >>> from bayes_prc.frequentist._supt import binomial_se_floor
    >>> round(float(binomial_se_floor(1, 0)), 4)  # one positive, no negative: p = 0.75
    2.3094
    """
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    m = np.maximum(tp + fp, 1.0)
    p = (tp + 0.5) / (tp + fp + 1.0)
    return 1.0 / np.sqrt(m * p * (1.0 - p))


def sup_t_band(theta, replicates, se_floor, confidence_level):
    """Sup-t band around ``theta`` from bootstrap ``replicates`` (on the logit scale).

    Parameters
    ----------
    theta : ndarray of shape (n_grid,)
        The estimate at each grid point.
    replicates : ndarray of shape (n_resamples, n_grid)
        The bootstrap replicates of ``theta``.
    se_floor : ndarray of shape (n_grid,)
        A lower bound for the standard error (positive).
    confidence_level : float

    Returns
    -------
    lower, upper : ndarray of shape (n_grid,)
        ``theta -+ c * se``.
    critical_value : float
        ``c``, the ``ceil(confidence_level * n_resamples)``-th smallest of the replicates'
        ``max over the grid of |replicate - theta| / se``: at least that share of the
        replicate curves lies wholly inside the band.
    se : ndarray of shape (n_grid,)
        ``max(bootstrap standard deviation (ddof=1; 0 for one replicate), se_floor)``.

    References
    ----------
    Montiel Olea, J. L.; Plagborg-Moller, M. (2019). "Simultaneous confidence bands:
    theory, implementation, and an application to SVARs". Journal of Applied
    Econometrics 34 (1): 1-17. Campbell, G. (1994). "Advances in statistical methodology
    for the evaluation of diagnostic and laboratory tests". Statistics in Medicine 13:
    499-508.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.frequentist._supt import sup_t_band
    >>> reps = np.random.default_rng(0).normal(size=(1000, 20))
    >>> lo, hi, c, se = sup_t_band(np.zeros(20), reps, np.full(20, 0.5), 0.95)
    >>> bool(2.5 < c < 3.5)  # between the pointwise 1.96 and Bonferroni's 3.02 or so
    True
    """
    replicates = np.asarray(replicates, dtype=np.float64)
    n_resamples = replicates.shape[0]
    sd = replicates.std(axis=0, ddof=1) if n_resamples > 1 else np.zeros_like(theta)
    se = np.maximum(sd, se_floor)
    t_max = np.max(np.abs(replicates - theta[None, :]) / se[None, :], axis=1)
    k = int(np.ceil(confidence_level * n_resamples - 1e-9))
    c = float(np.partition(t_max, k - 1)[k - 1])
    return theta - c * se, theta + c * se, c, se
