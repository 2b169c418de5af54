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
    assert "seed 0" in html and "bayesian bootstrap" in html.lower()


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
    assert "rank sets, all at once at 0.95" in html
    assert "rank (1 = best)" in html
