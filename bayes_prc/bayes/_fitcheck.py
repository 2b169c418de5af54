r"""Posterior predictive check of a binormal fit on the ordered-category counts.

The scores are grouped into the ordered categories of :mod:`._ordinal` (ties together,
truth-state runs, at most a few dozen categories). Every posterior draw gives the
probability of each category for each class: for the semiparametric model through its
cutpoints, for the parametric model through the category boundaries on its score scale.
The discrepancy is the deviance of the counts against those probabilities,

.. math::

    T(n, \theta) = 2 \sum_{c \in \{0, 1\}} \sum_k n_{ck}
        \log\frac{n_{ck}}{N_c\, p_{ck}(\theta)},

computed for the observed counts and for counts replicated from the same draw
(multinomial with the class sizes fixed); the posterior predictive p-value is the share of
draws with ``T(rep) >= T(obs)`` (Gelman, Meng & Stern 1996). For the semiparametric model
the cutpoints fit the negatives' counts freely, so the check is about the *shape of the
ROC curve*: a small p-value says no binormal ROC follows the data (e.g. a hook from a
subgroup of negatives scoring like positives). For the parametric model it also checks
that each class is normal on the fitted scale.

References
----------
.. [1] A. Gelman, X.-L. Meng and H. Stern, "Posterior predictive assessment of model
   fitness via realized discrepancies", Statistica Sinica 6 (1996) 733-807.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_random_state
from ._ordinal import bin_log_probs, category_log_probs

__all__ = ["FitCheck", "fit_check", "FIT_CHECK_LEVEL"]

#: p-values below this fail the check.
FIT_CHECK_LEVEL = 0.05


@dataclass(frozen=True)
class FitCheck:
    """Result of :func:`fit_check`.

    Attributes
    ----------
    p_value : float
        Posterior predictive p-value of the deviance discrepancy.
    passed : bool
        ``p_value >= level``.
    level : float
        The threshold (0.05).
    observed, replicated : float
        Posterior mean of the discrepancy for the observed and the replicated counts.
    n_categories : int
    model : str
        ``"semiparametric"`` or ``"parametric"``.
    verdict : str
        One sentence for a report.
    """

    p_value: float
    passed: bool
    level: float
    observed: float
    replicated: float
    n_categories: int
    model: str
    verdict: str


def _deviance(counts, log_p):
    """Deviance of counts (..., 2, K) against log probabilities (..., 2, K)."""
    n_class = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * (np.log(counts) - np.log(n_class) - log_p), 0.0)
    return 2.0 * terms.sum(axis=(-1, -2))


def _category_log_probs(posterior, pick):
    """(S, 2, K) log category probabilities of the picked draws."""
    m = posterior.model
    if posterior.model_type == "flexible":
        from ._flexible import mixture_category_log_probs

        cut = posterior._cutpoints.reshape(-1, posterior._cutpoints.shape[-1])[pick]
        j = m.weight_pos.shape[-1]
        w, mu, sd = (a.reshape(-1, j)[pick] for a in (m.weight_pos, m.mu_pos, m.sigma_pos))
        with np.errstate(divide="ignore"):
            lp = mixture_category_log_probs(cut, np.log(w), mu, sd)
        return np.moveaxis(lp, 0, 1)
    if posterior.model_type == "semiparametric":
        cut = posterior._cutpoints.reshape(-1, posterior._cutpoints.shape[-1])[pick]
        lp = category_log_probs(cut, m.mu_pos.reshape(-1)[pick], m.sigma_pos.reshape(-1)[pick])
        return np.moveaxis(lp, 0, 1)
    b = posterior._to_latent(posterior.ordinal.boundaries())
    b = b.reshape(-1, b.shape[-1])[pick]
    out = []
    for mu, sd in ((m.mu_neg, m.sigma_neg), (m.mu_pos, m.sigma_pos)):
        mu = np.broadcast_to(mu, m.batch_shape).reshape(-1)[pick]
        sd = np.broadcast_to(sd, m.batch_shape).reshape(-1)[pick]
        out.append(bin_log_probs(b, mu, sd))
    return np.stack(out, axis=1)


def fit_check(posterior, random_seed=None, n_draws=1000):
    """Posterior predictive check of a :class:`BinormalPosterior` (see the module doc).

    Parameters
    ----------
    posterior : BinormalPosterior
    random_seed : int, Generator or None
    n_draws : int, default 1000
        Posterior draws used (all of them when fewer).

    Returns
    -------
    FitCheck

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> check = bp.fit_binormal(y, s, random_seed=0).fit_check(random_seed=0)
    >>> 0 <= check.p_value <= 1
    True
    """
    check_int(n_draws, "n_draws")
    rng = check_random_state(random_seed)
    data = posterior.ordinal
    total = int(np.prod(posterior.model.batch_shape))
    pick = np.sort(rng.choice(total, size=min(int(n_draws), total), replace=False))
    log_p = _category_log_probs(posterior, pick)
    counts = data.counts.astype(np.float64)
    t_obs = _deviance(counts[None], log_p)
    p = np.exp(log_p)
    p /= p.sum(axis=-1, keepdims=True)
    n_class = data.counts.sum(axis=1)
    rep = np.stack([rng.multinomial(int(n_class[c]), p[:, c]) for c in (0, 1)], axis=1).astype(
        np.float64
    )
    t_rep = _deviance(rep, log_p)
    p_value = float(np.mean(t_rep >= t_obs))
    passed = p_value >= FIT_CHECK_LEVEL
    what = {
        "semiparametric": "the binormal ROC curve (after a monotone transform of the scores)",
        "flexible": "the flexible (normal-mixture) ROC curve",
    }.get(posterior.model_type, "normal class-score distributions on the fitted scale")
    if passed:
        verdict = (
            f"The fit check passes: the ordered-category counts are consistent with {what} "
            f"(posterior predictive p = {p_value:.2f})."
        )
    else:
        verdict = (
            f"The fit check fails: the ordered-category counts are not consistent with {what} "
            f"(posterior predictive p = {p_value:.3f} < {FIT_CHECK_LEVEL}); intervals from "
            "this model may be biased."
        )
    return FitCheck(
        p_value=p_value,
        passed=bool(passed),
        level=FIT_CHECK_LEVEL,
        observed=float(t_obs.mean()),
        replicated=float(t_rep.mean()),
        n_categories=data.n_categories,
        model=posterior.model_type,
        verdict=verdict,
    )
