"""Tests of the bundled example data (bayes_prc.datasets) and of the script that builds it."""

from __future__ import annotations

import ast
import doctest
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import bayes_prc.datasets as datasets
from bayes_prc.datasets import ExampleData, example_path, list_examples, load_example

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "examples" / "make_example_data.py"

EXPECTED_SCORES = {
    "breast_cancer": ("y_score", "decision"),
    "digits_nine": ("score_a", "score_b"),
    "small_sample": ("y_score",),
}


@pytest.fixture(scope="module")
def script():
    """The data-building script, imported from examples/ by its path."""
    pytest.importorskip("sklearn")
    spec = importlib.util.spec_from_file_location("_make_example_data", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rebuilt(script):
    return script.build_all()


def test_list_examples():
    assert list_examples() == ("breast_cancer", "digits_nine", "small_sample")


@pytest.mark.parametrize("name", list_examples())
def test_example_loads(name):
    data = load_example(name)
    assert isinstance(data, ExampleData)
    assert data.name == name
    n = len(data)
    assert n > 0
    assert data.columns == ("item", "y_true", *EXPECTED_SCORES[name])
    assert tuple(data.scores) == EXPECTED_SCORES[name]

    assert data.y_true.dtype == np.int64 and data.y_true.shape == (n,)
    assert data.item.dtype == np.int64 and data.item.shape == (n,)
    assert set(np.unique(data.y_true)) == {0, 1}  # 0/1 and both classes present
    assert len(np.unique(data.item)) == n
    assert data.item.min() >= 0
    for col, values in data.scores.items():
        assert values.dtype == np.float64, col
        assert values.shape == (n,), col
        assert np.all(np.isfinite(values)), col
    assert data.y_score.dtype == np.float64 and data.y_score.shape == (n,)
    assert np.all(np.isfinite(data.y_score))

    source = "load_breast_cancer" if name == "breast_cancer" else "load_digits"
    assert source in data.description
    assert f"n = {n}" in data.description
    assert "prevalence" in data.description and "ositive" in data.description
    with pytest.raises(AttributeError):
        data.name = "other"  # frozen


def test_main_score_column():
    digits = load_example("digits_nine")
    np.testing.assert_array_equal(digits.y_score, digits.scores["score_a"])
    for name in ("breast_cancer", "small_sample"):
        data = load_example(name)
        np.testing.assert_array_equal(data.y_score, data.scores["y_score"])


def test_breast_cancer_probability_and_logit_agree():
    data = load_example("breast_cancer")
    assert np.all((data.y_score > 0) & (data.y_score < 1))
    expit = 1.0 / (1.0 + np.exp(-data.scores["decision"]))
    np.testing.assert_allclose(data.y_score, expit, rtol=1e-8)


def test_small_sample_size():
    data = load_example("small_sample")
    assert 60 <= len(data) <= 100
    assert data.y_true.sum() >= 6


def test_small_sample_is_a_cut_of_digits_nine():
    small, digits = load_example("small_sample"), load_example("digits_nine")
    pos = np.searchsorted(digits.item, small.item)
    np.testing.assert_array_equal(digits.item[pos], small.item)
    np.testing.assert_array_equal(digits.y_true[pos], small.y_true)
    np.testing.assert_array_equal(digits.scores["score_a"][pos], small.y_score)


def test_digits_nine_prevalence():
    data = load_example("digits_nine")
    assert 0.07 <= data.y_true.mean() <= 0.13
    assert 0.07 <= data.prevalence <= 0.13


def test_breast_cancer_positives_are_malignant():
    sk_datasets = pytest.importorskip("sklearn.datasets")
    bunch = sk_datasets.load_breast_cancer()
    data = load_example("breast_cancer")
    assert data.item.max() < len(bunch.target)
    assert list(bunch.target_names) == ["malignant", "benign"]
    malignant = bunch.target[data.item] == 0
    np.testing.assert_array_equal(data.y_true, malignant.astype(np.int64))


def test_digits_nine_positives_are_nines():
    sk_datasets = pytest.importorskip("sklearn.datasets")
    target = sk_datasets.load_digits().target
    for name in ("digits_nine", "small_sample"):
        data = load_example(name)
        np.testing.assert_array_equal(data.y_true, (target[data.item] == 9).astype(np.int64))


@pytest.mark.parametrize("name", list_examples())
def test_script_reproduces_bundled_data(name, rebuilt):
    data = load_example(name)
    columns = rebuilt[name]
    assert tuple(columns) == data.columns
    np.testing.assert_array_equal(columns["item"], data.item)
    np.testing.assert_array_equal(columns["y_true"], data.y_true)
    for col in EXPECTED_SCORES[name]:
        np.testing.assert_allclose(columns[col], data.scores[col], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", list_examples())
def test_script_csv_format(name, script):
    # the loader reads back exactly what the script writes
    text = example_path(name).read_text(encoding="ascii")
    data = load_example(name)
    columns = {"item": data.item, "y_true": data.y_true, **data.scores}
    assert script.format_csv(columns) == text


def test_digits_classifiers_are_imperfect():
    metrics = pytest.importorskip("sklearn.metrics")
    data = load_example("digits_nine")
    ap = [
        metrics.average_precision_score(data.y_true, data.scores[c])
        for c in EXPECTED_SCORES["digits_nine"]
    ]
    assert min(ap) < 0.99
    assert all(0.5 < a < 1 for a in ap)


def test_example_path():
    for name in list_examples():
        path = example_path(name)
        assert isinstance(path, Path)
        assert path.is_file()
        assert path.name == f"{name}.csv"
    total = sum(example_path(name).stat().st_size for name in list_examples())
    assert total < 300_000


@pytest.mark.parametrize("func", [load_example, example_path])
@pytest.mark.parametrize("bad", ["iris", "Breast_Cancer", "", None])
def test_unknown_name(func, bad):
    with pytest.raises(ValueError, match="unknown example") as info:
        func(bad)
    message = str(info.value)
    assert repr(bad) in message
    for name in list_examples():
        assert repr(name) in message


def test_loader_needs_only_numpy_and_stdlib():
    # static check, so that whatever bayes_prc/__init__.py imports does not interfere
    folder = Path(datasets.__file__).parent
    trees = [ast.parse(f.read_text(encoding="utf-8")) for f in sorted(folder.glob("*.py"))]
    imported = set()
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
    allowed = set(sys.stdlib_module_names) | {"__future__", "numpy"}
    assert imported <= allowed, imported - allowed


def test_docstring_examples():
    result = doctest.testmod(datasets, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
