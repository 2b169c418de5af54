"""``fit_binormal``: data in, :class:`BinormalPosterior` out."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._core import check_choice, check_int, check_probability, check_random_state, is_dask
from .._core.groups import check_groups
from .._core.transforms import check_transform, location_scale, transform_scores
from ..empirical import as_ranked
from ..frequentist import cluster_design_effect
from ._compiled import SamplerOptions
from ._fitcheck import normality_p_values
from ._ordinal import RANK_MODELS, ordinal_categories
from ._priors import BinormalPriors, sample_exact_posterior, sufficient_statistics
from ._semiparametric import SemiparametricPriors, sample_semiparametric_grid
from ._summaries import positives_above_negatives
from ._tied import discrete_values

_RANK_MODEL_NAMES = {
    "semiparametric": "semiparametric binormal model",
    "flexible": "flexible ROC model",
    "contaminated": "contaminated binormal model",
}

__all__ = ["fit_binormal", "FIT_METHODS", "MODELS"]

MODELS = ("semiparametric", "parametric", "flexible", "contaminated")
FIT_METHODS = ("auto", "nuts", "exact", "laplace")
#: The fast sampler of each model (``method="auto"``).
AUTO_METHOD = {
    "parametric": "exact",
    "semiparametric": "laplace",
    "flexible": "laplace",
    "contaminated": "laplace",
}


def fit_binormal(
    y_true,
    y_score,
    *,
    model="semiparametric",
    transform=None,
    priors=None,
    method="auto",
    draws=1000,
    chains=4,
    ci_prob=0.95,
    random_seed=None,
    progressbar=None,
    tune=1000,
    cores=None,
    target_accept=0.9,
    pos_label=None,
    n_categories=None,
    groups=None,
):
    """Fit the Bayesian binormal model of the scores.

    Two models, both giving a whole analytic PR curve per posterior draw, so the PR
    band, the AP posterior and the operating points come from the same draws (Brodersen
    et al. 2010 for the binormal PR curve):

    - ``model="semiparametric"`` (default): the binormal ROC after an *unknown*
      strictly increasing transform of the scores. Latent negatives ~ N(0, 1),
      positives ~ N(mu, sigma), prevalence ~ Beta. The scores enter only through their
      order: they are grouped into ordered categories (ties together, truth-state runs,
      at most ``n_categories``) with shared cutpoints, the two-group ordered-probit
      model of Dorfman & Alf (1969), Metz, Herman & Shen (1998, LABROC4) and Zou & Hall
      (2000). Any strictly increasing transform of ``y_score`` gives the same draws for
      the same seed. Thresholds map back to the score scale through the cutpoints.
    - ``model="flexible"``: rank-based like the semiparametric model (same categories,
      cutpoints and N(0, 1) latent negatives) but the latent positives are a sparse
      Dirichlet mixture of ``J = 3`` normals (Erkanli et al. 2006; Branscum et al. 2008),
      so ROC curves that are not binormal (e.g. hard negatives) are followed too (see
      :mod:`bayes_prc.bayes._flexible`); priors :class:`FlexiblePriors`.
    - ``model="contaminated"``: the semiparametric model in which each class borrows a
      small share of the other's latent distribution (label noise, hard negatives), so
      the precision can level off below 1 at low recall instead of always tending to 1
      (see :mod:`bayes_prc.bayes._contaminated`); priors :class:`ContaminatedPriors`,
      contamination shares ~ Beta(1, 200).
    - ``model="parametric"``: positives' scores ~ N(mu_pos, sigma_pos), negatives' ~
      N(mu_neg, sigma_neg) on the score scale (after ``transform``). Confidently wrong
      when the class scores are not normal on that scale (see ``docs/coverage.md``).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores; both classes must be present (the semiparametric model
        needs at least 2 positives and 2 distinct scores).
    model : {"semiparametric", "parametric", "flexible", "contaminated"}, default "semiparametric"
    transform : {None, "logit", "probit"}, default None
        Parametric model: fit the binormal model to ``logit(score)`` or
        ``probit(score)`` (for probability outputs in [0, 1]; exact 0 and 1 are moved
        just inside with a warning). Thresholds are reported on the original score
        scale. The semiparametric model is invariant to it (validated, then unused).
    priors : BinormalPriors, SemiparametricPriors, dict or None
        Parametric: the conjugate Normal-Inverse-Gamma / Beta prior on standardized
        scores (:class:`BinormalPriors`). Semiparametric:
        :class:`SemiparametricPriors`. Defaults are weakly informative.
    method : {"auto", "nuts", "exact", "laplace"}, default "auto"
        ``"nuts"`` samples the PyMC model (the reference). ``"exact"`` (parametric
        only) draws independent samples from the closed-form conjugate posterior.
        ``"laplace"`` (semiparametric only) is the fast sampler: integrated nested
        Laplace approximation on a grid of (mu, log sigma) with the cutpoints
        integrated out (Rue, Martino & Chopin 2009), validated against NUTS in the
        tests; for ``model="flexible"`` and ``"contaminated"`` it is importance sampling
        from a Laplace
        approximation, with a tempered SMC fallback when the Pareto k-hat exceeds 0.7
        (``posterior.importance`` holds k-hat and the ESS). ``"auto"`` picks
        ``"exact"`` for the parametric model and ``"laplace"`` for the rank-based ones.
    draws, chains : int, default 1000, 4
        Posterior draws per chain and number of chains.
    ci_prob : float, default 0.95
        Default probability of credible intervals and bands (the package's one default
        interval level).
    random_seed : int, numpy.random.Generator or None
        Same seed, same draws.
    progressbar : bool or None, default None
        Show PyMC's progress bar while sampling (NUTS only); None (the package's one
        default) means PyMC's own default, a bar.
    tune, cores, target_accept
        NUTS only: tuning steps, processes (PyMC's sampler) and target acceptance.
        The PyMC model is compiled once per process and structure and reused by later
        fits of other data; with the ``nutpie`` extra installed NUTS runs on nutpie's
        sampler (one thread), else on :func:`pymc.sample` (see
        :mod:`bayes_prc.bayes._compiled`).
    pos_label : label, optional
        Positive label when ``y_true`` is not {0, 1} / {-1, 1}.
    n_categories : int or None
        Semiparametric model: the most ordered categories to use (>= 2). ``None``:
        ``clip(round(2 sqrt(min(n_pos, n_neg))), 8, 40)`` (see
        :mod:`bayes_prc.bayes._ordinal` for why).
    groups : array-like of shape (n_samples,), optional
        Cluster id of each item (``model="semiparametric"`` only). Items of a cluster are
        not independent, so the likelihood is tempered: each item counts ``1 /
        design_effect``, the design effect being the leave-one-cluster-out over the
        leave-one-item-out jackknife variance of the empirical AP (at least 1; Kish
        1965). The posterior then widens by about ``sqrt(design_effect)`` (a
        pseudo-likelihood with the effective sample size, as in Ribatet, Cooley & Davison
        2012; not a cluster random-effect model), and the fit check's chi-square
        statistics are divided by it (Rao & Scott 1981). ``design_effect`` and
        ``n_clusters`` are kept on the posterior. With every cluster a single item, the
        ungrouped fit.

    Returns
    -------
    BinormalPosterior

    Warns
    -----
    ConvergenceWarning
        NUTS diagnostics are bad: R-hat > 1.01, bulk or tail ESS < 100 per chain, or any
        divergence. The message names them.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.2).sample(300, random_seed=0)
    >>> post = bp.fit_binormal(y, s, random_seed=1)  # semiparametric, fast sampler
    >>> ap = post.average_precision()
    >>> ap.dims
    ('chain', 'draw')
    >>> bool(0 < float(ap.mean()) < 1)
    True
    >>> import numpy as np
    >>> same = bp.fit_binormal(y, np.exp(s), random_seed=1).average_precision()
    >>> bool(np.array_equal(ap.values, same.values))  # only the order of scores matters
    True
    """
    check_choice(model, "model", MODELS)
    if method == "auto":
        method = AUTO_METHOD[model]
    if groups is not None and model != "semiparametric":
        raise ValueError(
            "`groups` needs model='semiparametric' (its likelihood is tempered by the "
            f"clusters' design effect); got model={model!r}"
        )
    sampler = SamplerOptions(
        draws=draws,
        chains=chains,
        tune=tune,
        cores=cores,
        target_accept=target_accept,
        progressbar=progressbar,
    )
    if model in RANK_MODELS:
        return _fit_rank_model(
            model,
            y_true,
            y_score,
            transform=transform,
            priors=priors,
            method=method,
            sampler=sampler,
            ci_prob=ci_prob,
            random_seed=random_seed,
            pos_label=pos_label,
            n_categories=n_categories,
            groups=groups,
        )
    if method == "laplace":
        raise ValueError(
            "`method`='laplace' is the fast sampler of model='semiparametric'; the "
            "parametric model uses 'exact' (or 'nuts')"
        )
    priors = check_fit_options(transform, method, draws, chains, ci_prob, priors)
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos = int(is_pos.sum())
    if n_pos == 0 or n_pos == is_pos.size:
        raise ValueError(
            f"`y_true` must contain both classes to fit the binormal model; got {n_pos} "
            f"positive(s) out of {is_pos.size}"
        )
    if ranked.all_tied:
        # np.std of equal floats can be 1e-17, not 0: a parametric fit would make up an AP
        raise ValueError(
            f"`y_score` has a single distinct value ({float(score[0])!r}): all scores are "
            "tied, so they carry no information on the classes; the AP of such a score is "
            "the prevalence and its ROC AUC is 0.5 (see `compare_intervals`)"
        )
    t = transform_scores(score, transform, "y_score", stacklevel=3)
    loc_t, scale_t = location_scale(t)  # safe for scores of any magnitude
    location = loc_t if priors.location is None else priors.location
    scale = scale_t if priors.scale is None else priors.scale
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    z = (t - location) / scale
    stats_neg, stats_pos = sufficient_statistics(z, is_pos)
    ordinal = ordinal_categories(is_pos, score) if 0 < n_pos < is_pos.size else None
    posterior = fit_from_statistics(
        stats_neg,
        stats_pos,
        location=location,
        scale=scale,
        transform=transform,
        priors=priors,
        method=method,
        sampler=sampler,
        ci_prob=ci_prob,
        random_seed=random_seed,
        n=int(is_pos.size),
        ordinal=ordinal,
    )
    # the parametric model's fit check: is each class normal on the fitted scale?
    posterior._normality = normality_p_values(z, is_pos)
    return posterior


def _fit_rank_model(
    model,
    y_true,
    y_score,
    *,
    transform,
    priors,
    method,
    sampler,
    ci_prob,
    random_seed,
    pos_label,
    n_categories,
    groups=None,
):
    """The rank-based branch of :func:`fit_binormal` (:data:`RANK_MODELS`).

    ``sampler`` is the fit's :class:`SamplerOptions` (the fast samplers read its draws
    and chains).
    """
    from . import _model
    from ._contaminated import ContaminatedPriors, sample_contaminated_laplace
    from ._flexible import FlexiblePriors, sample_flexible_laplace

    priors_cls, fast_sampler = {
        "semiparametric": (SemiparametricPriors, sample_semiparametric_grid),
        "flexible": (FlexiblePriors, sample_flexible_laplace),
        "contaminated": (ContaminatedPriors, sample_contaminated_laplace),
    }[model]
    priors = priors_cls.from_any(priors)
    is_pos, _, ordinal, ranked = _prepare_rank_data(
        y_true,
        y_score,
        model,
        transform,
        method,
        sampler.draws,
        sampler.chains,
        ci_prob,
        pos_label,
        n_categories,
    )
    fit_data, clusters, deff = ordinal, None, None
    if groups is not None:
        clusters = check_groups(groups, ranked.n_samples)
        if not clusters.singletons:
            # the likelihood tempered by the design effect: the counts (and the check
            # bins, Rao & Scott's first-order correction) count 1 / deff each
            deff = cluster_design_effect(ranked, clusters)
            check = None if ordinal.check_counts is None else ordinal.check_counts / deff
            fit_data = replace(ordinal, counts=ordinal.counts / deff)
            ordinal = replace(ordinal, check_counts=check)
    rng = check_random_state(random_seed)
    extras = {}  # what the fast sampler reports about itself (grid, importance weights)
    if method == "laplace":
        out = fast_sampler(
            fit_data, priors, draws=int(sampler.draws), chains=int(sampler.chains), rng=rng
        )
        extras = {k: out.pop(k) for k in ("grid", "importance") if k in out}
        idata = None
    else:
        idata = _model.sample_rank_nuts(model, fit_data, priors, rng=rng, sampler=sampler)
        out = None
    posterior = _rank_posterior(
        model, out, idata, extras, method, transform, priors, ci_prob, int(is_pos.size), ordinal
    )
    posterior.design_effect = deff
    posterior.tied_values = discrete_values(ranked.y_score)
    posterior.n_clusters = None if clusters is None else clusters.n_clusters
    posterior._n_above = positives_above_negatives(is_pos, ranked.y_score)
    posterior._fit_companion = fit_companion
    if method == "nuts":
        posterior._check_diagnostics()
    return posterior


def _rank_posterior(model, out, idata, extras, method, transform, priors, ci_prob, n, ordinal):
    """The :class:`BinormalPosterior` of a rank-based model from its sampler's output."""
    from ._posterior import BinormalPosterior

    if model == "semiparametric":  # the binormal model on the latent scale
        if out is None:
            out = {k: idata["posterior"][k].values for k in ("prevalence", "mu", "sigma")}
            out["cutpoints"] = idata["posterior"]["cutpoints"].values
        out = {
            "prevalence": out["prevalence"],
            "mu_pos": out["mu"],
            "sigma_pos": out["sigma"],
            "mu_neg": np.zeros_like(out["mu"]),
            "sigma_neg": np.ones_like(out["mu"]),
            "cutpoints": out["cutpoints"],
        }
    posterior = BinormalPosterior._from_fit(
        std_draws=out,
        idata=idata,
        method=method,
        transform=transform,
        priors=priors,
        location=0.0,
        scale=1.0,
        stats=None,
        ci_prob=float(ci_prob),
        n=int(n),
        ordinal=ordinal,
        model_type=model,
    )
    for name, value in extras.items():
        setattr(posterior, name, value)
    return posterior


