"""bayes_prc.tracking against a real local MLflow tracking store (a file store in a temp
folder, no server): what is logged (metrics, params, artifacts) equals the result's own
values, and load_evaluation gives the result back value for value (exact: arrays are
stored as their bytes)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import bayes_prc as bp
from bayes_prc.threshold import choose_threshold
from bayes_prc.tracking import load_evaluation, log_evaluation

mlflow = pytest.importorskip("mlflow")  # the `mlflow` extra; `make test` installs it


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A fresh file tracking store for the test (MLflow 3 asks to opt in to file stores)."""
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    for var in ("MLFLOW_RUN_ID", "MLFLOW_EXPERIMENT_NAME", "MLFLOW_EXPERIMENT_ID"):
        monkeypatch.delenv(var, raising=False)
    old = mlflow.get_tracking_uri()
    uri = (tmp_path / "mlruns").as_uri()
    mlflow.set_tracking_uri(uri)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    yield uri
    while mlflow.active_run() is not None:
        mlflow.end_run()
    mlflow.set_tracking_uri(old)


@pytest.fixture(scope="module")
def data(rng_for):
    rng = rng_for("tracking")
    n = 240
    y = rng.random(n) < 0.3
    s = rng.normal(1.4 * y, 1.0)
    s2 = s + rng.normal(0, 0.6, n)
    return y, s, s2


@pytest.fixture(scope="module")
def results(data):
    y, s, s2 = data
    with _quiet():
        return {
            "intervals": bp.compare_intervals(y, s, random_seed=0, n_resamples=200),
            "bands": bp.compare_bands(y, s, random_seed=0, n_resamples=200),
            "paired": bp.compare_classifiers(y, s, s2, random_seed=0),
            "ranking": bp.compare_models(
                y, {"a": s, "b": s2, "c": 0.5 * s + s2}, random_seed=0, n_resamples=200
            ),
            "threshold": choose_threshold(y, s, min_precision=0.7, random_seed=0),
            "operating_point": bp.compare_operating_point(
                y, s, threshold=0.5, random_seed=0, n_resamples=200
            ),
        }


@contextlib.contextmanager
def _quiet():
    """The results' own warnings (small samples, fit notes) are not under test here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _same(a, b, path="result"):
    """Equal value for value (NaN equal to NaN), recursing into the library's objects."""
    import dataclasses

    assert type(a) is type(b), f"{path}: {type(a)} vs {type(b)}"
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        _same(dict(a.attrs), dict(b.attrs), f"{path}.attrs")
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b, check_exact=True)
    elif isinstance(a, xr.Dataset | xr.DataArray):
        xr.testing.assert_identical(a, b)
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype, path
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            _same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _same(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), path
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


@pytest.mark.parametrize(
    "name", ["intervals", "bands", "paired", "ranking", "threshold", "operating_point"]
)
def test_round_trip_is_exact(store, results, name):
    result = results[name]
    run_id = log_evaluation(result, params={"random_seed": 0})
    back = load_evaluation(run_id)
    _same(result, back)


def test_sqlite_store_round_trip(tmp_path, monkeypatch, results):
    # MLflow 3's recommended local backend: a SQLite database (artifacts in the working
    # folder's mlartifacts/, here the test's temp folder)
    monkeypatch.chdir(tmp_path)
    for var in ("MLFLOW_RUN_ID", "MLFLOW_EXPERIMENT_NAME", "MLFLOW_EXPERIMENT_ID"):
        monkeypatch.delenv(var, raising=False)
    old = mlflow.get_tracking_uri()
    mlflow.set_tracking_uri(f"sqlite:///{tmp_path / 'mlflow.db'}")
    try:
        with mlflow.start_run() as run:
            for name in ("intervals", "bands", "paired"):
                log_evaluation(results[name])
        back = load_evaluation(run.info.run_id)
        _same(results["intervals"], back["ap_intervals"])
        _same(results["bands"], back["bands"])
        _same(results["paired"], back["ap_difference"])
        m = mlflow.get_run(run.info.run_id).data.metrics
        assert m["ap_difference"] == results["paired"].estimate
    finally:
        mlflow.set_tracking_uri(old)


