r"""How many labelled items a test set needs: :func:`plan_test_set`.

The plan is a simulation, not a normal approximation. The classifier's scores are
modelled as equal-variance binormal (:class:`bayes_prc.binormal.Binormal`: positives
:math:`N(d, 1)`, negatives :math:`N(0, 1)`, prevalence :math:`\pi`), with the separation
:math:`d` that gives the expected AP (:func:`binormal_separation`, a root of the
quadrature AP). For each candidate size ``n`` a few hundred test sets are simulated and
the interval that would be reported is computed on each:

- ``width``: the width of the recommended AP interval (the rank-based Bayesian ETI of
  :func:`bayes_prc.compare_intervals`) is predicted by Boyd et al.'s logit AP interval
  (:func:`bayes_prc.intervals.logit_interval` with the empirical AP and the number of
  positives) with its logit-scale standard error :math:`1/\sqrt{n_+ a (1 - a)}`
  multiplied by a calibration factor :math:`c`: the simulated sampling spread of
  :math:`\operatorname{logit}(\widehat{AP})` over that binomial approximation (the
  median over the sets), measured on ``10 * n_simulations`` extra simulated sets at the
  size planned without it (:func:`bayes_prc.intervals.logit_interval` with
  ``n = n_+ / c^2``). The Bayesian interval covers near its level, so its width follows
  the AP's true spread; the binomial approximation is close at moderate AP
  (:math:`c` about 1.02) and too wide at high AP (:math:`c` about 0.8 at AP 0.9,
  prevalence 0.3). ``docs/planning.md`` compares the prediction with the Bayesian
  interval's widths. The width quantile at ``assurance`` must reach the target. With few
  positives (fewer than :data:`SMALL_POSITIVES` at the planned size) the prediction is
  checked against the recommended interval itself: :func:`bayes_prc.compare_intervals`
  (rank-based ETI and logit rows, its recommended row) on up to :data:`CHECK_SETS`
  simulated sets of the planned size, and :math:`c` is corrected by the ratio of the
  widths' quantiles at ``assurance`` (median-unbiased quantiles, Hyndman & Fan type 8)
  and the plan searched again, until a check at the planned size agrees within
  :data:`CHECK_TOLERANCE` (its small correction is still applied) or after
  :data:`MAX_CHECKS` checks; the ratio changes with the size, so later corrections are
  secant steps in log :math:`c`. Without the check, plans at AP 0.9 with 20-80
  positives gave recommended intervals 1.1-1.7 times the target; with one correction
  measured at another size, 0.48-0.67 of the sets met an ``assurance=0.8`` target.
- ``difference``: two classifiers whose latent scores are bivariate normal with
  within-class correlation ``correlation``; the paired jackknife interval of
  ``AP_B - AP_A`` (:func:`bayes_prc.compare_classifiers` with ``method="jackknife"``);
  the power is the share of test sets whose interval excludes 0 on the side of
  ``difference``, and must reach ``assurance``.

A simulated test set of ``n`` items has ``n_pos ~ Binomial(n, pi)`` positives
(conditioned on at least one, or two for the paired jackknife). For the width, the
negatives enter only through the number above each positive: with the positives' scores
sorted, the counts of negatives between consecutive positives are multinomial with the
normal tail probabilities as cell probabilities, so a test set costs O(n_pos), not
O(n log n), and is drawn from the same distribution as :meth:`Binormal.sample`'s.

Common random numbers across ``n``: replicate ``r`` keeps one uniform number (its
positives' count is the binomial quantile of it, nondecreasing in ``n``), one stream of
positive scores (a larger set extends the smaller one's positives) and one seed of its
negatives, so the width and power curves are smooth in ``n`` and the search by bisection
on ``log n`` is stable.

Clusters: with ``cluster_size = m`` items per cluster and intra-cluster correlation
``icc`` of the labels and the scores, a clustered test set of ``n`` items is planned to
carry the information of ``n / deff`` independent ones; the table's ``n`` is the number
of items of the clustered set (``effective_n`` the simulated independent size). For a
``width`` target ``deff`` is the AP's own design effect, :math:`1 + (m - 1)\,\rho` with
:math:`\rho` the intra-cluster correlation of the AP's influence values
(:func:`ap_design_effect`, 1.05-1.16 at ``icc = 0.1``); Kish's (1965)
:math:`1 + (m - 1)\,\mathrm{icc}` is that of a mean over all items and overstated the
AP's (plans 20-30% too large, ``docs/planning.md``). For a ``difference`` target it is
still Kish's (conservative). A measured ``design_effect`` replaces either. The width
planned for clustered items is that of the interval recommended for them (the logit
interval with ``n_pos / design_effect``: Boyd's se, no calibration and no check against
the unclustered recommendation); its design effect is estimated on each test set by the
leave-one-cluster-out jackknife, and that estimate's spread widens the widths: each
simulated set draws it as :math:`\max(1, \mathrm{deff}\,\chi^2_\nu / \nu)` over its
``K`` clusters, :math:`\nu = (K - 1) / \mathrm{dispersion}`
(the ``dispersion`` of the jackknife's ratio by the delta method: 1 for normal
influence values, 1.8 with 5% positives, 6-8 with 1%).

References
----------
.. [1] K. Boyd, K. H. Eng and C. D. Page, "Area under the precision-recall curve: point
   estimates and confidence intervals", ECML PKDD 2013, LNCS 8190, pp. 451-466.
.. [2] L. Kish, Survey Sampling, Wiley, 1965 (the design effect).
.. [3] F. Wang and A. E. Gelfand, "A simulation-based approach to Bayesian sample size
   determination for performance under a given model and for separating models",
   Statistical Science 17 (2002) 193-208.
.. [4] A. O'Hagan and J. W. Stevens, "Bayesian assessment of sample size for clinical
   trials of cost-effectiveness", Medical Decision Making 21 (2001) 219-230 (assurance).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, special, stats

from .._core import (
    check_choice,
    check_int,
    check_probability,
    check_random_state,
    plain,
)
from .._core.display import HTMLReprMixin, html_table
from .._core.progress import Progress, check_progressbar
from ..binormal import Binormal
from ..empirical import as_ranked
from ..intervals import logit_interval
from ._design_effect import ap_design_effect, jackknife_dispersion

__all__ = [
    "PLAN_METRICS",
    "CALIBRATION_SETS",
    "CHECK_SETS",
    "SMALL_POSITIVES",
    "MAX_PLANNED_ITEMS",
    "SampleSizePlan",
    "ap_design_effect",
    "binormal_separation",
    "plan_test_set",
]

#: Values of ``metric`` in :func:`plan_test_set`.
PLAN_METRICS = ("average_precision",)

#: Extra simulated sets (times ``n_simulations``) measuring the calibration factor.
CALIBRATION_SETS = 10

#: Below this many expected positives the calibrated logit prediction is checked against
#: the recommended interval itself (it is then too narrow at high AP: 1.1-1.7 times at
#: AP 0.9 with 20-80 positives, ``docs/planning.md``).
SMALL_POSITIVES = 150

#: Most simulated test sets of that check (each fits the rank-based model once): one per
#: 15 of ``n_simulations``, 5 to this many (60 at the default ``n_simulations``). The
#: ratio of the widths' 0.8 quantiles from 30 sets has a standard deviation of about 6%
#: (AP 0.9, 42 positives), which moves the plan by about 12% and the share of sets
#: meeting the target by up to 0.1; 60 sets halve the variance.
CHECK_SETS = 60

#: Most checks of the prediction against the recommended interval, and the agreement
#: (absolute log ratio of the widths' quantiles) that ends them.
MAX_CHECKS = 4
CHECK_TOLERANCE = 0.05

#: The search stops (with an error) beyond this many items.
MAX_PLANNED_ITEMS = 100_000_000

#: Relative resolution of the bisection on ``log n``: widths (whose spread over test sets
#: of a thousand positives is about 1%, so 1% in ``n`` moves the share below the target
#: by several points) and power (whose Monte Carlo error dominates).
_REL_TOL = {"width": 0.002, "difference": 0.01}


def _real(value, name):
    v = value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value
    if not isinstance(v, numbers.Real) or isinstance(v, (bool, np.bool_)) or not math.isfinite(v):
        raise ValueError(f"`{name}` must be a finite number; got {plain(value)}")
    return float(v)


def _binormal_ap(separation, prevalence):
    return float(Binormal(separation, 1.0, 0.0, 1.0, prevalence).average_precision())


def binormal_separation(average_precision, prevalence):
    r"""The binormal separation giving an AP at a prevalence.

    The equal-variance binormal model (positives :math:`N(d, 1)`, negatives
    :math:`N(0, 1)`) has AP increasing in :math:`d` from the prevalence (:math:`d = 0`,
    a random score) to 1; the root of ``Binormal(d, 1, 0, 1, prevalence).average_precision()
    = average_precision`` is found by Brent's method (absolute tolerance 1e-10 in d).

    Parameters
    ----------
    average_precision : float
        Target AP, strictly between ``prevalence`` and 1.
    prevalence : float
        ``P(y = 1)`` in (0, 1).

    Returns
    -------
    float
        The separation :math:`d = (\mu_1 - \mu_0) / \sigma`.

    Raises
    ------
    ValueError
        If ``prevalence`` is not in (0, 1), ``average_precision`` not in
        ``(prevalence, 1)`` or so close to 1 that ``d`` would exceed 40.

    Examples
    --------
    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.planning import binormal_separation
    >>> d = binormal_separation(0.6, 0.05)
    >>> round(float(Binormal(d, 1, 0, 1, 0.05).average_precision()), 8)
    0.6
    """
    pi = check_probability(prevalence, "prevalence")
    ap = check_probability(average_precision, "expected")
    if ap <= pi:
        raise ValueError(
            f"`expected` (the AP) must exceed the prevalence {pi:.4g}, the AP of a random "
            f"score; got {ap:.4g}"
        )
    hi = 1.0
    while _binormal_ap(hi, pi) < ap:
        hi *= 2.0
        if hi > 40.0:
            raise ValueError(
                f"`expected` = {ap:.6g} is too close to 1 at prevalence {pi:.4g}: the "
                "binormal separation would exceed 40 standard deviations"
            )
    return float(optimize.brentq(lambda d: _binormal_ap(d, pi) - ap, 0.0, hi, xtol=1e-10))


# ---------------------------------------------------------------------------------------
# simulation kernels


class _Streams:
    """Common random numbers of the replicates, shared by every candidate ``n``."""

    def __init__(self, rng, n_simulations):
        self.u = rng.random(n_simulations)
        self.pos_seeds = rng.integers(0, 2**63 - 1, size=n_simulations)
        self.neg_seeds = rng.integers(0, 2**63 - 1, size=n_simulations)

    def n_positives(self, n, prevalence, minimum):
        """Positives of each replicate: the binomial quantile of its uniform, >= minimum."""
        floor = stats.binom.cdf(minimum - 1, n, prevalence)
        q = floor + self.u * (1.0 - floor)
        k = stats.binom.ppf(q, n, prevalence)
        return np.clip(np.nan_to_num(k, nan=n), minimum, n).astype(np.int64)


def _ap_of_counts(n_pos, fp_above):
    """Empirical AP from the number of negatives above each positive (in rank order)."""
    k = np.arange(1, n_pos + 1, dtype=np.float64)
    return float(np.mean(k / (k + fp_above)))


def _ap_one_set(pos_seed, neg_seed, n_pos, n_neg, separation, scale):
    """Empirical AP of one binormal test set in O(n_pos) (module docstring)."""
    x = np.sort(np.random.default_rng(pos_seed).standard_normal(n_pos))[::-1]
    x = separation + scale * x  # the positives' scores, highest first
    above = special.ndtr(-x)  # P(a negative scores above each positive), increasing
    p = np.diff(np.concatenate(([0.0], above, [1.0])))
    p = np.clip(p, 0.0, None)
    counts = np.random.default_rng(neg_seed).multinomial(n_neg, p / p.sum())
    return _ap_of_counts(n_pos, np.cumsum(counts[:-1]))


def _simulate_ap(n, streams, prevalence, separation, *, scale=1.0):
    """Empirical AP and positives of simulated binormal test sets of ``n`` items.

    ``streams`` holds the replicates' common random numbers; ``separation`` and
    ``prevalence`` may be arrays (one value per replicate, the pilot mode) or floats;
    ``scale`` is the positives' standard deviation in units of the negatives'.

    Returns
    -------
    (ndarray, ndarray)
        AP estimates and positives, each of shape ``(n_simulations,)``.
    """
    size = streams.u.size
    pi = np.broadcast_to(np.asarray(prevalence, dtype=np.float64), (size,))
    sep = np.broadcast_to(np.asarray(separation, dtype=np.float64), (size,))
    sc = np.broadcast_to(np.asarray(scale, dtype=np.float64), (size,))
    n_pos = streams.n_positives(n, pi, 1)
    ap = np.array(
        [
            _ap_one_set(
                streams.pos_seeds[r], streams.neg_seeds[r], n_pos[r], n - n_pos[r], sep[r], sc[r]
            )
            for r in range(size)
        ]
    )
    return np.clip(ap, 0.0, 1.0), n_pos


def _calibration(ap, n_pos):
    """Spread of logit(AP) over simulated sets / the median of Boyd's logit-scale se."""
    p = (n_pos * ap + 0.5) / (n_pos + 1.0)  # Haldane: finite at AP = 1
    boyd = 1.0 / np.sqrt(n_pos * p * (1.0 - p))
    return float(np.std(special.logit(p), ddof=1) / np.median(boyd))


