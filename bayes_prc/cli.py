"""The ``bayes-prc`` command line.

``bayes-prc report FILE.csv --score COL --label COL [-o out.html]`` writes the evaluation
report; ``bayes-prc demo [-o out.html]`` writes it for the bundled small-sample example
and prints the empirical summary; ``bayes-prc summary FILE.csv ...`` prints the empirical
summary only (no PyMC, no plots). Errors are one line on stderr with exit status 2, and
no output file is left behind.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

from . import empirical

__all__ = ["main", "empirical_summary", "format_summary"]


class CLIError(Exception):
    """A user error: printed as one line, exit status 2."""


def empirical_summary(y_true, y_score, *, pos_label=None, n_curve_points=11):
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
        ``curve`` (a list of (threshold, recall, precision) at about ``n_curve_points``
        recall levels).

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
    # a few points spread over recall (last point per recall level)
    targets = np.linspace(0, 1, n_curve_points)
    rows = []
    for t in targets[1:]:
        i = int(np.argmin(np.abs(recall[:-1] - t)))
        rows.append((thresholds[i].item(), float(recall[i]), float(precision[i])))
    rows = sorted(set(rows), key=lambda r: r[1])
    return {
        "n": r.n_samples,
        "n_positive": r.n_pos,
        "prevalence": float(r.is_pos.mean()),
        "n_distinct_scores": int(np.unique(r.y_score).size),
        "estimators": estimators,
        "roc_auc": empirical.roc_auc_score(r, None),
        "max_f1": empirical.max_fbeta(r, None),
        "curve": rows,
    }


def format_summary(title, summary):
    """Render :func:`empirical_summary` as a text table.

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
        f"{'threshold':>14}{'recall':>10}{'precision':>11}",
    ]
    for thr, rec, prec in s["curve"]:
        lines.append(f"{thr:>14.6g}{rec:>10.4f}{prec:>11.4f}")
    return "\n".join(lines)


def _read_table(path, label_col, score_col):
    """Label and score columns of a CSV (or Parquet, if pyarrow is installed) file."""
    if str(path).lower().endswith((".parquet", ".pq")):
        return _read_parquet_columns(path, label_col, score_col)
    return _read_csv_columns(path, label_col, score_col)


def _read_parquet_columns(path, label_col, score_col):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CLIError("reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        table = pq.read_table(path)
    except OSError as err:
        raise CLIError(f"cannot read {path}: {err}") from None
    names = table.column_names
    for col, opt in ((label_col, "--label"), (score_col, "--score")):
        if col not in names:
            raise CLIError(
                f"{path}: no column {col!r} (from {opt}); columns are "
                f"{', '.join(repr(c) for c in names)}"
            )
    labels = np.asarray([str(v) for v in table.column(label_col).to_pylist()])
    raw = table.column(score_col).to_pylist()
    scores = np.empty(len(raw))
    for i, v in enumerate(raw):
        try:
            scores[i] = float(v)
        except (TypeError, ValueError):
            raise CLIError(f"{path}, row {i + 1}: score {v!r} is not a number") from None
        if not np.isfinite(scores[i]):
            raise CLIError(f"{path}, row {i + 1}: score {v!r} is not finite")
    return labels, scores


def _read_csv_columns(path, label_col, score_col):
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames is None:
                raise CLIError(f"{path}: the file is empty")
            for col, opt in ((label_col, "--label"), (score_col, "--score")):
                if col not in reader.fieldnames:
                    raise CLIError(
                        f"{path}: no column {col!r} (from {opt}); columns are "
                        f"{', '.join(repr(c) for c in reader.fieldnames)}"
                    )
            labels, scores = [], []
            for line_no, row in enumerate(reader, start=2):
                labels.append(row[label_col])
                raw = row[score_col]
                try:
                    value = float(raw)
                except (TypeError, ValueError):
                    raise CLIError(
                        f"{path}, line {line_no}: score {raw!r} in column {score_col!r} "
                        "is not a number"
                    ) from None
                if not np.isfinite(value):
                    raise CLIError(
                        f"{path}, line {line_no}: score {raw!r} in column {score_col!r} "
                        "is not finite"
                    )
                scores.append(value)
    except OSError as err:
        raise CLIError(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise CLIError(f"cannot read {path}: not a UTF-8 text (CSV) file") from None
    if not labels:
        raise CLIError(f"{path}: no data rows")
    return np.asarray(labels), np.asarray(scores)


def _parse_labels(labels, pos_label):
    """CSV labels are strings: map to 0/1 using ``pos_label`` (default: "1" or "True")."""
    uniq = sorted(set(labels.tolist()))
    if len(uniq) > 2:
        raise CLIError(f"label column has {len(uniq)} distinct values; a binary label is needed")
    if pos_label is None:
        for cand in ("1", "1.0", "True", "true"):
            if cand in uniq:
                pos_label = cand
                break
        else:
            raise CLIError(f"cannot tell the positive label among {uniq}; pass --pos-label")
    if pos_label not in uniq:
        raise CLIError(f"--pos-label {pos_label!r} is not among the labels {uniq}")
    if len(uniq) < 2:
        raise CLIError(f"label column has a single class ({uniq[0]!r}); both are needed")
    return (labels == pos_label).astype(int)


def _cmd_demo(args):
    from .datasets import load_example

    data = load_example(args.example)
    output = args.output or "bayes_prc_demo.html"
    if Path(output).exists() and not args.force:
        raise CLIError(f"{output} exists; pass --force to overwrite it")
    print(format_summary(args.example, empirical_summary(data.y_true, data.y_score)))
    out = _write_report(
        data.y_true,
        data.y_score,
        output,
        title=f"bayes_prc demo: {args.example} ({len(data)} items)",
        transform="logit",
        seed=args.seed,
        force=args.force,
        source=f"bundled example {args.example!r}: {data.description}",
        n_resamples=args.n_resamples,
    )
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
    score_models=False,
    model="semiparametric",
):
    from ._report import report

    interactive = sys.stderr.isatty()
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
            progressbar=interactive,
            markdown_path=md,
            score_models=score_models,
            model=model,
        )
    except FileExistsError as err:
        raise CLIError(str(err)) from None