def fit_companion(posterior, model, random_seed):
    """``model`` fitted with its fast sampler to the prepared data of a rank-based fit.

    The companions of the model-averaged band (:meth:`BinormalPosterior.pr_band`): the
    same ordered categories (and, with clusters, the same tempered counts) as
    ``posterior``, its draws and chains, the model's default priors and
    ``method="laplace"`` whatever sampler ``posterior`` used.
    """
    from ._contaminated import ContaminatedPriors, sample_contaminated_laplace
    from ._flexible import FlexiblePriors, sample_flexible_laplace

    priors_cls, fast_sampler = {
        "semiparametric": (SemiparametricPriors, sample_semiparametric_grid),
        "flexible": (FlexiblePriors, sample_flexible_laplace),
        "contaminated": (ContaminatedPriors, sample_contaminated_laplace),
    }[model]
    priors = priors_cls.from_any(None)
    ordinal, deff = posterior.ordinal, posterior.design_effect
    fit_data = ordinal if deff is None else replace(ordinal, counts=ordinal.counts / deff)
    chains, draws = posterior.model.batch_shape
    rng = check_random_state(random_seed)
    out = fast_sampler(fit_data, priors, draws=int(draws), chains=int(chains), rng=rng)
    extras = {k: out.pop(k) for k in ("grid", "importance") if k in out}
    companion = _rank_posterior(
        model,
        out,
        None,
        extras,
        "laplace",
        posterior.transform,
        priors,
        posterior.ci_prob,
        posterior.n,
        ordinal,
    )
    companion.design_effect = deff
    companion.tied_values = posterior.tied_values
    companion.n_clusters = posterior.n_clusters
    companion._n_above = posterior._n_above
    companion._fit_companion = fit_companion
    return companion


