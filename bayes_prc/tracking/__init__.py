"""Evaluations in experiment trackers: log a result into an MLflow run and read it back.

Optional: needs MLflow (``pip install 'bayes_prc[mlflow]'``), imported when a function
here is called, so ``import bayes_prc`` never imports it. :func:`log_evaluation` logs
any of the library's results (metrics, params, tables, a figure and the whole result);
:func:`load_evaluation` rebuilds it from the run; :func:`log_report` logs a written
report with the results it shows (:func:`bayes_prc.report` with ``mlflow=True`` and the
command line's ``--mlflow`` call it).
"""

from ._mlflow import load_evaluation, log_evaluation, log_report, require_mlflow

__all__ = ["load_evaluation", "log_evaluation", "log_report", "require_mlflow"]
