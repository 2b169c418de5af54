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