def _prepare_rank_data(
    y_true, y_score, model, transform, method, draws, chains, ci_prob, pos_label, n_categories
):
    """Validation and ordered categories shared by the rank-based models.

    Returns ``(is_pos, score, ordinal)``; errors name the parameter and the model.
    """
    name = _RANK_MODEL_NAMES[model]
    if method == "exact":
        raise ValueError(
            "`method`='exact' needs model='parametric' (only the parametric model has a "
            f"closed-form posterior); the {model} model uses 'laplace' or 'nuts'"
        )
    check_fit_options(transform, method, draws, chains, ci_prob, None)
    if n_categories is not None:
        check_int(n_categories, "n_categories", minimum=2)
    if is_dask(y_true) or is_dask(y_score):
        raise ValueError(
            f"model='{model}' needs in-memory arrays (it sorts the scores); "
            "compute them first or use model='parametric' for one-pass dask statistics"
        )
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos = int(is_pos.sum())
    if n_pos < 2 or n_pos > is_pos.size - 2:
        raise ValueError(
            f"`y_true` needs at least 2 positives and 2 negatives to fit the {name}; got "
            f"{n_pos} positive(s) and {is_pos.size - n_pos} "
            "negative(s) (with fewer, use a bootstrap or `compare_intervals`' frequentist "
            "rows)"
        )
    if transform is not None:
        transform_scores(score, transform, "y_score", stacklevel=5)  # validates only
    if ranked.all_tied:
        raise ValueError(
            f"`y_score` has a single distinct value ({float(score[0])!r}): all scores are "
            f"tied, so the {model} model has no ranks to fit (it needs at least two "
            "ordered categories); the AP of such a score is the prevalence and its ROC AUC "
            "is 0.5 (see `compare_intervals`)"
        )
    return is_pos, score, ordinal_categories(is_pos, score, n_categories), ranked


