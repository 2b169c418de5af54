"""Time and peak memory of ``bayes-prc report`` as n grows, and the error of large-n shortcuts.

Usage::

    .venv/bin/python benchmarks/bench_report.py                      # n = 1e4, 1e5, 1e6
    .venv/bin/python benchmarks/bench_report.py --sizes 1e6 --repeat 2
    .venv/bin/python benchmarks/bench_report.py --sizes 1e7 --dask   # Parquet, read lazily
    .venv/bin/python benchmarks/bench_report.py --accuracy           # per-bin bootstrap error

For each n it writes a CSV of binormal scores (10% positives; Parquet with ``--dask``),
runs the command line in a fresh process and prints the wall time and the peak resident
memory of that process (``resource.getrusage(RUSAGE_CHILDREN)``), against the goals of
issue 13: 1e6 rows under 20 s and 1 GB (bar: 60 s and 3 GB), and the growth factor per
tenfold n.

``--accuracy`` measures the one approximation of the large-n path: for n >= 100 000 the
bootstrap draws class counts per score bin with the positives merged into at most 2000
bins (bayes_prc.frequentist._aggregate). On the same 40 per-item resamples it compares the
exact AP with the merged-bin AP plus the data's shift and prints the largest error and its
ratio to the bootstrap standard deviation.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _write_data(n, path, seed):
    from bayes_prc.binormal import Binormal

    y, s = Binormal(1.5, 1.0, 0.0, 1.0, 0.1).sample(n, random_seed=seed)
    import pandas as pd

    df = pd.DataFrame({"y": y.astype(np.int8), "s": s})
    if path.suffix == ".parquet":
        df.to_parquet(path)
    else:
        df.to_csv(path, index=False)


def _run_report(data, out, dask):
    cmd = [
        sys.executable,
        "-m",
        "bayes_prc.cli",
        "report",
        str(data),
        "--score",
        "s",
        "--label",
        "y",
        "-o",
        str(out),
        "--force",
        "--no-progress",
        "--seed",
        "0",
    ]
    if dask:
        cmd.append("--dask")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest child so far (KiB on Linux)
    return wall, max(peak, before) / 2**20


def _accuracy(n, seed):
    from bayes_prc.binormal import Binormal
    from bayes_prc.empirical import as_ranked
    from bayes_prc.frequentist._aggregate import MAX_GROUPS, coarsen
    from bayes_prc.frequentist._engine import _ap_from_binned, _Bins

    y, s = Binormal(1.5, 1.0, 0.0, 1.0, 0.1).sample(n, random_seed=seed)
    bins = _Bins(as_ranked(y, s))
    k = bins.n_groups
    cp0, cn0 = bins.data_counts
    cp_m, cn_m, g = coarsen(np.append(cp0[0], 0.0), cn0[0], k)
    shift = _ap_from_binned(cp0, cn0)[0] - _ap_from_binned(cp_m[None, :g], cn_m[None])[0]
    pos = cp0[0]
    before = np.cumsum(pos) - pos
    merged = np.floor(before * (MAX_GROUPS / pos.sum())).astype(np.int64)
    _, merged = np.unique(merged, return_inverse=True)
    rng = np.random.default_rng(seed + 1)
    exact, approx = [], []
    for _ in range(40):
        cp = np.bincount(bins.pos_group[rng.integers(0, bins.n_pos, bins.n_pos)], minlength=k)
        cn = np.bincount(bins.neg_bin[rng.integers(0, bins.n_neg, bins.n_neg)], minlength=k + 1)
        cp, cn = cp.astype(float), cn.astype(float)
        exact.append(_ap_from_binned(cp[None], cn[None])[0])
        a = np.bincount(merged, weights=cp, minlength=g)
        b = np.bincount(np.append(merged, g), weights=cn, minlength=g + 1)
        approx.append(_ap_from_binned(a[None], b[None])[0] + shift)
    err = np.abs(np.array(approx) - np.array(exact))
    sd = np.std(exact)
    print(
        f"n={n:>9,}  positive groups {k:>7,} -> {g:,} bins  shift {shift:+.2e}  "
        f"max |error| {err.max():.2e}  bootstrap sd {sd:.2e}  ratio {err.max() / sd:.3f}"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--dask", action="store_true", help="Parquet input read with --dask")
    ap.add_argument("--accuracy", action="store_true", help="error of the per-bin bootstrap")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.accuracy:
        for n in (int(x) for x in args.sizes):
            if n >= 100_000:
                _accuracy(n, args.seed)
        return
    print(
        f"{'n':>12} {'wall s (best)':>14} {'peak GB':>8}   goal at 1e6: 20 s, 1 GB (bar 60 s, 3 GB)"
    )
    prev = prev_n = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes):
            data = Path(tmp, f"scores_{n}.{'parquet' if args.dask else 'csv'}")
            _write_data(n, data, args.seed)
            runs = [_run_report(data, Path(tmp, "r.html"), args.dask) for _ in range(args.repeat)]
            wall = min(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            growth = "" if prev is None else f"   x{wall / prev:.1f} time per x{n / prev_n:.0f} n"
            print(f"{n:>12,} {wall:>14.1f} {peak:>8.2f}{growth}", flush=True)
            prev, prev_n = wall, n


if __name__ == "__main__":
    main()
