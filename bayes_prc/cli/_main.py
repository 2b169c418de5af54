"""The command line's parser, subcommands and entry point (see :mod:`bayes_prc.cli`)."""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from pathlib import Path

import numpy as np

from .. import empirical
from .._core import plain
from .._version import __version__
from ._compare import add_compare_parser, score_columns
from ._io import (
    CLIError,
    _check_output,
    parse_labels,
    positive_as_written,
    read_column,
    read_header,
    read_scores_table,
    read_table,
)
from ._plan import add_plan_parser
from ._pool import add_select_parser
from ._threshold import add_threshold_parser

__all__ = ["build_parser", "main", "empirical_summary", "format_summary"]


def empirical_summary(y_true, y_score, *, pos_label=None, n_curve_points=11, groups=None):
    """Every empirical estimate of one scored data set, as a plain dict.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,), or a Ranked and None
        Binary labels and scores (validated once, :func:`bayes_prc.empirical.as_ranked`).
    pos_label : label, default None
    n_curve_points : int, default 11
        About how many recall levels the ``curve`` rows cover.

    Returns
    -------
    dict
        ``n``, ``n_positive``, ``prevalence``, ``n_distinct_scores``, ``estimators``
        (name -> AUC-PR estimate), ``roc_auc``, ``max_f1`` (:class:`FBetaResult`) and
        ``curve``: the interpolated PR curve, a list of (threshold, recall, precision)
        giving at each of about ``n_curve_points`` recall levels the best precision
        reached at that recall or more (Davis & Goadrich 2006's interpolation).
        With ``groups`` also ``clusters`` (a description), ``ap_interval`` (the logit
        AP interval with the clusters' design effect) and ``roc_auc_interval`` (DeLong's
        on the logit scale with Obuchowski's clustered variance), both at 95%.

    Examples
    --------
    >>> from bayes_prc.cli import empirical_summary
    >>> s = empirical_summary([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> s["n"], s["n_positive"], round(s["estimators"]["average_precision"], 4)
    (4, 2, 0.8333)
    """
    r = empirical.as_ranked(y_true, y_score, pos_label=pos_label)  # validated once
    if r.n_pos in (0, r.n_samples):
        raise ValueError("`y_true` must contain both classes for a summary")
    estimators = {e: empirical.auc_pr(r, None, estimator=e) for e in empirical.AUC_PR_ESTIMATORS}
    precision, recall, thresholds = empirical.precision_recall_curve(r, None)
    # interpolated curve: at each recall level, the best precision reached at that
    # recall or more (and the threshold and recall where it is reached)
    # (the last point is the recall-0 anchor, not a threshold)
    rows = _interpolated_rows(precision[:-1], recall[:-1], thresholds, n_curve_points)
    extra = {}
    if groups is not None:
        from .._core.groups import check_groups
        from ..frequentist import ap_interval, roc_auc_interval

        clusters = check_groups(groups, r.n_samples)
        extra = {
            "clusters": clusters.describe(),
            "ap_interval": ap_interval(r, None, method="logit", groups=clusters),
            "roc_auc_interval": roc_auc_interval(r, None, method="delong_logit", groups=clusters),
        }
    return {
        **extra,
        "n": r.n_samples,
        "n_positive": r.n_pos,
        "prevalence": float(r.is_pos.mean()),
        "n_distinct_scores": int(np.unique(r.y_score).size),
        "estimators": estimators,
        "roc_auc": empirical.roc_auc_score(r, None),
        "max_f1": empirical.max_fbeta(r, None),
        "curve": rows,
    }


def _interpolated_rows(precision, recall, thresholds, n_curve_points):
    """(threshold, recall, precision) of the best precision at recall >= each level."""
    rows = set()
    for t in np.linspace(0, 1, n_curve_points)[1:]:
        ok = np.flatnonzero(recall >= t - 1e-12)
        if ok.size:
            i = int(ok[np.argmax(precision[ok])])
            rows.add((thresholds[i].item(), float(recall[i]), float(precision[i])))
    return sorted(rows, key=lambda r: (r[1], r[2]))


