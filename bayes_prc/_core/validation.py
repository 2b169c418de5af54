"""Input validation shared by every public function.

Every check raises :class:`ValueError` (or :class:`TypeError` for the wrong kind of
object) with a message that names the parameter in backticks and quotes the offending
value, so that a user can find the problem without reading our code.
"""

from __future__ import annotations

import math
import numbers
import os
import warnings

import numpy as np

__all__ = [
    "as_array",
    "check_1d",
    "check_finite_scores",
    "check_consistent_length",
    "check_sample_weight",
    "check_random_state",
    "check_binary_target",
    "check_pool_scores",
    "check_selected_labels",
    "type_of_target",
    "unique_labels",
    "validate_binary_inputs",
    "check_int",
    "check_choice",
    "check_probability",
    "check_bool",
    "is_dask",
    "warn_at_caller",
    "plain",
]


def plain(value):
    """``repr(value)`` in the user's words: NumPy scalars and arrays as Python values.

    ``np.float64(0.5)`` reads ``0.5``, ``np.array([1, 2])`` reads ``[1, 2]`` (long arrays
    shortened), in tuples, lists and dicts too; anything else is its ``repr``. For the
    values quoted in messages (NumPy 2 writes ``np.float64(...)`` otherwise).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc._core import plain
    >>> plain(np.float64(0.25)), plain((np.int64(1), "a")), plain(np.arange(3))
    ('0.25', "(1, 'a')", '[0, 1, 2]')
    """
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return repr(value.item())
        flat = value.ravel()
        if flat.size > 10:
            head = ", ".join(plain(v) for v in flat[:10])
            return f"[{head}, ...] (shape {value.shape})"
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        inner = ", ".join(plain(v) for v in value)
        if isinstance(value, tuple):
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        return f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{plain(k)}: {plain(v)}" for k, v in value.items()) + "}"
    return repr(value)


def as_array(x, name):
    """Convert lists, numpy arrays, pandas Series and xarray DataArrays to numpy."""
    if x is None:
        raise ValueError(f"`{name}` must be array-like; got None")
    if hasattr(x, "values") and hasattr(x, "dims"):  # xarray.DataArray
        x = x.values
    elif hasattr(x, "to_numpy"):  # pandas Series / DataFrame / Index
        x = x.to_numpy()
    if isinstance(x, str) or np.isscalar(x):
        raise ValueError(f"`{name}` must be array-like; got the scalar {plain(x)}")
    arr = np.asarray(x)
    if arr.dtype.kind == "O":
        # ragged lists become object arrays; numbers or strings in an object array are fine
        try:
            arr = np.asarray(x.tolist() if hasattr(x, "tolist") else list(x))
        except (TypeError, ValueError) as err:  # pragma: no cover - numpy decides
            raise ValueError(f"`{name}` could not be read as an array: {err}") from None
    return arr


def check_1d(x, name, *, allow_empty=False):
    """Return ``x`` as a 1-D numpy array; a column vector of shape (n, 1) is raveled."""
    arr = as_array(x, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-dimensional; got an array of shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"`{name}` is empty; at least one sample is required")
    return arr


def _first_bad(mask):
    idx = np.flatnonzero(mask)
    return int(idx[0]), idx.size


def check_finite_scores(y_score, name="y_score"):
    """Scores must be real numbers, without NaN or infinity."""
    arr = np.asarray(y_score)
    if arr.dtype.kind not in "biuf":
        raise ValueError(
            f"`{name}` must be numeric; got dtype {arr.dtype} (first value {plain(arr.flat[0])})"
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            i, count = _first_bad(bad)
            what = "NaN" if np.isnan(arr.flat[i]) else "an infinite value"
            raise ValueError(
                f"`{name}` contains {what} ({arr.flat[i].item()!r} at index {i}; "
                f"{count} non-finite value(s) in all); scores must be finite"
            )
    return arr


def check_consistent_length(**arrays):
    """All given arrays (by keyword name) must have the same number of samples."""
    items = [(k, v) for k, v in arrays.items() if v is not None]
    lengths = {k: np.shape(v)[0] for k, v in items}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"`{k}` has {n}" for k, n in lengths.items())
        raise ValueError(f"inputs have inconsistent numbers of samples: {desc}")


def check_paired_scores(y_true, score_a, score_b):
    """Labels and two classifiers' scores of the same items: each 1-D, one length, and
    the scores finite; messages name ``y_true``, ``score_a`` and ``score_b``.

    Returns ``(y, a, b)`` as arrays (the labels not yet checked as a binary target).
    """
    a = check_1d(score_a, "score_a")
    b = check_1d(score_b, "score_b")
    y = check_1d(y_true, "y_true")
    check_consistent_length(y_true=y, score_a=a, score_b=b)
    return y, check_finite_scores(a, "score_a"), check_finite_scores(b, "score_b")


