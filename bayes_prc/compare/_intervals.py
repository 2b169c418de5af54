"""Intervals for the area under the PR (or ROC) curve by every method, side by side."""

from __future__ import annotations

import warnings

import numpy as np

from .._core import check_random_state, plain
from .._core.groups import check_groups
from ..bayes import discrete_values
from ..empirical import as_ranked
from ..exceptions import UndefinedMetricWarning
from ..recommend import AP_LABELS as _LABELS
from ..recommend import recommend_auc_interval, recommend_clustered, recommend_interval
from ._auc import AUC_COMPARISON_METHODS, DEFAULT_AUC_METHODS, auc_frequentist_row
from ._common import _bayes_fit, _check_ci_prob, _check_methods, _separated

__all__ = [
    "AP_COMPARISON_METHODS",
    "DEFAULT_AP_METHODS",
    "DEGENERATE_NOTE",
    "TIED_NOTE",
    "compare_intervals",
]

#: Values of ``metric`` in :func:`compare_intervals`.
_METRICS = ("average_precision", "roc_auc")

#: Methods of :func:`compare_intervals`, in table order.
AP_COMPARISON_METHODS = (
    "semiparametric_hdi",
    "semiparametric_eti",
    "flexible_hdi",
    "flexible_eti",
    "binormal_hdi",
    "binormal_eti",
    "bayesian_bootstrap",
    "logit",
    "binomial",
    "bootstrap",
    "bca",
    "cross_validation",
)

#: The rows of :func:`compare_intervals` by default (cross-validation only on request:
#: it covered 25-88% in docs/coverage.md).
DEFAULT_AP_METHODS = tuple(
    m for m in AP_COMPARISON_METHODS if m != "cross_validation" and not m.startswith("flexible")
)


#: Why the model rows are left out when every score is tied.
TIED_NOTE = (
    "left out: every score is tied (a constant score), so the data carry no rank "
    "information for a score model"
)

#: The ``note`` of a resampling row of zero width.
DEGENERATE_NOTE = (
    "degenerate: zero width (its variance estimate, or every resample, is 0); not an "
    "interval to quote"
)

#: Which Bayesian model each row family comes from.
_ROW_MODEL = {"semiparametric": "semiparametric", "flexible": "flexible", "binormal": "parametric"}


def _frame(rows, attrs):
    import pandas as pd

    df = pd.DataFrame(rows).set_index("method")
    df["width"] = df["high"] - df["low"]
    cols = ["label", "family", "estimate", "low", "high", "width", "estimator", "interval"]
    df = df[cols + [c for c in df.columns if c not in cols]]
    df.attrs.update(attrs)
    return df


