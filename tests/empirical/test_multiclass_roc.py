"""Multiclass and multilabel ROC AUC against scikit-learn (the oracle) and a pair count.

Reference: ``sklearn.metrics.roc_auc_score`` (scikit-learn 1.9) on random data with tied
scores, sample weights, string labels and classes absent from ``y_true``; and, for
Hand & Till's one-vs-one AUC, a brute-force count over all (positive, negative) pairs
(Mann-Whitney), independent of both implementations.

Tolerance 1e-12 absolute: both sides integrate the same step counts (integers, or
weighted cumulative sums in the same order), so only the summation order of the
trapezoids and of the class averages may differ; with at most a few hundred terms of
size <= 1 the round-off stays below ~1e-14. NaN (a class absent, or alone) must be NaN
on both sides, with a warning on both sides.
"""

import re
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import bayes_prc as bp
from bayes_prc import UndefinedMetricWarning

ATOL = 1e-12
NAMES = np.array(["ant", "bee", "cat", "dog", "eel", "fox"])


def _multiclass_case(rng, *, ties, strings):
    k = int(rng.integers(3, 7))
    n = int(rng.integers(k, 60))
    y = rng.integers(0, k, n)
    if ties:  # few distinct values per column, so many tied scores
        raw = rng.integers(1, 4, (n, k)).astype(np.float64)
    else:
        raw = rng.gamma(1.0, size=(n, k))
    p = raw / raw.sum(axis=1, keepdims=True)
    labels = np.arange(k)
    if strings:
        y, labels = NAMES[y], NAMES[:k]
    return y, p, labels


def _both(ours, theirs):
    """Run both, return (ours, theirs, ours_warned, theirs_warned) on warnings of no data."""
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        a = ours()
    with warnings.catch_warnings(record=True) as theirs_w:
        warnings.simplefilter("always")
        b = theirs()
    ours_warned = any(issubclass(w.category, UndefinedMetricWarning) for w in ours_w)
    theirs_warned = any(issubclass(w.category, skm_warning()) for w in theirs_w)
    return a, b, ours_warned, theirs_warned


def skm_warning():
    from sklearn.exceptions import UndefinedMetricWarning as SkWarning

    return SkWarning


def _assert_same(a, b):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), atol=ATOL, rtol=0)


@pytest.mark.parametrize("rep", range(6))
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_ovr_matches_sklearn(rng, rep, average, ties, weighted):
    y, p, labels = _multiclass_case(rng, ties=ties, strings=rep % 2 == 1)
    w = rng.uniform(0, 2, y.shape[0]) if weighted else None
    if weighted:
        w[rng.integers(0, y.shape[0])] = 0.0  # zero weights are dropped by both
    # every third case passes `labels`, so classes may be absent from y_true (NaN, warned)
    lab = labels if rep % 3 == 0 else None
    if lab is None and np.unique(y).size != labels.size:
        y = np.concatenate([labels, y[labels.size :]])
    kw = dict(multi_class="ovr", average=average, sample_weight=w, labels=lab)
    a, b, wa, wb = _both(
        lambda: bp.roc_auc_score(y, p, **kw), lambda: skm.roc_auc_score(y, p, **kw)
    )
    _assert_same(a, b)
    assert wa == wb
    if average is None:
        assert isinstance(a, np.ndarray) and a.shape == (labels.size,)
    else:
        assert isinstance(a, float) or a == 0


@pytest.mark.parametrize("rep", range(6))
@pytest.mark.parametrize("average", ["macro", "weighted"])
@pytest.mark.parametrize("ties", [False, True])
def test_ovo_matches_sklearn(rng, rep, average, ties):
    y, p, labels = _multiclass_case(rng, ties=ties, strings=rep % 2 == 0)
    lab = labels if rep % 3 == 0 else None
    if lab is None and np.unique(y).size != labels.size:
        y = np.concatenate([labels, y[labels.size :]])
    elif lab is not None and np.unique(y).size < 2:
        y = np.concatenate([labels[:2], y[2:]])  # scikit-learn divides by zero otherwise
    kw = dict(multi_class="ovo", average=average, labels=lab)
    a, b, wa, wb = _both(
        lambda: bp.roc_auc_score(y, p, **kw), lambda: skm.roc_auc_score(y, p, **kw)
    )
    _assert_same(a, b)
    assert wa == wb


