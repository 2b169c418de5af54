r"""McNemar's test of two classifiers at fixed thresholds on the same items.

:func:`mcnemar_test`: McNemar's (1947) test of equal accuracy of two classifiers at fixed
thresholds, from the items on which exactly one of them is right. The paired tests of a
ranking metric (permutation, DeLong) are in :mod:`bayes_prc.paired`.

References
----------
.. [1] McNemar, Q. (1947). "Note on the sampling error of the difference between
   correlated proportions or percentages". Psychometrika 12 (2): 153-157.
.. [2] Edwards, A. L. (1948). "Note on the 'correction for continuity' in testing the
   significance of the difference between correlated proportions". Psychometrika 13:
   185-187.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._core import (
    check_binary_target,
    check_paired_scores,
    plain,
)
from .._core.display import HTMLReprMixin

__all__ = ["MCNEMAR_EXACT_BELOW", "McNemarResult", "mcnemar_test"]

#: With ``exact=None``, McNemar's test is exact below this many discordant items.
MCNEMAR_EXACT_BELOW = 25


# --------------------------------------------------------------------------------------
# McNemar's test
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class McNemarResult(HTMLReprMixin):
    """Result of :func:`mcnemar_test`.

    Attributes
    ----------
    statistic : float
        Exact test: the smaller discordant count ``min(n_only_a_correct,
        n_only_b_correct)`` (the binomial test's statistic, as statsmodels reports it).
        Chi-square test: ``(|b - c| - 1)^2 / (b + c)`` with Edwards' continuity
        correction (no correction when ``b == c``, as R's ``mcnemar.test``).
    p_value : float
        Two-sided p-value.
    exact : bool
        Whether the exact binomial test was used.
    n_only_a_correct, n_only_b_correct : int
        The discordant counts: items that A classifies correctly and B wrongly, and the
        reverse (``b`` and ``c``).
    n_both_correct, n_both_wrong : int
        The concordant counts.
    table : ndarray of shape (2, 2)
        ``[[both correct, only A correct], [only B correct, both wrong]]``: rows are A
        correct / wrong, columns B correct / wrong (the layout of statsmodels'
        ``mcnemar``).
    accuracy_a, accuracy_b : float
        Accuracy of each classifier at its threshold.
    threshold_a, threshold_b : float
        The thresholds (``score >= threshold`` is classified positive).
    """

    statistic: float
    p_value: float
    exact: bool
    n_only_a_correct: int
    n_only_b_correct: int
    n_both_correct: int
    n_both_wrong: int
    table: np.ndarray
    accuracy_a: float
    accuracy_b: float
    threshold_a: float
    threshold_b: float


def _check_threshold(value, name):
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    if not ok or not np.isfinite(value):
        raise ValueError(f"`{name}` must be a finite number; got {plain(value)}")
    return float(value)


def _mcnemar_iv(y_true, score_a, score_b, threshold_a, threshold_b, exact, pos_label):
    y, a, b = check_paired_scores(y_true, score_a, score_b)
    is_pos, _, _ = check_binary_target(y, pos_label)
    threshold_a = _check_threshold(threshold_a, "threshold_a")
    threshold_b = (
        threshold_a if threshold_b is None else _check_threshold(threshold_b, "threshold_b")
    )
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ValueError(f"`exact` must be True, False or None; got {plain(exact)}")
    return is_pos, a, b, threshold_a, threshold_b


def mcnemar_test(
    y_true, score_a, score_b, threshold_a, threshold_b=None, *, exact=None, pos_label=None
):
    r"""McNemar's test: do two classifiers at fixed thresholds have the same accuracy?

    Each classifier labels an item positive when its score is at least its threshold.
    Only the items where exactly one classifier is right carry information: with ``b``
    items right only for A and ``c`` right only for B, under equal accuracy ``b`` is
    ``Binomial(b + c, 1/2)`` given ``b + c`` (McNemar 1947).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    score_a, score_b : array-like of shape (n_samples,)
        Scores of classifiers A and B for the same items, in the same order.
    threshold_a : float
        Threshold of A (``score_a >= threshold_a`` is classified positive).
    threshold_b : float, optional
        Threshold of B; default ``threshold_a``.
    exact : bool or None, default None
        ``True``: exact two-sided binomial test, ``p = min(1, 2 P(X <= min(b, c)))`` with
        ``X ~ Binomial(b + c, 1/2)``. ``False``: chi-square test with one degree of
        freedom and Edwards' (1948) continuity correction,
        :math:`(|b - c| - 1)^2 / (b + c)` (0 when ``b == c``). ``None``: exact when
        ``b + c`` is below :data:`MCNEMAR_EXACT_BELOW` (25, a common rule of thumb for
        the chi-square approximation), chi-square otherwise.
    pos_label : label, optional
        The positive label (default 1).

    Returns
    -------
    McNemarResult
        ``statistic``, ``p_value``, ``exact``, the discordant counts
        ``n_only_a_correct`` (b) and ``n_only_b_correct`` (c), the concordant counts, the
        2 x 2 ``table`` and both accuracies.

    Raises
    ------
    ValueError
        For scores or labels of different lengths, non-finite scores or thresholds, or an
        ``exact`` that is not a bool or None.

    Notes
    -----
    With no discordant item (``b + c = 0``) the classifiers agree on every item: the
    p-value is 1 and the statistic 0 for both tests (statsmodels gives NaN for the
    chi-square test there). For ``b == c`` the chi-square statistic is 0 (R's
    convention; statsmodels' formula gives ``1 / (b + c)``).

    References
    ----------
    .. [1] McNemar, Q. (1947). "Note on the sampling error of the difference between
       correlated proportions or percentages". Psychometrika 12 (2): 153-157.
    .. [2] Edwards, A. L. (1948). "Note on the 'correction for continuity' in testing
       the significance of the difference between correlated proportions".
       Psychometrika 13: 185-187.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.frequentist import mcnemar_test
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.4
    >>> a = y + rng.normal(0, 0.7, 400)  # B is less noisy than A
    >>> b = y + rng.normal(0, 0.6, 400)
    >>> res = mcnemar_test(y, a, b, 0.5)  # McNemar (1947), Edwards (1948)
    >>> res.n_only_a_correct, res.n_only_b_correct, res.exact
    (53, 82, False)
    >>> print(f"{res.statistic:.3f} {res.p_value:.4f}")
    5.807 0.0160
    >>> small = mcnemar_test(y[:60], a[:60], b[:60], 0.5)  # 20 discordant: exact
    >>> small.n_only_a_correct, small.n_only_b_correct, small.exact, round(small.p_value, 4)
    (6, 14, True, 0.1153)
    """
    is_pos, a, b, thr_a, thr_b = _mcnemar_iv(
        y_true, score_a, score_b, threshold_a, threshold_b, exact, pos_label
    )
    right_a = (a >= thr_a) == is_pos
    right_b = (b >= thr_b) == is_pos
    both = int(np.count_nonzero(right_a & right_b))
    only_a = int(np.count_nonzero(right_a & ~right_b))
    only_b = int(np.count_nonzero(~right_a & right_b))
    neither = int(is_pos.shape[0]) - both - only_a - only_b
    disc = only_a + only_b
    use_exact = disc < MCNEMAR_EXACT_BELOW if exact is None else bool(exact)
    if disc == 0:
        statistic, p = 0.0, 1.0
    elif use_exact:
        statistic = float(min(only_a, only_b))
        p = float(min(1.0, 2.0 * stats.binom.cdf(statistic, disc, 0.5)))
    else:
        corr = 1.0 if only_a != only_b else 0.0
        statistic = (abs(only_a - only_b) - corr) ** 2 / disc
        p = float(stats.chi2.sf(statistic, 1))
    table = np.array([[both, only_a], [only_b, neither]], dtype=np.int64)
    table.setflags(write=False)
    n = int(is_pos.shape[0])
    return McNemarResult(
        statistic=float(statistic),
        p_value=p,
        exact=use_exact,
        n_only_a_correct=only_a,
        n_only_b_correct=only_b,
        n_both_correct=both,
        n_both_wrong=neither,
        table=table,
        accuracy_a=(both + only_a) / n,
        accuracy_b=(both + only_b) / n,
        threshold_a=thr_a,
        threshold_b=thr_b,
    )
