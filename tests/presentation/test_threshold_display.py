"""ThresholdChoiceDisplay, the report's "Choosing the threshold" section and
``report --min-precision``."""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from bayes_prc._report._threshold import threshold_section_md  # noqa: E402
from bayes_prc.cli import main as cli_main  # noqa: E402
from bayes_prc.plotting import ThresholdChoiceDisplay  # noqa: E402
from bayes_prc.threshold import choose_threshold  # noqa: E402


def _data(rng, n=800):
    y = rng.random(n) < 0.3
    return y, rng.normal(2.2 * y, 1.0)


def _axes(n):
    fig = Figure()
    return fig.subplots(1, n) if n > 1 else fig.add_subplot()


def test_display_draws_the_arrays_it_is_given(rng):
    t = np.sort(rng.normal(size=30))
    prec = np.linspace(0.3, 1.0, 30)
    rec = np.linspace(1.0, 0.05, 30)
    cert = np.arange(30) >= 20
    low, high = prec - 0.05, np.minimum(prec + 0.05, 1)
    disp = ThresholdChoiceDisplay(
        t,
        prec,
        rec,
        cert,
        threshold=t[20],
        point_precision=prec[20],
        point_recall=rec[20],
        precision_interval=(prec[20] - 0.1, prec[20] + 0.05),
        recall_interval=(rec[20] - 0.02, rec[20] + 0.03),
        precision_low=low,
        precision_high=high,
        target=0.8,
        ci_prob=0.9,
    ).plot(ax=_axes(2))
    # PR panel: the curve is (recall, precision) in order of recall
    order = np.argsort(rec)
    np.testing.assert_array_equal(disp.curve_line_.get_xdata(), rec[order])
    np.testing.assert_array_equal(disp.curve_line_.get_ydata(), prec[order])
    # the point and its error bars: the line's data and the bar ends
    x, y = disp.point_.lines[0].get_data()
    assert (x[0], y[0]) == (rec[20], prec[20])
    ybar = disp.point_.lines[2][1].get_segments()[0]
    np.testing.assert_allclose(ybar[:, 1], [prec[20] - 0.1, prec[20] + 0.05])
    # the certified part of the PR curve: shaded under the curve over the certified recalls
    verts = np.concatenate([p.vertices for p in disp.certified_region_.get_paths()])
    assert verts[:, 0].min() == pytest.approx(rec[cert].min())
    assert verts[:, 0].max() == pytest.approx(rec[cert].max())
    # threshold panel
    np.testing.assert_array_equal(disp.precision_line_.get_xdata(), t)
    np.testing.assert_array_equal(disp.precision_line_.get_ydata(), prec)
    np.testing.assert_array_equal(disp.recall_line_.get_ydata(), rec)
    assert disp.threshold_line_.get_xdata()[0] == t[20]
    assert disp.target_line_.get_ydata()[0] == 0.8
    band = np.concatenate([p.vertices for p in disp.band_.get_paths()])
    assert band[:, 1].min() == pytest.approx(low.min())
    span = np.concatenate([p.vertices for p in disp.certified_span_.get_paths()])
    assert span[:, 0].min() == pytest.approx(t[cert].min())
    assert len(disp.axes_) == 2 and disp.ax_ is disp.axes_[0]


def test_display_refusals(rng):
    t = np.arange(5.0)
    with pytest.raises(ValueError, match="same length"):
        ThresholdChoiceDisplay(t, np.ones(4), np.ones(5), np.ones(5, bool))
    disp = ThresholdChoiceDisplay(t, np.ones(5), np.ones(5), np.zeros(5, bool))
    with pytest.raises(ValueError, match="`ax` must hold 2 axes"):
        disp.plot(ax=_axes(1))
    with pytest.raises(ValueError, match="`kind`"):
        disp.plot(kind="roc")