def _widths(ap, n_pos, ci_prob, calibration):
    """Widths of the logit AP interval with its se multiplied by ``calibration``."""
    res = logit_interval(ap, n_pos / calibration**2, confidence_level=ci_prob)
    return np.asarray(res.high) - np.asarray(res.low)


def _jackknife_design_effects(deff, clusters, u, dispersion=1.0):
    """Draws of the estimated design effect of a clustered test set, one per uniform ``u``.

    The leave-one-cluster-out jackknife's estimate over ``K`` clusters is modelled as
    ``deff * chi2(nu) / nu`` with ``nu = (K - 1) / dispersion`` (``dispersion`` from
    ``jackknife_dispersion``: 1 for normal influence values, larger with rare
    positives), at least 1 (as :func:`bayes_prc.frequentist.ap_interval` floors it).
    Measured against 300 clustered sets each (``docs/planning.md``): with 30% positives
    (dispersion about 1.05) the sd of its log 0.12 / 0.16 / 0.11 predicted where 0.125 /
    0.15 / 0.107 were seen, the share at 1 0.26 / 0.41 / 0.33 for 0.26 / 0.39 / 0.29; with
    5% positives the chi-square of ``K - 1`` alone gave 0.058 where 0.075 was seen.
    """
    dof = max((int(clusters) - 1) / dispersion, 1.0)
    return np.maximum(1.0, deff * stats.chi2.ppf(u, dof) / dof)