# --------------------------------------------------------------------------------------
# --dask: Parquet read lazily with bayes_prc.scale (imported only here)
# --------------------------------------------------------------------------------------
def _read_dask(args):
    """Lazy ``(is_positive, score)`` dask arrays of a Parquet file or directory.

    Labels are matched as text: :func:`_parse_labels` (the rule of the in-memory
    commands) is applied to their distinct values.
    """
    path = args.file
    if not str(path).lower().endswith((".parquet", ".pq")) and not Path(path).is_dir():
        raise CLIError(f"--dask reads Parquet (a .parquet file or a directory); got {path}")
    try:
        from .scale import read_parquet

        y_raw, s = read_parquet(path, label=args.label, score=args.score)
        values = _label_values(y_raw)
    except ImportError:
        raise CLIError("--dask needs dask: pip install 'bayes_prc[dask]'") from None
    flags = _parse_labels(np.asarray([str(v) for v in values.tolist()]), args.pos_label)
    positive = values[int(np.argmax(flags))]
    return y_raw == positive, s.astype(np.float64)


def _label_values(y):
    """Distinct values of a dask label array (at most ``_MAX_LABELS + 1`` of them)."""
    from .scale._blocks import _Blocks, _map_reduce, _merge_checks

    blocks = _Blocks([(b, b) for b in y.to_delayed().ravel().tolist()], True, None, y.dtype)
    info = _map_reduce(blocks, _labels_block, _merge_checks)
    values = info["labels"]
    if info["many_labels"]:
        values = np.concatenate([values, values[-1:]])  # "more than two" is all that counts
    return values


def _labels_block(y, s, i):
    from .scale._blocks import _MAX_LABELS, _distinct

    y = np.asarray(y)
    labels = _distinct(y)
    return {
        "n": int(y.shape[0]),
        "labels": labels[:_MAX_LABELS],
        "many_labels": labels.size > _MAX_LABELS,
        "mismatch": None,
        "bad": None,
    }


def _in_memory(y, s, what):
    """Numpy arrays of the ``--dask`` input for the in-memory commands (up to max_exact)."""
    from .scale._blocks import _aligned, _compute_numpy, _exact_path
    from .scale._options import _OPTIONS

    blocks = _aligned(y, s)
    if not _exact_path(blocks):
        raise CLIError(
            f"{what} needs the data in memory and the file has {blocks.n:,} rows > max_exact="
            f"{_OPTIONS['max_exact']:,}; `bayes-prc summary --dask` works at any size"
        )
    y, s, _ = _compute_numpy(blocks)
    return y, s


