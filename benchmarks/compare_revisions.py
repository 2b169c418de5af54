"""Do two revisions of bayes_prc give the same numbers? (a check of restructuring work)

Runs the same public calls, with explicit options, on many random data sets under an old
revision (checked out in a temporary git worktree) and under the working tree, each in its
own Python process, and compares every number exactly (bitwise equality of float64 after a
JSON round trip, NaN equal to NaN). Options whose name or default changed between the
revisions are passed explicitly: the interval level under whichever name the function
takes (``ci_prob`` or ``confidence_level``).

Usage::

    python benchmarks/compare_revisions.py OLD_REV [--cases 40] [--demo] [--only subgroups]

``--demo`` also renders the demo report under both revisions and compares the HTML with
SVG ids, the run date and the version string masked. ``--only subgroups`` runs only the
``compare_subgroups`` calls; ``--only paired`` the ``compare_classifiers`` calls by every
method but NUTS and ``mcnemar_test`` (every field of each result); ``--only compare`` the
``compare_*`` tables with their ``attrs`` (recommendations); ``--only fitchecks`` every fit
check (the four binormal models', the rank check, the paired, subgroup and pool calibration
checks: each field the check had before they became one ``FitCheck``) and
``pool_intervals``' recommendation. Exit status 1 when anything differs.

Measured (issue 26, the tree and vocabulary restructuring): old = 6dcc1ac (the commit
before the moves) against the working tree after them (2026-11-26), 40 data sets, 20
calls (the pool and contaminated calls on every fifth): every number identical, and
the demo report identical up to SVG ids and date. About 2 min::

    .venv/bin/python benchmarks/compare_revisions.py 6dcc1ac --cases 40 --demo

Measured (the paired models moved into ``paired/``, ``compare/`` split by question;
2026-11-28): ``--only paired`` against 4248df8 (and 7553c07), 40 data sets: every field
of ``compare_classifiers`` by its 8 non-NUTS calls and ``mcnemar_test`` identical;
``--only compare`` against 7553c07, 40 data sets: ``compare_intervals`` (ROC AUC 40/40,
AP 20/20), ``compare_operating_point`` 40/40, ``compare_bands`` 20/20 identical with
their ``attrs``; the demo report identical up to SVG ids and date (``--cases 4 --demo``).
About 10 min each on 2 busy cores.

Measured (one ``FitCheck`` for every fit check, 2026-11-28): ``--only fitchecks`` against
24e6df7, 12 data sets: every former field of the four binormal models' checks and the
rank check (12/12), the paired check (5/5 cases with a joint rank fit) and its
comparison's recommendation and estimate (12/12), the subgroup check's p-values (6/6),
the pool's calibration p-value and ``pool_intervals``' recommendation (6/6) identical.
About 4 min::

    .venv/bin/python benchmarks/compare_revisions.py 24e6df7 --cases 12 --only fitchecks
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- the calls
def _level(func, value=0.9):
    names = inspect.signature(func).parameters
    return {"ci_prob": value} if "ci_prob" in names else {"confidence_level": value}


def _interval(res):
    return [float(res.estimate), float(res.low), float(res.high)]


def _cases(n_cases):
    """Random data sets: binormal, skewed, tied and few-positive, sizes 40 to 600."""
    for i in range(n_cases):
        rng = np.random.default_rng(1000 + i)
        n = int(rng.integers(40, 600))
        prevalence = float(rng.uniform(0.05, 0.5))
        y = (rng.random(n) < prevalence).astype(int)
        y[:2] = [0, 1]
        kind = i % 4
        if kind == 0:
            s = rng.normal(size=n) + rng.uniform(0.3, 2.5) * y
        elif kind == 1:
            s = np.exp(rng.normal(size=n) + 1.5 * y)
        elif kind == 2:
            s = np.round(rng.normal(size=n) + y, 1)  # ties
        else:
            s = rng.beta(2, 5, n) + 0.3 * y * rng.random(n)
        yield i, y, s, rng.normal(size=n) * 0.5 + s


def _digest(*arrays):
    """sha256 of the arrays' float64 bytes: equal only when every value is bit-identical."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(np.asarray(a, dtype=np.float64)).tobytes())
    return h.hexdigest()


