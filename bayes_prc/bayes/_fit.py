"""``fit_binormal``: data in, :class:`BinormalPosterior` out."""

from __future__ import annotations

import numpy as np

from .._ranking import _is_dask
from .._validation import check_random_state, validate_binary_inputs
from ._common import transform_scores
from ._priors import BinormalPriors, sample_exact_posterior, sufficient_statistics

__all__ = ["fit_binormal", "TRANSFORMS", "METHODS"]

TRANSFORMS = (None, "logit", "probit")
METHODS = ("nuts", "exact")


def _transform_scores(y_score, transform):
    """Scores on the fitted scale and the transform's name (see ``transform_scores``)."""
    return transform_scores(y_score, transform, "y_score", stacklevel=4), transform


def fit_binormal(
    y_true,
    y_score,
    *,
    transform=None,
    priors=None,
    method="nuts",
    draws=1000,
    chains=4,
    ci_prob=0.94,
    random_seed=None,
    progressbar=True,
    tune=1000,
    cores=None,
    target_accept=0.9,
    pos_label=None,
):
    """Fit the Bayesian binormal model of the scores.

    Positives' scores ~ N(mu_pos, sigma_pos), negatives' ~ N(mu_neg, sigma_neg), labels ~
    Bernoulli(prevalence). Every posterior draw is a whole analytic PR curve, so the PR
    band, the AP posterior and the operating points come from the same draws (Brodersen
    et al. 2010 for the binormal PR curve).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores; both classes must be present.
    transform : {None, "logit", "probit"}, default None
        Fit the binormal model to ``logit(score)`` or ``probit(score)`` (for probability
        outputs in [0, 1]; exact 0 and 1 are moved just inside with a warning). The PR
        curve is invariant to monotone transforms; thresholds are reported on the
        original score scale.
    priors : BinormalPriors, dict or None
        The conjugate Normal-Inverse-Gamma / Beta prior on standardized scores (see
        :class:`BinormalPriors`; defaults are weakly informative and scale-invariant).
    method : {"nuts", "exact"}, default "nuts"
        ``"nuts"`` samples the PyMC model; ``"exact"`` draws independent samples from
        the closed-form conjugate posterior (same prior, same posterior, ~1000x faster,
        no diagnostics needed).
    draws, chains : int, default 1000, 4
        Posterior draws per chain and number of chains.
    ci_prob : float, default 0.94
        Default probability of credible intervals and bands (ArviZ's default).
    random_seed : int, numpy.random.Generator or None
        Same seed, same draws.
    progressbar : bool, default True
        Show PyMC's progress bar while sampling (NUTS only).
    tune, cores, target_accept
        Passed to :func:`pymc.sample` (NUTS only).
    pos_label : label, optional
        Positive label when ``y_true`` is not {0, 1} / {-1, 1}.

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
    >>> post = bp.fit_binormal(y, s, method="exact", random_seed=1)
    >>> ap = post.average_precision()
    >>> ap.dims
    ('chain', 'draw')
    >>> bool(0 < float(ap.mean()) < 1)
    True
    """
    if _is_dask(y_true) or _is_dask(y_score):  # lazy one-pass statistics: bayes_prc.scale
        from ..scale import _dask_fit_binormal

        return _dask_fit_binormal(
            y_true,
            y_score,
            transform=transform,
            priors=priors,
            method=method,
            draws=draws,
            chains=chains,
            ci_prob=ci_prob,
            random_seed=random_seed,
            progressbar=progressbar,
            tune=tune,
            cores=cores,
            target_accept=target_accept,
            pos_label=pos_label,
        )
    priors = _check_fit_options(transform, method, draws, chains, ci_prob, priors)
    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    n_pos = int(is_pos.sum())
    if n_pos == 0 or n_pos == is_pos.size:
        raise ValueError(
            f"`y_true` must contain both classes to fit the binormal model; got {n_pos} "
            f"positive(s) out of {is_pos.size}"
        )
    t, transform = _transform_scores(score, transform)
    location = float(np.mean(t)) if priors.location is None else priors.location
    scale = float(np.std(t)) if priors.scale is None else priors.scale
    if not scale > 0:
        raise ValueError("`y_score` has a single distinct value; the scores need spread")
    z = (t - location) / scale
    stats_neg, stats_pos = sufficient_statistics(z, is_pos)
    return _fit_from_statistics(
        stats_neg,
        stats_pos,
        location=location,
        scale=scale,
        transform=transform,
        priors=priors,
        method=method,
        draws=draws,
        chains=chains,
        ci_prob=ci_prob,
        random_seed=random_seed,
        progressbar=progressbar,
        tune=tune,
        cores=cores,
        target_accept=target_accept,
        n=int(is_pos.size),
    )


def _check_fit_options(transform, method, draws, chains, ci_prob, priors):
    """Validate the data-independent options of :func:`fit_binormal`; returns the priors."""
    if transform not in TRANSFORMS:
        raise ValueError(f"`transform` must be one of {TRANSFORMS}; got {transform!r}")
    if method not in METHODS:
        raise ValueError(f"`method` must be one of {METHODS}; got {method!r}")
    for name, value in (("draws", draws), ("chains", chains)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"`{name}` must be a positive integer; got {value!r}")
    if not (isinstance(ci_prob, (float, int)) and 0 < ci_prob < 1):
        raise ValueError(f"`ci_prob` must be in (0, 1); got {ci_prob!r}")
    return BinormalPriors.from_any(priors)


def _fit_from_statistics(
    stats_neg,
    stats_pos,
    *,
    location,
    scale,
    transform,
    priors,
    method,
    draws,
    chains,
    ci_prob,
    random_seed,
    progressbar,
    tune,
    cores,
    target_accept,
    n,
):
    """The posterior from per-class statistics of standardized scores (any data size).

    ``stats_neg``, ``stats_pos`` are :class:`ClassStats` of ``(t - location) / scale``
    with ``t`` the (transformed) scores; ``n`` the number of items. Shared by the
    in-memory path of :func:`fit_binormal` and the dask path of :mod:`bayes_prc.scale`.
    """
    from ._posterior import BinormalPosterior

    rng = check_random_state(random_seed)

    if method == "exact":
        std_draws = sample_exact_posterior(
            stats_neg, stats_pos, priors, draws=int(draws), chains=int(chains), rng=rng
        )
        idata = None
    else:
        from ._model import build_model, sample_nuts

        model = build_model(stats_neg, stats_pos, priors)
        seeds = rng.integers(0, 2**31 - 1, size=int(chains)).tolist()
        idata = sample_nuts(
            model,
            draws=int(draws),
            chains=int(chains),
            tune=int(tune),
            random_seed=seeds,
            progressbar=progressbar,
            cores=cores,
            target_accept=target_accept,
        )
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
    )
    if method == "nuts":
        posterior._check_diagnostics()
    return posterior
