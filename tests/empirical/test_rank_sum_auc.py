"""The unweighted ROC AUC by mid-rank sums equals scikit-learn's trapezoidal AUC.

Reference: ``sklearn.metrics.roc_auc_score`` (area of the empirical ROC curve). The two
compute the same number by different sums, so they agree to rounding: tolerance 1e-12
(absolute, on a number in [0, 1]; a wrong tie rule would be off by >= 1 / (P N) > 1e-6
at these sizes).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score as sk_roc_auc_score

import bayes_prc as bp


def _scores(rng, kind, n):
    if kind == "continuous":
        return rng.normal(size=n)
    if kind == "tied float32":
        return np.round(rng.normal(size=n), 1).astype(np.float32)
    if kind == "int8":
        return rng.integers(-3, 3, n).astype(np.int8)
    if kind == "uint64":
        return rng.integers(0, 4, n).astype(np.uint64)
    return np.where(rng.random(n) < 0.5, 0.0, -0.0)  # signed zeros: one tie group


@pytest.mark.parametrize("kind", ["continuous", "tied float32", "int8", "uint64", "zeros"])
def test_rank_sum_auc_equals_sklearn(kind):
    rng = np.random.default_rng()
    for _ in range(60):
        n = int(rng.integers(2, 400))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = _scores(rng, kind, n)
        assert abs(bp.roc_auc_score(y, s) - sk_roc_auc_score(y, s)) < 1e-12


def test_rank_sum_auc_large_with_ties_and_one_positive():
    rng = np.random.default_rng()
    y = (rng.random(200_000) < 0.1).astype(int)
    s = np.round(rng.normal(size=y.size) + y, 2)  # heavy ties across classes
    assert abs(bp.roc_auc_score(y, s) - sk_roc_auc_score(y, s)) < 1e-12
    y1 = np.zeros(50, dtype=int)
    y1[int(rng.integers(50))] = 1
    s1 = rng.integers(0, 3, 50)
    assert abs(bp.roc_auc_score(y1, s1) - sk_roc_auc_score(y1, s1)) < 1e-12