def _pair_auc(pos_scores, neg_scores):
    """P(positive outscores negative) + P(tie) / 2 over all pairs: the Mann-Whitney AUC."""
    d = pos_scores[:, None] - neg_scores[None, :]
    return (np.count_nonzero(d > 0) + 0.5 * np.count_nonzero(d == 0)) / d.size


@pytest.mark.parametrize("rep", range(10))
@pytest.mark.parametrize("ties", [False, True])
def test_ovo_is_hand_and_till_pair_count(rng, rep, ties):
    """Hand & Till's M: mean over class pairs of (A(i|j) + A(j|i)) / 2 by pair counting."""
    y, p, labels = _multiclass_case(rng, ties=ties, strings=False)
    y = np.concatenate([labels, y[labels.size :]])
    pairs, prevalence = [], []
    for i in range(labels.size):
        for j in range(i + 1, labels.size):
            a_ij = _pair_auc(p[y == i, i], p[y == j, i])
            a_ji = _pair_auc(p[y == j, j], p[y == i, j])
            pairs.append((a_ij + a_ji) / 2)
            prevalence.append(np.mean((y == i) | (y == j)))
    m = np.mean(pairs)
    assert abs(bp.roc_auc_score(y, p, multi_class="ovo") - m) < ATOL
    weighted = np.average(pairs, weights=prevalence)
    assert abs(bp.roc_auc_score(y, p, multi_class="ovo", average="weighted") - weighted) < ATOL


@pytest.mark.parametrize("rep", range(6))
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
@pytest.mark.parametrize("max_fpr", [None, 0.4])
def test_multilabel_matches_sklearn(rng, rep, average, max_fpr):
    n, k = int(rng.integers(3, 40)), int(rng.integers(2, 5))
    y = rng.integers(0, 2, (n, k))
    s = rng.integers(0, 4, (n, k)) + (rep % 2) * rng.normal(size=(n, k))
    w = rng.uniform(0, 2, n) if rep % 3 == 0 else None
    kw = dict(average=average, sample_weight=w, max_fpr=max_fpr)
    a, b, wa, wb = _both(
        lambda: bp.roc_auc_score(y, s, **kw), lambda: skm.roc_auc_score(y, s, **kw)
    )
    _assert_same(a, b)
    assert wa == wb


@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
def test_binary_y_true_with_class_columns(rng, multi_class):
    """Two classes present, three columns: the multiclass path, as in scikit-learn."""
    y = np.concatenate([[0, 2], rng.choice([0, 2], 30)])
    p = rng.dirichlet(np.ones(3), size=y.size)
    kw = dict(multi_class=multi_class, labels=[0, 1, 2])
    a, b, wa, wb = _both(
        lambda: bp.roc_auc_score(y, p, **kw), lambda: skm.roc_auc_score(y, p, **kw)
    )
    _assert_same(a, b)
    assert wa == wb


def test_ovo_single_class_warns_nan():
    """Only one class present: scikit-learn averages no pair (NaN with a RuntimeWarning,
    or ZeroDivisionError when weighted); we warn with our class and return NaN."""
    p = np.full((4, 3), 1 / 3)
    for average in ("macro", "weighted"):
        with pytest.warns(UndefinedMetricWarning, match="Only one class is present"):
            v = bp.roc_auc_score(
                [1, 1, 1, 1], p, multi_class="ovo", labels=[0, 1, 2], average=average
            )
        assert np.isnan(v)


Y3 = np.array([0, 1, 2, 0, 1, 2])
P3 = np.array(
    [
        [0.5, 0.3, 0.2],
        [0.2, 0.5, 0.3],
        [0.1, 0.2, 0.7],
        [0.6, 0.2, 0.2],
        [0.3, 0.4, 0.3],
        [0.2, 0.2, 0.6],
    ]
)


