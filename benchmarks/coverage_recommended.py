"""Coverage and seed-stability of the *recommended* AP and ROC AUC rows on real classifiers.

Usage::

    .venv/bin/python benchmarks/coverage_recommended.py --n 200 --n-rep 100 --seed 0

Real data (scikit-learn's bundled tables, so nothing is downloaded): a classifier is
trained on half of a data set and scores the other half, the *pool*. Test sets of ``--n``
items are drawn from the pool with replacement, each item positive with probability
``--prevalence`` (then a pool item of that class at random), so the population is the
pool's empirical class-conditional score distributions at that prevalence and its true
AP and ROC AUC are exact:
``AP = E_pos[pi S+(x) / (pi S+(x) + (1 - pi) S-(x))]`` with the survival functions
counting ties as sklearn's curve does (``>=``), and ``AUC = P(x+ > x-) + P(=)/2``.

Classifiers: logistic regression on breast_cancer (malignant positive), a shallow
gradient-boosting model on digits ("9" vs rest) and a Gaussian naive Bayes on wine
(class 0 vs rest). For each data set ``compare_intervals`` runs twice with two seeds:
the table reports the coverage of the recommended row (first seed), its mean width, the
share of data sets in which both seeds recommend the same row, the share with separated
classes (every positive on top) and the recommended row's coverage there.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import bayes_prc as bp  # noqa: E402

AP_ROWS = ("semiparametric_eti", "binormal_eti", "logit", "bayesian_bootstrap", "bootstrap")
AUC_ROWS = ("delong", "delong_logit", "semiparametric_eti")


def pools(seed=0):
    from sklearn.datasets import load_breast_cancer, load_digits, load_wine
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    out = {}
    x, y = load_breast_cancer(return_X_y=True)
    y = y == 0  # malignant
    specs = [
        ("breast_cancer_logreg", x, y, make_pipeline(StandardScaler(), LogisticRegression(C=0.05))),
    ]
    x, y = load_digits(return_X_y=True)
    specs.append(
        ("digits9_boosting", x, y == 9, GradientBoostingClassifier(n_estimators=30, max_depth=2))
    )
    x, y = load_wine(return_X_y=True)
    specs.append(("wine_naive_bayes", x, y == 0, GaussianNB()))
    for name, x, y, clf in specs:
        xa, xb, ya, yb = train_test_split(x, y, test_size=0.5, random_state=seed, stratify=y)
        clf.fit(xa, ya)
        out[name] = (clf.predict_proba(xb)[:, 1], yb.astype(bool))
    return out


def truth(score, y, prev):
    pos, neg = np.sort(score[y]), np.sort(score[~y])
    s_pos = 1 - np.searchsorted(pos, pos, side="left") / pos.size  # P(X+ >= x)
    s_neg = 1 - np.searchsorted(neg, pos, side="left") / neg.size
    ap = float(np.mean(prev * s_pos / (prev * s_pos + (1 - prev) * s_neg)))
    gt = np.searchsorted(neg, pos, side="left") / neg.size
    eq = np.searchsorted(neg, pos, side="right") - np.searchsorted(neg, pos, side="left")
    auc = float(np.mean(gt + 0.5 * eq / neg.size))
    return ap, auc


def one(score, y, prev, n, rng):
    lab = rng.random(n) < prev
    while not 2 <= lab.sum() <= n - 2:
        lab = rng.random(n) < prev
    pos_idx, neg_idx = np.flatnonzero(y), np.flatnonzero(~y)
    pick = np.where(lab, rng.choice(pos_idx, n), rng.choice(neg_idx, n))
    return lab.astype(int), score[pick]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n-rep", type=int, default=100)
    ap.add_argument("--prevalence", type=float, nargs="+", default=[0.025, 0.2])
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.time()
    print(
        "| data | prevalence | metric | true | recommended coverage | MC se | mean width "
        "| same row, 2 seeds | separated | coverage when separated | rows recommended |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (score, y) in pools(args.seed).items():
        for prev in args.prevalence:
            true_ap, true_auc = truth(score, y, prev)
            rng = np.random.default_rng([args.seed, int(prev * 1e4), len(name)])
            res = {
                m: {"hit": [], "width": [], "same": [], "sep": [], "row": []}
                for m in ("AP", "ROC AUC")
            }
            for _ in range(args.n_rep):
                lab, s = one(score, y, prev, args.n, rng)
                sep = bool(s[lab == 1].min() > s[lab == 0].max())
                for metric, rows, target in (
                    ("AP", AP_ROWS, true_ap),
                    ("ROC AUC", AUC_ROWS, true_auc),
                ):
                    kw = {"metric": "roc_auc"} if metric == "ROC AUC" else {"transform": "logit"}
                    tabs = []
                    for seed in (1, 2):
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            tabs.append(
                                bp.compare_intervals(
                                    lab,
                                    s,
                                    ci_prob=args.ci_prob,
                                    methods=rows,
                                    random_seed=seed,
                                    n_resamples=300,
                                    **kw,
                                )
                            )
                    rec = tabs[0].attrs["recommended"]
                    row = tabs[0].loc[rec]
                    r = res[metric]
                    r["hit"].append(row["low"] <= target <= row["high"])
                    r["width"].append(row["high"] - row["low"])
                    r["same"].append(rec == tabs[1].attrs["recommended"])
                    r["sep"].append(sep)
                    r["row"].append(rec)
            for metric, r in res.items():
                hit, sep = np.array(r["hit"]), np.array(r["sep"])
                cov = hit.mean()
                se = np.sqrt(cov * (1 - cov) / hit.size)
                sep_cov = f"{hit[sep].mean():.2f} ({sep.sum()})" if sep.any() else "-"
                rows, counts = np.unique(r["row"], return_counts=True)
                used = ", ".join(f"{a} {b}" for a, b in zip(rows, counts, strict=True))
                target = true_ap if metric == "AP" else true_auc
                print(
                    f"| {name} | {prev:g} | {metric} | {target:.3f} | {cov:.3f} | {se:.3f} "
                    f"| {np.mean(r['width']):.3f} | {np.mean(r['same']):.3f} "
                    f"| {sep.mean():.2f} | {sep_cov} | {used} |",
                    flush=True,
                )
    print(f"\n({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
