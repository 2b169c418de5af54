"""Everything the report shows, computed once: fits, tables, bands, checks and warnings.

The user's data are validated once (:func:`bayes_prc.empirical.as_ranked`); the
:class:`~bayes_prc.empirical.Ranked` result is passed on as ``y_true`` (with
``y_score=None``) to every public function that accepts one.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import check_random_state
from .._core.groups import check_groups
from ..compare import (
    AUC_FREQUENTIST_METHODS,
    compare_bands,
    compare_intervals,
    compare_operating_point,
    fit_or_reuse,
    recommend_band,
)
from ..criticism import compare_score_models, fit_score_models, score_ppc
from ..empirical import Ranked, as_ranked, average_precision_score, precision_recall_curve
from ..frequentist import bootstrap_pr_band
from ._subgroups import compute_subgroups

__all__ = ["PPC_WARN_LEVEL", "MODEL_NAMES", "ReportData", "add_caught_warnings", "compute_report"]

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


def _fit_shown_model(r, transform, bayes_method, seed, progressbar, model):
    """The Bayesian fit drawn in the figures, and a note when it fell back to parametric."""
    args = (r, None, None, transform, bayes_method, seed, progressbar)
    try:
        return fit_or_reuse(*args, model), []
    except ValueError as err:
        if model == "parametric":
            raise
        note = (
            f"The rank-based model could not be fit ({err}); the parametric "
            "binormal model is shown instead."
        )
        return fit_or_reuse(*args, "parametric"), [note]


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


def compute_report(
    y_true,
    y_score,
    *,
    transform=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    bayes_method="auto",
    progressbar=None,
    score_models=False,
    model="semiparametric",
    groups=None,
    subgroup=None,
):
    """Fit, tabulate and check once; see :func:`bayes_prc._report.report` for parameters.

    Returns
    -------
    ReportData
    """
    r = as_ranked(y_true, y_score, pos_label=pos_label)
    if r.n_pos == 0 or r.n_pos == r.n_samples:
        raise ValueError(
            "`y_true` must contain both classes for a report; got "
            f"{r.n_pos} positive(s) of {r.n_samples}"
        )
    clusters = None if groups is None else check_groups(groups, r.n_samples)
    if clusters is not None and clusters.singletons:
        clusters = None  # every cluster one item: the ungrouped report
    # the first 5 as before the AUC table, the 7th for the bands' comparison
    seeds = check_random_state(random_seed).spawn(7)
    # every warning raised while computing goes to the report's diagnostics box, once
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        post, model_notes = _fit_shown_model(
            r, transform, bayes_method, seeds[0], progressbar, model
        )
        ap_table = compare_intervals(
            r,
            None,
            ci_prob=ci_prob,
            random_seed=seeds[1],
            n_resamples=n_resamples,
            posterior=post,
            progressbar=progressbar,
            transform=transform,
            bayes_method=bayes_method,
            groups=clusters,
        )
        if clusters is not None:  # the model rows are left out: the shown fit's checks
            ap_table.attrs["fit_checks"] = {post.model_type: post.fit_check(random_seed=seeds[1])}
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
        band = bootstrap_pr_band(
            r,
            None,
            n_resamples=n_resamples,
            confidence_level=ci_prob,
            random_seed=seeds[3],
            groups=clusters,
        )
        # the simultaneous band to draw: compare_bands' rule decides from the AP table's
        # fit checks (no band needed for that), so only the recommended one is computed
        pick, _ = recommend_band(
            ("averaged_simultaneous", "semiparametric_simultaneous", "bootstrap_simultaneous_t"),
            ap_table.attrs["fit_checks"],
            r.n_pos,
            separated=ap_table.attrs["separated"],
        )
        bands = compare_bands(
            r,
            None,
            ci_prob=ci_prob,
            random_seed=seeds[6],
            n_resamples=n_resamples,
            posterior=post if post.model_type == "semiparametric" else None,
            methods=(pick,),
            progressbar=progressbar,
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
            with warnings.catch_warnings():
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
            d.subgroups = compute_subgroups(
                y_true,
                y_score,
                subgroup,
                pos_label=pos_label,
                ci_prob=ci_prob,
                rng=seeds[4].spawn(1)[0],  # spawning leaves the figures' stream as it was
                progressbar=progressbar,
            )
    diag = ap_table.attrs["diagnostics"]  # computed once, by compare_intervals
    if clusters is not None:
        model_notes.append(
            f"The items come in {clusters.describe()}: the AP and ROC AUC tables, their "
            "recommendation and the dashed bootstrap band treat the clusters as the "
            "independent units (design effects in the tables). The model-based bands, "
            "predictive curves and the operating-point table treat the items as "
            "independent, so they are too narrow for clustered data."
        )
    d.warnings = _collect_warnings(d, diag, model_notes)
    add_caught_warnings(d, caught)
    return d


def add_caught_warnings(d, caught):
    """Append the messages of recorded warnings to ``d.warnings``, each once."""
    for message in dict.fromkeys(str(w.message) for w in caught):
        if message not in d.warnings:
            d.warnings.append(message)
