"""``compare_subgroups``: per-subgroup AP or ROC AUC with partial pooling, and its result."""

from __future__ import annotations

import html
import numbers
import re
import warnings
from functools import cached_property

import numpy as np
import pandas as pd
import xarray as xr

from .._core import (
    Progress,
    check_choice,
    check_int,
    check_probability,
    check_progressbar,
    check_random_state,
    plain,
    validate_binary_inputs,
)
from .._core.groups import Clusters, check_groups, object_array
from ..bayes import FitCheck, PosteriorDraws, curve_band, grade_of
from ..binormal import Binormal
from ..empirical import average_precision_score, roc_auc_score
from ..exceptions import ConvergenceWarning
from ..frequentist import ap_interval, roc_auc_interval
from ._fit import (
    SUBGROUP_METRICS,
    fit_subgroups,
    independent_subgroup_draws,
    subgroup_fit_check,
)
from ._model import SubgroupPriors, subgroup_data

__all__ = [
    "BORDERLINE_NOTE",
    "FLAG_PROBABILITY",
    "SUBGROUP_METHODS",
    "VERSUS",
    "OverallPosterior",
    "SubgroupComparison",
    "SubgroupFitCheck",
    "check_subgroups",
    "compare_subgroups",
    "natural_key",
]

#: A subgroup is flagged when its ``prob_below_others`` (or, with
#: ``versus="overall"``, ``prob_below_overall``) exceeds this probability.
FLAG_PROBABILITY = 0.9
#: What a subgroup's flag compares it with (``compare_subgroups(versus=...)``).
VERSUS = ("others", "overall")
#: The note of a subgroup whose flag is within Monte Carlo error of the threshold.
BORDERLINE_NOTE = (
    "borderline: the flag's probability is within 2 Monte Carlo SE of the threshold; "
    "another random_seed may flip the flag, more draws settle it"
)
#: The id-column rule of :func:`check_subgroups`: a subgroup column is refused when more
#: than ``ID_SHARE`` of its subgroups hold at most ``ID_MAX_SIZE`` items.
ID_MAX_SIZE = 2
ID_SHARE = 0.5
#: The rows of :attr:`SubgroupComparison.comparison`, one per method and subgroup.
SUBGROUP_METHODS = ("pooled", "independent", "bootstrap")
#: Recall grid of the pooled population's curves and of the subgroups' bands.
RECALL = np.linspace(0.0, 1.0, 101)
#: At most this many draws make each subgroup's band (memory: subgroups x draws x recall).
BAND_DRAWS = 1000
_NAMES = {"average_precision": "AP", "roc_auc": "ROC AUC"}


def _empirical(metric, y, s):
    """The subgroup's empirical metric, NaN where it is undefined (one class only)."""
    if y.all() or not y.any():
        return np.nan
    if metric == "roc_auc":
        return float(roc_auc_score(y, s))
    return float(average_precision_score(y, s))


def _probability_mcse(event):
    """Monte Carlo standard error of each subgroup's posterior probability of ``event``
    (bool draws of shape (chain, draw, G)): ArviZ's MCSE of the mean of the indicator
    (Vehtari et al. 2021); 0 where every draw agrees."""
    import arviz as az

    x = xr.DataArray(event.astype(float), dims=("chain", "draw", "subgroup"))
    p = event.mean(axis=(0, 1))
    constant = (p == 0) | (p == 1)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore")
        se = np.asarray(az.mcse(x, method="mean"), dtype=float)
    return np.where(constant, 0.0, np.nan_to_num(se, nan=0.0))


#: The note of a subgroup whose scores are all equal (both classes present).
TIED_NOTE = "all scores tied: a constant score ranks nothing (AP = prevalence, ROC AUC 0.5)"


def _note(n_pos, n_neg, tied=False):
    if n_pos == 0:
        return "no positive: the estimate is the other subgroups' (pooling only)"
    if n_neg == 0:
        return "no negative: the ROC estimate is the other subgroups' (pooling only)"
    if n_pos + n_neg == 1:
        return "one item"
    if tied:  # its own scores rank nothing: the chance line, AP = prevalence (fit_subgroups)
        return TIED_NOTE
    return ""


_DIGITS = re.compile(r"(\d+)")


