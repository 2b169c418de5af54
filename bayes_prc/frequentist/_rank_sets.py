r"""Simultaneous inference on the ranks of k classifiers from paired replicates.

Given each classifier's metric on the data (``estimates``, shape ``(k,)``) and its
replicates under one paired resampling scheme (``replicates``, shape ``(k, B)``: the same
resampled items for every classifier), these kernels give

- :func:`max_t_step_down`: which classifier is better than which, with the family-wise
  error of all those statements at most ``1 - ci_prob``. The statistic of the ordered
  pair ``(i, j)`` is :math:`t_{ij} = \hat D_{ij} / s_{ij}` with
  :math:`\hat D_{ij} = \hat\theta_i - \hat\theta_j` and :math:`s_{ij}` the replicates'
  standard deviation of :math:`D^*_{ij}`; ``i`` is declared better than ``j`` when
  :math:`t_{ij}` exceeds the ``ci_prob`` quantile of
  :math:`\max_{(a, b)} (D^*_{ab} - \hat D_{ab}) / s_{ab}` over the pairs not yet declared,
  repeated until no new pair is declared (the step-down max-t procedure of Romano & Wolf
  2005, the rank confidence sets of Mogstad, Romano, Shaikh & Wilhelm 2024, their
  Algorithm 3.1 for all ranks at once).
- :func:`rank_sets`: each classifier's rank set ``[rank_low, rank_high]`` from those
  statements (rank 1 is the best; a rank counts the classifiers strictly better).
- :func:`bootstrap_p_values` and :func:`holm`: a two-sided p-value per pair (the share of
  replicates whose centred statistic is at least as extreme) and Holm's (1979)
  step-down adjustment.
- :func:`posterior_rank_sets`: rank sets from posterior draws of the k metrics: equal-
  tailed intervals of each classifier's rank draws, their level tuned so that the draws'
  rank vectors lie inside all k intervals at once with probability ``ci_prob``.

numpy only.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "bootstrap_p_values",
    "holm",
    "max_t_step_down",
    "pair_standard_errors",
    "posterior_rank_sets",
    "rank_draws",
    "rank_sets",
]


def pair_standard_errors(replicates):
    """``(k, k)`` standard deviations of ``replicates[i] - replicates[j]`` (0 on the diagonal)."""
    k = replicates.shape[0]
    se = np.zeros((k, k))
    for i in range(k - 1):
        d = replicates[i] - replicates[i + 1 :]
        se[i, i + 1 :] = d.std(axis=1, ddof=1)
    return se + se.T


def _centred_t(estimates, replicates, se, i, j):
    """``(D*_ij - D_ij) / s_ij`` for the unordered pairs ``i < j`` (rows), 0 where s = 0."""
    d_hat = estimates[i] - estimates[j]
    d_star = replicates[i] - replicates[j]
    s = se[i, j]
    out = np.zeros_like(d_star)
    ok = s > 0
    out[ok] = (d_star[ok] - d_hat[ok, None]) / s[ok, None]
    return out


def max_t_step_down(estimates, replicates, ci_prob, *, step_down=True, se=None):
    """Which classifier is better than which, family-wise error at most ``1 - ci_prob``.

    Parameters
    ----------
    estimates : ndarray of shape (k,)
        The metric of each classifier on the data (or the posterior mean).
    replicates : ndarray of shape (k, B)
        Paired replicates (or posterior draws) of the k metrics.
    ci_prob : float
    step_down : bool, default True
        Repeat with the pairs not yet declared (Romano & Wolf 2005); False: one step.
    se : ndarray of shape (k, k), optional
        :func:`pair_standard_errors` of ``replicates``, if already computed.

    Returns
    -------
    better : ndarray of bool, shape (k, k)
        ``better[i, j]``: ``i`` is declared better than ``j``.
    critical : float
        The first step's critical value: ``D_ij -+ critical * s_ij`` are simultaneous
        intervals of every pair's difference.
    se : ndarray of shape (k, k)
        The pairs' standard errors.
    """
    k, _ = replicates.shape
    if se is None:
        se = pair_standard_errors(replicates)
    i, j = np.triu_indices(k, 1)
    t_star = _centred_t(estimates, replicates, se, i, j)  # (pairs, B)
    s = se[i, j]
    with np.errstate(divide="ignore", invalid="ignore"):
        t_obs = np.where(s > 0, (estimates[i] - estimates[j]) / s, 0.0)
    # ordered pairs: (i, j) with statistic t and replicates t*, (j, i) with -t and -t*
    active_up = s > 0  # hypothesis "theta_i <= theta_j" not yet rejected
    active_down = s > 0  # hypothesis "theta_j <= theta_i" not yet rejected
    better = np.zeros((k, k), dtype=bool)
    critical = None
    while active_up.any() or active_down.any():
        m = np.full(t_star.shape[1], -np.inf)
        if active_up.any():
            m = np.maximum(m, t_star[active_up].max(axis=0))
        if active_down.any():
            m = np.maximum(m, (-t_star[active_down]).max(axis=0))
        c = float(np.quantile(m, ci_prob))
        if critical is None:
            critical = c
        new_up = active_up & (t_obs > c)
        new_down = active_down & (-t_obs > c)
        if not (new_up.any() or new_down.any()):
            break
        better[i[new_up], j[new_up]] = True
        better[j[new_down], i[new_down]] = True
        active_up &= ~new_up
        active_down &= ~new_down
        if not step_down:
            break
    if critical is None:  # no pair can be told apart (every difference has s = 0)
        critical = 0.0
    return better, critical, se


def rank_sets(better):
    """``(rank_low, rank_high)`` of each classifier from ``better`` (rank 1 is the best).

    ``rank_low = 1 + #{j declared better than i}``, ``rank_high = k - #{j declared worse}``.
    """
    k = better.shape[0]
    return 1 + better.sum(axis=0), k - better.sum(axis=1)


def bootstrap_p_values(estimates, replicates, se=None):
    """``(k, k)`` two-sided p-values of "equal metric" per pair, 1 on the diagonal.

    ``(1 + #{|t*| >= |t|}) / (B + 1)`` with the centred studentized replicates
    ``t* = (D* - D) / s``; 1 for pairs whose replicates never differ (s = 0).
    """
    k, b = replicates.shape
    if se is None:
        se = pair_standard_errors(replicates)
    i, j = np.triu_indices(k, 1)
    t_star = _centred_t(estimates, replicates, se, i, j)
    s = se[i, j]
    p = np.ones(i.shape[0])
    ok = s > 0
    t_obs = np.abs(estimates[i][ok] - estimates[j][ok]) / s[ok]
    p[ok] = (1.0 + np.sum(np.abs(t_star[ok]) >= t_obs[:, None], axis=1)) / (b + 1.0)
    out = np.ones((k, k))
    out[i, j] = p
    out[j, i] = p
    return out


def holm(p_values):
    """Holm's (1979) step-down adjusted p-values of a 1-D array (same order)."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.shape[0]
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def rank_draws(draws):
    """Rank of each classifier in each draw, ``(k, B)``: 1 + the number strictly better."""
    return 1 + np.sum(draws[None, :, :] > draws[:, None, :], axis=1)


def posterior_rank_sets(draws, ci_prob, *, ranks=None):
    """Simultaneous credible rank sets: ``(rank_low, rank_high)`` of each classifier.

    Equal-tailed intervals of each classifier's rank draws at a common tail share
    ``gamma``, the largest (narrowest sets) at which at least ``ci_prob`` of the draws'
    rank vectors lie inside every interval at once (between ``(1 - ci_prob) / k``,
    Bonferroni's, and ``1 - ci_prob``). ``ranks``: :func:`rank_draws` of ``draws``, if
    already computed.
    """
    if ranks is None:
        ranks = rank_draws(draws)  # (k, B)
    k = ranks.shape[0]
    sorted_ranks = np.sort(ranks, axis=1)
    b = ranks.shape[1]

    def sets(gamma):
        lo_idx = int(np.floor(gamma / 2 * (b - 1)))
        hi_idx = int(np.ceil((1 - gamma / 2) * (b - 1)))
        return sorted_ranks[:, lo_idx], sorted_ranks[:, hi_idx]

    def joint(gamma):
        lo, hi = sets(gamma)
        inside = (ranks >= lo[:, None]) & (ranks <= hi[:, None])
        return float(np.mean(inside.all(axis=0)))

    alpha = 1.0 - ci_prob
    lo_g, hi_g = alpha / k, alpha
    if joint(hi_g) >= ci_prob:
        return sets(hi_g)
    for _ in range(40):  # bisection on gamma: joint coverage falls as gamma grows
        mid = 0.5 * (lo_g + hi_g)
        if joint(mid) >= ci_prob:
            lo_g = mid
        else:
            hi_g = mid
    return sets(lo_g)