@pytest.mark.parametrize(
    ("y", "score", "kwargs"),
    [
        (Y3, P3, {}),  # multi_class="raise"
        (Y3, P3, {"multi_class": "ovr", "max_fpr": 0.5}),
        (Y3, P3[:, 0], {"multi_class": "ovr"}),
        (Y3, P3 * 2, {"multi_class": "ovo"}),
        (Y3, P3, {"multi_class": "ovo", "average": "samples"}),
        (Y3, P3, {"multi_class": "ovr", "average": "samples"}),
        (Y3, P3, {"multi_class": "ovo", "average": None}),
        (Y3, P3, {"multi_class": "ovo", "sample_weight": np.ones(6)}),
        (Y3, P3, {"multi_class": "ovr", "labels": [0, 2, 2]}),
        (Y3, P3, {"multi_class": "ovr", "labels": [2, 1, 0]}),
        (Y3, P3, {"multi_class": "ovr", "labels": [0, 1]}),
        (Y3, P3, {"multi_class": "ovo", "labels": [0, 1, 3]}),
        (np.array([0, 1, 1, 0, 1, 1]), P3, {"multi_class": "ovr"}),
    ],
)
def test_errors_are_sklearn_messages(y, score, kwargs):
    """Same exception type, and scikit-learn's whole message inside ours."""
    with pytest.raises((ValueError, NotImplementedError)) as theirs:
        skm.roc_auc_score(y, score, **kwargs)
    with pytest.raises(theirs.type, match=re.escape(str(theirs.value))):
        bp.roc_auc_score(y, score, **kwargs)


@pytest.mark.parametrize(
    ("call", "y", "score", "kwargs"),
    [
        ("average_precision_score", [0, 1, 1], [0.2, 0.4, 0.9], {"pos_label": 2}),
        ("average_precision_score", [[1, 0], [0, 1]], [[0.6, 0.4], [0.3, 0.7]], {"pos_label": 0}),
        ("average_precision_score", Y3, P3, {"pos_label": 2}),
        ("average_precision_score", Y3, P3[:, 0], {}),
        ("precision_recall_curve", ["a", "b", "a"], [0.2, 0.4, 0.9], {}),
        ("roc_curve", np.array(["a", "b"], dtype=object), [0.2, 0.4], {}),
        ("roc_curve", [0, 1, 2, 1], [0.2, 0.4, 0.9, 0.1], {}),
        ("precision_recall_curve", [b"a", b"b"], [0.2, 0.4], {}),
    ],
)
def test_label_errors_are_sklearn_messages(call, y, score, kwargs):
    with pytest.raises((ValueError, TypeError)) as theirs:
        getattr(skm, call)(y, score, **kwargs)
    with pytest.raises(theirs.type, match=re.escape(str(theirs.value).rstrip("."))):
        getattr(bp, call)(y, score, **kwargs)


def test_bytes_labels_work_with_explicit_pos_label(rng):
    """scikit-learn refuses bytes labels; with ``pos_label`` we keep accepting them."""
    y = rng.integers(0, 2, 30)
    y[:2] = [0, 1]
    s = rng.normal(size=30)
    by = np.array([b"no", b"yes"])[y]
    _assert_same(
        bp.average_precision_score(by, s, pos_label=b"yes"), skm.average_precision_score(y, s)
    )
    for ours, theirs in zip(
        bp.roc_curve(by, s, pos_label=b"yes"), skm.roc_curve(y, s), strict=True
    ):
        np.testing.assert_array_equal(ours, theirs)


def test_roc_curve_one_class_warns_like_sklearn():
    for y, which in (([1, 1, 1], "negative"), ([0, 0, 0], "positive")):
        with pytest.warns(UndefinedMetricWarning, match=f"No {which} samples in y_true"):
            fpr, tpr, _ = bp.roc_curve(y, [0.1, 0.5, 0.9])
        assert np.isnan(fpr if which == "negative" else tpr).all()
