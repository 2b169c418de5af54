"""The ranking of k classifiers: differences as a forest, rank sets as bars."""

from __future__ import annotations

import numpy as np

from ._base import DisplayMixin, float_1d, merge

__all__ = ["ModelComparisonDisplay"]

#: Height of one row of the forest or of the rank sets (a 10 pt label is 0.14 inch).
_ROW_INCHES = 0.3


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
    of_pairs : int, optional
        How many pairs there are in all, when ``pairs`` is a selection of them (the title
        then says so).

    Attributes
    ----------
    ax_ : tuple of matplotlib.axes.Axes
        The forest of differences and the rank sets.
    figure_ : matplotlib.figure.Figure
    figsize : (float, float)
        The figure size the display asks for (inches): 0.3 inch per row of the taller
        panel, so that labels do not overlap at any k.

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
        self,
        models,
        rank,
        rank_low,
        rank_high,
        pairs,
        difference,
        low,
        high,
        *,
        metric,
        ci_prob,
        of_pairs=None,
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
        self.of_pairs = len(self.pairs) if of_pairs is None else int(of_pairs)

    @property
    def figsize(self):
        """``(width, height)`` in inches: the height grows with the rows drawn."""
        rows = max(len(self.pairs), len(self.models))
        return (9.0, 1.2 + _ROW_INCHES * rows)

    def plot(self, ax=None, *, point_kw=None, **kwargs):
        """Draw on two axes ``ax = (forest, ranks)``, or on a new figure of two panels.

        Returns
        -------
        ModelComparisonDisplay
        """
        from matplotlib.ticker import MaxNLocator

        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(1, 2, figsize=self.figsize, layout="constrained")
        forest, ranks = ax
        y = np.arange(len(self.pairs))[::-1]
        declared = (self.low > 0) | (self.high < 0)
        colors = np.where(declared, "C3", "0.45")
        forest.hlines(y, self.low, self.high, colors=colors, lw=2)
        forest.scatter(self.difference, y, **merge({"color": "black", "zorder": 3}, point_kw or {}))
        forest.axvline(0.0, color="0.3", lw=0.8, ls="--")
        forest.set_yticks(y, self.pairs)
        forest.set_xlabel(f"difference of {self.metric} (a - b)")
        which = (
            "pairs"
            if self.of_pairs == len(self.pairs)
            else f"{len(self.pairs)} adjacent pairs of {self.of_pairs}"
        )
        forest.set_title(f"{which},\nsimultaneous {self.ci_prob:g} intervals")
        forest.xaxis.set_major_locator(MaxNLocator(nbins=4))
        yr = np.arange(len(self.models))[::-1]
        ranks.hlines(yr, self.rank_low - 0.3, self.rank_high + 0.3, colors="C0", lw=6, alpha=0.5)
        ranks.scatter(self.rank, yr, color="black", zorder=3, **kwargs)
        ranks.set_yticks(yr, self.models)
        k = len(self.models)
        if k <= 8:
            ranks.set_xticks(np.arange(1, k + 1))
        else:  # round ranks (5, 10, ...), readable at phone text sizes
            ranks.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        ranks.set_xlim(0.5, k + 0.5)
        ranks.set_xlabel("rank (1 = best)")
        ranks.set_title(f"rank sets,\nall at once at {self.ci_prob:g}")
        self.ax_ = (forest, ranks)
        self.figure_ = forest.figure
        return self

    @classmethod
    def from_comparison(cls, comparison, *, ax=None, max_pairs=10, **kwargs):
        """Draw a :class:`~bayes_prc.ranking.ModelComparison`.

        Parameters
        ----------
        comparison : ModelComparison
        ax : pair of matplotlib.axes.Axes, optional
        max_pairs : int, default 10
            With more pairs than this (k > 5 models), the forest shows the k - 1 adjacent
            pairs of the ranking (each model against the next one down the table), the
            ones the rank sets turn on, so that both panels have k rows; every pair stays
            in ``comparison.pairs``.

        Returns
        -------
        ModelComparisonDisplay
        """
        t, p = comparison.table, comparison.pairs
        of_pairs = len(p)
        if of_pairs > max_pairs:
            adjacent = [
                (a, b) for a, b in zip(t.index[:-1], t.index[1:], strict=True) if (a, b) in p.index
            ]
            if adjacent:  # (with `reference`, the pairs are not adjacent ones)
                p = p.loc[adjacent]
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
            of_pairs=of_pairs,
        )
        return disp.plot(ax=ax, **kwargs)
