"""Does ``plan_labels`` predict the width of the pool-AP interval that 400 labels give?

For each population, one pool of 200 000 scored items at prevalence 1% is drawn
(:mod:`bayes_prc.populations`). Measured once per population:

- ``fresh``: the mean width of :func:`bayes_prc.fit_pool`'s 90% equal-tailed AP interval
  (default settings: 4 x 1000 draws) over ``--selections`` fresh stratified selections
  of 400 items (``select_labels(s, 400)``), labelled with the pool's real labels (the
  issue's acceptance: "over 100 selections ... plan_labels predicts the mean width").

For each of ``--pilots`` pilots (200 stratified labels, different seeds):

- ``pred``: :func:`bayes_prc.plan_labels`'s ``ap_width`` at budget 400 from the pilot
  (``n_replicates=20``, inner fits with 250 draws): the predicted width of a fresh
  selection of 400;
- ``pred_ext``: its ``ap_width_extended`` (same replicates): the predicted width of the
  pilot extended by ``next_batch`` to 400;
- ``ext``: the mean width measured on ``--extensions`` actual extensions of the pilot
  to 400 by ``next_batch`` (different streams), labelled with the pool's real labels,
  fit_pool defaults.

The acceptance of issue 16 asks ``|pred / fresh - 1| <= 0.25``.

Command (about 25 s per pilot plus 20 s per population on one core; 3 min in all)::

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/plan_labels_check.py --pilots 4 \
        --selections 30 --extensions 15

Measured (seed 0; ``+-`` Monte Carlo standard errors; ``ratio`` = pred / fresh,
``ratio_ext`` = pred_ext / ext):

    population    pool AP         fresh pilot          pred ratio      pred_ext           ext ratio_ext
    binormal       0.1103 0.1020+-0.0040     0 0.0736+-0.0090  0.72 0.0652+-0.0043 0.0826+-0.0048      0.79
    binormal       0.1103 0.1020+-0.0040     1 0.0822+-0.0069  0.81 0.1068+-0.0110 0.1131+-0.0048      0.94
    binormal       0.1103 0.1020+-0.0040     2 0.1504+-0.0206  1.48 0.1519+-0.0094 0.1534+-0.0055      0.99
    binormal       0.1103 0.1020+-0.0040     3 0.2434+-0.0256  2.39 0.2420+-0.0129 0.1659+-0.0121      1.46
    # binormal: 110 s
    gamma_skewed   0.0996 0.0942+-0.0053     0 0.0947+-0.0079  1.00 0.1152+-0.0052 0.1099+-0.0078      1.05
    gamma_skewed   0.0996 0.0942+-0.0053     1 0.1077+-0.0109  1.14 0.1230+-0.0109 0.1255+-0.0091      0.98
    gamma_skewed   0.0996 0.0942+-0.0053     2 0.1369+-0.0111  1.45 0.1500+-0.0102 0.1222+-0.0058      1.23
    gamma_skewed   0.0996 0.0942+-0.0053     3 0.0643+-0.0038  0.68 0.0816+-0.0039 0.0931+-0.0029      0.88
    # gamma_skewed: 83 s
    # pred / fresh: 0.68-2.39 (mean 1.21; within 25%: 3 of 8); pred_ext / ext: 0.79-1.46 (mean 1.04; within 25%: 7 of 8)

The extended prediction follows its target (7 of 8 pilots within 25%); the fresh
prediction does not reach the acceptance's 25% for most pilots (3 of 8): with the model
known (no pilot, a pool drawn from the assumed binormal model) it is within about 10%
(tests/workflows/test_pool_plan.py), so the spread is what a 200-label pilot (a dozen
or so positives) knows about the pool, not the simulation. An unlucky pilot also makes
its own extension wider, which is why ``pred_ext / ext`` is tighter. Extending the pilot
gave intervals 20-25% wider than a fresh selection of 400 (binormal 0.129 vs 0.102,
gamma_skewed 0.113 vs 0.094, means over the four pilots): the pilot's strata were built
for 200 labels.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import bayes_prc as bp
from bayes_prc.populations import population

POPULATIONS = ("binormal", "gamma_skewed")


def make_pool(name, n_pool=200_000, prevalence=0.01, seed=0):
    y, s = population(name, prevalence=prevalence).sample(n_pool, random_seed=seed)
    return np.asarray(y, dtype=bool), np.asarray(s, dtype=np.float64)


def _fit_width(y, s, sel, seed):
    post = bp.fit_pool(s, sel, y[sel.indices], random_seed=seed)
    lo, hi = post.interval("average_precision", ci_prob=0.9, ci_kind="eti").values
    return float(hi - lo)


def _mean_se(widths):
    w = np.asarray(widths)
    return float(w.mean()), float(w.std(ddof=1) / np.sqrt(w.size))


def fresh_width(y, s, budget, selections, seed):
    """Mean (and standard error) of the width over fresh stratified selections."""
    return _mean_se(
        [_fit_width(y, s, bp.select_labels(s, budget, random_seed=10_000 * seed + r), r)
         for r in range(selections)]
    )  # fmt: skip


def extended_width(y, s, sel, budget, extensions):
    """Mean (and standard error) of the width over next_batch extensions of the pilot."""
    y0 = y[sel.indices]
    return _mean_se(
        [_fit_width(y, s, sel.next_batch(y0, budget - sel.indices.size, random_seed=r), r)
         for r in range(extensions)]
    )  # fmt: skip


def predicted_width(y, s, sel, budget, seed, n_replicates=20):
    plan = bp.plan_labels(s, [budget], pilot=(sel, y[sel.indices]),
                          n_replicates=n_replicates, random_seed=seed)  # fmt: skip
    row = plan.loc[budget]
    return tuple(float(row[c]) for c in ("ap_width", "ap_width_se", "ap_width_extended",
                                         "ap_width_extended_se"))  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--populations", nargs="*", default=list(POPULATIONS))
    parser.add_argument("--pilots", type=int, default=3)
    parser.add_argument("--selections", type=int, default=30)
    parser.add_argument("--extensions", type=int, default=15)
    parser.add_argument("--pilot-size", type=int, default=200)
    parser.add_argument("--budget", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"{'population':13s} {'pool AP':>7s} {'fresh':>13s} {'pilot':>5s} {'pred':>13s} "
          f"{'ratio':>5s} {'pred_ext':>13s} {'ext':>13s} {'ratio_ext':>9s}")  # fmt: skip
    ratios, ratios_ext = [], []
    for name in args.populations:
        t0 = time.perf_counter()
        y, s = make_pool(name, seed=args.seed)
        ap = bp.average_precision_score(y, s)
        m, m_se = fresh_width(y, s, args.budget, args.selections, args.seed)
        for p in range(args.pilots):
            sel = bp.select_labels(s, args.pilot_size, random_seed=100 + p)
            w, w_se, we, we_se = predicted_width(y, s, sel, args.budget, 100 + p)
            e, e_se = extended_width(y, s, sel, args.budget, args.extensions)
            ratios.append(w / m)
            ratios_ext.append(we / e)
            print(f"{name:13s} {ap:7.4f} {m:.4f}+-{m_se:.4f} {p:5d} {w:.4f}+-{w_se:.4f} "
                  f"{w / m:5.2f} {we:.4f}+-{we_se:.4f} {e:.4f}+-{e_se:.4f} {we / e:9.2f}",
                  flush=True)  # fmt: skip
        print(f"# {name}: {time.perf_counter() - t0:.0f} s", flush=True)
    r, re_ = np.asarray(ratios), np.asarray(ratios_ext)
    print(f"# pred / fresh: {r.min():.2f}-{r.max():.2f} (mean {r.mean():.2f}; within 25%: "
          f"{np.sum(np.abs(r - 1) <= 0.25)} of {r.size}); pred_ext / ext: "
          f"{re_.min():.2f}-{re_.max():.2f} (mean {re_.mean():.2f}; within 25%: "
          f"{np.sum(np.abs(re_ - 1) <= 0.25)} of {re_.size})")  # fmt: skip


if __name__ == "__main__":
    main()
