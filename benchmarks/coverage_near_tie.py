"""Near ties: the paired AP comparison of two near-identical classifiers (issue 40, item 2).

Usage::

    .venv/bin/python benchmarks/coverage_near_tie.py --n 200 --n-rep 100 --seed 0

Two gradient-boosting models that differ only in their random seed (``subsample=0.8``)
are trained on the same half of a table; they score the other half, the pool. Test sets
of ``--n`` items are drawn from the pool at prevalence 0.2 (items drawn with replacement
within each class), so the true AP of each model is its AP on the pool (ties as
scikit-learn). Also "GBM vs logistic regression" (a real difference): the share of data
sets where P(B better) > 0.95.

Per method, at ``--ci-prob`` (default 0.9): coverage of the true difference ``AP_B -
AP_A`` (MC se ``sqrt(p (1 - p) / R)``), mean width and its ratio to the paired bootstrap's,
the share of data sets where B is called better (P(B better) > 0.95, or for a test
``estimate > 0`` with two-sided p < 0.10), which method the default used, and the time
per call.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

from bayes_prc.paired import compare_classifiers  # noqa: E402

PREVALENCE = 0.2


def pools(seed=0):
    """name -> (score_a, score_b, y) on the pool half of each table."""
    from sklearn.datasets import load_digits, make_classification
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    def gbm(s):
        return GradientBoostingClassifier(
            n_estimators=60, max_depth=3, subsample=0.8, random_state=s
        )

    out = {}
    x, y = make_classification(
        n_samples=20_000,
        n_features=20,
        n_informative=6,
        weights=[0.8],
        flip_y=0.03,
        class_sep=0.8,
        random_state=seed,
    )
    tables = {"synthetic": (x, y.astype(bool))}
    x, y = load_digits(return_X_y=True)
    tables["digits9"] = (x, y == 9)
    for name, (x, y) in tables.items():
        xa, xb, ya, yb = train_test_split(x, y, test_size=0.5, random_state=seed, stratify=y)
        a = gbm(seed + 1).fit(xa, ya).predict_proba(xb)[:, 1]
        b = gbm(seed + 2).fit(xa, ya).predict_proba(xb)[:, 1]
        out[f"{name}_gbm_twice"] = (a, b, yb)
        lr = LogisticRegression(C=0.01, max_iter=2000).fit(xa, ya).predict_proba(xb)[:, 1]
        out[f"{name}_logreg_vs_gbm"] = (lr, a, yb)
    return out


def pool_ap(score, y, prev=PREVALENCE):
    pos, neg = np.sort(score[y]), np.sort(score[~y])
    s_pos = 1 - np.searchsorted(pos, pos, side="left") / pos.size
    s_neg = 1 - np.searchsorted(neg, pos, side="left") / neg.size
    return float(np.mean(prev * s_pos / (prev * s_pos + (1 - prev) * s_neg)))


def draw(a, b, y, n, rng, prev=PREVALENCE):
    lab = rng.random(n) < prev
    while not 3 <= lab.sum() <= n - 3:
        lab = rng.random(n) < prev
    pos_idx, neg_idx = np.flatnonzero(y), np.flatnonzero(~y)
    pick = np.where(lab, rng.choice(pos_idx, n), rng.choice(neg_idx, n))
    return lab.astype(int), a[pick], b[pick]


METHODS = {
    "default": {},
    "bayes": {"method": "bayes"},
    "jackknife": {"method": "jackknife"},
    "bootstrap": {"method": "bootstrap"},
    "bayesian_bootstrap": {"method": "bayesian_bootstrap"},
}


def used(methods):
    names, counts = np.unique(methods, return_counts=True)
    return ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n-rep", type=int, default=100)
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    ap.add_argument("--pools", nargs="+", default=None)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    all_pools = pools(args.seed)
    names = args.pools or list(all_pools)
    ss = np.random.SeedSequence(args.seed)
    print(f"n = {args.n}, {args.n_rep} data sets per pool, nominal {args.ci_prob}\n")
    print(
        "| pool | true AP_A, AP_B, diff | method (used) | coverage (se) | mean width | width / bootstrap | B called better | s per call |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, child in zip(names, ss.spawn(len(names)), strict=False):
        a, b, y = all_pools[name]
        ta, tb = pool_ap(a, y), pool_ap(b, y)
        truth = tb - ta
        rng = np.random.default_rng(child)
        res = {
            m: {"hit": [], "width": [], "sure": [], "methods": [], "t": 0.0} for m in args.methods
        }
        for _ in range(args.n_rep):
            yy, aa, bb = draw(a, b, y, args.n, rng)
            seed = int(rng.integers(2**31))
            for m in args.methods:
                t0 = time.perf_counter()
                r = compare_classifiers(
                    yy, aa, bb, ci_prob=args.ci_prob, random_seed=seed, **METHODS[m]
                )
                low, high = r.low, r.high
                # a test's call: one-sided p < 0.05 in B's favour (P(B better) when drawn)
                if r.prob_b_better is None:
                    sure = r.estimate > 0 and r.p_value < 0.10
                else:
                    sure = r.prob_b_better > 0.95
                res[m]["methods"].append(r.method)
                res[m]["t"] += time.perf_counter() - t0
                res[m]["hit"].append(low <= truth <= high)
                res[m]["width"].append(high - low)
                res[m]["sure"].append(sure)
        w_boot = np.mean(res["bootstrap"]["width"]) if "bootstrap" in res else np.nan
        for m in args.methods:
            p = np.mean(res[m]["hit"])
            se = np.sqrt(p * (1 - p) / args.n_rep)
            w = np.mean(res[m]["width"])
            print(
                f"| {name} | {ta:.3f}, {tb:.3f}, {truth:+.4f} | {m} ({used(res[m]['methods'])}) | {p:.2f} ({se:.2f}) | {w:.4f} "
                f"| {w / w_boot:.2f} | {np.mean(res[m]['sure']):.2f} | {res[m]['t'] / args.n_rep:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
