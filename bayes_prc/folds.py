r"""Curves and metrics across cross-validation folds or training seeds.

Each fold (or seed) gives its own ``(y_true, y_score)``: in k-fold cross-validation
the test items differ from fold to fold; with k training seeds the same test set is
scored by k models. Three questions, three functions:

* :func:`fold_curves`: every fold's empirical PR (or ROC) curve read on one grid, the
  mean curve, a pointwise t band and the min/max envelope (an :class:`xarray.Dataset`).
* :func:`fold_ap_interval`: the mean of the per-fold AP (or ROC AUC) with the corrected
  resampled t interval of Nadeau & Bengio (2003), which accounts for the overlap of the
  training sets (the folds' metrics are correlated), or the naive t for comparison.
* :func:`compare_folds`: two models on the same folds, with the correlated Bayesian
  t-test of Corani & Benavoli (2015) (baycomp's ``CorrelatedTTest``) and the
  frequentist corrected paired t-test.

References
----------
.. [1] C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine
   Learning 52(3), 2003, pp. 239-281.
.. [2] R. R. Bouckaert and E. Frank, "Evaluating the replicability of significance tests
   for comparing learning algorithms", PAKDD 2004, LNCS 3056, pp. 3-12.
.. [3] G. Corani and A. Benavoli, "A Bayesian approach for comparing cross-validated
   algorithms on multiple data sets", Machine Learning 100(2), 2015, pp. 285-304.
.. [4] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
   2006, pp. 861-874 (vertical averaging of ROC curves).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._core import check_choice, check_probability, plain
from .empirical import Ranked, as_ranked, pr_from_counts, roc_auc_score
from .frequentist import IntervalResult, frozen_float_array, recall_target_counts

__all__ = [
    "FOLD_INTERVAL_METHODS",
    "FOLD_METRICS",
    "FoldComparison",
    "FoldInterval",
    "compare_folds",
    "fold_ap_interval",
    "fold_curves",
]

#: Metrics computed per fold.
FOLD_METRICS = ("average_precision", "roc_auc")
#: Interval methods of :func:`fold_ap_interval`.
FOLD_INTERVAL_METHODS = ("nadeau_bengio", "t")


# validation (once, at the public boundary)
def _check_folds(folds, name, pos_label, need_negatives):
    """``folds`` as a list of :class:`Ranked`; every error names ``name[i]``."""
    if isinstance(folds, str | bytes) or not hasattr(folds, "__len__"):
        raise ValueError(
            f"`{name}` must be a sequence of (y_true, y_score) pairs; got {type(folds).__name__}"
        )
    if len(folds) < 2:
        raise ValueError(
            f"`{name}` must hold at least 2 folds (y_true, y_score) pairs; got {len(folds)}"
        )
    prepared = []
    for i, fold in enumerate(folds):
        if isinstance(fold, Ranked):
            r = fold
        else:
            if isinstance(fold, str | bytes) or not hasattr(fold, "__len__") or len(fold) != 2:
                raise ValueError(
                    f"`{name}[{i}]` must be a (y_true, y_score) pair; got {fold!r:.80}"
                )
            try:
                r = as_ranked(fold[0], fold[1], pos_label=pos_label)
            except (ValueError, TypeError) as err:
                raise type(err)(f"`{name}[{i}]`: {err}") from None
        if r.n_pos == 0:
            raise ValueError(
                f"`{name}[{i}]` has no positive sample (n_samples={r.n_samples}); "
                "recall and the per-fold metrics are undefined"
            )
        if need_negatives and r.n_neg == 0:
            raise ValueError(
                f"`{name}[{i}]` has no negative sample (n_samples={r.n_samples}); "
                "the false positive rate and the ROC AUC are undefined"
            )
        prepared.append(r)
    return prepared


def _check_test_fraction(test_fraction, k):
    """``n_test / (n_test + n_train)``; default ``1 / k`` (k-fold cross-validation)."""
    if test_fraction is None:
        return 1.0 / k
    return check_probability(test_fraction, "test_fraction")


def _check_grid(grid, curve):
    if grid is None:
        return np.linspace(0.0, 1.0, 101)
    if isinstance(grid, numbers.Integral) and not isinstance(grid, bool):
        if grid < 2:
            raise ValueError(
                f"`grid_points` must be an integer >= 2 or an array; got {plain(grid)}"
            )
        return np.linspace(0.0, 1.0, int(grid))
    g = np.asarray(grid)
    if g.ndim != 1 or g.size == 0 or g.dtype.kind not in "iuf" or not np.all(np.isfinite(g)):
        raise ValueError(
            f"`grid_points` must be None, an integer >= 2 or a non-empty 1-D array of finite "
            f"numbers; got {plain(grid)}"
        )
    g = g.astype(np.float64)
    if g.min() < 0 or g.max() > 1:
        axis = "recall" if curve == "pr" else "false positive rate"
        raise ValueError(f"`grid_points` ({axis} values) must lie in [0, 1]; got {plain(grid)}")
    return g


# kernels (prepared input)
def _precision_at_recall(r, grid):
    """Precision at the highest threshold whose recall reaches each grid value.

    At recall 0: the precision at the highest threshold with a positive above it (as
    :func:`bayes_prc.frequentist.bootstrap_pr_band`).
    """
    fps, tps, _ = r.counts
    targets = recall_target_counts(grid, r.n_pos)
    idx = np.searchsorted(tps, targets, side="left")
    return tps[idx] / (tps[idx] + fps[idx])


def _tpr_at_fpr(r, grid):
    """Step read-out: the highest TPR among thresholds whose FPR is <= each grid value."""
    fps, tps, _ = r.counts
    fpr = np.concatenate(([0.0], fps / r.n_neg))
    tpr = np.concatenate(([0.0], tps / r.n_pos))
    idx = np.searchsorted(fpr, grid, side="right") - 1
    return tpr[idx]


def _fold_ap(r):
    """AP summed over the curve in scikit-learn's order (bit for bit its value)."""
    precision, recall, _ = pr_from_counts(*r.counts, warn=False)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _metric_values(prepared, metric):
    fn = _fold_ap if metric == "average_precision" else (lambda r: roc_auc_score(r, None))
    return np.array([fn(r) for r in prepared], dtype=np.float64)