def compare_intervals(
    y_true,
    y_score,
    *,
    ci_prob=0.95,
    methods=None,
    random_seed=None,
    estimator="average_precision",
    n_resamples=2000,
    transform=None,
    bayes_method="auto",
    posterior=None,
    pos_label=None,
    progressbar=None,
    metric="average_precision",
    groups=None,
):
    """Intervals for the area under the PR (or ROC) curve by every method, on the same data.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    ci_prob : float, default 0.95
        Probability of every interval (credible or confidence).
    methods : sequence of str, optional
        Subset of :data:`AP_COMPARISON_METHODS`; default :data:`DEFAULT_AP_METHODS`
        (all but ``"cross_validation"``). Bayesian rows: ``"semiparametric_*"`` (the
        rank-based binormal model, :func:`fit_binormal`'s default), ``"flexible_*"``
        (the rank-based flexible ROC model, when available), ``"binormal_*"`` (the
        parametric binormal model on the score scale after ``transform``); ``*_hdi`` is
        the posterior mean and highest-density interval, ``*_eti`` the median and
        equal-tailed interval. Then the Bayesian bootstrap, Boyd et al.'s logit and
        binomial intervals, the percentile and BCa bootstraps and, on request only, the
        cross-validation interval (it covered 25-88% at a nominal 90% on non-normal
        populations in ``docs/coverage.md``: its spread across folds is not the sampling
        error of the full-data AP).
    random_seed : int, Generator or None
        One seed for every stochastic method (independent streams).
    estimator : str, default "average_precision"
        The empirical AUC-PR estimator of the frequentist rows (see :func:`auc_pr`).
        The Bayesian rows are about the model's AP (the area under its curve).
    n_resamples : int, default 2000
    transform : {None, "logit", "probit"}
        Passed to the parametric fit (``binormal_*`` rows); the rank-based models do not
        depend on it.
    bayes_method : {"auto", "nuts", "exact", "laplace"}, default "auto"
        ``"auto"`` (and ``"exact"`` or ``"laplace"``): each model's fast sampler (the
        conjugate posterior for the parametric model, the nested-Laplace grid for the
        semiparametric one); ``"nuts"``: PyMC's NUTS for every Bayesian row.
    posterior : BinormalPosterior, optional
        A fit to re-use for the rows of its model instead of fitting here.
    metric : {"average_precision", "roc_auc"}, default "average_precision"
        ``"roc_auc"``: the table of the area under the ROC curve instead. ``methods`` is
        then a subset of :data:`AUC_COMPARISON_METHODS` (default
        :data:`DEFAULT_AUC_METHODS`): the rows of :func:`roc_auc_interval` (``"delong"``
        and ``"delong_logit"``, DeLong et al. 1988; ``"hanley_mcneil"``, Hanley & McNeil
        1982; ``"bootstrap"`` and ``"bca"``, stratified) for the empirical AUC, then the
        Bayesian rows as above for the model's ROC AUC (``post.interval("roc_auc")``);
        ``estimator`` must stay at its default. A row the data cannot give (DeLong with
        fewer than 2 items in a class) is left out with a note. ``recommended`` is
        chosen by :func:`~bayes_prc.recommend.recommend_auc_interval` (DeLong's logit-scale
        row, or the rank-based ETI with few items in a class or separated classes).
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (a clustered test set): every frequentist row and the
        Bayesian bootstrap treat the clusters as the independent units (see
        ``groups`` of :func:`ap_interval` and :func:`roc_auc_interval`), a
        ``design_effect`` column shows how much the clusters widen each, and the
        recommendation is :func:`recommend_clustered`'s. The Bayesian model rows, whose
        models treat the items as independent, the cross-validation and the
        Hanley-McNeil rows are left out with a note. With every cluster a single item,
        the ungrouped table.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``method``; columns ``label``, ``family``, ``estimate``, ``low``,
        ``high``, ``width``, ``estimator``, ``interval``, ``note`` (empty, or why a
        row of zero width is degenerate and never recommended) and ``design_effect``
        with ``groups``. When every score is tied (``attrs["all_tied"]``) the model
        rows are left out with a note and the first row is the answer: ``prevalence``
        (AP: the AP of a constant score is the prevalence; Jeffreys' interval) or
        ``all_tied`` (ROC AUC: 0.5 exactly, interval [0.5, 0.5]). With ``groups``, ``df.attrs["clusters"]`` describes them. ``df.attrs`` carries
        ``recommended`` (the row to quote), ``recommendation`` (why, in one sentence),
        ``fit_checks`` (:class:`FitCheck` of each Bayesian model fit), ``notes`` (rows
        left out and why), ``arviz_summary`` and ``diagnostics`` of the first Bayesian
        fit, ``ci_prob`` and ``empirical_estimate``. ``df.to_xarray()`` is the Dataset
        form.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> table = bp.compare_intervals(d.y_true, d.y_score, random_seed=0, n_resamples=200)
    >>> list(table.index)[:2]
    ['semiparametric_hdi', 'semiparametric_eti']
    >>> table.attrs["recommended"] in table.index
    True
    >>> bool((table["low"] <= table["high"]).all())
    True
    >>> auc = bp.compare_intervals(d.y_true, d.y_score, metric="roc_auc", random_seed=0,
    ...                            n_resamples=200)  # DeLong et al. (1988)
    >>> list(auc.index)[:3], auc.attrs["recommended"]
    (['delong', 'delong_logit', 'hanley_mcneil'], 'semiparametric_eti')
    """
    from ..empirical import auc_pr
    from ..frequentist import ap_interval

    ci_prob = _check_ci_prob(ci_prob)
    if metric not in _METRICS:
        raise ValueError(f"`metric` must be one of {_METRICS}; got {plain(metric)}")
    auc = metric == "roc_auc"
    if auc and estimator != "average_precision":
        raise ValueError(
            "`estimator` chooses the empirical AUC-PR estimator and cannot be set with "
            f"metric='roc_auc'; got {plain(estimator)}"
        )
    valid = AUC_COMPARISON_METHODS if auc else AP_COMPARISON_METHODS
    default = DEFAULT_AUC_METHODS if auc else DEFAULT_AP_METHODS
    methods = _check_methods(methods, valid, default)
    if bayes_method not in ("auto", "nuts", "exact", "laplace"):
        raise ValueError(
            "`bayes_method` must be one of ('auto', 'nuts', 'exact', 'laplace'); "
            f"got {plain(bayes_method)}"
        )
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)  # the one validation
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos = int(is_pos.sum())
    clusters = None if groups is None else check_groups(groups, ranked.n_samples)
    if clusters is not None and clusters.singletons:
        clusters = None  # every cluster one item: the ungrouped table
    rng = check_random_state(random_seed)
    seeds = rng.spawn(len(methods) + 3)
    model_seeds = dict(zip(_ROW_MODEL.values(), seeds[-3:], strict=True))
    attrs = {"ci_prob": ci_prob, "estimator": estimator, "notes": {}, "fit_checks": {}}
    if clusters is not None:
        attrs["clusters"] = clusters.describe()
        model_rows = [m for m in methods if m.rsplit("_", 1)[0] in _ROW_MODEL]
        for m in model_rows:
            attrs["notes"][m] = (
                "left out with groups: the Bayesian models treat the items as independent"
            )
        dropped = {"cross_validation", "hanley_mcneil"} & set(methods)
        for m in dropped:
            attrs["notes"][m] = "does not take groups"
        methods = [m for m in methods if m not in model_rows and m not in dropped]
        seeds = seeds[: len(methods)] + seeds[-3:]
    if auc:
        from ..empirical import roc_auc_score

        attrs.update(estimator="roc_auc", metric=metric)
        both = 0 < n_pos < len(is_pos)
        attrs["empirical_estimate"] = roc_auc_score(ranked, None) if both else np.nan
    else:
        attrs["empirical_estimate"] = auc_pr(ranked, None, estimator=estimator)
    attrs["separated"] = _separated(is_pos, score)
    # every score tied: no ranks (the AP is the prevalence, the ROC AUC 0.5 exactly)
    tied = ranked.all_tied
    attrs["all_tied"] = tied
    fits = {}
    rows = _tied_rows(is_pos, ci_prob, metric) if tied else []
    values = None if auc or clusters is not None else discrete_values(score)
    if values is not None and 0 < n_pos < is_pos.size:
        rows.append(_discrete_row(is_pos, score, values, ci_prob, rng.spawn(1)[0]))
    for method, seed in zip(methods, seeds[: len(methods)], strict=True):
        family = method.rsplit("_", 1)[0]
        if family in _ROW_MODEL:
            model = _ROW_MODEL[family]
            if tied:
                attrs["notes"][model] = TIED_NOTE
                continue
            if model not in fits:
                fits[model] = _bayes_fit(
                    ranked,
                    posterior,
                    transform,
                    bayes_method,
                    model_seeds[model],
                    progressbar,
                    model,
                    attrs,
                )
            post = fits[model]
            if post is None:
                continue
            rows.append(_bayes_row(method, post, ci_prob, metric))
            continue
        if auc:
            with warnings.catch_warnings():
                if tied:  # the zero variance is expected there: the row is marked instead
                    warnings.simplefilter("ignore", UndefinedMetricWarning)
                row = auc_frequentist_row(
                    ranked,
                    method,
                    ci_prob,
                    n_resamples,
                    seed,
                    progressbar,
                    attrs["notes"],
                    clusters,
                )
            rows += [row] if row is not None else []
            continue
        extra = {}
        if method == "cross_validation":
            # Boyd et al. use 10 folds; each fold needs a positive
            extra["n_folds"] = int(min(10, n_pos))
            if extra["n_folds"] < 2:
                attrs["notes"][method] = f"needs at least 2 positives (got {n_pos})"
                continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = ap_interval(
                ranked,
                None,
                method=method,
                estimator=estimator,
                confidence_level=ci_prob,
                n_resamples=n_resamples,
                random_seed=seed,
                progressbar=progressbar,
                groups=clusters,
                **extra,
            )
        family = "bayesian" if method == "bayesian_bootstrap" else "frequentist"
        rows.append(
            {
                "method": method,
                "label": _LABELS[method],
                "family": family,
                "estimate": float(res.estimate),
                "low": float(res.low),
                "high": float(res.high),
                "estimator": estimator,
                "interval": f"{'ETI' if family == 'bayesian' else 'CI'} {ci_prob:g}",
                **({} if clusters is None else {"design_effect": res.design_effect}),
            }
        )
    first = next((f for f in fits.values() if f is not None), None)
    if first is not None:
        attrs["arviz_summary"] = first.summary(ci_prob=ci_prob)
        attrs["diagnostics"] = first.diagnostics()
    _mark_degenerate(rows)
    # a zero-width resampling row is never recommended
    available = [r["method"] for r in rows if not r.get("note")]
    from ._table import IntervalTable  # a DataFrame shown with its recommendation

    if clusters is not None:
        decision = recommend_clustered(available, clusters, metric, rows)
        attrs.update(decision.as_attrs())
        return IntervalTable.of(_frame(rows, attrs))
    decision = (
        recommend_auc_interval(
            available,
            attrs["fit_checks"],
            min(n_pos, len(is_pos) - n_pos),
            separated=attrs["separated"],
            tied=tied,
        )
        if auc
        else recommend_interval(
            available,
            attrs["fit_checks"],
            n_pos,
            separated=attrs["separated"],
            tied=tied,
            n_distinct=None if values is None else int(values.size),
        )
    )
    attrs.update(decision.as_attrs())
    return IntervalTable.of(_frame(rows, attrs))


