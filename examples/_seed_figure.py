"""The command line shared by the ``seed*.py`` figure scripts.

Each script defines ``make_figure(quick=False) -> matplotlib.figure.Figure`` and calls
:func:`run`, which parses ``--out DIR`` (default ``docs/img/examples/``) and ``--quick``
(a small, fast version used by the tests) and saves the figure as ``DIR/<name>``.
"""

import argparse
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "docs" / "img" / "examples"


def run(make_figure, name, description, argv=None):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--quick", action="store_true", help="small, fast version (tests)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / name
    make_figure(quick=args.quick).savefig(path, dpi=90)
    print(f"wrote {path}")
    return 0
