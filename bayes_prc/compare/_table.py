"""The comparison tables' DataFrame: a caption with the recommendation in notebooks."""

from __future__ import annotations

import pandas as pd

from .._core.display import RecommendationTableMixin

__all__ = ["IntervalTable"]


class IntervalTable(RecommendationTableMixin, pd.DataFrame):
    """A :class:`pandas.DataFrame` of intervals that shows its recommendation.

    Returned by :func:`compare_intervals` and :func:`bayes_prc.pool.pool_intervals`: the same rows, columns, values and ``attrs``
    as a plain DataFrame (every pandas operation works, and its results are tables of
    this class while they keep the recommended row); displayed in a notebook, the table
    has a caption naming ``attrs["recommended"]`` and why (``attrs["recommendation"]``),
    and numbers to 4 significant digits. ``pd.DataFrame(table)`` is the plain frame.
    """
