"""The comparison report of several models (bp.report with a mapping or DataFrame of scores)."""

import numpy as np
import pandas as pd
import pytest

import bayes_prc as bp


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(5)
    n = 240
    y = (rng.random(n) < 0.3).astype(int)
    scores = pd.DataFrame(
        {
            "strong": y + rng.normal(0, 0.5, n),
            "weak": y + rng.normal(0, 2.0, n),
            "middle": y + rng.normal(0, 1.0, n),
        }
    )
    return y, scores


def test_report_of_several_models_verdict_first(data, tmp_path):
    y, scores = data
    out, md = tmp_path / "cmp.html", tmp_path / "cmp.md"
    bp.report(y, scores, out, random_seed=0, n_resamples=200, markdown_path=md)
    html, text = out.read_text(), md.read_text()
    res = bp.compare_models(y, scores, random_seed=0, n_resamples=200)
    first = html.index('class="headline"')
    assert res.verdict in html[first : first + 400]  # the verdict is the first thing said
    assert html.count("<svg") == 2 and "tier 1:" in html
    for name in scores:
        assert name in text
    row = next(line for line in text.splitlines() if line.startswith("| strong |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert all(c.isdigit() for c in cells[4:7] + cells[8:]), cells  # ranks, tier: whole
    assert "seed 0" in html and "step-down max-t" in html  # the method is stated


def test_two_models_say_which_is_better_and_by_how_much(data, tmp_path):
    y, scores = data
    out = tmp_path / "two.html"
    bp.report(
        y, {"weak": scores["weak"], "strong": scores["strong"]}, out, random_seed=1, n_resamples=200
    )
    html = out.read_text()
    assert "strong is better than weak by" in html and "P(strong better)" in html


def test_one_column_gives_the_usual_report_and_bad_options_are_named(data, tmp_path):
    y, scores = data
    out = tmp_path / "one.html"
    bp.report(y, scores[["strong"]], out, random_seed=0, n_resamples=200)
    assert "Model comparison report" not in out.read_text()
    with pytest.raises(ValueError, match="does not take `transform`"):
        bp.report(y, scores, tmp_path / "x.html", transform="logit")
    assert not (tmp_path / "x.html").exists()


def test_report_draws_each_models_rank_set_readably_at_k20(tmp_path, rng):
    # the rank plot is the Display's second panel: one bar per model spanning exactly its
    # table row's [rank_low, rank_high] (+-0.3 bar ends), the point at its rank, and the
    # report embeds it (matplotlib writes each text as an SVG comment)
    from bayes_prc.plotting import ModelComparisonDisplay

    n, k = 300, 20
    y = (rng.random(n) < 0.3).astype(int)
    scores = {f"m{j:02d}": y * (0.2 + 0.05 * j) + rng.normal(0, 1, n) for j in range(k)}
    res = bp.compare_models(y, scores, random_seed=2, n_resamples=200)
    disp = ModelComparisonDisplay.from_comparison(res)
    ranks = disp.ax_[1]
    segs = ranks.collections[0].get_segments()
    assert len(segs) == k
    lo = np.array([s[0][0] for s in segs]) + 0.3
    hi = np.array([s[1][0] for s in segs]) - 0.3
    t = res.table
    np.testing.assert_allclose(lo, t["rank_low"].to_numpy(), atol=1e-9)
    np.testing.assert_allclose(hi, t["rank_high"].to_numpy(), atol=1e-9)
    labels = [lab.get_text() for lab in ranks.get_yticklabels()]
    assert labels == list(t.index)
    out = tmp_path / "k20.html"
    bp.report(y, scores, out, random_seed=2, n_resamples=200)
    html = out.read_text()
    assert "all at once at 0.95" in html
    assert "rank (1 = best)" in html


def _overlapping_labels(axis_labels, renderer, along="y"):
    """Pairs of consecutive tick labels whose drawn boxes overlap (along y or x)."""
    lo, hi = ("y0", "y1") if along == "y" else ("x0", "x1")
    boxes = sorted(
        (lab.get_window_extent(renderer) for lab in axis_labels if lab.get_text()),
        key=lambda b: getattr(b, lo),
    )
    pairs = zip(boxes[:-1], boxes[1:], strict=True)
    return [(a, b) for a, b in pairs if getattr(a, hi) > getattr(b, lo) + 0.5]


def test_rank_plot_grows_with_k_and_its_labels_do_not_overlap(rng):
    # the figure's height is 0.3 inch a row of the taller panel: every pair up to k = 5
    # (10 pairs), then the k - 1 adjacent pairs, so k rows from k = 6 on; at k = 20 the
    # forest shows the 19 adjacent pairs of the 190 (title says so); no two labels of
    # either panel overlap once drawn
    import matplotlib

    matplotlib.use("Agg")
    from bayes_prc.plotting import ModelComparisonDisplay

    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    heights = {}
    for k in (3, 8, 20):
        scores = {f"model_{j:02d}": y * (0.2 + 0.05 * j) + rng.normal(0, 1, n) for j in range(k)}
        res = bp.compare_models(y, scores, random_seed=3, n_resamples=200)
        disp = ModelComparisonDisplay.from_comparison(res)
        heights[k] = disp.figure_.get_size_inches()[1]
        rows = max(k, len(res.pairs) if len(res.pairs) <= 10 else k - 1)
        assert heights[k] == pytest.approx(1.2 + 0.3 * rows), k
        disp.figure_.canvas.draw()
        renderer = disp.figure_.canvas.get_renderer()
        forest, ranks = disp.ax_
        assert not _overlapping_labels(forest.get_yticklabels(), renderer), k
        assert not _overlapping_labels(ranks.get_yticklabels(), renderer), k
        for panel in disp.ax_:
            assert not _overlapping_labels(panel.get_xticklabels(), renderer, along="x"), k
        assert (
            forest.title.get_window_extent(renderer).x1 < ranks.title.get_window_extent(renderer).x0
        ), k  # the two titles side by side, apart
        shown = [lab.get_text() for lab in forest.get_yticklabels()]
        t = res.table
        if k == 3:
            assert len(shown) == len(res.pairs)
        else:
            assert shown == [f"{a} - {b}" for a, b in zip(t.index[:-1], t.index[1:], strict=True)]
        if k == 20:
            assert "19 adjacent pairs of 190" in forest.get_title()
        import matplotlib.pyplot as plt

        plt.close(disp.figure_)
    assert heights[3] < heights[8] < heights[20], heights