def _t_quantile(level, df):
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2.0, df))


# curves
def fold_curves(folds, *, curve="pr", grid_points=None, confidence_level=0.95, pos_label=None):
    r"""Each fold's empirical curve on a common grid, their mean and a band across folds.

    Parameters
    ----------
    folds : sequence of (y_true, y_score) pairs
        At least 2 folds (or seeds), each with at least one positive (and, for
        ``curve="roc"``, one negative). A prepared :class:`~bayes_prc.empirical.Ranked`
        may stand for a pair.
    curve : {"pr", "roc"}, default "pr"
        ``"pr"``: precision at recall :math:`r`, the precision at the **highest threshold
        whose recall reaches r** (at :math:`r = 0`, the limit from the right), the
        read-out of :func:`bayes_prc.frequentist.bootstrap_pr_band`. ``"roc"``: the
        true positive rate at false positive rate :math:`f`, the highest TPR among the
        thresholds whose FPR is at most :math:`f` (a step read-out; the mean over folds
        is Fawcett's (2006) vertical averaging).
    grid_points : None, int or array-like, default None
        Recall (``"pr"``) or FPR (``"roc"``) values in [0, 1]: None gives 101 evenly
        spaced points, an integer that many.
    confidence_level : float, default 0.95
        Level of the pointwise t band.
    pos_label : label, optional
        The positive label of every fold.

    Returns
    -------
    xarray.Dataset
        Coordinates ``fold`` (0 .. k-1) and ``recall`` (``"pr"``) or ``fpr``
        (``"roc"``). Variables: ``precision`` or ``tpr`` (fold, grid), the fold curves;
        ``mean``, ``std`` (grid), their mean and standard deviation (``ddof=1``);
        ``lower``, ``upper`` (grid), the pointwise t band
        :math:`\bar c \pm t_{k-1,(1+\gamma)/2}\, s/\sqrt{k}` clipped to [0, 1];
        ``minimum``, ``maximum`` (grid), the envelope; ``average_precision`` or
        ``roc_auc`` (fold), the fold's metric; ``n_positives``, ``n_negatives`` (fold).
        Attributes: ``curve``, ``confidence_level``, ``method``, ``n_folds``,
        ``definition``. The t band treats the folds as independent; their curves are
        correlated (overlapping training sets, or one test set for all seeds), so it is
        narrower than the uncertainty of the mean curve (see :func:`fold_ap_interval`
        for the corrected interval of the mean metric).

    References
    ----------
    T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
    2006, pp. 861-874. C. Nadeau and Y. Bengio, "Inference for the generalization
    error", Machine Learning 52(3), 2003, pp. 239-281.

    Examples
    --------
    >>> from bayes_prc import Binormal, fold_curves
    >>> model = Binormal(1.5, 1, 0, 1, 0.3)
    >>> folds = [model.sample(200, random_seed=i) for i in range(5)]
    >>> curves = fold_curves(folds, grid_points=11)
    >>> curves.precision.dims, curves.sizes["fold"]
    (('fold', 'recall'), 5)
    >>> bool((curves.minimum <= curves["mean"]).all() and (curves["mean"] <= curves.maximum).all())
    True
    >>> fold_curves(folds, curve="roc").tpr.dims
    ('fold', 'fpr')
    """
    import xarray as xr

    curve = check_choice(curve, "curve", ("pr", "roc"))
    level = check_probability(confidence_level)
    prepared = _check_folds(folds, "folds", pos_label, need_negatives=curve == "roc")
    points = _check_grid(grid_points, curve)
    k = len(prepared)
    read = _precision_at_recall if curve == "pr" else _tpr_at_fpr
    curves = np.stack([read(r, points) for r in prepared])
    mean = curves.mean(axis=0)
    std = curves.std(axis=0, ddof=1)
    half = _t_quantile(level, k - 1) * std / np.sqrt(k)
    x_name, y_name = ("recall", "precision") if curve == "pr" else ("fpr", "tpr")
    metric = "average_precision" if curve == "pr" else "roc_auc"
    data = {
        y_name: (("fold", x_name), curves),
        "mean": ((x_name,), mean),
        "std": ((x_name,), std),
        "lower": ((x_name,), np.clip(mean - half, 0.0, 1.0)),
        "upper": ((x_name,), np.clip(mean + half, 0.0, 1.0)),
        "minimum": ((x_name,), curves.min(axis=0)),
        "maximum": ((x_name,), curves.max(axis=0)),
        metric: (("fold",), _metric_values(prepared, metric)),
        "n_positives": (("fold",), np.array([r.n_pos for r in prepared])),
        "n_negatives": (("fold",), np.array([r.n_neg for r in prepared])),
    }
    definition = (
        "precision at recall r: precision at the highest threshold whose recall is >= r "
        "(r = 0: limit from the right)"
        if curve == "pr"
        else "TPR at FPR f: the highest TPR among thresholds whose FPR is <= f"
    )
    attrs = {
        "curve": curve,
        "confidence_level": level,
        "method": "pointwise t band across folds (folds treated as independent)",
        "n_folds": k,
        "definition": definition,
    }
    coords = {"fold": np.arange(k), x_name: points}
    return xr.Dataset(data, coords=coords, attrs=attrs)


