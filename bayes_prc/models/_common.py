"""Helpers shared by the analytic score models: batch broadcasting, parameter checks and
the precision in log space.

Every model stores its parameters as read-only float64 arrays of a common
``batch_shape`` (one entry per posterior draw, say) and evaluates an argument ``x`` on
the whole grid for each draw: results have shape ``batch_shape + np.shape(x)``.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from scipy.special import log_ndtr

from .._core import plain

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# --------------------------------------------------------------------------------------
# broadcasting over the batch
# --------------------------------------------------------------------------------------


def expand_to_draws(param, ndim):
    """Append ``ndim`` length-1 axes so that ``param`` broadcasts as an outer product.

    Parameters
    ----------
    param : array-like
        Parameter draws of shape ``batch_shape``.
    ndim : int
        Number of axes to append (those of the evaluation points).

    Returns
    -------
    ndarray
        ``param`` reshaped to ``batch_shape + (1,) * ndim``.
    """
    return np.reshape(param, np.shape(param) + (1,) * ndim)


def threshold_extra_ndim(batch_shape, t, per_draw):
    """Number of axes of the thresholds ``t`` beyond the parameters' batch.

    All of ``t.ndim`` (every draw at every threshold), or with ``per_draw`` the axes after
    ``batch_shape``, each parameter draw then being evaluated at its own thresholds.

    Parameters
    ----------
    batch_shape : tuple of int
        Shape of the parameter draws.
    t : ndarray
        Thresholds.
    per_draw : bool
        Whether ``t`` starts with ``batch_shape`` (one set of thresholds per draw).

    Returns
    -------
    int
    """
    if not per_draw:
        return t.ndim
    nb = len(batch_shape)
    if t.shape[:nb] != batch_shape:
        raise ValueError(
            f"per-draw thresholds must have shape batch_shape + (...) = "
            f"{batch_shape} + (...); got {t.shape}"
        )
    return t.ndim - nb


def _as_scalar_or_array(arr):
    """Return 0-d results as numpy scalars, everything else unchanged."""
    return arr[()] if isinstance(arr, np.ndarray) and arr.ndim == 0 else arr


# --------------------------------------------------------------------------------------
# argument and parameter checks
# --------------------------------------------------------------------------------------


def _check_unit_interval(x, name):
    arr = np.asarray(x, dtype=np.float64)
    bad = ~((arr >= 0.0) & (arr <= 1.0))  # also catches NaN
    if np.any(bad):
        value = float(arr[bad].flat[0])
        raise ValueError(f"`{name}` must be in [0, 1]; got {plain(value)}")
    return arr


def _as_float_array(name, value):
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"`{name}` must be a real number or array; got {plain(value)}") from err


def _check_param(name, arr, kind):
    """Raise a ValueError naming ``name`` and quoting a bad value, if any.

    ``kind``: ``"real"`` (finite), ``"positive"`` (finite, > 0), ``"prevalence"``
    (in (0, 1)) or ``"weight"`` (finite, >= 0).
    """
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ValueError(f"`{name}` must be finite; got {plain(float(arr[bad].flat[0]))}")
    if kind == "positive":
        bad = ~(arr > 0.0)
        if np.any(bad):
            raise ValueError(f"`{name}` must be > 0; got {plain(float(arr[bad].flat[0]))}")
    elif kind == "prevalence":
        bad = ~((arr > 0.0) & (arr < 1.0))
        if np.any(bad):
            raise ValueError(f"`{name}` must be in (0, 1); got {plain(float(arr[bad].flat[0]))}")
    elif kind == "weight":
        bad = ~(arr >= 0.0)
        if np.any(bad):
            raise ValueError(f"`{name}` must be >= 0; got {plain(float(arr[bad].flat[0]))}")


def _readonly(arr):
    out = np.array(arr, dtype=np.float64)  # contiguous copy
    out.flags.writeable = False
    return out


def _sample_size(batch_shape, n):
    """Validate a ``sample(n)`` call: a single model and a non-negative integer ``n``."""
    if batch_shape != ():
        raise ValueError(
            "sample() needs a single model (batch_shape == ()); this model has "
            f"batch_shape {batch_shape}"
        )
    try:
        n_items = operator.index(n)
    except TypeError:
        n_items = -1
    if n_items < 0:
        raise ValueError(f"`n` must be a non-negative integer; got {plain(n)}")
    return n_items


# --------------------------------------------------------------------------------------
# precision in log space
# --------------------------------------------------------------------------------------


def logit_precision_from_logs(logit_pi, log_r, log_f, limit):
    """Logit precision ``logit(pi) + log r - log f`` from log recall and log FPR.

    Where both ``log_r`` and ``log_f`` are ``-inf`` (far in the tail) the difference is
    replaced by its analytic ``limit``.

    Parameters
    ----------
    logit_pi : array-like
        Logit of the prevalence.
    log_r, log_f : array-like
        Log recall (TPR) and log false-positive rate at the thresholds.
    limit : array-like
        The value of ``log r - log f`` used where both logs are ``-inf``.

    Returns
    -------
    ndarray
    """
    both = np.isneginf(log_r) & np.isneginf(log_f)
    with np.errstate(invalid="ignore"):
        diff = log_r - log_f
    return logit_pi + np.where(both, limit, diff)


def _binormal_tail_limit(d, s):
    """Limit of ``log r - log f`` of a binormal model as the threshold tends to +inf.

    ``+inf``, ``-inf`` or 0, from the standardised separation ``d`` and spread ratio
    ``s`` (see :func:`_logit_precision_u`).
    """
    return np.select(
        [s > 1.0, s < 1.0, d > 0.0, d < 0.0],
        [np.inf, -np.inf, np.inf, -np.inf],
        default=0.0,
    )


def _logit_precision_u(u, d, s, logit_pi, limit, log_r=None):
    """Logit of the binormal precision at the standardised positive score ``u``.

    ``u = (t - mu_pos) / sigma_pos``, ``d = (mu_pos - mu_neg) / sigma_neg`` and
    ``s = sigma_pos / sigma_neg``: recall ``Phi(-u)``, false-positive rate
    ``Phi(-(d + s u))``.
    """
    if log_r is None:
        log_r = log_ndtr(-u)
    return logit_precision_from_logs(logit_pi, log_r, log_ndtr(-(d + s * u)), limit)
