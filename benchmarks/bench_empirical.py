"""Empirical core vs scikit-learn: time and peak memory, printed as ratios in one run.

Usage::

    .venv/bin/python benchmarks/bench_empirical.py            # n = 1e5, 1e6, 1e7
    .venv/bin/python benchmarks/bench_empirical.py --sizes 1e5 1e6 --repeat 3

For each n (10% positives) and each kind of scores (continuous normal scores; heavily
tied scores rounded to 100 levels), with and without sample weights, it times
``precision_recall_curve`` and ``average_precision_score`` of bayes_prc and scikit-learn
on the same arrays (best of ``--repeat`` runs), checks that the answers agree, and prints
``speed-up = t_sklearn / t_bayes_prc`` (> 1 means bayes_prc is faster). Peak memory is the
extra memory traced by :mod:`tracemalloc` during one bayes_prc call, as a multiple of the
input arrays' size.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from functools import partial

import numpy as np
from sklearn import metrics as skm

import bayes_prc as bp


def _best_time(fn, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


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
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)

    header = (
        f"{'n':>9} {'scores':>10} {'weights':>7} {'function':>24} "
        f"{'bayes_prc s':>11} {'sklearn s':>10} {'speed-up':>9} {'peak mem':>9}"
    )
    print(header)
    print("-" * len(header))
    for n in (int(x) for x in args.sizes):
        y = (rng.random(n) < 0.1).astype(np.int64)
        cont = rng.normal(size=n) + y
        tied = np.round(cont * 20) / 20  # ~100-200 distinct levels
        weights = rng.uniform(0.5, 2.0, size=n)
        for kind, s in (("continuous", cont), ("tied", tied)):
            for w in (None, weights):
                input_bytes = y.nbytes + s.nbytes + (0 if w is None else w.nbytes)
                for name in ("precision_recall_curve", "average_precision_score"):
                    ours_fn = getattr(bp, name)
                    theirs_fn = getattr(skm, name)
                    reps = args.repeat if n <= 1e6 else max(1, args.repeat - 1)
                    t_ours, a = _best_time(partial(ours_fn, y, s, sample_weight=w), reps)
                    t_theirs, b = _best_time(partial(theirs_fn, y, s, sample_weight=w), reps)
                    if name == "average_precision_score":
                        assert abs(a - b) < 1e-10, (a, b)
                    else:
                        for u, v in zip(a, b, strict=True):
                            np.testing.assert_array_equal(u, v)
                    peak = _peak_ratio(partial(ours_fn, y, s, sample_weight=w), input_bytes)
                    print(
                        f"{n:>9.0e} {kind:>10} {'yes' if w is not None else 'no':>7} "
                        f"{name:>24} {t_ours:>11.4f} {t_theirs:>10.4f} "
                        f"{t_theirs / t_ours:>8.1f}x {peak:>8.2f}x",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
