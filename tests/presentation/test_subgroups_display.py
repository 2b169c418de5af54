"""SubgroupDisplay, SubgroupPRDisplay, the report's subgroup section and ``--subgroup``."""

import os
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import bayes_prc as bp  # noqa: E402
from bayes_prc._report import build_report  # noqa: E402
from bayes_prc.plotting import SubgroupDisplay, SubgroupPRDisplay  # noqa: E402

# the CLI in a subprocess imports this checkout of bayes_prc, as the tests do
_ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]), *sys.path]),
}


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
    # one overall AP: the subgroup model's pooled number says why it is not the headline
    assert "The overall AP of this report is the headline" in md
    assert "another model and another estimand" in md
    pd.DataFrame({"score": s, "label": y.astype(int), "site": g}).to_csv(
        tmp_path / "d.csv", index=False
    )
    res = subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", "report", "d.csv", "--score", "score"]
        + ["--label", "label", "--subgroup", "site", "--n-resamples", "100", "-o", "r.html"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_ENV,
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
        env=_ENV,
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


# ---- issue 39 -----------------------------------------------------------------------------


def _twelve_bands(rng):
    r = np.linspace(0.0, 1.0, 41)
    bands = {}
    for i in rng.permutation(12):
        mid = np.clip(0.9 - 0.5 * r + rng.normal(0, 0.05), 0.05, 0.95)
        bands[f"s{i + 1}"] = (np.clip(mid - 0.15, 0, 1), mid, np.clip(mid + 0.15, 0, 1))
    overall = (np.full_like(r, 0.3), np.full_like(r, 0.5), np.full_like(r, 0.7))
    return r, bands, overall


def test_twelve_subgroups_panels_one_figure_distinct_colours(rng):
    """12 subgroups: one figure, one panel each (titled by the subgroup, holding its own
    band over the pooled grey band), 12 distinct colours; the medians drawn as given."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    r, bands, overall = _twelve_bands(rng)
    before = len(plt.get_fignums())
    disp = SubgroupPRDisplay(r, bands, overall, ci_prob=0.9).plot()
    assert len(plt.get_fignums()) == before + 1  # one figure
    assert len(disp.axes_) == 12 and len({id(a) for a in disp.axes_}) == 12
    assert all(a.figure is disp.figure_ for a in disp.axes_)
    assert [a.get_title() for a in disp.axes_] == list(bands)
    colours = {to_rgba(disp.lines_[k].get_color()) for k in bands}
    assert len(colours) == 12
    for a, (k, (_, med, _)) in zip(disp.axes_, bands.items(), strict=True):
        assert disp.lines_[k].axes is a
        np.testing.assert_array_equal(disp.lines_[k].get_ydata(), med)
        assert len(a.collections) == 2  # the pooled band and the subgroup's, nothing more
    plt.close(disp.figure_)


def test_twelve_subgroups_overlay_lines_with_light_fills(rng):
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    r, bands, overall = _twelve_bands(rng)
    disp = SubgroupPRDisplay(r, bands, overall).plot(layout="overlay")
    assert len(disp.axes_) == 1 and disp.ax_ is disp.axes_[0]
    assert len({to_rgba(line.get_color()) for line in disp.lines_.values()}) == 12
    # light fills: twelve stacked fills leave the data readable (alpha at most 0.1 each)
    assert all(f.get_alpha() <= 0.1 for f in disp.fills_.values())
    with pytest.raises(ValueError, match="`layout`"):
        SubgroupPRDisplay(r, bands).plot(layout="grid")
    plt.close(disp.figure_)


def test_displays_have_notebook_manners():
    """As the other Displays: a repr naming the display, one PNG from _repr_png_."""
    import matplotlib.pyplot as plt

    r = np.linspace(0, 1, 5)
    disp = SubgroupDisplay(
        ["a", "b"], {"pooled": [[0.5, 0.4, 0.6], [0.3, 0.2, 0.45]]}, (0.45, 0.4, 0.5)
    )
    pr = SubgroupPRDisplay(r, {"a": (r * 0 + 0.2, r * 0 + 0.5, r * 0 + 0.8)})
    for d in (disp, pr):
        assert repr(d).startswith(f"<{type(d).__name__} (not drawn")
        d.plot()
        assert repr(d).startswith(f"<{type(d).__name__}") and " at 0x" not in repr(d)
        png = d._repr_png_()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert d.figure_.number not in plt.get_fignums()  # shown once: released from pyplot


def test_displays_in_a_notebook_show_one_image_and_no_repr(rng):
    """In a real kernel (ipykernel's inline backend): a cell ending with either display
    shows one image and no object repr (``<... object at 0x...>``)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    root = Path(__file__).resolve().parents[2]
    setup = (
        "import numpy as np\n"
        "from bayes_prc.plotting import SubgroupDisplay, SubgroupPRDisplay\n"
        "r = np.linspace(0, 1, 11)\n"
        "bands = {f's{i}': (r * 0 + 0.1 * i / 2, r * 0 + 0.5, r * 0 + 0.9) for i in range(12)}\n"
    )
    cells = [
        setup,
        "SubgroupDisplay(['a', 'b'], {'pooled': [[0.5, 0.4, 0.6], [0.3, 0.2, 0.4]]}, "
        "(0.45, 0.4, 0.5)).plot()",
        "SubgroupPRDisplay(r, bands, bands['s3']).plot()",
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env.pop("MPLBACKEND", None)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute(env=env)
    for cell in nb.cells[1:]:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(images) == 1, cell.outputs
        texts = [o["data"].get("text/plain", "") for o in cell.outputs if "data" in o]
        texts += [o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream"]
        assert not any(" object at 0x" in x for x in texts), texts


def test_cli_refuses_an_id_column_before_any_fit(tmp_path, rng):
    """Issue 39: ``--subgroup id`` ran 30 s and printed 200 NaN rows; now exit 2 at once,
    naming the column and saying it looks like an id column."""
    n = 200
    y = (rng.random(n) < 0.3).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    pd.DataFrame({"id": [f"s{i}" for i in range(n)], "score": s, "label": y}).to_csv(
        tmp_path / "d.csv", index=False
    )
    res = subprocess.run(
        [sys.executable, "-m", "bayes_prc.cli", "report", "d.csv", "--score", "score"]
        + ["--label", "label", "--subgroup", "id", "-o", "r.html"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_ENV,
        timeout=300,
    )
    assert res.returncode == 2, res.stderr
    assert "--subgroup column 'id' looks like an id column" in res.stderr
    assert "fitting" not in res.stderr  # no step of the report started
    assert "`" not in res.stderr and "np." not in res.stderr
    assert not (tmp_path / "r.html").exists()


def test_pr_display_default_panels_in_natural_order(comparison):
    disp = SubgroupPRDisplay.from_comparison(comparison)
    assert [a.get_title() for a in disp.axes_] == [str(s) for s in comparison.table.index]
    one = SubgroupPRDisplay.from_comparison(comparison, "site 1")
    assert list(one.lines_) == ["site 1"]
