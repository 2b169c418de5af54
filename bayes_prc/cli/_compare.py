"""``bayes-prc compare``: the comparison report of several models' score columns.

``bayes-prc compare data.csv --label y --score a --score b [--score c ...] -o out.html``
reads one label column and two or more score columns (``--score`` repeated, or once
with a comma list), prints the verdict and the ranking, and writes the comparison report
(:func:`bayes_prc._report.compare_report`). A column named twice is an error, never a
silent repeat.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._io import CLIError, _check_output, read_column, read_scores_table

__all__ = ["add_compare_parser", "score_columns"]


def score_columns(values):
    """The score columns of ``--score`` given once or more, comma lists split; each once."""
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    seen = set()
    for name in names:
        if name in seen:
            raise CLIError(f"--score names the column {name!r} twice; name each model once")
        seen.add(name)
    if len(names) < 2:
        raise CLIError(
            f"compare needs at least two score columns (--score a --score b); got {names}"
        )
    return names


def _cmd_compare(args, labels_as_written):
    from .._report import compare_report
    from ..ranking import compare_models

    names = score_columns(args.score)
    output = args.output or f"{Path(args.file).stem}.compare.html"
    _check_output(output, args.force)  # before reading and computing anything
    _check_output(args.markdown, args.force, "Markdown output")
    if args.dask:
        raise CLIError("compare reads CSV/TSV files; drop --dask")
    if str(args.file).lower().endswith((".parquet", ".pq")):
        raise CLIError("compare reads CSV/TSV files; convert the Parquet file first")
    labels, scores = read_scores_table(args.file, args.label, names, delimiter=args.delimiter)
    y, pos_label = labels_as_written(labels, args.pos_label)
    groups = None
    if args.groups is not None:
        groups = read_column(args.file, args.groups, "--groups", delimiter=args.delimiter)
    if args.reference is not None and args.reference not in names:
        raise CLIError(f"--reference {args.reference!r} is not one of the --score columns {names}")
    shown = 1 if pos_label is None else pos_label
    if not args.quiet:
        print(
            f"bayes-prc: read {args.file}: {labels.size} rows; score columns "
            f"{', '.join(repr(n) for n in names)}, label column {args.label!r} (positive "
            f"label {shown!r})",
            file=sys.stderr,
        )
    res = compare_models(
        y,
        scores,
        metric=args.metric,
        ci_prob=args.ci_prob,
        groups=groups,
        reference=args.reference,
        random_seed=args.seed,
        n_resamples=args.n_resamples,
        pos_label=pos_label,
    )
    out = compare_report(
        y,
        scores,
        output,
        title=args.title or f"Model comparison: {Path(args.file).name}",
        pos_label=pos_label,
        random_seed=args.seed,
        n_resamples=args.n_resamples,
        ci_prob=args.ci_prob,
        groups=groups,
        reference=args.reference,
        metric=args.metric,
        markdown_path=args.markdown,
        force=args.force,
        source=f"{args.file} (score columns {', '.join(names)}; label column {args.label!r})",
        comparison=res,
    )
    if not args.quiet:
        cols = ["estimate", "low", "high", "rank", "rank_low", "rank_high", "prob_best"]
        print(res.verdict)
        print(res.table[cols].to_string(float_format=lambda v: f"{v:.4f}"))
        print(f"\nreport written to {out}")
    return 0


def add_compare_parser(sub, fmt, data_args, manners, labels_as_written):
    """The ``compare`` subcommand on the subparsers ``sub``.

    ``data_args`` and ``manners`` add the options every data command shares;
    ``labels_as_written`` turns the label column into ``(y, pos_label)`` as the other
    commands do (passed in, so this module does not import the CLI's face).
    """
    p = sub.add_parser(
        "compare",
        help="compare and rank several models' score columns (verdict, rank sets, report)",
        formatter_class=fmt,
    )
    data_args(p, many_scores=True)
    p.add_argument(
        "--reference",
        default=None,
        metavar="COLUMN",
        help="compare every model with this one only (a --score column)",
    )
    p.add_argument(
        "--metric",
        choices=["average_precision", "roc_auc"],
        default="average_precision",
        help="the compared metric",
    )
    p.add_argument("--ci-prob", type=float, default=0.95, help="probability of the sets")
    p.add_argument("-o", "--output", default=None, help="output HTML (default: FILE.compare.html)")
    p.add_argument("--markdown", default=None, help="also write a Markdown version here")
    p.add_argument("--title", default=None, help="report title")
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--n-resamples", type=int, default=2000, help="replicates and draws")
    p.add_argument("--force", action="store_true", help="overwrite an existing report")
    manners(p)
    p.set_defaults(func=lambda args: _cmd_compare(args, labels_as_written))
    return p
