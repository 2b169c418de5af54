"""Ranking trained classifiers with ``compare_models``: coverage, tied pairs, set sizes.

Usage::

    python benchmarks/coverage_ranking_trained.py --k 5 --n 300 --reps 200 --seed 1
    python benchmarks/coverage_ranking_trained.py --k 5 --n 300 --cluster-size 5 --reps 150
    python benchmarks/coverage_ranking_trained.py --k 2 --n 300 --reps 600 --seed 3

A table of ``make_classification`` (20 features, 6 informative, 4 redundant, 30%
positives, 5% flipped labels, ``class_sep=0.8``: ROC AUC 0.80-0.93 for the learners
below) is split into 4,000 training items and a pool of 100,000. Up to 20 scikit-learn
classifiers are trained once on the training items and score the pool: gradient
boosting with 6 seeds (``subsample=0.8``), random forests with 3 seeds, MLPs with 2
seeds (near-identical: the same learner, another seed), logistic regressions, LDA,
naive Bayes, k-nearest neighbours, trees; and an EXACT duplicate (the logistic
regression's scores twice). The pool is the population: test sets of ``--n`` items are
drawn from it with replacement, so each model's true AP is its AP on the pool, and a
true rank is 1 + the number of models with a strictly higher pool AP (the duplicate
pair shares its rank).

- k = 2: the two gradient-boosting seeds whose pool APs are closest (true difference
  about 0); with ``--duplicate`` the logistic regression and its exact copy instead.
- k = 5: those two, the logistic regression, its exact copy, naive Bayes; with
  ``--duplicate`` five gradient-boosting seeds (five near-identical models).
- k = 20: all twenty.
- ``--cluster-size c``: the pool is cut into clusters of c items that are neighbours
  along the first principal direction of the features (similar items, similar scores
  and labels); a test set draws n / c clusters with replacement and passes
  ``groups=``.

For each data set at ``--ci-prob`` (0.90): do the rank sets hold all k true ranks at
once (family-wise coverage), does each model's own interval hold its pool AP, is each
truly tied pair (the exact duplicate; the nearest gradient-boosting seeds, whose true
difference is printed) declared different, and the mean rank-set length
(rank_high - rank_low + 1). For the Bayesian bootstrap (recommended), the step-down
max-t bootstrap (Mogstad et al. 2024), at k = 2 the paired jackknife interval of
``compare_classifiers(method="jackknife")`` (its default on near ties), and a Bonferroni
reference: each pair declared
when its studentized paired-bootstrap difference exceeds the normal quantile
``1 - (1 - ci_prob) / (2 m)`` over the m pairs (the max-t pairs' standard errors);
and ``bb_differences``: the step-down max-t statements computed on the Bayesian
bootstrap's draws, the rank sets of Mogstad et al. from posterior draws of the
differences instead of from the draws' ranks. Monte
Carlo errors: binomial, ``sqrt(p (1 - p) / reps)``; for lengths the standard error of the
mean over data sets.

Scikit-learn is a test-only oracle here (it trains the classifiers).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scipy.special import ndtri  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.frequentist import max_t_step_down, rank_sets  # noqa: E402

N_TRAIN, N_POOL = 4_000, 100_000
GBM_SEEDS = 6


def _learners():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import (
        ExtraTreesClassifier,
        GradientBoostingClassifier,
        RandomForestClassifier,
    )
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    out = {
        f"gbm_s{s}": GradientBoostingClassifier(
            n_estimators=80, max_depth=3, subsample=0.8, random_state=s
        )
        for s in range(GBM_SEEDS)
    }
    out.update(
        {
            f"rf_s{s}": RandomForestClassifier(
                n_estimators=100, min_samples_leaf=3, random_state=s, n_jobs=1
            )
            for s in range(3)
        }
    )
    out.update(
        {
            f"mlp_s{s}": make_pipeline(
                StandardScaler(),
                MLPClassifier(hidden_layer_sizes=(16,), max_iter=400, random_state=s),
            )
            for s in range(2)
        }
    )
    out.update(
        extra_trees=ExtraTreesClassifier(n_estimators=100, min_samples_leaf=3, random_state=0),
        logreg=LogisticRegression(max_iter=2000),
        logreg_l1=LogisticRegression(C=0.003, penalty="l1", solver="liblinear"),
        lda=LinearDiscriminantAnalysis(),
        naive_bayes=GaussianNB(),
        knn50=make_pipeline(StandardScaler(), KNeighborsClassifier(50)),
        tree_d4=DecisionTreeClassifier(max_depth=4, random_state=0),
        tree_d8=DecisionTreeClassifier(max_depth=8, min_samples_leaf=5, random_state=0),
    )
    return out


def pool_scores(seed, cache_dir):
    """``(y, scores dict, projection)`` on the pool; cached (training takes a minute)."""
    path = Path(cache_dir) / f"bayes_prc_ranking_trained_{seed}.npz"
    if path.exists():
        z = np.load(path)
        names = [str(v) for v in z["names"]]
        return z["y"], dict(zip(names, z["scores"], strict=True)), z["proj"]
    from sklearn.datasets import make_classification

    x, y = make_classification(
        n_samples=N_TRAIN + N_POOL,
        n_features=20,
        n_informative=6,
        n_redundant=4,
        weights=[0.7],
        flip_y=0.05,
        class_sep=0.8,
        random_state=seed,
    )
    xt, yt, xp, yp = x[:N_TRAIN], y[:N_TRAIN], x[N_TRAIN:], y[N_TRAIN:]
    scores = {}
    for name, model in _learners().items():
        scores[name] = model.fit(xt, yt).predict_proba(xp)[:, 1]
    names = list(scores)
    # first principal direction of the pool's features: neighbours along it form clusters
    xc = xp - xp.mean(axis=0)
    proj = xc @ np.linalg.svd(xc[:5000], full_matrices=False)[2][0]
    np.savez(path, y=yp, scores=np.array([scores[m] for m in names]), names=names, proj=proj)
    return yp, scores, proj


def choose(k, scores, truth, duplicate=False):
    """The k model names of a setting and the truly tied pairs among them."""
    gbm = [f"gbm_s{s}" for s in range(GBM_SEEDS)]
    gaps = {(a, b): abs(truth[a] - truth[b]) for i, a in enumerate(gbm) for b in gbm[i + 1 :]}
    near = min(gaps, key=gaps.get)
    dup = ("logreg", "logreg_copy")
    if k == 2:
        return (list(dup) if duplicate else list(near)), [dup if duplicate else near]
    if k == 5 and duplicate:  # five near-identical models: the gradient-boosting seeds
        five = [near[0], near[1], *[g for g in gbm if g not in near][:3]]
        return five, [near]
    if k == 5:
        return [*near, *dup, "naive_bayes"], [near, dup]
    if k == 20:
        return list(scores), [near, dup]
    raise SystemExit("--k must be 2, 5 or 20")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--ci-prob", type=float, default=0.9)
    ap.add_argument("--cluster-size", type=int, default=1)
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument(
        "--duplicate",
        action="store_true",
        help="k = 2: the exact duplicate pair; k = 5: five gradient-boosting seeds",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table-seed", type=int, default=0)
    ap.add_argument("--cache-dir", default=tempfile.gettempdir())
    args = ap.parse_args(argv)

    y_pool, pool, proj = pool_scores(args.table_seed, args.cache_dir)
    pool["logreg_copy"] = pool["logreg"].copy()  # the exact duplicate: 19 trained + 1
    truth = {m: bp.average_precision_score(y_pool, s) for m, s in pool.items()}
    names, tied = choose(args.k, pool, truth, args.duplicate)
    theta = np.array([truth[m] for m in names])
    ranks = 1 + np.sum(theta[None, :] > theta[:, None], axis=1)
    matrix = np.stack([pool[m] for m in names], axis=1)
    c = args.cluster_size
    if c > 1:  # clusters of c neighbours along the first principal direction
        order = np.argsort(proj, kind="stable")
        n_clusters = order.size // c
        members = order[: n_clusters * c].reshape(n_clusters, c)
        # the population is then the pool's first n_clusters * c items in that order
        keep = members.ravel()
        theta = np.array([bp.average_precision_score(y_pool[keep], pool[m][keep]) for m in names])
        ranks = 1 + np.sum(theta[None, :] > theta[:, None], axis=1)

    rng = np.random.default_rng(args.seed)
    methods = ("bayesian_bootstrap", "max_t", "bonferroni", "bb_differences")
    if args.k == 2:  # compare_classifiers' default on near ties, for reference
        methods += ("paired_jackknife",)
    st = {m: {"fw": [], "len": [], "tied": []} for m in methods}
    cover, agree = [], []
    alpha = 1 - args.ci_prob
    t0 = time.perf_counter()
    for _ in range(args.reps):
        if c > 1:
            pick = members[rng.integers(0, n_clusters, args.n // c)]
            idx, groups = pick.ravel(), np.repeat(np.arange(pick.shape[0]), c)
        else:
            idx, groups = rng.integers(0, y_pool.size, args.n), None
        y = y_pool[idx]
        if y.sum() < 2 or (1 - y).sum() < 2:
            continue
        res = bp.compare_models(
            y,
            dict(zip(names, matrix[idx].T, strict=True)),
            ci_prob=args.ci_prob,
            groups=groups,
            n_resamples=args.n_resamples,
            random_seed=rng,
        )
        frames = dict(res.attrs["methods"])
        frames["bonferroni"] = _bonferroni(res, names, alpha)
        frames["bb_differences"] = _bb_differences(res, names, args.ci_prob)
        if args.k == 2:
            frames["paired_jackknife"] = _jackknife(y, matrix[idx], names, args.ci_prob, groups)
        t = res.table.loc[names]
        cover.append(((t["low"] <= theta) & (theta <= t["high"])).to_numpy())
        for m in methods:
            tab, pairs = frames[m]["table"].loc[names], frames[m]["pairs"]
            lo, hi = tab["rank_low"].to_numpy(), tab["rank_high"].to_numpy()
            st[m]["fw"].append(bool(np.all((lo <= ranks) & (ranks <= hi))))
            st[m]["len"].append(float(np.mean(hi - lo + 1)))
            row = []
            for a, b in tied:
                key = (a, b) if (a, b) in pairs.index else (b, a)
                row.append(pairs.loc[key, "verdict"] != "cannot be told apart")
            st[m]["tied"].append(row)
        if args.k == 2:  # the same verdict as compare_classifiers' paired jackknife?
            same = [
                frames[m]["pairs"]["verdict"].iloc[0]
                == frames["paired_jackknife"]["pairs"]["verdict"].iloc[0]
                for m in ("max_t", "bayesian_bootstrap")
            ]
            agree.append(same)
    reps = len(cover)
    secs = (time.perf_counter() - t0) / max(reps, 1)
    setting = f"k = {args.k}, n = {args.n}" + (f", clusters of {c}" if c > 1 else "")
    print(
        f"{setting}: {reps} data sets, seed {args.seed}, ci_prob {args.ci_prob}, {secs:.2f} s each"
    )
    print(
        "models (true AP, true rank): "
        + ", ".join(f"{m} ({v:.4f}, {r})" for m, v, r in zip(names, theta, ranks, strict=True))
    )
    gap = {pair: theta[names.index(pair[0])] - theta[names.index(pair[1])] for pair in tied}
    print(
        "truly tied pairs (true difference): "
        + ", ".join(f"{a} - {b} ({d:+.4f})" for (a, b), d in gap.items())
    )
    cov = np.mean(cover, axis=0)
    mc = np.sqrt(0.9 * 0.1 / reps)
    print(
        f"each model's own interval covers: {cov.min():.3f}-{cov.max():.3f} (mean {cov.mean():.3f};"
        f" MC error about {mc:.3f} each)"
    )
    print("| method | family-wise | mean rank-set length | tied pairs declared different |")
    print("|---|---|---|---|")
    for m in methods:
        fw = float(np.mean(st[m]["fw"]))
        ln = np.asarray(st[m]["len"])
        td = np.mean(st[m]["tied"], axis=0)
        tied_txt = "; ".join(
            f"{a}/{b} {p:.3f} ({np.sqrt(p * (1 - p) / reps):.3f})"
            for (a, b), p in zip(tied, td, strict=True)
        )
        print(
            f"| {m} | {fw:.3f} ({np.sqrt(fw * (1 - fw) / reps):.3f}) | "
            f"{ln.mean():.2f} ({ln.std(ddof=1) / np.sqrt(reps):.2f}) | {tied_txt} |"
        )
    if agree:
        a = np.mean(agree, axis=0)
        print(
            f"same verdict as the paired jackknife: max_t {a[0]:.3f}, bayesian_bootstrap "
            f"{a[1]:.3f} (MC error at most {np.sqrt(0.25 / reps):.3f})"
        )


def _jackknife(y, scores, names, ci_prob, groups):
    """k = 2: ``compare_classifiers(method="jackknife")``'s interval of b - a as a verdict."""
    import pandas as pd

    from bayes_prc.paired import compare_classifiers

    a, b = names
    res = compare_classifiers(
        y, scores[:, 0], scores[:, 1], method="jackknife", ci_prob=ci_prob, groups=groups
    )
    verdict = (
        f"{b} better" if res.low > 0 else f"{a} better" if res.high < 0 else "cannot be told apart"
    )
    lo = np.array([2 if res.low > 0 else 1, 2 if res.high < 0 else 1])
    hi = np.array([1 if res.high < 0 else 2, 1 if res.low > 0 else 2])
    table = pd.DataFrame({"rank_low": lo, "rank_high": hi}, index=pd.Index(names, name="model"))
    index = pd.MultiIndex.from_tuples([(a, b)], names=("model_a", "model_b"))
    return {"table": table, "pairs": pd.DataFrame({"verdict": [verdict]}, index=index)}