def _recommended_ratio(
    n, prevalence, separation, ci_prob, calibration, rng, sets, q, progress=None
):
    """Width quantile ``q`` of the recommended AP interval over the calibrated prediction's.

    ``sets`` binormal test sets of ``n`` items (at least 2 of each class):
    :func:`bayes_prc.compare_intervals` with the rank-based ETI and the logit rows, whose
    recommended row is the rank-based ETI when its fit check does not fail (else the
    logit interval), against :func:`_widths` of the same sets' AP and positives.
    """
    import warnings

    from ..compare import compare_intervals

    model = Binormal(separation, 1.0, 0.0, 1.0, prevalence)
    quoted, aps, positives = [], [], []
    while len(quoted) < sets:
        y, s = model.sample(n, random_seed=rng)
        n_pos = int(y.sum())
        if not 2 <= n_pos <= n - 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = compare_intervals(
                y, s, methods=("semiparametric_eti", "logit"), ci_prob=ci_prob, random_seed=rng
            )
        quoted.append(float(table.loc[table.attrs["recommended"], "width"]))
        if progress is not None:
            progress(len(quoted))
        aps.append(float(table.loc["logit", "estimate"]))
        positives.append(n_pos)
    predicted = _widths(np.array(aps), np.array(positives), ci_prob, calibration)
    # Hyndman & Fan's median-unbiased quantile (type 8): of 30 right-skewed widths the
    # default (linear, type 7) quantile at 0.8 runs low, and the plan with it
    return float(
        np.quantile(quoted, q, method="median_unbiased")
        / np.quantile(predicted, q, method="median_unbiased")
    )


