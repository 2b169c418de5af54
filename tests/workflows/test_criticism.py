"""Model criticism: alternative score models, their PR curves, PSIS-LOO and the PPC.

Analytic curves are checked against independent implementations (scipy.stats
distributions with adaptive quadrature or root finding) and against the empirical AP of
very large simulated samples. The NUTS fits are checked against scipy log-densities
(the pointwise log-likelihood, Jacobians included) and by what they are for: the
generating model wins LOO, its band covers the true curve, the PPC flags a misfit.

Every data set is drawn with fresh entropy, printed in the assertion messages, so the
tests pass for any seed; statistical assertions state their failure probability.
"""

import logging
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import integrate, optimize, special, stats

import bayes_prc as bp
from bayes_prc.criticism import (
    PPC_THRESHOLD,
    NormalMixtureScoreModel,
    ScoreModelFit,
    StudentTScoreModel,
    compare_score_models,
    fit_score_models,
    score_ppc,
)
from bayes_prc.exceptions import BayesPRCWarning, ConvergenceWarning
from bayes_prc.models._distributions import _t_log_sf

NUTS = dict(draws=500, chains=2, tune=500, cores=1, progressbar=False)

# generating models of the simulation studies (clearly distinct shapes)
BIMODAL = NormalMixtureScoreModel(
    [0.5, 0.5], [1.0, 3.5], [0.5, 0.5], [0.6, 0.4], [-1.0, 1.5], [0.6, 0.6], 0.3
)
HEAVY_T = StudentTScoreModel(2.0, 1.0, 3.0, 0.0, 1.0, 3.0, 0.3)
NORMAL = bp.Binormal(1.5, 1.0, 0.0, 1.2, 0.3)
LOGIT_NORMAL = bp.Binormal(1.0, 1.2, -1.5, 1.0, 0.3)  # on the logit scale


@pytest.fixture(autouse=True, scope="module")
def _quiet_pymc():
    logger = logging.getLogger("pymc")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _fresh_rng():
    entropy = np.random.SeedSequence().entropy
    return entropy, np.random.default_rng(entropy)


def _simulate(generator, n, rng):
    y, s = generator.sample(n, random_seed=rng)
    if generator is LOGIT_NORMAL:
        s = special.expit(s)
    return y, s


def _fit(y, s, models, rng):
    with warnings.catch_warnings():
        # mixtures of unimodal classes are weakly identified (R-hat, divergences);
        # binormal_logit is skipped for scores outside [0, 1]
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", BayesPRCWarning)
        return fit_score_models(y, s, models=models, random_seed=rng, **NUTS)


# ======================================================================================
# analytic curves
# ======================================================================================


def _random_t(rng):
    return dict(
        mu_pos=rng.normal(1.0, 1.0),
        sigma_pos=float(np.exp(rng.normal(0.0, 0.5))),
        nu_pos=float(np.exp(rng.uniform(np.log(0.7), np.log(100.0)))),
        mu_neg=rng.normal(0.0, 1.0),
        sigma_neg=float(np.exp(rng.normal(0.0, 0.5))),
        nu_neg=float(np.exp(rng.uniform(np.log(0.7), np.log(100.0)))),
        prevalence=rng.uniform(0.02, 0.9),
    )


def _random_mixture(rng):
    return dict(
        weight_pos=rng.dirichlet([1.5, 1.5]),
        mu_pos=rng.normal(1.0, 1.5, 2),
        sigma_pos=np.exp(rng.normal(-0.5, 0.6, 2)),
        weight_neg=rng.dirichlet([1.5, 1.5]),
        mu_neg=rng.normal(0.0, 1.5, 2),
        sigma_neg=np.exp(rng.normal(-0.5, 0.6, 2)),
        prevalence=rng.uniform(0.02, 0.9),
    )


def _scipy_classes(kind, p):
    """(positive, negative) frozen scipy distributions / callables (sf, isf, pdf)."""
    if kind == "t":
        pos = stats.t(p["nu_pos"], p["mu_pos"], p["sigma_pos"])
        neg = stats.t(p["nu_neg"], p["mu_neg"], p["sigma_neg"])
        return pos, neg
    return _ScipyMixture(p["weight_pos"], p["mu_pos"], p["sigma_pos"]), _ScipyMixture(
        p["weight_neg"], p["mu_neg"], p["sigma_neg"]
    )


