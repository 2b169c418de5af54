"""PRJointRegionDisplay draws the regions of bayes_prc.pr_joint_region(s).

The numbers are read back from the artists (polygon vertices, scatter offsets, line
data) and compared with the computation functions and the empirical curve (sklearn's
precision_recall_curve as the independent reference for the curve).
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.metrics import precision_recall_curve  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.plotting import PRJointRegionDisplay  # noqa: E402


@pytest.fixture
def data(rng):
    y = rng.integers(0, 2, 300)
    y[:2] = [0, 1]
    return y, y + rng.normal(0, 1, 300)


def test_from_predictions_draws_the_regions(data):
    y, s = data
    ts = [-0.5, 0.5, 1.2]
    before = plt.get_fignums()
    disp = PRJointRegionDisplay.from_predictions(y, s, ts, n_points=64)
    # without ax: one new pyplot figure, the display's (shown where it is made)
    assert len(plt.get_fignums()) == len(before) + 1 and plt.gcf() is disp.figure_
    regs = bp.pr_joint_regions(y, s, ts, grid_size=2)
    assert len(disp.regions_) == 3
    for patch, reg in zip(disp.regions_, regs, strict=True):
        xy = patch.get_xy()[:-1]  # closed polygon: last vertex repeats the first
        np.testing.assert_allclose(xy, reg.contour(64)[:, ::-1], atol=1e-12)
    np.testing.assert_allclose(
        disp.points_.get_offsets(), [[r.estimate[1], r.estimate[0]] for r in regs]
    )
    p_ref, r_ref, _ = precision_recall_curve(y, s)
    np.testing.assert_allclose(disp.line_.get_xdata(), r_ref)
    np.testing.assert_allclose(disp.line_.get_ydata(), p_ref)
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert "95% region (profile), threshold 0.5" in labels
    assert disp.ax_.get_xlabel() == "Recall"


def test_from_regions_mixed_methods_and_given_axes(data):
    y, s = data
    fig, ax = plt.subplots()
    try:
        regs = [
            bp.pr_joint_region(y, s, 0.5, method="normal", grid_size=11),
            bp.pr_joint_credible_region(y, s, 0.5, random_seed=0, grid_size=31),
        ]
        disp = PRJointRegionDisplay.from_regions(regs, ax=ax, legend=False, n_points=32)
        assert disp.ax_ is ax and disp.figure_ is fig and disp.line_ is None
        assert disp.method == ["normal", "dirichlet"]
        assert disp.regions_[1].get_label() == "95% region (dirichlet), threshold 0.5"
        np.testing.assert_allclose(disp.regions_[1].get_xy()[:-1], regs[1].contour(32)[:, ::-1])
    finally:
        plt.close(fig)


def test_constructor_checks():
    square = np.array([[0.1, 0.1], [0.1, 0.2], [0.2, 0.2]])
    with pytest.raises(ValueError, match="`boundaries` must hold one polygon per region"):
        PRJointRegionDisplay([0.5, 0.6], [0.5, 0.6], [square])
    with pytest.raises(ValueError, match=r"`boundaries\[0\]` must have shape"):
        PRJointRegionDisplay([0.5], [0.5], [square[:, :1]])
    with pytest.raises(ValueError, match="`curve_recall` and `curve_precision`"):
        PRJointRegionDisplay([0.5], [0.5], [square], curve_recall=[0, 1])
    with pytest.raises(ValueError, match="`method` must be one name or one per region"):
        PRJointRegionDisplay([0.5], [0.5], [square], method=["a", "b"])
    with pytest.raises(ValueError, match="`regions` is empty"):
        PRJointRegionDisplay.from_regions([])
    disp = PRJointRegionDisplay(
        [0.5], [0.4], [square], confidence_level=0.9, method="profile"
    ).plot()
    assert disp.regions_[0].get_label() == "90% region (profile)"
