"""The rule book (bayes_prc.recommend): one home for every "which row to quote" decision.

Each rule is checked on constructed situations (no fit needed), every table that names a
recommended row is shown to take it from the rule book (a replaced rule changes the
table), and the report applies the band rule exactly once.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc import recommend as rb
from bayes_prc.bayes import FitCheck


def _check(grade, model="semiparametric", p=0.5):
    p = float("nan") if grade == "inconclusive" else p
    return FitCheck(p, grade != "fail", 0.05, 1.0, 1.0, 8, model, "", grade)


def test_a_decision_unpacks_and_renders():
    rec = rb.recommend_interval(
        ["logit", "semiparametric_eti"], {"semiparametric": _check("pass")}, 40
    )
    row, reason = rec
    assert (row, rec.rule) == ("semiparametric_eti", "interval") and reason == rec.reason
    assert rec.situation["fit_checks"] == {"semiparametric": "pass"}
    assert rec.situation["available"] == ("logit", "semiparametric_eti")
    assert reason in rec._repr_html_() and "situation" not in repr(rec)


@pytest.mark.parametrize(
    ("kwargs", "row"),
    [
        (dict(n_pos=1), "logit"),  # one positive: no model
        (dict(n_pos=40, separated=True), "logit"),
        (dict(n_pos=40, tied=True), "prevalence"),
        (dict(n_pos=40, n_distinct=3), "discrete_eti"),
        (dict(n_pos=40), "semiparametric_eti"),
        (
            dict(n_pos=40, checks={"semiparametric": _check("fail"), "flexible": _check("pass")}),
            "flexible_eti",
        ),
        (
            dict(n_pos=40, checks={"semiparametric": _check("fail"), "flexible": _check("fail")}),
            "logit",
        ),
    ],
)
def test_ap_rule_branches(kwargs, row):
    available = ["semiparametric_eti", "flexible_eti", "logit", "prevalence", "discrete_eti"]
    checks = kwargs.pop("checks", {"semiparametric": _check("pass"), "flexible": _check("pass")})
    assert rb.recommend_interval(available, checks, **kwargs).row == row


def test_auc_band_pool_paired_ranking_threshold_rules():
    ok = {"semiparametric": _check("pass")}
    rows = ["delong_logit", "delong", "semiparametric_eti"]
    assert rb.recommend_auc_interval(rows, ok, 5).row == "semiparametric_eti"
    assert rb.recommend_auc_interval(rows, ok, 50).row == "delong_logit"
    bands = ["averaged_simultaneous", "bootstrap_simultaneous_t"]
    assert rb.recommend_band(bands, ok, 1).row is None
    assert rb.recommend_band(bands, ok, 40).row == "averaged_simultaneous"
    assert rb.recommend_band(bands, {"semiparametric": _check("fail")}, 40).row == bands[1]
    fails = _check("fail", "pool_calibration", p=0.01)
    assert rb.recommend_pool_interval(["fit_pool", "ppi"], fails).row == "ppi"
    assert rb.recommend_pool_interval(["fit_pool"], fails).row == "fit_pool"
    assert rb.recommend_pool_interval(["fit_pool", "ppi"], _check("pass")).row == "fit_pool"
    near = rb.NEAR_TIE_RANK_CORRELATION
    assert rb.recommend_paired_method("bayes", near + 0.01).row == "jackknife"
    assert tuple(rb.recommend_paired_method("bayes", near - 0.01)) == ("bayes", None)
    labels = {"max_t": "max-t", "bayesian_bootstrap": "BB"}
    assert rb.recommend_ranking_method(None, labels).row == rb.RANKING_METHOD
    assert rb.recommend_ranking_method("bayesian_bootstrap", labels).row == "bayesian_bootstrap"
    assert rb.recommend_threshold_method().row == rb.THRESHOLD_METHOD
    op = rb.recommend_operating_point(
        [("precision", "bootstrap"), ("precision", "jeffreys"), ("recall", "wilson")]
    )
    assert op.row == {"precision": "jeffreys", "recall": "wilson"}
    assert op.reason.startswith("Quote precision: jeffreys, recall: wilson:")  # no false Wilson
    assert (
        "Quote the Wilson score interval"
        in rb.recommend_operating_point([("recall", "wilson")]).reason
    )


@pytest.fixture(scope="module")
def data(rng_for):
    rng = rng_for("recommend_data")
    return bp.Binormal(1.3, 1.0, 0.0, 1.0, 0.3).sample(200, random_seed=rng)


def _sentinel(row):
    return rb.Recommendation(row, "the sentinel's reason", "sentinel")


@pytest.mark.parametrize(
    ("module", "name", "call"),
    [
        ("bayes_prc.compare._intervals", "recommend_interval", "ap"),
        ("bayes_prc.compare._intervals", "recommend_auc_interval", "auc"),
        ("bayes_prc.compare._bands", "recommend_band", "bands"),
        ("bayes_prc.compare._operating_point", "recommend_operating_point", "op"),
    ],
)
def test_tables_take_the_rule_books_decision(monkeypatch, data, module, name, call):
    import importlib

    y, s = data
    monkeypatch.setattr(importlib.import_module(module), name, lambda *a, **k: _sentinel("logit"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "ap": lambda: bp.compare_intervals(
                y, s, methods=["logit", "bootstrap"], n_resamples=50
            ),
            "auc": lambda: bp.compare_intervals(y, s, metric="roc_auc", methods=["delong"]),
            "bands": lambda: bp.compare_bands(
                y, s, methods=["bootstrap_simultaneous_t"], n_resamples=50
            ),
            "op": lambda: bp.compare_operating_point(y, s, n_resamples=50),
        }[call]()
    assert out.attrs["recommended"] == "logit"
    assert out.attrs["recommendation"] == "the sentinel's reason"
    assert out.attrs["decision"].rule == "sentinel"


def test_the_report_applies_the_band_rule_once(monkeypatch, data):
    import bayes_prc._report._compute as compute
    import bayes_prc.compare._bands as bands_module
    from bayes_prc._report._compute import compute_report

    calls = []
    rule = rb.recommend_band

    def counted(*args, **kwargs):
        calls.append(1)
        return rule(*args, **kwargs)

    monkeypatch.setattr(compute, "recommend_band", counted)
    monkeypatch.setattr(bands_module, "recommend_band", counted)
    y, s = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = compute_report(y, s, random_seed=0, n_resamples=50)
    assert len(calls) == 1
    assert d.bands.attrs["decision"].rule == "band"
    assert d.bands.attrs["recommended"] == d.bands.attrs["decision"].row


def test_band_source_is_a_coordinate_not_parsed_from_the_label(data):
    y, s = data
    bands = bp.compare_bands(
        y, s, methods=["bootstrap_simultaneous_t"], n_resamples=50, random_seed=0
    )
    assert bands["source"].values.tolist() == ["stratified bootstrap, studentized sup-t"]
    assert np.all(bands["label"].values != bands["source"].values)
