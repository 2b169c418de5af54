"""The ``bayes-prc`` command line.

``bayes-prc report FILE.csv --score COL --label COL [-o out.html]`` writes the evaluation
report; ``bayes-prc demo [-o out.html]`` writes it for the bundled small-sample example
and prints the empirical summary; ``bayes-prc summary FILE.csv ...`` prints the empirical
summary only (no PyMC, no plots); ``bayes-prc select FILE.csv --score COL --budget N``
writes the rows of a scored pool to label, and ``report`` on a file whose label column
has empty cells reports on the whole pool (``bayes_prc.cli._pool``). Errors are one line
on stderr with exit status 2, and no output file is left behind; every problem with an
output path (a directory, a missing or unwritable directory, an existing file without
--force) is found before any computing. The long commands write one line per step on
stderr (``bayes-prc: fitting ... done (3.2 s)``), terminal or not, unless --quiet.
"""

from ._main import build_parser, empirical_summary, format_summary, main

__all__ = ["main", "empirical_summary", "format_summary", "build_parser"]
