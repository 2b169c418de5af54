"""``unique_labels`` equals :func:`numpy.unique` (values and dtype) on every label kind.

Its fast paths (min/max for 0/1 ranges, any/all for booleans, bincount for small integer
ranges) must never change the answer; numpy's sort-based unique is the reference.
"""

from __future__ import annotations

import numpy as np
import pytest

from bayes_prc._core import unique_labels

CASES = [
    [True, False],
    [True, True],
    [False],
    [0, 1, 1, 0],
    [1, 1],
    [0],
    [-1, 1, 1],
    [-1, 0, 1],
    [1, 2],
    [2, 4, 4],
    [5, 7, 10**9],
    [3.0, 1.0, 3.0],
    ["b", "a", "b"],
]


@pytest.mark.parametrize("values", CASES, ids=str)
@pytest.mark.parametrize("dtype", [None, np.int8, np.uint8, np.int64])
def test_unique_labels_equals_numpy_unique(values, dtype):
    if dtype is not None and not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        pytest.skip("integer dtypes only for integer labels")
    if dtype is not None and (
        min(values) < np.iinfo(dtype).min or max(values) > np.iinfo(dtype).max
    ):
        pytest.skip("out of range for the dtype")
    arr = np.asarray(values, dtype=dtype)
    got, ref = unique_labels(arr), np.unique(arr)
    np.testing.assert_array_equal(got, ref)
    assert got.dtype == ref.dtype


def test_unique_labels_random_integer_arrays(rng):
    for _ in range(200):
        lo = int(rng.integers(-3, 3))
        arr = rng.integers(lo, lo + int(rng.integers(1, 5)), size=int(rng.integers(1, 50)))
        np.testing.assert_array_equal(unique_labels(arr), np.unique(arr))
        b = arr > lo
        np.testing.assert_array_equal(unique_labels(b), np.unique(b))
