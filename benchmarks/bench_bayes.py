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
"""

from __future__ import annotations

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
            return bp.fit_binormal(y, s, model="parametric", method="nuts", draws=1000,
                                   chains=4, cores=1, random_seed=1, progressbar=False)  # fmt: skip

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
            post = bp.fit_binormal(y, s, method=method, draws=1000, chains=4, cores=1,
                                   random_seed=1, progressbar=False)  # fmt: skip
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


if __name__ == "__main__":
    main()
