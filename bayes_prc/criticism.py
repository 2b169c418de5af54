r"""Model criticism: is the binormal model of the scores good enough for this PR curve?

Every Bayesian PR band of bayes_prc rests on a model of the per-class score
distributions. This module checks that model in two ways:

* :func:`compare_score_models` fits alternative score models (binormal, binormal on
  ``logit(score)``, Student-t per class, two-component normal mixture per class) with
  PyMC and ranks them by PSIS-LOO, the Pareto-smoothed importance-sampling estimate of
  leave-one-out predictive accuracy (Vehtari, Gelman & Gabry 2017), through
  :func:`arviz.compare`. :func:`fit_score_models` returns the fitted posteriors, each
  pushed through its *own* analytic PR curve, so the AP and the PR band can be read off
  whichever model wins.
* :func:`score_ppc` is a posterior predictive check of the per-class score
  distributions (Gelman et al., BDA3, ch. 6), summarized in one number a report can
  warn on: the posterior predictive p-value of the Kolmogorov-Smirnov distance.

What LOO compares
-----------------
The comparison is about the *score distributions given the label*: each item's
pointwise log-likelihood is :math:`\log p(s_i \mid y_i, \theta)`. The label likelihood
(prevalence ~ Beta(1, 1), binomial count of positives) is the same in every model and is
left out; every posterior still includes the prevalence, for the PR curve. Models are
fit on standardized scores, and the binormal-logit model on standardized
``logit(score)``; so that all log-likelihoods are densities of the *original* scores,
each includes the log-Jacobian of its transform: :math:`-\log(\text{sd})` of the
standardization and, for the logit, :math:`-\log(s(1-s))`.

References
----------
.. [1] A. Vehtari, A. Gelman and J. Gabry, "Practical Bayesian model evaluation using
   leave-one-out cross-validation and WAIC", Statistics and Computing 27 (2017),
   pp. 1413-1432.
.. [2] A. Gelman, J. B. Carlin, H. S. Stern, D. B. Dunson, A. Vehtari and D. B. Rubin,
   *Bayesian Data Analysis*, 3rd ed., CRC Press, 2013, chapter 6 ("Model checking").
.. [3] A. Gelman, X.-L. Meng and H. Stern, "Posterior predictive assessment of model
   fitness via realized discrepancies", Statistica Sinica 6 (1996), pp. 733-807.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import xarray as xr
from scipy import stats

from ._core import check_int, check_random_state, plain
from ._core.transforms import transform_scores
from .bayes import SCORE_MODELS, SamplerOptions, ScoreModelFit, fit_score_model
from .empirical import as_ranked
from .exceptions import BayesPRCWarning
from .models import NormalMixtureScoreModel, StudentTScoreModel, class_distributions

__all__ = [
    "NormalMixtureScoreModel",
    "PPC_THRESHOLD",
    "SCORE_MODELS",
    "ScoreModelFit",
    "StudentTScoreModel",
    "compare_score_models",
    "fit_score_models",
    "score_ppc",
]

PPC_THRESHOLD = 0.05
"""Warn when a class's posterior predictive p-value of :func:`score_ppc` is below this."""


# --------------------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------------------


def _check_models(models):
    if isinstance(models, str):
        models = (models,)
    try:
        names = tuple(models)
    except TypeError:
        raise ValueError(
            f"`models` must be a sequence of names from {SCORE_MODELS}; got {plain(models)}"
        ) from None
    if not names:
        raise ValueError("`models` is empty; name at least one score model")
    for name in names:
        if name not in SCORE_MODELS:
            raise ValueError(f"`models` must contain names from {SCORE_MODELS}; got {plain(name)}")
    if len(set(names)) != len(names):
        raise ValueError(f"`models` names a model twice: {names!r}")
    return names


def _binary_data(y_true, y_score, pos_label):
    """``(ranked, is_pos, score)``: the inputs validated once (:func:`as_ranked`)."""
    r = as_ranked(y_true, y_score, pos_label=pos_label)
    if r.n_pos < 2 or r.n_neg < 2:
        raise ValueError(
            "`y_true` needs at least 2 positives and 2 negatives to fit per-class score "
            f"models; got {r.n_pos} positive(s) out of {r.n_samples}"
        )
    return r, r.is_pos, r.y_score.astype(np.float64)


