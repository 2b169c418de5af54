"""What the comparison tables share: argument checks and the Bayesian fit of a row."""

from __future__ import annotations

from .._core import check_probability


def _check_ci_prob(ci_prob):
    """The one probability check of the package (NumPy scalars accepted, as elsewhere)."""
    return check_probability(ci_prob, "ci_prob")


def _separated(is_pos, score):
    """Every positive scored above every negative (both classes present)."""
    if not 0 < int(is_pos.sum()) < is_pos.size:
        return False
    return bool(score[is_pos].min() > score[~is_pos].max())


def _check_methods(methods, valid, default):
    """``methods`` as a tuple (``default`` when None): a non-empty subset of ``valid``."""
    methods = default if methods is None else tuple(methods)
    unknown = [m for m in methods if m not in valid]
    if unknown or not methods:
        raise ValueError(f"`methods` must be a non-empty subset of {valid}; got unknown {unknown}")
    return methods


def fit_or_reuse(y, s, posterior, transform, bayes_method, random_seed, progressbar, model):
    """``posterior`` when it is a fit of ``model``, else a new fit.

    ``bayes_method`` "exact" and "laplace" name the fast sampler of whichever model is
    fit (the tables mix models), so they map to "auto"; "nuts" stays.

    Parameters
    ----------
    y, s : array-like or Ranked
        Labels and scores, as :func:`bayes_prc.fit_binormal` takes them.
    posterior : BinormalPosterior or None
        A fit to reuse when its ``model_type`` is ``model``.
    transform : {None, "logit", "probit"}
        Score transform, used by the parametric model only.
    bayes_method : {"auto", "nuts", "exact", "laplace"}
    random_seed : int, Generator or None
    progressbar : bool
    model : str
        One of the models of :func:`bayes_prc.fit_binormal`.

    Returns
    -------
    BinormalPosterior
    """
    if posterior is not None and getattr(posterior, "model_type", "parametric") == model:
        return posterior
    from ..bayes import fit_binormal

    return fit_binormal(
        y,
        s,
        model=model,
        transform=transform if model == "parametric" else None,
        method="auto" if bayes_method in ("exact", "laplace") else bayes_method,
        random_seed=random_seed,
        progressbar=progressbar,
    )


def _bayes_fit(ranked, posterior, transform, bayes_method, seed, progressbar, model, attrs):
    """Fit one Bayesian model for the table (None, with a note, when it cannot be fit)."""
    try:
        post = fit_or_reuse(
            ranked, None, posterior, transform, bayes_method, seed, progressbar, model
        )
    except ValueError as err:
        if model == "parametric":
            raise
        attrs["notes"][model] = str(err)
        return None
    attrs["fit_checks"][model] = post.fit_check(random_seed=seed)
    return post
