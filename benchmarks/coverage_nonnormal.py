"""Coverage of AP intervals on score populations that break the binormal assumption.

Usage::

    .venv/bin/python benchmarks/coverage_nonnormal.py --n 200 --n-rep 200 --seed 0
    .venv/bin/python benchmarks/coverage_nonnormal.py --n 1000 --n-rep 100 --seed 1 \\
        --populations gamma_skewed hard_negatives --out /tmp/cov.csv

For each population of :mod:`bayes_prc.populations` it draws ``--n-rep`` data sets of
``--n`` items, runs :func:`bayes_prc.compare_intervals` on each (``ci_prob`` default 0.9,
``transform`` of the population, every default row plus ``cross_validation``) and counts
how often each row's ``[low, high]`` contains the population's true AP. The column
``recommended`` is the coverage of the row named by ``attrs["recommended"]`` in each data
set (whichever row that was). A second table gives, per population, the share of data
sets in which each fit check passed and in which the parametric ``binormal_eti`` or the
rank-based ``semiparametric_eti`` was the recommended row, and the mean interval widths.

The Bayesian rows are intervals for the model's AP, the frequentist rows for the
empirical AP estimator; both are scored against the same target, the population AP.
Progress goes to stderr, the markdown tables to stdout, one row per data set and method
to ``--out`` (CSV) if given.
"""

from __future__ import annotations

import os

# one BLAS thread per worker process (set before numpy is imported)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from concurrent.futures import ProcessPoolExecutor, as_completed  # noqa: E402

import numpy as np  # noqa: E402

from bayes_prc.compare import AP_COMPARISON_METHODS, DEFAULT_AP_METHODS  # noqa: E402
from bayes_prc.populations import POPULATIONS, population  # noqa: E402

DEFAULT_METHODS = DEFAULT_AP_METHODS + ("cross_validation",)


