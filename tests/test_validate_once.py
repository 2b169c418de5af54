"""Each public call validates the user's data once and passes the prepared object down.

The count is taken on the code object of the label check every validation path runs
(`bayes_prc._core.validation.check_binary_target`), with `sys.monitoring`, so it sees calls
however the function was imported.
"""

from __future__ import annotations

import sys
import warnings
from contextlib import contextmanager
from functools import partial

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc._core import validation as _validation
from bayes_prc._report import build_report

TOOL = sys.monitoring.PROFILER_ID


@contextmanager
def count_calls(func):
    code = func.__code__
    calls = []

    def on_start(c, offset):
        if c is code:
            calls.append(1)

    sys.monitoring.use_tool_id(TOOL, "bayes_prc-validate-once")
    try:
        sys.monitoring.register_callback(TOOL, sys.monitoring.events.PY_START, on_start)
        sys.monitoring.set_local_events(TOOL, code, sys.monitoring.events.PY_START)
        yield calls
    finally:
        sys.monitoring.set_local_events(TOOL, code, 0)
        sys.monitoring.register_callback(TOOL, sys.monitoring.events.PY_START, None)
        sys.monitoring.free_tool_id(TOOL)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    y = rng.random(120) < 0.3
    y[:4] = [True, True, False, False]
    s = rng.normal(size=120) + 1.2 * y
    return y.astype(int), s


def test_counter_counts(data):
    y, s = data
    with count_calls(_validation.check_binary_target) as calls:
        _validation.check_binary_target(y)
        _validation.check_binary_target(y)
    assert len(calls) == 2


def _roc_auc_interval(y, s, method):
    return bp.roc_auc_interval(y, s, method=method, n_resamples=30, random_seed=1)


