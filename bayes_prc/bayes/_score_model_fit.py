"""The posterior of one per-class score model (:func:`bayes_prc.criticism.fit_score_models`).

:class:`ScoreModelFit` holds the NUTS draws of a model of :mod:`._score_models` and the
analytic model (:mod:`bayes_prc.models`) of those draws, from which the AP, the ROC AUC,
precision at recall and PR bands follow draw by draw.
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr

from .._validation import check_probability
from ..models import Binormal, NormalMixtureScoreModel, StudentTScoreModel
from ._common import add_curve_summaries, check_unit_grid, convergence_diagnostics
from ._idata import SAMPLE_DIMS
from ._summaries import pr_band

__all__ = ["ScoreModelFit"]


def _model_from_posterior(name, post, location, scale):
    """The analytic model (parameter arrays of shape (chain, draw)) on the fitted scale."""
    prevalence = post["prevalence"].values
    mu = location + scale * post["mu"].values
    sigma = scale * post["sigma"].values
    if name in ("binormal", "binormal_logit"):
        return Binormal(mu[..., 1], sigma[..., 1], mu[..., 0], sigma[..., 0], prevalence)
    if name == "bi_t":
        nu = post["nu"].values
        return StudentTScoreModel(
            mu[..., 1], sigma[..., 1], nu[..., 1], mu[..., 0], sigma[..., 0], nu[..., 0], prevalence
        )
    weight = post["weight"].values
    return NormalMixtureScoreModel(
        weight[..., 1, :],
        mu[..., 1, :],
        sigma[..., 1, :],
        weight[..., 0, :],
        mu[..., 0, :],
        sigma[..., 0, :],
        prevalence,
    )


class ScoreModelFit:
    """Posterior of one score model (built by :func:`bayes_prc.fit_score_models`).

    Attributes
    ----------
    name : str
        ``"binormal"``, ``"binormal_logit"``, ``"bi_t"`` or ``"mixture"``.
    idata : xarray.DataTree
        ArviZ DataTree with groups ``posterior`` (model variables on standardized scores,
        over dims ``class`` and, for the mixture, ``component``; plus the derived
        ``average_precision`` and ``roc_auc``), ``log_likelihood`` (``score`` over dim
        ``item``: the log density of each item's *original* score, Jacobians included),
        ``observed_data``, ``constant_data`` (the original scores, labels and
        log-Jacobians) and ``sample_stats``.
    model : Binormal, StudentTScoreModel or NormalMixtureScoreModel
        The analytic model with parameter arrays of shape (chain, draw), on the fitted
        score scale (the logit scale for ``"binormal_logit"``).
    transform : None or "logit"
    location, scale : float
        The standardization: fitted-scale score = location + scale * standardized.
    ci_prob : float
        Default probability of bands and intervals.
    n, n_pos : int
    """

    def __init__(self):  # pragma: no cover - built by fit_score_models
        raise TypeError("ScoreModelFit objects are created by bayes_prc.fit_score_models")

    @classmethod
    def _from_idata(cls, *, name, idata, transform, location, scale, ci_prob, n, n_pos):
        self = object.__new__(cls)
        self.name = name
        self.transform = transform
        self.location = location
        self.scale = scale
        self.ci_prob = ci_prob
        self.n = n
        self.n_pos = n_pos
        self.model = _model_from_posterior(name, idata["posterior"], location, scale)
        self._idata = idata
        self._derived_done = False
        return self

    @property
    def idata(self):
        """The ArviZ DataTree; AP and ROC AUC draws are added on first access."""
        if not self._derived_done:
            add_curve_summaries(self._idata, self.model)
            self._derived_done = True
        return self._idata

    def __repr__(self):
        ap = self.idata["posterior"]["average_precision"]
        return (
            f"ScoreModelFit(name={self.name!r}, n={self.n}, n_pos={self.n_pos}, "
            f"chains={ap.sizes['chain']}, draws={ap.sizes['draw']}, "
            f"AP mean={float(ap.mean()):.4f})"
        )

    def _da(self, values, name, extra_dims=(), coords=None):
        post = self._idata["posterior"]
        return xr.DataArray(
            values,
            dims=(*SAMPLE_DIMS, *extra_dims),
            coords={"chain": post["chain"].values, "draw": post["draw"].values, **(coords or {})},
            name=name,
        )

    def _prevalence_kw(self, prevalence):
        if prevalence is None:
            return {}
        arr = np.asarray(prevalence, dtype=np.float64)
        if arr.ndim and arr.shape != self.model.batch_shape:
            raise ValueError(
                "`prevalence` must be a number in (0, 1) or an array of draws of shape "
                f"{self.model.batch_shape}; got shape {arr.shape}"
            )
        return {"prevalence": arr}

    def average_precision(self, prevalence=None):
        """Posterior draws of the AP under this model, dims (chain, draw).

        Parameters
        ----------
        prevalence : float or array of shape (chain, draw), optional
            AP at another prevalence than the fitted one.
        """
        kw = self._prevalence_kw(prevalence)
        if not kw:
            return self.idata["posterior"]["average_precision"].copy()
        return self._da(self.model.average_precision(**kw), "average_precision")

    def roc_auc(self):
        """Posterior draws of the ROC AUC, dims (chain, draw)."""
        return self.idata["posterior"]["roc_auc"].copy()

    def precision_at_recall(self, recall, prevalence=None):
        """Posterior draws of precision at the given recall(s): dims (chain, draw, recall)."""
        r = check_unit_grid(recall, "recall")
        kw = self._prevalence_kw(prevalence)
        values = self.model.precision_at_recall(r, **kw)
        return self._da(values, "precision", ("recall",), {"recall": r})

    def pr_band(self, recall=None, ci_prob=None, kind="pointwise", prevalence=None):
        """Credible band of the PR curve over a recall grid (as :meth:`BinormalPosterior.pr_band`).

        Parameters
        ----------
        recall : array-like, optional
            Recall grid in [0, 1]; default 201 equally spaced points.
        ci_prob : float, optional
            Probability of the band; default the fit's ``ci_prob`` (0.94).
        kind : {"pointwise", "simultaneous"}
            Pointwise equal-tailed intervals, or a band containing whole posterior curves
            with probability ``ci_prob`` (extremal depth, as in ``BinormalPosterior``).
        prevalence : float, optional
            Band at another prevalence.

        Returns
        -------
        xarray.Dataset
            ``lower``, ``median``, ``upper`` over dim ``recall``; attrs ``ci_prob``,
            ``kind``, ``ci_kind`` (and ``coverage`` for simultaneous bands), ``model``.
        """
        prob = self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")
        band = pr_band(self.model, recall, prob, kind, **self._prevalence_kw(prevalence))
        band.attrs["model"] = self.name
        return band

    def loo(self, pointwise=False):
        """PSIS-LOO of the score log-likelihood (:func:`arviz.loo`; Vehtari et al. 2017)."""
        import arviz as az

        return az.loo(self.idata, pointwise=pointwise, var_name="score")

    def summary(self, var_names=None, ci_prob=None):
        """ArviZ summary of the model parameters and the derived AP / ROC AUC."""
        import arviz as az

        if var_names is None:
            var_names = [v for v in _PARAM_VARS[self.name]] + ["average_precision", "roc_auc"]
        prob = self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return az.summary(self.idata, var_names=var_names, ci_prob=prob)

    def diagnostics(self):
        """Max R-hat, min bulk/tail ESS over the model parameters, number of divergences."""
        return convergence_diagnostics(self._idata, list(_PARAM_VARS[self.name]))


_PARAM_VARS = {
    "binormal": ("prevalence", "mu", "sigma"),
    "binormal_logit": ("prevalence", "mu", "sigma"),
    "bi_t": ("prevalence", "mu", "sigma", "nu"),
    "mixture": ("prevalence", "weight", "mu", "sigma"),
}
