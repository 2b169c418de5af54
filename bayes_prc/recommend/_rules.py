"""The rule book: every "which row to quote" decision of the library, in one module.

Each rule is a small function of the data's *situation* (the rows available, the fit
checks' grades, the class counts, ties, separation, clusters), never of the realized
widths of stochastic rows, so the same data give the same decision for every
``random_seed``. Each returns a :class:`Recommendation`: the row (or method, or band) to
quote and the one sentence that says why; it unpacks as ``row, reason = ...``. The
tables (``attrs["recommended"]``, ``attrs["recommendation"]`` and the object itself in
``attrs["decision"]``), the report and the Displays read the decision; none applies a
rule again or parses a label back.

Rules: :func:`recommend_interval` (AP), :func:`recommend_auc_interval` (ROC AUC),
:func:`recommend_clustered` (either, with clusters), :func:`recommend_band` (the PR
band), :func:`recommend_operating_point` (precision and recall at a threshold),
:func:`recommend_pool_interval` (a labelled selection of a pool),
:func:`recommend_paired_method` (two classifiers on the same items),
:func:`recommend_ranking_method` (k classifiers) and :func:`recommend_threshold_method`
(a threshold with a precision guarantee). The measurements behind each rule are in
``docs/coverage.md`` and ``docs/intervals.md``.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.display import HTMLReprMixin

__all__ = [
    "AP_LABELS",
    "AUC_LABELS",
    "AVERAGED_MODELS",
    "BAND_LABELS",
    "BAND_SOURCES",
    "FEW_FOR_DELONG",
    "MIN_BAND_POSITIVES",
    "MIN_BOOTSTRAP_BAND_POSITIVES",
    "NEAR_TIE_RANK_CORRELATION",
    "RANKING_METHOD",
    "THRESHOLD_METHOD",
    "Recommendation",
    "check_outcome",
    "near_tie_sentence",
    "recommend_auc_interval",
    "recommend_band",
    "recommend_clustered",
    "recommend_interval",
    "recommend_operating_point",
    "recommend_paired_method",
    "recommend_pool_interval",
    "recommend_ranking_method",
    "recommend_threshold_method",
]


@dataclass(frozen=True)
class Recommendation(HTMLReprMixin):
    """A decision of the rule book: what to quote, and why.

    Attributes
    ----------
    row : str, dict or None
        The row (method, band) to quote; None when nothing can be quoted; for a table of
        several quantities (:func:`recommend_operating_point`) a dict quantity -> row.
    reason : str
        One sentence: why this row (or why none).
    rule : str
        The rule that decided (the function's name without ``recommend_``).
    situation : dict
        The inputs the rule saw (rows available, fit-check grades, counts, ...).

    Unpacks as ``row, reason = recommendation`` (and indexes as that pair).

    Examples
    --------
    >>> from bayes_prc.recommend import recommend_interval
    >>> rec = recommend_interval(["logit", "bootstrap"], {}, n_pos=1)
    >>> row, reason = rec
    >>> row, rec.rule
    ('logit', 'interval')
    """

    row: Any
    reason: str
    rule: str
    situation: dict = field(default_factory=dict, repr=False, compare=False)

    def __iter__(self):
        yield self.row
        yield self.reason

    def __len__(self):
        return 2

    def __getitem__(self, index):
        """``rec[0]`` the row, ``rec[1]`` the reason (the tuple of earlier versions)."""
        return (self.row, self.reason)[index]

    def as_attrs(self):
        """The ``attrs`` a table carries for it: ``recommended``, ``recommendation``,
        ``decision`` (the convention of docs/results.md, in one place)."""
        return {"recommended": self.row, "recommendation": self.reason, "decision": self}

    def _html_rows(self):
        return [(k, v) for k, v in super()._html_rows() if k != "situation"]

    def _html_caption(self):
        return self.reason


def _plain_situation(arguments):
    """The rule's inputs, reduced to plain values (fit checks to their grades)."""
    out = {}
    for name, value in arguments.items():
        if name == "fit_checks":
            value = {m: getattr(c, "grade", c) for m, c in value.items()}
        elif name == "clusters" and hasattr(value, "describe"):
            value = value.describe()
        elif name == "rows":
            value = {r["method"]: r.get("design_effect") for r in value}
        elif name == "calibration" and hasattr(value, "grade"):
            value = {"grade": value.grade, "p_value": value.p_value}
        elif name == "available":
            value = tuple(value)
        out[name] = value
    return out


def _rule(fn):
    """Make ``fn`` (returning ``(row, reason)``) return a :class:`Recommendation`."""
    signature = inspect.signature(fn)
    name = fn.__name__.removeprefix("recommend_")

    @functools.wraps(fn)
    def decide(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        row, reason = fn(*args, **kwargs)
        return Recommendation(row, reason, name, _plain_situation(bound.arguments))

    return decide


# --------------------------------------------------------------------------------------
# the rows' names in sentences
# --------------------------------------------------------------------------------------
#: Labels of :func:`bayes_prc.compare_intervals`' AP rows.
AP_LABELS = {
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
_LABELS = AP_LABELS

#: Labels of the ROC AUC rows.
AUC_LABELS = {
    "delong": "DeLong (DeLong et al. 1988)",
    "delong_logit": "DeLong, logit scale",
    "hanley_mcneil": "Hanley-McNeil (1982)",
    "bootstrap": "bootstrap percentile",
    "bca": "bootstrap BCa",
}

#: Labels of :func:`bayes_prc.compare_bands`' bands.
BAND_LABELS = {
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
_BAND_LABELS = BAND_LABELS

#: What each band comes from, without its kind: a Display's legend names the source.
BAND_SOURCES = {
    name: label.replace(" (simultaneous)", "")
    .replace(", simultaneous", "")
    .replace(", pointwise", "")
    for name, label in BAND_LABELS.items()
}


def check_outcome(check):
    """'passes (p = ...)' or 'is inconclusive ...': completes "the model's fit check ..."."""
    if check.grade == "inconclusive":
        return "is inconclusive at this sample size (no evidence against the model)"
    return f"passes (p = {check.p_value:.2f})"


_check_outcome = check_outcome


# --------------------------------------------------------------------------------------
# AP, ROC AUC, clusters
# --------------------------------------------------------------------------------------
#: Fallback order when no Bayesian model can be quoted.
_FALLBACK = ("logit", "bayesian_bootstrap", "binomial", "bootstrap", "bca", "cross_validation")


@_rule
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


@_rule
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
    Recommendation
        Unpacks as ``(row, reason)``; ``row`` None when nothing can be quoted.
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


# --------------------------------------------------------------------------------------
# ROC AUC
# --------------------------------------------------------------------------------------
#: Below this many items in the smaller class, DeLong's interval is not quoted: its
#: variance estimate is too noisy (it covered 58% at a nominal 90% with about 5
#: positives, where the rank-based posterior's ETI covered 93%).
FEW_FOR_DELONG = 20


@_rule
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
    Recommendation
        Unpacks as ``(row, reason)``; ``row`` None when nothing can be quoted.
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


# --------------------------------------------------------------------------------------
# the PR band
# --------------------------------------------------------------------------------------
#: The rank-based models whose posteriors the averaged band pools.
AVERAGED_MODELS = ("semiparametric", "contaminated", "flexible")
_AVERAGED = AVERAGED_MODELS
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


@_rule
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


# --------------------------------------------------------------------------------------
# precision and recall at a threshold
# --------------------------------------------------------------------------------------
#: The rows quoted for a proportion at a threshold, in order of preference.
_OPERATING_ORDER = ("wilson", "clopper_pearson", "jeffreys", "likelihood_ratio")


@_rule
def recommend_operating_point(available):
    """The interval to quote for precision and for recall at a threshold, and why.

    Precision and recall at a threshold are binomial proportions (true positives among
    the predicted positives, among the positives): Wilson's score interval, whose
    coverage stays near nominal down to a handful of items and never leaves [0, 1]
    (Brown, Cai & DasGupta 2001), then Clopper-Pearson, Jeffreys and the likelihood-ratio
    interval. ``docs/intervals.md`` gives the measured and classical coverage. The rule
    depends only on which rows exist.

    Parameters
    ----------
    available : sequence of (quantity, method)
        Rows of :func:`bayes_prc.compare_operating_point`'s table.

    Returns
    -------
    Recommendation
        ``row`` a dict quantity -> method (None for a quantity without such a row).
    """
    quantities = list(dict.fromkeys(q for q, _ in available))
    pick = {}
    for quantity in quantities:
        have = {m for q, m in available if q == quantity}
        pick[quantity] = next((m for m in _OPERATING_ORDER if m in have), None)
    chosen = ", ".join(f"{q}: {m}" for q, m in pick.items())
    if all(m == "wilson" for m in pick.values()):
        return pick, (
            f"Quote the Wilson score interval ({chosen}): precision and recall at a "
            "threshold are binomial proportions, where Wilson's interval keeps near-nominal "
            "coverage with few items and stays inside [0, 1] (Brown, Cai & DasGupta 2001)."
        )
    return pick, (
        f"Quote {chosen}: precision and recall at a threshold are binomial proportions; "
        "Wilson's score interval is not in the table for every quantity, so the next of "
        "Clopper-Pearson, Jeffreys and the likelihood-ratio interval is quoted (none: no "
        "such row)."
    )


# --------------------------------------------------------------------------------------
# a labelled selection of a pool
# --------------------------------------------------------------------------------------
@_rule
def recommend_pool_interval(available, calibration):
    """The pool AP interval to quote (:func:`bayes_prc.pool.pool_intervals`), and why.

    ``fit_pool``'s credible interval while its calibration check
    (:func:`bayes_prc.pool.calibration_check`, a :class:`~bayes_prc.bayes.FitCheck`)
    does not fail: where its calibration held it covered the pool's AP at about the
    nominal level, while the design-based and prediction-powered intervals were
    optimistic (``docs/pool.md``). When it fails, the model-free prediction-powered row
    (``ppi``) if it is in the table.

    Parameters
    ----------
    available : sequence of str
        Rows of the table.
    calibration : FitCheck
        The calibration check (reads ``passed``, ``p_value``, ``significance_level``).
    """
    p_value, level = calibration.p_value, calibration.significance_level
    if not calibration.passed and "ppi" in available:
        return "ppi", (
            f"fit_pool's calibration check fails (posterior predictive p = {p_value:.3f} < "
            f"{level:g}): the labelled strata do not follow a monotone calibration, so "
            "the model-free prediction-powered interval is quoted"
        )
    why = (
        f"fit_pool's calibration check passes (posterior predictive p = {p_value:.3f})"
        if calibration.passed
        else "no labelled positive: only fit_pool's prior keeps the AP defined"
    )
    return "fit_pool", (
        f"{why}; where its calibration held, its credible interval covered the pool's "
        "AP at about the nominal level in the coverage study, while the design-based "
        "and prediction-powered intervals were optimistic"
    )


# --------------------------------------------------------------------------------------
# two classifiers, k classifiers, a threshold
# --------------------------------------------------------------------------------------
#: Within-class rank correlation of the two classifiers' scores from which
#: ``compare_classifiers``' default method is the paired jackknife (a near tie: the same
#: learner trained twice correlates 0.86-0.98 in docs/coverage.md's pools, two different
#: learners 0.5-0.8).
NEAR_TIE_RANK_CORRELATION = 0.85


def near_tie_sentence(correlation):
    """Why the default comparison of a near tie is the paired jackknife."""
    return (
        "near tie: the two classifiers rank the items almost alike within each class (rank "
        f"correlation {correlation:.3f} >= {NEAR_TIE_RANK_CORRELATION}), so the default is the "
        "paired jackknife interval, calibrated on near ties; the joint model's interval is "
        "1.5-2.2x wider there and no better calibrated (method='bayes' for its posterior and "
        "P(B better))"
    )


@_rule
def recommend_paired_method(default, rank_correlation):
    """The default method of :func:`bayes_prc.compare_classifiers` for AP, and why.

    ``default`` (the joint model, ``"bayes"``) unless the two classifiers are a near tie
    (within-class rank correlation at least :data:`NEAR_TIE_RANK_CORRELATION`): then the
    paired jackknife, calibrated on near ties where the joint model's interval was
    1.5-2.2 times wider and no better calibrated (``docs/coverage.md``, "Near ties").
    ``reason`` is None when the default stands (nothing to explain).
    """
    if rank_correlation >= NEAR_TIE_RANK_CORRELATION:
        return "jackknife", near_tie_sentence(rank_correlation)
    return default, None


#: :func:`bayes_prc.compare_models`' method when none is given.
RANKING_METHOD = "max_t"


@_rule
def recommend_ranking_method(method, labels):
    """The method of :func:`bayes_prc.compare_models`' rank sets and verdicts, and why.

    :data:`RANKING_METHOD` (the paired bootstrap's step-down max-t) unless ``method`` is
    given: its rank sets held all true ranks at once in at least their nominal share of
    simulated and trained-classifier data sets (``docs/compare.md``). ``labels`` maps a
    method to its name in the sentence.
    """
    chosen = method or RANKING_METHOD
    return chosen, f"The rank sets and the verdicts come from the {labels[chosen]}" + (
        ": its rank sets held all true ranks at once in at least their nominal share "
        "of simulated and trained-classifier data sets (k = 2 to 20, clustered items "
        "included); the Bayesian bootstrap's shorter sets held them in only 0.15-0.74 "
        "once three or more models were (nearly) tied (docs/compare.md)."
        if method is None
        else " (chosen by `method`)."
    )


#: :func:`bayes_prc.threshold.choose_threshold`'s recommended row.
THRESHOLD_METHOD = "ltt_fixed_sequence"


@_rule
def recommend_threshold_method():
    """The row of :func:`bayes_prc.threshold.choose_threshold` to ship, and why.

    Learn-then-Test with the ordered fixed sequence in every situation: in
    ``benchmarks/coverage_threshold.py`` (docs/coverage.md, "Choosing a threshold") its
    violation rate stayed within ``1 - ci_prob`` and its recall was at least
    Bonferroni's and the split sequence's in every setting. A fixed rule, not picked
    per data set (picking the row with the most recall on the data would void the
    guarantee).
    """
    return THRESHOLD_METHOD, (
        "Learn-then-Test with the ordered fixed sequence: its violation rate stayed within "
        "1 - ci_prob and its recall was at least Bonferroni's and the split sequence's in "
        "every setting measured (docs/coverage.md, 'Choosing a threshold'); a fixed rule, "
        "not picked per data set, so the guarantee holds."
    )
