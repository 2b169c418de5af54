"""``groups=`` in the report and ``--groups`` on the command line (issue 28)."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import bayes_prc as bp
from bayes_prc._report import build_report


def _clustered(seed, n_clusters=40):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, n_clusters)
    g = np.repeat(np.arange(n_clusters), sizes)
    u, v = rng.normal(size=(2, n_clusters))
    y = (rng.random(g.size) < 1 / (1 + np.exp(-(-0.8 + 1.2 * v[g])))).astype(int)
    y[:2] = [0, 1]
    s = y + 1.2 * u[g] + 0.7 * rng.normal(size=g.size)
    return y, s, g


def run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.fixture(scope="module")
def clustered_report():
    y, s, g = _clustered(4)
    html, md = build_report(y, s, groups=g, random_seed=0, n_resamples=100)
    return y, s, g, html, md


def test_report_shows_clusters_and_quotes_a_cluster_aware_row(clustered_report):
    y, s, g, html, md = clustered_report
    assert "clusters (groups)</th><td>40</td>" in html and "items per cluster" in html
    assert "Items in 40 clusters" in md
    assert "Quote the logit (Boyd et al.) interval: the items come in 40 clusters" in md
    assert "design effect" in md and "more clusters like these" in md
    ref = bp.ap_interval(y, s, method="logit", groups=g)
    assert f"[{ref.low:.3f}, {ref.high:.3f}]" in md
    # the model rows that ignore the clusters are left out, with a note
    assert "left out semiparametric_eti" in md


def test_cli_summary_and_report_with_groups(tmp_path):
    y, s, g = _clustered(5)
    frame = pd.DataFrame({"patient": [f"p{k}" for k in g], "y": y, "prob": s})
    frame.to_csv(tmp_path / "d.csv", index=False)
    res = run(
        "summary", "d.csv", "--score", "prob", "--label", "y", "--groups", "patient", cwd=tmp_path
    )
    assert res.returncode == 0, res.stderr
    ref = bp.ap_interval(y, s, method="logit", groups=g)
    assert (
        f"AP (logit): {ref.estimate:.4f}, 95% interval [{ref.low:.4f}, {ref.high:.4f}]"
        in res.stdout
    )
    frame.loc[3, "patient"] = ""
    frame.to_csv(tmp_path / "blank.csv", index=False)
    out = tmp_path / "r.html"
    res = run(
        "report",
        "blank.csv",
        "--score",
        "prob",
        "--label",
        "y",
        "--groups",
        "patient",
        "-o",
        str(out),
        cwd=tmp_path,
    )
    assert (
        res.returncode == 2
        and "1 rows have an empty 'patient' (from --groups) on lines 5" in res.stderr
    )
    assert not out.exists()
    res = run(
        "report",
        "d.csv",
        "--score",
        "prob",
        "--label",
        "y",
        "--groups",
        "nope",
        "-o",
        str(out),
        cwd=tmp_path,
    )
    assert res.returncode == 2 and "no column 'nope' (from --groups)" in res.stderr
    assert not out.exists()
