"""The bayes-prc command, run as a user would: in a subprocess."""

import subprocess
import sys

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc.datasets import load_example


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_demo_prints_summary_and_true_values(tmp_path):
    res = run("demo", "--n-resamples", "100", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "== small_sample ==" in res.stdout
    assert (tmp_path / "bayes_prc_demo.html").exists()
    data = load_example("small_sample")
    ap = bp.average_precision_score(data.y_true, data.y_score)
    line = next(ln for ln in res.stdout.splitlines() if ln.startswith("average_precision"))
    assert float(line.split()[1]) == pytest.approx(ap, abs=5e-5)
    for est in bp.AUC_PR_ESTIMATORS:
        assert est in res.stdout


def test_summary_of_csv(tmp_path):
    f = tmp_path / "scores.csv"
    f.write_text("label,prob\nyes,0.9\nno,0.1\nyes,0.4\nno,0.5\n")
    res = run("summary", str(f), "--score", "prob", "--label", "label", "--pos-label", "yes")
    assert res.returncode == 0, res.stderr
    ap = bp.average_precision_score([1, 0, 1, 0], [0.9, 0.1, 0.4, 0.5])
    assert f"{ap:.4f}" in res.stdout


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("y,s\n1,0.5\n0,0.2\n", ["--score", "missing", "--label", "y"], "no column 'missing'"),
        ("y,s\n1,nan\n0,0.2\n", ["--score", "s", "--label", "y"], "line 2: score 'nan'"),
        ("y,s\n1,abc\n0,0.2\n", ["--score", "s", "--label", "y"], "is not a number"),
        ("y,s\n1,0.5\n1,0.2\n", ["--score", "s", "--label", "y"], "single class"),
        ("y,s\n1,0.5\n0,0.2\n2,0.3\n", ["--score", "s", "--label", "y"], "3 distinct"),
        ("", ["--score", "s", "--label", "y"], "empty"),
    ],
)
def test_bad_input_exit_2_one_line(tmp_path, content, args, message):
    f = tmp_path / "bad.csv"
    f.write_text(content)
    res = run("summary", str(f), *args)
    assert res.returncode == 2
    assert message in res.stderr
    assert res.stderr.count("\n") == 1  # one line, no traceback


def test_unreadable_file(tmp_path):
    res = run("summary", str(tmp_path / "nope.csv"), "--score", "s", "--label", "y")
    assert res.returncode == 2 and "cannot read" in res.stderr
    f = tmp_path / "binary.csv"
    f.write_bytes(np.random.default_rng(0).bytes(200) + b"\xff\xfe")
    res = run("summary", str(f), "--score", "s", "--label", "y")
    assert res.returncode == 2 and res.stderr.count("\n") == 1


def test_help():
    res = run("--help")
    assert res.returncode == 0 and "demo" in res.stdout