CALLS = {
    "precision_recall_curve": lambda y, s: bp.precision_recall_curve(y, s),
    "average_precision_score": lambda y, s: bp.average_precision_score(y, s),
    "auc_pr": lambda y, s: bp.auc_pr(y, s, estimator="lower_trapezoid"),
    "roc_curve": lambda y, s: bp.roc_curve(y, s),
    "max_fbeta": lambda y, s: bp.max_fbeta(y, s),
    "ap_interval_bca": lambda y, s: bp.ap_interval(
        y, s, method="bca", n_resamples=50, random_seed=0
    ),
    "ap_interval_logit": lambda y, s: bp.ap_interval(y, s, method="logit"),
    "precision_interval": lambda y, s: bp.precision_interval(y, s, threshold=0.5),
    "recall_interval": lambda y, s: bp.recall_interval(y, s, threshold=0.5, random_seed=0),
    "bootstrap_pr_band": lambda y, s: bp.bootstrap_pr_band(y, s, n_resamples=50, random_seed=0),
    "fit_binormal": lambda y, s: bp.fit_binormal(y, s, draws=100, chains=2, random_seed=0),
    "compare_intervals": lambda y, s: bp.compare_intervals(y, s, n_resamples=50, random_seed=0),
    "compare_operating_point": lambda y, s: bp.compare_operating_point(
        y, s, n_resamples=50, random_seed=0
    ),
    "compare_classifiers": lambda y, s: bp.compare_classifiers(y, s, s + np.sin(s), random_seed=0),
    "compare_classifiers_bayes": lambda y, s: bp.compare_classifiers(
        y, s, s + np.sin(s), method="bayes", random_seed=0
    ),
    "compare_classifiers_jackknife_groups": lambda y, s: bp.compare_classifiers(
        y, s, s + np.sin(s), method="jackknife", groups=np.arange(y.size) // 2
    ),
    "compare_classifiers_bootstrap": lambda y, s: bp.compare_classifiers(
        y, s, s + np.sin(s), method="bootstrap", n_resamples=50, random_seed=0
    ),
    **{
        f"roc_auc_interval_{m}": partial(_roc_auc_interval, method=m)
        for m in ("delong", "delong_logit", "hanley_mcneil", "bootstrap", "bca")
    },
    "compare_intervals_roc_auc": lambda y, s: bp.compare_intervals(
        y, s, metric="roc_auc", n_resamples=50, random_seed=0
    ),
    "compare_classifiers_delong": lambda y, s: bp.compare_classifiers(
        y, s, s + np.sin(s), metric="roc_auc", random_seed=0
    ),
    "compare_classifiers_permutation_auc": lambda y, s: bp.compare_classifiers(
        y,
        s,
        s + np.sin(s),
        metric="roc_auc",
        method="permutation",
        n_resamples=20,
        random_seed=0,
    ),
    "compare_classifiers_permutation_ap": lambda y, s: bp.compare_classifiers(
        y, s, s + np.sin(s), method="permutation", n_resamples=20, random_seed=0
    ),
    "mcnemar_test": lambda y, s: bp.mcnemar_test(y, s, s + np.sin(s), 0.5),
    "operating_point_interval": lambda y, s: bp.operating_point_interval(y, s, 0.5, metric="f1"),
    "precision_at_k_interval": lambda y, s: bp.precision_at_k_interval(y, s, 10),
    "pr_joint_region": lambda y, s: bp.pr_joint_region(y, s, 0.5),
    # the whole report: tables, fits, posterior predictive curves and figures
    "build_report": lambda y, s: build_report(y, s, n_resamples=50, random_seed=0),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_public_call_validates_once(name, data):
    y, s = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with count_calls(_validation.check_binary_target) as calls:
            CALLS[name](y, s)
    assert len(calls) == 1, f"{name} validated y_true {len(calls)} times"


# ------------------------------------------------------------------ the pool workflow
@pytest.fixture(scope="module")
def pool():
    rng = np.random.default_rng(11)
    y = rng.random(20_000) < 0.03
    s = rng.normal(size=y.size) + 2.0 * y
    sel = bp.select_labels(s, 300, random_seed=1)
    return s, sel, y[sel.indices]


def test_pool_report_validates_the_pool_once(pool):
    """compute_pool_report prepares the selection once: fit_pool, the design interval and
    plan_labels' pilot reuse it (the pool's scores are checked once, not per call; each of
    plan_labels' simulated selections is a new selection, checked once itself)."""
    from bayes_prc._report._pool import compute_pool_report

    s, sel, labels = pool
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with count_calls(_validation.check_pool_scores) as calls:
            compute_pool_report(s, sel, labels, random_seed=0, plan=False, n_resamples=50)
    assert len(calls) == 1


def test_prepared_selection_gives_the_same_results(pool):
    s, sel, labels = pool
    prepared = bp.pool.prepare_selection(s, sel, labels)
    assert bp.pool.prepare_selection(s, prepared, labels) is prepared
    assert bp.pool.prepare_selection(None, prepared) is prepared
    kw = {"n_replicates": 1, "draws": 50, "random_seed": 5}
    plan_a = bp.pool.plan_labels(None, [600], pilot=(prepared, None), **kw)
    plan_b = bp.pool.plan_labels(s, [600], pilot=(sel, labels), **kw)
    assert plan_a.equals(plan_b)
    with count_calls(_validation.check_pool_scores) as calls:
        a = bp.pool.design_ap_interval(None, prepared, random_seed=3, n_resamples=200)
        fa = bp.pool.fit_pool(None, prepared, draws=200, chains=1, random_seed=4)
        ta = bp.pool.design_threshold_interval(None, prepared, None, 1.5, method="linearization")
    assert len(calls) == 0  # nothing validated again
    b = bp.pool.design_ap_interval(s, sel, labels, random_seed=3, n_resamples=200)
    fb = bp.pool.fit_pool(s, sel, labels, draws=200, chains=1, random_seed=4)
    tb = bp.pool.design_threshold_interval(s, sel, labels, 1.5, method="linearization")
    assert (a.estimate, a.low, a.high) == (b.estimate, b.low, b.high)
    assert (ta.estimate, ta.low, ta.high) == (tb.estimate, tb.low, tb.high)
    np.testing.assert_array_equal(fa.average_precision().values, fb.average_precision().values)


def test_prepared_selection_rejects_other_scores_or_labels(pool):
    s, sel, labels = pool
    prepared = bp.pool.prepare_selection(s, sel, labels)
    with pytest.raises(ValueError, match="`y_score` must be None or the pool scores"):
        bp.pool.fit_pool(s + 1.0, prepared)
    with pytest.raises(ValueError, match="`y_labels` must be None or the labels"):
        bp.pool.design_ap_interval(None, prepared, ~labels)
    with pytest.raises(ValueError, match="`y_labels` is required"):
        bp.pool.design_ap_interval(s, sel)


def test_compare_intervals_computes_the_empirical_ap_once(data):
    """The empirical AP is computed once per call (kept in the prepared data's memo) and
    shared by the table's attrs and every frequentist row."""
    from bayes_prc.empirical import _ap

    y, s = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with count_calls(_ap._compute_average_precision) as calls:
            table = bp.compare_intervals(y, s, n_resamples=50, random_seed=0)
    assert len(calls) == 1
    assert table.attrs["empirical_estimate"] == pytest.approx(
        bp.average_precision_score(y, s), abs=1e-15
    )


def test_report_builds_the_ordinal_categories_once(data):
    """The rank-based models of a report share one set of ordered categories."""
    from bayes_prc.bayes import _ordinal

    y, s = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with count_calls(_ordinal.ordinal_categories) as calls:
            build_report(y, s, n_resamples=50, random_seed=0)
    assert len(calls) == 1
