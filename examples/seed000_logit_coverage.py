"""Seed 000, "Confidence intervals": coverage of the logit interval for AUC-PR.

Seed 000's coverage test with ``bayes_prc.simulate.coverage_study``: 1000 data sets of
n = 1000 items from ``Binormal(1, 1, 0, 1, 0.1)``, the lower-trapezoid estimate, and the
95% logit interval with n = number of positives (Boyd et al. 2013). The study is run
twice on the same simulated data (same seed): once against the model's true AP
(``target="analytic"``) and once against the mean of the estimates (seed 000's choice,
``target="mean_estimate"``).

Left: the first 100 intervals, ordered by their estimate; red ones miss the true AP.
Right: the coverage for both targets with two binomial standard errors, and the nominal
95%.

    .venv/bin/python examples/seed000_logit_coverage.py [--out DIR] [--quick]

``--quick``: 50 data sets. The table of ``docs/coverage.md`` comes from the same study
run from the command line (``python -m bayes_prc.simulate ...``).
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp
from bayes_prc.simulate import coverage_study

NAME = "seed000_logit_coverage.png"


def studies(n_rep, seed=42):
    """The two coverage studies (xarray Datasets), true AP and mean estimate as targets."""
    model = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.1)
    common = dict(
        n=1000,
        n_rep=n_rep,
        methods=("logit",),
        estimator="lower_trapezoid",
        confidence_level=0.95,
        random_seed=seed,
        keep_intervals=True,
    )
    return (
        coverage_study(model, target="analytic", **common),
        coverage_study(model, target="mean_estimate", **common),
    )


def make_figure(quick=False):
    """The figure; ``quick``: 50 instead of 1000 simulated data sets."""
    n_rep = 50 if quick else 1000
    analytic, mean_est = studies(n_rep)
    true_ap = analytic.attrs["true_ap"]
    mean_estimate = analytic.attrs["mean_estimate"]

    fig = Figure(figsize=(11.0, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[2.2, 1])

    shown = min(100, n_rep)
    low = analytic["low"].sel({"method": "logit"}).values[:shown]
    high = analytic["high"].sel({"method": "logit"}).values[:shown]
    est = analytic["estimate"].values[:shown]
    order = np.argsort(est)
    x = np.arange(shown)
    miss = (low[order] > true_ap) | (high[order] < true_ap)
    ax1.vlines(x[~miss], low[order][~miss], high[order][~miss], color="0.55", lw=1.2)
    ax1.vlines(x[miss], low[order][miss], high[order][miss], color="C3", lw=1.6)
    ax1.plot(x, est[order], ".", color="k", ms=3, label="estimate (lower trapezoid)")
    ax1.axhline(true_ap, color="C0", lw=1.5, label=f"true AP {true_ap:.4f}")
    ax1.axhline(
        mean_estimate, color="C1", lw=1.2, ls="--", label=f"mean estimate {mean_estimate:.4f}"
    )
    ax1.plot([], [], color="C3", lw=1.6, label=f"misses the true AP ({int(miss.sum())})")
    ax1.set(
        xlabel=f"simulated data set (first {shown}, ordered by estimate)",
        ylabel="95% logit interval",
        title="Logit intervals, n = 1000, prevalence 0.1",
    )
    ax1.legend(loc="upper left", fontsize="small")

    labels = ["true AP\n(analytic)", "mean estimate\n(seed 000)"]
    cov = [float(ds["coverage"].sel({"method": "logit"})) for ds in (analytic, mean_est)]
    se = [float(ds["coverage_se"].sel({"method": "logit"})) for ds in (analytic, mean_est)]
    ax2.errorbar([0, 1], cov, yerr=2 * np.asarray(se), fmt="o", color="k", capsize=6)
    for i, (c, s) in enumerate(zip(cov, se, strict=True)):
        ax2.annotate(
            f"{c:.3f} ± {2 * s:.3f}",
            (i, c + 2 * s),
            xytext=(0, 6),
            textcoords="offset points",
            ha="center",
        )
    ax2.axhline(0.95, color="C2", lw=1.2, ls="--", label="nominal 0.95")
    ax2.set(
        xticks=[0, 1],
        xticklabels=labels,
        xlim=(-0.6, 1.6),
        ylim=(min(0.9, min(cov) - 3 * max(se)), 1.0),
        ylabel="coverage",
        title=f"Coverage, {n_rep} data sets (± 2 SE)",
    )
    ax2.legend(loc="lower right", fontsize="small")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