def _bb_differences(res, names, ci_prob):
    """Rank sets from the Bayesian bootstrap draws' step-down max-t pair statements.

    Mogstad et al.'s construction on the posterior draws instead of the posterior rank
    draws (rank sets from statements about differences, which stay valid at ties).
    """
    import pandas as pd

    draws = res.posterior.sel(model=names).values[0].T  # (k, B)
    better, _, _ = max_t_step_down(draws.mean(axis=1), draws, ci_prob)
    lo, hi = rank_sets(better)
    table = pd.DataFrame({"rank_low": lo, "rank_high": hi}, index=pd.Index(names, name="model"))
    verdict = [
        f"{a} better"
        if better[names.index(a), names.index(b)]
        else f"{b} better"
        if better[names.index(b), names.index(a)]
        else "cannot be told apart"
        for a, b in res.pairs.index
    ]
    return {"table": table, "pairs": pd.DataFrame({"verdict": verdict}, index=res.pairs.index)}


def _bonferroni(res, names, alpha):
    """Bonferroni's rank sets: every pair at level alpha / m, the max-t pairs' errors."""
    import pandas as pd

    pairs = res.attrs["methods"]["max_t"]["pairs"]
    crit = res.attrs["critical"]["max_t"]
    diff = pairs["difference"].to_numpy()
    se = (pairs["high"].to_numpy() - pairs["low"].to_numpy()) / (2 * crit) if crit > 0 else 0 * diff
    c = float(ndtri(1 - alpha / (2 * len(pairs))))
    k = len(names)
    better = np.zeros((k, k), dtype=bool)
    verdict = []
    for (a, b), d, s in zip(pairs.index, diff, se, strict=True):
        ia, ib = names.index(a), names.index(b)
        t = d / s if s > 0 else 0.0
        better[ia, ib], better[ib, ia] = t > c, -t > c
        verdict.append(
            f"{a} better" if t > c else f"{b} better" if -t > c else "cannot be told apart"
        )
    lo, hi = rank_sets(better)
    table = pd.DataFrame({"rank_low": lo, "rank_high": hi}, index=pd.Index(names, name="model"))
    return {"table": table, "pairs": pd.DataFrame({"verdict": verdict}, index=pairs.index)}


if __name__ == "__main__":
    main()
