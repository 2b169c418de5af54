r"""The Bayesian paired binormal model: two classifiers scored on the same items.

Each item ``i`` has a label and two scores, ``x_i = (a_i, b_i)`` from classifiers A and B
(each standardized by its own mean and standard deviation, after an optional
logit/probit transform). Per class ``c`` (``neg``, ``pos``) the pair is bivariate normal,
so the correlation of the two classifiers' scores on the same items is estimated::

    prevalence            ~ Beta(a, b)
    Sigma_c               ~ InverseWishart(nu0, Psi0)
    mu_c | Sigma_c        ~ Normal_2(m0, Sigma_c / kappa0)
    x_i | class c         ~ Normal_2(mu_c, Sigma_c)

The marginal of a bivariate normal is normal, so each draw gives classifier A's
univariate binormal model ``(mu_c[a], sqrt(Sigma_c[a, a]))`` and B's, and through
:class:`bayes_prc.binormal.Binormal` their AP and precision at a recall: the posterior
of ``AP_B - AP_A`` keeps the dependence the shared items create.

Prior correspondence. The prior is built from the univariate
:class:`~bayes_prc.bayes.BinormalPriors`: ``m0 = (mu_loc, mu_loc)``, ``kappa0 =
mu_kappa``, ``nu0 = 2 sigma2_alpha + 1`` and ``Psi0 = 2 sigma2_beta I``. A diagonal
block of an inverse-Wishart is inverse-Wishart with ``nu0 - 1`` degrees of freedom, i.e.
``Sigma_c[a, a] ~ InverseGamma(sigma2_alpha, sigma2_beta)``, so each classifier's
marginal prior *and* marginal posterior are exactly those of
:func:`~bayes_prc.fit_binormal` with the same priors (tested). The default (``nu0 = 5``,
``Psi0 = 2 I``) has prior mean ``E[Sigma] = Psi0 / (nu0 - 3) = I`` and puts the density
``(1 - rho^2) / (4/3)`` on the within-class correlation ``rho``: weak, centred on 0.

Two samplers of the same posterior:

* ``"exact"``: the conjugate Normal-Inverse-Wishart update (Gelman et al., BDA3, 3.6)
  with ``kappa_n = kappa0 + n``, ``m_n = (kappa0 m0 + n xbar) / kappa_n``,
  ``nu_n = nu0 + n``, ``Psi_n = Psi0 + S + kappa0 n / kappa_n (xbar - m0)(xbar - m0)^T``
  (``S`` the scatter matrix), sampled in closed form with
  :data:`scipy.stats.invwishart` and a Cholesky factor for the mean.
* ``"nuts"``: a PyMC model of the same prior and likelihood in the regression
  parameterization of the 2x2 covariance, ``var_a = Sigma[a, a]``, ``slope =
  Sigma[a, b] / Sigma[a, a]`` and ``resid_var = Sigma[b, b] - slope^2 var_a``. The
  inverse-Wishart factorizes exactly in it (the partition theorem of the inverted
  Wishart, Gupta & Nagar 2000, ch. 3; checked against scipy in the tests):
  ``var_a ~ InvGamma((nu0 - 1)/2, Psi11/2)``, ``resid_var ~ InvGamma(nu0/2,
  Psi22.1/2)`` independent, ``slope | resid_var ~ Normal(Psi12/Psi11,
  sqrt(resid_var/Psi11))``. The likelihood uses the sufficient statistics as observed
  variables, so its cost does not grow with n: the mean vector ``xbar ~ Normal_2(mu,
  Sigma/n)`` as ``xbar_a`` then ``xbar_b | xbar_a``, and the scatter matrix ``S ~
  Wishart(n - 1, Sigma)`` by its partition into ``S_aa``, the regression of ``S_ab`` on
  it and the residual (Muirhead 1982, section 3.2): ``S_aa ~ Gamma((n-1)/2, rate
  1/(2 var_a))``, ``S_ab | S_aa ~ Normal(slope S_aa, sqrt(resid_var S_aa))`` and
  ``S_bb - S_ab^2/S_aa ~ Gamma((n-2)/2, rate 1/(2 resid_var))`` independent. Their
  joint density is the full-data likelihood up to a constant in the parameters
  (tested against scipy's densities of all items). Every term is elementwise (no
  matrix decomposition in the graph), and the posterior in these coordinates is
  well-scaled and nearly Gaussian for NUTS.

Only :func:`build_model` and the NUTS path (:mod:`._compiled`, which compiles the model
once per structure and process) import PyMC, and only when called.

References
----------
.. [1] A. Gelman, J. B. Carlin, H. S. Stern, D. B. Dunson, A. Vehtari and D. B. Rubin,
   *Bayesian Data Analysis*, 3rd ed., CRC Press, 2013, section 3.6.
.. [2] R. J. Muirhead, *Aspects of Multivariate Statistical Theory*, Wiley, 1982,
   section 3.2.
.. [3] A. K. Gupta and D. K. Nagar, *Matrix Variate Distributions*, Chapman & Hall/CRC,
   2000, chapter 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._core.transforms import location_scale, transform_scores
from ..bayes import (
    TIED_SCORE_MESSAGE,
    SamplerOptions,
    convergence_diagnostics,
    sample_nuts,
    warn_if_unreliable,
)
from ..binormal import Binormal

__all__ = [
    "NIWPrior",
    "PairedClassStats",
    "build_model",
    "check_nuts_diagnostics",
    "correlations",
    "curve_draws",
    "fit_paired_posterior",
    "marginal_models",
    "model_data",
    "niw_posterior",
    "paired_sufficient_statistics",
    "PairedDraws",
    "PairedFit",
    "posterior_from_idata",
    "sample_exact_posterior",
    "sample_nuts_posterior",
    "standardize_pair",
]

CLASSES = ("neg", "pos")
_TINY = 1e-300  # a zero scatter (tied scores) has density 0; see build_model


# --------------------------------------------------------------------------------------
# data -> standardized scores -> sufficient statistics
# --------------------------------------------------------------------------------------
def standardize_pair(t_a, t_b, location=None, scale=None):
    """Stack the two (transformed) score vectors as ``(n, 2)``, each standardized.

    Each column is centred and scaled by its own mean and standard deviation (``ddof=0``,
    as :func:`~bayes_prc.fit_binormal` does) unless ``location``/``scale`` are given, in
    which case they are used for both. Returns ``(z, locations, scales)``.
    """
    locs, scales = [], []
    for name, t in (("score_a", t_a), ("score_b", t_b)):
        loc_t, sc_t = location_scale(t)  # safe for scores of any magnitude
        loc = loc_t if location is None else float(location)
        sc = sc_t if scale is None else float(scale)
        if not sc > 0 or np.min(t) == np.max(t):  # np.std of equal floats can be 1e-17
            raise ValueError(TIED_SCORE_MESSAGE.format(name=name))
        locs.append(loc)
        scales.append(sc)
    z = np.column_stack([(t_a - locs[0]) / scales[0], (t_b - locs[1]) / scales[1]])
    return z, tuple(locs), tuple(scales)


@dataclass(frozen=True, eq=False)
class PairedClassStats:
    """Sufficient statistics of one class's standardized score pairs.

    Attributes
    ----------
    n : int
        Number of items of the class.
    mean : numpy.ndarray of shape (2,)
        Mean score of classifiers A and B.
    scatter : numpy.ndarray of shape (2, 2)
        ``sum_i (x_i - mean)(x_i - mean)^T``.
    """

    n: int
    mean: np.ndarray
    scatter: np.ndarray


def paired_sufficient_statistics(z, is_pos):
    """Per-class ``(negative, positive)`` sufficient statistics of ``(n, 2)`` scores.

    Examples
    --------
    >>> import numpy as np
    >>> from bayes_prc.paired._bivariate import paired_sufficient_statistics
    >>> z = np.array([[0.0, 1.0], [2.0, 1.0], [1.0, 3.0], [3.0, 5.0]])
    >>> neg, pos = paired_sufficient_statistics(z, np.array([False, False, True, True]))
    >>> pos.n, pos.mean.tolist(), pos.scatter.tolist()
    (2, [2.0, 4.0], [[2.0, 2.0], [2.0, 2.0]])
    """
    out = []
    for mask in (~is_pos, is_pos):
        x = z[mask]
        n = int(x.shape[0])
        mean = x.mean(axis=0) if n else np.zeros(2)
        dev = x - mean
        out.append(PairedClassStats(n, mean, dev.T @ dev))
    return tuple(out)


# --------------------------------------------------------------------------------------
# prior and exact posterior
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class NIWPrior:
    """Normal-Inverse-Wishart prior per class and Beta prior of the prevalence.

    Attributes
    ----------
    m0 : numpy.ndarray of shape (2,)
    kappa0, nu0 : float
    psi0 : numpy.ndarray of shape (2, 2)
    prevalence_alpha, prevalence_beta : float
    """

    m0: np.ndarray
    kappa0: float
    nu0: float
    psi0: np.ndarray
    prevalence_alpha: float
    prevalence_beta: float

    @classmethod
    def from_binormal_priors(cls, priors):
        """The NIW prior whose univariate marginals are the given ``BinormalPriors``."""
        return cls(
            m0=np.full(2, priors.mu_loc),
            kappa0=priors.mu_kappa,
            nu0=2.0 * priors.sigma2_alpha + 1.0,
            psi0=2.0 * priors.sigma2_beta * np.eye(2),
            prevalence_alpha=priors.prevalence_alpha,
            prevalence_beta=priors.prevalence_beta,
        )


def niw_posterior(st, prior):
    """Posterior hyper-parameters ``(m_n, kappa_n, nu_n, psi_n)`` of one class (BDA3 3.6)."""
    k_n = prior.kappa0 + st.n
    m_n = (prior.kappa0 * prior.m0 + st.n * st.mean) / k_n
    nu_n = prior.nu0 + st.n
    dm = st.mean - prior.m0
    psi_n = prior.psi0 + st.scatter + (prior.kappa0 * st.n / k_n) * np.outer(dm, dm)
    return m_n, k_n, nu_n, psi_n


@dataclass(frozen=True, eq=False)
class PairedDraws:
    """Posterior draws of the paired binormal model (standardized scale).

    ``prevalence`` of shape (chain, draw); ``mu`` of shape (chain, draw, class,
    classifier) and ``cov`` of shape (chain, draw, class, classifier, classifier), class
    in (neg, pos) and classifier in (a, b).
    """

    prevalence: np.ndarray
    mu: np.ndarray
    cov: np.ndarray


@dataclass(frozen=True, eq=False)
class PairedFit:
    """What :func:`fit_paired_posterior` returns: flat draws of the compared quantities.

    ``ap_a``, ``ap_b`` (and ``precision_a``, ``precision_b`` when a recall was given) of
    length ``chains * draws``; ``correlation`` of shape (n_draws, 2) (neg, pos); the
    standardization ``locations`` and ``scales``; the sufficient statistics ``stats``;
    for NUTS the ``idata`` (AP draws added to its posterior group) and ``diagnostics``;
    the joint rank model (:mod:`._rank_model`) adds its ``fit_check``.
    """

    ap_a: np.ndarray
    ap_b: np.ndarray
    correlation: np.ndarray
    locations: np.ndarray
    scales: np.ndarray
    stats: tuple
    idata: object = None
    precision_a: np.ndarray | None = None
    precision_b: np.ndarray | None = None
    diagnostics: object = None
    fit_check: object = None


def sample_exact_posterior(stats_neg, stats_pos, prior, *, draws, chains, rng):
    """Independent draws from the closed-form posterior.

    Returns
    -------
    PairedDraws
    """
    size = chains * draws
    prevalence = rng.beta(
        prior.prevalence_alpha + stats_pos.n, prior.prevalence_beta + stats_neg.n, size
    )
    mus, covs = [], []
    for st in (stats_neg, stats_pos):
        m_n, k_n, nu_n, psi_n = niw_posterior(st, prior)
        cov = stats.invwishart(df=nu_n, scale=psi_n).rvs(size=size, random_state=rng)
        cov = np.reshape(cov, (size, 2, 2))
        chol = np.linalg.cholesky(cov)
        z = rng.standard_normal((size, 2))
        mus.append(m_n + np.einsum("sij,sj->si", chol, z) / np.sqrt(k_n))
        covs.append(cov)
    return PairedDraws(
        prevalence=prevalence.reshape(chains, draws),
        mu=np.stack(mus, axis=1).reshape(chains, draws, 2, 2),
        cov=np.stack(covs, axis=1).reshape(chains, draws, 2, 2, 2),
    )


# --------------------------------------------------------------------------------------
# the PyMC model
# --------------------------------------------------------------------------------------
def _structure(stats_neg, stats_pos):
    n = np.array([stats_neg.n, stats_pos.n], dtype=np.float64)
    if not np.all(n >= 1):  # pragma: no cover - compare_classifiers requires both classes
        raise ValueError("both classes need at least one item")
    return n, np.flatnonzero(n >= 2), np.flatnonzero(n >= 3)


def model_data(stats_neg, stats_pos):
    """The data containers of :func:`build_model` for these statistics."""
    n, two, three = _structure(stats_neg, stats_pos)
    mean = np.stack([stats_neg.mean, stats_pos.mean])  # (class, classifier)
    scatter = np.stack([stats_neg.scatter, stats_pos.scatter])
    s = scatter[three]
    resid = s[:, 1, 1] - s[:, 0, 1] ** 2 / np.maximum(s[:, 0, 0], _TINY)
    f64 = np.float64
    return {
        "n_total": np.int64(n.sum()),
        "n_pos_observed": np.int64(stats_pos.n),
        "class_n": n,
        "mean_a_observed": np.asarray(mean[:, 0], dtype=f64),
        "mean_b_observed": np.asarray(mean[:, 1], dtype=f64),
        "scatter_n": n[two],
        "scatter_aa_observed": np.maximum(scatter[two, 0, 0], _TINY).astype(f64),
        "scatter_ab_observed": np.asarray(scatter[two, 0, 1], dtype=f64),
        "resid_n": n[three],
        "scatter_bb_resid_observed": np.maximum(resid, _TINY).astype(f64),
    }


def build_model(stats_neg, stats_pos, prior):
    """The :class:`pymc.Model` of the paired binormal model (see the module docstring).

    Free variables, each over dim ``class`` = (neg, pos) except the prevalence:
    ``prevalence``, ``var_a``, ``resid_var``, ``slope``, ``mu_a``, ``mu_b``;
    deterministics ``var_b``, ``cov_ab`` and ``corr``. Observed: ``n_pos``,
    ``score_mean_a``, ``score_mean_b``, and for classes with at least 2 (3) items
    ``scatter_aa``, ``scatter_ab`` (``scatter_bb_resid``). A class whose scores are all
    tied has a zero scatter, of density 0 under the continuous model; it is replaced by
    1e-300, which changes the log-likelihood by a constant in the parameters (as in the
    univariate model). The statistics sit in :func:`pymc.Data` containers
    (:func:`model_data`), so one compiled model serves every data set of the same
    structure (see :mod:`._compiled`).
    """
    import pymc as pm

    _, two, three = _structure(stats_neg, stats_pos)
    psi = prior.psi0
    psi_resid = psi[1, 1] - psi[0, 1] ** 2 / psi[0, 0]
    m0, k0 = prior.m0, prior.kappa0
    with pm.Model(coords={"class": list(CLASSES)}) as model:
        d = {k: pm.Data(k, v) for k, v in model_data(stats_neg, stats_pos).items()}
        n = d["class_n"]
        prevalence = pm.Beta("prevalence", prior.prevalence_alpha, prior.prevalence_beta)
        var_a = pm.InverseGamma("var_a", (prior.nu0 - 1) / 2, psi[0, 0] / 2, dims="class")
        resid_var = pm.InverseGamma("resid_var", prior.nu0 / 2, psi_resid / 2, dims="class")
        slope = pm.Normal(
            "slope", psi[0, 1] / psi[0, 0], pm.math.sqrt(resid_var / psi[0, 0]), dims="class"
        )
        mu_a = pm.Normal("mu_a", m0[0], pm.math.sqrt(var_a / k0), dims="class")
        mu_b = pm.Normal(
            "mu_b", m0[1] + slope * (mu_a - m0[0]), pm.math.sqrt(resid_var / k0), dims="class"
        )
        var_b = pm.Deterministic("var_b", resid_var + slope**2 * var_a, dims="class")
        cov_ab = pm.Deterministic("cov_ab", slope * var_a, dims="class")
        pm.Deterministic("corr", cov_ab / pm.math.sqrt(var_a * var_b), dims="class")

        pm.Binomial("n_pos", n=d["n_total"], p=prevalence, observed=d["n_pos_observed"])
        mean_a = pm.Normal(
            "score_mean_a",
            mu_a,
            pm.math.sqrt(var_a / n),
            observed=d["mean_a_observed"],
            dims="class",
        )
        pm.Normal(
            "score_mean_b",
            mu_b + slope * (mean_a - mu_a),
            pm.math.sqrt(resid_var / n),
            observed=d["mean_b_observed"],
            dims="class",
        )
        if two.size:
            idx = two.tolist()
            s_aa = pm.Gamma(
                "scatter_aa",
                alpha=(d["scatter_n"] - 1) / 2,
                beta=1 / (2 * var_a[idx]),
                observed=d["scatter_aa_observed"],
            )
            pm.Normal(
                "scatter_ab",
                slope[idx] * s_aa,
                pm.math.sqrt(resid_var[idx] * s_aa),
                observed=d["scatter_ab_observed"],
            )
        if three.size:
            pm.Gamma(
                "scatter_bb_resid",
                alpha=(d["resid_n"] - 2) / 2,
                beta=1 / (2 * resid_var[three.tolist()]),
                observed=d["scatter_bb_resid_observed"],
            )
    return model


def sample_nuts_posterior(stats_neg, stats_pos, prior, **kwargs):
    """NUTS draws of :func:`build_model`, compiled once per structure and prior."""
    _, two, three = _structure(stats_neg, stats_pos)
    prior_key = tuple(
        tuple(np.asarray(getattr(prior, f), dtype=np.float64).ravel().tolist())
        for f in ("m0", "kappa0", "nu0", "psi0", "prevalence_alpha", "prevalence_beta")
    )
    key = ("paired", tuple(two.tolist()), tuple(three.tolist()), prior_key)
    return sample_nuts(
        key,
        lambda: build_model(stats_neg, stats_pos, prior),
        model_data(stats_neg, stats_pos),
        **kwargs,
    )


def posterior_from_idata(idata):
    """NUTS draws as :class:`PairedDraws` (the layout of :func:`sample_exact_posterior`)."""
    post = idata["posterior"]
    var_a = post["var_a"].values
    var_b = post["var_b"].values
    cov_ab = post["cov_ab"].values
    cov = np.stack(
        [np.stack([var_a, cov_ab], axis=-1), np.stack([cov_ab, var_b], axis=-1)], axis=-1
    )
    mu = np.stack([post["mu_a"].values, post["mu_b"].values], axis=-1)
    return PairedDraws(prevalence=post["prevalence"].values, mu=mu, cov=cov)


def check_nuts_diagnostics(idata, var_names):
    """R-hat, ESS and divergences of a NUTS fit; warns :class:`ConvergenceWarning`."""
    d = convergence_diagnostics(idata, var_names)
    warn_if_unreliable(d, idata["posterior"].sizes["chain"], stacklevel=5)
    return d


# --------------------------------------------------------------------------------------
# draws -> the two classifiers' binormal models
# --------------------------------------------------------------------------------------
def marginal_models(draws):
    """Classifier A's and B's :class:`Binormal` models, parameters of shape (chain, draw).

    The marginals of the per-class bivariate normal, on the standardized scale (AP and
    precision at a recall are invariant to the affine standardization).
    """
    mu, cov, prevalence = draws.mu, draws.cov, draws.prevalence
    models = []
    for j in range(2):
        models.append(
            Binormal(
                mu_pos=mu[..., 1, j],
                sigma_pos=np.sqrt(cov[..., 1, j, j]),
                mu_neg=mu[..., 0, j],
                sigma_neg=np.sqrt(cov[..., 0, j, j]),
                prevalence=prevalence,
            )
        )
    return tuple(models)


def correlations(draws):
    """Within-class correlation draws of the two classifiers' scores, shape (chain, draw, 2)."""
    cov = draws.cov
    return cov[..., 0, 1] / np.sqrt(cov[..., 0, 0] * cov[..., 1, 1])


