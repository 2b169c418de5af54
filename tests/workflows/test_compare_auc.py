"""The ROC AUC comparison table: ``compare_intervals(..., metric="roc_auc")``.

Every row must be the number of the function it names: the frequentist rows equal
:func:`roc_auc_interval` called with the same seed stream (exactly: same code, same
draws), the Bayesian rows equal the posterior's own ``interval("roc_auc")`` and the
mean or median of its draws (exactly), and the estimate equals scikit-learn's
``roc_auc_score`` (an independent implementation; 1e-12, float rounding only).
"""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import bayes_prc as bp
from bayes_prc.compare import AUC_COMPARISON_METHODS, DEFAULT_AUC_METHODS


@pytest.fixture(scope="module")
def data():
    y, s = bp.Binormal(1.2, 1.0, 0.0, 1.0, 0.25).sample(160, random_seed=11)
    return y, s


@pytest.fixture(scope="module")
def posterior(data):
    y, s = data
    return bp.fit_binormal(y, s, model="semiparametric", random_seed=0)


@pytest.fixture(scope="module")
def table(data, posterior):
    y, s = data
    return bp.compare_intervals(
        y, s, metric="roc_auc", posterior=posterior, random_seed=5, n_resamples=300
    )


def test_rows_and_columns(table):
    assert list(table.index) == list(DEFAULT_AUC_METHODS)
    assert set(DEFAULT_AUC_METHODS) < set(AUC_COMPARISON_METHODS)
    cols = ["label", "family", "estimate", "low", "high", "width", "estimator", "interval"]
    assert list(table.columns) == cols + ["note"]  # the AP table's columns
    np.testing.assert_array_equal(table["width"], table["high"] - table["low"])
    assert (table["low"] <= table["high"]).all()
    assert table.attrs["metric"] == "roc_auc" and table.attrs["recommended"] == "delong_logit"
    assert table.attrs["recommended"] in table.index
    assert "diagnostics" in table.attrs and "semiparametric" in table.attrs["fit_checks"]


def test_frequentist_rows_equal_roc_auc_interval(data, table):
    y, s = data
    # the closed forms do not depend on the seed
    for method in ("delong", "delong_logit", "hanley_mcneil"):
        ref = bp.roc_auc_interval(y, s, method=method)
        row = table.loc[method]
        assert (row.estimate, row.low, row.high) == (ref.estimate, ref.low, ref.high)
        assert row.family == "frequentist" and row.interval == "CI 0.95"
    # the empirical AUC is scikit-learn's (independent implementation)
    assert table.loc["delong", "estimate"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert table.attrs["empirical_estimate"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    # the bootstrap rows: row i draws from the i-th child of the seed (as in the AP table)
    methods = list(DEFAULT_AUC_METHODS)
    children = np.random.default_rng(5).spawn(len(methods) + 3)
    for method in ("bootstrap", "bca"):
        ref = bp.roc_auc_interval(
            y, s, method=method, n_resamples=300, random_seed=children[methods.index(method)]
        )
        row = table.loc[method]
        assert (row.estimate, row.low, row.high) == (ref.estimate, ref.low, ref.high)


def test_bayesian_rows_equal_the_posterior_interval(table, posterior):
    draws = posterior.roc_auc()
    for kind, center in (("hdi", float(draws.mean())), ("eti", float(draws.median()))):
        bounds = posterior.interval("roc_auc", ci_prob=0.95, ci_kind=kind).values
        row = table.loc[f"semiparametric_{kind}"]
        assert (row.estimate, row.low, row.high) == (center, bounds[0], bounds[1])
        assert row.family == "bayesian" and row.estimator == "semiparametric model ROC AUC"
        assert row.interval == f"{kind.upper()} 0.95"


def test_parametric_rows_and_subset(data):
    y, s = data
    post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=1)
    t = bp.compare_intervals(
        y, s, metric="roc_auc", methods=["binormal_eti", "delong"], posterior=post, ci_prob=0.9
    )
    assert list(t.index) == ["binormal_eti", "delong"]
    bounds = post.interval("roc_auc", ci_prob=0.9, ci_kind="eti").values
    assert (t.loc["binormal_eti", "low"], t.loc["binormal_eti", "high"]) == tuple(bounds)
    ref = bp.roc_auc_interval(y, s, confidence_level=0.9)
    assert (t.loc["delong", "low"], t.loc["delong", "high"]) == (ref.low, ref.high)


def test_one_positive_leaves_delong_out_with_a_note():
    y = np.r_[1, np.zeros(9, dtype=int)]
    s = np.r_[0.5, np.linspace(0.9, 0.0, 9)]  # one negative above the positive
    t = bp.compare_intervals(
        y, s, metric="roc_auc", methods=["delong", "delong_logit", "hanley_mcneil"]
    )
    assert list(t.index) == ["hanley_mcneil"]
    assert "at least 2 positives" in t.attrs["notes"]["delong"]
    assert t.attrs["recommended"] == "hanley_mcneil"


def test_default_metric_is_the_ap_table(data):
    y, s = data
    kw = dict(methods=["logit", "bootstrap"], random_seed=2, n_resamples=200)
    default = bp.compare_intervals(y, s, **kw)
    explicit = bp.compare_intervals(y, s, metric="average_precision", **kw)
    assert default.equals(explicit) and default.attrs["recommended"] == "logit"
    ref = bp.ap_interval(y, s, method="logit")
    assert default.loc["logit", "low"] == ref.low


def test_reproducible(data):
    y, s = data
    kw = dict(metric="roc_auc", methods=["bootstrap", "bca"], n_resamples=200, random_seed=9)
    assert bp.compare_intervals(y, s, **kw).equals(bp.compare_intervals(y, s, **kw))


def test_errors(data):
    y, s = data
    with pytest.raises(ValueError, match=r"`metric` must be one of .*got 'auc'"):
        bp.compare_intervals(y, s, metric="auc")
    with pytest.raises(ValueError, match=r"`methods` must be a non-empty subset.*'logit'"):
        bp.compare_intervals(y, s, metric="roc_auc", methods=["logit"])
    with pytest.raises(ValueError, match=r"`estimator` .* metric='roc_auc'; got 'trapezoid'"):
        bp.compare_intervals(y, s, metric="roc_auc", estimator="trapezoid")
