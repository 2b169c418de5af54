"""Precision and recall at one operating point, by every interval method."""

from __future__ import annotations

import numpy as np

from .._core import check_random_state, plain
from ..empirical import as_ranked
from ..recommend import recommend_operating_point
from ._common import _check_ci_prob, fit_or_reuse

__all__ = ["compare_operating_point"]


def compare_operating_point(
    y_true,
    y_score,
    *,
    threshold=None,
    random_seed=None,
    ci_prob=0.95,
    n_resamples=2000,
    transform=None,
    bayes_method="auto",
    posterior=None,
    pos_label=None,
    model="semiparametric",
):
    """Precision and recall at one operating point, by every interval method.

    The operating point classifies ``score >= threshold`` as positive; by default the
    threshold of the empirical maximum F1. Precision: the binormal posterior (ETI),
    the likelihood-ratio interval (seed 002), Wilson, Clopper-Pearson, Jeffreys and the
    stratified bootstrap. Recall: the binormal posterior, Wilson, Clopper-Pearson and
    seed 002's Monte-Carlo interval from independent precision and NPV models.

    The Bayesian rows come from ``model`` (``"semiparametric"``, the default of
    :func:`fit_binormal`, or ``"parametric"`` with ``transform``); ``bayes_method`` as in
    :func:`compare_intervals`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (``quantity``, ``method``); columns ``label``, ``family``,
        ``estimate``, ``low``, ``high``, ``width``, ``interval``. ``df.attrs`` has
        ``threshold``, ``ci_prob``, the confusion counts (``tp``, ``fp``, ``tn``,
        ``fn``), ``recommended`` (a dict quantity -> the method to quote, Wilson's
        score interval: :func:`bayes_prc.recommend.recommend_operating_point`),
        ``recommendation`` (why) and ``decision`` (the rule book's
        :class:`~bayes_prc.recommend.Recommendation`).

    Examples
    --------
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> t = bp.compare_operating_point(d.y_true, d.y_score, transform="logit", random_seed=0,
    ...                                n_resamples=200)
    >>> sorted(set(t.index.get_level_values("quantity")))
    ['precision', 'recall']
    >>> t.attrs["recommended"]
    {'precision': 'wilson', 'recall': 'wilson'}
    """
    import pandas as pd

    from ..empirical import max_fbeta
    from ..frequentist import precision_interval, recall_interval

    ci_prob = _check_ci_prob(ci_prob)
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)  # the one validation
    if threshold is None:
        threshold = max_fbeta(ranked, None).threshold
    elif isinstance(threshold, bool) or not np.isscalar(threshold) or not np.isfinite(threshold):
        raise ValueError(f"`threshold` must be a finite number; got {plain(threshold)}")
    threshold = float(threshold)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(4)
    if model not in ("semiparametric", "parametric"):
        raise ValueError(f"`model` must be 'semiparametric' or 'parametric'; got {plain(model)}")
    post = fit_or_reuse(ranked, None, posterior, transform, bayes_method, seeds[0], False, model)
    label = "Bayesian binormal, " + ("rank-based" if model == "semiparametric" else "parametric")
    alpha = 1 - ci_prob
    rows = []

    def post_row(quantity, draws):
        lo, med, hi = np.quantile(draws, [alpha / 2, 0.5, 1 - alpha / 2])
        rows.append(
            {
                "quantity": quantity,
                "method": "binormal",
                "label": f"{label} (median, ETI)",
                "family": "bayesian",
                "estimate": float(med),
                "low": float(lo),
                "high": float(hi),
                "interval": f"ETI {ci_prob:g}",
            }
        )

    post_row("precision", post.precision_at_threshold(threshold).values[..., 0])
    counts = {}
    labels = {
        "likelihood_ratio": "likelihood ratio",
        "wilson": "Wilson",
        "clopper_pearson": "Clopper-Pearson",
        "jeffreys": "Jeffreys",
        "bootstrap": "bootstrap percentile",
        "mc_npv": "Monte Carlo from precision and NPV",
    }
    for method in ("likelihood_ratio", "wilson", "clopper_pearson", "jeffreys", "bootstrap"):
        res = precision_interval(
            ranked,
            None,
            threshold,
            method=method,
            confidence_level=ci_prob,
            n_resamples=n_resamples,
            random_seed=seeds[1],
        )
        counts = {"tp": res.tp, "fp": res.fp, "tn": res.tn, "fn": res.fn}
        rows.append(_threshold_row("precision", method, labels[method], res, ci_prob))
    post_row("recall", post.recall_at_threshold(threshold).values[..., 0])
    for method, seed in (("wilson", None), ("clopper_pearson", None), ("mc_npv", seeds[2])):
        res = recall_interval(
            ranked, None, threshold, method=method, confidence_level=ci_prob, random_seed=seed
        )
        rows.append(_threshold_row("recall", method, labels[method], res, ci_prob))
    df = pd.DataFrame(rows).set_index(["quantity", "method"])
    df["width"] = df["high"] - df["low"]
    df = df[["label", "family", "estimate", "low", "high", "width", "interval"]]
    decision = recommend_operating_point(list(df.index))
    df.attrs.update({"threshold": threshold, "ci_prob": ci_prob, **counts})
    df.attrs.update(decision.as_attrs())
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