def emit_subgroups(i, y, s):
    """``compare_subgroups`` on the case split into 3-6 subgroups: the table, every
    posterior draw (by digest), the pooled population, the comparison rows and the fit
    check."""
    import bayes_prc as bp

    rng = np.random.default_rng(2000 + i)
    sub = rng.integers(0, 3 + i % 4, y.size)
    res = bp.compare_subgroups(y, s, sub, draws=60, tune=60, chains=2, random_seed=11)
    post = res.idata["posterior"]
    row = {
        "compare_subgroups_table": [
            float(np.nansum(res.table.select_dtypes("number").to_numpy(dtype=float))),
            list(map(str, res.table["note"])),
        ],
        "compare_subgroups_draws": _digest(*(post[k].values for k in sorted(post.data_vars))),
        "compare_subgroups_overall": _digest(
            *(res.overall.idata["posterior"][k].values for k in ("average_precision", "roc_auc"))
        ),
        "compare_subgroups_acceptance": [float(v) for v in res.acceptance.values()],
    }
    if i % 5 == 2:  # the comparison fits every subgroup alone: every fifth case
        comp = res.comparison
        row["compare_subgroups_comparison"] = float(
            np.nansum(comp.select_dtypes("number").to_numpy(dtype=float))
        )
        check = res.fit_check(random_seed=12)
        row["compare_subgroups_fit_check"] = [check.p_value, list(check.p_values)]
    return row


#: Names of fields and attrs left out of the comparison (``--ignore``: what a revision
#: added on purpose, e.g. a new attrs key), passed to the emitting processes.
_IGNORE = set(filter(None, os.environ.get("COMPARE_REVISIONS_IGNORE", "").split(",")))


#: Fields renamed between revisions, compared under their new name (FitCheck.observed is
#: FitCheck.statistic since the fit checks became one type).
_RENAMED = {"observed": "statistic"}


def _flat(obj, depth=0):
    """A JSON-able image of a result: numbers as floats, arrays by digest, text as is.

    Dataclass fields in name order (a result type renamed or merged with the same fields
    compares equal); fields and keys named in ``_IGNORE`` left out."""
    import dataclasses

    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (int, float, np.integer, np.floating)):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return _digest(obj) if obj.dtype.kind in "fiub" else list(map(str, obj.ravel()))
    if depth > 4:
        return type(obj).__name__
    if isinstance(obj, dict):
        return [
            [str(k), _flat(v, depth + 1)]
            for k, v in sorted(obj.items(), key=str)
            if str(k) not in _IGNORE
        ]
    if isinstance(obj, (tuple, list)):
        return [_flat(v, depth + 1) for v in obj]
    if dataclasses.is_dataclass(obj):
        return [
            [_RENAMED.get(f.name, f.name), _flat(getattr(obj, f.name), depth + 1)]
            for f in sorted(dataclasses.fields(obj), key=lambda f: _RENAMED.get(f.name, f.name))
            if f.name != "idata" and f.name not in _IGNORE
        ]
    if hasattr(obj, "data_vars"):  # an xarray Dataset: every variable by digest, the attrs
        return [
            [k, _digest(obj[k].values) if obj[k].dtype.kind in "fiub" else str(obj[k].values)]
            for k in sorted(obj.data_vars)
        ] + [_flat(dict(obj.attrs), depth + 1)]
    if hasattr(obj, "select_dtypes"):  # a DataFrame: numbers by digest, text, the attrs
        numbers = obj.select_dtypes("number").to_numpy(dtype=float)
        text = obj.select_dtypes(exclude="number").astype(str).to_numpy().ravel()
        return [_digest(numbers), list(map(str, obj.index)), list(text)] + [
            _flat(dict(obj.attrs), depth + 1)
        ]
    return type(obj).__name__


