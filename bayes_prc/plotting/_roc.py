"""``ROCCurveDisplay``: the ROC curve with its posterior credible band and the empirical
curve."""

from __future__ import annotations

from ..empirical import as_ranked, roc_auc_score, roc_curve
from ._base import (
    BASELINE_COLOR,
    EMPIRICAL_COLOR,
    POSTERIOR_COLOR,
    DisplayMixin,
    check_pair,
    check_same_length,
    finish,
    get_axes,
    merge,
    optional_1d,
    percent,
    thin_curve,
    unit_axes,
)

__all__ = ["ROCCurveDisplay"]


class ROCCurveDisplay(DisplayMixin):
    """ROC curve: posterior median, pointwise credible band and the empirical curve.

    Parameters
    ----------
    fpr : array of shape (n_grid,), optional
        False-positive-rate grid of the posterior curve.
    tpr : array of shape (n_grid,), optional
        Posterior median true-positive rate.
    lower, upper : array of shape (n_grid,), optional
        Pointwise credible band.
    ci_prob : float, optional
    empirical_fpr, empirical_tpr : array, optional
        The empirical ROC curve (:func:`bayes_prc.roc_curve`), drawn as straight segments.
    roc_auc, empirical_roc_auc : float, optional
        Shown in the legend.
    name : str, optional
        Legend label of the median curve.

    Attributes
    ----------
    line_, empirical_line_, chance_line_ : matplotlib.lines.Line2D or None
    band_ : matplotlib.collections.PolyCollection or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import ROCCurveDisplay
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> disp = ROCCurveDisplay.from_posterior(post, y, s)
    >>> disp.ax_.get_xlabel(), disp.ax_.get_ylabel()
    ('False positive rate', 'True positive rate (recall)')
    """

    def __init__(
        self,
        *,
        fpr=None,
        tpr=None,
        lower=None,
        upper=None,
        ci_prob=None,
        empirical_fpr=None,
        empirical_tpr=None,
        roc_auc=None,
        empirical_roc_auc=None,
        name=None,
    ):
        self.fpr = optional_1d(fpr, "fpr")
        self.tpr = optional_1d(tpr, "tpr")
        self.lower = optional_1d(lower, "lower")
        self.upper = optional_1d(upper, "upper")
        check_pair(self.lower, self.upper, ("lower", "upper"))
        if self.fpr is None and any(v is not None for v in (self.tpr, self.lower)):
            raise ValueError("`fpr` (the grid) is needed to draw a posterior curve or band")
        check_same_length(fpr=self.fpr, tpr=self.tpr, lower=self.lower, upper=self.upper)
        self.empirical_fpr = optional_1d(empirical_fpr, "empirical_fpr")
        self.empirical_tpr = optional_1d(empirical_tpr, "empirical_tpr")
        check_pair(self.empirical_fpr, self.empirical_tpr, ("empirical_fpr", "empirical_tpr"))
        check_same_length(empirical_fpr=self.empirical_fpr, empirical_tpr=self.empirical_tpr)
        self.ci_prob = ci_prob
        self.roc_auc = roc_auc
        self.empirical_roc_auc = empirical_roc_auc
        self.name = name

    def plot(
        self,
        ax=None,
        *,
        name=None,
        legend=True,
        band_kw=None,
        empirical_kw=None,
        chance_kw=None,
        **kwargs,
    ):
        """Draw the band, the chance diagonal, the empirical and the median curve.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        name : str, optional
        legend : bool, default True
        band_kw, empirical_kw, chance_kw : dict, optional
        **kwargs
            Passed to ``ax.plot`` for the posterior median curve.

        Returns
        -------
        ROCCurveDisplay
        """
        ax, fig = get_axes(ax)
        name = self.name if name is None else name
        ci = f"{percent(self.ci_prob)} " if self.ci_prob is not None else ""
        self.line_ = self.band_ = self.empirical_line_ = None
        if self.lower is not None:
            style = {
                "color": POSTERIOR_COLOR,
                "alpha": 0.32,
                "linewidth": 0,
                "label": f"{ci}pointwise credible band",
            }
            self.band_ = ax.fill_between(self.fpr, self.lower, self.upper, **merge(style, band_kw))
        style = {"color": BASELINE_COLOR, "linestyle": ":", "linewidth": 1.2, "label": "chance"}
        (self.chance_line_,) = ax.plot([0.0, 1.0], [0.0, 1.0], **merge(style, chance_kw))
        if self.empirical_fpr is not None:
            label = "empirical"
            if self.empirical_roc_auc is not None:
                label += f" (AUC {self.empirical_roc_auc:.3f})"
            style = {"color": EMPIRICAL_COLOR, "linewidth": 1.1, "label": label}
            (self.empirical_line_,) = ax.plot(
                self.empirical_fpr, self.empirical_tpr, **merge(style, empirical_kw)
            )
        if self.tpr is not None:
            label = name or "posterior median"
            if self.roc_auc is not None:
                label += f" (AUC {self.roc_auc:.3f})"
            style = {"color": POSTERIOR_COLOR, "linewidth": 2.0, "label": label}
            (self.line_,) = ax.plot(self.fpr, self.tpr, **merge(style, kwargs))
        unit_axes(ax, "False positive rate", "True positive rate (recall)")
        return finish(self, ax, fig, legend, "lower right")

    @classmethod
    def from_posterior(
        cls,
        posterior,
        y_true=None,
        y_score=None,
        *,
        fpr=None,
        ci_prob=None,
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Posterior ROC band (``posterior.roc_band``) and the empirical ROC from data.

        Parameters
        ----------
        posterior : BinormalPosterior
        y_true, y_score : array-like, optional
            Observed data for the empirical ROC curve. A prepared ``Ranked``
            (:func:`bayes_prc.empirical.as_ranked`) may be passed as ``y_true`` with
            ``y_score=None``.
        fpr : array-like, optional
            Grid of false-positive rates; default that of
            :meth:`BinormalPosterior.roc_band` (which computes the band).
        ci_prob : float, optional
            Band probability (equal-tailed); defaults to the fit's ``ci_prob``.
        pos_label, name, ax
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ROCCurveDisplay
        """
        band = posterior.roc_band(fpr=fpr, ci_prob=ci_prob)
        emp = {}
        if y_true is not None or y_score is not None:
            data = as_ranked(y_true, y_score, pos_label=pos_label)
            e_fpr, e_tpr = thin_curve(*roc_curve(data, None)[:2])
            emp = {
                "empirical_fpr": e_fpr,
                "empirical_tpr": e_tpr,
                "empirical_roc_auc": roc_auc_score(data, None),
            }
        disp = cls(
            fpr=band["fpr"].values,
            tpr=band["median"].values,
            lower=band["lower"].values,
            upper=band["upper"].values,
            ci_prob=band.attrs["ci_prob"],
            roc_auc=float(posterior.roc_auc().median()),
            name=name,
            **emp,
        )
        return disp.plot(ax=ax, **kwargs)
