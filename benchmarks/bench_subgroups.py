"""compare_subgroups: wall time at 200 subgroups, and the sampler against PyMC's NUTS.

Usage::

    .venv/bin/python benchmarks/bench_subgroups.py                 # both parts
    .venv/bin/python benchmarks/bench_subgroups.py --skip-nuts     # the timing only

Part 1 (issue 29's acceptance: under 60 s on 2 cores): ``compare_subgroups`` with its
defaults on ``--groups`` subgroups of ``--size`` items (15% positives, binormal scores),
wall and CPU time, split into sampling and the rest, the smallest bulk ESS of the
subgroups' AP, and every parameter's smallest bulk ESS and largest R-hat.

Part 2: on 8 subgroups of 60-300 items, the fast sampler and PyMC's NUTS on the same model
(``build_subgroup_model``, 4 chains of 1000 draws after 1000 tuning steps, one core):
seconds per effective draw of the subgroups' AP (the smallest bulk ESS over subgroups), and
the ratio.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np


def _data(rng, sizes, mus, prevalence=0.15):
    ys, ss, gs = [], [], []
    for g, (n, mu) in enumerate(zip(sizes, mus, strict=True)):
        y = rng.random(n) < prevalence
        ys.append(y)
        ss.append(np.where(y, rng.normal(mu, 1, n), rng.normal(0, 1, n)) + 0.2 * g)
        gs.append(np.full(n, g))
    return map(np.concatenate, (ys, ss, gs))


def _min_ess(draws):
    import arviz as az

    return float(min(az.ess(draws[..., g]) for g in range(draws.shape[-1])))


def part1(groups, size, seed):
    import bayes_prc as bp

    rng = np.random.default_rng(seed)
    y, s, g = _data(rng, [size] * groups, 1.5 + 0.3 * rng.normal(size=groups))
    t0, c0 = time.perf_counter(), time.process_time()
    res = bp.compare_subgroups(y, s, g, random_seed=seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ess = _min_ess(res.posterior.values)
    print(
        f"{groups} subgroups of {size} items: compare_subgroups {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU; smallest AP bulk ESS {ess:.0f} of "
        f"{res.posterior.sizes['chain'] * res.posterior.sizes['draw']} draws"
    )
    import arviz as az

    print("  every parameter (smallest bulk ESS, largest R-hat):")
    post = res.idata["posterior"]
    rows = []
    for name in post.data_vars:
        rows.append(
            (float(np.nanmin(az.ess(post[name]))), float(np.nanmax(az.rhat(post[name]))), name)
        )
    for ess_min, rhat_max, name in sorted(rows):
        print(f"    {name:26s} {ess_min:7.0f} {rhat_max:8.4f}")


def part2(seed):
    import pymc as pm

    from bayes_prc.subgroups._fit import _metric_draws
    from bayes_prc.subgroups._model import SubgroupPriors, subgroup_data
    from bayes_prc.subgroups._pymc import build_subgroup_model
    from bayes_prc.subgroups._sampler import sample_subgroups

    rng = np.random.default_rng(seed)
    sizes = rng.integers(60, 300, 8)
    y, s, g = _data(rng, sizes, 1.5 + 0.3 * rng.normal(size=8))
    data = subgroup_data(y, s, g, np.arange(8))
    priors = SubgroupPriors()
    t0 = time.perf_counter()
    fast = sample_subgroups(data, priors, draws=1000, tune=1000, chains=4, rng=rng)
    t_fast = time.perf_counter() - t0
    ess_fast = _min_ess(
        _metric_draws(fast["mu"], fast["sigma"], fast["prevalence"], "average_precision")
    )
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with build_subgroup_model(data, priors):
            idata = pm.sample(
                1000,
                tune=1000,
                chains=4,
                cores=1,
                random_seed=seed,
                target_accept=0.95,
                progressbar=False,
            )
    t_nuts = time.perf_counter() - t0
    post = idata.posterior
    ap = _metric_draws(
        post["mu"].values, post["sigma"].values, post["prevalence"].values, "average_precision"
    )
    ess_nuts = _min_ess(ap)
    per_fast, per_nuts = t_fast / ess_fast, t_nuts / ess_nuts
    print(
        f"8 subgroups ({sizes.sum()} items): fast {t_fast:.1f} s, ESS {ess_fast:.0f}; "
        f"NUTS {t_nuts:.1f} s (compile included), ESS {ess_nuts:.0f}"
    )
    print(
        f"seconds per effective draw: fast {per_fast:.4f}, NUTS {per_nuts:.4f}; "
        f"speed-up {per_nuts / per_fast:.1f}x"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--size", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-nuts", action="store_true")
    args = parser.parse_args(argv)
    part1(args.groups, args.size, args.seed)
    if not args.skip_nuts:
        part2(args.seed)


if __name__ == "__main__":
    main()
