r"""Goodness-of-fit checks of the binormal fits: calibrated, and the same for every seed.

A check is a decision people act on (the comparison table quotes another interval when it
fails), so it must not cry wolf on data its model generated, and it must not change when
only the random seed does. Each model gets a test with a reference distribution that needs
no simulation:

``"semiparametric"`` (rank-based binormal)
    The scores are cut into ``K`` (4 to 24) *check bins* of the pooled ranking
    (:func:`~bayes_prc.bayes._ordinal.check_bin_counts`: 3 to 5 or more items of the
    smaller class per bin, edges depending on the labels only through the prevalence and
    the empirical ROC AUC). The two-group ordered-probit model is fit to the two rows of
    counts by maximum likelihood (:func:`~._semiparametric.profile_mle`: ``K - 1``
    cutpoints, ``mu``, ``sigma``) and compared with the saturated multinomial by the
    likelihood-ratio statistic :math:`G^2 = 2\sum n \log(n / e)` and Pearson's
    :math:`X^2 = \sum (n - e)^2 / e`, each against :math:`\chi^2_{K - 3}` (Dorfman & Alf
    1969; Agresti 2013, ch. 1.5). The cutpoints absorb any monotone transform of the
    scores, so the test is about the *shape of the ROC curve*: a small p-value says no
    binormal ROC follows the data (e.g. a hook from a subgroup of negatives that score
    like positives). ``p_value`` is the larger of the two p-values: the check fails only
    when both statistics reject, because each alone exceeds its level in a different
    small-count regime (measured in ``docs/coverage.md``).
``"parametric"``
    The model says each class is normal on the fitted scale (after ``transform``), so
    each class's scores get the Shapiro-Wilk test (Royston's p-value; at most 5000 items
    per class, an evenly strided subset of larger classes) and the two p-values are
    combined by Sidak's rule, ``1 - (1 - min p)^2``.
``"flexible"``, ``"contaminated"``
    A posterior predictive check (Gelman, Meng & Stern 1996) of the deviance on the same
    check bins, with 4000 draws (Monte Carlo standard error below 0.0035 at p = 0.05).
    Posterior predictive p-values are conservative.

Why not the ordered categories of the fit? They are truth-state runs, cut exactly where
the class changes, so every category is pure; counts replicated from any model are not,
and a check on those categories rejected about half of the data sets drawn from the model
itself at n = 80.

``grade`` is ``"pass"``, ``"fail"`` (``p_value`` below 0.05) or ``"inconclusive"`` when the
data cannot test the model (fewer than 12 items in a class, or classes that do not
overlap): then there is no evidence against the model, and no evidence for it.

References
----------
.. [1] D. D. Dorfman and E. Alf, "Maximum-likelihood estimation of parameters of signal-
   detection theory and determination of confidence intervals - rating-method data",
   J. Math. Psychol. 6 (1969) 487-496.
.. [2] A. Agresti, *Categorical Data Analysis*, 3rd ed., Wiley, 2013.
.. [3] S. S. Shapiro and M. B. Wilk, "An analysis of variance test for normality
   (complete samples)", Biometrika 52 (1965) 591-611; P. Royston, "Remark AS R94",
   Applied Statistics 44 (1995) 547-551.
.. [4] A. Gelman, X.-L. Meng and H. Stern, "Posterior predictive assessment of model
   fitness via realized discrepancies", Statistica Sinica 6 (1996) 733-807.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from .._core import check_int, check_random_state
from .._core.display import HTMLReprMixin
from ._ordinal import category_log_probs
from ._semiparametric import profile_mle

__all__ = [
    "FitCheck",
    "fit_check",
    "grade_of",
    "rank_fit_check",
    "FIT_CHECK_LEVEL",
    "normality_p_values",
    "GRADES",
]

#: p-values below this fail the check.
FIT_CHECK_LEVEL = 0.05
#: The values of :attr:`FitCheck.grade`.
GRADES = ("pass", "inconclusive", "fail")
#: Largest class handed to the Shapiro-Wilk test (Royston's p-value holds up to 5000).
_SHAPIRO_MAX = 5000
#: Posterior draws of the flexible model's predictive check.
_PPC_DRAWS = 4000


@dataclass(frozen=True)
class FitCheck(HTMLReprMixin):
    """The result of every fit check of the library: one type, one meaning of its fields.

    Returned by :func:`fit_check` (and ``posterior.fit_check()``) for the binormal family,
    by the paired rank model's deviance check (``compare_classifiers(...).fit_check``), by
    :meth:`bayes_prc.subgroups.SubgroupComparison.fit_check` and by
    :func:`bayes_prc.pool.calibration_check`.

    Attributes
    ----------
    p_value : float
        p-value of the check (NaN when ``grade`` is ``"inconclusive"``).
    passed : bool
        ``grade != "fail"``: the data give no evidence against the model at
        ``significance_level``.
    significance_level : float
        The test's threshold; also readable as ``level`` (its former name).
    statistic : float
        The test statistic: a chi-square statistic (G2 or X2), Shapiro-Wilk's W, or the
        data's mean discrepancy over the posterior draws of a predictive check; also
        readable as ``observed`` (its former name).
    replicated : float
        The statistic's expectation when the model is right: the degrees of freedom of a
        chi-square test, the mean replicated discrepancy of a predictive check (NaN when
        there is none).
    n_categories : int or tuple of int
        Bins of the check (per classifier for the paired check).
    model : str
        The model checked: ``"semiparametric"``, ``"parametric"``, ``"flexible"``,
        ``"contaminated"``, ``"paired_rank"``, ``"subgroups"`` or ``"pool_calibration"``.
    verdict : str
        One sentence for a report.
    grade : {"pass", "inconclusive", "fail"}
        ``"inconclusive"`` when the data cannot test the model (too few items of a class,
        no degrees of freedom): ``passed`` True, ``p_value`` NaN, ``reason`` says why.
    method : str
        The test, e.g. ``"G2/X2 chi-square"``, ``"Shapiro-Wilk"``, ``"posterior
        predictive"``, ``"G2 deviance"``.
    df : int or None
        Degrees of freedom of a chi-square test.
    reason : str or None
        Why the check is ``"inconclusive"``: what the data lack to test the model. None
        when the check was carried out (``grade`` ``"pass"`` or ``"fail"``).
    p_values : pandas.Series or None
        Per-part p-values where the check has parts (each subgroup of a subgroup
        comparison; with many parts expect a few small ones by chance); else None.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(400, random_seed=0)
    >>> check = bp.fit_binormal(y, s, random_seed=1).fit_check(random_seed=2)
    >>> type(check).__name__, check.grade in ("pass", "inconclusive", "fail")
    ('FitCheck', True)
    """

    p_value: float
    passed: bool
    significance_level: float
    statistic: float
    replicated: float
    n_categories: int | tuple
    model: str
    verdict: str
    grade: str = "pass"
    method: str = ""
    df: int | None = None
    reason: str | None = None
    p_values: Any = field(default=None, repr=False, compare=False)

    @property
    def level(self):
        """The test's threshold (``significance_level``; the name of earlier versions)."""
        return self.significance_level

    @property
    def observed(self):
        """The test statistic (``statistic``; the name of earlier versions)."""
        return self.statistic

    def _html_rows(self):
        return [(k, v) for k, v in super()._html_rows() if k != "p_values"]

    def _html_caption(self):
        """The notebook table's caption: the grade and the verdict."""
        p = "n/a" if not np.isfinite(self.p_value) else f"{self.p_value:.3g}"
        return f"Fit check ({self.model}, {self.method}): {self.grade} (p = {p}). {self.verdict}"

    def _repr_html_(self):
        out = super()._repr_html_()
        if self.p_values is not None:
            out += self.p_values.to_frame("p_value").to_html(float_format=lambda v: f"{v:.3f}")
        return out


