"""What logging into MLflow adds to an evaluation (``bayes_prc.tracking``).

For ``--n`` items (default 1e5, prevalence 0.1), each result is computed once (its time
printed as ``evaluate``) and logged ``--repeats`` times into fresh runs of a local file
store in a temporary folder (``log``: the median; ``ratio`` = log / evaluate). MLflow is
imported before timing (its import, about 1 s, is paid once per session and printed on
its own). The report row: the time ``report(..., mlflow=True)`` spends in
:func:`bayes_prc.tracking.log_report` against the rest of the report.

Command (about 3 min on the 2-core machine)::

    .venv/bin/python benchmarks/tracking_overhead.py --n 100000 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    import mlflow

    print(f"import mlflow: {time.perf_counter() - t0:.2f} s (once per session)")
    import bayes_prc as bp
    from bayes_prc.threshold import choose_threshold
    from bayes_prc.tracking import log_evaluation

    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    folder = Path(tempfile.mkdtemp(prefix="bayes_prc_tracking_"))
    mlflow.set_tracking_uri((folder / "mlruns").as_uri())

    rng = np.random.default_rng(args.seed)
    y = rng.random(args.n) < 0.1
    s = rng.normal(1.5 * y, 1.0)
    s2 = s + rng.normal(0.0, 0.7, args.n)
    evaluations = {
        "compare_intervals": lambda: bp.compare_intervals(y, s, random_seed=0),
        "compare_bands": lambda: bp.compare_bands(y, s, random_seed=0),
        "compare_classifiers": lambda: bp.compare_classifiers(y, s, s2, random_seed=0),
        "compare_models (3)": lambda: bp.compare_models(
            y, {"a": s, "b": s2, "c": s + s2}, random_seed=0
        ),
        "choose_threshold": lambda: choose_threshold(y, s, min_precision=0.5),
    }
    print(f"n = {args.n}, {int(y.sum())} positives; median of {args.repeats} logs")
    print(f"{'result':22s} {'evaluate':>9s} {'log':>7s} {'ratio':>6s}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn in evaluations.items():
            result, t_eval = _timed(fn)
            logs = [_timed(lambda r=result: log_evaluation(r))[1] for _ in range(args.repeats)]
            t_log = statistics.median(logs)
            print(f"{name:22s} {t_eval:8.2f}s {t_log:6.2f}s {t_log / t_eval:6.3f}")

        # the report: the time spent in log_report (timed inside report(..., mlflow=True))
        # against the report's own; a with/without difference drowns in the report's
        # run-to-run spread (about 1 s of 14)
        import bayes_prc.tracking as tracking

        original, spent = tracking.log_report, []

        def timed_log_report(*a, **k):
            out, dt = _timed(lambda: original(*a, **k))
            spent.append(dt)
            return out

        tracking.log_report = timed_log_report
        totals = []
        for k in range(args.repeats):
            path = folder / f"report_{k}.html"
            totals.append(
                _timed(
                    lambda p=path: bp.report(y, s, p, random_seed=0, progressbar=False, mlflow=True)
                )[1]
            )
        tracking.log_report = original
        t_log = statistics.median(spent)
        t_eval = statistics.median(totals) - t_log
        print(f"{'report':22s} {t_eval:8.2f}s {t_log:6.2f}s {t_log / t_eval:6.3f}")


if __name__ == "__main__":
    main()
