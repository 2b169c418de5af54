"""The single-model report's entry points, ``report`` and ``build_report`` (see :mod:`bayes_prc._report`)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path

from .._core import Steps, check_probability
from ._compute import add_caught_warnings, compute_report
from ._figures import report_figures, svg
from ._models import build_compare_report, compare_report
from ._options import ReportOptions
from ._render import render_html, render_markdown, write_outputs
from ._threshold import threshold_choice, threshold_figure

__all__ = ["build_report", "report"]


def _several_models(y_score):
    """True for a mapping or a DataFrame of scores with more than one model."""
    if isinstance(y_score, Mapping):
        return len(y_score) > 1
    columns = getattr(y_score, "columns", None)
    return columns is not None and len(columns) > 1


def build_report(y_true, y_score, options=None, **settings):
    """Compute everything the report shows; returns ``(html_text, markdown_text)``.

    ``options`` is a :class:`ReportOptions` (or give its fields as keywords); see
    :func:`report` for their meaning.
    """
    o = ReportOptions.from_settings(options, settings)
    html_text, md_text, _ = _build(y_true, y_score, o)
    return html_text, md_text


def _build(y_true, y_score, o):
    """``(html_text, markdown_text, (results, facts))``: the texts, the results the report
    shows (the AP, ROC AUC and operating-point tables, the bands, the threshold choice)
    and the data's counts (``n``, ``positives``), for :func:`bayes_prc.tracking.log_report`."""
    steps = Steps(o.verbose)
    data = compute_report(y_true, y_score, o, steps=steps)
    choice = None
    if o.min_precision is not None:
        with steps.step("choosing the threshold"):
            choice = threshold_choice(data, o.min_precision, o.ci_prob, o.random_seed)
    # warnings of the figure step join the diagnostics box too (rendered after this)
    with warnings.catch_warnings(record=True) as caught, steps.step("drawing the figures"):
        warnings.simplefilter("always")
        svgs = report_figures(data, o.ci_prob, progressbar=o.progressbar)
        if choice is not None:
            svgs["threshold_choice"] = svg(threshold_figure(choice))
    add_caught_warnings(data, caught)
    title = o.title or "Precision-recall evaluation report"
    html_text = render_html(
        data,
        svgs,
        title=title,
        source=o.source,
        ci_prob=o.ci_prob,
        n_resamples=o.n_resamples,
        random_seed=o.random_seed,
        threshold=choice,
    )
    md_text = render_markdown(data, title=title, ci_prob=o.ci_prob, threshold=choice)
    shown = (data.ap_table, data.auc_table, data.op_table, data.bands, choice)
    facts = {"n": data.n, "positives": data.n_pos}
    return html_text, md_text, ([r for r in shown if r is not None], facts)