def simulate_one(name, n, data_seed, method_seed, ci_prob, n_resamples, methods):
    """One data set: a list of per-row records and one summary record."""
    from bayes_prc import compare_intervals

    pop = population(name)
    y, s = pop.sample(n, random_seed=data_seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = compare_intervals(
            y,
            s,
            ci_prob=ci_prob,
            methods=methods,
            transform=pop.transform,
            random_seed=method_seed,
            n_resamples=n_resamples,
        )
    rec = df.attrs["recommended"]
    rows = []
    for method, r in df.iterrows():
        rows.append(
            {
                "population": name,
                "method": method,
                "estimate": float(r["estimate"]),
                "low": float(r["low"]),
                "high": float(r["high"]),
                "covered": bool(r["low"] <= pop.true_ap <= r["high"]),
                "recommended": method == rec,
            }
        )
    checks = df.attrs.get("fit_checks", {})
    summary = {
        "population": name,
        "n_pos": int(y.sum()),
        "recommended": rec,
        "recommended_covered": (
            bool(df.loc[rec, "low"] <= pop.true_ap <= df.loc[rec, "high"])
            if rec is not None
            else None
        ),
        "fit_checks": {m: (bool(c.passed), float(c.p_value)) for m, c in checks.items()},
    }
    return rows, summary


def run_study(
    names, n, n_rep, *, ci_prob=0.9, n_resamples=500, seed=0, methods=None, workers=2, progress=True
):
    """Run every (population, replicate); returns (rows, summaries) as lists of dicts."""
    methods = tuple(DEFAULT_METHODS if methods is None else methods)
    root = np.random.SeedSequence(seed)
    jobs = []
    for name, pop_seq in zip(names, root.spawn(len(names)), strict=True):
        for rep, rep_seq in enumerate(pop_seq.spawn(n_rep)):
            data_seq, method_seq = rep_seq.spawn(2)
            jobs.append((name, rep, data_seq, method_seq))
    all_rows, summaries = [], []
    t0 = time.perf_counter()

    def record(job, result):
        name, rep = job[0], job[1]
        rows, summary = result
        for r in rows:
            r["rep"] = rep
            r["n"] = n
        summary["rep"] = rep
        all_rows.extend(rows)
        summaries.append(summary)
        done = len(summaries)
        if progress and (done % max(1, len(jobs) // 50) == 0 or done == len(jobs)):
            el = time.perf_counter() - t0
            print(
                f"[{done}/{len(jobs)}] {el:.0f}s elapsed, ~{el / done * (len(jobs) - done):.0f}s "
                f"left (last: {name} rep {rep})",
                file=sys.stderr,
                flush=True,
            )

    def args(job):
        name, _, data_seq, method_seq = job
        return (name, n, data_seq, method_seq, ci_prob, n_resamples, methods)

    if workers <= 1:
        for job in jobs:
            record(job, simulate_one(*args(job)))
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            futures = {ex.submit(simulate_one, *args(job)): job for job in jobs}
            for fut in as_completed(futures):
                record(futures[fut], fut.result())
    return all_rows, summaries


def coverage_tables(rows, summaries, names, methods, n_rep):
    """The markdown tables (coverage; fit checks, recommendations and widths)."""
    import pandas as pd

    long = pd.DataFrame(rows)
    summ = pd.DataFrame(summaries)
    present = [m for m in methods if m in set(long["method"])]
    cov = long.pivot_table(index="population", columns="method", values="covered", aggfunc="mean")
    cnt = long.pivot_table(index="population", columns="method", values="covered", aggfunc="size")
    long["width"] = long["high"] - long["low"]
    wid = long.pivot_table(index="population", columns="method", values="width", aggfunc="mean")
    lines = ["| population | true AP | " + " | ".join(present) + " | recommended |"]
    lines.append("|---" * (len(present) + 3) + "|")
    notes = []
    for name in names:
        cells = []
        for m in present:
            if m in cov.columns and name in cov.index and not np.isnan(cov.loc[name, m]):
                cells.append(f"{cov.loc[name, m]:.3f}")
                if cnt.loc[name, m] < n_rep:
                    notes.append(f"{name}/{m}: row present in {int(cnt.loc[name, m])} of {n_rep}")
            else:
                cells.append("-")
        s = summ[summ["population"] == name]
        rc = s["recommended_covered"].dropna().astype(float)
        cells.append(f"{rc.mean():.3f}" if len(rc) else "-")
        if len(rc) < len(s):
            notes.append(f"{name}: no recommended row in {len(s) - len(rc)} of {len(s)}")
        lines.append(f"| {name} | {POPULATIONS[name].true_ap:.4f} | " + " | ".join(cells) + " |")
    out = ["\n".join(lines)]
    if notes:
        out.append("Notes: " + "; ".join(notes) + ".")

    models = sorted({m for fc in summ["fit_checks"] for m in fc})
    rec_rows = sorted(set(summ["recommended"].dropna()) | {"binormal_eti", "semiparametric_eti"})
    head = (
        ["population", "mean n_pos"]
        + [f"{m} check passed" for m in models]
        + [f"rec. {r}" for r in rec_rows]
    )
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name in names:
        s = summ[summ["population"] == name]
        cells = [name, f"{s['n_pos'].mean():.1f}"]
        for m in models:
            passed = [fc[m][0] for fc in s["fit_checks"] if m in fc]
            cells.append(f"{np.mean(passed):.3f}" if passed else "-")
        for r in rec_rows:
            cells.append(f"{(s['recommended'] == r).mean():.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    out.append("\n".join(lines))

    lines = ["| population | " + " | ".join(present) + " |", "|---" * (len(present) + 1) + "|"]
    for name in names:
        cells = [
            f"{wid.loc[name, m]:.3f}" if m in wid.columns and name in wid.index else "-"
            for m in present
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("Mean interval width:\n\n" + "\n".join(lines))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="items per data set")
    parser.add_argument("--n-rep", type=int, default=200, help="data sets per population")
    parser.add_argument(
        "--populations", nargs="+", default=list(POPULATIONS), choices=list(POPULATIONS)
    )
    parser.add_argument("--ci-prob", type=float, default=0.9)
    parser.add_argument("--n-resamples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--methods", nargs="+", default=list(DEFAULT_METHODS), choices=list(AP_COMPARISON_METHODS)
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (1: sequential)")
    parser.add_argument("--out", help="CSV of every (data set, method) row")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    rows, summaries = run_study(
        args.populations,
        args.n,
        args.n_rep,
        ci_prob=args.ci_prob,
        n_resamples=args.n_resamples,
        seed=args.seed,
        methods=args.methods,
        workers=args.workers,
    )
    elapsed = time.perf_counter() - t0
    tables = coverage_tables(rows, summaries, args.populations, args.methods, args.n_rep)
    print(
        f"Coverage of nominal {args.ci_prob:g} intervals for the population AP: n = {args.n}, "
        f"{args.n_rep} data sets per population, {args.n_resamples} resamples, "
        f"seed {args.seed}.\n"
    )
    print(tables[0] + "\n")
    for p in (args.ci_prob, 0.8):
        se = np.sqrt(p * (1 - p) / args.n_rep)
        print(f"Monte-Carlo SE of a coverage near {p:g}: sqrt(p(1-p)/{args.n_rep}) = {se:.3f}.")
    print()
    for t in tables[1:]:
        print(t + "\n")
    print(f"Run time: {elapsed:.0f} s with {args.workers} worker(s).")
    if args.out:
        import pandas as pd

        long = pd.DataFrame(rows)
        summ = pd.DataFrame(summaries)
        summ["fit_checks"] = summ["fit_checks"].astype(str)
        long = long.merge(
            summ[["population", "rep", "n_pos", "fit_checks"]], on=["population", "rep"]
        )
        long.to_csv(args.out, index=False)
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
