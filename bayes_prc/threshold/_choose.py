"""Choose a score threshold whose precision (or recall) holds with a stated guarantee."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from .._core import check_choice, check_probability, check_random_state, plain
from .._core.display import HTMLReprMixin
from .._core.groups import check_groups
from ..empirical import as_ranked
from ..recommend import recommend_threshold_method

__all__ = ["THRESHOLD_METHODS", "GRID_SIZE", "ThresholdChoice", "choose_threshold"]

#: Rows of :attr:`ThresholdChoice.table`, in order.
THRESHOLD_METHODS = (
    "ltt_bonferroni",
    "ltt_fixed_sequence",
    "ltt_split_fixed_sequence",
    "bayes",
    "empirical",
)
#: Number of candidate thresholds (quantiles of all scores, labels never used).
GRID_SIZE = 100


@dataclass(frozen=True)
class ThresholdChoice(HTMLReprMixin):
    """A threshold with its guarantee.

    Attributes
    ----------
    threshold : float or None
        Items with ``score >= threshold`` are flagged (user's score scale); None when the
        target cannot be certified.
    guarantee : str
        The guarantee in words (or why there is none).
    certified : bool
        Whether the target is certified at ``ci_prob``.
    metric : {"precision", "recall"}
    target, ci_prob : float
    precision, precision_low, precision_high : float
        Empirical precision at the threshold and its Clopper-Pearson interval.
    recall, recall_low, recall_high : float
    recall_cost : float
        Empirical recall at the empirical row's threshold minus recall here.
    method : str
        The row quoted (one of :data:`THRESHOLD_METHODS`).
    table : pandas.DataFrame
        One row per method; ``attrs["recommended"]`` names the recommended row.
    curve : pandas.DataFrame
        One row per candidate threshold (the grid, increasing): ``threshold``, the
        empirical ``precision`` (at ``prevalence`` when given) and ``recall`` there,
        ``precision_low`` / ``precision_high`` (pointwise Clopper-Pearson at ``ci_prob``;
        NaN with a prevalence or clusters) and ``certified`` (by the quoted method's
        rule). What :class:`bayes_prc.plotting.ThresholdChoiceDisplay` draws.
    subgroups : pandas.DataFrame or None
        With ``subgroup=``: one row per subgroup at the chosen threshold: ``n``,
        ``positives``, ``precision`` and ``recall`` with Clopper-Pearson intervals at
        ``ci_prob``, and ``p_value`` of that subgroup's test of the target there.
    """

    threshold: float | None
    guarantee: str
    certified: bool
    metric: str
    target: float
    ci_prob: float
    precision: float
    precision_low: float
    precision_high: float
    recall: float
    recall_low: float
    recall_high: float
    recall_cost: float
    method: str
    table: object = field(repr=False, compare=False)
    curve: object = field(default=None, repr=False, compare=False)
    subgroups: object = field(default=None, repr=False, compare=False)


def binomial_pvalue(successes, trials, target):
    """One-sided exact p-value of H0 "proportion < target" (Clopper-Pearson).

    ``P(X >= successes)`` for ``X ~ Binomial(trials, target)``, written with the
    regularized incomplete beta so that effective (non-integer) counts are allowed.
    """
    x = np.asarray(successes, float)
    n = np.asarray(trials, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = special.betainc(np.maximum(x, 1e-300), np.maximum(n - x + 1, 1e-300), target)
    p = np.where(x <= 0, 1.0, p)
    return np.where(n <= 0, 1.0, p)


def _cp_interval(x, n, level):
    if n <= 0:
        return np.nan, 0.0, 1.0
    a = 1 - level
    low = 0.0 if x <= 0 else stats.beta.ppf(a / 2, x, n - x + 1)
    high = 1.0 if x >= n else stats.beta.ppf(1 - a / 2, x + 1, n - x)
    return x / n, float(low), float(high)


def score_grid(y_score, size=GRID_SIZE):
    """Candidate thresholds: ``size`` quantiles of all scores (labels are not used)."""
    return np.unique(np.quantile(np.asarray(y_score, float), np.linspace(0, 1, size)))


def _counts(is_pos, score, grid, codes=None, n_clusters=0):
    """tp, n_pred per grid threshold, and per-cluster counts when ``codes`` is given."""
    flag = score[None, :] >= grid[:, None]
    tp = (flag & is_pos[None, :]).sum(1).astype(float)
    npred = flag.sum(1).astype(float)
    if codes is None:
        return tp, npred, None, None
    tpc = np.zeros((grid.size, n_clusters))
    npc = np.zeros((grid.size, n_clusters))
    for k in range(grid.size):
        tpc[k] = np.bincount(codes, weights=(flag[k] & is_pos), minlength=n_clusters)
        npc[k] = np.bincount(codes, weights=flag[k], minlength=n_clusters)
    return tp, npred, tpc, npc


#: Below this many clusters holding an error among the counted items the cluster variance
#: says nothing about the within-cluster correlation (no error, no spread), so the design
#: effect falls back to its worst case: every cluster's items share one outcome.
MIN_CLUSTERS_WITH_ERRORS = 5


def _design_effect(a_c, b_c):
    """Design effect of the ratio ``sum a / sum b`` over clusters (>= 1), per row.

    The ratio (linearisation) estimate, or, where fewer than
    :data:`MIN_CLUSTERS_WITH_ERRORS` clusters hold an error (``a_c < b_c``), at least
    ``sum b / #clusters with b_c > 0`` (perfect within-cluster correlation).
    """
    b = b_c.sum(1)
    a = a_c.sum(1)
    c = a_c.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        p = a / b
        resid = a_c - p[:, None] * b_c
        var_cl = c / (c - 1) * (resid**2).sum(1) / b**2
        var_bin = p * (1 - p) / b
        deff = np.where(var_bin > 0, var_cl / var_bin, 1.0)
        worst = b / np.maximum((b_c > 0).sum(1), 1)
    deff = np.where(np.isfinite(deff), np.maximum(deff, 1.0), 1.0)
    few = (a_c < b_c).sum(1) < MIN_CLUSTERS_WITH_ERRORS
    return np.where(few, np.maximum(deff, worst), deff)


def _pvalues(metric, target, is_pos, score, grid, clusters, prevalence):
    """p-values of H0 "metric(t) < target" per grid threshold."""
    counts = _effective_counts(metric, is_pos, score, grid, clusters, prevalence)
    return _pvalues_from_counts(metric, target, *counts[:4], prevalence, counts[4])


def _effective_counts(metric, is_pos, score, grid, clusters, prevalence):
    """``(tp, npred, n_pos, n_neg, deff)`` per grid threshold (they do not depend on the
    target)."""
    codes = None if clusters is None else clusters.codes
    nc = 0 if clusters is None else clusters.n_clusters
    tp, npred, tpc, npc = _counts(is_pos, score, grid, codes, nc)
    n_pos = float(is_pos.sum())
    n_neg = float(is_pos.size - n_pos)
    deff = None
    if clusters is not None:
        pos_c = np.tile(np.bincount(codes, weights=is_pos, minlength=nc), (grid.size, 1))
        if metric == "recall":
            deff = _design_effect(tpc, pos_c)
        elif prevalence is None:
            deff = _design_effect(tpc, npc)
        else:  # TPR's and FPR's own design effects (FPR's "errors": flagged negatives)
            neg_c = np.tile(np.bincount(codes, weights=~is_pos, minlength=nc), (grid.size, 1))
            fpc = npc - tpc
            deff = (_design_effect(tpc, pos_c), _design_effect(neg_c - fpc, neg_c))
    return tp, npred, n_pos, n_neg, deff


def _pvalues_from_counts(metric, target, tp, npred, n_pos, n_neg, prevalence, deff=None):
    """p-values of H0 "metric(t) < target" per grid threshold from the counts there.

    ``deff``: the design effect per threshold (a pair, TPR's and FPR's, with a prevalence);
    counts are divided by it (effective counts).
    """
    if metric == "precision" and prevalence is not None:
        d_tpr, d_fpr = (1.0, 1.0) if deff is None else deff
        return _prevalence_pvalues(
            target, tp / d_tpr, n_pos / d_tpr, (npred - tp) / d_fpr, n_neg / d_fpr, prevalence
        )
    x, n = (tp, np.full_like(tp, n_pos)) if metric == "recall" else (tp, npred)
    if deff is not None:
        x, n = x / deff, n / deff
    return binomial_pvalue(x, n, target)


def _prevalence_pvalues(target, tp, n_pos, fp, n_neg, prevalence):
    # precision at a deployment prevalence pi: prec >= target iff
    # pi (1 - target) TPR >= target (1 - pi) FPR. Test TPR >= r and FPR <= f jointly, at the
    # boundary with the best split: the p-value is the smallest max(p_tpr, p_fpr) * 2 over r.
    # (Counts may be effective, non-integer: both tails through the incomplete beta.)
    k = prevalence * (1 - target) / (target * (1 - prevalence))
    r = np.linspace(0.001, 1, 400)
    tp, fp = np.broadcast_to(tp, np.shape(fp)), np.broadcast_to(fp, np.shape(tp))
    n_pos = np.broadcast_to(n_pos, tp.shape)[:, None]
    n_neg = np.broadcast_to(n_neg, tp.shape)[:, None]
    p_tpr = binomial_pvalue(tp[:, None], n_pos, r[None, :])  # H0: TPR < r
    f = np.minimum(k * r, 1.0)[None, :]
    # H0: FPR > f: P(FP <= fp | n_neg, f) = I_{1-f}(n_neg - fp, fp + 1)
    x = fp[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        p_fpr = special.betainc(np.maximum(n_neg - x, 1e-300), x + 1, 1 - f)
    p_fpr = np.where((f >= 1) | (x >= n_neg), 1.0, p_fpr)
    return np.minimum(1.0, 2 * np.maximum(p_tpr, p_fpr).min(1))


def _fixed_sequence(order, pvalues, alpha):
    """Test in ``order`` at ``alpha`` until the first failure; the rejected hypotheses."""
    passed = np.zeros(pvalues.size, bool)
    for k in order:
        if pvalues[k] > alpha:
            break
        passed[k] = True
    return passed


#: The ordered sequence for precision starts at several thresholds (a fallback
#: procedure): where a sample whose precision is ``target + share (1 - target)`` would
#: pass, for each share here, with this part of ``1 - ci_prob`` each. Share 1 (every
#: flagged item positive) keeps the top thresholds when there are few items; the lower
#: shares need more flagged items and survive errors among the top ones (one error there
#: stops a sequence that started at share 1). All depend on counts of flagged items only.
START_SHARES = (1.0, 0.5, 0.25)
START_WEIGHTS = (0.5, 0.25, 0.25)


def _sequence_starts(metric, target, npred, n_pos, n_neg, prevalence, alpha, flagged_clusters):
    """Grid indices where the label-free sequence starts, one per start (None: no
    threshold offers it); see :func:`_order_from_starts`.

    Precision: for each of :data:`START_SHARES`, the highest threshold where a sample
    with precision ``target + share (1 - target)`` would pass at the start's own level
    ``alpha * weight`` (:data:`START_WEIGHTS`). With a prevalence: one start, where every
    flagged item positive would pass at ``alpha``. With clusters the count of flagged
    items is replaced by the count of flagged clusters (the worst-case effective count).
    Recall: the lowest threshold.
    """
    if metric == "recall":
        return [0]
    deff = None
    if flagged_clusters is not None:
        deff = npred / np.maximum(flagged_clusters, 1)
        deff = deff if prevalence is None else (deff, 1.0)

    def first_passing(case_tp, level):
        pv = _pvalues_from_counts(metric, target, case_tp, npred, n_pos, n_neg, prevalence, deff)
        ok = np.flatnonzero(pv <= level)
        return int(ok.max()) if ok.size else None  # the highest such threshold

    if prevalence is not None:
        return [first_passing(np.minimum(npred, n_pos), alpha)]
    return [
        first_passing(np.minimum(npred * (target + share * (1 - target)), n_pos), alpha * weight)
        for share, weight in zip(START_SHARES, START_WEIGHTS, strict=True)
    ]


def _order_from_starts(metric, starts, alpha, size):
    """The order of the sequence and the level each position brings (summing to
    ``alpha``; see :func:`_fallback`).

    Recall: from the lowest threshold up, ``alpha`` at the start. Precision: from the
    highest start down, each start bringing ``alpha`` times its weight; a start that no
    threshold offers gives its level to the first.
    """
    k = np.arange(size)
    if metric == "recall":
        return k, np.r_[alpha, np.zeros(size - 1)]
    found = [x for x in starts if x is not None]
    if not found:
        return k[:0], np.zeros(0)
    top = max(found)
    order = k[: top + 1][::-1]  # position i holds grid index top - i
    levels = np.zeros(order.size)
    weights = (1.0,) if len(starts) == 1 else START_WEIGHTS
    for x, weight in zip(starts, weights, strict=True):
        levels[top - (x if x is not None else top)] += alpha * weight
    return order, levels


def _fallback(order, levels, pvalues):
    """Fallback procedure (Wiens 2003): test in ``order``; a position's level is its own
    plus the previous position's when that one passed. Family-wise error at most
    ``sum(levels)``; with all of it at the first position, fixed-sequence testing."""
    passed = np.zeros(pvalues.size, bool)
    carry = 0.0
    for k, own in zip(order, levels, strict=True):
        level = own + carry
        if level > 0 and pvalues[k] <= level:
            passed[k] = True
            carry = level
        else:
            carry = 0.0
    return passed


def _pick(metric, grid, certified):
    """Lowest certified threshold for precision; highest for recall."""
    idx = np.flatnonzero(certified)
    if idx.size == 0:
        return None
    return int(idx.min() if metric == "precision" else idx.max())


def _empirical_values(metric, is_pos, score, grid, prevalence=None):
    tp, npred, _, _ = _counts(is_pos, score, grid)
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == "recall":
            return tp / is_pos.sum()
        if prevalence is None:
            return tp / npred
        tpr = tp / is_pos.sum()
        fpr = (npred - tp) / (is_pos.size - is_pos.sum())
        return prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr)


def _bayes_row(y_true, y_score, metric, target, ci_prob, grid, prevalence, seed):
    from ..bayes import fit_binormal

    post = fit_binormal(y_true, y_score, random_seed=seed, progressbar=False)
    if metric == "precision":
        draws = post.precision_at_threshold(grid, prevalence=prevalence).values
    else:
        draws = post.recall_at_threshold(grid).values
    prob = (draws.reshape(-1, grid.size) >= target).mean(0)
    return prob >= ci_prob


_SUBGROUP_VALUES = (
    "precision",
    "precision_low",
    "precision_high",
    "recall",
    "recall_low",
    "recall_high",
    "p_value",
)


class _Unit:
    """The items that must meet the target together (all, or one subgroup): their
    effective counts per grid threshold, computed once."""

    def __init__(self, metric, is_pos, score, grid, clusters, prevalence, mask):
        self.metric, self.prevalence = metric, prevalence
        pos, sc = is_pos[mask], score[mask]
        cl = None
        if clusters is not None:
            cl = check_groups(clusters.codes[mask], int(mask.sum()))
        self.counts = _effective_counts(metric, pos, sc, grid, cl, prevalence)
        _, _, _, npc = _counts(pos, sc, grid, *(() if cl is None else (cl.codes, cl.n_clusters)))
        self.flagged_clusters = None if npc is None else (npc > 0).sum(1)

    def pvalues(self, target):
        c = self.counts
        return _pvalues_from_counts(self.metric, target, *c[:4], self.prevalence, c[4])

    def starts(self, target, alpha):
        tp, npred, n_pos, n_neg, _ = self.counts
        return _sequence_starts(
            self.metric,
            target,
            npred,
            n_pos,
            n_neg,
            self.prevalence,
            alpha,
            self.flagged_clusters,
        )


def choose_threshold(
    y_true,
    y_score,
    *,
    min_precision=None,
    min_recall=None,
    ci_prob=0.95,
    method=None,
    prevalence=None,
    groups=None,
    subgroup=None,
    random_seed=None,
):
    """Choose the score threshold at which precision (or recall) holds with a guarantee.

    Candidate thresholds are :data:`GRID_SIZE` quantiles of all scores (labels unused),
    so the grid is fixed before any test, as Learn-then-Test requires. Rows of the table:

    * ``"ltt_fixed_sequence"`` (recommended): Learn-then-Test (Angelopoulos, Bates,
      Candes, Jordan & Lei 2021) with fixed-sequence testing: the exact one-sided
      binomial (Clopper-Pearson) p-value of H0 "metric(t) < target" at each grid
      threshold, tested in a label-free order from the conservative end of the grid
      (recall: from the lowest threshold up, at ``1 - ci_prob`` until the first failure;
      precision: from the highest threshold down, as a fallback procedure with two
      starts of level ``(1 - ci_prob) / 2`` each, placed by the counts of flagged items
      only, see :data:`START_SHARES`). Family-wise error at most ``1 - ci_prob`` with no
      correction for the 100 tests.
    * ``"ltt_bonferroni"``: the same p-values, every threshold tested at
      ``(1 - ci_prob) / len(grid)``.
    * ``"ltt_split_fixed_sequence"``: a random half of the items orders the grid by its
      p-values, the other half tests in that order at ``1 - ci_prob`` until the first
      failure (``random_seed``); for a metric far from monotone in the threshold.
    * ``"bayes"``: the lowest threshold with posterior P(metric(t) >= target) >= ci_prob
      under :func:`bayes_prc.fit_binormal` (fitted only when ``method="bayes"``; not
      measured by the coverage study).
    * ``"empirical"``: the lowest threshold whose empirical metric reaches the target; not
      guaranteed, never recommended.

    The recommendation is the ordered fixed sequence in every situation measured
    (``benchmarks/coverage_threshold.py``, docs/coverage.md "Choosing a threshold"): its
    violation rate stayed within ``1 - ci_prob`` and its recall was at least
    Bonferroni's and the split sequence's in every setting. It is a fixed rule, not
    picked per data set (picking the row with the most recall on the data would void the
    guarantee).

    With ``subgroup`` (a label per item) the threshold must meet the target in every
    subgroup: each subgroup is tested on its own items and a threshold passes when every
    subgroup's test rejects (an intersection-union test: the largest of the subgroups'
    p-values, no correction needed); :attr:`ThresholdChoice.subgroups` has each
    subgroup's precision and recall there. No pooling across subgroups.

    For precision the lowest certified threshold is chosen (most recall); for recall the
    highest. With ``groups`` counts are divided by the cluster design effect of the ratio
    (its worst case, items of a cluster sharing one outcome, where fewer than 5 clusters
    hold an error); with ``prevalence`` precision is tested at that prevalence through
    TPR and FPR (a union bound over both).

    Returns
    -------
    ThresholdChoice

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.threshold import choose_threshold
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.3
    >>> s = rng.normal(2.0 * y, 1.0)
    >>> c = choose_threshold(y, s, min_precision=0.8, random_seed=0)
    >>> c.certified and c.method == "ltt_fixed_sequence"
    True
    """
    if (min_precision is None) == (min_recall is None):
        raise ValueError(
            "give exactly one of `min_precision` and `min_recall` "
            f"(got min_precision={plain(min_precision)}, min_recall={plain(min_recall)})"
        )
    metric = "precision" if min_recall is None else "recall"
    target = check_probability(
        min_precision if metric == "precision" else min_recall, f"min_{metric}"
    )
    ci_prob = check_probability(ci_prob, "ci_prob")
    method = check_choice(method, "method", (None, *THRESHOLD_METHODS))
    if prevalence is not None:
        prevalence = check_probability(prevalence, "prevalence")
        if metric == "recall":
            raise ValueError(
                "`prevalence` applies to `min_precision` only (recall does not depend on it)"
            )
    ranked = as_ranked(y_true, y_score)
    is_pos = np.asarray(ranked.is_pos, bool)
    score = np.asarray(ranked.y_score, float)
    if is_pos.sum() == 0 or is_pos.sum() == is_pos.size:
        raise ValueError("`y_true` must hold both classes to choose a threshold")
    clusters = None if groups is None else check_groups(groups, score.size)
    subgroups, sub_labels = None, None
    if subgroup is not None:
        if method == "bayes":
            raise ValueError("`subgroup` is not available with method='bayes'")
        sub = check_groups(subgroup, score.size, name="subgroup", noun="subgroup")
        sub_labels = sub.labels if sub.labels is not None else list(range(sub.n_clusters))
        subgroups = [sub.codes == c for c in range(sub.n_clusters)]
        for lab, m in zip(sub_labels, subgroups, strict=True):
            if not 0 < is_pos[m].sum() < m.sum():
                raise ValueError(
                    f"`subgroup` {plain(lab)} must hold both classes to choose a threshold "
                    f"({int(is_pos[m].sum())} positives among {int(m.sum())} items)"
                )
    rng = check_random_state(random_seed)
    alpha = 1 - ci_prob
    grid = score_grid(score)

    emp = _empirical_values(metric, is_pos, score, grid, prevalence)
    tp, npred, _, _ = _counts(is_pos, score, grid)
    # the units that must each meet the target: all items, or every subgroup
    # (intersection-union: a threshold is certified when every unit's test rejects at the
    # full level, so the p-value is the largest of the units')
    units = [np.ones(score.size, bool)] if subgroups is None else subgroups
    unit = [_Unit(metric, is_pos, score, grid, clusters, prevalence, m) for m in units]

    def pvalues_at(t):
        return np.max([u.pvalues(t) for u in unit], axis=0)

    def order_at(t):
        per_unit = [u.starts(t, alpha) for u in unit]
        starts = [
            None if any(x[i] is None for x in per_unit) else min(x[i] for x in per_unit)
            for i in range(len(per_unit[0]))
        ]
        return _order_from_starts(metric, starts, alpha, grid.size)

    pv = pvalues_at(target)
    if subgroups is not None:
        emp = np.min(
            [
                np.nan_to_num(_empirical_values(metric, is_pos[m], score[m], grid, prevalence))
                for m in units
            ],
            axis=0,
        )
    passed = {
        "ltt_bonferroni": pv <= alpha / grid.size,
        "ltt_fixed_sequence": _fallback(*order_at(target), pv),
        "empirical": np.nan_to_num(emp) >= target,
    }
    # split fixed sequence (LTT paper): a random half orders the grid by its p-values
    # (smallest first; ties: the more conservative threshold first), the other half tests
    half = rng.permutation(score.size) < score.size // 2
    pv_a = np.max(
        [
            _Unit(metric, is_pos, score, grid, None, prevalence, m & half).pvalues(target)
            for m in units
        ],
        axis=0,
    )
    pv_b = np.max(
        [
            _Unit(metric, is_pos, score, grid, clusters, prevalence, m & ~half).pvalues(target)
            for m in units
        ],
        axis=0,
    )
    tiebreak = -grid if metric == "precision" else grid
    split_order = np.lexsort((tiebreak, pv_a))
    passed["ltt_split_fixed_sequence"] = _fixed_sequence(split_order, pv_b, alpha)
    rows = {name: _pick(metric, grid, ok) for name, ok in passed.items()}
    if method == "bayes":
        seed = int(rng.integers(2**31))
        passed["bayes"] = _bayes_row(
            is_pos.astype(int), score, metric, target, ci_prob, grid, prevalence, seed
        )
        rows["bayes"] = _pick(metric, grid, passed["bayes"])

    import pandas as pd

    decision = recommend_threshold_method()
    recommended = decision.row
    quoted = method or recommended
    records = []
    emp_recall = _empirical_values("recall", is_pos, score, grid)
    emp_precision = _empirical_values("precision", is_pos, score, grid, prevalence)
    for name in THRESHOLD_METHODS:
        if name not in rows:
            continue
        k = rows[name]
        records.append(
            {
                "method": name,
                "threshold": np.nan if k is None else float(grid[k]),
                "certified": k is not None and name != "empirical",
                "guaranteed": name != "empirical",
                "precision": np.nan if k is None else float(emp_precision[k]),
                "recall": np.nan if k is None else float(emp_recall[k]),
            }
        )
    table = pd.DataFrame.from_records(records).set_index("method")
    table.attrs.update(decision.as_attrs())

    k = rows.get(quoted)
    k_emp = rows["empirical"]
    certified = k is not None and quoted != "empirical"
    level = f"{100 * ci_prob:g}%"
    where = "" if prevalence is None else f" at prevalence {prevalence:g}"
    if subgroups is not None:
        where += f" in every subgroup ({len(subgroups)})"
    if k is None:
        # the best target reachable at this confidence by the same rule
        if quoted == "ltt_fixed_sequence":
            rule = "fixed-sequence"

            def certifies(t):
                return _fallback(*order_at(t), pvalues_at(t)).any()
        else:
            rule = "Bonferroni"

            def certifies(t):
                return (pvalues_at(t) <= alpha / grid.size).any()

        lows = _reachable(certifies)
        guarantee = (
            f"no threshold certifies {metric} >= {target:.3g}{where} with {level} confidence; "
            f"the best {metric} certifiable at that confidence ({rule} rule) is {lows:.3f}"
        )
        thr = None
        pr = rc = np.nan
        plo = rlo = 0.0
        phi = rhi = 1.0
    else:
        thr = float(grid[k])
        if quoted == "empirical":
            guarantee = (
                f"{metric} >= {target:.3g} on this sample at threshold {thr:.4g} (NOT guaranteed)"
            )
        else:
            guarantee = f"{metric} >= {target:.3g}{where} at this threshold with {level} confidence"
        flag = score >= thr
        pr, plo, phi = _cp_interval(int((flag & is_pos).sum()), int(flag.sum()), ci_prob)
        rc, rlo, rhi = _cp_interval(int((flag & is_pos).sum()), int(is_pos.sum()), ci_prob)
        if prevalence is not None:  # precision at the deployment prevalence: no CP interval
            pr, plo, phi = float(emp_precision[k]), np.nan, np.nan
    with np.errstate(invalid="ignore"):
        a = 1 - ci_prob
        x, n = tp, npred
        point_ok = clusters is None and prevalence is None
        curve = pd.DataFrame(
            {
                "threshold": grid,
                "precision": emp_precision,
                "recall": emp_recall,
                "precision_low": np.where(
                    point_ok & (x > 0), stats.beta.ppf(a / 2, x, n - x + 1), 0.0
                )
                if point_ok
                else np.nan,
                "precision_high": np.where(x < n, stats.beta.ppf(1 - a / 2, x + 1, n - x), 1.0)
                if point_ok
                else np.nan,
                "certified": passed[quoted] & (quoted != "empirical"),
            }
        )
    rec_emp = float(emp_recall[k_emp]) if k_emp is not None else np.nan
    sub_table = None
    if subgroups is not None:
        records = []
        for lab, m, u in zip(sub_labels, subgroups, unit, strict=True):
            row = {"subgroup": lab, "n": int(m.sum()), "positives": int(is_pos[m].sum())}
            if thr is None:
                row.update(dict.fromkeys(_SUBGROUP_VALUES, np.nan))
            else:
                f = m & (score >= thr)
                hits = int((f & is_pos).sum())
                p_, p_lo, p_hi = _cp_interval(hits, int(f.sum()), ci_prob)
                r_, r_lo, r_hi = _cp_interval(hits, row["positives"], ci_prob)
                values = (p_, p_lo, p_hi, r_, r_lo, r_hi, float(u.pvalues(target)[k]))
                row.update(zip(_SUBGROUP_VALUES, values, strict=True))
            records.append(row)
        sub_table = pd.DataFrame.from_records(records).set_index("subgroup")
    return ThresholdChoice(
        threshold=thr,
        guarantee=guarantee,
        certified=bool(certified),
        metric=metric,
        target=target,
        ci_prob=ci_prob,
        precision=float(pr),
        precision_low=float(plo),
        precision_high=float(phi),
        recall=float(rc),
        recall_low=float(rlo),
        recall_high=float(rhi),
        recall_cost=float(rec_emp - rc) if k is not None else np.nan,
        method=quoted,
        table=table,
        curve=curve,
        subgroups=sub_table,
    )


def _reachable(certifies):
    """Largest target that ``certifies(target)`` accepts (bisection to 1e-6).

    The certified set shrinks as the target grows (every p-value grows with it), so the
    answer is a single boundary.
    """
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        if certifies(mid):
            lo = mid
        else:
            hi = mid
    return lo