def grade_of(p_value, significance_level, reason=None):
    """``(grade, passed)`` of a check: ``"inconclusive"`` with a ``reason``, else by p."""
    if reason:
        return "inconclusive", True
    failed = bool(p_value < significance_level)
    return ("fail" if failed else "pass"), not failed


_WHAT = {
    "semiparametric": "a binormal ROC curve (after a monotone transform of the scores)",
    "flexible": "the flexible (normal-mixture) ROC curve",
    "contaminated": "a binormal ROC curve with contaminated classes (label noise)",
    "parametric": "normal class-score distributions on the fitted scale",
}


def _verdict(model, grade, p_value, why=""):
    what = _WHAT[model]
    if grade == "inconclusive":
        return (
            f"No evidence against {what} at this sample size: {why}, so the data cannot "
            "test the model's shape (they do not confirm it either)."
        )
    if grade == "pass":
        return f"The fit check passes: the data are consistent with {what} (p = {p_value:.2f})."
    return (
        f"The fit check fails: the data are not consistent with {what} "
        f"(p = {p_value:.3f} < {FIT_CHECK_LEVEL}); intervals from this model may be biased."
    )


def _result(model, p_value, observed, replicated, k, method, df=None, why=""):
    grade, passed = grade_of(p_value, FIT_CHECK_LEVEL, why)
    if why:
        p_value = float("nan")
    return FitCheck(
        p_value=float(p_value),
        passed=passed,
        significance_level=FIT_CHECK_LEVEL,
        statistic=float(observed),
        replicated=float(replicated),
        n_categories=int(k),
        model=model,
        verdict=_verdict(model, grade, p_value, why),
        grade=grade,
        method=method,
        df=df,
        reason=why or None,
    )


