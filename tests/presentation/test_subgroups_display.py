"""SubgroupDisplay, SubgroupPRDisplay, the report's subgroup section and ``--subgroup``."""

import subprocess
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import bayes_prc as bp  # noqa: E402
from bayes_prc._report import build_report  # noqa: E402
from bayes_prc.plotting import SubgroupDisplay, SubgroupPRDisplay  # noqa: E402


def _sites(rng, sizes=(120, 90, 70)):
    ys, ss, gs = [], [], []
    for k, n in enumerate(sizes):
        while True:
            y = rng.random(n) < 0.2
            if 2 <= y.sum() <= n - 2:
                break
        ys.append(y)
        ss.append(np.where(y, rng.normal(1.4, 1, n), rng.normal(0, 1, n)))
        gs.append(np.full(n, f"site {k}"))
    return map(np.concatenate, (ys, ss, gs))


@pytest.fixture(scope="module")
def comparison(request, rng_for):
    y, s, g = _sites(rng_for(f"{request.node.nodeid}::comparison"))
    return bp.compare_subgroups(y, s, g, draws=120, tune=120, chains=2, random_seed=0)


def test_display_draws_every_row_and_the_overall_band(comparison):
    disp = SubgroupDisplay.from_comparison(comparison, methods=("pooled", "bootstrap"))
    labels = [t.get_text() for t in disp.ax_.get_yticklabels()]
    assert labels == list(comparison.table.index)
    segs = disp.lines_["pooled"].get_segments()
    assert len(segs) == 3
    t = comparison.table
    for seg, (_, row) in zip(segs, t.iterrows(), strict=True):
        assert seg[:, 0].tolist() == pytest.approx([row["low"], row["high"]])
    assert set(disp.lines_) == {"pooled", "bootstrap"}
    # the legend is outside the data (to the right of the axes)
    legend = disp.ax_.get_legend()
    assert legend is not None and legend.get_bbox_to_anchor().x0 >= disp.ax_.bbox.x1 - 1
    assert disp.figure_ is disp.ax_.figure


def test_display_checks_its_input():
    with pytest.raises(ValueError, match=r"intervals\['pooled'\]"):
        SubgroupDisplay(["a", "b"], {"pooled": [[0.5, 0.4, 0.6]]}, (0.5, 0.4, 0.6))
    with pytest.raises(ValueError, match="unknown method"):
        SubgroupDisplay(["a"], {"bayes": [[0.5, 0.4, 0.6]]}, (0.5, 0.4, 0.6))
    with pytest.raises(ValueError, match="`overall`"):
        SubgroupDisplay(["a"], {"pooled": [[0.5, 0.4, 0.6]]}, (0.5, 0.4))


def test_pr_display_bands(comparison):
    disp = SubgroupPRDisplay.from_comparison(comparison, subgroups=["site 0", "site 2"])
    assert sorted(disp.lines_) == ["site 0", "site 2"]
    band = comparison.pr_band(subgroup="site 0")
    np.testing.assert_allclose(disp.lines_["site 0"].get_ydata(), band["median"].values[0])
    assert disp.overall_fill_ is not None


def test_report_section_and_cli(tmp_path, rng):
    y, s, g = _sites(rng)
    html, md = build_report(y, s, subgroup=g, random_seed=0, n_resamples=100)
    assert "<h2>Per subgroup</h2>" in html and "## Per subgroup" in md
    for label in ("site 0", "site 1", "site 2"):
        assert label in md
    assert "prob_below_overall" in md and "Model check" in html
    pd.DataFrame({"score": s, "label": y.astype(int), "site": g}).to_csv(
        tmp_path / "d.csv", index=False
    )
    res = subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", "report", "d.csv", "--score", "score"]
        + ["--label", "label", "--subgroup", "site", "--n-resamples", "100", "-o", "r.html"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    assert "Per subgroup" in (tmp_path / "r.html").read_text()
    bad = subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", "report", "d.csv", "--score", "score"]
        + ["--label", "label", "--subgroup", "nope", "-o", "x.html"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert bad.returncode != 0 and "nope" in bad.stderr
    assert not (tmp_path / "x.html").exists()


def test_report_caption_lists_borderline_subgroups(comparison):
    """The report names the subgroups whose flag is within Monte Carlo error of 0.9, and
    only those."""
    from bayes_prc._report._subgroups import subgroup_caption

    table = comparison.table.copy()
    table["borderline"] = [False, True, False]
    lines = subgroup_caption(type("Sub", (), {"table": table})())
    (line,) = [x for x in lines if x.startswith("Borderline")]
    assert line.endswith(": site 1.")
    table["borderline"] = False
    lines = subgroup_caption(type("Sub", (), {"table": table})())
    assert not any(x.startswith("Borderline") for x in lines)