def format_summary(title, summary, *, used=None):
    """Render :func:`empirical_summary` as a text table.

    ``used`` (optional) says under the title what was read (the columns and the
    positive label).

    Examples
    --------
    >>> from bayes_prc.cli import empirical_summary, format_summary
    >>> text = format_summary("toy", empirical_summary([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> text.splitlines()[0]
    '== toy =='
    """
    s = summary
    lines = [
        f"== {title} ==",
        *([] if used is None else [f"read: {used}"]),
        f"n = {s['n']}, positives = {s['n_positive']}, prevalence (chance baseline) = "
        f"{s['prevalence']:.4f}, distinct scores = {s['n_distinct_scores']}",
        "",
        f"{'AUC-PR estimator':<22}{'estimate':>10}",
    ]
    for name, value in s["estimators"].items():
        lines.append(f"{name:<22}{value:>10.4f}")
    f1 = s["max_f1"]
    lines += [
        f"{'ROC AUC':<22}{s['roc_auc']:>10.4f}",
        "",
        f"max F1 = {f1.score:.4f} at threshold {f1.threshold:.6g} "
        f"(precision {f1.precision:.4f}, recall {f1.recall:.4f})",
        "",
        "interpolated PR curve (best precision at each recall level or above):",
        f"{'threshold':>14}{'recall':>10}{'precision':>11}",
    ]
    for thr, rec, prec in s["curve"]:
        lines.append(f"{thr:>14.6g}{rec:>10.4f}{prec:>11.4f}")
    if "clusters" in s:
        lines += ["", f"items in {s['clusters']}; intervals with the clusters as the units:"]
        for name, res in (
            ("AP (logit)", s["ap_interval"]),
            ("ROC AUC (DeLong)", s["roc_auc_interval"]),
        ):
            deff = "" if res.design_effect is None else f", design effect {res.design_effect:.2f}"
            lines.append(
                f"  {name}: {res.estimate:.4f}, {res.confidence_level:.0%} interval "
                f"[{res.low:.4f}, {res.high:.4f}]{deff}"
            )
    return "\n".join(lines)


def _progress(args):
    """``--progress/--no-progress``; by default bars only on a terminal and not with --quiet.

    (The one-line-per-step messages on stderr are on unless ``--quiet``, terminal or not.)
    """
    if args.progress is not None:
        return args.progress
    return sys.stderr.isatty() and not args.quiet


def _cmd_demo(args):
    from ..datasets import load_example

    data = load_example(args.example)
    output = args.output or "bayes_prc_demo.html"
    _check_output(output, args.force)
    if not args.quiet:
        print(format_summary(args.example, empirical_summary(data.y_true, data.y_score)))
    out = _write_report(
        data.y_true,
        data.y_score,
        output,
        title=f"bayes_prc demo: {args.example} ({len(data)} items)",
        transform="logit",
        seed=args.seed,
        force=args.force,
        source=f"bundled example {plain(args.example)}: {data.description}",
        n_resamples=args.n_resamples,
        progressbar=_progress(args),
        verbose=not args.quiet,
    )
    if not args.quiet:
        print(f"\nreport written to {out}")
    return 0


def _write_report(
    y,
    s,
    output,
    *,
    title,
    transform,
    seed,
    force,
    source,
    n_resamples,
    md=None,
    pos_label=None,
    score_models=False,
    model="semiparametric",
    progressbar=None,
    groups=None,
    subgroup=None,
    verbose=True,
    min_precision=None,
    mlflow=False,
):
    from .._report import report

    try:
        return report(
            y,
            s,
            output,
            title=title,
            transform=transform,
            random_seed=seed,
            force=force,
            source=source,
            n_resamples=n_resamples,
            progressbar=progressbar,
            markdown_path=md,
            pos_label=pos_label,
            score_models=score_models,
            model=model,
            groups=groups,
            subgroup=subgroup,
            verbose=verbose,
            min_precision=min_precision,
            mlflow=mlflow,
        )
    except FileExistsError as err:
        raise CLIError(str(err)) from None


