"""Reading the command line's input as people have it: CSV/TSV (any common delimiter,
an Excel byte-order mark, quoted fields) or Parquet, and labels that are never guessed.

Errors are :class:`CLIError` (one line, exit status 2) naming the file, the line, the
column and the value.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from .._core import check_output_path, plain

__all__ = [
    "CLIError",
    "parse_labels",
    "positive_as_written",
    "parse_scores",
    "read_column",
    "read_frame",
    "read_header",
    "read_table",
    "sniff_delimiter",
]

#: Delimiters tried when ``--delimiter`` is not given.
DELIMITERS = ",;\t|"

# label sets whose positive class is not a guess (compared case-insensitively, numerically)
_BOOL_WORDS = {"true": 1.0, "false": 0.0}


class CLIError(Exception):
    """A user error: printed as one line, exit status 2."""


def _check_output(path, force, what="output"):
    """Fail before any compute when ``path`` cannot be written (or exists without --force).

    A directory, a missing or unwritable directory, or an existing file without --force
    (:func:`bayes_prc._core.check_output_path`): one plain line, exit status 2.
    """
    if path is None:
        return
    try:
        check_output_path(path, force, what)
    except FileExistsError:
        raise CLIError(f"{path} exists; pass --force to overwrite it") from None
    except OSError as err:
        raise CLIError(str(err)) from None


def sniff_delimiter(path, sample_bytes=65536):
    """The delimiter of a delimited text file, from its first lines.

    Examples
    --------
    >>> import os, tempfile
    >>> from bayes_prc.cli._io import sniff_delimiter
    >>> path = os.path.join(tempfile.mkdtemp(), "x.csv")
    >>> _ = open(path, "w").write("y;score\\n1;0,9\\n0;0,1\\n")
    >>> sniff_delimiter(path)
    ';'
    """
    with open(path, newline="", encoding="utf-8-sig") as fh:
        sample = fh.read(sample_bytes)
    header = sample.splitlines()[0] if sample else ""
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=counts.get)
    if counts[best] > 0:
        return best
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","


def read_table(path, label_col, score_col, *, delimiter=None, allow_empty=False):
    """``(labels, scores)`` of a CSV/TSV file (or Parquet, with pyarrow).

    Labels are returned as strings exactly as written (empty cells are an error naming
    the line, unless ``allow_empty``: then they are empty strings); scores as float64 (a non-number or non-finite score is an error naming
    the line, the column and the value; with a ``;`` or tab delimiter, decimal commas
    such as ``0,75`` are read as numbers).

    Examples
    --------
    >>> import os, tempfile
    >>> from bayes_prc.cli._io import read_table
    >>> path = os.path.join(tempfile.mkdtemp(), "x.csv")
    >>> _ = open(path, "w", encoding="utf-8-sig").write("y\\tp\\n1\\t0.9\\n0\\t0.2\\n")
    >>> labels, scores = read_table(path, "y", "p")
    >>> labels.tolist(), scores.tolist()
    (['1', '0'], [0.9, 0.2])
    """
    if str(path).lower().endswith((".parquet", ".pq")):
        if label_col == score_col:
            raise CLIError(
                f"--score and --label both name the column {plain(score_col)}; they are two columns"
            )
        return _read_parquet(path, label_col, score_col)
    labels, scores = read_scores_table(
        path, label_col, [score_col], delimiter=delimiter, allow_empty=allow_empty
    )
    return labels, scores[score_col]


def read_scores_table(path, label_col, score_cols, *, delimiter=None, allow_empty=False):
    """``(labels, {column: scores})`` of one label column and one or more score columns.

    The file is parsed once, for every column asked for; the rules of :func:`read_table`
    (which reads one score column through this function) apply to each score column.
    """
    for col in score_cols:
        if col == label_col:
            raise CLIError(
                f"--score and --label both name the column {plain(col)}; they are two columns"
            )
    if str(path).lower().endswith((".parquet", ".pq")):
        raise CLIError(
            "several --score columns are read from CSV/TSV files; convert the Parquet file first"
        )
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise CLIError(f"cannot read {path}: no such file")
    try:
        sep = delimiter if delimiter is not None else sniff_delimiter(path)
        options = dict(sep=sep, encoding="utf-8-sig", skipinitialspace=True)
        header = _raw_header(path, sep)
        hint = (
            "" if delimiter is not None else f" (read with delimiter {plain(sep)}; see --delimiter)"
        )
        asked = {label_col: "--label", **{col: "--score" for col in score_cols}}
        _check_columns(path, header, asked, hint)
        frame = pd.read_csv(  # only the columns asked for are parsed
            path,
            dtype=str,
            keep_default_na=False,
            usecols=lambda c: str(c).strip() in asked,
            **options,
        )
    except (UnicodeDecodeError, pd.errors.EmptyDataError, pd.errors.ParserError, OSError) as err:
        raise _csv_error(path, err) from None
    _tidy_columns(frame, path)
    labels = frame[label_col].str.strip().to_numpy(dtype=str)
    empty = np.flatnonzero(labels == "")
    if empty.size and not allow_empty:
        raise CLIError(f"{path}, line {empty[0] + 2}: empty label in column {plain(label_col)}")
    return labels, {col: parse_scores(frame[col], sep, path, col) for col in score_cols}


def parse_scores(column, sep, path, score_col):
    """float64 scores of a column of strings (decimal commas with ``;``/tab delimiters)."""
    import pandas as pd

    raw = column.str.strip()
    scores = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
    if sep != "," and np.isnan(scores).any() and raw.str.contains(",", regex=False).any():
        # decimal commas, as spreadsheets write them with ';' or tab delimiters
        comma = pd.to_numeric(raw.str.replace(",", ".", regex=False), errors="coerce")
        if comma.notna().all():
            scores = comma.to_numpy(dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        i = int(bad[0])
        what = "is not finite" if _is_number(raw.iloc[i]) else "is not a number"
        raise CLIError(
            f"{path}, line {i + 2}: score {plain(raw.iloc[i])} in column {plain(score_col)} {what}"
        )
    return scores


def read_frame(path, *, delimiter=None):
    """``(frame, delimiter)``: every column of a CSV/TSV file as stripped strings.

    The reader of ``read_table`` (delimiter detection, byte-order mark, quoted fields);
    empty cells are empty strings.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise CLIError(f"cannot read {path}: no such file")
    try:
        sep = delimiter if delimiter is not None else sniff_delimiter(path)
        _check_columns(path, _raw_header(path, sep), {})  # every column is kept: none twice
        frame = pd.read_csv(
            path,
            sep=sep,
            encoding="utf-8-sig",
            skipinitialspace=True,
            dtype=str,
            keep_default_na=False,
        )
    except (UnicodeDecodeError, pd.errors.EmptyDataError, pd.errors.ParserError, OSError) as err:
        raise _csv_error(path, err) from None
    _tidy_columns(frame, path)
    return frame.apply(lambda c: c.str.strip()), sep


