"""bayes_prc past one machine: binned AP and binormal statistics of 1e8 rows on dask.

Usage::

    .venv/bin/python benchmarks/bench_dask.py                  # n = 1e8, exact check at 1e7
    .venv/bin/python benchmarks/bench_dask.py --n 2e7 --n-exact 2e6 --chunk 1e6
    .venv/bin/python benchmarks/bench_dask.py --exact-big      # + exact AP of the 1e8 rows

The data are generated lazily, block by block, by ``dask.array.random`` with a fixed seed
(10% positives; scores N(0, 1) for negatives and N(1.5, 1) for positives): they never
exist in the driver. On a ``LocalCluster`` of 2 worker processes (1 thread each) the
script times

1. ``binned_pr_curve``: the binned AP with its error bound, what
   ``average_precision_score`` computes past ``max_exact`` (two passes: scan, histogram);
   with ``--exact-big`` also the exact AP of the same rows, gathered into the driver,
2. ``class_statistics`` (one pass) and the exact-posterior ``fit_binormal`` on the same
   data,
3. at ``--n-exact`` rows: the exact AP (data gathered into the driver) against the
   binned AP and its bound,

and prints the wall time and the peak resident memory of each worker process (its
``VmHWM``; each step runs on a fresh cluster, so each peak is that step's).
Not part of the test suite: it takes a few minutes.
"""

from __future__ import annotations

import argparse
import logging
import resource
import time

import numpy as np


def _peak_rss_mib():
    """Peak resident memory of this process in MiB.

    ``VmHWM`` of /proc/self/status where available: unlike ``ru_maxrss``, which a spawned
    worker inherits from the process that started it (it survives ``execve``), it covers
    this process image only.
    """
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _data(n, chunk, seed, prevalence=0.1, shift=1.5):
    import dask.array as da

    rng = da.random.default_rng(seed)
    y = rng.random(n, chunks=chunk) < prevalence
    s = rng.standard_normal(n, chunks=chunk) + shift * y
    return y, s


class _Cluster:
    """A fresh LocalCluster and Client per step, so each worker's peak RSS is that step's."""

    def __init__(self, workers):
        self.workers = workers

    def __enter__(self):
        from dask.distributed import Client, LocalCluster

        self.cluster = LocalCluster(
            n_workers=self.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            memory_limit="6GiB",
            silence_logs=logging.ERROR,
        )
        self.client = Client(self.cluster)
        self.client.run(lambda: [__import__(m) for m in ("bayes_prc.scale", "dask.array")])
        return self.client

    def __exit__(self, *exc):
        self.client.close()
        self.cluster.close()


def _worker_peaks(client):
    peaks = client.run(_peak_rss_mib)
    return ", ".join(f"{v:,.0f}" for v in peaks.values()) + " MiB"


def _timed(workers, fn):
    """``fn()`` on a fresh cluster: (result, wall seconds, peak RSS per worker)."""
    with _Cluster(workers) as client:
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        return out, dt, _worker_peaks(client)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e8, help="rows of the big run")
    parser.add_argument("--n-exact", type=float, default=1e7, help="rows of the exact check")
    parser.add_argument("--chunk", type=float, default=2e6, help="rows per block")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bins", type=int, default=None, help="default: scale's default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--exact-big",
        action="store_true",
        help="also gather the n rows and compute their exact AP (about 32 bytes per row "
        "in the driver: 3.2 GB at 1e8) to check the bound of step 1",
    )
    args = parser.parse_args(argv)

    import bayes_prc as bp
    from bayes_prc import scale

    n, n_exact, chunk = int(args.n), int(args.n_exact), int(args.chunk)
    if args.bins is not None:
        scale.set_options(bins=args.bins)
    print(f"{args.workers} workers x 1 thread (one LocalCluster per step); blocks of {chunk:,}")
    print(f"scale options: {scale.get_options()}\n")
    rows = []

    # 1. binned AP of n rows (what average_precision_score does past max_exact)
    y, s = _data(n, chunk, args.seed)
    res, dt, peaks = _timed(args.workers, lambda: scale.binned_pr_curve(y, s))
    rows.append((f"binned AP, n = {n:.0e}", dt, peaks))
    print(
        f"binned AP (n = {n:,}): {res.average_precision:.6f}, error bound "
        f"{res.ap_error_bound:.2e}, exact AP in [{res.ap_low:.6f}, {res.ap_high:.6f}], "
        f"{res.n_bins:,} non-empty bins, {dt:.1f} s"
    )

    if args.exact_big:
        with scale.set_options(max_exact=n):
            exact, dt, peaks = _timed(args.workers, lambda: bp.average_precision_score(y, s))
        rows.append((f"exact AP, n = {n:.0e} (gathered)", dt, peaks))
        print(
            f"exact AP (n = {n:,}): {exact:.8f}, {dt:.1f} s; binned error "
            f"{res.average_precision - exact:+.2e} (bound {res.ap_error_bound:.2e}, exact "
            f"in [ap_low, ap_high]: {res.ap_low <= exact <= res.ap_high})"
        )

    # 2. sufficient statistics, and the exact-posterior fit (the same pass + the posterior)
    (neg, pos), dt, peaks = _timed(args.workers, lambda: scale.class_statistics(y, s))
    rows.append((f"class statistics, n = {n:.0e}", dt, peaks))
    print(
        f"class statistics (n = {n:,}): neg n={neg.n:,} mean={neg.mean:.5f} "
        f"sd={np.sqrt(neg.ss / neg.n):.5f}; pos n={pos.n:,} mean={pos.mean:.5f} "
        f"sd={np.sqrt(pos.ss / pos.n):.5f}; {dt:.1f} s"
    )
    bp.fit_binormal(
        y[:1000], s[:1000], model="parametric", method="exact", draws=10
    )  # import PyMC side once
    post, dt, peaks = _timed(
        args.workers,
        lambda: bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0),
    )
    rows.append((f"fit_binormal(exact), n = {n:.0e}", dt, peaks))
    ap_post = post.average_precision()
    print(
        f"fit_binormal(method='exact'), pass included: {dt:.1f} s; posterior AP mean "
        f"{float(ap_post.mean()):.6f}, sd {float(ap_post.std()):.2e}"
    )

    # 3. exact against binned at n_exact rows
    y, s = _data(n_exact, chunk, args.seed + 1)
    exact, dt_exact, peaks = _timed(args.workers, lambda: bp.average_precision_score(y, s))
    rows.append((f"exact AP, n = {n_exact:.0e} (gathered)", dt_exact, peaks))
    res, dt_b, peaks = _timed(args.workers, lambda: scale.binned_pr_curve(y, s))
    rows.append((f"binned AP, n = {n_exact:.0e}", dt_b, peaks))
    err = res.average_precision - exact
    print(
        f"n = {n_exact:,}: exact AP {exact:.8f} ({dt_exact:.1f} s), binned "
        f"{res.average_precision:.8f} ({dt_b:.1f} s): error {err:+.2e}, bound "
        f"{res.ap_error_bound:.2e} (exact in [{res.ap_low:.8f}, {res.ap_high:.8f}]: "
        f"{res.ap_low <= exact <= res.ap_high})"
    )

    print(f"\ndriver peak RSS: {_peak_rss_mib():,.0f} MiB\n")
    print(f"{'step':<40}{'wall s':>8}   peak RSS per worker")
    for name, dt, peaks in rows:
        print(f"{name:<40}{dt:>8.1f}   {peaks}")


if __name__ == "__main__":
    main()
