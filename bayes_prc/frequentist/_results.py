"""The base of every frequentist interval result, and the binomial-proportion result."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.display import HTMLReprMixin

__all__ = ["ConfidenceInterval", "IntervalResult", "ProportionInterval"]

ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])
ConfidenceInterval.__doc__ = "Lower and upper end of a confidence interval."


def frozen_float_array(a):
    """A read-only float64 copy of ``a`` (the arrays held by the frozen results)."""
    a = np.array(a, dtype=np.float64)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class IntervalResult(HTMLReprMixin):
    """Base of every frequentist interval result of bayes_prc.

    Frozen dataclass with the five fields shared by all interval results (see
    :class:`ProportionInterval`, :class:`bayes_prc.frequentist.APInterval` and
    :class:`bayes_prc.frequentist.ThresholdInterval`), and the
    ``confidence_interval`` / ``width`` properties.

    Attributes
    ----------
    estimate : float or ndarray
        Point estimate.
    low, high : float or ndarray
        Lower and upper ends of the interval.
    confidence_level : float
        Nominal two-sided confidence level, in ``(0, 1)``.
    method : str
        Name of the interval method.
    """

    estimate: Any
    low: Any
    high: Any
    confidence_level: float
    method: str

    @property
    def confidence_interval(self) -> ConfidenceInterval:
        """The interval as a ``ConfidenceInterval(low, high)`` namedtuple."""
        return ConfidenceInterval(self.low, self.high)

    @property
    def width(self) -> Any:
        """Interval width ``high - low``."""
        return self.high - self.low


@dataclass(frozen=True)
class ProportionInterval(IntervalResult):
    """Point estimate and confidence interval for a binomial proportion.

    All array-valued fields share one (broadcast) shape and are read-only.
    For scalar input the fields are Python floats.

    Attributes
    ----------
    estimate : float or ndarray
        Point estimate ``successes / trials`` (or the estimate passed to
        :func:`logit_interval` / :func:`wald_interval`).
    low, high : float or ndarray
        Lower and upper ends of the interval.
    confidence_level : float
        Nominal two-sided confidence level, in ``(0, 1)``.
    method : str
        Name of the interval method (one of :data:`PROPORTION_METHODS` for a proportion).
    successes : float or ndarray
        Number of successes. For :func:`logit_interval` and
        :func:`wald_interval` this is ``estimate * n`` (possibly non-integer).
    trials : float or ndarray
        Number of trials (the effective sample size ``n``).
    """

    successes: Any
    trials: Any
