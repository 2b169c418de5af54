"""Tests of bayes_prc.plotting: every display draws the numbers of the result it shows.

Each test renders on the Agg backend and reads the numbers back from the artists
(polygon vertices of the bands, line data, LineCollection segments, histogram stairs)
to compare them with the output of the computation function the display claims to
draw, recomputed here independently where that is cheap (quantiles over the posterior
draws, numpy histograms, the empirical curve).
"""

import doctest
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402
from matplotlib.colorbar import Colorbar  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import StepPatch  # noqa: E402
from scipy import special  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.intervals import logit_interval, wald_interval  # noqa: E402
from bayes_prc.plotting import (  # noqa: E402
    APForestDisplay,
    PRCurveDisplay,
    PredictiveCurvesDisplay,
    ROCCurveDisplay,
    ScorePPCDisplay,
    ThresholdColoredPRDisplay,
    ThresholdCurvesDisplay,
    _ap_forest,
    _multiclass,
    _pr,
    _predictive,
    _roc,
    _score_ppc,
    _summary,
    _threshold_colored,
    _threshold_curves,
    plot_posterior_summary,
)

PLOT_GRID = np.linspace(0.0, 1.0, 201)[1:]  # the displays' default recall grid


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def data():
    return bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)


@pytest.fixture(scope="module")
def post(data):
    y, s = data
    return bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)


@pytest.fixture(scope="module")
def prob_data():
    """Probabilities (for logit/probit fits): expit of binormal scores."""
    y, s = bp.Binormal(1.5, 1, 0, 1, 0.25).sample(200, random_seed=3)
    return y, special.expit(s)


@pytest.fixture(scope="module")
def post_logit(prob_data):
    y, p = prob_data
    return bp.fit_binormal(
        y, p, transform="logit", model="parametric", method="exact", draws=400, random_seed=0
    )


@pytest.fixture
def ax():
    """Axes on a figure that pyplot does not know about."""
    return Figure().add_subplot()


@pytest.fixture(autouse=True)
def no_pyplot_figures():
    plt.close("all")
    yield
    plt.close("all")


def test_display_without_ax_draws_on_a_new_pyplot_figure_and_with_ax_there():
    """Issue 30: as scikit-learn's displays, so a notebook shows the figure where it is
    made; with ``ax`` nothing new is registered with pyplot."""
    y, s = bp.Binormal(1, 1, 0, 1, 0.3).sample(120, random_seed=0)
    disp = PRCurveDisplay.from_predictions(y, s)
    assert plt.get_fignums() == [disp.figure_.number] and plt.gcf() is disp.figure_
    fig, ax = plt.subplots()
    again = PRCurveDisplay.from_predictions(y, s, ax=ax)
    assert again.ax_ is ax and again.figure_ is fig and len(plt.get_fignums()) == 2


# --------------------------------------------------------------------------- helpers
def band_vertices(coll):
    """Set of (x, y) vertices of a fill_between polygon collection."""
    assert isinstance(coll, PolyCollection)
    verts = np.concatenate([p.vertices for p in coll.get_paths()])
    return {(float(a), float(b)) for a, b in verts}


def assert_band(coll, x, lower, upper):
    pts = band_vertices(coll)
    for xi, lo, hi in zip(x, lower, upper, strict=True):
        assert (float(xi), float(lo)) in pts
        assert (float(xi), float(hi)) in pts


def eti_draws(draws2d, prob):
    a = 1 - prob
    return np.quantile(draws2d, [a / 2, 0.5, 1 - a / 2], axis=0)


