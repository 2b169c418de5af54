"""Two equal subgroups: is each subgroup's pooled AP as unbiased as one fit of their union?

Both subgroups are drawn from the same population (``coverage_subgroups.py``'s binormal
``equal`` setting, prevalence ``--prevalence``), of ``--sizes`` items each (a small and a
large one by default), so every subgroup's true AP is the population's (400 000 items).
Printed, over ``--reps`` data sets: the bias (and its Monte Carlo standard error) of the
pooled estimate (``compare_subgroups``' posterior mean) of each subgroup, of each
subgroup's independent fit, of ``fit_binormal`` on the union of the two subgroups, and of
the pooled model's "all subgroups together" AP. Where the model is right and the
subgroups are equal, the pooled estimates should be no more biased than the union's fit.

Command (about 3 s per data set)::

    .venv/bin/python benchmarks/subgroups_union.py --reps 100 --jobs 2

``--kwargs "dict(n_categories=200)"`` passes keyword arguments to ``compare_subgroups``.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from multiprocessing import Pool
from pathlib import Path

import numpy as np

import bayes_prc as bp

sys.path.insert(0, str(Path(__file__).parent))
from coverage_subgroups import subgroup_sampler  # noqa: E402


def one(args):
    rep, seed, sizes, prevalence, kwargs = args
    rng = np.random.default_rng([seed, rep])
    sample = subgroup_sampler("binormal", rng, len(sizes), "equal", prevalence)
    yt, st = sample(0, 400_000, rng)
    truth = bp.average_precision_score(yt, st)
    ys, ss, gs = [], [], []
    for g, (lo, hi) in enumerate(sizes):
        y, s = sample(g, int(rng.integers(lo, hi + 1)), rng)
        ys.append(y)
        ss.append(s)
        gs.append(np.full(y.size, g))
    y, s, grp = map(np.concatenate, (ys, ss, gs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = bp.compare_subgroups(y, s, grp, random_seed=rep, **kwargs)
        union = bp.fit_binormal(y, s, random_seed=rep)
    comp = res.comparison
    pooled = comp.xs("pooled", level="method")["estimate"].to_numpy()
    indep = comp.xs("independent", level="method")["estimate"].to_numpy()
    both = [float(union.average_precision().mean()), float(res.overall.draws.mean())]
    return np.r_[pooled, indep, both] - truth


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--prevalence", type=float, default=0.2)
    parser.add_argument(
        "--sizes", type=int, nargs=4, default=(150, 250, 400, 600), help="lo hi lo hi"
    )
    parser.add_argument("--kwargs", default="dict()", help="compare_subgroups keywords")
    args = parser.parse_args(argv)
    sizes = [tuple(args.sizes[:2]), tuple(args.sizes[2:])]
    kwargs = eval(args.kwargs, {"bp": bp})  # noqa: S307 (a benchmark's own command line)
    tasks = [(r, args.seed, sizes, args.prevalence, kwargs) for r in range(args.reps)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            rows = np.array(pool.map(one, tasks))
    else:
        rows = np.array([one(t) for t in tasks])
    se = rows.std(axis=0, ddof=1) / np.sqrt(len(rows))
    names = ["pooled, small", "pooled, large", "independent, small", "independent, large"]
    names += ["one fit of the union", "pooled, all subgroups together"]
    print(f"{args.reps} data sets, sizes {sizes}, prevalence {args.prevalence}, {kwargs}")
    for name, b, e in zip(names, rows.mean(axis=0), se, strict=True):
        print(f"  {name:<32} bias {b:+.4f} ({e:.4f})")


if __name__ == "__main__":
    main()