# --------------------------------------------------------------------------------------
# --dask: Parquet read lazily with bayes_prc.scale (imported only here)
# --------------------------------------------------------------------------------------
def _read_dask(args):
    """Lazy ``(is_positive, score)`` dask arrays of a Parquet file or directory.

    Labels follow :func:`bayes_prc.cli._io.parse_labels` (the rule of the in-memory
    commands) is applied to their distinct values.
    """
    path = args.file
    if not str(path).lower().endswith((".parquet", ".pq")) and not Path(path).is_dir():
        raise CLIError(f"--dask reads Parquet (a .parquet file or a directory); got {path}")
    try:
        from ..scale import distinct_labels, read_parquet

        y_raw, s = read_parquet(path, label=args.label, score=args.score)
        values = distinct_labels(y_raw)
    except ImportError:
        raise CLIError("--dask needs dask: pip install 'bayes_prc[dask]'") from None
    flags = parse_labels(np.asarray([str(v) for v in values.tolist()]), args.pos_label)
    positive = values[int(np.argmax(flags))]
    return y_raw == positive, s.astype(np.float64)


def _in_memory(y, s, what):
    """Numpy arrays of the ``--dask`` input for the in-memory commands (up to max_exact)."""
    from ..scale import get_options, in_memory_arrays

    y, s, n = in_memory_arrays(y, s)
    if y is None:
        raise CLIError(
            f"{what} needs the data in memory and the file has {n:,} rows > max_exact="
            f"{get_options()['max_exact']:,}; `bayes-prc summary --dask` works at any size"
        )
    return y, s


def _dask_summary(title, y, s, *, n_curve_points=11):
    """Text of ``summary --dask``: the in-memory summary, or the binned one past max_exact."""
    from ..scale import ap_bounds_text, binned_pr_curve, get_options, in_memory_arrays

    y_np, s_np, _ = in_memory_arrays(y, s)
    if y_np is not None:
        return format_summary(title, empirical_summary(y_np, s_np))
    res = binned_pr_curve(y, s)
    if res.n_positive in (0, res.n_samples):
        raise ValueError("`y_true` must contain both classes for a summary")
    p, r, thr = res.precision[:-1], res.recall[:-1], res.thresholds
    f1 = np.zeros_like(p)
    np.divide(2 * p * r, p + r, out=f1, where=(p + r) > 0)
    best = int(np.argmax(f1[::-1]))
    best = f1.size - 1 - best  # highest threshold among ties
    lines = [
        f"== {title} ==",
        f"n = {res.n_samples}, positives = {res.n_positive}, prevalence (chance baseline) = "
        f"{res.n_positive / res.n_samples:.4f}",
        f"binned: {res.n_bins} score bins ({plain(res.grid)} grid) because n > max_exact = "
        f"{get_options()['max_exact']}; curve points are exact, AP is bounded",
        "",
        f"{'AUC-PR estimator':<22}{'estimate':>10}{'exact AP in':>26}",
        f"{'average_precision':<22}{res.average_precision:>10.4f}{ap_bounds_text(res):>26}",
        "",
        f"max F1 over the bin thresholds = {f1[best]:.4f} at threshold {thr[best].item():.6g} "
        f"(precision {p[best]:.4f}, recall {r[best]:.4f})",
        "",
        "interpolated PR curve (best precision at each recall level or above):",
        f"{'threshold':>14}{'recall':>10}{'precision':>11}",
    ]
    for t, rec, prec in _interpolated_rows(p, r, thr, n_curve_points):
        lines.append(f"{t:>14.6g}{rec:>10.4f}{prec:>11.4f}")
    return "\n".join(lines)


