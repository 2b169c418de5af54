"""No returned Dataset or DataArray has a dimension named after an xarray keyword (issue 39).

``ds.sel(method="logit")`` does not select along a dim ``method``: ``method`` is
``sel``'s own keyword (inexact matching), so the call silently selects nothing or fails
later. The same holds for every named parameter of the xarray methods that take
dimension names as keywords (``sel``, ``isel``, ``reindex``, ``interp``, ``head``,
``shift``, ``rolling``, ...). The forbidden names are read from those methods'
signatures (so a new xarray keyword is caught too), and the public result-returning
functions are walked on small data: every Dataset, DataArray or DataTree they return,
directly, inside a result object (dataclass fields, ``idata``, attrs) or through a
table's ``to_xarray()``, is checked.
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import bayes_prc as bp

#: xarray methods whose ``**kwargs`` are dimension names.
_DIM_KWARG_METHODS = (
    "sel",
    "isel",
    "reindex",
    "interp",
    "head",
    "tail",
    "thin",
    "shift",
    "roll",
    "drop_sel",
    "drop_isel",
    "rolling",
    "coarsen",
    "expand_dims",
    "assign_coords",
    "pad",
    "resample",
    "chunk",
)


def _keyword_names():
    names = {"method", "drop", "tolerance"}  # the ones the issue names, whatever xarray says
    for cls in (xr.Dataset, xr.DataArray):
        for meth in _DIM_KWARG_METHODS:
            params = inspect.signature(getattr(cls, meth)).parameters.values()
            names |= {
                p.name
                for p in params
                if p.name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            }
    return names


FORBIDDEN = _keyword_names()


def test_forbidden_names_are_read_from_xarray():
    # the walk below is only as strong as this list: it must hold the trap of the issue
    assert {"method", "drop", "tolerance", "indexers", "fill_value"} <= FORBIDDEN


def _xarray_objects(obj, seen, path="result"):
    """Every (path, Dataset/DataArray) reachable from a result ``obj``."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, xr.DataArray | xr.Dataset):
        yield path, obj
        for key, value in obj.attrs.items():
            yield from _xarray_objects(value, seen, f"{path}.attrs[{key!r}]")
    elif isinstance(obj, xr.DataTree):
        for node in obj.subtree:
            yield f"{path}{node.path}", node.to_dataset()
    elif isinstance(obj, pd.DataFrame):
        if type(obj) is not pd.DataFrame:  # the library's table classes: their Dataset form
            yield f"{path}.to_xarray()", obj.to_xarray()
        for key, value in obj.attrs.items():
            yield from _xarray_objects(value, seen, f"{path}.attrs[{key!r}]")
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from _xarray_objects(value, seen, f"{path}[{key!r}]")
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from _xarray_objects(value, seen, f"{path}[{i}]")
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _xarray_objects(getattr(obj, f.name), seen, f"{path}.{f.name}")
    elif hasattr(obj, "idata") and type(obj).__module__.startswith("bayes_prc"):
        yield from _xarray_objects(obj.idata, seen, f"{path}.idata")


def _assert_no_trap(name, result):
    for path, obj in _xarray_objects(result, set(), name):
        bad = set(map(str, obj.dims)) & FORBIDDEN
        assert not bad, f"{path} has dimension(s) {sorted(bad)} named after xarray keywords"


#: Arguments for posterior methods that need one; heavy or PyMC-sampling methods skipped.
_METHOD_ARGS = {
    "recall": 0.5,
    "min_precision": 0.5,
    "threshold": [0.0],
    "precision": 0.5,
    "n_test": 60,
    "quantity": "average_precision",
}
_SKIP_METHODS = {"sample_posterior_predictive"}


def _walk_methods(name, obj, skip=()):
    """Call every public method of ``obj`` that needs no argument or only known ones."""
    for attr in dir(obj):
        if attr.startswith("_") or attr in _SKIP_METHODS or attr in skip:
            continue
        member = getattr(obj, attr)
        if not callable(member):
            _assert_no_trap(f"{name}.{attr}", member)
            continue
        try:
            params = inspect.signature(member).parameters.values()
        except (TypeError, ValueError):
            continue
        required = [
            p.name
            for p in params
            if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        if not set(required) <= set(_METHOD_ARGS):
            continue
        kwargs = {k: _METHOD_ARGS[k] for k in required}
        if "n_curves" in {p.name for p in params}:
            kwargs["n_curves"] = 3
        if "random_seed" in {p.name for p in params}:
            kwargs["random_seed"] = 0
        _assert_no_trap(f"{name}.{attr}()", member(**kwargs))


@pytest.fixture(scope="module")
def data():
    # a fixed small data set: the property checked (dimension names) does not depend on it
    return bp.Binormal(1.2, 1.0, 0.0, 1.0, 0.25).sample(160, random_seed=5)


@pytest.mark.parametrize("model", ["semiparametric", "parametric", "contaminated", "flexible"])
def test_posteriors_have_no_keyword_dims(data, model):
    post = bp.fit_binormal(*data, model=model, draws=100, chains=2, random_seed=0)
    # the averaged models are the rank-based ones: a parametric fit refuses (tested in
    # test_default_band.py)
    skip = ("averaged_posteriors",) if model == "parametric" else ()
    _walk_methods(f"fit_binormal(model={model!r})", post, skip)


def test_comparisons_and_bands_have_no_keyword_dims(data):
    y, s = data
    from bayes_prc.bayes import averaged_pr_band
    from bayes_prc.simulate import coverage_study

    bands = bp.compare_bands(y, s, ci_prob=0.9, random_seed=0, n_resamples=50)
    _assert_no_trap("compare_bands", bands)
    # the acceptance of issue 39: the recommended band is one `band` value
    one = bands.sel(band=bands.attrs["recommended"])
    assert "band" not in one.dims and one["lower"].dims == ("recall",)
    table = bp.compare_intervals(y, s, random_seed=0, n_resamples=50)
    _assert_no_trap("compare_intervals", table)
    ds = table.to_xarray()
    assert ds.sel(row=table.attrs["recommended"])["low"].item() == pytest.approx(
        table.loc[table.attrs["recommended"], "low"]
    )
    _assert_no_trap("compare_operating_point", bp.compare_operating_point(y, s, threshold=0.5))
    _assert_no_trap("bootstrap_pr_band", bp.bootstrap_pr_band(y, s, n_resamples=50))
    fits = [
        bp.fit_binormal(y, s, model=m, draws=100, chains=2, random_seed=0)
        for m in ("semiparametric", "contaminated")
    ]
    _assert_no_trap("averaged_pr_band", averaged_pr_band(fits))
    _assert_no_trap(
        "coverage_study",
        coverage_study(n=200, n_rep=2, methods=("logit", "binomial"), random_seed=0),
    )
    folds = [(y[i::4], s[i::4]) for i in range(4)]
    _assert_no_trap("fold_curves", bp.fold_curves(folds))
    _assert_no_trap("deployment_prevalence", bp.deployment_prevalence(fits[0], 2, 8))
    rng = np.random.default_rng(0)
    _assert_no_trap(
        "compare_subgroups",
        bp.compare_subgroups(
            y, s, rng.choice(["a", "b", "c"], y.size), random_seed=0, draws=200, tune=200, chains=2
        ),
    )