def _logit_skip_reason(score):
    if score.min() < 0 or score.max() > 1:
        return (
            "'binormal_logit' needs scores in [0, 1] (probabilities); `y_score` spans "
            f"[{score.min():.4g}, {score.max():.4g}], so the model was skipped"
        )
    return None


# --------------------------------------------------------------------------------------
# fitting and comparison
# --------------------------------------------------------------------------------------


def fit_score_models(
    y_true,
    y_score,
    *,
    models=SCORE_MODELS,
    draws=1000,
    chains=4,
    tune=1000,
    cores=None,
    target_accept=0.9,
    ci_prob=0.95,
    random_seed=None,
    progressbar=None,
    pos_label=None,
):
    """Fit alternative per-class score models by NUTS, each with its own PR curve.

    Every model is fit with PyMC to the standardized scores (z = (s - mean) / sd of all
    scores; for ``"binormal_logit"``, of ``logit(s)``), with per-item observed scores so
    that each posterior carries a pointwise log-likelihood for PSIS-LOO, and each
    posterior draw is pushed through the model's analytic PR curve.

    ================== ==============================================================
    name               scores of class c (c = neg, pos), priors on standardized scores
    ================== ==============================================================
    ``binormal``       N(mu_c, sigma_c); mu ~ N(0, 3), sigma ~ HalfNormal(2)
    ``binormal_logit`` logit(s) ~ N(mu_c, sigma_c), same priors; needs scores in [0, 1]
                       (exact 0 and 1 are moved just inside, with a warning)
    ``bi_t``           Student-t(nu_c, mu_c, sigma_c); nu ~ Gamma(2, 0.1) (Juarez &
                       Steel 2010), mu, sigma as above
    ``mixture``        w_c1 N(mu_c1, sigma_c1) + w_c2 N(mu_c2, sigma_c2); w ~
                       Dirichlet(2, 2), mu_c1 < mu_c2 (ordered, no label switching)
                       ~ N(0, 3), sigma ~ Gamma(2, 2) (keeps components from
                       collapsing onto single points)
    ================== ==============================================================

    All models share prevalence ~ Beta(1, 1) with the count of positives ~
    Binomial(n, prevalence).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores; each class needs at least 2 items.
    models : sequence of str, default ("binormal", "binormal_logit", "bi_t", "mixture")
        Which models to fit. ``"binormal_logit"`` is skipped, with a
        :class:`~bayes_prc.BayesPRCWarning`, when the scores are not all in [0, 1].
    draws, chains, tune : int, default 1000, 4, 1000
        NUTS draws per chain, chains and tuning steps.
    cores : int, optional
        Passed to :func:`pymc.sample`.
    target_accept : float, default 0.9
        NUTS target acceptance rate.
    ci_prob : float, default 0.95
        Default probability of the fits' bands.
    random_seed : int, numpy.random.Generator or None
        Same seed, same draws. Each model gets independent per-chain seeds drawn from it
        in the order of ``models``.
    progressbar : bool or None, default None
        Show PyMC's progress bars (None, the package's one default: PyMC's own, a bar).
    pos_label : label, optional
        Positive label when ``y_true`` is not {0, 1} / {-1, 1}.

    Returns
    -------
    dict of str to ScoreModelFit
        In the order of ``models`` (without skipped ones). Each fit has ``.idata`` (an
        ArviZ DataTree with a ``log_likelihood`` group on the original score scale),
        ``.model`` (the analytic model with (chain, draw) parameter arrays),
        ``.average_precision()`` (DataArray over (chain, draw)),
        ``.pr_band(recall=None, ci_prob=0.95)`` (Dataset ``lower``/``median``/``upper``
        over ``recall``), ``.precision_at_recall``, ``.roc_auc``, ``.loo()``,
        ``.summary()``, ``.diagnostics()``.

    Warns
    -----
    BayesPRCWarning
        A model was skipped (``binormal_logit`` for scores outside [0, 1]).
    ConvergenceWarning
        A fit has R-hat > 1.01, ESS < 100 per chain or divergences; the message names
        the model.

    See Also
    --------
    compare_score_models : the PSIS-LOO table of these fits.
    score_ppc : posterior predictive check of a fit.

    References
    ----------
    .. [1] A. Vehtari, A. Gelman and J. Gabry, "Practical Bayesian model evaluation
       using leave-one-out cross-validation and WAIC", Statistics and Computing 27
       (2017), pp. 1413-1432.
    .. [2] J. A. Juarez and M. F. J. Steel, "Model-based clustering of non-Gaussian
       panel data based on skew-t distributions", Journal of Business & Economic
       Statistics 28 (2010), pp. 52-66 (the Gamma(2, 0.1) prior on nu).

    Examples
    --------
    NUTS fits take seconds each, so this example is not run by the doctests:

    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.criticism import fit_score_models
    >>> y, s = Binormal(1.5, 1, 0, 1, 0.3).sample(500, random_seed=0)
    >>> fits = fit_score_models(
    ...     y, s, models=("binormal", "bi_t"), draws=500, chains=2, random_seed=1
    ... )  # doctest: +SKIP
    >>> fits["bi_t"].average_precision().dims  # doctest: +SKIP
    ('chain', 'draw')
    >>> fits["bi_t"].pr_band().sizes["recall"]  # doctest: +SKIP
    201
    """
    names = _check_models(models)
    draws = check_int(draws, "draws")
    chains = check_int(chains, "chains")
    if isinstance(tune, bool) or not isinstance(tune, numbers.Integral) or tune < 0:
        raise ValueError(f"`tune` must be a non-negative integer; got {plain(tune)}")
    if not (isinstance(ci_prob, (float, int)) and 0 < ci_prob < 1):
        raise ValueError(f"`ci_prob` must be in (0, 1); got {plain(ci_prob)}")
    _, is_pos, score = _binary_data(y_true, y_score, pos_label)
    rng = check_random_state(random_seed)
    sampler = SamplerOptions(
        draws=draws,
        chains=chains,
        tune=int(tune),
        cores=cores,
        target_accept=target_accept,
        progressbar=progressbar,
    )
    fits = {}
    for name in names:
        seeds = rng.integers(0, 2**31 - 1, size=chains).tolist()
        if name == "binormal_logit":
            reason = _logit_skip_reason(score)
            if reason:
                warnings.warn(reason, BayesPRCWarning, stacklevel=2)
                continue
        fits[name] = fit_score_model(
            name,
            is_pos,
            score,
            sampler=sampler,
            random_seed=seeds,
            ci_prob=float(ci_prob),
        )
    if not fits:
        raise ValueError(f"no score model could be fit: {_logit_skip_reason(score)}")
    return fits


