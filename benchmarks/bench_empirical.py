"""Empirical core vs scikit-learn: time and peak memory, printed as ratios in one run.

Usage::

    .venv/bin/python benchmarks/bench_empirical.py            # n = 1e5, 1e6, 1e7
    .venv/bin/python benchmarks/bench_empirical.py --sizes 1e6 1e7 --repeat 3
    .venv/bin/python benchmarks/bench_empirical.py --clock cpu --functions roc_auc_score
    .venv/bin/python benchmarks/bench_empirical.py --probe-numpy-sort   # and the sort kernels
    .venv/bin/python benchmarks/bench_empirical.py --crossover          # numba vs numpy path

For each n (10% positives) and each kind of scores (continuous normal scores; heavily
tied scores rounded to 100 levels), with and without sample weights, it times
``precision_recall_curve``, ``average_precision_score`` and ``roc_auc_score`` of
bayes_prc and scikit-learn on the same arrays (best of ``--repeat`` runs, the two
interleaved, after one untimed warm-up call of each), checks that the answers agree
(curves and ROC AUC exactly, AP to 1e-12), and prints ``speed-up = t_sklearn /
t_bayes_prc`` (> 1 means bayes_prc is faster). Beside them, the floor: NumPy's own
``np.sort`` of the same scores (a copy, best of the same runs), and which kernel counted
in bayes_prc (``counting_kernel``: the numba radix sort or numpy's sorts).

``--clock cpu`` times with :func:`time.process_time` (this process's CPU time), steadier
than the wall clock when other work shares the cores; both libraries run single-threaded
here. Peak memory is the extra memory traced by :mod:`tracemalloc` during one bayes_prc
call, as a multiple of the input arrays' size (labels, scores and weights).

The header states the machine, and which kernel NumPy's ``np.sort`` of float64 uses. NumPy
does not report that: it is inferred from the dispatch targets NumPy was built with
(``__cpu_dispatch__``) and the CPU's features (``__cpu_features__``, as
``np.show_runtime()`` prints them), since NumPy's sort dispatch takes the highest target
the CPU supports: on x86-64, x86-simd-sort's AVX-512 (``X86_V4``/``AVX512_SKX``) or
AVX2 (``X86_V3``/``AVX2``) kernel, else its scalar introsort; on aarch64, Highway's
VQSort. ``--probe-numpy-sort`` checks it: it times ``np.sort`` in subprocesses with the
higher targets switched off (``NPY_DISABLE_CPU_FEATURES``), one line per target. The
first compiled bayes_prc call of a process (importing numba, loading its cached machine
code) is timed in a fresh subprocess and printed too.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from functools import partial

import numpy as np
from sklearn import metrics as skm

import bayes_prc as bp
from bayes_prc.empirical import counting_kernel

FUNCTIONS = ("precision_recall_curve", "average_precision_score", "roc_auc_score")
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _best_times(fns, repeat, clock):
    """Best time of each function over ``repeat`` interleaved rounds (after one untimed
    warm-up call of each), and its output."""
    outs = [fn() for fn in fns]
    best = [np.inf] * len(fns)
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
    elif name == "roc_auc_score":
        assert a == b, (name, a, b)
    else:
        assert abs(a - b) < 1e-12, (name, a, b)


def _peak_ratio(fn, input_bytes):
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / input_bytes


# --------------------------------------------------------------------------------------
# the machine and NumPy's sort kernel
# --------------------------------------------------------------------------------------
_X86_TARGETS = (  # x86-simd-sort kernels of np.sort(float64), best first
    (("X86_V4", "AVX512_SKX"), "x86-simd-sort AVX-512"),
    (("X86_V3", "AVX2"), "x86-simd-sort AVX2"),
)


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def numpy_sort_kernel():
    """``(kernel, how)``: the kernel NumPy's ``np.sort`` of float64 dispatches to here, as
    inferred from NumPy's compiled dispatch targets and the CPU's features."""
    from numpy._core import _multiarray_umath as mu

    built = set(mu.__cpu_dispatch__) | set(mu.__cpu_baseline__)
    has = {k for k, v in mu.__cpu_features__.items() if v}
    machine = platform.machine().lower()
    how = (
        f"inferred: numpy {np.__version__} built for {sorted(built)}, CPU has "
        f"{sorted(t for names, _ in _X86_TARGETS for t in names if t in has) or 'none'}"
    )
    if os.environ.get("NPY_DISABLE_CPU_FEATURES"):
        how += f", NPY_DISABLE_CPU_FEATURES={os.environ['NPY_DISABLE_CPU_FEATURES']}"
    if machine in ("x86_64", "amd64"):
        for names, kernel in _X86_TARGETS:
            if any(t in built and t in has for t in names):
                return kernel, how
        return "scalar introsort (no SIMD sort kernel)", how
    if machine in ("aarch64", "arm64"):
        return "Highway VQSort (ASIMD/SVE)", how
    return "unknown", how


_SORT_PROBE = (
    "import numpy as np, time; x = np.random.default_rng(0).normal(size={n}); best = 9e9\n"
    "for _ in range(3):\n"
    "    y = x.copy(); t = time.process_time(); y.sort(); best = min(best, time.process_time() - t)\n"
    "print(best)"
)


def probe_numpy_sort(n=10_000_000):
    """``[(targets switched off, seconds)]``: np.sort of ``n`` doubles in subprocesses with
    NumPy's higher dispatch targets switched off one level at a time."""
    from numpy._core import _multiarray_umath as mu

    built = [t for t in mu.__cpu_dispatch__ if mu.__cpu_features__.get(t)]
    avx512 = [t for t in built if t.startswith("AVX512") or t == "X86_V4"]
    levels = [("none (as shipped)", [])]
    if avx512:
        levels.append(("AVX-512 (" + " ".join(avx512) + ")", avx512))
    avx2 = [t for t in built if t in ("X86_V3", "AVX2")]
    if avx2:
        levels.append(("AVX-512 and AVX2", avx512 + avx2))
    out = []
    for label, off in levels:
        env = dict(os.environ)
        env.pop("NPY_DISABLE_CPU_FEATURES", None)
        if off:
            env["NPY_DISABLE_CPU_FEATURES"] = " ".join(off)
        proc = subprocess.run(
            [sys.executable, "-c", _SORT_PROBE.format(n=n)], env=env, capture_output=True, text=True
        )
        out.append((label, float(proc.stdout) if proc.returncode == 0 else float("nan")))
    return out


