"""Tests of the coverage harness :func:`bayes_prc.simulate.coverage_study`.

Coverage tolerances: with ``n_rep`` replications the binomial standard error of a
coverage near 0.95 is ``sqrt(0.95 * 0.05 / n_rep)`` (0.018 for 150, 0.0069 for 1000);
the assertions allow 4 (CI) or 3 (slow) standard errors, so a correctly calibrated
interval fails them with probability < 1e-4 / 0.3% whatever the seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from bayes_prc.binormal import Binormal
from bayes_prc.simulate import coverage_study, main


def _seed(rng):
    return int(rng.integers(2**31))


def _se(n_rep, p=0.95):
    return np.sqrt(p * (1 - p) / n_rep)


def test_logit_and_binomial_near_nominal_where_boyd_found_them_good(rng):
    # n = 1000 at prevalence 0.1: about 100 positives, AP 0.29 (away from 0 and 1)
    ds = coverage_study(n=1000, n_rep=150, methods=("logit", "binomial"), random_seed=_seed(rng))
    assert ds.attrs["true_ap"] == pytest.approx(0.29284, abs=1e-5)
    for m in ("logit", "binomial"):
        r = ds.sel(interval=m)
        assert int(r.n_failures) == 0
        assert float(r.coverage) >= 0.95 - 4 * _se(150)


def test_seed_000_setting_is_reproduced(rng):
    """Seed 000's logit_confidence_interval_coverage_test (with fewer replications).

    n = 1000, prevalence 0.1 (its ``~alpha:0.1``), sigma 1, lower-trapezoid estimator,
    logit interval with n = number of positives at the 95% level (its ``0.05``), coverage
    of the mean of the estimates.
    """
    ds = coverage_study(
        Binormal(1, 1, 0, 1, 0.1),
        n=1000,
        n_rep=150,
        methods=("logit",),
        estimator="lower_trapezoid",
        confidence_level=0.95,
        target="mean_estimate",
        random_seed=_seed(rng),
        keep_intervals=True,
    )
    est = ds.estimate.values
    assert ds.attrs["target_value"] == pytest.approx(est.mean(), abs=1e-12)
    assert ds.attrs["estimator"] == "lower_trapezoid"
    low, high = ds.low.values[0], ds.high.values[0]
    covered = np.mean((low <= est.mean()) & (est.mean() <= high))
    assert float(ds.coverage[0]) == pytest.approx(covered, abs=1e-12)
    assert float(ds.coverage[0]) >= 0.95 - 4 * _se(150)
    # the interval is Boyd et al.'s logit interval with n = number of positives
    from bayes_prc.intervals import logit_interval

    ref = logit_interval(est[0], ds.n_positives.values[0])
    assert low[0] == pytest.approx(ref.low, abs=1e-12)


def test_dataset_layout_and_dataframe(rng):
    ds = coverage_study(
        n=300, n_rep=8, methods=("binomial", "bootstrap"), n_resamples=50, random_seed=_seed(rng)
    )
    assert list(ds["interval"].values) == ["binomial", "bootstrap"]
    for v in ("coverage", "coverage_se", "mean_width", "n_failures", "n_valid"):
        assert ds[v].dims == ("interval",)
    df = ds.to_dataframe()
    assert list(df.index) == ["binomial", "bootstrap"]
    assert {"coverage", "coverage_se", "mean_width", "n_failures"} <= set(df.columns)
    c = df["coverage"].to_numpy()
    np.testing.assert_allclose(df["coverage_se"], np.sqrt(c * (1 - c) / df["n_valid"]))
    np.testing.assert_allclose(df["miss_low"] + df["miss_high"] + df["coverage"], 1.0)
    for key in ("true_ap", "mean_estimate", "model", "n", "n_rep", "confidence_level"):
        assert key in ds.attrs


def test_analytic_target_and_manual_coverage(rng):
    model = Binormal(1.5, 1, 0, 1.2, 0.25)
    ds = coverage_study(
        model, n=200, n_rep=30, methods=("logit",), random_seed=_seed(rng), keep_intervals=True
    )
    true = float(model.average_precision())
    assert ds.attrs["target_value"] == ds.attrs["true_ap"] == pytest.approx(true)
    low, high = ds.low.values[0], ds.high.values[0]
    assert float(ds.coverage[0]) == pytest.approx(np.mean((low <= true) & (true <= high)))
    assert float(ds.mean_width[0]) == pytest.approx(np.mean(high - low))


def test_failures_are_counted(rng):
    # 20 items at prevalence 0.02: about two thirds of the data sets have no positive
    ds = coverage_study(
        Binormal(1, 1, 0, 1, 0.02),
        n=20,
        n_rep=40,
        methods=("logit", "bootstrap"),
        n_resamples=20,
        random_seed=_seed(rng),
        keep_intervals=True,
    )
    no_pos = int(np.sum(ds.n_positives.values == 0))
    assert no_pos > 0
    np.testing.assert_array_equal(ds.n_failures.values, [no_pos, no_pos])
    np.testing.assert_array_equal(ds.n_valid.values + ds.n_failures.values, [40, 40])


def test_methods_do_not_share_random_streams(rng):
    seed = _seed(rng)
    kw = dict(n=200, n_rep=5, n_resamples=30, random_seed=seed, keep_intervals=True)
    a = coverage_study(methods=("bootstrap",), **kw)
    b = coverage_study(methods=("bayesian_bootstrap", "logit", "bootstrap"), **kw)
    np.testing.assert_array_equal(a.low.values[0], b.low.values[2])
    np.testing.assert_array_equal(a.estimate.values, b.estimate.values)


def test_progressbar(rng, capsys):
    coverage_study(n=100, n_rep=3, methods=("logit",), random_seed=0, progressbar=True)
    assert "coverage_study: 3/3" in capsys.readouterr().err


def test_command_line_prints_table(capsys):
    assert main(["--n", "200", "--n-rep", "5", "--methods", "logit", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "| logit |" in out and "true AP = 0.2928" in out


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"model": "binormal"}, r"`model` must be a single Binormal"),
        ({"n": 0}, r"`n` must be an integer >= 1; got 0"),
        ({"n_rep": 0}, r"`n_rep` must be an integer >= 1; got 0"),
        ({"methods": ("logit", "wilson")}, r"`methods` must be one of .* got 'wilson'"),
        ({"methods": ()}, r"`methods` must name at least one"),
        ({"methods": ("logit", "logit")}, r"`methods` must not repeat"),
        ({"target": "mean"}, r"`target` must be one of .* got 'mean'"),
        ({"estimator": "auc"}, r"`estimator` .* got 'auc'"),
        ({"confidence_level": 95}, r"`confidence_level` .* got 95"),
        ({"n_resamples": 0}, r"`n_resamples` .* got 0"),
        ({"keep_intervals": "yes"}, r"`keep_intervals` .* got 'yes'"),
        ({"random_seed": "abc"}, r"`random_seed` .* got 'abc'"),
    ],
)
def test_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        coverage_study(**{"n_rep": 1, **kwargs})


@pytest.mark.slow
def test_coverage_resolved_to_one_and_a_half_points(rng):
    """1000 replications: SE 0.0069, so the coverage is resolved to +-1.4 points (2 SE).

    Where Boyd et al. found the logit and binomial intervals good (n = 1000, prevalence
    0.1, ~100 positives, AP 0.29) nominal 0.95 must lie within 3 SE of the estimate; the
    same for seed 000's setting (lower trapezoid, coverage of the mean estimate).
    """
    seed = _seed(rng)
    ds = coverage_study(n=1000, n_rep=1000, methods=("logit", "binomial"), random_seed=seed)
    for m in ("logit", "binomial"):
        r = ds.sel(interval=m)
        assert abs(float(r.coverage) - 0.95) <= 3 * float(r.coverage_se), m
        assert int(r.n_failures) == 0
    ds = coverage_study(
        n=1000,
        n_rep=1000,
        methods=("logit",),
        estimator="lower_trapezoid",
        target="mean_estimate",
        random_seed=seed + 1,
    )
    assert abs(float(ds.coverage[0]) - 0.95) <= 3 * float(ds.coverage_se[0])
