r"""Partial pooling across subgroups: the hierarchical rank-based binormal model.

numpy/scipy only: the priors, the data (pooled ordered categories and each subgroup's
counts in them), the likelihood and the cutpoints' prior. The sampler is
:mod:`._sampler`; the same model in PyMC, its reference, is :mod:`._pymc`.

Model
-----
One classifier scores every subgroup, so one unknown increasing map takes the scores to
a latent scale shared by all subgroups: the scores enter only through their order, as in
the semiparametric model (:mod:`._ordinal`), through ``K`` ordered categories of the
pooled scores with shared cutpoints ``c``. In subgroup ``g`` the latent negatives are
``N(d_g, e^{l_g})`` and the positives ``N(d_g + e^{l_g} mu_g, e^{l_g} sigma_g)``: the
subgroup's binormal ROC curve has ``a = mu_g / sigma_g``, ``b = 1 / sigma_g``, and
``d_g``, ``l_g`` let the subgroup's scores sit higher or spread wider (a site whose
scores run high) without changing its ROC curve. The priors of the shifts and of the
cutpoints' mean are stated in units of the typical subgroup's negatives (``e^{m_l}``),
and the cutpoints are flat in the subgroups' own unit (``e^{lbar}``, ``lbar`` a weighted
mean of the subgroups' log scales ``l_g``, :func:`unit_weights`), so that rescaling the whole latent axis changes
nothing but ``m_l``: with a fixed scale, the volume of the ``K - 1 + G`` scaled
coordinates would push the axis outwards until the cutpoints' prior binds, and that
prior would then distort the tails of every subgroup's ROC curve. The cutpoints' prior
has no shape on purpose (see :class:`CutpointPrior` for the ones measured against it).
Each subgroup's parameters are drawn from a population distribution whose spread is learned (partial
pooling)::

    mu_g            ~ StudentT(mu_df, m_mu, s_mu) m_mu ~ Normal(0, mu_sd)
    log sigma_g     ~ Normal(m_ls, s_ls)         m_ls ~ Normal(0, log_sigma_sd)
    logit pi_g      ~ Normal(m_pi, s_pi)         m_pi ~ Normal(0, logit_prevalence_sd)
    d_g             ~ Normal(0, s_d e^m_l)       s_* ~ HalfNormal(*_spread)
    l_g             ~ Normal(m_l, s_l)           m_l ~ Normal(0, log_scale_sd)
    cutpoints       ~ flat in c e^-lbar (ordered), mean(c) ~ Normal(0, cutpoint_sd e^m_l)
    n_pos_g         ~ Binomial(n_g, pi_g)
    counts[g, j]    ~ Multinomial(n_gj, p_gj(cutpoints))

A subgroup with few positives is pulled towards the others by as much as the spread the
data support; a subgroup with no positive still has a posterior (its ROC parameters are
those of the population, its prevalence is shrunk towards the others'). Hierarchical
ROC models of this kind: Gatsonis (1995); for small subpopulations, Miller et al. (2021).

References
----------
.. [1] C. Gatsonis, "Random-effects models for diagnostic accuracy data", Acad. Radiol.
   2 (1995) S14-S21.
.. [2] A. C. Miller, L. A. Gatys, J. Futoma and E. B. Fox, "Model-based metrics:
   sample-efficient estimates of predictive model subpopulation performance", Machine
   Learning for Healthcare (2021).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.groups import object_array
from ..bayes import (
    OrdinalData,
    PriorsBase,
    count_weighted,
    default_max_categories,
    log_diff_ndtr,
    ordinal_categories,
    pad_cutpoints,
    ratio_terms,
)

__all__ = [
    "CutpointPrior",
    "Likelihood",
    "SubgroupData",
    "SubgroupPriors",
    "cutpoint_tilt",
    "group_log_likelihood",
    "unit_weights",
    "subgroup_data",
]


@dataclass(frozen=True)
class SubgroupPriors(PriorsBase):
    """Prior of the hierarchical subgroup model (see :mod:`bayes_prc.subgroups`).

    Parameters
    ----------
    mu_sd, log_sigma_sd : float, default 3, 1
        Normal priors of the population means of ``mu`` and ``log sigma`` (as the
        semiparametric model's priors of one subgroup).
    mu_df : float, default 4
        Degrees of freedom of the Student-t population distribution of ``mu``: heavier
        tails than a normal, so one clearly different subgroup (the one a fairness
        audit is looking for) is not pulled into the crowd, while typical subgroups
        are still pooled (Gelman et al., BDA3, section 17.4).
    mu_spread, log_sigma_spread : float, default 0.5, 0.3
        Half-normal priors of the spreads of ``mu`` and ``log sigma`` across subgroups.
        A spread of 0.5 in ``mu`` is a difference in ROC AUC of about 0.1 between
        typical subgroups.
    logit_prevalence_sd, prevalence_spread : float, default 2.5, 1
        Normal prior of the population mean of the logit prevalence and half-normal
        prior of its spread.
    shift_spread, log_scale_spread : float, default 1, 0.5
        Half-normal priors of the spreads of the subgroups' latent location and log
        scale (scores that run higher or wider in one subgroup); the location's spread
        is in units of the typical subgroup's negatives (``e^{m_l}``).
    log_scale_sd : float, default 1
        Normal prior of ``m_l``, the population mean of the subgroups' log scale: it
        sets the unit of the latent axis, which no quantity of interest depends on.
    cutpoint_sd : float, default 5
        ``Normal(0, cutpoint_sd e^{m_l})`` prior of the mean of the shared cutpoints (their
        gaps have a flat prior in their logs).

    Examples
    --------
    >>> from bayes_prc.subgroups import SubgroupPriors
    >>> SubgroupPriors(mu_spread=1.0).mu_spread
    1.0
    """

    mu_sd: float = 3.0
    log_sigma_sd: float = 1.0
    mu_df: float = 4.0
    mu_spread: float = 0.5
    log_sigma_spread: float = 0.3
    logit_prevalence_sd: float = 2.5
    prevalence_spread: float = 1.0
    shift_spread: float = 1.0
    log_scale_spread: float = 0.5
    log_scale_sd: float = 1.0
    cutpoint_sd: float = 5.0

    def __post_init__(self):
        self._check_fields()


@dataclass(frozen=True, eq=False)
class SubgroupData:
    """Validated subgroup data: pooled ordered categories and per-subgroup counts.

    Attributes
    ----------
    labels : ndarray of shape (G,)
        The subgroup labels, in the order of the other arrays.
    ordinal : OrdinalData
        The ordered categories of the pooled scores.
    counts : ndarray of shape (G, 2, K)
        Negatives (``[:, 0]``) and positives (``[:, 1]``) of each subgroup per category.
    tied : ndarray of bool, shape (G,), optional
        Subgroups with both classes whose scores are all equal (a constant score ranks
        nothing: their ROC curve is the chance line and their AP their prevalence,
        whatever the population's curve; :func:`fit_subgroups`). Default: none.
    """

    labels: np.ndarray
    ordinal: OrdinalData
    counts: np.ndarray
    tied: np.ndarray | None = None

    def tied_groups(self):
        """Boolean (G,): the subgroups whose scores are all tied."""
        if self.tied is None:
            return np.zeros(self.n_groups, dtype=bool)
        return np.asarray(self.tied, dtype=bool)

    @property
    def n_groups(self):
        return int(self.counts.shape[0])

    @property
    def n_categories(self):
        return int(self.counts.shape[2])

    @property
    def n(self):
        return self.counts.sum(axis=(1, 2))

    @property
    def n_pos(self):
        return self.counts[:, 1].sum(axis=1)

    def entries(self, cls):
        """Non-zero counts of class ``cls``: (group, category, count) arrays."""
        g, k = np.nonzero(self.counts[:, cls])
        return g, k, self.counts[g, cls, k].astype(np.float64)


def subgroup_data(is_pos, score, codes, labels, n_categories=None):
    """Pooled ordered categories of the scores and each subgroup's counts in them.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n,)
    score : ndarray of float, shape (n,)
        Finite scores (validated).
    codes : ndarray of int, shape (n,)
        Subgroup index of each item, in ``range(len(labels))``; every subgroup occurs.
    labels : ndarray of shape (G,)
    n_categories : int, optional
        Upper bound on the number of categories. Default: the semiparametric model's
        bound for the pooled data, at most ``max(8, round(2 sqrt(m)))`` with ``m`` the
        median subgroup size: categories finer than a typical subgroup can resolve add
        cost (every likelihood term is a category of a subgroup) and no information.

    Returns
    -------
    SubgroupData
    """
    if n_categories is None:
        n_pos = int(is_pos.sum())
        sizes = np.bincount(codes, minlength=len(labels))
        n_categories = min(
            default_max_categories(n_pos, is_pos.size - n_pos),
            max(8, round(2 * np.sqrt(np.median(sizes)))),
        )
    ordinal = ordinal_categories(is_pos, score, n_categories)
    k = ordinal.n_categories
    cat = np.searchsorted(ordinal.score_low, score, side="right") - 1
    g = len(labels)
    flat = (codes * 2 + is_pos.astype(np.int64)) * k + cat
    counts = np.bincount(flat, minlength=g * 2 * k).reshape(g, 2, k)
    low = np.full(g, np.inf)
    high = np.full(g, -np.inf)
    np.minimum.at(low, codes, score)
    np.maximum.at(high, codes, score)
    both = (counts[:, 0].sum(axis=1) > 0) & (counts[:, 1].sum(axis=1) > 0)
    return SubgroupData(
        labels=object_array(list(labels)), ordinal=ordinal, counts=counts, tied=both & (low == high)
    )


# ----------------------------------------------------------------------------- likelihood
def _loc_scale(theta):
    """Latent (location, scale) of each class of each subgroup: arrays (..., G, 2)."""
    d, lsc, mu, lsig = np.moveaxis(theta, -1, 0)
    scale0 = np.exp(lsc)
    loc = np.stack([d, d + scale0 * mu], axis=-1)
    scale = np.stack([scale0, scale0 * np.exp(lsig)], axis=-1)
    return loc, scale


class Likelihood:
    """Per-subgroup log-likelihood of the category counts, vectorized over chains."""

    def __init__(self, data):
        self.n_groups = data.n_groups
        self.n_cut = data.n_categories - 1
        self.entries = [data.entries(cls) for cls in (0, 1)]

    def _z(self, cls, c, loc, scale):
        g, k, _ = self.entries[cls]
        edges = pad_cutpoints(c)  # (B, K + 1)
        m = loc[:, g, cls]
        s = scale[:, g, cls]
        return (edges[:, k] - m) / s, (edges[:, k + 1] - m) / s, s

    def _by_group(self, cls, values):
        g = self.entries[cls][0]
        b = values.shape[0]
        idx = (np.arange(b)[:, None] * self.n_groups + g[None, :]).ravel()
        out = np.bincount(idx, weights=values.ravel(), minlength=b * self.n_groups)
        return out.reshape(b, self.n_groups)

    def class_loglik(self, cls, c, theta):
        """Log-likelihood of class ``cls`` per (chain, subgroup), shape (B, G)."""
        loc, scale = _loc_scale(theta)
        lo, hi, _ = self._z(cls, c, loc, scale)
        return self._by_group(cls, self.entries[cls][2] * log_diff_ndtr(lo, hi))

    def loglik(self, c, theta):
        """Both classes, per (chain, subgroup)."""
        return self.class_loglik(0, c, theta) + self.class_loglik(1, c, theta)

    def cutpoint_derivatives(self, c, theta):
        """Log-likelihoods per (chain, subgroup) of each class, and the gradient (B, J) and
        tridiagonal Hessian of their total in ``c``."""
        b, j = c.shape
        loc, scale = _loc_scale(theta)
        ll = []
        grad = np.zeros(b * j)
        hd = np.zeros(b * j)
        ho = np.zeros(b * max(j - 1, 0))
        rows = np.arange(b)[:, None]
        for cls in (0, 1):
            g, k, n = self.entries[cls]
            lo, hi, s = self._z(cls, c, loc, scale)
            logp = log_diff_ndtr(lo, hi)
            ll.append(self._by_group(cls, n * logp))
            g_lo, g_hi, x_lo, x_hi = ratio_terms(lo, hi, logp)
            inv = 1.0 / s
            nn = np.broadcast_to(n, lo.shape)
            with np.errstate(over="ignore", invalid="ignore"):
                # category k has upper edge cutpoint k (if k < K - 1) and lower edge k - 1
                up = k < j
                low = k > 0
                flat_up = (rows * j + k[None, :])[:, up].ravel()
                flat_low = (rows * j + (k[None, :] - 1))[:, low].ravel()
                grad += np.bincount(
                    flat_up, (inv * count_weighted(nn, g_hi))[:, up].ravel(), minlength=b * j
                )
                grad -= np.bincount(
                    flat_low, (inv * count_weighted(nn, g_lo))[:, low].ravel(), minlength=b * j
                )
                hd += np.bincount(
                    flat_up,
                    (inv**2 * count_weighted(nn, -x_hi - g_hi * g_hi))[:, up].ravel(),
                    minlength=b * j,
                )
                hd += np.bincount(
                    flat_low,
                    (inv**2 * count_weighted(nn, x_lo - g_lo * g_lo))[:, low].ravel(),
                    minlength=b * j,
                )
                both = up & low  # a category between two cutpoints couples k - 1 and k
                if j > 1 and both.any():
                    flat_off = (rows * (j - 1) + (k[None, :] - 1))[:, both].ravel()
                    ho += np.bincount(
                        flat_off,
                        (inv**2 * count_weighted(nn, g_lo * g_hi))[:, both].ravel(),
                        minlength=b * (j - 1),
                    )
        return (*ll, grad.reshape(b, j), hd.reshape(b, j), ho.reshape(b, max(j - 1, 0)))


def group_log_likelihood(data, cutpoints, theta):
    """Log-likelihood of each subgroup's category counts given the ROC parameters.

    Parameters
    ----------
    data : SubgroupData
    cutpoints : ndarray of shape (B, K - 1)
    theta : ndarray of shape (B, G, 4)
        ``(shift, log_scale, mu, log_sigma)`` of each subgroup.

    Returns
    -------
    ndarray of shape (B, G)
    """
    return Likelihood(data).loglik(np.atleast_2d(cutpoints), np.asarray(theta))


# ---------------------------------------------------------------- the cutpoints' prior
class CutpointPrior:
    """The cutpoints' prior given the latent unit ``e^{m_l}`` (one per chain).

    Flat on increasing cutpoints, with their mean ``Normal(0, cutpoint_sd e^{m_l})``;
    the full prior measures the cutpoints in the subgroups' own unit: it also has the
    factor ``e^{-(J - 1) lbar}`` (``J`` cutpoints, ``lbar = sum_g w_g l_g`` a weighted
    mean of the subgroups' log scales, weights :func:`unit_weights`: only subgroups
    whose data bound their scale below), which the sampler carries in each subgroup's
    population density (:func:`cutpoint_tilt`), since it moves with the log scales, not
    with the cutpoints. Together they are flat in ``c e^{-lbar}``, as the semiparametric model's
    cutpoints are (nearly) flat in its negatives' unit, and homogeneous of degree ``-J``
    in the cutpoints with the log scales and the unit moved along, so rescaling the latent
    axis changes nothing but ``m_l``'s prior. Measured against it: a prior scale free in
    the cutpoints alone (flat in each log gap, ``prod_k (c_{k+1} - c_k)^{-1}``, or in the
    log range) let the cutpoints draw together relative to the subgroups' spreads and
    biased every subgroup's AP low by 0.01-0.02 (two equal subgroups of 200 and 500
    items, 100 data sets: -0.020 +- 0.005 and -0.012 +- 0.004 against +0.004 +- 0.004
    for one fit of their union; with this prior +0.002 and +0.005), more with finer
    categories; flat in ``c e^{-m_l}`` (the population's unit) pushed the
    axis outwards through the subgroups' log scales' prior with finer categories.
    """

    def __init__(self, cutpoint_sd, unit):
        self.scale = cutpoint_sd * np.asarray(unit, dtype=float)  # (B,)

    def log_density(self, c):
        """Log density (B,), up to a constant; ``-inf`` where ``c`` is not increasing."""
        ordered = np.all(np.diff(c, axis=1) > 0, axis=1)
        out = -0.5 * (c.mean(axis=1) / self.scale) ** 2 - np.log(self.scale)
        return np.where(ordered, out, -np.inf)

    def gradient(self, c):
        """Gradient of :meth:`log_density` with respect to ``c`` (B, K - 1)."""
        grad = -(c.mean(axis=1) / self.scale**2 / c.shape[1])[:, None]
        return np.broadcast_to(grad, c.shape).copy()


def unit_weights(data):
    """Each subgroup's weight in the subgroups' unit of the cutpoints' prior: the share of
    its negatives outside its own most common category, over all subgroups (equal
    weights when no subgroup has negatives in two categories).

    Only a subgroup whose negatives fall in two categories or more has its latent scale
    bounded below by its data (with all of them in one category the scale can shrink to
    0 at no cost). The prior's factor ``exp(-(J - 1) sum_g w_g l_g)`` pushes every
    weighted log scale down, so a weight on a subgroup without that bound made the
    posterior improper (measured: a subgroup with tied scores, or one of a single item,
    beside another: its log scale ran away, the log scales' spread reached 100-900 and the
    other subgroup's AP fell from 0.48 to 0.18).

    Returns
    -------
    ndarray of shape (G,)
        Non-negative, summing to 1.
    """
    neg = data.counts[:, 0].astype(float)  # (G, K)
    spread = neg.sum(axis=1) - neg.max(axis=1)
    if spread.sum() <= 0:
        return np.full(data.n_groups, 1.0 / data.n_groups)
    return spread / spread.sum()


def cutpoint_tilt(n_cutpoints, weights):
    """The cutpoints' prior's weight on each subgroup's log scale: the prior has the
    factor ``exp(-sum_g tilt_g l_g)`` with ``tilt_g = (J - 1) w_g`` (see
    :class:`CutpointPrior` and :func:`unit_weights`); an array (G,)."""
    return max(n_cutpoints - 1, 0) * np.asarray(weights, dtype=float)