def _cmd_report(args):
    output = args.output or f"{Path(args.file).stem}.report.html"
    _check_output(output, args.force)  # before reading and computing anything
    _check_output(args.markdown, args.force, "Markdown output")
    if args.min_precision is not None and not 0 < args.min_precision < 1:
        raise CLIError(
            f"--min-precision must be strictly between 0 and 1; got {args.min_precision:g}"
        )
    if args.mlflow and (args.labels is not None or args.pool):
        raise CLIError("--mlflow applies to a fully labelled test set, not to a pool")
    if args.labels is not None or args.pool:
        if args.min_precision is not None:
            raise CLIError("--min-precision applies to a fully labelled test set, not to a pool")
        if args.dask:
            raise CLIError("--labels and --pool read CSV/TSV files; drop --dask")
        if args.groups is not None or args.subgroup is not None:
            raise CLIError(
                "--groups and --subgroup apply to a fully labelled test set, not to a pool"
            )
        from ._pool import run_labels_report, run_pool_report

        args.progress = _progress(args)
        run = run_labels_report if args.labels is not None else run_pool_report
        out = run(args, output)
        if not args.quiet:
            print(f"report written to {out}")
        return 0
    if args.dask:  # read with dask; the report itself needs the data in memory
        y, scores = _in_memory(*_read_dask(args), "the report")
        pos_label = None
    else:
        header = read_header(args.file, delimiter=args.delimiter) or []
        if "pool_row" in header:
            from ._pool import round_trip_command

            raise CLIError(
                f"{args.file} holds rows that `bayes-prc select` chose from a pool (it has a "
                "pool_row column): they oversample the top scores, so their AP is not the "
                "pool's. Report the pool with:\n  "
                + round_trip_command("POOL.csv", args.file, args.score, args.label)
                + "\n(POOL.csv: the file the rows were selected from)"
            )
        labels, scores = read_table(
            args.file, args.label, args.score, delimiter=args.delimiter, allow_empty=True
        )
        blank = np.flatnonzero(labels == "")
        if blank.size:
            inc_col = args.inclusion_prob or "inclusion_prob"
            if inc_col not in header:
                shown = ", ".join(str(int(r) + 2) for r in blank[:5])
                more = f" and {blank.size - 5} more" if blank.size > 5 else ""
                raise CLIError(
                    f"{args.file}: {blank.size} rows have no label in column {plain(args.label)} "
                    f"(lines {shown}{more}). Label or drop them; if the file is a pool "
                    "whose labelled rows are a selection, pass --pool with their "
                    "inclusion probabilities (--inclusion-prob), or report it with "
                    "--labels (see bayes-prc select)"
                )
            # a pool file with the selection's columns: the labelled rows are a selection
            if args.mlflow:
                raise CLIError("--mlflow applies to a fully labelled test set, not to a pool")
            if args.min_precision is not None:
                raise CLIError(
                    "--min-precision applies to a fully labelled test set, not to a pool"
                )
            from ._pool import run_pool_report

            args.progress = _progress(args)
            out = run_pool_report(args, output)
            if not args.quiet:
                print(f"report written to {out}")
            return 0
        y, pos_label = _labels_as_written(labels, args.pos_label)
        _note_columns(args, pos_label, labels.size)
    groups = None if args.dask else _groups(args)
    subgroup = None
    if args.subgroup is not None:
        if args.dask:
            raise CLIError("--subgroup reads CSV/TSV files; drop --dask")
        subgroup = read_column(args.file, args.subgroup, "--subgroup", delimiter=args.delimiter)
        from ..subgroups import check_subgroups  # an id column: refused before any fit

        try:
            subgroup = check_subgroups(subgroup, len(subgroup))
        except ValueError as err:
            where = f"--subgroup column {args.subgroup!r}"
            raise CLIError(str(err).replace("`subgroup`", where)) from None
    if args.mlflow:
        return _report_into_mlflow(args, y, scores, output, pos_label, groups, subgroup)
    out = _write_report(
        y,
        scores,
        output,
        title=args.title or f"Precision-recall report: {Path(args.file).name}",
        transform=args.transform,
        seed=args.seed,
        force=args.force,
        source=f"{args.file} (score column {plain(args.score)}, label column {plain(args.label)})",
        n_resamples=args.n_resamples,
        md=args.markdown,
        pos_label=pos_label,
        score_models=args.score_models,
        model=args.model,
        progressbar=_progress(args),
        groups=groups,
        subgroup=subgroup,
        verbose=not args.quiet,
        min_precision=args.min_precision,
    )
    if not args.quiet:
        print(f"report written to {out}")
    return 0


