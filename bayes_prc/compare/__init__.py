"""Every interval on the same data, side by side, and the one to quote.

Computation only (no plotting); one module per question, each returning the kind of
result its question needs:

* :func:`compare_intervals` (``_intervals``): intervals for the area under the PR curve
  (or the ROC curve) by every method, an :class:`IntervalTable` (a
  :class:`pandas.DataFrame` subclass) with one row per method and the columns ``label``,
  ``family``, ``estimate``, ``low``, ``high``, ``width``, ``estimator``, ``interval``
  (what kind of interval at which level), ``note`` (why a zero-width row is degenerate,
  else empty); ``attrs["recommended"]`` is the row to quote and
  ``attrs["recommendation"]`` why and ``attrs["decision"]`` the rule book's
  :class:`~bayes_prc.recommend.Recommendation` (:func:`recommend_interval`,
  :func:`recommend_clustered`, in :mod:`bayes_prc.recommend`). ``df.to_xarray()`` gives the same table as an xarray
  Dataset over dim ``row`` (with ``method`` an indexed coordinate along it: a dim named
  ``method`` would collide with ``Dataset.sel``'s keyword).
* :func:`compare_operating_point` (``_operating_point``): precision and recall at one
  threshold by every interval method, a plain :class:`pandas.DataFrame` (one row per
  quantity and method, the threshold and counts in ``attrs``).
* :func:`compare_bands` (``_bands``): bands of the PR curve by every method on one recall
  grid, an :class:`xarray.Dataset` over ``row`` and ``recall``, with the band to draw
  (:func:`recommend_band`) in its ``attrs``.

The ROC AUC rows and their rule are in ``_auc``; what the tables share in ``_common``.
"""

# the rules (bayes_prc.recommend, the rule book) stay importable from here
from ..recommend import (
    MIN_BAND_POSITIVES,
    MIN_BOOTSTRAP_BAND_POSITIVES,
    recommend_band,
    recommend_clustered,
    recommend_interval,
)
from ._auc import AUC_COMPARISON_METHODS, AUC_FREQUENTIST_METHODS, DEFAULT_AUC_METHODS
from ._bands import BAND_METHODS, DEFAULT_BAND_METHODS, compare_bands
from ._common import fit_or_reuse
from ._intervals import AP_COMPARISON_METHODS, DEFAULT_AP_METHODS, compare_intervals
from ._intervals import DEGENERATE_NOTE as DEGENERATE_NOTE
from ._intervals import TIED_NOTE as TIED_NOTE
from ._operating_point import compare_operating_point

__all__ = [
    "compare_intervals",
    "compare_bands",
    "recommend_band",
    "BAND_METHODS",
    "DEFAULT_BAND_METHODS",
    "MIN_BAND_POSITIVES",
    "MIN_BOOTSTRAP_BAND_POSITIVES",
    "recommend_interval",
    "recommend_clustered",
    "DEFAULT_AP_METHODS",
    "compare_operating_point",
    "AP_COMPARISON_METHODS",
    "AUC_COMPARISON_METHODS",
    "DEFAULT_AUC_METHODS",
    "IntervalTable",
    # helpers of the report
    "AUC_FREQUENTIST_METHODS",
    "fit_or_reuse",
]


def __getattr__(name):
    # the table type is a pandas subclass: loaded on first use, so that
    # ``import bayes_prc.compare`` does not load pandas
    if name == "IntervalTable":
        from ._table import IntervalTable

        return IntervalTable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