def _check_fits(fits, is_pos, score):
    if not isinstance(fits, dict):
        raise ValueError(f"`fits` must be a dict from fit_score_models; got {plain(type(fits))}")
    for name, fit in fits.items():
        if not isinstance(fit, ScoreModelFit):
            raise ValueError(
                f"`fits[{name!r}]` must be a ScoreModelFit (from fit_score_models); got "
                f"{type(fit).__name__}"
            )
        const = fit._idata["constant_data"]
        same = (
            const["y_score"].size == score.size
            and np.array_equal(const["y_score"].values, score)
            and np.array_equal(const["is_pos"].values.astype(bool), is_pos)
        )
        if not same:
            raise ValueError(
                f"`fits[{name!r}]` was fit to other data than `y_true`, `y_score`; LOO "
                "values of different data sets cannot be compared"
            )


def compare_score_models(
    y_true,
    y_score,
    *,
    models=SCORE_MODELS,
    fits=None,
    draws=1000,
    chains=4,
    tune=1000,
    cores=None,
    target_accept=0.9,
    random_seed=None,
    progressbar=None,
    pos_label=None,
    method="stacking",
):
    """Rank per-class score models by PSIS-LOO: which model of the scores predicts best?

    Fits the models with :func:`fit_score_models` (or reuses ``fits``) and compares their
    pointwise log-likelihoods of the scores given the labels with :func:`arviz.compare`
    (PSIS-LOO, Vehtari, Gelman & Gabry 2017). The log-likelihoods are densities of the
    original scores (Jacobians of the standardization and of the logit included), so
    models fit on different scales are comparable; the label likelihood is common to all
    models and left out.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores.
    models : sequence of str, default ("binormal", "binormal_logit", "bi_t", "mixture")
        Models to compare (see :func:`fit_score_models`); ``"binormal_logit"`` is
        skipped, with a warning, when the scores are not in [0, 1]. At least two models
        must remain.
    fits : dict of str to ScoreModelFit, optional
        Fits from :func:`fit_score_models` on the same data; models named in ``models``
        and present here are reused instead of refit (the others are fitted).
    draws, chains, tune, cores, target_accept, random_seed, progressbar, pos_label
        As in :func:`fit_score_models`.
    method : {"stacking", "BB-pseudo-BMA", "pseudo-BMA"}, default "stacking"
        How :func:`arviz.compare` computes the model weights.

    Returns
    -------
    pandas.DataFrame
        :func:`arviz.compare`'s table, indexed by model name, best (highest ELPD) first,
        unrounded: columns ``rank``, ``elpd_diff`` (difference to the best), ``dse``
        (standard error of the difference), ``p_worse``, ``diag_diff`` and ``diag_elpd``
        (small-difference and Pareto k diagnostics), ``p`` (effective number of
        parameters), ``elpd`` (expected log pointwise predictive density), ``se`` and
        ``weight``.
        ``attrs["skipped"]`` maps skipped model names to the reason. The fitted
        posteriors are not attached: get them from :func:`fit_score_models` and pass
        them as ``fits``.

    Notes
    -----
    A difference ``elpd_diff`` of less than about 2 ``dse`` (or below 4 in absolute
    value) does not single out a model; nested models (the binormal is the limit of the
    Student-t as nu grows and a special case of the mixture) then predict about equally
    well and the simpler one is preferable.

    References
    ----------
    .. [1] A. Vehtari, A. Gelman and J. Gabry, "Practical Bayesian model evaluation
       using leave-one-out cross-validation and WAIC", Statistics and Computing 27
       (2017), pp. 1413-1432.

    Examples
    --------
    NUTS fits take seconds each, so this example is not run by the doctests:

    >>> from bayes_prc.binormal import Binormal
    >>> from bayes_prc.criticism import compare_score_models, fit_score_models
    >>> y, s = Binormal(1.5, 1, 0, 1, 0.3).sample(500, random_seed=0)
    >>> fits = fit_score_models(y, s, models=("binormal", "mixture"),
    ...                         draws=500, chains=2, random_seed=1)  # doctest: +SKIP
    >>> table = compare_score_models(y, s, models=("binormal", "mixture"),
    ...                              fits=fits)  # doctest: +SKIP
    >>> list(table.columns[:3])  # doctest: +SKIP
    ['rank', 'elpd_diff', 'dse']
    """
    import arviz as az

    names = _check_models(models)
    ranked, is_pos, score = _binary_data(y_true, y_score, pos_label)
    fits = {} if fits is None else fits
    _check_fits(fits, is_pos, score)
    skipped = {}
    if "binormal_logit" in names:
        reason = _logit_skip_reason(score)
        if reason:
            skipped["binormal_logit"] = reason
            warnings.warn(reason, BayesPRCWarning, stacklevel=2)
            names = tuple(n for n in names if n != "binormal_logit")
    if len(names) < 2:
        raise ValueError(
            f"comparing needs at least two score models; got {list(names)}"
            + (f" ({skipped['binormal_logit']})" if skipped else "")
        )
    missing = tuple(n for n in names if n not in fits)
    new = {}
    if missing:
        new = fit_score_models(
            ranked,
            None,
            models=missing,
            draws=draws,
            chains=chains,
            tune=tune,
            cores=cores,
            target_accept=target_accept,
            random_seed=random_seed,
            progressbar=progressbar,
        )
    chosen = {n: (fits[n] if n in fits else new[n]) for n in names}
    with warnings.catch_warnings():
        # arviz warns per model about high Pareto k; the table's diag_elpd column says it
        warnings.filterwarnings("ignore", message=".*(Pareto k|shape parameter of Pareto).*")
        table = az.compare(
            {n: f.idata for n, f in chosen.items()},
            method=method,
            var_name="score",
            round_to="none",
        )
    table.attrs["skipped"] = skipped
    table.attrs["note"] = (
        "PSIS-LOO of log p(score | label) on the original score scale; the label "
        "likelihood is common to all models and left out"
    )
    return table


