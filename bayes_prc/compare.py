"""Every interval on the same data, side by side: the comparison tables.

Computation only (no plotting): the tables are pandas DataFrames with one row per method
and the columns ``family``, ``method``, ``estimate``, ``low``, ``high``, ``width``,
``estimator``, ``interval`` (what kind of interval at which level). ``df.to_xarray()``
gives the same table as an xarray Dataset over dim ``method``.
"""

from __future__ import annotations

import warnings

import numpy as np

from ._validation import check_random_state, validate_binary_inputs

__all__ = [
    "compare_intervals",
    "compare_operating_point",
    "AP_COMPARISON_METHODS",
]

#: Methods of :func:`compare_intervals`, in table order.
AP_COMPARISON_METHODS = (
    "binormal_hdi",
    "binormal_eti",
    "bayesian_bootstrap",
    "logit",
    "binomial",
    "bootstrap",
    "bca",
    "cross_validation",
)

_LABELS = {
    "binormal_hdi": "Bayesian binormal (mean, HDI)",
    "binormal_eti": "Bayesian binormal (median, ETI)",
    "bayesian_bootstrap": "Bayesian bootstrap (ETI)",
    "logit": "logit (Boyd et al.)",
    "binomial": "binomial / Wald (Boyd et al.)",
    "bootstrap": "bootstrap percentile",
    "bca": "bootstrap BCa",
    "cross_validation": "cross-validation (Boyd et al.)",
}


def _check_ci_prob(ci_prob):
    if isinstance(ci_prob, bool) or not isinstance(ci_prob, (int, float)) or not 0 < ci_prob < 1:
        raise ValueError(f"`ci_prob` must be in (0, 1); got {ci_prob!r}")
    return float(ci_prob)


def _frame(rows, attrs):
    import pandas as pd

    df = pd.DataFrame(rows).set_index("method")
    df["width"] = df["high"] - df["low"]
    cols = ["label", "family", "estimate", "low", "high", "width", "estimator", "interval"]
    df = df[cols + [c for c in df.columns if c not in cols]]
    df.attrs.update(attrs)
    return df


def _fit(y, s, posterior, transform, bayes_method, random_seed, progressbar):
    if posterior is not None:
        return posterior
    from .bayes import fit_binormal

    return fit_binormal(
        y,
        s,
        transform=transform,
        method=bayes_method,
        random_seed=random_seed,
        progressbar=progressbar,
    )


