"""Comparison tables, the HTML report and the report/demo commands."""

import re
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc.datasets import load_example


@pytest.fixture(scope="module")
def small():
    d = load_example("small_sample")
    return d.y_true, d.y_score


@pytest.fixture(scope="module")
def posterior(small):
    y, s = small
    return bp.fit_binormal(
        y, s, transform="logit", model="parametric", method="exact", random_seed=0
    )


def test_compare_intervals_rows_equal_their_sources(small, posterior):
    y, s = small
    table = bp.compare_intervals(y, s, posterior=posterior, random_seed=1, n_resamples=300)
    assert list(table.index) == list(bp.compare.DEFAULT_AP_METHODS)
    assert {"estimate", "low", "high", "width", "estimator", "family"} <= set(table.columns)
    np.testing.assert_allclose(table["width"], table["high"] - table["low"])
    # deterministic rows equal the functions they come from
    for method in ("logit", "binomial"):
        ref = bp.ap_interval(y, s, method=method, confidence_level=0.95)
        row = table.loc[method]
        assert (row.estimate, row.low, row.high) == pytest.approx((ref.estimate, ref.low, ref.high))
    ap = posterior.average_precision()
    hdi = posterior.interval(ap, ci_prob=0.95, ci_kind="hdi").values
    assert table.loc["binormal_hdi", "low"] == pytest.approx(hdi[0])
    assert table.loc["binormal_hdi", "estimate"] == pytest.approx(float(ap.mean()))
    eti = np.quantile(ap.values, [0.025, 0.975])
    assert table.loc["binormal_eti", ["low", "high"]].tolist() == pytest.approx(eti, abs=1e-3)
    # the summary is of the first Bayesian fit: the rank-based one
    assert table.attrs["arviz_summary"].loc["average_precision", "mean"] == pytest.approx(
        table.loc["semiparametric_hdi", "estimate"], abs=1e-3
    )
    ds = table.to_xarray()
    assert "low" in ds and ds.sizes["row"] == len(table)
    # every frequentist row brackets its estimate
    freq = table[table.family == "frequentist"]
    assert ((freq.low <= freq.estimate + 1e-12) & (freq.estimate <= freq.high + 1e-12)).all()


def test_compare_intervals_is_reproducible(small, posterior):
    y, s = small
    a = bp.compare_intervals(y, s, posterior=posterior, random_seed=3, n_resamples=200)
    b = bp.compare_intervals(y, s, posterior=posterior, random_seed=3, n_resamples=200)
    assert a.drop(columns=[]).equals(b)


def test_compare_operating_point(small, posterior):
    y, s = small
    table = bp.compare_operating_point(y, s, posterior=posterior, random_seed=2, n_resamples=300)
    t = bp.max_fbeta(y, s).threshold
    assert table.attrs["threshold"] == t
    prec = table.loc["precision"]
    assert set(prec.index) == {
        "binormal",
        "likelihood_ratio",
        "wilson",
        "clopper_pearson",
        "jeffreys",
        "bootstrap",
    }
    assert set(table.loc["recall"].index) == {"binormal", "wilson", "clopper_pearson", "mc_npv"}
    ref = bp.precision_interval(y, s, t, method="likelihood_ratio")
    assert prec.loc["likelihood_ratio", "low"] == pytest.approx(ref.low)
    pred = s >= t
    assert table.attrs["tp"] == int(np.sum(pred & (y == 1)))
    assert table.attrs["fp"] == int(np.sum(pred & (y == 0)))
    with pytest.raises(ValueError, match=r"`threshold` must be a finite number"):
        bp.compare_operating_point(y, s, threshold=np.nan, posterior=posterior)


def test_compare_errors(small):
    y, s = small
    with pytest.raises(ValueError, match=r"`methods` must be a non-empty subset"):
        bp.compare_intervals(y, s, methods=["jackknife"])
    with pytest.raises(ValueError, match=r"`ci_prob` must be a number in \(0, 1\); got 95"):
        bp.compare_intervals(y, s, ci_prob=95)
    # one probability check for the package: NumPy scalars are accepted everywhere
    for fn in (bp.compare_intervals, bp.ap_interval):
        key = "ci_prob" if fn is bp.compare_intervals else "confidence_level"
        kw = {"methods": ["logit"]} if fn is bp.compare_intervals else {}
        res = fn(y, s, **{key: np.float32(0.9)}, **kw)
        assert res is not None


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1

    def handle_data(self, data):
        self.text.append(data)


EVIL = "<script>alert(1)</script>"


