"""The ranking of k classifiers: differences as a forest, rank sets as bars."""

from __future__ import annotations

import numpy as np

from ._base import DisplayMixin, float_1d, merge

__all__ = ["ModelComparisonDisplay"]


class ModelComparisonDisplay(DisplayMixin):
    """Forest of the pairs' differences and each model's simultaneous rank set.

    Parameters
    ----------
    models : sequence of str
        Model names, best first.
    rank, rank_low, rank_high : array-like of shape (k,)
        Each model's rank and its simultaneous rank set.
    pairs : sequence of str
        Pair labels (``"a - b"``).
    difference, low, high : array-like of shape (n_pairs,)
        Each pair's difference and simultaneous interval.
    metric : str
        Axis label of the differences.
    ci_prob : float

    Attributes
    ----------
    ax_ : tuple of matplotlib.axes.Axes
        The forest of differences and the rank sets.
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> rng = np.random.default_rng(0)
    >>> y = (rng.random(300) < 0.3).astype(int)
    >>> s = y[:, None] + rng.normal(size=(300, 3)) * [0.5, 0.6, 1.5]
    >>> res = bp.compare_models(y, s, random_seed=0, n_resamples=300)
    >>> disp = bp.plotting.ModelComparisonDisplay.from_comparison(res)
    >>> len(disp.ax_)
    2
    """

    def __init__(
        self, models, rank, rank_low, rank_high, pairs, difference, low, high, *, metric, ci_prob
    ):
        self.models = [str(m) for m in models]
        self.rank = float_1d(rank, "rank")
        self.rank_low = float_1d(rank_low, "rank_low")
        self.rank_high = float_1d(rank_high, "rank_high")
        self.pairs = [str(p) for p in pairs]
        self.difference = float_1d(difference, "difference")
        self.low = float_1d(low, "low")
        self.high = float_1d(high, "high")
        self.metric = metric
        self.ci_prob = float(ci_prob)

    def plot(self, ax=None, *, point_kw=None, **kwargs):
        """Draw on two axes ``ax = (forest, ranks)``, or on a new figure of two panels.

        Returns
        -------
        ModelComparisonDisplay
        """
        if ax is None:
            import matplotlib.pyplot as plt

            n = max(len(self.pairs), len(self.models))
            figure, ax = plt.subplots(1, 2, figsize=(9.0, 1.2 + 0.32 * n), layout="constrained")
        forest, ranks = ax
        y = np.arange(len(self.pairs))[::-1]
        declared = (self.low > 0) | (self.high < 0)
        colors = np.where(declared, "C3", "0.45")
        forest.hlines(y, self.low, self.high, colors=colors, lw=2)
        forest.scatter(self.difference, y, **merge({"color": "black", "zorder": 3}, point_kw or {}))
        forest.axvline(0.0, color="0.3", lw=0.8, ls="--")
        forest.set_yticks(y, self.pairs)
        forest.set_xlabel(f"difference of {self.metric} (a - b)")
        forest.set_title(f"pairs, simultaneous {self.ci_prob:g} intervals")
        yr = np.arange(len(self.models))[::-1]
        ranks.hlines(yr, self.rank_low - 0.3, self.rank_high + 0.3, colors="C0", lw=6, alpha=0.5)
        ranks.scatter(self.rank, yr, color="black", zorder=3, **kwargs)
        ranks.set_yticks(yr, self.models)
        ranks.set_xticks(np.arange(1, len(self.models) + 1))
        ranks.set_xlim(0.5, len(self.models) + 0.5)
        ranks.set_xlabel("rank (1 = best)")
        ranks.set_title(f"rank sets, all at once at {self.ci_prob:g}")
        self.ax_ = (forest, ranks)
        self.figure_ = forest.figure
        return self

    @classmethod
    def from_comparison(cls, comparison, *, ax=None, **kwargs):
        """Draw a :class:`~bayes_prc.ranking.ModelComparison`.

        Returns
        -------
        ModelComparisonDisplay
        """
        t, p = comparison.table, comparison.pairs
        labels = [f"{a} - {b}" for a, b in p.index]
        metric = "AP" if comparison.metric == "average_precision" else "ROC AUC"
        disp = cls(
            list(t.index),
            t["rank"].to_numpy(),
            t["rank_low"].to_numpy(),
            t["rank_high"].to_numpy(),
            labels,
            p["difference"].to_numpy(),
            p["low"].to_numpy(),
            p["high"].to_numpy(),
            metric=metric,
            ci_prob=comparison.ci_prob,
        )
        return disp.plot(ax=ax, **kwargs)
