"""The report's first screen and figures (issue 30): one headline number that does not
move with the seed, every table row in the forest plot, wide figures with their legends
beside the data, and plain words with a single positive."""

import html
import re

import numpy as np
import pytest

from bayes_prc._report import build_report
from bayes_prc._report._compute import _decimals, compute_report, plain_words
from bayes_prc._report._figures import (
    MIN_WIDTH_PX,
    forest_display,
    legend_outside,
    report_figures,
)
from bayes_prc._report._render import _marked, headline_text, render_html, verdict
from bayes_prc.datasets import load_example


@pytest.fixture(scope="module")
def demo():
    d = load_example("small_sample")
    return d.y_true, d.y_score


@pytest.fixture(scope="module")
def demo_report(demo):
    """The demo's report numbers (seed 0) and figures, computed once for this module."""
    y, s = demo
    d = compute_report(y, s, transform="logit", random_seed=0, n_resamples=50)
    return d, report_figures(d, 0.95)


def test_headline_is_the_same_for_any_seed(demo, demo_report, rng):
    """The demo's headline (the recommended AP row) does not change with the seed: the
    fit and the AP table are seeded from the data, and the digits shown are those the
    Monte Carlo error allows."""
    y, s = demo
    seeds = [int(v) for v in rng.integers(1, 2**31, size=2)]
    reports = [demo_report[0]] + [
        compute_report(y, s, transform="logit", random_seed=seed, n_resamples=50) for seed in seeds
    ]
    lines = [verdict(d, 0.95)[:2] for d in reports]
    assert lines[0][0].startswith("AP ") and "interval [" in lines[0][0]
    assert lines[1] == lines[0] and lines[2] == lines[0], (seeds, lines)
    # the rest of the report still follows the seed (the bootstrap band)
    lows = [d.bootstrap_band["lower"].values for d in reports]
    assert not all(np.array_equal(lows[0], low) for low in lows[1:])
    # one AP number on the first line, to the digits its Monte Carlo error allows
    h = reports[0].headline
    assert h["mcse"] is not None and h["mcse"] > 0
    for value, k in zip((h["estimate"], h["low"], h["high"]), h["decimals"], strict=True):
        assert f"{value:.{k}f}" in lines[0][0]
    assert "\u00b1" not in headline_text(reports[0], 0.95)


def test_headline_digits_follow_the_monte_carlo_error():
    # the last digit shown is worth at least the error; 2 to 3 decimals
    assert [_decimals(se) for se in (0.0097, 0.001, 0.00099, 4e-5, 0.03, 0.0)] == [2, 3, 3, 3, 2, 3]


def test_first_screen_has_one_ap_number(demo_report):
    d, svgs = demo_report
    page = render_html(
        d, svgs, title="demo", source=None, ci_prob=0.95, n_resamples=50, random_seed=0
    )
    # the headline comes first: one AP value and its interval (three numbers and the level)
    first = re.search(r'<p class="headline">(.*?)</p>', page).group(1)
    assert re.fullmatch(r"AP 0\.\d+, 95% interval \[0\.\d+, [01]\.\d+\]\.", first), first
    assert page.index('class="headline"') < page.index("<h2>Data</h2>")
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", page, flags=re.S)))
    head = text[: text.index("Diagnostics")]  # title, headline, its explanation, data
    assert "empirical average precision" not in head and "posterior mean" not in head
    # the other estimates are further down, labelled
    other = text.index("Other estimates of the AP")
    assert other > text.index("Average precision: every interval")
    assert "random seed" in head and "positive label" in head


def test_forest_plot_has_every_table_row(demo_report):
    """The AP forest plot draws one row per row of the AP table (the demo's left out the
    parametric rows), labelled as the table's rows, in its order."""
    from matplotlib.figure import Figure

    d = demo_report[0]
    ax = Figure().add_subplot()
    disp = forest_display(d, 0.95, ax)
    shown = _marked(d.ap_table, d.n_pos)
    assert len(disp.row_positions_) == len(shown) == len(d.ap_table)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(shown["label"])


def test_forest_rows_without_an_interval_keep_their_place():
    """A row the table shows as no interval (one positive: the bootstraps) is still a row."""
    from matplotlib.figure import Figure

    y = np.zeros(40, int)
    y[5] = 1
    s = np.linspace(0, 1, 40)
    d = compute_report(y, s, random_seed=0, n_resamples=50)
    ax = Figure().add_subplot()
    disp = forest_display(d, 0.95, ax)
    shown = _marked(d.ap_table, d.n_pos)
    assert (shown["low"] == "\u2014").any()  # the case this test is about
    assert len(disp.row_positions_) == len(shown)
    assert np.isnan(disp.interval_lows[(shown["low"] == "\u2014").to_numpy()]).all()


def test_figures_are_wide_with_legends_beside_the_axes(demo_report):
    svgs = demo_report[1]
    assert {"pr", "forest", "predictive", "threshold", "roc"} <= set(svgs)
    for name, text in svgs.items():
        width = re.search(r'<svg[^>]*\swidth="([\d.]+)px"', text)
        assert width is not None and float(width.group(1)) >= MIN_WIDTH_PX, name


def test_legend_outside_moves_the_legend_off_the_data():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="a line with a long label that would wrap " * 2)
    ax.fill_between([0, 1], [0, 0], [1, 1], alpha=0.2, label="band")
    ax.legend(loc="lower right")
    legend = legend_outside(ax)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box, axes_box = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert box.x0 >= axes_box.x1  # entirely to the right of the axes
    assert [t.get_text().replace("\n", " ") for t in legend.get_texts()][1] == "band"
    assert legend_outside(fig.add_subplot(2, 1, 2)) is None  # no legend: nothing to move


def test_one_positive_report_is_in_plain_words():
    """Issue 30: with one positive the report showed backticks and the name y_true."""
    rng = np.random.default_rng(3)  # any data with one positive; fixed for speed only
    y = np.zeros(40, int)
    y[0] = 1
    s = rng.normal(size=40)
    s[0] += 1.5
    page, md = build_report(y, s, random_seed=0, n_resamples=100)
    words = re.sub(r"<(svg|style)\b.*?</\1>", "", page, flags=re.S)
    prose = html.unescape(
        re.sub(r"<[^>]+>", " ", re.sub(r"<table.*?</table>", "", words, flags=re.S))
    )
    visible = html.unescape(re.sub(r"<[^>]+>", " ", words))
    assert "The rank-based model could not be fit" in prose  # the note this is about
    for text in (visible, md):
        assert "`" not in text
        for name in ("y_true", "y_score", "pos_label", "method="):
            assert name not in text, name
    # outside the tables' method column, no snake_case Python names at all
    leftover = set(re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", prose)) - {"bayes_prc"}
    assert not leftover, leftover


def test_plain_words():
    assert plain_words("`y_true` must hold 2 classes") == "the labels must hold 2 classes"
    assert plain_words("method='delong' needs 2", {"delong": "DeLong"}) == "DeLong needs 2"
    assert plain_words("the n_resamples resamples") == "the n resamples resamples"
