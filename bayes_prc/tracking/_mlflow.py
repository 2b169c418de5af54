"""Log the library's results into MLflow runs and read them back."""

from __future__ import annotations

import dataclasses
import math
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._version import __version__
from ._codec import decode, encode

__all__ = ["load_evaluation", "log_evaluation", "log_report", "require_mlflow"]

#: Folder of a run's artifacts that holds one record per logged result.
RECORDS = "bayes_prc"
#: Version of the record layout (written into every record).
RECORD_FORMAT = 1
#: Short metric names of the library's metrics.
SHORT = {"average_precision": "ap", "roc_auc": "roc_auc"}


def require_mlflow():
    """The ``mlflow`` module, or an ImportError saying how to install it."""
    try:
        import mlflow
    except ImportError as err:
        raise ImportError(
            "bayes_prc.tracking needs MLflow: pip install 'bayes_prc[mlflow]' "
            "(or mlflow / mlflow-skinny)"
        ) from err
    return mlflow


@dataclass
class _Entry:
    """What one result gives a run: its kind, metrics, params, tables and figure."""

    kind: str
    metrics: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    tables: dict = field(default_factory=dict)
    figure: Any = None  # a function drawing on a matplotlib Figure, or None
    files: dict = field(default_factory=dict)  # artifact name -> local file
    stored: Any = None  # what is stored of a result that cannot be stored whole


def _name(text):
    """A metric/param name MLflow accepts (letters, digits, ``_-. /``)."""
    return re.sub(r"[^0-9A-Za-z_\-. /]", "_", str(text))


def _finite(x):
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _short(metric):
    return SHORT.get(metric, _name(metric))


def _flat(table):
    """The table as MLflow shows it: index as columns, only scalar columns."""
    import pandas as pd

    flat = pd.DataFrame(table).reset_index()
    keep = [
        c
        for c in flat.columns
        if flat[c].map(lambda v: v is None or isinstance(v, str | bool | int | float)).all()
    ]
    flat = flat[keep]
    # text columns as objects: MLflow's table check selects object columns, and pandas 3
    # warns when that would include its string dtype
    text = [c for c in flat.columns if pd.api.types.is_string_dtype(flat[c].dtype)]
    return flat.astype(dict.fromkeys(text, object)) if text else flat


def _interval_rows(entry, table, name, recommended):
    """Metrics of a table with ``estimate``, ``low``, ``high``: one triple per row and the
    recommended row's as the headline."""
    for row, values in table.iterrows():
        key = "/".join(map(str, row)) if isinstance(row, tuple) else str(row)
        for col, suffix in (("estimate", ""), ("low", "_low"), ("high", "_high")):
            x = _finite(values[col])
            if x is not None:
                entry.metrics[f"{name}{suffix}.{key}"] = x
    if isinstance(recommended, str) and recommended in table.index:
        for col, suffix in (("estimate", ""), ("low", "_low"), ("high", "_high")):
            x = _finite(table.loc[recommended, col])
            if x is not None:
                entry.metrics[f"{name}{suffix}"] = x


def _describe_table(table):
    attrs = table.attrs
    recommended = attrs.get("recommended")
    if table.index.nlevels == 2:
        # one block of rows per quantity (the operating-point table)
        entry = _Entry("operating_point")
        for quantity in table.index.get_level_values(0).unique():
            block = table.loc[quantity]
            rec = recommended.get(quantity) if isinstance(recommended, dict) else None
            _interval_rows(entry, block, _name(quantity), rec)
            if rec is not None:
                entry.params[f"{_name(quantity)}_method"] = rec
        if _finite(attrs.get("threshold")) is not None:
            entry.params["threshold"] = float(attrs["threshold"])
    else:
        name = _short(attrs.get("estimator") or attrs.get("metric") or "estimate")
        entry = _Entry(f"{name}_intervals")
        _interval_rows(entry, table, name, recommended)
        if isinstance(recommended, str):
            entry.params[f"{name}_method"] = recommended
    if attrs.get("ci_prob") is not None:
        entry.params["ci_prob"] = attrs["ci_prob"]
    entry.tables[f"{entry.kind}.json"] = _flat(table)
    return entry