def natural_key(label):
    """Sort key of a subgroup label in natural order: ``"s2"`` before ``"s10"``.

    Numbers sort as numbers; in a string every run of digits compares as a number and
    the text between runs as text (``"site 9" < "site 10" < "site b"``); labels of other
    types (tuples, ...) come last, by their ``repr``. Ties (``"a1"`` and ``"a01"``) are
    broken by the ``repr``, so the order is total and does not depend on the input's.

    Examples
    --------
    >>> from bayes_prc.subgroups import natural_key
    >>> sorted(["s10", "s2", "s1", "s100"], key=natural_key)
    ['s1', 's2', 's10', 's100']
    >>> sorted([10, 2.5, 1], key=natural_key)
    [1, 2.5, 10]
    """
    if isinstance(label, (numbers.Real, np.bool_)):
        parts = ((0, label, ""),)
    elif isinstance(label, str):
        pieces = _DIGITS.split(label)  # odd positions: the runs of digits
        parts = tuple((0, int(p), "") if i % 2 else (1, 0, p) for i, p in enumerate(pieces) if p)
    else:
        parts = ((2, 0, repr(label)),)
    return (parts, type(label).__name__, repr(label))


def check_subgroups(subgroup, n_samples, *, name="subgroup"):
    """Validate subgroup labels: natural order, and not an id column.

    A subgrouping has several items per subgroup; a column where most subgroups hold
    one or two items is an id column passed by mistake (a per-item id, a timestamp),
    and the subgroup model would answer with one NaN-filled row per item. The rule:
    the column is refused when more than half of its subgroups (``ID_SHARE``) hold at
    most two items (``ID_MAX_SIZE``), before anything is fitted.

    Parameters
    ----------
    subgroup : array-like of shape (n_samples,) or Clusters
        Subgroup label of each item.
    n_samples : int
    name : str, default "subgroup"
        The parameter's name in the messages.

    Returns
    -------
    Clusters
        Codes numbered in the natural order of the labels (:func:`natural_key`);
        ``labels`` in that order.

    Raises
    ------
    ValueError
        Missing labels, a single subgroup, or an id column; the message names ``name``.

    Examples
    --------
    >>> from bayes_prc.subgroups import check_subgroups
    >>> check_subgroups(["s10", "s2", "s2", "s10", "s1", "s1"] * 2, 12).labels
    ['s1', 's2', 's10']
    """
    groups = check_groups(subgroup, n_samples, name=name, noun="subgroup")
    labels = list(groups.labels)
    sizes = np.asarray(groups.sizes)
    small = int(np.count_nonzero(sizes <= ID_MAX_SIZE))
    if small > ID_SHARE * sizes.size:
        raise ValueError(
            f"`{name}` looks like an id column, not a subgrouping: {small} of its "
            f"{sizes.size} subgroups hold only one or two items (median subgroup size "
            f"{np.median(sizes):g}, {n_samples} items). A subgroup comparison needs several "
            f"items per subgroup (refused when more than half of the subgroups hold at most "
            f"{ID_MAX_SIZE}); pass the column of sites, groups or categories"
        )
    order = sorted(range(len(labels)), key=lambda i: natural_key(labels[i]))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    codes = rank[groups.codes]
    codes.setflags(write=False)
    new_sizes = sizes[order]
    new_sizes.setflags(write=False)
    return Clusters(
        codes=codes,
        n_clusters=groups.n_clusters,
        sizes=new_sizes,
        labels=[labels[i] for i in order],
    )


class OverallPosterior(PosteriorDraws):
    """All subgroups together: the pooled population of the subgroup model.

    The mixture of the subgroups (in their sample proportions) on the model's shared
    latent scale; its AP and ROC AUC draws come from the same posterior draws as the
    subgroups', so ``prob_below_overall`` (and ``prob_below_others``) is a joint posterior
    probability.

    Attributes
    ----------
    idata : DataTree
        ``posterior`` group with ``average_precision``, ``roc_auc`` (chain, draw) and
        ``precision`` (chain, draw, recall).
    empirical : float
        The metric of all items (empirical).
    metric : str
    ci_prob : float
    """

    def __init__(self, idata, empirical, metric, ci_prob):
        self.idata = idata
        self.empirical = empirical
        self.metric = metric
        self.ci_prob = ci_prob

    @property
    def draws(self):
        """The metric's draws (chain, draw)."""
        return self.idata["posterior"][self.metric]

    def summary(self, var_names=None, ci_prob=None, kind="all"):
        """ArviZ summary of the pooled AP and ROC AUC."""
        return self._summary(var_names or list(SUBGROUP_METRICS), ci_prob, kind=kind)

    def pr_band(self, ci_prob=None, kind="pointwise"):
        """Credible band of the pooled population's PR curve (recall grid of 101 points)."""
        curves = self.idata["posterior"]["precision"].values.reshape(-1, RECALL.size)
        return curve_band(curves, RECALL, self._ci_prob(ci_prob), kind)

    def __repr__(self):
        d = self.draws
        return (
            f"OverallPosterior({self.metric}: mean={float(d.mean()):.3f}, "
            f"empirical={self.empirical:.3f})"
        )


