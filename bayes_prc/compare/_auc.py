"""The ROC AUC rows of :func:`bayes_prc.compare_intervals` (``metric="roc_auc"``).

The frequentist rows are :func:`bayes_prc.frequentist.roc_auc_interval`'s methods (DeLong,
DeLong logit, Hanley-McNeil, stratified bootstrap, BCa), the Bayesian rows the ROC AUC
posterior of the binormal fits (built in :mod:`bayes_prc.compare` with the AP table's
fitting code). This module holds the method names, labels, the frequentist rows and the
recommendation.
"""

from __future__ import annotations

import warnings

from ..recommend import AUC_LABELS

__all__ = [
    "AUC_COMPARISON_METHODS",
    "DEFAULT_AUC_METHODS",
    "auc_frequentist_row",
]

#: Frequentist methods of the ROC AUC table (those of :func:`roc_auc_interval`).
AUC_FREQUENTIST_METHODS = ("delong", "delong_logit", "hanley_mcneil", "bootstrap", "bca")

#: Methods of :func:`compare_intervals` with ``metric="roc_auc"``, in table order.
AUC_COMPARISON_METHODS = AUC_FREQUENTIST_METHODS + (
    "semiparametric_hdi",
    "semiparametric_eti",
    "flexible_hdi",
    "flexible_eti",
    "binormal_hdi",
    "binormal_eti",
)

#: The rows of the ROC AUC table by default (the flexible model only on request, as in
#: the AP table).
DEFAULT_AUC_METHODS = tuple(m for m in AUC_COMPARISON_METHODS if not m.startswith("flexible"))


def auc_frequentist_row(
    ranked, method, ci_prob, n_resamples, seed, progressbar, notes, groups=None
):
    """One frequentist row of the ROC AUC table, or None (with a note) when undefined.

    ``ranked`` is the validated input; :func:`roc_auc_interval` raises a ValueError for
    data it cannot take (fewer than 2 items of a class for DeLong): the row is left out
    and ``notes[method]`` says why.
    """
    from ..frequentist import roc_auc_interval

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = roc_auc_interval(
                ranked,
                None,
                method=method,
                confidence_level=ci_prob,
                n_resamples=n_resamples,
                random_seed=seed,
                progressbar=progressbar,
                groups=groups,
            )
    except ValueError as err:
        notes[method] = str(err)
        return None
    return {
        "method": method,
        "label": AUC_LABELS[method],
        "family": "frequentist",
        "estimate": float(res.estimate),
        "low": float(res.low),
        "high": float(res.high),
        "estimator": "empirical ROC AUC",
        "interval": f"CI {ci_prob:g}",
        **({} if groups is None else {"design_effect": res.design_effect}),
    }
