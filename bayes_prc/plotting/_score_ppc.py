"""``ScorePPCDisplay``: observed score histograms per class against the posterior
predictive densities."""

from __future__ import annotations

import numpy as np

from ._base import (
    CLASS_COLORS,
    DisplayMixin,
    check_pair,
    check_same_length,
    finish,
    float_1d,
    get_axes,
    merge,
    optional_1d,
    percent,
)

__all__ = ["ScorePPCDisplay"]


class ScorePPCDisplay(DisplayMixin):
    """Observed score histograms per class against the posterior predictive densities.

    For each class (``"neg"``, ``"pos"``): the density histogram of the observed scores
    on the scale the binormal model was fit on (logit/probit of the scores when the fit
    used a transform), the posterior predictive density (the mixture over posterior
    draws of the class's normal density) and a pointwise credible band of the per-draw
    densities. A histogram far outside its band means the normal model of that class is
    off (skew, heavy tails, bimodality), and the PR curve built on it is suspect.

    Drawn with plain matplotlib (not ArviZ's ``plot_ppc``) so the artists and numbers are
    under our control.

    Parameters
    ----------
    x : array of shape (n_grid,)
        Score grid (fitted scale) of the densities.
    bin_edges : array of shape (n_bins + 1,)
        Histogram bin edges, shared by both classes.
    hist_neg, hist_pos : array of shape (n_bins,)
        Observed density histograms (each integrates to 1).
    density_neg, density_pos : array of shape (n_grid,)
        Posterior predictive density of each class.
    lower_neg, upper_neg, lower_pos, upper_pos : array of shape (n_grid,), optional
        Pointwise credible bands of the per-draw densities.
    ci_prob : float, optional
    xlabel : str, default "Score"

    Attributes
    ----------
    hist_ : dict of {"neg", "pos"} -> matplotlib.patches.StepPatch
    lines_ : dict of {"neg", "pos"} -> matplotlib.lines.Line2D
    bands_ : dict of {"neg", "pos"} -> matplotlib.collections.PolyCollection or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import ScorePPCDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = ScorePPCDisplay.from_posterior(post, y, s)
    >>> sorted(disp.hist_), disp.ax_.get_ylabel()
    (['neg', 'pos'], 'Density')
    """

    def __init__(
        self,
        x,
        bin_edges,
        hist_neg,
        hist_pos,
        density_neg,
        density_pos,
        *,
        lower_neg=None,
        upper_neg=None,
        lower_pos=None,
        upper_pos=None,
        ci_prob=None,
        xlabel="Score",
    ):
        self.x = float_1d(x, "x")
        self.bin_edges = float_1d(bin_edges, "bin_edges")
        self.hist_neg = float_1d(hist_neg, "hist_neg")
        self.hist_pos = float_1d(hist_pos, "hist_pos")
        if not (self.hist_neg.shape[0] == self.hist_pos.shape[0] == self.bin_edges.shape[0] - 1):
            raise ValueError(
                "`hist_neg` and `hist_pos` must have len(bin_edges) - 1 = "
                f"{self.bin_edges.shape[0] - 1} values; got {self.hist_neg.shape[0]} and "
                f"{self.hist_pos.shape[0]}"
            )
        self.density_neg = float_1d(density_neg, "density_neg")
        self.density_pos = float_1d(density_pos, "density_pos")
        self.lower_neg, self.upper_neg = (
            optional_1d(lower_neg, "lower_neg"),
            optional_1d(upper_neg, "upper_neg"),
        )
        self.lower_pos, self.upper_pos = (
            optional_1d(lower_pos, "lower_pos"),
            optional_1d(upper_pos, "upper_pos"),
        )
        check_pair(self.lower_neg, self.upper_neg, ("lower_neg", "upper_neg"))
        check_pair(self.lower_pos, self.upper_pos, ("lower_pos", "upper_pos"))
        check_same_length(
            x=self.x,
            density_neg=self.density_neg,
            density_pos=self.density_pos,
            lower_neg=self.lower_neg,
            upper_neg=self.upper_neg,
            lower_pos=self.lower_pos,
            upper_pos=self.upper_pos,
        )
        self.ci_prob = ci_prob
        self.xlabel = xlabel

    def plot(self, ax=None, *, legend=True, colors=None, hist_kw=None, band_kw=None, **kwargs):
        """Draw both histograms, bands and predictive densities.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        legend : bool, default True
        colors : dict, optional
            Colours per class, e.g. ``{"neg": "C0", "pos": "C3"}`` (the default).
        hist_kw, band_kw : dict, optional
            Keyword arguments of the histograms (``ax.stairs``) and the bands.
        **kwargs
            Passed to ``ax.plot`` for the predictive density lines.

        Returns
        -------
        ScorePPCDisplay
        """
        ax, fig = get_axes(ax)
        colors = merge(CLASS_COLORS, colors)
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        self.hist_, self.lines_, self.bands_ = {}, {}, {}
        names = {"neg": "negatives", "pos": "positives"}
        for cls_ in ("neg", "pos"):
            c = colors[cls_]
            style = {"color": c, "linewidth": 1.4, "label": f"{names[cls_]}: observed"}
            self.hist_[cls_] = ax.stairs(
                getattr(self, f"hist_{cls_}"), self.bin_edges, **merge(style, hist_kw)
            )
            lower, upper = getattr(self, f"lower_{cls_}"), getattr(self, f"upper_{cls_}")
            self.bands_[cls_] = None
            if lower is not None:
                style = {
                    "color": c,
                    "alpha": 0.2,
                    "linewidth": 0,
                    "label": f"{names[cls_]}: {ci}band",
                }
                self.bands_[cls_] = ax.fill_between(self.x, lower, upper, **merge(style, band_kw))
            style = {"color": c, "linewidth": 2.0, "label": f"{names[cls_]}: posterior predictive"}
            (self.lines_[cls_],) = ax.plot(
                self.x, getattr(self, f"density_{cls_}"), **merge(style, kwargs)
            )
        ax.set(xlabel=self.xlabel, ylabel="Density")
        ax.set_ylim(bottom=0.0)
        return finish(self, ax, fig, legend)

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true,
        y_score,
        *,
        ci_prob=None,
        bins="auto",
        n_points=300,
        n_draws=None,
        random_seed=None,
        pos_label=None,
        ax=None,
        **kwargs,
    ):
        """Histograms of the data and predictive densities of the fit, on the fitted scale.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like of shape (n_samples,)
            The data the model was fit on (original scale), or a ``Ranked`` as
            ``y_true``. Their histograms come from ``posterior.score_histograms`` (the
            fit's transform applied) and the densities from ``posterior.score_density``.
        ci_prob : float, optional
            Probability of the density bands (equal-tailed); defaults to the fit's.
        bins : int, sequence or str, default "auto"
            :func:`numpy.histogram_bin_edges` of all fitted-scale scores.
        n_points : int, default 300
            Grid size of the densities (the bins' range padded by 10%).
        n_draws : int, optional
            Use a random subset of this many posterior draws (default all draws).
        random_seed : int, numpy.random.Generator or None
            For the subset.
        pos_label, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ScorePPCDisplay
        """
        hist = posterior.score_histograms(y_true, y_score, bins=bins, pos_label=pos_label)
        edges = hist["bin_edges"].values
        pad = 0.1 * (edges[-1] - edges[0])
        x = np.linspace(edges[0] - pad, edges[-1] + pad, int(n_points))
        dens = posterior.score_density(x, ci_prob=ci_prob, n_draws=n_draws, random_seed=random_seed)
        out = {}
        for cls_ in ("neg", "pos"):
            out[f"hist_{cls_}"] = hist["density"].sel({"class": cls_}).values
            for var in ("density", "lower", "upper"):
                out[f"{var}_{cls_}"] = dens[var].sel({"class": cls_}).values
        xlabel = {None: "Score", "logit": "logit(score)", "probit": "probit(score)"}[
            posterior.transform
        ]
        disp = cls(x, edges, ci_prob=dens.attrs["ci_prob"], xlabel=xlabel, **out)
        return disp.plot(ax=ax, **kwargs)
