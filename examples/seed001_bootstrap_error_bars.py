"""Seed 001, "calculating a curve with error bars": bootstrap error bars at N = 100, 250, 1000.

Seed 001's data: x ~ Uniform(0, 1), label ``x > 0.5``, score ``clip(x + N(0, 0.2), 0,
1)``; the first N of 1000 items are used. ``bayes_prc.bootstrap_pr_band(over="threshold")``
resamples the items (stratified: each class to its own size), reads each replicate's
precision and recall at 101 common thresholds in [0, 1] by linear interpolation between
its own thresholds (seed 001's recipe), and summarizes them per threshold. The line joins
the mean (recall, precision) at each threshold; error bars are one standard deviation of
recall (horizontal) and of precision (vertical) across replicates, at every fifth
threshold. The bars shrink as N grows.

    .venv/bin/python examples/seed001_bootstrap_error_bars.py [--out DIR] [--quick]

``--quick``: 20 bootstrap replicates instead of 500.
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp

NAME = "seed001_bootstrap_error_bars.png"


def seed001_data(m=1000, seed=0):
    """Seed 001's synthetic scores: labels ``x > 0.5``, scores ``clip(x + noise, 0, 1)``."""
    rng = np.random.default_rng(seed)
    x = rng.random(m)
    y = (x > 0.5).astype(np.int64)
    score = np.clip(x + rng.normal(0.0, 0.2, m), 0.0, 1.0)
    return y, score


def make_figure(quick=False):
    """The figure; ``quick``: 20 instead of 500 bootstrap replicates."""
    n_resamples = 20 if quick else 500
    y_all, s_all = seed001_data()
    thresholds = np.linspace(0.0, 1.0, 101)
    fig = Figure(figsize=(13.0, 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 3, sharey=True)
    for ax, n in zip(axes, (100, 250, 1000), strict=True):
        y, s = y_all[:n], s_all[:n]
        band = bp.bootstrap_pr_band(
            y,
            s,
            over="threshold",
            grid_points=thresholds,
            n_resamples=n_resamples,
            random_seed=n,
        )
        ax.errorbar(
            band["recall_mean"],
            band["mean"],
            xerr=band["recall_std"],
            yerr=band["std"],
            errorevery=5,
            color="C2",
            ecolor="C3",
            lw=2,
            label="bootstrap mean ± 1 sd",
        )
        p, r, _ = bp.precision_recall_curve(y, s)
        ax.plot(r, p, color="k", lw=0.8, drawstyle="steps-post", label="empirical curve")
        ax.set(
            xlim=(0, 1.02),
            ylim=(0, 1.02),
            xlabel="Recall",
            title=f"N = {n} ({int(y.sum())} positives), {n_resamples} resamples",
        )
        ax.legend(loc="lower left", fontsize="small")
    axes[0].set_ylabel("Precision")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
