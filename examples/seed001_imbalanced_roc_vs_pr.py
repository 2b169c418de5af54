"""Seed 001: with rare positives the ROC curve looks nearly perfect and the PR curve does not.

10,000 items, 1% positives, scores from ``Binormal(2.6, 0.5, 0, 1, 0.01)``: positives
score high and tightly, negatives spread more. The ROC AUC is about 0.99, because the
false-positive *rate* stays tiny; but at that prevalence even a tiny rate of a large
number of negatives is comparable to the number of positives, so precision is mediocre
and the AP is about 0.5. Each panel shows the empirical curve of the sample (steps) and
the analytic curve of the model (dashed).

    .venv/bin/python examples/seed001_imbalanced_roc_vs_pr.py [--out DIR] [--quick]

``--quick``: 2000 items.
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp

NAME = "seed001_imbalanced_roc_vs_pr.png"


def make_figure(quick=False, seed=1):
    """The figure; ``quick``: 2000 instead of 10,000 items."""
    n = 2000 if quick else 10_000
    model = bp.Binormal(mu_pos=2.6, sigma_pos=0.5, mu_neg=0.0, sigma_neg=1.0, prevalence=0.01)
    y, s = model.sample(n, random_seed=seed)
    grid = np.linspace(0.0, 1.0, 501)

    fig = Figure(figsize=(11.0, 5.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax_roc, ax_pr = fig.subplots(1, 2)

    fpr, tpr, _ = bp.roc_curve(y, s)
    ax_roc.plot(fpr, tpr, color="C3", lw=2.0, label="empirical")
    ax_roc.plot(grid, model.tpr_at_fpr(grid), "--", color="k", lw=1.0, label="binormal model")
    ax_roc.plot([0, 1], [0, 1], ":", color="0.5", lw=1.0, label="chance")
    ax_roc.set(
        xlim=(0, 1),
        ylim=(0, 1.02),
        xlabel="False positive rate",
        ylabel="True positive rate (recall)",
        title=f"ROC: AUC {bp.roc_auc_score(y, s):.3f} (model {float(model.roc_auc()):.3f})",
    )

    p, r, _ = bp.precision_recall_curve(y, s)
    ax_pr.plot(r, p, color="C2", lw=2.0, drawstyle="steps-post", label="empirical")
    ax_pr.plot(
        grid, model.precision_at_recall(grid), "--", color="k", lw=1.0, label="binormal model"
    )
    ax_pr.axhline(bp.chance_baseline(y), color="0.5", ls=":", lw=1.0, label="chance (prevalence)")
    ax_pr.set(
        xlim=(0, 1),
        ylim=(0, 1.02),
        xlabel="Recall",
        ylabel="Precision",
        title=(
            f"PR: AP {bp.average_precision_score(y, s):.3f} "
            f"(model {float(model.average_precision()):.3f})"
        ),
    )
    for ax in (ax_roc, ax_pr):
        ax.legend(loc="lower right" if ax is ax_roc else "upper right", fontsize="small")
    fig.suptitle(f"{n} items, {int(y.sum())} positives: ROC looks nearly perfect, PR does not")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
