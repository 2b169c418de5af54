"""Priors, sufficient statistics and the exact conjugate posterior (numpy/scipy only).

The binormal likelihood depends on the data only through, per class c, the count n_c,
the mean xbar_c and the sum of squared deviations S_c = sum (x - xbar_c)^2, plus the
number of positives for the prevalence. With the conjugate prior family

    prevalence            ~ Beta(a, b)
    sigma_c^2             ~ InverseGamma(alpha0, beta0)
    mu_c | sigma_c        ~ Normal(m0, sigma_c / sqrt(kappa0))

the posterior is of the same family (Normal-Inverse-Gamma per class, Beta prevalence):

    kappa_n = kappa0 + n_c,          m_n    = (kappa0 m0 + n_c xbar_c) / kappa_n
    alpha_n = alpha0 + n_c / 2,      beta_n = beta0 + S_c / 2
                                              + kappa0 n_c (xbar_c - m0)^2 / (2 kappa_n)
    prevalence | data ~ Beta(a + n_pos, b + n_neg)

(Gelman et al., Bayesian Data Analysis, 3rd ed., section 3.3). The priors are stated on
*standardized* scores, (x - location) / scale with the data's mean and standard deviation
by default, so the defaults mean the same thing whatever the units of the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from .._core import check_int, plain

__all__ = ["BinormalPriors", "ClassStats", "sufficient_statistics", "sample_exact_posterior"]


class _Priors:
    """Validation and ``from_any`` shared by the prior dataclasses of the Bayesian models."""

    def _check_fields(self, *, may_be_none=(), any_sign=(), integers=()):
        """Every field a finite number (> 0 unless in ``any_sign``), stored as float/int."""
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in may_be_none:
                continue
            if f.name in integers:
                object.__setattr__(self, f.name, check_int(value, f"priors.{f.name}"))
                continue
            if isinstance(value, bool) or not np.isscalar(value) or not np.isfinite(value):
                raise ValueError(f"`priors.{f.name}` must be a finite number; got {plain(value)}")
            if f.name not in any_sign and float(value) <= 0:
                raise ValueError(f"`priors.{f.name}` must be > 0; got {plain(value)}")
            object.__setattr__(self, f.name, float(value))

    @classmethod
    def from_any(cls, priors):
        """Accept None, an instance of this class or a dict of overrides."""
        if priors is None:
            return cls()
        if isinstance(priors, cls):
            return priors
        if isinstance(priors, dict):
            names = {f.name for f in fields(cls)}
            unknown = sorted(set(priors) - names)
            if unknown:
                raise ValueError(
                    f"`priors` has unknown key(s) {unknown}; valid keys are {sorted(names)}"
                )
            return cls(**priors)
        raise ValueError(f"`priors` must be None, a dict or {cls.__name__}; got {plain(priors)}")


@dataclass(frozen=True)
class BinormalPriors(_Priors):
    """Prior of the binormal model, on standardized scores.

    Parameters
    ----------
    prevalence_alpha, prevalence_beta : float, default 1, 1
        Beta prior of the prevalence (uniform by default).
    mu_loc : float, default 0
        Prior mean of each class's mean score (standardized units).
    mu_kappa : float, default 0.01
        Prior "sample size" of each class mean: ``mu ~ Normal(mu_loc, sigma /
        sqrt(mu_kappa))``, so the default prior standard deviation of a class mean is 10
        class standard deviations: weak.
    sigma2_alpha, sigma2_beta : float, default 2, 1
        Inverse-gamma prior of each class's score variance (standardized units): prior
        mean of the variance 1 (the variance of all scores), mode 1/3, heavy right tail.
    location, scale : float or None, default None
        Standardization constants. ``None`` uses the mean and standard deviation of the
        (transformed) scores of the data being fit; numbers fix them, which makes the
        prior independent of the data (used for simulation-based calibration).

    Examples
    --------
    >>> from bayes_prc.bayes import BinormalPriors
    >>> BinormalPriors(prevalence_alpha=2, prevalence_beta=18).prevalence_alpha
    2.0
    """

    prevalence_alpha: float = 1.0
    prevalence_beta: float = 1.0
    mu_loc: float = 0.0
    mu_kappa: float = 0.01
    sigma2_alpha: float = 2.0
    sigma2_beta: float = 1.0
    location: float | None = None
    scale: float | None = None

    def __post_init__(self):
        self._check_fields(may_be_none=("location", "scale"), any_sign=("mu_loc", "location"))


@dataclass(frozen=True)
class ClassStats:
    """Sufficient statistics of one class's (standardized) scores."""

    n: int
    mean: float
    ss: float  # sum of squared deviations from the mean


def sufficient_statistics(z, is_pos):
    """Per-class (negative, positive) sufficient statistics of standardized scores."""
    out = []
    for mask in (~is_pos, is_pos):
        x = z[mask]
        n = int(x.size)
        mean = float(x.mean()) if n else 0.0
        ss = float(np.sum((x - mean) ** 2)) if n else 0.0
        out.append(ClassStats(n, mean, ss))
    return tuple(out)


def conjugate_parameters(stats, priors):
    """Posterior hyper-parameters ``(m_n, kappa_n, alpha_n, beta_n)`` of one class."""
    k0, m0 = priors.mu_kappa, priors.mu_loc
    kn = k0 + stats.n
    mn = (k0 * m0 + stats.n * stats.mean) / kn
    an = priors.sigma2_alpha + stats.n / 2
    bn = priors.sigma2_beta + stats.ss / 2 + k0 * stats.n * (stats.mean - m0) ** 2 / (2 * kn)
    return mn, kn, an, bn


def sample_exact_posterior(stats_neg, stats_pos, priors, *, draws, chains, rng):
    """Independent draws from the closed-form posterior, shaped (chains, draws).

    Returns a dict with ``prevalence``, ``mu_neg``, ``sigma_neg``, ``mu_pos``,
    ``sigma_pos`` on the standardized scale.
    """
    shape = (chains, draws)
    out = {
        "prevalence": rng.beta(
            priors.prevalence_alpha + stats_pos.n, priors.prevalence_beta + stats_neg.n, shape
        )
    }
    for name, st in (("neg", stats_neg), ("pos", stats_pos)):
        mn, kn, an, bn = conjugate_parameters(st, priors)
        sigma2 = bn / rng.gamma(an, 1.0, shape)  # InverseGamma(an, bn)
        out[f"mu_{name}"] = rng.normal(mn, np.sqrt(sigma2 / kn))
        out[f"sigma_{name}"] = np.sqrt(sigma2)
    return out