# --------------------------------------------------------------------------------------
# data in, posterior draws of the compared quantities out
# --------------------------------------------------------------------------------------
def curve_draws(post, recall=None, idata=None):
    """Each classifier's AP draws (and precision at ``recall``) from paired draws.

    ``post`` holds the draws of both classifiers' binormal parameters (see
    :func:`marginal_models`). With ``idata`` (a NUTS fit), ``ap_a``, ``ap_b`` and
    ``ap_difference`` are added to its posterior group. Returns ``(ap_a, ap_b, extra)``
    with ``extra`` holding ``precision_a`` and ``precision_b`` when ``recall`` is given.
    """
    model_a, model_b = marginal_models(post)
    ap_a, ap_b = model_a.average_precision(), model_b.average_precision()
    extra = {}
    if recall is not None:
        extra["precision_a"] = np.asarray(model_a.precision_at_recall(recall)).ravel()
        extra["precision_b"] = np.asarray(model_b.precision_at_recall(recall)).ravel()
    if idata is not None:
        dims = ("chain", "draw")
        idata["posterior"] = (
            idata["posterior"]
            .to_dataset()
            .assign(ap_a=(dims, ap_a), ap_b=(dims, ap_b), ap_difference=(dims, ap_b - ap_a))
        )
    return ap_a, ap_b, extra


