"""Warnings and errors of bayes_prc."""

__all__ = ["UndefinedMetricWarning", "ConvergenceWarning", "BayesPRCWarning"]


class BayesPRCWarning(UserWarning):
    """Base class of the warnings emitted by bayes_prc."""


class UndefinedMetricWarning(BayesPRCWarning):
    """A metric is degenerate but defined for this input (e.g. no positive in ``y_true``).

    Subclasses :class:`UserWarning`, so filters written for scikit-learn's warnings of
    the same situations keep working.
    """


class ConvergenceWarning(BayesPRCWarning):
    """MCMC diagnostics (R-hat, effective sample size, divergences) look bad."""