def _describe_bands(ds):
    entry = _Entry("bands")
    width = (ds["upper"] - ds["lower"]).mean("recall")
    for band in ds["band"].values:
        x = _finite(width.sel(band=band))
        if x is not None:
            entry.metrics[f"band_width.{_name(band)}"] = x
    rec = ds.attrs.get("recommended")
    if rec is not None and rec in ds["band"].values:
        x = _finite(width.sel(band=rec))
        if x is not None:
            entry.metrics["band_width"] = x
        entry.params["band_method"] = rec
    if ds.attrs.get("ci_prob") is not None:
        entry.params["ci_prob"] = ds.attrs["ci_prob"]
    long = ds[["lower", "median", "upper"]].to_dataframe()[["lower", "median", "upper"]]
    entry.tables["band.json"] = _flat(long)

    def draw(fig):
        from ..plotting import PRCurveDisplay

        b = ds.sel(band=rec if rec in ds["band"].values else ds["band"].values[0])
        PRCurveDisplay(
            recall=ds["recall"].values,
            precision=b["median"].values,
            lower=b["lower"].values,
            upper=b["upper"].values,
            ci_prob=ds.attrs.get("ci_prob"),
        ).plot(ax=fig.subplots())

    entry.figure = draw
    return entry


def _describe_paired(c):
    m = _short(c.metric)
    entry = _Entry(f"{m}_difference")
    for key, value in (
        (f"{m}_difference", c.estimate),
        (f"{m}_difference_low", c.low),
        (f"{m}_difference_high", c.high),
        (f"{m}_a", c.value_a),
        (f"{m}_b", c.value_b),
        ("prob_b_better", c.prob_b_better),
        ("p_value", c.p_value),
    ):
        x = _finite(value)
        if x is not None:
            entry.metrics[key] = x
    entry.params.update({"difference_method": c.method, "ci_prob": c.confidence_level, "n": c.n})
    if c.n_pos is not None:
        entry.params["positives"] = c.n_pos
    return entry


def _describe_ranking(c):
    m = _short(c.metric)
    entry = _Entry("ranking")
    cols = (
        ("estimate", m),
        ("low", f"{m}_low"),
        ("high", f"{m}_high"),
        ("rank", "rank"),
        ("rank_low", "rank_low"),
        ("rank_high", "rank_high"),
        ("prob_best", "prob_best"),
    )
    for model, row in c.table.iterrows():
        for col, key in cols:
            x = _finite(row.get(col))
            if x is not None:
                entry.metrics[f"{key}.{_name(model)}"] = x
    entry.params.update(
        {
            "ranking_method": c.method,
            "best_model": str(c.table.index[0]),
            "ci_prob": c.ci_prob,
            "n": c.n,
            "positives": c.n_pos,
        }
    )
    entry.tables["ranking.json"] = _flat(c.table)
    entry.tables["ranking_pairs.json"] = _flat(c.pairs)

    def draw(fig):
        from ..plotting import ModelComparisonDisplay

        ModelComparisonDisplay.from_comparison(c, ax=fig.subplots(1, 2))

    entry.figure = draw
    return entry


def _describe_threshold(c):
    entry = _Entry("threshold")
    x = _finite(c.threshold)
    if x is not None:
        entry.metrics["threshold"] = x
    for name in ("precision", "recall"):
        if _finite(getattr(c, name)) is None:  # no threshold: its bounds are 0 and 1
            continue
        for key in (name, f"{name}_low", f"{name}_high"):
            entry.metrics[f"threshold_{key}"] = float(getattr(c, key))
    x = _finite(c.recall_cost)
    if x is not None:
        entry.metrics["threshold_recall_cost"] = x
    entry.metrics["threshold_certified"] = float(bool(c.certified))
    entry.params.update(
        {"threshold_method": c.method, f"min_{c.metric}": c.target, "ci_prob": c.ci_prob}
    )
    entry.tables["thresholds.json"] = _flat(c.table)

    def draw(fig):
        from ..plotting import ThresholdChoiceDisplay

        ThresholdChoiceDisplay.from_choice(c, ax=fig.subplots(1, 2))

    entry.figure = draw
    return entry


def _describe_interval(r):
    name = _short(getattr(r, "metric", None) or "estimate")
    entry = _Entry(f"{name}_interval")
    for key, value in ((name, r.estimate), (f"{name}_low", r.low), (f"{name}_high", r.high)):
        x = _finite(value)
        if x is not None:
            entry.metrics[key] = x
    level = getattr(r, "ci_prob", None) or getattr(r, "confidence_level", None)
    entry.params.update({f"{name}_method": getattr(r, "method", None), "ci_prob": level})
    return entry


