"""``plot_posterior_summary``: six displays of one fit on one figure."""

from __future__ import annotations

from ._ap_forest import APForestDisplay
from ._pr import PRCurveDisplay
from ._predictive import PredictiveCurvesDisplay
from ._roc import ROCCurveDisplay
from ._score_ppc import ScorePPCDisplay
from ._threshold_curves import ThresholdCurvesDisplay

__all__ = ["plot_posterior_summary"]


def plot_posterior_summary(
    posterior,
    y_true,
    y_score,
    *,
    intervals=None,
    bootstrap_band=None,
    ci_prob=None,
    n_curves=30,
    random_seed=None,
    pos_label=None,
    figure=None,
):
    """One figure with the main views of a binormal fit, on a 2 x 3 grid.

    Top row: the PR curve with its credible bands (:class:`PRCurveDisplay`), the ROC
    curve (:class:`ROCCurveDisplay`) and the AP posterior with the frequentist intervals
    (:class:`APForestDisplay`). Bottom row: precision and recall against the threshold
    (:class:`ThresholdCurvesDisplay`), the posterior predictive spaghetti of empirical
    curves (:class:`PredictiveCurvesDisplay`) and the check of the score distributions
    (:class:`ScorePPCDisplay`).

    Parameters
    ----------
    posterior : BinormalPosterior
    y_true, y_score : array-like of shape (n_samples,)
        The data the model was fit on.
    intervals : sequence or mapping, optional
        Frequentist AP intervals for the forest panel (see :class:`APForestDisplay`).
    bootstrap_band : xarray.Dataset, mapping or tuple, optional
        Bootstrap PR band for the PR panel.
    ci_prob : float, optional
        Probability of every band and interval; defaults to the fit's ``ci_prob``.
    n_curves : int, default 30
        Number of simulated test sets in the predictive panel.
    random_seed : int, numpy.random.Generator or None
        For the predictive panel.
    pos_label : label, optional
    figure : matplotlib.figure.Figure or matplotlib.figure.SubFigure, optional
        Where to draw (it must be empty); default a new pyplot figure.

    Returns
    -------
    dict
        ``"pr"``, ``"roc"``, ``"ap"``, ``"thresholds"``, ``"predictive"``, ``"ppc"``:
        the six displays (all share ``figure_``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import bayes_prc as bp
    >>> from bayes_prc.plotting import plot_posterior_summary
    >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=250, random_seed=0)
    >>> displays = plot_posterior_summary(post, y, s, n_curves=10, random_seed=0)
    >>> sorted(displays), len(displays["pr"].figure_.axes) >= 6
    (['ap', 'ppc', 'pr', 'predictive', 'roc', 'thresholds'], True)
    """
    if figure is None:  # a pyplot figure: shown where it is made, as the displays
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=(16, 10), layout="constrained")
    axes = figure.subplots(2, 3)
    common = {"ci_prob": ci_prob, "pos_label": pos_label}
    out = {
        "pr": PRCurveDisplay.from_posterior(
            posterior, y_true, y_score, bootstrap_band=bootstrap_band, ax=axes[0, 0], **common
        ),
        "roc": ROCCurveDisplay.from_posterior(posterior, y_true, y_score, ax=axes[0, 1], **common),
        "ap": APForestDisplay.from_posterior(posterior, intervals, ci_prob=ci_prob, ax=axes[0, 2]),
        "thresholds": ThresholdCurvesDisplay.from_posterior(
            posterior, y_true, y_score, ax=axes[1, 0], **common
        ),
        "predictive": PredictiveCurvesDisplay.from_posterior(
            posterior,
            y_true,
            y_score,
            n_curves=n_curves,
            random_seed=random_seed,
            pos_label=pos_label,
            ax=axes[1, 1],
        ),
        "ppc": ScorePPCDisplay.from_posterior(posterior, y_true, y_score, ax=axes[1, 2], **common),
    }
    return out