#: :meth:`SubgroupComparison.fit_check` returns the library's one fit-check type
#: (:class:`bayes_prc.bayes.FitCheck`, ``model="subgroups"``, per-subgroup ``p_values``);
#: this name of earlier versions stays importable.
SubgroupFitCheck = FitCheck


class SubgroupComparison(PosteriorDraws):
    """Result of :func:`compare_subgroups`.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by subgroup, columns ``n``, ``positives``, ``empirical``, ``estimate``
        (posterior mean), ``low``, ``high`` (highest-density interval of probability
        ``ci_prob``), ``prob_below_others`` (posterior probability that the subgroup's
        metric is below that of all the other subgroups together minus ``margin``),
        ``prob_below_overall`` (the same against the pooled population of every
        subgroup, itself included), their Monte Carlo standard errors
        ``prob_below_others_mcse`` and ``prob_below_overall_mcse`` (from the draws'
        effective sample size), ``flagged`` (the probability chosen by ``versus``,
        default ``prob_below_others``, above ``flag_probability``),
        ``borderline`` (the probability is within 2 Monte Carlo standard errors of
        ``flag_probability``:
        another ``random_seed`` may flip the flag, and more ``draws`` settle it; the
        ``note`` says so too) and ``note``. ``attrs`` hold the metric, the margin, ``versus``,
        ``ci_prob`` and the pooled population's estimate.
    posterior : xarray.DataArray
        The subgroups' metric draws, dims ``chain``, ``draw``, ``subgroup`` (coordinate:
        the labels, or their ``repr`` when labels of mixed types cannot be sorted). The
        whole curves: :meth:`curve_draws` and :meth:`pr_band`.
    overall : OverallPosterior
        All items together (the pooled population of the same model).
    independent_posterior : xarray.DataArray
        Each subgroup's metric draws from its own fit, without pooling (computed on
        first access); :attr:`comparison` sets its intervals beside the pooled ones.
    idata : DataTree
        Every draw: the subgroups' AP, ROC AUC, prevalence and binormal parameters, the
        population means and spreads (``m_*``, ``s_*``) and the cutpoints.
    metric, margin, ci_prob
        As passed.
    acceptance : dict
        Mean acceptance rates of the sampler's Metropolis steps.
    diagnostics : dict
        ``max_rhat`` and ``min_ess_bulk`` of the subgroups' metric draws (a
        :class:`~bayes_prc.ConvergenceWarning` is raised when R-hat exceeds 1.05 or the
        ESS falls below 100: raise ``draws`` and ``tune``).
    """

    def __init__(
        self, *, table, idata, overall, metric, margin, ci_prob, acceptance, diagnostics, inputs
    ):
        self.table = table
        self.idata = idata
        self.overall = overall
        self.metric = metric
        self.margin = margin
        self.ci_prob = ci_prob
        self.acceptance = acceptance
        self.diagnostics = diagnostics
        self._inputs = inputs

    @property
    def posterior(self):
        """The subgroups' metric draws (chain, draw, subgroup)."""
        return self.idata["posterior"][self.metric]

    @property
    def labels(self):
        """The subgroup labels, in the table's order."""
        return list(self.table.index)

    def _subgroup_index(self, subgroup):
        if subgroup is None:
            return np.arange(len(self.labels))
        wanted = [subgroup] if not isinstance(subgroup, (list, tuple, np.ndarray)) else subgroup
        index = []
        for s in wanted:
            if s not in self.table.index:
                raise ValueError(f"`subgroup` {s!r} is not one of {self.labels}")
            index.append(self.table.index.get_loc(s))
        return np.asarray(index)

    def curve_draws(self, subgroup=None, recall=None, max_draws=BAND_DRAWS):
        """Posterior PR curves of subgroups: precision at each recall, per draw.

        Parameters
        ----------
        subgroup : label or list of labels, optional
            Default every subgroup.
        recall : array-like, optional
            Recall grid in [0, 1]; default 101 equally spaced points.
        max_draws : int, default 1000
            At most this many draws (evenly thinned), so memory stays at
            ``subgroups x max_draws x recall``.

        Returns
        -------
        xarray.DataArray
            Dims ``sample``, ``subgroup``, ``recall``.
        """
        idx = self._subgroup_index(subgroup)
        r = RECALL if recall is None else np.asarray(recall, dtype=float)
        if r.ndim != 1 or np.any((r < 0) | (r > 1)) or not np.all(np.isfinite(r)):
            raise ValueError(f"`recall` must be a 1-D grid in [0, 1]; got {plain(recall)}")
        post = self.idata["posterior"]
        total = post.sizes["chain"] * post.sizes["draw"]
        keep = np.linspace(0, total - 1, min(check_int(max_draws, "max_draws"), total))
        keep = keep.astype(int)
        p = {
            k: post[k].values.reshape(total, -1)[keep][:, idx]
            for k in ("mu", "sigma", "prevalence")
        }
        model = Binormal(p["mu"], p["sigma"], 0.0, 1.0, p["prevalence"])
        curves = model.precision_at_recall(r)  # (S, G', R)
        return xr.DataArray(
            curves,
            dims=("sample", "subgroup", "recall"),
            coords={"subgroup": _coordinate(self.labels)[idx], "recall": r},
            name="precision",
        )

    def pr_band(self, subgroup=None, recall=None, ci_prob=None, kind="pointwise"):
        """Credible bands of the subgroups' PR curves.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` with dims ``subgroup``, ``recall``.
        """
        prob = self._ci_prob(ci_prob)
        curves = self.curve_draws(subgroup, recall)
        bands = [
            curve_band(curves.values[:, i, :], curves["recall"].values, prob, kind)
            for i in range(curves.sizes["subgroup"])
        ]
        return xr.concat(bands, dim=pd.Index(curves["subgroup"].values, name="subgroup"))

    def summary(self, var_names=None, ci_prob=None, kind="all"):
        """ArviZ summary (R-hat, ESS) of the subgroups' metric and the population's spread."""
        names = var_names or [self.metric, "prevalence", "m_mu", "s_mu", "s_log_sigma"]
        return self._summary(names, ci_prob, kind=kind)

    @cached_property
    def independent_posterior(self):
        """Each subgroup's metric draws from its own fit, without pooling.

        The semiparametric (rank-based binormal) model fitted to each subgroup alone, with
        as many chains and draws as the pooled fit: the comparison row of
        :attr:`comparison`, and the reference that shows how much pooling moved each
        subgroup. Computed on first access (one fit per subgroup), reproducibly from the
        comparison's seed.

        Returns
        -------
        xarray.DataArray
            Dims ``chain``, ``draw``, ``subgroup``; all NaN for a subgroup without a
            positive or without a negative (one subgroup's model needs both classes).
        """
        inp = self._inputs
        post = self.idata["posterior"]
        chains, draws = post.sizes["chain"], post.sizes["draw"]
        out = independent_subgroup_draws(
            inp["is_pos"],
            inp["score"],
            inp["codes"],
            len(self.labels),
            draws=draws,
            chains=chains,
            rng=np.random.default_rng([inp["seed_comparison"], 0]),
        )[self.metric]
        return xr.DataArray(
            out.reshape(-1, chains, draws).transpose(1, 2, 0),
            dims=("chain", "draw", "subgroup"),
            coords={"subgroup": _coordinate(self.labels)},
            name=self.metric,
        )

    @cached_property
    def comparison(self):
        """Each subgroup's interval by three methods, to compare.

        Rows (subgroup, method) for the methods of :data:`SUBGROUP_METHODS`:
        ``pooled`` (this model), ``independent`` (the semiparametric model fitted to the
        subgroup alone, :attr:`independent_posterior`: the rank-based fit without
        pooling) and ``bootstrap`` (the design-based stratified percentile bootstrap of
        the subgroup's empirical metric). Columns ``estimate``, ``low``, ``high``,
        ``width`` and ``note``. Computed on first access (one fit per subgroup),
        reproducibly from the comparison's seed.
        """
        import arviz as az

        rng = np.random.default_rng([self._inputs["seed_comparison"], 1])
        g = len(self.labels)
        draws = self.independent_posterior.values.reshape(-1, g).T
        rows = []
        for i, label in enumerate(self.labels):
            t = self.table.iloc[i]
            rows.append((label, "pooled", t["estimate"], t["low"], t["high"], t["note"]))
            if np.all(np.isfinite(draws[i])):
                lo, hi = az.hdi(draws[i], prob=self.ci_prob)
                rows.append((label, "independent", draws[i].mean(), lo, hi, ""))
            else:
                reason = "all scores tied" if TIED_NOTE in t["note"] else "needs both classes"
                rows.append((label, "independent", np.nan, np.nan, np.nan, reason))
            rows.append((label, "bootstrap", *self._bootstrap(i, rng)))
        out = pd.DataFrame(rows, columns=["subgroup", "method", "estimate", "low", "high", "note"])
        out.insert(5, "width", out["high"] - out["low"])
        return out.set_index(["subgroup", "method"])

    def _bootstrap(self, i, rng):
        inp = self._inputs
        mask = inp["codes"] == i
        y, s = inp["is_pos"][mask], inp["score"][mask]
        if y.all() or not y.any():
            return np.nan, np.nan, np.nan, "needs both classes"
        func = roc_auc_interval if self.metric == "roc_auc" else ap_interval
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = func(
                y,
                s,
                method="bootstrap",
                confidence_level=self.ci_prob,
                random_seed=int(rng.integers(2**63)),
            )
        note = "" if y.sum() > 1 else "one positive: the bootstrap cannot vary"
        return res.estimate, res.low, res.high, note

    def fit_check(self, random_seed=None, n_draws=500, significance_level=0.05):
        """Posterior predictive check of the subgroups' score distributions.

        Parameters
        ----------
        random_seed : int or numpy.random.Generator, optional
        n_draws : int, default 500
        significance_level : float, default 0.05

        Returns
        -------
        FitCheck
            ``model="subgroups"``, ``method="posterior predictive"``: ``p_value`` all
            subgroups together (small values, below ``significance_level``, say the
            model does not reproduce the subgroups' score distributions), ``p_values``
            the same per subgroup (many subgroups: expect a few small ones by chance),
            ``statistic`` and ``replicated`` the data's and the replicates' mean
            Freeman-Tukey discrepancy.
        """
        rng = check_random_state(random_seed)
        post = self.idata["posterior"]
        fit = {k: post[k].values for k in ("shift", "scale", "mu", "sigma", "cutpoints")}
        p_all, p_each, observed, replicated, n_bins = subgroup_fit_check(
            self._inputs["data"], fit, rng, n_draws=check_int(n_draws, "n_draws")
        )
        level = check_probability(significance_level, "significance_level")
        p_values = pd.Series(p_each, index=self.table.index, name="p_value")
        grade, passed = grade_of(p_all, level)
        worst = p_values.idxmin()
        verdict = (
            f"The subgroup model reproduces the subgroups' score distributions (p = "
            f"{p_all:.3f}; smallest subgroup p = {p_values.min():.3f}, {worst})."
            if passed
            else f"The subgroup model does not reproduce the subgroups' score distributions "
            f"(p = {p_all:.3f} < {level}; smallest subgroup p = {p_values.min():.3f}, "
            f"{worst}): its intervals and flags may be biased."
        )
        return FitCheck(
            p_value=float(p_all),
            passed=passed,
            significance_level=level,
            statistic=float(observed),
            replicated=float(replicated),
            n_categories=int(n_bins),
            model="subgroups",
            verdict=verdict,
            grade=grade,
            method="posterior predictive (Freeman-Tukey)",
            p_values=p_values,
        )

    def __repr__(self):
        flagged = self.table.index[self.table["flagged"]].tolist()
        return (
            f"SubgroupComparison({_NAMES[self.metric]}, {len(self.table)} subgroups, "
            f"overall {self.table.attrs['overall_estimate']:.3f}, flagged: {flagged})"
        )

    def _repr_html_(self):
        versus = self.table.attrs.get("versus", "others")
        cols = ["n", "positives", "empirical", "estimate", "low", "high", f"prob_below_{versus}"]
        cols += ["note"] if self.table["note"].astype(bool).any() else []
        table = self.table[cols].to_html(float_format=lambda v: f"{v:.3f}", na_rep="-")
        prob = f"{100 * self.ci_prob:g}%"
        cap = (
            f"{_NAMES[self.metric]} per subgroup with partial pooling: posterior mean and "
            f"{prob} credible interval; overall {self.table.attrs['overall_estimate']:.3f} "
            f"[{self.table.attrs['overall_low']:.3f}, {self.table.attrs['overall_high']:.3f}]. "
            f"prob_below_{versus}: posterior probability of being below "
            f"{'the other subgroups together' if versus == 'others' else 'the overall'} "
            f"minus {self.margin:g}; above {self.table.attrs['flag_probability']:g} flagged."
        )
        return f"<p><b>{html.escape(repr(self))}</b></p><p>{html.escape(cap)}</p>{table}"