def _describe_subgroups(c):
    """A subgroup comparison (not rebuildable as such: its table, metric draws and
    settings are stored, and read back as a dict)."""
    m = _short(c.metric)
    entry = _Entry("subgroups")
    for sub, row in c.table.iterrows():
        for col, key in (
            ("estimate", m),
            ("low", f"{m}_low"),
            ("high", f"{m}_high"),
            ("empirical", f"{m}_empirical"),
            ("prob_below_others", "prob_below_others"),
            ("prob_below_overall", "prob_below_overall"),
        ):
            x = _finite(row.get(col))
            if x is not None:
                entry.metrics[f"{key}.{_name(sub)}"] = x
    entry.metrics["subgroups_flagged"] = float(c.table["flagged"].sum())
    entry.params.update(
        {
            "subgroup_metric": c.metric,
            "subgroup_margin": c.margin,
            "subgroup_versus": c.table.attrs.get("versus"),
            "ci_prob": c.ci_prob,
        }
    )
    entry.tables["subgroups.json"] = _flat(c.table)
    entry.stored = {
        "table": c.table,
        "posterior": c.posterior,
        "metric": c.metric,
        "margin": c.margin,
        "ci_prob": c.ci_prob,
        "diagnostics": c.diagnostics,
    }

    def draw(fig):
        from ..plotting import SubgroupDisplay

        SubgroupDisplay.from_comparison(c, methods=("pooled",), ax=fig.subplots())

    entry.figure = draw
    return entry


def _describe_plan(p):
    entry = _Entry("plan")
    for key in ("n", "positives", "achieved", "design_effect"):
        x = _finite(getattr(p, key))
        if x is not None:
            entry.metrics[f"plan_{key}"] = x
    entry.params.update(
        {
            "plan_target": p.target,
            "plan_metric": p.metric,
            "plan_expected": p.expected,
            "plan_prevalence": p.prevalence,
            "plan_assurance": p.assurance,
            "ci_prob": p.ci_prob,
        }
    )
    for key in ("width", "difference", "correlation"):
        if getattr(p, key) is not None:
            entry.params[f"plan_{key}"] = getattr(p, key)
    entry.tables["plan.json"] = _flat(p.table)

    def draw(fig):
        from ..plotting import PlanDisplay

        PlanDisplay.from_plan(p, ax=fig.subplots())

    entry.figure = draw
    return entry


def _describe_file(path):
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"`result` {str(path)!r} is not a file (a written report is expected)")
    entry = _Entry("report")
    entry.files[path.name] = path
    return entry


def _describe(result):
    """The :class:`_Entry` of ``result``, or a TypeError naming what is accepted."""
    import pandas as pd
    import xarray as xr

    if isinstance(result, str | Path):
        return _describe_file(result)
    if isinstance(result, pd.DataFrame) and {"estimate", "low", "high"} <= set(result.columns):
        return _describe_table(result)
    if isinstance(result, xr.Dataset) and {"lower", "upper"} <= set(result.data_vars):
        return _describe_bands(result)
    if hasattr(result, "value_a") and hasattr(result, "difference_draws"):
        return _describe_paired(result)
    if all(hasattr(result, a) for a in ("table", "pairs", "tiers")):
        return _describe_ranking(result)
    if hasattr(result, "guarantee") and hasattr(result, "threshold"):
        return _describe_threshold(result)
    if hasattr(result, "independent_posterior") and hasattr(result, "table"):
        return _describe_subgroups(result)
    if hasattr(result, "design_effect") and hasattr(result, "assurance"):
        return _describe_plan(result)
    if dataclasses.is_dataclass(result) and all(
        hasattr(result, a) for a in ("estimate", "low", "high")
    ):
        return _describe_interval(result)
    raise TypeError(
        "`result` must be one of the library's results (a table of intervals from "
        "compare_intervals or compare_operating_point, bands from compare_bands, "
        "compare_classifiers, compare_models, compare_subgroups, choose_threshold, "
        "plan_test_set, an interval, or a written report's path); got "
        f"{type(result).__name__}"
    )


def _open_run(mlflow, run):
    """``(run_id, started)``: the run given, the active run, or a new one (ended after)."""
    if run is None:
        active = mlflow.active_run()
        if active is not None:
            return active.info.run_id, False
        return mlflow.start_run().info.run_id, True
    if isinstance(run, str):
        return run, False
    info = getattr(run, "info", None)
    if info is None or not hasattr(info, "run_id"):
        raise TypeError(f"`run` must be an MLflow Run or a run id; got {type(run).__name__}")
    return info.run_id, False


def _prefixed(prefix, key):
    return key if not prefix else f"{prefix}/{key}"