def test_interval_table_metrics_params_and_table(store, results):
    table = results["intervals"]
    run_id = log_evaluation(table, params={"random_seed": 7})
    run = mlflow.get_run(run_id)
    rec = table.attrs["recommended"]
    m, p = run.data.metrics, run.data.params
    # the headline is the recommended row, every row under its method
    assert m["ap"] == table.loc[rec, "estimate"]
    assert (m["ap_low"], m["ap_high"]) == (table.loc[rec, "low"], table.loc[rec, "high"])
    for method, row in table.iterrows():
        if np.isfinite(row["estimate"]):
            assert m[f"ap.{method}"] == row["estimate"]
            assert m[f"ap_low.{method}"] == row["low"]
    assert p["ap_method"] == rec
    assert p["ci_prob"] == "0.95" and p["random_seed"] == "7"
    assert p["bayes_prc_version"] == bp.__version__
    shown = mlflow.load_table("ap_intervals.json", run_ids=[run_id])
    np.testing.assert_allclose(shown["estimate"], table["estimate"].to_numpy(), rtol=1e-9)
    assert list(shown["method"]) == list(table.index)
    # the run is ended when log_evaluation started it
    assert mlflow.active_run() is None
    assert mlflow.get_run(run_id).info.status == "FINISHED"


def test_bands_ranking_threshold_and_pair_metrics(store, results):
    with mlflow.start_run() as run:
        for result in results.values():
            assert log_evaluation(result) == run.info.run_id  # the active run
    run = mlflow.get_run(run.info.run_id)
    m, p = run.data.metrics, run.data.params
    ds = results["bands"]
    rec = ds.attrs["recommended"]
    width = float((ds["upper"] - ds["lower"]).sel(band=rec).mean())
    assert m["band_width"] == pytest.approx(width, rel=1e-12) and p["band_method"] == rec
    ranking = results["ranking"]
    for model, row in ranking.table.iterrows():
        assert m[f"rank.{model}"] == row["rank"]
        assert m[f"prob_best.{model}"] == row["prob_best"]
        assert m[f"ap.{model}"] == row["estimate"]
    assert p["best_model"] == str(ranking.table.index[0])
    pair = results["paired"]
    assert m["ap_difference"] == pair.estimate and m["ap_a"] == pair.value_a
    assert p["difference_method"] == pair.method and p["n"] == str(pair.n)
    choice = results["threshold"]
    if choice.certified:
        assert m["threshold"] == choice.threshold
    assert m["threshold_certified"] == float(choice.certified)
    names = {a.path for a in mlflow.MlflowClient().list_artifacts(run.info.run_id)}
    assert {"bands.png", "ranking.png", "threshold.png", "band.json"} <= names
    # several results in one run: a dict by kind, or one by kind
    back = load_evaluation(run.info.run_id)
    assert set(back) == {
        "ap_intervals",
        "bands",
        "ap_difference",
        "ranking",
        "threshold",
        "operating_point",
    }
    _same(results["bands"], load_evaluation(run.info.run_id, kind="bands"))


def test_prefix_keeps_two_results_of_one_kind_apart(store, data):
    y, s, s2 = data
    with _quiet():
        a = bp.compare_intervals(y, s, random_seed=0, n_resamples=200, ci_prob=0.9)
        b = bp.compare_intervals(y, s2, random_seed=0, n_resamples=200)
    with mlflow.start_run() as run:
        log_evaluation(a, prefix="model_a")
        log_evaluation(b, prefix="model_b")
        # without a prefix the second table's ci_prob would change a param (and, on
        # some data, its recommended method, which is checked first: seed 2737221474):
        # refused, and nothing of it is logged
        log_evaluation(a)
        with pytest.raises(ValueError, match=r"param '(ci_prob|ap_method)'.*prefix="):
            log_evaluation(b)
    m = mlflow.get_run(run.info.run_id).data.metrics
    assert m["model_b/ap"] == b.loc[b.attrs["recommended"], "estimate"]
    assert m["model_a/ap"] == a.loc[a.attrs["recommended"], "estimate"]
    _same(b, load_evaluation(run.info.run_id, prefix="model_b"))
    _same(a, load_evaluation(run.info.run_id))  # the one logged without a prefix


