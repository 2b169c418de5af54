"""The bayes-prc command, run as a user would: in a subprocess."""

import re
import subprocess
import sys
from pathlib import Path

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


# ---------------------------------------------------------------------------------------
# input as people have it (issue 13): BOM, delimiters, decimal commas, labels never guessed


def _separated(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 3, int), np.zeros(n - n // 3, int)]
    s = np.where(y == 1, 2 + rng.random(n), rng.random(n))
    return y, s


@pytest.mark.parametrize(
    ("sep", "decimal", "bom"),
    [(",", ".", False), (";", ".", True), (";", ",", True), ("\t", ".", False), ("|", ".", True)],
)
def test_delimiters_bom_and_decimal_commas(tmp_path, sep, decimal, bom):
    y, s = _separated()
    s = s + np.linspace(0, 0.01, s.size)  # non-separated twist irrelevant to parsing
    rows = "".join(
        f"{a}{sep}{f'{b:.6f}'.replace('.', decimal)}\n" for a, b in zip(y, s, strict=True)
    )
    f = tmp_path / "x.csv"
    f.write_bytes(("\ufeff" if bom else "").encode() + f"y{sep}score\n{rows}".encode())
    res = run("summary", str(f), "--score", "score", "--label", "y")
    assert res.returncode == 0, res.stderr
    ap = bp.average_precision_score(y, np.round(s, 6))
    assert f"average_precision{ap:>{32 - len('average_precision')}.4f}" in res.stdout


def test_explicit_delimiter(tmp_path):
    f = tmp_path / "x.txt"
    f.write_text("y:s\n1:0.9\n0:0.1\n1:0.4\n0:0.5\n")
    res = run("summary", str(f), "--score", "s", "--label", "y", "--delimiter", ":")
    assert res.returncode == 0, res.stderr
    res = run("summary", str(f), "--score", "s", "--label", "y")
    assert res.returncode == 2 and "--delimiter" in res.stderr


def test_labels_one_two_are_not_guessed(tmp_path):
    y, s = _separated()
    f = tmp_path / "x.csv"
    f.write_text("y,s\n" + "".join(f"{a + 1},{b}\n" for a, b in zip(y, s, strict=True)))
    res = run("summary", str(f), "--score", "s", "--label", "y")
    assert res.returncode == 2 and "--pos-label" in res.stderr and "'2'" in res.stderr
    res = run("summary", str(f), "--score", "s", "--label", "y", "--pos-label", "2")
    assert res.returncode == 0, res.stderr
    assert f"positives = {int(y.sum())}," in res.stdout


def test_pos_label_matches_numbers_by_value(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text("y,s\n1.0,0.9\n0.0,0.1\n1.0,0.4\n0.0,0.5\n")
    for extra in ([], ["--pos-label", "1"], ["--pos-label", "1.00"]):
        res = run("summary", str(f), "--score", "s", "--label", "y", *extra)
        assert res.returncode == 0, res.stderr
        assert "positives = 2," in res.stdout


def test_empty_label_cell_names_the_line(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text("y,s\n1,0.5\n,0.2\n0,0.1\n")
    res = run("summary", str(f), "--score", "s", "--label", "y")
    assert res.returncode == 2 and "line 3: empty label" in res.stderr


def test_summary_interpolated_curve_on_separated_data(tmp_path):
    """Perfect separation: precision 1 at recall 1 (the best precision at that recall)."""
    y, s = _separated()
    f = tmp_path / "x.csv"
    f.write_text("y,s\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s, strict=True)))
    res = run("summary", str(f), "--score", "s", "--label", "y")
    assert res.returncode == 0, res.stderr
    table = res.stdout.split("interpolated PR curve")[1].splitlines()[2:]
    rows = [tuple(map(float, ln.split())) for ln in table if ln.strip()]
    assert rows and all(prec == 1.0 for _, _, prec in rows)
    assert rows[-1][1] == 1.0


def test_version_and_defaults_in_help():
    res = run("--version")
    assert res.returncode == 0 and res.stdout.strip() == f"bayes-prc {bp.__version__}"
    res = run("report", "--help")
    assert res.returncode == 0 and "(default: 2000)" in res.stdout


def test_output_checked_before_compute(tmp_path):
    y, s = _separated()
    f = tmp_path / "x.csv"
    f.write_text("y,s\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s, strict=True)))
    res = run(
        "report", str(f), "--score", "s", "--label", "y", "-o", str(tmp_path / "no" / "r.html")
    )
    assert res.returncode == 2 and "does not exist" in res.stderr
    assert res.stderr.count("\n") == 1


def test_ctrl_c_exits_130_with_one_line(monkeypatch, capsys):
    from bayes_prc import cli

    def interrupted(args):
        raise KeyboardInterrupt

    from bayes_prc.cli import _main

    parser = cli.build_parser()
    monkeypatch.setattr(_main, "build_parser", lambda: parser)
    parser.set_defaults(func=interrupted)
    for action in parser._subparsers._group_actions[0].choices.values():
        action.set_defaults(func=interrupted)
    assert cli.main(["demo"]) == 130
    err = capsys.readouterr().err
    assert err == "bayes-prc: interrupted\n"


def test_output_path_that_is_a_directory_fails_fast(tmp_path):
    """Issue 30: a directory as the output path exits 2 before any compute, naming it."""
    rows = "\n".join(f"{i % 2},{0.1 + 0.02 * i:.2f}" for i in range(40))
    (tmp_path / "d.csv").write_text("y,p\n" + rows + "\n")
    (tmp_path / "out").mkdir()
    for extra in ([], ["--force"]):
        res = run(
            "report",
            str(tmp_path / "d.csv"),
            "--score",
            "p",
            "--label",
            "y",
            "-o",
            str(tmp_path / "out"),
            *extra,
        )
        assert res.returncode == 2 and "it is a directory" in res.stderr
    assert list((tmp_path / "out").iterdir()) == []


# --------------------------------------------------------------------------------------
# manners (issue 30): step lines on stderr, output paths checked before any computing
# --------------------------------------------------------------------------------------
def test_step_lines_on_stderr_when_not_a_terminal_and_quiet_silences_them(tmp_path):
    # stderr is a pipe here, not a terminal: one line per step all the same
    res = run("demo", "--n-resamples", "50", "-o", str(tmp_path / "r.html"))
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) >= 4 and all(ln.startswith("bayes-prc: ") for ln in lines), lines
    assert any("fitting the" in ln for ln in lines)
    assert all(re.search(r" \.\.\. done \(\d+\.\d s\)$", ln) for ln in lines), lines
    assert "\r" not in res.stderr  # no progress bar off a terminal
    quiet = run("demo", "--n-resamples", "50", "-q", "--force", "-o", str(tmp_path / "r.html"))
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""


def _unwritable_dir(tmp_path):
    """A directory this process cannot create files in, or None."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        (folder / "probe").write_text("")
    except OSError:
        return folder
    (folder / "probe").unlink()  # root ignores the mode bits: try a read-only file system
    proc = Path("/proc")
    try:
        (proc / "bayes_prc_probe").write_text("")
    except OSError:
        return proc
    return None


@pytest.mark.parametrize("case", ["directory", "directory --force", "missing", "not a dir"])
def test_every_output_path_problem_stops_before_computing(tmp_path, monkeypatch, capsys, case):
    """Each problem: exit 2, one plain line naming it, nothing computed, nothing written."""
    import bayes_prc._report as rep
    from bayes_prc import cli

    def computed(*args, **kwargs):
        raise AssertionError("the report was computed before the path was checked")

    monkeypatch.setattr(rep._entry, "build_report", computed)
    (tmp_path / "out").mkdir()
    (tmp_path / "file.txt").write_text("x")
    output, extra, message = {
        "directory": (tmp_path / "out", [], "it is a directory"),
        "directory --force": (tmp_path / "out", ["--force"], "it is a directory"),
        "missing": (tmp_path / "no" / "r.html", [], "does not exist"),
        "not a dir": (tmp_path / "file.txt" / "r.html", [], "not a directory"),
    }[case]
    before = sorted(tmp_path.rglob("*"))
    assert cli.main(["demo", "-o", str(output), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bayes-prc: error: cannot write the output") and message in err
    assert err.count("\n") == 1 and "Errno" not in err
    assert sorted(tmp_path.rglob("*")) == before  # nothing left behind


def test_unwritable_directory_stops_before_computing(tmp_path, monkeypatch, capsys):
    import bayes_prc._report as rep
    from bayes_prc import cli

    folder = _unwritable_dir(tmp_path)
    if folder is None:
        pytest.skip("no unwritable directory on this machine")
    monkeypatch.setattr(rep._entry, "build_report", lambda *a, **k: pytest.fail("computed"))
    assert cli.main(["demo", "-o", str(folder / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "is not writable" in err and err.count("\n") == 1
    assert not (folder / "r.html").exists()
    (tmp_path / "locked").chmod(0o700)


def test_markdown_path_and_library_report_are_checked_first(tmp_path, monkeypatch):
    import bayes_prc._report as rep

    monkeypatch.setattr(rep._entry, "build_report", lambda *a, **k: pytest.fail("computed"))
    with pytest.raises(IsADirectoryError, match="it is a directory"):
        bp.report([0, 1], [0.1, 0.9], tmp_path, force=True)
    with pytest.raises(FileNotFoundError, match="Markdown output .* does not exist"):
        bp.report([0, 1], [0.1, 0.9], tmp_path / "r.html", markdown_path=tmp_path / "x" / "r.md")
    assert list(tmp_path.iterdir()) == []


def test_path_errors_need_no_heavy_import(tmp_path):
    """The parser and the output-path check load neither the statistics nor scipy.stats:
    a directory as the output fails in well under a second, not after scipy's import."""
    code = (
        "import sys\n"
        "from bayes_prc import cli\n"
        f"status = cli.main(['demo', '-o', {str(tmp_path)!r}])\n"
        "print(status, sorted(m for m in ('bayes_prc.frequentist', 'scipy.stats', 'pymc') "
        "if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.stdout.split("\n")[0] == "2 []", res.stdout + res.stderr
    assert "it is a directory" in res.stderr
