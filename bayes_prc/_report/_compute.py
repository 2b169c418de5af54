"""Everything the report shows, computed once: fits, tables, bands, checks and warnings.

The user's data are validated once (:func:`bayes_prc.empirical.as_ranked`); the
:class:`~bayes_prc.empirical.Ranked` result is passed on as ``y_true`` (with
``y_score=None``) to every public function that accepts one.

Seeds. The shown Bayesian fit and the AP table, where the headline comes from, draw
from a seed made from the data and the settings (:func:`data_seed`), so a report of the
same data shows the same headline whatever ``random_seed``; its Monte Carlo error is
reported with it (:func:`headline`). ``random_seed`` seeds everything else: the ROC AUC
and operating-point tables, the bootstrap and simultaneous bands and the simulated test
sets.
"""

from __future__ import annotations

import hashlib
import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import Steps, check_random_state
from .._core.groups import check_groups
from ..compare import (
    AUC_FREQUENTIST_METHODS,
    DEFAULT_AP_METHODS,
    compare_bands,
    compare_intervals,
    compare_operating_point,
    fit_or_reuse,
)
from ..criticism import compare_score_models, fit_score_models, score_ppc
from ..empirical import Ranked, as_ranked, average_precision_score, precision_recall_curve
from ..frequentist import bootstrap_pr_band
from ..recommend import recommend_band
from ..subgroups import check_subgroups
from ._options import ReportOptions
from ._subgroups import compute_subgroups

__all__ = [
    "PPC_WARN_LEVEL",
    "MODEL_NAMES",
    "ReportData",
    "add_caught_warnings",
    "compute_report",
    "data_seed",
    "headline",
    "method_labels",
    "plain_words",
]

#: Posterior predictive p-value below which the report warns about the score model.
PPC_WARN_LEVEL = 0.05

MODEL_NAMES = {
    "semiparametric": "rank-based binormal (semiparametric)",
    "parametric": "parametric binormal",
    "flexible": "rank-based flexible ROC",
}

#: The row family of each Bayesian model in the comparison tables.
_FAMILY = {"semiparametric": "semiparametric", "parametric": "binormal", "flexible": "flexible"}


@dataclass
class ReportData:
    """The numbers of one report (built by :func:`compute_report`)."""

    data: Ranked
    posterior: Any
    ap_table: Any
    op_table: Any
    bootstrap_band: Any
    figure_seed: np.random.Generator
    ppc: dict | None = None
    fit_checks: dict = field(default_factory=dict)
    loo_table: Any = None
    loo_fits: dict | None = None
    empirical_curve: tuple = ()
    empirical_ap: float = np.nan
    posterior_mean_ap: float = np.nan
    warnings: list = field(default_factory=list)
    auc_table: Any = None
    bands: Any = None
    clusters: Any = None
    transform: str | None = None
    subgroups: Any = None
    headline: dict | None = None

    @property
    def n(self):
        return self.data.n_samples

    @property
    def n_pos(self):
        return self.data.n_pos

    @property
    def pos_label(self):
        return self.data.pos_label

    @property
    def n_distinct(self):
        return int(np.unique(self.data.y_score).size)

    @property
    def n_tied(self):
        return int(self.n - self.n_distinct)


def data_seed(r, settings, clusters=None):
    """A :class:`numpy.random.SeedSequence` made from the data and the settings.

    The same labels, order of the scores (their ranks, ties included, item by item),
    cluster ids and ``settings`` give the same seed, so the parts of the report seeded
    with it (the shown fit and the AP table, hence the headline) do not change with the
    report's ``random_seed``, nor under a strictly increasing transform of the scores (the
    rank-based results must not move with the score scale).

    Parameters
    ----------
    r : Ranked
    settings : tuple
        Everything else the seeded computations depend on (transform, model, ...).
    clusters : Clusters, optional
    """
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(r.is_pos, dtype=np.bool_).tobytes())
    # the ranks, not the values: a monotone transform of the scores gives the same seed
    ranks = np.unique(np.asarray(r.y_score, dtype=np.float64), return_inverse=True)[1]
    h.update(np.ascontiguousarray(ranks.ravel(), dtype=np.int64).tobytes())
    if r.sample_weight is not None:
        h.update(np.ascontiguousarray(r.sample_weight, dtype=np.float64).tobytes())
    if clusters is not None:
        h.update(np.ascontiguousarray(clusters.codes, dtype=np.int64).tobytes())
    h.update(repr(settings).encode())
    return np.random.SeedSequence(int.from_bytes(h.digest()[:16], "little"))


