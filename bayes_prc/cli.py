"""The ``bayes-prc`` command line.

``bayes-prc demo`` prints the empirical summary of the bundled example data;
``bayes-prc summary FILE.csv --score COL --label COL`` does the same for a CSV file.
Errors are one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import sys

import numpy as np

from . import _ranking as rk

__all__ = ["main", "empirical_summary", "format_summary"]


class CLIError(Exception):
    """A user error: printed as one line, exit status 2."""


def empirical_summary(y_true, y_score, *, pos_label=None, n_curve_points=11):
    """Every empirical estimate of one scored data set, as a plain dict.

    Returns
    -------
    dict
        ``n``, ``n_positive``, ``prevalence``, ``n_distinct_scores``, ``estimators``
        (name -> AUC-PR estimate), ``roc_auc``, ``max_f1`` (:class:`FBetaResult`) and
        ``curve`` (a list of (threshold, recall, precision) at about ``n_curve_points``
        recall levels).
    """
    from ._validation import validate_binary_inputs

    is_pos, score, _, pos_label = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    if is_pos.all() or not is_pos.any():
        raise ValueError("`y_true` must contain both classes for a summary")
    estimators = {e: rk._auc_pr_validated(is_pos, score, None, e) for e in rk.AUC_PR_ESTIMATORS}
    precision, recall, thresholds = rk.precision_recall_curve(is_pos, score)
    # a few points spread over recall (last point per recall level)
    targets = np.linspace(0, 1, n_curve_points)
    rows = []
    for t in targets[1:]:
        i = int(np.argmin(np.abs(recall[:-1] - t)))
        rows.append((thresholds[i].item(), float(recall[i]), float(precision[i])))
    rows = sorted(set(rows), key=lambda r: r[1])
    return {
        "n": int(is_pos.size),
        "n_positive": int(is_pos.sum()),
        "prevalence": float(is_pos.mean()),
        "n_distinct_scores": int(np.unique(score).size),
        "estimators": estimators,
        "roc_auc": rk.roc_auc_score(is_pos, score),
        "max_f1": rk.max_fbeta(is_pos, score),
        "curve": rows,
    }


def format_summary(title, summary):
    """Render :func:`empirical_summary` as a text table."""
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
    from .datasets import list_examples, load_example

    names = list_examples() if args.example is None else [args.example]
    blocks = []
    for name in names:
        data = load_example(name)
        blocks.append(format_summary(name, empirical_summary(data.y_true, data.y_score)))
    print("\n\n".join(blocks))
    return 0


def _cmd_summary(args):
    labels, scores = _read_csv_columns(args.file, args.label, args.score)
    y = _parse_labels(labels, args.pos_label)
    print(format_summary(args.file, empirical_summary(y, scores)))
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="bayes-prc",
        description="How much to trust a precision-recall curve.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="summarize the bundled example data")
    p_demo.add_argument(
        "--example", default=None, help="one example name (default: all bundled examples)"
    )
    p_demo.set_defaults(func=_cmd_demo)
    p_sum = sub.add_parser("summary", help="empirical summary of a CSV file of scores")
    p_sum.add_argument("file", help="CSV file with a header row")
    p_sum.add_argument("--score", required=True, help="name of the score column")
    p_sum.add_argument("--label", required=True, help="name of the label column")
    p_sum.add_argument("--pos-label", default=None, help="value of the positive label")
    p_sum.set_defaults(func=_cmd_summary)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (CLIError, ValueError) as err:
        print(f"bayes-prc: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
