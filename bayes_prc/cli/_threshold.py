"""``bayes-prc threshold``: the threshold to ship, with its guarantee.

``bayes-prc threshold data.csv --label y --score s --min-precision 0.9`` prints the
threshold of :func:`bayes_prc.threshold.choose_threshold` and every method's row.
"""

from __future__ import annotations

import math

from ._io import CLIError, read_column, read_table

__all__ = ["add_threshold_parser"]


def _cmd_threshold(args, labels_as_written):
    from ..threshold import choose_threshold

    if (args.min_precision is None) == (args.min_recall is None):
        raise CLIError("threshold needs exactly one of --min-precision and --min-recall")
    if args.dask:
        raise CLIError("threshold reads CSV/TSV files; drop --dask")
    labels, scores = read_table(args.file, args.label, args.score, delimiter=args.delimiter)
    y, pos_label = labels_as_written(labels, args.pos_label)
    groups = None
    if args.groups is not None:
        groups = read_column(args.file, args.groups, "--groups", delimiter=args.delimiter)
    subgroup = None
    if args.subgroup is not None:
        subgroup = read_column(args.file, args.subgroup, "--subgroup", delimiter=args.delimiter)
    for flag, value in (
        ("--min-precision", args.min_precision),
        ("--min-recall", args.min_recall),
        ("--ci-prob", args.ci_prob),
        ("--prevalence", args.prevalence),
    ):
        if value is not None and not (0 < value < 1):
            raise CLIError(f"{flag} must be strictly between 0 and 1; got {value:g}")
    if pos_label is not None:
        y = [v == pos_label for v in y]
    choice = choose_threshold(
        y,
        scores,
        min_precision=args.min_precision,
        min_recall=args.min_recall,
        ci_prob=args.ci_prob,
        method=args.method,
        prevalence=args.prevalence,
        groups=groups,
        subgroup=subgroup,
        random_seed=args.seed,
    )
    print(format_choice(args.file, choice))
    return 0


def format_choice(path, choice):
    """The choice as plain text: the threshold, its guarantee, and the table of methods."""
    lines = [f"== {path} =="]
    if choice.threshold is None:
        lines.append("threshold: none certified")
    else:
        lines.append(f"threshold: {choice.threshold:.6g} (flag score >= threshold)")
    lines.append(f"guarantee: {choice.guarantee} [{choice.method}]")
    if choice.threshold is not None:
        level = f"{100 * choice.ci_prob:g}%"
        lines.append(
            f"precision {choice.precision:.3f} ({level} CI {choice.precision_low:.3f}-"
            f"{choice.precision_high:.3f}), recall {choice.recall:.3f} ({level} CI "
            f"{choice.recall_low:.3f}-{choice.recall_high:.3f})"
        )
        if not math.isnan(choice.recall_cost):
            lines.append(
                f"recall cost of the guarantee vs the empirical point: {choice.recall_cost:.3f}"
            )
    lines += ["", f"{'method':<26}{'threshold':>12}{'precision':>11}{'recall':>9}  guaranteed"]
    for name, row in choice.table.iterrows():
        thr = "-" if math.isnan(row["threshold"]) else f"{row['threshold']:.6g}"
        prec = "-" if math.isnan(row["precision"]) else f"{row['precision']:.3f}"
        rec = "-" if math.isnan(row["recall"]) else f"{row['recall']:.3f}"
        mark = " (recommended)" if name == choice.table.attrs["recommended"] else ""
        lines.append(
            f"{name:<26}{thr:>12}{prec:>11}{rec:>9}  {'yes' if row['guaranteed'] else 'NO'}{mark}"
        )
    if choice.subgroups is not None:
        lines += ["", f"{'subgroup':<26}{'n':>7}{'positives':>10}{'precision':>11}{'recall':>9}"]
        for name, row in choice.subgroups.iterrows():
            prec = "-" if math.isnan(row["precision"]) else f"{row['precision']:.3f}"
            rec = "-" if math.isnan(row["recall"]) else f"{row['recall']:.3f}"
            lines.append(
                f"{str(name):<26}{int(row['n']):>7}{int(row['positives']):>10}{prec:>11}{rec:>9}"
            )
    return "\n".join(lines)


def add_threshold_parser(sub, fmt, data_args, labels_as_written):
    """Add ``threshold`` to the subcommands."""
    p = sub.add_parser(
        "threshold",
        help="the threshold at which precision (or recall) holds with a stated confidence",
        formatter_class=fmt,
    )
    data_args(p)
    p.add_argument("--min-precision", type=float, default=None, help="precision target")
    p.add_argument("--min-recall", type=float, default=None, help="recall target")
    p.add_argument("--ci-prob", type=float, default=0.95, help="confidence of the guarantee")
    p.add_argument(
        "--prevalence", type=float, default=None, help="deployment prevalence of the positives"
    )
    p.add_argument(
        "--method",
        default=None,
        choices=[
            "ltt_bonferroni",
            "ltt_fixed_sequence",
            "ltt_split_fixed_sequence",
            "bayes",
            "empirical",
        ],
        help="the row to quote (default: the recommended one)",
    )
    p.add_argument(
        "--subgroup",
        default=None,
        metavar="COLUMN",
        help="column of subgroup labels: one threshold meeting the target in every subgroup",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (fixed-sequence split)")
    p.set_defaults(
        func=lambda args: _cmd_threshold(args, labels_as_written), quiet=False, progress=False
    )
    return p
