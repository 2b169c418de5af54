"""The bases of the posterior objects.

:class:`PosteriorDraws` is what every posterior object of the package shares
(:class:`~._posterior.BinormalPosterior`, :class:`~._score_model_fit.ScoreModelFit`,
:class:`~._pool.PoolPosterior`, :class:`~._multiclass.OvRPosterior`): an ArviZ DataTree
``idata`` with a ``posterior`` group of draws (chain, draw, ...), a default ``ci_prob``, a
credible ``interval`` of any posterior quantity and an ArviZ ``summary`` whose ESS is capped
at what importance-resampled draws are worth.

:class:`PosteriorBase` (draws of an analytic score model) holds what :class:`~._posterior.BinormalPosterior` and
:class:`~._score_model_fit.ScoreModelFit` share: the DataTree whose derived
``average_precision`` and ``roc_auc`` are added on first access, the draws of the PR
summaries computed from the analytic model (a whole curve per draw), the PR band and the
ArviZ summary and convergence diagnostics. A subclass sets ``model`` (parameter arrays of
shape (chain, draw)), ``_idata``, ``_derived_done``, ``ci_prob``, ``n``, ``n_pos`` and
defines ``_repr_head``.
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr

from .._core import check_choice, check_probability
from ._common import add_curve_summaries, cap_summary_ess, check_unit_grid
from ._idata import SAMPLE_DIMS
from ._summaries import pr_band

__all__ = ["PosteriorBase", "PosteriorDraws"]

CI_KINDS = ("hdi", "eti")


class PosteriorDraws:
    """The surface every posterior object shares: ``idata``, ``ci_prob``, ``interval``, ``summary``.

    A subclass provides ``idata`` (an ArviZ DataTree with a ``posterior`` group), ``ci_prob``
    (the default probability of its intervals) and, for importance-resampled draws,
    ``importance`` (a dict with ``ess_draws``), and names the rows of its ``summary``.
    """

    def _ci_prob(self, ci_prob):
        """``ci_prob`` checked, or the fit's default when None."""
        return self.ci_prob if ci_prob is None else check_probability(ci_prob, "ci_prob")

    def interval(self, quantity="average_precision", ci_prob=None, ci_kind="hdi"):
        """Credible interval of a posterior quantity.

        Parameters
        ----------
        quantity : str or xarray.DataArray
            The name of a posterior variable (``"average_precision"``, ``"roc_auc"``,
            ``"prevalence"``, a model parameter, ...) or draws with dims (chain, draw, ...).
        ci_prob : float, optional
            Probability of the interval; defaults to the fit's ``ci_prob``.
        ci_kind : {"hdi", "eti"}
            Highest density or equal-tailed interval.

        Returns
        -------
        xarray.DataArray
            With dim ``ci_bound`` = ["lower", "upper"] (after any dims of the quantity
            beyond chain and draw) and attrs ``ci_prob``, ``ci_kind``.
        """
        import arviz as az

        prob = self._ci_prob(ci_prob)
        check_choice(ci_kind, "ci_kind", CI_KINDS)
        da = self.idata["posterior"][quantity] if isinstance(quantity, str) else quantity
        out = (az.hdi if ci_kind == "hdi" else az.eti)(da, prob=prob)
        out.attrs.update({"ci_prob": prob, "ci_kind": ci_kind})
        return out

    def _repr_html_(self):
        """Notebook display: the one-line description and the ArviZ summary table."""
        import html

        table = self.summary().to_html(float_format=lambda v: f"{v:.4g}")
        return f"<p><b>{html.escape(repr(self))}</b></p>{table}"

    def _ess_cap(self):
        """The ESS resampled fast-sampler draws are worth (``importance["ess_draws"]``).

        None for draws that are not resampled from weighted ones (NUTS, exact, grid).
        """
        importance = getattr(self, "importance", None)
        return None if not importance else importance.get("ess_draws")

    def _summary(self, var_names, ci_prob, **kwargs):
        import arviz as az

        prob = self._ci_prob(ci_prob)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # R-hat of constant draws
            out = az.summary(self.idata, var_names=var_names, ci_prob=prob, **kwargs)
        return cap_summary_ess(out, self._ess_cap())


class PosteriorBase(PosteriorDraws):
    """Posterior draws of an analytic score model (base of the model posterior objects)."""

    @property
    def idata(self):
        """The ArviZ DataTree; AP and ROC AUC draws are added on first access."""
        if not self._derived_done:
            add_curve_summaries(self._idata, self.model)
            self._replace_curve_summaries()
            self._derived_done = True
        return self._idata

    def __repr__(self):
        ap = self.idata["posterior"]["average_precision"]
        return (
            f"{type(self).__name__}({self._repr_head()}n={self.n}, n_pos={self.n_pos}, "
            f"chains={ap.sizes['chain']}, draws={ap.sizes['draw']}, "
            f"AP mean={float(ap.mean()):.4f})"
        )

    def _replace_curve_summaries(self):
        """Hook: a subclass whose AP/ROC AUC are not the analytic curve's replaces them."""

    def _da(self, values, name, extra_dims=(), coords=None, attrs=None):
        post = self._idata["posterior"]
        return xr.DataArray(
            values,
            dims=(*SAMPLE_DIMS, *extra_dims),
            coords={"chain": post["chain"].values, "draw": post["draw"].values, **(coords or {})},
            name=name,
            attrs=attrs or {},
        )

    def _prevalence_kw(self, prevalence):
        """``{"prevalence": draws}`` for the model's methods (``{}`` for the fitted one)."""
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
        values = self.model.precision_at_recall(r, **self._prevalence_kw(prevalence))
        return self._da(values, "precision", ("recall",), {"recall": r})

    def _pr_band(self, recall, ci_prob, kind, prevalence):
        prob = self._ci_prob(ci_prob)
        return pr_band(self.model, recall, prob, kind, **self._prevalence_kw(prevalence))