class _ScipyMixture:
    """Normal mixture from scipy.stats.norm, isf by brentq: the independent reference."""

    def __init__(self, w, mu, sigma):
        self.w, self.mu, self.sigma = np.asarray(w), np.asarray(mu), np.asarray(sigma)

    def sf(self, t):
        return float(np.sum(self.w * stats.norm.sf(t, self.mu, self.sigma)))

    def pdf(self, t):
        return float(np.sum(self.w * stats.norm.pdf(t, self.mu, self.sigma)))

    def isf(self, r):
        lo = np.min(self.mu - 30 * self.sigma)
        hi = np.max(self.mu + 30 * self.sigma)
        return optimize.brentq(
            lambda t: np.log(self.sf(t)) - np.log(r), lo, hi, xtol=1e-14, rtol=1e-14
        )


def _model(kind, p):
    return StudentTScoreModel(**p) if kind == "t" else NormalMixtureScoreModel(**p)


def _quad_over_recall(fun):
    """int_0^1 fun(r) dr by adaptive quadrature, with breaks near r = 0."""
    pts = [1e-10, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99]
    return integrate.quad(fun, 0, 1, points=pts, epsabs=1e-12, epsrel=1e-12, limit=1000)[0]


def _quad_ap(pos, neg, pi):
    """Reference AP by adaptive quadrature: over recall with scipy's isf for the t;
    over thresholds, E_pos[prec(X)], split around every component, for the mixture."""
    if isinstance(pos, _ScipyMixture):

        def integrand(t):
            r, f = pos.sf(t), neg.sf(t)
            return pos.pdf(t) * (pi * r / (pi * r + (1 - pi) * f) if r + f > 0 else 1.0)

        cuts = np.concatenate([pos.mu + k * pos.sigma for k in (-12, -3, 0, 3, 12)])
        cuts = np.sort(np.concatenate([cuts, neg.mu + 3 * neg.sigma, neg.mu - 3 * neg.sigma]))
        return sum(
            integrate.quad(integrand, a, b, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
            for a, b in zip(cuts[:-1], cuts[1:], strict=True)
        )

    def prec(r):
        f = neg.sf(pos.isf(r))
        return pi * r / (pi * r + (1 - pi) * f)

    return _quad_over_recall(prec)


@pytest.mark.parametrize("nu", [0.5, 1.0, 2.0, 3.0, 30.0, 300.0])
def test_student_t_log_sf_against_scipy_and_closed_forms(nu):
    """Log tail of the t against scipy (1e-12 relative where scipy is finite) and, far in
    the tail where scipy underflows to -inf, against exact closed forms (nu = 1, 2) or the
    leading asymptotic term (error O(x^-2), below 1e-10 at x >= 1e7)."""
    x = np.array([-1e6, -30.0, -3.0, -0.5, 0.0, 0.5, 3.0, 30.0, 1e3, 1e7, 1e50, 1e200])
    got = _t_log_sf(x, nu)
    ref = stats.t.logsf(x, nu)
    ok = np.isfinite(ref) & (ref > -700)
    np.testing.assert_allclose(got[ok], ref[ok], rtol=1e-12, atol=1e-14)
    big = x >= 1e7
    if nu == 1.0:  # Cauchy: sf = arctan(1/x) / pi
        exact = np.log(np.arctan(1 / x[big]) / np.pi)
    elif nu == 2.0:  # sf = 1 / (sqrt(x^2 + 2) (sqrt(x^2 + 2) + x))
        h = np.hypot(x[big], np.sqrt(2.0))
        exact = -np.log(h) - np.log(h + x[big])
    else:  # sf ~ c x^-nu with c = Gamma((nu+1)/2) nu^(nu/2 - 1) / (sqrt(pi) Gamma(nu/2))
        log_c = (
            special.gammaln((nu + 1) / 2)
            - special.gammaln(nu / 2)
            - 0.5 * np.log(np.pi)
            + (nu / 2 - 1) * np.log(nu)
        )
        exact = log_c - nu * np.log(x[big])
    np.testing.assert_allclose(got[big], exact, rtol=1e-10)
    assert _t_log_sf(np.inf, nu) == -np.inf and _t_log_sf(-np.inf, nu) == 0.0


@pytest.mark.parametrize("kind", ["t", "mixture"])
def test_average_precision_matches_adaptive_quadrature(kind, rng):
    """Vectorised AP of 6 random parameter draws vs scipy.integrate.quad over recall with
    scipy.stats thresholds: absolute error < 1e-7 (the quadrature is designed for ~1e-9)."""
    params = [(_random_t if kind == "t" else _random_mixture)(rng) for _ in range(6)]
    batch = {k: np.stack([np.asarray(p[k]) for p in params]) for k in params[0]}
    got = _model(kind, batch).average_precision()
    assert got.shape == (6,)
    for i, p in enumerate(params):
        pos, neg = _scipy_classes(kind, p)
        ref = _quad_ap(pos, neg, p["prevalence"])
        assert abs(got[i] - ref) < 1e-7, (kind, p, got[i], ref)
        assert abs(float(_model(kind, p).average_precision()) - got[i]) < 1e-13


@pytest.mark.parametrize("kind", ["t", "mixture"])
def test_precision_at_recall_and_roc_auc_match_scipy(kind, rng):
    """Curve points and ROC AUC against scipy.stats (isf / brentq, quad): 1e-9 and 1e-8."""
    p = (_random_t if kind == "t" else _random_mixture)(rng)
    model = _model(kind, p)
    pos, neg = _scipy_classes(kind, p)
    pi = p["prevalence"]
    r = np.array([1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])
    thresholds = np.array([pos.isf(v) for v in r])
    np.testing.assert_allclose(model.threshold_at_recall(r), thresholds, rtol=1e-9, atol=1e-9)
    f = np.array([neg.sf(t) for t in thresholds])
    np.testing.assert_allclose(
        model.precision_at_recall(r), pi * r / (pi * r + (1 - pi) * f), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(model.recall(thresholds), r, rtol=1e-9)
    np.testing.assert_allclose(model.fpr(thresholds), f, rtol=1e-9, atol=1e-300)
    auc = _quad_over_recall(lambda r: 1 - neg.sf(pos.isf(r)))  # E_pos[F_neg(X_pos)]
    assert abs(float(model.roc_auc()) - auc) < 1e-8


@pytest.mark.parametrize("kind", ["t", "mixture"])
def test_average_precision_matches_large_simulated_sample(kind):
    """Empirical AP of 1e6 simulated items within 4 standard errors of the analytic AP.

    The SE is estimated from 20 batches of 5e4 items (batch means), so a failure has
    probability ~8e-4 (|t| > 4 with 19 dof); the empirical AP's bias, O(1/n_pos), is
    negligible at 3e5 positives."""
    entropy, rng = _fresh_rng()
    model = HEAVY_T if kind == "t" else BIMODAL
    y, s = model.sample(1_000_000, random_seed=rng)
    ap_all = bp.average_precision_score(y, s)
    pairs = zip(np.split(y, 20), np.split(s, 20), strict=True)
    batches = [bp.average_precision_score(yb, sb) for yb, sb in pairs]
    se = np.std(batches, ddof=1) / np.sqrt(20)
    truth = float(model.average_precision())
    assert abs(ap_all - truth) < 4 * se, (entropy, ap_all, truth, se)


def test_reduce_to_binormal():
    """Identical mixture components, and the t with huge nu, are the binormal model."""
    b = bp.Binormal(1.3, 0.7, 0.2, 1.4, 0.2)
    mix = NormalMixtureScoreModel([0.3, 0.7], [1.3, 1.3], [0.7, 0.7], [1.0], [0.2], [1.4], 0.2)
    r = np.linspace(0, 1, 41)
    np.testing.assert_allclose(mix.precision_at_recall(r), b.precision_at_recall(r), atol=1e-13)
    assert abs(float(mix.average_precision()) - float(b.average_precision())) < 1e-12
    assert abs(float(mix.roc_auc()) - float(b.roc_auc())) < 1e-12
    t = StudentTScoreModel(1.3, 0.7, 1e7, 0.2, 1.4, 1e7, 0.2)
    inner = r[1:-1]
    np.testing.assert_allclose(
        t.precision_at_recall(inner), b.precision_at_recall(inner), atol=1e-5
    )
    assert abs(float(t.average_precision()) - float(b.average_precision())) < 1e-5


def test_batch_shapes_limits_and_invariance():
    rng = np.random.default_rng(0)
    mu = rng.normal(2.0, 0.3, (3, 4))
    t = StudentTScoreModel(mu, 1.0, 4.0, 0.0, 1.5, 6.0, 0.2)
    r = np.linspace(0, 1, 5)
    assert t.batch_shape == (3, 4)
    assert t.precision_at_recall(r).shape == (3, 4, 5)
    assert t.average_precision().shape == (3, 4)
    # recall 1: the prevalence; recall 0: heavier-tailed positives -> precision 1
    np.testing.assert_allclose(t.precision_at_recall(r)[..., -1], 0.2)
    np.testing.assert_allclose(t.precision_at_recall(r)[..., 0], 1.0)
    np.testing.assert_allclose(t.precision(np.inf), 1.0)
    assert float(StudentTScoreModel(1, 1, 6, 0, 1, 4, 0.2).precision_at_recall(0.0)) == 0.0
    # the PR curve is invariant to an increasing affine map of the scores
    a, c = 3.7, -5.0
    t2 = StudentTScoreModel(a * mu + c, a, 4.0, c, 1.5 * a, 6.0, 0.2)
    np.testing.assert_allclose(t2.average_precision(), t.average_precision(), atol=1e-12)
    m1 = NormalMixtureScoreModel(
        [0.4, 0.6], [0, 2], [1, 0.5], [0.5, 0.5], [-1, 0.5], [0.7, 1.3], 0.1
    )
    m2 = NormalMixtureScoreModel(
        [0.4, 0.6],
        [c, 2 * a + c],
        [a, 0.5 * a],
        [0.5, 0.5],
        [-a + c, 0.5 * a + c],
        [0.7 * a, 1.3 * a],
        0.1,
    )
    np.testing.assert_allclose(m1.precision_at_recall(r), m2.precision_at_recall(r), atol=1e-12)
    prec = m1.precision_at_recall(np.linspace(0, 1, 201))
    assert np.all((prec >= 0) & (prec <= 1)) and not np.any(np.isnan(prec))
    # dominant tail: the sd 1.3 negative component beats the sd 1 positive one -> 0
    assert float(m1.precision_at_recall(0.0)) == 0.0
    np.testing.assert_allclose(float(m1.precision_at_recall(1.0)), 0.1)


def test_sample_and_validation():
    y, s = HEAVY_T.sample(50, random_seed=1)
    assert y.shape == s.shape == (50,) and set(np.unique(y)) <= {0, 1}
    y2, s2 = HEAVY_T.sample(50, random_seed=1)
    np.testing.assert_array_equal(s, s2)
    y3, s3 = BIMODAL.sample(20, random_seed=np.random.default_rng(2))
    assert s3.shape == (20,)
    with pytest.raises(ValueError, match="`sigma_pos` must be > 0"):
        StudentTScoreModel(0, -1, 3, 0, 1, 3, 0.5)
    with pytest.raises(ValueError, match="`nu_neg` must be > 0"):
        StudentTScoreModel(0, 1, 3, 0, 1, 0, 0.5)
    with pytest.raises(ValueError, match="`prevalence` must be in"):
        StudentTScoreModel(0, 1, 3, 0, 1, 3, 1.0)
    with pytest.raises(ValueError, match="`weight_neg` must be >= 0"):
        NormalMixtureScoreModel([1, 0], [0, 1], [1, 1], [-0.5, 1.5], [0, 1], [1, 1], 0.5)
    with pytest.raises(ValueError, match="`recall` must be in"):
        HEAVY_T.precision_at_recall(1.5)
    with pytest.raises(ValueError, match="batch_shape"):
        StudentTScoreModel([0, 1], 1, 3, 0, 1, 3, 0.5).sample(3)
    assert "StudentTScoreModel(mu_pos=2" in repr(HEAVY_T)


# ======================================================================================
# NUTS fits shared by the module
# ======================================================================================


@pytest.fixture(scope="module")
def bimodal_case():
    """Bimodal classes (n = 1000): binormal vs mixture, two NUTS fits (~15 s)."""
    entropy, rng = _fresh_rng()
    y, s = _simulate(BIMODAL, 1000, rng)
    fits = _fit(y, s, ("binormal", "mixture"), rng)
    return entropy, y, s, fits


@pytest.fixture(scope="module")
def small_fits():
    """Short fits of the transformed / heavy-tailed models, for log-likelihood checks."""
    _, rng = _fresh_rng()
    y, s = _simulate(LOGIT_NORMAL, 200, rng)
    kw = dict(NUTS, draws=60, tune=100, chains=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = fit_score_models(y, s, models=("binormal_logit", "bi_t"), random_seed=rng, **kw)
    return y, s, fits


def _reference_loglik(fit, s, is_pos, draws):
    """log p(score_i | label_i) on the ORIGINAL scale from scipy.stats, per draw."""
    m = fit.model
    flat = lambda a: np.reshape(a, (-1,) + np.shape(a)[2:])[draws]  # noqa: E731
    out = np.empty((len(draws), s.size))
    for c, mask in ((1, is_pos), (0, ~is_pos)):
        x = s[mask]
        sfx = "pos" if c else "neg"
        mu, sig = flat(getattr(m, f"mu_{sfx}")), flat(getattr(m, f"sigma_{sfx}"))
        if fit.name == "binormal":
            ll = stats.norm.logpdf(x[None, :], mu[:, None], sig[:, None])
        elif fit.name == "binormal_logit":
            lx = special.logit(x)
            ll = stats.norm.logpdf(lx[None, :], mu[:, None], sig[:, None]) - np.log(x * (1 - x))
        elif fit.name == "bi_t":
            nu = flat(getattr(m, f"nu_{sfx}"))
            ll = stats.t.logpdf(x[None, :], nu[:, None], mu[:, None], sig[:, None])
        else:
            w = flat(getattr(m, f"weight_{sfx}"))
            comp = stats.norm.logpdf(x[None, :, None], mu[:, None, :], sig[:, None, :])
            ll = special.logsumexp(np.log(w)[:, None, :] + comp, axis=-1)
        out[:, mask] = ll
    return out


def _check_loglik(fit, y, s):
    ll = fit.idata["log_likelihood"]["score"].values
    n_total = ll.shape[0] * ll.shape[1]
    draws = np.unique(np.linspace(0, n_total - 1, 15).astype(int))
    got = ll.reshape(n_total, -1)[draws]
    np.testing.assert_allclose(got, _reference_loglik(fit, s, y == 1, draws), rtol=1e-8, atol=1e-8)


def test_log_likelihood_is_density_of_original_scores(bimodal_case, small_fits):
    """The pointwise log-likelihood equals scipy's log-density of the original score
    given the label (standardization and logit Jacobians included) at 15 draws."""
    _, y, s, fits = bimodal_case
    for fit in fits.values():
        _check_loglik(fit, y, s)
    y2, s2, fits2 = small_fits
    for fit in fits2.values():
        _check_loglik(fit, y2, s2)


def test_loo_prefers_mixture_on_bimodal_scores(bimodal_case):
    """On clearly bimodal classes the mixture is first and the binormal is more than 4
    standard errors (dse) behind (typically ~15 dse: failure probability negligible)."""
    entropy, y, s, fits = bimodal_case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BayesPRCWarning)
        table = compare_score_models(
            y, s, models=("binormal", "binormal_logit", "mixture"), fits=fits
        )
    assert isinstance(table, pd.DataFrame)
    assert list(table.index) == ["mixture", "binormal"], (entropy, table)
    for col in ("rank", "elpd", "elpd_diff", "se", "dse", "p", "weight"):
        assert col in table.columns
    assert table.loc["binormal", "elpd_diff"] < -4 * table.loc["binormal", "dse"], (entropy, table)
    assert "binormal_logit" in table.attrs["skipped"]


def test_compare_warns_and_validates(bimodal_case):
    _, y, s, fits = bimodal_case
    with pytest.warns(BayesPRCWarning, match="binormal_logit"):
        with pytest.raises(ValueError, match="at least two score models"):
            compare_score_models(y, s, models=("binormal", "binormal_logit"), fits=fits)
    with pytest.raises(ValueError, match="other data"):
        compare_score_models(y, s[::-1], models=("binormal", "mixture"), fits=fits)
    with pytest.raises(ValueError, match="`models` must contain names"):
        compare_score_models(y, s, models=("binormal", "gamma"), fits=fits)
    with pytest.raises(ValueError, match="ScoreModelFit"):
        compare_score_models(y, s, models=("binormal", "mixture"), fits={"binormal": 1})
    with pytest.raises(ValueError, match="at least 2 positives"):
        fit_score_models([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.warns(BayesPRCWarning, match="binormal_logit"):
        with pytest.raises(ValueError, match="no score model could be fit"):
            fit_score_models(y, s, models="binormal_logit")


def test_fit_objects(bimodal_case):
    _, y, s, fits = bimodal_case
    fit = fits["mixture"]
    assert isinstance(fit, ScoreModelFit) and fit.name == "mixture"
    assert isinstance(fit.model, NormalMixtureScoreModel)
    assert isinstance(fits["binormal"].model, bp.Binormal)
    ap = fit.average_precision()
    assert ap.dims == ("chain", "draw") and ap.shape == (2, 500)
    np.testing.assert_allclose(ap.values, fit.model.average_precision())
    band = fit.pr_band()
    assert sorted(band.data_vars) == ["lower", "median", "upper"]
    assert band.sizes["recall"] == 201 and band.attrs["ci_prob"] == 0.95
    assert np.all(band["lower"] <= band["median"]) and np.all(band["median"] <= band["upper"])
    simultaneous = fit.pr_band(recall=[0.2, 0.5], kind="simultaneous", ci_prob=0.9)
    assert np.all(simultaneous["lower"] <= band.sel(recall=[0.2, 0.5])["upper"])
    ap_half = fit.average_precision(prevalence=0.5)
    assert float(ap_half.mean()) > float(ap.mean())  # prevalence ~0.3 -> 0.5 raises AP
    assert fit.precision_at_recall([0.5]).dims == ("chain", "draw", "recall")
    assert 0.5 < float(fit.roc_auc().mean()) <= 1
    assert fit.loo().elpd < 0
    assert "mixture" in repr(fit)
    assert {"max_rhat", "n_divergent"} <= set(fit.diagnostics())
    summary = fit.summary()
    assert "average_precision" in summary.index
    assert fit.idata["constant_data"]["y_score"].size == y.size


def _coverage(fit, true_model, ci_prob):
    r = np.linspace(0.05, 0.95, 19)
    truth = true_model.precision_at_recall(r)
    band = fit.pr_band(recall=r, ci_prob=ci_prob)
    return np.mean((truth >= band["lower"].values) & (truth <= band["upper"].values))


def test_band_of_right_model_covers_true_curve(bimodal_case):
    """The right model's pointwise band contains the true curve (19 recalls in
    [0.05, 0.95]) and its AP draws bracket the true AP.

    Why not "94% band at >= 90% of the grid": pointwise misses come from a few
    parameters (above all the sample's prevalence) and are strongly correlated along the
    curve, so a calibrated 94% band misses >= 10% of the grid for roughly one data set
    in five (seen in a 28-data-set calibration run of this mixture, whose PIT values of
    the true precision and AP were uniform). Asserted instead, for a failure probability
    of order 1e-3: the 99.9% band contains the truth at >= 75% of the grid (a miss needs
    a ~3.3-sd deviation over a quarter of the curve), and the true AP lies within the
    0.05%-99.95% quantiles of the AP draws. The 94% coverage is in the message."""
    entropy, y, s, fits = bimodal_case
    fit = fits["mixture"]
    cov999, cov94 = _coverage(fit, BIMODAL, 0.999), _coverage(fit, BIMODAL, 0.94)
    assert cov999 >= 0.75, (entropy, cov999, cov94)
    ap = fit.average_precision().values.ravel()
    lo, hi = np.quantile(ap, [0.0005, 0.9995])
    assert lo <= float(BIMODAL.average_precision()) <= hi, (entropy, lo, hi)


def test_ppc_flags_binormal_on_bimodal_scores(bimodal_case):
    """KS posterior predictive p-value: binormal on bimodal classes < 0.01 (typically
    0); the generating mixture > 0.01 (ppp values of a correct model are conservative,
    P(p < 0.01) is well below 1%, and two classes at most double that)."""
    entropy, y, s, fits = bimodal_case
    bad = score_ppc(y, s, fits["binormal"], random_seed=1)
    good = score_ppc(y, s, fits["mixture"], random_seed=1)
    assert bool(bad["misfit"]) and float(bad["min_p_value"]) < 0.01, (entropy, bad)
    assert float(good["min_p_value"]) > 0.01, (entropy, good["p_value"].values)
    assert bad["p_value"].dims == ("class",) and list(bad["class"].values) == ["neg", "pos"]
    assert bad["ks_observed"].dims == ("class", "sample") and bad.sizes["sample"] == 500
    assert bad.attrs["threshold"] == PPC_THRESHOLD == 0.05
    # the conjugate binormal fit (BinormalPosterior) is checked the same way
    post = bp.fit_binormal(
        y, s, model="parametric", method="exact", draws=250, chains=2, random_seed=2
    )
    assert float(score_ppc(y, s, post, random_seed=3)["min_p_value"]) < 0.01


def test_ppc_accepts_well_specified_binormal():
    """Exact binormal posteriors of binormal data (raw scores; logit of logit-normal
    probabilities): min p-value > 0.01 (rare for a correct model, see the test above).
    The raw-scale binormal fit of the logit-normal probabilities (skewed, bounded
    classes) is flagged."""
    entropy, rng = _fresh_rng()
    y, s = NORMAL.sample(1500, random_seed=rng)
    post = bp.fit_binormal(
        y, s, model="parametric", method="exact", draws=250, chains=2, random_seed=rng
    )
    ppc = score_ppc(y, s, post, n_draws=300, random_seed=rng)
    assert float(ppc["min_p_value"]) > 0.01, (entropy, ppc["p_value"].values)
    y2, s2 = _simulate(LOGIT_NORMAL, 1500, rng)
    post2 = bp.fit_binormal(
        y2, s2, transform="logit", model="parametric", method="exact", draws=250, random_seed=rng
    )
    assert float(score_ppc(y2, s2, post2, random_seed=rng)["min_p_value"]) > 0.01, entropy
    post3 = bp.fit_binormal(y2, s2, model="parametric", method="exact", draws=250, random_seed=rng)
    assert bool(score_ppc(y2, s2, post3, random_seed=rng)["misfit"]), entropy  # skewed raw


def test_ppc_validation():
    y, s = NORMAL.sample(200, random_seed=0)
    post = bp.fit_binormal(
        y, s, model="parametric", method="exact", draws=50, chains=1, random_seed=0
    )
    with pytest.raises(ValueError, match="not the data of `fit`"):
        score_ppc(y[:-1], s[:-1], post)
    with pytest.raises(ValueError, match="`fit` must be"):
        score_ppc(y, s, object())
    with pytest.raises(ValueError, match="`n_draws`"):
        score_ppc(y, s, post, n_draws=0)
    with pytest.raises(ValueError, match="`threshold`"):
        score_ppc(y, s, post, threshold=1.5)
    a = score_ppc(y, s, post, n_draws=20, random_seed=5)
    b = score_ppc(y, s, post, n_draws=20, random_seed=5)
    xr.testing.assert_equal(a, b)
    assert a.sizes["sample"] == 20


# ======================================================================================
# the full study: every generating model against every score model
# ======================================================================================


@pytest.mark.slow
@pytest.mark.parametrize("generator", ["binormal", "bi_t", "mixture", "binormal_logit"])
def test_generating_model_wins_loo(generator):
    """n = 1500 items from each generating model, all four score models fit (1-2 min).

    Asserted: (1) the generating model is first, or within 2 dse of the first model;
    (2) for the non-nested cases (bimodal mixture, logit-normal probabilities) it is
    first and every other model is more than 2 dse behind; (3) for t data, when the t
    is first, the binormal is more than 2 dse behind it (heavy tails are detectable);
    (4) for binormal data (nested in the bi_t as nu -> inf and in the mixture) only (1).
    The right model's 99.9% band covers the true curve at >= 75% of the recall grid
    (see test_band_of_right_model_covers_true_curve) and its KS-PPC p-value is > 0.01.
    Binormal and t data are not probabilities, so binormal_logit is skipped there."""
    true_model = {"binormal": NORMAL, "bi_t": HEAVY_T, "mixture": BIMODAL}.get(
        generator, LOGIT_NORMAL
    )
    entropy, rng = _fresh_rng()
    y, s = _simulate(true_model, 1500, rng)
    fits = _fit(y, s, ("binormal", "binormal_logit", "bi_t", "mixture"), rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BayesPRCWarning)
        table = compare_score_models(y, s, fits=fits)
    msg = (entropy, generator, table[["elpd", "elpd_diff", "dse"]].to_string())
    diff, dse = table.loc[generator, "elpd_diff"], table.loc[generator, "dse"]
    assert table.index[0] == generator or diff > -2 * dse, msg
    if generator in ("mixture", "binormal_logit"):
        assert table.index[0] == generator, msg
        others = table.drop(index=generator)
        assert np.all(others["elpd_diff"] < -2 * others["dse"]), msg
    if generator == "bi_t" and table.index[0] == "bi_t":
        assert table.loc["binormal", "elpd_diff"] < -2 * table.loc["binormal", "dse"], msg
    fit = fits[generator]
    cov999, cov94 = _coverage(fit, true_model, 0.999), _coverage(fit, true_model, 0.94)
    assert cov999 >= 0.75, (*msg, cov999, cov94)
    assert float(score_ppc(y, s, fit, random_seed=rng)["min_p_value"]) > 0.01, msg


def test_ppc_replicated_discrepancy_is_kolmogorov_distributed():
    """The shortcut behind ``ks_replicated``: the KS distance of m scores drawn from a
    continuous F_theta to F_theta has scipy's one-sample Kolmogorov law kstwo(m) for any
    theta. Reference: explicit replicated data sets from the fitted class distributions
    (the definition), compared with a two-sample KS test (p > 1e-4: a failure rate of
    1e-4 per run under a correct shortcut)."""
    from bayes_prc.models import class_distributions

    y, s = NORMAL.sample(300, random_seed=0)
    post = bp.fit_binormal(
        y, s, model="parametric", method="exact", draws=400, chains=1, random_seed=1
    )
    rng = np.random.default_rng(2)
    neg, _ = class_distributions(post.model)
    sub = neg.take(np.arange(400))
    m = int((np.asarray(y) == 0).sum())
    rep = np.sort(sub.rvs(rng, m), axis=1)
    cdf = sub.cdf(rep, 1)
    i = np.arange(1, m + 1)
    explicit = np.maximum(np.max(i / m - cdf, axis=1), np.max(cdf - (i - 1) / m, axis=1))
    shortcut = score_ppc(y, s, post, n_draws=400, random_seed=3)["ks_replicated"].sel(
        {"class": "neg"}
    )
    assert stats.ks_2samp(explicit, shortcut.values).pvalue > 1e-4
    assert stats.kstest(explicit, stats.kstwo(m).cdf).pvalue > 1e-4


def test_ppc_observed_distance_on_large_classes_within_grid_error():
    """Above 20 000 items per class the observed KS distance is read at 20 000 order
    statistics: within 1/20 000 of the exact distance (scipy.stats.kstest per draw)."""
    from bayes_prc.criticism import _ks_observed
    from bayes_prc.models import class_distributions

    y, s = NORMAL.sample(60_000, random_seed=4)
    post = bp.fit_binormal(
        y, s, model="parametric", method="exact", draws=5, chains=1, random_seed=5
    )
    neg, _ = class_distributions(post.model)
    x = np.sort(np.asarray(s)[np.asarray(y) == 0])
    assert x.size > 20_000
    got = _ks_observed(x, neg.take(np.arange(5)), 5)
    mu = post.model.mu_neg.ravel()[:5]
    sd = post.model.sigma_neg.ravel()[:5]
    exact = [
        stats.kstest(x, stats.norm(m_, s_).cdf).statistic for m_, s_ in zip(mu, sd, strict=True)
    ]
    assert np.all(got <= np.array(exact) + 1e-12)
    np.testing.assert_allclose(got, exact, atol=1 / 20_000)
