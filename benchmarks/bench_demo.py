"""Wall time of ``bayes-prc demo`` in a fresh process, and import cost of the light path.

Usage::

    .venv/bin/python benchmarks/bench_demo.py

Prints the time of ``bayes-prc demo`` (the README's main command: empirical summary and
the full HTML report of the bundled small-sample data; goal under 60 s on 2 cores), the
time of the frequentist-only ``bayes-prc summary`` command, and whether each imported
PyMC (the frequentist-only path must not).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bayes_prc.datasets import example_path


def _run(code, cwd):
    t0 = time.perf_counter()
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, check=True
    )
    return time.perf_counter() - t0, res.stdout.strip().splitlines()[-1]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        demo = (
            "import sys; from bayes_prc.cli import main; rc = main(['demo', '--force']); "
            "print('pymc imported:', 'pymc' in sys.modules)"
        )
        summary = (
            "import sys; from bayes_prc.cli import main; "
            f"rc = main(['summary', {str(example_path('small_sample'))!r}, '--score', "
            "'y_score', '--label', 'y_true']); "
            "print('pymc imported:', 'pymc' in sys.modules, "
            "'| matplotlib imported:', 'matplotlib' in sys.modules)"
        )
        t_demo, demo_line = _run(demo, tmp)
        t_sum, sum_line = _run(summary, tmp)
        size = Path(tmp, "bayes_prc_demo.html").stat().st_size
    print(f"bayes-prc demo (fresh process):    {t_demo:7.2f} s  (goal < 60 s); {demo_line}")
    print(f"  report size:                     {size / 1024:7.0f} KiB")
    print(f"bayes-prc summary (fresh process): {t_sum:7.2f} s; {sum_line}")


if __name__ == "__main__":
    main()