def _tied_rows(is_pos, ci_prob, metric):
    """The row of all-tied scores: the prevalence's interval (AP), or 0.5 exactly (AUC).

    A constant score ranks nothing: its PR curve is the single point (recall 1,
    precision = prevalence), so its AP *is* the prevalence (scikit-learn's
    ``average_precision_score`` gives the sample prevalence) and its interval is the
    prevalence's, Jeffreys' equal-tailed interval (Brown, Cai & DasGupta 2001); every
    pair is tied, so its ROC AUC is 0.5 exactly, in the population as in the sample.
    """
    n, k = is_pos.size, int(is_pos.sum())
    if metric == "roc_auc":
        est = low = high = 0.5
        label = "exact: every pair tied, ROC AUC 0.5"
        method, estimator, interval = "all_tied", "ROC AUC of tied scores", "exact"
    else:
        from ..frequentist import proportion_interval

        res = proportion_interval(k, n, method="jeffreys", confidence_level=ci_prob)
        est, low, high = k / n, float(res.low), float(res.high)
        method, label = "prevalence", _LABELS["prevalence"]
        estimator, interval = "prevalence", f"CI {ci_prob:g}"
    return [
        {
            "method": method,
            "label": label,
            "family": "exact" if metric == "roc_auc" else "frequentist",
            "estimate": float(est),
            "low": float(low),
            "high": float(high),
            "estimator": estimator,
            "interval": interval,
        }
    ]


