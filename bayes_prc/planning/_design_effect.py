"""The design effect of the average precision on a clustered test set.

Kish's (1965) design effect :math:`1 + (m - 1)\\,\\rho` inflates the variance of a mean
over ``n`` items that come in clusters of ``m`` with intra-cluster correlation
:math:`\\rho` of the items' values. The AP is not a mean over items, but to first order
it is one over its influence values, :math:`\\widehat{AP} - AP \\approx n^{-1} \\sum_i
\\mathrm{IF}(y_i, s_i)`, so its design effect is Kish's with :math:`\\rho` the
intra-cluster correlation of the influence values, not of the labels or the scores.

With :math:`A(t) = P(y = 1, s \\ge t)`, :math:`B(t) = P(y = 0, s \\ge t)`,
:math:`g = A / (A + B)` (the precision at threshold ``t``) and :math:`\\pi = P(y = 1)`,
the AP functional :math:`\\pi^{-1} \\int y\\, g(s)\\, dH` has the influence function

.. math::

    \\mathrm{IF}(y, s) = \\pi^{-1}\\Big[y\\,(g(s) - AP) + \\int_{-\\infty}^{s}
    \\frac{y\\,B(t) - (1 - y)\\,A(t)}{(A(t) + B(t))^2}\\, dA_-(t)\\Big],

where :math:`dA_-(t) = \\pi f_1(t)\\,dt` (the derivative of the functional along
:math:`(1 - \\epsilon) H + \\epsilon\\,\\delta_{(y, s)}`).

The cluster model of :func:`plan_test_set` (the meaning of its ``icc``): a cluster's
prevalence ``p`` has mean :math:`\\pi` and variance :math:`\\pi (1 - \\pi)\\,
\\mathrm{icc}` (the labels' intra-cluster correlation is ``icc``), and a cluster effect
``u ~ N(0, 1)`` shifts the latent scores, :math:`s = d\\,y + \\sqrt{\\mathrm{icc}}\\, u +
\\sqrt{1 - \\mathrm{icc}}\\, e` (the scores' intra-cluster correlation within a class is
``icc``; each class keeps its N(d, 1) / N(0, 1) scores). Items of a cluster are
independent given ``(p, u)``, so the covariance of two of their influence values is the
variance of :math:`E[\\mathrm{IF} \\mid p, u] = p\\,a_1(u) + (1 - p)\\,a_0(u)`, which
needs only the first two moments of ``p``; every integral here is deterministic
(a fine grid in ``s`` and Gauss-Hermite rules in ``u`` and ``e``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special, stats

__all__ = ["ap_design_effect", "ap_influence_binormal", "jackknife_dispersion"]

#: Points of the score grid of the influence function (its cumulative integral is a
#: trapezoid sum; four times the points moved the influence values by at most 3e-4,
#: about 3e-6 of their range, in four settings checked by hand while writing it).
GRID_POINTS = 6001

#: Gauss-Hermite nodes per dimension of the cluster effects.
HERMITE_NODES = 40


def ap_influence_binormal(separation, prevalence, *, grid_points=GRID_POINTS):
    """The AP's influence function under the binormal model, on a grid of scores.

    Parameters
    ----------
    separation : float
        ``d``: positives' latent scores are N(d, 1), negatives' N(0, 1).
    prevalence : float
        Share of positives, in (0, 1).
    grid_points : int, default GRID_POINTS
        Points of the score grid.

    Returns
    -------
    grid : ndarray
        Scores, from 9 sd below the negatives' mean to 9 sd above the positives'.
    if_pos, if_neg : ndarray
        The influence of a positive and of a negative with that score.
    ap : float
        The AP of the binormal model (the functional the influence belongs to).
    """
    d, pi = float(separation), float(prevalence)
    lo, hi = min(0.0, d) - 9.0, max(0.0, d) + 9.0
    t = np.linspace(lo, hi, grid_points)
    log_a = math.log(pi) + stats.norm.logsf(t - d)
    log_b = math.log1p(-pi) + stats.norm.logsf(t)
    log_ab = np.logaddexp(log_a, log_b)
    g = np.exp(log_a - log_ab)
    # dA_- / dt = pi f1(t); the two kernels B / (A + B)^2 and A / (A + B)^2 times it,
    # in logs (A and B are far below 1e-300 in the upper tail)
    log_da = math.log(pi) + stats.norm.logpdf(t - d)
    k_pos = np.exp(log_b - 2.0 * log_ab + log_da)
    k_neg = np.exp(log_a - 2.0 * log_ab + log_da)
    step = t[1] - t[0]

    def cumulative(f):
        out = np.empty_like(f)
        out[0] = 0.0
        np.cumsum(0.5 * (f[1:] + f[:-1]) * step, out=out[1:])
        return out

    dens1 = stats.norm.pdf(t - d)
    ap = float(np.sum(0.5 * (g[1:] * dens1[1:] + g[:-1] * dens1[:-1]) * step))
    if_pos = (g - ap + cumulative(k_pos)) / pi
    if_neg = -cumulative(k_neg) / pi
    return t, if_pos, if_neg, ap


def ap_design_effect(separation, prevalence, cluster_size, icc):
    """The AP's design effect on test sets of clusters of ``cluster_size`` items.

    ``1 + (cluster_size - 1) * rho`` with ``rho`` the intra-cluster correlation of the
    AP's influence values under the cluster model with labels' and scores' intra-cluster
    correlation ``icc`` (module docstring). It lies between 1 and Kish's
    ``1 + (cluster_size - 1) * icc`` in the settings measured (``docs/planning.md``).

    Parameters
    ----------
    separation : float
        Binormal separation ``d`` of the positives' latent scores.
    prevalence : float
        Share of positives, in (0, 1).
    cluster_size : int
        Items per cluster.
    icc : float
        Intra-cluster correlation of the labels and of the scores, in [0, 1].

    Returns
    -------
    float

    References
    ----------
    .. [1] L. Kish, Survey Sampling, Wiley, 1965 (the design effect).
    .. [2] F. R. Hampel, "The influence curve and its role in robust estimation",
       Journal of the American Statistical Association 69 (1974) 383-393.

    Examples
    --------
    >>> from bayes_prc.planning import ap_design_effect, binormal_separation
    >>> d = binormal_separation(0.6, 0.05)
    >>> deff = ap_design_effect(d, 0.05, cluster_size=5, icc=0.1)
    >>> 1.0 <= deff < 1.4  # below Kish's 1 + 4 * 0.1
    True
    """
    if cluster_size <= 1 or icc <= 0.0:
        return 1.0
    pi = float(prevalence)
    t, if_pos, if_neg, _ = ap_influence_binormal(separation, pi)
    nodes, weights = special.roots_hermitenorm(HERMITE_NODES)
    weights = weights / weights.sum()
    c, sigma = math.sqrt(icc), math.sqrt(max(1.0 - icc, 0.0))

    def conditional_mean(values, shift):
        # E[IF(s) | u] for s = shift + c u + sigma e, every node u, by the e-rule
        s = shift + c * nodes[:, None] + sigma * nodes[None, :]
        return np.interp(s, t, values) @ weights

    a1 = conditional_mean(if_pos, float(separation))
    a0 = conditional_mean(if_neg, 0.0)
    var_if = pi * np.sum(weights * np.interp(separation + nodes, t, if_pos) ** 2) + (
        1.0 - pi
    ) * np.sum(weights * np.interp(nodes, t, if_neg) ** 2)
    p2 = pi * pi + pi * (1.0 - pi) * icc
    cov = (
        p2 * np.sum(weights * a1 * a1)
        + 2.0 * (pi - p2) * np.sum(weights * a1 * a0)
        + (1.0 - 2.0 * pi + p2) * np.sum(weights * a0 * a0)
    )
    rho = float(np.clip(cov / var_if, 0.0, 1.0))
    return 1.0 + (cluster_size - 1) * rho


#: Simulated clusters behind :func:`jackknife_dispersion` (at 200 000, three seeds gave
#: 1.79-1.85 at 5% positives and 6.2-8.0 at 1%: heavy tails; twice as many halve the
#: variance).
DISPERSION_CLUSTERS = 400_000


def jackknife_dispersion(separation, prevalence, cluster_size, icc, rng):
    """How much noisier the jackknife's design effect is than a chi-square of ``K - 1``.

    The estimated design effect is, to first order, the ratio of the mean of the
    clusters' squared influence totals ``A_c = (sum_i IF_i)^2`` to that of their sums of
    squared influence values ``B_c = sum_i IF_i^2``; over ``K`` clusters the variance of
    its log is ``var(Z) / K`` with ``Z = A / E[A] - B / E[B]`` (delta method).
    Heavy-tailed influence values (rare positives) make ``var(Z)`` large. The scale is
    anchored, not derived: a chi-square of ``K - 1`` (log variance about ``2 / K``)
    matched the jackknife's measured spread with 30% positives, where ``var(Z)`` is
    about 2.1 (for normal, unclustered influence values it would be ``2 - 2 / m``), so
    the dispersion is ``var(Z) / 2`` (at least 1). ``var(Z)`` comes from
    :data:`DISPERSION_CLUSTERS` clusters simulated under the cluster model of
    :func:`ap_design_effect`. Checked against the jackknife's spread at 1%, 5% and 30%
    positives (``docs/planning.md``).

    Parameters
    ----------
    separation, prevalence, cluster_size, icc
        As :func:`ap_design_effect`.
    rng : numpy.random.Generator

    Returns
    -------
    float
        1 at ``icc = 0`` or ``cluster_size = 1`` (no cluster model to simulate).
    """
    if cluster_size <= 1 or icc <= 0.0:
        return 1.0
    pi, d = float(prevalence), float(separation)
    t, if_pos, if_neg, _ = ap_influence_binormal(d, pi)
    c = DISPERSION_CLUSTERS
    if icc < 1.0:
        p = rng.beta(pi * (1.0 / icc - 1.0), (1.0 - pi) * (1.0 / icc - 1.0), c)
    else:
        p = (rng.random(c) < pi).astype(float)
    y = rng.random((c, cluster_size)) < p[:, None]
    s = d * y + math.sqrt(icc) * rng.standard_normal(c)[:, None]
    s = s + math.sqrt(max(1.0 - icc, 0.0)) * rng.standard_normal((c, cluster_size))
    v = np.where(y, np.interp(s, t, if_pos), np.interp(s, t, if_neg))
    a = v.sum(axis=1) ** 2
    b = (v * v).sum(axis=1)
    z = a / a.mean() - b / b.mean()
    return max(1.0, float(z.var()) / 2.0)
