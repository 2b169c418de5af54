"""Family-wise coverage and size of the rank sets of ``compare_models``.

k classifiers score the same items: each is the item's latent signal plus noise of its
own size (two classifiers share a noise size, so their true metrics are equal: a true
tie). The true AP of each classifier is its AP on a population of 400,000 items. For each
data set (n items, prevalence 0.3): does the simultaneous rank set hold all k true ranks
at once (rank = 1 + number of models with a strictly higher true metric)? Each model's
interval its own metric? Is a truly tied pair declared different? Average rank-set
length (rank_high - rank_low + 1). Monte Carlo errors: binomial, sqrt(p(1-p)/reps).

Run: python benchmarks/coverage_ranking.py --k 5 --n 300 --reps 200 --ci-prob 0.9 --seed 1
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import bayes_prc as bp


def population(k, rng, equal=False):
    """Noise sizes of k classifiers: spread from good to weak, the first two equal.

    ``equal``: all k equal (k exchangeable classifiers, every true rank 1).
    """
    if equal:
        return np.full(k, 1.0)
    sizes = np.linspace(0.6, 1.6, k)
    sizes[1] = sizes[0]
    return sizes


def sample(n, sizes, prevalence, rng, cluster_size=1):
    y = (rng.random(n) < prevalence).astype(int)
    signal = 1.2 * y
    if cluster_size > 1:  # a shared effect per cluster of items
        shared = np.repeat(rng.normal(0, 0.8, n // cluster_size + 1), cluster_size)[:n]
        signal = signal + shared
    noise = rng.normal(size=(n, sizes.size)) * sizes
    return y, signal[:, None] + noise


def true_metrics(sizes, prevalence, rng, metric, cluster_size=1):
    y, s = sample(400_000, sizes, prevalence, rng, cluster_size)
    f = bp.average_precision_score if metric == "average_precision" else bp.roc_auc_score
    return np.array([f(y, s[:, j]) for j in range(sizes.size)])


def true_ranks(theta, tol):
    # metrics within tol are equal (the tied pair differs by Monte Carlo error only)
    return 1 + np.sum(theta[None, :] > theta[:, None] + tol, axis=1)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--prevalence", type=float, default=0.3)
    ap.add_argument("--metric", default="average_precision")
    ap.add_argument("--cluster-size", type=int, default=1)
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--equal", action="store_true", help="all k classifiers equally good")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    sizes = population(args.k, rng, args.equal)
    theta = true_metrics(sizes, args.prevalence, rng, args.metric, args.cluster_size)
    tol = 2e-3
    ranks = true_ranks(theta, tol)
    tied = [(0, 1)]
    names = [f"model_{j}" for j in range(args.k)]
    stats = {
        m: {"fw": [], "cover": [], "length": [], "false_tie": []}
        for m in ("max_t", "bayesian_bootstrap")
    }
    t0 = time.perf_counter()
    for _ in range(args.reps):
        y, s = sample(args.n, sizes, args.prevalence, rng, args.cluster_size)
        groups = None
        if args.cluster_size > 1:
            groups = np.arange(args.n) // args.cluster_size
        res = bp.compare_models(
            y,
            s,
            metric=args.metric,
            ci_prob=args.ci_prob,
            groups=groups,
            n_resamples=args.n_resamples,
            random_seed=rng,
        )
        for m, frames in res.attrs["methods"].items():
            t = frames["table"].loc[names]
            lo, hi = t["rank_low"].to_numpy(), t["rank_high"].to_numpy()
            stats[m]["fw"].append(bool(np.all((lo <= ranks) & (ranks <= hi))))
            stats[m]["cover"].append(((t["low"] <= theta) & (theta <= t["high"])).to_numpy())
            stats[m]["length"].append(float(np.mean(hi - lo + 1)))
            pairs = frames["pairs"]
            for a, b in tied:
                key = (names[a], names[b])
                key = key if key in pairs.index else key[::-1]  # pairs read best first
                stats[m]["false_tie"].append(pairs.loc[key, "verdict"] != "cannot be told apart")
    secs = time.perf_counter() - t0
    print(
        f"k={args.k} n={args.n} reps={args.reps} ci_prob={args.ci_prob} metric={args.metric} "
        f"cluster_size={args.cluster_size}; true metrics {np.round(theta, 3)}, ranks {ranks}; "
        f"{secs / args.reps:.2f} s per data set"
    )
    for m, st in stats.items():
        fw = np.mean(st["fw"])
        cov = np.mean(st["cover"], axis=0)
        ft = np.mean(st["false_tie"])
        se = lambda p: np.sqrt(p * (1 - p) / args.reps)  # noqa: E731
        print(
            f"{m:20s} family-wise {fw:.3f} ({se(fw):.3f}); per-model coverage "
            f"{np.round(cov, 3)} (MC error about {se(0.9):.3f}); mean rank-set length "
            f"{np.mean(st['length']):.2f}; tied pair declared different {ft:.3f} ({se(ft):.3f})"
        )


if __name__ == "__main__":
    main()