# the mean metric and its interval
@dataclass(frozen=True)
class FoldInterval(IntervalResult):
    """Result of :func:`fold_ap_interval`: the mean per-fold metric and its interval.

    Attributes
    ----------
    estimate : float
        Mean of the per-fold metric.
    low, high : float
        Ends of the interval ``estimate -+ t_{k-1} * standard_error``, clipped to [0, 1].
    confidence_level : float
    method : str
        ``"nadeau_bengio"`` or ``"t"``.
    fold_values : numpy.ndarray of shape (n_folds,)
        The metric of each fold (read-only).
    standard_error : float
        ``sqrt(c * s**2)`` with ``s**2`` the sample variance of the fold values and
        ``c = 1/k + test_fraction / (1 - test_fraction)`` (``"nadeau_bengio"``) or
        ``c = 1/k`` (``"t"``).
    metric : str
    n_folds : int
    test_fraction : float
        ``n_test / (n_test + n_train)`` used by the correction.
    df : int
        Degrees of freedom of the t quantile, ``k - 1``.
    """

    fold_values: Any
    standard_error: float
    metric: str
    n_folds: int
    test_fraction: float
    df: int


def _variance_factor(method, k, test_fraction):
    if method == "t":
        return 1.0 / k
    return 1.0 / k + test_fraction / (1.0 - test_fraction)


