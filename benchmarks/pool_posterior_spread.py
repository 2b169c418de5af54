"""Is fit_pool's AP interval wide because of the data, or because the posterior says so?

For one pool (as in ``coverage_pool.py``: 200 000 items, prevalence 1%) and ``R``
stratified selections of 400 labels, compares two spreads of the pool's AP and of its
number of positives ``P``:

- the mean *posterior* standard deviation (what the interval reports), and
- the spread of the posterior mean *over selections* (and, for the AP, its
  root-mean-square error against the pool's AP): what repeated labelling shows.

A calibrated 90% interval has posterior sd close to the RMSE. When the posterior sd
exceeds it, the interval over-covers; the within-posterior correlation of AP and ``P``
tells whether the pool's positive count (mostly decided in the low ranks, where the
labels find few positives) is what widens it.

Command (about 1 min per population on one core for R = 40 at 400 labels)::

    .venv/bin/python benchmarks/pool_posterior_spread.py --seed 11 --selections 40 \
        --populations gamma_skewed hard_negatives
    .venv/bin/python benchmarks/pool_posterior_spread.py --seed 11 --selections 40 \
        --populations classifier_probabilities --budget 800    # and --budget 200

Measured (seed 11, 40 selections, 400 labels)::

    gamma_skewed (pool AP 0.1057, P 1994, 787 below rank 20000)
      AP: posterior sd 0.0311, sd of posterior mean 0.0257, RMSE 0.0265
      P:  posterior sd 1047, sd of posterior mean 687, mean of posterior mean 2430
      posterior corr(AP, P) -0.43; AP bias (mean posterior mean - pool AP) +0.0062
    hard_negatives (pool AP 0.0545, P 1994, 883 below rank 20000)
      AP: posterior sd 0.0143, sd of posterior mean 0.0124, RMSE 0.0138
      P:  posterior sd 1401, sd of posterior mean 1277, mean of posterior mean 2894
      posterior corr(AP, P) 0.08; AP bias (mean posterior mean - pool AP) -0.0060

On the smooth gamma calibration the posterior keeps the low-rank rate open (sd 1047
against 687 over selections) and the AP moves against ``P``: the interval is wider than
the selection-to-selection error (coverage 0.97-0.98 at 90%, docs/pool.md). On the
hard-negative plateau the two agree.

Classifier probabilities, 800 labels (then 200)::

    classifier_probabilities (pool AP 0.1363, P 1994, 1152 below rank 20000)
      AP: posterior sd 0.0490, sd of posterior mean 0.0615, RMSE 0.0696
      P:  posterior sd 678, sd of posterior mean 745, mean of posterior mean 1974
      posterior corr(AP, P) -0.70; AP bias (mean posterior mean - pool AP) +0.0326
    classifier_probabilities (pool AP 0.1363, P 1994, 1152 below rank 20000)
      AP: posterior sd 0.0824, sd of posterior mean 0.0711, RMSE 0.0927
      P:  posterior sd 1302, sd of posterior mean 1139, mean of posterior mean 2339
      posterior corr(AP, P) -0.56; AP bias (mean posterior mean - pool AP) +0.0595

With 800 labels the posterior is narrower than the spread of its mean and biased
(coverage 0.84): the low-score positives of this pool follow no monotone curve.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from coverage_pool import make_pool

import bayes_prc as bp


def spread(name, seed, selections, budget=400):
    y, s, target = make_pool(name, seed=seed)
    below = int(y[np.argsort(-s, kind="stable")][20_000:].sum())
    rows = []
    for r in range(selections):
        sel = bp.select_labels(s, budget, random_seed=1000 * seed + r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            post = bp.fit_pool(s, sel, y[sel.indices], random_seed=1000 * seed + r)
        po = post.idata["posterior"]
        ap = po["average_precision"].values.ravel()
        n = po["n_positives"].values.ravel()
        rows.append((ap.mean(), ap.std(), n.mean(), n.std(), np.corrcoef(ap, n)[0, 1]))
    v = np.array(rows)
    rmse = np.sqrt(np.mean((v[:, 0] - target) ** 2))
    return "\n".join(
        [
            f"{name} (pool AP {target:.4f}, P {int(y.sum())}, {below} below rank 20000)",
            f"  AP: posterior sd {v[:, 1].mean():.4f}, sd of posterior mean {v[:, 0].std():.4f}, "
            f"RMSE {rmse:.4f}",
            f"  P:  posterior sd {v[:, 3].mean():.0f}, sd of posterior mean {v[:, 2].std():.0f}, "
            f"mean of posterior mean {v[:, 2].mean():.0f}",
            f"  posterior corr(AP, P) {v[:, 4].mean():.2f}; AP bias (mean posterior mean - pool "
            f"AP) {v[:, 0].mean() - target:+.4f}",
        ]
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--selections", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--budget", type=int, default=400)
    parser.add_argument("--populations", nargs="*", default=["gamma_skewed", "hard_negatives"])
    args = parser.parse_args(argv)
    for name in args.populations:
        print(spread(name, args.seed, args.selections, args.budget), flush=True)


if __name__ == "__main__":
    main()