def test_report_logged_with_its_results(store, data, tmp_path):
    y, s, _ = data
    out = tmp_path / "r.html"
    md = tmp_path / "r.md"
    with mlflow.start_run() as run:
        bp.report(
            y,
            s,
            out,
            random_seed=3,
            n_resamples=200,
            markdown_path=md,
            mlflow=True,
            progressbar=False,
            min_precision=0.7,
        )
    back = load_evaluation(run.info.run_id)
    assert {
        "ap_intervals",
        "roc_auc_intervals",
        "operating_point",
        "bands",
        "threshold",
        "report",
    } <= set(back)
    assert back["report"].read_text() == out.read_text()
    p = mlflow.get_run(run.info.run_id).data.params
    assert (p["n"], p["positives"], p["random_seed"]) == (str(y.size), str(int(y.sum())), "3")
    m = mlflow.get_run(run.info.run_id).data.metrics
    ap = back["ap_intervals"]
    assert m["ap"] == ap.loc[ap.attrs["recommended"], "estimate"]
    # the headline in the written report is the logged one (to the digits it shows)
    assert f"{m['ap']:.2f}" in out.read_text()
    assert "report/r.md" in {
        a.path for a in mlflow.MlflowClient().list_artifacts(run.info.run_id, "report")
    }


def test_log_evaluation_of_a_written_report_round_trips_the_file(store, tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<html><body>AP 0.71 [0.60, 0.80]</body></html>")
    run_id = log_evaluation(page)
    assert load_evaluation(run_id).read_text() == page.read_text()
    with pytest.raises(ValueError, match="is not a file"):
        log_evaluation(tmp_path / "missing.html")


def test_failed_logging_leaves_no_report(store, data, tmp_path, monkeypatch):
    import bayes_prc.tracking as tracking

    def broken(*args, **kwargs):
        raise RuntimeError("tracking server down")

    monkeypatch.setattr(tracking, "log_report", broken)
    y, s, _ = data
    out = tmp_path / "r.html"
    with pytest.raises(RuntimeError, match="server down"):
        bp.report(y, s, out, random_seed=0, n_resamples=100, mlflow=True, progressbar=False)
    assert not out.exists()


def test_without_mlflow_clear_error_before_any_work(tmp_path, monkeypatch, data):
    monkeypatch.setitem(sys.modules, "mlflow", None)  # as if not installed
    y, s, _ = data
    with pytest.raises(ImportError, match=r"bayes_prc\[mlflow\]"):
        log_evaluation(pd.DataFrame({"estimate": [0.5], "low": [0.4], "high": [0.6]}))
    out = tmp_path / "r.html"
    called = []
    monkeypatch.setattr(bp, "compare_intervals", lambda *a, **k: called.append(1))
    with pytest.raises(ImportError, match=r"bayes_prc\[mlflow\]"):
        bp.report(y, s, out, mlflow=True)
    assert not out.exists() and not called


def test_bad_inputs_are_named(store):
    with pytest.raises(TypeError, match="`result` must be one of the library's results"):
        log_evaluation({"ap": 0.5})
    with pytest.raises(ValueError, match="`prefix` must be a non-empty string"):
        log_evaluation(pd.DataFrame({"estimate": [0.5], "low": [0.4], "high": [0.6]}), prefix="/")
    with pytest.raises(TypeError, match="`run` must be an MLflow Run or a run id"):
        log_evaluation(pd.DataFrame({"estimate": [0.5], "low": [0.4], "high": [0.6]}), run=3)
    run_id = log_evaluation(pd.DataFrame({"estimate": [0.5], "low": [0.4], "high": [0.6]}))
    with pytest.raises(ValueError, match="`kind` 'bands' is not in run"):
        load_evaluation(run_id, kind="bands")
    with pytest.raises(ValueError, match="holds no bayes_prc evaluation with prefix 'x'"):
        load_evaluation(run_id, prefix="x")


def test_codec_keeps_edge_values():
    from bayes_prc.tracking import _codec  # noqa: PLC2701 - the package's own test of its codec

    idx = pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["model", "k"])
    df = pd.DataFrame({"x": [np.nan, np.inf], "s": ["p", "q"], "b": [True, False]}, index=idx)
    df.attrs = {"level": 0.9, "nan": float("nan"), "t": (1, "x"), "arr": np.arange(3.0)}
    tree = json.loads(json.dumps(_codec.encode(df), allow_nan=False))  # strict JSON
    _same(df, _codec.decode(tree))
    assert _codec.decode(_codec.encode(object())) is None  # not storable: read back as None
    x = np.array([0.1, 1 / 3, np.nextafter(1.0, 0.0), -0.0])
    assert _codec.decode(json.loads(json.dumps(_codec.encode(x)))).tobytes() == x.tobytes()