def fold_ap_interval(
    folds,
    *,
    metric="average_precision",
    method="nadeau_bengio",
    test_fraction=None,
    confidence_level=0.95,
    pos_label=None,
):
    r"""Mean per-fold AP (or ROC AUC) with an interval for correlated folds.

    The metrics of cross-validation folds are correlated (the training sets overlap), so
    the naive t interval, :math:`\bar x \pm t_{k-1}\, s / \sqrt{k}`, is too narrow.
    Nadeau & Bengio's (2003) corrected resampled t replaces the variance factor
    :math:`1/k` by :math:`1/k + n_\text{test}/n_\text{train}`; for k-fold
    cross-validation :math:`n_\text{test}/n_\text{train} = 1/(k-1)`. Bouckaert & Frank
    (2004) recommend it for repeated cross-validation (pass all ``r * k`` folds and
    ``test_fraction=1/k``).

    Parameters
    ----------
    folds : sequence of (y_true, y_score) pairs
        At least 2 folds, each with a positive (and a negative for ``"roc_auc"``).
    metric : {"average_precision", "roc_auc"}, default "average_precision"
        The per-fold metric (equal to scikit-learn's ``average_precision_score`` /
        ``roc_auc_score`` of the fold).
    method : {"nadeau_bengio", "t"}, default "nadeau_bengio"
        ``"t"`` is the naive t interval, anti-conservative for cross-validation (given
        for comparison).
    test_fraction : float in (0, 1), optional
        ``n_test / (n_test + n_train)``; defaults to ``1 / len(folds)`` (k-fold
        cross-validation). Give it for repeated random splits or repeated k-fold.
    confidence_level : float, default 0.95
    pos_label : label, optional

    Returns
    -------
    FoldInterval

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine Learning
    52(3), 2003, pp. 239-281. R. R. Bouckaert and E. Frank, "Evaluating the
    replicability of significance tests for comparing learning algorithms", PAKDD 2004,
    pp. 3-12.

    Examples
    --------
    >>> from bayes_prc import Binormal, fold_ap_interval
    >>> model = Binormal(1.5, 1, 0, 1, 0.3)
    >>> folds = [model.sample(100, random_seed=i) for i in range(10)]
    >>> nb = fold_ap_interval(folds)
    >>> naive = fold_ap_interval(folds, method="t")
    >>> nb.estimate == naive.estimate, bool(nb.width > naive.width)
    (True, True)
    >>> nb.fold_values.shape, nb.method
    ((10,), 'nadeau_bengio')
    """
    metric = check_choice(metric, "metric", FOLD_METRICS)
    method = check_choice(method, "method", FOLD_INTERVAL_METHODS)
    level = check_probability(confidence_level)
    prepared = _check_folds(folds, "folds", pos_label, need_negatives=metric == "roc_auc")
    k = len(prepared)
    fraction = _check_test_fraction(test_fraction, k)
    values = _metric_values(prepared, metric)
    estimate = float(values.mean())
    se = float(np.sqrt(_variance_factor(method, k, fraction) * values.var(ddof=1)))
    half = _t_quantile(level, k - 1) * se
    return FoldInterval(
        estimate=estimate,
        low=float(np.clip(estimate - half, 0.0, 1.0)),
        high=float(np.clip(estimate + half, 0.0, 1.0)),
        confidence_level=level,
        method=method,
        fold_values=frozen_float_array(values),
        standard_error=se,
        metric=metric,
        n_folds=k,
        test_fraction=fraction,
        df=k - 1,
    )


