"""``bayes-prc select`` and the pool mode of ``bayes-prc report``, run as a user would."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import bayes_prc as bp
from bayes_prc.cli._pool import selection_from_columns


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=180,
    )


def _pool_file(path, n=3000, seed=0, sep=",", bom=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.05).astype(int)
    s = rng.normal(size=n) + 2.0 * y
    frame = pd.DataFrame({"id": [f"item{i}" for i in range(n)], "prob": s, "truth": y})
    frame.to_csv(path, sep=sep, index=False, encoding="utf-8-sig" if bom else "utf-8")
    return frame


@pytest.mark.parametrize(("sep", "bom"), [(",", False), (";", True)])
def test_select_writes_the_selection_in_order(tmp_path, sep, bom):
    pool = _pool_file(tmp_path / "pool.csv", sep=sep, bom=bom)
    out = tmp_path / "to_label.csv"
    res = run(
        "select",
        str(tmp_path / "pool.csv"),
        "--score",
        "prob",
        "--budget",
        "120",
        "--seed",
        "3",
        "-o",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    got = pd.read_csv(out, sep=sep, keep_default_na=False)
    assert list(got.columns) == [
        "id",
        "prob",
        "truth",
        "pool_row",
        "stratum",
        "inclusion_prob",
        "label",
    ]
    # the same selection as the library's, in its order, rows copied unchanged
    sel = bp.select_labels(pool["prob"].to_numpy(), 120, random_seed=3)
    np.testing.assert_array_equal(got["pool_row"].to_numpy() - 1, sel.indices)
    np.testing.assert_array_equal(got["id"], pool["id"].to_numpy()[sel.indices])
    np.testing.assert_allclose(got["inclusion_prob"], sel.inclusion_prob, rtol=1e-15)
    np.testing.assert_array_equal(got["stratum"], sel.strata)
    assert (got["label"] == "").all()


def test_select_errors_leave_no_file(tmp_path):
    _pool_file(tmp_path / "pool.csv", n=100)
    out = tmp_path / "o.csv"
    res = run(
        "select", str(tmp_path / "pool.csv"), "--score", "prob", "--budget", "101", "-o", str(out)
    )
    assert res.returncode == 2 and "--budget 101 is larger than the pool (100 rows" in res.stderr
    assert not out.exists()
    res = run(
        "select", str(tmp_path / "pool.csv"), "--score", "nope", "--budget", "10", "-o", str(out)
    )
    assert res.returncode == 2 and "no column 'nope'" in res.stderr and not out.exists()
    res = run(
        "select",
        str(tmp_path / "pool.csv"),
        "--score",
        "prob",
        "--budget",
        "10",
        "--label-column",
        "truth",
        "-o",
        str(out),
    )
    assert res.returncode == 2 and "already has a column 'truth'" in res.stderr
    out.write_text("keep")
    res = run(
        "select", str(tmp_path / "pool.csv"), "--score", "prob", "--budget", "10", "-o", str(out)
    )
    assert res.returncode == 2 and "exists" in res.stderr and out.read_text() == "keep"
    res = run(
        "select",
        str(tmp_path / "pool.csv"),
        "--score",
        "prob",
        "--budget",
        "10",
        "-o",
        str(tmp_path / "missing" / "o.csv"),
    )
    assert res.returncode == 2 and "does not exist" in res.stderr


def test_selection_rebuilt_from_columns_matches_the_original(rng):
    # the design-based interval from the rebuilt selection equals the original's
    s = rng.normal(size=5000)
    y = rng.random(5000) < 0.05 + 0.3 * (s > 1.5)
    sel = bp.select_labels(s, 200, random_seed=rng)
    back = selection_from_columns(s, sel.indices, sel.inclusion_prob, sel.strata.astype(str))
    np.testing.assert_array_equal(back.stratum_sizes, sel.stratum_sizes)
    assert back.strategy == "stratified"
    a = bp.design_ap_interval(s, sel, y[sel.indices], method="linearization")
    b = bp.design_ap_interval(s, back, y[sel.indices], method="linearization")
    assert a.estimate == pytest.approx(b.estimate, rel=1e-12)
    assert a.standard_error == pytest.approx(b.standard_error, rel=1e-12)


def test_pool_report_end_to_end(tmp_path):
    pool = _pool_file(tmp_path / "pool.csv", n=3000)
    res = run(
        "select",
        str(tmp_path / "pool.csv"),
        "--score",
        "prob",
        "--budget",
        "150",
        "-o",
        str(tmp_path / "sel.csv"),
    )
    assert res.returncode == 0, res.stderr
    sel = pd.read_csv(tmp_path / "sel.csv")
    sel["label"] = sel["truth"]  # the annotator's work
    full = pool.copy()
    full["label"] = ""
    rows = sel["pool_row"].to_numpy() - 1
    full.loc[rows, "label"] = sel["label"].astype(str).to_numpy()
    for col in ("inclusion_prob", "stratum"):
        full[col] = ""
        full.loc[rows, col] = sel[col].astype(str).to_numpy()
    full.to_csv(tmp_path / "labelled_pool.csv", index=False)
    out = tmp_path / "r.html"
    res = run(
        "report",
        str(tmp_path / "labelled_pool.csv"),
        "--score",
        "prob",
        "--label",
        "label",
        "-o",
        str(out),
        "--markdown",
        str(tmp_path / "r.md"),
    )
    assert res.returncode == 0, res.stderr
    text = out.read_text()
    assert "whole pool" in text and "<svg" in text
    md = (tmp_path / "r.md").read_text()
    assert "fit_pool" in md and "design" in md
    # the round trip select prints: the filled-in selection merged back by pool_row gives
    # the same pool report as the labels copied back by hand
    sel.to_csv(tmp_path / "sel.csv", index=False)
    res = run(
        "report",
        str(tmp_path / "pool.csv"),
        "--labels",
        str(tmp_path / "sel.csv"),
        "--score",
        "prob",
        "--label",
        "label",
        "-o",
        str(tmp_path / "r3.html"),
        "--markdown",
        str(tmp_path / "r3.md"),
    )
    assert res.returncode == 0, res.stderr

    def body(text):  # without the title and the source line, which name the files
        return [line for line in text.splitlines()[1:] if "score column" not in line]

    assert body((tmp_path / "r3.md").read_text()) == body(md)
    # without inclusion probabilities: a clear error, no report
    full.drop(columns=["inclusion_prob"]).to_csv(tmp_path / "noinc.csv", index=False)
    out2 = tmp_path / "r2.html"
    res = run(
        "report",
        str(tmp_path / "noinc.csv"),
        "--score",
        "prob",
        "--label",
        "label",
        "-o",
        str(out2),
    )
    assert res.returncode == 2 and "--inclusion-prob" in res.stderr and not out2.exists()
    # a labelled row without its inclusion probability: named, shown as the user wrote it
    blank = full.copy()
    blank.loc[rows[0], "inclusion_prob"] = ""
    blank.to_csv(tmp_path / "blank.csv", index=False)
    res = run(
        "report",
        str(tmp_path / "blank.csv"),
        "--score",
        "prob",
        "--label",
        "label",
        "-o",
        str(out2),
    )
    assert res.returncode == 2 and not out2.exists()
    assert "inclusion probability '' in column 'inclusion_prob' is not a number" in res.stderr


def _selected_file(tmp_path, n=2000, budget=100):
    pool = _pool_file(tmp_path / "pool.csv", n=n)
    res = run(
        "select",
        str(tmp_path / "pool.csv"),
        "--score",
        "prob",
        "--budget",
        str(budget),
        "-o",
        str(tmp_path / "to_label.csv"),
    )
    assert res.returncode == 0, res.stderr
    # select prints the command that reports the pool from the filled-in file
    assert "bayes-prc report" in res.stdout and "--labels" in res.stdout
    assert str(tmp_path / "to_label.csv") in res.stdout
    sel = pd.read_csv(tmp_path / "to_label.csv")
    sel["label"] = sel["truth"]
    sel.to_csv(tmp_path / "to_label.csv", index=False)
    return pool, sel


def test_report_refuses_the_selected_rows_as_a_test_set(tmp_path):
    """The labelled rows alone oversample the top scores: never reported as a test set."""
    _selected_file(tmp_path)
    out = tmp_path / "r.html"
    res = run(
        "report",
        str(tmp_path / "to_label.csv"),
        "--score",
        "prob",
        "--label",
        "label",
        "-o",
        str(out),
    )
    assert res.returncode == 2 and not out.exists()
    assert "pool_row" in res.stderr and "--labels" in res.stderr
    assert f"--labels {tmp_path / 'to_label.csv'}" in res.stderr


def test_labels_route_errors_name_the_problem(tmp_path):
    pool, sel = _selected_file(tmp_path)
    out = tmp_path / "r.html"

    def report(labels_file, *extra):
        return run(
            "report",
            str(tmp_path / "pool.csv"),
            "--labels",
            str(labels_file),
            "--score",
            "prob",
            "--label",
            "label",
            "-o",
            str(out),
            *extra,
        )

    partial = sel.copy()
    partial.loc[[3, 7], "label"] = None
    partial.to_csv(tmp_path / "partial.csv", index=False)
    res = report(tmp_path / "partial.csv")
    assert res.returncode == 2 and "2 selected rows have no label yet (lines 5, 9)" in res.stderr
    other = pool.copy()
    other["prob"] = other["prob"] + 1.0  # another pool (or another score column)
    other.to_csv(tmp_path / "pool.csv", index=False)
    res = report(tmp_path / "to_label.csv")
    assert res.returncode == 2 and "is pool.csv the pool" not in res.stderr
    assert "the pool the rows were selected from" in res.stderr
    pool.iloc[:50].to_csv(tmp_path / "pool.csv", index=False)  # too short
    res = report(tmp_path / "to_label.csv")
    assert res.returncode == 2 and "is not a data row of" in res.stderr
    assert not out.exists()


def test_blank_labels_without_selection_columns_are_an_error(tmp_path):
    frame = _pool_file(tmp_path / "data.csv", n=200)
    frame["y"] = frame["truth"].astype(str)
    frame.loc[[4, 10, 11], "y"] = ""
    frame.to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "r.html"
    res = run(
        "report", str(tmp_path / "data.csv"), "--score", "prob", "--label", "y", "-o", str(out)
    )
    assert res.returncode == 2 and not out.exists()
    assert "3 rows have no label in column 'y' (lines 6, 12, 13)" in res.stderr
    assert "--pool" in res.stderr
    # --pool says it is a pool; then the inclusion probabilities are required
    res = run(
        "report",
        str(tmp_path / "data.csv"),
        "--score",
        "prob",
        "--label",
        "y",
        "--pool",
        "-o",
        str(out),
    )
    assert res.returncode == 2 and "--inclusion-prob" in res.stderr and not out.exists()