def _coordinate(labels):
    """The subgroup coordinate of the draws: the labels, or their ``repr`` when numpy
    cannot sort them (mixed types such as tuples and numbers; ArviZ sorts coordinates)."""
    arr = object_array(labels)
    try:
        np.unique(arr)
        return arr
    except TypeError:
        return object_array([repr(v) for v in labels])


#: Below this bulk ESS or above this R-hat of a subgroup's metric, compare_subgroups warns.
MIN_ESS, MAX_RHAT = 100, 1.05


def _diagnostics(draws, chains):
    """R-hat and bulk ESS of each subgroup's metric; warns when they are poor."""
    import arviz as az

    draws = xr.DataArray(draws, dims=("chain", "draw", "subgroup"))
    ess = np.asarray(az.ess(draws))
    rhat = np.asarray(az.rhat(draws)) if chains > 1 else None
    out = {
        "min_ess_bulk": float(np.nanmin(ess)),
        "max_rhat": None if rhat is None else float(np.nanmax(rhat)),
    }
    problems = []
    if out["max_rhat"] is not None and out["max_rhat"] > MAX_RHAT:
        problems.append(f"R-hat up to {out['max_rhat']:.3f} (> {MAX_RHAT})")
    if out["min_ess_bulk"] < MIN_ESS:
        problems.append(f"bulk ESS down to {out['min_ess_bulk']:.0f} (< {MIN_ESS})")
    if problems:
        warnings.warn(
            "the subgroup fit may not be reliable: " + "; ".join(problems) + ". Raise "
            "`draws` and `tune` (the chains of subgroups with few positives mix slowest).",
            ConvergenceWarning,
            stacklevel=3,
        )
    return out


