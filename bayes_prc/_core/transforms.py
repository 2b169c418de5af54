r"""Score transforms: the one home of the logit and probit scales of probability scores.

A model of the scores can be fit on a transformed scale: ``transform="logit"`` uses
:math:`t = \log(x / (1 - x))`, ``transform="probit"`` uses :math:`t = \Phi^{-1}(x)`,
``None`` keeps the scores. Both transforms need probabilities in [0, 1]; exact 0 and 1
(which map to infinity) are moved just inside the interior scores, by the rule of
:func:`edge_eps`, so that their ranks, and the empirical curve, are unchanged
(:func:`transform_scores` warns when it does so). Thresholds go back to the score scale
with :func:`inverse`, and :func:`log_jacobian` gives :math:`\log|dt/dx|`, which turns a
density of the transformed scores into one of the original scores.

numpy and scipy.special only (foundation layer).

Examples
--------
>>> import numpy as np
>>> from bayes_prc._core.transforms import forward, inverse, transform_scores
>>> t = forward(np.array([0.1, 0.5, 0.9]), "logit")
>>> np.round(t, 4)
array([-2.1972,  0.    ,  2.1972])
>>> np.round(inverse(t, "logit"), 4)
array([0.1, 0.5, 0.9])
>>> np.round(transform_scores([0.2, 0.5], "probit"), 4)
array([-0.8416,  0.    ])
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import special

from ..exceptions import BayesPRCWarning
from .validation import plain, warn_at_caller

__all__ = [
    "location_scale",
    "TRANSFORMS",
    "check_transform",
    "edge_eps",
    "forward",
    "inverse",
    "log_jacobian",
    "transform_scores",
    "warn_edges",
]

TRANSFORMS = (None, "logit", "probit")
"""The accepted values of every public ``transform`` option."""

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def check_transform(transform):
    """Return ``transform`` if it is one of :data:`TRANSFORMS`, else raise ValueError.

    Examples
    --------
    >>> from bayes_prc._core.transforms import check_transform
    >>> check_transform("logit")
    'logit'
    >>> check_transform("log")
    Traceback (most recent call last):
    ...
    ValueError: `transform` must be one of (None, 'logit', 'probit'); got 'log'
    """
    if not (transform is None or isinstance(transform, str)) or transform not in TRANSFORMS:
        raise ValueError(f"`transform` must be one of {TRANSFORMS}; got {plain(transform)}")
    return transform


def forward(x, transform):
    """Probabilities ``x`` on the ``transform`` scale (no clipping: 0 and 1 give -inf, inf).

    ``None`` returns ``x`` as a float64 array.
    """
    x = np.asarray(x, dtype=np.float64)
    if transform is None:
        return x
    with np.errstate(divide="ignore"):
        return special.logit(x) if transform == "logit" else special.ndtri(x)


def inverse(t, transform):
    """Values ``t`` on the ``transform`` scale back to probabilities (expit or Phi)."""
    if transform is None:
        return t
    return special.expit(t) if transform == "logit" else special.ndtr(t)


def log_jacobian(t, transform):
    """``log|dt/dx|`` at transformed values ``t = forward(x, transform)``.

    ``-log(x (1 - x))`` for the logit, ``-log(phi(t))`` for the probit, 0 without
    transform; computed from ``t`` so that it stays finite for clipped 0 and 1.

    Examples
    --------
    >>> from bayes_prc._core.transforms import log_jacobian
    >>> round(float(log_jacobian(0.0, "logit")), 4)  # -log(0.5 * 0.5)
    1.3863
    """
    t = np.asarray(t, dtype=np.float64)
    if transform == "logit":
        return -(special.log_expit(t) + special.log_expit(-t))
    if transform == "probit":
        return 0.5 * t * t + _LOG_SQRT_2PI
    return np.zeros_like(t)


def edge_eps(interior_min=None, interior_max=None):
    """Where exact 0 and 1 are moved: ``eps`` and ``1 - eps``.

    ``eps = max(min(1e-6, interior_min / 2, (1 - interior_max) / 2), 1e-12)`` (only
    ``1e-6`` when there is no interior score), so that moved scores stay below (above)
    every interior score unless that one is within 2e-12 of the edge.

    Examples
    --------
    >>> from bayes_prc._core.transforms import edge_eps
    >>> edge_eps(), edge_eps(1e-8, 0.5)
    (1e-06, 5e-09)
    """
    gaps = [1e-6]
    if interior_min is not None:
        gaps += [interior_min / 2, (1 - interior_max) / 2]
    return max(min(gaps), 1e-12)


def warn_edges(n_edge, transform, eps, name="y_score", stacklevel=None):
    """The :class:`~bayes_prc.BayesPRCWarning` that ``n_edge`` scores were moved.

    ``stacklevel`` counts from the caller as for :func:`warnings.warn`; None points the
    warning at the first frame outside bayes_prc.
    """
    message = (
        f"{n_edge} score(s) of `{name}` are exactly 0 or 1; for the "
        f"{transform} transform they are moved to {eps:.3g} and 1 - {eps:.3g} (their "
        "ranks, and so the empirical curve, are unchanged)"
    )
    if stacklevel is None:
        warn_at_caller(message, BayesPRCWarning)
    else:
        warnings.warn(message, BayesPRCWarning, stacklevel=stacklevel + 1)


def transform_scores(score, transform, name="y_score", stacklevel=4):
    """Scores on the scale where a model is fit (``None``, ``"logit"`` or ``"probit"``).

    Probabilities must be in [0, 1]; exact 0 and 1 are moved to ``eps`` and ``1 - eps``
    (:func:`edge_eps` of the interior scores) with a :class:`~bayes_prc.BayesPRCWarning`
    (``stacklevel`` as for :func:`warnings.warn`, counted from this function). Errors
    name the parameter ``name``.

    Parameters
    ----------
    score : array_like
        Scores (probabilities when ``transform`` is not None).
    transform : {None, "logit", "probit"}
    name : str, default "y_score"
        Parameter name used in messages.
    stacklevel : int, default 4

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> import warnings
    >>> from bayes_prc._core.transforms import transform_scores
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     t = transform_scores([0.0, 0.5, 1.0], "logit")
    >>> [round(float(v), 3) for v in t], len(caught)
    ([-13.816, 0.0, 13.816], 1)
    """
    s = np.asarray(score, dtype=np.float64)
    if transform is None:
        return s
    bad = (s < 0) | (s > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`transform`={plain(transform)} needs probabilities in [0, 1]; `{name}` has "
            f"{plain(float(s[i]))} at index {i}"
        )
    at_edge = (s == 0) | (s == 1)
    if at_edge.any():
        interior = s[~at_edge]
        eps = edge_eps(interior.min(), interior.max()) if interior.size else edge_eps()
        warn_edges(int(at_edge.sum()), transform, eps, name, stacklevel=stacklevel)
        s = np.clip(s, eps, 1 - eps)
    return forward(s, transform)


def location_scale(t):
    """Mean and standard deviation (``ddof=0``) of finite values, safe at any magnitude.

    Scores of order 1e300 overflow the sum of squares and scores of order 1e-200
    underflow it; there the values are divided by their largest magnitude first. Elsewhere
    the result is exactly ``np.mean(t), np.std(t)``.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc._core.transforms import location_scale
    >>> location_scale(np.array([1e300, -1e300]))
    (0.0, 1e+300)
    >>> loc, scale = location_scale(np.array([3e-200, 1e-200]))
    >>> print(f"{loc:.3g} {scale:.3g}")
    2e-200 1e-200
    """
    t = np.asarray(t, dtype=np.float64)
    m = float(np.max(np.abs(t))) if t.size else 0.0
    if 1e-150 < m < 1e150:
        return float(np.mean(t)), float(np.std(t))
    if m == 0.0:
        return 0.0, 0.0
    u = t / m
    return float(m * np.mean(u)), float(m * np.std(u))
