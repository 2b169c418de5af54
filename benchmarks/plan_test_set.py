"""How good are the plans of ``plan_test_set``? (docs/planning.md)

Usage::

    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py ratio --n-rep 30
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py width --n-check 400
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py recommended --n-check 40
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py clusters --n-check 200
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py power --n-check 400
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py events --n-check 200
    nice -n 10 .venv/bin/python benchmarks/plan_test_set.py seeds

Every check is independent of the planner's own simulator: the planned ``n`` is
simulated afresh (other seeds) with :meth:`bayes_prc.binormal.Binormal.sample` (all
``n`` items, sorted) and the library's public intervals.

``ratio``
    Width of the recommended AP interval (``compare_intervals``' recommended row, the
    rank-based Bayesian ETI) over the logit interval's on the same test sets, at the
    planned n of a few settings: mean ratio and its MC se (sd / sqrt(R)), beside the
    plan's ``calibration`` (the simulated spread of logit AP over Boyd's se).
``width``
    The acceptance grid: widths 0.05, 0.1, 0.2 x prevalences 0.01, 0.05, 0.3 x AP 0.3,
    0.6, 0.9 (AP above the prevalence). At ``assurance=0.5``: median width at the planned
    n over the target (MC se by the binomial interval of the median's rank); at
    ``assurance=0.8``: the share of widths at or below the target (MC se
    sqrt(p (1 - p) / R)). The width is the logit interval's with its se times the plan's
    ``calibration`` (what the planner predicts for the recommended interval).
``recommended``
    The same with the recommended interval itself (``compare_intervals``) on the
    settings whose planned n is at most 25 000 items (the Bayesian fits take 0.3-3 s).
``clusters``
    ``icc = 0.1``, 5 items per cluster: clustered test sets (a cluster's prevalence is
    Beta with intra-cluster correlation ``icc`` of the labels; the scores share a
    cluster effect of variance ``icc``, so each class keeps its N(d, 1) / N(0, 1) scores)
    at the planned n (the plan's design effect, ``plan deff``); the clustered logit interval
    (``ap_interval(..., groups=...)``, the recommended row of ``compare_intervals(...,
    groups=...)``, with Boyd's se and the jackknife's design effect). Also the
    realised design effect of the AP, var(AP clustered) / var(AP independent).
``deff``
    The AP's design effect computed by ``ap_design_effect`` against the realised one,
    var(AP of clustered sets) / var(AP of independent sets of the same size), from
    ``--n-check`` sets each (relative se sqrt(4 / (R - 1))), ``icc = 0.1``, 5 items per
    cluster, the ``clusters`` generator.
``power``
    Two classifiers, correlated binormal scores: power of the paired jackknife interval
    (``compare_classifiers(method="jackknife")``) at the planned n against ``assurance``.
``seeds``
    The plans' own Monte Carlo error: two settings planned with seeds 0-9, the true share
    below the target at each planned n from 20 000 simulated sets.
``events``
    The rule of thumb "at least 100 events (positives)" on the same targets: the median
    width it gives, against the planned n's positives.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

from bayes_prc.binormal import Binormal  # noqa: E402
from bayes_prc.frequentist import ap_interval  # noqa: E402
from bayes_prc.intervals import logit_interval  # noqa: E402
from bayes_prc.planning import (  # noqa: E402
    SMALL_POSITIVES,
    binormal_separation,
    plan_test_set,
)

WIDTHS = (0.05, 0.1, 0.2)
PREVALENCES = (0.01, 0.05, 0.3)
APS = (0.3, 0.6, 0.9)


def grid(aps=APS):
    for w, pi, ap in itertools.product(WIDTHS, PREVALENCES, aps):
        if ap > pi:
            yield w, pi, ap


def sample(n, pi, ap, rng):
    d = binormal_separation(ap, pi)
    while True:
        y, s = Binormal(d, 1.0, 0.0, 1.0, pi).sample(n, random_seed=rng)
        if 1 <= y.sum() < n:
            return y, s


def logit_width(y, s, calibration=1.0):
    """Width of the logit AP interval with its se times ``calibration`` (the plan's)."""
    r = ap_interval(y, s, method="logit")
    if calibration == 1.0:
        return r.high - r.low
    c = logit_interval(r.estimate, r.n_positives / calibration**2)
    return c.high - c.low


def recommended_widths(y, s, seed):
    from bayes_prc import compare_intervals

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tab = compare_intervals(y, s, methods=["semiparametric_eti", "logit"], random_seed=seed)
    rec = tab.attrs["recommended"]
    return float(tab.loc[rec, "width"]), float(tab.loc["logit", "width"]), rec


def median_se(values):
    """MC se of the median: half the gap of the order statistics at 0.5 +- sqrt(.25/R)."""
    half = math.sqrt(0.25 / values.size)
    lo, hi = np.quantile(values, [0.5 - half, 0.5 + half])
    return (hi - lo) / 2


def run_ratio(args):
    settings = [
        (0.1, 0.05, 0.6),
        (0.2, 0.05, 0.3),
        (0.2, 0.3, 0.6),
        (0.1, 0.3, 0.9),
        (0.2, 0.01, 0.9),
        (0.1, 0.3, 0.6),
        (0.05, 0.3, 0.9),
    ]
    rng = np.random.default_rng(args.seed)
    print("width  prev  AP   n      mean(rec/logit)  se     calibration  rows")
    for w, pi, ap in settings:
        plan = plan_test_set(
            expected=ap,
            prevalence=pi,
            width=w,
            assurance=0.5,
            random_seed=args.seed,
            n_simulations=200,
        )
        ratios, rows = [], set()
        for r in range(args.n_rep):
            y, s = sample(plan.n, pi, ap, rng)
            rec, logit, row = recommended_widths(y, s, r)
            ratios.append(rec / logit)
            rows.add(row)
        ratios = np.array(ratios)
        print(
            f"{w:<5}  {pi:<4}  {ap:<3}  {plan.n:<6} {ratios.mean():.3f}            "
            f"{ratios.std(ddof=1) / math.sqrt(ratios.size):.3f}  {plan.calibration:.3f}"
            f"        {sorted(rows)}",
            flush=True,
        )


def run_width(args):
    rng = np.random.default_rng(args.seed + 1)
    print("assur  width  prev  AP   n        pos     median/target (se)   share<=target (se)")
    for assurance in args.assurance:
        for w, pi, ap in grid():
            t = time.time()
            plan = plan_test_set(
                expected=ap, prevalence=pi, width=w, assurance=assurance, random_seed=args.seed
            )
            widths = np.array(
                [
                    logit_width(*sample(plan.n, pi, ap, rng), plan.calibration)
                    for _ in range(args.n_check)
                ]
            )
            share = float(np.mean(widths <= w))
            print(
                f"{assurance:<5}  {w:<5}  {pi:<4}  {ap:<3}  {plan.n:<8} {plan.positives:<7.0f} "
                f"{np.median(widths) / w:.3f} ({median_se(widths) / w:.3f})        "
                f"{share:.3f} ({math.sqrt(share * (1 - share) / widths.size):.3f})"
                f"   [{time.time() - t:.0f} s]",
                flush=True,
            )


def run_recommended(args):
    rng = np.random.default_rng(args.seed + 2)
    print("assur  width  prev  AP   n      median/target (se)   share<=target (se)  rows")
    for assurance in args.assurance:
        for w, pi, ap in grid(args.aps or APS):
            plan = plan_test_set(
                expected=ap,
                prevalence=pi,
                width=w,
                assurance=assurance,
                random_seed=args.seed,
                n_simulations=args.n_plan if args.few else 200,
            )
            if plan.n > args.max_n or (args.few and plan.positives >= SMALL_POSITIVES):
                continue
            out = [recommended_widths(*sample(plan.n, pi, ap, rng), r) for r in range(args.n_check)]
            widths = np.array([o[0] for o in out])
            share = float(np.mean(widths <= w))
            print(
                f"{assurance:<5}  {w:<5}  {pi:<4}  {ap:<3}  {plan.n:<6} "
                f"{np.median(widths) / w:.3f} ({median_se(widths) / w:.3f})        "
                f"{share:.3f} ({math.sqrt(share * (1 - share) / widths.size):.3f})   "
                f"{sorted({o[2] for o in out})}",
                flush=True,
            )


def clustered_sample(n, m, icc, pi, d, rng):
    g_count = n // m
    g = np.repeat(np.arange(g_count), m)
    a, b = pi * (1 / icc - 1), (1 - pi) * (1 / icc - 1)
    while True:
        p = rng.beta(a, b, g_count)[g]
        y = (rng.random(n) < p).astype(np.int64)
        if 1 <= y.sum() < n:
            break
    s = d * y + math.sqrt(icc) * rng.standard_normal(g_count)[g]
    s = s + math.sqrt(1 - icc) * rng.standard_normal(n)
    return y, s, g


def run_clusters(args):
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(args.seed + 3)
    m, icc = 5, 0.1
    settings = [
        (0.2, 0.3, 0.6),
        (0.2, 0.3, 0.9),
        (0.2, 0.05, 0.6),
        (0.1, 0.3, 0.9),
        (0.2, 0.05, 0.3),
        (0.2, 0.01, 0.9),
        (0.1, 0.05, 0.9),
    ]
    print(
        "assur  width  prev  AP   n     plan deff  deff_AP (se)  median/target (se)  "
        "share<=target (se)"
    )
    for assurance in (0.5, 0.8):
        for w, pi, ap in settings:
            plan = plan_test_set(
                expected=ap,
                prevalence=pi,
                width=w,
                assurance=assurance,
                cluster_size=m,
                icc=icc,
                random_seed=args.seed,
            )
            d = plan.separation
            widths, ap_cl, ap_iid = [], [], []
            for _ in range(args.n_check):
                y, s, g = clustered_sample(plan.n, m, icc, pi, d, rng)
                # the recommended row of compare_intervals(..., groups=g) (same interval)
                r = ap_interval(y, s, method="logit", groups=g)
                widths.append(r.high - r.low)
                ap_cl.append(r.estimate)
                ap_iid.append(average_precision_score(*sample(plan.n, pi, ap, rng)))
            widths = np.array(widths)
            deff = np.var(ap_cl, ddof=1) / np.var(ap_iid, ddof=1)
            deff_se = deff * math.sqrt(4 / (args.n_check - 1))
            share = float(np.mean(widths <= w))
            print(
                f"{assurance:<5}  {w:<5}  {pi:<4}  {ap:<3}  {plan.n:<5} "
                f"{plan.design_effect:.3f}      {deff:.2f} ({deff_se:.2f})"
                f"   {np.median(widths) / w:.3f} ({median_se(widths) / w:.3f})       "
                f"{share:.3f} ({math.sqrt(share * (1 - share) / widths.size):.3f})",
                flush=True,
            )


def run_deff(args):
    from sklearn.metrics import average_precision_score

    from bayes_prc.planning import ap_design_effect

    rng = np.random.default_rng(args.seed + 5)
    m, icc = 5, 0.1
    settings = [
        (0.3, 0.6, 500),
        (0.3, 0.9, 130),
        (0.05, 0.6, 2400),
        (0.05, 0.3, 2200),
        (0.01, 0.6, 10000),
        (0.3, 0.9, 500),
        (0.05, 0.9, 1200),
    ]
    print("prev  AP   n      ap_design_effect  realised (se)  Kish")
    for pi, ap, n in settings:
        d = binormal_separation(ap, pi)
        clustered, independent = [], []
        for _ in range(args.n_check):
            y, s, _ = clustered_sample(n, m, icc, pi, d, rng)
            clustered.append(average_precision_score(y, s))
            independent.append(average_precision_score(*sample(n, pi, ap, rng)))
        deff = np.var(clustered, ddof=1) / np.var(independent, ddof=1)
        se = deff * math.sqrt(4 / (args.n_check - 1))
        print(
            f"{pi:<5} {ap:<4} {n:<6} {ap_design_effect(d, pi, m, icc):.3f}             "
            f"{deff:.3f} ({se:.3f})  {1 + (m - 1) * icc:.1f}",
            flush=True,
        )


def run_power(args):
    from bayes_prc.paired import compare_classifiers

    rng = np.random.default_rng(args.seed + 4)
    settings = [
        (0.6, 0.05, 0.05, 0.7),
        (0.3, 0.05, 0.1, 0.5),
        (0.8, 0.3, 0.05, 0.8),
        (0.6, 0.3, -0.1, 0.3),
        (0.5, 0.01, 0.1, 0.7),
    ]
    print("AP_A  prev  diff   rho  n       planned power (se)  simulated power (se)  [s]")
    for ap, pi, diff, rho in settings:
        t = time.time()
        plan = plan_test_set(
            expected=ap,
            prevalence=pi,
            difference=diff,
            correlation=rho,
            assurance=0.8,
            random_seed=args.seed,
            n_simulations=args.n_plan,
        )
        da, db = plan.separation, binormal_separation(ap + diff, pi)
        cov = np.array([[1.0, rho], [rho, 1.0]])
        hits = []
        for _ in range(args.n_check):
            y = (rng.random(plan.n) < pi).astype(np.int64)
            while not 2 <= y.sum() < plan.n:
                y = (rng.random(plan.n) < pi).astype(np.int64)
            z = rng.multivariate_normal([0.0, 0.0], cov, size=plan.n)
            res = compare_classifiers(y, z[:, 0] + da * y, z[:, 1] + db * y, method="jackknife")
            hits.append(res.low > 0 if diff > 0 else res.high < 0)
        p = float(np.mean(hits))
        print(
            f"{ap:<4}  {pi:<4}  {diff:<+5}  {rho:<3}  {plan.n:<7} {plan.achieved:.3f} "
            f"({plan.achieved_se:.3f})       {p:.3f} ({math.sqrt(p * (1 - p) / len(hits)):.3f})"
            f"         [{time.time() - t:.0f}]",
            flush=True,
        )


def run_seeds(args):
    """The plans' own Monte Carlo error: one setting planned with seeds 0-9 at
    ``assurance=0.8``, the true share below the target at each planned n from 20 000 sets
    of the planner's simulator (checked against ``Binormal.sample`` in the tests)."""
    from bayes_prc.planning._plan import _simulate_ap, _Streams, _widths

    print("width  prev  AP   shares over seeds 0-9                       mean (se)")
    for w, pi, ap in [(0.1, 0.3, 0.6), (0.2, 0.05, 0.3)]:
        d = binormal_separation(ap, pi)
        shares = []
        for seed in range(10):
            plan = plan_test_set(
                expected=ap, prevalence=pi, width=w, assurance=0.8, random_seed=seed
            )
            streams = _Streams(np.random.default_rng(1000 + seed), 20_000)
            a, k = _simulate_ap(plan.n, streams, pi, d)
            shares.append(np.mean(_widths(a, k, 0.95, plan.calibration) <= w))
        shares = np.array(shares)
        print(
            f"{w:<5}  {pi:<4}  {ap:<3}  {np.round(shares, 3)}  {shares.mean():.4f} "
            f"({shares.std(ddof=1) / math.sqrt(shares.size):.4f})",
            flush=True,
        )


def run_events(args):
    rng = np.random.default_rng(args.seed + 5)
    print("width  prev  AP   planned n  planned pos   100 events: n, median width (se)")
    for w, pi, ap in grid():
        plan = plan_test_set(
            expected=ap,
            prevalence=pi,
            width=w,
            assurance=0.5,
            random_seed=args.seed,
            n_simulations=200,
        )
        n100 = int(math.ceil(100 / pi))
        widths = np.array(
            [logit_width(*sample(n100, pi, ap, rng), plan.calibration) for _ in range(args.n_check)]
        )
        print(
            f"{w:<5}  {pi:<4}  {ap:<3}  {plan.n:<10} {plan.positives:<11.0f}   {n100}, "
            f"{np.median(widths):.3f} ({median_se(widths):.3f})",
            flush=True,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "study",
        choices=["ratio", "width", "recommended", "clusters", "deff", "power", "events", "seeds"],
    )
    parser.add_argument("--n-rep", type=int, default=30)
    parser.add_argument("--n-check", type=int, default=400)
    parser.add_argument("--n-plan", type=int, default=400)
    parser.add_argument("--max-n", type=int, default=25_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--few",
        action="store_true",
        help="recommended: only plans with fewer than SMALL_POSITIVES positives (planned with "
        "--n-plan sets per size)",
    )
    parser.add_argument(
        "--assurance", type=float, nargs="+", default=[0.5, 0.8], help="width, recommended: which"
    )
    parser.add_argument(
        "--aps", type=float, nargs="+", default=None, help="recommended: only these APs"
    )
    args = parser.parse_args()
    {
        "ratio": run_ratio,
        "width": run_width,
        "recommended": run_recommended,
        "clusters": run_clusters,
        "deff": run_deff,
        "power": run_power,
        "events": run_events,
        "seeds": run_seeds,
    }[args.study](args)


if __name__ == "__main__":
    main()
