"""Run time and peak memory of ``compare_models`` for k models and n items.

Run: python benchmarks/bench_ranking.py --k 50 --n 10000 --n-resamples 2000
Prints the wall time of one call (after a warm-up call on small data) and the peak
traced memory (tracemalloc), beside the time of the paired bootstrap of two models
(``compare_classifiers(method="bootstrap")``) on the same data as the reference: the
ratio says what k models cost against one pair.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import bayes_prc as bp


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--n-resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    y = (rng.random(args.n) < 0.1).astype(int)
    s = 1.5 * y[:, None] + rng.normal(size=(args.n, args.k)) * np.linspace(0.7, 2.0, args.k)
    bp.compare_models(y[:200], s[:200, :3], n_resamples=100, random_seed=0)  # warm-up
    t0 = time.perf_counter()
    bp.compare_classifiers(
        y, s[:, 0], s[:, 1], method="bootstrap", n_resamples=args.n_resamples, random_seed=1
    )
    pair = time.perf_counter() - t0
    tracemalloc.start()
    t0 = time.perf_counter()
    res = bp.compare_models(y, s, n_resamples=args.n_resamples, random_seed=1)
    secs = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(
        f"compare_models k={args.k} n={args.n} n_resamples={args.n_resamples}: {secs:.1f} s, "
        f"peak {peak:.0f} MiB traced; one paired bootstrap of 2 models: {pair:.1f} s "
        f"(ratio {secs / pair:.1f}); {len(res.tiers)} tiers"
    )


if __name__ == "__main__":
    main()
