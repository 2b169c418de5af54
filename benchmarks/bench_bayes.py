"""Bayesian binormal fit: cost vs n, exact vs NUTS, and post-processing of 4000 draws.

Usage::

    .venv/bin/python benchmarks/bench_bayes.py

Prints, in one run:

* NUTS fit time at n = 1e3 and n = 1e6 (the likelihood uses per-class sufficient
  statistics, so the ratio should stay near 1; goal <= 1.5). Each is the second of two
  fits (the first pays PyTensor's compilation, which is cached across fits);
* exact (conjugate) vs NUTS fit time at n = 1e3 (goal: exact >= 100x faster);
* AP for 4000 posterior draws and a 4000-draw x 500-point pointwise and simultaneous PR
  band (goal: each under 0.5 s);
* the semiparametric (rank-based) model at n = 1e3: its fast sampler (nested Laplace
  grid, 4000 draws, AP included; goal under 0.5 s) vs its NUTS fit (second of two fits).

The first three items are about the parametric model (``model="parametric"``).

NUTS start-up (issue 14): each PyMC model is compiled once per process and reused by
later fits of other data of the same structure (``bayes_prc.bayes._compiled``). The last
table runs every NUTS fit kind at n = 1e3 in a fresh process: the first fit (cold:
imports done, nothing compiled) and a second fit with different data of the same kind
(warm), wall and CPU seconds and the cold / warm ratio. Goals: binormal and
semiparametric under 10 s cold and 3 s warm; paired and score models under 20 s. The
sampler column says whose NUTS ran (nutpie when installed, else PyMC's). Measured on the
shared 2-core box (load 3-5), draws=tune=1000, 4 chains, cores=1::

                      before (HEAD 74f09a6, PyMC)   after, PyMC NUTS    after, nutpie
    kind              cold wall   warm wall         cold    warm        cold    warm
    (filled in from runs of this script; see the issue-14 report)

Run ``--cold-warm KIND`` to time one kind (used by the table, one process each).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings

import numpy as np

import bayes_prc as bp


def _timed(fn, repeat=1):
    best = np.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main():
    truth = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.1)
    data = {n: truth.sample(n, random_seed=n) for n in (1_000, 1_000_000)}

    def nuts(n):
        y, s = data[n]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bp.fit_binormal(
                y,
                s,
                model="parametric",
                method="nuts",
                draws=1000,
                chains=4,
                cores=1,
                random_seed=1,
                progressbar=False,
            )

    nuts(1_000)  # warm-up: compilation
    t_small, _ = _timed(lambda: nuts(1_000))
    t_large, post = _timed(lambda: nuts(1_000_000))
    y, s = data[1_000]
    t_exact, exact = _timed(
        lambda: bp.fit_binormal(
            y, s, model="parametric", method="exact", draws=1000, chains=4, random_seed=1
        ),
        repeat=3,
    )
    t_ap, _ = _timed(lambda: exact.model.average_precision(), repeat=3)
    grid = np.linspace(0, 1, 500)
    t_band, _ = _timed(lambda: exact.pr_band(recall=grid), repeat=3)
    t_sband, _ = _timed(lambda: exact.pr_band(recall=grid, kind="simultaneous"), repeat=3)

    def semi(method):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            post = bp.fit_binormal(
                y, s, method=method, draws=1000, chains=4, cores=1, random_seed=1, progressbar=False
            )
            return post.average_precision()

    semi("nuts")  # warm-up: compilation
    t_semi_nuts, _ = _timed(lambda: semi("nuts"))
    t_semi_fast, _ = _timed(lambda: semi("laplace"), repeat=3)

    print(f"NUTS fit, n = 1e3:                 {t_small:8.3f} s")
    print(f"NUTS fit, n = 1e6:                 {t_large:8.3f} s")
    print(f"  ratio n=1e6 / n=1e3:             {t_large / t_small:8.2f}   (goal <= 1.5)")
    print(f"exact fit, n = 1e3 (4000 draws):   {t_exact:8.3f} s")
    print(f"  speed-up exact vs NUTS:          {t_small / t_exact:8.1f}x  (goal >= 100x)")
    print(f"AP of 4000 draws:                  {t_ap:8.3f} s   (goal < 0.5 s)")
    print(f"band 4000 x 500, pointwise:        {t_band:8.3f} s   (goal < 0.5 s)")
    print(f"band 4000 x 500, simultaneous:     {t_sband:8.3f} s   (goal < 0.5 s)")
    print(f"semiparametric fast fit + AP, n=1e3: {t_semi_fast:6.3f} s   (goal < 0.5 s)")
    print(f"semiparametric NUTS fit + AP, n=1e3: {t_semi_nuts:6.3f} s")
    print(f"  speed-up fast vs NUTS:           {t_semi_nuts / t_semi_fast:8.1f}x")
    cold_warm_table()


# ------------------------------------------------------------------------------------
# cold and warm NUTS fits, one fresh process per kind
# ------------------------------------------------------------------------------------
KINDS = ("parametric", "semiparametric", "paired", "score:binormal", "score:bi_t", "score:mixture")


def _data(seed, n=1_000, n_pos=100):
    """Labels with a fixed number of positives (so the rank model's categories, hence its
    compiled structure, are the same for every seed) and binormal scores."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n - n_pos, dtype=int)]
    s = np.where(y == 1, rng.normal(1.0, 1.0, n), rng.normal(0.0, 1.0, n))
    return y, s, s + rng.normal(0.0, 0.5, n)  # a second, correlated classifier