def _report_into_mlflow(args, y, scores, output, pos_label, groups, subgroup):
    """``report --mlflow``: the report logged into an MLflow run (MLflow's environment
    variables choose the tracking URI, experiment and run); prints the run id."""
    from ..tracking import require_mlflow

    try:
        mlflow = require_mlflow()
    except ImportError as err:
        raise CLIError(f"--mlflow: {err}") from None
    with mlflow.start_run() as run:
        mlflow.log_param("data", str(args.file))
        out = _write_report(
            y,
            scores,
            output,
            title=args.title or f"Precision-recall report: {Path(args.file).name}",
            transform=args.transform,
            seed=args.seed,
            force=args.force,
            source=f"{args.file} (score column {plain(args.score)}, "
            f"label column {plain(args.label)})",
            n_resamples=args.n_resamples,
            md=args.markdown,
            pos_label=pos_label,
            score_models=args.score_models,
            model=args.model,
            progressbar=_progress(args),
            groups=groups,
            subgroup=subgroup,
            verbose=not args.quiet,
            min_precision=args.min_precision,
            mlflow=True,
        )
    if not args.quiet:
        print(f"report written to {out}")
        print(f"logged into MLflow run {run.info.run_id} ({mlflow.get_tracking_uri()})")
    return 0


def _cmd_summary(args):
    if "," in args.score and args.score not in (read_header(args.file) or []):
        # several models as a comma list (a repeated --score stays an error: one is meant)
        return _summary_of_models(args, score_columns([args.score]))
    if args.dask:  # exact summary up to max_exact rows, binned (with AP bounds) beyond
        print(_dask_summary(args.file, *_read_dask(args)))
        return 0
    labels, scores = read_table(args.file, args.label, args.score, delimiter=args.delimiter)
    y, pos_label = _labels_as_written(labels, args.pos_label)
    groups = _groups(args)
    summary = empirical_summary(y, scores, pos_label=pos_label, groups=groups)
    print(format_summary(args.file, summary, used=_used(args, pos_label)))
    return 0


def _summary_of_models(args, names):
    """``summary`` of several score columns: one row per model (empirical, no fit)."""
    if args.dask:
        raise CLIError("summary of several --score columns reads CSV/TSV files; drop --dask")
    labels, scores = read_scores_table(args.file, args.label, names, delimiter=args.delimiter)
    y, pos_label = _labels_as_written(labels, args.pos_label)
    groups = _groups(args)
    summaries = {
        name: empirical_summary(y, scores[name], pos_label=pos_label, groups=groups)
        for name in names
    }
    first = summaries[names[0]]
    width = max(20, 2 + max(len(n) for n in names))
    lines = [
        f"== {args.file} ==",
        f"read: score columns {', '.join(repr(n) for n in names)}, label column "
        f"{args.label!r} (positive label {1 if pos_label is None else pos_label!r})",
        f"n = {first['n']}, positives = {first['n_positive']}, prevalence (chance baseline) = "
        f"{first['prevalence']:.4f}",
        "",
        f"{'model':<{width}}{'AP':>10}{'ROC AUC':>10}{'max F1':>10}",
    ]
    for name, s in summaries.items():
        ap, auc, f1 = s["estimators"]["average_precision"], s["roc_auc"], s["max_f1"].score
        lines.append(f"{name:<{width}}{ap:>10.4f}{auc:>10.4f}{f1:>10.4f}")
    lines += ["", "which is better, with uncertainty: bayes-prc compare (same options)"]
    print("\n".join(lines))
    return 0