def _check_params(client, run_id, params):
    """Refuse before logging anything when the run holds another value of a param."""
    held = client.get_run(run_id).data.params
    clash = {k: (held[k], v) for k, v in params.items() if k in held and held[k] != v}
    if clash:
        k, (old, new) = next(iter(clash.items()))
        raise ValueError(
            f"the run already holds param {k!r} = {old!r}, this result's is {new!r} "
            "(MLflow params cannot change): log it with `prefix=`"
        )


def log_evaluation(result, *, run=None, prefix=None, params=None):
    """Log a result of bayes_prc into an MLflow run.

    Metrics: the recommended row's value and interval (``ap``, ``ap_low``, ``ap_high``;
    ``roc_auc``...; ``{metric}_difference`` for two classifiers; per model ``ap.{model}``,
    ``rank.{model}``, ``rank_low.{model}``, ``prob_best.{model}``; ``threshold`` and
    ``threshold_precision``...; ``band_width``) and every row's as ``{metric}.{row}``
    (``ap.logit``, ``ap_low.logit``).
    Params: the method quoted, ``ci_prob``, ``n`` and ``positives`` where the result holds
    them, ``bayes_prc_version`` and any ``params`` given (e.g. the seed). Artifacts: the
    tables as MLflow tables (``mlflow.log_table``: shown in the UI), a PNG of the result's
    figure where it has one (bands, rankings, thresholds), a written report's HTML file,
    and ``bayes_prc/{kind}.json``, the whole result value for value, which
    :func:`load_evaluation` reads back.

    Parameters
    ----------
    result : result of bayes_prc
        A table of intervals (:func:`bayes_prc.compare_intervals`,
        :func:`bayes_prc.compare_operating_point`), bands (:func:`bayes_prc.compare_bands`),
        :func:`bayes_prc.compare_classifiers`, :func:`bayes_prc.compare_models`,
        :func:`bayes_prc.threshold.choose_threshold`, :func:`bayes_prc.compare_subgroups`
        (its table, metric draws and settings; read back as a dict),
        :func:`bayes_prc.planning.plan_test_set`, an interval result, or the path of a
        report written by :func:`bayes_prc.report` (logged as an artifact).
    run : mlflow.entities.Run or str, optional
        The run (or its id) to log into; default the active run, else a new run that is
        ended after logging.
    prefix : str, optional
        Put before every metric and param name (``"{prefix}/ap"``) and artifact path, to
        log several results of one kind (two models' tables) into one run.
    params : mapping, optional
        More params to log (``{"random_seed": 0, "data": "test.csv"}``).

    Returns
    -------
    str
        The run id.

    Raises
    ------
    ValueError
        When the run holds another value of one of the params (MLflow params cannot
        change): nothing is logged; log with ``prefix=``.

    Examples
    --------
    >>> import os, tempfile, mlflow
    >>> import bayes_prc as bp
    >>> from bayes_prc.tracking import load_evaluation, log_evaluation
    >>> os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    >>> mlflow.set_tracking_uri("file://" + tempfile.mkdtemp() + "/mlruns")
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(200, random_seed=0)
    >>> table = bp.compare_intervals(y, s, random_seed=0, n_resamples=200)
    >>> run_id = log_evaluation(table, params={"random_seed": 0})
    >>> run = mlflow.get_run(run_id)
    >>> bool(run.data.metrics["ap"] == table.loc[table.attrs["recommended"], "estimate"])
    True
    >>> load_evaluation(run_id).equals(table)
    True
    """
    mlflow = require_mlflow()
    entry = _describe(result)
    if prefix is not None and (not isinstance(prefix, str) or not prefix.strip("/")):
        raise ValueError(f"`prefix` must be a non-empty string; got {prefix!r}")
    prefix = None if prefix is None else _name(prefix.strip("/"))
    all_params = {**entry.params, "bayes_prc_version": __version__}
    if params is not None:
        all_params.update({_name(k): v for k, v in dict(params).items()})
    all_params = {
        _prefixed(prefix, k): "None" if v is None else str(v) for k, v in all_params.items()
    }
    run_id, started = _open_run(mlflow, run)
    try:
        client = mlflow.MlflowClient()
        _check_params(client, run_id, all_params)
        from mlflow.entities import Metric, Param

        now = int(time.time() * 1000)
        metrics = [Metric(_prefixed(prefix, k), v, now, 0) for k, v in entry.metrics.items()]
        params_ = [Param(k, v) for k, v in all_params.items()]
        client.log_batch(run_id, metrics=metrics, params=params_)
        folder = "" if prefix is None else f"{prefix}/"
        for name, table in entry.tables.items():
            client.log_table(run_id, table, f"{folder}{name}")
        for path in entry.files.values():
            client.log_artifact(run_id, str(path), f"{folder}{entry.kind}".rstrip("/"))
        if entry.figure is not None:
            from matplotlib.figure import Figure

            fig = Figure(figsize=(6.4, 4.8), layout="constrained")
            entry.figure(fig)
            client.log_figure(run_id, fig, f"{folder}{entry.kind}.png")
        value = (
            {"file": f"{folder}{entry.kind}/{next(iter(entry.files))}"}
            if entry.files
            else encode(result if entry.stored is None else entry.stored)
        )
        record = {
            "format": RECORD_FORMAT,
            "kind": entry.kind,
            "prefix": prefix,
            "bayes_prc_version": __version__,
            "value": value,
        }
        client.log_dict(run_id, record, f"{RECORDS}/{folder}{entry.kind}.json")
    finally:
        if started:
            mlflow.end_run()
    return run_id


