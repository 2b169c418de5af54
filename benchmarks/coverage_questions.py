"""Coverage (and type-I error) for the questions of docs/intervals.md, in one run.

Every table prints the share of simulated data sets whose 95% interval contains the
population value (for tests: the share rejecting a true null at 0.05), its Monte Carlo
standard error sqrt(p (1 - p) / R) and, for intervals, the mean width. Sections:

1. ROC AUC (:func:`roc_auc_interval` methods and the rank-based binormal posterior ETI)
   at n = 100 and 500, prevalence 0.2: binormal AUC 0.856 and 0.961, and the non-normal
   ``gamma_skewed`` population of :mod:`bayes_prc.populations` (true AUC by quadrature).
   The posterior rows use the first ``--bayes-datasets`` data sets of each cell.
2. F1 and MCC at a fixed threshold (:func:`operating_point_interval`: delta, bootstrap,
   Dirichlet posterior), binormal, n = 500; population values in closed form.
3. Precision@10 (:func:`precision_at_k_interval`), n = 500, against two targets: the
   conditional one (mean P(y = 1 | score) of the 10 top-ranked items, what the
   proportion methods estimate) and the unconditional E[P@10] (by simulation, 20 000
   data sets), what the bootstrap estimates.
4. Joint (precision, recall) regions at a threshold (profile, normal, Dirichlet
   posterior) and along the curve (5 thresholds: all 5 regions must hold the truth, at
   95% each and at the Bonferroni level 99%).
5. Folds: mean AP and ROC AUC of 10-fold cross-validation of a logistic regression
   (scikit-learn) on 5 Gaussian features, n = 500; Nadeau-Bengio vs the naive t
   interval against the expected test metric of a model trained on 450 items
   (truth: 400 training sets, each scored on 20 000 fresh items).
6. Type-I error of the paired tests under a true null of equal ROC AUC, n = 200:
   exchangeable classifiers and classifiers of different shape with equal AUC; DeLong,
   the permutation test (ROC AUC and AP), McNemar at a common threshold.

Run (about 5 minutes on one core)::

    .venv/bin/python benchmarks/coverage_questions.py --datasets 400 --bayes-datasets 200
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import integrate, stats

import bayes_prc as bp
from bayes_prc.binormal import Binormal
from bayes_prc.populations import population

LEVEL = 0.95


def _fmt(hits, widths=None):
    hits = np.asarray(hits, float)
    p, r = hits.mean(), hits.size
    se = np.sqrt(p * (1 - p) / r)
    out = f"{p:.3f} ({se:.3f})"
    if widths is not None:
        out += f" w={np.mean(widths):.3f}"
    return out


def _table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")


# ------------------------------------------------------------------------------ 1. ROC AUC
AUC_METHODS = ("delong", "delong_logit", "hanley_mcneil", "bootstrap", "bca")


def _gamma_auc():
    """P(X+ > X-) for positives Gamma(4, 1), negatives Gamma(1.5, 1), by quadrature."""
    pos, neg = stats.gamma(4.0), stats.gamma(1.5)
    val, _ = integrate.quad(lambda t: neg.cdf(t) * pos.pdf(t), 0, np.inf, epsabs=1e-12)
    return val


def roc_auc_section(rng, reps, bayes_reps, n_resamples):
    gamma = population("gamma_skewed")
    pops = [
        ("binormal d=1.5", Binormal(1.5, 1, 0, 1, 0.2), stats.norm.cdf(1.5 / np.sqrt(2))),
        ("binormal d=2.5", Binormal(2.5, 1, 0, 1, 0.2), stats.norm.cdf(2.5 / np.sqrt(2))),
        ("gamma_skewed", gamma, _gamma_auc()),
    ]
    rows = []
    for name, pop, truth in pops:
        for n in (100, 500):
            hits = {m: [] for m in (*AUC_METHODS, "bayes")}
            widths = {m: [] for m in hits}
            for i in range(reps):
                y, s = pop.sample(n, random_seed=rng)
                if min(y.sum(), n - y.sum()) < 2:
                    continue
                for m in AUC_METHODS:
                    res = bp.roc_auc_interval(
                        y, s, method=m, n_resamples=n_resamples, random_seed=rng
                    )
                    hits[m].append(res.low <= truth <= res.high)
                    widths[m].append(res.high - res.low)
                if i < bayes_reps:
                    post = bp.fit_binormal(y, s, random_seed=rng)
                    lo, hi = post.interval("roc_auc", ci_prob=LEVEL, ci_kind="eti").values
                    hits["bayes"].append(lo <= truth <= hi)
                    widths["bayes"].append(hi - lo)
            rows.append(
                [name, f"{truth:.3f}", n, len(hits["delong"])]
                + [_fmt(hits[m], widths[m]) for m in hits]
            )
    _table(
        "ROC AUC: coverage of the population AUC (MC SE), mean width",
        ["population", "AUC", "n", "R", *AUC_METHODS, f"Bayes ETI (R={bayes_reps})"],
        rows,
    )


# ------------------------------------------------------------------- 2. F1 / MCC at t
def _cells(model, t):
    pi = model.prevalence
    tpr, fpr = stats.norm.sf(t, 1.5, 1), stats.norm.sf(t, 0, 1)
    return pi * tpr, (1 - pi) * fpr, pi * (1 - tpr), (1 - pi) * (1 - fpr)


def operating_point_section(rng, reps, n_resamples):
    model, t, n = Binormal(1.5, 1, 0, 1, 0.3), 1.0, 500
    tp, fp, fn, tn = _cells(model, t)
    truth = {
        "f1": 2 * tp / (2 * tp + fp + fn),
        "mcc": (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)),
        "balanced_accuracy": (tp / (tp + fn) + tn / (tn + fp)) / 2,
    }
    methods = ("delta", "bootstrap", "bayes")
    hits = {(k, m): [] for k in truth for m in methods}
    widths = {key: [] for key in hits}
    for _ in range(reps):
        y, s = model.sample(n, random_seed=rng)
        for metric, value in truth.items():
            for m in methods:
                res = bp.operating_point_interval(
                    y, s, t, metric=metric, method=m, n_resamples=n_resamples, random_seed=rng
                )
                hits[metric, m].append(res.low <= value <= res.high)
                widths[metric, m].append(res.high - res.low)
    rows = [
        [metric, f"{value:.3f}"] + [_fmt(hits[metric, m], widths[metric, m]) for m in methods]
        for metric, value in truth.items()
    ]
    _table(
        f"Metrics at threshold {t} (binormal d=1.5, prevalence 0.3, n={n}, R={reps})",
        ["metric", "population value", *methods],
        rows,
    )


# ------------------------------------------------------------------------- 3. P@10
def precision_at_k_section(rng, reps, n_resamples):
    model, n, k = Binormal(1.5, 1, 0, 1, 0.2), 500, 10
    pi = model.prevalence

    def p_pos(s):
        a = pi * stats.norm.pdf(s, 1.5, 1)
        return a / (a + (1 - pi) * stats.norm.pdf(s))

    # unconditional target E[P@10] by simulation (20 000 data sets, vectorized)
    sims = []
    for _ in range(10):
        y = rng.random((2000, n)) < pi
        s = np.where(y, rng.normal(1.5, 1, (2000, n)), rng.normal(0, 1, (2000, n)))
        top = np.argpartition(-s, k, axis=1)[:, :k]
        sims.append(np.take_along_axis(y, top, axis=1).mean(axis=1))
    sims = np.concatenate(sims)
    uncond, uncond_se = sims.mean(), sims.std() / np.sqrt(sims.size)
    methods = ("wilson", "jeffreys", "clopper_pearson", "bayes", "bootstrap")
    hit_c = {m: [] for m in methods}
    hit_u = {m: [] for m in methods}
    widths = {m: [] for m in methods}
    for _ in range(reps):
        y, s = model.sample(n, random_seed=rng)
        cond = p_pos(np.sort(s)[-k:]).mean()
        for m in methods:
            res = bp.precision_at_k_interval(
                y, s, k, method=m, n_resamples=n_resamples, random_seed=rng
            )
            hit_c[m].append(res.low <= cond <= res.high)
            hit_u[m].append(res.low <= uncond <= res.high)
            widths[m].append(res.high - res.low)
    rows = [[m, _fmt(hit_c[m]), _fmt(hit_u[m], widths[m])] for m in methods]
    _table(
        f"Precision@{k} (binormal d=1.5, prevalence 0.2, n={n}, R={reps}; "
        f"E[P@{k}] = {uncond:.3f} +- {uncond_se:.3f})",
        ["method", "covers conditional target", "covers E[P@10], width"],
        rows,
    )


# ---------------------------------------------------------------------- 4. joint regions
def joint_section(rng, reps, bayes_reps):
    model, n = Binormal(1.5, 1, 0, 1, 0.3), 500
    ts = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    pi = model.prevalence
    tpr, fpr = stats.norm.sf(ts, 1.5, 1), stats.norm.sf(ts, 0, 1)
    prec, rec = pi * tpr / (pi * tpr + (1 - pi) * fpr), tpr
    at = 2  # threshold 1.0
    hits = {"profile": [], "normal": [], "dirichlet": []}
    curve = {"profile 95% each": [], "profile 99% each (Bonferroni)": []}
    for i in range(reps):
        y, s = model.sample(n, random_seed=rng)
        if (s >= ts[-1]).sum() == 0:
            continue
        for m in ("profile", "normal"):
            reg = bp.pr_joint_region(y, s, ts[at], method=m, grid_size=21)
            hits[m].append(bool(reg.contains(prec[at], rec[at])))
        if i < bayes_reps:
            reg = bp.pr_joint_credible_region(
                y, s, ts[at], n_draws=1000, grid_size=61, random_seed=rng
            )
            hits["dirichlet"].append(bool(reg.contains(prec[at], rec[at])))
        for label, level in (("profile 95% each", 0.95), ("profile 99% each (Bonferroni)", 0.99)):
            regs = bp.pr_joint_regions(y, s, ts, confidence_level=level, grid_size=21)
            curve[label].append(
                all(r.contains(p, q) for r, p, q in zip(regs, prec, rec, strict=True))
            )
    rows = [[f"at threshold {ts[at]}", m, _fmt(h)] for m, h in hits.items()]
    where = f"all of thresholds {', '.join(f'{t:g}' for t in ts)}"
    rows += [[where, m, _fmt(h)] for m, h in curve.items()]
    _table(
        f"Joint (precision, recall) regions, 95% (binormal d=1.5, prevalence 0.3, n={n}, "
        f"R={reps}; Dirichlet R={bayes_reps})",
        ["where", "method", "coverage (MC SE)"],
        rows,
    )


# ------------------------------------------------------------------------------ 5. folds
def folds_section(rng, reps, n_truth=400):
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import average_precision_score, roc_auc_score
    from sklearn.model_selection import StratifiedKFold

    beta, b0, n, k = np.array([1.0, 0.8, 0.5, 0.0, 0.0]), -1.5, 500, 10

    def draw(size):
        x = rng.normal(size=(size, 5))
        y = (rng.random(size) < 1 / (1 + np.exp(-(b0 + x @ beta)))).astype(int)
        return x, y

    def fit(x, y):
        return LogisticRegression().fit(x, y)

    x_test, y_test = draw(20_000)
    truth_ap, truth_auc = [], []
    for _ in range(n_truth):
        x, y = draw(n - n // k)
        score = fit(x, y).decision_function(x_test)
        truth_ap.append(average_precision_score(y_test, score))
        truth_auc.append(roc_auc_score(y_test, score))
    truth = {"average_precision": np.mean(truth_ap), "roc_auc": np.mean(truth_auc)}
    hits = {(mt, m): [] for mt in truth for m in ("nadeau_bengio", "t")}
    widths = {key: [] for key in hits}
    for _ in range(reps):
        x, y = draw(n)
        folds = []
        cv = StratifiedKFold(k, shuffle=True, random_state=int(rng.integers(2**31)))
        for tr, te in cv.split(x, y):
            folds.append((y[te], fit(x[tr], y[tr]).decision_function(x[te])))
        for metric in truth:
            for m in ("nadeau_bengio", "t"):
                res = bp.fold_ap_interval(folds, metric=metric, method=m)
                hits[metric, m].append(res.low <= truth[metric] <= res.high)
                widths[metric, m].append(res.high - res.low)
    rows = [
        [mt, f"{truth[mt]:.3f}"]
        + [_fmt(hits[mt, m], widths[mt, m]) for m in ("nadeau_bengio", "t")]
        for mt in truth
    ]
    _table(
        f"10-fold CV of a logistic regression, n={n}, R={reps}: coverage of the expected "
        f"test metric of a model trained on {n - n // k} items",
        ["metric", "target", "Nadeau-Bengio", "naive t"],
        rows,
    )


# -------------------------------------------------------------------------- 6. p-values
def tests_section(rng, reps, n_resamples):
    n, pi, rho = 200, 0.3, 0.6
    mu_b = np.sqrt(5 / 2)  # AUC of N(mu_b, 2) vs N(0, 1) equals that of N(1, 1) vs N(0, 1)

    def exchangeable():
        y = (rng.random(n) < pi).astype(int)
        z = 1.2 * y + rng.normal(size=n)
        return y, z + rng.normal(size=n), z + rng.normal(size=n)

    def different_shapes():
        y = (rng.random(n) < pi).astype(int)
        e = rng.normal(size=n)
        f = rho * e + np.sqrt(1 - rho**2) * rng.normal(size=n)
        return y, 1.0 * y + e, mu_b * y + np.where(y == 1, 2.0, 1.0) * f

    rows = []
    for name, gen in (
        ("exchangeable", exchangeable),
        ("equal AUC, different shapes", different_shapes),
    ):
        rej = {"DeLong (AUC)": [], "permutation (AUC)": [], "permutation (AP)": [], "McNemar": []}
        for _ in range(reps):
            y, a, b = gen()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                d = bp.compare_classifiers(y, a, b, metric="roc_auc", method="delong")
                pa = bp.compare_classifiers(
                    y,
                    a,
                    b,
                    metric="roc_auc",
                    method="permutation",
                    n_resamples=n_resamples,
                    random_seed=rng,
                    progressbar=False,
                )
                pp = (
                    None
                    if gen is not exchangeable
                    else bp.compare_classifiers(
                        y,
                        a,
                        b,
                        metric="average_precision",
                        method="permutation",
                        n_resamples=n_resamples,
                        random_seed=rng,
                        progressbar=False,
                    )
                )
            rej["DeLong (AUC)"].append(d.p_value < 0.05)
            rej["permutation (AUC)"].append(pa.p_value < 0.05)
            if gen is exchangeable:  # equal AP and equal error rates only here
                rej["permutation (AP)"].append(pp.p_value < 0.05)
                rej["McNemar"].append(bp.mcnemar_test(y, a, b, 1.0).p_value < 0.05)
        rows.append([name] + [_fmt(v) if v else "(null false)" for v in rej.values()])
    _table(
        f"Type-I error at 0.05 under equal ROC AUC (n={n}, prevalence {pi}, R={reps})",
        ["null", "DeLong (AUC)", "permutation (AUC)", "permutation (AP)", "McNemar at t=1"],
        rows,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=int, default=400)
    parser.add_argument("--bayes-datasets", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--only", nargs="*", default=None, help="sections: auc op pk joint folds tests"
    )
    args = parser.parse_args()
    rngs = dict(
        zip(
            ("auc", "op", "pk", "joint", "folds", "tests"),
            np.random.default_rng(args.seed).spawn(6),
            strict=True,
        )
    )
    R, B, N = args.datasets, args.bayes_datasets, args.resamples
    sections = {
        "auc": lambda: roc_auc_section(rngs["auc"], R, B, N),
        "op": lambda: operating_point_section(rngs["op"], R, N),
        "pk": lambda: precision_at_k_section(rngs["pk"], R, N),
        "joint": lambda: joint_section(rngs["joint"], R, B),
        "folds": lambda: folds_section(rngs["folds"], min(R, 300)),
        "tests": lambda: tests_section(rngs["tests"], R, 500),
    }
    total = time.perf_counter()
    for name, run in sections.items():
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        run()
        print(f"\n({name}: {time.perf_counter() - t0:.0f} s)")
    print(f"\ntotal {time.perf_counter() - total:.0f} s; seed {args.seed}")


if __name__ == "__main__":
    main()