def _labels_as_written(labels, pos_label):
    """``(y, pos_label)`` for the API: the labels as written when the user named the
    positive one (or it is a word such as ``true``), so that what the report and the
    summary state is ``yes``, not ``1``; 0/1 integers and ``None`` otherwise.
    """
    flags = parse_labels(labels, pos_label)
    pos, neg = positive_as_written(labels, flags, pos_label)
    if pos_label is None and pos.lower() not in ("true", "false"):
        return flags, None  # the labels are numbers: 1 is the positive label
    return np.where(flags == 1, pos, neg), pos


def _used(args, pos_label):
    """What was read: ``score column 'prob', label column 'y' (positive label 'yes')``."""
    shown = 1 if pos_label is None else pos_label
    extra = "" if getattr(args, "groups", None) is None else f", groups column {plain(args.groups)}"
    if getattr(args, "subgroup", None) is not None:
        extra += f", subgroup column {plain(args.subgroup)}"
    return (
        f"score column {plain(args.score)}, label column {plain(args.label)} (positive label "
        f"{plain(shown)}){extra}"
    )


def _note_columns(args, pos_label, n_rows):
    """One line on stderr saying which columns and which positive label were read."""
    if not args.quiet:
        print(
            f"bayes-prc: read {args.file}: {n_rows} rows; {_used(args, pos_label)}", file=sys.stderr
        )


def _groups(args):
    """The ``--groups`` column's cluster ids (None without the option)."""
    if args.groups is None:
        return None
    if args.dask:
        raise CLIError("--groups reads CSV/TSV files; drop --dask")
    return read_column(args.file, args.groups, "--groups", delimiter=args.delimiter)


class _StoreOnce(argparse.Action):
    """``store``, except that an option given twice with two values is a usage error.

    argparse keeps the last of ``--score a --score b`` silently; a command that reads
    one column must not guess which one was meant (exit status 2, the values named).
    """

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in seen and seen[self.dest] != values:
            column = self.metavar == "COLUMN" or self.dest in _COLUMN_DESTS
            what = "one column" if column else "one value"
            parser.error(
                f"argument {option_string}: given twice ({plain(seen[self.dest])} and {plain(values)}); "
                f"this command takes {what}: give it once"
            )
        seen[self.dest] = values
        setattr(namespace, self.dest, values)


#: options whose value names a column of the input file
_COLUMN_DESTS = {"score", "label", "groups", "subgroup", "inclusion_prob", "stratum"}


class _Parser(argparse.ArgumentParser):
    """The subcommands' parser: ``store`` (argparse's default action) refuses repeats."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows defaults, except None (those options say in words what happens without them)."""

    def _get_help_string(self, action):
        if action.default is None:
            return action.help
        return super()._get_help_string(action)


