import numpy as np
import pytest


@pytest.fixture
def rng(request):
    """A fresh Generator per test; tests must pass for any seed, so none is special."""
    return np.random.default_rng()