def emit_paired(i, y, s, s2):
    """``compare_classifiers`` by every method but NUTS (every field of the result, draws by
    digest) and ``mcnemar_test``."""
    import bayes_prc as bp

    level = _level(bp.compare_classifiers)
    row = {}
    for metric in ("average_precision", "roc_auc"):
        methods = ["permutation"]
        methods += (
            ["delong"]
            if metric == "roc_auc"
            else ["bayes", "bayesian_bootstrap", "bootstrap", "jackknife"]
        )
        for m in methods:
            res = bp.compare_classifiers(
                y, s, s2, metric=metric, method=m, n_resamples=200, random_seed=20 + i, **level
            )
            row[f"compare_classifiers_{metric}_{m}"] = _flat(res)
    res = bp.compare_classifiers(
        y,
        s,
        s2,
        method="bayes",
        model="parametric",
        recall=0.5,
        rope=(-0.01, 0.01),
        random_seed=30 + i,
        **level,
    )
    row["compare_classifiers_parametric"] = _flat(res)
    thr = float(np.median(s))
    row["mcnemar_test"] = _flat(bp.mcnemar_test(y, s, s2, thr, thr + 0.1))
    return row


def emit_compare(i, y, s):
    """The ``compare_*`` tables and the recommendations (every value, ``attrs`` included);
    the AP table and the bands on every other case."""
    import bayes_prc as bp

    row = {}
    row["compare_intervals_roc_auc"] = _flat(
        bp.compare_intervals(y, s, metric="roc_auc", n_resamples=100, random_seed=5, ci_prob=0.9)
    )
    row["compare_operating_point"] = _flat(
        bp.compare_operating_point(y, s, n_resamples=100, random_seed=6, ci_prob=0.9)
    )
    if i % 2 == 0:
        row["compare_intervals_ap"] = _flat(
            bp.compare_intervals(y, s, n_resamples=100, random_seed=5, ci_prob=0.9)
        )
        row["compare_bands"] = _flat(
            bp.compare_bands(y, s, n_resamples=100, random_seed=7, ci_prob=0.9)
        )
    return row


def _check_fields(name, check):
    """Every field a fit check had before it became one ``FitCheck`` (the pool's check was
    a bare float p-value): the p-value, the decision, the statistic, the sentence."""
    if isinstance(check, float):
        return {f"{name}.p_value": check}
    out = {}
    for field in ("p_value", "passed", "grade", "significance_level", "observed", "statistic"):
        if hasattr(check, field):
            out[f"{name}.{field}"] = _flat(getattr(check, field))
    for field in ("replicated", "df", "n_categories", "model", "method", "verdict", "reason"):
        if hasattr(check, field):
            out[f"{name}.{field}"] = _flat(getattr(check, field))
    if getattr(check, "p_values", None) is not None:
        out[f"{name}.p_values"] = [float(v) for v in check.p_values]
    return out


def emit_fitchecks(i, y, s, s2):
    """Every fit check: the four binormal models', the rank check on the ordinal data,
    the paired (joint rank) check, the subgroup check and the pool's calibration check
    with ``pool_intervals``' recommended row (the last two on every other case)."""
    import bayes_prc as bp
    from bayes_prc.bayes._fitcheck import rank_fit_check
    from bayes_prc.bayes._ordinal import ordinal_categories

    row = {}
    for model in ("semiparametric", "parametric", "flexible", "contaminated"):
        post = bp.fit_binormal(y, s, model=model, random_seed=3 + i, draws=200, chains=2)
        row.update(_check_fields(f"fit_check_{model}", post.fit_check(random_seed=4)))
    row.update(_check_fields("rank_fit_check", rank_fit_check(ordinal_categories(y, s))))
    res = bp.compare_classifiers(y, s, s2, random_seed=20 + i, **_level(bp.compare_classifiers))
    row.update(_check_fields("paired_fit_check", res.fit_check))
    row["paired_recommendation"] = [res.recommendation, _flat(res.estimate)]
    if i % 2 == 0:
        rng = np.random.default_rng(2000 + i)
        sub = rng.integers(0, 3 + i % 4, y.size)
        sg = bp.compare_subgroups(y, s, sub, draws=60, tune=60, chains=2, random_seed=11)
        row.update(_check_fields("subgroups_fit_check", sg.fit_check(random_seed=12)))
        y_pool = rng.random(20_000) < 0.03
        s_pool = rng.normal(size=y_pool.size) + (1.0 + i % 3) * y_pool
        sel = bp.select_labels(s_pool, 300, random_seed=8)
        prepared = bp.pool.prepare_selection(s_pool, sel, y_pool[sel.indices])
        post = bp.fit_pool(None, prepared, draws=200, chains=1, random_seed=9)
        check = bp.pool.calibration_check(post, prepared, random_seed=3)
        row.update(_check_fields("calibration_check", check))
        table = bp.pool_intervals(
            None, prepared, None, posterior=post, n_resamples=100, random_seed=5, ci_prob=0.9
        )
        row["pool_intervals"] = [
            table.attrs["recommended"],
            table.attrs["recommendation"],
            table.attrs["calibration_p_value"],
        ]
    return row


