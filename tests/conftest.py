"""Shared fixtures: the ``rng`` of every test and the closing of pyplot figures.

Seeds. Tests must pass for any seed, so by default every run draws a fresh session seed;
``BAYES_PRC_TEST_SEED=<int>`` pins it. The session seed is printed in the pytest header
(``bayes_prc test seed: ...``) and each test's ``rng`` is seeded from it and the test's
id, so a failure is reproduced by running that one test with the printed seed::

    BAYES_PRC_TEST_SEED=12345 python -m pytest "tests/x.py::test_y[param]"

Under pytest-xdist the controller draws the seed before the workers start and passes it
to them through the environment, so every worker uses the same session seed.
"""

import os
import zlib

import numpy as np
import pytest

SEED_VARIABLE = "BAYES_PRC_TEST_SEED"


def session_seed():
    """The session seed: ``BAYES_PRC_TEST_SEED`` (an integer >= 0), set by pytest_configure."""
    text = os.environ.get(SEED_VARIABLE, "").strip()
    try:
        seed = int(text)
    except ValueError:
        raise pytest.UsageError(
            f"{SEED_VARIABLE} must be a whole number >= 0; got {text!r}"
        ) from None
    if seed < 0:
        raise pytest.UsageError(f"{SEED_VARIABLE} must be a whole number >= 0; got {seed}")
    return seed


def pytest_configure(config):
    # fresh entropy unless pinned; set before xdist starts its workers, which inherit it
    if not os.environ.get(SEED_VARIABLE, "").strip():
        os.environ[SEED_VARIABLE] = str(int(np.random.SeedSequence().entropy % 2**32))
    session_seed()  # a bad value is a usage error now, not in every test


def pytest_report_header(config):
    seed = session_seed()
    return f"bayes_prc test seed: {seed} (reproduce with {SEED_VARIABLE}={seed})"


@pytest.fixture
def rng(request):
    """A Generator for this test, from the session seed and the test's id.

    Tests must pass for any seed, so none is special; the same seed and test id give the
    same draws whatever the order or the worker the test runs in.
    """
    return np.random.default_rng([session_seed(), zlib.crc32(request.node.nodeid.encode())])


@pytest.fixture(scope="session")
def rng_for():
    """``rng_for(key)``: a Generator from the session seed and ``key``, for fixtures of a
    wider scope than a test (module-scoped data sets), which cannot use ``rng``."""

    def make(key):
        return np.random.default_rng([session_seed(), zlib.crc32(str(key).encode())])

    return make


@pytest.fixture(autouse=True)
def _close_pyplot_figures():
    """Displays draw on new pyplot figures (as scikit-learn's): close them after each test."""
    yield
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if exitstatus not in (0, 5):  # failures: say again how to reproduce them
        seed = session_seed()
        terminalreporter.write_line(f"bayes_prc test seed: {seed} ({SEED_VARIABLE}={seed})")