# comparing two models fold by fold
@dataclass(frozen=True)
class FoldComparison(IntervalResult):
    """Result of :func:`compare_folds`: the correlated Bayesian t-test of B - A.

    Attributes
    ----------
    estimate : float
        Mean of the fold-wise differences ``metric_B - metric_A`` (the posterior mean).
    low, high : float
        Equal-tailed posterior interval of the mean difference.
    confidence_level : float
        Its probability (also :attr:`ci_prob`).
    method : str
        ``"correlated_t"``.
    prob_b_better, prob_in_rope, prob_a_better : float
        Posterior probabilities that the mean difference is above the ROPE, inside it
        (ends included), below it.
    rope : tuple of float
        ``(low, high)`` region of practical equivalence.
    p_value : float
        Two-sided p-value of the frequentist corrected paired t-test (Nadeau & Bengio
        2003) of "no difference".
    t_statistic : float
        ``estimate / scale`` (infinite or NaN when all differences are equal).
    scale : float
        Scale of the Student posterior, ``sqrt((1/k + rho/(1-rho)) * s**2)``.
    df : int
        ``k - 1``.
    rho : float
        Correlation of the folds, ``test_fraction = n_test / (n_test + n_train)``.
    differences, fold_values_a, fold_values_b : numpy.ndarray of shape (n_folds,)
    metric : str
    n_folds : int
    """

    prob_b_better: float
    prob_in_rope: float
    prob_a_better: float
    rope: tuple
    p_value: float
    t_statistic: float
    scale: float
    df: int
    rho: float
    differences: Any
    fold_values_a: Any
    fold_values_b: Any
    metric: str
    n_folds: int

    @property
    def ci_prob(self) -> float:
        """Probability of the posterior interval (``confidence_level``)."""
        return self.confidence_level


def _check_rope(rope):
    if isinstance(rope, numbers.Real) and not isinstance(rope, bool):
        if not np.isfinite(rope) or rope < 0:
            raise ValueError(
                f"`rope` must be a finite number >= 0 or a (low, high) pair; got {plain(rope)}"
            )
        return (-float(rope), float(rope))
    try:
        low, high = (float(v) for v in rope)
    except (TypeError, ValueError):
        raise ValueError(
            f"`rope` must be a finite number >= 0 or a (low, high) pair; got {plain(rope)}"
        ) from None
    if not (np.isfinite(low) and np.isfinite(high) and low <= high):
        raise ValueError(f"`rope` must be a (low, high) pair with low <= high; got {plain(rope)}")
    return (low, high)


def _check_paired(prep_a, prep_b):
    if len(prep_a) != len(prep_b):
        raise ValueError(
            f"`folds_a` and `folds_b` must hold the same folds; got {len(prep_a)} and "
            f"{len(prep_b)} folds"
        )
    for i, (a, b) in enumerate(zip(prep_a, prep_b, strict=True)):
        if a.n_samples != b.n_samples or not np.array_equal(a.is_pos, b.is_pos):
            raise ValueError(
                f"`folds_b[{i}]` must have the labels of `folds_a[{i}]` (the same test "
                f"items); got {b.n_samples} samples ({b.n_pos} positive) against "
                f"{a.n_samples} ({a.n_pos} positive)"
            )


