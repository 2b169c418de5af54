"""Whole-curve coverage of the PR bands as the number of positives shrinks (issue 39, item 10).

Usage::

    .venv/bin/python benchmarks/coverage_few_positives.py --n 200 --n-rep 60 \\
        --positives 3 5 8 12 20 40 --seed 0

For each population and expected number of positives ``m`` (prevalence ``m / n``), draw
``--n-rep`` test sets of ``--n`` items (labels Bernoulli(m / n), at least one positive; then
scores from the population's class), run :func:`bayes_prc.compare_bands` at
``--ci-prob`` (default 0.9) with the model-averaged and the studentized bootstrap
simultaneous bands on the recall grid 0.1, 0.14, ..., 0.9, and record whether each band,
and the one ``compare_bands`` recommends (what the report draws; None: no band drawn),
contains the whole true curve (truth at prevalence ``m / n``). "above": the truth above
the band's upper bound somewhere; "below": below its lower bound somewhere. MC se
``sqrt(p (1 - p) / R)``.

Populations: ``binormal`` and ``classifier_probabilities`` (:mod:`bayes_prc.populations`;
the class score distributions from 2e6 items), and real classifiers on scikit-learn's
bundled tables (``coverage_recommended.py``'s pools: gradient boosting on digits "9" vs
rest, logistic regression on breast cancer), whose true curve is the pool's (a step
curve with precision exactly 1 where the pool's top-scored items are all positive).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import bayes_prc as bp  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from coverage_default_band import GRID as GRID_41  # noqa: E402
from coverage_default_band import pool_truth  # noqa: E402
from coverage_recommended import pools  # noqa: E402

from bayes_prc.populations import population  # noqa: E402

BANDS = ("averaged_simultaneous", "bootstrap_simultaneous_t")
GRID = GRID_41[::2]  # 0.1, 0.14, ..., 0.9
SYNTHETIC = ("binormal", "classifier_probabilities")
REAL = ("digits9_boosting", "breast_cancer_logreg")


def class_scores(name, n_items=1_000_000, seed=12345):
    """Scores of each class of a synthetic population (sorted), for truth and sampling."""
    y, s = population(name).sample(n_items, random_seed=seed)
    y = np.asarray(y).astype(bool)
    return np.asarray(s, dtype=np.float64), y


def draw(score, y, n, prev, rng):
    while True:
        lab = rng.random(n) < prev
        if lab.any():
            break
    pos_idx, neg_idx = np.flatnonzero(y), np.flatnonzero(~y)
    pick = np.where(lab, rng.choice(pos_idx, n), rng.choice(neg_idx, n))
    return lab.astype(int), score[pick]


def one(args):
    score, y, n, prev, ci_prob, n_resamples, seed, truth = args
    rng = np.random.default_rng(seed)
    lab, s = draw(score, y, n, prev, rng)
    out = {"n_pos": int(lab.sum())}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bands = bp.compare_bands(
                lab,
                s,
                ci_prob=ci_prob,
                recall=GRID,
                methods=BANDS,
                random_seed=rng,
                n_resamples=n_resamples,
                progressbar=False,
            )
    except ValueError as err:  # e.g. one positive: no band at all
        out["error"] = str(err)
        out["recommended"] = None
        return out
    for b in bands["band"].values.tolist():
        row = bands.sel(band=b)
        lo, hi = row["lower"].values, row["upper"].values
        out[b] = (
            bool(np.any(truth > hi + 1e-12)),
            bool(np.any(truth < lo - 1e-12)),
            float(np.mean(hi - lo)),
        )
    out["recommended"] = bands.attrs["recommended"]
    return out


def summarize(res, key):
    rows = [r for r in res if key in r]
    if not rows:
        return "-"
    above = np.array([r[key][0] for r in rows])
    below = np.array([r[key][1] for r in rows])
    whole = np.mean(~above & ~below)
    se = np.sqrt(whole * (1 - whole) / len(rows))
    width = np.mean([r[key][2] for r in rows])
    return f"{whole:.2f} ({se:.2f}) [{above.mean():.2f} / {below.mean():.2f}] w {width:.2f}" + (
        "" if len(rows) == len(res) else f" ({len(rows)} sets)"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n-rep", type=int, default=60)
    ap.add_argument("--positives", type=float, nargs="+", default=[3, 5, 8, 12, 20, 40])
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--n-resamples", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--populations", nargs="+", default=[*SYNTHETIC, *REAL], choices=[*SYNTHETIC, *REAL]
    )
    args = ap.parse_args()
    t0 = time.time()
    real = pools(args.seed)
    print(
        f"n = {args.n}, {args.n_rep} data sets per cell, nominal {args.ci_prob}; cells: "
        "whole-curve coverage (MC se) [truth above somewhere / below somewhere] w mean width\n"
    )
    print(
        "| population | positives (mean) | recommended band | averaged simultaneous "
        "| bootstrap sup-t | recommended: averaged / bootstrap / none |"
    )
    print("|---|---|---|---|---|---|")
    ss = np.random.SeedSequence(args.seed)
    for name, pop_seed in zip(args.populations, ss.spawn(len(args.populations)), strict=True):
        if name in real:
            score, y = real[name]
            score, y = np.asarray(score, dtype=np.float64), np.asarray(y, dtype=bool)
        else:
            score, y = class_scores(name)
        for m, m_seed in zip(args.positives, pop_seed.spawn(len(args.positives)), strict=True):
            prev = m / args.n
            truth, _ = pool_truth(score, y, prev, GRID)
            jobs = [
                (score, y, args.n, prev, args.ci_prob, args.n_resamples, s, truth)
                for s in m_seed.spawn(args.n_rep)
            ]
            with ProcessPoolExecutor(args.workers) as ex:
                res = list(ex.map(one, jobs))
            for r in res:  # the recommended band's outcome under its own key
                if r["recommended"] is not None:
                    r["recommended_band"] = r[r["recommended"]]
            picks = [r["recommended"] for r in res]
            share = [
                np.mean([p == "averaged_simultaneous" for p in picks]),
                np.mean([p == "bootstrap_simultaneous_t" for p in picks]),
                np.mean([p is None for p in picks]),
            ]
            mean_pos = np.mean([r["n_pos"] for r in res])
            print(
                f"| {name} | {m:g} ({mean_pos:.1f}) | {summarize(res, 'recommended_band')} | "
                f"{summarize(res, 'averaged_simultaneous')} | "
                f"{summarize(res, 'bootstrap_simultaneous_t')} | "
                + " / ".join(f"{v:.2f}" for v in share)
                + " |"
            )
            sys.stdout.flush()
    print(f"\n{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