_FIRST_CALL = (
    "import time, numpy as np, sklearn.metrics, bayes_prc as bp\n"
    "y = np.zeros(200_000, dtype=np.int64); y[::10] = 1\n"
    "s = np.random.default_rng(0).normal(size=y.shape[0])\n"
    "t = time.perf_counter(); bp.average_precision_score(y, s); t1 = time.perf_counter()\n"
    "bp.average_precision_score(y, s); t2 = time.perf_counter()\n"
    "print(t1 - t, t2 - t1)"
)


def first_call_seconds():
    """``(first, second)``: wall seconds of the first and second compiled call (AP of 2e5
    samples) in a fresh process that imported scikit-learn already, as a user would."""
    proc = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL], capture_output=True, text=True, check=True
    )
    first, second = proc.stdout.split()
    return float(first), float(second)


def _header(args):
    kernel, how = numpy_sort_kernel()
    try:
        import numba

        numba_version = numba.__version__
    except ImportError:
        numba_version = "not installed"
    print(
        f"machine: {_cpu_name()}, {os.cpu_count()} cores, {platform.machine()}; python "
        f"{platform.python_version()}, numpy {np.__version__}, scikit-learn "
        f"{__import__('sklearn').__version__}, numba {numba_version}"
    )
    print(f"numpy np.sort(float64) kernel: {kernel} ({how})")
    if args.probe_numpy_sort:
        for label, t in probe_numpy_sort():
            print(f"  np.sort of 1e7 doubles, CPU s, targets switched off: {label}: {t:.3f}")
    if counting_kernel(10**7) == "numba":
        first, second = first_call_seconds()
        print(
            f"bayes_prc compiled kernel: first call of a fresh process {first:.2f} s "
            f"(importing numba, loading its cached code), the next {second:.3f} s (AP, n=2e5)"
        )


