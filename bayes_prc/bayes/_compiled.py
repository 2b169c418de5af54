"""Compile each PyMC model once per process and reuse it across NUTS fits.

A PyMC model is built with its data in :func:`pymc.Data` containers, frozen with
:func:`pymc.model.transform.optimization.freeze_model` (whose compiled functions --
log-density and gradient, initial point, trace -- are cached on the model) and kept here
under a *structure key*: what the graph depends on besides the data (the model's name,
the prior's numbers, which observed terms exist, the number of ordered categories). A
later fit of the same structure sets its data with :func:`pymc.set_data` and samples
without compiling again; only the first fit of a structure pays PyTensor's compilation.

What the cache holds. At most :data:`MAX_MODELS` frozen models, least recently used
dropped first. Between fits every data container is emptied (:func:`_release`), so the
cache keeps no data arrays (and no traces) alive. Shapes: data whose length depends on n
(the per-item scores of the score models) are runtime inputs of the compiled functions,
so a new n does not recompile; the rank-based models' number of ordered categories is
the size of a free parameter (the cutpoints), so each category count compiles once (the
default count, ``clip(round(2 sqrt(min(n_pos, n_neg))), 8, 40)``, changes with the
number of positives: see :mod:`._ordinal`).

Samplers. ``SAMPLER = "auto"`` (default) runs nutpie's NUTS (Seyboldt et al., the
``nutpie`` extra) when nutpie is importable and PyMC's NUTS otherwise; ``"pymc"`` and
``"nutpie"`` force one. nutpie is driven through Python callbacks of the same cached
PyTensor functions (``nutpie.compiled_pyfunc.from_pyfunc``), not its own numba
compilation, which takes ~20 s per model and per process. Both return a DataTree with
the same ``posterior`` (the model's variables, untransformed, and its deterministics),
``sample_stats`` (``diverging``, ``tree_depth``, ``acceptance_rate``, ``lp``, ...) and
``observed_data`` groups.

Threads: one fit at a time (a lock around setting the data and sampling), so concurrent
fits are safe but run one after the other.

References
----------
.. [1] M. D. Hoffman and A. Gelman, "The No-U-Turn Sampler", JMLR 15 (2014), 1593-1623.
.. [2] A. Seyboldt et al., nutpie, https://github.com/pymc-devs/nutpie (2022-).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .._core import plain

__all__ = [
    "MAX_MODELS",
    "SAMPLER",
    "SamplerOptions",
    "cache_info",
    "clear_cache",
    "frozen_model",
    "sample",
]

#: How many compiled models the process keeps (least recently used dropped first).
MAX_MODELS = 16
#: NUTS implementation: "auto" (nutpie if installed, else PyMC), "pymc" or "nutpie".
SAMPLER = "auto"

_MODELS = OrderedDict()  # structure key -> _Entry
_LOCK = threading.RLock()

# nutpie's sample statistics under PyMC's names (the rest keep nutpie's names)
_NUTPIE_STATS = {
    "depth": "tree_depth",
    "maxdepth_reached": "reached_max_treedepth",
    "mean_tree_accept": "acceptance_rate",
    "logp": "lp",
}


@dataclass(frozen=True)
class SamplerOptions:
    """NUTS settings of one fit, carried as one object from a public fit to the sampler.

    Public fits (:func:`~bayes_prc.fit_binormal`, the paired, pool and score models) keep
    their keyword arguments and build this once; everything below them passes it on.
    Values are taken as given (each public function validates its own arguments).

    Parameters
    ----------
    draws, chains, tune : int, default 1000, 4, 1000
        Posterior draws per chain, chains and tuning steps.
    cores : int or None, default None
        Processes for PyMC's sampler (None: PyMC's default).
    target_accept : float, default 0.9
        NUTS' target acceptance rate.
    progressbar : bool or None, default None
        Show the sampler's progress bar (None: the sampler's default, a bar).

    Examples
    --------
    >>> from bayes_prc.bayes import SamplerOptions
    >>> SamplerOptions(draws=500, chains=2).tune
    1000
    """

    draws: int = 1000
    chains: int = 4
    tune: int = 1000
    cores: int | None = None
    target_accept: float = 0.9
    progressbar: bool | None = None


class _Entry:
    """A frozen model and the functions compiled for it (built on first use)."""

    def __init__(self, model):
        self.model = model
        self.functions = {}

    def function(self, name, make):
        if name not in self.functions:
            self.functions[name] = make(self.model)
        return self.functions[name]


def _entry(key, build):
    from pymc.model.transform.optimization import freeze_model

    with _LOCK:
        entry = _MODELS.pop(key, None)
        if entry is None:
            entry = _Entry(freeze_model(build()))
        _MODELS[key] = entry
        while len(_MODELS) > MAX_MODELS:
            _MODELS.popitem(last=False)
        return entry


def frozen_model(key, build):
    """The cached frozen model of structure ``key`` (``build()`` makes it the first time)."""
    return _entry(key, build).model


def cache_info():
    """``{"models": number of cached models, "keys": their structure keys}``."""
    with _LOCK:
        return {"models": len(_MODELS), "keys": list(_MODELS)}


def clear_cache():
    """Drop every compiled model (the next fit of each structure compiles again)."""
    with _LOCK:
        _MODELS.clear()


def sampler_name():
    """The NUTS implementation :data:`SAMPLER` resolves to: ``"pymc"`` or ``"nutpie"``.

    Examples
    --------
    >>> from bayes_prc.bayes import _compiled
    >>> _compiled.sampler_name() in ("pymc", "nutpie")
    True
    """
    if SAMPLER not in ("auto", "pymc", "nutpie"):
        raise ValueError(f"`SAMPLER` must be 'auto', 'pymc' or 'nutpie'; got {plain(SAMPLER)}")
    if SAMPLER != "auto":
        return SAMPLER
    try:
        import nutpie  # noqa: F401
    except ImportError:
        return "pymc"
    return "nutpie"


def sample(
    key,
    build,
    data,
    *,
    seeds,
    sampler,
    coords=None,
    log_likelihood=None,
):
    """NUTS draws of the model of structure ``key`` given ``data``; returns the DataTree.

    Parameters
    ----------
    key : hashable
        Everything the model's graph depends on besides ``data``.
    build : callable
        ``build()`` returns the :class:`pymc.Model` (data in ``pm.Data`` containers);
        called only when ``key`` is not cached.
    data : dict
        Values of the model's data containers for this fit (all of them).
    seeds : list of int
        One seed per chain (nutpie takes the first).
    sampler : SamplerOptions
        Draws, chains, tuning steps, cores, target acceptance and progress bar.
    coords : dict, optional
        New coordinate values of dims whose length follows the data (e.g. ``item``).
    log_likelihood : str, optional
        Name of an observed variable whose pointwise log-density to add as group
        ``log_likelihood`` (over the posterior draws).
    """
    # the package's one default, progressbar=None, is PyMC's own default (a bar) here
    progressbar = True if sampler.progressbar is None else bool(sampler.progressbar)
    entry = _entry(key, build)
    model = entry.model
    with _LOCK:
        _set_data(model, data, coords)
        try:
            kw = dict(
                draws=int(sampler.draws),
                tune=int(sampler.tune),
                chains=int(sampler.chains),
                seeds=list(seeds),
                progressbar=progressbar,
                cores=sampler.cores,
                target_accept=sampler.target_accept,
            )
            if sampler_name() == "nutpie":
                idata = _sample_nutpie(entry, **kw)
            else:
                idata = _sample_pymc(model, **kw)
            if log_likelihood is not None:
                idata["log_likelihood"] = _pointwise_log_likelihood(entry, idata, log_likelihood)
        finally:
            _release(model, data, coords)
    return idata


# --------------------------------------------------------------------------------------
# data in and out of the cached model
# --------------------------------------------------------------------------------------
def _set_data(model, data, coords):
    import pymc as pm

    names = {v.name for v in model.data_vars}
    if set(data) != names:
        raise ValueError(f"data for {sorted(names)} needed; got {sorted(data)}")
    pm.set_data(data, model=model, coords=coords)


def _release(model, data, coords):
    """Empty the data containers (length 0 along the data-sized dims, else zeros)."""
    import pymc as pm

    empty = {}
    for name, value in data.items():
        value = np.asarray(value)
        if coords:
            shape = (0,) + value.shape[1:] if value.ndim else ()
            empty[name] = np.zeros(shape, dtype=value.dtype)
        else:
            empty[name] = np.zeros_like(value)
    pm.set_data(empty, model=model, coords={k: np.arange(0) for k in (coords or {})})


def _tidy(idata):
    """Keep the groups both samplers return (``constant_data`` holds the data: dropped)."""
    for group in list(idata.children):
        if group not in ("posterior", "sample_stats", "observed_data"):
            del idata[group]
    return idata


# --------------------------------------------------------------------------------------
# PyMC's NUTS
# --------------------------------------------------------------------------------------
def _sample_pymc(model, *, seeds, draws, tune, chains, progressbar, cores, target_accept):
    import pymc as pm

    with model:
        idata = pm.sample(
            draws=draws,
            tune=tune,
            chains=chains,
            cores=cores,
            random_seed=seeds,
            progressbar=progressbar,
            target_accept=target_accept,
            compute_convergence_checks=False,
            nuts_sampler="pymc",
        )
    return _tidy(idata)


# --------------------------------------------------------------------------------------
# nutpie's NUTS on the cached PyTensor functions
# --------------------------------------------------------------------------------------
def _nutpie_functions(model):
    """Log-density and gradient, expansion and initial point of ``model`` for nutpie."""
    import pytensor
    from pymc.initial_point import make_initial_point_fns_per_chain

    value_vars = list(model.value_vars)
    point = model.initial_point()
    shapes = [np.shape(point[v.name]) for v in value_vars]
    ends = np.cumsum([int(np.prod(s)) for s in shapes])
    slices = [slice(int(e - np.prod(s)), int(e)) for s, e in zip(shapes, ends, strict=True)]
    out_vars = [*model.free_RVs, *model.deterministics]
    expand = model.compile_fn(
        outs=model.replace_rvs_by_values(out_vars), inputs=value_vars, point_fn=False
    )
    expand.trust_input = True
    value_grad = model.logp_dlogp_function(ravel_inputs=True)
    value_grad.set_extra_values({})
    # the compiled function itself, fed exactly typed inputs (float64 vectors from nutpie)
    logp_dlogp = getattr(value_grad, "_pytensor_function", value_grad)
    logp_dlogp.trust_input = True
    out = expand(*[np.asarray(point[v.name], dtype=v.dtype) for v in value_vars])
    return {
        "value_names": [v.name for v in value_vars],
        "shapes": shapes,
        "slices": slices,
        "ndim": int(ends[-1]),
        "names": [v.name for v in out_vars],
        "out_shapes": [tuple(np.shape(a)) for a in out],
        "dtypes": [np.dtype(pytensor.config.floatX)] * len(out_vars),
        "expand": expand,
        "logp_dlogp": logp_dlogp,
        "initial": make_initial_point_fns_per_chain(
            model=model, overrides=None, jitter_rvs=set(model.free_RVs), chains=1
        )[0],
    }


def _sample_nutpie(entry, *, seeds, draws, tune, chains, progressbar, cores, target_accept):
    import nutpie
    import pandas as pd  # nutpie's coordinates (a dependency of nutpie)
    from nutpie.compiled_pyfunc import from_pyfunc
    from pymc.backends.arviz import coords_and_dims_for_inferencedata

    model = entry.model
    f = entry.function("nutpie", _nutpie_functions)
    # nutpie calls these from its sampling thread; a PyTensor function is not reentrant,
    # so one lock around them (cores=1 below: the chains run one after the other anyway)
    lock = threading.Lock()
    logp_dlogp, expand_fn = f["logp_dlogp"], f["expand"]
    parts = list(zip(f["slices"], f["shapes"], strict=True))
    names = f["names"]

    def make_logp():
        def logp(x):
            with lock:
                value, grad = logp_dlogp(x)
                return float(value), grad.copy()

        return logp

    def make_expand(seed1, seed2, chain):
        def expand(x):
            with lock:
                vals = expand_fn(*[x[sl].reshape(shape) for sl, shape in parts])
                return {
                    n: np.array(v, dtype=np.float64, order="C")
                    for n, v in zip(names, vals, strict=True)
                }

        return expand

    def initial_point(seed):
        point = f["initial"](int(seed) % 2**31)
        return np.concatenate([np.ravel(point[n]) for n in f["value_names"]]).astype(np.float64)

    coords, dims = coords_and_dims_for_inferencedata(model)
    dims = {n: tuple(d) for n, d in dims.items() if n in f["names"]}
    used = {d for ds in dims.values() for d in ds}
    compiled = from_pyfunc(
        f["ndim"],
        make_logp,
        make_expand,
        f["dtypes"],
        f["out_shapes"],
        f["names"],
        coords={k: pd.Index(np.asarray(v)) for k, v in coords.items() if k in used},
        dims=dims,
        make_initial_point_fn=initial_point,
    )
    out = nutpie.sample(
        compiled,
        draws=draws,
        tune=tune,
        chains=chains,
        cores=1,  # Python callbacks hold the GIL: threads would only add overhead
        seed=int(seeds[0]),
        save_warmup=False,
        progress_bar=bool(progressbar),
        target_accept=float(target_accept),
    )
    return _as_pymc_datatree(out, model)


def _as_pymc_datatree(out, model):
    """nutpie's DataTree with PyMC's group layout, stat names and ``observed_data``."""
    import pymc
    import xarray as xr
    from pymc.backends.arviz import (
        coords_and_dims_for_inferencedata,
        dict_to_dataset,
        find_observations,
    )

    names = [v.name for v in (*model.free_RVs, *model.deterministics)]
    posterior = out["posterior"].to_dataset()[names]
    stats = out["sample_stats"].to_dataset()
    stats = stats.rename({k: v for k, v in _NUTPIE_STATS.items() if k in stats})
    coords, dims = coords_and_dims_for_inferencedata(model)
    observed = dict_to_dataset(
        find_observations(model), inference_library=pymc, coords=coords, dims=dims, sample_dims=[]
    )
    return xr.DataTree.from_dict(
        {"posterior": posterior, "sample_stats": stats, "observed_data": observed}
    )


# --------------------------------------------------------------------------------------
# pointwise log-likelihood (PSIS-LOO of the score models)
# --------------------------------------------------------------------------------------
def _log_likelihood_function(name):
    def make(model):
        import pymc as pm
        from pymc.pytensorf import compile as compile_pymc
        from pytensor.graph.replace import graph_replace

        # PyMC's log-density of the observed variable given untransformed values of the
        # free variables (the posterior's), reading the model's own data containers
        rv = model[name]
        free = list(model.free_RVs)
        inputs = [v.type(name=v.name) for v in free]
        logp = pm.logp(rv, model.rvs_to_values[rv])
        logp = graph_replace(logp, dict(zip(free, inputs, strict=True)), strict=False)
        fn = compile_pymc(inputs, logp, on_unused_input="ignore")
        fn.trust_input = True
        return [v.name for v in free], fn

    return make


def _pointwise_log_likelihood(entry, idata, name):
    """Log-density of each observation of ``name`` at every posterior draw (chain, draw, ...)."""
    import xarray as xr
    from pymc.backends.arviz import coords_and_dims_for_inferencedata

    free, fn = entry.function(f"loglik:{name}", _log_likelihood_function(name))
    post = idata["posterior"]
    values = [np.ascontiguousarray(post[n].values, dtype=np.float64) for n in free]
    chains, draws = values[0].shape[:2]
    arr = np.stack([fn(*[v[c, d] for v in values]) for c in range(chains) for d in range(draws)])
    arr = arr.reshape(chains, draws, *arr.shape[1:])
    out_coords, dims = coords_and_dims_for_inferencedata(entry.model)
    obs_dims = dims.get(name) or [f"{name}_dim_{i}" for i in range(arr.ndim - 2)]
    coords = {"chain": np.arange(chains), "draw": np.arange(draws)}
    coords.update({d: out_coords[d] for d in obs_dims if d in out_coords})
    da = xr.DataArray(arr, dims=("chain", "draw", *obs_dims), coords=coords)
    return xr.Dataset({name: da})