def read_header(path, *, delimiter=None):
    """The stripped column names of a CSV/TSV file as written, duplicates included (None
    for Parquet: not read here)."""
    if str(path).lower().endswith((".parquet", ".pq")):
        return None
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise CLIError(f"cannot read {path}: no such file")
    try:
        sep = delimiter if delimiter is not None else sniff_delimiter(path)
        return _raw_header(path, sep)
    except (UnicodeDecodeError, pd.errors.EmptyDataError, OSError) as err:
        raise _csv_error(path, err) from None


def read_column(path, column, option, *, delimiter=None):
    """One column of a CSV/TSV file as stripped strings (an empty cell is an error).

    ``option`` names the command-line option the column came from, for the messages.
    """
    if str(path).lower().endswith((".parquet", ".pq")):
        raise CLIError(f"{option} reads CSV/TSV files; convert the Parquet file first")
    import pandas as pd

    path = Path(path)
    header = read_header(path, delimiter=delimiter)
    _check_columns(path, header, {column: option})
    sep = delimiter if delimiter is not None else sniff_delimiter(path)
    try:
        frame = pd.read_csv(
            path,
            sep=sep,
            encoding="utf-8-sig",
            skipinitialspace=True,
            dtype=str,
            keep_default_na=False,
            usecols=lambda c: str(c).strip() == column,
        )
    except (UnicodeDecodeError, pd.errors.EmptyDataError, pd.errors.ParserError, OSError) as err:
        raise _csv_error(path, err) from None
    values = frame.iloc[:, 0].str.strip().to_numpy(dtype=str)
    blank = np.flatnonzero(values == "")
    if blank.size:
        lines = ", ".join(str(int(i) + 2) for i in blank[:5])
        more = f" and {blank.size - 5} more" if blank.size > 5 else ""
        raise CLIError(
            f"{path}: {blank.size} rows have an empty {plain(column)} (from {option}) on lines "
            f"{lines}{more}; every row needs one"
        )
    return values


