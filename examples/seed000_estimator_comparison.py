"""Seed 000, "Estimator comparison": the AUC-PR estimators over many simulated samples.

1000 test sets of n = 1000 items from ``Binormal(1, 0.9, 0, 0.9, 0.1)`` (seed 000's
``sigma = 0.9``, ``alpha = 0.1``). On each, the area under the PR curve is estimated by
every estimator of ``bayes_prc.auc_pr`` and by seed 000's binormal estimator (the AP of
the maximum-likelihood binormal fit, ``Binormal.fit(y, s).average_precision()``). The box
plot shows the spread of each estimator; the line is the true AP of the model. The
estimators' differences (bias) are small next to their common sampling spread.

    .venv/bin/python examples/seed000_estimator_comparison.py [--out DIR] [--quick]

``--quick``: 50 test sets.
"""

from __future__ import annotations

import numpy as np
from _seed_figure import run  # examples/ is on sys.path when a script is run
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import bayes_prc as bp

NAME = "seed000_estimator_comparison.png"


def estimates(n_sets, n=1000, seed=0):
    """``{estimator name: array of n_sets estimates}`` and the true AP."""
    model = bp.Binormal(mu_pos=1.0, sigma_pos=0.9, mu_neg=0.0, sigma_neg=0.9, prevalence=0.1)
    rng = np.random.default_rng(seed)
    names = [*bp.AUC_PR_ESTIMATORS, "binormal_mle"]
    out = {name: np.empty(n_sets) for name in names}
    for i in range(n_sets):
        y, s = model.sample(n, random_seed=rng)
        for name in bp.AUC_PR_ESTIMATORS:
            out[name][i] = bp.auc_pr(y, s, estimator=name)
        out["binormal_mle"][i] = bp.Binormal.fit(y, s).average_precision()
    return out, float(model.average_precision())


def make_figure(quick=False):
    """The figure; ``quick``: 50 instead of 1000 test sets."""
    n_sets = 50 if quick else 1000
    values, true_ap = estimates(n_sets)
    names = list(values)
    fig = Figure(figsize=(9.0, 5.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.boxplot([values[k] for k in names], tick_labels=names, widths=0.6)
    ax.axhline(true_ap, color="C3", lw=1.5, label=f"true AP {true_ap:.4f}")
    for i, name in enumerate(names, start=1):
        ax.plot(i, values[name].mean(), "D", color="C0", ms=5)
    ax.plot([], [], "D", color="C0", ms=5, label="mean of the estimates")
    ax.set(
        ylabel="estimated area under the PR curve",
        title=f"{n_sets} test sets of 1000 items, Binormal(1, 0.9, 0, 0.9), prevalence 0.1",
    )
    ax.tick_params(axis="x", labelrotation=20)
    top = max(float(v.max()) for v in values.values())
    ax.set_ylim(top=top + 0.25 * (top - min(float(v.min()) for v in values.values())))
    ax.legend(loc="upper center", ncols=2, fontsize="small")
    return fig


def main(argv=None):
    return run(make_figure, NAME, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