def test_from_choice_uses_the_choice(rng):
    y, s = _data(rng)
    c = choose_threshold(y, s, min_precision=0.8, random_seed=0)
    assert c.certified
    disp = ThresholdChoiceDisplay.from_choice(c, ax=_axes(2))
    np.testing.assert_array_equal(disp.thresholds, c.curve["threshold"])
    assert disp.threshold == c.threshold
    # the certified grid points are the ones the quoted (recommended) rule passes, and the
    # chosen threshold is the lowest of them
    assert disp.certified.any() and disp.thresholds[disp.certified].min() == c.threshold
    # the curve's precision and recall are sklearn's at each threshold
    from sklearn.metrics import precision_score, recall_score

    k = len(disp.thresholds) // 2
    flag = s >= disp.thresholds[k]
    assert disp.precision[k] == pytest.approx(precision_score(y, flag), abs=1e-12)
    assert disp.recall[k] == pytest.approx(recall_score(y, flag), abs=1e-12)
    one = ThresholdChoiceDisplay.from_choice(c, kind="threshold", ax=_axes(1))
    assert one.curve_line_ is None and one.precision_line_ is not None
    none = choose_threshold(y, s, min_precision=0.9999, random_seed=0)
    disp = ThresholdChoiceDisplay.from_choice(none, ax=_axes(2))
    assert disp.point_ is None and disp.threshold_line_ is None
    assert disp.certified_region_ is None


def test_section_says_when_nothing_is_certified(rng):
    y, s = _data(rng, 300)
    text = "\n".join(threshold_section_md(choose_threshold(y, s, min_precision=0.9999)))
    assert "## Choosing the threshold" in text
    assert "No threshold can be shipped" in text and "best precision certifiable" in text


def test_cli_report_min_precision_adds_the_section(rng, tmp_path, capsys):
    y, s = _data(rng, 500)
    f = tmp_path / "d.csv"
    f.write_text("y,s\n" + "\n".join(f"{int(a)},{float(b)!r}" for a, b in zip(y, s, strict=True)))
    args = ["report", str(f), "--label", "y", "--score", "s", "--n-resamples", "50"]
    assert cli_main([*args, "--min-precision", "1.5", "-o", str(tmp_path / "x.html")]) == 2
    assert "--min-precision must be strictly between 0 and 1" in capsys.readouterr().err
    md, out = tmp_path / "r.md", tmp_path / "r.html"
    code = cli_main([*args, "--min-precision", "0.8", "-o", str(out), "--markdown", str(md)])
    assert code == 0
    c = choose_threshold(y, s, min_precision=0.8, random_seed=0)
    text, page = md.read_text(), out.read_text()
    assert "## Choosing the threshold" in text and "<h2>Choosing the threshold</h2>" in page
    if c.certified:
        assert f"Flag the items with score >= {c.threshold:.6g}" in text
        assert f"{c.recall_cost:.3f} of recall" in text
    else:
        assert "No threshold can be shipped" in text
    assert page.count("<svg") >= 6  # the section's figure joins the report's


def test_cli_threshold(rng, tmp_path, capsys):
    n = 900
    g = rng.choice(["a", "b"], n)
    y = rng.random(n) < 0.3
    s = rng.normal(2.5 * y, 1.0)
    f = tmp_path / "d.csv"
    rows = (f"{int(a)},{float(b)!r},{c}" for a, b, c in zip(y, s, g, strict=True))
    f.write_text("y,s,site\n" + "\n".join(rows))
    args = ["threshold", str(f), "--label", "y", "--score", "s"]
    assert cli_main([*args, "--min-precision", "0.7", "--subgroup", "site"]) == 0
    out = capsys.readouterr().out
    c = choose_threshold(y, s, min_precision=0.7, subgroup=g, random_seed=0)
    expected = "none certified" if c.threshold is None else f"threshold: {c.threshold:.6g}"
    assert expected in out and "in every subgroup (2)" in out
    assert "subgroup" in out.splitlines()[-3] and out.splitlines()[-1].startswith("b")
    # a target no threshold certifies: a clear answer, exit 0
    assert cli_main([*args, "--min-precision", "0.9999"]) == 0
    out = capsys.readouterr().out
    assert "threshold: none certified" in out and "best precision certifiable" in out
    assert cli_main([*args, "--min-precision", "1.5"]) == 2
    assert "--min-precision must be strictly between 0 and 1" in capsys.readouterr().err
    assert cli_main(args) == 2
    assert "exactly one of --min-precision and --min-recall" in capsys.readouterr().err
