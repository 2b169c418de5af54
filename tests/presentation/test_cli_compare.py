"""``bayes-prc compare``: several score columns, one verdict and one report."""

import numpy as np
import pandas as pd
import pytest

from bayes_prc.cli import main


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    rng = np.random.default_rng(11)
    n = 240
    y = (rng.random(n) < 0.3).astype(int)
    frame = pd.DataFrame(
        {
            "y": np.where(y == 1, "yes", "no"),
            "a": y + rng.normal(0, 1.0, n),
            "b": y + rng.normal(0, 0.5, n),
            "c": y + rng.normal(0, 0.55, n),
            "q": np.arange(n) // 4,
        }
    )
    path = tmp_path_factory.mktemp("cmp") / "scores.csv"
    frame.to_csv(path, index=False)
    return path


def test_compare_writes_the_report_and_prints_the_verdict(csv, tmp_path, capsys):
    out = tmp_path / "c.html"
    code = main(
        [
            "compare",
            str(csv),
            "--label",
            "y",
            "--pos-label",
            "yes",
            "--score",
            "a",
            "--score",
            "b,c",
            "-o",
            str(out),
            "--n-resamples",
            "200",
            "--groups",
            "q",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0 and out.is_file()
    assert "tiers" in captured.out or "better" in captured.out
    assert "score columns 'a', 'b', 'c'" in captured.err and "positive label 'yes'" in captured.err
    html = out.read_text()
    assert "positive label yes" in html and "60 clusters" in html


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--score", "a", "--score", "a"], "names the column 'a' twice"),
        (["--score", "a"], "at least two score columns"),
        (["--score", "a,y"], "both name the column 'y'"),
        (["--score", "a", "--score", "nope"], "nope"),
        (["--score", "a,b", "--reference", "c"], "--reference 'c' is not one of"),
    ],
)
def test_compare_errors_name_the_column_and_leave_no_file(csv, tmp_path, capsys, extra, message):
    out = tmp_path / "bad.html"
    code = main(["compare", str(csv), "--label", "y", "--pos-label", "yes", "-o", str(out)] + extra)
    assert code == 2 and not out.exists()
    assert message in capsys.readouterr().err


def test_summary_of_several_models_one_row_each(csv, capsys):
    from sklearn.metrics import average_precision_score, roc_auc_score

    assert (
        main(["summary", str(csv), "--label", "y", "--pos-label", "yes", "--score", "a,b,c"]) == 0
    )
    out = capsys.readouterr().out
    frame = pd.read_csv(csv)
    y = (frame["y"] == "yes").astype(int)
    for col in "abc":
        row = next(line for line in out.splitlines() if line.startswith(f"{col} "))
        ap, auc = (float(v) for v in row.split()[1:3])
        assert ap == pytest.approx(average_precision_score(y, frame[col]), abs=5e-5)
        assert auc == pytest.approx(roc_auc_score(y, frame[col]), abs=5e-5)