def _next_log_calibration(history):
    """The next log calibration from the checks so far, ``(log c, log ratio)`` each:
    the first correction multiplies by the ratio; later ones take the secant through the
    last two checks towards log ratio 0 (the ratio falls as the calibration, and with it
    the plan, grows), kept within a factor 2 of the last calibration, and the plain
    correction when the two checks do not slope that way (Monte Carlo noise)."""
    x2, y2 = history[-1]
    plain = x2 + y2
    if len(history) < 2:
        return plain
    x1, y1 = history[-2]
    if x2 == x1 or (y2 - y1) / (x2 - x1) >= 0:
        return plain
    step = -y2 * (x2 - x1) / (y2 - y1)
    return x2 + float(np.clip(step, -math.log(2.0), math.log(2.0)))


def _paired_set(streams, r, n, n_pos, separations, correlation):
    """One test set of two classifiers with correlated binormal scores."""
    chol = np.array([[1.0, 0.0], [correlation, math.sqrt(1.0 - correlation**2)]])
    zp = np.random.default_rng(streams.pos_seeds[r]).standard_normal((n_pos, 2)) @ chol.T
    zn = np.random.default_rng(streams.neg_seeds[r]).standard_normal((n - n_pos, 2)) @ chol.T
    y = np.concatenate((np.ones(n_pos, dtype=np.int64), np.zeros(n - n_pos, dtype=np.int64)))
    score = np.concatenate((zp + np.asarray(separations), zn))
    return y, score[:, 0], score[:, 1]


def _simulate_power(n, streams, prevalence, separations, correlation, ci_prob, sign):
    """Share of simulated paired test sets whose jackknife interval excludes 0 (by ``sign``).

    Returns
    -------
    (ndarray, ndarray, ndarray)
        Per replicate: whether the interval excludes 0 on the side of ``sign``, the
        estimated difference and the interval's width.
    """
    from ..paired import compare_classifiers  # the paired comparison of the library

    n_pos = streams.n_positives(n, prevalence, 2)
    hit = np.zeros(streams.u.size, dtype=bool)
    diff = np.empty(streams.u.size)
    width = np.empty(streams.u.size)
    for r in range(streams.u.size):
        k = int(min(n_pos[r], n - 1))
        y, sa, sb = _paired_set(streams, r, n, k, separations, correlation)
        res = compare_classifiers(y, sa, sb, method="jackknife", ci_prob=ci_prob)
        hit[r] = res.low > 0.0 if sign > 0 else res.high < 0.0
        diff[r], width[r] = res.estimate, res.high - res.low
    return hit, diff, width


# ---------------------------------------------------------------------------------------
# the result


@dataclass(frozen=True)
class SampleSizePlan(HTMLReprMixin):
    """How many labelled items a test set needs (see :func:`plan_test_set`).

    Attributes
    ----------
    n : int
        Recommended number of labelled items (a multiple of ``cluster_size``).
    positives : float
        Expected positives among them (``n * prevalence``).
    n_clusters : int or None
        ``n / cluster_size`` when the items come in clusters.
    achieved : float
        At ``n``: the width quantile at ``assurance`` (``width`` target) or the power
        (``difference`` target), from the simulation.
    achieved_se : float
        Its Monte Carlo standard error.
    target : {"width", "difference"}
    width, difference, correlation : float or None
        The target and, for ``difference``, the two scores' within-class correlation.
    metric : str
    expected, prevalence : float
        Planned AP (of classifier A for ``difference``) and prevalence (from the pilot
        in pilot mode: its posterior medians).
    ci_prob, assurance : float
    cluster_size : int
    icc : float
    design_effect : float
        The design effect the plan used: the AP's (:func:`ap_design_effect`) for a
        ``width`` target, Kish's ``1 + (cluster_size - 1) * icc`` for a ``difference``,
        or the ``design_effect`` given.
    kish_design_effect : float
        ``1 + (cluster_size - 1) * icc``, for comparison.
    separation : float
        Binormal separation of ``expected`` (:func:`binormal_separation`).
    interval : str
        The simulated interval.
    calibration : float or None
        Factor on the logit interval's logit-scale standard error (width target; the
        module docstring): the simulated spread of logit(AP) over Boyd's approximation.
    n_simulations : int
        Simulated test sets per candidate ``n``.
    note : str
    table : pandas.DataFrame
        One row per candidate ``n`` (ascending), columns ``n``, ``positives``,
        ``effective_n`` and ``median_width``, ``assured_width`` (the quantile at
        ``assurance``), ``assured_width_se`` for a width target; ``power``,
        ``power_se``, ``median_width`` (of the difference's interval) for a difference;
        ``meets_target``. ``attrs`` holds the plan's settings.
    """

    n: int
    positives: float
    n_clusters: int | None
    achieved: float
    achieved_se: float
    target: str
    width: float | None
    difference: float | None
    correlation: float | None
    metric: str
    expected: float
    prevalence: float
    ci_prob: float
    assurance: float
    cluster_size: int
    icc: float
    design_effect: float
    kish_design_effect: float
    separation: float
    interval: str
    calibration: float | None
    n_simulations: int
    note: str
    table: object = field(repr=False, compare=False)

    def _html_rows(self):
        return [(k, v) for k, v in super()._html_rows() if k != "table"]

    def _html_caption(self):
        return self.summary()

    def summary(self):
        """One sentence: the recommended size and what it achieves."""
        pos = f"{self.positives:.0f} expected positives"
        if self.n_clusters is not None:
            pos += f", {self.n_clusters} clusters of {self.cluster_size}"
        if self.target == "width":
            goal = (
                f"the {100 * self.ci_prob:.4g}% AP interval is at most {self.width:.4g} wide "
                f"in {100 * self.assurance:.4g}% of test sets (quantile "
                f"{self.achieved:.4g} +- {self.achieved_se:.2g})"
            )
        else:
            goal = (
                f"an AP difference of {self.difference:+.4g} (scores correlated "
                f"{self.correlation:.3g}) is detected with power {self.achieved:.3f} "
                f"+- {self.achieved_se:.3f} (target {self.assurance:.4g})"
            )
        return f"{self.n} labelled items ({pos}): {goal}."

    def _repr_html_(self):
        head = html_table(type(self).__name__, self._html_rows(), caption=self.summary())
        return head + self.table.to_html(float_format=lambda v: f"{v:.4g}")

    def __str__(self):
        return self.summary()