def _csv_error(path, err):
    """The one-line :class:`CLIError` for an exception pandas raised reading ``path``."""
    import pandas as pd

    if isinstance(err, UnicodeDecodeError):
        return CLIError(f"cannot read {path}: not a UTF-8 text (CSV) file")
    if isinstance(err, pd.errors.EmptyDataError):
        return CLIError(f"{path}: the file is empty")
    if isinstance(err, pd.errors.ParserError):
        return CLIError(f"{path}: cannot parse the file ({err})")
    return CLIError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}")


def _tidy_columns(frame, path):
    """Strip the column names; a frame without rows is an error."""
    frame.columns = [str(c).strip() for c in frame.columns]
    if len(frame) == 0:
        raise CLIError(f"{path}: no data rows")


def _raw_header(path, sep):
    """The column names of the header line as written (stripped), duplicates kept.

    pandas renames a repeated name (``score``, ``score.1``), which would make the
    column read a silent first-one-wins; the csv module does not.
    """
    import pandas as pd

    if len(sep) != 1:  # a regular expression (pandas' reading): pandas' names, as read
        names = pd.read_csv(path, sep=sep, encoding="utf-8-sig", nrows=0, engine="python")
        return [str(c).strip() for c in names.columns]
    with open(path, newline="", encoding="utf-8-sig") as fh:
        row = next(csv.reader(fh, delimiter=sep), None)
    if row is None:
        raise pd.errors.EmptyDataError("no header")
    return [c.strip() for c in row]


