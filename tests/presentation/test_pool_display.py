"""``PRCurveDisplay.from_pool`` draws the pool posterior's own band, and no sample curve.

Reference: the arrays the posterior returns (``pr_band``, the prevalence and AP draws);
the display must draw exactly those (plotting computes nothing of its own).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.plotting import PRCurveDisplay  # noqa: E402


@pytest.fixture(scope="module")
def pool_fit():
    rng = np.random.default_rng(3)
    y = rng.random(20_000) < 0.02
    s = rng.normal(size=y.size) + 2.5 * y
    sel = bp.select_labels(s, 200, random_seed=1)
    return bp.fit_pool(s, sel, y[sel.indices], random_seed=2, draws=300)


def test_from_pool_draws_the_posterior_band(pool_fit):
    recall = np.linspace(0.05, 1.0, 40)
    disp = PRCurveDisplay.from_pool(pool_fit, recall=recall, ci_prob=0.8)
    band = pool_fit.pr_band(recall=recall, ci_prob=0.8)
    np.testing.assert_array_equal(disp.lower, band["lower"].values)
    np.testing.assert_array_equal(disp.upper, band["upper"].values)
    np.testing.assert_array_equal(disp.precision, band["median"].values)
    sim = pool_fit.pr_band(recall=recall, ci_prob=0.8, kind="simultaneous")
    np.testing.assert_array_equal(disp.simultaneous_upper, sim["upper"].values)
    assert disp.empirical_recall is None and disp.empirical_precision is None
    prev = float(pool_fit.idata["posterior"]["prevalence"].median())
    assert disp.prevalence == prev
    assert disp.average_precision == float(pool_fit.average_precision().median())
    plt.close("all")