def check_fit_options(transform, method, draws, chains, ci_prob, priors):
    """Validate the data-independent options of :func:`fit_binormal`; returns the priors."""
    check_transform(transform)
    check_choice(method, "method", FIT_METHODS)
    check_int(draws, "draws")
    check_int(chains, "chains")
    check_probability(ci_prob, "ci_prob")
    return BinormalPriors.from_any(priors)


def fit_from_statistics(
    stats_neg,
    stats_pos,
    *,
    location,
    scale,
    transform,
    priors,
    method,
    sampler,
    ci_prob,
    random_seed,
    n,
    ordinal=None,
):
    """The posterior from per-class statistics of standardized scores (any data size).

    ``stats_neg``, ``stats_pos`` are :class:`ClassStats` of ``(t - location) / scale``
    with ``t`` the (transformed) scores; ``n`` the number of items; ``sampler`` a
    :class:`SamplerOptions`. Shared by the
    in-memory path of :func:`fit_binormal` and the dask path of :mod:`bayes_prc.scale`.
    """
    from ._posterior import BinormalPosterior

    rng = check_random_state(random_seed)

    if method == "exact":
        std_draws = sample_exact_posterior(
            stats_neg,
            stats_pos,
            priors,
            draws=int(sampler.draws),
            chains=int(sampler.chains),
            rng=rng,
        )
        idata = None
    else:
        from ._model import sample_binormal_nuts

        idata = sample_binormal_nuts(stats_neg, stats_pos, priors, rng=rng, sampler=sampler)
        post = idata["posterior"]
        mu = post["mu"].values
        sigma = post["sigma"].values
        std_draws = {
            "prevalence": post["prevalence"].values,
            "mu_neg": mu[..., 0],
            "mu_pos": mu[..., 1],
            "sigma_neg": sigma[..., 0],
            "sigma_pos": sigma[..., 1],
        }
    posterior = BinormalPosterior._from_fit(
        std_draws=std_draws,
        idata=idata,
        method=method,
        transform=transform,
        priors=priors,
        location=location,
        scale=scale,
        stats=(stats_neg, stats_pos),
        ci_prob=float(ci_prob),
        n=int(n),
        ordinal=ordinal,
    )
    if method == "nuts":
        posterior._check_diagnostics()
    return posterior
