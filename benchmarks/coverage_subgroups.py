"""Per-subgroup AP: partial pooling vs independent fits vs the bootstrap, and the flag rule.

Each data set has ``G`` subgroups (uniform in ``--groups``, default 6-12) of 40-400
items (uniform in ``--sizes``); subgroup ``g`` has its own prevalence
(``expit(logit(p) + 0.4 z)``, ``p`` = ``--prevalence``, default 0.1; a sample is redrawn
until it has 3 to ``--max-positives`` (40) positives), its own score location, and its
own class-conditional score distributions from one of five families:

* ``binormal``: negatives N(0, 1), positives N(mu_g, 1), ``mu_g = 1.6 + 0.3 z``;
* ``gamma``: negatives Gamma(1.5), positives Gamma(k_g), ``k_g = 4 + 0.6 z`` (the ROC is
  not binormal);
* ``beta``: probabilities, negatives Beta(1.5, 6), positives Beta(a_g, 2),
  ``a_g = 4 + 0.8 z``;
* ``mixed``: hard negatives: negatives 0.1 N(2, 1) + 0.9 N(0, 1), positives N(m_g, 1);
* ``classifier``: a logistic regression trained (scikit-learn) on 3000 pooled items of
  a tabular population whose true logit has a subgroup-specific interaction, scored on
  each subgroup (a real classifier's probabilities; subgroups differ as they do in
  practice).

``--setting varied``: the subgroups differ as above, and the first subgroup is clearly
worse (its positives are shifted down; its true AP is printed, about 0.2 below the
others'). ``--setting one_worse``: every other subgroup has the same distributions and
prevalence (0.1), the first is worse as in ``varied``. ``--setting equal``: every
subgroup has the same distributions and prevalence. ``--worse-size`` gives the worse
subgroup its own size range (and only asks it for 3 positives): the flag's power curve
over the worse subgroup's number of positives.
The targets are each subgroup's population AP (400 000 items of that subgroup).

Rows: ``pooled`` (``compare_subgroups``, posterior mean and 90% HDI), ``independent``
(each subgroup's semiparametric fit alone), ``bootstrap`` (per-subgroup percentile
bootstrap), ``empirical`` (RMSE only). Flags: ``prob_below_overall > 0.9`` with
``--margin`` (0.05), and ``prob_below_others > 0.9`` (the default ``versus="others"``):
detection = the worse subgroup flagged (varied); false flag = any subgroup flagged
(equal); the same rules on the independent fits (each subgroup's own posterior against
the pooled model's overall or others' draws: the power without pooling's pull towards
the crowd); against the truth: the pooled population's AP (the subgroups' 400 000-item
samples mixed in the data set's proportions) and each subgroup's complement's AP (the
other subgroups mixed likewise) give each subgroup's true answers, and the flags' power
and false-flag rate per subgroup are printed against them; seed stability = the share of data sets whose set of flagged
subgroups changes when only ``random_seed`` changes (a second fit of every data set);
fit check = the share of data sets whose ``fit_check`` fails at 0.05 (its false-alarm
rate where the model holds, binormal; its power elsewhere).

``SUBGROUP_BENCH_CHECK=0`` skips the fit check and ``SUBGROUP_BENCH_AGAIN=0`` the second
fit (no seed-stability figure), for the long power curves.

Command (about 10 s per data set; ``--jobs 2`` on two cores)::

    .venv/bin/python benchmarks/coverage_subgroups.py --family binormal --setting varied --reps 100

Every rate is printed with its Monte Carlo standard error ``sqrt(p (1 - p) / R)``
(coverage: over subgroups, R = their count); docs/coverage.md keeps the measured ones.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from multiprocessing import Pool

import numpy as np
from scipy import optimize, stats
from scipy.special import expit, logit

import bayes_prc as bp

LEVEL = 0.9
FAMILIES = ("binormal", "gamma", "beta", "mixed", "classifier")


def _classifier(rng, n_groups, worse, equal):
    """A logistic regression trained on pooled tabular data with subgroup interactions."""
    from sklearn.linear_model import LogisticRegression

    beta_g = 0.8 + (0.0 if equal else 0.4) * rng.normal(size=n_groups)
    if worse:
        beta_g[0] = -0.6  # the interaction the shared model cannot learn for subgroup 0

    def draw(g, size, r):
        x = r.normal(size=(size, 4))
        true_logit = -2.6 + 1.2 * x[:, 0] + 0.9 * x[:, 1] ** 2 + beta_g[g] * x[:, 2]
        y = r.random(size) < expit(true_logit)
        return x, y

    xs, ys = [], []
    for g in range(n_groups):
        x, y = draw(g, 3000 // n_groups + 1, rng)
        xs.append(np.column_stack([x, np.full(x.shape[0], g)]))
        ys.append(y)
    model = LogisticRegression(max_iter=1000).fit(np.vstack(xs)[:, :4], np.concatenate(ys))

    def sample(g, size, r):
        x, y = draw(g, size, r)
        return y, model.predict_proba(x)[:, 1]

    return sample


def subgroup_sampler(family, rng, n_groups, setting, prevalence=0.1):
    """``sample(g, size, rng) -> (y, score)`` for each subgroup of one population."""
    equal = setting in ("equal", "one_worse")
    worse = setting in ("varied", "one_worse")
    if family == "classifier":
        return _classifier(rng, n_groups, worse, equal)
    z = np.zeros(n_groups) if equal else rng.normal(size=n_groups)
    shift = np.zeros(n_groups) if equal else 0.5 * rng.normal(size=n_groups)
    prev = (
        np.full(n_groups, prevalence)
        if equal
        else expit(logit(prevalence) + 0.4 * rng.normal(size=n_groups))
    )
    drop = np.zeros(n_groups)
    if worse:
        drop[0] = 0.55

    def draw_pos(g, size, r):
        if family == "binormal":
            return r.normal(1.6 + 0.3 * z[g] - drop[g], 1.0, size)
        if family == "gamma":
            return stats.gamma(max(4.0 + 0.6 * z[g] - 1.8 * drop[g], 1.6)).rvs(size, random_state=r)
        if family == "beta":
            return stats.beta(max(4.0 + 0.8 * z[g] - 2.2 * drop[g], 1.6), 2.0).rvs(
                size, random_state=r
            )
        return r.normal(2.3 + 0.3 * z[g] - drop[g], 1.0, size)  # mixed

    def draw_neg(g, size, r):
        if family == "binormal":
            return r.normal(0.0, 1.0, size)
        if family == "gamma":
            return stats.gamma(1.5).rvs(size, random_state=r)
        if family == "beta":
            return stats.beta(1.5, 6.0).rvs(size, random_state=r)
        hard = r.random(size) < 0.1
        return np.where(hard, r.normal(2.0, 1.0, size), r.normal(0.0, 1.0, size))

    def sample(g, size, r):
        y = r.random(size) < prev[g]
        s = np.empty(size)
        s[y] = draw_pos(g, int(y.sum()), r)
        s[~y] = draw_neg(g, int((~y).sum()), r)
        if family in ("binormal", "mixed"):
            s = s + shift[g]
        elif family == "gamma":
            s = s * np.exp(0.3 * shift[g])
        return y, s

    return sample


def one(args):
    family, setting, rep, seed, margin, groups, priors, worse_size, sizes, prevalence, max_pos = (
        args
    )
    rng = np.random.default_rng([seed, rep])
    n_groups = int(rng.integers(groups[0], groups[1] + 1))
    sample = subgroup_sampler(family, rng, n_groups, setting, prevalence)
    truth = np.empty(n_groups)
    ys, ss, gs, big = [], [], [], []
    for g in range(n_groups):
        yt, st = sample(g, 400_000, rng)
        truth[g] = bp.average_precision_score(yt, st)
        big.append((yt, st))
        sized = g == 0 and setting != "equal" and worse_size
        lo, hi = worse_size if sized else sizes
        top = np.inf if sized else max_pos  # a sized worse subgroup: at least 3 positives
        while True:
            y, s = sample(g, int(rng.integers(lo, hi + 1)), rng)
            if 3 <= y.sum() <= top:
                break
        ys.append(y)
        ss.append(s)
        gs.append(np.full(y.size, g))
    y, s, grp = np.concatenate(ys), np.concatenate(ss), np.concatenate(gs)
    # the pooled population ("overall"): the subgroups mixed in the data set's proportions
    share = np.bincount(grp) / grp.size
    take = [int(round(400_000 * share[g])) for g in range(n_groups)]
    overall = bp.average_precision_score(
        np.concatenate([yt[:k] for (yt, _), k in zip(big, take, strict=True)]),
        np.concatenate([st[:k] for (_, st), k in zip(big, take, strict=True)]),
    )
    # each subgroup's complement ("others"): the other subgroups mixed in their proportions
    others_truth = np.empty(n_groups)
    for g in range(n_groups):
        rest = [h for h in range(n_groups) if h != g]
        scale = 400_000 / sum(take[h] for h in rest)
        k = [int(round(take[h] * scale)) for h in rest]
        others_truth[g] = bp.average_precision_score(
            np.concatenate([big[h][0][: k[i]] for i, h in enumerate(rest)]),
            np.concatenate([big[h][1][: k[i]] for i, h in enumerate(rest)]),
        )
    del big

    def fit():
        return bp.compare_subgroups(
            y,
            s,
            grp,
            ci_prob=LEVEL,
            margin=margin,
            random_seed=int(rng.integers(2**32)),
            priors=priors,
        )

    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = fit()
        seconds = time.process_time() - t0
        # the same data, another seed: does the flagged set change? (SUBGROUP_BENCH_AGAIN=0
        # skips it: half the time, no seed-stability figure)
        again = fit() if os.environ.get("SUBGROUP_BENCH_AGAIN", "1") == "1" else res
        comp = res.comparison
    out = {
        "truth": truth,
        "overall": overall,
        "below": truth < overall - margin,
        "others_truth": others_truth,
        "below_others": truth < others_truth - margin,
        "seconds": seconds,
        "n_groups": n_groups,
    }
    for method in ("pooled", "independent", "bootstrap"):
        rows = comp.xs(method, level="method").reindex(res.table.index)
        out[method] = rows[["estimate", "low", "high"]].to_numpy(dtype=float)
    out["empirical"] = res.table["empirical"].to_numpy(dtype=float)
    out["flags"] = res.table["flagged"].to_numpy()  # versus="others" (the default)
    out["prob_others"] = res.table["prob_below_others"].to_numpy(dtype=float)
    out["flags_overall"] = (
        res.table["prob_below_overall"].to_numpy() > bp.subgroups.FLAG_PROBABILITY
    )
    out["positives"] = res.table["positives"].to_numpy()
    # the same rule on the independent fits (no pooling), against the same overall draws
    ind = res.independent_posterior.values
    below = ind < res.overall.draws.values[..., None] - margin
    out["flags_independent_overall"] = below.mean(axis=(0, 1)) > bp.subgroups.FLAG_PROBABILITY
    others = res.idata["posterior"][f"others_{res.metric}"].values
    below = ind < others - margin
    out["flags_independent"] = below.mean(axis=(0, 1)) > bp.subgroups.FLAG_PROBABILITY
    out["flags_again"] = again.table["flagged"].to_numpy()
    out["borderline"] = res.table["borderline"].to_numpy() | again.table["borderline"].to_numpy()
    check = os.environ.get("SUBGROUP_BENCH_CHECK", "1") == "1"
    seed_check = int(rng.integers(2**32))
    out["check_p"] = res.fit_check(random_seed=seed_check, n_draws=300).p_value if check else np.nan
    return out


#: Thresholds of prob_below_others in the operating-characteristic lines.
SWEEP = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def _rate(hits):
    hits = np.asarray(hits, dtype=float)
    p = hits.mean()
    return f"{p:.3f} +- {np.sqrt(p * (1 - p) / hits.size):.3f}"


def _linear_shrinkage(results):
    """RMSE gains of two linear shrinkages of the independent estimates (references).

    Each subgroup's independent estimate ``y`` with its sd ``s`` (the 90% interval's
    width / 3.29) is moved towards a centre ``m`` by ``s^2 / (s^2 + tau^2)``: with ``m``
    and ``tau`` estimated from the data set (normal random effects, REML), and with the
    oracle's ``m`` and ``tau`` (the mean and sd of the data set's true subgroup APs).
    """
    z = 2 * stats.norm.ppf(0.5 + LEVEL / 2)
    sq = {"reml": [], "oracle": [], "independent": []}
    for r in results:
        ind = r["independent"]
        ok = np.all(np.isfinite(ind), axis=1)
        y, s, t = ind[ok, 0], (ind[ok, 2] - ind[ok, 1]) / z, r["truth"][ok]

        def reml(log_tau, y=y, s=s):
            v = s**2 + np.exp(2 * log_tau)
            w = 1 / v
            m = np.sum(w * y) / np.sum(w)
            return 0.5 * (np.sum(np.log(v) + (y - m) ** 2 / v) + np.log(np.sum(w)))

        tau2 = np.exp(2 * optimize.minimize_scalar(reml, bounds=(-8, 1), method="bounded").x)
        w = 1 / (s**2 + tau2)
        m = np.sum(w * y) / np.sum(w)
        sq["reml"].append((y - s**2 * w * (y - m) - t) ** 2)
        sq["oracle"].append((y - s**2 / (s**2 + t.var()) * (y - t.mean()) - t) ** 2)
        sq["independent"].append((y - t) ** 2)
    rmse = {k: np.sqrt(np.mean(np.concatenate(v))) for k, v in sq.items()}
    return {k: 1 - rmse[k] / rmse["independent"] for k in ("reml", "oracle")}


def _by_subgroup(results):
    """With a fixed, small number of subgroups (``--groups 2 2``): each subgroup's bias,
    RMSE and coverage (does pooling pull a small subgroup towards a large one?)."""
    sizes = {r["n_groups"] for r in results}
    if len(sizes) != 1 or sizes.pop() > 4:
        return []
    lines = ["by subgroup (0 = the worse one in 'varied'/'one_worse'):"]
    for g in range(results[0]["n_groups"]):
        truth = np.array([r["truth"][g] for r in results])
        pos = np.array([r["positives"][g] for r in results])
        parts = [
            f"  subgroup {g}: positives median {np.median(pos):.0f}, true AP {truth.mean():.3f}"
        ]
        for method in ("pooled", "independent", "empirical"):
            est = np.array(
                [r[method][g, 0] if method != "empirical" else r[method][g] for r in results]
            )
            ok = np.isfinite(est)
            err = est[ok] - truth[ok]
            row = (
                f"    {method:<12} bias {err.mean():+.4f} (+- {err.std(ddof=1) / np.sqrt(err.size):.4f})"
                f", RMSE {np.sqrt(np.mean(err**2)):.4f}"
            )
            if method != "empirical":
                arr = np.array([r[method][g] for r in results])[ok]
                row += f", coverage {_rate((arr[:, 1] <= truth[ok]) & (truth[ok] <= arr[:, 2]))}"
            parts.append(row)
        lines.extend(parts)
    return lines


def summarize(results, setting):
    truth = np.concatenate([r["truth"] for r in results])
    lines = [f"data sets: {len(results)}, subgroups: {truth.size}"]
    lines.append(f"{'row':<12} {'RMSE':>8} {'coverage (90%)':>18} {'mean width':>11}")
    for method in ("pooled", "independent", "bootstrap", "empirical"):
        if method == "empirical":
            est = np.concatenate([r["empirical"] for r in results])
            ok = np.isfinite(est)
            rmse = np.sqrt(np.mean((est[ok] - truth[ok]) ** 2))
            lines.append(f"{method:<12} {rmse:8.4f}")
            continue
        arr = np.concatenate([r[method] for r in results])
        ok = np.all(np.isfinite(arr), axis=1)
        rmse = np.sqrt(np.mean((arr[ok, 0] - truth[ok]) ** 2))
        cover = (arr[ok, 1] <= truth[ok]) & (truth[ok] <= arr[ok, 2])
        width = np.mean(arr[ok, 2] - arr[ok, 1])
        lines.append(f"{method:<12} {rmse:8.4f} {_rate(cover):>18} {width:11.3f}")
    lines.extend(_by_subgroup(results))
    pooled = np.concatenate([r["pooled"][:, 0] for r in results])
    indep = np.concatenate([r["independent"][:, 0] for r in results])
    ok = np.isfinite(indep)
    gain = 1 - np.sqrt(np.mean((pooled[ok] - truth[ok]) ** 2)) / np.sqrt(
        np.mean((indep[ok] - truth[ok]) ** 2)
    )
    lines.append(f"RMSE reduction of pooled vs independent (same subgroups): {gain:.1%}")
    ref = _linear_shrinkage(results)
    lines.append(
        "  references, linear shrinkage of the independent estimates: spread by REML "
        f"{ref['reml']:.1%}, oracle (each data set's true mean and spread) {ref['oracle']:.1%}"
    )
    if setting in ("varied", "one_worse"):
        others = [r["truth"][1:].mean() - r["truth"][0] for r in results]
        worse_pos = [r["positives"][0] for r in results]
        lines.append(
            f"worse subgroup: true AP below the others' mean by {np.mean(others):.3f}; "
            f"its positives: median {np.median(worse_pos):.0f} "
            f"(range {np.min(worse_pos)}-{np.max(worse_pos)})"
        )
        gap = [r["others_truth"][0] - r["truth"][0] for r in results]
        lines.append(f"worse subgroup: true AP below the others' by {np.mean(gap):.3f}")
        for rule, key in (("others", ""), ("overall", "_overall")):
            ind = [r[f"flags_independent{key}"][0] for r in results]
            lines.append(
                f"detection, versus={rule!r} (worse subgroup flagged): pooled "
                f"{_rate([r['flags' + key][0] for r in results])}, the same rule on the "
                f"independent fits {_rate(ind)}"
            )
        wrong = [r["flags"][1:].any() for r in results]
        lines.append(f"another subgroup flagged (versus='others'): {_rate(wrong)}")
    else:
        for rule, key in (("others", ""), ("overall", "_overall")):
            lines.append(
                f"false flag, versus={rule!r} (any subgroup flagged): pooled "
                f"{_rate([r['flags' + key].any() for r in results])}, independent fits "
                f"{_rate([r['flags_independent' + key].any() for r in results])}"
            )
    for rule, key, truth_key in (("others", "", "below_others"), ("overall", "_overall", "below")):
        below = np.concatenate([r[truth_key] for r in results])
        for name, flag_key in (("pooled", "flags"), ("independent", "flags_independent")):
            flags = np.concatenate([r[flag_key + key] for r in results])
            lines.append(
                f"versus={rule!r}, {name}: truly below - margin: {below.sum()} of "
                f"{below.size} subgroups; flagged among them (power): "
                f"{_rate(flags[below]) if below.any() else 'n/a'}; among the others (false "
                f"flags per subgroup): {_rate(flags[~below])}"
            )
    # the flag's operating characteristic: the same posterior probability at other
    # thresholds than FLAG_PROBABILITY (worse subgroup flagged / any subgroup flagged)
    parts = []
    for level in SWEEP:
        if setting in ("varied", "one_worse"):
            hit = _rate([r["prob_others"][0] > level for r in results])
            other = _rate([np.any(r["prob_others"][1:] > level) for r in results])
            parts.append(f"  {level:.2f}: worse subgroup {hit}; another subgroup {other}")
        else:
            parts.append(
                f"  {level:.2f}: any subgroup {_rate([np.any(r['prob_others'] > level) for r in results])}"
            )
    lines += ["prob_below_others above each threshold (share of data sets):", *parts]
    if os.environ.get("SUBGROUP_BENCH_AGAIN", "1") == "1":
        change = [np.any(r["flags"] != r["flags_again"]) for r in results]
        lines.append(f"flagged set changes with the seed alone: {_rate(change)}")
        flips = np.concatenate([r["flags"] != r["flags_again"] for r in results])
        marked = np.concatenate([r["borderline"] for r in results])
        lines.append(
            f"subgroups whose flag changed with the seed: {flips.sum()}, of them noted borderline "
            f"in either run: {(flips & marked).sum()}; subgroups noted borderline: "
            f"{marked.sum()} of {marked.size}"
        )
    else:
        lines.append("seed stability: not measured (SUBGROUP_BENCH_AGAIN=0)")
    checks = np.array([r["check_p"] for r in results])
    if np.isfinite(checks).all():
        lines.append(f"fit check fails (p < 0.05): {_rate(checks < 0.05)}")
    secs = np.array([r["seconds"] for r in results])
    lines.append(f"compare_subgroups CPU time per data set: median {np.median(secs):.1f} s")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=FAMILIES, default="binormal")
    parser.add_argument("--setting", choices=("varied", "one_worse", "equal"), default="varied")
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--groups", type=int, nargs=2, default=(6, 12))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--sizes", type=int, nargs=2, default=(40, 400), help="size range of the subgroups"
    )
    parser.add_argument(
        "--worse-size",
        type=int,
        nargs=2,
        default=None,
        help="size range of the worse subgroup (default: --sizes)",
    )
    parser.add_argument(
        "--prevalence", type=float, default=0.1, help="the subgroups' typical prevalence"
    )
    parser.add_argument(
        "--max-positives",
        type=int,
        default=40,
        help="a subgroup sample is redrawn until it has 3 to this many positives",
    )
    parser.add_argument(
        "--prior",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        default=[],
        help="a SubgroupPriors field and its value (repeatable), e.g. --prior mu_df 1",
    )
    parser.add_argument("--save", help="pickle the per-data-set results to this file")
    args = parser.parse_args(argv)
    priors = {name: float(value) for name, value in args.prior} or None
    tasks = [
        (
            args.family,
            args.setting,
            r,
            args.seed,
            args.margin,
            tuple(args.groups),
            priors,
            tuple(args.worse_size) if args.worse_size else None,
            tuple(args.sizes),
            args.prevalence,
            args.max_positives,
        )
        for r in range(args.reps)
    ]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(one, tasks)
    else:
        results = [one(t) for t in tasks]
    print(
        f"family {args.family}, setting {args.setting}, margin {args.margin}, level {LEVEL}, "
        f"priors {priors or 'default'}, subgroups of {args.sizes[0]}-{args.sizes[1]} items "
        f"(worse one: {args.worse_size or args.sizes}), prevalence {args.prevalence}, "
        f"3-{args.max_positives} positives"
    )
    print(summarize(results, args.setting))
    if args.save:
        import pickle

        with open(args.save, "wb") as fh:
            pickle.dump(results, fh)


if __name__ == "__main__":
    main()
