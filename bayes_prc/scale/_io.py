"""Parquet input: label and score columns as lazily read dask arrays."""

from __future__ import annotations

import numpy as np

from .._core import check_bool
from ._blocks import _import_dask

__all__ = ["read_parquet"]


def read_parquet(path, *, label, score, lengths=True, **kwargs):
    """Label and score columns of Parquet data as dask arrays, read lazily.

    Parameters
    ----------
    path : str, path or list of them
        A Parquet file, a directory of Parquet files, a glob, or a remote URL (anything
        :func:`dask.dataframe.read_parquet` reads).
    label, score : str
        Names of the label and score columns.
    lengths : bool, default True
        Learn the number of rows of each partition (one pass over the label column), so
        that the arrays have known chunk sizes. ``False`` reads nothing now; bayes_prc's
        functions accept arrays of unknown chunk sizes too.
    **kwargs
        Passed to :func:`dask.dataframe.read_parquet` (e.g. ``split_row_groups``,
        ``blocksize``, ``filesystem``, ``storage_options``).

    Returns
    -------
    y_true, y_score : dask.array.Array of shape (n_samples,)
        One block per partition, in file order.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> import bayes_prc as bp
    >>> from bayes_prc.scale import read_parquet
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.parquet")
    >>> pd.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.8, 0.35, 0.4]}).to_parquet(path)
    >>> y, s = read_parquet(path, label="y", score="p")
    >>> y.shape, round(bp.average_precision_score(y, s), 4)
    ((4,), 0.8333)
    """
    check_bool(lengths, "lengths")
    frame = _read_frame(path, label, score, kwargs)
    y_col, s_col = frame[label], frame[score]
    if not isinstance(y_col.dtype, np.dtype):  # string, categorical, nullable: as objects
        y_col = y_col.astype(object)
    if not isinstance(s_col.dtype, np.dtype):  # nullable numbers: missing values become NaN
        s_col = s_col.astype(np.float64)
    lengths = True if lengths else None  # dask's spelling of "unknown" is None
    return y_col.to_dask_array(lengths=lengths), s_col.to_dask_array(lengths=lengths)


def _read_frame(path, label, score, kwargs):
    _import_dask()
    import dask.dataframe as dd

    frame = dd.read_parquet(path, **kwargs)
    names = [str(c) for c in frame.columns]
    for col, what in ((label, "label"), (score, "score")):
        if col not in names:
            raise ValueError(
                f"{path}: no {what} column {col!r}; columns are {', '.join(repr(c) for c in names)}"
            )
    if frame[score].dtype.kind not in "biuf":
        raise ValueError(
            f"{path}: the score column {score!r} must be numeric; got dtype {frame[score].dtype}"
        )
    return frame[[label, score]] if label != score else frame[[label]]
