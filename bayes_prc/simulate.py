r"""Simulation studies of the AUC-PR confidence intervals.

:func:`coverage_study` draws many data sets from a :class:`~bayes_prc.binormal.Binormal`
model, computes :func:`~bayes_prc.frequentist.ap_interval` by several methods on each, and
reports how often each interval covers the model's true average precision.

Run as a script to print a coverage table (the command used for ``docs/coverage.md``)::

    python -m bayes_prc.simulate --n 1000 --n-rep 1000 --prevalence 0.1 \
        --methods logit binomial bootstrap bca bayesian_bootstrap cross_validation --seed 0
"""

from __future__ import annotations

import argparse
import numbers
import warnings

import numpy as np

from ._core import (
    Progress,
    check_bool,
    check_choice,
    check_int,
    check_probability,
    check_progressbar,
    plain,
)
from .binormal import Binormal
from .empirical import AUC_PR_ESTIMATORS, as_ranked, auc_pr
from .frequentist import AP_INTERVAL_METHODS, ap_interval

__all__ = ["coverage_study"]

TARGETS = ("analytic", "mean_estimate")


def _root_seed(random_seed):
    if isinstance(random_seed, np.random.Generator):
        return np.random.SeedSequence(int(random_seed.integers(2**63)))
    if isinstance(random_seed, np.random.SeedSequence):
        return random_seed
    if random_seed is None or (
        isinstance(random_seed, numbers.Integral) and not isinstance(random_seed, bool)
    ):
        return np.random.SeedSequence(random_seed)
    raise ValueError(
        f"`random_seed` must be None, an int or a numpy.random.Generator; got {plain(random_seed)}"
    )


def _check_methods(methods):
    if isinstance(methods, str):
        methods = (methods,)
    methods = tuple(methods)
    if not methods:
        raise ValueError("`methods` must name at least one interval method; got ()")
    for m in methods:
        check_choice(m, "methods", AP_INTERVAL_METHODS)
    if len(set(methods)) != len(methods):
        raise ValueError(f"`methods` must not repeat a method; got {plain(methods)}")
    return methods


