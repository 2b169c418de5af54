"""When does "four times as many items would halve the interval" hold? (issue 39, item 8)

The report's verdict says it only where ``halving_holds`` (>= 10 positives, an interval
clear of 0 and 1 by 0.01 and at most 0.5 wide). This study measures the width ratio
(4n items over n items, same population: binormal scores, separation 1.5, prevalence
fixed) of two AP intervals, the logit interval of Boyd et al. and the percentile
bootstrap, for several numbers of positives, with the Monte Carlo SE of the mean ratio.

Run: nice -n 10 python benchmarks/halving_rule.py [--sets 100]
"""

from __future__ import annotations

import argparse

import numpy as np

from bayes_prc import ap_interval
from bayes_prc._report._render import halving_holds


def _data(rng, n, n_pos, separation):
    y = np.zeros(n, bool)
    y[:n_pos] = True
    return y, rng.normal(size=n) + separation * y


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    print(f"{'positives':>9} {'sep':>4} {'method':>9} {'ratio':>7} {'mcse':>6} {'rule':>5}")
    for n_pos, n, sep in (
        (1, 40, 1.5),
        (3, 60, 1.5),
        (10, 40, 1.5),
        (50, 200, 1.5),
        (50, 200, 4.0),
    ):
        for method in ("logit", "bootstrap"):
            ratios, rule = [], []
            for _ in range(args.sets):
                widths = []
                for k in (1, 4):
                    y, s = _data(rng, k * n, k * n_pos, sep)
                    res = ap_interval(
                        y,
                        s,
                        method=method,
                        confidence_level=0.9,
                        n_resamples=400,
                        random_seed=int(rng.integers(2**31)),
                    )
                    widths.append(res.high - res.low)
                    if k == 1:
                        rule.append(halving_holds(n_pos, res.low, res.high))
                if widths[0] > 0:
                    ratios.append(widths[1] / widths[0])
            r = np.asarray(ratios)
            print(
                f"{n_pos:>9} {sep:>4} {method:>9} {r.mean():>7.3f} "
                f"{r.std(ddof=1) / np.sqrt(r.size):>6.3f} {np.mean(rule):>5.2f}"
            )


if __name__ == "__main__":
    main()
