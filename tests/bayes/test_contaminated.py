"""The contaminated binormal model (issue 25, first step): likelihood, prior, sampler."""

import numpy as np
import pytest
from scipy import integrate, stats

from bayes_prc.bayes._contaminated import (
    ContaminatedPriors,
    _unpack,
    contaminated_category_log_probs,
    contaminated_log_posterior,
    contaminated_model,
    sample_contaminated_laplace,
)
from bayes_prc.bayes._ordinal import category_log_probs, ordinal_categories


def test_category_probabilities_match_quadrature():
    """Each category's probability equals the integral of the class's mixture density
    over it (scipy.integrate.quad, absolute error < 1e-10)."""
    cut = np.array([[-1.5, -0.2, 0.7, 1.9]])
    mu, sigma, e0, e1 = 1.3, 0.8, 0.07, 0.12
    lp = np.exp(contaminated_category_log_probs(cut, [mu], [sigma], [e0], [e1]))[:, 0]
    dens = (
        lambda t: (1 - e0) * stats.norm.pdf(t) + e0 * stats.norm.pdf(t, mu, sigma),
        lambda t: (1 - e1) * stats.norm.pdf(t, mu, sigma) + e1 * stats.norm.pdf(t),
    )
    edges = np.r_[-np.inf, cut[0], np.inf]
    for cls in (0, 1):
        ref = [
            integrate.quad(dens[cls], lo, hi, epsabs=1e-12)[0]
            for lo, hi in zip(edges[:-1], edges[1:], strict=True)
        ]
        np.testing.assert_allclose(lp[cls], ref, atol=1e-10)
        assert lp[cls].sum() == pytest.approx(1.0, abs=1e-12)


def test_no_contamination_is_the_binormal_model():
    cut = np.array([[-1.0, 0.0, 0.8, 2.0]])
    a = contaminated_category_log_probs(cut, [1.2], [0.9], [0.0], [0.0])
    b = category_log_probs(cut, np.array([1.2]), np.array([0.9]))
    np.testing.assert_allclose(a, b, atol=1e-14)


def test_log_posterior_prior_terms_against_scipy():
    """Two parameter vectors that differ only in the shares: the log-posterior difference
    equals the likelihood difference plus the Beta log densities (with the logit
    Jacobian eps (1 - eps)) from scipy."""
    priors = ContaminatedPriors()
    counts = np.array([[30, 20, 10, 3], [2, 5, 10, 15]])
    base = np.array([-0.8, np.log(0.9), np.log(0.9), 1.0, 0.1, -3.0, -4.0])
    other = base.copy()
    other[-2:] = [-2.0, -5.5]

    def by_hand(theta):
        cut, mu, ls, z0, z1, jac = _unpack(theta[None], 4)
        e = 1 / (1 + np.exp(-np.array([z0[0], z1[0]])))
        lp = contaminated_category_log_probs(cut, mu, np.exp(ls), [e[0]], [e[1]])[:, 0]
        beta = stats.beta(priors.contamination_alpha, priors.contamination_beta)
        return float(np.sum(counts * lp) + np.sum(beta.logpdf(e) + np.log(e * (1 - e))))

    diff = (
        contaminated_log_posterior(other, counts, priors)[0]
        - contaminated_log_posterior(base, counts, priors)[0]
    )
    assert diff == pytest.approx(by_hand(other) - by_hand(base), abs=1e-9)


def test_precision_ceiling_of_the_model():
    m = contaminated_model([2.0, 2.0], [1.2, 1.2], [0.05, 0.0], [0.02, 0.02], 0.2)
    p = np.asarray(m.precision_at_recall(1e-6))
    assert p[0] == pytest.approx(0.2 * 0.98 / (0.2 * 0.98 + 0.8 * 0.05), abs=2e-3)
    assert p[1] > 0.999  # no negative contamination: precision tends to 1