# ---------------------------------------------------------------------------------------
# input validation


def _check_pilot(pilot):
    if not (isinstance(pilot, (tuple, list)) and len(pilot) == 2):
        raise ValueError(
            "`pilot` must be a pair (y_true, y_score) of a labelled sample; got "
            f"{type(pilot).__name__}"
        )
    y, s = pilot
    ranked = as_ranked(y, s)
    n_pos = int(ranked.is_pos.sum())
    n = int(ranked.is_pos.size)
    if n_pos < 2 or n - n_pos < 2:
        raise ValueError(
            f"`pilot` needs at least 2 positives and 2 negatives; got {n_pos} positives of {n}"
        )
    return ranked


def _plan_iv(
    metric,
    expected,
    prevalence,
    width,
    difference,
    ci_prob,
    assurance,
    correlation,
    cluster_size,
    icc,
    n_simulations,
    pilot,
):
    metric = check_choice(metric, "metric", PLAN_METRICS)
    if (width is None) == (difference is None):
        raise ValueError(
            "give exactly one of `width` (plan the interval's width) and `difference` "
            f"(plan the power to detect an AP difference); got width={plain(width)}, "
            f"difference={plain(difference)}"
        )
    ci_prob = check_probability(ci_prob, "ci_prob")
    assurance = check_probability(assurance, "assurance")
    cluster_size = check_int(cluster_size, "cluster_size")
    icc = _real(icc, "icc")
    if not 0.0 <= icc <= 1.0:
        raise ValueError(f"`icc` must be in [0, 1]; got {plain(icc)}")
    if icc > 0.0 and cluster_size == 1:
        raise ValueError(
            "`icc` is the intra-cluster correlation of clustered items: give their "
            f"`cluster_size` (items per cluster) too; got icc={plain(icc)} with cluster_size=1"
        )
    if n_simulations is None:
        n_simulations = 1000 if width is not None and pilot is None else 400
    n_simulations = check_int(n_simulations, "n_simulations", 20)
    if pilot is not None:
        if expected is not None or prevalence is not None:
            raise ValueError(
                "`pilot` replaces `expected` and `prevalence` (they are estimated from it); "
                f"got expected={plain(expected)}, prevalence={plain(prevalence)}"
            )
        pilot = _check_pilot(pilot)
    else:
        if expected is None or prevalence is None:
            raise ValueError(
                "give `expected` (the AP you expect) and `prevalence`, or a `pilot` sample; "
                f"got expected={plain(expected)}, prevalence={plain(prevalence)}"
            )
        prevalence = check_probability(prevalence, "prevalence")
        expected = check_probability(expected, "expected")
    if width is not None:
        width = _real(width, "width")
        if not 0.0 < width < 1.0:
            raise ValueError(f"`width` must be in (0, 1); got {plain(width)}")
        if correlation is not None:
            raise ValueError(
                f"`correlation` applies to a `difference` target only; got {plain(correlation)}"
            )
    else:
        difference = _real(difference, "difference")
        if difference == 0.0:
            raise ValueError("`difference` must not be 0: there is nothing to detect")
        if correlation is None:
            raise ValueError(
                "`correlation` (the two classifiers' within-class score correlation, in "
                "[0, 1)) is needed with `difference`: the power depends strongly on it"
            )
        correlation = _real(correlation, "correlation")
        if not -1.0 < correlation < 1.0:
            raise ValueError(f"`correlation` must be in (-1, 1); got {plain(correlation)}")
        if pilot is None and not prevalence < expected + difference < 1.0:
            raise ValueError(
                f"`expected + difference` (classifier B's AP) must lie between the "
                f"prevalence {prevalence:.4g} and 1; got {expected + difference:.4g}"
            )
    return (
        metric,
        expected,
        prevalence,
        width,
        difference,
        ci_prob,
        assurance,
        correlation,
        cluster_size,
        icc,
        n_simulations,
        pilot,
    )


# ---------------------------------------------------------------------------------------
# the search


def _pilot_draws(ranked, size, rng):
    """(AP, prevalence) draws of the pilot's posterior: the rank-based binormal model's
    AP draws and the Jeffreys posterior of the prevalence."""
    from ..bayes import fit_binormal

    fit = fit_binormal(ranked, None, random_seed=rng)
    ap = np.asarray(fit.average_precision()).reshape(-1)
    n, k = ranked.is_pos.size, int(ranked.is_pos.sum())
    pi = rng.beta(k + 0.5, n - k + 0.5, size=size)
    ap = rng.choice(ap, size=size)
    return ap, pi