def test_report_html_is_self_contained_and_escaped(small, tmp_path):
    y, s = small
    out = tmp_path / "r.html"
    md = tmp_path / "r.md"
    bp.report(
        y,
        s,
        out,
        title=EVIL,
        transform="logit",
        random_seed=0,
        n_resamples=200,
        markdown_path=md,
        source=f"file {EVIL}.csv",
    )
    text = out.read_text()
    parser = _Collect()
    parser.feed(text)
    # (the score PPC figure is drawn only for the parametric model: 5 figures by default)
    assert parser.tags.get("svg", 0) >= 5 and parser.tags.get("table", 0) >= 3
    assert "<script" not in text.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    # nothing is fetched: no URL outside XML namespace declarations
    assert "http" not in re.sub(r'xmlns(:\w+)?="[^"]+"', "", text)
    # the table holds the values of compare_intervals (same seed streams as the report)
    ref = bp.ap_interval(y, s, method="logit")
    assert f"{ref.low:.4f}" in text and f"{ref.high:.4f}" in text
    assert "How to read this report" in text
    assert md.read_text().startswith("# &lt;script&gt;") or EVIL in md.read_text()
    # never overwrite without force
    with pytest.raises(FileExistsError, match="force"):
        bp.report(y, s, out, transform="logit")
    bp.report(y, s, out, transform="logit", n_resamples=100, force=True)


def test_report_failure_leaves_no_file(tmp_path):
    out = tmp_path / "bad.html"
    with pytest.raises(ValueError, match="both classes"):
        bp.report([1, 1, 1], [0.1, 0.2, 0.3], out)
    assert not out.exists() and not list(tmp_path.iterdir())


def _cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_cli_report_success_and_refuses_overwrite(tmp_path):
    d = load_example("small_sample")
    f = tmp_path / "scores.csv"
    rows = [f"{int(a)},{float(b)!r}" for a, b in zip(d.y_true, d.y_score, strict=True)]
    f.write_text(f"{EVIL},prob\n" + "\n".join(rows) + "\n")
    res = _cli(
        "report",
        str(f),
        "--score",
        "prob",
        "--label",
        EVIL,
        "--transform",
        "logit",
        "--n-resamples",
        "200",
        "-o",
        "out.html",
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    text = (tmp_path / "out.html").read_text()
    assert "<script" not in text.lower() and "&lt;script&gt;" in text
    before = (tmp_path / "out.html").stat().st_mtime_ns
    res = _cli("report", str(f), "--score", "prob", "--label", EVIL, "-o", "out.html", cwd=tmp_path)
    assert res.returncode == 2 and "--force" in res.stderr
    assert (tmp_path / "out.html").stat().st_mtime_ns == before


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("y,s\n1,0.5\n0,0.2\n", ["--score", "nope", "--label", "y"], "no column 'nope'"),
        ("y,s\n1,nan\n0,0.2\n", ["--score", "s", "--label", "y"], "is not finite"),
        ("y,s\n1,0.5\n1,0.2\n", ["--score", "s", "--label", "y"], "single class"),
    ],
)
def test_cli_report_bad_input(tmp_path, content, args, message):
    f = tmp_path / "bad.csv"
    f.write_text(content)
    res = _cli("report", str(f), *args, "-o", "out.html", cwd=tmp_path)
    assert res.returncode == 2 and message in res.stderr
    assert res.stderr.count("\n") == 1
    assert not (tmp_path / "out.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv"]


