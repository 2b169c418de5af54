"""``BinormalPosterior``: posterior draws pushed through the analytic binormal PR curve.

Every draw (chain, draw) is a whole binormal model, hence a whole PR curve. Bands, AP,
operating points and thresholds are computed per draw and summarized afterwards, so they
are mutually coherent. Outputs follow ArviZ conventions: :mod:`xarray` objects with
dims ``chain`` and ``draw``, interval bounds as a ``ci_bound`` dim (``lower``,
``upper``) and attributes saying the kind and probability of the interval.

What it shares with :class:`~._score_model_fit.ScoreModelFit` (lazy derived AP / ROC
AUC, the draws of AP and precision at recall, the PR band, the ArviZ summary) is in the
base class :class:`~._posterior_base.PosteriorBase`. The PR band and the predictive
curves are computed in :mod:`._summaries`, which also holds the base class
:class:`~._summaries.DisplaySummaries` giving the posterior its display summaries
(``roc_band``, ``threshold_band``, ``ap_density``, ``score_density``,
``score_histograms``).
"""

from __future__ import annotations

import hashlib

import numpy as np
import xarray as xr

from .._core import check_bool, check_choice, check_probability, check_random_state, plain
from .._core.transforms import forward, inverse
from ._common import DEFAULT_RECALL, check_unit_grid, convergence_diagnostics, warn_if_unreliable
from ._idata import (
    binormal_idata,
    contaminated_idata,
    flexible_idata,
    ordinal_dataset,
    statistics_dataset,
)
from ._ordinal import RANK_MODELS, latent_to_score, score_to_latent
from ._posterior_base import PosteriorBase
from ._summaries import (
    DisplaySummaries,
    curve_band,
    pool_curves,
    precision_one_reach,
    predictive_curves,
    reach_precision_one,
)
from ._tied import tied_curve_summaries

__all__ = ["AVERAGED_MODELS", "BinormalPosterior"]

#: The rank-based models pooled (equal weights) by the model-averaged PR band.
AVERAGED_MODELS = ("semiparametric", "contaminated", "flexible")

_MODEL_WORDS = {
    "semiparametric": "rank-based binormal posterior",
    "contaminated": "contaminated binormal posterior",
    "flexible": "flexible ROC posterior",
    "parametric": "parametric binormal posterior",
}


def _band_label(source, kind):
    """The band in words, as :func:`bayes_prc.compare_bands` labels it."""
    if source == "averaged":
        what = "rank-based models averaged (binormal, contaminated, mixture)"
    else:
        what = _MODEL_WORDS[source]
    return f"{what}, {kind}"