# --------------------------------------------------------------------------------------
# posterior predictive check
# --------------------------------------------------------------------------------------


#: Above this class size the observed KS distance is read at this many order statistics.
_KS_GRID = 20_000


def _ks_observed(x, dists, n_draws):
    """KS distance of sorted ``x`` to each of the ``n_draws`` distributions ``dists``.

    Exact up to :data:`_KS_GRID` items; above, read at ``_KS_GRID`` evenly spaced order
    statistics (both sides of each step), which is within ``1 / _KS_GRID`` of the exact
    distance. Draws are processed in chunks of about 2e6 CDF values.
    """
    m = x.size
    rank = np.arange(1, m + 1)
    if m > _KS_GRID:
        keep = np.unique(np.linspace(0, m - 1, _KS_GRID).round().astype(np.int64))
        x, rank = x[keep], rank[keep]
    chunk = max(1, 2_000_000 // max(x.size, 1))
    out = np.empty(n_draws)
    for start in range(0, n_draws, chunk):
        part = dists.take(np.arange(start, min(start + chunk, n_draws)))
        cdf = part.cdf(x[None, :], 1)
        out[start : start + cdf.shape[0]] = np.maximum(
            np.max(rank / m - cdf, axis=-1), np.max(cdf - (rank - 1) / m, axis=-1)
        )
    return out


def score_ppc(
    y_true,
    y_score,
    fit,
    *,
    n_draws=500,
    threshold=PPC_THRESHOLD,
    random_seed=None,
    pos_label=None,
):
    r"""Posterior predictive check of the per-class score distributions (KS p-value).

    For each class and each of ``n_draws`` posterior draws :math:`\theta`, the
    discrepancy is the Kolmogorov-Smirnov distance :math:`D(x, \theta) = \sup_t
    |\hat F_x(t) - F_\theta(t)|` between the class's scores and the class's score
    distribution under :math:`\theta`. Replicated scores :math:`x^{rep}` (as many as
    observed) are drawn from :math:`F_\theta` and the posterior predictive p-value is

    .. math::

        p = P\bigl(D(x^{rep}, \theta) \ge D(x, \theta) \mid x\bigr)

    (a realized-discrepancy check, Gelman, Meng & Stern 1996; BDA3 ch. 6). A small p
    means the observed scores are farther from the model than data the model itself
    generates: a shape the model cannot reproduce (bimodality, heavy tails, skew).

    The model's class distributions are continuous, so :math:`D(x^{rep}, \theta)` of
    :math:`m` scores drawn from :math:`F_\theta` has the one-sample Kolmogorov
    distribution of size :math:`m` whatever :math:`\theta` (Kolmogorov 1933;
    :data:`scipy.stats.kstwo`): the replicated discrepancies are drawn from it directly,
    with no replicated data sets (memory O(m), not m times ``n_draws``). Classes of more
    than 20 000 items read :math:`D(x, \theta)` at 20 000 evenly spaced order statistics,
    within 5e-5 of the exact distance.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        The data the posterior was fit to (checked against the fit's ``n`` and
        ``n_pos``).
    fit : BinormalPosterior or ScoreModelFit
        From :func:`bayes_prc.fit_binormal` or :func:`fit_score_models`. Transformed fits
        (``transform="logit"`` / ``"probit"``) are checked on the transformed scale,
        where the model is normal; the KS distance does not depend on the scale.
    n_draws : int, default 500
        Posterior draws used (sampled without replacement when the posterior has more).
    threshold : float, default :data:`PPC_THRESHOLD` (0.05)
        ``misfit`` is true when a class's p-value is below it.
    random_seed : int, numpy.random.Generator or None
        For the choice of draws and the replicated scores.
    pos_label : label, optional

    Returns
    -------
    xarray.Dataset
        ``p_value`` (dim ``class`` = ["neg", "pos"]): the posterior predictive p-value
        per class; ``min_p_value`` (scalar): the one number to report and warn on;
        ``misfit`` (scalar bool): ``min_p_value < threshold``; ``ks_observed`` and
        ``ks_replicated`` (dims ``class``, ``sample``): the discrepancies per draw.
        Attrs: ``threshold``, ``statistic``, ``model``, ``n_draws``.

    Notes
    -----
    Posterior predictive p-values with a discrepancy that depends on fitted parameters
    are conservative: under a correct model they concentrate around 0.5 rather than
    being uniform, so ``p < 0.05`` flags clear misfit and happens rarely (well below 5%
    of data sets) when the model is right. With two classes, ``min_p_value`` is the
    smaller of two such p-values. The resolution of ``p`` is ``1 / n_draws``.

    References
    ----------
    .. [1] A. Gelman, J. B. Carlin, H. S. Stern, D. B. Dunson, A. Vehtari and D. B.
       Rubin, *Bayesian Data Analysis*, 3rd ed., CRC Press, 2013, chapter 6.
    .. [2] A. Gelman, X.-L. Meng and H. Stern, "Posterior predictive assessment of model
       fitness via realized discrepancies", Statistica Sinica 6 (1996), pp. 733-807.

    Examples
    --------
    Binormal fit to binormal scores: no misfit. The same fit to strongly bimodal
    positives: misfit.

    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> from bayes_prc.criticism import score_ppc
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(1000, random_seed=0)
    >>> post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=200, chains=2, random_seed=1)
    >>> ppc = score_ppc(y, s, post, n_draws=200, random_seed=2)
    >>> bool(ppc["misfit"]), ppc["p_value"].dims
    (False, ('class',))
    >>> s2 = np.where(y == 1, s + np.where(np.arange(1000) % 2, 3.0, -3.0), s)
    >>> post2 = bp.fit_binormal(y, s2, model="parametric", method="exact", draws=200, chains=2, random_seed=1)
    >>> ppc2 = score_ppc(y, s2, post2, n_draws=200, random_seed=2)
    >>> bool(ppc2["misfit"]), float(ppc2["p_value"].sel({"class": "pos"}))
    (True, 0.0)
    """
    from .bayes import BinormalPosterior

    n_draws = check_int(n_draws, "n_draws")
    if not (isinstance(threshold, (float, int)) and 0 < threshold < 1):
        raise ValueError(f"`threshold` must be in (0, 1); got {plain(threshold)}")
    if isinstance(fit, BinormalPosterior):
        model_name = "binormal" + (f" ({fit.transform})" if fit.transform else "")
    elif isinstance(fit, ScoreModelFit):
        model_name = fit.name
    else:
        raise ValueError(
            "`fit` must be a BinormalPosterior (fit_binormal) or a ScoreModelFit "
            f"(fit_score_models); got {type(fit).__name__}"
        )
    _, is_pos, score = _binary_data(y_true, y_score, pos_label)
    if is_pos.size != fit.n or int(is_pos.sum()) != fit.n_pos:
        raise ValueError(
            f"`y_true`, `y_score` ({is_pos.size} items, {int(is_pos.sum())} positive) are "
            f"not the data of `fit` ({fit.n} items, {fit.n_pos} positive)"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BayesPRCWarning)  # the fit already warned on 0/1
        t = transform_scores(score, fit.transform)
    rng = check_random_state(random_seed)
    neg, pos = class_distributions(fit.model)
    total = int(np.prod(fit.model.batch_shape))
    take = min(n_draws, total)
    picks = np.sort(rng.choice(total, size=take, replace=False))
    p_values, ks_obs, ks_rep = [], [], []
    for dist, mask in ((neg, ~is_pos), (pos, is_pos)):
        sub = dist.take(picks)
        x = np.sort(t[mask])
        obs = _ks_observed(x, sub, take)
        # replicated data from a continuous F_theta: D(x_rep, theta) ~ kstwo(m), any theta
        rep_d = stats.kstwo.rvs(x.size, size=take, random_state=rng)
        ks_obs.append(obs)
        ks_rep.append(rep_d)
        p_values.append(float(np.mean(rep_d >= obs)))
    p = np.array(p_values)
    return xr.Dataset(
        {
            "p_value": ("class", p),
            "min_p_value": ((), float(p.min())),
            "misfit": ((), bool(p.min() < threshold)),
            "ks_observed": (("class", "sample"), np.stack(ks_obs)),
            "ks_replicated": (("class", "sample"), np.stack(ks_rep)),
        },
        coords={"class": ["neg", "pos"], "sample": np.arange(take)},
        attrs={
            "threshold": float(threshold),
            "statistic": "Kolmogorov-Smirnov distance to the class's score distribution",
            "model": model_name,
            "n_draws": take,
        },
    )
