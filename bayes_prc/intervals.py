"""Confidence intervals for a binomial proportion.

Vectorized (NumPy/SciPy only) implementations of the classical binomial
proportion intervals used throughout :mod:`bayes_prc` as frequentist
comparators for precision, recall and average precision:

* ``"wald"`` -- normal approximation, clipped to ``[0, 1]``;
* ``"wilson"`` -- score interval without continuity correction (Wilson 1927);
* ``"clopper_pearson"`` -- "exact" interval from beta quantiles
  (Clopper & Pearson 1934);
* ``"jeffreys"`` -- equal-tailed Beta(k + 1/2, n - k + 1/2) posterior interval
  (Brown, Cai & DasGupta 2001);
* ``"logit"`` -- logit-normal (delta-method on the logit scale) interval, as
  used for average precision by Boyd, Eng & Page (2013);
* ``"likelihood_ratio"`` -- inversion of the binomial likelihood-ratio test.

The main entry point is :func:`proportion_interval`, which takes integer counts.
:func:`logit_interval` and :func:`wald_interval` take a point estimate in
``[0, 1]`` and an effective sample size directly, so they also apply to
non-count estimates such as average precision.

This module is the public path of the implementation in :mod:`bayes_prc.frequentist`.

References
----------
.. [1] Wilson, E. B. (1927). "Probable inference, the law of succession, and
   statistical inference". Journal of the American Statistical Association
   22 (158): 209-212. doi:10.1080/01621459.1927.10502953.
.. [2] Clopper, C. J.; Pearson, E. S. (1934). "The use of confidence or
   fiducial limits illustrated in the case of the binomial". Biometrika
   26 (4): 404-413. doi:10.1093/biomet/26.4.404.
.. [3] Brown, L. D.; Cai, T. T.; DasGupta, A. (2001). "Interval estimation for
   a binomial proportion". Statistical Science 16 (2): 101-133.
   doi:10.1214/ss/1009213286.
.. [4] Boyd, K.; Eng, K. H.; Page, C. D. (2013). "Area under the
   precision-recall curve: point estimates and confidence intervals". In
   Machine Learning and Knowledge Discovery in Databases (ECML PKDD 2013),
   LNCS 8190, pp. 451-466. doi:10.1007/978-3-642-40994-3_29.
"""

from .frequentist import (
    PROPORTION_METHODS,
    ConfidenceInterval,
    IntervalResult,
    ProportionInterval,
    logit_interval,
    proportion_interval,
    wald_interval,
)

__all__ = [
    "PROPORTION_METHODS",
    "ConfidenceInterval",
    "IntervalResult",
    "ProportionInterval",
    "logit_interval",
    "proportion_interval",
    "wald_interval",
]


def __getattr__(name):
    # ``METHODS`` was this module's name for PROPORTION_METHODS; the package uses
    # ``METHODS`` for no constant now (one name, one meaning), the old one still works.
    if name == "METHODS":
        import warnings

        warnings.warn(
            "bayes_prc.intervals.METHODS is deprecated; use PROPORTION_METHODS",
            DeprecationWarning,
            stacklevel=2,
        )
        return PROPORTION_METHODS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