def report(
    y_true,
    y_score,
    path,
    *,
    title=None,
    transform=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    bayes_method="auto",
    markdown_path=None,
    force=False,
    progressbar=None,
    source=None,
    score_models=False,
    model="semiparametric",
    groups=None,
    subgroup=None,
    verbose=False,
    min_precision=None,
    mlflow=False,
):
    """Write the evaluation report: one self-contained HTML file.

    Sections: the headline (one AP value and its interval, from the recommended row of
    the AP table), data summary (n, positives, prevalence, ties), warnings (fit diagnostics,
    posterior predictive check of the score distributions, small samples), how to read
    the report, the PR curve with posterior and bootstrap bands, the AP comparison table
    (:func:`compare_intervals`) with the AP posterior forest plot, the operating-point
    table (:func:`compare_operating_point`) with precision/recall-vs-threshold curves,
    predictive curves, the ROC band, and the model check ("Does the binormal model fit
    the scores?") with the ArviZ summary.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        ``y_score`` may also be a mapping name -> scores or a DataFrame with one column
        per model: with more than one model the comparison report of
        :func:`compare_report` (:func:`bayes_prc.compare_models`) is written instead
        (``transform``, ``bayes_method``, ``score_models``, ``model`` and ``subgroup``
        do not apply there); a single column gives this report.
    path : str or Path
        The HTML file to write. An existing file is not overwritten unless ``force``.
    title : str, optional
    transform : {None, "logit", "probit"}
        Score transform for the binormal fit (use "logit" for probabilities).
    pos_label : label, optional
    random_seed : int, Generator or None
        Seeds the ROC AUC and operating-point tables, the bootstrap and simultaneous
        bands and the simulated test sets. The Bayesian fit and the AP table, where the
        headline comes from, are seeded from the data and the settings instead, so the
        same data give the same headline whatever the seed; the headline shows only the
        digits its Monte Carlo error allows, and states that error.
    n_resamples : int, default 2000
    ci_prob : float, default 0.95
    bayes_method : {"auto", "nuts", "exact", "laplace"}, default "auto"
        Sampler of the Bayesian fits: each model's fast sampler, or PyMC's NUTS.
    model : {"semiparametric", "parametric"}, default "semiparametric"
        The Bayesian model drawn in the figures (:func:`fit_binormal`); the AP table has
        rows of both. With fewer than 2 positives the parametric model is used, with a
        note in the warnings.
    markdown_path : str or Path, optional
        Also write a Markdown version (tables and warnings, no figures).
    force : bool, default False
    progressbar : bool or None, default None
        Progress of the long steps (None: a text bar on stderr when it is a terminal).
    source : str, optional
        Where the data came from (shown, escaped).
    score_models : bool, default False
        Also fit the alternative score models (binormal, binormal on logit scores,
        bi-Student-t, two-component mixture; NUTS, about a minute) and show their PSIS-LOO
        comparison with the PR band of each and which to trust.
    verbose : bool, default False
        Write one line per long step on stderr (``bayes-prc: fitting ... done (3.2 s)``),
        whether or not stderr is a terminal (the command line does, unless ``--quiet``).
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (patients, images, queries): the data table shows the
        clusters and items per cluster, the AP and ROC AUC tables are
        :func:`compare_intervals`'s with ``groups`` (cluster-aware rows, a design effect
        per row, the clustered recommendation), the bootstrap band resamples whole
        clusters, and a note says which parts still treat items as independent.
    subgroup : array-like of shape (n_samples,), optional
        Subgroup label of each item (site, demographic group): a section per subgroup
        with :func:`bayes_prc.compare_subgroups` (partial pooling, margin 0.05), its
        forest plot beside the independent and bootstrap intervals, PR bands and a model
        check.
    min_precision : float, optional
        Adds the section "Choosing the threshold": the threshold at which precision is at
        least this with ``ci_prob`` confidence (:func:`bayes_prc.threshold.choose_threshold`,
        with the report's ``groups`` and ``random_seed``), its guarantee, precision and
        recall there with intervals, the recall the guarantee costs, every method's row,
        and :class:`bayes_prc.plotting.ThresholdChoiceDisplay` (the certified region
        shaded). A target no threshold can certify is said so, with the best precision
        certifiable. Single-model reports only.
    mlflow : bool, default False
        Also log the report into an MLflow run (the active one, else a new one):
        the AP, ROC AUC and operating-point tables, the bands, the threshold choice, the
        HTML (and Markdown) file and the params of the run (seed, n, positives...), with
        :func:`bayes_prc.tracking.log_report` (needs the ``mlflow`` extra). Logging that
        fails removes the written files.

    Returns
    -------
    pathlib.Path
        The written HTML file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> bp.report(d.y_true, d.y_score, out, transform="logit", random_seed=0,
    ...           n_resamples=200).name
    'report.html'
    """
    if _several_models(y_score):
        unsupported = {
            "transform": transform is not None,
            "bayes_method": bayes_method != "auto",
            "score_models": score_models,
            "model": model != "semiparametric",
            "subgroup": subgroup is not None,
            "min_precision": min_precision is not None,
        }
        bad = [name for name, given in unsupported.items() if given]
        if bad:
            raise ValueError(
                f"several models' scores give the comparison report, which does not take "
                f"{', '.join(f'`{b}`' for b in bad)}"
            )
        if not mlflow:
            return compare_report(
                y_true,
                y_score,
                path,
                title=title,
                pos_label=pos_label,
                random_seed=random_seed,
                n_resamples=n_resamples,
                ci_prob=ci_prob,
                groups=groups,
                markdown_path=markdown_path,
                force=force,
                source=source,
            )
        log_report = _tracking()
        from ..ranking import compare_models

        held = {}

        def build():
            held["comparison"] = compare_models(
                y_true,
                y_score,
                ci_prob=ci_prob,
                groups=groups,
                random_seed=random_seed,
                n_resamples=n_resamples,
                pos_label=pos_label,
            )
            return build_compare_report(
                y_true,
                y_score,
                title=title,
                pos_label=pos_label,
                random_seed=random_seed,
                n_resamples=n_resamples,
                ci_prob=ci_prob,
                groups=groups,
                source=source,
                comparison=held["comparison"],
            )

        out = write_outputs(path, markdown_path, force, build)
        params = {"random_seed": random_seed, "n_resamples": n_resamples}
        return _logged(log_report, out, markdown_path, [held["comparison"]], params)
    if min_precision is not None:  # refused before any computing
        min_precision = check_probability(min_precision, "min_precision")
    if isinstance(y_score, Mapping):  # one model: its scores
        y_score = next(iter(y_score.values()))
    elif hasattr(y_score, "columns"):
        y_score = y_score.iloc[:, 0]
    options = ReportOptions(
        title=title,
        transform=transform,
        pos_label=pos_label,
        random_seed=random_seed,
        n_resamples=n_resamples,
        ci_prob=ci_prob,
        bayes_method=bayes_method,
        progressbar=progressbar,
        source=source,
        score_models=score_models,
        model=model,
        groups=groups,
        subgroup=subgroup,
        verbose=verbose,
        min_precision=min_precision,
    )
    # outputs checked before any computing; no partial file on failure
    if not mlflow:
        return write_outputs(
            path, markdown_path, force, lambda: build_report(y_true, y_score, options)
        )
    log_report = _tracking()  # MLflow missing: refused before any computing
    held = {}

    def build():
        html_text, md_text, held["results"] = _build(y_true, y_score, options)
        return html_text, md_text

    out = write_outputs(path, markdown_path, force, build)
    results, facts = held["results"]
    params = {"random_seed": random_seed, "n_resamples": n_resamples, "transform": transform}
    params.update({"model": model, "bayes_method": bayes_method, **facts})
    return _logged(log_report, out, markdown_path, results, params)


def _tracking():
    """:func:`bayes_prc.tracking.log_report`, once MLflow is known to be importable."""
    from ..tracking import log_report, require_mlflow

    require_mlflow()
    return log_report


def _logged(log_report, path, markdown_path, results, params):
    """Log the written report; if logging fails, remove the files and raise."""
    try:
        log_report(path, results, markdown_path=markdown_path, params=params)
    except BaseException:
        for written in (path, markdown_path):
            if written is not None:
                Path(written).unlink(missing_ok=True)
        raise
    return path