def test_import_bayes_prc_does_not_import_mlflow():
    code = (
        "import sys, bayes_prc, bayes_prc.tracking; "
        "assert 'mlflow' not in sys.modules, 'mlflow imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cli_report_into_mlflow(store, data, tmp_path, capsys):
    from bayes_prc.cli import main

    y, s, _ = data
    csv = tmp_path / "d.csv"
    pd.DataFrame({"label": y.astype(int), "score": s}).to_csv(csv, index=False)
    out = tmp_path / "d.html"
    code = main(
        [
            "report",
            str(csv),
            "--label",
            "label",
            "--score",
            "score",
            "-o",
            str(out),
            "--n-resamples",
            "100",
            "--mlflow",
            "--quiet",
        ]
    )
    assert code == 0 and out.exists()
    runs = mlflow.search_runs(search_all_experiments=True)
    assert len(runs) == 1
    back = load_evaluation(runs.run_id.iloc[0])
    assert back["report"].read_text() == out.read_text()
    assert mlflow.get_run(runs.run_id.iloc[0]).data.params["data"] == str(csv)


def test_subgroups_and_plan(store, rng):
    from bayes_prc.planning import plan_test_set

    n = 450
    g = rng.choice(["north", "south", "west"], n)
    y = rng.random(n) < 0.3
    s = rng.normal(1.4 * y, 1.0)
    with _quiet():
        sub = bp.compare_subgroups(y, s, g, random_seed=0, draws=150, tune=150, chains=2)
    plan = plan_test_set(expected=0.7, prevalence=0.2, width=0.15, n_simulations=60, random_seed=0)
    with mlflow.start_run() as run:
        log_evaluation(sub)
        log_evaluation(plan)
    back = load_evaluation(run.info.run_id)
    # a subgroup comparison is stored as its table, metric draws and settings
    _same(sub.table, back["subgroups"]["table"])
    _same(sub.posterior, back["subgroups"]["posterior"])
    assert back["subgroups"]["margin"] == sub.margin
    _same(plan, back["plan"])
    m = mlflow.get_run(run.info.run_id).data.metrics
    for label, row in sub.table.iterrows():
        assert m[f"ap.{label}"] == row["estimate"]
        assert m[f"prob_below_others.{label}"] == row["prob_below_others"]
    assert m["subgroups_flagged"] == sub.table["flagged"].sum()
    assert m["plan_n"] == plan.n and m["plan_positives"] == plan.positives
