"""How large an R-hat chains of a given efficiency show over many parameters at once.

Usage::

    .venv/bin/python benchmarks/rhat_bar.py                      # 1400 parameters
    .venv/bin/python benchmarks/rhat_bar.py --params 1400 --draws 500 1000

A bar such as "every parameter's R-hat at most 1.01" at 200 subgroups (about 1400
parameters: seven per subgroup) is a bar on the largest of 1400 noisy statistics. This
script draws 4 chains of stationary AR(1) series (autocorrelation ``rho``; ``rho = 0`` is
independent draws), so every chain has converged by construction, and prints the median
bulk ESS, the largest rank-normalized split R-hat (ArviZ) over the parameters, and the
share above 1.01. Whatever R-hat the largest of them reaches here is Monte Carlo noise a
perfect sampler of that efficiency shows too.
"""

from __future__ import annotations

import argparse

import numpy as np


def main():
    import arviz as az
    import xarray as xr

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=int, default=1400)
    parser.add_argument("--draws", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--rho", type=float, nargs="+", default=[0.0, 0.3, 0.5, 0.7, 0.8])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print("chains x draws | rho | median bulk ESS | largest R-hat | share above 1.01")
    for draws in args.draws:
        for rho in args.rho:
            e = rng.standard_normal((4, draws, args.params))
            x = np.empty_like(e)
            x[:, 0] = e[:, 0]
            for t in range(1, draws):
                x[:, t] = rho * x[:, t - 1] + np.sqrt(1.0 - rho**2) * e[:, t]
            da = xr.DataArray(x, dims=("chain", "draw", "param"))
            rhat = np.asarray(az.rhat(da))
            ess = np.asarray(az.ess(da))
            print(
                f"4 x {draws} | {rho:.1f} | {np.median(ess):.0f} | {rhat.max():.4f} | "
                f"{np.mean(rhat > 1.01):.3f}"
            )


if __name__ == "__main__":
    main()