def check_sample_weight(sample_weight, n_samples, name="sample_weight"):
    """Weights: 1-D, one per sample, finite and non-negative; ``None`` passes through."""
    if sample_weight is None:
        return None
    if np.isscalar(sample_weight) and not isinstance(sample_weight, str):
        w = np.full(n_samples, float(sample_weight))
    else:
        w = check_1d(sample_weight, name, allow_empty=True)
    if w.dtype.kind not in "biuf":
        raise ValueError(f"`{name}` must be numeric; got dtype {w.dtype}")
    w = w.astype(np.float64, copy=False)
    if w.shape[0] != n_samples:
        raise ValueError(f"`{name}` has {w.shape[0]} elements but there are {n_samples} samples")
    bad = ~np.isfinite(w)
    if bad.any():
        i, _ = _first_bad(bad)
        raise ValueError(f"`{name}` must be finite; got {w[i].item()!r} at index {i}")
    neg = w < 0
    if neg.any():
        i, _ = _first_bad(neg)
        raise ValueError(f"`{name}` must be non-negative; got {w[i].item()!r} at index {i}")
    return w


def check_random_state(random_seed):
    """Turn ``None``, an int or a :class:`numpy.random.Generator` into a Generator."""
    if isinstance(random_seed, np.random.Generator):
        return random_seed
    if random_seed is None or isinstance(random_seed, numbers.Integral):
        return np.random.default_rng(random_seed)
    if isinstance(random_seed, np.random.SeedSequence):
        return np.random.default_rng(random_seed)
    raise ValueError(
        f"`random_seed` must be None, an int or a numpy.random.Generator; got {plain(random_seed)}"
    )


def unique_labels(arr):
    """Sorted distinct values, like :func:`numpy.unique`, in O(n) for small integer ranges.

    Label arrays are mostly 0/1 integers or booleans: their distinct values follow from
    the minimum and maximum (or ``any``/``all``) alone; other small integer ranges are
    counted with :func:`numpy.bincount`. Both avoid the O(n log n) sort that dominated the
    validation of large inputs.
    """
    arr = np.asarray(arr).ravel()
    if arr.size and arr.dtype.kind == "b":
        present = np.array([not arr.all(), bool(arr.any())])
        return np.array([False, True])[present]
    if arr.size and arr.dtype.kind in "iu":
        lo, hi = arr.min(), arr.max()
        if int(hi) - int(lo) <= 1:  # min and max are the only values (0/1 labels)
            return np.unique(np.array([lo, hi], dtype=arr.dtype))
        if int(hi) - int(lo) <= 4 * arr.size + 1024:
            counts = np.bincount((arr - lo).astype(np.intp, copy=False))
            return (np.flatnonzero(counts) + lo).astype(arr.dtype)
    return np.unique(arr)


def _is_integral_float(arr):
    return arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))


def type_of_target(y, name="y_true"):
    """Classify a target like :func:`sklearn.utils.multiclass.type_of_target`.

    Returns one of ``"binary"``, ``"multiclass"``, ``"multilabel-indicator"``,
    ``"continuous"``, ``"multiclass-multioutput"``, ``"continuous-multioutput"``.
    """
    arr = as_array(y, name)
    if arr.size == 0:
        raise ValueError(f"`{name}` is empty; at least one sample is required")
    if arr.ndim > 2:
        raise ValueError(f"`{name}` must be 1- or 2-dimensional; got shape {arr.shape}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        i, _ = _first_bad(~np.isfinite(arr.ravel()))
        raise ValueError(
            f"`{name}` contains a non-finite label ({arr.ravel()[i].item()!r} at index {i})"
        )
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.dtype.kind == "f" and not _is_integral_float(arr):
        return "continuous" if arr.ndim == 1 else "continuous-multioutput"
    if arr.ndim == 2:
        values = unique_labels(arr)
        if arr.dtype.kind in "biuf" and values.size <= 2 and np.all(np.isin(values, [0, 1])):
            return "multilabel-indicator"
        return "multiclass-multioutput"
    return "binary" if unique_labels(arr).size <= 2 else "multiclass"


def _shown(values):
    """``'a', 'b'``: the labels as scikit-learn lists them in its messages."""
    return ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in values)


