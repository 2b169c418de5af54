"""The prepared input `Ranked` / `as_ranked` and the public faces of `bayes_prc._dispatch`.

Oracle: the same public function on the raw arrays; a `Ranked` must give identical
results (same arrays bit for bit, same floats), since both run the same code on the same
validated data. Validation is counted by patching the single validation entry point.
"""

import inspect
import subprocess
import sys
import warnings

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc import UndefinedMetricWarning, empirical
from bayes_prc.empirical import Ranked, as_ranked


@pytest.fixture(params=["plain", "weighted_str_labels", "ties"])
def case(request):
    rng = np.random.default_rng(7)
    n = 120
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    kwargs = {}
    if request.param == "weighted_str_labels":
        y = np.where(y == 1, "spam", "ham")
        w = rng.uniform(0, 2, n)
        w[:5] = 0.0
        kwargs = {"pos_label": "spam", "sample_weight": w}
    elif request.param == "ties":
        s = np.round(s)
    return y, s, kwargs


def _same(a, b):
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, z in zip(a, b, strict=True):
            _same(x, z)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b or (a != a and b != b), (a, b)


CURVES = {  # test id -> (function name, options)
    "precision_recall_curve": ("precision_recall_curve", {}),
    "precision_recall_curve_drop": ("precision_recall_curve", {"drop_intermediate": True}),
    "roc_curve": ("roc_curve", {}),
    "average_precision_score": ("average_precision_score", {}),
    "precision_at_k": ("precision_at_k", {"k": 17}),
    "max_fbeta": ("max_fbeta", {"beta": 2.0}),
    "recall_at_precision": ("recall_at_precision", {"min_precision": 0.7}),
    "precision_at_recall": ("precision_at_recall", {"min_recall": 0.6}),
    **{f"auc_pr_{e}": ("auc_pr", {"estimator": e}) for e in bp.AUC_PR_ESTIMATORS},
}


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("module", [bp, empirical], ids=["top_level", "empirical"])
def test_ranked_gives_the_same_result_as_raw_arrays(case, name, module):
    y, s, kwargs = case
    func_name, options = CURVES[name]
    func = getattr(module, func_name)
    r = as_ranked(y, s, **kwargs)
    raw_kwargs = dict(kwargs)
    if func_name == "average_precision_score":  # its pos_label defaults to 1, not None
        raw_kwargs.setdefault("pos_label", 1)
    _same(func(r, None, **options), func(y, s, **raw_kwargs, **options))
    _same(func(r, None, **options), func(r, None, **options))  # cached counts unchanged


def test_roc_auc_score_and_chance_baseline_accept_ranked(case):
    y, s, kwargs = case
    r = as_ranked(y, s, **kwargs)
    w = kwargs.get("sample_weight")
    if "pos_label" not in kwargs:  # roc_auc_score takes the larger label as positive
        assert bp.roc_auc_score(r, None) == bp.roc_auc_score(y, s)
        assert bp.roc_auc_score(r, None, max_fpr=0.3) == bp.roc_auc_score(y, s, max_fpr=0.3)
    assert bp.chance_baseline(r) == bp.chance_baseline(y, **kwargs)
    if w is not None:
        assert bp.chance_baseline(r) == pytest.approx(np.sum(w[y == "spam"]) / np.sum(w))


