"""Array kernels of the binomial-proportion intervals (inputs validated and broadcast).

Each kernel takes float64 arrays (successes ``k`` and trials ``n``, or an estimate ``p``
and an effective size ``n``) and returns ``(low, high)``; see
:func:`bayes_prc.intervals.proportion_interval` for the formulas and references.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats
from scipy.optimize import elementwise

# Lower end of the bracket used by the likelihood-ratio root finder.  The LR
# statistic at this point exceeds any chi-square quantile of interest unless
# n / k > exp(600), so the bracket is always valid for realistic counts.
_LR_TINY = 1e-300


def _wald(p: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    half = z * np.sqrt(p * (1.0 - p) / n)
    return np.clip(p - half, 0.0, 1.0), np.clip(p + half, 0.0, 1.0)


def _logit(p: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    at_zero = p == 0.0
    at_one = p == 1.0
    # Haldane-corrected proportion at the boundaries, where the logit-scale
    # variance 1 / (n p (1 - p)) is infinite.
    p_work = np.where(at_zero | at_one, (n * p + 0.5) / (n + 1.0), p)
    eta = special.logit(p_work)
    with np.errstate(divide="ignore"):  # n p (1 - p) may underflow to 0 -> [0, 1]
        tau = 1.0 / np.sqrt(n * p_work * (1.0 - p_work))
    low = np.where(at_zero, 0.0, special.expit(eta - z * tau))
    high = np.where(at_one, 1.0, special.expit(eta + z * tau))
    return low, high


def _wilson(k: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2.0 * n)) / denom
    half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    low = np.where(k == 0, 0.0, np.clip(center - half, 0.0, 1.0))
    high = np.where(k == n, 1.0, np.clip(center + half, 0.0, 1.0))
    return low, high


def _clopper_pearson(k: np.ndarray, n: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    # Replace degenerate beta parameters by harmless ones, then overwrite.
    a_low = np.where(k > 0, k, 1.0)
    b_high = np.where(k < n, n - k, 1.0)
    low = np.where(k > 0, stats.beta.ppf(alpha / 2.0, a_low, n - k + 1.0), 0.0)
    high = np.where(k < n, stats.beta.isf(alpha / 2.0, k + 1.0, b_high), 1.0)
    return low, high


def _jeffreys(k: np.ndarray, n: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    a = k + 0.5
    b = n - k + 0.5
    return stats.beta.ppf(alpha / 2.0, a, b), stats.beta.isf(alpha / 2.0, a, b)


def _lr_statistic(p0: np.ndarray, k: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Binomial likelihood-ratio statistic ``2 (l(k/n) - l(p0))``, ``0 < p0 < 1``."""
    p_hat = k / n
    m = n - k
    # 2 n KL(p_hat || p0), written to avoid 0 * log 0 and cancellation.
    term_k = np.where(k > 0, k * (np.log(np.where(k > 0, p_hat, 1.0)) - np.log(p0)), 0.0)
    has_m = m > 0
    term_m = np.where(
        has_m,
        m * (np.log1p(-np.where(has_m, p_hat, 0.0)) - np.log1p(-np.where(has_m, p0, 0.0))),
        0.0,
    )
    return 2.0 * (term_k + term_m)


def _lr_lower(k: np.ndarray, n: np.ndarray, crit: float) -> np.ndarray:
    """Lower LR limit for 1-d arrays with ``0 < k <= n``, found by bracketing."""
    p_hat = k / n

    def g(p0, k, n):
        return _lr_statistic(p0, k, n) - crit

    res = elementwise.find_root(g, (np.full_like(p_hat, _LR_TINY), p_hat), args=(k, n))
    if not np.all(res.success):  # pragma: no cover - guarded by the bracket choice
        raise RuntimeError("likelihood-ratio root finding did not converge")
    return res.x


def _likelihood_ratio(k: np.ndarray, n: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    crit = float(stats.chi2.ppf(level, df=1))
    shape = k.shape
    kf, nf = k.ravel(), n.ravel()
    # high(k, n) = 1 - low(n - k, n): solve both ends as lower limits in one call.
    kk = np.concatenate([kf, nf - kf])
    nn = np.concatenate([nf, nf])
    lows = np.empty_like(kk)
    zero = kk == 0
    lows[zero] = 0.0
    if np.any(~zero):
        lows[~zero] = _lr_lower(kk[~zero], nn[~zero], crit)
    size = kf.size
    low = lows[:size].copy()
    high = 1.0 - lows[size:]
    # Closed forms at the boundaries: l(p_hat) = 0 and 2 n (-log(1 - p0)) = crit.
    edge = -np.expm1(-crit / (2.0 * nf))
    high = np.where(kf == 0, edge, high)
    low = np.where(kf == nf, np.exp(-crit / (2.0 * nf)), low)
    high = np.where(kf == nf, 1.0, high)
    return low.reshape(shape), high.reshape(shape)
