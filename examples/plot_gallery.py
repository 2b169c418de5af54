"""Render the plot gallery of docs/plots.md into docs/img/ (PNG, Agg backend).

    .venv/bin/python examples/plot_gallery.py

Two data sets: 300 items simulated from a binormal model (prevalence 0.2), and the
bundled ``small_sample`` (80 items, 8 positives; probabilities, fit on the logit scale).
Every random state is fixed. The exact conjugate posterior is used (no MCMC), so the
whole script runs in a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.datasets import load_example  # noqa: E402
from bayes_prc.intervals import logit_interval, wald_interval  # noqa: E402
from bayes_prc.plotting import (  # noqa: E402
    APForestDisplay,
    PRCurveDisplay,
    PredictiveCurvesDisplay,
    ROCCurveDisplay,
    ScorePPCDisplay,
    ThresholdColoredPRDisplay,
    ThresholdCurvesDisplay,
    plot_posterior_summary,
)

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


def bootstrap_band(y, s, n_boot=500, level=0.9, seed=0):
    """Percentile bootstrap band of the empirical PR curve over a recall grid.

    A stand-in for ``bayes_prc.bootstrap_pr_band`` (being written): each replicate's
    curve is read as a step function on the grid; same output layout (``lower``,
    ``upper`` over ``recall``).
    """
    rng = np.random.default_rng(seed)
    grid = np.linspace(0.0, 1.0, 101)
    curves = []
    while len(curves) < n_boot:
        idx = rng.integers(0, y.size, y.size)
        if not y[idx].any():
            continue
        p, r, _ = bp.precision_recall_curve(y[idx], s[idx])
        k = np.searchsorted(r[::-1], grid, side="left")
        curves.append(p[::-1][np.minimum(k, r.size - 1)])
    lo, hi = np.quantile(curves, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return {"recall": grid, "lower": lo, "upper": hi}


def ap_intervals(y, s, level=0.95, n_boot=1000, seed=0):
    """A few frequentist AP intervals for the forest panel."""
    ap = bp.average_precision_score(y, s)
    n_pos = int(y.sum())
    rows = [logit_interval(ap, n_pos, confidence_level=level)]
    rows.append(wald_interval(ap, n_pos, confidence_level=level))
    rng = np.random.default_rng(seed)
    reps = []
    while len(reps) < n_boot:
        idx = rng.integers(0, y.size, y.size)
        if y[idx].any():
            reps.append(bp.average_precision_score(y[idx], s[idx]))
    lo, hi = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2])
    rows.append((f"percentile bootstrap ({100 * level:g}%)", ap, lo, hi))
    return rows


def save(fig, name):
    path = OUT / name
    fig.savefig(path, dpi=110)
    print(f"wrote {path.relative_to(OUT.parents[1])}")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    y, s = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.2).sample(300, random_seed=0)
    post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
    band = bootstrap_band(y, s)  # TODO: bp.bootstrap_pr_band once it is available

    fig = Figure(figsize=(6.4, 6), layout="constrained")
    PRCurveDisplay.from_posterior(
        post, y, s, bootstrap_band=band, ci_prob=0.9, ax=fig.add_subplot()
    )
    save(fig, "pr_curve.png")

    fig = Figure(figsize=(6.4, 6), layout="constrained")
    PredictiveCurvesDisplay.from_posterior(
        post, y, s, n_curves=30, random_seed=0, ax=fig.add_subplot()
    )
    save(fig, "predictive_curves.png")

    fig = Figure(figsize=(12, 5), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    ThresholdColoredPRDisplay.from_predictions(y, s, ax=ax1)
    ThresholdColoredPRDisplay.from_posterior(post, ax=ax2)
    ax1.set_title("empirical curve")
    ax2.set_title("posterior median curve")
    save(fig, "threshold_colored.png")

    fig = Figure(figsize=(7, 5), layout="constrained")
    ThresholdCurvesDisplay.from_posterior(post, y, s, ax=fig.add_subplot())
    save(fig, "threshold_curves.png")

    fig = Figure(figsize=(7, 5), layout="constrained")
    APForestDisplay.from_posterior(post, ap_intervals(y, s), ax=fig.add_subplot())
    save(fig, "ap_forest.png")

    fig = Figure(figsize=(6.4, 6), layout="constrained")
    ROCCurveDisplay.from_posterior(post, y, s, ax=fig.add_subplot())
    save(fig, "roc_curve.png")

    # small sample, probabilities: fit on the logit scale
    data = load_example("small_sample")
    ys, ss = data.y_true, data.y_score
    post_s = bp.fit_binormal(
        ys, ss, transform="logit", model="parametric", method="exact", random_seed=0
    )
    fig = Figure(figsize=(7, 5), layout="constrained")
    ScorePPCDisplay.from_posterior(post_s, ys, ss, ax=fig.add_subplot())
    save(fig, "score_ppc_small_sample.png")

    displays = plot_posterior_summary(
        post_s, ys, ss, intervals=ap_intervals(ys, ss), n_curves=30, random_seed=0
    )
    displays["pr"].figure_.suptitle("small_sample: 80 items, 8 positives (logit-scale fit)")
    save(displays["pr"].figure_, "summary_small_sample.png")


if __name__ == "__main__":
    main()
