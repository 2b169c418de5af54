"""Build the example data sets bundled with :mod:`bayes_prc.datasets`.

Every file holds real classifier scores computed from a data set that ships with
scikit-learn, so nothing is downloaded. All random states are fixed, so running

    .venv/bin/python examples/make_example_data.py

rewrites ``bayes_prc/datasets/data/*.csv`` byte for byte (on the same platform and library
versions; across BLAS builds the trailing digits of the scores may differ by rounding).

The building code is importable: ``build_breast_cancer()``, ``build_digits_nine()`` and
``build_small_sample()`` each return a ``dict`` mapping column name to a numpy array, in
file column order. ``tests/foundation/test_datasets.py`` reruns them and compares with the bundled
files.

Files written (see ``docs/datasets.md``):

``breast_cancer.csv``
    Wisconsin breast cancer data; a standardized, L2-regularised logistic regression is
    trained on a stratified 15% of the items and scores the other 85%. Positive class =
    malignant. Columns ``item, y_true, y_score, decision``.
``digits_nine.csv``
    8x8 digits; target "is it a 9". Half the items (stratified) are held out and scored by
    two classifiers trained on the other half: A = heavily regularised logistic regression
    on standardized pixels, B = a small random forest. Columns
    ``item, y_true, score_a, score_b``.
``small_sample.csv``
    A stratified cut of 80 items of the digits test set with classifier A's scores.
    Columns ``item, y_true, y_score``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

RANDOM_STATE = 0
FLOAT_FORMAT = "%.10g"
DATA_DIR = Path(__file__).resolve().parents[1] / "bayes_prc" / "datasets" / "data"

# breast_cancer: fraction of items used for training (the rest is scored)
BREAST_CANCER_TRAIN_FRACTION = 0.15
BREAST_CANCER_C = 0.1
# digits_nine: fraction held out and scored; classifier settings
DIGITS_TEST_FRACTION = 0.5
DIGITS_POSITIVE_DIGIT = 9
DIGITS_A_C = 0.01
DIGITS_B_N_ESTIMATORS = 50
DIGITS_B_MAX_DEPTH = 3
# small_sample: number of items cut from the digits test set
SMALL_SAMPLE_SIZE = 80


def build_breast_cancer() -> dict[str, np.ndarray]:
    """Scores of a logistic regression on the breast cancer data (positive = malignant).

    Returns
    -------
    dict of str to numpy.ndarray
        ``item`` (row in ``load_breast_cancer()``), ``y_true`` (1 = malignant),
        ``y_score`` (predicted probability of malignant) and ``decision`` (the logit),
        sorted by ``item``.
    """
    X, target = load_breast_cancer(return_X_y=True)
    # sklearn codes 0 = malignant, 1 = benign; the positive class here is malignant
    y = (target == 0).astype(np.int64)
    items = np.arange(len(y), dtype=np.int64)
    train, test = train_test_split(
        items,
        train_size=BREAST_CANCER_TRAIN_FRACTION,
        stratify=y,
        random_state=RANDOM_STATE,
    )
    test = np.sort(test)
    model = Pipeline(
        [
            ("scale", StandardScaler()),
            ("logreg", LogisticRegression(C=BREAST_CANCER_C, max_iter=1000)),
        ]
    )
    model.fit(X[train], y[train])
    return {
        "item": test,
        "y_true": y[test],
        "y_score": model.predict_proba(X[test])[:, 1],
        "decision": model.decision_function(X[test]),
    }


def build_digits_nine() -> dict[str, np.ndarray]:
    """Scores of two classifiers for "is it a 9" on the same held-out digits.

    Returns
    -------
    dict of str to numpy.ndarray
        ``item`` (row in ``load_digits()``), ``y_true`` (1 = the digit is a 9),
        ``score_a`` (logistic regression, probability of 9) and ``score_b`` (random
        forest, probability of 9), sorted by ``item``.
    """
    X, target = load_digits(return_X_y=True)
    y = (target == DIGITS_POSITIVE_DIGIT).astype(np.int64)
    items = np.arange(len(y), dtype=np.int64)
    train, test = train_test_split(
        items,
        test_size=DIGITS_TEST_FRACTION,
        stratify=y,
        random_state=RANDOM_STATE,
    )
    test = np.sort(test)
    model_a = Pipeline(
        [
            ("scale", StandardScaler()),
            ("logreg", LogisticRegression(C=DIGITS_A_C, max_iter=1000)),
        ]
    )
    model_b = RandomForestClassifier(
        n_estimators=DIGITS_B_N_ESTIMATORS,
        max_depth=DIGITS_B_MAX_DEPTH,
        random_state=RANDOM_STATE,
    )
    model_a.fit(X[train], y[train])
    model_b.fit(X[train], y[train])
    return {
        "item": test,
        "y_true": y[test],
        "score_a": model_a.predict_proba(X[test])[:, 1],
        "score_b": model_b.predict_proba(X[test])[:, 1],
    }


def build_small_sample(digits: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """A stratified cut of 80 items of the digits test set, with classifier A's scores.

    Parameters
    ----------
    digits : dict, optional
        The output of :func:`build_digits_nine` (rebuilt when not given).

    Returns
    -------
    dict of str to numpy.ndarray
        ``item`` (row in ``load_digits()``), ``y_true`` and ``y_score`` (= ``score_a``),
        sorted by ``item``.
    """
    if digits is None:
        digits = build_digits_nine()
    positions = np.arange(len(digits["item"]))
    chosen, _ = train_test_split(
        positions,
        train_size=SMALL_SAMPLE_SIZE,
        stratify=digits["y_true"],
        random_state=RANDOM_STATE,
    )
    chosen = np.sort(chosen)
    return {
        "item": digits["item"][chosen],
        "y_true": digits["y_true"][chosen],
        "y_score": digits["score_a"][chosen],
    }


def build_all() -> dict[str, dict[str, np.ndarray]]:
    """All example data sets, by name (the CSV file stem)."""
    digits = build_digits_nine()
    return {
        "breast_cancer": build_breast_cancer(),
        "digits_nine": digits,
        "small_sample": build_small_sample(digits),
    }


def format_csv(columns: dict[str, np.ndarray]) -> str:
    """CSV text: a header line, integer columns as integers, floats as ``%.10g``."""
    names = list(columns)
    arrays = [np.asarray(columns[name]) for name in names]
    formats = ["%d" if np.issubdtype(a.dtype, np.integer) else FLOAT_FORMAT for a in arrays]
    lines = [",".join(names)]
    for row in zip(*arrays, strict=True):
        lines.append(",".join(fmt % value for fmt, value in zip(formats, row, strict=True)))
    return "\n".join(lines) + "\n"


def write_csv(path: Path, columns: dict[str, np.ndarray]) -> None:
    """Write ``columns`` to ``path`` with ``\\n`` line endings on every platform."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="ascii", newline="") as fh:
        fh.write(format_csv(columns))


def summarize(name: str, columns: dict[str, np.ndarray]) -> str:
    """One line per score column: n, positives, prevalence, sklearn's average precision."""
    y = columns["y_true"]
    n, pos = len(y), int(y.sum())
    parts = [f"{name}: n={n} positives={pos} prevalence={pos / n:.4f}"]
    for col, values in columns.items():
        if col in ("item", "y_true", "decision"):
            continue
        parts.append(f"AP({col})={average_precision_score(y, values):.4f}")
    return "  ".join(parts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=DATA_DIR,
        help=f"directory for the CSV files (default: {DATA_DIR})",
    )
    args = parser.parse_args(argv)
    total = 0
    data = build_all()
    for name, columns in data.items():
        path = args.out_dir / f"{name}.csv"
        write_csv(path, columns)
        size = path.stat().st_size
        total += size
        print(f"{summarize(name, columns)}  -> {path} ({size} bytes)")
    print(f"total {total} bytes")
    digits = data["digits_nine"]
    ap = [average_precision_score(digits["y_true"], digits[c]) for c in ("score_a", "score_b")]
    if min(ap) > 0.99:
        raise SystemExit("digits_nine: both classifiers have AP > 0.99; weaken them")


if __name__ == "__main__":
    main()
