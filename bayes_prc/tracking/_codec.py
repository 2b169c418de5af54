"""Results to JSON and back, value for value.

A result is encoded as a tree of JSON values in which arrays keep their bytes (base64 of
the little-endian buffer, with dtype and shape), so floats come back bit for bit (JSON
text would round some); tables, Datasets and the library's dataclasses are tagged with
their kind and rebuilt as such. What cannot be stored as values (a posterior object, an
InferenceData, a function) is written as a marker naming its type and read back as None.
"""

from __future__ import annotations

import base64
import dataclasses
import importlib
import math
from pathlib import PurePath

import numpy as np

__all__ = ["decode", "encode", "not_stored"]

#: Modules whose classes :func:`decode` may rebuild (tables and dataclasses).
_TRUSTED = ("bayes_prc", "pandas", "arviz", "arviz_base", "arviz_stats")


def _class_key(cls):
    return f"{cls.__module__}:{cls.__qualname__}"


def _load_class(key):
    module, _, qualname = key.partition(":")
    if module.split(".")[0] not in _TRUSTED:
        return None
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return obj if isinstance(obj, type) else None


def _array(a):
    a = np.asarray(a)
    if a.dtype.kind in "biufc":
        data = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))
        return {
            "__array__": base64.b64encode(data.tobytes()).decode("ascii"),
            "dtype": data.dtype.str,
            "shape": list(a.shape),
        }
    if a.dtype.kind == "M" or a.dtype.kind == "m":
        return {"__array__": None, "dtype": a.dtype.str, "values": a.astype("i8").tolist()}
    # strings and objects: element by element
    return {
        "__array__": None,
        "dtype": a.dtype.str if a.dtype.kind == "U" else "object",
        "shape": list(a.shape),
        "values": [encode(x) for x in a.ravel().tolist()],
    }


def _from_array(d):
    dtype = np.dtype(d["dtype"])
    if d["__array__"] is not None:
        raw = base64.b64decode(d["__array__"])
        return np.frombuffer(raw, dtype=dtype).reshape(d["shape"]).astype(dtype.newbyteorder("="))
    if dtype.kind in "mM":
        return np.asarray(d["values"], "i8").astype(dtype)
    values = [decode(x) for x in d["values"]]
    out = np.empty(len(values), dtype=dtype)
    out[:] = values
    return out.reshape(d["shape"])


def _index(index):
    import pandas as pd

    if isinstance(index, pd.MultiIndex):
        return {
            "levels": [_array(index.get_level_values(i).to_numpy()) for i in range(index.nlevels)],
            "dtypes": [str(index.get_level_values(i).dtype) for i in range(index.nlevels)],
            "names": [encode(n) for n in index.names],
        }
    return {
        "values": _array(index.to_numpy()),
        "dtype": str(index.dtype),
        "name": encode(index.name),
    }


def _from_index(d):
    import pandas as pd

    if "levels" in d:
        arrays = [
            pd.Index(_from_array(a)).astype(t)
            for a, t in zip(d["levels"], d["dtypes"], strict=True)
        ]
        return pd.MultiIndex.from_arrays(arrays, names=[decode(n) for n in d["names"]])
    return pd.Index(_from_array(d["values"]), name=decode(d["name"])).astype(d["dtype"])


def _frame(df):
    return {
        "__frame__": _class_key(type(df)),
        "columns": _index(df.columns),
        "values": [_array(df.iloc[:, j].to_numpy()) for j in range(df.shape[1])],
        "dtypes": [str(t) for t in df.dtypes],
        "index": _index(df.index),
        "attrs": encode(dict(df.attrs)),
    }


def _from_frame(d):
    import pandas as pd

    columns = _from_index(d["columns"])
    index = _from_index(d["index"])
    data = {
        j: pd.Series(_from_array(v), index=index).astype(t)
        for j, (v, t) in enumerate(zip(d["values"], d["dtypes"], strict=True))
    }
    df = pd.DataFrame(data, index=index)
    df.columns = columns
    cls = _load_class(d["__frame__"])
    if cls is not None and issubclass(cls, pd.DataFrame) and cls is not pd.DataFrame:
        try:
            df = cls(df)
        except Exception:  # a subclass that cannot wrap a frame: the plain frame
            pass
    df.attrs = decode(d["attrs"])
    return df


def _series(s):
    return {
        "__series__": True,
        "values": _array(s.to_numpy()),
        "dtype": str(s.dtype),
        "index": _index(s.index),
        "name": encode(s.name),
        "attrs": encode(dict(s.attrs)),
    }