def test_cli_unreadable_file_for_report(tmp_path):
    res = _cli("report", "missing.csv", "--score", "s", "--label", "y", cwd=tmp_path)
    assert res.returncode == 2 and "cannot read" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_demo_writes_report(tmp_path):
    res = _cli("demo", "-o", "demo.html", "--n-resamples", "200", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "== small_sample ==" in res.stdout
    assert (tmp_path / "demo.html").read_text().count("<svg") >= 5
    res = _cli("demo", "-o", "demo.html", cwd=tmp_path)
    assert res.returncode == 2 and "--force" in res.stderr


def test_frequentist_only_cli_does_not_import_pymc(tmp_path):
    code = (
        "import sys; from bayes_prc.cli import main; "
        "main(['summary', 'x.csv', '--score', 's', '--label', 'y']); "
        "print('pymc' in sys.modules, 'matplotlib' in sys.modules)"
    )
    (tmp_path / "x.csv").write_text("y,s\n1,0.9\n0,0.1\n1,0.4\n0,0.5\n")
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert res.stdout.strip().endswith("False False"), res.stdout + res.stderr


@pytest.mark.slow
def test_report_with_score_models(small, tmp_path):
    """The optional LOO section: table of the four score models, bands, a verdict."""
    y, s = small
    out = tmp_path / "loo.html"
    bp.report(y, s, out, transform="logit", random_seed=0, n_resamples=100, score_models=True)
    text = out.read_text()
    assert "Alternative score models (PSIS-LOO)" in text
    for name in ("binormal", "binormal_logit", "bi_t", "mixture"):
        assert f">{name}<" in text
    assert text.count("<svg") >= 6


def test_report_opens_with_a_verdict_and_marks_degenerate_rows():
    """Perfect separation: the bootstraps collapse to [1, 1]; they are marked, not shown."""

    from bayes_prc._report import build_report

    rng = np.random.default_rng(3)
    y = (rng.random(150) < 0.3).astype(int)
    s = np.where(y == 1, 2 + rng.random(150), rng.random(150))
    html, md = build_report(y, s, random_seed=1, n_resamples=100)
    text = re.sub(r"<[^>]+>", " ", html)
    conclusion = text.index("Conclusion")
    assert conclusion < text.index("Average precision")  # the verdict comes first
    assert "How precise: the interval is" in text
    # [0.845, 1.000]: pressed against 1, so no promise that more items would halve it
    assert "would halve" not in text and "reaches the bound 1" in text
    assert "\u00b1" not in text  # never a symmetric \u00b1 for an asymmetric interval
    rows = {ln.split("|")[1].strip(): ln for ln in md.splitlines() if ln.startswith("| ")}
    assert "degenerate: zero width" in rows["bootstrap"]
    assert "| \u2014 | \u2014 | \u2014 |" in rows["bootstrap"]
    assert "How precise" in md and "## Conclusion" in md


def test_report_collects_each_warning_once(recwarn):
    """Warnings raised while computing go to the diagnostics box once, not to stderr."""
    from bayes_prc._report._compute import compute_report

    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(int)
    s = np.clip(rng.random(120) * 0.6 + 0.4 * y, 0, 1)
    s[:3] = [0.0, 1.0, 1.0]  # the logit transform moves these inside (0, 1), with a warning
    d = compute_report(y, s, transform="logit", model="parametric", random_seed=0, n_resamples=100)
    edge = [w for w in d.warnings if "exactly 0 or 1" in w]
    assert len(edge) == 1
    assert not [w for w in recwarn if "exactly 0 or 1" in str(w.message)]


def test_report_with_one_positive_keeps_what_makes_sense():
    """One positive: a report (logit recommended), the score check left out with a note,
    and the stratified bootstrap rows marked (every resample holds the one positive)."""
    from bayes_prc._report import build_report

    rng = np.random.default_rng(5)
    s = rng.random(60)
    y = np.zeros(60, int)
    y[np.argsort(s)[-4]] = 1  # the 4th highest score is the only positive
    html, md = build_report(y, s, random_seed=1, n_resamples=100)
    assert "needs at least 2 items of each class" in md and "left out" in md
    rows = {ln.split("|")[1].strip(): ln for ln in md.splitlines() if ln.startswith("| ")}
    for method in ("bootstrap", "bca"):
        assert "with 1 positive every stratified resample" in rows[method]
    assert "\u2014" not in rows["logit"] and "Quote the logit" in md
    assert "there is only 1 positive" in md and "Only 1 positive:" in md


def test_report_figure_warnings_join_the_diagnostics_box(monkeypatch, recwarn, small):
    import warnings

    import bayes_prc._report as rep
    from bayes_prc.exceptions import BayesPRCWarning

    real = rep._entry.report_figures

    def noisy(d, ci_prob, progressbar=False):
        warnings.warn("a warning raised while drawing", BayesPRCWarning, stacklevel=2)
        return real(d, ci_prob, progressbar=progressbar)

    monkeypatch.setattr(rep._entry, "report_figures", noisy)
    y, s = small
    html, md = rep.build_report(y, s, random_seed=0, n_resamples=50)
    assert md.count("a warning raised while drawing") == 1
    assert "a warning raised while drawing" in html
    assert not [w for w in recwarn if "raised while drawing" in str(w.message)]


@pytest.mark.parametrize("scale", [1e-9, 1e300])
def test_report_states_label_and_transform_and_keeps_numbers_short(scale):
    """Issue 30: the positive label and the transform are stated, the viewport is set,
    ESS are whole numbers and no number runs longer than 15 digits at any score scale."""
    import re

    rng = np.random.default_rng(3)
    y = np.where(rng.random(150) < 0.3, "yes", "no")
    p = 1 / (1 + np.exp(-(rng.normal(size=150) + 1.5 * (y == "yes"))))
    transform = "logit" if scale < 1 else None
    from bayes_prc._report import build_report

    html, md = build_report(
        y, p * scale, pos_label="yes", transform=transform, random_seed=0, n_resamples=50
    )
    assert '<meta name="viewport"' in html
    # an all-empty column is hidden (the note column appears only with a note)
    table = re.search(r"<h2>Average precision: every interval</h2>.*?</table>", html, re.S)
    has_note = "degenerate" in table.group(0) or "not computable" in table.group(0)
    assert ("<th>note</th>" in table.group(0)) == has_note
    assert "positive label</th><td>&#x27;yes&#x27;</td>" in html
    expected = "logit" if transform else "none"
    assert f"score transform for the parametric fit</th><td>{expected}</td>" in html
    text = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)  # the tables and the words
    assert not re.findall(r"\d{16,}", text)
    ess = re.search(r"ess_bulk.*?<tbody><tr><td[^>]*>[^<]*</td>((?:<td>[^<]*</td>){6})", text)
    assert ess is not None and re.fullmatch(
        r"\d+", re.findall(r"<td>([^<]*)</td>", ess.group(1))[4]
    )
