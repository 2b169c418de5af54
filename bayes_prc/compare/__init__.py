"""Every interval on the same data, side by side: the comparison tables.

Computation only (no plotting): the tables are pandas DataFrames with one row per method
and the columns ``family``, ``method``, ``estimate``, ``low``, ``high``, ``width``,
``estimator``, ``interval`` (what kind of interval at which level), ``note`` (why a
zero-width row is degenerate, else empty). ``df.to_xarray()`` gives the same table as an
xarray Dataset over dim ``row`` (with ``method`` an indexed coordinate along it: a dim
named ``method`` would collide with ``Dataset.sel``'s keyword).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._core import check_probability, check_random_state, plain
from .._core.groups import check_groups
from ..bayes import discrete_values
from ..empirical import as_ranked
from ..exceptions import UndefinedMetricWarning
from ._auc import (
    AUC_COMPARISON_METHODS,
    AUC_FREQUENTIST_METHODS,
    AUC_LABELS,
    DEFAULT_AUC_METHODS,
    auc_frequentist_row,
    recommend_auc_interval,
)

__all__ = [
    "compare_intervals",
    "compare_bands",
    "recommend_band",
    "BAND_METHODS",
    "DEFAULT_BAND_METHODS",
    "MIN_BAND_POSITIVES",
    "MIN_BOOTSTRAP_BAND_POSITIVES",
    "recommend_interval",
    "recommend_clustered",
    "DEFAULT_AP_METHODS",
    "compare_operating_point",
    "AP_COMPARISON_METHODS",
    "AUC_COMPARISON_METHODS",
    "DEFAULT_AUC_METHODS",
    "IntervalTable",
    # helpers of the report
    "AUC_FREQUENTIST_METHODS",
    "fit_or_reuse",
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

_LABELS = {
    "semiparametric_hdi": "Bayesian binormal, rank-based (mean, HDI)",
    "semiparametric_eti": "Bayesian binormal, rank-based (median, ETI)",
    "flexible_hdi": "Bayesian flexible ROC, rank-based (mean, HDI)",
    "flexible_eti": "Bayesian flexible ROC, rank-based (median, ETI)",
    "binormal_hdi": "Bayesian binormal, parametric (mean, HDI)",
    "binormal_eti": "Bayesian binormal, parametric (median, ETI)",
    "bayesian_bootstrap": "Bayesian bootstrap (ETI)",
    "logit": "logit (Boyd et al.)",
    "binomial": "binomial / Wald (Boyd et al.)",
    "bootstrap": "bootstrap percentile",
    "bca": "bootstrap BCa",
    "cross_validation": "cross-validation (Boyd et al.)",
    "prevalence": "prevalence (Jeffreys): the AP of tied scores",
    "discrete_eti": "Bayesian multinomial of the distinct scores (median, ETI)",
}

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


def _check_ci_prob(ci_prob):
    """The one probability check of the package (NumPy scalars accepted, as elsewhere)."""
    return check_probability(ci_prob, "ci_prob")


def _separated(is_pos, score):
    """Every positive scored above every negative (both classes present)."""
    if not 0 < int(is_pos.sum()) < is_pos.size:
        return False
    return bool(score[is_pos].min() > score[~is_pos].max())


def _check_methods(methods, valid, default):
    """``methods`` as a tuple (``default`` when None): a non-empty subset of ``valid``."""
    methods = default if methods is None else tuple(methods)
    unknown = [m for m in methods if m not in valid]
    if unknown or not methods:
        raise ValueError(f"`methods` must be a non-empty subset of {valid}; got unknown {unknown}")
    return methods


def _frame(rows, attrs):
    import pandas as pd

    df = pd.DataFrame(rows).set_index("method")
    df["width"] = df["high"] - df["low"]
    cols = ["label", "family", "estimate", "low", "high", "width", "estimator", "interval"]
    df = df[cols + [c for c in df.columns if c not in cols]]
    df.attrs.update(attrs)
    return df


def fit_or_reuse(y, s, posterior, transform, bayes_method, random_seed, progressbar, model):
    """``posterior`` when it is a fit of ``model``, else a new fit.

    ``bayes_method`` "exact" and "laplace" name the fast sampler of whichever model is
    fit (the tables mix models), so they map to "auto"; "nuts" stays.

    Parameters
    ----------
    y, s : array-like or Ranked
        Labels and scores, as :func:`bayes_prc.fit_binormal` takes them.
    posterior : BinormalPosterior or None
        A fit to reuse when its ``model_type`` is ``model``.
    transform : {None, "logit", "probit"}
        Score transform, used by the parametric model only.
    bayes_method : {"auto", "nuts", "exact", "laplace"}
    random_seed : int, Generator or None
    progressbar : bool
    model : str
        One of the models of :func:`bayes_prc.fit_binormal`.

    Returns
    -------
    BinormalPosterior
    """
    if posterior is not None and getattr(posterior, "model_type", "parametric") == model:
        return posterior
    from ..bayes import fit_binormal

    return fit_binormal(
        y,
        s,
        model=model,
        transform=transform if model == "parametric" else None,
        method="auto" if bayes_method in ("exact", "laplace") else bayes_method,
        random_seed=random_seed,
        progressbar=progressbar,
    )


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
        chosen by :func:`~bayes_prc.compare._auc.recommend_auc_interval` (DeLong's logit-scale
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
    from ..empirical import auc_pr_validated
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
        attrs["empirical_estimate"] = auc_pr_validated(is_pos, score, None, estimator)
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
        attrs["recommended"], attrs["recommendation"] = recommend_clustered(
            available, clusters, metric, rows
        )
        return IntervalTable.of(_frame(rows, attrs))
    attrs["recommended"], attrs["recommendation"] = (
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


def _bayes_fit(ranked, posterior, transform, bayes_method, seed, progressbar, model, attrs):
    """Fit one Bayesian model for the table (None, with a note, when it cannot be fit)."""
    try:
        post = fit_or_reuse(
            ranked, None, posterior, transform, bayes_method, seed, progressbar, model
        )
    except ValueError as err:
        if model == "parametric":
            raise
        attrs["notes"][model] = str(err)
        return None
    attrs["fit_checks"][model] = post.fit_check(random_seed=seed)
    return post


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


#: Fallback order when no Bayesian model can be quoted.
_FALLBACK = ("logit", "bayesian_bootstrap", "binomial", "bootstrap", "bca", "cross_validation")


def _check_outcome(check):
    """'passes (p = ...)' or 'is inconclusive ...': completes "the model's fit check ..."."""
    if check.grade == "inconclusive":
        return "is inconclusive at this sample size (no evidence against the model)"
    return f"passes (p = {check.p_value:.2f})"


def recommend_clustered(available, clusters, metric, rows):
    """The interval to quote for a clustered test set (``groups``), and why.

    AP: Boyd et al.'s logit interval with the effective number of positives
    ``n_pos / design_effect`` (the design effect from the leave-one-cluster-out
    jackknife), then the cluster bootstrap. ROC AUC: DeLong's interval on the logit scale
    with Obuchowski's clustered variance, then plain clustered DeLong, then the cluster
    bootstrap. In ``benchmarks/coverage_clusters.py`` (60-150 clusters of 1-8 items,
    strong shared effects, 300 data sets each) these covered 0.86-0.92 at a nominal 0.90
    where the rows that ignore the clusters covered 0.52-0.81 (``docs/clusters.md``).
    The rule depends on the data's situation only, never on the realized widths.
    """
    order = (
        ("delong_logit", "delong", "bootstrap", "bca")
        if metric == "roc_auc"
        else ("logit", "bootstrap", "bca", "binomial", "bayesian_bootstrap")
    )
    labels = AUC_LABELS if metric == "roc_auc" else _LABELS
    deff = {r["method"]: r.get("design_effect") for r in rows}
    for row in order:
        if row in available:
            d = deff.get(row)
            wider = (
                f" (design effect {d:.2f}: the naive interval would be about "
                f"{np.sqrt(d):.2f}x too narrow)"
                if d is not None
                else ""
            )
            return row, (
                f"Quote the {labels[row]} interval: the items come in "
                f"{clusters.describe()}, and it treats the clusters, not the items, as "
                f"independent{wider}."
            )
    return None, f"No interval to recommend for {clusters.describe()}."


def recommend_interval(
    available, fit_checks, n_pos, *, separated=False, tied=False, n_distinct=None
):
    """The AP interval to quote, and why (one sentence).

    The rule depends only on the data's situation, never on the realized widths of the
    stochastic rows, so the same data give the same row for every ``random_seed``:

    0. Every score tied (a constant score): its AP is the prevalence; the prevalence's
       Jeffreys interval (the ``prevalence`` row).
    1. Fewer than 2 positives: no model; Boyd et al.'s logit interval.
    2. Separated classes (every positive scored above every negative, empirical AP = 1):
       the logit interval. Every resampling row collapses to [1, 1] there, and the
       rank-based posterior, whose likelihood is flat towards perfect separation, covered
       only 53-78% of such test sets; the logit interval stays wide and covered
       (``docs/coverage.md``).
    3. Discrete scores (``n_distinct`` given: at most n / 4 distinct values, see
       :func:`~bayes_prc.bayes.discrete_values`): the ``discrete_eti`` row, the saturated
       multinomial model of the (class, score value) table, whose AP is the tied step
       curve's. The binormal model adds nothing there but a shape for a handful of
       cells, and with 2 values it is not identified (its ETI over-covered, 0.95-0.975
       at 90%, ``benchmarks/coverage_ties.py``).
    3b. The rank-based binormal model's fit check passes or is inconclusive (too few items
       of a class to test it): its equal-tailed interval, the narrowest row that covered
       close to nominal on non-normal populations and real classifiers.
    4. It fails and the rank-based flexible model is in the table and passes: its ETI.
    5. The parametric ETI when it is the only Bayesian row and its check does not fail.
    6. Else the logit interval, then the Bayesian bootstrap. A model whose check fails is
       never recommended.

    Parameters
    ----------
    available : sequence of str
        Rows of the table.
    fit_checks : dict
        Model name -> :class:`FitCheck`.
    n_pos : int
    separated : bool, default False
        Every positive is scored above every negative.
    tied : bool, default False
        Every score is tied.
    n_distinct : int or None, default None
        Number of distinct scores when they are discrete (None otherwise).

    Returns
    -------
    (str or None, str)
    """

    def fallback(reason):
        for row in _FALLBACK:
            if row in available:
                return row, f"Quote the {_LABELS[row]} interval: {reason}."
        return None, f"No interval to recommend: {reason}."

    if tied and "prevalence" in available:
        return "prevalence", (
            f"Quote the {_LABELS['prevalence']} interval: every score is tied (a constant "
            "score ranks nothing), so its AP is the prevalence, and this is the prevalence's "
            "interval; no score model can be fit and the resampling rows have zero width."
        )
    if n_pos < 2:
        few = "is only 1 positive" if n_pos == 1 else f"are only {n_pos} positives"
        return fallback(f"there {few}, too few for a model")
    if separated and "logit" in available:
        return "logit", (
            f"Quote the {_LABELS['logit']} interval: every positive is scored above every "
            "negative, where resampling intervals collapse to [1, 1] and the model-based "
            "intervals are too narrow; the logit interval covers there"
        ) + "."
    if n_distinct is not None and "discrete_eti" in available:
        return "discrete_eti", (
            f"Quote the {_LABELS['discrete_eti']} interval: the scores take only "
            f"{n_distinct} distinct values, so the AP to quote is that of the tied step "
            "curve (ties grouped as scikit-learn groups them), and this model estimates "
            "each class's share of every value directly, with no score model."
        )
    for model, row in (("semiparametric", "semiparametric_eti"), ("flexible", "flexible_eti")):
        check = fit_checks.get(model)
        if row in available and check is not None and check.passed:
            why = (
                "it uses only the order of the scores, and its equal-tailed interval covered "
                "close to its nominal level on non-normal score populations"
            )
            if model == "flexible":
                why = "the binormal ROC fails its fit check"
            return (
                row,
                f"Quote the {_LABELS[row]} interval: its fit check {_check_outcome(check)}; {why}.",
            )
    bayes_rows = [r for r in available if r.split("_")[0] in ("semiparametric", "flexible")]
    check = fit_checks.get("parametric")
    if not bayes_rows and "binormal_eti" in available and check is not None and check.passed:
        return "binormal_eti", (
            f"Quote the {_LABELS['binormal_eti']} interval: it is the only Bayesian row "
            f"and its fit check {_check_outcome(check)}."
        )
    failed = [m for m, c in fit_checks.items() if not c.passed]
    return fallback(
        f"the {' and '.join(failed)} model(s) fail their fit check"
        if failed
        else "no Bayesian model was fit"
    )


def compare_operating_point(
    y_true,
    y_score,
    *,
    threshold=None,
    random_seed=None,
    ci_prob=0.95,
    n_resamples=2000,
    transform=None,
    bayes_method="auto",
    posterior=None,
    pos_label=None,
    model="semiparametric",
):
    """Precision and recall at one operating point, by every interval method.

    The operating point classifies ``score >= threshold`` as positive; by default the
    threshold of the empirical maximum F1. Precision: the binormal posterior (ETI),
    the likelihood-ratio interval (seed 002), Wilson, Clopper-Pearson, Jeffreys and the
    stratified bootstrap. Recall: the binormal posterior, Wilson, Clopper-Pearson and
    seed 002's Monte-Carlo interval from independent precision and NPV models.

    The Bayesian rows come from ``model`` (``"semiparametric"``, the default of
    :func:`fit_binormal`, or ``"parametric"`` with ``transform``); ``bayes_method`` as in
    :func:`compare_intervals`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (``quantity``, ``method``); columns ``label``, ``family``,
        ``estimate``, ``low``, ``high``, ``width``, ``interval``. ``df.attrs`` has
        ``threshold``, ``ci_prob`` and the confusion counts (``tp``, ``fp``, ``tn``,
        ``fn``).

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> t = bp.compare_operating_point(d.y_true, d.y_score, transform="logit", random_seed=0,
    ...                                n_resamples=200)
    >>> sorted(set(t.index.get_level_values("quantity")))
    ['precision', 'recall']
    """
    import pandas as pd

    from ..empirical import max_fbeta
    from ..frequentist import precision_interval, recall_interval

    ci_prob = _check_ci_prob(ci_prob)
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)  # the one validation
    if threshold is None:
        threshold = max_fbeta(ranked, None).threshold
    elif isinstance(threshold, bool) or not np.isscalar(threshold) or not np.isfinite(threshold):
        raise ValueError(f"`threshold` must be a finite number; got {plain(threshold)}")
    threshold = float(threshold)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(4)
    if model not in ("semiparametric", "parametric"):
        raise ValueError(f"`model` must be 'semiparametric' or 'parametric'; got {plain(model)}")
    post = fit_or_reuse(ranked, None, posterior, transform, bayes_method, seeds[0], False, model)
    label = "Bayesian binormal, " + ("rank-based" if model == "semiparametric" else "parametric")
    alpha = 1 - ci_prob
    rows = []

    def post_row(quantity, draws):
        lo, med, hi = np.quantile(draws, [alpha / 2, 0.5, 1 - alpha / 2])
        rows.append(
            {
                "quantity": quantity,
                "method": "binormal",
                "label": f"{label} (median, ETI)",
                "family": "bayesian",
                "estimate": float(med),
                "low": float(lo),
                "high": float(hi),
                "interval": f"ETI {ci_prob:g}",
            }
        )

    post_row("precision", post.precision_at_threshold(threshold).values[..., 0])
    counts = {}
    labels = {
        "likelihood_ratio": "likelihood ratio",
        "wilson": "Wilson",
        "clopper_pearson": "Clopper-Pearson",
        "jeffreys": "Jeffreys",
        "bootstrap": "bootstrap percentile",
        "mc_npv": "Monte Carlo from precision and NPV",
    }
    for method in ("likelihood_ratio", "wilson", "clopper_pearson", "jeffreys", "bootstrap"):
        res = precision_interval(
            ranked,
            None,
            threshold,
            method=method,
            confidence_level=ci_prob,
            n_resamples=n_resamples,
            random_seed=seeds[1],
        )
        counts = {"tp": res.tp, "fp": res.fp, "tn": res.tn, "fn": res.fn}
        rows.append(_threshold_row("precision", method, labels[method], res, ci_prob))
    post_row("recall", post.recall_at_threshold(threshold).values[..., 0])
    for method, seed in (("wilson", None), ("clopper_pearson", None), ("mc_npv", seeds[2])):
        res = recall_interval(
            ranked, None, threshold, method=method, confidence_level=ci_prob, random_seed=seed
        )
        rows.append(_threshold_row("recall", method, labels[method], res, ci_prob))
    df = pd.DataFrame(rows).set_index(["quantity", "method"])
    df["width"] = df["high"] - df["low"]
    df = df[["label", "family", "estimate", "low", "high", "width", "interval"]]
    df.attrs.update({"threshold": threshold, "ci_prob": ci_prob, **counts})
    return df


def _threshold_row(quantity, method, label, res, ci_prob):
    return {
        "quantity": quantity,
        "method": method,
        "label": label,
        "family": "frequentist",
        "estimate": float(res.estimate),
        "low": float(res.low),
        "high": float(res.high),
        "interval": f"CI {ci_prob:g}",
    }


# ---------------------------------------------------------------------------------------
# PR-curve bands, side by side

#: Methods of :func:`compare_bands`, in table order: ``<source>_<kind>``.
BAND_METHODS = (
    "averaged_pointwise",
    "averaged_simultaneous",
    "semiparametric_pointwise",
    "semiparametric_simultaneous",
    "contaminated_pointwise",
    "contaminated_simultaneous",
    "flexible_pointwise",
    "flexible_simultaneous",
    "bootstrap_pointwise",
    "bootstrap_simultaneous_t",
)

#: The bands of :func:`compare_bands` by default (the flexible model only on request).
DEFAULT_BAND_METHODS = tuple(m for m in BAND_METHODS if not m.startswith("flexible"))

_BAND_LABELS = {
    "averaged_pointwise": "rank-based models averaged (binormal, contaminated, mixture), pointwise",
    "averaged_simultaneous": (
        "rank-based models averaged (binormal, contaminated, mixture), simultaneous"
    ),
    "semiparametric_pointwise": "rank-based binormal posterior, pointwise",
    "semiparametric_simultaneous": "rank-based binormal posterior, simultaneous",
    "contaminated_pointwise": "contaminated binormal posterior, pointwise",
    "contaminated_simultaneous": "contaminated binormal posterior, simultaneous",
    "flexible_pointwise": "flexible ROC posterior, pointwise",
    "flexible_simultaneous": "flexible ROC posterior, simultaneous",
    "bootstrap_pointwise": "stratified bootstrap, pointwise",
    "bootstrap_simultaneous_t": "stratified bootstrap, studentized sup-t (simultaneous)",
}


def _check_recall_grid(recall):
    if recall is None:  # the ends are limits: precision at recall 0 is not defined
        return np.linspace(0.01, 0.99, 99)
    grid = np.asarray(recall, dtype=np.float64)
    if grid.ndim != 1 or grid.size < 2 or not np.all(np.isfinite(grid)):
        raise ValueError(f"`recall` must be a 1-D grid of at least 2 values; got {plain(recall)}")
    if grid.min() < 0 or grid.max() > 1 or np.any(np.diff(grid) <= 0):
        raise ValueError(
            f"`recall` must be increasing values in [0, 1]; got {plain(grid.min())} to {grid.max()!r}"
        )
    return grid


def compare_bands(
    y_true,
    y_score,
    *,
    ci_prob=0.95,
    random_seed=None,
    recall=None,
    methods=None,
    n_resamples=1000,
    posterior=None,
    pos_label=None,
    progressbar=None,
):
    """Bands of the PR curve by every method on one recall grid, and the one to draw.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    ci_prob : float, default 0.95
        Probability of every band: pointwise (at each recall) for ``*_pointwise``, for the
        whole curve for the simultaneous bands.
    random_seed : int, Generator or None
        One seed for every stochastic band (independent streams).
    recall : array-like, optional
        Increasing recall grid in [0, 1]; default 0.01, 0.02, ..., 0.99.
    methods : sequence of str, optional
        Subset of :data:`BAND_METHODS`; default :data:`DEFAULT_BAND_METHODS`.
        ``semiparametric_*``: the rank-based binormal posterior's band
        (:meth:`BinormalPosterior.pr_band`, ``kind="pointwise"`` or
        ``"simultaneous"``); ``contaminated_*`` and ``flexible_*`` those models';
        ``averaged_*`` the three rank-based posteriors pooled
        (:func:`bayes_prc.bayes.averaged_pr_band`); ``bootstrap_*``
        :func:`bayes_prc.bootstrap_pr_band` (stratified; ``kind="pointwise"`` or the
        studentized ``"simultaneous_t"``).
    n_resamples : int, default 1000
        Bootstrap replicates.
    posterior : BinormalPosterior, optional
        A rank-based fit (on the same data) to re-use for the rows of its model; a
        rank-based binormal fit (``model="semiparametric"``) also lends its averaged
        companions (:meth:`BinormalPosterior.averaged_posteriors`), so the
        ``averaged_*`` rows are its default :meth:`~BinormalPosterior.pr_band`.
    pos_label : label, optional
    progressbar : bool or None, default None
        Progress of the bootstraps and the NUTS fits (None: a text bar on stderr when it
        is a terminal, PyMC's bar for NUTS).

    Returns
    -------
    xarray.Dataset
        Variables ``lower``, ``median``, ``upper`` with dims ``band``, ``recall``;
        coordinates ``kind`` (``"pointwise"`` or ``"simultaneous"``), ``label`` and
        ``method`` (the same names as ``band``, the dimension's name before issue 39)
        along ``band``. ``attrs``: ``recommended`` (the ``band`` value of the
        simultaneous band to draw, or None), ``recommendation`` (why, one sentence),
        ``ci_prob``, ``fit_checks`` (:class:`FitCheck` of each model fit) and ``notes``
        (bands left out, and why). Select one band with ``bands.sel(band=name)``.

    Notes
    -----
    The recommendation depends on the data's situation, not on the bands' realized
    widths (:func:`recommend_band`): the ``averaged_simultaneous`` band (the rank-based
    binormal, contaminated and flexible posteriors pooled with equal weights,
    :func:`bayes_prc.bayes.averaged_pr_band`; the band of the default fit's
    :meth:`BinormalPosterior.pr_band`) when one of those models passes its fit check or
    the check is inconclusive, or the classes are separated; else the studentized
    bootstrap band (Montiel Olea & Plagborg-Moller 2019) with at least
    :data:`MIN_BOOTSTRAP_BAND_POSITIVES` positives; else none (``None``, and
    ``recommendation`` says why), as with fewer than :data:`MIN_BAND_POSITIVES` positives.
    The ``averaged_*`` bands' upper bound is 1 up to the recall where the data rule out
    precision 1 (:func:`bayes_prc.bayes.precision_one_reach`: the Clopper-Pearson upper
    bound of the recall of the positives scored above every negative): continuous model
    curves never reach 1, a finite population's curve is exactly 1 there (few positives,
    separated classes). On the populations of ``docs/coverage.md`` (nominal 90%, recall
    0.1-0.9) the pooled band contained the whole true curve in 0.875-1.00 of the data sets
    at n = 200 and 0.90-0.97 at n = 1000 (label noise, hard negatives, classifier
    probabilities), at 0.63-0.70 times the bootstrap band's width; each single model's
    band fell to 0.37-0.80 somewhere. The rank-based binormal check is deterministic; the
    contaminated and flexible checks are posterior predictive (seeded), and decide only
    when the binormal check fails.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> bands = bp.compare_bands(y, s, ci_prob=0.9, random_seed=0, n_resamples=200)
    >>> bands["band"].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    ['averaged_pointwise', 'averaged_simultaneous', 'semiparametric_pointwise',
     'semiparametric_simultaneous', 'contaminated_pointwise', 'contaminated_simultaneous',
     'bootstrap_pointwise', 'bootstrap_simultaneous_t']
    >>> bands.attrs["recommended"], dict(bands.sizes)
    ('averaged_simultaneous', {'band': 8, 'recall': 99})
    >>> best = bands.sel(band=bands.attrs["recommended"])  # lower, median, upper over recall
    >>> bool((bands["lower"] <= bands["upper"]).all())
    True
    """
    import xarray as xr

    from ..bayes import (
        curve_band,
        pool_curves,
        positives_above_negatives,
        precision_one_reach,
        reach_precision_one,
    )
    from ..frequentist import bootstrap_pr_band

    ci_prob = _check_ci_prob(ci_prob)
    grid = _check_recall_grid(recall)
    methods = _check_methods(methods, BAND_METHODS, DEFAULT_BAND_METHODS)
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)  # the one validation
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos = int(is_pos.sum())
    n_above = positives_above_negatives(is_pos, score)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(len(methods) + 3)
    model_seeds = dict(zip(("semiparametric", "flexible", "contaminated"), seeds[-3:], strict=True))
    attrs = {"ci_prob": ci_prob, "notes": {}, "fit_checks": {}}
    separated = _separated(is_pos, score)
    fits, rows, curves = {}, {}, {}
    companions = {}  # a default (rank-based binormal) fit's averaged models, re-used
    if getattr(posterior, "model_type", None) == "semiparametric":
        try:
            companions = posterior.averaged_posteriors()
        except ValueError as err:  # a companion that cannot be fit: fitted (or noted) below
            attrs["notes"]["averaged"] = str(err)
    for method, seed in zip(methods, seeds[: len(methods)], strict=True):
        source, kind = method.split("_", 1)
        if source == "bootstrap":
            band = bootstrap_pr_band(
                ranked,
                None,
                grid_points=grid,
                n_resamples=n_resamples,
                confidence_level=ci_prob,
                random_seed=seed,
                kind=kind,
                progressbar=progressbar,
            )
        else:
            for model in _AVERAGED if source == "averaged" else (source,):
                if model not in fits and model in companions:
                    # the given fit's own companions: its default band is this band
                    fits[model] = companions[model]
                    check = fits[model].fit_check(random_seed=model_seeds[model])
                    attrs["fit_checks"][model] = check
                elif model not in fits:
                    fits[model] = _bayes_fit(
                        ranked,
                        posterior,
                        None,
                        "auto",
                        model_seeds[model],
                        progressbar,
                        model,
                        attrs,
                    )
            # each model's posterior curves on the grid, computed once for all its bands
            for model, fit in fits.items():
                if fit is not None and model not in curves:
                    curves[model] = fit.model.precision_at_recall(grid).reshape(-1, grid.size)
            pooled = _AVERAGED if source == "averaged" else (source,)
            pooled = [curves[m] for m in pooled if m in curves]
            if not pooled:
                continue
            band = curve_band(pool_curves(pooled), grid, ci_prob, kind)
            if source == "averaged":  # as BinormalPosterior.pr_band's averaged band
                reach_precision_one(band, precision_one_reach(n_above, n_pos, ci_prob))
        rows[method] = [np.asarray(band[v].values, dtype=np.float64) for v in _BAND_VARS]
    if not rows:
        raise ValueError(f"no band could be computed: {attrs['notes']}")
    # a band of zero width everywhere is degenerate (e.g. every resample equal): never drawn
    flat = [m for m, (lo, _, hi) in rows.items() if np.all(hi - lo <= 0)]
    for m in flat:
        attrs["notes"][m] = "degenerate: zero width at every recall; not a band to draw"
    attrs["recommended"], attrs["recommendation"] = recommend_band(
        [m for m in rows if m not in flat],
        attrs["fit_checks"],
        n_pos,
        separated=separated,
        all_tied=ranked.all_tied,
    )
    names = list(rows)
    data = {
        v: (("band", "recall"), np.stack([rows[m][i] for m in names]))
        for i, v in enumerate(_BAND_VARS)
    }
    kinds = ["pointwise" if m.endswith("pointwise") else "simultaneous" for m in names]
    coords = {
        "band": names,
        "recall": grid,
        "kind": ("band", kinds),
        "label": ("band", [_BAND_LABELS[m] for m in names]),
        # the dimension's former name, kept as an indexed coordinate along ``band`` so
        # ``sel({"method": name})`` still works (``sel(method=...)`` never did: it is
        # xarray's own keyword)
        "method": ("band", names),
    }
    return xr.Dataset(data, coords=coords, attrs=attrs).set_xindex("method")


_BAND_VARS = ("lower", "median", "upper")
#: The models pooled by the ``averaged_*`` bands (equal weights).
_AVERAGED = ("semiparametric", "contaminated", "flexible")
_WHAT_MODEL = {
    "semiparametric": "the rank-based binormal model",
    "contaminated": "the contaminated binormal model",
    "flexible": "the flexible ROC model",
}


#: Fewest positives for a band of the PR curve: below, no band is drawn (the models need
#: 2 positives; one resampled positive says nothing about the curve's shape).
MIN_BAND_POSITIVES = 2

#: Fewest positives for the studentized bootstrap band. On gradient-boosting scores of
#: real data (``benchmarks/coverage_few_positives.py``, ``docs/coverage.md``, "Few
#: positives", nominal 90%) it contained the whole true curve in 0.40 of data sets at
#: 3 positives and 0.55 at 5 (resamples of a handful of positives cannot show how far
#: the curve may fall; with separated classes every resample has precision 1 along the
#: whole curve), 0.87 at 12.
MIN_BOOTSTRAP_BAND_POSITIVES = 12


def recommend_band(available, fit_checks, n_pos, *, separated=False, all_tied=False):
    """The simultaneous PR band to draw, and why (one sentence); see :func:`compare_bands`.

    - Every score tied (``all_tied``): none (``None``): the PR curve is one point,
      precision = the prevalence at recall 1; quote the prevalence's interval.
    - Fewer than :data:`MIN_BAND_POSITIVES` positives: none (``None``).
    - The model-averaged band when one of its models passes its fit check (or is
      inconclusive), or when the classes are separated (every positive above every
      negative: the averaged band then reaches precision 1 along the whole curve, which
      the data cannot rule out, while every bootstrap resample has precision 1
      everywhere).
    - Else the first single-model band in the order contaminated, rank-based binormal,
      flexible whose check passes.
    - Else the studentized bootstrap band, with at least
      :data:`MIN_BOOTSTRAP_BAND_POSITIVES` positives and overlapping classes; none
      (``None``) below that.
    """
    if all_tied:
        return None, (
            "No band of the PR curve is drawn: every score is tied, so the curve is a "
            "single point (recall 1 at precision = the prevalence) and no ranking can be "
            "shown; quote the prevalence's interval (compare_intervals' recommended row)."
        )
    if n_pos < MIN_BAND_POSITIVES:
        return None, (
            f"No band of the PR curve is drawn: with {n_pos} positive(s) no band can be "
            f"trusted (the models need at least {MIN_BAND_POSITIVES} positives, and "
            "resampling a single positive says nothing about the curve)."
        )
    passing = [m for m in _AVERAGED if fit_checks.get(m) is not None and fit_checks[m].passed]
    if "averaged_simultaneous" in available and separated:
        return "averaged_simultaneous", (
            f"Draw the {_BAND_LABELS['averaged_simultaneous']} band: every positive is "
            "scored above every negative, so the data cannot rule out precision 1 at any "
            "recall and the band reaches 1 along the whole curve (every bootstrap "
            "resample has precision 1 everywhere, so the bootstrap band would collapse)."
        )
    if "averaged_simultaneous" in available and passing:
        return "averaged_simultaneous", (
            f"Draw the {_BAND_LABELS['averaged_simultaneous']} band: the "
            f"{_WHAT_MODEL[passing[0]].split(' ', 1)[1]}'s fit check "
            f"{_check_outcome(fit_checks[passing[0]])}, and pooling the three rank-based "
            "models' posteriors spans the curve shapes none of their checks can rule out "
            "at this sample size (a precision ceiling below 1, a mixture of positives); "
            "it contained the whole true curve most often of the model bands on the "
            "populations of docs/coverage.md, at about 0.65 times the bootstrap band's width."
        )
    why = {
        "contaminated": "it allows a small share of label noise, so its band can level off "
        "below precision 1 at low recall (label noise, hard negatives)",
        "semiparametric": "its band is the narrowest that contains the whole true curve "
        "about as often as it claims on populations the model fits",
        "flexible": "the flexible ROC model follows ROC curves that are not binormal",
    }
    for source in ("contaminated", "semiparametric", "flexible"):
        row, check = f"{source}_simultaneous", fit_checks.get(source)
        if row in available and check is not None and check.passed:
            return row, (
                f"Draw the {_BAND_LABELS[row]} band: the model's fit check "
                f"{_check_outcome(check)}, and {why[source]}."
            )
    check = fit_checks.get("contaminated", fit_checks.get("semiparametric"))
    if check is not None and not check.passed:
        reason = f"{_WHAT_MODEL[check.model]} fails its fit check"
    else:
        reason = "no model band was computed"
    if separated or n_pos < MIN_BOOTSTRAP_BAND_POSITIVES:
        why_not = (
            "every positive is scored above every negative, where every bootstrap resample "
            "has precision 1 along the whole curve"
            if separated
            else f"with {n_pos} positives (fewer than {MIN_BOOTSTRAP_BAND_POSITIVES}) the "
            "bootstrap band contained the whole true curve in about half of the data sets "
            "that claim 90% (docs/coverage.md)"
        )
        return None, f"No band of the PR curve is drawn: {reason}, and {why_not}."
    for row in ("bootstrap_simultaneous_t", "semiparametric_simultaneous"):
        if row in available:
            return row, f"Draw the {_BAND_LABELS[row]} band: {reason}."
    return None, f"No simultaneous band in the comparison: {reason}."


def __getattr__(name):
    # the table type is a pandas subclass: loaded on first use, so that
    # ``import bayes_prc.compare`` does not load pandas
    if name == "IntervalTable":
        from ._table import IntervalTable

        return IntervalTable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