def check_binary_target(y_true, pos_label=None, name="y_true"):
    """Validate a binary target and return ``(is_positive, pos_label, classes)``.

    Follows scikit-learn's rule: without ``pos_label`` the labels must be {0, 1} or
    {-1, 1} (or a subset); with ``pos_label`` any two labels (numbers, strings or
    booleans) work, and a ``pos_label`` that is absent means no positive sample. Bytes
    labels need an explicit ``pos_label`` (scikit-learn refuses them with a TypeError).
    """
    y = check_1d(y_true, name)
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        i, _ = _first_bad(~np.isfinite(y))
        hint = ""
        if np.isnan(y[i]):
            hint = (
                f"; {int(np.isnan(y).sum())} labels are missing: unlabelled items of a pool "
                "whose labelled rows are a selection are evaluated with bayes_prc.pool "
                "(select_labels, fit_pool), not as a test set"
            )
        raise ValueError(
            f"`{name}` contains a non-finite label ({y[i].item()!r} at index {i}){hint}"
        )
    classes = unique_labels(y)
    continuous = y.dtype.kind == "f" and not _is_integral_float(y)
    if classes.size > 2:
        shown = ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in classes[:10])
        raise ValueError(  # scikit-learn's words: "multiclass format is not supported"
            f"`{name}` must be binary (at most two distinct labels) here; got "
            f"{classes.size} labels: [{shown}{', ...' if classes.size > 10 else ''}]; "
            f"{'continuous' if continuous else 'multiclass'} format is not supported"
        )
    if continuous:
        raise ValueError(
            f"`{name}` must hold class labels; got continuous values such as {y[0].item()!r}"
        )
    if pos_label is None:
        if classes.dtype.kind == "S":
            raise TypeError(  # scikit-learn's TypeError for bytes labels
                f"`{name}` takes values in {{{_shown(classes)}}} and pos_label is not "
                "specified (pass it to use bytes labels). Support for labels represented "
                "as bytes is not supported. Convert the labels to a string or integer format."
            )
        numeric = classes.dtype.kind in "biuf"
        ok = numeric and any(
            classes.size == len(ref) and np.array_equal(classes, ref)
            for ref in ([0, 1], [-1, 1], [0], [1], [-1])
        )
        if classes.dtype.kind == "b":
            ok = True
        if not ok:
            raise ValueError(  # scikit-learn's message, word for word
                f"{name} takes value in {{{_shown(classes)}}} and pos_label is not "
                f"specified: either make {name} take value in {{0, 1}} or {{-1, 1}} or pass "
                "pos_label explicitly."
            )
        pos_label = True if classes.dtype.kind == "b" else 1
    is_pos = y == pos_label
    return np.asarray(is_pos, dtype=bool), pos_label, classes


def check_pool_scores(y_score):
    """The scores of a whole pool as a 1-D array (finite; booleans become integers).

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)

    Returns
    -------
    ndarray
    """
    s = check_finite_scores(check_1d(y_score, "y_score"), "y_score")
    if s.dtype.kind == "b":
        s = s.astype(np.int64)
    return s


def check_selected_labels(y_labels, n_selected, *, name="y_labels", pos_label=None):
    """Positive mask of the selected items' labels, one label per selected item.

    Parameters
    ----------
    y_labels : array-like of shape (n_selected,)
        Binary labels of the selected items, aligned with ``selection.indices``.
    n_selected : int
        Number of selected items.
    name : str, default "y_labels"
        The caller's parameter name, used in the error messages.
    pos_label : label, optional
        The positive label (as for :func:`check_binary_target`).

    Returns
    -------
    ndarray of bool
    """
    y = check_1d(y_labels, name)
    if y.shape[0] != n_selected:
        raise ValueError(
            f"`{name}` must hold the labels of the selected items, one label per selected "
            f"item ({n_selected}, aligned with `selection.indices`); got {y.shape[0]} "
            "labels. Labels for unselected items cannot be used: pass `y[selection.indices]`"
        )
    return check_binary_target(y, pos_label, name=name)[0]


def validate_binary_inputs(y_true, y_score, *, pos_label=None, sample_weight=None):
    """One entry point for binary (y_true, y_score[, weight]) input.

    Returns ``(is_positive, y_score, sample_weight, pos_label)`` with ``is_positive`` a
    boolean array, ``y_score`` a finite numeric 1-D array and ``sample_weight`` a
    float64 array or None.
    """
    y_score_arr = check_1d(y_score, "y_score")
    y_true_arr = check_1d(y_true, "y_true")
    check_consistent_length(y_true=y_true_arr, y_score=y_score_arr)
    y_score_arr = check_finite_scores(y_score_arr, "y_score")
    if y_score_arr.dtype.kind == "b":
        y_score_arr = y_score_arr.astype(np.int64)
    is_pos, pos_label, _ = check_binary_target(y_true_arr, pos_label)
    w = check_sample_weight(sample_weight, y_true_arr.shape[0])
    if w is not None and not np.any(w):
        raise ValueError("`sample_weight` is zero for every sample; nothing to evaluate")
    return is_pos, y_score_arr, w, pos_label


