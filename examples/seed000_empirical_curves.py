"""Seed 000, "The problem": 30 empirical PR curves against the true curve.

Thirty test sets of n = 1000 items are drawn from ``Binormal(1, 1, 0, 1, 0.1)`` (about
100 positives each). Left: the empirical curve of one of them, with its saw-tooth shape
(each negative ranked among the positives drops precision; the next positive raises it
again). Right: all thirty empirical curves (grey) around the analytic curve of the model
(blue). The curves disagree most at low recall and high precision, the region one looks
at, because there precision is computed from a handful of top-ranked items.

    .venv/bin/python examples/seed000_empirical_curves.py [--out DIR] [--quick]

``--quick``: 5 test sets of 300 items.
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp

NAME = "seed000_empirical_curves.png"


def make_figure(quick=False, seed=0):
    """The figure; ``quick``: fewer and smaller test sets."""
    n_sets, n = (5, 300) if quick else (30, 1000)
    model = bp.Binormal(mu_pos=1.0, sigma_pos=1.0, mu_neg=0.0, sigma_neg=1.0, prevalence=0.1)
    rng = np.random.default_rng(seed)
    samples = [model.sample(n, random_seed=rng) for _ in range(n_sets)]
    recall = np.linspace(0.0, 1.0, 501)
    true_curve = model.precision_at_recall(recall)

    fig = Figure(figsize=(11.0, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2, sharey=True)

    y, s = samples[0]
    p, r, _ = bp.precision_recall_curve(y, s)
    ax1.plot(r, p, color="0.3", lw=1.0, drawstyle="steps-post", label="empirical curve")
    ax1.plot(recall, true_curve, color="C0", lw=2.0, label="true (analytic) curve")
    ax1.set_title(
        f"One test set: {int(y.sum())} positives, AP {bp.average_precision_score(y, s):.3f}"
    )

    aps = []
    for y, s in samples:
        p, r, _ = bp.precision_recall_curve(y, s)
        ax2.plot(r, p, color="0.7", lw=0.8, drawstyle="steps-post")
        aps.append(bp.average_precision_score(y, s))
    ax2.plot([], [], color="0.7", lw=0.8, label=f"{n_sets} empirical curves (n = {n})")
    ax2.plot(recall, true_curve, color="C0", lw=2.5, label="true (analytic) curve")
    ax2.set_title(
        f"AP: true {float(model.average_precision()):.3f}, "
        f"empirical {min(aps):.3f} to {max(aps):.3f}"
    )
    for ax in (ax1, ax2):
        ax.axhline(0.1, color="k", lw=0.8, ls="-.")
        ax.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="Recall")
        ax.legend(loc="upper right", fontsize="small")
    ax1.set_ylabel("Precision")
    fig.suptitle("Binormal(1, 1, 0, 1), prevalence 0.1: how much an empirical curve moves")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