def _check_margin(margin):
    try:
        value = float(margin)
    except (TypeError, ValueError):
        raise ValueError(f"`margin` must be a number in [0, 1); got {plain(margin)}") from None
    if not (0.0 <= value < 1.0):
        raise ValueError(f"`margin` must be a number in [0, 1); got {plain(margin)}")
    return value


def _posterior_idata(fit, labels):
    """Every draw of the subgroup model as a DataTree (dims ``subgroup``, ``cutpoint``)."""
    import arviz as az

    sub = {"subgroup": _coordinate(labels)}
    per_group = ("average_precision", "roc_auc", "prevalence", "mu", "sigma", "shift", "scale")
    hyper = [k for k in fit if k.startswith(("m_", "s_"))]
    posterior = {k: fit[k] for k in per_group + tuple(hyper)}
    posterior["cutpoints"] = fit["cutpoints"]
    # each subgroup's complement (the other subgroups mixed in their sample proportions)
    others = tuple(k for k in fit["overall"] if k.startswith("others_"))
    posterior |= {k: fit["overall"][k] for k in others}
    return az.from_dict(
        {"posterior": posterior},
        dims={k: ["subgroup"] for k in per_group + others} | {"cutpoints": ["cutpoint"]},
        coords=sub,
        attrs={"posterior": {"inference_library": "bayes_prc (Metropolis-within-Gibbs)"}},
    )


