"""Bootstrap engine vs a Python loop of scikit-learn: time, speed-up and peak memory.

Usage::

    .venv/bin/python benchmarks/bench_bootstrap.py                 # n = 1e4 and 1e5
    .venv/bin/python benchmarks/bench_bootstrap.py --sizes 1e4 1e5 --n-resamples 1000

For each n (10% positives, continuous binormal scores) it times
``bayes_prc.ap_interval(y, s, method="bootstrap", n_resamples=1000)`` (best of
``--repeat`` runs; the whole call: validation, resampling, AP of every replicate, the
percentile interval) against the loop a user would write,
``[average_precision_score(y[i], s[i]) for i in resamples]`` on the same stratified
resamples (:func:`bayes_prc.bootstrap.stratified_indices`, drawn before the clock starts;
the indexing ``y[i], s[i]`` is inside the loop). The loop runs ``--sklearn-loops``
resamples (fewer than 1000 at large n, where it is slow) and its time is scaled linearly
to ``n_resamples``; the replicate values of both are checked to agree to 1e-12. It prints
``speed-up = t_sklearn / t_bayes_prc``.

Peak memory: the largest extra memory traced by :mod:`tracemalloc` during one
``ap_interval`` call (numpy registers its buffers with tracemalloc), and the process's peak
resident set size from :func:`resource.getrusage` at the end of the run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc

import numpy as np
from sklearn.metrics import average_precision_score

import bayes_prc as bp  # noqa: F401  (warm the package import)
from bayes_prc.bootstrap import BYTES_PER_ITEM, DEFAULT_MEMORY_BUDGET, stratified_indices
from bayes_prc.frequentist import ap_interval


def _best(fn, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5])
    parser.add_argument("--n-resamples", type=int, default=1000)
    parser.add_argument(
        "--sklearn-loops",
        nargs="+",
        type=int,
        default=None,
        help="resamples timed in the scikit-learn loop, one per size (default: 1000 "
        "for n <= 1e4, 100 above)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes]
    loops = args.sklearn_loops or [
        min(args.n_resamples, 1000 if n <= 10_000 else 100) for n in sizes
    ]
    if len(loops) != len(sizes):
        parser.error("--sklearn-loops needs one value per size")
    rng = np.random.default_rng(args.seed)
    b = args.n_resamples
    print(f"ap_interval(method='bootstrap', n_resamples={b}) vs a loop of scikit-learn")
    header = (
        f"{'n':>8} {'bayes_prc s':>11} {'sklearn loop':>13} {'sklearn s (scaled)':>19} "
        f"{'speed-up':>9} {'max |diff|':>10} {'peak traced MB':>15}"
    )
    print(header)
    print("-" * len(header))
    for n, n_loop in zip(sizes, loops, strict=True):
        y = (rng.random(n) < 0.1).astype(np.int64)
        s = rng.normal(size=n) + y
        seed = int(rng.integers(2**31))

        def ours(y=y, s=s, seed=seed):
            return ap_interval(y, s, method="bootstrap", n_resamples=b, random_seed=seed)

        t_ours, res = _best(ours, args.repeat)
        # the engine draws a block of replicates per call of the generator: replay whole
        # blocks (documented size max(1, budget // (BYTES_PER_ITEM n))), keep the first n_loop
        block = max(1, DEFAULT_MEMORY_BUDGET // (BYTES_PER_ITEM * n))
        n_replay = min(b, -(-n_loop // block) * block)
        idx = stratified_indices(y, n_replay, random_seed=seed)[:n_loop]

        def loop(y=y, s=s, idx=idx):
            return np.array([average_precision_score(y[i], s[i]) for i in idx])

        t_loop, ref = _best(loop, 1 if n > 10_000 else min(args.repeat, 2))
        diff = float(np.max(np.abs(res.bootstrap_distribution[:n_loop] - ref)))
        assert diff < 1e-12, diff
        t_sklearn = t_loop * b / n_loop
        tracemalloc.start()
        ours()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"{n:>8} {t_ours:>11.3f} {n_loop:>6} in {t_loop:>5.1f}s {t_sklearn:>19.2f} "
            f"{t_sklearn / t_ours:>8.1f}x {diff:>10.1e} {peak / 2**20:>15.1f}"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    print(f"peak resident set size of the whole run: {rss * scale / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
