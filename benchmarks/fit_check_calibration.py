"""False-alarm rate and power of the fit checks (issue 24), with Monte Carlo errors.

Usage::

    .venv/bin/python benchmarks/fit_check_calibration.py --n-rep 400 --seed 0
    .venv/bin/python benchmarks/fit_check_calibration.py --n-rep 100 --quick

Rank-based check (the default model's): data drawn from binormal ROC curves
(``a = mu / sigma``, ``b = 1 / sigma`` on a latent scale) and pushed through a monotone
transform (``exp``, so the scores are log-normal, and ``expit`` for probabilities; the
check sees only the order), at n = 40 to 5000 and prevalence 0.02 to 0.5, plus rounded
scores (ties). The table gives the share of data sets the check *fails* (false alarms,
nominal 0.05), the share it calls inconclusive (too few items of a class to test), and
the Monte Carlo standard error ``sqrt(p (1 - p) / R)`` over the tested data sets.

Parametric check: normal classes on the fitted scale (Shapiro-Wilk per class, Sidak).

Power: populations whose ROC curve is not binormal, by n (prevalence 0.2): the hard
negatives of :mod:`bayes_prc.populations` (12% of negatives score like positives, a
hook), a positive class that is a 50/50 mixture of an easy and a chance-level component
(N(3, 0.5) and N(0, 1)), and gamma-skewed scores (binormal-like ROC: little power is the
right answer). The check is deterministic: the same data give the same verdict for every
seed (tested in tests/bayes/test_fitcheck.py).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402

import numpy as np  # noqa: E402
from scipy.special import expit  # noqa: E402

from bayes_prc.bayes._fitcheck import rank_fit_check  # noqa: E402
from bayes_prc.bayes._ordinal import ordinal_categories  # noqa: E402
from bayes_prc.populations import population  # noqa: E402

CELLS = [(n, p) for n in (40, 80, 200, 1000, 5000) for p in (0.02, 0.1, 0.5)]
SHAPES = [(1.5, 1.0), (1.0, 0.6), (2.0, 1.4)]  # (a, b): equal variance, wide and narrow positives


def _draw(rng, n, prev, a, b):
    y = rng.random(n) < prev
    z = rng.standard_normal(n)
    return y, np.where(y, a / b + z / b, z)


def _grade(y, s):
    if not 0 < y.sum() < y.size:
        return "inconclusive"
    return rank_fit_check(ordinal_categories(y, s)).grade


def null_cell(args):
    n, prev, a, b, transform, ties, n_rep, seed = args
    rng = np.random.default_rng(seed)
    grades = []
    for _ in range(n_rep):
        y, s = _draw(rng, n, prev, a, b)
        if ties:
            s = np.round(s * 2) / 2
        s = {"exp": np.exp, "expit": expit, None: lambda x: x}[transform](s)
        grades.append(_grade(y, s))
    return args, grades


def power_cell(args):
    name, n, n_rep, seed = args
    rng = np.random.default_rng(seed)
    grades = []
    for _ in range(n_rep):
        if name == "mixture_positives":
            y = rng.random(n) < 0.2
            easy = rng.random(n) < 0.5
            s = np.where(y, np.where(easy, rng.normal(3, 0.5, n), rng.normal(0, 1, n)), 0.0)
            s = np.where(y, s, rng.normal(0, 1, n))
        else:
            y, s = population(name).sample(n, random_seed=rng)
            y = np.asarray(y, bool)
        grades.append(_grade(y, s))
    return args, grades


def _rates(grades):
    g = np.array(grades)
    tested = g != "inconclusive"
    r = int(tested.sum())
    fail = float(np.mean(g[tested] == "fail")) if r else float("nan")
    se = float(np.sqrt(fail * (1 - fail) / r)) if r else float("nan")
    return fail, se, float(np.mean(~tested)), r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n-rep", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="n = 80, 200, 1000 at prevalence 0.1")
    args = ap.parse_args()
    cells = [(n, p) for n, p in CELLS if not args.quick or (n in (80, 200, 1000) and p == 0.1)]
    ss = np.random.SeedSequence(args.seed)
    jobs = []
    for n, prev in cells:
        for a, b in SHAPES:
            jobs.append((n, prev, a, b, "exp", False))
    for n in (80, 200, 1000):
        jobs.append((n, 0.2, 1.5, 1.0, "expit", True))
    jobs = [j + (args.n_rep, s) for j, s in zip(jobs, ss.spawn(len(jobs)), strict=True)]
    t0 = time.time()
    print("## False alarms of the rank-based check (data from its model)\n")
    print("| n | prevalence | a | b | scores | fails | MC se | inconclusive | tested |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    with ProcessPoolExecutor(args.workers) as ex:
        for job, grades in ex.map(null_cell, jobs):
            n, prev, a, b, transform, ties = job[:6]
            fail, se, inc, r = _rates(grades)
            worst = max(worst, fail if r >= 50 else 0.0)
            kind = f"{transform}{', ties' if ties else ''}"
            print(
                f"| {n} | {prev:g} | {a:g} | {b:g} | {kind} | {fail:.3f} | {se:.3f} "
                f"| {inc:.2f} | {r} |",
                flush=True,
            )
        print(f"\nlargest false-alarm rate over cells with >= 50 tested data sets: {worst:.3f}")
        print("\n## Power of the rank-based check (prevalence 0.2)\n")
        print("| population | n | fails | MC se | inconclusive |")
        print("|---|---|---|---|---|")
        pjobs = [
            (name, n)
            for name in ("hard_negatives", "mixture_positives", "gamma_skewed")
            for n in (80, 200, 1000, 5000)
        ]
        pjobs = [j + (args.n_rep, s) for j, s in zip(pjobs, ss.spawn(len(pjobs)), strict=True)]
        for job, grades in ex.map(power_cell, pjobs):
            fail, se, inc, _ = _rates(grades)
            print(f"| {job[0]} | {job[1]} | {fail:.3f} | {se:.3f} | {inc:.2f} |", flush=True)
    print(f"\n({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
