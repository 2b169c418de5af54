r"""Ordered categories of the scores and the two-group ordered-probit likelihood.

numpy/scipy only. The semiparametric binormal model sees the scores only through their
order: sorted scores are grouped into ``K`` ordered categories and each class's count in
each category is modelled with shared cutpoints ``c_1 < ... < c_{K-1}`` on a latent scale
on which the negatives are N(0, 1) and the positives N(mu, sigma):

.. math::

    p_{0k} = \Phi(c_k) - \Phi(c_{k-1}), \qquad
    p_{1k} = \Phi\bigl((c_k - \mu)/\sigma\bigr) - \Phi\bigl((c_{k-1} - \mu)/\sigma\bigr),

with :math:`c_0 = -\infty`, :math:`c_K = +\infty` (Dorfman & Alf 1969; Metz, Herman &
Shen 1998).

How the categories are chosen (``n_categories=None``)
-----------------------------------------------------
1. Tied scores always share a category.
2. Consecutive scores of one class are merged into one category: the *truth-state
   runs* of LABROC4 (Metz et al. 1998). Splitting such a run adds a cutpoint that only
   divides one class's count and leaves the likelihood of the ROC parameters unchanged,
   so this grouping loses nothing for the ROC curve.
3. When there are more runs than ``K_max = clip(round(2 * sqrt(min(n_pos, n_neg))), 8,
   40)``, adjacent runs are merged into ``K_max`` categories holding about equal
   *class-balanced* mass (each item weighs ``1 / n_class``), so that both classes
   inform every category. A binormal ROC has two parameters; a few dozen categories
   estimate it with nearly the efficiency of the continuous data (Metz et al. 1998),
   while the cost of every fit grows with ``K``.

References
----------
.. [1] D. D. Dorfman and E. Alf, "Maximum-likelihood estimation of parameters of signal-
   detection theory and determination of confidence intervals - rating-method data",
   J. Math. Psychol. 6 (1969) 487-496.
.. [2] C. E. Metz, B. A. Herman and J.-H. Shen, "Maximum likelihood estimation of
   receiver operating characteristic (ROC) curves from continuously-distributed data",
   Stat. Med. 17 (1998) 1033-1053.
.. [3] K. H. Zou and W. J. Hall, "Two transformation models for estimating an ROC curve
   derived from continuous data", J. Appl. Stat. 27 (2000) 621-631.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri

#: The models fit to the ordered categories (the scores enter only through their order).
RANK_MODELS = ("semiparametric", "flexible", "contaminated")

__all__ = [
    "OrdinalData",
    "ordinal_categories",
    "default_max_categories",
    "log_diff_ndtr",
    "pad_cutpoints",
    "bin_log_probs",
    "category_log_probs",
    "check_bin_counts",
    "check_bin_number",
]

_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)


@dataclass(frozen=True, eq=False)
class OrdinalData:
    """Scores grouped into ordered categories (lowest scores first).

    Attributes
    ----------
    counts : ndarray of shape (2, K)
        Number of negatives (row 0) and positives (row 1) in each category.
    score_low, score_high : ndarray of shape (K,)
        Smallest and largest score of each category (original scale).
    n_runs : int
        Number of truth-state runs before any merging.
    check_counts : ndarray of shape (2, K_check) or None
        Counts in the coarser *check bins* of the fit check (:func:`check_bin_counts`);
        ``None`` when there are too few items of a class for a check.
    distinct_scores, n_below : ndarray of shape (D,) or None
        The distinct scores (ascending) and the number of items scored below each: the
        rank scale on which :func:`score_to_latent` and :func:`latent_to_score`
        interpolate inside a category, so that a threshold at an observed score maps to
        the same latent threshold under any strictly increasing transform of the scores.
        None (interpolation on the score scale) for data built without them.
    """

    counts: np.ndarray
    score_low: np.ndarray
    score_high: np.ndarray
    n_runs: int
    check_counts: np.ndarray | None = None
    distinct_scores: np.ndarray | None = None
    n_below: np.ndarray | None = None

    def rank_position(self, score):
        """Scores -> positions on the rank scale (items below; linear between scores)."""
        s = np.asarray(score, dtype=np.float64)
        if self.distinct_scores is None:
            return s
        return np.interp(s, self.distinct_scores, self.n_below)

    def score_at(self, position):
        """Inverse of :meth:`rank_position` (piecewise linear between distinct scores)."""
        x = np.asarray(position, dtype=np.float64)
        if self.distinct_scores is None:
            return x
        return np.interp(x, self.n_below, self.distinct_scores)

    @property
    def n_categories(self):
        return int(self.counts.shape[1])

    @property
    def n_neg(self):
        return int(self.counts[0].sum())

    @property
    def n_pos(self):
        return int(self.counts[1].sum())

    def boundaries(self):
        """Score values between adjacent categories (midpoints), shape (K - 1,)."""
        return 0.5 * (self.score_high[:-1] + self.score_low[1:])


def default_max_categories(n_pos, n_neg):
    """``clip(round(2 * sqrt(min(n_pos, n_neg))), 8, 40)``: see the module docstring."""
    return int(np.clip(round(2 * np.sqrt(min(n_pos, n_neg))), 8, 40))


def ordinal_categories(is_pos, score, n_categories=None):
    """Group validated binary data into ordered categories.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n,)
    score : ndarray of float, shape (n,)
        Finite scores (already validated).
    n_categories : int or None
        Upper bound on the number of categories; ``None`` uses
        :func:`default_max_categories`. Fewer categories result when there are fewer
        truth-state runs.

    Returns
    -------
    OrdinalData
    """
    # memory: a few n-sized arrays at a time (int32 indices below 2**31 items), so a
    # 1e7-item fit stays at a few hundred MB of temporaries
    score = np.asarray(score, dtype=np.float64)
    order = np.argsort(score, kind="stable")
    s = score[order]
    y = is_pos[order]
    del order
    n = s.size
    itype = np.int32 if n < 2**31 - 1 else np.int64
    brk = np.empty(n, dtype=bool)  # blocks of tied scores start here
    brk[:1] = True
    np.not_equal(s[1:], s[:-1], out=brk[1:])
    starts = np.flatnonzero(brk).astype(itype)
    del brk
    npos_b = np.add.reduceat(y, starts, dtype=itype)
    del y
    nneg_b = np.diff(np.append(starts, itype(n))).astype(itype, copy=False)
    nneg_b -= npos_b
    # a block's "state": 0 negatives only, 1 positives only, 2 mixed (a tie of both)
    has_pos = npos_b > 0
    state = has_pos.astype(np.int8)
    state += has_pos & (nneg_b > 0)
    del has_pos
    new_run = np.empty(state.size, dtype=bool)
    new_run[:1] = True
    np.not_equal(state[1:], state[:-1], out=new_run[1:])
    new_run[1:] |= state[1:] == 2
    del state
    run_id = np.cumsum(new_run, dtype=itype)
    run_id -= 1
    del new_run
    n_runs = int(run_id[-1] + 1)
    n_pos, n_neg = int(npos_b.sum(dtype=np.int64)), int(nneg_b.sum(dtype=np.int64))
    check = check_bin_counts(nneg_b, npos_b)
    k_max = default_max_categories(n_pos, n_neg) if n_categories is None else int(n_categories)
    if n_runs > k_max:
        # class-balanced cumulative mass at the end of each run; cut near k / K_max
        mass_b = nneg_b / max(n_neg, 1) + npos_b / max(n_pos, 1)
        run_mass = np.bincount(run_id, weights=mass_b)
        del mass_b
        cum = np.cumsum(run_mass)
        total = cum[-1]
        targets = total * np.arange(1, k_max) / k_max
        ends = np.unique(np.searchsorted(cum, targets, side="left"))
        ends = ends[ends < n_runs - 1]
        cat_of_run = np.searchsorted(ends, np.arange(n_runs), side="left").astype(itype)
        cat = cat_of_run[run_id]
        del cat_of_run
    else:
        cat = run_id
    del run_id
    k = int(cat[-1] + 1)
    counts = np.vstack(
        [
            np.bincount(cat, weights=nneg_b, minlength=k),
            np.bincount(cat, weights=npos_b, minlength=k),
        ]
    ).astype(np.int64)
    first = np.flatnonzero(np.r_[True, cat[1:] != cat[:-1]])
    last = np.r_[first[1:] - 1, cat.size - 1]
    del cat
    return OrdinalData(
        counts=counts,
        score_low=s[starts[first]],
        score_high=s[starts[last]],
        n_runs=n_runs,
        check_counts=check,
        distinct_scores=s[starts],
        n_below=starts.astype(np.float64),
    )


def check_bin_number(n_min):
    """Number of fit-check bins for ``n_min`` items in the smaller class.

    ``max(min(n_min // 3, 8), min(n_min // 5, clip(round(2 sqrt(n_min)), 8, 24)))``: about
    3 items of the smaller class per bin up to 8 bins (small samples), at least 5 per bin
    beyond, growing like the fit's own categories up to 24 so that large samples can show
    a local misfit such as a hook. Fewer than 4 bins: no test.
    """
    n_min = int(n_min)
    wide = min(n_min // 5, int(np.clip(round(2 * np.sqrt(max(n_min, 0))), 8, 24)))
    return max(min(n_min // 3, 8), wide)


def check_bin_counts(nneg_b, npos_b):
    """Class counts in the bins of the fit check, from tie blocks sorted by score.

    The ordered categories of the fit are truth-state runs: their edges sit exactly where
    the class changes, so the observed counts are structurally unlike counts replicated
    from any model (every category is pure), and a goodness-of-fit statistic on them
    rejects data the model generated. The check bins instead cut the *pooled* ranking at
    fixed fractions, which depend on the labels only through two smooth summaries, the
    prevalence ``pi`` and the empirical ROC AUC:

    1. ``d = sqrt(2) Phi^-1(AUC)`` (AUC clipped to [0.02, 0.98]) is the separation of an
       equal-variance binormal model with that AUC;
    2. latent edges ``t_j`` solve ``(Phi(t) + Phi(t - d)) / 2 = j / K`` (equal
       class-balanced mass under that model, so both classes inform every bin);
    3. the pooled ranking is cut at the fractions ``(1 - pi) Phi(t_j) + pi Phi(t_j - d)``;
       a block of tied scores goes whole to the bin holding its middle.

    ``K`` is :func:`check_bin_number` of the smaller class's size; below 4 bins there is
    no test (``None``). Empty bins are dropped.

    Parameters
    ----------
    nneg_b, npos_b : ndarray of int, shape (B,)
        Negatives and positives in each block of tied scores, lowest scores first.

    Returns
    -------
    ndarray of shape (2, K) or None
    """
    n0, n1 = int(nneg_b.sum(dtype=np.int64)), int(npos_b.sum(dtype=np.int64))
    k = check_bin_number(min(n0, n1))
    if k < 4:
        return None
    # memory: at most two block-sized float arrays at a time (ordinal_categories' budget)
    below = np.cumsum(nneg_b, dtype=np.float64)
    below -= 0.5 * nneg_b  # negatives below each block, ties counted half
    auc = float(np.dot(npos_b, below) / (float(n0) * float(n1)))
    del below
    d = np.sqrt(2.0) * ndtri(min(max(auc, 0.02), 0.98))
    target = np.arange(1, k) / k
    lo, hi = np.full(k - 1, -40.0), np.full(k - 1, 40.0)
    for _ in range(80):  # bisection: the class-balanced mixture CDF is increasing
        mid = 0.5 * (lo + hi)
        below = 0.5 * (ndtr(mid) + ndtr(mid - d)) < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    t = 0.5 * (lo + hi)
    pi = n1 / (n0 + n1)
    cuts = (1.0 - pi) * ndtr(t) + pi * ndtr(t - d)
    size = nneg_b + npos_b
    middle = np.cumsum(size, dtype=np.float64)
    middle -= 0.5 * size
    middle /= n0 + n1
    del size
    bin_of_block = np.searchsorted(cuts, middle, side="right")
    del middle
    neg = np.bincount(bin_of_block, weights=nneg_b, minlength=k)
    pos = np.bincount(bin_of_block, weights=npos_b, minlength=k)
    counts = np.vstack([neg, pos])
    return counts[:, counts.sum(axis=0) > 0].astype(np.int64)


def log_diff_ndtr(a, b):
    """``log(Phi(b) - Phi(a))`` for ``a <= b`` (infinite ends allowed), without underflow.

    Each interval is reflected into the left half (``Phi(b) - Phi(a) = Phi(-a) -
    Phi(-b)``), where a difference of ``ndtr`` keeps its relative accuracy; where that
    difference underflows, the log-space form ``log Phi(hi) + log1p(-Phi(lo)/Phi(hi))``
    from ``log_ndtr`` takes over.
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    with np.errstate(invalid="ignore"):
        left = (a + b) <= 0
    lo, hi = np.where(left, a, -b), np.where(left, b, -a)
    p = np.asarray(ndtr(hi) - ndtr(lo))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.log(p, out=np.empty(p.shape))
        tiny = ~(p > 1e-250)
        if tiny.any():
            l_lo, l_hi = log_ndtr(lo[tiny]), log_ndtr(hi[tiny])
            out[tiny] = l_hi + np.log1p(-np.exp(l_lo - l_hi))
    out[a == b] = -np.inf
    return out


def pad_cutpoints(cutpoints):
    """Cutpoints (..., K - 1) with -inf and +inf added: the K + 1 category edges."""
    c = np.asarray(cutpoints, dtype=np.float64)
    inf = np.full(c.shape[:-1] + (1,), np.inf)
    return np.concatenate([-inf, c, inf], axis=-1)


def bin_log_probs(cutpoints, mu=0.0, sigma=1.0):
    """Log probabilities of the K categories under N(mu, sigma).

    ``cutpoints`` (..., K - 1) increasing; ``mu``, ``sigma`` broadcast against
    ``cutpoints.shape[:-1]``. Returns shape (..., K).
    """
    mu = np.asarray(mu, dtype=np.float64)[..., None]
    sigma = np.asarray(sigma, dtype=np.float64)[..., None]
    z = (pad_cutpoints(cutpoints) - mu) / sigma
    return log_diff_ndtr(z[..., :-1], z[..., 1:])


def _log_phi(x):
    return -0.5 * x * x - _LOG_SQRT_2PI


def category_log_probs(cutpoints, mu, sigma):
    """Log category probabilities of both classes.

    Parameters
    ----------
    cutpoints : ndarray (..., K - 1), increasing
    mu, sigma : ndarray broadcastable to ``cutpoints.shape[:-1]``
        The positives' latent mean and standard deviation (negatives are N(0, 1)).

    Returns
    -------
    ndarray of shape (2, ..., K)
        ``log p_0k`` (row 0) and ``log p_1k`` (row 1).
    """
    return np.stack([bin_log_probs(cutpoints), bin_log_probs(cutpoints, mu, sigma)])


def _ratio_terms(lo, hi, logp):
    """``phi(lo)/P``, ``phi(hi)/P`` (0 at infinite ends) and ``lo*phi(lo)/P``, ``hi*...``."""
    with np.errstate(over="ignore", invalid="ignore"):
        g_lo = np.where(np.isfinite(lo), np.exp(_log_phi(lo) - logp), 0.0)
        g_hi = np.where(np.isfinite(hi), np.exp(_log_phi(hi) - logp), 0.0)
        x_lo = np.where(np.isfinite(lo), lo * g_lo, 0.0)
        x_hi = np.where(np.isfinite(hi), hi * g_hi, 0.0)
    return g_lo, g_hi, x_lo, x_hi


def _weighted(n, term):
    """``n * term``, exactly 0 where ``n`` is 0 (even where ``term`` is inf or NaN)."""
    return np.where(n > 0, n * np.where(n > 0, term, 0.0), 0.0)


def cutpoint_derivatives(cutpoints, mu, sigma, counts):
    """Log-likelihood, gradient and tridiagonal Hessian in the cutpoints (batched).

    Parameters
    ----------
    cutpoints : ndarray (G, J) with J = K - 1
    mu, sigma : ndarray (G,)
    counts : ndarray (2, K)

    Returns
    -------
    loglik (G,), grad (G, J), hess_diag (G, J), hess_off (G, J - 1)
        ``hess_off[:, j]`` is the (j, j + 1) entry.
    """
    c = cutpoints
    g_rows = c.shape[0]
    edges = pad_cutpoints(c)
    loglik = np.zeros(g_rows)
    grad = np.zeros_like(c)
    hd = np.zeros_like(c)
    ho = np.zeros((g_rows, max(c.shape[1] - 1, 0)))
    for cls, (m, s) in enumerate(((0.0, 1.0), (mu[:, None], sigma[:, None]))):
        n = counts[cls].astype(np.float64)[None, :]
        z = (edges - m) / s
        lo, hi = z[:, :-1], z[:, 1:]
        logp = log_diff_ndtr(lo, hi)
        loglik += np.sum(np.where(n > 0, n * logp, 0.0), axis=1)
        g_lo, g_hi, x_lo, x_hi = _ratio_terms(lo, hi, logp)
        inv = 1.0 / s
        inv2 = inv * inv
        # cutpoint j is the upper end of category j and the lower end of category j + 1
        nb, na = n[:, :-1], n[:, 1:]
        gb, ga = g_hi[:, :-1], g_lo[:, 1:]
        # empty categories contribute nothing (their ratios may overflow far in a tail);
        # an overflow where there are counts leaves inf/NaN in that grid row, which the
        # Laplace step drops (its Cholesky factor is NaN)
        with np.errstate(over="ignore", invalid="ignore"):
            grad += inv * (_weighted(nb, gb) - _weighted(na, ga))
            hd += inv2 * (
                _weighted(nb, -x_hi[:, :-1] - gb * gb) + _weighted(na, x_lo[:, 1:] - ga * ga)
            )
            if ho.shape[1]:
                inner = slice(1, -1)
                ho += inv2 * _weighted(n[:, inner], g_lo[:, inner] * g_hi[:, inner])
    return loglik, grad, hd, ho


def tridiag_cholesky(diag, off):
    """Cholesky factor of a batch of symmetric positive-definite tridiagonal matrices.

    Returns ``(l_diag, l_sub)``: ``L`` lower bidiagonal with ``L L^T = Q``; rows whose
    matrix is not positive definite get NaN.
    """
    g, j = diag.shape
    ld = np.empty_like(diag)
    ls = np.empty((g, max(j - 1, 0)))
    with np.errstate(invalid="ignore"):
        prev = np.sqrt(diag[:, 0])
    ld[:, 0] = prev
    for i in range(1, j):
        m = off[:, i - 1] / prev
        ls[:, i - 1] = m
        with np.errstate(invalid="ignore"):
            prev = np.sqrt(diag[:, i] - m * m)
        ld[:, i] = prev
    return ld, ls


def tridiag_solve(ld, ls, rhs):
    """Solve ``L L^T x = rhs`` with the factor of :func:`tridiag_cholesky`."""
    g, j = rhs.shape
    y = np.empty_like(rhs)
    y[:, 0] = rhs[:, 0] / ld[:, 0]
    for i in range(1, j):
        y[:, i] = (rhs[:, i] - ls[:, i - 1] * y[:, i - 1]) / ld[:, i]
    return tridiag_back(ld, ls, y)


def tridiag_back(ld, ls, y):
    """Solve ``L^T x = y`` (also turns N(0, I) draws into N(0, Q^{-1}) draws)."""
    g, j = y.shape
    x = np.empty_like(y)
    x[:, -1] = y[:, -1] / ld[:, -1]
    for i in range(j - 2, -1, -1):
        x[:, i] = (y[:, i] - ls[:, i] * x[:, i + 1]) / ld[:, i]
    return x


def _knots(data, cutpoints):
    """Per-draw knots ``u = Phi(cutpoint)`` with 0 and 1 at the ends, and the shared scores.

    A latent threshold at cutpoint ``c_k`` classifies categories ``k + 1 ...`` as
    positive, that is the score threshold ``score_low[k]`` (0-based: the lowest score of
    the next category); the lowest and highest scores are the two ends.
    """
    c = np.asarray(cutpoints, dtype=np.float64)
    flat = c.reshape(-1, c.shape[-1])
    u = np.concatenate([np.zeros((flat.shape[0], 1)), ndtr(flat), np.ones((flat.shape[0], 1))], 1)
    scores = np.concatenate([data.score_low, data.score_high[-1:]])
    return u, data.rank_position(scores)


def latent_to_score(t, data, cutpoints):
    """Map latent thresholds to the score scale, draw by draw.

    Piecewise linear in ``u = Phi(t)`` (the latent negatives' CDF) between the knots of
    :func:`_knots`, on the rank scale of the scores (:meth:`OrdinalData.rank_position`);
    exact at the cutpoints, interpolated inside a category.

    Parameters
    ----------
    t : ndarray of shape ``batch + extra``
    cutpoints : ndarray of shape ``batch + (K - 1,)``
    """
    c = np.asarray(cutpoints, dtype=np.float64)
    batch = c.shape[:-1]
    t = np.asarray(t, dtype=np.float64)
    extra = t.shape[len(batch) :]
    u_knots, scores = _knots(data, c)
    rows = u_knots.shape[0]
    q = ndtr(t).reshape(rows, -1)
    # one sorted array: row i's knots shifted by 2 i (u is in [0, 1])
    shift = 2.0 * np.arange(rows)[:, None]
    flat_knots = (u_knots + shift).ravel()
    idx = np.searchsorted(flat_knots, (q + shift).ravel(), side="right").reshape(q.shape) - 1
    m = u_knots.shape[1]
    j = np.clip(idx - np.arange(rows)[:, None] * m, 0, m - 2)
    u0 = np.take_along_axis(u_knots, j, axis=1)
    u1 = np.take_along_axis(u_knots, j + 1, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(u1 > u0, (q - u0) / (u1 - u0), 0.0)
    w = np.clip(w, 0.0, 1.0)
    out = data.score_at(scores[j] + w * (scores[j + 1] - scores[j]))
    return out.reshape(batch + extra)


def score_to_latent(score, data, cutpoints):
    """Inverse of :func:`latent_to_score`: latent thresholds of score thresholds, per draw.

    Scores below the lowest observed score map to ``-inf`` and above the highest to
    ``+inf``. Returns shape ``batch + np.shape(score)``.
    """
    c = np.asarray(cutpoints, dtype=np.float64)
    batch = c.shape[:-1]
    s_user = np.atleast_1d(np.asarray(score, dtype=np.float64))
    s = data.rank_position(s_user)  # the rank scale: invariant at observed scores
    u_knots, scores = _knots(data, c)
    m = scores.size
    j = np.clip(np.searchsorted(scores, s, side="right") - 1, 0, m - 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = scores[j + 1] - scores[j]
        w = np.where(gap > 0, (s - scores[j]) / gap, 0.0)
    w = np.clip(w, 0.0, 1.0)
    u = u_knots[:, j] + w * (u_knots[:, j + 1] - u_knots[:, j])
    lo, hi = data.score_low[0], data.score_high[-1]
    u = np.where(s_user < lo, 0.0, np.where(s_user > hi, 1.0, u))
    out = ndtri(u).reshape(batch + np.shape(score))
    return out
