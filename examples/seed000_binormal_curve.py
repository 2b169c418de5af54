"""Seed 000, "The binormal model": the analytic precision-recall curve.

Positives' scores ~ N(1, 1), negatives' ~ N(0, 0.7), prevalence 0.1 (seed 000's
``binormal_params ~sigma_neg:0.7 0.1``). ``Binormal.precision_at_recall`` gives the
curve in closed form; because the positives are more spread out than the negatives
(sigma_pos > sigma_neg), precision tends to 1 as recall tends to 0. The same model with
sigma_neg = 1 and 1.3 is drawn dashed for comparison: with sigma_pos < sigma_neg the
precision at the top of the ranking falls to 0 instead.

    .venv/bin/python examples/seed000_binormal_curve.py [--out DIR] [--quick]
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp

NAME = "seed000_binormal_curve.png"


def make_figure(quick=False):
    """The figure; ``quick`` uses a coarser recall grid."""
    recall = np.linspace(0.0, 1.0, 101 if quick else 1001)
    fig = Figure(figsize=(6.0, 5.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for sigma_neg, style in ((1.3, ":"), (1.0, "--")):
        other = bp.Binormal(1.0, 1.0, 0.0, sigma_neg, 0.1)
        ax.plot(
            recall,
            other.precision_at_recall(recall),
            style,
            color="0.55",
            lw=1.2,
            label=f"sigma_neg = {sigma_neg:g} (AP {float(other.average_precision()):.3f})",
        )
    model = bp.Binormal(mu_pos=1.0, sigma_pos=1.0, mu_neg=0.0, sigma_neg=0.7, prevalence=0.1)
    ax.plot(
        recall,
        model.precision_at_recall(recall),
        color="C0",
        lw=2.5,
        label=f"sigma_neg = 0.7 (AP {float(model.average_precision()):.3f})",
    )
    ax.axhline(0.1, color="k", lw=0.8, ls="-.", label="chance (prevalence 0.1)")
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1.02),
        xlabel="Recall",
        ylabel="Precision",
        title="Binormal model: N(1, 1) vs N(0, sigma_neg), prevalence 0.1",
    )
    ax.legend(loc="upper right", fontsize="small")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
