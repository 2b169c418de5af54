"""Coverage of the band a user gets without choosing: ``fit_binormal(y, s).pr_band()``.

Usage::

    .venv/bin/python benchmarks/coverage_default_band.py --n 200 --n-rep 60 --seed 0

Issue 39, item 9. For each population and data set, the default fit
(``bp.fit_binormal(y, s, random_seed=...)``, the rank-based binormal model) and four of
its bands at ``--ci-prob`` (default 0.9) on the recall grid 0.1, 0.12, ..., 0.9: the
default ``pr_band(kind="pointwise")`` and ``pr_band(kind="simultaneous")`` (the
model-averaged bands since issue 39) and the single model's (``averaged=False``, the
default before). ``PRCurveDisplay.from_posterior(post, y, s)`` draws exactly the two
default bands.

Populations: the six of ``coverage_compare_bands.py`` (``bayes_prc.populations`` at
prevalence 0.2 and ``label_noise``; truth from 2e6 items) and real classifiers on
scikit-learn's bundled tables (``coverage_recommended.py``'s pools: a classifier trained
on half of the table scores the other half, the pool; test sets of ``--n`` items drawn
from the pool at prevalence 0.2, so the true curve is the pool's:
``precision(r) = pi S+(t) / (pi S+(t) + (1 - pi) S-(t))`` at the positives' ``1 - r``
quantile ``t``): gradient boosting on digits ("9" vs rest), logistic regression on
breast cancer, naive Bayes on wine.

Columns per band: "whole": share of data sets whose band contains the true curve at every
grid point (MC se ``sqrt(p (1 - p) / R)``); "worst recall": the lowest share over the grid
of data sets whose band contains the true precision at that recall, and where. Also the
coverage of the 90% equal-tailed AP interval of the default posterior
(``average_precision()``) and of the three averaged models' pooled AP draws.
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
from coverage_compare_bands import GRID as GRID_81  # noqa: E402
from coverage_compare_bands import NAMES, draw, true_curve  # noqa: E402
from coverage_recommended import pools  # noqa: E402

GRID = GRID_81[::2]  # 0.1, 0.12, ..., 0.9
PREVALENCE = 0.2
BANDS = (
    ("default pointwise", {"kind": "pointwise"}),
    ("default simultaneous", {"kind": "simultaneous"}),
    ("single-model pointwise", {"kind": "pointwise", "averaged": False}),
    ("single-model simultaneous", {"kind": "simultaneous", "averaged": False}),
)


def pool_truth(score, y, prev=PREVALENCE, grid=GRID):
    """The pool's PR curve on ``grid`` and its AP, at prevalence ``prev`` (ties as sklearn)."""
    pos, neg = np.sort(score[y]), np.sort(score[~y])
    t = np.quantile(pos, 1 - grid, method="inverted_cdf")
    tpr = 1 - np.searchsorted(pos, t, side="left") / pos.size
    fpr = 1 - np.searchsorted(neg, t, side="left") / neg.size
    curve = prev * tpr / (prev * tpr + (1 - prev) * fpr)
    s_pos = 1 - np.searchsorted(pos, pos, side="left") / pos.size
    s_neg = 1 - np.searchsorted(neg, pos, side="left") / neg.size
    ap = float(np.mean(prev * s_pos / (prev * s_pos + (1 - prev) * s_neg)))
    return curve, ap


def pool_draw(score, y, n, rng, prev=PREVALENCE):
    lab = rng.random(n) < prev
    pos_idx, neg_idx = np.flatnonzero(y), np.flatnonzero(~y)
    pick = np.where(lab, rng.choice(pos_idx, n), rng.choice(neg_idx, n))
    return lab.astype(int), score[pick]


def population_truth(name):
    curve = true_curve(name)[::2]
    y, s = draw(name, 2_000_000, np.random.default_rng(54321))
    return curve, float(bp.average_precision_score(y, s))


def one(args):
    name, n, ci_prob, seed, truth, pool = args
    rng = np.random.default_rng(seed)
    curve, true_ap = truth
    while True:
        y, s = pool_draw(*pool, n, rng) if pool is not None else draw(name, n, rng)
        if 2 <= y.sum() <= n - 2 and np.unique(s).size > 1:
            break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        post = bp.fit_binormal(y, s, random_seed=rng)
        inside = {}
        for label, kw in BANDS:
            band = post.pr_band(recall=GRID, ci_prob=ci_prob, **kw)
            inside[label] = (band["lower"].values <= curve + 1e-12) & (
                curve - 1e-12 <= band["upper"].values
            )
        fits = post.averaged_posteriors()
    alpha = (1 - ci_prob) / 2
    ap = post.average_precision().values.ravel()
    lo, hi = np.quantile(ap, [alpha, 1 - alpha])
    pooled = np.concatenate([f.average_precision().values.ravel() for f in fits.values()])
    plo, phi = np.quantile(pooled, [alpha, 1 - alpha])
    return inside, (lo <= true_ap <= hi), (plo <= true_ap <= phi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n-rep", type=int, default=60)
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    real = ("digits9_boosting", "breast_cancer_logreg", "wine_naive_bayes")
    ap.add_argument("--populations", nargs="+", default=[*NAMES, *real], choices=[*NAMES, *real])
    args = ap.parse_args()
    t0 = time.time()
    real_pools = pools(args.seed)
    print(f"n = {args.n}, {args.n_rep} data sets per population, nominal {args.ci_prob}\n")
    head = " | ".join(f"{b}: whole / worst recall" for b, _ in BANDS)
    print(f"| population | {head} | AP ETI default / averaged |")
    print("|---" * (len(BANDS) + 2) + "|")
    ss = np.random.SeedSequence(args.seed)
    for name, pop_seed in zip(args.populations, ss.spawn(len(args.populations)), strict=True):
        if name in real_pools:
            score, y = real_pools[name]
            pool = (score, np.asarray(y, dtype=bool))
            truth = pool_truth(*pool)
        else:
            pool, truth = None, population_truth(name)
        jobs = [(name, args.n, args.ci_prob, s, truth, pool) for s in pop_seed.spawn(args.n_rep)]
        with ProcessPoolExecutor(args.workers) as ex:
            res = list(ex.map(one, jobs))
        cells = []
        for label, _ in BANDS:
            hits = np.array([r[0][label] for r in res])
            whole = hits.all(axis=1).mean()
            point = hits.mean(axis=0)
            k = int(np.argmin(point))
            se = np.sqrt(whole * (1 - whole) / len(res))
            cells.append(f"{whole:.2f} ({se:.2f}) / {point[k]:.2f} (r {GRID[k]:.2f})")
        ap_cov = np.mean([r[1] for r in res]), np.mean([r[2] for r in res])
        print(f"| {name} | " + " | ".join(cells) + f" | {ap_cov[0]:.2f} / {ap_cov[1]:.2f} |")
        sys.stdout.flush()
    print(f"\n{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