def test_roc_auc_score_of_a_one_class_ranked_warns_nan():
    r = as_ranked([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(bp.roc_auc_score(r, None))


def test_as_ranked_returns_a_ranked_unchanged():
    r = as_ranked([0, 1, 1], [0.2, 0.9, 0.4])
    assert isinstance(r, Ranked) and as_ranked(r) is r and as_ranked(r, None) is r
    _same(r.counts, Ranked.from_arrays([0, 1, 1], [0.2, 0.9, 0.4]).counts)
    assert (r.n_pos, r.n_neg, r.n_samples, r.pos_label) == (2, 1, 3, 1)
    assert r.counts is r.counts and r.order is r.order  # computed once
    assert r.order.tolist() == [1, 2, 0]


def test_as_ranked_with_a_ranked_and_arrays_names_both():
    r = as_ranked([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match=r"`Ranked`.*y_score=list") as err:
        as_ranked(r, [0.2, 0.8])
    assert "y_true" in str(err.value)
    with pytest.raises(ValueError, match=r"`Ranked`.*sample_weight=ndarray"):
        as_ranked(r, sample_weight=np.ones(2))
    with pytest.raises(ValueError, match=r"`Ranked`.*y_score=list"):
        bp.precision_recall_curve(r, [0.2, 0.8])
    with pytest.raises(ValueError, match=r"`Ranked`.*sample_weight"):
        bp.chance_baseline(r, sample_weight=[1.0, 1.0])
    with pytest.raises(ValueError, match="`y_score` is required"):
        as_ranked([0, 1])


def test_as_ranked_errors_name_the_parameter():
    with pytest.raises(ValueError, match="`y_score` contains NaN"):
        as_ranked([0, 1], [0.2, np.nan])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        as_ranked([0, 1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="`sample_weight` is zero for every sample"):
        as_ranked([0, 1], [0.2, 0.3], sample_weight=[0, 0])


def test_public_functions_validate_once(monkeypatch):
    from bayes_prc.empirical import _ranked

    calls = []
    real = _ranked.validate_binary_inputs

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_ranked, "validate_binary_inputs", counting)
    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    for func in (bp.precision_recall_curve, bp.roc_curve, bp.average_precision_score):
        calls.clear()
        func(y, s)
        assert len(calls) == 1, func.__name__
    for estimator in bp.AUC_PR_ESTIMATORS:
        calls.clear()
        bp.auc_pr(y, s, estimator=estimator)
        assert len(calls) == 1, estimator
    calls.clear()
    bp.max_fbeta(y, s)
    bp.precision_at_k(y, s, 2)
    bp.roc_auc_score(y, s)
    assert len(calls) == 3
    r = as_ranked(y, s)
    calls.clear()
    bp.precision_recall_curve(r, None)
    bp.auc_pr(r, None, estimator="davis_goadrich")
    bp.recall_at_precision(r, None, 0.5)
    assert calls == []


def test_counts_are_not_modified_by_the_functions():
    r = as_ranked([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.4, 0.7])
    before = [a.copy() for a in r.counts]
    bp.precision_recall_curve(r, None, drop_intermediate=True)
    bp.precision_recall_curve(r, None)
    bp.roc_curve(r, None)
    bp.roc_auc_score(r, None, max_fpr=0.5)
    for e in bp.AUC_PR_ESTIMATORS:
        bp.auc_pr(r, None, estimator=e)
    bp.max_fbeta(r, None)
    bp.precision_at_k(r, None, 3)
    for a, b in zip(before, r.counts, strict=True):
        np.testing.assert_array_equal(a, b)


def test_multilabel_average_precision_keeps_its_path():
    y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    s = np.array([[0.9, 0.2, 0.6], [0.3, 0.8, 0.1], [0.7, 0.4, 0.3], [0.2, 0.1, 0.9]])
    per_class = bp.average_precision_score(y, s, average=None)
    expected = [bp.average_precision_score(y[:, c], s[:, c]) for c in range(3)]
    np.testing.assert_array_equal(per_class, expected)
    assert bp.average_precision_score(y, s) == pytest.approx(np.mean(expected), abs=1e-15)


# ------------------------------------------------------------------------ public faces
@pytest.mark.parametrize("name", ["precision_recall_curve", "average_precision_score", "auc_pr"])
def test_faces_carry_the_core_name_signature_and_docstring(name):
    face, core = getattr(bp, name), getattr(empirical, name)
    assert face is not core and face.__wrapped__ is core
    assert face.__name__ == core.__name__ == name
    assert face.__doc__ == core.__doc__
    assert inspect.signature(face) == inspect.signature(core)


def test_other_top_level_names_are_the_empirical_functions():
    for name in ("roc_curve", "roc_auc_score", "max_fbeta", "chance_baseline", "FBetaResult"):
        assert getattr(bp, name) is getattr(empirical, name)


def test_fit_binormal_face_wraps_the_bayes_core():
    from bayes_prc import _dispatch, bayes

    face = bp.fit_binormal
    assert face.__wrapped__ is bayes.fit_binormal and face is _dispatch.fit_binormal
    assert inspect.signature(face) == inspect.signature(bayes.fit_binormal)
    assert face.__doc__ == bayes.fit_binormal.__doc__
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _dispatch.nope  # noqa: B018


def test_faces_check_the_estimator_and_pass_errors_through():
    with pytest.raises(ValueError, match="`estimator` must be one of"):
        bp.auc_pr([0, 1], [0.1, 0.9], estimator="nope")
    with pytest.raises(ValueError, match="`drop_intermediate` must be True or False"):
        bp.precision_recall_curve([0, 1], [0.1, 0.9], drop_intermediate=1)
    with pytest.raises(ValueError, match="`average` must be one of"):
        bp.average_precision_score([0, 1], [0.1, 0.9], average="mean")
    with pytest.raises(TypeError):
        bp.precision_recall_curve([0, 1], [0.1, 0.9], 1)  # keyword-only options


def test_warnings_point_at_the_caller():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        bp.precision_recall_curve([0, 0], [0.1, 0.2])
        bp.average_precision_score([0, 0], [0.1, 0.2])
        bp.auc_pr([0, 0], [0.1, 0.2], estimator="trapezoid")
        empirical.roc_curve([0, 0], [0.1, 0.2])
        bp.roc_auc_score([1, 1], [0.1, 0.2])
        bp.recall_at_precision([0, 1], [0.9, 0.1], 0.9)
    assert len(rec) == 6
    assert {w.filename for w in rec} == {__file__}
    assert {w.category for w in rec} == {UndefinedMetricWarning}


def test_import_is_light():
    heavy = ("pandas", "matplotlib", "pymc", "arviz", "xarray", "scipy", "dask", "pytensor")
    code = (
        "import sys, bayes_prc as bp\n"
        "bp.average_precision_score([0, 1], [0.2, 0.8])\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {heavy!r}]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
