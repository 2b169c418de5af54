"""The bundled examples: their descriptions, paths and loader (see :mod:`bayes_prc.datasets`)."""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
import io
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

__all__ = ["ExampleData", "example_path", "list_examples", "load_example"]

_EXAMPLES: dict[str, dict[str, str]] = {
    "breast_cancer": {
        "y_score": "y_score",
        "text": (
            "Wisconsin diagnostic breast cancer data (scikit-learn's load_breast_cancer, "
            "569 tumours, 30 features). A logistic regression on standardized features "
            "(L2, C=0.1) was trained on a stratified 15% of the tumours; the remaining "
            "held-out tumours are scored. Positive class = malignant (y_true=1; note that "
            "scikit-learn codes malignant as 0). y_score is the predicted probability of "
            "malignant and decision the corresponding logit (decision_function); item is "
            "the row in load_breast_cancer()."
        ),
    },
    "digits_nine": {
        "y_score": "score_a",
        "text": (
            "Handwritten 8x8 digits (scikit-learn's load_digits, 1797 images, 64 pixels); "
            "target 'is the digit a 9'. A stratified half of the images is held out and "
            "scored by two classifiers trained on the other half: A (score_a) is a strongly "
            "regularised logistic regression on standardized pixels (C=0.01), B (score_b) "
            "a small random forest (50 trees of depth 3). Both scores are the predicted "
            "probability of a 9 for the same items, so the two classifiers can be compared "
            "paired. y_score is score_a; item is the row in load_digits()."
        ),
    },
    "small_sample": {
        "y_score": "y_score",
        "text": (
            "A small-sample cut: 80 items drawn (stratified, fixed seed) from the held-out "
            "half of the digits_nine data, with classifier A's scores (strongly regularised "
            "logistic regression on standardized pixels, predicted probability of a 9). "
            "Positive class = the digit is a 9. Meant to show how uncertain a "
            "precision-recall curve is with only a handful of positives; item is the row "
            "in load_digits()."
        ),
    },
}

# keeps files extracted by importlib.resources.as_file alive (only needed for zipped installs)
_FILE_STACK = contextlib.ExitStack()
atexit.register(_FILE_STACK.close)


@dataclass(frozen=True, eq=False)
class ExampleData:
    """Labels and classifier scores of one bundled example.

    Attributes
    ----------
    name : str
        The example's name (see :func:`list_examples`).
    y_true : numpy.ndarray of int64, shape (n,)
        Binary labels, 1 for the positive class.
    y_score : numpy.ndarray of float64, shape (n,)
        The main score column (higher = more likely positive). For ``"digits_nine"`` it is
        ``scores["score_a"]``.
    scores : dict of str to numpy.ndarray of float64
        Every score column of the file by name, e.g. ``{"score_a": ..., "score_b": ...}``
        for ``"digits_nine"`` and ``{"y_score": ..., "decision": ...}`` for
        ``"breast_cancer"``.
    item : numpy.ndarray of int64, shape (n,)
        Row index of each item in the original scikit-learn data set.
    description : str
        One paragraph: source, classifier, positive class, n and prevalence.
    columns : tuple of str
        The CSV file's columns, in order.

    Examples
    --------
    >>> from bayes_prc.datasets import load_example
    >>> data = load_example("breast_cancer")
    >>> print(len(data), int(data.y_true.sum()))
    484 180
    >>> data.columns
    ('item', 'y_true', 'y_score', 'decision')
    """

    name: str
    y_true: np.ndarray
    y_score: np.ndarray
    scores: dict[str, np.ndarray] = field(repr=False)
    item: np.ndarray = field(repr=False)
    description: str = field(repr=False)
    columns: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.y_true.shape[0])

    @property
    def n_positive(self) -> int:
        """Number of positive items."""
        return int(self.y_true.sum())

    @property
    def prevalence(self) -> float:
        """Fraction of positive items."""
        return self.n_positive / len(self)

    def __repr__(self) -> str:
        return (
            f"ExampleData(name={self.name!r}, n={len(self)}, positives={self.n_positive}, "
            f"scores={list(self.scores)})"
        )