def _quantile_mcse(draws, value, n_eff):
    """Monte Carlo standard error of ``value``, a quantile of ``draws`` (any level).

    The order-statistic interval of the quantile's level ``q``: the draws' quantiles at
    ``q -+ sqrt(q (1 - q) / n_eff)`` are one standard error apart from ``value`` each.
    """
    q = float(np.clip(np.mean(draws <= value), 1 / draws.size, 1 - 1 / draws.size))
    half = math.sqrt(q * (1 - q) / n_eff)
    lo, hi = np.quantile(draws, [max(q - half, 0.0), min(q + half, 1.0)])
    return float(hi - lo) / 2


def _decimals(se, lo=2, hi=3):
    """Decimals whose last digit is worth at least the Monte Carlo error ``se``."""
    if not se > 0:
        return hi
    return int(np.clip(math.floor(-math.log10(se) + 1e-9), lo, hi))


def headline(table, posterior):
    """The report's one number: the recommended AP row, with its Monte Carlo error.

    Returns
    -------
    dict or None
        ``method``, ``label``, ``estimate``, ``low``, ``high``, ``mcse`` (the largest
        Monte Carlo standard error of the three, None when not from the shown fit's
        draws), ``n_draws`` and ``decimals`` (of ``estimate``, ``low``, ``high``: 2 or 3,
        so that the last digit shown is worth at least its Monte Carlo error). None
        without a recommendation.
    """
    rec = table.attrs.get("recommended")
    if rec is None or rec not in table.index:
        return None
    row = table.loc[rec]
    values = [float(row.estimate), float(row.low), float(row.high)]
    out = {"method": rec, "label": row.label, "mcse": None, "n_draws": None}
    family, _, kind = rec.rpartition("_")
    if family == _FAMILY.get(posterior.model_type) and kind in ("hdi", "eti"):
        draws = np.asarray(posterior.average_precision().values, dtype=np.float64).ravel()
        ess = posterior.summary(var_names=["average_precision"]).loc["average_precision"]
        n_bulk, n_tail = float(ess["ess_bulk"]), float(ess["ess_tail"])
        est_se = (
            float(draws.std()) / math.sqrt(n_bulk)
            if kind == "hdi"
            else _quantile_mcse(draws, values[0], n_bulk)
        )
        ses = [est_se] + [_quantile_mcse(draws, v, n_tail) for v in values[1:]]
        out.update(mcse=max(ses), n_draws=int(draws.size), decimals=[_decimals(s) for s in ses])
    else:
        out["decimals"] = [3, 3, 3]
    out.update(estimate=values[0], low=values[1], high=values[2])
    return out


def _fit_shown_model(r, transform, bayes_method, seed, progressbar, model):
    """The Bayesian fit drawn in the figures, and a note when it fell back to parametric."""
    args = (r, None, None, transform, bayes_method, seed, progressbar)
    try:
        return fit_or_reuse(*args, model), []
    except ValueError as err:
        if model == "parametric":
            raise
        if min(r.n_pos, r.n_neg) < 2:  # the usual reason, in words
            why = (
                "it needs at least 2 positives and 2 negatives, and these data have "
                f"{_count(r.n_pos, 'positive')} and {_count(r.n_neg, 'negative')}"
            )
        else:
            why = plain_words(str(err))
        note = f"The rank-based model could not be fit: {why}. The parametric binormal model is shown instead."
        return fit_or_reuse(*args, "parametric"), [note]


