"""Violation rate and recall of ``choose_threshold``'s rows over simulated calibration sets.

For each setting (population, number of positives, precision target) ``--sets``
calibration sets are drawn; on each, every row of :func:`bayes_prc.threshold.choose_threshold`
picks a threshold, and the row **violates** when the true (population) precision at that
threshold is below the target. A row that certifies nothing does not violate (and has
recall 0). Reported per row: the violation rate with its Monte Carlo standard error
``sqrt(p (1 - p) / N)``, the mean true recall at the chosen threshold (0 when nothing is
certified), and how often nothing is certified.

Populations (``bayes_prc.populations`` plus one clustered design):

* ``classifier_probabilities`` at prevalence 0.2 (the most recall any threshold keeps at
  precision 0.8 / 0.9 / 0.95: 0.25 / 0.16 / 0.10; at prevalence 0.1: 0.16 / 0.10 / 0.06);
* ``gamma_skewed`` at prevalence 0.5 (0.79 / 0.45 / 0.17; at 0.1 precision 0.9 keeps
  0.6% of the positives, so the setting would measure nothing);
* ``hard_negatives`` at prevalence 0.5: 12% of the negatives score like positives, so its
  precision never exceeds ``pi / (pi + 0.12 (1 - pi))`` (0.48 at prevalence 0.1, 0.89 at
  0.5): the target 0.8 is reachable (recall up to 0.79), 0.9 and 0.95 are not, so every
  certification there is a violation;
* ``clustered`` (prevalence 0.1): clusters of 5 to 10 items (uniform), each with a random
  effect ``v ~ N(0, 1)`` on the chance of being positive and ``u ~ N(0, 1)`` on the
  score, ``P(y = 1) = expit(a + EFFECT_Y v)``,
  ``score = DELTA y + EFFECT_S u + N(0, SIGMA_E^2)`` (near-duplicate items: a cluster
  scores high or low together, and its labels go together); run twice, without
  ``groups`` (the naive rows) and with ``groups=`` the cluster ids.

Calibration sets of the first three hold exactly the stated number of positives and
``positives (1 - pi) / pi`` negatives (drawn from the class-conditional distributions);
clustered sets hold ``positives / 0.1`` items in whole clusters (positives vary).

True precision at ``t``: ``pi S+(t) / (pi S+(t) + (1 - pi) S-(t))`` with the survival
functions ``S+-`` from ``--truth`` items per class (clustered: the ratio of counts above
``t`` in ``--truth`` items). True recall: ``S+(t)``.

Command (one process; about 15 minutes on a loaded 2-core machine at 1000 sets)::

    nice -n 10 .venv/bin/python benchmarks/coverage_threshold.py --sets 1000

``--quick`` runs 100 sets of two settings. docs/coverage.md ("Choosing a threshold")
keeps the measured table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from bayes_prc.populations import population
from bayes_prc.threshold import choose_threshold

ROWS = ("ltt_bonferroni", "ltt_fixed_sequence", "ltt_split_fixed_sequence", "empirical")
TARGETS = (0.8, 0.9, 0.95)
POSITIVES = (20, 50, 200, 1000)
PREVALENCE = {
    "classifier_probabilities": 0.2,
    "gamma_skewed": 0.5,
    "hard_negatives": 0.5,
    "clustered": 0.1,
}
CI_PROB = 0.95
#: the clustered design: cluster effects on label and score, class shift, item noise
EFFECT_Y, EFFECT_S, DELTA, SIGMA_E = 3.0, 1.5, 3.0, 0.3


class Truth:
    """Population precision and recall at any threshold from a large sample."""

    def __init__(self, pos, neg, prevalence=None):
        self.pos = np.sort(pos)
        self.neg = np.sort(neg)
        self.prevalence = prevalence

    def _above(self, x, t):
        return x.size - np.searchsorted(x, t, side="left")

    def recall(self, t):
        return self._above(self.pos, t) / self.pos.size

    def precision(self, t):
        a = self._above(self.pos, t)
        b = self._above(self.neg, t)
        if self.prevalence is None:  # a finite population (clustered): counts above t
            with np.errstate(invalid="ignore", divide="ignore"):
                return a / (a + b)
        pa = self.prevalence * a / self.pos.size
        pb = (1 - self.prevalence) * b / self.neg.size
        with np.errstate(invalid="ignore", divide="ignore"):
            return pa / (pa + pb)


def clustered(rng, n_items, prevalence=0.1):
    """Items in clusters of 5-10 with cluster random effects on label and score."""
    sizes = rng.integers(5, 11, n_items // 5 + 2)
    sizes = sizes[: np.searchsorted(np.cumsum(sizes), n_items) + 1]
    g = np.repeat(np.arange(sizes.size), sizes)[:n_items]
    u, v = rng.normal(size=(2, sizes.size))
    a = _cluster_intercept(prevalence)
    y = rng.random(g.size) < 1 / (1 + np.exp(-(a + EFFECT_Y * v[g])))
    s = DELTA * y + EFFECT_S * u[g] + SIGMA_E * rng.normal(size=g.size)
    return y.astype(int), s, g


def _cluster_intercept(prevalence):
    # a with E[expit(a + EFFECT_Y v)] = prevalence (Gauss-Hermite quadrature, then bisection)
    x, w = np.polynomial.hermite_e.hermegauss(60)
    w = w / w.sum()
    lo, hi = -20.0, 20.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if (w / (1 + np.exp(-(mid + EFFECT_Y * x)))).sum() < prevalence:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def make_setting(name, truth_size, rng):
    """(draw(rng, positives) -> (y, s, groups), Truth)."""
    pi = PREVALENCE[name]
    if name == "clustered":
        y, s, _ = clustered(rng, truth_size * 2, pi)
        truth = Truth(s[y == 1], s[y == 0])

        def draw(r, positives):
            while True:  # both classes, at least two items each (as Population.sample)
                y, s, g = clustered(r, int(round(positives / pi)), pi)
                if 2 <= y.sum() <= y.size - 2:
                    return y, s, g

        return draw, truth
    pop = population(name, prevalence=0.2)  # class-conditional draws do not depend on pi
    truth = Truth(pop.draw_positive(rng, truth_size), pop.draw_negative(rng, truth_size), pi)

    def draw(r, positives):
        n_neg = int(round(positives * (1 - pi) / pi))
        s = np.concatenate([pop.draw_positive(r, positives), pop.draw_negative(r, n_neg)])
        y = np.r_[np.ones(positives, int), np.zeros(n_neg, int)]
        return y, s, None

    return draw, truth


def run(names, positives, targets, sets, truth_size, seed, out=None):
    rng = np.random.default_rng(seed)
    records = []
    for name in names:
        t0 = time.time()
        draw, truth = make_setting(name, truth_size, rng)
        variants = [("naive", False), ("groups", True)] if name == "clustered" else [("", False)]
        for n_pos in positives:
            hits = {}
            for _ in range(sets):
                y, s, g = draw(rng, n_pos)
                seed_i = int(rng.integers(2**31))
                for target in targets:
                    for label, use_groups in variants:
                        c = choose_threshold(
                            y,
                            s,
                            min_precision=target,
                            ci_prob=CI_PROB,
                            groups=g if use_groups else None,
                            random_seed=seed_i,
                        )
                        thr = c.table["threshold"].to_numpy(float)
                        ok = np.isfinite(thr)
                        prec = np.where(ok, truth.precision(np.nan_to_num(thr)), np.nan)
                        rec = np.where(ok, truth.recall(np.nan_to_num(thr)), 0.0)
                        key = (target, label)
                        hits.setdefault(key, []).append(np.c_[ok & (prec < target), ~ok, rec])
            for (target, label), rows in hits.items():
                arr = np.stack(rows)  # sets x rows x 3
                for j, row in enumerate(ROWS):
                    v = arr[:, j, 0].mean()
                    records.append(
                        {
                            "population": name + (f" ({label})" if label else ""),
                            "positives": n_pos,
                            "target": target,
                            "method": row,
                            "violation": v,
                            "mc_se": np.sqrt(v * (1 - v) / sets),
                            "recall": arr[:, j, 2].mean(),
                            "none": arr[:, j, 1].mean(),
                        }
                    )
        print(f"# {name}: {time.time() - t0:.0f} s", flush=True)
        if out:  # what is done so far, in case a later population fails
            pd.DataFrame.from_records(records).to_csv(out, index=False)
    return pd.DataFrame.from_records(records)


def summary(df, sets):
    """Print the wide table, the acceptance per setting and the averages."""
    pd.set_option("display.width", 250)
    pd.set_option("display.max_rows", 500)
    wide = df.pivot_table(
        index=["population", "positives", "target"],
        columns="method",
        values=["violation", "recall", "none"],
    )
    print(f"\nviolation rate (MC se <= {0.5 / np.sqrt(sets):.4f}), mean true recall, none")
    print(wide.round(3).to_string())
    acc = acceptance(df)
    print("\nacceptance (bound = 1 - ci_prob + 0.02, +0.05 under 50 positives)")
    print(acc.round(3).to_string(index=False))
    rec = "ltt_fixed_sequence"
    ok = acc[f"viol_{rec}"] <= acc["bound"]
    best = acc[[f"recall_{m}" for m in ROWS[:3]]].max(axis=1)
    print(
        f"\nrecommended ({rec}): within the bound in {ok.sum()}/{len(acc)} settings; "
        f"recall >= Bonferroni's in {(acc[f'recall_{rec}'] >= acc['recall_ltt_bonferroni']).sum()}"
        f"/{len(acc)}, >= the best LTT row's in {(acc[f'recall_{rec}'] >= best).sum()}/{len(acc)}"
    )
    print("mean recall over the settings:")
    print(acc[[f"recall_{m}" for m in ROWS[:3]]].mean().round(4).to_string())
    print("\n" + markdown(df))
    return acc


def markdown(df):
    """The docs table: violation rate (fixed sequence, Bonferroni, split, empirical),
    mean true recall of the three LTT rows, and how often the recommended row certifies
    nothing."""
    head = (
        "| population | positives | target | violation: fixed seq. / Bonferroni / split / "
        "empirical | recall: fixed seq. / Bonferroni / split | none certified (fixed seq.) |"
    )
    lines = [head, "|---|---|---|---|---|---|"]
    for (pop, n_pos, target), d in df.groupby(["population", "positives", "target"], sort=False):
        d = d.set_index("method")
        shown = ("ltt_fixed_sequence", "ltt_bonferroni", "ltt_split_fixed_sequence")
        v = " / ".join(f"{d.loc[m, 'violation']:.3f}" for m in (*shown, "empirical"))
        r = " / ".join(f"{d.loc[m, 'recall']:.3f}" for m in shown)
        none = d.loc["ltt_fixed_sequence", "none"]
        lines.append(f"| {pop} | {n_pos} | {target:g} | {v} | {r} | {none:.2f} |")
    return "\n".join(lines)


def acceptance(df, ci_prob=CI_PROB):
    """Per setting: the LTT rows' violation against the bound, and recall side by side."""
    out = []
    for (pop, n_pos, target), d in df.groupby(["population", "positives", "target"]):
        d = d.set_index("method")
        bound = 1 - ci_prob + (0.05 if n_pos < 50 else 0.02)
        out.append(
            {
                "population": pop,
                "positives": n_pos,
                "target": target,
                "bound": bound,
                **{f"viol_{m}": d.loc[m, "violation"] for m in ROWS[:3]},
                **{f"recall_{m}": d.loc[m, "recall"] for m in ROWS[:3]},
            }
        )
    return pd.DataFrame(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--truth", type=int, default=2_000_000, help="items per class for truth")
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--populations", nargs="*", default=list(PREVALENCE))
    ap.add_argument("--positives", nargs="*", type=int, default=list(POSITIVES))
    ap.add_argument("--targets", nargs="*", type=float, default=list(TARGETS))
    ap.add_argument("--quick", action="store_true", help="100 sets, two settings")
    ap.add_argument("--out", default=None, help="write the long table to this CSV")
    ap.add_argument("--summary", default=None, help="only print the tables of this CSV")
    args = ap.parse_args(argv)
    if args.summary:
        return summary(pd.read_csv(args.summary), args.sets)
    if args.quick:
        args.sets, args.truth = 100, 400_000
        args.populations, args.positives = ["gamma_skewed", "clustered"], [200]
    df = run(
        args.populations,
        args.positives,
        args.targets,
        args.sets,
        args.truth,
        args.seed,
        args.out,
    )
    acc = summary(df, args.sets)
    return df, acc


if __name__ == "__main__":
    main()