def compare_folds(
    folds_a,
    folds_b,
    *,
    metric="average_precision",
    rope=0.01,
    test_fraction=None,
    ci_prob=0.95,
    pos_label=None,
):
    r"""Compare two models fold by fold: the correlated Bayesian t-test (Corani & Benavoli).

    With :math:`d_j = m_{B,j} - m_{A,j}` the difference of the per-fold metrics on fold
    :math:`j` of :math:`k`, the posterior of the mean difference is Student's t with
    :math:`k - 1` degrees of freedom, location :math:`\bar d` and scale
    :math:`\sqrt{(1/k + \rho/(1-\rho))\, s_d^2}`, where :math:`\rho = n_\text{test} /
    (n_\text{test} + n_\text{train})` is Nadeau & Bengio's (2003) correlation of the
    folds (Corani & Benavoli 2015; baycomp's ``CorrelatedTTest``, with B as its ``y``).
    The same statistic gives the frequentist corrected paired t-test's p-value.

    Parameters
    ----------
    folds_a, folds_b : sequence of (y_true, y_score) pairs
        The two models' scores on the same folds (same labels, in the same order).
    metric : {"average_precision", "roc_auc"}, default "average_precision"
    rope : float or (float, float), default 0.01
        Region of practical equivalence of the difference: ``r`` means ``(-r, r)``.
    test_fraction : float in (0, 1), optional
        :math:`\rho`; defaults to ``1 / k`` (k-fold cross-validation). For ``r`` repeats
        of k-fold pass all ``r * k`` folds and ``1 / k`` (baycomp's ``runs=r``).
    ci_prob : float, default 0.95
        Probability of the equal-tailed posterior interval.
    pos_label : label, optional

    Returns
    -------
    FoldComparison

    References
    ----------
    G. Corani and A. Benavoli, "A Bayesian approach for comparing cross-validated
    algorithms on multiple data sets", Machine Learning 100(2), 2015, pp. 285-304.
    C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine Learning
    52(3), 2003, pp. 239-281. R. R. Bouckaert and E. Frank, PAKDD 2004, pp. 3-12.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc import compare_folds
    >>> rng = np.random.default_rng(0)
    >>> folds_a, folds_b = [], []
    >>> for _ in range(10):
    ...     y = rng.random(200) < 0.3
    ...     z = rng.normal(size=200)
    ...     folds_a.append((y, y * 1.0 + z))
    ...     folds_b.append((y, y * 1.5 + z + 0.3 * rng.normal(size=200)))
    >>> res = compare_folds(folds_a, folds_b, rope=0.01)
    >>> bool(res.prob_b_better > 0.95), res.df
    (True, 9)
    >>> round(res.prob_a_better + res.prob_in_rope + res.prob_b_better, 12)
    1.0
    """
    from scipy import stats

    metric = check_choice(metric, "metric", FOLD_METRICS)
    rope = _check_rope(rope)
    level = check_probability(ci_prob, "ci_prob")
    need_neg = metric == "roc_auc"
    prep_a = _check_folds(folds_a, "folds_a", pos_label, need_neg)
    prep_b = _check_folds(folds_b, "folds_b", pos_label, need_neg)
    _check_paired(prep_a, prep_b)
    k = len(prep_a)
    rho = _check_test_fraction(test_fraction, k)
    values_a = _metric_values(prep_a, metric)
    values_b = _metric_values(prep_b, metric)
    diff = values_b - values_a
    mean = float(diff.mean())
    scale = float(np.sqrt(_variance_factor("nadeau_bengio", k, rho) * diff.var(ddof=1)))
    df = k - 1
    if scale > 0:
        post = stats.t(df, loc=mean, scale=scale)
        p_a = float(post.cdf(rope[0]))
        p_b = float(post.sf(rope[1]))
        low, high = (float(v) for v in post.ppf([(1 - level) / 2, (1 + level) / 2]))
        t_stat = mean / scale
        p_value = float(2.0 * stats.t.sf(abs(t_stat), df))
    else:  # every fold gives the same difference: a point mass (as baycomp)
        p_a, p_b = float(mean < rope[0]), float(mean > rope[1])
        low = high = mean
        t_stat = np.nan if mean == 0 else np.copysign(np.inf, mean)
        p_value = 1.0 if mean == 0 else 0.0
    return FoldComparison(
        estimate=mean,
        low=low,
        high=high,
        confidence_level=level,
        method="correlated_t",
        prob_b_better=p_b,
        prob_in_rope=max(0.0, 1.0 - p_a - p_b),
        prob_a_better=p_a,
        rope=rope,
        p_value=p_value,
        t_statistic=float(t_stat),
        scale=scale,
        df=df,
        rho=rho,
        differences=frozen_float_array(diff),
        fold_values_a=frozen_float_array(values_a),
        fold_values_b=frozen_float_array(values_b),
        metric=metric,
        n_folds=k,
    )
