"""Entry points for dask input of the public functions (see :mod:`bayes_prc._dispatch`).

Up to ``max_exact`` items the data are computed into memory and the exact numpy core
runs; beyond, the binned curve and a bounded AP (:mod:`._binned`), or the one-pass
statistics of the binormal fit (:mod:`._stats`).
"""

from __future__ import annotations

import numpy as np

from .._core import check_bool, plain, warn_at_caller
from ..empirical import auc_pr, average_precision_score, precision_recall_curve
from ._binned import BinnedCurveWarning, _binned, _check_bins, _up, ap_bounds_text
from ._blocks import (
    _aligned,
    _compute_numpy,
    _exact_path,
    _import_dask,
)
from ._options import _OPTIONS
from ._stats import _chan, class_statistics


def _binned_only(what, sample_weight, n):
    if sample_weight is not None:
        raise ValueError(
            f"`sample_weight` with dask input is supported up to max_exact="
            f"{_OPTIONS['max_exact']:,} items (the exact path); got {n:,} items for {what}"
        )


def dask_precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    """:func:`bayes_prc.precision_recall_curve` for dask input: exact, or binned."""
    check_bool(drop_intermediate, "drop_intermediate")
    blocks = _aligned(y_true, y_score)
    if _exact_path(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return precision_recall_curve(
            y, s, pos_label=pos_label, sample_weight=w, drop_intermediate=drop_intermediate
        )
    _binned_only("precision_recall_curve", sample_weight, blocks.n)
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label, drop_intermediate=drop_intermediate)
    warn_at_caller(
        f"precision_recall_curve of {res.n_samples:,} items (> max_exact="
        f"{_OPTIONS['max_exact']:,}): the curve is given at {res.n_bins:,} thresholds, the "
        "lowest score of each score bin, instead of at every distinct score; each point "
        "is exact. Raise bayes_prc.scale.set_options(max_exact=...) for every point.",
        BinnedCurveWarning,
    )
    return res.precision, res.recall, res.thresholds


def _warn_binned_ap(res, what):
    warn_at_caller(
        f"{what} of {res.n_samples:,} items (> max_exact={_OPTIONS['max_exact']:,}) from "
        f"{res.n_bins:,} score bins: {res.average_precision:.6f}, within "
        f"{_up(res.ap_error_bound)} of the exact value (exact AP in "
        f"{ap_bounds_text(res)}). Raise bayes_prc.scale.set_options(max_exact=...) for the "
        "exact value.",
        BinnedCurveWarning,
    )


def dask_average_precision_score(
    y_true, y_score, *, average="macro", pos_label=1, sample_weight=None
):
    """:func:`bayes_prc.average_precision_score` for dask input: exact, or binned."""
    average_options = (None, "micro", "macro", "weighted", "samples")
    if average not in average_options:
        raise ValueError(f"`average` must be one of {average_options}; got {plain(average)}")
    multi = any(len(np.shape(x)) == 2 and np.shape(x)[1] != 1 for x in (y_true, y_score))
    if multi:
        dask = _import_dask()
        y_arr, s_arr, w = dask.compute(y_true, y_score, sample_weight)
        if y_arr.shape[0] > _OPTIONS["max_exact"]:
            raise ValueError(
                f"multilabel or multiclass average precision of dask input is supported up "
                f"to max_exact={_OPTIONS['max_exact']:,} items; got {y_arr.shape[0]:,}"
            )
        return average_precision_score(
            y_arr, s_arr, average=average, pos_label=pos_label, sample_weight=w
        )
    blocks = _aligned(y_true, y_score)
    if _exact_path(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return average_precision_score(y, s, average=average, pos_label=pos_label, sample_weight=w)
    _binned_only("average_precision_score", sample_weight, blocks.n)
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label, ap_pos_label=True)
    if res.n_positive:
        _warn_binned_ap(res, "average_precision_score")
    return res.average_precision


def dask_auc_pr(
    y_true, y_score, *, estimator="average_precision", pos_label=None, sample_weight=None
):
    """:func:`bayes_prc.auc_pr` for dask input: exact, or binned (AP only)."""
    blocks = _aligned(y_true, y_score)
    if _exact_path(blocks):
        y, s, w = _compute_numpy(blocks, sample_weight)
        return auc_pr(y, s, estimator=estimator, pos_label=pos_label, sample_weight=w)
    _binned_only("auc_pr", sample_weight, blocks.n)
    if estimator != "average_precision":
        raise ValueError(
            f"auc_pr(estimator={estimator!r}) needs the exact curve, and the input has "
            f"{blocks.n:,} items > max_exact={_OPTIONS['max_exact']:,}; use "
            "estimator='average_precision' (binned, with an error bound) or raise "
            "bayes_prc.scale.set_options(max_exact=...)"
        )
    bins, grid = _check_bins(None, None)
    res = _binned(blocks, bins, grid, pos_label)
    if res.n_positive:
        _warn_binned_ap(res, "auc_pr")
    return res.average_precision


def dask_fit_binormal(y_true, y_score, *, transform=None, priors=None, pos_label=None, **options):
    """:func:`bayes_prc.fit_binormal` for dask input: one pass, then the usual posterior."""
    from ..bayes import ClassStats, SamplerOptions, check_fit_options, fit_from_statistics

    priors = check_fit_options(
        transform,
        options["method"],
        options["draws"],
        options["chains"],
        options["ci_prob"],
        priors,
    )
    raw_neg, raw_pos = class_statistics(y_true, y_score, transform=transform, pos_label=pos_label)
    n = raw_neg.n + raw_pos.n
    if raw_pos.n == 0 or raw_neg.n == 0:
        raise ValueError(
            f"`y_true` must contain both classes to fit the binormal model; got {raw_pos.n} "
            f"positive(s) out of {n}"
        )
    n_all, mean_all, m2_all = _chan(
        (raw_neg.n, raw_neg.mean, raw_neg.ss), (raw_pos.n, raw_pos.mean, raw_pos.ss)
    )
    location = float(mean_all) if priors.location is None else priors.location
    scale = float(np.sqrt(m2_all / n_all)) if priors.scale is None else priors.scale
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    stats = [
        ClassStats(st.n, (st.mean - location) / scale, st.ss / scale**2)
        for st in (raw_neg, raw_pos)
    ]
    return fit_from_statistics(
        stats[0],
        stats[1],
        location=location,
        scale=scale,
        transform=transform,
        priors=priors,
        n=n,
        sampler=SamplerOptions(
            **{k: options.pop(k) for k in ("draws", "chains", "tune", "cores", "target_accept")},
            progressbar=options.pop("progressbar"),
        ),
        **options,
    )