def list_examples() -> tuple[str, ...]:
    """Names of the bundled examples.

    Returns
    -------
    tuple of str
        ``("breast_cancer", "digits_nine", "small_sample")``.

    Examples
    --------
    >>> from bayes_prc.datasets import list_examples
    >>> list_examples()
    ('breast_cancer', 'digits_nine', 'small_sample')
    """
    return tuple(_EXAMPLES)


def _check_name(name: str) -> str:
    if not isinstance(name, str) or name not in _EXAMPLES:
        valid = ", ".join(repr(n) for n in _EXAMPLES)
        raise ValueError(f"unknown example name {name!r}; valid names are {valid}")
    return name


def _resource(name: str) -> Traversable:
    return importlib.resources.files(__package__).joinpath("data", f"{name}.csv")


def example_path(name: str) -> Path:
    """Path of an example's CSV file on disk.

    Parameters
    ----------
    name : str
        One of :func:`list_examples`.

    Returns
    -------
    pathlib.Path
        The CSV file: a header line, then one row per item (comma separated).

    Raises
    ------
    ValueError
        If `name` is not a bundled example.

    Examples
    --------
    >>> from bayes_prc.datasets import example_path
    >>> path = example_path("small_sample")
    >>> path.name
    'small_sample.csv'
    >>> path.read_text().splitlines()[0]
    'item,y_true,y_score'
    """
    resource = _resource(_check_name(name))
    if isinstance(resource, Path):
        return resource
    return Path(_FILE_STACK.enter_context(importlib.resources.as_file(resource)))


def load_example(name: str) -> ExampleData:
    """Load a bundled example: labels, classifier scores and a description.

    Parameters
    ----------
    name : str
        One of :func:`list_examples`: ``"breast_cancer"``, ``"digits_nine"`` or
        ``"small_sample"``.

    Returns
    -------
    ExampleData
        ``y_true`` (int64, 0/1), ``y_score`` (float64), ``scores`` (every score column by
        name), ``item`` (row in the original scikit-learn data set), ``description`` and
        ``columns``. ``len(data)`` is the number of items.

    Raises
    ------
    ValueError
        If `name` is not a bundled example.

    See Also
    --------
    example_path : the CSV file itself.

    Examples
    --------
    >>> from bayes_prc.datasets import load_example
    >>> data = load_example("small_sample")
    >>> print(len(data), int(data.y_true.sum()))
    80 8
    >>> data.y_score.dtype, data.y_true.dtype
    (dtype('float64'), dtype('int64'))
    """
    info = _EXAMPLES[_check_name(name)]
    text = _resource(name).read_text(encoding="ascii")
    header, _, body = text.partition("\n")
    columns = tuple(col.strip() for col in header.split(","))
    table = np.loadtxt(io.StringIO(body), delimiter=",", dtype=np.float64, ndmin=2)
    if table.shape[1] != len(columns):
        raise ValueError(f"{name}.csv: {table.shape[1]} values per row, header {columns}")
    raw = {col: table[:, j] for j, col in enumerate(columns)}

    item = raw["item"].astype(np.int64)
    y_true = raw["y_true"].astype(np.int64)
    if not np.array_equal(raw["y_true"], y_true) or not np.isin(y_true, (0, 1)).all():
        raise ValueError(f"{name}.csv: y_true is not 0/1")
    scores = {
        col: np.ascontiguousarray(v) for col, v in raw.items() if col not in ("item", "y_true")
    }

    n, pos = y_true.shape[0], int(y_true.sum())
    description = f"{info['text']} n = {n} items, {pos} positive (prevalence {pos / n:.3f})."
    return ExampleData(
        name=name,
        y_true=y_true,
        y_score=scores[info["y_score"]],
        scores=scores,
        item=item,
        description=description,
        columns=columns,
    )