def _from_series(d):
    import pandas as pd

    s = pd.Series(_from_array(d["values"]), index=_from_index(d["index"]), name=decode(d["name"]))
    s = s.astype(d["dtype"])
    s.attrs = decode(d["attrs"])
    return s


def _variable(v):
    return {"dims": list(v.dims), "values": _array(v.values), "attrs": encode(dict(v.attrs))}


def _xarray(obj):
    import xarray as xr

    if isinstance(obj, xr.DataArray):
        return {
            "__xarray__": "DataArray",
            "name": encode(obj.name),
            "variable": _variable(obj.variable),
            "coords": {str(k): _variable(c.variable) for k, c in obj.coords.items()},
        }
    return {
        "__xarray__": "Dataset",
        "data_vars": {str(k): _variable(v.variable) for k, v in obj.data_vars.items()},
        "coords": {str(k): _variable(c.variable) for k, c in obj.coords.items()},
        "indexes": [str(k) for k in obj.xindexes],
        "attrs": encode(dict(obj.attrs)),
    }


def _from_variable(d):
    import xarray as xr

    return xr.Variable(d["dims"], _from_array(d["values"]), attrs=decode(d["attrs"]))


def _from_xarray(d):
    import xarray as xr

    coords = {k: _from_variable(v) for k, v in d["coords"].items()}
    if d["__xarray__"] == "DataArray":
        v = _from_variable(d["variable"])
        return xr.DataArray(v, coords=coords, name=decode(d["name"]))
    data_vars = {k: _from_variable(v) for k, v in d["data_vars"].items()}
    ds = xr.Dataset(data_vars, coords=coords, attrs=decode(d["attrs"]))
    for name in d.get("indexes", ()):
        if name not in ds.xindexes:  # an index on a coordinate that is not a dimension
            ds = ds.set_xindex(name)
    return ds


def _dataclass(obj):
    values = {f.name: encode(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    return {"__dataclass__": _class_key(type(obj)), "fields": values}


def _from_dataclass(d):
    cls = _load_class(d["__dataclass__"])
    values = {k: decode(v) for k, v in d["fields"].items()}
    if cls is None or not dataclasses.is_dataclass(cls):
        return values  # a class this version does not have: its fields
    init = {f.name for f in dataclasses.fields(cls) if f.init}
    obj = cls(**{k: v for k, v in values.items() if k in init})
    for k, v in values.items():
        if k not in init:
            object.__setattr__(obj, k, v)
    return obj


def not_stored(value):
    """The marker of a value :func:`encode` cannot store (read back as None)."""
    return {"__not_stored__": f"{type(value).__module__}.{type(value).__qualname__}"}


def encode(value):
    """A JSON-ready tree for ``value`` (see the module docstring)."""
    import pandas as pd
    import xarray as xr

    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | np.integer) and not isinstance(value, np.bool_):
        return int(value)
    if isinstance(value, float | np.floating):
        x = float(value)
        return x if math.isfinite(x) else {"__float__": repr(x)}
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return _array(value)
    if isinstance(value, pd.DataFrame):
        return _frame(value)
    if isinstance(value, pd.Series):
        return _series(value)
    if isinstance(value, xr.DataArray | xr.Dataset):
        return _xarray(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass(value)
    if isinstance(value, PurePath):
        return {"__path__": str(value)}
    if isinstance(value, dict):
        return {"__dict__": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    return not_stored(value)


_DECODERS = {
    "__array__": _from_array,
    "__frame__": _from_frame,
    "__series__": _from_series,
    "__xarray__": _from_xarray,
    "__dataclass__": _from_dataclass,
}


def decode(tree):
    """The value :func:`encode` stored in ``tree``."""
    if isinstance(tree, list):
        return [decode(v) for v in tree]
    if not isinstance(tree, dict):
        return tree
    for tag, fn in _DECODERS.items():
        if tag in tree:
            return fn(tree)
    if "__float__" in tree:
        return float(tree["__float__"])
    if "__dict__" in tree:
        return {_hashable(decode(k)): decode(v) for k, v in tree["__dict__"]}
    if "__tuple__" in tree:
        return tuple(decode(v) for v in tree["__tuple__"])
    if "__path__" in tree:
        from pathlib import Path

        return Path(tree["__path__"])
    if "__not_stored__" in tree:
        return None
    raise ValueError(f"not a bayes_prc tracking record: keys {sorted(tree)}")


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, list) else key