def _too_few(data):
    n_min = min(data.n_pos, data.n_neg)
    return (
        f"there {'is' if n_min == 1 else 'are'} only {n_min} "
        f"{'positive' if data.n_pos <= data.n_neg else 'negative'}"
        f"{'' if n_min == 1 else 's'} (a check needs 12 of each class)"
    )


def _separated(counts):
    """True when no check bin holds both classes' items and the classes are in order."""
    return not np.any((counts[0] > 0) & (counts[1] > 0))


def rank_goodness_of_fit(counts):
    """``(p_value, g2, x2, df)`` of the binormal ordered-probit fit to ``counts`` (2, K)."""
    k = counts.shape[1]
    mu, sigma, cut, _ = profile_mle(counts)
    log_p = category_log_probs(cut[None], np.array([mu]), np.array([sigma]))[:, 0, :]
    expected = counts.sum(axis=1, keepdims=True) * np.exp(log_p)
    g2 = float(_deviance(counts.astype(np.float64), log_p))
    with np.errstate(divide="ignore", invalid="ignore"):
        x2 = np.sum(np.where(expected > 0, (counts - expected) ** 2 / expected, 0.0))
    df = k - 3
    p = max(stats.chi2.sf(max(g2, 0.0), df), stats.chi2.sf(max(x2, 0.0), df))
    return float(p), float(g2), float(x2), int(df)