def fit_paired_posterior(
    is_pos,
    score_a,
    score_b,
    *,
    transform,
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
):
    """Posterior draws of AP (and precision at ``recall``) of both classifiers.

    Inputs are validated arrays (``is_pos`` boolean, finite scores). Returns a
    :class:`PairedFit`.
    """
    from ..bayes import BinormalPriors

    priors = BinormalPriors.from_any(priors)
    t_a = transform_scores(score_a, transform, "score_a")
    t_b = transform_scores(score_b, transform, "score_b")
    z, locations, scales = standardize_pair(t_a, t_b, priors.location, priors.scale)
    stats_neg, stats_pos = paired_sufficient_statistics(z, is_pos)
    prior = NIWPrior.from_binormal_priors(priors)
    idata = None
    if bayes_method == "exact":
        post = sample_exact_posterior(
            stats_neg, stats_pos, prior, draws=draws, chains=chains, rng=rng
        )
    else:
        sampler = SamplerOptions(
            draws=draws,
            chains=chains,
            tune=tune,
            cores=cores,
            target_accept=target_accept,
            progressbar=progressbar,
        )
        idata = sample_nuts_posterior(stats_neg, stats_pos, prior, rng=rng, sampler=sampler)
        post = posterior_from_idata(idata)
    ap_a, ap_b, extra = curve_draws(post, recall, idata)
    if idata is not None:
        names = ["prevalence", "var_a", "resid_var", "slope", "mu_a", "mu_b", "ap_difference"]
        extra["diagnostics"] = check_nuts_diagnostics(idata, names)
    return PairedFit(
        ap_a=ap_a.ravel(),
        ap_b=ap_b.ravel(),
        correlation=correlations(post).reshape(-1, 2),
        locations=locations,
        scales=scales,
        stats=(stats_neg, stats_pos),
        idata=idata,
        **extra,
    )