def compare_intervals(
    y_true,
    y_score,
    *,
    ci_prob=0.95,
    methods=AP_COMPARISON_METHODS,
    random_seed=None,
    estimator="average_precision",
    n_resamples=2000,
    transform=None,
    bayes_method="exact",
    posterior=None,
    pos_label=None,
    progressbar=False,
):
    """Intervals for the area under the PR curve by every method, on the same data.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    ci_prob : float, default 0.95
        Probability of every interval (credible or confidence).
    methods : sequence of str
        Subset of :data:`AP_COMPARISON_METHODS`: the Bayesian binormal posterior
        (``"binormal_hdi"``: posterior mean and highest-density interval;
        ``"binormal_eti"``: posterior median and equal-tailed interval), the Bayesian
        bootstrap, Boyd et al.'s logit and binomial intervals, the percentile and BCa
        bootstraps and the cross-validation interval.
    random_seed : int, Generator or None
        One seed for every stochastic method (independent streams).
    estimator : str, default "average_precision"
        The empirical AUC-PR estimator of the frequentist rows (see :func:`auc_pr`).
        The binormal rows are about the model's AP (the area under its curve).
    n_resamples : int, default 2000
    transform : {None, "logit", "probit"}
        Passed to :func:`fit_binormal`.
    bayes_method : {"exact", "nuts"}, default "exact"
        ``"exact"`` samples the conjugate posterior directly (the same posterior NUTS
        targets, without sampling error of its own); ``"nuts"`` runs PyMC.
    posterior : BinormalPosterior, optional
        A fit to re-use instead of fitting here.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``method``; columns ``label``, ``family``, ``estimate``, ``low``,
        ``high``, ``width``, ``estimator``, ``interval``. ``df.attrs`` carries
        ``arviz_summary`` (the ArviZ summary of the fit: ESS, R-hat), ``diagnostics``,
        ``ci_prob`` and ``empirical_estimate``. ``df.to_xarray()`` is the Dataset form.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> table = bp.compare_intervals(d.y_true, d.y_score, transform="logit", random_seed=0,
    ...                              n_resamples=200)
    >>> list(table.index)[:3]
    ['binormal_hdi', 'binormal_eti', 'bayesian_bootstrap']
    >>> bool((table["low"] <= table["high"]).all())
    True
    """
    from ._ranking import _auc_pr_validated
    from .frequentist import ap_interval

    ci_prob = _check_ci_prob(ci_prob)
    methods = tuple(methods)
    unknown = [m for m in methods if m not in AP_COMPARISON_METHODS]
    if unknown or not methods:
        raise ValueError(
            f"`methods` must be a non-empty subset of {AP_COMPARISON_METHODS}; "
            f"got unknown {unknown}"
        )
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(len(methods) + 1)
    rows = []
    attrs = {"ci_prob": ci_prob, "estimator": estimator}
    attrs["empirical_estimate"] = _auc_pr_validated(is_pos, score, None, estimator)
    post = None
    for method, seed in zip(methods, seeds[1:], strict=True):
        if method.startswith("binormal"):
            if post is None:
                post = _fit(
                    is_pos, score, posterior, transform, bayes_method, seeds[0], progressbar
                )
            ap = post.average_precision()
            kind = "hdi" if method == "binormal_hdi" else "eti"
            bounds = post.interval(ap, ci_prob=ci_prob, ci_kind=kind).values
            est = float(ap.mean()) if kind == "hdi" else float(ap.median())
            rows.append(
                {
                    "method": method,
                    "label": _LABELS[method],
                    "family": "bayesian",
                    "estimate": est,
                    "low": float(bounds[0]),
                    "high": float(bounds[1]),
                    "estimator": "binormal AP",
                    "interval": f"{kind.upper()} {ci_prob:g}",
                }
            )
            continue
        extra = {}
        if method == "cross_validation":
            # Boyd et al. use 10 folds; each fold needs a positive
            extra["n_folds"] = int(min(10, is_pos.sum()))
            if extra["n_folds"] < 2:
                continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = ap_interval(
                is_pos,
                score,
                method=method,
                estimator=estimator,
                confidence_level=ci_prob,
                n_resamples=n_resamples,
                random_seed=seed,
                progressbar=progressbar,
                **extra,
            )
        family = "bayesian" if method == "bayesian_bootstrap" else "frequentist"
        rows.append(
            {
                "method": method,
                "label": _LABELS[method],
                "family": family,
                "estimate": float(res.estimate),
                "low": float(res.low),
                "high": float(res.high),
                "estimator": estimator,
                "interval": f"{'ETI' if family == 'bayesian' else 'CI'} {ci_prob:g}",
            }
        )
    if post is not None:
        attrs["arviz_summary"] = post.summary(ci_prob=ci_prob)
        attrs["diagnostics"] = post.diagnostics()
    return _frame(rows, attrs)


def _forward_transform(t, transform):
    from scipy import special

    t = np.asarray(t, dtype=np.float64)
    if transform is None:
        return t
    clipped = np.clip(t, 1e-300, 1 - 1e-16)
    return special.logit(clipped) if transform == "logit" else special.ndtri(clipped)


