"""The frequentist tests of :func:`bayes_prc.paired.compare_classifiers`.

``method="delong"`` (ROC AUC) and ``method="permutation"`` (ROC AUC or AP) give a
p-value of the null hypothesis that the two classifiers are equally good, instead of
draws of the difference; this module turns the kernels of
:mod:`bayes_prc.frequentist._roc_auc` and :mod:`bayes_prc.frequentist._paired_tests` into
the fields of :class:`bayes_prc.paired.PairedComparison`.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .._core import plain
from ..empirical import average_precision_score
from ..frequentist import delong_components, paired_delong_test, paired_permutation_test

__all__ = ["FREQUENTIST_METHODS", "METRICS", "check_metric_method", "frequentist_fields"]

#: Metrics :func:`bayes_prc.paired.compare_classifiers` compares.
METRICS: tuple[str, ...] = ("average_precision", "roc_auc")
#: Its methods that test rather than draw.
FREQUENTIST_METHODS: tuple[str, ...] = ("delong", "permutation")


def check_metric_method(metric, method, recall, rope):
    """The method for ``method=None``, and errors for combinations that do not exist."""
    if method is None:
        method = "bayes" if metric == "average_precision" else "delong"
    if metric == "roc_auc" and method not in FREQUENTIST_METHODS:
        raise ValueError(
            f"`method` must be one of {FREQUENTIST_METHODS} with metric='roc_auc'; got {plain(method)}"
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


def frequentist_fields(
    ranked_a, ranked_b, *, metric, method, level, rope, n_resamples, rng, clusters=None
):
    """Fields of :class:`~bayes_prc.paired.PairedComparison` for "delong" / "permutation".

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
