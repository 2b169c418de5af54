"""Empirical layer (numpy only): the counting kernel, the prepared :class:`Ranked` input,
curves, average precision and its estimators, operating points.

Nothing here imports scipy-based models, PyMC, arviz, pandas, matplotlib or dask.
"""

from ._counting import binary_clf_counts, positive_rank_counts, stable_descending_order
from ._ranked import Ranked, as_ranked

__all__ = [
    "Ranked",
    "as_ranked",
    "binary_clf_counts",
    "positive_rank_counts",
    "stable_descending_order",
]
