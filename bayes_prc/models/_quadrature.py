r"""Composite Gauss-Legendre quadrature of the score models' average precision.

One panel rule (:func:`gauss_legendre_panels`) serves both integrals:

* the binormal AP, :math:`\int \varphi(u)\,\operatorname{prec}(u)\,du` on fixed panels
  (:func:`binormal_average_precision`, see :meth:`bayes_prc.binormal.Binormal.average_precision`);
* the AP and ROC AUC of the other score models, on panels between per-draw breakpoints
  (:meth:`bayes_prc.models.ScoreModel.average_precision`), with far Student-t panels
  mapped to a log scale (:func:`gauss_legendre_log_panels`).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.special import expit, log_ndtr, ndtr

from ._common import LOG_SQRT_2PI


@functools.cache
def _leggauss(order):
    return np.polynomial.legendre.leggauss(order)


def gauss_legendre_panels(edges, order):
    """Composite ``order``-point Gauss-Legendre nodes and weights between sorted edges.

    ``edges`` has the panel edges on its last axis, shape ``batch + (J,)``; nodes and
    weights have shape ``batch + ((J - 1) * order,)``.
    """
    x, w = _leggauss(order)
    edges = np.asarray(edges, dtype=np.float64)
    mid = 0.5 * (edges[..., 1:] + edges[..., :-1])[..., None]
    half = 0.5 * (edges[..., 1:] - edges[..., :-1])[..., None]
    shape = edges.shape[:-1] + (-1,)
    return (mid + half * x).reshape(shape), (half * w).reshape(shape)


def gauss_legendre_log_panels(edges, center, order):
    """As :func:`gauss_legendre_panels` for ``(m, J)`` edges, far panels in ``log|t - c|``.

    A panel ``[a, b]`` on one side of ``c`` (``center``, shape ``(m,)``) whose far end is
    more than twice as far from ``c`` as its near end is integrated in
    ``s = log|t - c|`` (``dt = |t - c| ds``): power-law tails ``|t|^(-nu-1)`` become
    exponentials in ``s``, smooth on the panel whatever its width.
    """
    gl_x, gl_w = _leggauss(order)
    a, b = edges[:, :-1], edges[:, 1:]
    c = center[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        right = (a > c) & ((b - c) > 2.0 * (a - c))
        left = (b < c) & ((c - a) > 2.0 * (c - b))
        near = np.where(right, a - c, np.where(left, c - b, 1.0))
        far = np.where(right, b - c, np.where(left, c - a, 2.0))
        s_mid = 0.5 * (np.log(far) + np.log(near))[:, :, None]
        s_half = 0.5 * (np.log(far) - np.log(near))[:, :, None]
    s = s_mid + s_half * gl_x
    e = np.exp(s)
    sign = np.where(right, 1.0, -1.0)[:, :, None]
    t_log = c[:, :, None] + sign * e
    w_log = s_half * gl_w * e
    mid = 0.5 * (a + b)[:, :, None]
    half = 0.5 * (b - a)[:, :, None]
    use = (right | left)[:, :, None]
    m = edges.shape[0]
    nodes = np.where(use, t_log, mid + half * gl_x).reshape(m, -1)
    weights = np.where(use, w_log, half * gl_w).reshape(m, -1)
    return nodes, weights


# --------------------------------------------------------------------------------------
# binormal average precision
# --------------------------------------------------------------------------------------
# AP = int phi(u) prec(u) du by composite 12-point Gauss-Legendre rules whose nodes are
# fixed, so that the factor that does not depend on the draw is computed once:
# * s <= 1 (sigma_pos <= sigma_neg): unit panels in u on [-8.5, 8.5] (204 nodes; the
#   neglected Gaussian mass is 2 * Phi(-8.5) = 1.9e-17). The false-positive tail varies on
#   the scale 1/s >= 1 in u, as smooth as the Gaussian weight and the recall.
# * s > 1: the false-positive tail varies on the scale 1/s < 1 in u, where the precision's
#   logistic transition can be sharp, but on the unit scale in x = d + s*u, the
#   standardised negative score, where the Gaussian weight and the recall have scale s > 1.
#   So: unit panels in x on [-8, 14] (264 nodes), and closed forms outside: for x < -8 the
#   false-positive rate is 1 to double precision and int_{r_a}^1 pi r / (pi r + 1 - pi) dr
#   = q + (1 - pi)/pi * log1p(-pi q) with q = 1 - r_a; for x > 14 the precision is 1 to
#   double precision wherever the Gaussian weight matters (log f < -101, while
#   logit(pi) + log r > -65 for u < 9 and prevalence > 1e-9), and the integral is the
#   remaining recall mass.
# Maximum absolute error against adaptive quadrature: 1e-14 over d in [-5, 15], s in
# [0.1, 10], prevalence in [1e-4, 0.9999]; 2e-13 over d in [-30, 40], s in [0.01, 100],
# prevalence in [1e-6, 1 - 1e-6]. (Ten nodes per panel: 4e-13 and 2e-11.)
_AP_GL_ORDER = 12
_AP_X_LO, _AP_X_HI = -8.0, 14.0
_AP_U_NODES, _AP_U_WEIGHTS = gauss_legendre_panels(np.linspace(-8.5, 8.5, 18), _AP_GL_ORDER)
_AP_U_WEIGHTS = _AP_U_WEIGHTS * np.exp(-0.5 * _AP_U_NODES**2 - LOG_SQRT_2PI)
_AP_U_LOG_R = log_ndtr(-_AP_U_NODES)
_AP_X_NODES, _AP_X_WEIGHTS = gauss_legendre_panels(
    np.linspace(_AP_X_LO, _AP_X_HI, 23), _AP_GL_ORDER
)
_AP_X_LOG_F = log_ndtr(-_AP_X_NODES)
_AP_CHUNK = 2048  # draws per block, bounds the memory of the vectorised quadrature


def _left_tail_area(q, pi):
    """``int_{1-q}^1 pi r / (pi r + 1 - pi) dr = q + (1 - pi) / pi * log1p(-pi q)``.

    Written as ``q * (pi - (1 - pi) * h)`` with ``h = -log1p(-y) / y - 1``, ``y = pi q``
    (a short series for small ``y``), which is stable for any prevalence.
    """
    y = pi * q
    big = y > 1e-4
    h_big = -np.log1p(-y) / np.where(big, y, 1.0) - 1.0
    h_small = y * (1.0 / 2.0 + y * (1.0 / 3.0 + y / 4.0))  # next term y**4 / 5 < 2e-17
    return q * (pi - (1.0 - pi) * np.where(big, h_big, h_small))


def _binormal_ap_block(d, s, logit_pi):
    """AP for 1-D arrays ``d``, ``s``, ``logit_pi`` of equal length (one block)."""
    out = np.empty(d.shape)
    narrow = s <= 1.0
    if np.any(narrow):  # nodes in u: recall and weight shared by all draws
        d_n, s_n = d[narrow, None], s[narrow, None]
        z = logit_pi[narrow, None] + _AP_U_LOG_R - log_ndtr(-(d_n + s_n * _AP_U_NODES))
        out[narrow] = expit(z) @ _AP_U_WEIGHTS
    wide = ~narrow
    if np.any(wide):  # nodes in x: false-positive rate shared by all draws
        d_w, s_w, lp_w = d[wide], s[wide], logit_pi[wide]
        u = (_AP_X_NODES - d_w[:, None]) / s_w[:, None]
        z = lp_w[:, None] + log_ndtr(-u) - _AP_X_LOG_F
        density = np.exp(-0.5 * u * u - LOG_SQRT_2PI)
        middle = (density * expit(z)) @ _AP_X_WEIGHTS / s_w
        q = ndtr((_AP_X_LO - d_w) / s_w)  # recall mass left of x = -8 is 1 - r_a = q
        left = _left_tail_area(q, expit(lp_w))
        right = ndtr((d_w - _AP_X_HI) / s_w)
        out[wide] = left + middle + right
    return out


def binormal_average_precision(d, s, logit_pi):
    """Binormal AP for 1-D arrays of standardised separation ``d = (mu_pos - mu_neg) /
    sigma_neg``, spread ratio ``s = sigma_pos / sigma_neg`` and logit prevalence."""
    out = np.empty(d.shape)
    for start in range(0, d.size, _AP_CHUNK):
        block = slice(start, start + _AP_CHUNK)
        out[block] = _binormal_ap_block(d[block], s[block], logit_pi[block])
    return out
