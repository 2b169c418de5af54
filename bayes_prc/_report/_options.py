"""The single-model report's settings, as one object from :func:`report` down to its steps."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

__all__ = ["ReportOptions"]


@dataclass(frozen=True, eq=False)
class ReportOptions:
    """Everything :func:`bayes_prc.report` is asked for besides the data and the files.

    :func:`~bayes_prc.report` builds it once from its keyword arguments (see there for
    each one's meaning) and hands it to the computing, drawing and rendering steps,
    which read the fields they need.

    Examples
    --------
    >>> from bayes_prc._report import ReportOptions
    >>> opts = ReportOptions(random_seed=0, n_resamples=200)
    >>> opts.ci_prob, opts.model
    (0.95, 'semiparametric')
    >>> ReportOptions.from_settings(None, {"ci_prob": 0.9}).ci_prob
    0.9
    """

    title: str | None = None
    transform: str | None = None
    pos_label: Any = None
    random_seed: Any = None
    n_resamples: int = 2000
    ci_prob: float = 0.95
    bayes_method: str = "auto"
    progressbar: bool | None = None
    source: str | None = None
    score_models: bool = False
    model: str = "semiparametric"
    groups: Any = None
    subgroup: Any = None
    verbose: bool = False
    min_precision: float | None = None

    @classmethod
    def from_settings(cls, options, settings):
        """``options`` itself, or one built from keyword ``settings`` (not both)."""
        if options is None:
            unknown = set(settings) - {f.name for f in fields(cls)}
            if unknown:
                raise TypeError(f"unknown report setting(s): {', '.join(sorted(unknown))}")
            return cls(**settings)
        if not isinstance(options, cls):
            raise TypeError(f"`options` must be a ReportOptions; got {type(options).__name__}")
        if settings:
            raise TypeError(
                "give the report's settings either as `options` or as keywords, not both; "
                f"got options and {', '.join(sorted(settings))}"
            )
        return options