class BinormalPosterior(DisplaySummaries, PosteriorBase):
    """Posterior of the binormal model of the scores (returned by :func:`fit_binormal`).

    Attributes
    ----------
    idata : xarray.DataTree
        ArviZ DataTree: group ``posterior`` holds the model variables on standardized
        scores (``prevalence``, ``mu``, ``sigma2``, ``sigma`` over dim ``class``), the
        class parameters on the fitted score scale (``mu_pos``, ``sigma_pos``, ``mu_neg``,
        ``sigma_neg``; the logit/probit scale when a transform was used) and the derived
        ``average_precision`` and ``roc_auc``; ``observed_data`` holds the sufficient
        statistics; NUTS fits also carry ``sample_stats``.
    model : Binormal
        The analytic model with parameter arrays of shape (chain, draw).
    method, transform, ci_prob, priors, location, scale, n, n_pos
        How the fit was made.
    design_effect, n_clusters : float or None
        With ``groups``: the clusters' design effect that tempered the likelihood, and
        the number of clusters; None otherwise.
    tied_values : ndarray or None
        Rank-based models on genuinely discrete scores (at most ``n / 4`` distinct values,
        :func:`~bayes_prc.bayes._tied.discrete_values`): the distinct score values. The
        AP and ROC AUC draws (``average_precision()``, ``roc_auc()``, the intervals) are
        then those of the tied step curve over these values, ties grouped as
        scikit-learn groups them (a tie counts 1/2 in the AUC): the AP and AUC of the
        score as it is. None otherwise (the latent curve's AP and AUC).
    """

    design_effect = None
    n_clusters = None
    _n_above = None  # positives above every negative (set by fit_binormal's rank-based fits)
    # fit_binormal's companion fitter (bayes._fit.fit_companion), set on its rank-based fits
    # (a reference, not an import: _fit already imports this module)
    _fit_companion = None
    tied_values = None

    def __init__(self):  # pragma: no cover - built by fit_binormal
        raise TypeError("BinormalPosterior objects are created by bayes_prc.fit_binormal")

    # ----------------------------------------------------------------------------------
    @classmethod
    def _from_fit(
        cls,
        *,
        std_draws,
        idata,
        method,
        transform,
        priors,
        location,
        scale,
        stats,
        ci_prob,
        n,
        ordinal=None,
        model_type="parametric",
    ):

        self = object.__new__(cls)
        self.model_type = model_type
        self.ordinal = ordinal
        self.method = method
        self.transform = transform
        self.priors = priors
        self.location = location
        self.scale = scale
        self.ci_prob = ci_prob
        self.n = n
        self._stats = stats
        self.n_pos = ordinal.n_pos if stats is None else stats[1].n
        if model_type == "flexible":  # N(0, 1) negatives, mixture positives: see _flexible
            self.model, idata = flexible_idata(std_draws, idata, method)
        elif model_type == "contaminated":  # two-component mixtures: see _contaminated
            self.model, idata = contaminated_idata(std_draws, idata, method)
        else:
            self.model, idata = binormal_idata(
                std_draws, idata, method, model_type, location, scale
            )
        if model_type == "parametric":
            idata["observed_data"] = statistics_dataset(stats, location, scale, transform)
        else:
            self._cutpoints = idata["posterior"]["cutpoints"].values
            idata["observed_data"] = ordinal_dataset(ordinal)
        self._idata = idata
        self._derived_done = False
        return self

    # ----------------------------------------------------------------------------------
    def _repr_head(self):
        return f"model={self.model_type!r}, method={self.method!r}, transform={self.transform!r}, "

    def _prevalence_kw(self, prevalence):
        if prevalence is not None and np.ndim(prevalence) == 0:
            check_probability(float(np.asarray(prevalence, dtype=np.float64)), "prevalence")
        return super()._prevalence_kw(prevalence)

    def _model_at(self, prevalence):
        return self.model, self._prevalence_kw(prevalence)

    # ------------------------------------------------------------ latent <-> score scale
    def _to_score(self, t):
        """Thresholds on the model's scale -> original score scale, draw by draw."""
        if self.model_type in RANK_MODELS:
            return latent_to_score(t, self.ordinal, self._cutpoints)
        return inverse(t, self.transform)

    def _to_latent(self, threshold):
        """Score thresholds -> the model's scale; shape (chain, draw) + threshold's shape."""
        thr = np.asarray(threshold, dtype=np.float64)
        if self.model_type in RANK_MODELS:
            return score_to_latent(thr, self.ordinal, self._cutpoints)
        if self.transform is not None:
            thr = forward(np.clip(thr, 1e-300, 1 - 1e-16), self.transform)
        return np.broadcast_to(thr, self.model.batch_shape + thr.shape)

    def _threshold_grid(self, threshold):
        thr = np.atleast_1d(np.asarray(threshold, dtype=np.float64))
        if thr.ndim != 1 or not np.all(np.isfinite(thr)):
            raise ValueError(
                f"`threshold` must be a finite number or 1-D array; got {plain(threshold)}"
            )
        return thr

    def precision_at_threshold(self, threshold, prevalence=None):
        """Posterior draws of precision when ``score >= threshold`` is called positive.

        Thresholds are on the original score scale. Dims (chain, draw, threshold).
        """
        thr = self._threshold_grid(threshold)
        model, kw = self._model_at(prevalence)
        values = model.precision(self._to_latent(thr), per_draw=True, **kw)
        return self._da(values, "precision", ("threshold",), {"threshold": thr})

    def recall_at_threshold(self, threshold):
        """Posterior draws of recall at score threshold(s): dims (chain, draw, threshold)."""
        thr = self._threshold_grid(threshold)
        values = self.model.recall(self._to_latent(thr), per_draw=True)
        return self._da(values, "recall", ("threshold",), {"threshold": thr})

    # ---------------------------------------------------------------- whole-curve summaries
    def _tied(self, prevalence=None):
        return tied_curve_summaries(
            self.model, self.tied_values, self.ordinal, self._cutpoints, prevalence
        )

    def _replace_curve_summaries(self):
        if self.tied_values is None:
            return
        ap, auc = self._tied()
        post = self._idata["posterior"].to_dataset()
        dims = ("chain", "draw")
        self._idata["posterior"] = post.assign(
            average_precision=(dims, ap.reshape(self.model.batch_shape)),
            roc_auc=(dims, auc.reshape(self.model.batch_shape)),
        )

    def average_precision(self, prevalence=None):
        """Posterior draws of the AP (area under the analytic PR curve).

        With :attr:`tied_values` (discrete scores) the AP of the tied step curve instead.

        Parameters
        ----------
        prevalence : float or array of shape (chain, draw), optional
            Report AP at another prevalence than the fitted one (e.g. the deployment
            prevalence); the score distributions are unchanged.

        Returns
        -------
        xarray.DataArray, dims (chain, draw)
        """
        if self.tied_values is not None and self._prevalence_kw(prevalence):
            ap, _ = self._tied(self._prevalence_kw(prevalence)["prevalence"])
            return self._da(ap.reshape(self.model.batch_shape), "average_precision")
        return super().average_precision(prevalence)

    def roc_auc(self):
        """Posterior draws of the ROC AUC (closed form), dims (chain, draw).

        With :attr:`tied_values`, that of the tied step curve (ties count 1/2).
        """
        return super().roc_auc()

    def precision_at_recall(self, recall, prevalence=None):
        """Posterior draws of precision at the given recall(s): dims (chain, draw, recall)."""
        return super().precision_at_recall(recall, prevalence)

    def recall_at_precision(self, min_precision, prevalence=None):
        """Posterior draws of the largest recall with precision >= ``min_precision``.

        0 where a draw's curve never reaches that precision. Dims (chain, draw,
        precision).
        """
        p = check_unit_grid(min_precision, "min_precision")
        model, kw = self._model_at(prevalence)
        return self._da(
            model.recall_at_precision(p, **kw), "recall", ("precision",), {"precision": p}
        )

    def threshold_at_recall(self, recall):
        """Posterior draws of the score threshold reaching the given recall(s).

        On the original score scale (back-transformed when a transform was used).
        Dims (chain, draw, recall).
        """
        r = check_unit_grid(recall, "recall")
        t = self._to_score(self.model.threshold_at_recall(r))
        return self._da(t, "threshold", ("recall",), {"recall": r})

    def threshold_at_precision(self, min_precision, prevalence=None):
        """Posterior draws of the lowest threshold keeping precision >= ``min_precision``.

        Original score scale. Where no threshold reaches ``min_precision``: +inf for the
        parametric model (1.0 on a probability scale); for the rank-based models, whose
        map from the latent to the score scale runs through the observed scores, the
        largest observed score (and the smallest where every threshold reaches it).
        """
        p = check_unit_grid(min_precision, "min_precision")
        model, kw = self._model_at(prevalence)
        t = self._to_score(model.threshold_at_precision(p, **kw))
        return self._da(t, "threshold", ("precision",), {"precision": p})

    def prob_precision_at_least(self, precision, recall, prevalence=None):
        """Posterior probability that precision at ``recall`` is at least ``precision``.

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(2, 1, 0, 1, 0.3).sample(200, random_seed=0)
        >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> 0 <= post.prob_precision_at_least(0.5, recall=0.5) <= 1
        True
        """
        p = float(precision)
        values = self.precision_at_recall([recall], prevalence).values[..., 0]
        return float(np.mean(values >= p))

    def max_fbeta(self, beta=1.0, prevalence=None):
        """Posterior draws of the best F-beta and where it is reached.

        Returns
        -------
        xarray.Dataset
            Variables ``score``, ``threshold`` (original scale), ``precision``,
            ``recall``, each with dims (chain, draw).
        """
        model, kw = self._model_at(prevalence)
        res = model.max_fbeta(beta, **kw)
        return xr.Dataset(
            {
                "score": self._da(res.score, "score"),
                "threshold": self._da(self._to_score(res.threshold), "t"),
                "precision": self._da(res.precision, "precision"),
                "recall": self._da(res.recall, "recall"),
            },
            attrs={"beta": float(beta)},
        )

    # --------------------------------------------------------------------------- intervals
    def pr_band(
        self, recall=None, ci_prob=None, kind="pointwise", prevalence=None, *, averaged=None
    ):
        """Credible band of the PR curve over a recall grid.

        For the default fit (``model="semiparametric"``, the rank-based binormal model)
        the band is, by default, the model-averaged band: the posterior curves of the
        rank-based binormal, contaminated and flexible models pooled with equal weights
        (:func:`bayes_prc.bayes.averaged_pr_band`), the two others fitted on first use
        to this fit's own prepared data (see :meth:`averaged_posteriors`). It is the
        band :func:`bayes_prc.compare_bands` recommends: a single binormal model is
        confidently wrong where the true curve is not binormal-shaped. At n = 200,
        nominal 90%, on non-binormal populations (``docs/coverage.md``, "The default
        band") the averaged simultaneous band contained the whole true curve (recall
        0.1-0.9) in 0.83-0.93 of data sets, the single model's in 0.00-0.93; the
        averaged pointwise band held the truth at its worst recall in 0.78-0.87
        (whole curve at once: 0.57-0.80), the single model's in 0.02-0.87.
        Up to the recall where the data rule out precision 1
        (:func:`bayes_prc.bayes.precision_one_reach`) its upper bound is 1.
        ``averaged=False`` gives this model's own band.

        Parameters
        ----------
        recall : array-like, optional
            Recall grid in [0, 1]; default 201 equally spaced points.
        ci_prob : float, optional
            Probability of the band; defaults to the fit's ``ci_prob``.
        kind : {"pointwise", "simultaneous"}
            ``"pointwise"``: at each recall, the equal-tailed interval of precision.
            ``"simultaneous"``: a band containing whole posterior curves with probability
            ``ci_prob``: the curves are ranked by their depth (the smallest pointwise
            tail probability along the curve), the least deep ``1 - ci_prob`` share is
            discarded and the band is the envelope of the rest, joined with the
            pointwise band so it is never narrower.
        prevalence : float or array of shape (chain, draw), optional
            Band at another prevalence (the curve depends on it; scores do not); draws
            (e.g. from :func:`bayes_prc.deployment_prevalence`) integrate over it.
        averaged : bool or None, default None
            True: the model-averaged band of the rank-based models (this fit and the
            two others, see above); False: this model's own band. None: True for the
            rank-based binormal model (``model="semiparametric"``, the default of
            :func:`bayes_prc.fit_binormal`), False for a model chosen explicitly
            (``"parametric"``, ``"contaminated"``, ``"flexible"``). True needs a
            rank-based fit.

        Returns
        -------
        xarray.Dataset
            Variables ``lower``, ``median``, ``upper`` over dim ``recall``; attrs
            ``ci_prob``, ``kind``, ``band`` (which band it is, named as in
            :func:`bayes_prc.compare_bands`: ``"averaged_pointwise"``,
            ``"semiparametric_simultaneous"``, ...; ``"parametric_<kind>"`` for the
            parametric model), ``label`` (the same in words), ``models`` (the models
            whose curves make the band) and, for simultaneous bands, ``coverage`` (the
            share of posterior curves entirely inside the band).

        Notes
        -----
        The AP posterior (:meth:`average_precision`) stays this model's: for the
        default fit, the rank-based binormal model's AP, not the area under the drawn
        averaged band's median. An integral over the curve, the AP is far less sensitive
        to the curve's shape than precision at one recall: the rank-based model's AP
        interval (the AP table's ``semiparametric_*`` rows) is measured on the same
        populations in ``docs/coverage.md``. The averaged models' AP draws are in
        :meth:`averaged_posteriors`.

        Examples
        --------
        >>> import bayes_prc as bp
        >>> y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(300, random_seed=0)
        >>> post = bp.fit_binormal(y, s, random_seed=0)
        >>> band = post.pr_band(ci_prob=0.9)  # the model-averaged band
        >>> band.attrs["band"], band.attrs["models"]
        ('averaged_pointwise', ['semiparametric', 'contaminated', 'flexible'])
        >>> post.pr_band(ci_prob=0.9, averaged=False).attrs["band"]
        'semiparametric_pointwise'
        >>> exact = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0)
        >>> band = exact.pr_band(kind="simultaneous", ci_prob=0.9)
        >>> sorted(band.data_vars), band.sizes["recall"], band.attrs["band"]
        (['lower', 'median', 'upper'], 201, 'parametric_simultaneous')
        """
        if averaged is None:  # fit_binormal's rank-based fits know their data's top run
            averaged = self.model_type == "semiparametric" and self._n_above is not None
        else:
            check_bool(averaged, "averaged")
        if not averaged:
            band = self._pr_band(recall, ci_prob, kind, prevalence)
            models = [self.model_type]
        else:
            if self.model_type not in RANK_MODELS:
                raise ValueError(
                    "`averaged`=True pools the rank-based models' curves, so it needs a "
                    "rank-based fit (model='semiparametric', 'contaminated' or "
                    f"'flexible'); got model={self.model_type!r}"
                )
            check_choice(kind, "kind", ("pointwise", "simultaneous"))
            prob = self._ci_prob(ci_prob)
            r = check_unit_grid(recall, "recall", DEFAULT_RECALL)
            fits = self.averaged_posteriors()
            per_model = [f._curves_at(r, prevalence) for f in fits.values()]
            band = curve_band(pool_curves(per_model), r, prob, kind)
            # no continuous model reaches precision 1: where the data cannot rule it out
            # (a finite pool's top positives), the band's upper bound does
            if self._n_above is not None:
                reach = precision_one_reach(self._n_above, self.n_pos, prob)
                reach_precision_one(band, reach)
            models = list(fits)
        source = "averaged" if averaged else self.model_type
        band.attrs["band"] = f"{source}_{band.attrs['kind']}"
        band.attrs["label"] = _band_label(source, band.attrs["kind"])
        band.attrs["models"] = models
        return band

    def _curves_at(self, r, prevalence):
        """Posterior curves (S, R) on the grid ``r``; the last grid's kept (no prevalence).

        The mixture models invert their recall numerically (seconds for 4000 draws on
        201 recalls): a display asking for the pointwise and the simultaneous band on
        one grid computes the curves once.
        """
        key = None if prevalence is not None else r.tobytes()
        cached = self.__dict__.get("_curve_cache")
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        curves = self.model.precision_at_recall(r, **self._prevalence_kw(prevalence))
        curves = curves.reshape(-1, r.size)
        if key is not None:
            self._curve_cache = (key, curves)
        return curves

    def averaged_posteriors(self):
        """The rank-based posteriors pooled by the model-averaged band, this one included.

        The rank-based binormal (``"semiparametric"``), contaminated and flexible models
        on this fit's data: this fit for its own model, the others fitted on first use
        (then kept) to the same ordered categories (with ``groups``, the same counts
        tempered by the design effect), with the same draws and chains, their default
        priors and the fast sampler (``method="laplace"``). Their seed is derived from
        this fit's draws, so the same seed gives the same band, and a strictly
        increasing transform of the scores (which leaves the draws unchanged) too.

        Returns
        -------
        dict
            Model name -> :class:`BinormalPosterior`, in the order semiparametric,
            contaminated, flexible (the order of :func:`bayes_prc.compare_bands`).
            Each one's :meth:`average_precision` is its AP posterior.
        """
        if self.model_type not in RANK_MODELS:
            raise ValueError(
                f"the averaged band pools rank-based models; this fit is model={self.model_type!r}"
            )
        if self._fit_companion is None:
            raise ValueError(
                "the averaged band needs a fit made by bayes_prc.fit_binormal (its "
                "companions are fitted to the same prepared data)"
            )
        cache = self.__dict__.setdefault("_companions", {})
        if not cache:
            # one seed per model, derived from this fit's draws (its cutpoints: every
            # rank-based model has them), so the band is reproducible from the fit alone
            digest = hashlib.blake2b(
                np.ascontiguousarray(self._cutpoints, dtype=np.float64).tobytes(),
                digest_size=16,
            ).digest()
            entropy = int.from_bytes(digest, "little")
            seeds = np.random.SeedSequence(entropy).spawn(len(AVERAGED_MODELS))
            for model, seed in zip(AVERAGED_MODELS, seeds, strict=True):
                cache[model] = (
                    self
                    if model == self.model_type
                    else self._fit_companion(self, model, np.random.default_rng(seed))
                )
        return dict(cache)

    # ---------------------------------------------------------------------- predictive
    def predictive_curves(self, n_test, n_curves=30, random_seed=None, recall=None):
        """Empirical PR curves of simulated test sets from the posterior predictive.

        For each of ``n_curves`` posterior draws (chosen at random), simulate a test set
        of ``n_test`` labelled scores from that draw's model (binormal; for
        ``model="flexible"`` N(0, 1) negatives and the draw's normal mixture of positives,
        on the latent scale: an empirical PR curve depends only on the ranking) and
        compute its empirical PR curve: the picture of how much an empirical curve moves
        from one test set to another (seed 000, "The problem"). Test sets without a positive are
        redrawn (recall is undefined there). Test sets of 100 000 items or more are
        simulated as class counts in 2000 score bins of equal positive probability (exact
        multinomial counts from the class-conditional bin probabilities, scores tied
        within a bin): each curve is then exact at the bin edges (recall steps of about
        1/2000) and its AP is that of the binned scores (within about 2e-4 of the
        unbinned AP at that size).

        Returns
        -------
        xarray.Dataset
            ``precision`` with dims (curve, recall): each empirical curve read as a step
            function (precision at the highest threshold whose recall reaches the grid
            value); ``average_precision`` with dim (curve,); ``n_pos`` (curve,).
        """
        return predictive_curves(self.model, n_test, n_curves, random_seed, recall)

    def sample_posterior_predictive(self, random_seed=None, progressbar=None):
        """Posterior predictive draws of the sufficient statistics through PyMC.

        Adds group ``posterior_predictive`` (``n_pos``, ``score_mean``, ``score_ss`` on
        standardized scores) to :attr:`idata` and returns it.
        """
        import pymc as pm

        from ._model import RANK_BUILDERS, build_model

        rng = check_random_state(random_seed)
        if self.model_type in RANK_MODELS:
            model = RANK_BUILDERS[self.model_type](self.ordinal, self.priors)
        else:
            model = build_model(*self._stats, self.priors)
        with model:
            pp = pm.sample_posterior_predictive(
                self.idata,
                var_names=[v.name for v in model.observed_RVs],
                random_seed=int(rng.integers(0, 2**31 - 1)),
                progressbar=True if progressbar is None else bool(progressbar),
            )
        self.idata["posterior_predictive"] = pp["posterior_predictive"].to_dataset()
        return self.idata["posterior_predictive"]

    # ------------------------------------------------------------------- diagnostics
    def summary(self, var_names=None, ci_prob=None, kind="all", ci_kind=None):
        """ArviZ summary (mean, sd, interval, ESS, R-hat) of the main quantities.

        For ``model="flexible"`` or ``"contaminated"`` with ``method="laplace"`` the draws are resampled from
        importance-weighted proposals (partly duplicated), so the ``ess_bulk`` and
        ``ess_tail`` columns are ArviZ's capped at ``importance["ess_draws"]``: the
        importance-sampling ESS (Kish's ``1 / sum(w**2)`` of the normalized PSIS
        weights, or after the tempered-SMC fallback the ESS of its last reweighting),
        itself capped at the number of distinct draws. The cap applies to every row,
        the exactly drawn prevalence too (conservative).

        Returns
        -------
        pandas.DataFrame
        """
        if var_names is None and self.model_type == "semiparametric":
            var_names = ["average_precision", "roc_auc", "prevalence", "mu", "sigma"]
        elif var_names is None and self.model_type == "flexible":
            var_names = ["average_precision", "roc_auc", "prevalence", "weights", "means", "sds"]
        elif var_names is None and self.model_type == "contaminated":
            var_names = ["average_precision", "roc_auc", "prevalence", "mu", "sigma"]
            var_names += ["eps_neg", "eps_pos"]
        elif var_names is None:
            var_names = [
                "average_precision",
                "roc_auc",
                "prevalence",
                "mu_pos",
                "sigma_pos",
                "mu_neg",
                "sigma_neg",
            ]
        return self._summary(var_names, ci_prob, kind=kind, ci_kind=ci_kind)

    def diagnostics(self):
        """Convergence diagnostics: max R-hat, min bulk/tail ESS, number of divergences.

        Exact (conjugate) fits have independent draws: R-hat and ESS are computed the
        same way and divergences are 0. Fast flexible and contaminated fits (``method="laplace"``)
        resample importance-weighted draws: their ESS is at most the importance-sampling
        ESS, capped at the number of distinct draws (``importance["ess_draws"]``; see
        :meth:`summary`).
        """
        names = ["prevalence", "mu", "sigma", "average_precision"]
        if self.model_type == "flexible":
            names = ["prevalence", "weights", "means", "sds", "average_precision"]
        elif self.model_type == "contaminated":
            names[3:3] = ["eps_neg", "eps_pos"]
        if self.model_type in RANK_MODELS:
            names.append("cutpoints")
        return convergence_diagnostics(self.idata, names, ess_cap=self._ess_cap())

    def fit_check(self, random_seed=None, n_draws=4000):
        """Goodness-of-fit check of the model: ``"pass"``, ``"inconclusive"`` or ``"fail"``.

        Deterministic for the rank-based binormal and the parametric model (a chi-square
        test on bins of the ranking; Shapiro-Wilk per class); a posterior predictive check
        for the flexible and the contaminated models. See :func:`bayes_prc.bayes.fit_check`.

        Returns
        -------
        FitCheck
        """
        from ._fitcheck import fit_check

        return fit_check(self, random_seed=random_seed, n_draws=n_draws)

    def _check_diagnostics(self):
        d = self.diagnostics()
        warn_if_unreliable(d, self.idata["posterior"].sizes["chain"], stacklevel=4)
        return d
