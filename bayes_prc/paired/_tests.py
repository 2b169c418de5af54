"""The frequentist tests of :func:`bayes_prc.paired.compare_classifiers`.

``method="delong"`` (ROC AUC), ``method="jackknife"`` (AP) and ``method="permutation"``
(ROC AUC or AP) give a p-value of the null hypothesis that the two classifiers are
equally good, instead of draws of the difference; this module turns the kernels of
:mod:`bayes_prc.frequentist` (DeLong) and :mod:`._permutation` into
the fields of :class:`bayes_prc.paired.PairedComparison`.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri
from scipy.stats import rankdata

from .._core import plain
from ..bootstrap import jackknife_values
from ..empirical import Ranked, average_precision_score
from ..frequentist import delong_components, paired_delong_test
from ..recommend import NEAR_TIE_RANK_CORRELATION, near_tie_sentence
from ._permutation import paired_permutation_test

__all__ = [
    "FREQUENTIST_METHODS",
    "METRICS",
    "check_metric_method",
    "frequentist_fields",
    "paired_jackknife",
    "NEAR_TIE_RANK_CORRELATION",
    "near_tie_sentence",
    "within_class_rank_correlation",
]

#: Metrics :func:`bayes_prc.paired.compare_classifiers` compares.
METRICS: tuple[str, ...] = ("average_precision", "roc_auc")
#: Its methods that test rather than draw.
FREQUENTIST_METHODS: tuple[str, ...] = ("delong", "jackknife", "permutation")


def check_metric_method(metric, method, recall, rope):
    """The method for ``method=None``, and errors for combinations that do not exist."""
    if method is None:
        method = "bayes" if metric == "average_precision" else "delong"
    if metric == "roc_auc" and method not in ("delong", "permutation"):
        raise ValueError(
            "`method` must be one of ('delong', 'permutation') with metric='roc_auc'; got "
            f"{plain(method)}"
        )
    if method == "delong" and metric != "roc_auc":
        raise ValueError(
            "method='delong' tests the difference of ROC AUCs: pass metric='roc_auc' "
            f"(got metric={metric!r}); for average precision use method='permutation'"
        )
    if method in FREQUENTIST_METHODS and recall is not None:
        raise ValueError(
            f"`recall` (precision at a recall) is compared by the methods 'bayes', "
            f"'bayesian_bootstrap' and 'bootstrap', not by {method!r}; got recall={plain(recall)}"
        )
    if method in FREQUENTIST_METHODS and rope is not None:
        raise ValueError(
            f"`rope` needs a distribution of the difference; method={method!r} is a test "
            "(a p-value and, for 'delong', a confidence interval to set against the ROPE): "
            f"use 'bayes' or a bootstrap method for the ROPE's probabilities; got rope={rope}"
        )
    return method


def within_class_rank_correlation(is_pos, score_a, score_b):
    """The smaller of the two classes' Spearman correlations of ``score_a`` and ``score_b``.

    Midranks for ties; a class with fewer than 3 items or with constant scores of either
    classifier has no correlation, and the result is then ``nan`` (never a near tie).
    """
    out = np.inf
    for cls in (is_pos, ~is_pos):
        ra, rb = rankdata(score_a[cls]), rankdata(score_b[cls])
        if ra.size < 3 or np.ptp(ra) == 0 or np.ptp(rb) == 0:
            return float("nan")
        out = min(out, float(np.corrcoef(ra, rb)[0, 1]))
    return out


def paired_jackknife(ranked_a, ranked_b, clusters=None):
    """Empirical ``AP_B - AP_A`` and its paired jackknife standard error.

    Leave one item out (or, with ``clusters``, one whole cluster) and recompute both
    classifiers' empirical AP on the same remaining items; the standard error is
    ``sqrt((m - 1) / m * sum((d_(i) - mean d)^2))`` over the ``m`` leave-one-out
    differences (Efron & Stein 1981: the jackknife variance errs on the large side, which
    is what keeps the interval honest on near ties, where the bootstrap's percentile
    interval is off-centre). Items: exact leave-one-out AP in O(n) per classifier
    (:func:`bayes_prc.bootstrap.jackknife_values`); clusters: each cluster left out in
    turn (O(G n log n)). ``ranked_a`` and ``ranked_b`` are the prepared data (validated
    once, same labels).

    Returns
    -------
    (float, float)
        The difference and its standard error.
    """
    diff = average_precision_score(ranked_b, None) - average_precision_score(ranked_a, None)
    if clusters is None:
        loo = jackknife_values(ranked_b, None) - jackknife_values(ranked_a, None)
    else:
        is_pos, label = ranked_a.is_pos, ranked_a.pos_label
        loo = np.empty(clusters.sizes.size)
        for g in range(loo.size):
            keep = clusters.codes != g
            if not is_pos[keep].any() or is_pos[keep].all():
                raise ValueError(
                    "method='jackknife' leaves each cluster out in turn: cluster "
                    f"{g} holds every positive (or every negative) of `groups`"
                )
            # subsets of validated data: no second validation
            ap = [
                average_precision_score(Ranked(is_pos[keep], r.y_score[keep], None, label), None)
                for r in (ranked_a, ranked_b)
            ]
            loo[g] = ap[1] - ap[0]
    m = loo.size
    se = float(np.sqrt((m - 1) / m * np.sum((loo - loo.mean()) ** 2)))
    return float(diff), se


def frequentist_fields(
    ranked_a, ranked_b, *, metric, method, level, rope, n_resamples, rng, clusters=None
):
    """Fields of :class:`~bayes_prc.paired.PairedComparison` for the tests.

    ``ranked_a`` and ``ranked_b`` are validated (both classes present) and share the
    labels; ``metric``, ``method``, ``rope`` already checked by
    :func:`check_metric_method`.
    """
    is_pos, a, b = ranked_a.is_pos, ranked_a.y_score, ranked_b.y_score
    emp_a = average_precision_score(ranked_a, None)
    emp_b = average_precision_score(ranked_b, None)
    ap = metric == "average_precision"
    out = {
        "metric": metric,
        "ap_a": emp_a if ap else None,  # AP-named fields hold AP or nothing
        "ap_b": emp_b if ap else None,
        "prob_b_better": None,  # a test gives a p-value, not a probability that B is better
        "empirical_ap_a": emp_a,
        "empirical_ap_b": emp_b,
        "difference_draws": None,
        "ap_a_draws": None,
        "ap_b_draws": None,
    }
    if method == "jackknife":
        n_pos = int(np.count_nonzero(is_pos))
        if min(n_pos, is_pos.shape[0] - n_pos) < 2:
            raise ValueError(
                "method='jackknife' needs at least 2 positives and 2 negatives (the AP "
                f"without the only positive is undefined); got {n_pos} positive(s) out of "
                f"{is_pos.shape[0]}"
            )
        est, se = paired_jackknife(ranked_a, ranked_b, clusters)
        half = float(ndtri((1.0 + level) / 2.0)) * se
        p = float(2.0 * ndtr(-abs(est) / se)) if se > 0 else (1.0 if est == 0 else 0.0)
        out.update(
            estimate=est,
            low=max(-1.0, est - half),
            high=min(1.0, est + half),
            value_a=emp_a,
            value_b=emp_b,
            p_value=p,
            standard_error=se,
        )
        return out
    if method == "delong":
        n_pos = int(np.count_nonzero(is_pos))
        if min(n_pos, is_pos.shape[0] - n_pos) < 2:
            raise ValueError(
                "method='delong' needs at least 2 positives and 2 negatives (DeLong's "
                f"variance); got {n_pos} positive(s) out of {is_pos.shape[0]}"
            )
        test = paired_delong_test(is_pos, a, b, clusters)
        est, se = test.difference, test.standard_error
        half = float(ndtri((1.0 + level) / 2.0)) * se
        out.update(
            estimate=est,
            low=max(-1.0, est - half),
            high=min(1.0, est + half),
            value_a=test.auc_a,
            value_b=test.auc_b,
            p_value=test.p_value,
            standard_error=se,
        )
        return out
    _, p, null = paired_permutation_test(is_pos, a, b, metric, n_resamples, rng)
    if metric == "roc_auc":
        value_a, value_b = (float(v) for v in delong_components(is_pos, np.vstack((a, b))).auc)
    else:
        value_a, value_b = emp_a, emp_b
    null.setflags(write=False)
    out.update(
        estimate=value_b - value_a,
        low=float("nan"),
        high=float("nan"),
        value_a=value_a,
        value_b=value_b,
        p_value=p,
        null_distribution=null,
    )
    return out