def _subgroup_table(
    fit,
    idata,
    overall,
    data,
    groups,
    is_pos,
    score,
    metric,
    margin,
    versus,
    prob,
    pos_label,
    flag_at,
):
    """The per-subgroup table of :func:`compare_subgroups` (see :class:`SubgroupComparison`);
    ``data`` is the fit's :class:`SubgroupData` (its counts and tied subgroups)."""
    import arviz as az

    labels = groups.labels
    metric_draws = idata["posterior"][metric]
    hdi = az.hdi(metric_draws, prob=prob)
    below = fit[metric] < (fit["overall"][metric] - margin)[..., None]
    below_mcse = _probability_mcse(below)
    below_others = fit[metric] < fit["overall"][f"others_{metric}"] - margin
    below_others_mcse = _probability_mcse(below_others)
    n, npos = data.n, data.n_pos
    table = pd.DataFrame(
        {
            "n": n,
            "positives": npos,
            "empirical": [
                _empirical(metric, is_pos[groups.codes == g], score[groups.codes == g])
                for g in range(len(labels))
            ],
            "estimate": metric_draws.mean(("chain", "draw")).values,
            "low": hdi.sel(ci_bound="lower").values,
            "high": hdi.sel(ci_bound="upper").values,
            "prob_below_others": below_others.mean(axis=(0, 1)),
            "prob_below_others_mcse": below_others_mcse,
            "prob_below_overall": below.mean(axis=(0, 1)),
            "prob_below_overall_mcse": below_mcse,
        },
        index=pd.Index(object_array(labels), name="subgroup"),
    )
    flag_by = table[f"prob_below_{versus}"].to_numpy()
    flag_mcse = below_others_mcse if versus == "others" else below_mcse
    table["flagged"] = flag_by > flag_at
    table["borderline"] = np.abs(flag_by - flag_at) < 2 * flag_mcse
    table["note"] = [
        "; ".join(filter(None, (_note(p, k - p, t), BORDERLINE_NOTE if b else "")))
        for p, k, t, b in zip(npos, n, data.tied_groups(), table["borderline"], strict=True)
    ]
    o_hdi = az.hdi(overall.draws, prob=prob)
    table.attrs.update(
        {
            "metric": metric,
            "margin": margin,
            "ci_prob": prob,
            "pos_label": pos_label,
            "overall_estimate": float(overall.draws.mean()),
            "overall_low": float(o_hdi.sel(ci_bound="lower")),
            "overall_high": float(o_hdi.sel(ci_bound="upper")),
            "flag_probability": flag_at,
            "versus": versus,
        }
    )
    return table