def check_bool(value, name):
    """``value`` must be a Python or numpy bool (not 0/1, not a string)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"`{name}` must be True or False; got {plain(value)}")


def is_dask(x):
    """True for dask collections and dask-backed xarray objects (never imports dask).

    A look at the type's module name: such input goes to :mod:`bayes_prc.scale`, which
    computes lazily and in parallel (see :mod:`bayes_prc._dispatch`).
    """
    if type(x).__module__.partition(".")[0] == "dask":
        return True
    data = getattr(x, "data", None) if hasattr(x, "dims") else None  # xarray.DataArray
    return type(data).__module__.partition(".")[0] == "dask"


_PACKAGE_DIR = os.path.dirname(os.path.dirname(__file__)) + os.sep  # bayes_prc/


def warn_at_caller(message, category):
    """Warn at the first frame outside bayes_prc, however deep inside it the warning arises.

    Public functions call each other (and :mod:`bayes_prc._dispatch` wraps some), so a
    fixed ``stacklevel`` would point into the package for some callers.
    """
    warnings.warn(message, category, skip_file_prefixes=(_PACKAGE_DIR,))


# --------------------------------------------------------------------------------------
# options (one checker per kind; messages name the parameter and quote the value)
# --------------------------------------------------------------------------------------
def check_int(value, name, minimum=1):
    """An integer (not a bool) ``>= minimum``, returned as ``int``.

    Examples
    --------
    >>> from bayes_prc._core import check_int
    >>> check_int(5, "n_resamples")
    5
    >>> check_int(0, "n_resamples")
    Traceback (most recent call last):
    ...
    ValueError: `n_resamples` must be an integer >= 1; got 0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {plain(value)}")
    if value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {plain(value)}")
    return int(value)


def check_positive_number(value, name):
    """A finite number ``> 0`` (anything ``float()`` takes), returned as ``float``.

    Examples
    --------
    >>> from bayes_prc._core import check_positive_number
    >>> check_positive_number(2, "beta")
    2.0
    >>> check_positive_number("x", "beta")
    Traceback (most recent call last):
    ...
    ValueError: `beta` must be a finite number > 0; got 'x'
    """
    try:
        out = float(value)
    except (TypeError, ValueError):
        out = math.nan
    if not (math.isfinite(out) and out > 0.0):
        raise ValueError(f"`{name}` must be a finite number > 0; got {plain(value)}")
    return out


def check_choice(value, name, choices):
    """One of ``choices`` (strings, and ``None`` when it is listed), compared exactly.

    Examples
    --------
    >>> from bayes_prc._core import check_choice
    >>> check_choice("logit", "method", ("logit", "wald"))
    'logit'
    >>> check_choice("Logit", "method", ("logit", "wald"))
    Traceback (most recent call last):
    ...
    ValueError: `method` must be one of ('logit', 'wald'); got 'Logit'
    """
    if not (value is None or isinstance(value, str)) or value not in choices:
        raise ValueError(f"`{name}` must be one of {tuple(choices)}; got {plain(value)}")
    return value


def check_probability(value, name="confidence_level"):
    """A real number strictly inside (0, 1) (a confidence level, a recall...), as float.

    Python and numpy scalars and 0-d numeric arrays are accepted; bools, NaN and
    anything else are not.

    Examples
    --------
    >>> from bayes_prc._core import check_probability
    >>> check_probability(0.9)
    0.9
    >>> check_probability(1.0)
    Traceback (most recent call last):
    ...
    ValueError: `confidence_level` must be a number in (0, 1); got 1.0
    """
    v = value
    if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iuf":
        v = v.item()
    ok = isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
    if not ok or not (0.0 < float(v) < 1.0):  # NaN fails the comparison
        raise ValueError(f"`{name}` must be a number in (0, 1); got {plain(value)}")
    return float(v)


def check_rope(rope):
    """A region of practical equivalence ``(low, high)`` of finite reals, or None.

    Examples
    --------
    >>> from bayes_prc._core import check_rope
    >>> check_rope((-0.01, 0.01))
    (-0.01, 0.01)
    >>> check_rope((0.1, 0.0))
    Traceback (most recent call last):
    ...
    ValueError: `rope` must be a pair (low, high) of finite numbers with low < high; got (0.1, 0.0)
    """
    if rope is None:
        return None
    msg = f"`rope` must be a pair (low, high) of finite numbers with low < high; got {plain(rope)}"
    if isinstance(rope, (str, bytes)) or not hasattr(rope, "__len__") or len(rope) != 2:
        raise ValueError(msg)
    lo, hi = rope

    def real(v):
        return (
            isinstance(v, numbers.Real)
            and not isinstance(v, (bool, np.bool_))
            and bool(np.isfinite(v))
        )

    if not (real(lo) and real(hi) and lo < hi):
        raise ValueError(msg)
    return (float(lo), float(hi))