# --------------------------------------------------------------------------- imports
def test_import_loads_neither_matplotlib_nor_pymc():
    code = (
        "import sys, bayes_prc.plotting; "
        "print(sorted(m for m in ('matplotlib', 'pymc') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def test_plotting_computes_no_statistics():
    """Displays draw arrays; bands, densities and histograms come from the result objects.

    No plotting module imports scipy, PyMC, ArviZ or a bayes_prc.bayes internal, and none
    calls a quantile, KDE or histogram function.
    """
    import ast
    from pathlib import Path

    import bayes_prc.plotting as plotting

    for path in sorted(Path(plotting.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in ("scipy", "pymc", "arviz"), (path.name, name)
                assert not name.startswith(("..bayes", "bayes_prc.bayes")), (path.name, name)
        text = path.read_text()
        for call in ("quantile(", "percentile(", "gaussian_kde", "histogram("):
            assert call not in text, (path.name, call)


# --------------------------------------------------------------------------- PR curve
def test_pr_curve_draws_the_bands_median_empirical_and_baseline(post, data, ax):
    y, s = data
    disp = PRCurveDisplay.from_posterior(post, y, s, ci_prob=0.9, ax=ax)
    point = post.pr_band(recall=PLOT_GRID, ci_prob=0.9)
    sim = post.pr_band(recall=PLOT_GRID, ci_prob=0.9, kind="simultaneous")
    assert_band(disp.band_, PLOT_GRID, point["lower"].values, point["upper"].values)
    assert_band(disp.simultaneous_band_, PLOT_GRID, sim["lower"].values, sim["upper"].values)
    np.testing.assert_array_equal(disp.line_.get_xdata(), PLOT_GRID)
    np.testing.assert_array_equal(disp.line_.get_ydata(), point["median"].values)

    p, r, _ = bp.precision_recall_curve(y, s)
    np.testing.assert_array_equal(disp.empirical_line_.get_xdata(), r)
    np.testing.assert_array_equal(disp.empirical_line_.get_ydata(), p)
    assert disp.empirical_line_.get_drawstyle() == "steps-post"
    # the right order: the area under the drawn steps is the average precision
    x, h = disp.empirical_line_.get_xdata(), disp.empirical_line_.get_ydata()
    assert -np.sum(np.diff(x) * h[:-1]) == pytest.approx(
        bp.average_precision_score(y, s), abs=1e-12
    )

    np.testing.assert_array_equal(disp.baseline_.get_ydata(), [np.mean(y)] * 2)
    assert disp.bootstrap_band_ is None
    assert disp.ax_ is ax and disp.figure_ is ax.figure
    assert (disp.ax_.get_xlabel(), disp.ax_.get_ylabel()) == ("Recall", "Precision")
    assert disp.ax_.get_xlim() == (0.0, 1.02) and disp.ax_.get_ylim() == (0.0, 1.02)
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert "90% pointwise credible band" in labels
    assert "90% simultaneous credible band" in labels
    ap_median = float(post.average_precision().median())
    assert disp.line_.get_label() == f"posterior median (AP {ap_median:.3f})"


def test_pr_curve_bootstrap_band_from_dataset_and_tuple(post, data):
    y, s = data
    grid = np.linspace(0, 1, 51)
    lower, upper = 0.8 * (1 - 0.5 * grid), np.minimum(1.0, 1.2 * (1 - 0.5 * grid))
    ds = xr.Dataset(
        {"lower": ("recall", lower), "upper": ("recall", upper)},
        coords={"recall": grid},
        attrs={"confidence_level": 0.9},
    )
    disp = PRCurveDisplay.from_posterior(post, y, s, simultaneous=False, bootstrap_band=ds)
    assert disp.simultaneous_band_ is None
    assert_band(disp.bootstrap_band_, grid, lower, upper)
    assert disp.bootstrap_band_.get_label() == "90% bootstrap band"
    disp2 = PRCurveDisplay.from_predictions(y, s, bootstrap_band=(grid, lower, upper))
    assert_band(disp2.bootstrap_band_, grid, lower, upper)
    assert disp2.line_ is None and disp2.band_ is None
    with pytest.raises(ValueError, match="bootstrap_band"):
        PRCurveDisplay.from_predictions(y, s, bootstrap_band={"lower": lower})


def test_pr_curve_plot_kwargs_and_replot(post, data, ax):
    y, s = data
    disp = PRCurveDisplay.from_posterior(
        post, y, s, simultaneous=False, color="red", band_kw={"alpha": 0.5}, legend=False
    )
    assert disp.line_.get_color() == "red"
    assert disp.band_.get_alpha() == 0.5
    assert disp.ax_.get_legend() is None
    first = disp.line_.get_ydata().copy()
    disp.plot(ax=ax, name="model A")  # the stored arrays, drawn again elsewhere
    assert disp.ax_ is ax
    np.testing.assert_array_equal(disp.line_.get_ydata(), first)
    assert disp.line_.get_label().startswith("model A")


def test_pr_curve_constructor_checks_shapes():
    with pytest.raises(ValueError, match="`recall` has 3, `precision` has 2"):
        PRCurveDisplay(recall=[0, 0.5, 1], precision=[1, 0.5])
    with pytest.raises(ValueError, match="`lower` and `upper`"):
        PRCurveDisplay(recall=[0, 1], lower=[0, 0])
    with pytest.raises(ValueError, match="`recall`"):
        PRCurveDisplay(precision=[1, 0.5])


# --------------------------------------------------------------------------- predictive
def test_predictive_curves_are_the_posterior_predictive_draws(post, data, ax):
    y, s = data
    disp = PredictiveCurvesDisplay.from_posterior(post, y, s, n_curves=12, random_seed=7, ax=ax)
    pred = post.predictive_curves(post.n, n_curves=12, random_seed=7, recall=PLOT_GRID)
    assert len(disp.curve_lines_) == 12
    for line, curve in zip(disp.curve_lines_, pred["precision"].values, strict=True):
        np.testing.assert_array_equal(line.get_xdata(), PLOT_GRID)
        np.testing.assert_array_equal(line.get_ydata(), curve)
        assert line.get_drawstyle() == "steps-pre"
    median = post.pr_band(recall=PLOT_GRID)["median"].values
    np.testing.assert_array_equal(disp.line_.get_ydata(), median)
    p, r, _ = bp.precision_recall_curve(y, s)
    np.testing.assert_array_equal(disp.empirical_line_.get_ydata(), p)
    assert disp.curve_lines_[0].get_label() == "12 simulated test sets (n = 300)"
    assert disp.ax_ is ax


# --------------------------------------------------------------------------- coloured PR
def test_threshold_colored_empirical_curve(data, ax):
    y, s = data
    disp = ThresholdColoredPRDisplay.from_predictions(y, s, ax=ax)
    p, r, t = bp.precision_recall_curve(y, s)
    assert isinstance(disp.line_, LineCollection)
    np.testing.assert_array_equal(disp.line_.get_array(), t)
    segs = disp.line_.get_segments()
    assert len(segs) == t.size
    for i in (
        0,
        t.size // 2,
        t.size - 1,
    ):  # steps-post: (r_i, p_i) -> (r_i+1, p_i) -> (r_i+1, p_i+1)
        np.testing.assert_array_equal(
            segs[i], [[r[i], p[i]], [r[i + 1], p[i]], [r[i + 1], p[i + 1]]]
        )
    assert isinstance(disp.colorbar_, Colorbar)
    assert disp.colorbar_.ax.figure is ax.figure
    assert (disp.line_.norm.vmin, disp.line_.norm.vmax) == (t.min(), t.max())
    assert disp.colorbar_.ax.get_ylabel() == "Threshold"


def test_threshold_colored_posterior_curve(post_logit):
    disp = ThresholdColoredPRDisplay.from_posterior(post_logit, colorbar=False)
    grid = np.linspace(0.0, 1.0, 201)[1:-1]
    thr = post_logit.threshold_at_recall(grid).median(("chain", "draw")).values
    np.testing.assert_array_equal(disp.line_.get_array(), thr[:-1])
    assert np.all((thr > 0) & (thr < 1))  # original (probability) scale
    median = post_logit.pr_band(recall=grid)["median"].values
    segs = disp.line_.get_segments()
    np.testing.assert_array_equal(segs[0], [[grid[0], median[0]], [grid[1], median[1]]])
    assert disp.colorbar_ is None


# --------------------------------------------------------------------------- thresholds
def test_threshold_curves_bands_are_per_draw_quantiles(post, data, ax):
    y, s = data
    disp = ThresholdCurvesDisplay.from_posterior(post, y, s, ci_prob=0.8, ax=ax)
    grid = disp.precision_line_.get_xdata()
    assert grid.size == 201 and grid.min() <= s.min() and grid.max() >= s.max()
    lo, med, hi = eti_draws(post.model.precision(grid).reshape(-1, grid.size), 0.8)
    np.testing.assert_array_equal(disp.precision_line_.get_ydata(), med)
    assert_band(disp.precision_band_, grid, lo, hi)
    lo, med, hi = eti_draws(post.model.recall(grid).reshape(-1, grid.size), 0.8)
    np.testing.assert_array_equal(disp.recall_line_.get_ydata(), med)
    assert_band(disp.recall_band_, grid, lo, hi)

    p, r, t = bp.precision_recall_curve(y, s)
    np.testing.assert_array_equal(disp.empirical_precision_line_.get_xdata(), t)
    np.testing.assert_array_equal(disp.empirical_precision_line_.get_ydata(), p[:-1])
    np.testing.assert_array_equal(disp.empirical_recall_line_.get_ydata(), r[:-1])
    assert disp.empirical_recall_line_.get_drawstyle() == "steps-pre"
    # independent check of the alignment: recall(t) = share of positives scoring >= t
    for k in (0, t.size // 3, t.size - 1):
        assert r[k] == np.mean(s[y == 1] >= t[k])
    assert disp.ax_.get_xlabel() == "Threshold"


def test_threshold_curves_map_logit_fits_back_to_probabilities(post_logit, prob_data):
    y, p = prob_data
    disp = ThresholdCurvesDisplay.from_posterior(post_logit, y, p, n_thresholds=51)
    grid = disp.recall_line_.get_xdata()
    assert grid.size == 51 and np.all((grid > 0) & (grid < 1))
    draws = post_logit.model.recall(special.logit(grid)).reshape(-1, grid.size)
    np.testing.assert_allclose(disp.recall_line_.get_ydata(), np.median(draws, axis=0), atol=1e-9)
    # a grid passed on the probability scale is evaluated at its logit
    thr = np.array([0.2, 0.5, 0.8])
    disp2 = ThresholdCurvesDisplay.from_posterior(post_logit, thresholds=thr)
    draws = post_logit.model.precision(special.logit(thr)).reshape(-1, 3)
    np.testing.assert_allclose(disp2.precision_line_.get_ydata(), np.median(draws, axis=0))
    assert disp2.empirical_precision_line_ is None
    assert disp.ax_.get_xlabel() == "Threshold (score scale)"


# --------------------------------------------------------------------------- AP forest
def test_ap_forest_rows_are_the_intervals_passed_in(post, data, ax):
    y, s = data
    ap = bp.average_precision_score(y, s)
    n_pos = int(y.sum())
    rows = [
        logit_interval(ap, n_pos, confidence_level=0.95),
        wald_interval(ap, n_pos, confidence_level=0.9),
        ("bootstrap (95%)", ap, 0.37, 0.61),
        ("no estimate", None, 0.30, 0.70),
    ]
    disp = APForestDisplay.from_posterior(post, rows, ax=ax)
    segs = disp.interval_lines_.get_segments()
    lows = [rows[0].low, rows[1].low, 0.37, 0.30]
    highs = [rows[0].high, rows[1].high, 0.61, 0.70]
    assert [seg[0, 0] for seg in segs] == lows
    assert [seg[1, 0] for seg in segs] == highs
    np.testing.assert_array_equal(
        disp.estimate_markers_.get_xdata(), [rows[0].estimate, rows[1].estimate, ap, np.nan]
    )
    # rows are horizontal, one per interval, below the density
    ys = [seg[0, 1] for seg in segs]
    assert all(seg[0, 1] == seg[1, 1] for seg in segs) and max(ys) < 0
    labels = [t.get_text() for t in disp.ax_.get_yticklabels()]
    assert labels == [
        "posterior (95% HDI)",
        "logit (95%)",
        "wald (90%)",
        "bootstrap (95%)",
        "no estimate",
    ]

    hdi = post.interval("average_precision", ci_kind="hdi")
    (post_seg,) = disp.credible_interval_.get_segments()
    assert post_seg[:, 0].tolist() == [
        float(hdi.sel(ci_bound="lower")),
        float(hdi.sel(ci_bound="upper")),
    ]
    median = float(post.average_precision().median())
    assert disp.median_line_.get_xdata()[0] == median
    # the density drawn is the stored KDE, a proper density on [0, 1]
    np.testing.assert_array_equal(disp.density_line_.get_ydata(), disp.density)
    assert 0 <= disp.x.min() < median < disp.x.max() <= 1
    assert np.trapezoid(disp.density, disp.x) == pytest.approx(1.0, abs=0.02)
    assert disp.ax_.get_xlabel() == "Average precision"


def test_ap_forest_accepts_a_mapping_and_rejects_bad_rows(post):
    disp = APForestDisplay.from_posterior(
        post, {"A": (0.5, 0.4, 0.6), "B": logit_interval(0.5, 50)}, ci_kind="eti", ci_prob=0.9
    )
    labels = [t.get_text() for t in disp.ax_.get_yticklabels()]
    assert labels == ["posterior (90% ETI)", "A", "B"]
    with pytest.raises(ValueError, match=r"intervals\[0\]"):
        APForestDisplay([0, 1], [1, 1], intervals=[(0.5, 0.4)])
    disp = APForestDisplay([0, 0.5, 1], [0, 2, 0])  # density alone
    assert disp.plot().interval_lines_ is None


# --------------------------------------------------------------------------- ROC
def test_roc_curve_band_and_empirical_curve(post, data, ax):
    y, s = data
    disp = ROCCurveDisplay.from_posterior(post, y, s, ax=ax)
    grid = disp.line_.get_xdata()
    assert grid[0] == 0.0 and grid[-1] == 1.0
    lo, med, hi = eti_draws(post.model.tpr_at_fpr(grid).reshape(-1, grid.size), post.ci_prob)
    np.testing.assert_array_equal(disp.line_.get_ydata(), med)
    assert_band(disp.band_, grid, lo, hi)
    fpr, tpr, _ = bp.roc_curve(y, s)
    np.testing.assert_array_equal(disp.empirical_line_.get_xdata(), fpr)
    np.testing.assert_array_equal(disp.empirical_line_.get_ydata(), tpr)
    np.testing.assert_array_equal(disp.chance_line_.get_xydata(), [[0, 0], [1, 1]])
    auc = bp.roc_auc_score(y, s)
    assert disp.empirical_line_.get_label() == f"empirical (AUC {auc:.3f})"
    assert disp.ax_.get_xlabel() == "False positive rate"


# --------------------------------------------------------------------------- score PPC
@pytest.mark.parametrize("transform", [None, "logit"])
def test_score_ppc_histograms_and_predictive_densities(
    transform, post, post_logit, data, prob_data
):
    fit, (y, s) = (post, data) if transform is None else (post_logit, prob_data)
    disp = ScorePPCDisplay.from_posterior(fit, y, s, ci_prob=0.9)
    t = s if transform is None else special.logit(s)
    edges = np.histogram_bin_edges(t, bins="auto")
    for cls_, mask in (("neg", y == 0), ("pos", y == 1)):
        stairs = disp.hist_[cls_]
        assert isinstance(stairs, StepPatch)
        values, drawn_edges, _ = stairs.get_data()
        np.testing.assert_allclose(drawn_edges, edges, rtol=1e-12)
        np.testing.assert_allclose(
            values, np.histogram(t[mask], bins=edges, density=True)[0], rtol=1e-12
        )
        x = disp.lines_[cls_].get_xdata()
        dens = fit.model.pdf(x, label=int(cls_ == "pos")).reshape(-1, x.size)
        np.testing.assert_allclose(disp.lines_[cls_].get_ydata(), dens.mean(axis=0), rtol=1e-12)
        lo, _, hi = eti_draws(dens, 0.9)
        assert_band(disp.bands_[cls_], x, lo, hi)
        assert isinstance(disp.lines_[cls_], Line2D)
    assert disp.ax_.get_xlabel() == ("Score" if transform is None else "logit(score)")


def test_score_ppc_subset_of_draws_is_reproducible(post, data):
    y, s = data
    a = ScorePPCDisplay.from_posterior(post, y, s, n_draws=100, random_seed=1)
    b = ScorePPCDisplay.from_posterior(post, y, s, n_draws=100, random_seed=1)
    np.testing.assert_array_equal(a.density_pos, b.density_pos)
    assert not np.array_equal(a.density_pos, ScorePPCDisplay.from_posterior(post, y, s).density_pos)


# --------------------------------------------------------------------------- ax=, figures
@pytest.mark.parametrize(
    "make",
    [
        lambda post, y, s, ax: PRCurveDisplay.from_posterior(post, y, s, ax=ax),
        lambda post, y, s, ax: PRCurveDisplay.from_predictions(y, s, ax=ax),
        lambda post, y, s, ax: PredictiveCurvesDisplay.from_posterior(
            post, n_curves=3, random_seed=0, ax=ax
        ),
        lambda post, y, s, ax: ThresholdColoredPRDisplay.from_predictions(y, s, ax=ax),
        lambda post, y, s, ax: ThresholdColoredPRDisplay.from_posterior(post, ax=ax),
        lambda post, y, s, ax: ThresholdCurvesDisplay.from_posterior(post, ax=ax),
        lambda post, y, s, ax: APForestDisplay.from_posterior(post, ax=ax),
        lambda post, y, s, ax: ROCCurveDisplay.from_posterior(post, ax=ax),
        lambda post, y, s, ax: ScorePPCDisplay.from_posterior(post, y, s, ax=ax),
    ],
    ids=[
        "pr",
        "pr-pred",
        "predictive",
        "colored",
        "colored-post",
        "thresholds",
        "ap",
        "roc",
        "ppc",
    ],
)
def test_every_display_honours_ax_and_makes_a_pyplot_free_figure(make, post, data):
    y, s = data
    fig = Figure()
    ax = fig.add_subplot()
    disp = make(post, y, s, ax)
    assert disp.ax_ is ax and disp.figure_ is fig
    disp.figure_.canvas.draw()  # renders on Agg
    fresh = make(post, y, s, None)
    assert isinstance(fresh.figure_, Figure) and fresh.figure_ is not fig
    assert fresh.ax_ in fresh.figure_.axes
    fresh.figure_.canvas.draw()
    # pyplot's state is untouched (checked by the autouse fixture): no figure registered


def test_plot_posterior_summary(post, data):
    y, s = data
    fig = Figure(figsize=(12, 8))
    displays = plot_posterior_summary(
        post, y, s, intervals=[("x", 0.5, 0.4, 0.6)], n_curves=5, random_seed=0, figure=fig
    )
    assert sorted(displays) == ["ap", "ppc", "pr", "predictive", "roc", "thresholds"]
    assert all(d.figure_ is fig for d in displays.values())
    assert len({id(d.ax_) for d in displays.values()}) == 6
    fig.canvas.draw()


# --------------------------------------------------------------------------- docstrings
DISPLAY_MODULES = [
    _pr,
    _predictive,
    _threshold_colored,
    _threshold_curves,
    _ap_forest,
    _roc,
    _score_ppc,
    _multiclass,
    _summary,
]


@pytest.mark.parametrize("module", DISPLAY_MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_display_repr_png_shows_the_figure_once(rng):
    """A cell ending with a display: IPython asks for _repr_png_; the figure is rendered
    and released from pyplot, so the inline backend does not show it again."""
    y = (rng.random(100) < 0.3).astype(int)
    s = rng.normal(size=100) + y
    disp = bp.PRCurveDisplay.from_predictions(y, s)
    assert plt.fignum_exists(disp.figure_.number)
    png = disp._repr_png_()
    assert png.startswith(b"\x89PNG") and not plt.fignum_exists(disp.figure_.number)
    assert disp._repr_png_().startswith(b"\x89PNG")  # a later cell shows it again
    assert repr(disp) == "<PRCurveDisplay: Precision vs Recall>"
    undrawn = bp.APForestDisplay([0.1, 0.2], [1.0, 2.0])
    assert undrawn._repr_png_() is None and "not drawn" in repr(undrawn)
