"""Coverage of the bootstrap PR bands (whole curve) and of the bootstrap AP interval.

For binormal populations (positives N(1.5, 1), negatives N(0, 1); n = 200 and 1000,
prevalence 0.1 and 0.3) this draws ``--datasets`` data sets per population and reports:

* band coverage: the share of data sets whose 95% band contains the whole true PR curve
  (``Binormal.precision_at_recall``) at every recall of the grid 0.02, 0.04, ..., 0.98,
  for the pointwise and the simultaneous band of :func:`bayes_prc.frequentist.bootstrap_pr_band`,
  with the stratified and the unstratified bootstrap. Recall 0 and 1 are left out: there
  the empirical curve estimates the precision at the top positive / the lowest positive,
  not the population's limits (1 and the prevalence), so no band is consistent there;
* the simultaneous band of the same replicates on the inner grid 0.1, ..., 0.9 only;
* the same for the studentized sup-t band (``kind="simultaneous_t"``), on the same
  replicates, and where it misses (recall below 0.1, 0.1-0.9, above 0.9; true curve
  below or above the band);
* the pointwise hit rate: the mean share of grid points whose band contains the curve;
* AP interval coverage of the 95% percentile bootstrap (``ap_interval(method="bootstrap",
  stratified=True / False)``) at n = 200, prevalence 0.1 (about 20 positives) and the
  other populations, against the population AP.

Monte Carlo SE = sqrt(p (1 - p) / datasets). Run::

    .venv/bin/python benchmarks/coverage_bands.py --datasets 200 --resamples 1000 --jobs 2
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bayes_prc.binormal import Binormal
from bayes_prc.frequentist import ap_interval, bootstrap_pr_band
from bayes_prc.frequentist._bands import simultaneous_band

GRID = np.round(np.arange(1, 50) * 0.02, 10)
INNER = (GRID >= 0.1 - 1e-9) & (GRID <= 0.9 + 1e-9)
POPULATIONS = [(200, 0.1), (200, 0.3), (1000, 0.1), (1000, 0.3)]
LEVEL = 0.95
TAGS = ("strat", "unstrat")
WIDTHS = ("simul", "supt", "inner", "supt_inner")


def one_dataset(args):
    """Band and AP-interval hits of one data set (dicts of booleans / floats)."""
    n, prevalence, seed, n_resamples = args
    model = Binormal(1.5, 1.0, 0.0, 1.0, prevalence)
    truth = np.asarray(model.precision_at_recall(GRID))
    true_ap = float(model.average_precision())
    rng = np.random.default_rng(seed)
    while True:  # at least two positives, so that every method is defined
        y, s = model.sample(n, random_seed=rng)
        if y.sum() >= 2:
            break
    out = {"n_pos": int(y.sum())}
    for stratified in (True, False):
        tag = "strat" if stratified else "unstrat"
        # one integer seed for the three bands: the same replicates (they do not depend
        # on the grid), so the columns compare bands, not resamples
        seed_b = int(rng.integers(2**63))
        kw = {
            "n_resamples": n_resamples,
            "confidence_level": LEVEL,
            "random_seed": seed_b,
            "stratified": stratified,
        }
        band = bootstrap_pr_band(y, s, grid_points=GRID, **kw)
        for key, grid, ok in (("supt", GRID, slice(None)), ("supt_inner", GRID[INNER], INNER)):
            tband = bootstrap_pr_band(y, s, grid_points=grid, kind="simultaneous_t", **kw)
            below = truth[ok] < tband.lower.values - 1e-12
            above = truth[ok] > tband.upper.values + 1e-12
            out[f"{key}_{tag}"] = not (below.any() or above.any())
            out[f"width_{key}_{tag}"] = float(np.mean(tband.upper.values - tband.lower.values))
            if key == "supt":  # where the whole-grid band misses
                miss = below | above
                out[f"where_{tag}"] = (
                    bool(miss[GRID < 0.1 - 1e-9].any()),
                    bool(miss[INNER].any()),
                    bool(miss[GRID > 0.9 + 1e-9].any()),
                    bool(below.any()),
                    bool(above.any()),
                )
        reps = band.precision.values
        lo, hi = band.lower.values, band.upper.values
        inside = (truth >= lo - 1e-12) & (truth <= hi + 1e-12)
        out[f"point_{tag}"] = bool(inside.all())
        out[f"hit_{tag}"] = float(inside.mean())
        slo, shi, _ = simultaneous_band(reps.T, LEVEL, lo, hi)
        out[f"simul_{tag}"] = bool(np.all((truth >= slo - 1e-12) & (truth <= shi + 1e-12)))
        out[f"width_simul_{tag}"] = float(np.mean(shi - slo))
        # the same replicates on the inner grid 0.1, ..., 0.9 (its own envelope)
        m = INNER
        slo, shi, _ = simultaneous_band(reps[:, m].T, LEVEL, lo[m], hi[m])
        out[f"inner_{tag}"] = bool(np.all((truth[m] >= slo - 1e-12) & (truth[m] <= shi + 1e-12)))
        out[f"width_inner_{tag}"] = float(np.mean(shi - slo))
        res = ap_interval(
            y,
            s,
            method="bootstrap",
            n_resamples=n_resamples,
            random_seed=rng,
            stratified=stratified,
        )
        out[f"ap_{tag}"] = bool(res.low <= true_ap <= res.high)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261123)
    args = parser.parse_args()
    seeds = np.random.SeedSequence(args.seed).spawn(len(POPULATIONS))
    cols = [
        ("point_strat", "pointwise, strat."),
        ("simul_strat", "simultaneous, strat."),
        ("point_unstrat", "pointwise, unstrat."),
        ("simul_unstrat", "simultaneous, unstrat."),
        ("inner_strat", "simult. on [0.1, 0.9], strat."),
        ("inner_unstrat", "simult. on [0.1, 0.9], unstrat."),
        ("supt_strat", "sup-t, strat."),
        ("supt_unstrat", "sup-t, unstrat."),
        ("supt_inner_strat", "sup-t on [0.1, 0.9], strat."),
        ("supt_inner_unstrat", "sup-t on [0.1, 0.9], unstrat."),
        ("hit_strat", "pointwise hit rate, strat."),
        ("hit_unstrat", "pointwise hit rate, unstrat."),
        ("ap_strat", "AP pct. bootstrap, strat."),
        ("ap_unstrat", "AP pct. bootstrap, unstrat."),
    ]
    print(f"{args.datasets} data sets per population, {args.resamples} replicates, level 0.95")
    print("| n | prevalence | mean n_pos | " + " | ".join(c[1] for c in cols) + " |")
    print("|---" * (len(cols) + 3) + "|")
    misses = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for (n, prev), ss in zip(POPULATIONS, seeds, strict=True):
            tasks = [(n, prev, child, args.resamples) for child in ss.spawn(args.datasets)]
            rows = list(pool.map(one_dataset, tasks, chunksize=4))
            cells = []
            for key, _ in cols:
                p = float(np.mean([r[key] for r in rows]))
                cells.append(f"{p:.3f}")
            n_pos = np.mean([r["n_pos"] for r in rows])
            print(f"| {n} | {prev} | {n_pos:.1f} | " + " | ".join(cells) + " |", flush=True)
            misses[(n, prev)] = {
                tag: np.concatenate(
                    (
                        np.mean([r[f"where_{tag}"] for r in rows], axis=0),
                        [np.mean([r[f"width_{k}_{tag}"] for r in rows]) for k in WIDTHS],
                    )
                )
                for tag in TAGS
            }
    print("\nWhere the sup-t band misses (share of data sets whose true curve leaves the band")
    print("on recall [0.02, 0.1) / [0.1, 0.9] / (0.9, 0.98]; below / above the band somewhere),")
    print("and the mean width over the grid of the depth envelope and of the sup-t band, on")
    print("recall 0.02-0.98 and (each its own band) on 0.1-0.9")
    print(
        "| n | prevalence | bootstrap | < 0.1 | 0.1-0.9 | > 0.9 | below | above "
        "| width, depth env. | width, sup-t | width on [0.1, 0.9], depth env. "
        "| width on [0.1, 0.9], sup-t |"
    )
    print("|---" * 12 + "|")
    for (n, prev), shares in misses.items():
        for tag in TAGS:
            cells = " | ".join(f"{v:.3f}" for v in shares[tag])
            print(f"| {n} | {prev} | {tag}. | {cells} |")
    for p in (0.95, 0.9, 0.5):
        print(f"MC SE at coverage {p}: {np.sqrt(p * (1 - p) / args.datasets):.3f}")


if __name__ == "__main__":
    main()
