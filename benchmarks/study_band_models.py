"""Design study for issue 25: which posterior's simultaneous band covers the true PR curve?

For each population (those of ``coverage_compare_bands.py``, including ``label_noise``)
and sample size, draws data sets, fits the rank-based models named in ``--models`` (each
with ``fit_binormal(model=...)``; the contaminated model with the prior
``Beta(--contamination a b)`` on its shares) and reports, for each model and for the
equal-weight pool of all of them (``averaged_pr_band``), the share of data sets whose 90%
simultaneous band contains the whole true curve on recall 0.1-0.9 (MC se
``sqrt(p (1 - p) / R)``), the lowest pointwise coverage over the grid and the mean width.
The library's choice (``compare_bands``: the pool of the three rank-based models) came
from this study; ``docs/coverage.md`` ("Bands side by side") has its figures.

Usage::

    .venv/bin/python benchmarks/study_band_models.py --n-rep 40 \\
        --cases beta_probabilities:200 label_noise:1000 --contamination 1 200

Measured before the choice (2026-11-26, 40 data sets, MC se about 0.055) with this
script's prototype (the same fits, pooling and bands, seed 8; this file itself was only
smoke-run, 2 data sets), whole-curve coverage of the 90% simultaneous band,
semiparametric / contaminated Beta(1, 200) / flexible / pool of the three:

- n = 200: beta 0.85 / 0.00 / 0.88 / 0.90; classifier probabilities 0.75 / 0.85 / 0.82 /
  0.88; label noise 0.78 / 0.78 / 0.90 / 0.85; hard negatives 0.95 / 0.88 / 0.95 / 0.95;
  binormal 0.85 / 0.90 / 0.88 / 0.95; gamma 0.80 / 0.80 / 0.85 / 0.82.
- n = 1000: label noise 0.38 / 0.60 / 0.82 / 0.78; hard negatives 0.85 / 0.85 / 0.85 /
  0.85; classifier probabilities 0.23 / 0.68 / 0.90 / 0.93.
- The contaminated model alone fails where the true precision is 1 at low recall (beta
  scores): its ceiling is below 1 for every posterior draw. A Beta(0.1, 200) prior (more
  mass very near 0) lifted that to 0.80 but lowered label noise at n = 1000 to 0.75 (20
  data sets). A Beta(1, 15) prior broke the binormal case (0.45 at n = 200); a
  spike-and-slab prior made the posterior bimodal (importance sampling failed).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import bayes_prc as bp  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from coverage_compare_bands import GRID, draw, true_curve  # noqa: E402


def one(args):
    name, n, seed, truth, models, contamination = args
    rng = np.random.default_rng(seed)
    while True:
        y, s = draw(name, n, rng)
        if 2 <= y.sum() <= n - 2:
            break
    fits = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in models:
            priors = None
            if m == "contaminated":
                a, b = contamination
                priors = bp.ContaminatedPriors(contamination_alpha=a, contamination_beta=b)
            fits[m] = bp.fit_binormal(y, s, model=m, priors=priors, random_seed=rng)
    out = {}
    for label, pooled in [(m, [m]) for m in models] + [("pool", list(models))]:
        band = bp.averaged_pr_band([fits[m] for m in pooled], GRID, 0.9, "simultaneous")
        point = bp.averaged_pr_band([fits[m] for m in pooled], GRID, 0.9, "pointwise")
        hit = [
            (b["lower"].values <= truth + 1e-12) & (truth - 1e-12 <= b["upper"].values)
            for b in (band, point)
        ]
        out[label] = (hit[0].all(), hit[1], float((band["upper"] - band["lower"]).mean()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n-rep", type=int, default=40)
    ap.add_argument("--cases", nargs="+", default=["label_noise:200", "beta_probabilities:200"])
    ap.add_argument("--models", nargs="+", default=["semiparametric", "contaminated", "flexible"])
    ap.add_argument("--contamination", nargs=2, type=float, default=[1.0, 200.0])
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    print("| population | n | band | whole curve | MC se | lowest pointwise (recall) | width |")
    print("|---|---|---|---|---|---|---|")
    ss = np.random.SeedSequence(args.seed)
    with ProcessPoolExecutor(args.workers) as ex:
        for case, seed in zip(args.cases, ss.spawn(len(args.cases)), strict=True):
            name, n = case.split(":")
            truth = true_curve(name)
            jobs = [
                (name, int(n), s, truth, args.models, args.contamination)
                for s in seed.spawn(args.n_rep)
            ]
            res = list(ex.map(one, jobs))
            for label in res[0]:
                whole = np.mean([r[label][0] for r in res])
                point = np.mean([r[label][1] for r in res], axis=0)
                lo = int(np.argmin(point))
                width = np.mean([r[label][2] for r in res])
                se = np.sqrt(whole * (1 - whole) / len(res))
                print(
                    f"| {name} | {n} | {label} | {whole:.3f} | {se:.3f} "
                    f"| {point[lo]:.2f} ({GRID[lo]:.2f}) | {width:.3f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
