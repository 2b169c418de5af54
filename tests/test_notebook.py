"""A notebook run as Jupyter runs it (nbclient, the ipykernel inline backend): a Display
shows its figure where it is made, with no explicit show call (issue 30), once."""

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]

SETUP = """\
import numpy as np
import bayes_prc as bp
rng = np.random.default_rng({seed})
y = (rng.random(200) < 0.3).astype(int)
s = rng.normal(size=200) + 1.5 * y
"""


def _run(cells, seed):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP.format(seed=seed))]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    # the kernel imports this checkout of bayes_prc, as the tests do
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    env.pop("MPLBACKEND", None)  # the kernel's own default: the inline backend
    # the python3 kernel runs sys.executable (jupyter_client's rule for "python")
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3").execute(env=env)
    return nb.cells[1:]


def _images(cell):
    return [o for o in cell.outputs if "image/png" in o.get("data", {})]


def test_a_display_shows_its_figure_without_show(rng):
    seed = int(rng.integers(2**31))
    made, ending, again = _run(
        [
            "disp = bp.PRCurveDisplay.from_predictions(y, s)",  # made, not the last value
            "bp.PRCurveDisplay.from_predictions(y, s)",  # the cell ends with it
            "disp",  # a later cell that is just the display
        ],
        seed,
    )
    for cell in (made, ending, again):
        assert len(_images(cell)) == 1, cell.outputs  # shown, and only once
    text = ending.outputs[0]["data"]["text/plain"]
    assert text.startswith("<PRCurveDisplay") and " at 0x" not in text
