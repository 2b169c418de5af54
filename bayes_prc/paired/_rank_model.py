r"""The joint rank model of two classifiers: PyMC reference model, NUTS, and the fit.

The model is in :mod:`._rank` (Metz, Wang & Kronman 1984). Here:

* :func:`build_paired_rank_model`, the PyMC model of the same prior and likelihood, the
  NUTS reference of the fast sampler. Its bivariate normal CDF is Plackett's (1954)
  integral over the correlation, ``Phi2(h, k; r) = Phi(h) Phi(k) + (1 / 2 pi)
  int_0^{asin r} exp(-(h^2 + k^2 - 2 h k sin t) / (2 cos^2 t)) dt``, by a 40-point
  Gauss-Legendre rule: elementwise PyTensor operations, so it is differentiable. It is
  accurate to about 1e-8 for ``|r| <= 0.95`` (tested against the numpy CDF), the range
  where a reference fit is used; the fast sampler's CDF (:mod:`._bvn`) is accurate
  for every ``r``.
* :func:`fit_joint_rank_posterior`: data in, posterior draws of both classifiers' AP
  (and precision at a recall) out, by either sampler, with the deviance fit check.

References
----------
.. [1] C. E. Metz, P.-L. Wang and H. B. Kronman, "A new approach for testing the
   significance of differences between ROC curves measured from correlated data", in
   F. Deconinck (ed.), Information Processing in Medical Imaging, Nijhoff, 1984,
   pp. 432-445.
.. [2] R. L. Plackett, "A reduction formula for normal multivariate integrals",
   Biometrika 41 (1954) 351-360.
"""

from __future__ import annotations

import numpy as np

from ..bayes import TIED_SCORE_MESSAGE, SamplerOptions, priors_key, sample_nuts
from ._bivariate import PairedDraws, PairedFit, check_nuts_diagnostics, correlations, curve_draws
from ._rank import (
    JointRankPriors,
    paired_categories,
    paired_fit_check,
    sample_paired_laplace,
)

__all__ = [
    "ROC_NAMES",
    "build_paired_rank_model",
    "fit_joint_rank_posterior",
    "paired_rank_data",
    "pt_bvn_cdf",
    "sample_paired_nuts",
]

#: The model's scalar parameters (besides the prevalence and the cutpoints).
ROC_NAMES = ("mu_a", "sigma_a", "mu_b", "sigma_b", "rho_neg", "rho_pos")
_u, _w = np.polynomial.legendre.leggauss(40)


def pt_bvn_cdf(h, k, r):
    """``Phi2(h, k; r)`` in PyTensor for finite ``h``, ``k`` (Plackett's integral, 40 nodes).

    ``h``, ``k`` and ``r`` broadcast; the Gauss-Legendre nodes run along a new last axis.
    """
    import pytensor.tensor as pt
    from pymc.math import invprobit

    a = pt.arcsin(r)
    t = 0.5 * a[..., None] * (1.0 + _u)
    sn, cs2 = pt.sin(t), pt.cos(t) ** 2
    hh, kk = h[..., None], k[..., None]
    f = pt.exp(-(hh * hh + kk * kk - 2.0 * hh * kk * sn) / (2.0 * cs2))
    return invprobit(h) * invprobit(k) + 0.5 * a * pt.sum(f * _w, axis=-1) / (2.0 * np.pi)


def _pt_cell_probs(h, k, r):
    """Flattened rectangle probabilities (K_a K_b,) of interior edges ``h``, ``k`` (PyTensor)."""
    import pytensor.tensor as pt
    from pymc.math import invprobit

    inner = pt_bvn_cdf(h[:, None], k[None, :], r)  # (K_a - 1, K_b - 1)
    ka1, kb1 = h.shape[0] + 1, k.shape[0] + 1
    top = pt.concatenate([invprobit(k), pt.ones((1,))])[None, :]  # F(+inf, k_j)
    right = invprobit(h)[:, None]  # F(h_i, +inf)
    f = pt.concatenate([pt.concatenate([inner, right], axis=1), top], axis=0)
    f = pt.concatenate([pt.zeros((1, kb1)), f], axis=0)
    f = pt.concatenate([pt.zeros((ka1 + 1, 1)), f], axis=1)  # (K_a + 1, K_b + 1)
    p = f[1:, 1:] - f[:-1, 1:] - f[1:, :-1] + f[:-1, :-1]
    return pt.clip(p.flatten(), 1e-300, 1.0)


def paired_rank_data(data):
    """The data containers of :func:`build_paired_rank_model` for :class:`PairedOrdinalData`."""
    counts = np.asarray(data.counts, dtype=np.int64)
    return {
        "n_neg": np.int64(counts[0].sum()),
        "n_pos_observed": np.int64(counts[1].sum()),
        "counts_neg_observed": counts[0].ravel(),
        "counts_pos_observed": counts[1].ravel(),
    }


