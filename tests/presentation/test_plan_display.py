"""PlanDisplay: the plan's table drawn as given (width or power against n, the target)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bayes_prc.planning import plan_test_set  # noqa: E402
from bayes_prc.plotting import PlanDisplay  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_from_plan_draws_the_table_the_target_and_n():
    plan = plan_test_set(expected=0.5, prevalence=0.2, width=0.2, n_simulations=40, random_seed=1)
    disp = PlanDisplay.from_plan(plan)
    x, y = disp.line_.get_data()
    np.testing.assert_array_equal(x, plan.table["n"].to_numpy())
    np.testing.assert_array_equal(y, plan.table["assured_width"].to_numpy())
    np.testing.assert_array_equal(disp.median_line_.get_ydata(), plan.table["median_width"])
    assert disp.target_line_.get_ydata()[0] == 0.2
    assert disp.recommended_line_.get_xdata()[0] == plan.n
    assert disp.ax_.get_xscale() == "log"


def test_power_on_a_given_ax():
    fig, ax = plt.subplots()
    disp = PlanDisplay([100, 400], [0.3, 0.85], target="difference", goal=0.8).plot(ax=ax)
    assert disp.ax_ is ax and disp.median_line_ is None and disp.recommended_line_ is None
    assert ax.get_ylim() == (0.0, 1.02)
    assert "Power" in ax.get_ylabel()


def test_refusals():
    with pytest.raises(ValueError, match="`target` must be 'width' or 'difference'; got 'power'"):
        PlanDisplay([1, 2], [0.1, 0.2], target="power", goal=0.1)
    with pytest.raises(ValueError, match="`n` has 3, `value` has 2"):
        PlanDisplay([1, 2, 3], [0.1, 0.2], target="width", goal=0.1)
