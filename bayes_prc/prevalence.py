"""Prevalence shift: precision, the PR curve and AP at a deployment prevalence.

The score distributions of each class do not depend on the prevalence, but precision
does: p(t) = pi r(t) / (pi r(t) + (1 - pi) f(t)) (seed 004's detection identity). A test
set with prevalence pi_test therefore tells about precision at another prevalence pi only
after re-weighting. This module gives the frequentist side (sample weights that move the
empirical curve to pi); the Bayesian side is the ``prevalence=`` argument of every
:class:`~bayes_prc.bayes.BinormalPosterior` quantity, which accepts a number or draws
(see :func:`deployment_prevalence` for a Beta prior on it).
"""

from __future__ import annotations

import numpy as np

from ._core import check_binary_target, check_random_state, check_sample_weight, plain

__all__ = ["prevalence_weights", "deployment_prevalence"]


def _check_prevalence(value, name="prevalence"):
    if isinstance(value, bool) or not np.isscalar(value) or not (0 < float(value) < 1):
        raise ValueError(f"`{name}` must be a number in (0, 1); got {plain(value)}")
    return float(value)


def prevalence_weights(y_true, prevalence, *, pos_label=None, sample_weight=None):
    """Sample weights that give the data the target ``prevalence``.

    Positives get weight ``prevalence / p_hat`` and negatives ``(1 - prevalence) / (1 -
    p_hat)``, with ``p_hat`` the (weighted) prevalence of the data, so the total weight is
    unchanged and the weighted prevalence is exactly ``prevalence``. Pass the result as
    ``sample_weight`` to :func:`~bayes_prc.precision_recall_curve`,
    :func:`~bayes_prc.average_precision_score` or :func:`~bayes_prc.auc_pr` to estimate
    them at the deployment prevalence. Recall is unchanged by construction.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    prevalence : float in (0, 1)
    pos_label : label, optional
    sample_weight : array-like, optional
        Existing weights, multiplied in.

    Returns
    -------
    ndarray of float64, shape (n_samples,)

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y = [1, 0, 0, 0]
    >>> w = bp.prevalence_weights(y, 0.5)
    >>> w.tolist()
    [2.0, 0.6666666666666666, 0.6666666666666666, 0.6666666666666666]
    >>> round(bp.chance_baseline(y, sample_weight=w), 12)
    0.5
    """
    prevalence = _check_prevalence(prevalence)
    is_pos, _, _ = check_binary_target(y_true, pos_label)
    w = check_sample_weight(sample_weight, is_pos.shape[0])
    base = np.ones(is_pos.shape[0]) if w is None else w
    total = base.sum()
    p_hat = base[is_pos].sum() / total if total > 0 else 0.0
    if not (0 < p_hat < 1):
        raise ValueError(
            "`y_true` must contain both classes (with positive weight) to re-weight to a "
            f"prevalence; its prevalence is {p_hat!r}"
        )
    return np.where(is_pos, prevalence / p_hat, (1 - prevalence) / (1 - p_hat)) * base


def deployment_prevalence(posterior, a, b, *, random_seed=None):
    """Draws of a Beta(a, b) deployment prevalence shaped like a posterior.

    Pass the result as ``prevalence=`` to a :class:`~bayes_prc.bayes.BinormalPosterior`
    method, so that uncertainty about the deployment prevalence is integrated over
    (each posterior draw is paired with one prevalence draw).

    Parameters
    ----------
    posterior : BinormalPosterior
        Its prevalence draws give the shape (chain, draw) and coordinates.
    a, b : float
        The Beta distribution's shape parameters (> 0), as ``scipy.stats.beta(a, b)``:
        mean ``a / (a + b)``.
    random_seed : int, Generator or None

    Returns
    -------
    xarray.DataArray
        Dims (chain, draw), name ``deployment_prevalence``.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
    >>> prev = bp.deployment_prevalence(post, 2, 38, random_seed=1)
    >>> ap = post.average_precision(prevalence=prev)
    >>> bool(ap.mean() < post.average_precision().mean())
    True
    """
    import xarray as xr

    for name, value in (("a", a), ("b", b)):
        if isinstance(value, bool) or not np.isscalar(value) or not value > 0:
            raise ValueError(f"`{name}` must be a positive number; got {plain(value)}")
    rng = check_random_state(random_seed)
    ref = posterior.idata["posterior"]["prevalence"]
    draws = rng.beta(float(a), float(b), size=ref.shape)
    return xr.DataArray(draws, dims=ref.dims, coords=ref.coords, name="deployment_prevalence")
