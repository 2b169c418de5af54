"""The report's section per subgroup (``subgroup=``; CLI ``--subgroup COLUMN``)."""

from __future__ import annotations

from ..plotting import SubgroupDisplay, SubgroupPRDisplay
from ..subgroups import compare_subgroups

__all__ = [
    "REPORT_MARGIN",
    "SUBGROUP_COLUMNS",
    "compute_subgroups",
    "subgroup_caption",
    "subgroup_figures",
]

#: The margin of the report's ``prob_below_others`` (in AP): a subgroup is flagged when it
#: is below the other subgroups together by more than this with probability above
#: ``compare_subgroups``' default ``flag_probability``.
REPORT_MARGIN = 0.05
#: The columns of the report's subgroup table.
SUBGROUP_COLUMNS = [
    "n",
    "positives",
    "empirical",
    "estimate",
    "low",
    "high",
    "prob_below_others",
    "prob_below_overall",
    "note",
]
#: With more subgroups the forest shows the pooled intervals only (no fit per subgroup).
INDEPENDENT_MAX = 30


def compute_subgroups(y_true, y_score, subgroup, *, pos_label, ci_prob, rng, progressbar):
    """The subgroup comparison of the report (AP, margin :data:`REPORT_MARGIN`)."""
    return compare_subgroups(
        y_true,
        y_score,
        subgroup,
        pos_label=pos_label,
        ci_prob=ci_prob,
        margin=REPORT_MARGIN,
        random_seed=rng,
        progressbar=progressbar,
    )


def subgroup_figures(sub, new_ax):
    """``{"subgroups": Figure, "subgroup_bands": Figure}``: the forest and the PR bands
    (small multiples, two panels a row, so that they stay readable on a phone)."""
    n = len(sub.table)
    methods = ("pooled", "independent", "bootstrap") if n <= INDEPENDENT_MAX else ("pooled",)
    fig, ax = new_ax(5.0, max(2.8, 0.4 * n + 1.4))
    SubgroupDisplay.from_comparison(sub, methods=methods, ax=ax)
    out = {"subgroups": fig}
    shown = SubgroupPRDisplay.from_comparison(sub, ax=_panel_axes(new_ax, min(4, n)))
    out["subgroup_bands"] = shown.figure_
    return out


def _panel_axes(new_ax, k, ncols=2):
    """A figure's grid of ``k`` panels, ``ncols`` a row (sharing their axes)."""
    nrows = -(-k // ncols)
    fig, ax = new_ax(2.6 * ncols + 0.6, 2.6 * nrows + 0.6)
    fig.delaxes(ax)
    grid = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)
    fig.set_layout_engine("constrained")
    return grid.ravel()


def subgroup_caption(sub, headline=None):
    """A plain-words summary of the subgroup section.

    ``headline`` (the report's headline dict) adds the sentence that says why the
    subgroup model's "all subgroups together" differs from the report's overall AP.
    """
    a = sub.table.attrs
    flagged = [str(s) for s in sub.table.index[sub.table["flagged"]]]
    prob = f"{100 * a['ci_prob']:g}%"
    pooled = f"{a['overall_estimate']:.3f} [{a['overall_low']:.3f}, {a['overall_high']:.3f}]"
    lines = [
        f"{len(sub.table)} subgroups. Each subgroup's AP is estimated with partial pooling: "
        "one model for all subgroups (one shared score transform, each subgroup's own ROC "
        "curve and prevalence, drawn from a common distribution whose spread is learned), "
        "so a small subgroup borrows strength from the others by as much as the data "
        f"allow. Intervals are {prob} credible intervals. All subgroups together, in this "
        f"model (the reference of prob_below_overall): {pooled}.",
    ]
    if headline is not None:
        est, low, high = (
            f"{headline[k]:.{n}f}"
            for k, n in zip(("estimate", "low", "high"), headline["decimals"], strict=True)
        )
        lines.append(
            f"The overall AP of this report is the headline, AP {est} [{low}, {high}]; "
            f"the subgroup model's {pooled} can differ from it because it is another model "
            "and another estimand: the AP of the hierarchical model's pooled population (a "
            "mixture of the subgroups' binormal curves, each shrunk towards the others), "
            f"where the headline is the recommended interval ({headline['label']}) of the "
            "AP of all items as one test set. Quote the headline for the overall AP."
        )
    lines += [
        f"prob_below_others is the posterior probability that a subgroup's AP is more "
        f"than {a['margin']:g} below that of the other subgroups together (prob_below_overall: "
        f"below all subgroups together, itself included); above {a['flag_probability']:g} of "
        f"prob_below_{a.get('versus', 'others')} the subgroup is flagged.",
        "Flagged: " + (", ".join(flagged) if flagged else "none") + ".",
    ]
    borderline = [str(s) for s in sub.table.index[sub.table["borderline"]]]
    if borderline:
        lines.append(
            "Borderline (the flag's probability within 2 Monte Carlo standard errors of "
            f"{a['flag_probability']:g}: "
            "another seed may flip the flag): " + ", ".join(borderline) + "."
        )
    return lines
