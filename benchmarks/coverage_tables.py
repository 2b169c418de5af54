"""Coverage tables from one or more ``--out`` CSVs of ``coverage_nonnormal.py``.

Usage::

    .venv/bin/python benchmarks/coverage_tables.py /tmp/cov_n1000a.csv /tmp/cov_n1000b.csv

Joins the runs (each run's data sets stay distinct) and prints the two markdown tables of
``docs/coverage.md``: coverage per row and of the recommended row, then the share of data
sets in which each fit check passed and each row was recommended.
"""

import ast
import sys

import numpy as np
import pandas as pd

from bayes_prc.populations import population


def load(paths):
    """One frame of every run's rows; each run's data sets keep distinct numbers."""
    frames = []
    for i, path in enumerate(paths):
        d = pd.read_csv(path)
        d["rep"] = i * 100_000 + d["rep"]
        frames.append(d)
    return pd.concat(frames)


def coverage_table(d):
    order = list(dict.fromkeys(d["population"]))
    methods = list(dict.fromkeys(d["method"]))
    n_rep = d.groupby("population")["rep"].nunique()
    cov = d.pivot_table(index="population", columns="method", values="covered", aggfunc="mean")
    rec = d[d["recommended"]].groupby("population")["covered"].mean()
    lines = [
        "| population | data sets | true AP | " + " | ".join(methods) + " | recommended |",
        "|---" * (len(methods) + 4) + "|",
    ]
    for p in order:
        cells = " | ".join(f"{cov.loc[p, m]:.3f}" for m in methods)
        lines.append(f"| {p} | {n_rep[p]} | {population(p).true_ap:.4f} | {cells} | {rec[p]:.3f} |")
    return "\n".join(lines)


def check_table(d):
    order = list(dict.fromkeys(d["population"]))
    one = d.drop_duplicates(["population", "rep"])
    lines = [
        "| population | mean n_pos | parametric check passed | semiparametric check passed "
        "| rec. binormal_eti | rec. logit | rec. semiparametric_eti |",
        "|---|---|---|---|---|---|---|",
    ]
    for p in order:
        o = one[one.population == p]
        checks = [ast.literal_eval(x) for x in o["fit_checks"]]
        par = np.mean([c.get("parametric", (False,))[0] for c in checks])
        semi = np.mean([c.get("semiparametric", (False,))[0] for c in checks])
        r = d[(d.population == p) & d.recommended]["method"].value_counts() / len(o)
        lines.append(
            f"| {p} | {o.n_pos.mean():.1f} | {par:.3f} | {semi:.3f} "
            f"| {r.get('binormal_eti', 0):.3f} | {r.get('logit', 0):.3f} "
            f"| {r.get('semiparametric_eti', 0):.3f} |"
        )
    return "\n".join(lines)


def main(paths):
    d = load(paths)
    print(coverage_table(d))
    print()
    print(check_table(d))


if __name__ == "__main__":
    main(sys.argv[1:])
