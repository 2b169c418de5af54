"""The report's ROC AUC table: in the HTML and the Markdown, from the report's own fit."""

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc._report._compute import compute_report
from bayes_prc._report._render import _auc_section_md
from bayes_prc.datasets import load_example


@pytest.fixture(scope="module")
def small():
    d = load_example("small_sample")
    return d.y_true, d.y_score


@pytest.fixture(scope="module")
def written(small, tmp_path_factory):
    y, s = small
    out = tmp_path_factory.mktemp("auc") / "r.html"
    md = out.with_suffix(".md")
    bp.report(y, s, out, random_seed=0, n_resamples=200, markdown_path=md)
    return out.read_text(), md.read_text()


def test_auc_table_in_html_after_the_ap_table(small, written):
    html, _ = written
    y, s = small
    assert "<h2>ROC AUC: every interval</h2>" in html
    assert html.index("Average precision: every interval") < html.index("ROC AUC: every")
    assert html.index("ROC AUC: every") < html.index("<h2>Operating point</h2>")
    # the DeLong row is roc_auc_interval's, to the 4 digits shown
    ref = bp.roc_auc_interval(y, s)
    section = html[html.index("ROC AUC: every") : html.index("<h2>Operating point</h2>")]
    for v in (ref.estimate, ref.low, ref.high):
        assert f"{v:.4f}" in section
    for label in ("DeLong, logit scale", "Hanley-McNeil", "bootstrap BCa", "rank-based"):
        assert label in section


def test_auc_table_in_markdown(small, written):
    _, md = written
    y, s = small
    assert "## ROC AUC" in md
    block = md[md.index("## ROC AUC") : md.index("## Operating point")]
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    names = [r.split("|")[1].strip() for r in rows[1:]]
    assert names == [
        "delong",
        "delong_logit",
        "hanley_mcneil",
        "bootstrap",
        "bca",
        "semiparametric_hdi",
        "semiparametric_eti",
    ]
    ref = bp.roc_auc_interval(y, s, method="hanley_mcneil")
    assert f"{ref.low:.4f}" in block and f"{ref.high:.4f}" in block


def test_auc_rows_come_from_the_shown_fit(small):
    y, s = small
    d = compute_report(y, s, random_seed=0, n_resamples=100, model="parametric", transform="logit")
    table = d.auc_table
    assert list(table.index[-2:]) == ["binormal_hdi", "binormal_eti"]
    eti = d.posterior.interval("roc_auc", ci_prob=0.95, ci_kind="eti").values
    assert (table.loc["binormal_eti", "low"], table.loc["binormal_eti", "high"]) == tuple(eti)
    # the markdown section renders those numbers
    text = "\n".join(_auc_section_md(d))
    assert f"{eti[0]:.4f}" in text and f"{eti[1]:.4f}" in text


def test_one_positive_report_notes_the_missing_delong_rows():
    rng = np.random.default_rng(0)
    y = np.r_[1, np.zeros(29, dtype=int)]
    s = rng.normal(size=30) + y
    d = compute_report(y, s, random_seed=0, n_resamples=100)
    assert "delong" not in d.auc_table.index and "delong" in d.auc_table.attrs["notes"]
    text = "\n".join(_auc_section_md(d))
    assert "left out delong" in text and "hanley_mcneil" in text