def crossover(sizes, clock, repeat):
    """Time the counting kernel's two paths (forced) at each size: where numba wins."""
    from bayes_prc.empirical import _counting, binary_clf_counts, positive_rank_counts

    rng = np.random.default_rng(0)
    saved = _counting._NUMBA_MIN_N, _counting._NUMBA_LOAD_N
    print(f"{'n':>9} {'call':>24} {'numba s':>10} {'numpy s':>10} {'numpy/numba':>12}")
    try:
        for n in sizes:
            y = rng.random(n) < 0.1
            s = rng.normal(size=n) + y
            w = rng.uniform(0.5, 2.0, size=n)
            calls = {
                "positive_rank_counts": partial(positive_rank_counts, y, s),
                "binary_clf_counts": partial(binary_clf_counts, y, s),
                "binary_clf_counts(w)": partial(binary_clf_counts, y, s, w),
            }
            reps = max(repeat, int(2e5 // n))
            for name, fn in calls.items():
                times = []
                for min_n in (0, 1 << 62):
                    _counting._NUMBA_MIN_N = _counting._NUMBA_LOAD_N = min_n
                    times.append(_best_times([fn], reps, clock)[0][0])
                print(
                    f"{n:>9.0e} {name:>24} {times[0]:>10.6f} {times[1]:>10.6f} "
                    f"{times[1] / times[0]:>11.2f}x",
                    flush=True,
                )
    finally:
        _counting._NUMBA_MIN_N, _counting._NUMBA_LOAD_N = saved


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
    parser.add_argument("--weights", nargs="+", choices=("no", "yes"), default=["no", "yes"])
    parser.add_argument(
        "--probe-numpy-sort",
        action="store_true",
        help="time np.sort with NumPy's higher SIMD targets switched off (subprocesses)",
    )
    parser.add_argument(
        "--crossover",
        action="store_true",
        help="time the counting kernel's numba and numpy paths at --sizes instead",
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    clock = CLOCKS[args.clock]
    _header(args)
    if args.crossover:
        crossover([int(x) for x in args.sizes], clock, args.repeat)
        return

    header = (
        f"{'n':>9} {'scores':>10} {'weights':>7} {'function':>24} {'kernel':>6} "
        f"{'bayes_prc s':>11} {'sklearn s':>10} {'speed-up':>9} {'np.sort s':>10} "
        f"{'peak mem':>9}"
    )
    print(f"clock: {args.clock}; best of {args.repeat} (n > 1e6: {max(1, args.repeat - 1)})")
    print(header)
    print("-" * len(header))
    for n in (int(x) for x in args.sizes):
        y = (rng.random(n) < 0.1).astype(np.int64)
        cont = rng.normal(size=n) + y
        tied = np.round(cont * 20) / 20  # ~100-200 distinct levels
        weights = rng.uniform(0.5, 2.0, size=n)
        kernel = counting_kernel(n)
        for kind, s in (("continuous", cont), ("tied", tied)):
            if kind not in args.kinds:
                continue
            reps = args.repeat if n <= 1e6 else max(1, args.repeat - 1)
            t_sort = _best_times((partial(np.sort, s),), reps, clock)[0][0]
            for w in (None, weights):
                if ("no" if w is None else "yes") not in args.weights:
                    continue
                input_bytes = y.nbytes + s.nbytes + (0 if w is None else w.nbytes)
                for name in args.functions:
                    ours = partial(getattr(bp, name), y, s, sample_weight=w)
                    theirs = partial(getattr(skm, name), y, s, sample_weight=w)
                    (t_ours, t_theirs), (a, b) = _best_times((ours, theirs), reps, clock)
                    _check_same(name, a, b)
                    peak = _peak_ratio(ours, input_bytes)
                    print(
                        f"{n:>9.0e} {kind:>10} {'yes' if w is not None else 'no':>7} "
                        f"{name:>24} {kernel:>6} {t_ours:>11.4f} {t_theirs:>10.4f} "
                        f"{t_theirs / t_ours:>8.1f}x {t_sort:>10.4f} {peak:>8.2f}x",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
