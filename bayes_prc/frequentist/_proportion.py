"""Confidence intervals for a binomial proportion: validation and public functions.

The formulas and references are in :mod:`bayes_prc.intervals`, which re-exports this
module's public names; the array kernels are in ``_proportion_kernels``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from .._core import check_choice, check_probability, plain
from ._proportion_kernels import (
    _clopper_pearson,
    _jeffreys,
    _likelihood_ratio,
    _logit,
    _wald,
    _wilson,
)
from ._results import ProportionInterval, frozen_float_array

__all__ = [
    "PROPORTION_METHODS",
    "effective_proportion_interval",
    "logit_interval",
    "proportion_interval",
    "wald_interval",
]

#: Valid values of the ``method`` argument of :func:`proportion_interval`.
PROPORTION_METHODS: tuple[str, ...] = (
    "wald",
    "wilson",
    "clopper_pearson",
    "jeffreys",
    "logit",
    "likelihood_ratio",
)


# --------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------


def _first_bad(values: np.ndarray, bad: np.ndarray) -> str:
    """Describe the first offending element of ``values`` (where ``bad``)."""
    if values.ndim == 0:
        return repr(values.item())
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return f"{values[idx].item()!r} at index {idx}"


def _as_real_array(x: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x)
    except Exception as exc:  # pragma: no cover - exotic inputs
        raise ValueError(f"{name} must be real numbers; got {plain(x)}") from exc
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(f"{name} must be real numbers; got {plain(x)} (dtype {arr.dtype})")
    arr = arr.astype(np.float64)
    nonfinite = ~np.isfinite(arr)
    if np.any(nonfinite):
        raise ValueError(f"{name} must be finite; got {_first_bad(arr, nonfinite)}")
    return arr


def _broadcast(a: np.ndarray, b: np.ndarray, names: tuple[str, str]) -> tuple[np.ndarray, ...]:
    try:
        return tuple(np.broadcast_arrays(a, b))
    except ValueError as exc:
        raise ValueError(
            f"{names[0]} and {names[1]} are not broadcastable: shapes {a.shape} and {b.shape}"
        ) from exc


def _check_counts(successes: Any, trials: Any) -> tuple[np.ndarray, np.ndarray]:
    k = _as_real_array(successes, "successes")
    n = _as_real_array(trials, "trials")
    bad = (n < 1) | (n != np.floor(n))
    if np.any(bad):
        raise ValueError(f"trials must be positive integers (>= 1); got {_first_bad(n, bad)}")
    bad = k != np.floor(k)
    if np.any(bad):
        raise ValueError(f"successes must be integers; got {_first_bad(k, bad)}")
    k, n = _broadcast(k, n, ("successes", "trials"))
    bad = (k < 0) | (k > n)
    if np.any(bad):
        if k.ndim == 0:
            where = f"successes={k.item()!r} with trials={n.item()!r}"
        else:
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            where = f"successes={k[idx].item()!r} with trials={n[idx].item()!r} at index {idx}"
        raise ValueError(f"successes must satisfy 0 <= successes <= trials; got {where}")
    return k, n


def _check_estimate_n(estimate: Any, n: Any) -> tuple[np.ndarray, np.ndarray]:
    p = _as_real_array(estimate, "estimate")
    bad = (p < 0) | (p > 1)
    if np.any(bad):
        raise ValueError(f"estimate must be in [0, 1]; got {_first_bad(p, bad)}")
    m = _as_real_array(n, "n")
    bad = m <= 0
    if np.any(bad):
        raise ValueError(f"n must be positive; got {_first_bad(m, bad)}")
    return _broadcast(p, m, ("estimate", "n"))


def _z(confidence_level: float) -> float:
    """Two-sided standard-normal critical value."""
    return float(stats.norm.isf((1.0 - confidence_level) / 2.0))


def _out(x: np.ndarray, scalar: bool) -> Any:
    return float(x) if scalar else frozen_float_array(x)


def _package(p, low, high, level, method, k, n, scalar) -> ProportionInterval:
    return ProportionInterval(
        estimate=_out(p, scalar),
        low=_out(low, scalar),
        high=_out(high, scalar),
        confidence_level=level,
        method=method,
        successes=_out(k, scalar),
        trials=_out(n, scalar),
    )


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------


def wald_interval(estimate, n, *, confidence_level: float = 0.95) -> ProportionInterval:
    r"""Wald (normal-approximation) interval from an estimate and an effective n.

    .. math::

        \hat p \pm z \sqrt{\hat p (1 - \hat p) / n},

    clipped to ``[0, 1]``, where ``z`` is the standard normal
    ``1 - (1 - confidence_level) / 2`` quantile. At ``estimate`` 0 or 1 the
    interval degenerates to a point; prefer ``"wilson"``, ``"jeffreys"`` or
    ``"likelihood_ratio"`` there (Brown, Cai & DasGupta 2001).

    Parameters
    ----------
    estimate : float or array_like
        Point estimate(s) in ``[0, 1]``; need not be ``k / n`` for integer ``k``.
    n : float or array_like
        Positive effective sample size(s); need not be an integer.
        Broadcast against ``estimate``.
    confidence_level : float, default 0.95
        Two-sided confidence level in ``(0, 1)``.

    Returns
    -------
    ProportionInterval
        With ``method="wald"``, ``successes = estimate * n`` and ``trials = n``.
        Floats for scalar input, read-only arrays otherwise.

    Raises
    ------
    ValueError
        If ``estimate`` is outside ``[0, 1]``, ``n <= 0``, either is
        non-finite, they do not broadcast, or ``confidence_level`` is not in
        ``(0, 1)``.

    See Also
    --------
    proportion_interval : Intervals from integer counts.

    References
    ----------
    Brown, L. D.; Cai, T. T.; DasGupta, A. (2001). "Interval estimation for a
    binomial proportion". Statistical Science 16 (2): 101-133.

    Examples
    --------
    >>> from bayes_prc.intervals import wald_interval
    >>> res = wald_interval(0.3, 50)
    >>> print(round(res.low, 4), round(res.high, 4))
    0.173 0.427
    >>> print(wald_interval(0.02, 10).low)  # clipped at zero
    0.0
    """
    level = check_probability(confidence_level)
    scalar = np.ndim(estimate) == 0 and np.ndim(n) == 0
    p, m = _check_estimate_n(estimate, n)
    low, high = _wald(p, m, _z(level))
    return _package(p, low, high, level, "wald", p * m, m, scalar)


def logit_interval(estimate, n, *, confidence_level: float = 0.95) -> ProportionInterval:
    r"""Logit-normal interval from an estimate and an effective n.

    With :math:`\eta = \operatorname{logit}(\hat p)` and
    :math:`\tau = 1 / \sqrt{n \hat p (1 - \hat p)}` (the delta-method standard
    error on the logit scale), the interval is

    .. math::

        [\operatorname{expit}(\eta - z\tau),\ \operatorname{expit}(\eta + z\tau)],

    where ``z`` is the standard normal ``1 - (1 - confidence_level) / 2``
    quantile. Boyd, Eng & Page (2013) use it for average precision, with
    :math:`\hat p` the AP estimate and ``n`` the number of positives.

    The interval is always inside ``(0, 1)`` and contains the estimate.

    Parameters
    ----------
    estimate : float or array_like
        Point estimate(s) in ``[0, 1]``; need not be ``k / n`` for integer ``k``.
    n : float or array_like
        Positive effective sample size(s); need not be an integer.
        Broadcast against ``estimate``.
    confidence_level : float, default 0.95
        Two-sided confidence level in ``(0, 1)``.

    Returns
    -------
    ProportionInterval
        With ``method="logit"``, ``successes = estimate * n`` and ``trials = n``.
        Floats for scalar input, read-only arrays otherwise.

    Raises
    ------
    ValueError
        If ``estimate`` is outside ``[0, 1]``, ``n <= 0``, either is
        non-finite, they do not broadcast, or ``confidence_level`` is not in
        ``(0, 1)``.

    See Also
    --------
    proportion_interval : Intervals from integer counts (``method="logit"``).

    Notes
    -----
    **Boundary convention.** At ``estimate`` 0 or 1 the logit is infinite and
    the logit-scale variance is undefined. There, :math:`\eta` and
    :math:`\tau` are computed from the Haldane-corrected proportion
    :math:`\tilde p = (n \hat p + 1/2) / (n + 1)` (i.e. ``(k + 1/2) / (n + 1)``
    for counts; ``n`` in :math:`\tau` is left unchanged), and the end that
    touches the boundary is set exactly: ``low = 0`` when ``estimate == 0``
    and ``high = 1`` when ``estimate == 1``. The result is finite (never NaN)
    for every valid input.

    References
    ----------
    Boyd, K.; Eng, K. H.; Page, C. D. (2013). "Area under the precision-recall
    curve: point estimates and confidence intervals". ECML PKDD 2013, LNCS
    8190, pp. 451-466.

    Examples
    --------
    >>> from bayes_prc.intervals import logit_interval
    >>> res = logit_interval(0.3, 50)
    >>> print(round(res.low, 4), round(res.high, 4))
    0.1897 0.4397
    >>> res = logit_interval(0.0, 20)  # boundary: Haldane-corrected, low = 0
    >>> print(res.low, round(res.high, 4))
    0.0 0.3018
    """
    level = check_probability(confidence_level)
    scalar = np.ndim(estimate) == 0 and np.ndim(n) == 0
    p, m = _check_estimate_n(estimate, n)
    low, high = _logit(p, m, _z(level))
    return _package(p, low, high, level, "logit", p * m, m, scalar)


def proportion_interval(
    successes,
    trials,
    *,
    method: str = "wilson",
    confidence_level: float = 0.95,
) -> ProportionInterval:
    r"""Confidence interval for a binomial proportion from counts.

    Vectorized over broadcastable arrays of ``successes`` and ``trials``.

    Parameters
    ----------
    successes : int or array_like of int
        Number(s) of successes ``k``, with ``0 <= k <= trials``. Integral
        floats such as ``3.0`` are accepted; ``3.5`` is not.
    trials : int or array_like of int
        Number(s) of trials ``n >= 1``. Broadcast against ``successes``.
    method : {"wilson", "wald", "clopper_pearson", "jeffreys", "logit", "likelihood_ratio"}, default "wilson"
        Interval method (exact names only; see Notes).
    confidence_level : float, default 0.95
        Two-sided confidence level in ``(0, 1)``.

    Returns
    -------
    ProportionInterval
        Estimate ``k / n``, interval ends and inputs. Python floats when both
        ``successes`` and ``trials`` are scalars, read-only float arrays of the
        broadcast shape otherwise.

    Raises
    ------
    ValueError
        If ``trials`` are not integers ``>= 1``, ``successes`` are not
        integers in ``[0, trials]``, any input is non-finite, the inputs do
        not broadcast, ``confidence_level`` is not in ``(0, 1)``, or
        ``method`` is unknown.

    See Also
    --------
    logit_interval, wald_interval : The same intervals from a (possibly
        non-count) estimate and an effective sample size.

    Notes
    -----
    Let :math:`\hat p = k/n`, :math:`\alpha = 1 - \text{confidence_level}` and
    :math:`z = \Phi^{-1}(1 - \alpha/2)`.

    ``"wald"``
        :math:`\hat p \pm z\sqrt{\hat p(1-\hat p)/n}`, clipped to ``[0, 1]``
        (see :func:`wald_interval`). Degenerate at ``k = 0`` and ``k = n``.
    ``"wilson"``
        Score interval without continuity correction (Wilson 1927):
        :math:`\bigl(\hat p + \tfrac{z^2}{2n} \pm z\sqrt{\hat p(1-\hat p)/n
        + z^2/(4n^2)}\bigr) / (1 + z^2/n)`. ``low = 0`` at ``k = 0`` and
        ``high = 1`` at ``k = n`` exactly.
    ``"clopper_pearson"``
        Exact interval (Clopper & Pearson 1934): ``low`` is the
        :math:`\alpha/2` quantile of Beta(k, n - k + 1) and ``high`` the
        :math:`1-\alpha/2` quantile of Beta(k + 1, n - k); ``low = 0`` at
        ``k = 0`` and ``high = 1`` at ``k = n``. Coverage is at least the
        nominal level.
    ``"jeffreys"``
        Equal-tailed :math:`\alpha/2`, :math:`1-\alpha/2` quantiles of
        Beta(k + 1/2, n - k + 1/2) (Brown, Cai & DasGupta 2001). Following
        ``statsmodels.stats.proportion.proportion_confint(method="jeffreys")``
        there is **no** boundary modification: at ``k = 0`` the lower end is
        the (positive) beta quantile and at ``k = n`` the upper end is below
        1, so the interval then excludes the point estimate. (Brown et al.
        suggest setting ``low = 0`` / ``high = 1`` there instead.)
    ``"logit"``
        Logit-normal interval (see :func:`logit_interval`, including its
        Haldane-corrected convention at ``k = 0`` and ``k = n``).
    ``"likelihood_ratio"``
        Inversion of the binomial likelihood-ratio test: the set of
        :math:`p_0` with :math:`2\{l(\hat p) - l(p_0)\} \le
        \chi^2_{1}(\text{confidence_level})`, where
        :math:`l(p) = k\log p + (n-k)\log(1-p)`. Each end is found by
        Chandrupatla's bracketing method
        (:func:`scipy.optimize.elementwise.find_root`) to near machine
        precision; at ``k = 0``, ``low = 0`` and
        ``high = 1 - \exp(-c/(2n))`` with ``c`` the chi-square quantile, and
        symmetrically at ``k = n``.

    References
    ----------
    .. [1] Wilson, E. B. (1927). "Probable inference, the law of succession,
       and statistical inference". JASA 22 (158): 209-212.
    .. [2] Clopper, C. J.; Pearson, E. S. (1934). "The use of confidence or
       fiducial limits illustrated in the case of the binomial". Biometrika
       26 (4): 404-413.
    .. [3] Brown, L. D.; Cai, T. T.; DasGupta, A. (2001). "Interval estimation
       for a binomial proportion". Statistical Science 16 (2): 101-133.
    .. [4] Boyd, K.; Eng, K. H.; Page, C. D. (2013). "Area under the
       precision-recall curve: point estimates and confidence intervals".
       ECML PKDD 2013, LNCS 8190, pp. 451-466.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.intervals import proportion_interval
    >>> res = proportion_interval(7, 20)
    >>> print(res.method, res.estimate, round(res.low, 4), round(res.high, 4))
    wilson 0.35 0.1812 0.5671
    >>> low, high = proportion_interval(7, 20, method="clopper_pearson").confidence_interval
    >>> print(round(low, 4), round(high, 4))
    0.1539 0.5922
    >>> res = proportion_interval([0, 5, 10], 10, method="likelihood_ratio")
    >>> print(np.round(res.low, 4), np.round(res.high, 4))
    [0.     0.2176 0.8252] [0.1748 0.7824 1.    ]
    >>> print(np.round(res.width, 4))
    [0.1748 0.5648 0.1748]
    """
    level = check_probability(confidence_level)
    method = check_choice(method, "method", PROPORTION_METHODS)
    scalar = np.ndim(successes) == 0 and np.ndim(trials) == 0
    k, n = _check_counts(successes, trials)
    return _dispatch(k, n, method, level, scalar)


def effective_proportion_interval(successes, trials, *, method, confidence_level):
    """A proportion interval from effective, possibly non-integer, counts.

    The counts of a clustered (or weighted) sample divided by its design effect (Kish
    1965): the interval formulas applied to ``successes / deff`` of ``trials / deff``,
    as Korn & Graubard (1998) do for the Clopper-Pearson interval. ``0 <= successes <=
    trials`` and ``trials > 0`` are required; ``method`` and ``confidence_level`` as in
    :func:`proportion_interval`.
    """
    level = check_probability(confidence_level)
    method = check_choice(method, "method", PROPORTION_METHODS)
    k, n = float(successes), float(trials)
    if not (n > 0 and 0 <= k <= n):
        raise ValueError(
            f"effective counts must satisfy 0 <= successes <= trials, trials > 0; got {plain(k)} of {n!r}"
        )
    return _dispatch(np.asarray(k), np.asarray(n), method, level, True)


def _dispatch(k, n, method, level, scalar):
    p = k / n
    alpha = 1.0 - level
    if method == "wald":
        low, high = _wald(p, n, _z(level))
    elif method == "logit":
        low, high = _logit(p, n, _z(level))
    elif method == "wilson":
        low, high = _wilson(k, n, _z(level))
    elif method == "clopper_pearson":
        low, high = _clopper_pearson(k, n, alpha)
    elif method == "jeffreys":
        low, high = _jeffreys(k, n, alpha)
    else:  # "likelihood_ratio"
        low, high = _likelihood_ratio(k, n, level)
    return _package(p, low, high, level, method, k, n, scalar)