def _dask_summary(title, y, s, *, n_curve_points=11):
    """Text of ``summary --dask``: the in-memory summary, or the binned one past max_exact."""
    from .scale._binned import _binned, _check_bins, _interval_text
    from .scale._blocks import _aligned, _compute_numpy, _exact_path
    from .scale._options import _OPTIONS

    blocks = _aligned(y, s)
    if _exact_path(blocks):
        y_np, s_np, _ = _compute_numpy(blocks)
        return format_summary(title, empirical_summary(y_np, s_np))
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, None)
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
        f"binned: {res.n_bins} score bins ({res.grid!r} grid) because n > max_exact = "
        f"{_OPTIONS['max_exact']}; curve points are exact, AP is bounded",
        "",
        f"{'AUC-PR estimator':<22}{'estimate':>10}{'exact AP in':>26}",
        f"{'average_precision':<22}{res.average_precision:>10.4f}{_interval_text(res):>26}",
        "",
        f"max F1 over the bin thresholds = {f1[best]:.4f} at threshold {thr[best].item():.6g} "
        f"(precision {p[best]:.4f}, recall {r[best]:.4f})",
        "",
        f"{'threshold':>14}{'recall':>10}{'precision':>11}",
    ]
    rows = set()
    for target in np.linspace(0, 1, n_curve_points)[1:]:
        i = int(np.argmin(np.abs(r - target)))
        rows.add((thr[i].item(), float(r[i]), float(p[i])))
    for t, rec, prec in sorted(rows, key=lambda row: row[1]):
        lines.append(f"{t:>14.6g}{rec:>10.4f}{prec:>11.4f}")
    return "\n".join(lines)


def _cmd_report(args):
    if args.dask:  # read with dask; the report itself needs the data in memory
        y, scores = _in_memory(*_read_dask(args), "the report")
    else:
        labels, scores = _read_table(args.file, args.label, args.score)
        y = _parse_labels(labels, args.pos_label)
    output = args.output or f"{Path(args.file).stem}.report.html"
    if Path(output).exists() and not args.force:
        raise CLIError(f"{output} exists; pass --force to overwrite it")
    out = _write_report(
        y,
        scores,
        output,
        title=args.title or f"Precision-recall report: {Path(args.file).name}",
        transform=args.transform,
        seed=args.seed,
        force=args.force,
        source=f"{args.file} (score column {args.score!r}, label column {args.label!r})",
        n_resamples=args.n_resamples,
        md=args.markdown,
        score_models=args.score_models,
        model=args.model,
    )
    print(f"report written to {out}")
    return 0


def _cmd_summary(args):
    if args.dask:  # exact summary up to max_exact rows, binned (with AP bounds) beyond
        print(_dask_summary(args.file, *_read_dask(args)))
        return 0
    labels, scores = _read_table(args.file, args.label, args.score)
    y = _parse_labels(labels, args.pos_label)
    print(format_summary(args.file, empirical_summary(y, scores)))
    return 0


def build_parser():
    from .datasets import list_examples

    parser = argparse.ArgumentParser(
        prog="bayes-prc",
        description="How much to trust a precision-recall curve: Bayesian binormal credible "
        "bands and frequentist intervals, side by side.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def data_args(p):
        p.add_argument("file", help="CSV file with a header row (or .parquet with pyarrow)")
        p.add_argument("--score", required=True, help="name of the score column")
        p.add_argument("--label", required=True, help="name of the label column")
        p.add_argument(
            "--pos-label", default=None, help="value of the positive label (default 1/True)"
        )
        p.add_argument(
            "--dask",
            action="store_true",
            help="read Parquet (a file or a directory) lazily with dask; see docs/scale.md",
        )

    p_rep = sub.add_parser("report", help="write the HTML evaluation report for a CSV file")
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
        help="Bayesian model of the figures (default: the rank-based semiparametric binormal)",
    )
    p_rep.add_argument(
        "-o", "--output", default=None, help="output HTML (default FILE.report.html)"
    )
    p_rep.add_argument("--markdown", default=None, help="also write a Markdown version here")
    p_rep.add_argument("--title", default=None, help="report title")
    p_rep.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p_rep.add_argument("--n-resamples", type=int, default=2000, help="bootstrap resamples")
    p_rep.add_argument("--force", action="store_true", help="overwrite an existing report")
    p_rep.add_argument(
        "--score-models",
        action="store_true",
        help="also compare alternative score models by PSIS-LOO (NUTS; about a minute)",
    )
    p_rep.set_defaults(func=_cmd_report)

    p_demo = sub.add_parser(
        "demo", help="summary and HTML report of bundled example data (the README's main job)"
    )
    p_demo.add_argument(
        "--example",
        default="small_sample",
        choices=list_examples(),
        help="bundled example (default small_sample: 80 items, 8 positives)",
    )
    p_demo.add_argument(
        "-o", "--output", default=None, help="output HTML (default bayes_prc_demo.html)"
    )
    p_demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p_demo.add_argument("--n-resamples", type=int, default=2000, help="bootstrap resamples")
    p_demo.add_argument("--force", action="store_true", help="overwrite an existing report")
    p_demo.set_defaults(func=_cmd_demo)

    p_sum = sub.add_parser("summary", help="empirical summary of a CSV file (fast, no fit)")
    data_args(p_sum)
    p_sum.set_defaults(func=_cmd_summary)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (CLIError, ValueError, OSError) as err:
        print(f"bayes-prc: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