def _records(client, run_id, path=RECORDS):
    out = []
    for item in client.list_artifacts(run_id, path):
        if item.is_dir:
            out.extend(_records(client, run_id, item.path))
        elif item.path.endswith(".json"):
            out.append(item.path)
    return out


def load_evaluation(run_id, *, prefix=None, kind=None):
    """Read back what :func:`log_evaluation` logged into a run.

    Parameters
    ----------
    run_id : str
        The run's id (``log_evaluation`` returns it).
    prefix : str, optional
        The ``prefix`` it was logged with.
    kind : str, optional
        One result's kind when the run holds several (``"ap_intervals"``,
        ``"roc_auc_intervals"``, ``"operating_point"``, ``"bands"``, ``"ap_difference"``,
        ``"ranking"``, ``"threshold"``, ``"report"``...).

    Returns
    -------
    result or dict
        The result, rebuilt as the object that was logged (a table of intervals with its
        ``attrs``, a Dataset, a comparison...), equal value for value; a report: the
        path of its HTML file, downloaded to a temporary folder. Values that cannot be
        stored (posterior objects, ``idata``) come back as None. When the run holds
        several results and no ``kind`` is given: a dict ``kind -> result``.

    Examples
    --------
    See :func:`log_evaluation`.
    """
    mlflow = require_mlflow()
    client = mlflow.MlflowClient()
    base = RECORDS if prefix is None else f"{RECORDS}/{_name(str(prefix).strip('/'))}"
    paths = [p for p in _records(client, run_id, base)]
    if prefix is None:  # records logged without a prefix only
        paths = [p for p in paths if p.count("/") == 1]
    found = {p.rsplit("/", 1)[1][: -len(".json")]: p for p in paths}
    if not found:
        where = "" if prefix is None else f" with prefix {prefix!r}"
        raise ValueError(f"run {run_id!r} holds no bayes_prc evaluation{where}")
    if kind is not None:
        if kind not in found:
            raise ValueError(
                f"`kind` {kind!r} is not in run {run_id!r}; it holds {', '.join(sorted(found))}"
            )
        found = {kind: found[kind]}
    out = {k: _read(mlflow, run_id, p) for k, p in found.items()}
    return next(iter(out.values())) if len(out) == 1 else out


def _read(mlflow, run_id, path):
    record = mlflow.artifacts.load_dict(f"runs:/{run_id}/{path}")
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"{path} in run {run_id!r} is not a bayes_prc record this version reads")
    value = record["value"]
    if record["kind"] == "report":
        folder = tempfile.mkdtemp(prefix="bayes_prc_")
        local = mlflow.artifacts.download_artifacts(
            run_id=run_id, artifact_path=value["file"], dst_path=folder
        )
        return Path(local)
    return decode(value)


def log_report(path, results=(), *, markdown_path=None, run=None, prefix=None, params=None):
    """Log a written report into one MLflow run: each of its ``results`` (as
    :func:`log_evaluation` does), the HTML file (and the Markdown one); returns the run id.

    :func:`bayes_prc.report` calls it with ``mlflow=True``; the active run is used, else a
    new one is started and ended.
    """
    mlflow = require_mlflow()
    run_id, started = _open_run(mlflow, run)
    try:
        for result in results:
            log_evaluation(result, run=run_id, prefix=prefix, params=params)
        log_evaluation(path, run=run_id, prefix=prefix, params=params)
        if markdown_path is not None:
            folder = "report" if prefix is None else f"{_name(prefix.strip('/'))}/report"
            mlflow.MlflowClient().log_artifact(run_id, str(markdown_path), folder)
    finally:
        if started:
            mlflow.end_run()
    return run_id