def test_sampler_recovers_a_contaminated_population():
    """n = 4000 from a population with 8% hard negatives (fixed seed: one data set):
    under a Beta(1, 15) prior the posterior of eps_neg covers 0.08 and excludes 0 (under
    the default Beta(1, 200) its median stays at 0.008: the prior dominates, see the
    module docstring); on binormal data of the same size it stays near 0. Same seed,
    same draws."""
    rng = np.random.default_rng(21)
    n = 4000
    y = rng.random(n) < 0.25
    hard = (~y) & (rng.random(n) < 0.08)
    s = np.where(y | hard, rng.normal(1.8, 1.1, n), rng.normal(0, 1, n))
    data = ordinal_categories(y, np.exp(s))
    priors = ContaminatedPriors(contamination_beta=15.0)
    out = sample_contaminated_laplace(
        data, priors, draws=500, chains=2, rng=np.random.default_rng(1)
    )
    lo, hi = np.quantile(out["eps_neg"], [0.005, 0.995])
    assert lo < 0.08 < hi and lo > 0.02
    assert out["importance"]["ess_draws"] <= out["importance"]["n_distinct"]
    again = sample_contaminated_laplace(
        data, priors, draws=500, chains=2, rng=np.random.default_rng(1)
    )
    np.testing.assert_array_equal(out["eps_neg"], again["eps_neg"])
    z = rng.standard_normal(n)
    s2 = np.where(y, 1.5 + z, z)
    out2 = sample_contaminated_laplace(
        ordinal_categories(y, s2),
        ContaminatedPriors(),
        draws=500,
        chains=2,
        rng=np.random.default_rng(2),
    )
    assert np.quantile(out2["eps_neg"], 0.95) < 0.03


# ------------------------------------------------------------- the fitted model (issue 25)
@pytest.fixture(scope="module")
def noisy():
    """Label noise at the top: 6% of the high scorers are labelled negative (n = 600)."""
    rng = np.random.default_rng(5)
    n = 600
    y = rng.random(n) < 0.25
    s = np.where(y, rng.normal(1.8, 1.0, n), rng.normal(0.0, 1.0, n))
    flip = (s > 1.5) & (rng.random(n) < 0.06)
    return np.where(flip, 0, y.astype(int)), s


@pytest.fixture(scope="module")
def fit(noisy):
    import bayes_prc as bp

    return bp.fit_binormal(*noisy, model="contaminated", random_seed=0, draws=500, chains=2)


def test_mixture_negatives_roc_auc_and_tpr_against_quadrature():
    """The contaminated model's closed-form ROC AUC and its tpr at a fpr (the negatives'
    mixture quantile) against scipy quadrature / root finding (1e-9)."""
    from scipy import optimize

    m = contaminated_model(1.4, 1.3, 0.06, 0.03, 0.2)
    f0 = lambda t: 0.94 * stats.norm.pdf(t) + 0.06 * stats.norm.pdf(t, 1.4, 1.3)  # noqa: E731
    s1 = lambda t: 0.97 * stats.norm.sf(t, 1.4, 1.3) + 0.03 * stats.norm.sf(t)  # noqa: E731
    s0 = lambda t: 0.94 * stats.norm.sf(t) + 0.06 * stats.norm.sf(t, 1.4, 1.3)  # noqa: E731
    auc = integrate.quad(lambda t: f0(t) * s1(t), -np.inf, np.inf, epsabs=1e-13)[0]
    assert float(m.roc_auc()) == pytest.approx(auc, abs=1e-9)
    for fpr in (1e-4, 0.05, 0.5):
        t = optimize.brentq(lambda x, f=fpr: s0(x) - f, -20, 20, xtol=1e-14)
        assert float(m.tpr_at_fpr(fpr)) == pytest.approx(s1(t), abs=1e-9)


