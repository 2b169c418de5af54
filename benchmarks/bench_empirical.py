"""Empirical core vs scikit-learn: time and peak memory, printed as ratios in one run.

Usage::

    .venv/bin/python benchmarks/bench_empirical.py            # n = 1e5, 1e6, 1e7
    .venv/bin/python benchmarks/bench_empirical.py --sizes 1e6 1e7 --repeat 3
    .venv/bin/python benchmarks/bench_empirical.py --clock cpu --functions roc_auc_score

For each n (10% positives) and each kind of scores (continuous normal scores; heavily
tied scores rounded to 100 levels), with and without sample weights, it times
``precision_recall_curve``, ``average_precision_score`` and ``roc_auc_score`` of
bayes_prc and scikit-learn on the same arrays (best of ``--repeat`` runs, the two
interleaved), checks that the answers agree (curves exactly, scores to 1e-10), and prints
``speed-up = t_sklearn / t_bayes_prc`` (> 1 means bayes_prc is faster). ``--clock cpu``
times with :func:`time.process_time` (this process's CPU time), steadier than the wall
clock when other work shares the cores; both libraries run single-threaded here. Peak
memory is the extra memory traced by :mod:`tracemalloc` during one bayes_prc call, as a
multiple of the input arrays' size (labels, scores and weights).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from functools import partial

import numpy as np
from sklearn import metrics as skm

import bayes_prc as bp

FUNCTIONS = ("precision_recall_curve", "average_precision_score", "roc_auc_score")
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _best_times(fns, repeat, clock):
    """Best time of each function over ``repeat`` interleaved rounds, and its output."""
    best = [np.inf] * len(fns)
    outs = [None] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = clock()
            outs[i] = fn()
            best[i] = min(best[i], clock() - t0)
    return best, outs


def _check_same(name, a, b):
    if name == "precision_recall_curve":
        for u, v in zip(a, b, strict=True):
            np.testing.assert_array_equal(u, v)
    else:
        assert abs(a - b) < 1e-10, (name, a, b)


def _peak_ratio(fn, input_bytes):
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / input_bytes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall")
    parser.add_argument("--functions", nargs="+", choices=FUNCTIONS, default=list(FUNCTIONS))
    parser.add_argument(
        "--kinds", nargs="+", choices=("continuous", "tied"), default=["continuous", "tied"]
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    clock = CLOCKS[args.clock]

    header = (
        f"{'n':>9} {'scores':>10} {'weights':>7} {'function':>24} "
        f"{'bayes_prc s':>11} {'sklearn s':>10} {'speed-up':>9} {'peak mem':>9}"
    )
    print(f"clock: {args.clock}; best of {args.repeat} (n > 1e6: {max(1, args.repeat - 1)})")
    print(header)
    print("-" * len(header))
    for n in (int(x) for x in args.sizes):
        y = (rng.random(n) < 0.1).astype(np.int64)
        cont = rng.normal(size=n) + y
        tied = np.round(cont * 20) / 20  # ~100-200 distinct levels
        weights = rng.uniform(0.5, 2.0, size=n)
        for kind, s in (("continuous", cont), ("tied", tied)):
            if kind not in args.kinds:
                continue
            for w in (None, weights):
                input_bytes = y.nbytes + s.nbytes + (0 if w is None else w.nbytes)
                for name in args.functions:
                    ours = partial(getattr(bp, name), y, s, sample_weight=w)
                    theirs = partial(getattr(skm, name), y, s, sample_weight=w)
                    reps = args.repeat if n <= 1e6 else max(1, args.repeat - 1)
                    (t_ours, t_theirs), (a, b) = _best_times((ours, theirs), reps, clock)
                    _check_same(name, a, b)
                    peak = _peak_ratio(ours, input_bytes)
                    print(
                        f"{n:>9.0e} {kind:>10} {'yes' if w is not None else 'no':>7} "
                        f"{name:>24} {t_ours:>11.4f} {t_theirs:>10.4f} "
                        f"{t_theirs / t_ours:>8.1f}x {peak:>8.2f}x",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