def coverage_study(
    model=None,
    *,
    n=1000,
    n_rep=200,
    methods=("logit", "binomial", "bootstrap"),
    estimator="average_precision",
    confidence_level=0.95,
    target="analytic",
    n_resamples=500,
    random_seed=None,
    progressbar=None,
    keep_intervals=False,
):
    r"""Coverage of the AUC-PR intervals in data simulated from a binormal model.

    Each of ``n_rep`` replications draws ``n`` labelled scores from ``model``
    (:meth:`~bayes_prc.binormal.Binormal.sample`), and computes
    :func:`~bayes_prc.frequentist.ap_interval` with each of ``methods``. For each method
    the study reports the fraction of intervals containing the target, its binomial
    standard error, the mean width and the number of failures.

    Parameters
    ----------
    model : Binormal, optional
        A single binormal model (``batch_shape == ()``). Default
        ``Binormal(1, 1, 0, 1, 0.1)`` (true AP 0.2928).
    n : int, default 1000
        Items per simulated data set.
    n_rep : int, default 200
        Number of replications. The standard error of a coverage near 0.95 is
        ``sqrt(0.95 * 0.05 / n_rep)``: 0.0075 for 850 replications, so about 850 are
        needed to resolve the coverage to +-1.5 points (two standard errors).
    methods : sequence of str, default ("logit", "binomial", "bootstrap")
        Methods of :func:`~bayes_prc.frequentist.ap_interval`.
    estimator : str, default "average_precision"
        One of :data:`bayes_prc.AUC_PR_ESTIMATORS`.
    confidence_level : float, default 0.95
    target : {"analytic", "mean_estimate"}, default "analytic"
        What an interval should cover. ``"analytic"``: the model's true AP,
        :meth:`Binormal.average_precision` (the integral of the population PR curve),
        which is what an interval for AP is meant to cover. ``"mean_estimate"``: the mean
        of the point estimates over the replications, the choice of seed 000's coverage
        test. The two differ by the estimator's finite-sample bias: a biased estimator
        with well-calibrated spread covers its own mean at the nominal rate but the true
        AP less often, so ``"mean_estimate"`` measures only the width (calibration around
        the estimator's expectation) and hides the bias.
    n_resamples : int, default 500
        Replicates of the resampling methods.
    random_seed : None, int or numpy.random.Generator, optional
        Seed of the study. Each replication gets its own child seed, and within it the
        data and each method get their own streams, so a method's results do not depend
        on which other methods are run.
    progressbar : bool or None, default None
        Text progress on stderr over the replications; None: only on a terminal.
    keep_intervals : bool, default False
        Also return the intervals of every replication: variables ``low`` and ``high``
        (method, replication), ``estimate`` and ``n_positives`` (replication).

    Returns
    -------
    xarray.Dataset
        Dim ``interval`` (the interval methods; also the indexed coordinate
        ``method`` along it, kept for older code), with variables ``coverage``, ``coverage_se``
        (``sqrt(c (1 - c) / n_valid)``), ``miss_low`` and ``miss_high`` (fractions of
        valid intervals entirely above / below the target), ``mean_width``,
        ``median_width``, ``n_valid`` and ``n_failures`` (exceptions, e.g. a data set
        without positives, or NaN ends). Attributes: ``target``, ``target_value``,
        ``true_ap``, ``mean_estimate``, ``sd_estimate``, ``mean_n_positives``,
        ``model``, ``n``, ``n_rep``, ``estimator``, ``confidence_level``,
        ``n_resamples``. ``ds.to_dataframe()`` gives one row per method.

    Notes
    -----
    Seed 000's ``logit_confidence_interval_coverage_test`` is
    ``coverage_study(Binormal(1, 1, 0, 1, 0.1), n=1000, n_rep=1000, methods=("logit",),
    estimator="lower_trapezoid", confidence_level=0.95, target="mean_estimate")``: there
    ``~alpha:0.1`` is the prevalence and ``0.05`` the miss rate of the interval, whose
    ``n`` is the number of positives.

    Boyd, Eng & Page (2013) found the binomial and logit intervals near nominal coverage
    with enough positives (about 100 or more) and AP away from 0 and 1, and poor with few
    positives or extreme AP; ``docs/coverage.md`` has the table.

    References
    ----------
    Boyd, K.; Eng, K. H.; Page, C. D. (2013). "Area under the precision-recall curve:
    point estimates and confidence intervals". ECML PKDD 2013, LNCS 8190, pp. 451-466.

    Examples
    --------
    >>> from bayes_prc.simulate import coverage_study
    >>> ds = coverage_study(n=500, n_rep=20, methods=("logit", "binomial"), random_seed=0)
    >>> ds.coverage.dims, int(ds.n_valid.sel(interval="logit"))
    (('interval',), 20)
    >>> round(ds.attrs["true_ap"], 4)
    0.2928
    >>> list(ds.to_dataframe().columns[:3])
    ['coverage', 'coverage_se', 'miss_low']
    """
    import xarray as xr

    if model is None:
        model = Binormal(1.0, 1.0, 0.0, 1.0, 0.1)
    if not isinstance(model, Binormal) or model.batch_shape != ():
        raise ValueError(f"`model` must be a single Binormal (batch_shape ()); got {plain(model)}")
    n = check_int(n, "n")
    n_rep = check_int(n_rep, "n_rep")
    methods = _check_methods(methods)
    estimator = check_choice(estimator, "estimator", AUC_PR_ESTIMATORS)
    level = check_probability(confidence_level)
    target = check_choice(target, "target", TARGETS)
    n_resamples = check_int(n_resamples, "n_resamples")
    progressbar = check_progressbar(progressbar)
    check_bool(keep_intervals, "keep_intervals")
    root = _root_seed(random_seed)

    n_m = len(methods)
    low = np.full((n_m, n_rep), np.nan)
    high = np.full((n_m, n_rep), np.nan)
    estimates = np.full(n_rep, np.nan)
    n_positives = np.zeros(n_rep, dtype=np.int64)
    progress = Progress(n_rep, "coverage_study", progressbar)
    try:
        for r, rep_seed in enumerate(root.spawn(n_rep)):
            data_seed, *method_seeds = rep_seed.spawn(1 + len(AP_INTERVAL_METHODS))
            y, s = model.sample(n, random_seed=np.random.default_rng(data_seed))
            ranked = as_ranked(y, s)  # validated once, shared by every method
            n_positives[r] = ranked.n_pos
            if n_positives[r] > 0:
                estimates[r] = auc_pr(ranked, None, estimator=estimator)
            for i, m in enumerate(methods):
                rng = np.random.default_rng(method_seeds[AP_INTERVAL_METHODS.index(m)])
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        res = ap_interval(
                            ranked,
                            None,
                            method=m,
                            estimator=estimator,
                            confidence_level=level,
                            n_resamples=n_resamples,
                            random_seed=rng,
                        )
                except Exception:  # a failure of the method on this data set
                    continue
                low[i, r], high[i, r] = res.low, res.high
            progress.update(r + 1)
    finally:
        progress.close()

    true_ap = float(model.average_precision())
    finite_est = estimates[np.isfinite(estimates)]
    mean_est = float(finite_est.mean()) if finite_est.size else float("nan")
    target_value = true_ap if target == "analytic" else mean_est
    valid = np.isfinite(low) & np.isfinite(high)
    n_valid = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        covered = np.where(valid, (low <= target_value) & (target_value <= high), False)
        above = np.where(valid, low > target_value, False)
        below = np.where(valid, high < target_value, False)
        denom = np.maximum(n_valid, 1)
        coverage = np.where(n_valid > 0, covered.sum(axis=1) / denom, np.nan)
        se = np.sqrt(coverage * (1.0 - coverage) / denom)
        width = np.where(valid, high - low, np.nan)
    mean_width = np.array(
        [np.mean(w[np.isfinite(w)]) if np.isfinite(w).any() else np.nan for w in width]
    )
    median_width = np.array(
        [np.median(w[np.isfinite(w)]) if np.isfinite(w).any() else np.nan for w in width]
    )
    data = {
        "coverage": ("interval", coverage),
        "coverage_se": ("interval", se),
        "miss_low": ("interval", np.where(n_valid > 0, above.sum(axis=1) / denom, np.nan)),
        "miss_high": ("interval", np.where(n_valid > 0, below.sum(axis=1) / denom, np.nan)),
        "mean_width": ("interval", mean_width),
        "median_width": ("interval", median_width),
        "n_valid": ("interval", n_valid.astype(np.int64)),
        "n_failures": ("interval", (n_rep - n_valid).astype(np.int64)),
    }
    if keep_intervals:
        data["low"] = (("interval", "replication"), low)
        data["high"] = (("interval", "replication"), high)
        data["estimate"] = ("replication", estimates)
        data["n_positives"] = ("replication", n_positives)
    attrs = {
        "target": target,
        "target_value": target_value,
        "true_ap": true_ap,
        "mean_estimate": mean_est,
        "sd_estimate": float(np.std(finite_est, ddof=1)) if finite_est.size > 1 else float("nan"),
        "mean_n_positives": float(n_positives.mean()),
        "model": repr(model),
        "n": n,
        "n_rep": n_rep,
        "estimator": estimator,
        "confidence_level": level,
        "n_resamples": n_resamples,
    }
    # dim ``interval`` (not ``method``, which is ``Dataset.sel``'s own keyword); the
    # former dim name stays an indexed coordinate along it
    coords = {"interval": list(methods), "method": ("interval", list(methods))}
    if keep_intervals:
        coords["replication"] = np.arange(n_rep)
    return xr.Dataset(data, coords=coords, attrs=attrs).set_xindex("method")


