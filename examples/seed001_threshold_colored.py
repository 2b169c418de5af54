"""Seed 001: the same PR curve, different thresholds, shown by colour.

Seed 001's data: N = 1000, x ~ Uniform(0, 1), label ``x > 0.5``, noise ~ N(0, 0.4);
classifier 1 scores ``x + noise``, classifier 2 scores ``x + noise + 0.5``. Both rank the
items identically, so their PR curves are the same; only the thresholds differ.
``bayes_prc.plotting.ThresholdColoredPRDisplay`` colours each step of the empirical curve
by its threshold, on one colour scale shared by both panels, which makes the shift
visible.

    .venv/bin/python examples/seed001_threshold_colored.py [--out DIR] [--quick]

``--quick``: 200 items.
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

import bayes_prc as bp
from bayes_prc.plotting import ThresholdColoredPRDisplay

NAME = "seed001_threshold_colored.png"


def make_figure(quick=False, seed=0):
    """The figure; ``quick``: 200 instead of 1000 items."""
    n = 200 if quick else 1000
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    y = (x > 0.5).astype(np.int64)
    noise = rng.normal(0.0, 0.4, n)
    scores = {
        "classifier 1: x + noise": x + noise,
        "classifier 2: x + noise + 0.5": x + noise + 0.5,
    }
    lo = min(s.min() for s in scores.values())
    hi = max(s.max() for s in scores.values())
    norm = Normalize(vmin=lo, vmax=hi)  # one colour scale for both panels

    fig = Figure(figsize=(12.0, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    for ax, (title, s) in zip(fig.subplots(1, 2), scores.items(), strict=True):
        ThresholdColoredPRDisplay.from_predictions(y, s, ax=ax, norm=norm)
        op = bp.max_fbeta(y, s)
        ax.plot(op.recall, op.precision, "o", mfc="none", mec="k", ms=9)
        ax.annotate(
            f"max F1 at threshold {op.threshold:.2f}",
            (op.recall, op.precision),
            xytext=(-10, -28),
            textcoords="offset points",
            ha="right",
        )
        ax.set_title(f"{title} (AP {bp.average_precision_score(y, s):.3f})")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
