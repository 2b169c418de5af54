"""The posterior of one per-class score model (:func:`bayes_prc.criticism.fit_score_models`).

:class:`ScoreModelFit` holds the NUTS draws of a model of :mod:`._score_models` and the
analytic model (:mod:`bayes_prc.models`) of those draws, from which the AP, the ROC AUC,
precision at recall and PR bands follow draw by draw.
"""

from __future__ import annotations

from ..models import Binormal, NormalMixtureScoreModel, StudentTScoreModel
from ._common import convergence_diagnostics
from ._posterior_base import PosteriorBase

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


class ScoreModelFit(PosteriorBase):
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

    def _repr_head(self):
        return f"name={self.name!r}, "

    def pr_band(self, recall=None, ci_prob=None, kind="pointwise", prevalence=None):
        """Credible band of the PR curve over a recall grid (as :meth:`BinormalPosterior.pr_band`).

        Parameters
        ----------
        recall : array-like, optional
            Recall grid in [0, 1]; default 201 equally spaced points.
        ci_prob : float, optional
            Probability of the band; default the fit's ``ci_prob`` (0.95).
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
        band = self._pr_band(recall, ci_prob, kind, prevalence)
        band.attrs["model"] = self.name
        return band

    def loo(self, pointwise=False):
        """PSIS-LOO of the score log-likelihood (:func:`arviz.loo`; Vehtari et al. 2017)."""
        import arviz as az

        return az.loo(self.idata, pointwise=pointwise, var_name="score")

    def summary(self, var_names=None, ci_prob=None):
        """ArviZ summary of the model parameters and the derived AP / ROC AUC."""
        if var_names is None:
            var_names = [v for v in _PARAM_VARS[self.name]] + ["average_precision", "roc_auc"]
        return self._summary(var_names, ci_prob)

    def diagnostics(self):
        """Max R-hat, min bulk/tail ESS over the model parameters, number of divergences."""
        return convergence_diagnostics(self._idata, list(_PARAM_VARS[self.name]))


_PARAM_VARS = {
    "binormal": ("prevalence", "mu", "sigma"),
    "binormal_logit": ("prevalence", "mu", "sigma"),
    "bi_t": ("prevalence", "mu", "sigma", "nu"),
    "mixture": ("prevalence", "weight", "mu", "sigma"),
}