def emit(n_cases, only=None):
    import bayes_prc as bp

    warnings.simplefilter("ignore")
    out = {}
    for i, y, s, s2 in _cases(n_cases):
        if only == "subgroups":
            out[str(i)] = emit_subgroups(i, y, s)
            continue
        if only == "paired":
            out[str(i)] = emit_paired(i, y, s, s2)
            continue
        if only == "compare":
            out[str(i)] = emit_compare(i, y, s)
            continue
        if only == "fitchecks":
            out[str(i)] = emit_fitchecks(i, y, s, s2)
            continue
        row = {}
        row["ap"] = float(bp.average_precision_score(y, s))
        p, r, t = bp.precision_recall_curve(y, s)
        row["pr_curve"] = [float(np.sum(p)), float(np.sum(r)), float(np.sum(t)), len(t)]
        row["roc_auc"] = float(bp.roc_auc_score(y, s))
        for m in ("logit", "binomial", "bootstrap", "bca"):
            kw = {"n_resamples": 200, "random_seed": 1} if m in ("bootstrap", "bca") else {}
            row[f"ap_interval_{m}"] = _interval(
                bp.ap_interval(y, s, method=m, **_level(bp.ap_interval), **kw)
            )
        for m in ("delong", "hanley_mcneil"):
            row[f"roc_auc_interval_{m}"] = _interval(
                bp.roc_auc_interval(y, s, method=m, **_level(bp.roc_auc_interval))
            )
        thr = float(np.median(s))
        row["precision_interval"] = _interval(
            bp.precision_interval(y, s, threshold=thr, **_level(bp.precision_interval))
        )
        band = bp.bootstrap_pr_band(
            y, s, n_resamples=100, random_seed=2, **_level(bp.bootstrap_pr_band)
        )
        row["bootstrap_band"] = [float(np.nansum(band[k].values)) for k in ("lower", "upper")]
        post = bp.fit_binormal(y, s, draws=200, chains=2, random_seed=3, ci_prob=0.9)
        ap = post.average_precision().values
        row["fit_binormal_ap"] = [float(ap.mean()), float(ap.std()), float(np.median(ap))]
        pb = post.pr_band(np.linspace(0, 1, 11), ci_prob=0.9)
        row["posterior_band"] = [float(pb[k].sum()) for k in ("lower", "median", "upper")]
        cmp = bp.compare_classifiers(
            y,
            s,
            s2,
            method="bootstrap",
            n_resamples=200,
            random_seed=4,
            **_level(bp.compare_classifiers),
        )
        row["compare_classifiers_bootstrap"] = _interval(cmp)
        cmp = bp.compare_classifiers(
            y, s, s2, metric="roc_auc", method="delong", **_level(bp.compare_classifiers)
        )
        row["compare_classifiers_delong"] = _interval(cmp)
        cmp = bp.compare_classifiers(
            y, s, s2, method="bayes", random_seed=6, **_level(bp.compare_classifiers)
        )
        row["compare_classifiers_bayes"] = _interval(cmp)
        if i % 5 == 1:  # the slower ones: every fifth case
            post = bp.fit_binormal(
                y, s, model="contaminated", draws=200, chains=2, random_seed=7, ci_prob=0.9
            )
            row["fit_binormal_contaminated_ap"] = float(post.average_precision().values.mean())
            rng = np.random.default_rng(i)
            y_pool = rng.random(20_000) < 0.03
            s_pool = rng.normal(size=y_pool.size) + 2.0 * y_pool
            sel = bp.select_labels(s_pool, 300, random_seed=8)
            labels = y_pool[sel.indices]
            fit = bp.fit_pool(s_pool, sel, labels, draws=200, chains=1, random_seed=9, ci_prob=0.9)
            row["fit_pool_ap"] = float(fit.average_precision().values.mean())
            design = bp.design_ap_interval(
                s_pool,
                sel,
                labels,
                n_resamples=200,
                random_seed=10,
                **_level(bp.design_ap_interval),
            )
            row["design_ap_interval"] = _interval(design)
        if i % 5 == 0:  # the whole table is slow: every fifth case
            table = bp.compare_intervals(y, s, n_resamples=100, random_seed=5, ci_prob=0.9)
            numbers = table.select_dtypes("number").to_numpy(dtype=float)
            row["compare_intervals"] = [float(np.nansum(numbers)), list(table.index)]
        row.update(emit_subgroups(i, y, s))
        out[str(i)] = row
    return out