def build_paired_rank_model(data, priors):
    """The PyMC joint rank model (see :mod:`._rank`) for ``K_a x K_b`` tables."""
    import pymc as pm
    import pytensor.tensor as pt
    from pymc.distributions.transforms import ordered

    from ..bayes import initial_cutpoints

    ka, kb = data.shape
    coords = {"cell": np.arange(ka * kb), "cut_a": np.arange(ka - 1), "cut_b": np.arange(kb - 1)}
    with pm.Model(coords=coords) as model:
        d = {name: pm.Data(name, value) for name, value in paired_rank_data(data).items()}
        prevalence = pm.Beta("prevalence", priors.prevalence_alpha, priors.prevalence_beta)
        mu_a = pm.Normal("mu_a", 0.0, priors.mu_sd)
        sigma_a = pm.LogNormal("sigma_a", 0.0, priors.log_sigma_sd)
        mu_b = pm.Normal("mu_b", 0.0, priors.mu_sd)
        sigma_b = pm.LogNormal("sigma_b", 0.0, priors.log_sigma_sd)
        z = pm.Normal("rho_z", priors.rho_z_loc, priors.rho_z_sd, shape=2)
        rho = pt.tanh(z)
        pm.Deterministic("rho_neg", rho[0])
        pm.Deterministic("rho_pos", rho[1])
        cuts = []
        for name, k in (("cutpoints_a", ka), ("cutpoints_b", kb)):
            init = initial_cutpoints(
                np.ones((2, k), dtype=np.int64), np.array([1.0]), np.array([1.0])
            )[0]
            cuts.append(
                pm.Normal(
                    name,
                    0.0,
                    priors.cutpoint_sd,
                    dims=name.replace("points", ""),
                    transform=ordered,
                    initval=init,
                )
            )
        c, dd = cuts
        pm.Binomial(
            "n_pos", n=d["n_neg"] + d["n_pos_observed"], p=prevalence, observed=d["n_pos_observed"]
        )
        p_neg = _pt_cell_probs(c, dd, rho[0])
        p_pos = _pt_cell_probs((c - mu_a) / sigma_a, (dd - mu_b) / sigma_b, rho[1])
        pm.Multinomial(
            "counts_neg",
            n=d["n_neg"],
            p=p_neg / pt.sum(p_neg),
            observed=d["counts_neg_observed"],
            dims="cell",
        )
        pm.Multinomial(
            "counts_pos",
            n=d["n_pos_observed"],
            p=p_pos / pt.sum(p_pos),
            observed=d["counts_pos_observed"],
            dims="cell",
        )
    return model


def sample_paired_nuts(data, priors, **kwargs):
    """NUTS draws of :func:`build_paired_rank_model`, compiled once per table shape and prior."""
    key = ("paired_rank", tuple(data.shape), priors_key(priors))
    return sample_nuts(
        key, lambda: build_paired_rank_model(data, priors), paired_rank_data(data), **kwargs
    )


def _paired_draws(post):
    """Named draws (chain, draw) -> :class:`PairedDraws` (latent scale, negatives N(0, I))."""
    mu_a, sa, mu_b, sb, r0, r1 = (np.asarray(post[n], dtype=np.float64) for n in ROC_NAMES)
    zero, one = np.zeros_like(mu_a), np.ones_like(mu_a)
    mu = np.stack([np.stack([zero, zero], -1), np.stack([mu_a, mu_b], -1)], axis=-2)
    cov_neg = np.stack([np.stack([one, r0], -1), np.stack([r0, one], -1)], -1)
    cab = r1 * sa * sb
    cov_pos = np.stack([np.stack([sa * sa, cab], -1), np.stack([cab, sb * sb], -1)], -1)
    return PairedDraws(
        prevalence=np.asarray(post["prevalence"]), mu=mu, cov=np.stack([cov_neg, cov_pos], axis=-3)
    )


def fit_joint_rank_posterior(
    is_pos,
    score_a,
    score_b,
    *,
    priors,
    bayes_method,
    draws,
    chains,
    rng,
    recall=None,
    tune=1000,
    cores=None,
    target_accept=0.9,
    progressbar=None,
    n_categories=None,
):
    """Posterior draws of both classifiers' AP (and precision at ``recall``).

    ``bayes_method="exact"`` runs the fast sampler of :mod:`._rank` (its
    ``importance`` diagnostics are returned as ``diagnostics``), ``"nuts"`` PyMC's NUTS
    on :func:`build_paired_rank_model`. Returns a :class:`PairedFit` whose ``fit_check``
    is the deterministic deviance check (:func:`._rank.paired_fit_check`).
    """
    priors = JointRankPriors.from_any(priors)
    data = paired_categories(is_pos, score_a, score_b, n_categories)
    for name, d in (("score_a", data.data_a), ("score_b", data.data_b)):
        if d.n_categories < 2:  # no cutpoint: the classifier's ROC is not identified
            raise ValueError(TIED_SCORE_MESSAGE.format(name=name))
    idata = None
    if bayes_method == "exact":
        out = sample_paired_laplace(data, priors, draws=draws, chains=chains, rng=rng)
        diagnostics = {k: v for k, v in out["importance"].items() if k != "mode"}
    else:
        sampler = SamplerOptions(
            draws=draws,
            chains=chains,
            tune=tune,
            cores=cores,
            target_accept=target_accept,
            progressbar=progressbar,
        )
        idata = sample_paired_nuts(data, priors, rng=rng, sampler=sampler)
        out = {n: idata["posterior"][n].values for n in (*ROC_NAMES, "prevalence")}
        diagnostics = None
    post = _paired_draws(out)
    ap_a, ap_b, extra = curve_draws(post, recall, idata)
    if idata is not None:
        names = ["prevalence", *ROC_NAMES, "ap_difference"]
        diagnostics = check_nuts_diagnostics(idata, names)
    return PairedFit(
        ap_a=ap_a.ravel(),
        ap_b=ap_b.ravel(),
        correlation=correlations(post).reshape(-1, 2),
        locations=np.zeros(2),
        scales=np.ones(2),
        stats=(data,),
        idata=idata,
        diagnostics=diagnostics,
        fit_check=paired_fit_check(is_pos, score_a, score_b, priors),
        **extra,
    )