def _format_table(ds):
    a = ds.attrs
    lines = [
        f"model {a['model']}, n = {a['n']}, n_rep = {a['n_rep']}, estimator = "
        f"{a['estimator']}, level = {a['confidence_level']}, n_resamples = {a['n_resamples']}",
        f"true AP = {a['true_ap']:.4f}, mean estimate = {a['mean_estimate']:.4f} "
        f"(sd {a['sd_estimate']:.4f}), mean n_pos = {a['mean_n_positives']:.1f}, "
        f"target = {a['target']} ({a['target_value']:.4f})",
        "",
        "| method | coverage | SE | miss low | miss high | mean width | failures |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in ds["interval"].values:
        r = ds.sel(interval=m)
        lines.append(
            f"| {m} | {float(r.coverage):.3f} | {float(r.coverage_se):.3f} | "
            f"{float(r.miss_low):.3f} | {float(r.miss_high):.3f} | "
            f"{float(r.mean_width):.3f} | {int(r.n_failures)} |"
        )
    return "\n".join(lines)


def main(argv=None):
    """Print a coverage table (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m bayes_prc.simulate", description="Coverage of the AUC-PR intervals"
    )
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--n-rep", type=int, default=200)
    parser.add_argument("--methods", nargs="+", default=["logit", "binomial", "bootstrap"])
    parser.add_argument("--estimator", default="average_precision")
    parser.add_argument("--confidence-level", type=float, default=0.95)
    parser.add_argument("--target", default="analytic", choices=TARGETS)
    parser.add_argument("--n-resamples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--mu-pos", type=float, default=1.0)
    parser.add_argument("--sigma-pos", type=float, default=1.0)
    parser.add_argument("--mu-neg", type=float, default=0.0)
    parser.add_argument("--sigma-neg", type=float, default=1.0)
    parser.add_argument("--prevalence", type=float, default=0.1)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    model = Binormal(args.mu_pos, args.sigma_pos, args.mu_neg, args.sigma_neg, args.prevalence)
    ds = coverage_study(
        model,
        n=args.n,
        n_rep=args.n_rep,
        methods=tuple(args.methods),
        estimator=args.estimator,
        confidence_level=args.confidence_level,
        target=args.target,
        n_resamples=args.n_resamples,
        random_seed=args.seed,
        progressbar=True if args.progress else None,
    )
    print(_format_table(ds))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