def normality_p_values(z, is_pos):
    """Shapiro-Wilk p-values of each class's scores (neg, pos); NaN below 3 items.

    Classes larger than 5000 items are tested on an evenly strided subset (every
    ``ceil(n / 5000)``-th item in data order), so the check is deterministic.
    """
    out = []
    for mask in (~is_pos, is_pos):
        x = z[mask]
        if x.size > _SHAPIRO_MAX:
            x = x[:: -(-x.size // _SHAPIRO_MAX)]
        if x.size < 3 or np.ptp(x) == 0:
            out.append(np.nan)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append(float(stats.shapiro(x).pvalue))
    return np.array(out)


def _deviance(counts, log_p):
    """Deviance of counts (..., 2, K) against log probabilities (..., 2, K)."""
    n_class = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * (np.log(counts) - np.log(n_class) - log_p), 0.0)
    return 2.0 * terms.sum(axis=(-1, -2))


def _mixture_check(posterior, counts, rng, n_draws):
    """Posterior predictive deviance check of a mixture model (flexible, contaminated)
    on the check bins."""
    from ._flexible import mixture_bin_log_probs

    m = posterior.model
    total = int(np.prod(m.batch_shape))
    pick = np.sort(rng.choice(total, size=min(int(n_draws), total), replace=False))

    def flat(*arrays):
        return tuple(a.reshape(-1, a.shape[-1])[pick] for a in arrays)

    neg = flat(m.weight_neg, m.mu_neg, m.sigma_neg)
    pos = flat(m.weight_pos, m.mu_pos, m.sigma_pos)
    # the fit's cutpoints live on its own categories; the check bins need their own
    # edges on the latent scale: the pooled mixture quantiles of each draw
    cut = _mixture_cutpoints(counts, neg, pos)
    with np.errstate(divide="ignore"):
        log_p = np.stack(
            [mixture_bin_log_probs(cut, np.log(w), mu, sd) for w, mu, sd in (neg, pos)], axis=1
        )
    t_obs = _deviance(counts.astype(np.float64)[None], log_p)
    p = np.exp(log_p)
    p /= p.sum(axis=-1, keepdims=True)
    n_class = counts.sum(axis=1)
    rep = np.stack([rng.multinomial(int(n_class[c]), p[:, c]) for c in (0, 1)], axis=1)
    t_rep = _deviance(rep.astype(np.float64), log_p)
    return float(np.mean(t_rep >= t_obs)), float(t_obs.mean()), float(t_rep.mean())


def _mixture_cutpoints(counts, neg, pos):
    """Latent edges of the check bins for each draw: pooled-mixture quantiles (bisection).

    ``neg`` and ``pos`` are the classes' mixture ``(weights, means, sds)``, each (S, J).
    """
    from scipy.special import ndtr

    def cdf(x, w, mu, sd):
        return np.sum(w[:, None, :] * ndtr((x[..., None] - mu[:, None, :]) / sd[:, None, :]), -1)

    n0, n1 = counts.sum(axis=1)
    pi = n1 / (n0 + n1)
    f = np.cumsum(counts.sum(axis=0))[:-1] / (n0 + n1)
    lo = np.full((neg[0].shape[0], f.size), -40.0)
    hi = np.full((neg[0].shape[0], f.size), 40.0)
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        below = (1 - pi) * cdf(mid, *neg) + pi * cdf(mid, *pos) < f
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return 0.5 * (lo + hi)


def fit_check(posterior, random_seed=None, n_draws=_PPC_DRAWS):
    """Goodness-of-fit check of a :class:`BinormalPosterior` (see the module doc).

    Parameters
    ----------
    posterior : BinormalPosterior
    random_seed : int, Generator or None
        Used by the flexible model's predictive check only; the checks of the rank-based
        and the parametric binormal models are deterministic.
    n_draws : int, default 4000
        Posterior draws of the flexible model's predictive check.

    Returns
    -------
    FitCheck

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> check = bp.fit_binormal(y, s, random_seed=0).fit_check()
    >>> check.grade, check.df, round(check.p_value, 3)
    ('pass', 12, 0.906)
    """
    check_int(n_draws, "n_draws")
    model = posterior.model_type
    data = posterior.ordinal
    if model == "parametric":
        p_each = getattr(posterior, "_normality", None)
        if p_each is None or not np.all(np.isfinite(p_each)):
            why = (
                "the scores were summarized before the fit"
                if p_each is None
                else "a class has fewer than 3 distinct scores"
            )
            return _result(model, np.nan, np.nan, np.nan, 0, "Shapiro-Wilk", why=why)
        p = 1.0 - (1.0 - float(np.min(p_each))) ** 2
        return _result(model, p, float(np.min(p_each)), 0.5, 0, "Shapiro-Wilk")
    if model in ("flexible", "contaminated"):
        rng = check_random_state(random_seed)
        return rank_fit_check(data, model, lambda c: _mixture_check(posterior, c, rng, n_draws))
    return rank_fit_check(data)


def rank_fit_check(data, model="semiparametric", predictive=None):
    """The check of a rank-based model on :class:`OrdinalData` (its ``check_counts``).

    ``predictive`` (counts -> (p, observed, replicated)) replaces the chi-square test by
    a posterior predictive one (the flexible model).
    """
    counts = data.check_counts
    method = "G2/X2 chi-square" if predictive is None else "posterior predictive"
    if counts is None or counts.shape[1] < 4:
        return _result(model, np.nan, np.nan, np.nan, 0, method, why=_too_few(data))
    k = counts.shape[1]
    if data.n_runs <= 2 or _separated(counts):
        why = "the positives and negatives do not overlap"
        return _result(model, np.nan, np.nan, np.nan, k, method, why=why)
    if predictive is not None:
        return _result(model, *predictive(counts), k, method)
    p, g2, _, df = rank_goodness_of_fit(counts)
    return _result(model, p, g2, df, k, method, df=df)