def compare_subgroups(
    y_true,
    y_score,
    subgroup,
    *,
    metric="average_precision",
    ci_prob=0.95,
    margin=0.0,
    versus="others",
    flag_probability=FLAG_PROBABILITY,
    random_seed=None,
    pos_label=None,
    priors=None,
    draws=500,
    tune=500,
    chains=4,
    n_categories=None,
    progressbar=None,
):
    """Per-subgroup AP (or ROC AUC) with partial pooling across subgroups.

    Each subgroup (site, demographic group, product category) gets the posterior of its
    AP under a hierarchical rank-based binormal model: one monotone score transform
    shared by every subgroup (one classifier), each subgroup's binormal ROC curve,
    score location and prevalence drawn from population distributions whose spread is
    learned from the data (partial pooling). A subgroup with few positives is pulled
    towards the others by as much as the data warrant, so its interval is honest where
    its own empirical AP is mostly noise; a subgroup without a positive still gets an
    answer (the population's, flagged in ``note``). The model is described in
    :mod:`bayes_prc.subgroups._model`; its sampler is checked against PyMC's NUTS.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores of one classifier (only their order matters).
    subgroup : array-like of shape (n_samples,)
        Subgroup label of each item (any hashable values; at least two subgroups).
        Refused, before any fit, when it looks like an id column: more than half of
        the subgroups hold one or two items (:func:`check_subgroups`). The table and
        the draws list the subgroups in natural order (``s2`` before ``s10``).
    metric : {"average_precision", "roc_auc"}, default "average_precision"
    ci_prob : float, default 0.95
        Probability of the credible intervals (highest density).
    margin : float, default 0.0
        ``prob_below_others`` is the posterior probability that the subgroup's metric is
        below that of all the other subgroups together (its complement, mixed in their
        sample proportions) by more than ``margin``; ``prob_below_overall`` the same
        against the pooled population of every subgroup, itself included.
    versus : {"others", "overall"}, default "others"
        What ``flagged`` compares each subgroup with: ``"others"`` asks "is this
        subgroup worse than the rest?" (fairlearn's ``between_groups`` question; the gap
        does not shrink as the subgroup grows), ``"overall"`` "is it worse than
        everyone, itself included?" (``to_overall``).
    flag_probability : float, default FLAG_PROBABILITY (0.9)
        ``flagged`` is that probability above this. A lower value finds more truly worse
        subgroups and flags more equal ones: the operating characteristic is measured in
        ``docs/coverage.md`` (issue 42's sweep).
    random_seed : int or numpy.random.Generator, optional
        Same seed, same result.
    pos_label : int, float, bool or str, optional
        The positive class; required when the labels are not {0, 1}, {-1, 1} or bool.
    priors : SubgroupPriors or dict, optional
        Prior of the population distributions (see :class:`SubgroupPriors`).
    draws, tune, chains : int, default 500, 500, 4
        Kept draws and warm-up iterations per chain, and chains. The defaults give an
        effective sample size of several hundred for each subgroup's metric (check
        ``summary()``); raise ``draws`` for the far tails of the intervals.
    n_categories : int, optional
        Upper bound on the ordered categories of the pooled scores (default: the
        smaller of ``clip(round(2 sqrt(min(n_pos, n_neg))), 8, 40)`` and
        ``max(8, round(2 sqrt(m)))``, ``m`` the median subgroup size). Much finer
        categories leave the shared cutpoints too free and bias the APs up (+0.05 to
        +0.10 with 200 categories for 700 items).
    progressbar : bool, optional
        Progress on stderr; default on when stderr is a terminal.

    Returns
    -------
    SubgroupComparison
        ``table`` (one row per subgroup), ``posterior`` (draws with dims chain, draw,
        subgroup), ``overall`` (all items), ``comparison`` (pooled, independent and
        bootstrap intervals side by side), ``pr_band``, ``fit_check``.

    References
    ----------
    .. [1] C. Gatsonis, "Random-effects models for diagnostic accuracy data", Acad.
       Radiol. 2 (1995) S14-S21.
    .. [2] A. C. Miller, L. A. Gatys, J. Futoma and E. B. Fox, "Model-based metrics:
       sample-efficient estimates of predictive model subpopulation performance",
       Machine Learning for Healthcare (2021).

    Examples
    --------
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> rng = np.random.default_rng(0)
    >>> site = np.repeat(["a", "b", "c", "d"], 100)
    >>> y = rng.random(400) < 0.15
    >>> s = rng.normal(size=400) + 1.5 * y
    >>> res = bp.compare_subgroups(y, s, site, random_seed=1)
    >>> list(res.table.columns[:7])
    ['n', 'positives', 'empirical', 'estimate', 'low', 'high', 'prob_below_others']
    >>> res.posterior.dims
    ('chain', 'draw', 'subgroup')
    """
    import arviz as az

    is_pos, score, _, pos_label = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    groups = check_subgroups(subgroup, is_pos.shape[0])
    check_choice(metric, "metric", SUBGROUP_METRICS)
    prob = check_probability(ci_prob, "ci_prob")
    margin = _check_margin(margin)
    check_choice(versus, "versus", VERSUS)
    flag_at = check_probability(flag_probability, "flag_probability")
    draws = check_int(draws, "draws")
    tune = check_int(tune, "tune", minimum=0)
    chains = check_int(chains, "chains")
    progressbar = check_progressbar(progressbar)
    priors = SubgroupPriors.from_any(priors)
    if not is_pos.any() or is_pos.all():
        raise ValueError("`y_true` must contain both classes (over all subgroups)")
    labels = groups.labels
    score = np.asarray(score, dtype=np.float64)
    data = subgroup_data(is_pos, score, groups.codes, labels, n_categories)
    rng = check_random_state(random_seed)
    seed_model, seed_comparison = (int(v) for v in rng.integers(2**63, size=2))
    bar = Progress(tune + draws, "compare_subgroups", progressbar)
    fit = fit_subgroups(
        data,
        priors,
        draws=draws,
        tune=tune,
        chains=chains,
        rng=np.random.default_rng(seed_model),
        recall=RECALL,
        progress=bar.update,
    )
    bar.close()
    idata = _posterior_idata(fit, labels)
    overall_idata = az.from_dict(
        {"posterior": fit["overall"]},
        dims={"precision": ["recall"]},
        coords={"recall": RECALL},
    )
    overall = OverallPosterior(overall_idata, _empirical(metric, is_pos, score), metric, prob)
    diagnostics = _diagnostics(fit[metric], chains)
    table = _subgroup_table(
        fit,
        idata,
        overall,
        data,
        groups,
        is_pos,
        score,
        metric,
        margin,
        versus,
        prob,
        pos_label,
        flag_at,
    )
    return SubgroupComparison(
        table=table,
        idata=idata,
        overall=overall,
        metric=metric,
        margin=margin,
        ci_prob=prob,
        acceptance=fit["acceptance"],
        diagnostics=diagnostics,
        inputs={
            "is_pos": is_pos,
            "score": score,
            "codes": groups.codes,
            "data": data,
            "seed_comparison": seed_comparison,
        },
    )
