"""The ceiling of the subgroup flag: oracle rules that know the population, on empirical AP.

How often can *any* rule flag a subgroup whose AP is about 0.2 below the others' while
staying calibrated? Each data set is drawn as in ``coverage_subgroups.py`` (binormal
family, ``--setting one_worse``: 6-12 subgroups of 40-400 items, prevalence 0.1, the
first subgroup's positives shifted down by 0.55 and its size drawn from
``--worse-size``). Each subgroup's statistic is ``D_g = AP(others) - AP(g)``, the empirical
AP of the other subgroups' items together minus its own. The oracle knows the population
when all subgroups are equal (the null) and, for each data set, simulates ``--null``
replicates of it with the data set's exact subgroup sizes and positive counts, so it
knows each ``D_g``'s null standard deviation ``sd_g`` and the null law of
``max_g D_g / sd_g``:

* ``oracle_fwer``: flag ``g`` when ``D_g / sd_g`` exceeds the null's 0.90 quantile of
  the maximum: any subgroup is flagged in exactly 10% of equal data sets (the issue's
  false-flag bar), with no margin. No rule calibrated at that bar can flag more often
  with the same statistic.
* ``oracle_margin``: flag ``g`` when ``(D_g - margin) / sd_g > z_0.9`` (1.2816): the
  frequentist twin of "P(AP_g < AP_others - margin) > 0.9" with a known sd, per subgroup
  (not corrected for the number of subgroups, as the posterior-probability flag is not).

Rates are printed with their Monte Carlo standard error ``sqrt(p (1 - p) / R)``.

Command (about 1 s per data set at ``--null 200``)::

    .venv/bin/python benchmarks/subgroups_oracle.py --reps 200 --worse-size 360 440
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import stats

import bayes_prc as bp

sys.path.insert(0, str(Path(__file__).parent))
from coverage_subgroups import subgroup_sampler  # noqa: E402

Z90 = stats.norm.ppf(0.9)


def _design(rng, groups, sizes, worse_size, max_pos, setting):
    n_groups = int(rng.integers(groups[0], groups[1] + 1))
    sample = subgroup_sampler("binormal", rng, n_groups, setting)
    data = []
    for g in range(n_groups):
        sized = g == 0 and worse_size is not None
        lo, hi = worse_size if sized else sizes
        top = np.inf if sized else max_pos
        while True:
            y, s = sample(g, int(rng.integers(lo, hi + 1)), rng)
            if 3 <= y.sum() <= top:
                break
        data.append((y, s))
    return data


def _stat(data):
    """``D_g = AP(others) - AP(g)`` for every subgroup."""
    ap = np.array([bp.average_precision_score(y, s) for y, s in data])
    y_all = np.concatenate([y for y, _ in data])
    s_all = np.concatenate([s for _, s in data])
    sizes = np.cumsum([0] + [y.size for y, _ in data])
    out = np.empty(len(data))
    for g in range(len(data)):
        keep = np.ones(y_all.size, bool)
        keep[sizes[g] : sizes[g + 1]] = False
        out[g] = bp.average_precision_score(y_all[keep], s_all[keep]) - ap[g]
    return out


def _null(data, rng, reps):
    """Null replicates of ``D``: every subgroup from the equal population, same counts."""
    out = np.empty((reps, len(data)))
    for r in range(reps):
        rep = []
        for y, _ in data:
            s = np.where(y, rng.normal(1.6, 1.0, y.size), rng.normal(0.0, 1.0, y.size))
            rep.append((y, s))
        out[r] = _stat(rep)
    return out


def one(rng, args, setting):
    data = _design(
        rng, args.groups, args.sizes, args.worse_size if setting != "equal" else None, 40, setting
    )
    d = _stat(data)
    null = _null(data, rng, args.null)
    centre, sd = null.mean(axis=0), null.std(axis=0, ddof=1)
    crit = np.quantile(((null - centre) / sd).max(axis=1), 0.9)
    z = (d - centre) / sd
    return {
        "fwer": z > crit,
        "margin": (d - centre - args.margin) / sd > Z90,
        "positives": int(data[0][0].sum()),
    }


def _rate(hits):
    hits = np.asarray(hits, dtype=float)
    p = hits.mean()
    return f"{p:.3f} +- {np.sqrt(p * (1 - p) / hits.size):.3f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--null", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--groups", type=int, nargs=2, default=(6, 12))
    parser.add_argument("--sizes", type=int, nargs=2, default=(40, 400))
    parser.add_argument("--worse-size", type=int, nargs=2, default=(360, 440))
    parser.add_argument("--setting", choices=("one_worse", "equal"), default="one_worse")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    res = [one(rng, args, args.setting) for _ in range(args.reps)]
    pos = [r["positives"] for r in res]
    print(
        f"setting {args.setting}, {args.reps} data sets, null replicates {args.null}, "
        f"margin {args.margin}; first subgroup's positives median {np.median(pos):.0f} "
        f"({np.min(pos)}-{np.max(pos)})"
    )
    if args.setting == "equal":
        print(
            f"any subgroup flagged: oracle_fwer {_rate([r['fwer'].any() for r in res])}, "
            f"oracle_margin {_rate([r['margin'].any() for r in res])}"
        )
    else:
        print(
            f"worse subgroup flagged: oracle_fwer {_rate([r['fwer'][0] for r in res])}, "
            f"oracle_margin {_rate([r['margin'][0] for r in res])}"
        )
        print(
            f"another subgroup flagged: oracle_fwer "
            f"{_rate([r['fwer'][1:].any() for r in res])}, oracle_margin "
            f"{_rate([r['margin'][1:].any() for r in res])}"
        )


if __name__ == "__main__":
    main()