# -------------------------------------------------------------------------- the driver
def _run(pythonpath, n_cases, only=None):
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); "
        "sys.path.insert(0, sys.argv[2]); import compare_revisions as c; "
        "print(json.dumps(c.emit(int(sys.argv[3]), sys.argv[4] or None)))"
    )
    args = [str(pythonpath), str(REPO / "benchmarks"), str(n_cases), only or ""]
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _demo(pythonpath, out):
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from bayes_prc.cli import main; "
        "main(['demo', '--force', '-o', sys.argv[2]])"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(pythonpath), str(out)], check=True, capture_output=True
    )
    text = Path(out).read_text()
    for pattern in (
        r'id="[^"]*"',
        r"url\(#[^)]*\)",
        r'href="#[^"]*"',
        r"\d{4}-\d\d-\d\d[ T][\d:]+",
    ):
        text = re.sub(pattern, "<masked>", text)
    return re.sub(r"bayes_prc \S+|bayes-prc \S+", "<version>", text)


def _same(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
        return True
    return a == b


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--demo", action="store_true")
    parser.add_argument(
        "--ignore",
        nargs="*",
        default=[],
        help="field or attrs names to leave out (what the new revision added on purpose)",
    )
    parser.add_argument(
        "--only",
        choices=["subgroups", "paired", "compare", "fitchecks"],
        help="run only the calls of one concept",
    )
    args = parser.parse_args(argv)
    os.environ["COMPARE_REVISIONS_IGNORE"] = ",".join(args.ignore)  # to the emitting runs
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), args.old],
            check=True,
            capture_output=True,
        )
        try:
            old, new = _run(tree, args.cases, args.only), _run(REPO, args.cases, args.only)
            differ = {}
            for case, row in old.items():
                for name, value in row.items():
                    if not _same(value, new[case].get(name)):
                        differ.setdefault(name, []).append(case)
            names = sorted({k for row in old.values() for k in row})
            print(f"{args.cases} random data sets, {len(names)} calls, old = {args.old}")
            for name in names:
                n = sum(name in row for row in old.values())
                bad = differ.get(name, [])
                print(f"  {name:34s} {n - len(bad):3d}/{n} identical  {bad[:5] or ''}")
            demo_same = True
            if args.demo:
                demo_same = _demo(tree, Path(tmp) / "a.html") == _demo(REPO, Path(tmp) / "b.html")
                print(f"  demo report identical up to SVG ids and date: {demo_same}")
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
            )
    return 0 if not differ and demo_same else 1


if __name__ == "__main__":
    sys.exit(main())
