"""The evaluation report: one self-contained HTML file (and optionally Markdown).

Presentation only: everything shown is computed by :mod:`bayes_prc.compare`,
:mod:`bayes_prc.frequentist`, :mod:`bayes_prc.criticism`, the Bayesian fit and the
display objects of :mod:`bayes_prc.plotting`. Three steps: ``_compute`` validates the
data once and runs every computation once, collecting the warnings the report lists;
``_figures`` draws the figures, embedded as inline SVG so the file needs no network or
other file to be viewed; ``_render`` writes the HTML and Markdown text, HTML-escaping
every user-supplied string (title, file and column names, labels). The file is written
to a temporary file in the target directory and renamed into place, so a failed run
leaves no partial report.
"""

from ._entry import build_report, report
from ._models import compare_report
from ._options import ReportOptions
from ._pool import pool_report

__all__ = ["ReportOptions", "report", "build_report", "pool_report", "compare_report"]
