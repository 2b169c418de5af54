"""The pool commands of ``bayes-prc``: ``select`` (which items to label) and the pool
mode of ``report`` (a file whose empty label cells are the unlabelled pool).

``bayes-prc select pool.csv --score prob --budget 400 -o to_label.csv`` writes the rows
to label, in selection order, with every original column plus ``pool_row`` (the row's
1-based position among the data rows of the input), ``stratum``, ``inclusion_prob`` and
an empty label column to fill in. Once it is filled in,
``bayes-prc report pool.csv --labels to_label.csv --score prob --label label`` merges the
labels back into the pool by ``pool_row`` and reports the whole pool. (Labels copied back
into the pool file, the other rows' label cells left empty and ``inclusion_prob`` and
``stratum`` kept, are the other input of the pool report.)

The labelled rows alone are a biased sample of the pool (the top scores are oversampled):
``report`` refuses a file with a ``pool_row`` column unless it comes as ``--labels``, and
a file with blank labels but no inclusion probabilities unless ``--pool`` says it is one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .._core import plain
from ._io import CLIError, _check_output, parse_labels, parse_scores, read_frame

__all__ = [
    "add_select_parser",
    "round_trip_command",
    "run_labels_report",
    "run_pool_report",
    "selection_from_columns",
]

#: Columns added by ``select`` (with the label column).
ADDED = ("pool_row", "stratum", "inclusion_prob")


def _atomic_csv(frame, path, sep, force):
    """Write ``frame`` to ``path`` through a temporary file (no partial output)."""
    path = Path(path)
    if path.exists() and not force:
        raise CLIError(f"{path} exists; pass --force to overwrite it")
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            frame.to_csv(fh, sep=sep, index=False)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _cmd_select(args):
    from ..pool import select_labels

    if str(args.file).lower().endswith((".parquet", ".pq")):
        raise CLIError("select reads CSV/TSV files; convert the Parquet file first")
    output = args.output or f"{Path(args.file).stem}.to_label.csv"
    _check_output(output, args.force)  # before reading and computing anything
    frame, sep = read_frame(args.file, delimiter=args.delimiter)
    if args.score not in frame.columns:
        shown = ", ".join(repr(c) for c in frame.columns)
        raise CLIError(
            f"{args.file}: no column {plain(args.score)} (from --score); columns are {shown}"
        )
    for col in (*ADDED, args.label_column):
        if col in frame.columns:
            opt = " (choose another --label-column)" if col == args.label_column else ""
            raise CLIError(f"{args.file}: the input already has a column {plain(col)}{opt}")
    scores = parse_scores(frame[args.score], sep, args.file, args.score)
    if args.budget > scores.size:
        raise CLIError(
            f"--budget {args.budget} is larger than the pool ({scores.size} rows in {args.file})"
        )
    sel = select_labels(scores, args.budget, strategy=args.strategy, random_seed=args.seed)
    out = frame.iloc[sel.indices].copy()
    out["pool_row"] = sel.indices + 1
    out["stratum"] = sel.strata
    out["inclusion_prob"] = sel.inclusion_prob
    out[args.label_column] = ""
    _atomic_csv(out, output, sep, args.force)
    if not args.quiet:
        sizes = ", ".join(
            f"{n}/{m}" for n, m in zip(sel.stratum_samples, sel.stratum_sizes, strict=True)
        )
        print(
            f"{args.budget} of {scores.size} rows selected ({args.strategy}; labels per "
            f"stratum, highest scores first: {sizes}); fill column {plain(args.label_column)} "
            f"of {output}, then report the pool with:\n  "
            + round_trip_command(args.file, output, args.score, args.label_column)
        )
    return 0


def _quote(text):
    import shlex

    return shlex.quote(str(text))


def round_trip_command(pool_file, labels_file, score, label):
    """The ``bayes-prc report`` command that reports a pool from its filled-in selection."""
    return (
        f"bayes-prc report {_quote(pool_file)} --labels {_quote(labels_file)} "
        f"--score {_quote(score)} --label {_quote(label)}"
    )


class _Strategies(Sequence):
    """``SELECTION_STRATEGIES``, imported only when ``select`` reads or shows them.

    Building the parser must stay cheap: every command, its ``--help`` and its errors
    (an output path that is a directory) would otherwise wait for scipy's import.
    """

    def _names(self):
        from ..pool import SELECTION_STRATEGIES

        return SELECTION_STRATEGIES

    def __getitem__(self, index):
        return self._names()[index]

    def __len__(self):
        return len(self._names())


def add_select_parser(sub, fmt):
    """The ``select`` subcommand."""
    p = sub.add_parser(
        "select",
        help="choose which rows of a scored pool to label (writes them to a CSV file)",
        formatter_class=fmt,
    )
    p.add_argument("file", help="CSV/TSV file of the pool with a header row")
    p.add_argument("--score", required=True, help="name of the score column")
    p.add_argument("--budget", type=int, required=True, help="number of rows to label")
    p.add_argument(
        "--strategy",
        choices=_Strategies(),
        metavar="STRATEGY",  # a named metavar: argparse lists the choices only in --help
        default="stratified",
        help="how to select: %(choices)s (see docs/pool.md)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--label-column", default="label", help="name of the empty column to fill")
    p.add_argument("-o", "--output", default=None, help="output CSV (default: FILE.to_label.csv)")
    p.add_argument(
        "--delimiter", default=None, help="column delimiter (default: detected among , ; tab |)"
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing output")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    p.set_defaults(func=_cmd_select)
    return p


# --------------------------------------------------------------------------------------
# report, pool mode
# --------------------------------------------------------------------------------------
def selection_from_columns(y_score, indices, inclusion_prob, strata=None):
    """A :class:`LabelSelection` rebuilt from the labelled rows' columns.

    With a ``stratum`` column (as ``select`` writes it): stratified, ``N_h = n_h / pi_h``
    (``pi_h`` must be one value per stratum). Without it: one stratum, "random" when the
    inclusion probabilities are all equal (``N = n / pi``), else "importance".
    """
    from dataclasses import fields

    from ..pool import LabelSelection, read_only_array

    pi = np.asarray(inclusion_prob, dtype=np.float64)
    if not np.all(np.isfinite(pi) & (pi > 0) & (pi <= 1)):
        i = int(np.flatnonzero(~(np.isfinite(pi) & (pi > 0) & (pi <= 1)))[0])
        raise CLIError(
            f"inclusion probabilities must be in (0, 1]; got {plain(pi[i])} (row {int(indices[i]) + 1})"
        )
    n_pool = int(np.asarray(y_score).size)
    if strata is None:
        same = np.allclose(pi, pi[0], rtol=1e-9)
        strategy = "random" if same else "importance"
        codes = np.zeros(pi.size, dtype=np.int64)
        sizes = np.array([n_pool])
    else:
        strata = np.asarray(strata)
        try:  # select writes 0 (highest scores), 1, ...: sort them as numbers
            strata = strata.astype(np.int64)
        except ValueError:
            pass
        levels, codes = np.unique(strata, return_inverse=True)
        sizes = np.empty(levels.size, dtype=np.int64)
        for h in range(levels.size):
            ph = pi[codes == h]
            if not np.allclose(ph, ph[0], rtol=1e-9):
                raise CLIError(
                    f"inclusion_prob differs within stratum {plain(levels[h])}; one "
                    "value per stratum is expected"
                )
            sizes[h] = int(round(ph.size / ph[0]))
        strategy = "stratified" if levels.size > 1 else "random"
        if sizes.sum() > n_pool:
            raise CLIError(
                f"the inclusion probabilities imply {sizes.sum()} pool rows but the file has "
                f"{n_pool}: is the file the whole pool?"
            )
    samples = np.bincount(codes, minlength=sizes.size)
    s = np.asarray(y_score, dtype=np.float64)
    bounds = np.array(
        [[s[indices][codes == h].min(), s[indices][codes == h].max()] for h in range(sizes.size)]
    )
    values = dict(
        indices=read_only_array(np.asarray(indices, dtype=np.int64)),
        inclusion_prob=read_only_array(pi),
        strata=read_only_array(codes.astype(np.int64)),
        n_pool=n_pool,
        strategy=strategy,
        stratum_sizes=read_only_array(sizes),
        stratum_samples=read_only_array(samples),
        stratum_bounds=read_only_array(bounds),
        y_score=s,
    )
    if strategy == "stratified" and sizes.sum() == n_pool:
        # strata of select are contiguous score ranges, 0 the highest: next_batch works
        values["_stratum_edges"] = read_only_array(np.concatenate([[0], np.cumsum(sizes)]))
    names = {f.name for f in fields(LabelSelection)}
    return LabelSelection(**{k: v for k, v in values.items() if k in names})


def _column(frame, name, option, path):
    if name not in frame.columns:
        shown = ", ".join(repr(c) for c in frame.columns)
        raise CLIError(f"{path}: no column {plain(name)} (from {option}); columns are {shown}")
    return frame[name]


def run_pool_report(args, output):
    """``report`` on a pool file: rows with a label are the labelled selection."""
    frame, sep = read_frame(args.file, delimiter=args.delimiter)
    scores = parse_scores(
        _column(frame, args.score, "--score", args.file), sep, args.file, args.score
    )
    raw = _column(frame, args.label, "--label", args.file).to_numpy(dtype=str)
    labelled = np.flatnonzero(raw != "")
    inc_col = args.inclusion_prob or "inclusion_prob"
    if inc_col not in frame.columns:
        raise CLIError(
            f"{args.file}: {np.sum(raw == '')} rows have no label, so this is a pool report, "
            f"which needs the inclusion probability of each labelled row: no column "
            f"{plain(inc_col)}; name it with --inclusion-prob (bayes-prc select writes it)"
        )
    pi_raw = frame[inc_col].to_numpy(dtype=str)[labelled]
    try:
        pi = pi_raw.astype(np.float64)
    except ValueError:
        bad = str(next(v for v in pi_raw if not _is_float(v)))
        raise CLIError(
            f"{args.file}: inclusion probability {plain(bad)} in column {plain(inc_col)} "
            "is not a number (every labelled row needs one)"
        ) from None
    strata = None
    stratum_col = args.stratum or ("stratum" if "stratum" in frame.columns else None)
    if stratum_col is not None:
        strata = _column(frame, stratum_col, "--stratum", args.file).to_numpy(dtype=str)
        strata = strata[labelled]
    if labelled.size < 2:
        raise CLIError(f"{args.file}: {labelled.size} labelled rows; a pool report needs more")
    y = parse_labels(raw[labelled], args.pos_label)
    selection = selection_from_columns(scores, labelled, pi, strata)
    source = (
        f"{args.file} (score column {plain(args.score)}, label column {plain(args.label)}, "
        f"inclusion probabilities {plain(inc_col)})"
    )
    return _write_pool_report(args, output, scores, selection, y, source)


def _write_pool_report(args, output, scores, selection, y, source):
    from .._report import pool_report

    return pool_report(
        scores,
        selection,
        y,
        output,
        title=args.title or f"Pool report: {Path(args.file).name}",
        source=source,
        random_seed=args.seed,
        n_resamples=args.n_resamples,
        force=args.force,
        markdown_path=args.markdown,
        progressbar=bool(args.progress),
        verbose=not args.quiet,
    )


def _lines(rows, limit=5):
    """File line numbers of 0-based data rows (the header is line 1), the first few."""
    shown = ", ".join(str(int(r) + 2) for r in rows[:limit])
    return shown + (f" and {rows.size - limit} more" if rows.size > limit else "")


def run_labels_report(args, output):
    """``report POOL --labels FILE``: the selection's labels merged back by ``pool_row``.

    ``FILE`` is what ``select`` wrote, with its label column filled in: ``pool_row``
    (1-based data row of the pool), ``inclusion_prob``, ``stratum`` and the label. When
    it also carries the score column, each row's score must match the pool's (the wrong
    pool file is an error, not a silent mismatch).
    """
    pool, sep = read_frame(args.file, delimiter=args.delimiter)
    scores = parse_scores(
        _column(pool, args.score, "--score", args.file), sep, args.file, args.score
    )
    lab, lab_sep = read_frame(args.labels, delimiter=args.delimiter)
    rows_raw = _column(lab, "pool_row", "--labels", args.labels).to_numpy(dtype=str)
    try:
        rows = rows_raw.astype(np.float64)
    except ValueError:
        bad = next(v for v in rows_raw if not _is_float(v))
        raise CLIError(f"{args.labels}: pool_row {plain(bad)} is not a row number") from None
    if not np.all((rows == np.round(rows)) & (rows >= 1) & (rows <= scores.size)):
        bad = rows_raw[
            np.flatnonzero(~((rows == np.round(rows)) & (rows >= 1) & (rows <= scores.size)))[0]
        ]
        raise CLIError(
            f"{args.labels}: pool_row {plain(bad)} is not a data row of {args.file} "
            f"(1 to {scores.size}): is {args.file} the pool the rows were selected from?"
        )
    idx = rows.astype(np.int64) - 1
    if np.unique(idx).size != idx.size:
        raise CLIError(f"{args.labels}: a pool_row appears twice; each selected row once")
    raw = _column(lab, args.label, "--label", args.labels).to_numpy(dtype=str)
    blank = np.flatnonzero(raw == "")
    if blank.size:
        raise CLIError(
            f"{args.labels}: {blank.size} selected rows have no label yet (lines "
            f"{_lines(blank)}); label every selected row (the design needs them all)"
        )
    if args.score in lab.columns:
        own = parse_scores(lab[args.score], lab_sep, args.labels, args.score)
        differ = np.flatnonzero(~np.isclose(own, scores[idx], rtol=1e-9, atol=0.0))
        if differ.size:
            i = differ[0]
            raise CLIError(
                f"{args.labels}: the score of pool_row {idx[i] + 1} is {plain(own[i])} there but "
                f"{plain(scores[idx[i]])} in {args.file}: is {args.file} the pool the rows were "
                "selected from?"
            )
    inc_col = args.inclusion_prob or "inclusion_prob"
    pi_raw = _column(lab, inc_col, "--inclusion-prob", args.labels).to_numpy(dtype=str)
    try:
        pi = pi_raw.astype(np.float64)
    except ValueError:
        bad = str(next(v for v in pi_raw if not _is_float(v)))
        raise CLIError(
            f"{args.labels}: inclusion probability {plain(bad)} in column {plain(inc_col)} is not a number"
        ) from None
    stratum_col = args.stratum or ("stratum" if "stratum" in lab.columns else None)
    strata = None
    if stratum_col is not None:
        strata = _column(lab, stratum_col, "--stratum", args.labels).to_numpy(dtype=str)
    if idx.size < 2:
        raise CLIError(f"{args.labels}: {idx.size} labelled rows; a pool report needs more")
    y = parse_labels(raw, args.pos_label)
    selection = selection_from_columns(scores, idx, pi, strata)
    source = (
        f"{args.file} (score column {plain(args.score)}, {scores.size} rows) with the labels of "
        f"{args.labels} (label column {plain(args.label)}, merged by pool_row, inclusion "
        f"probabilities {plain(inc_col)})"
    )
    return _write_pool_report(args, output, scores, selection, y, source)


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True
