"""Choosing a threshold you can ship: :func:`choose_threshold`.

The score threshold at which precision (or recall) holds with a stated confidence, by
Learn-then-Test (Angelopoulos et al. 2021; Bonferroni and split fixed-sequence), the
rank-based posterior, and the empirical point (not guaranteed), side by side.
"""

from ._choose import (
    GRID_SIZE,
    THRESHOLD_METHODS,
    ThresholdChoice,
    binomial_pvalue,
    choose_threshold,
    score_grid,
)

__all__ = [
    "GRID_SIZE",
    "THRESHOLD_METHODS",
    "ThresholdChoice",
    "binomial_pvalue",
    "choose_threshold",
    "score_grid",
]
