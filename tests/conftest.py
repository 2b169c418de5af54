import numpy as np
import pytest


@pytest.fixture
def rng(request):
    """A fresh Generator per test; tests must pass for any seed, so none is special."""
    return np.random.default_rng()


@pytest.fixture(autouse=True)
def _close_pyplot_figures():
    """Displays draw on new pyplot figures (as scikit-learn's): close them after each test."""
    yield
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
