"""The example scripts run, as a user runs them, so that they cannot rot.

Each ``examples/seed*.py`` script is run in a subprocess with ``--quick --out tmp_path``;
it must exit with status 0 and write its (non-empty) PNG. ``examples/plot_gallery.py``
has no ``--out`` option, so it is imported and its output directory redirected to
``tmp_path``: the committed images in ``docs/img`` are never touched.
``examples/make_example_data.py`` is exercised by ``tests/foundation/test_datasets.py``.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEED_SCRIPTS = sorted(EXAMPLES.glob("seed*.py"))
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_every_seed_script_is_listed_in_the_readme():
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert len(SEED_SCRIPTS) == 7
    for script in SEED_SCRIPTS:
        assert f"`{script.name}`" in readme


@pytest.mark.parametrize("script", SEED_SCRIPTS, ids=lambda p: p.stem)
def test_seed_script_quick(script, tmp_path):
    out = tmp_path / "figures"  # does not exist yet: the script must create it
    env = {**os.environ, "MPLBACKEND": "Agg"}
    res = subprocess.run(
        [sys.executable, str(script), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert res.returncode == 0, res.stderr
    pngs = sorted(out.glob("*.png"))
    assert [p.name for p in pngs] == [script.stem + ".png"]
    data = pngs[0].read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5_000
    assert str(pngs[0]) in res.stdout


def test_plot_gallery(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("_plot_gallery", EXAMPLES / "plot_gallery.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    out = tmp_path / "docs" / "img"
    monkeypatch.setattr(gallery, "OUT", out)
    gallery.main()
    written = sorted(p.name for p in out.glob("*.png"))
    assert "pr_curve.png" in written and "summary_small_sample.png" in written
    assert all((out / name).stat().st_size > 5_000 for name in written)