def test_every_posterior_method_works(fit):
    """Every method of the posterior API gives finite values of the right shape; the
    summary has the shares; the ESS reported is the importance-sampling one."""
    shape = (2, 500)
    for values in (
        fit.average_precision(),
        fit.roc_auc(),
        fit.precision_at_recall(0.3),
        fit.recall_at_precision(0.6),
        fit.threshold_at_precision(0.6),
        fit.max_fbeta()["score"],
        fit.threshold_at_recall(0.5),
        fit.precision_at_threshold(0.5),
    ):
        assert values.shape[:2] == shape and np.all(np.isfinite(np.asarray(values)))
    band = fit.pr_band(recall=[0.1, 0.5, 0.9], ci_prob=0.9, kind="simultaneous")
    assert np.all(band["lower"] <= band["upper"])
    curves = fit.predictive_curves(100, n_curves=4, random_seed=0)
    assert curves.sizes["curve"] == 4
    table = fit.summary()
    assert {"eps_neg", "eps_pos", "mu", "sigma"} <= set(table.index)
    cap = fit.importance["ess_draws"]
    assert fit.diagnostics()["min_ess_bulk"] <= cap + 1e-9
    assert fit.fit_check(random_seed=0).grade in ("pass", "fail")


def test_rank_invariance_and_seed(noisy, fit):
    import bayes_prc as bp

    y, s = noisy
    other = bp.fit_binormal(
        y, np.exp(3 * s), model="contaminated", random_seed=0, draws=500, chains=2
    )
    np.testing.assert_array_equal(other.average_precision(), fit.average_precision())
    again = bp.fit_binormal(y, s, model="contaminated", random_seed=0, draws=500, chains=2)
    np.testing.assert_array_equal(
        again.idata["posterior"]["eps_neg"], fit.idata["posterior"]["eps_neg"]
    )


def test_the_ceiling_follows_label_noise(noisy):
    """On the label-noise data the contaminated band's upper end at recall 0.05 is below
    the semiparametric model's (which always tends to precision 1)."""
    import bayes_prc as bp

    kw = {"random_seed": 1, "draws": 500, "chains": 2}
    semi = bp.fit_binormal(*noisy, **kw).pr_band(recall=[0.05], ci_prob=0.9)
    cont = bp.fit_binormal(*noisy, model="contaminated", **kw).pr_band(recall=[0.05], ci_prob=0.9)
    assert float(cont["median"][0]) < float(semi["median"][0])


def _nuts_vs_laplace(n, draws):
    """AP posterior of the fast sampler against PyMC NUTS on one data set."""
    import bayes_prc as bp
    from bayes_prc.populations import population

    y, s = population("hard_negatives").sample(n, random_seed=11)
    kw = {"model": "contaminated", "random_seed": 0, "draws": draws, "progressbar": False}
    fast = bp.fit_binormal(y, s, **kw).average_precision().values.ravel()
    ref = bp.fit_binormal(y, s, method="nuts", **kw).average_precision().values.ravel()
    return fast, ref


def test_fast_sampler_matches_nuts_reduced():
    """Mean and 5% / 95% quantiles of the AP within 0.25 posterior sd (MC error of 2000
    NUTS draws with ESS ~1000 is about 0.05 sd for the mean, 0.1 sd for the quantiles)."""
    fast, ref = _nuts_vs_laplace(300, 500)
    sd = ref.std()
    for q in (0.05, 0.5, 0.95):
        assert abs(np.quantile(fast, q) - np.quantile(ref, q)) < 0.25 * sd


@pytest.mark.slow
def test_fast_sampler_matches_nuts():
    """As above at n = 1000 with 4000 draws each (0.15 sd)."""
    fast, ref = _nuts_vs_laplace(1000, 1000)
    sd = ref.std()
    assert abs(fast.mean() - ref.mean()) < 0.1 * sd
    for q in (0.05, 0.95):
        assert abs(np.quantile(fast, q) - np.quantile(ref, q)) < 0.15 * sd
