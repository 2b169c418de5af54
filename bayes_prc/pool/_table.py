"""The pool comparison table's DataFrame: a caption with the recommendation in notebooks."""

from __future__ import annotations

import pandas as pd

from .._core.display import RecommendationTableMixin

__all__ = ["PoolIntervalTable"]


class PoolIntervalTable(RecommendationTableMixin, pd.DataFrame):
    """A :class:`pandas.DataFrame` of pool intervals that shows its recommendation.

    Returned by :func:`pool_intervals`: a plain DataFrame's rows, columns, values and
    ``attrs``; in a notebook a caption names ``attrs["recommended"]`` and why, and
    numbers have 4 significant digits. ``pd.DataFrame(table)`` is the plain frame.
    """