def _discrete_row(is_pos, score, values, ci_prob, rng):
    """The saturated multinomial model's tied AP (scores with at most n / 4 values)."""
    from ..bayes import discrete_ap_draws

    draws = discrete_ap_draws(is_pos, score, values, rng=rng)
    low, high = np.quantile(draws, [(1 - ci_prob) / 2, (1 + ci_prob) / 2])
    return {
        "method": "discrete_eti",
        "label": _LABELS["discrete_eti"],
        "family": "bayesian",
        "estimate": float(np.median(draws)),
        "low": float(low),
        "high": float(high),
        "estimator": f"AP of the {values.size} tied scores",
        "interval": f"ETI {ci_prob:g}",
    }


def _mark_degenerate(rows):
    """Give every zero-width row but an exact one a ``note`` (all rows get the column)."""
    for r in rows:
        degenerate = r["high"] - r["low"] == 0 and r["interval"] != "exact"
        r["note"] = DEGENERATE_NOTE if degenerate else ""


def _bayes_row(method, post, ci_prob, metric="average_precision"):
    """A Bayesian row: the posterior mean and HDI or the median and ETI of ``metric``."""
    auc = metric == "roc_auc"
    draws = post.roc_auc() if auc else post.average_precision()
    kind = method.rsplit("_", 1)[1]
    bounds = post.interval(draws, ci_prob=ci_prob, ci_kind=kind).values
    est = float(draws.mean()) if kind == "hdi" else float(draws.median())
    return {
        "method": method,
        "label": _LABELS[method],
        "family": "bayesian",
        "estimate": est,
        "low": float(bounds[0]),
        "high": float(bounds[1]),
        "estimator": f"{post.model_type} model {'ROC AUC' if auc else 'AP'}",
        "interval": f"{kind.upper()} {ci_prob:g}",
    }