def _search(evaluate, n_min, rel_tol):
    """Smallest n on a log grid meeting the target (``evaluate(n) -> (ok, row)``)."""
    rows = {}

    def run(n):
        if n not in rows:
            rows[n] = evaluate(n)
        return rows[n][0]

    lo = n_min
    if run(lo):
        return lo, rows
    hi = lo
    while True:
        lo, hi = hi, hi * 2
        if hi > MAX_PLANNED_ITEMS:
            raise ValueError(
                f"the target is not reached with {MAX_PLANNED_ITEMS:.0e} items: relax "
                "`width` (or `difference`) or `assurance`"
            )
        if run(hi):
            break
    while hi - lo > 1 and hi / lo > 1.0 + rel_tol:
        mid = int(round(math.sqrt(lo * hi)))
        mid = min(max(mid, lo + 1), hi - 1)
        if run(mid):
            hi = mid
        else:
            lo = mid
    return hi, rows


def plan_test_set(
    *,
    metric="average_precision",
    expected=None,
    prevalence=None,
    width=None,
    difference=None,
    ci_prob=0.95,
    assurance=0.8,
    correlation=None,
    cluster_size=1,
    icc=0.0,
    random_seed=None,
    n_simulations=None,
    pilot=None,
    design_effect=None,
    progressbar=None,
):
    r"""How many labelled items a test set needs, by simulation.

    Two questions:

    - ``width``: how many items make the ``ci_prob`` AP interval at most ``width`` wide
      in a share ``assurance`` of test sets? (``assurance=0.5``: the median width.)
    - ``difference``: how many items detect that classifier B's AP exceeds A's
      (``expected``) by ``difference``, i.e. give a ``ci_prob`` interval of
      ``AP_B - AP_A`` that excludes 0, with power ``assurance``?

    The scores are simulated from the equal-variance binormal model with the AP
    ``expected`` at ``prevalence`` (:func:`binormal_separation`), ``n_simulations``
    test sets per candidate ``n`` with common random numbers across ``n``, and the
    smallest ``n`` meeting the target is found by bisection on ``log n`` (to 0.2% for a
    width, 1% for a power). The
    width is that of the logit AP interval (Boyd et al. 2013) with its standard error
    calibrated to the simulated spread of the AP (``calibration``), which predicts the
    width of :func:`bayes_prc.compare_intervals`' recommended interval; the power is that
    of the paired jackknife interval of :func:`bayes_prc.compare_classifiers`. See the
    module :mod:`bayes_prc.planning` for the simulation and ``docs/planning.md`` for the
    measured accuracy of the plans.

    Parameters
    ----------
    metric : {"average_precision"}, default "average_precision"
    expected : float
        The AP expected (of classifier A with ``difference``), in (``prevalence``, 1).
    prevalence : float
        The share of positives in (0, 1).
    width : float, optional
        Target width of the interval, in (0, 1). Exactly one of ``width`` and
        ``difference``.
    difference : float, optional
        AP difference to detect, ``AP_B - AP_A`` (either sign, not 0).
    ci_prob : float, default 0.95
        Probability of the interval.
    assurance : float, default 0.8
        Share of test sets in which the width is at most ``width``; or the power with
        ``difference``.
    correlation : float, optional
        With ``difference`` (required): the within-class correlation of the two
        classifiers' latent binormal scores, in (-1, 1) (models trained on the same
        data often score 0.5-0.9).
    cluster_size : int, default 1
        Items per cluster (patients, documents) when they come in clusters.
    icc : float, default 0.0
        Intra-cluster correlation of the items' labels and scores, in [0, 1]; the
        required ``n`` grows by the AP's design effect for a ``width`` target
        (:func:`ap_design_effect`: between 1 and Kish's ``1 + (cluster_size - 1) * icc``),
        by Kish's for a ``difference`` target.
    random_seed : None, int or numpy.random.Generator, optional
        Seed of the simulation; the same seed gives the same plan.
    n_simulations : int, optional
        Simulated test sets per candidate ``n`` (at least 20). Default 1000 for a width
        (cheap: O(positives) each; the share of sets below the target then has a Monte
        Carlo error of about 1.3 points), 400 for a difference (each set is a paired
        jackknife of all items) or with a pilot (each set needs its own separation).
        A width plan with fewer than :data:`SMALL_POSITIVES` positives also fits
        ``n_simulations // 15`` (5 to :data:`CHECK_SETS`) simulated sets with the
        recommended interval, to check the prediction (module docstring).
    pilot : tuple (y_true, y_score), optional
        A small labelled sample instead of ``expected`` and ``prevalence``: each
        simulated test set draws its AP from the pilot's rank-based binormal posterior
        (:func:`bayes_prc.fit_binormal`) and its prevalence from the Jeffreys posterior
        of the pilot's prevalence, so the plan carries the pilot's uncertainty (an
        assurance in O'Hagan & Stevens' sense). ``width`` targets only.
    design_effect : float, optional
        The AP's design effect (>= 1) of a clustered test set when it is known, e.g.
        ``ap_interval(y, s, groups=g).design_effect`` of a pilot or an earlier test set
        with the same clusters; replaces the design effect computed from ``icc`` (give
        ``icc`` 0).
    progressbar : bool, optional
        A progress bar on stderr for each check of the prediction against the recommended
        interval (plans with few positives: 20-60 s); default on when stderr is a
        terminal.

    Returns
    -------
    SampleSizePlan
        ``n`` (the recommended items), ``positives``, ``achieved`` and the ``table``
        of every candidate ``n`` evaluated by the search.

    Raises
    ------
    ValueError
        Naming the parameter: both or neither of ``width`` and ``difference``; a value
        out of range; ``expected`` not above ``prevalence``; ``difference`` without
        ``correlation``; a target not reached with :data:`MAX_PLANNED_ITEMS` items.

    Notes
    -----
    The plan is only as good as the guesses: the binormal shape, the AP and the
    prevalence. With clusters, the AP's design effect is computed under one cluster
    model (a cluster's prevalence varies with the labels' ``icc``, a normal cluster
    effect shifts the scores with the scores' ``icc``, independently;
    :func:`ap_design_effect`): a cluster effect that moves labels and scores together
    inflates the AP's variance differently (``docs/planning.md`` measures it).

    References
    ----------
    .. [1] K. Boyd, K. H. Eng and C. D. Page (2013), ECML PKDD, LNCS 8190, 451-466.
    .. [2] L. Kish (1965), Survey Sampling, Wiley.
    .. [3] F. Wang and A. E. Gelfand (2002), Statistical Science 17, 193-208.

    Examples
    --------
    >>> from bayes_prc.planning import plan_test_set
    >>> plan = plan_test_set(expected=0.6, prevalence=0.05, width=0.1, random_seed=0,
    ...                      n_simulations=100)
    >>> 7000 < plan.n < 11000, plan.achieved <= 0.1
    (True, True)
    >>> list(plan.table.columns)[:4]
    ['n', 'positives', 'effective_n', 'median_width']
    """
    (
        metric,
        expected,
        prevalence,
        width,
        difference,
        ci_prob,
        assurance,
        correlation,
        cluster_size,
        icc,
        n_simulations,
        pilot,
    ) = _plan_iv(
        metric,
        expected,
        prevalence,
        width,
        difference,
        ci_prob,
        assurance,
        correlation,
        cluster_size,
        icc,
        n_simulations,
        pilot,
    )
    progressbar = check_progressbar(progressbar)
    rng = check_random_state(random_seed)
    kish = 1.0 + (cluster_size - 1) * icc
    deff = kish
    if design_effect is not None:
        design_effect = _real(design_effect, "design_effect")
        if design_effect < 1.0:
            raise ValueError(f"`design_effect` must be at least 1; got {plain(design_effect)}")
        if icc > 0.0:
            raise ValueError(
                "give `icc` (the AP's design effect is then computed from it) or "
                f"`design_effect` (a measured one), not both; got icc={plain(icc)}, "
                f"design_effect={plain(design_effect)}"
            )
        if cluster_size == 1:
            raise ValueError(
                "`design_effect` is that of a clustered test set: give its `cluster_size` "
                "(items per cluster) too, so that the plan is for the clustered interval; "
                f"got design_effect={plain(design_effect)} with cluster_size=1"
            )
        deff = design_effect
    note = ""
    if pilot is not None:
        if difference is not None:
            raise ValueError("`pilot` plans a `width` target only; got a `difference`")
        ap_draws, pi_draws = _pilot_draws(pilot, n_simulations, rng)
        ok = ap_draws > pi_draws
        ap_draws = np.clip(ap_draws, pi_draws + 1e-3, 1.0 - 1e-6)
        seps = np.array(
            [binormal_separation(a, p) for a, p in zip(ap_draws, pi_draws, strict=True)]
        )
        expected, prevalence = float(np.median(ap_draws)), float(np.median(pi_draws))
        separation = float(np.median(seps))
        note = (
            f"pilot of {pilot.is_pos.size} items ({int(pilot.is_pos.sum())} positives): "
            f"AP and prevalence drawn from its posterior (median AP {expected:.3g}, "
            f"prevalence {prevalence:.3g}; {np.mean(~ok):.0%} of AP draws at or below the "
            "prevalence were moved just above it)"
        )
        sim_pi, sim_sep = pi_draws, seps
    else:
        separation = binormal_separation(expected, prevalence)
        sim_pi, sim_sep = prevalence, separation
    if design_effect is None and width is not None:
        # the AP's own design effect (Kish's factor is a mean's; it overstated the AP's)
        deff = ap_design_effect(separation, prevalence, cluster_size, icc)
    streams = _Streams(rng, n_simulations)
    q = assurance

    calibration = None
    n_min = max(10, int(math.ceil(2.0 / float(np.min(sim_pi)))))
    clustered = width is not None and cluster_size > 1
    if clustered:
        # the recommended interval of a clustered test set is the logit interval with
        # n_pos / design_effect, the design effect estimated by the leave-one-cluster-out
        # jackknife (at least 1): its spread widens the widths' (module docstring)
        deff_u = rng.random(n_simulations)
        dispersion = (
            1.0
            if design_effect is not None
            else jackknife_dispersion(separation, prevalence, cluster_size, icc, rng)
        )

        def positives_quoted(n_eff, k):
            clusters = _clustered_n(n_eff, deff, cluster_size) // cluster_size
            return k * deff / _jackknife_design_effects(deff, clusters, deff_u, dispersion)

    else:

        def positives_quoted(n_eff, k):
            return k

    if width is not None:

        def make_evaluate(c):
            def evaluate(n_eff):
                ap, k = _simulate_ap(n_eff, streams, sim_pi, sim_sep)
                w = _widths(ap, positives_quoted(n_eff, k), ci_prob, c)
                assured = float(np.quantile(w, q))
                row = {
                    "median_width": float(np.median(w)),
                    "assured_width": assured,
                    "assured_width_se": _quantile_se(w, q),
                }
                return assured <= width, row

            return evaluate

        if clustered:
            calibration = 1.0
            interval = (
                "logit AP interval with n_pos / design effect (Boyd's se; the recommended "
                "interval of a clustered test set, its design effect estimated by the "
                "leave-one-cluster-out jackknife, modelled as max(1, deff chi2(nu) / nu), "
                f"nu = (K - 1) / {dispersion:.3g} over K clusters)"
            )
        else:
            # the calibration factor at the size planned with Boyd's se (at the pilot's
            # median AP and prevalence: the spread of one test set, not of the guesses)
            cal_streams = _Streams(rng, CALIBRATION_SETS * n_simulations)
            n_first, _ = _search(make_evaluate(1.0), n_min, _REL_TOL["width"])
            calibration = _calibration(*_simulate_ap(n_first, cal_streams, prevalence, separation))
            interval = (
                f"logit AP interval, its se x {calibration:.3g} (the simulated spread of "
                "logit AP over Boyd's binomial approximation)"
            )
        evaluate = make_evaluate(calibration)
        # few positives: the prediction checked against the recommended interval itself
        # on CHECK_SETS simulated sets of the planned size and the calibration corrected,
        # until the check at the planned size agrees (the ratio of the widths' quantiles
        # within CHECK_TOLERANCE of 1) or MAX_CHECKS checks; the ratio changes with the
        # size, so after the first correction the next is a secant step in log
        # calibration (a one-shot correction measured at another size overshot)
        searched = _search(evaluate, n_min, _REL_TOL["width"])
        sets = min(CHECK_SETS, max(5, n_simulations // 15))
        history = []
        for _ in range(MAX_CHECKS):
            n_now = searched[0]
            if clustered or n_now * prevalence >= SMALL_POSITIVES:
                break
            bar = Progress(sets, f"plan_test_set, check {len(history) + 1}", progressbar)
            ratio = _recommended_ratio(
                n_now, prevalence, separation, ci_prob, calibration, rng, sets, q, bar.update
            )
            bar.close()
            history.append((math.log(calibration), math.log(ratio)))
            interval = (
                f"logit AP interval, its se x {calibration:.3g} (the simulated spread of "
                "logit AP over Boyd's binomial approximation, corrected by the recommended "
                f"interval's widths (quantile {q:g}) on {sets} simulated sets per check; the "
                f"last check, at {n_now} items: x {ratio:.3g})"
            )
            close = abs(math.log(ratio)) <= CHECK_TOLERANCE
            # a close check still corrects (by its ratio: small, so it carries over to
            # the nearby size) and then ends the checks
            calibration = calibration * ratio if close else math.exp(_next_log_calibration(history))
            evaluate = make_evaluate(calibration)
            searched = _search(evaluate, n_min, _REL_TOL["width"])
            if close:
                break
        else:
            interval += f"; not confirmed at the planned {searched[0]} items"
        achieved_key, se_key = "assured_width", "assured_width_se"
    else:
        sep_b = binormal_separation(expected + difference, prevalence)
        interval = "paired jackknife interval of AP_B - AP_A"
        searched = None

        def evaluate(n_eff):
            hit, _, w = _simulate_power(
                n_eff,
                streams,
                prevalence,
                (separation, sep_b),
                correlation,
                ci_prob,
                np.sign(difference),
            )
            power = float(hit.mean())
            row = {
                "power": power,
                "power_se": math.sqrt(max(power * (1 - power), 1e-12) / hit.size),
                "median_width": float(np.median(w)),
            }
            return power >= assurance, row

        achieved_key, se_key = "power", "power_se"

    if searched is None:
        searched = _search(evaluate, n_min, _REL_TOL["difference"])
    n_eff, rows = searched
    table = _table(rows, deff, cluster_size, prevalence)
    n = _clustered_n(n_eff, deff, cluster_size)
    best = rows[n_eff][1]
    table.attrs.update(
        target="width" if width is not None else "difference",
        width=width,
        difference=difference,
        ci_prob=ci_prob,
        assurance=assurance,
        recommended_n=n,
        design_effect=deff,
        calibration=calibration,
    )
    return SampleSizePlan(
        n=n,
        positives=n * prevalence,
        n_clusters=n // cluster_size if cluster_size > 1 else None,
        achieved=best[achieved_key],
        achieved_se=best[se_key],
        target="width" if width is not None else "difference",
        width=width,
        difference=difference,
        correlation=correlation,
        metric=metric,
        expected=expected,
        prevalence=prevalence,
        ci_prob=ci_prob,
        assurance=assurance,
        cluster_size=cluster_size,
        icc=icc,
        design_effect=deff,
        kish_design_effect=kish,
        separation=separation,
        interval=interval,
        calibration=calibration,
        n_simulations=n_simulations,
        note=note,
        table=table,
    )


def _quantile_se(values, q):
    """Monte Carlo standard error of the ``q`` quantile: half the distance between the
    order statistics at ``q +- sqrt(q (1 - q) / R)`` (the binomial interval of its rank)."""
    r = values.size
    half = math.sqrt(q * (1.0 - q) / r)
    lo, hi = np.quantile(values, [max(q - half, 0.0), min(q + half, 1.0)])
    return float((hi - lo) / 2.0)


def _clustered_n(n_eff, deff, cluster_size):
    """Items of a clustered test set carrying the information of ``n_eff`` independent ones."""
    return int(math.ceil(n_eff * deff / cluster_size - 1e-9)) * cluster_size


def _table(rows, deff, cluster_size, prevalence):
    import pandas as pd

    records = []
    for n_eff in sorted(rows):
        ok, row = rows[n_eff]
        n = _clustered_n(n_eff, deff, cluster_size)
        records.append(
            {"n": n, "positives": n * prevalence, "effective_n": n_eff, **row, "meets_target": ok}
        )
    return pd.DataFrame.from_records(records)
