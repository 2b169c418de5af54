"""Which of k classifiers is best, and is the ranking real? :func:`compare_models`."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import check_choice, check_int, check_probability, check_random_state, plain
from .._core.display import HTMLReprMixin
from .._core.groups import check_groups
from .._core.validation import check_1d, check_binary_target, check_finite_scores
from ..empirical import Ranked, average_precision_score, roc_auc_score
from ..frequentist import (
    bootstrap_p_values,
    holm,
    max_t_step_down,
    model_replicates,
    pair_standard_errors,
    posterior_rank_sets,
    rank_draws,
    rank_sets,
)
from ..recommend import RANKING_METHOD, recommend_ranking_method

__all__ = ["MODEL_COMPARISON_METHODS", "RECOMMENDED_METHOD", "ModelComparison", "compare_models"]

#: Values of ``method`` in :func:`compare_models`.
MODEL_COMPARISON_METHODS: tuple[str, ...] = ("max_t", "bayesian_bootstrap")
#: The method of :func:`compare_models`'s table when ``method`` is None (the same for
#: every data set and seed; measured in ``benchmarks/coverage_ranking.py`` and
#: ``benchmarks/coverage_ranking_trained.py``).
RECOMMENDED_METHOD = RANKING_METHOD
_METRICS = ("average_precision", "roc_auc")
_LABELS = {
    "max_t": "paired bootstrap, step-down max-t (Mogstad et al. 2024)",
    "bayesian_bootstrap": "joint Bayesian bootstrap posterior (Rubin 1981)",
}


@dataclass(frozen=True, eq=False)
class ModelComparison(HTMLReprMixin):
    """Result of :func:`compare_models`: k classifiers ranked, with honest uncertainty.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by ``model``, sorted best first: ``estimate`` (the empirical metric),
        ``low``, ``high`` (each model's own interval of probability ``ci_prob``,
        whatever the method: Boyd et al.'s logit interval of AP or DeLong's logit-scale
        interval of ROC AUC, clustered with ``groups``; they covered 0.85-0.95 where the
        bootstrap percentiles covered 0.77-0.89), ``rank`` (1 = best, by ``estimate``),
        ``rank_low``, ``rank_high`` (a simultaneous ``ci_prob`` set for all ranks at
        once, widened where needed to hold ``rank``), ``prob_best`` (posterior
        probability of being the best, from the joint Bayesian bootstrap) and ``tier``.
    pairs : pandas.DataFrame
        Indexed by ``(model_a, model_b)`` (every pair, ``model_a`` the one with the
        higher empirical metric, in the order of the empirical metrics; or every model
        against ``reference``, as ``model_b``): ``difference`` (a - b: of the empirical
        metrics for ``"max_t"``, of the posterior means for ``"bayesian_bootstrap"``),
        ``low``, ``high`` (simultaneous over the pairs), ``p_value`` (two-sided,
        Holm-adjusted over the pairs, from the paired bootstrap), ``prob_better``
        (posterior probability that a is better), and ``verdict`` ("A better",
        "B better" or "cannot be told apart": for ``"max_t"`` the step-down
        declarations, for ``"bayesian_bootstrap"`` A's whole rank set above B's and the
        pair's simultaneous credible interval above 0, so that no verdict contradicts the
        rank sets).
    tiers : list of list of str
        Models grouped best first; no model of a tier is declared better than another
        of the same tier.
    posterior : xarray.DataArray
        Joint Bayesian bootstrap draws of the k metrics, dims ``chain``, ``draw``,
        ``model``.
    rank_probabilities : pandas.DataFrame
        ``P(rank = r)`` of each model (rows) and rank (columns), from ``posterior``.
    method : str
        The method of ``table``'s intervals and rank sets and of ``pairs``' intervals and
        verdicts: one of :data:`MODEL_COMPARISON_METHODS`.
    recommendation : str
        Why that method, in one sentence.
    metric : str
    ci_prob : float
    n, n_pos : int
        Items and positives.
    attrs : dict
        ``recommended`` (= ``method``), ``methods`` (each method's ``table`` and
        ``pairs``), ``is_pos`` and ``scores`` (the validated labels, shape (n,), and
        scores, shape (k, n), in the order of ``posterior``'s models), ``critical`` (the max-t critical value of each method),
        ``clusters`` (with ``groups``), ``n_resamples``.
    """

    table: Any = field(repr=False)
    pairs: Any = field(repr=False)
    tiers: list = field(repr=False)
    posterior: Any = field(repr=False)
    rank_probabilities: Any = field(repr=False)
    method: str
    recommendation: str
    metric: str
    ci_prob: float
    n: int
    n_pos: int
    attrs: dict = field(default_factory=dict, repr=False)

    @property
    def verdict(self):
        """One sentence: the best tier, or for two models which is better and by how much."""
        t = self.table
        what = "AP" if self.metric == "average_precision" else "ROC AUC"
        if len(t) == 2:
            (a, b), row = self.pairs.index[0], self.pairs.iloc[0]
            if row["verdict"] == "cannot be told apart":
                return (
                    f"{a} and {b} cannot be told apart: difference {row['difference']:+.3f} "
                    f"{what} [{row['low']:+.3f}, {row['high']:+.3f}]."
                )
            win, lose = (a, b) if row["difference"] > 0 else (b, a)
            sign = 1 if win == a else -1
            return (
                f"{win} is better than {lose} by {sign * row['difference']:.3f} {what} "
                f"[{min(sign * row['low'], sign * row['high']):.3f}, "
                f"{max(sign * row['low'], sign * row['high']):.3f}]; "
                f"P({win} better) = {row['prob_better'] if sign == 1 else 1 - row['prob_better']:.2f}."
            )
        top = self.tiers[0]
        if len(top) == 1:
            return f"{top[0]} is the best of {len(t)} models ({len(self.tiers)} tiers)."
        return (
            f"{len(top)} of {len(t)} models cannot be told apart at the top: "
            f"{', '.join(top)} ({len(self.tiers)} tiers)."
        )

    def _repr_html_(self):
        head = (
            f"<p><b>ModelComparison</b> ({html.escape(_LABELS[self.method])}, "
            f"{self.ci_prob:g} sets): {html.escape(self.verdict)}</p>"
            f"<p>{html.escape(self.recommendation)}</p>"
        )
        fmt = {"float_format": lambda v: f"{v:.4g}"}
        return head + self.table.to_html(**fmt) + self.pairs.to_html(**fmt)


# --------------------------------------------------------------------------------------
# input validation
# --------------------------------------------------------------------------------------
def _scores_iv(scores, n):
    """``(names, matrix (k, n))`` from a mapping, a DataFrame or an (n, k) array."""
    if isinstance(scores, Mapping):
        names = [str(name) for name in scores]
        columns = list(scores.values())
    elif hasattr(scores, "columns") and hasattr(scores, "iloc"):  # a DataFrame
        names = [str(c) for c in scores.columns]
        columns = [scores.iloc[:, i].to_numpy() for i in range(scores.shape[1])]
    else:
        arr = np.asarray(scores)
        if arr.ndim != 2:
            raise ValueError(
                "`scores` must be a mapping name -> scores, a DataFrame with one column per "
                f"model or an array of shape (n_samples, n_models); got {arr.ndim} dimension(s)"
            )
        names = [f"model_{j}" for j in range(arr.shape[1])]
        columns = [arr[:, j] for j in range(arr.shape[1])]
    if len(columns) < 2:
        raise ValueError(f"`scores` must hold at least 2 models; got {len(columns)}")
    dup = sorted({m for m in names if names.count(m) > 1})
    if dup:
        raise ValueError(f"`scores` has duplicate model names: {', '.join(dup)}")
    out = np.empty((len(columns), n))
    for j, (name, col) in enumerate(zip(names, columns, strict=True)):
        col = check_1d(col, f"scores[{name!r}]")
        if col.shape[0] != n:
            raise ValueError(f"`scores[{name!r}]` has {col.shape[0]} values but `y_true` has {n}")
        if col.dtype.kind == "b":
            col = col.astype(np.int64)
        out[j] = check_finite_scores(col, f"scores[{name!r}]")
    return names, out


def _own_intervals(ranked, metric, level, clusters):
    """Each model's interval: Boyd et al.'s logit interval of AP, DeLong's logit of ROC AUC.

    With ``clusters``, their clustered versions (the design effect; Obuchowski).
    """
    from ..frequentist import ap_interval, roc_auc_interval

    lo, hi = np.empty(len(ranked)), np.empty(len(ranked))
    for j, r in enumerate(ranked):
        if metric == "average_precision":
            res = ap_interval(r, None, method="logit", confidence_level=level, groups=clusters)
        else:
            res = roc_auc_interval(
                r, None, method="delong_logit", confidence_level=level, groups=clusters
            )
        lo[j], hi[j] = res.low, res.high
    return lo, hi


def _tiers(better, order):
    """Tier of each model: 1 + the deepest tier of a model declared better than it."""
    tier = np.zeros(better.shape[0], dtype=np.int64)
    for i in order:  # best first: a model declared better than i comes earlier
        above = np.flatnonzero(better[:, i])
        tier[i] = 1 + (tier[above].max() if above.size else 0)
    return tier


# --------------------------------------------------------------------------------------
# the public function
# --------------------------------------------------------------------------------------
def compare_models(
    y_true,
    scores,
    *,
    metric="average_precision",
    ci_prob=0.95,
    method=None,
    groups=None,
    reference=None,
    random_seed=None,
    n_resamples=2000,
    pos_label=None,
):
    """Rank k classifiers scored on the same items, with simultaneous uncertainty.

    Every model's metric is resampled jointly (the same items, or the same clusters, in
    every replicate for all models), so the correlation of models scored on one test set
    is kept. Two methods side by side:

    - ``"max_t"``: the stratified paired bootstrap (whole clusters with ``groups``) and
      the step-down max-t procedure (Romano & Wolf 2005) that Mogstad, Romano, Shaikh &
      Wilhelm (2024) use for simultaneous confidence sets of ranks: a model is declared
      better than another when their studentized difference exceeds the ``ci_prob``
      quantile of the largest centred studentized difference over the pairs not yet
      declared. All the statements hold at once with probability at least ``ci_prob``
      (asymptotically), so the rank sets ``[1 + #declared better, k - #declared worse]``
      hold every model's true rank at once.
    - ``"bayesian_bootstrap"``: Dirichlet(1, ..., 1) weights over the items (clusters),
      the same for every model (Rubin 1981): a joint posterior of the k metrics. Its rank
      sets are equal-tailed intervals of the rank draws at a common level chosen so that
      the whole rank vector lies inside them with posterior probability ``ci_prob``; its
      pair intervals are simultaneous credible intervals (the max-t construction on the
      draws).

    ``prob_best`` and ``prob_better`` always come from the joint posterior, ``p_value``
    always from the paired bootstrap (Holm 1979 over the pairs).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels, at least 2 items of each class.
    scores : mapping, DataFrame or array-like of shape (n_samples, n_models)
        The models' scores: a mapping name -> scores, a DataFrame with one column per
        model, or an array (names ``"model_0"``, ...). At least 2 models.
    metric : {"average_precision", "roc_auc"}, default "average_precision"
    ci_prob : float, default 0.95
        Probability of the intervals and of the simultaneous rank sets.
    method : {"max_t", "bayesian_bootstrap"}, optional
        The method of the rank sets, tiers and pair verdicts; default
        :data:`RECOMMENDED_METHOD` (``"max_t"``). Both are in
        ``attrs["methods"]``.
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (queries, patients): whole clusters are resampled.
    reference : str, optional
        A model's name: ``pairs`` holds every model against it (the multiplicity
        correction then runs over those k - 1 pairs only).
    random_seed : int, Generator or None
    n_resamples : int, default 2000
        Bootstrap replicates and posterior draws.
    pos_label : label, optional

    Returns
    -------
    ModelComparison

    References
    ----------
    .. [1] M. Mogstad, J. P. Romano, A. M. Shaikh and D. Wilhelm, "Inference for ranks
       with applications to mobility across neighbourhoods and academic achievement
       across countries", Review of Economic Studies 91(1), 2024, pp. 476-518.
    .. [2] J. P. Romano and M. Wolf, "Exact and approximate stepdown methods for multiple
       hypothesis testing", JASA 100(469), 2005, pp. 94-108.
    .. [3] S. Holm, "A simple sequentially rejective multiple test procedure",
       Scandinavian Journal of Statistics 6(2), 1979, pp. 65-70.
    .. [4] D. B. Rubin, "The Bayesian bootstrap", The Annals of Statistics 9(1), 1981.

    Examples
    --------
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> rng = np.random.default_rng(0)
    >>> y = (rng.random(400) < 0.3).astype(int)
    >>> scores = {"weak": y + rng.normal(0, 2, 400), "good": y + rng.normal(0, 0.5, 400),
    ...           "good_too": y + rng.normal(0, 0.5, 400)}
    >>> res = bp.compare_models(y, scores, random_seed=0, n_resamples=500)
    >>> res.table.index[-1], int(res.table.loc["weak", "rank_high"])
    ('weak', 3)
    >>> res.pairs.loc[("good", "weak"), "verdict"]
    'good better'
    """
    check_choice(metric, "metric", _METRICS)
    if method is not None:
        check_choice(method, "method", MODEL_COMPARISON_METHODS)
    level = check_probability(ci_prob, "ci_prob")
    n_resamples = check_int(n_resamples, "n_resamples", minimum=100)
    y = check_1d(y_true, "y_true")
    is_pos, pos_label, _ = check_binary_target(y, pos_label)
    n_pos = int(is_pos.sum())
    if min(n_pos, is_pos.size - n_pos) < 2:
        # one positive: every replicate keeps it, so the draws would rank the models with
        # a certainty the data do not have (rank sets of one rank each were seen)
        raise ValueError(
            "`y_true` must hold at least 2 positives and 2 negatives to rank models; got "
            f"{n_pos} positive(s) out of {is_pos.size}"
        )
    names, matrix = _scores_iv(scores, is_pos.size)
    if reference is not None and str(reference) not in names:
        raise ValueError(f"`reference` must be one of the models {names}; got {plain(reference)}")
    clusters = None if groups is None else check_groups(groups, is_pos.size)
    if clusters is not None and clusters.singletons:
        clusters = None
    rng = check_random_state(random_seed)
    seed_freq, seed_bayes = rng.spawn(2)
    ranked = [Ranked(is_pos, s, None, pos_label) for s in matrix]
    point = average_precision_score if metric == "average_precision" else roc_auc_score
    empirical = np.array([point(r, None) for r in ranked])
    kinds = ("stratified", "bayesian") if clusters is None else ("cluster", "cluster_bayesian")
    # replicates per draw: each block holds k count tables of up to n bins (16 bytes a
    # bin) beside the draws; about 64 MB at a time
    block = int(np.clip(64 * 2**20 // (16 * (len(names) + 1) * is_pos.size), 1, 256))
    boot = model_replicates(
        ranked, n_resamples, kinds[0], seed_freq, metric=metric, clusters=clusters, block=block
    )
    draws = model_replicates(
        ranked, n_resamples, kinds[1], seed_bayes, metric=metric, clusters=clusters, block=block
    )
    k = len(names)
    best_first = np.argsort(-empirical, kind="stable")  # pairs read (better, worse) first
    if reference is None:
        ia, ib = (best_first[a] for a in np.triu_indices(k, 1))
    else:
        r = names.index(str(reference))
        others = np.array([j for j in best_first if j != r])
        ia, ib = others, np.full(others.shape[0], r)
    # p-values (paired bootstrap, Holm over the pairs) and posterior probabilities
    se_boot = pair_standard_errors(boot)  # shared by the p-values and the max-t sets
    p_raw = bootstrap_p_values(empirical, boot, se=se_boot)[ia, ib]
    p_adj = holm(p_raw)
    prob_better = np.mean(draws[ia] > draws[ib], axis=1)
    ranks_post = rank_draws(draws)
    prob_best = np.mean(ranks_post == 1, axis=1)
    rank_prob = np.stack([np.mean(ranks_post == r, axis=1) for r in range(1, k + 1)], axis=1)

    import pandas as pd
    import xarray as xr

    per_method, critical = {}, {}
    lo, hi = _own_intervals(ranked, metric, level, clusters)  # each model's own interval
    for m, reps, est in (
        ("max_t", boot, empirical),
        ("bayesian_bootstrap", draws, draws.mean(axis=1)),
    ):
        if m == "max_t":
            better, crit, se = max_t_step_down(est, reps, level, se=se_boot)
            rank_low, rank_high = rank_sets(better)
        else:
            by_pair, crit, se = max_t_step_down(est, reps, level, step_down=False)
            rank_low, rank_high = posterior_rank_sets(reps, level, ranks=ranks_post)
            # a verdict needs both joint statements: i's whole rank set above j's (every
            # rank vector of the credible set puts i above j) and the pair's simultaneous
            # credible interval above 0; so no verdict contradicts the rank sets
            better = (rank_high[:, None] < rank_low[None, :]) & by_pair
        critical[m] = crit
        tier = _tiers(better, np.argsort(-est, kind="stable"))
        order = best_first  # the table reads by the empirical metric, whatever the method
        rank = np.empty(k, dtype=np.int64)
        rank[order] = np.arange(1, k + 1)
        # a set holds its own point rank (posterior sets could miss it in a near tie)
        rank_low, rank_high = np.minimum(rank_low, rank), np.maximum(rank_high, rank)
        table = pd.DataFrame(
            {
                "estimate": empirical,
                "low": lo,
                "high": hi,
                "rank": rank,
                "rank_low": rank_low,
                "rank_high": rank_high,
                "prob_best": prob_best,
                "tier": tier,
            },
            index=pd.Index(names, name="model"),
        ).iloc[order]
        pairs = _pairs_frame(names, est, (ia, ib), crit * se[ia, ib], better)
        pairs["p_value"], pairs["prob_better"] = p_adj, prob_better
        pairs = pairs[["difference", "low", "high", "p_value", "prob_better", "verdict"]]
        tiers = [[names[i] for i in order if tier[i] == t] for t in range(1, int(tier.max()) + 1)]
        per_method[m] = (table, pairs, tiers)
    decision = recommend_ranking_method(method, _LABELS)
    chosen, recommendation = decision
    table, pairs, tiers = per_method[chosen]
    posterior = xr.DataArray(
        draws.T[None], dims=("chain", "draw", "model"), coords={"model": names}, name=metric
    )
    attrs = {
        "is_pos": is_pos,  # the validated data, for the report's figures
        "scores": matrix,
        "recommended": chosen,
        "decision": decision,
        "methods": {m: {"table": v[0], "pairs": v[1]} for m, v in per_method.items()},
        "critical": critical,
        "n_resamples": n_resamples,
    }
    if clusters is not None:
        attrs["clusters"] = clusters.describe()
    return ModelComparison(
        table=table,
        pairs=pairs,
        tiers=tiers,
        posterior=posterior,
        rank_probabilities=pd.DataFrame(
            rank_prob, index=pd.Index(names, name="model"), columns=range(1, k + 1)
        ).loc[table.index],
        method=chosen,
        recommendation=recommendation,
        metric=metric,
        ci_prob=level,
        n=int(is_pos.size),
        n_pos=n_pos,
        attrs=attrs,
    )


def _pairs_frame(names, est, pair_index, half, better):
    """The pairs' differences (a - b), simultaneous intervals and verdicts."""
    import pandas as pd

    ia, ib = pair_index
    diff = est[ia] - est[ib]
    verdict = [
        f"{names[a]} better"
        if better[a, b]
        else f"{names[b]} better"
        if better[b, a]
        else "cannot be told apart"
        for a, b in zip(ia, ib, strict=True)
    ]
    index = pd.MultiIndex.from_arrays(
        [[names[a] for a in ia], [names[b] for b in ib]], names=("model_a", "model_b")
    )
    return pd.DataFrame(
        {"difference": diff, "low": diff - half, "high": diff + half, "verdict": verdict},
        index=index,
    )