def compare_operating_point(
    y_true,
    y_score,
    *,
    threshold=None,
    random_seed=None,
    ci_prob=0.95,
    n_resamples=2000,
    transform=None,
    bayes_method="exact",
    posterior=None,
    pos_label=None,
):
    """Precision and recall at one operating point, by every interval method.

    The operating point classifies ``score >= threshold`` as positive; by default the
    threshold of the empirical maximum F1. Precision: the binormal posterior (ETI),
    the likelihood-ratio interval (seed 002), Wilson, Clopper-Pearson, Jeffreys and the
    stratified bootstrap. Recall: the binormal posterior, Wilson, Clopper-Pearson and
    seed 002's Monte-Carlo interval from independent precision and NPV models.

    Returns
    -------
    pandas.DataFrame
        Indexed by (``quantity``, ``method``); columns ``label``, ``family``,
        ``estimate``, ``low``, ``high``, ``width``, ``interval``. ``df.attrs`` has
        ``threshold``, ``ci_prob`` and the confusion counts (``tp``, ``fp``, ``tn``,
        ``fn``).

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> t = bp.compare_operating_point(d.y_true, d.y_score, transform="logit", random_seed=0,
    ...                                n_resamples=200)
    >>> sorted(set(t.index.get_level_values("quantity")))
    ['precision', 'recall']
    """
    import pandas as pd

    from ._ranking import max_fbeta
    from .frequentist import precision_interval, recall_interval

    ci_prob = _check_ci_prob(ci_prob)
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    if threshold is None:
        threshold = max_fbeta(is_pos, score).threshold
    elif isinstance(threshold, bool) or not np.isscalar(threshold) or not np.isfinite(threshold):
        raise ValueError(f"`threshold` must be a finite number; got {threshold!r}")
    threshold = float(threshold)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(4)
    post = _fit(is_pos, score, posterior, transform, bayes_method, seeds[0], False)
    tau = float(_forward_transform(threshold, post.transform))
    alpha = 1 - ci_prob
    rows = []

    def post_row(quantity, draws):
        lo, med, hi = np.quantile(draws, [alpha / 2, 0.5, 1 - alpha / 2])
        rows.append(
            {
                "quantity": quantity,
                "method": "binormal",
                "label": "Bayesian binormal (median, ETI)",
                "family": "bayesian",
                "estimate": float(med),
                "low": float(lo),
                "high": float(hi),
                "interval": f"ETI {ci_prob:g}",
            }
        )

    post_row("precision", post.model.precision(tau))
    counts = {}
    labels = {
        "likelihood_ratio": "likelihood ratio (seed 002)",
        "wilson": "Wilson",
        "clopper_pearson": "Clopper-Pearson",
        "jeffreys": "Jeffreys",
        "bootstrap": "bootstrap percentile",
        "mc_npv": "Monte Carlo from precision and NPV (seed 002)",
    }
    for method in ("likelihood_ratio", "wilson", "clopper_pearson", "jeffreys", "bootstrap"):
        res = precision_interval(
            is_pos,
            score,
            threshold,
            method=method,
            confidence_level=ci_prob,
            n_resamples=n_resamples,
            random_seed=seeds[1],
        )
        counts = {"tp": res.tp, "fp": res.fp, "tn": res.tn, "fn": res.fn}
        rows.append(_threshold_row("precision", method, labels[method], res, ci_prob))
    post_row("recall", post.model.recall(tau))
    for method, seed in (("wilson", None), ("clopper_pearson", None), ("mc_npv", seeds[2])):
        res = recall_interval(
            is_pos, score, threshold, method=method, confidence_level=ci_prob, random_seed=seed
        )
        rows.append(_threshold_row("recall", method, labels[method], res, ci_prob))
    df = pd.DataFrame(rows).set_index(["quantity", "method"])
    df["width"] = df["high"] - df["low"]
    df = df[["label", "family", "estimate", "low", "high", "width", "interval"]]
    df.attrs.update({"threshold": threshold, "ci_prob": ci_prob, **counts})
    return df


def _threshold_row(quantity, method, label, res, ci_prob):
    return {
        "quantity": quantity,
        "method": method,
        "label": label,
        "family": "frequentist",
        "estimate": float(res.estimate),
        "low": float(res.low),
        "high": float(res.high),
        "interval": f"CI {ci_prob:g}",
    }
