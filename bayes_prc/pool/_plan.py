r"""How many labels to buy: the expected width of the pool-AP interval against the budget.

:func:`plan_labels` answers "what would ``B`` labels give?" before they are paid for, by
posterior-predictive simulation (Rubin 1984; Gelman, Meng & Stern 1996): pools are
simulated from what is known about the calibration curve (the posterior of a pilot's
:func:`bayes_prc.pool.fit_pool`, or an assumed binormal model), the labelling is
simulated on them exactly as it would be done (a fresh
:func:`bayes_prc.pool.select_labels` of ``B`` items; and, with a pilot, the pilot
extended to ``B`` by ``next_batch``), and the interval that would be reported
(:func:`bayes_prc.pool.fit_pool`'s equal-tailed AP interval) is computed each time. The
expected width is the mean over replicates; its Monte Carlo error is reported too.

References
----------
.. [1] D. B. Rubin, "Bayesianly justifiable and relevant frequency calculations for the
   applied statistician", Ann. Statist. 12 (1984) 1151-1172.
.. [2] A. Gelman, X.-L. Meng and H. Stern, "Posterior predictive assessment of model
   fitness via realized discrepancies", Statistica Sinica 6 (1996) 733-807.
.. [3] F. Wang and A. E. Gelfand, "A simulation-based approach to Bayesian sample size
   determination for performance under a given model and for separating models",
   Statistical Science 17 (2002) 193-208 (sample size by simulated posterior widths).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import special, stats

from .._core import (
    Progress,
    check_choice,
    check_int,
    check_pool_scores,
    check_probability,
    check_progressbar,
    check_random_state,
    plain,
)
from ..empirical import average_precision_score
from ..exceptions import ConvergenceWarning
from ._design import ValidatedSelection, prepare_selection
from ._model import calibration_basis, pool_normal_scores
from ._posterior import fit_pool
from ._selection import SELECTION_STRATEGIES, select_labels

__all__ = ["plan_labels"]


def _check_budgets(budgets, n_min, n_pool):
    b = np.atleast_1d(np.asarray(budgets))
    if b.ndim != 1 or b.size == 0 or b.dtype.kind not in "iu":
        raise ValueError(
            f"`budgets` must be an integer or a 1-D array of integers; got {plain(budgets)}"
        )
    bad = b[(b < n_min) | (b > n_pool)]
    if bad.size:
        what = f"the pilot's {n_min} labels" if n_min > 1 else "1"
        raise ValueError(
            f"`budgets` must lie between {what} and the pool size {n_pool}; got {int(bad[0])}"
        )
    return np.unique(b).astype(np.int64)


def _check_pilot(pilot, score):
    if not (isinstance(pilot, tuple | list) and len(pilot) == 2):
        raise ValueError(
            "`pilot` must be a pair (selection, y_labels): a LabelSelection and the labels "
            f"of its items; got {type(pilot).__name__}"
        )
    selection, y_labels = pilot
    if isinstance(selection, ValidatedSelection):
        return prepare_selection(score, selection, y_labels)
    return ValidatedSelection(score, selection, y_labels, name="pilot[0]")


def _assumed_logit(score, prevalence, separation):
    """Log-odds of a positive at each pool item under the assumed binormal pool.

    The pool rank fraction ``q`` is mapped to the score ``x`` with ``F(x) = q`` under the
    mixture ``F = (1 - pi) Phi(x) + pi Phi(x - d)``; the calibration is the binormal one,
    ``logit P(y = 1 | x) = logit(pi) + d x - d^2 / 2``.
    """
    n = score.shape[0]
    q = (stats.rankdata(score, method="average") - 0.5) / n
    grid = np.linspace(-9.0, separation + 9.0, 4001)
    cdf = (1 - prevalence) * special.ndtr(grid) + prevalence * special.ndtr(grid - separation)
    x = np.interp(q, cdf, grid)
    return special.logit(prevalence) + separation * x - 0.5 * separation**2


def _width(values, level):
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(hi - lo), float(lo), float(hi)


def _fit_width(score, sel, labels, truth, *, draws, level, recall, seed):
    """One inner fit: AP width, coverage of ``truth``, precision width, positives, k-hat flag."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        fit = fit_pool(score, sel, labels, draws=draws, chains=1, ci_prob=level, random_seed=seed)
    unreliable = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    ap = fit.average_precision().values.reshape(-1)
    width, lo, hi = _width(ap, level)
    prec = fit.precision_at_recall([recall]).values.reshape(-1)
    return width, lo <= truth <= hi, _width(prec, level)[0], labels.sum(), unreliable