def _check_columns(path, names, wanted, hint=""):
    """CLIError naming the option when a wanted column is missing or in the header twice.

    ``wanted`` maps each column to the option it came from (``{"prob": "--score"}``);
    with an empty ``wanted`` every column counts (the file is read whole).
    """
    names = [str(c) for c in names]
    for col, opt in wanted.items():
        if col not in names:
            shown = ", ".join(repr(c) for c in names)
            raise CLIError(
                f"{path}: no column {plain(col)} (from {opt}); columns are {shown}{hint}"
            )
    for col in wanted or names:
        where = [i + 1 for i, c in enumerate(names) if c == col]
        if len(where) > 1:
            opt = f" (from {wanted[col]})" if col in wanted else ""
            raise CLIError(
                f"{path}: the header has {len(where)} columns named {plain(col)}{opt} (columns "
                f"{', '.join(map(str, where))}); rename them so that the column read is not "
                "a guess"
            )


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_parquet(path, label_col, score_col):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CLIError("reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        names = pq.read_schema(path).names
        _check_columns(path, names, {label_col: "--label", score_col: "--score"})
        table = pq.read_table(path, columns=[label_col, score_col])  # only these two
    except OSError as err:
        raise CLIError(f"cannot read {path}: {err}") from None
    label_values = table.column(label_col).to_pylist()
    missing = [i for i, v in enumerate(label_values) if v is None]
    if missing:
        raise CLIError(f"{path}, row {missing[0] + 1}: empty label in column {plain(label_col)}")
    labels = np.asarray([str(v) for v in label_values])
    raw = table.column(score_col).to_pylist()
    scores = np.empty(len(raw))
    for i, v in enumerate(raw):
        try:
            scores[i] = float(v)
        except (TypeError, ValueError):
            raise CLIError(f"{path}, row {i + 1}: score {plain(v)} is not a number") from None
        if not math.isfinite(scores[i]):
            raise CLIError(f"{path}, row {i + 1}: score {plain(v)} is not finite")
    return labels, scores


def _as_number(text):
    """A label's numeric value (numbers, and true/false), or None."""
    low = text.strip().lower()
    if low in _BOOL_WORDS:
        return _BOOL_WORDS[low]
    try:
        return float(low)
    except ValueError:
        return None


def parse_labels(labels, pos_label):
    """0/1 labels from the label column's strings; the positive class is never guessed.

    Without ``pos_label`` the labels must be {0, 1}, {-1, 1} or {false, true} (numbers
    compared by value, so 1.0/0.0 work); any other pair needs ``--pos-label``. With it,
    labels that are numbers match it by value (``--pos-label 1`` matches ``1.0``).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.cli._io import parse_labels
    >>> parse_labels(np.array(["1.0", "0.0", "1.0"]), None).tolist()
    [1, 0, 1]
    >>> parse_labels(np.array(["yes", "no"]), "yes").tolist()
    [1, 0]
    """
    uniq, inverse = np.unique(labels, return_inverse=True)
    values = [_as_number(u) for u in uniq]
    numeric = all(v is not None for v in values)
    distinct = sorted(set(values)) if numeric else list(uniq)
    shown = ", ".join(repr(str(u)) for u in uniq[:10]) + (", ..." if uniq.size > 10 else "")
    if len(distinct) > 2:
        raise CLIError(
            f"the label column has {len(distinct)} distinct values ({shown}); a binary label "
            "is needed"
        )
    if pos_label is None:
        if not numeric or not set(distinct) <= {0.0, 1.0} and set(distinct) != {-1.0, 1.0}:
            raise CLIError(
                f"the labels are {{{shown}}}: the positive class is not 1 or true, so it is "
                "not guessed; pass --pos-label with one of them"
            )
        positive = np.array([v == 1.0 for v in values])
    else:
        target = _as_number(str(pos_label)) if numeric else None
        if numeric and target is not None:
            positive = np.array([v == target for v in values])
        else:
            positive = uniq == str(pos_label)
        if not positive.any():
            raise CLIError(f"--pos-label {plain(pos_label)} is not among the labels {{{shown}}}")
    if len(distinct) < 2:
        raise CLIError(f"the label column has a single class ({shown}); both classes are needed")
    return positive[inverse].astype(int)


def positive_as_written(labels, positive, pos_label):
    """``(positive, negative)``: the two classes' labels as the user wrote them.

    ``positive`` is :func:`parse_labels`' 0/1 result for the strings ``labels``. The
    positive label is ``--pos-label`` as typed when given, else the label in the file
    (the most frequent spelling when several match by value, as ``1`` and ``1.0``).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.cli._io import parse_labels, positive_as_written
    >>> labels = np.array(["yes", "no", "yes"])
    >>> positive_as_written(labels, parse_labels(labels, "yes"), "yes")
    ('yes', 'no')
    """
    labels = np.asarray(labels, dtype=str)
    positive = np.asarray(positive, dtype=bool)

    def commonest(values):
        uniq, counts = np.unique(values, return_counts=True)
        return str(uniq[int(np.argmax(counts))])

    pos = str(pos_label) if pos_label is not None else commonest(labels[positive])
    return pos, commonest(labels[~positive])
