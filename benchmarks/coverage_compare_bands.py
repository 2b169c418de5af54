"""Whole-curve and pointwise coverage of the bands of ``compare_bands`` and of its pick.

Usage::

    .venv/bin/python benchmarks/coverage_compare_bands.py --n 200 --n-rep 60 --seed 0
    .venv/bin/python benchmarks/coverage_compare_bands.py --n 1000 --n-rep 40 \\
        --populations label_noise hard_negatives

Populations: those of :mod:`bayes_prc.populations` (prevalence 0.2) and ``label_noise``:
the ``classifier_probabilities`` scores with every label flipped with probability 0.05, so
some items that look certain are labelled negative and the true precision levels off
below 1 at low recall. The truth is each population's own PR curve, from 2e6 labelled
items per population (precision at the score quantile where the recall is reached;
Monte Carlo error below 2e-3 at recall 0.1).

For each data set, :func:`bayes_prc.compare_bands` at ``--ci-prob`` (default 0.9) on
the grid 0.1, 0.11, ..., 0.9; a band *contains the curve* when the true precision is
inside ``[lower, upper]`` at every grid point. The table gives, per method and for the
recommended band: the share of data sets containing the whole curve (MC se
``sqrt(p (1 - p) / R)``), the mean pointwise hit rate, the lowest pointwise hit rate over
the grid (and where), and the mean width.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402

import numpy as np  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.populations import POPULATIONS, population  # noqa: E402

GRID = np.round(np.linspace(0.1, 0.9, 81), 10)
NAMES = tuple(POPULATIONS) + ("label_noise",)
NOISE = 0.05


def draw(name, n, rng):
    if name == "label_noise":
        y, s = population("classifier_probabilities").sample(n, random_seed=rng)
        flip = rng.random(n) < NOISE
        return np.where(flip, 1 - np.asarray(y), y).astype(int), s
    y, s = population(name).sample(n, random_seed=rng)
    return np.asarray(y).astype(int), s


def true_curve(name, n_items=2_000_000, seed=12345):
    rng = np.random.default_rng(seed)
    y, s = draw(name, n_items, rng)
    pi = y.mean()
    pos, neg = np.sort(s[y == 1]), np.sort(s[y == 0])
    t = np.quantile(pos, 1 - GRID, method="inverted_cdf")
    tpr = 1 - np.searchsorted(pos, t, side="left") / pos.size
    fpr = 1 - np.searchsorted(neg, t, side="left") / neg.size
    return pi * tpr / (pi * tpr + (1 - pi) * fpr)


def one(args):
    name, n, ci_prob, n_resamples, seed, truth = args
    rng = np.random.default_rng(seed)
    while True:
        y, s = draw(name, n, rng)
        if 2 <= y.sum() <= n - 2:
            break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bands = bp.compare_bands(
            y, s, ci_prob=ci_prob, recall=GRID, random_seed=rng, n_resamples=n_resamples
        )
    inside = (bands["lower"].values <= truth + 1e-12) & (truth - 1e-12 <= bands["upper"].values)
    width = (bands["upper"] - bands["lower"]).values.mean(axis=1)
    return list(bands["band"].values), inside, width, bands.attrs["recommended"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n-rep", type=int, default=60)
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--populations", nargs="+", default=list(NAMES), choices=NAMES)
    args = ap.parse_args()
    t0 = time.time()
    print(f"n = {args.n}, {args.n_rep} data sets per population, nominal {args.ci_prob}\n")
    print(
        "| population | band | whole curve | MC se | mean pointwise | lowest pointwise (recall) "
        "| mean width |"
    )
    print("|---|---|---|---|---|---|---|")
    ss = np.random.SeedSequence(args.seed)
    with ProcessPoolExecutor(args.workers) as ex:
        for name, pop_seed in zip(args.populations, ss.spawn(len(args.populations)), strict=True):
            truth = true_curve(name)
            jobs = [
                (name, args.n, args.ci_prob, args.n_resamples, s, truth)
                for s in pop_seed.spawn(args.n_rep)
            ]
            results = list(ex.map(one, jobs))
            methods = results[0][0]
            inside = np.stack([r[1] for r in results])  # (rep, method, recall)
            width = np.stack([r[2] for r in results])
            rec = np.array([methods.index(r[3]) for r in results])
            rows = [(m, inside[:, i], width[:, i]) for i, m in enumerate(methods)]
            pick = np.arange(len(results))
            rows.append(("**recommended**", inside[pick, rec], width[pick, rec]))
            for label, hit, w in rows:
                whole = hit.all(axis=1).mean()
                se = np.sqrt(whole * (1 - whole) / hit.shape[0])
                point = hit.mean(axis=0)
                lo = int(np.argmin(point))
                print(
                    f"| {name} | {label} | {whole:.3f} | {se:.3f} | {point.mean():.3f} "
                    f"| {point[lo]:.2f} ({GRID[lo]:.2f}) | {w.mean():.3f} |",
                    flush=True,
                )
            if "bootstrap_simultaneous_t" in methods:
                sup_t = width[:, methods.index("bootstrap_simultaneous_t")]
                ratio = width[pick, rec].mean() / sup_t.mean()
                print(f"| {name} | (recommended width / sup-t width: {ratio:.2f}) | | | | | |")
            used, counts = np.unique([r[3] for r in results], return_counts=True)
            print(
                f"| {name} | (recommended: "
                + ", ".join(f"{u} {c}" for u, c in zip(used, counts, strict=True))
                + ") | | | | | |",
                flush=True,
            )
    print(f"\n({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