def _ap_methods(post):
    """The AP table's rows: the parametric model's rows only when it is the shown fit.

    The parametric model's numbers depend on the score scale (and ``transform``); every
    other row depends on the order of the scores only. So the default report (a
    rank-based fit shown) is identical, to the last digit, for any strictly increasing
    transform of the scores and any ``transform``; the parametric rows appear when the
    parametric model is the one shown (``model="parametric"``, or too few positives for
    the rank-based model).
    """
    if post.model_type == "parametric":
        return DEFAULT_AP_METHODS
    return tuple(m for m in DEFAULT_AP_METHODS if not m.startswith("binormal_"))


def _count(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: Words for the Python names that library messages use (the report is read by people).
_PLAIN_NAMES = {
    "y_true": "the labels",
    "y_score": "the scores",
    "pos_label": "the positive label",
    "sample_weight": "the weights",
}


def plain_words(text, names=None):
    """A library message in plain words: no backticks, no ``method='x'``, no ``y_true``.

    ``names`` maps method ids to their labels (``{"hanley_mcneil": "Hanley-McNeil
    (1982)"}``); any other snake_case identifier left is written as words.

    Examples
    --------
    >>> from bayes_prc._report._compute import plain_words
    >>> plain_words("method='delong_logit' needs `y_true` with 2 classes")
    'delong logit needs the labels with 2 classes'
    >>> plain_words("the hanley_mcneil error is 0", {"hanley_mcneil": "Hanley-McNeil"})
    'the Hanley-McNeil error is 0'
    """
    text = re.sub(r"\b\w+=(['\"])([^'\"]*)\1", r"\2", str(text))
    text = text.replace("`", "")
    for name, words in {**_PLAIN_NAMES, **(names or {})}.items():
        text = re.sub(rf"\b{re.escape(name)}\b", words, text)
    return re.sub(r"\b([a-z]+(?:_[a-z0-9]+)+)\b", lambda m: m.group(1).replace("_", " "), text)


def method_labels(*tables):
    """``{method id: label}`` of the rows of comparison tables (None tables skipped)."""
    out = {}
    for table in tables:
        if table is None or "label" not in table:
            continue
        methods = table.index.get_level_values("method")
        out.update(zip(methods, table["label"], strict=True))
    return out


def _score_ppc_pvalues(r, post, seed):
    """Posterior predictive p-value of each class's score distribution (parametric fits)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ppc_ds = score_ppc(r, None, post, threshold=PPC_WARN_LEVEL, random_seed=seed)
    names = {"neg": "negative", "pos": "positive"}
    return {
        names.get(str(c), str(c)): float(v)
        for c, v in zip(ppc_ds["class"].values, ppc_ds["p_value"].values, strict=True)
    }


def _collect_warnings(d, diag, model_notes):
    """Every warning the report lists, in the order shown."""
    warns = []
    chains = d.posterior.idata["posterior"].sizes["chain"]
    if chains > 1 and diag["max_rhat"] > 1.01:
        warns.append(f"R-hat up to {diag['max_rhat']:.3f} (above 1.01): chains disagree.")
    if diag["min_ess_bulk"] < 100 * chains:
        warns.append(f"Effective sample size down to {diag['min_ess_bulk']:.0f}.")
    if diag["n_divergent"]:
        warns.append(f"{diag['n_divergent']} divergent transitions in NUTS.")
    if d.ppc is not None:
        for cls_name, p in d.ppc.items():
            if p < PPC_WARN_LEVEL:
                warns.append(
                    f"The binormal model fits the {cls_name} class's scores poorly "
                    f"(posterior predictive p = {p:.3f} < {PPC_WARN_LEVEL}): trust the "
                    "frequentist rows more than the binormal ones, or try another transform."
                )
    warns.extend(model_notes)
    for check in d.fit_checks.values():
        if not check.passed:
            warns.append(f"{MODEL_NAMES[check.model].capitalize()} model: {check.verdict}")
    if d.n_pos < 20:
        warns.append(
            f"Only {d.n_pos} positive{'' if d.n_pos == 1 else 's'}: every interval is wide and the empirical curve moves "
            "a lot from sample to sample (see the predictive curves)."
        )
    return warns


def compute_report(y_true, y_score, options=None, *, steps=None, **settings):
    """Fit, tabulate and check once; returns the :class:`ReportData`.

    ``options`` is a :class:`~bayes_prc._report.ReportOptions` (or give its fields as
    keywords; see :func:`bayes_prc._report.report` for their meaning). ``steps`` (a
    :class:`~bayes_prc._core.Steps`) writes one line per long step.
    """
    o = ReportOptions.from_settings(options, settings)
    transform, pos_label, random_seed = o.transform, o.pos_label, o.random_seed
    n_resamples, ci_prob, bayes_method = o.n_resamples, o.ci_prob, o.bayes_method
    progressbar, score_models, model = o.progressbar, o.score_models, o.model
    groups, subgroup = o.groups, o.subgroup
    r = as_ranked(y_true, y_score, pos_label=pos_label)
    if r.n_pos == 0 or r.n_pos == r.n_samples:
        raise ValueError(
            "`y_true` must contain both classes for a report; got "
            f"{r.n_pos} positive(s) of {r.n_samples}"
        )
    if r.all_tied:
        raise ValueError(
            f"`y_score` has a single distinct value ({float(r.y_score[0])!r}): all scores "
            "are tied, so there is no curve to report; the AP of such a score is the "
            f"prevalence, {r.n_pos}/{r.n_samples} = {r.n_pos / r.n_samples:.3g}, and its ROC "
            "AUC is 0.5 (`compare_intervals` gives their intervals)"
        )
    steps = steps if steps is not None else Steps(False)
    if subgroup is not None:  # an id column is refused here, before any fit
        subgroup = check_subgroups(subgroup, r.n_samples)
    clusters = None if groups is None else check_groups(groups, r.n_samples)
    if clusters is not None and clusters.singletons:
        clusters = None  # every cluster one item: the ungrouped report
    # the first 5 as before the AUC table, the 7th for the bands' comparison; the shown
    # fit and the AP table (the headline) are seeded from the data instead (data_seed)
    seeds = check_random_state(random_seed).spawn(7)
    # the transform is not part of the data seed: it changes the parametric fit only
    settings = (model, ci_prob, n_resamples, bayes_method)
    fit_seed, ap_seed = (
        np.random.default_rng(s) for s in data_seed(r, settings, clusters).spawn(2)
    )
    # every warning raised while computing goes to the report's diagnostics box, once
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with steps.step(f"fitting the {MODEL_NAMES[model]} model"):
            post, model_notes = _fit_shown_model(
                r, transform, bayes_method, fit_seed, progressbar, model
            )
        with steps.step(
            "interval tables (AP with the other models' fits, ROC AUC, operating point)"
        ):
            ap_table = compare_intervals(
                r,
                None,
                methods=_ap_methods(post),
                ci_prob=ci_prob,
                random_seed=ap_seed,
                n_resamples=n_resamples,
                posterior=post,
                progressbar=progressbar,
                transform=transform,
                bayes_method=bayes_method,
                groups=clusters,
            )
            if clusters is not None:  # the model rows are left out: the shown fit's checks
                ap_table.attrs["fit_checks"] = {
                    post.model_type: post.fit_check(random_seed=ap_seed)
                }
                ap_table.attrs["diagnostics"] = post.diagnostics()
                ap_table.attrs["arviz_summary"] = post.summary(ci_prob=ci_prob)
            # the ROC AUC table: roc_auc_interval's rows and the shown fit's (no second fit)
            auc_table = compare_intervals(
                r,
                None,
                metric="roc_auc",
                methods=AUC_FREQUENTIST_METHODS
                + tuple(f"{_FAMILY[post.model_type]}_{k}" for k in ("hdi", "eti")),
                ci_prob=ci_prob,
                random_seed=seeds[5],
                n_resamples=n_resamples,
                posterior=post,
                progressbar=progressbar,
                groups=clusters,
            )
            op_table = compare_operating_point(
                r,
                None,
                random_seed=seeds[2],
                ci_prob=ci_prob,
                n_resamples=n_resamples,
                posterior=post,
                transform=transform,
                model=post.model_type,
            )
        with steps.step("bootstrap and simultaneous bands"):
            band = bootstrap_pr_band(
                r,
                None,
                n_resamples=n_resamples,
                confidence_level=ci_prob,
                random_seed=seeds[3],
                groups=clusters,
            )
            # the simultaneous band to draw: compare_bands' rule decides from the AP
            # table's fit checks (no band needed for that), so only that one is computed
            decision = recommend_band(
                (
                    "averaged_simultaneous",
                    "semiparametric_simultaneous",
                    "bootstrap_simultaneous_t",
                ),
                ap_table.attrs["fit_checks"],
                r.n_pos,
                separated=ap_table.attrs["separated"],
            )
            # that band only, carrying this decision (the rule is not applied again)
            bands = compare_bands(
                r,
                None,
                ci_prob=ci_prob,
                random_seed=seeds[6],
                n_resamples=n_resamples,
                posterior=post if post.model_type == "semiparametric" else None,
                # no band to draw (too few positives): the cheapest row carries the reason
                methods=(decision.row or "bootstrap_simultaneous_t",),
                progressbar=progressbar,
                recommendation=decision,
            )
        d = ReportData(
            data=r,
            posterior=post,
            ap_table=ap_table,
            op_table=op_table,
            bootstrap_band=band,
            figure_seed=seeds[4],
            fit_checks=ap_table.attrs.get("fit_checks", {}),
            auc_table=auc_table,
            bands=bands,
            clusters=clusters,
            transform=transform,
        )
        if post.model_type == "parametric":
            if min(r.n_pos, r.n_neg) >= 2:
                d.ppc = _score_ppc_pvalues(r, post, seeds[4])
            else:
                model_notes.append(
                    "The check of the score distributions (posterior predictive p-values) "
                    f"needs at least 2 items of each class ({r.n_pos} positive, {r.n_neg} "
                    "negative): left out."
                )
        if score_models:
            with warnings.catch_warnings(), steps.step("alternative score models (NUTS)"):
                warnings.simplefilter("ignore")
                d.loo_fits = fit_score_models(
                    r, None, draws=500, chains=2, random_seed=seeds[4], progressbar=progressbar
                )
                d.loo_table = compare_score_models(
                    r, None, fits=d.loo_fits, models=tuple(d.loo_fits)
                )
        p, rec, _ = precision_recall_curve(r, None)
        d.empirical_curve = (p, rec)
        d.empirical_ap = average_precision_score(r, None)
        d.posterior_mean_ap = float(post.average_precision().mean())
        if subgroup is not None:
            with steps.step("subgroups (partial pooling)"):
                d.subgroups = compute_subgroups(
                    y_true,
                    y_score,
                    subgroup,
                    pos_label=pos_label,
                    ci_prob=ci_prob,
                    rng=seeds[4].spawn(1)[0],  # spawning leaves the figures' stream as it was
                    progressbar=progressbar,
                )
        d.headline = headline(ap_table, post)
    diag = ap_table.attrs["diagnostics"]  # computed once, by compare_intervals
    if clusters is not None:
        model_notes.append(
            f"The items come in {clusters.describe()}: the AP and ROC AUC tables, their "
            "recommendation and the dashed bootstrap band treat the clusters as the "
            "independent units (design effects in the tables). The model-based bands, "
            "predictive curves and the operating-point table treat the items as "
            "independent, so they are too narrow for clustered data."
        )
    if transform is not None and post.model_type != "parametric":
        model_notes.append(
            f"The score transform ({transform}) applies to the parametric binormal model "
            "only, which this report does not show (choose it as the model to see it); "
            "every number here uses only the order of the scores."
        )
    d.warnings = _collect_warnings(d, diag, model_notes)
    add_caught_warnings(d, caught)
    return d


def add_caught_warnings(d, caught):
    """Append the messages of recorded warnings to ``d.warnings``, each once."""
    names = method_labels(d.ap_table, d.auc_table, d.op_table)
    for message in dict.fromkeys(plain_words(w.message, names) for w in caught):
        if message not in d.warnings:
            d.warnings.append(message)