def _fit_kind(kind, seed):
    from bayes_prc.criticism import fit_score_models
    from bayes_prc.paired import compare_classifiers

    y, s, s2 = _data(seed)
    kw = dict(draws=1000, tune=1000, chains=4, cores=1, random_seed=1, progressbar=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind in ("parametric", "semiparametric"):
            return bp.fit_binormal(y, s, model=kind, method="nuts", **kw)
        if kind == "paired":
            return compare_classifiers(y, s, s2, bayes_method="nuts", model="parametric", **kw)
        return fit_score_models(y, s, models=(kind.split(":")[1],), **kw)


def _cold_warm(kind):
    try:
        from bayes_prc.bayes._compiled import sampler_name

        sampler = sampler_name()
    except ImportError:  # before the cache existed
        sampler = "pymc (no cache)"
    out = {"kind": kind, "sampler": sampler}
    for label, seed in (("cold", 1), ("warm", 2)):
        t0, c0 = time.perf_counter(), time.process_time()
        _fit_kind(kind, seed)
        out[label] = time.perf_counter() - t0
        out[label + "_cpu"] = time.process_time() - c0
    return out


def cold_warm_table(kinds=KINDS):
    """Each kind in a fresh process: first fit (cold) then a fit of other data (warm)."""
    print("\nNUTS fits at n = 1e3, fresh process per kind (wall s / CPU s)")
    print(f"{'kind':16s} {'sampler':16s} {'cold':>14s} {'warm':>14s} {'cold/warm':>9s}")
    for kind in kinds:
        res = subprocess.run(
            [sys.executable, __file__, "--cold-warm", kind],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(res.stdout.strip().splitlines()[-1])
        cold = f"{r['cold']:6.1f} /{r['cold_cpu']:6.1f}"
        warm = f"{r['warm']:6.1f} /{r['warm_cpu']:6.1f}"
        print(
            f"{kind:16s} {r['sampler']:16s} {cold:>14s} {warm:>14s} {r['cold'] / r['warm']:9.1f}",
            flush=True,
        )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--cold-warm":
        print(json.dumps(_cold_warm(sys.argv[2])))
    elif len(sys.argv) > 1 and sys.argv[1] == "--table":
        cold_warm_table(sys.argv[2:] or KINDS)
    else:
        main()
