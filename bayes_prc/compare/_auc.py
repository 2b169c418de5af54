"""The ROC AUC rows of :func:`bayes_prc.compare_intervals` (``metric="roc_auc"``).

The frequentist rows are :func:`bayes_prc.frequentist.roc_auc_interval`'s methods (DeLong,
DeLong logit, Hanley-McNeil, stratified bootstrap, BCa), the Bayesian rows the ROC AUC
posterior of the binormal fits (built in :mod:`bayes_prc.compare` with the AP table's
fitting code). This module holds the method names, labels, the frequentist rows and the
recommendation.
"""

from __future__ import annotations

import warnings

__all__ = [
    "AUC_COMPARISON_METHODS",
    "DEFAULT_AUC_METHODS",
    "auc_frequentist_row",
    "recommend_auc_interval",
    "FEW_FOR_DELONG",
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

AUC_LABELS = {
    "delong": "DeLong (DeLong et al. 1988)",
    "delong_logit": "DeLong, logit scale",
    "hanley_mcneil": "Hanley-McNeil (1982)",
    "bootstrap": "bootstrap percentile",
    "bca": "bootstrap BCa",
}


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


#: Below this many items in the smaller class, DeLong's interval is not quoted: its
#: variance estimate is too noisy (it covered 58% at a nominal 90% with about 5
#: positives, where the rank-based posterior's ETI covered 93%).
FEW_FOR_DELONG = 20


def recommend_auc_interval(available, fit_checks, n_min=None, *, separated=False, tied=False):
    """The ROC AUC interval to quote, and why (one sentence).

    By situation, never by the realized widths (so the row does not change with the
    seed):

    * fewer than :data:`FEW_FOR_DELONG` items in the smaller class, or separated
      classes (DeLong's variance is then 0): the rank-based binormal posterior's ETI,
      unless its fit check fails;
    * else DeLong's interval on the logit scale: it needs no score model, stays inside
      (0, 1), and covered 93-96% at a nominal 95% with 20-100 positives in
      ``benchmarks/coverage_questions.py`` (plain DeLong 84-95%);
    * then plain DeLong, the rank-based ETI when its check does not fail,
      Hanley-McNeil and the bootstraps.

    Parameters
    ----------
    available : sequence of str
        Rows of the table.
    fit_checks : dict
        Model name -> :class:`FitCheck`.
    n_min : int, optional
        Items in the smaller class (None: not known, DeLong first).
    separated : bool, default False
        Every positive is scored above every negative.
    tied : bool, default False
        Every score is tied: the ``all_tied`` row, the ROC AUC 0.5 exactly (every
        positive-negative pair is tied and counts 1/2, in any sample and the population).

    Returns
    -------
    (str or None, str)
    """
    if tied and "all_tied" in available:
        return "all_tied", (
            "Quote the exact value 0.5: every score is tied, so every positive-negative "
            "pair counts 1/2 and the ROC AUC is 0.5 in this sample and in the population "
            "(no sampling uncertainty); no score model can be fit."
        )
    check = fit_checks.get("semiparametric")
    model_ok = check is not None and check.passed
    few = n_min is not None and n_min < FEW_FOR_DELONG
    why = {
        "delong_logit": "it needs no score model, stays inside (0, 1) and covered 93-96% at "
        "a nominal 95% in simulations with 20-100 positives and AUC up to 0.96, where "
        "plain DeLong covered 84-95%",
        "delong": "it needs no score model (the logit row is not in the table)",
        "semiparametric_eti": "DeLong's interval is not available and the rank-based "
        "binormal model does not fail its fit check",
        "hanley_mcneil": "DeLong's interval is not available (it needs 2 items per class)",
        "bootstrap": "no closed-form interval is available",
        "bca": "no closed-form interval is available",
    }
    order = ["delong_logit", "delong", "semiparametric_eti", "hanley_mcneil", "bootstrap", "bca"]
    if (few or separated) and model_ok:
        order.remove("semiparametric_eti")
        order.insert(0, "semiparametric_eti")
        why["semiparametric_eti"] = (
            "every positive is scored above every negative, where DeLong's variance is 0"
            if separated
            else f"with only {n_min} items in the smaller class DeLong's variance estimate "
            "is too noisy (it covered 58% at a nominal 90% with about 5 positives, the "
            "rank-based ETI 93%)"
        ) + "; the rank-based binormal model does not fail its fit check"
    for row in order:
        if row not in available:
            continue
        if row == "semiparametric_eti" and not model_ok:
            continue
        label = AUC_LABELS.get(row, "Bayesian binormal, rank-based (median, ETI)")
        return row, f"Quote the {label} interval: {why[row]}."
    return None, "No ROC AUC interval to recommend: no row could be computed."
