"""Coverage of AP and ROC AUC intervals on clustered test sets: naive rows vs ``groups=``.

Population: clusters of 1 to ``--max-size`` items (uniform); each cluster has a shared
random effect ``u`` on the scores and ``v`` on the chance of being positive::

    P(y = 1) = expit(logit(prevalence) + rho_y v),   score = delta y + rho_s u + e,
    u, v ~ N(0, 1) per cluster, e ~ N(0, sigma_e) per item.

``--effect`` sets ``rho_s = rho_y`` (the shared effect; 0 = independent items). The
targets are the population AP and ROC AUC, computed once on 40 000 clusters. Each of
``--reps`` data sets has ``--clusters`` clusters; every interval is at 90%.

Command (one process; about a minute per setting at 400 repetitions)::

    .venv/bin/python benchmarks/coverage_clusters.py --clusters 100 --effect 1.5 --reps 400

The table (coverage with its Monte Carlo standard error sqrt(p (1 - p) / R), mean
width, and the mean design effect the grouped row reports) is printed; docs/clusters.md
keeps the measured ones.
"""

from __future__ import annotations

import argparse
import warnings
from types import SimpleNamespace

import numpy as np

import bayes_prc as bp

LEVEL = 0.9


def population(rng, n_clusters, max_size, effect, prevalence=0.2, delta=1.0, sigma_e=0.7):
    sizes = rng.integers(1, max_size + 1, n_clusters)
    g = np.repeat(np.arange(n_clusters), sizes)
    u, v = rng.normal(size=(2, n_clusters))
    logit = np.log(prevalence / (1 - prevalence)) + effect * v[g]
    y = (rng.random(g.size) < 1 / (1 + np.exp(-logit))).astype(int)
    s = delta * y + effect * u[g] + sigma_e * rng.normal(size=g.size)
    return y, s, g


ROWS = {
    "AP logit": ("ap", "logit"),
    "AP bootstrap": ("ap", "bootstrap"),
    "AP bca": ("ap", "bca"),
    "AP bayesian_bootstrap": ("ap", "bayesian_bootstrap"),
    "AP semiparametric ETI": ("model", "semiparametric"),
    "AUC delong": ("auc", "delong"),
    "AUC delong_logit": ("auc", "delong_logit"),
    "AUC bootstrap": ("auc", "bootstrap"),
    "AP B-A bootstrap": ("paired", "bootstrap"),
    "AP B-A bayesian_bootstrap": ("paired", "bayesian_bootstrap"),
    "AUC B-A delong": ("paired_auc", "delong"),
}

#: Classifier B: A's scores plus a little more signal and noise of its own, shared within
#: a cluster (``effect`` times N(0, 1) per cluster) and per item (N(0, 0.5^2)), so the
#: difference of the two is clustered too.
B_SIGNAL, B_ITEM = 0.3, 0.5


def classifier_b(rng, y, s, g, effect):
    w = rng.normal(size=g.max() + 1)
    return s + B_SIGNAL * y + effect * w[g] + B_ITEM * rng.normal(size=s.size)


def interval(kind, method, y, s, s_b, g, seed):
    kw = {"n_resamples": 500, "random_seed": seed} if "boot" in method or method == "bca" else {}
    if kind == "model":  # fit_binormal's equal-tailed interval (tempered with groups)
        post = bp.fit_binormal(y, s, groups=g, draws=500, chains=2, random_seed=seed)
        lo, hi = post.interval(ci_prob=LEVEL, ci_kind="eti").values
        return SimpleNamespace(low=lo, high=hi, design_effect=post.design_effect)
    if kind.startswith("paired"):
        metric = "roc_auc" if kind == "paired_auc" else "average_precision"
        kw.pop("random_seed", None)
        return bp.compare_classifiers(
            y,
            s,
            s_b,
            metric=metric,
            method=method,
            ci_prob=LEVEL,
            groups=g,
            random_seed=seed,
            **kw,
        )
    fn = bp.ap_interval if kind == "ap" else bp.roc_auc_interval
    return fn(y, s, method=method, confidence_level=LEVEL, groups=g, **kw)


def study(args):
    rng = np.random.default_rng(args.seed)
    y, s, g = population(rng, 40_000, args.max_size, args.effect)
    s_b = classifier_b(rng, y, s, g, args.effect)
    target = {"ap": bp.average_precision_score(y, s), "auc": bp.roc_auc_score(y, s)}
    target["model"] = target["ap"]
    target["paired"] = bp.average_precision_score(y, s_b) - target["ap"]
    target["paired_auc"] = bp.roc_auc_score(y, s_b) - target["auc"]
    hits = {(r, grouped): [] for r in ROWS for grouped in (False, True)}
    widths = {k: [] for k in hits}
    deffs = {r: [] for r in ROWS}
    for rep in range(args.reps):
        y, s, g = population(rng, args.clusters, args.max_size, args.effect)
        s_b = classifier_b(rng, y, s, g, args.effect)
        if y.sum() < 2 or y.sum() > y.size - 2:
            continue
        for name, (kind, method) in ROWS.items():
            for grouped in (False, True):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    res = interval(kind, method, y, s, s_b, g if grouped else None, rep)
                hits[name, grouped].append(res.low <= target[kind] <= res.high)
                widths[name, grouped].append(res.high - res.low)
                deff = getattr(res, "design_effect", None)
                if grouped and deff is not None:
                    deffs[name].append(deff)
    print(
        f"clusters {args.clusters} of 1-{args.max_size} items, effect {args.effect}, "
        f"{args.reps} data sets, target AP {target['ap']:.3f} AUC {target['auc']:.3f}"
    )
    print(
        f"{'row':26s} {'naive cover':>16s} {'width':>6s}   {'groups cover':>16s} {'width':>6s}  deff"
    )
    for name in ROWS:
        cells = []
        for grouped in (False, True):
            h = np.asarray(hits[name, grouped], dtype=float)
            p, se = h.mean(), np.sqrt(h.mean() * (1 - h.mean()) / h.size)
            cells.append(f"{p:.3f} +- {se:.3f}  {np.mean(widths[name, grouped]):6.3f}")
        deff = f"{np.mean(deffs[name]):.2f}" if deffs[name] else ""
        print(f"{name:26s} {cells[0]:>24s}   {cells[1]:>24s}  {deff}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, default=100)
    parser.add_argument("--max-size", type=int, default=8)
    parser.add_argument("--effect", type=float, default=1.5)
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    study(parser.parse_args(argv))


if __name__ == "__main__":
    main()