def _summary(stats_, budgets, suffix):
    """Columns of one prediction (``stats_``: (5, n_budgets, n_replicates))."""
    width, covers, prec_width, n_pos, unreliable = stats_
    n_rep = width.shape[1]
    sd = width.std(axis=1, ddof=1) if n_rep > 1 else np.full(budgets.size, np.nan)
    return {
        f"ap_width{suffix}": width.mean(axis=1),
        f"ap_width{suffix}_sd": sd,
        f"ap_width{suffix}_se": sd / np.sqrt(n_rep),
        f"ap_coverage{suffix}": covers.mean(axis=1),
        f"precision_at_recall_width{suffix}": prec_width.mean(axis=1),
        f"n_labelled_positives{suffix}": n_pos.mean(axis=1),
        f"unreliable_fits{suffix}": unreliable.mean(axis=1),
    }


def plan_labels(
    y_score,
    budgets,
    *,
    pilot=None,
    strategy="stratified",
    ci_prob=0.95,
    recall=0.5,
    n_replicates=50,
    draws=250,
    prevalence=None,
    separation=2.0,
    progressbar=None,
    random_seed=None,
):
    r"""Expected width of the pool-AP credible interval for each labelling budget.

    Two questions, two predictions:

    - "What width would a budget of ``B`` labels give?" -- columns ``ap_width``, ...:
      a *fresh* :func:`~bayes_prc.pool.select_labels` of ``B`` items with ``strategy``
      (its strata and allocation built for ``B``). This is the width that the planned
      labelling would have if it were designed for ``B`` from the start, and what
      coverage and width studies of ``select_labels(score, B)`` measure.
    - "What width will I get if I extend my pilot to ``B``?" -- columns
      ``ap_width_extended``, ...: the pilot selection extended with
      :meth:`~bayes_prc.pool.LabelSelection.next_batch` to ``B`` items (the labels already
      paid for count; the extension adapts to the pilot labels as it would in practice;
      the strata stay the pilot's). Computed when a pilot is given, its strategy is
      ``strategy`` and not ``"importance"``. An extended pilot is usually somewhat wider
      than a fresh selection of the same size, since the pilot's strata were built for a
      smaller budget (coarser strata at the top scores).

    For each of ``n_replicates`` replicates:

    1. a calibration curve ``P(y = 1 | score)`` is drawn (from the pilot's
       :func:`~bayes_prc.pool.fit_pool` posterior; or the assumed one, see below),
    2. the pool's labels are drawn from it (the pilot's items keep their known labels)
       and the simulated pool's AP is the truth of this replicate,
    3. for each budget ``B``, a fresh selection of ``B`` items is drawn (and, with an
       extendable pilot, an extension of the pilot to ``B`` items), labelled with the
       simulated labels,
    4. :func:`~bayes_prc.pool.fit_pool` (fast ``"laplace"`` sampler, ``draws`` draws,
       one chain) is fit to each, and the width of its equal-tailed ``ci_prob`` interval
       of the pool's AP is recorded, with whether it covers the simulated pool's AP.

    The budgets and both predictions of one replicate share the simulated pool (common
    random numbers): differences between budgets, and between the fresh and the extended
    prediction, are smoother than the widths themselves. The extended prediction doubles
    the cost (two fits per budget and replicate; each fit, with its selection, takes about
    0.3 s at ``n_pool = 2e5`` and 400 labels). The pilot's posterior is taken as the
    truth's distribution: if the model is wrong, so is the plan (``ap_coverage`` near
    ``ci_prob`` only checks self-consistency).

    Parameters
    ----------
    y_score : array-like of shape (n_pool,)
        Scores of every pool item.
    budgets : int or array-like of int
        Total numbers of labelled items (pilot included) to evaluate; at least the
        pilot's size (when it can be extended) and at most the pool. Sorted and
        deduplicated.
    pilot : tuple (LabelSelection, array-like), optional
        A labelled selection already made: ``(selection, y_labels)`` with the labels of
        ``selection.indices``, or ``(prepared, None)`` with a selection prepared by
        :func:`~bayes_prc.pool.prepare_selection`. Without it the pool is assumed
        binormal (``prevalence``, ``separation``) and no label is paid for yet.
    strategy : {"stratified", "random", "importance"}, default "stratified"
        Strategy of the fresh selections (and of the extension, which is only simulated
        when the pilot has this strategy).
    ci_prob : float, default 0.95
        Probability of the planned intervals.
    recall : float in (0, 1), default 0.5
        Recall at which the width of the precision interval is reported too.
    n_replicates : int, default 50
        Replicates per budget: the Monte Carlo standard error of ``ap_width`` is
        ``ap_width_sd / sqrt(n_replicates)`` (column ``ap_width_se``; with 50 replicates
        about 6% of ``ap_width`` at 2e5 items, 1% prevalence and 400 labels, against
        about 10% with 20). Each replicate costs one inner fit per budget (two with an
        extendable pilot).
    draws : int, default 250
        Posterior draws of each inner fit (the interval width of a fit with 250 draws
        has a Monte Carlo error of a few percent, averaged away over replicates).
    prevalence : float in (0, 1), optional
        Assumed prevalence without a pilot: default the mean score when the scores lie
        in [0, 1], else 0.02 (as ``select_labels``'s guess). Ignored with a pilot.
    separation : float, default 2.0
        Assumed binormal separation ``d'`` without a pilot (positives' scores
        ``N(d', 1)``, negatives' ``N(0, 1)`` on the scale where the pool's rank
        distribution is that mixture; ``d' = 2`` is a ROC AUC of 0.92). Only the pool's
        ranks are used. Ignored with a pilot.
    progressbar : bool or None, default None
        A progress line over budgets x replicates on stderr (None: when stderr is a
        terminal; at 2e5 items one budget with an extendable pilot takes about 27 s).
    random_seed : int, numpy.random.Generator or None

    Returns
    -------
    pandas.DataFrame
        Indexed by ``budget``, columns: ``n_new`` (labels still to buy: ``budget`` minus
        the pilot's size when the pilot is extended, else ``budget``), and for the fresh
        selection ``ap_width`` (mean width of the ``ci_prob`` AP interval),
        ``ap_width_sd`` (its spread over replicates), ``ap_width_se`` (Monte Carlo
        standard error of ``ap_width``), ``ap_coverage`` (share of replicates whose
        interval covers the simulated pool's AP), ``precision_at_recall_width`` (mean
        width of the ``ci_prob`` interval of the pool's precision at ``recall``),
        ``n_labelled_positives`` (mean positives among the labelled items) and
        ``unreliable_fits`` (share of inner fits whose importance sampling had Pareto
        ``k > 0.7``). With an extendable pilot, the same seven columns for the extended
        pilot with the suffix ``_extended`` (``ap_width_extended``,
        ``ap_width_extended_sd``, ``ap_width_extended_se``, ``ap_coverage_extended``,
        ...). ``attrs``: ``ci_prob``, ``ci_kind`` ("eti"), ``recall``, ``strategy``,
        ``n_replicates``, ``n_pilot``, ``extended`` (bool), ``model`` (what was
        simulated).

    References
    ----------
    Rubin (1984), Ann. Statist. 12; Wang & Gelfand (2002), Statistical Science 17
    (simulation-based sample size determination).

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.pool import select_labels
    >>> from bayes_prc.pool._plan import plan_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(20_000) < 0.02
    >>> s = rng.normal(size=y.size) + 2.5 * y
    >>> sel = select_labels(s, 150, random_seed=1)
    >>> plan = plan_labels(s, [150, 600], pilot=(sel, y[sel.indices]), n_replicates=3,
    ...                    random_seed=2)
    >>> list(plan.index), plan.index.name, bool(plan["ap_width"].iloc[1] < plan["ap_width"].iloc[0])
    ([150, 600], 'budget', True)
    >>> bool(plan["ap_width_extended"].iloc[1] < plan["ap_width_extended"].iloc[0])
    True
    """
    import pandas as pd

    prepared = pilot[0] if isinstance(pilot, tuple | list) and pilot else None
    if isinstance(prepared, ValidatedSelection) and (y_score is None or y_score is prepared.score):
        score = prepared.score  # validated when the pilot was prepared
    else:
        score = check_pool_scores(y_score)
    n_pool = score.shape[0]
    check_choice(strategy, "strategy", SELECTION_STRATEGIES)
    level = check_probability(ci_prob, "ci_prob")
    recall = check_probability(recall, "recall")
    n_rep = check_int(n_replicates, "n_replicates")
    draws = check_int(draws, "draws", 20)
    progressbar = check_progressbar(progressbar)
    rng = check_random_state(random_seed)
    sep = np.asarray(separation, dtype=np.float64)
    if sep.ndim or not np.isfinite(sep) or sep < 0:
        raise ValueError(f"`separation` must be a finite number >= 0; got {plain(separation)}")
    if pilot is not None:
        prepared = _check_pilot(pilot, score)
        sel0, y0 = prepared.selection, prepared.is_pos.astype(bool)
        n_pilot = int(sel0.indices.size)
        extend = (
            sel0.strategy == strategy
            and strategy != "importance"
            and sel0._stratum_edges is not None
        )
        budgets = _check_budgets(budgets, n_pilot if extend else 1, n_pool)
        post = fit_pool(None, prepared, draws=1000, chains=1, ci_prob=level, random_seed=rng)
        alpha = post.idata["posterior"]["alpha"].values.reshape(-1)
        log_slopes = post.idata["posterior"]["log_slopes"].values
        slopes = np.exp(log_slopes.reshape(alpha.size, -1))
        floor = post.idata["posterior"]["floor"].values.reshape(-1)
        h = calibration_basis(
            pool_normal_scores(score.astype(np.float64)), post.knots, post.anchor
        )  # (n, K + 1)
        model = f"posterior of fit_pool on the pilot ({n_pilot} labels)"
    else:
        if prevalence is None:
            lo, hi = float(score.min()), float(score.max())
            prev = float(np.clip(score.mean(), 1e-3, 0.5)) if 0 <= lo and hi <= 1 else 0.02
        else:
            prev = check_probability(prevalence, "prevalence")
        n_pilot, extend = 0, False
        budgets = _check_budgets(budgets, 1, n_pool)
        fixed_logit = _assumed_logit(score, prev, float(sep))
        model = f"assumed binormal pool (prevalence={prev:.4g}, separation={float(sep):.4g})"

    n_b = budgets.size
    # (fresh | extended) x (width, covers, precision width, positives, unreliable)
    out = np.full((2, 5, n_b, n_rep), np.nan)
    fit_args = {"draws": draws, "level": level, "recall": recall}
    progress = Progress(n_b * n_rep, "plan_labels", progressbar)
    try:
        for r in range(n_rep):
            if pilot is not None:
                j = int(rng.integers(alpha.size))
                logit_p = alpha[j] + h @ slopes[j]
                p_sim = floor[j] + (1 - floor[j]) * special.expit(logit_p)
            else:
                logit_p = fixed_logit
                p_sim = special.expit(logit_p)
            y_sim = rng.random(n_pool) < p_sim
            if pilot is not None:
                y_sim[sel0.indices] = y0
            if not y_sim.any():
                y_sim[int(np.argmax(logit_p))] = True  # an AP needs a positive
            truth = float(average_precision_score(y_sim, score))
            for b, budget in enumerate(budgets):
                seed = int(rng.integers(2**63 - 4))
                sel = select_labels(score, int(budget), strategy=strategy, random_seed=seed)
                out[0, :, b, r] = _fit_width(
                    score, sel, y_sim[sel.indices], truth, seed=seed + 1, **fit_args
                )
                if extend:
                    # a fresh stream per replicate (by default next_batch continues the
                    # selection's own stream: every replicate would get the same items)
                    sel = (
                        sel0.next_batch(y0, int(budget - n_pilot), random_seed=seed + 2)
                        if budget > n_pilot
                        else sel0
                    )
                    out[1, :, b, r] = _fit_width(
                        score, sel, y_sim[sel.indices], truth, seed=seed + 3, **fit_args
                    )
                progress.update(r * n_b + b + 1)
    finally:
        progress.close()
    columns = {"n_new": budgets - n_pilot if extend else budgets}
    columns.update(_summary(out[0], budgets, ""))
    if extend:
        columns.update(_summary(out[1], budgets, "_extended"))
    frame = pd.DataFrame(columns, index=pd.Index(budgets, name="budget"))
    frame.attrs.update(
        ci_prob=level,
        ci_kind="eti",
        recall=recall,
        strategy=strategy,
        n_replicates=n_rep,
        n_pilot=n_pilot,
        extended=bool(extend),
        model=model,
    )
    return frame


