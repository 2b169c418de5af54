"""Issue 39 item 2: what the CLI reads is never a guess, and it says what it read."""

import subprocess
import sys

import pytest

from bayes_prc.cli import main


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


ROWS = "0.9,0.1,yes\n0.2,0.3,no\n0.5,0.6,yes\n0.1,0.2,no\n"


@pytest.mark.parametrize("command", ["summary", "report"])
@pytest.mark.parametrize(
    ("header", "args", "column"),
    [
        ("score,score,label", ["--score", "score", "--label", "label"], "'score'"),
        ("s,label,label", ["--score", "s", "--label", "label"], "'label'"),
        ("a,b,label", ["--score", "a", "--score", "b", "--label", "label"], "'b'"),
        ("a,b,label", ["--score", "a", "--label", "label", "--label", "b"], "'b'"),
        ("a,b,label", ["--score", "a", "--label", "a"], "'a'"),
    ],
)
def test_duplicate_header_and_repeated_flags_exit_2_naming_the_column(
    tmp_path, capsys, command, header, args, column
):
    f = tmp_path / "x.csv"
    f.write_text(f"{header}\n{ROWS}")
    out = tmp_path / "r.html"
    extra = ["-o", str(out)] if command == "report" else []
    try:
        code = main([command, str(f), *args, "--pos-label", "yes", *extra])
    except SystemExit as stop:  # argparse's usage error
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert column in err.strip().splitlines()[-1] and "Traceback" not in err
    assert not out.exists()


def test_duplicate_in_a_pool_file_and_a_subgroup_column(tmp_path):
    f = tmp_path / "pool.csv"
    f.write_text("s,s,y\n0.9,0.1,\n0.2,0.3,1\n")
    res = run("select", f, "--score", "s", "--budget", "1", "-o", tmp_path / "sel.csv")
    assert res.returncode == 2 and "2 columns named 's'" in res.stderr
    g = tmp_path / "g.csv"
    g.write_text("s,y,site,site\n" + "".join(f"0.{i},{i % 2},a,b\n" for i in range(8)))
    res = run("summary", g, "--score", "s", "--label", "y", "--groups", "site")
    assert res.returncode == 2 and "'site' (from --groups)" in res.stderr


def test_same_value_twice_is_harmless(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text(f"a,b,label\n{ROWS}")
    res = run(
        "summary", f, "--score", "a", "--score", "a", "--label", "label", "--pos-label", "yes"
    )
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize(
    ("labels", "pos", "shown"),
    [(("yes", "no"), "yes", "'yes'"), (("1", "0"), None, "1"), (("true", "false"), None, "'true'")],
)
def test_summary_says_what_it_read(tmp_path, labels, pos, shown):
    f = tmp_path / "x.csv"
    f.write_text("lab,prob\n" + "".join(f"{labels[i % 2]},0.{i}\n" for i in range(1, 9)))
    res = run(
        "summary", f, "--score", "prob", "--label", "lab", *(["--pos-label", pos] if pos else [])
    )
    assert res.returncode == 0, res.stderr
    assert f"read: score column 'prob', label column 'lab' (positive label {shown})" in res.stdout


def test_yes_no_report_states_yes(tmp_path, rng):
    n = 40
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = rng.normal(size=n) + 1.5 * y
    f = tmp_path / "yn.csv"
    f.write_text(
        "label,prob\n"
        + "".join(f"{'yes' if a else 'no'},{b:.6f}\n" for a, b in zip(y, s, strict=True))
    )
    md = tmp_path / "r.md"
    res = run(
        "report",
        f,
        "--score",
        "prob",
        "--label",
        "label",
        "--pos-label",
        "yes",
        "--n-resamples",
        50,
        "-o",
        tmp_path / "r.html",
        "--markdown",
        md,
    )
    assert res.returncode == 0, res.stderr
    assert "score column 'prob', label column 'label' (positive label 'yes')" in res.stderr
    text = md.read_text()
    assert f"positives = {int(y.sum())} (positive label 'yes')" in text
    assert "positive label 1" not in text and "positive label '1'" not in text
    html = (tmp_path / "r.html").read_text()
    assert "positive label</th><td>&#x27;yes&#x27;</td>" in html
    # the numbers are those of the 0/1 labels: the label travelled, the data did not change
    import bayes_prc as bp

    ap = bp.average_precision_score(y.astype(int), s)
    assert f"{ap:.3f}" in text or f"{ap:.4f}" in text


def test_cli_errors_name_the_flag_and_column_not_the_api_parameter(tmp_path, capsys):
    """Issue 39 item 6: `y_score` reads as the column the user typed, values plainly."""
    f = tmp_path / "tie.csv"
    f.write_text("y,prob\n" + "1,0.5\n0,0.5\n" * 4)
    code = main(["report", str(f), "--score", "prob", "--label", "y", "-o", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2 and "column 'prob' (--score)" in err, err
    assert "`y_score`" not in err and "np." not in err


def test_pool_score_mismatch_quotes_plain_numbers(tmp_path, capsys):
    pool = tmp_path / "pool.csv"
    pool.write_text("s\n" + "".join(f"{0.1 * i:.6f}\n" for i in range(1, 11)))
    sel = tmp_path / "sel.csv"
    sel.write_text("pool_row,inclusion_prob,s,y\n2,0.5,0.200001,1\n3,0.5,0.300000,0\n")
    code = main(["report", str(pool), "--labels", str(sel), "--score", "s", "--label", "y"])
    err = capsys.readouterr().err
    assert code == 2 and "the score of pool_row 2 is 0.200001 there but 0.2 in" in err, err
    assert "np." not in err and "float64(" not in err
