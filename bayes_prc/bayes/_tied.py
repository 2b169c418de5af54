"""The AP and ROC AUC of a tied (discrete) score under a rank-based model, draw by draw.

When the scores take only a handful of distinct values (a rule-based score, a rounded
probability, a small tree's leaves), the quantity a user quotes is the AP of the score
*as it is*: the step PR curve with tied scores grouped, as scikit-learn's
``average_precision_score`` groups them, not the AP of the latent binormal curve (ties
broken by the latent score, which no classifier of these scores can do). The rank-based
models know, for every draw, the probability of each distinct score value for the
positives and the negatives (the latent class distributions between the latent
thresholds of adjacent values), so the tied curve is computable per draw:

``TPR_j = P(X_pos >= v_j)``, ``FPR_j = P(X_neg >= v_j)`` at each distinct value
``v_j`` (ascending), ``precision_j = pi TPR_j / (pi TPR_j + (1 - pi) FPR_j)``,
``AP = sum_j (TPR_j - TPR_{j+1}) precision_j`` with ``TPR_{d+1} = 0``, and
``AUC = sum_j p_j (1 - FPR_j) + sum_j p_j q_j / 2`` (ties count 1/2) with ``p_j``, ``q_j``
the class probabilities of value ``v_j``.

The rule (:func:`discrete_values`): the scores are *genuinely discrete* when they take
at most ``n_samples / 4`` distinct values (every value shared by 4 items on average),
so a stray tie among continuous scores never changes the estimand.
"""

from __future__ import annotations

import numpy as np

from ..models import class_distributions
from ._ordinal import score_to_latent

__all__ = [
    "discrete_values",
    "tied_curve_summaries",
    "DISCRETE_ITEMS_PER_VALUE",
    "TIED_SCORE_MESSAGE",
    "discrete_ap_draws",
    "DISCRETE_PRIOR",
]

#: The refusal of the paired models when a classifier's scores are all tied.
TIED_SCORE_MESSAGE = (
    "`{name}` has a single distinct value: all its scores are tied (a constant "
    "classifier), so a score model has no ranks to fit; its AP is the prevalence and its "
    "ROC AUC 0.5. Compare with method='bootstrap' or 'bayesian_bootstrap' (or "
    "metric='roc_auc' with method='delong')"
)

#: Items per distinct score value (on average) from which the scores count as discrete.
DISCRETE_ITEMS_PER_VALUE = 4


def discrete_values(score):
    """The distinct score values when the scores are genuinely discrete, else None.

    Parameters
    ----------
    score : ndarray of float, shape (n,)

    Returns
    -------
    ndarray of shape (d,) or None
        The sorted distinct values when ``2 <= d`` and ``d * 4 <= n``.
    """
    values = np.unique(np.asarray(score, dtype=np.float64))
    if values.size < 2 or values.size * DISCRETE_ITEMS_PER_VALUE > score.size:
        return None
    return values


def tied_curve_summaries(model, values, data, cutpoints, prevalence=None):
    """Per-draw AP and ROC AUC of the tied step curve over the distinct ``values``.

    Parameters
    ----------
    model : ScoreModel
        The rank-based model on the latent scale, parameters of shape ``batch``.
    values : ndarray of shape (d,)
        Sorted distinct scores (observed ones: their latent thresholds, interpolated on
        the rank scale inside a category, do not depend on the score scale).
    data : OrdinalData
        The ordinal data of the fit (maps scores to latent thresholds).
    cutpoints : ndarray of shape ``batch + (K - 1,)``
    prevalence : float or ndarray of shape ``batch``, optional
        Default: the model's prevalence.

    Returns
    -------
    (ndarray, ndarray)
        AP and ROC AUC, each of shape ``batch``.
    """
    batch = tuple(model.batch_shape)
    t = score_to_latent(values[1:], data, cutpoints).reshape(batch + (values.size - 1,))
    neg, pos = class_distributions(model)
    tpr = np.exp(pos.log_sf(t, 1))
    fpr = np.exp(neg.log_sf(t, 1))
    one = np.ones(batch + (1,))
    zero = np.zeros(batch + (1,))
    tpr = np.concatenate([one, tpr, zero], axis=-1)  # thresholds v_1 .. v_d, then above
    fpr = np.concatenate([one, fpr, zero], axis=-1)
    pi = model.prevalence if prevalence is None else prevalence
    pi = np.broadcast_to(np.asarray(pi, dtype=np.float64), batch)[..., None]
    p = tpr[..., :-1] - tpr[..., 1:]  # positives' probability of each value
    q = fpr[..., :-1] - fpr[..., 1:]
    num = pi * tpr[..., :-1]
    den = num + (1.0 - pi) * fpr[..., :-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(den > 0, num / den, 1.0)
    ap = np.sum(p * prec, axis=-1)
    auc = np.sum(p * (1.0 - fpr[..., :-1]), axis=-1) + 0.5 * np.sum(p * q, axis=-1)
    return ap, auc


#: Dirichlet prior weight of each (class, score value) cell, and the Beta prior of the
#: prevalence, in :func:`discrete_ap_draws` (Jeffreys' 1/2).
DISCRETE_PRIOR = 0.5


def discrete_ap_draws(is_pos, score, values, *, draws=4000, rng=None):
    """Posterior draws of the tied AP of a discrete score under the saturated model.

    Each class's probabilities of the distinct score ``values`` ~ Dirichlet(counts +
    1/2), the prevalence ~ Beta(n_pos + 1/2, n_neg + 1/2), independent a posteriori (the
    multinomial likelihood of the (class, value) table with Jeffreys-type priors). No
    score model is assumed: with a handful of distinct values every cell is estimated
    directly, so the answer depends on the table of counts only (invariant under any
    strictly increasing transform of the scores). Each draw's AP is the tied step
    curve's (module docstring), as scikit-learn groups ties.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n,)
    score : ndarray of float, shape (n,)
    values : ndarray of shape (d,)
        The sorted distinct scores (:func:`discrete_values`).
    draws : int, default 4000
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of shape (draws,)
    """
    rng = np.random.default_rng(rng)
    cat = np.searchsorted(values, score)
    n_pos_v = np.bincount(cat[is_pos], minlength=values.size)
    n_neg_v = np.bincount(cat[~is_pos], minlength=values.size)
    a = DISCRETE_PRIOR
    p = rng.dirichlet(n_pos_v + a, draws)[:, ::-1]  # highest value first
    q = rng.dirichlet(n_neg_v + a, draws)[:, ::-1]
    pi = rng.beta(n_pos_v.sum() + a, n_neg_v.sum() + a, draws)[:, None]
    tpr = np.cumsum(p, axis=1)
    fpr = np.cumsum(q, axis=1)
    num = pi * tpr
    prec = num / (num + (1.0 - pi) * fpr)  # tpr, fpr > 0: every cell's weight is > 0
    return np.sum(p * prec, axis=1)