def build_parser():
    from ..datasets import list_examples

    fmt = _HelpFormatter
    parser = argparse.ArgumentParser(
        prog="bayes-prc",
        description="How much to trust a precision-recall curve: Bayesian binormal credible "
        "bands and frequentist intervals, side by side.",
        formatter_class=fmt,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def manners(p):
        p.add_argument(
            "-q",
            "--quiet",
            action="store_true",
            help="print nothing but errors (no summary, no step lines on stderr)",
        )
        p.add_argument(
            "--progress",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="progress bars within the slow steps (default: only on a terminal); "
            "one line per step is written on stderr in any case, unless --quiet",
        )

    def data_args(p, many_scores=False, comma_scores=False):
        p.add_argument("file", help="CSV/TSV file with a header row (or .parquet with pyarrow)")
        if many_scores:  # compare: a column per model, in order; each named once
            p.add_argument(
                "--score",
                required=True,
                action="append",
                help="score column of a model; repeat it (or give a comma list) for each model",
            )
        elif comma_scores:  # summary: one column, or several models as a comma list
            p.add_argument(
                "--score",
                required=True,
                help="name of the score column, or a comma list of several models' columns "
                "(one row per model)",
            )
        else:
            p.add_argument("--score", required=True, help="name of the score column")
        p.add_argument("--label", required=True, help="name of the label column")
        p.add_argument(
            "--pos-label",
            default=None,
            help="the positive label; needed unless the labels are 0/1, -1/1 or false/true "
            "(numbers match by value: 1 matches 1.0)",
        )
        p.add_argument(
            "--delimiter",
            default=None,
            help="column delimiter (default: detected among , ; tab |)",
        )
        p.add_argument(
            "--groups",
            default=None,
            metavar="COLUMN",
            help="column of cluster ids (patient, image, query, ...): intervals treat the "
            "clusters, not the rows, as independent",
        )
        p.add_argument(
            "--dask",
            action="store_true",
            help="read Parquet (a file or a directory) lazily with dask; see docs/scale.md",
        )

    p_rep = sub.add_parser(
        "report", help="write the HTML evaluation report for a CSV file", formatter_class=fmt
    )
    data_args(p_rep)
    p_rep.add_argument(
        "--transform",
        choices=["logit", "probit"],
        default=None,
        help="fit the parametric binormal model on logit/probit scores (for probabilities)",
    )
    p_rep.add_argument(
        "--model",
        choices=["semiparametric", "parametric"],
        default="semiparametric",
        help="Bayesian model of the figures (semiparametric: the rank-based binormal)",
    )
    p_rep.add_argument(
        "-o", "--output", default=None, help="output HTML (default: FILE.report.html)"
    )
    p_rep.add_argument("--markdown", default=None, help="also write a Markdown version here")
    p_rep.add_argument("--title", default=None, help="report title")
    p_rep.add_argument("--seed", type=int, default=0, help="random seed")
    p_rep.add_argument("--n-resamples", type=int, default=2000, help="bootstrap resamples")
    p_rep.add_argument("--force", action="store_true", help="overwrite an existing report")
    p_rep.add_argument(
        "--subgroup",
        default=None,
        metavar="COLUMN",
        help="column of subgroup labels (site, demographic group, ...): adds a section with "
        "each subgroup's AP by partial pooling (bayes_prc.compare_subgroups), flagging "
        "subgroups clearly below the others",
    )
    p_rep.add_argument(
        "--min-precision",
        type=float,
        default=None,
        metavar="P",
        help="add the section 'Choosing the threshold': the threshold at which precision "
        "is at least P with 95%% confidence (bayes_prc.threshold.choose_threshold)",
    )
    p_rep.add_argument(
        "--mlflow",
        action="store_true",
        help="also log the report into an MLflow run (metrics, params, tables, the HTML "
        "file; bayes_prc.tracking; needs the mlflow extra); MLFLOW_TRACKING_URI, "
        "MLFLOW_EXPERIMENT_NAME and MLFLOW_RUN_ID choose where",
    )
    p_rep.add_argument(
        "--score-models",
        action="store_true",
        help="also compare alternative score models by PSIS-LOO (NUTS; about a minute)",
    )
    p_rep.add_argument(
        "--labels",
        default=None,
        metavar="SELECTED",
        help="report the pool FILE from the rows `select` wrote (SELECTED, label column "
        "filled in), merged back by pool_row; --label names SELECTED's label column",
    )
    p_rep.add_argument(
        "--pool",
        action="store_true",
        help="FILE is a pool: rows with an empty label are unlabelled, the labelled rows "
        "a selection with inclusion probabilities (--inclusion-prob)",
    )
    p_rep.add_argument(
        "--inclusion-prob",
        default=None,
        help="pool files (some labels empty): column of the labelled rows' inclusion "
        "probabilities (default: inclusion_prob)",
    )
    p_rep.add_argument(
        "--stratum",
        default=None,
        help="pool files: column of the labelled rows' strata (default: stratum, if present)",
    )
    manners(p_rep)
    p_rep.set_defaults(func=_cmd_report)
    add_select_parser(sub, fmt)

    p_demo = sub.add_parser(
        "demo",
        help="summary and HTML report of bundled example data (the README's main job)",
        formatter_class=fmt,
    )
    p_demo.add_argument(
        "--example",
        default="small_sample",
        choices=list_examples(),
        help="bundled example (small_sample: 80 items, 8 positives)",
    )
    p_demo.add_argument(
        "-o", "--output", default=None, help="output HTML (default: bayes_prc_demo.html)"
    )
    p_demo.add_argument("--seed", type=int, default=0, help="random seed")
    p_demo.add_argument("--n-resamples", type=int, default=2000, help="bootstrap resamples")
    p_demo.add_argument("--force", action="store_true", help="overwrite an existing report")
    manners(p_demo)
    p_demo.set_defaults(func=_cmd_demo)

    p_sum = sub.add_parser(
        "summary", help="empirical summary of a CSV file (fast, no fit)", formatter_class=fmt
    )
    data_args(p_sum, comma_scores=True)
    p_sum.set_defaults(func=_cmd_summary, quiet=False, progress=False)
    add_compare_parser(sub, fmt, data_args, manners, _labels_as_written)
    add_plan_parser(sub, fmt)
    add_threshold_parser(sub, fmt, data_args, _labels_as_written)
    return parser


def main(argv=None):
    """Run ``bayes-prc``; returns the exit status (0 ok, 2 user error, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_note
            return args.func(args)
    except (CLIError, ValueError, OSError) as err:
        if isinstance(err, BrokenPipeError):
            return _broken_pipe()
        message = str(err) if isinstance(err, (CLIError, OSError)) else _user_words(err, args)
        print(f"bayes-prc: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bayes-prc: interrupted", file=sys.stderr)
        return 130


#: the API's parameter names and the options the user typed for them
_OPTIONS = {
    "y_score": "score",
    "y_true": "label",
    "groups": "groups",
    "subgroup": "subgroup",
    "pos_label": "pos_label",
    "budget": "budget",
    "n_resamples": "n_resamples",
    "random_seed": "seed",
    "transform": "transform",
    "model": "model",
    # plan
    "expected": "expected_ap",
    "prevalence": "prevalence",
    "width": "width",
    "difference": "difference",
    "correlation": "correlation",
    "assurance": "assurance",
    "ci_prob": "ci_prob",
    "cluster_size": "cluster_size",
    "icc": "icc",
    "n_simulations": "n_simulations",
    # threshold
    "min_precision": "min_precision",
    "min_recall": "min_recall",
}
_NUMPY_REPR = re.compile(r"np\.(?:float|int|uint|bool|str)_?\d*\(([^()]*)\)")


def _user_words(err, args):
    """An API error in the user's words: `y_score` becomes ``--score prob`` (the option
    and, for a column, its name); a NumPy scalar repr that slipped through, its value."""
    text = str(err)
    for param, dest in _OPTIONS.items():
        value = getattr(args, dest, None)
        if f"`{param}`" not in text or (value is None and dest not in ("pos_label", "correlation")):
            continue
        flag = "--" + dest.replace("_", "-")
        shown = f"column {value!r} ({flag})" if dest in _COLUMN_DESTS else flag
        text = text.replace(f"`{param}`", shown)
    return _NUMPY_REPR.sub(r"\1", text)


def _show_note(message, category, filename, lineno, file=None, line=None):
    """The library's own warnings as one plain line on stderr (no file:line, no class)."""
    from ..exceptions import BayesPRCWarning

    if issubclass(category, BayesPRCWarning):
        print(f"bayes-prc: note: {message}", file=sys.stderr)
    else:  # not ours: shown as Python shows it, so that it is reported and fixed
        print(warnings.formatwarning(message, category, filename, lineno, line), file=sys.stderr)


def _broken_pipe():
    """The reader of our output went away (``| head``): exit quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no real stdout (e.g. captured)
        pass
    return 141