def budget_for_width(plan, target_width, *, column="ap_width"):
    """Smallest budget whose planned width reaches ``target_width``, or None.

    Interpolates ``log(plan[column])`` linearly in ``log(budget)`` between the planned
    budgets (widths fall roughly like ``budget^-1/2``); None when even the largest
    planned budget is wider than the target. ``column="ap_width_extended"`` answers for
    the pilot extended with ``next_batch`` (see :func:`plan_labels`).

    Examples
    --------
    >>> import pandas as pd
    >>> from bayes_prc.pool._plan import budget_for_width
    >>> plan = pd.DataFrame({"ap_width": [0.4, 0.2]}, index=pd.Index([100, 400], name="budget"))
    >>> budget_for_width(plan, 0.2), budget_for_width(plan, 0.1) is None
    (400, True)
    """
    if column not in plan:
        raise ValueError(f"`column` must be a column of `plan`; got {plain(column)}")
    b = np.asarray(plan.index, dtype=np.float64)
    w = np.asarray(plan[column], dtype=np.float64)
    ok = np.isfinite(w) & (w > 0)
    b, w = b[ok], w[ok]
    if b.size == 0 or w.min() > target_width:
        return None
    if w[0] <= target_width:
        return int(b[0])
    k = int(np.argmax(w <= target_width))
    x0, x1 = np.log(b[k - 1]), np.log(b[k])
    y0, y1 = np.log(w[k - 1]), np.log(w[k])
    t = (np.log(target_width) - y0) / (y1 - y0) if y1 != y0 else 1.0
    return int(np.ceil(np.exp(x0 + t * (x1 - x0)) - 1e-6))
