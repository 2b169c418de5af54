"""Tests for :mod:`bayes_prc.binormal` against independent references.

References used: adaptive quadrature (``scipy.integrate.quad``) for the average precision
and the ROC AUC, the plain ratio form of the precision where nothing underflows, the
asymptotic (Mills-ratio) series of the normal tail where everything underflows, dense
brute-force grids for the operating points, Monte Carlo for the sampler, and numpy's
mean/std for the fit.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.optimize import minimize_scalar
from scipy.special import expit, log_ndtr, logit

from bayes_prc.binormal import Binormal, BinormalFBetaResult

# --------------------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------------------


def ap_quad_u(mu_pos, sigma_pos, mu_neg, sigma_neg, prevalence):
    """AP = int phi(u) prec(mu_pos + sigma_pos u) du by adaptive quadrature.

    The precision is written with ``scipy.special.log_ndtr`` directly on the threshold
    scale (not with the module's d/s parametrisation). Break points are put
    where the negative class's standardised score is -6, -5.5, ..., 12, which is where
    the precision's logistic transition can be sharp (on the scale 1/s in u); u is
    truncated to [-12, 12] (neglected mass 2e-33).
    """
    lp = logit(prevalence)
    log_sqrt_2pi = 0.5 * math.log(2 * math.pi)

    def integrand(u):
        t = mu_pos + sigma_pos * u
        log_r = log_ndtr((mu_pos - t) / sigma_pos)
        log_f = log_ndtr((mu_neg - t) / sigma_neg)
        return math.exp(-0.5 * u * u - log_sqrt_2pi) * expit(lp + log_r - log_f)

    x_breaks = np.arange(-6.0, 12.01, 0.5)
    u_breaks = (mu_neg + sigma_neg * x_breaks - mu_pos) / sigma_pos
    points = sorted({0.0, *(float(u) for u in u_breaks if -11.9 < u < 11.9)})
    value, abserr = integrate.quad(
        integrand, -12.0, 12.0, points=points, limit=500, epsabs=1e-13, epsrel=1e-12
    )
    assert abserr < 1e-10
    return value


def ap_quad_recall(mu_pos, sigma_pos, mu_neg, sigma_neg, prevalence):
    """AP = int_0^1 prec(r) dr with the plain ratio form (fine for moderate parameters)."""

    def integrand(r):
        t = stats.norm.isf(r, mu_pos, sigma_pos)
        f = stats.norm.sf(t, mu_neg, sigma_neg)
        return prevalence * r / (prevalence * r + (1 - prevalence) * f)

    value, _ = integrate.quad(integrand, 0.0, 1.0, limit=500, epsabs=1e-13, epsrel=1e-12)
    return value


def log_sf_asymptotic(x):
    """log P(Z >= x) for large x by the Mills-ratio series (relative error < 1e-12, x > 30)."""
    x = np.asarray(x, dtype=float)
    series = 1 - 1 / x**2 + 3 / x**4 - 15 / x**6 + 105 / x**8 - 945 / x**10
    return -0.5 * x**2 - np.log(x) - 0.5 * math.log(2 * math.pi) + np.log(series)


@functools.cache
def brute_u_grid(params, lo=-12.0, hi=14.0, step=5e-5):
    """Dense grid of thresholds (step ``step`` in standardised positive units) for a scalar
    model given as a parameter tuple, with the recall and the precision on it."""
    model = Binormal(*params)
    t = params[0] + params[1] * np.arange(lo, hi, step)
    return t, model.recall(t), model.precision(t)


# parameter grid for the AP accuracy test: separation d = (mu_pos - mu_neg) / sigma_neg,
# spread ratio s = sigma_pos / sigma_neg, prevalence; on the negative class's scale
# mu_neg = 2, sigma_neg = 3 (so that the scaling is exercised too)
AP_D = (-5.0, -1.0, 0.0, 1.0, 3.0, 8.0, 15.0)
AP_S = (0.1, 0.5, 1.0, 1.2, 2.0, 10.0)
AP_PI = (1e-4, 0.1, 0.5, 0.9999)


@pytest.fixture(scope="module")
def ap_grid():
    d, s, pi = (np.array(v) for v in zip(*itertools.product(AP_D, AP_S, AP_PI), strict=True))
    mu_neg, sigma_neg = 2.0, 3.0
    params = dict(
        mu_pos=mu_neg + sigma_neg * d,
        sigma_pos=sigma_neg * s,
        mu_neg=mu_neg,
        sigma_neg=sigma_neg,
        prevalence=pi,
    )
    reference = np.array(
        [
            ap_quad_u(mu_neg + sigma_neg * d_i, sigma_neg * s_i, mu_neg, sigma_neg, pi_i)
            for d_i, s_i, pi_i in zip(d, s, pi, strict=True)
        ]
    )
    return params, reference


# --------------------------------------------------------------------------------------
# average precision
# --------------------------------------------------------------------------------------


def test_average_precision_matches_quad_on_parameter_grid(ap_grid):
    params, reference = ap_grid
    ap = Binormal(**params).average_precision()
    # Required accuracy 1e-8 absolute; the composite Gauss-Legendre rules achieve about
    # 1e-14 here, quad's own error estimate is < 1e-10 (asserted in ap_quad_u).
    assert ap.shape == reference.shape
    assert np.max(np.abs(ap - reference)) < 1e-8


def test_average_precision_far_tails_and_scalar_calls_agree():
    # separations beyond the validated range, where the false-positive tail underflows
    # over most of the integration range; precision is then 1 almost everywhere
    cases = [(40.0, 1.0, 0.0, 1.0, 0.01), (30.0, 0.2, 0.0, 1.0, 1e-4), (-20.0, 5.0, 0.0, 1.0, 0.5)]
    for case in cases:
        ap = Binormal(*case).average_precision()
        assert isinstance(ap, np.floating)
        assert abs(ap - ap_quad_u(*case)) < 1e-8  # same tolerance as the grid test


def test_average_precision_is_continuous_across_the_two_quadrature_rules():
    # sigma_pos <= sigma_neg and sigma_pos > sigma_neg use different node sets (in u and in
    # x); AP is smooth in the spread ratio, so both sides of s = 1 must agree to the
    # rules' accuracy (1e-13) plus the change of AP over a ratio change of 2e-9 (< 1e-8)
    d = np.array([-5.0, 0.0, 1.0, 4.0, 12.0])
    for pi in (1e-4, 0.3, 0.9999):
        below = Binormal(d, 1.0 - 1e-9, 0.0, 1.0, pi).average_precision()
        above = Binormal(d, 1.0 + 1e-9, 0.0, 1.0, pi).average_precision()
        np.testing.assert_allclose(below, above, rtol=0, atol=1e-8)


def test_average_precision_known_value():
    # mu_pos=1, s_pos=1, mu_neg=0, s_neg=1, prevalence=0.1: AP is about 0.29284
    reference = ap_quad_recall(1.0, 1.0, 0.0, 1.0, 0.1)
    assert abs(reference - 0.29284) < 5e-6  # the quoted value has 5 decimals
    assert abs(Binormal(1.0, 1.0, 0.0, 1.0, 0.1).average_precision() - reference) < 1e-8


@pytest.mark.parametrize("prevalence", [1e-4, 0.1, 0.5, 0.9999])
@pytest.mark.parametrize("sigma", [0.1, 1.0, 7.0])
def test_identical_classes_give_prevalence_and_half_auc(prevalence, sigma):
    model = Binormal(3.0, sigma, 3.0, sigma, prevalence)
    # precision is the prevalence everywhere; only rounding remains
    assert model.average_precision() == pytest.approx(prevalence, rel=1e-12)
    assert model.roc_auc() == 0.5
    r = np.linspace(0, 1, 11)
    np.testing.assert_allclose(model.precision_at_recall(r), prevalence, rtol=1e-12)
    assert model.precision(np.inf) == pytest.approx(prevalence, rel=1e-15)


def test_average_precision_prevalence_reweighting():
    mu_pos = np.array([0.5, 1.0, 3.0])
    model = Binormal(mu_pos, 1.5, 0.0, 1.0, 0.2)
    for q in (0.01, 0.7):
        expected = Binormal(mu_pos, 1.5, 0.0, 1.0, q).average_precision()
        np.testing.assert_allclose(model.average_precision(prevalence=q), expected, rtol=1e-14)
    q = np.array([0.01, 0.2, 0.7])  # one prevalence per draw
    expected = Binormal(mu_pos, 1.5, 0.0, 1.0, q).average_precision()
    np.testing.assert_allclose(model.average_precision(prevalence=q), expected, rtol=1e-14)
    # precision re-weights, recall does not depend on the prevalence
    t = np.linspace(-2, 4, 7)
    np.testing.assert_allclose(
        model.precision(t, prevalence=0.7), Binormal(mu_pos, 1.5, 0.0, 1.0, 0.7).precision(t)
    )
    np.testing.assert_allclose(
        model.precision_at_recall([0.2, 0.9], prevalence=0.7),
        Binormal(mu_pos, 1.5, 0.0, 1.0, 0.7).precision_at_recall([0.2, 0.9]),
    )


# --------------------------------------------------------------------------------------
# ROC
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params", [(1.0, 1.0, 0.0, 1.0, 0.1), (0.3, 2.5, 1.0, 0.4, 0.5), (-1.0, 0.2, 0.5, 3.0, 0.9)]
)
def test_roc_auc_matches_quad_and_monte_carlo(params):
    mu_pos, sigma_pos, mu_neg, sigma_neg, _ = params
    auc = Binormal(*params).roc_auc()

    def integrand(x):  # P(X_pos > x) times the negative density
        return stats.norm.pdf(x, mu_neg, sigma_neg) * stats.norm.sf(x, mu_pos, sigma_pos)

    lo, hi = mu_neg - 40 * sigma_neg, mu_neg + 40 * sigma_neg
    reference, _ = integrate.quad(integrand, lo, hi, points=[mu_neg, mu_pos], limit=500)
    assert abs(auc - reference) < 1e-10  # quad converges to ~1e-14 for this smooth integrand

    rng = np.random.default_rng(20240611)
    n = 200_000
    wins = rng.normal(mu_pos, sigma_pos, n) > rng.normal(mu_neg, sigma_neg, n)
    se = math.sqrt(auc * (1 - auc) / n)
    assert abs(wins.mean() - auc) < 5 * se


def test_tpr_at_fpr_is_recall_at_the_same_threshold():
    model = Binormal(np.array([1.0, 0.2, 4.0]), np.array([1.0, 3.0, 0.5]), 0.5, 2.0, 0.1)
    t = np.linspace(-4.0, 6.0, 41)  # moderate thresholds: fpr well away from 0 and 1
    fpr = model.fpr(t)
    tpr = np.stack([model.tpr_at_fpr(row)[i] for i, row in enumerate(fpr)])
    np.testing.assert_allclose(tpr, model.recall(t), rtol=1e-11, atol=1e-14)
    fpr_grid, tpr_grid = model.roc_curve(n_points=11)
    assert fpr_grid.shape == (11,) and tpr_grid.shape == (3, 11)
    np.testing.assert_array_equal(tpr_grid[:, 0], 0.0)
    np.testing.assert_array_equal(tpr_grid[:, -1], 1.0)
    assert np.all(np.diff(tpr_grid, axis=1) >= 0)


# --------------------------------------------------------------------------------------
# precision, recall and the precision-recall curve
# --------------------------------------------------------------------------------------

MODELS = [
    (1.0, 1.0, 0.0, 1.0, 0.1),
    (40.0, 1.0, 0.0, 1.0, 0.1),  # far tails: precision 1 up to recall ~1
    (0.0, 3.0, 0.0, 1.0, 0.3),  # s > 1: precision dips then rises to 1
    (2.0, 0.3, 0.0, 1.0, 0.5),  # s < 1: precision rises then falls to 0
    (-3.0, 1.0, 0.0, 1.0, 0.9999),  # worse than chance
    (0.0, 1.0, 0.0, 1.0, 1e-4),  # identical classes
]


@pytest.mark.parametrize("params", MODELS)
def test_precision_at_recall_has_no_nan_and_correct_limits(params):
    model = Binormal(*params)
    r = np.r_[0.0, 5e-324, np.logspace(-320, -1, 400), np.linspace(0, 1, 1001), 1 - 1e-16, 1.0]
    p = model.precision_at_recall(r)
    assert p.shape == r.shape
    assert np.all(np.isfinite(p)) and np.all((p >= 0) & (p <= 1))
    mu_pos, sigma_pos, mu_neg, sigma_neg, pi = params
    assert p[-1] == pytest.approx(pi, rel=1e-15)  # recall 1: everything is predicted positive
    if sigma_pos != sigma_neg:
        expected0 = 1.0 if sigma_pos > sigma_neg else 0.0
    else:
        expected0 = 1.0 if mu_pos > mu_neg else 0.0 if mu_pos < mu_neg else pi
    assert p[0] == pytest.approx(expected0, rel=1e-15)
    assert model.precision(np.inf) == pytest.approx(expected0, rel=1e-15)
    assert model.precision(-np.inf) == pytest.approx(pi, rel=1e-15)


@pytest.mark.parametrize("params", MODELS)
def test_precision_at_recall_equals_precision_at_threshold(params):
    model = Binormal(*params)
    r = np.r_[np.logspace(-12, -1, 23), np.linspace(0.05, 0.999, 50)]
    via_threshold = model.precision(model.threshold_at_recall(r))
    # the threshold round trip t = mu + sigma * u loses ~|mu/sigma| ulps in u; with
    # mu_pos = 40 that is ~1e-14 relative in u, i.e. ~1e-12 in the logit of the precision
    np.testing.assert_allclose(model.precision_at_recall(r), via_threshold, rtol=1e-10)
    np.testing.assert_allclose(model.recall(model.threshold_at_recall(r)), r, rtol=1e-12)


def test_precision_matches_plain_formula_and_far_tail_asymptotics():
    model = Binormal(1.0, 1.5, 0.0, 1.0, 0.2)
    t = np.linspace(-5, 8, 27)  # nothing underflows: the ratio form is exact enough
    r = stats.norm.sf(t, 1.0, 1.5)
    f = stats.norm.sf(t, 0.0, 1.0)
    np.testing.assert_allclose(model.precision(t), 0.2 * r / (0.2 * r + 0.8 * f), rtol=1e-13)
    np.testing.assert_allclose(model.recall(t), r, rtol=1e-14)
    np.testing.assert_allclose(model.fpr(t), f, rtol=1e-14)

    # far right tail, both tail probabilities underflow double (t = 60..120 sigma):
    # compare with the Mills-ratio asymptotic series (relative error < 1e-12)
    model = Binormal(0.0, 1.2, 0.0, 1.0, 0.01)
    t = np.linspace(60.0, 120.0, 7)
    assert np.all(stats.norm.sf(t, 0.0, 1.2) == 0.0)
    lz = logit(0.01) + log_sf_asymptotic(t / 1.2) - log_sf_asymptotic(t)
    np.testing.assert_allclose(model.precision(t), expit(lz), rtol=1e-12)
    assert model.precision(np.inf) == 1.0


def test_threshold_at_recall_limits_and_formula():
    model = Binormal(2.0, 3.0, 0.0, 1.0, 0.1)
    assert model.threshold_at_recall(0.0) == np.inf
    assert model.threshold_at_recall(1.0) == -np.inf
    r = np.array([1e-300, 1e-10, 0.3, 0.5, 0.9])
    np.testing.assert_allclose(
        model.threshold_at_recall(r), stats.norm.isf(r, 2.0, 3.0), rtol=1e-13
    )


# --------------------------------------------------------------------------------------
# shapes
# --------------------------------------------------------------------------------------


def test_outer_product_shape_convention():
    mu_pos = np.array([0.5, 1.0, 2.0])
    model = Binormal(mu_pos, 1.0, 0.0, 1.0, 0.1)
    assert model.batch_shape == (3,)
    grid = np.linspace(0.0, 1.0, 5)
    for method in ("precision_at_recall", "threshold_at_recall", "tpr_at_fpr"):
        out = getattr(model, method)(grid)
        assert out.shape == (3, 5)
        for i, m in enumerate(mu_pos):  # each row is the scalar model on the whole grid
            np.testing.assert_allclose(
                out[i], getattr(Binormal(m, 1.0, 0.0, 1.0, 0.1), method)(grid)
            )
    thresholds = np.linspace(-1, 3, 5)
    for method in ("recall", "fpr", "precision"):
        assert getattr(model, method)(thresholds).shape == (3, 5)
    assert model.pdf(thresholds, label=1).shape == (3, 5)
    assert model.recall_at_precision([0.2, 0.5]).shape == (3, 2)
    assert model.average_precision().shape == (3,)
    assert model.roc_auc().shape == (3,)

    model2 = Binormal(np.ones((2, 1)), np.array([0.5, 1.0, 2.0]), 0.0, 1.0, 0.3)
    assert model2.batch_shape == (2, 3)
    assert model2.mu_pos.shape == (2, 3) and model2.prevalence.shape == (2, 3)
    assert model2.precision_at_recall(np.linspace(0, 1, 4)).shape == (2, 3, 4)
    assert model2.precision(np.zeros((4, 5))).shape == (2, 3, 4, 5)
    assert model2.average_precision().shape == (2, 3)
    assert model2.average_precision(prevalence=np.array([0.1, 0.2, 0.3])).shape == (2, 3)
    assert model2.max_fbeta().fbeta.shape == (2, 3)
    assert model2.threshold_at_precision(np.array([[0.4]])).shape == (2, 3, 1, 1)

    scalar = Binormal(1.0, 1.0, 0.0, 1.0, 0.1)
    for value in (scalar.precision(0.5), scalar.precision_at_recall(0.5), scalar.roc_auc()):
        assert isinstance(value, np.floating)
    assert scalar.precision_at_recall([0.5]).shape == (1,)


def test_parameters_are_read_only_float_arrays_and_repr():
    model = Binormal([1, 2], 1, 0, 1, 0.5)
    assert model.mu_pos.dtype == np.float64 and model.sigma_neg.shape == (2,)
    with pytest.raises(ValueError):
        model.mu_pos[0] = 3.0
    assert repr(Binormal(1.0, 2.0, 0.0, 1.0, 0.25)) == (
        "Binormal(mu_pos=1, sigma_pos=2, mu_neg=0, sigma_neg=1, prevalence=0.25)"
    )
    assert repr(model).startswith("Binormal(batch_shape=(2,), mu_pos=<2 values in [1, 2]>")


# --------------------------------------------------------------------------------------
# operating points
# --------------------------------------------------------------------------------------

OP_MODELS = [
    (2.0, 1.0, 0.0, 1.0, 0.1),  # monotone precision
    (1.0, 0.4, 0.0, 1.0, 0.2),  # s < 1: precision rises then falls; some targets unreachable
    (0.0, 2.5, 0.0, 1.0, 0.3),  # s > 1: precision dips below the prevalence, then rises
    (4.0, 3.0, 0.0, 1.0, 0.01),
]


@pytest.mark.parametrize("params", OP_MODELS)
def test_recall_at_precision_matches_brute_force(params):
    model = Binormal(*params)
    targets = np.array([0.0, 0.05, 0.2, 0.35, 0.5, 0.6, 0.8, 0.9, 0.99, 1.0])
    recall = model.recall_at_precision(targets)
    thresholds = model.threshold_at_precision(targets)
    t, r_grid, p_grid = brute_u_grid(params)
    for p0, rec, thr in zip(targets, recall, thresholds, strict=True):
        reach = p_grid >= p0
        brute = r_grid[reach].max() if reach.any() else 0.0
        if p0 <= params[4]:
            brute = 1.0  # recall 1 (threshold -inf) has precision = prevalence
        if p0 == 1.0:
            # documented convention: precision 1 is only a limit (recall 0), although
            # the floating-point precision rounds to 1.0 far in the tail when s > 1
            brute = 0.0
        # grid step 5e-5 in u moves recall by at most phi(0) * 5e-5 = 2e-5
        assert abs(rec - brute) < 2.5e-5, (p0, rec, brute)
        if 0.0 < rec < 1.0:
            # interior solution: precision equals the target at the threshold (root found
            # to double precision; 1e-9 leaves room for the threshold round trip)
            assert model.precision(thr) == pytest.approx(p0, abs=1e-9)
            assert model.recall(thr) == pytest.approx(rec, rel=1e-12)
        elif rec == 1.0:
            assert thr == -np.inf or model.recall(thr) == 1.0
        else:
            assert thr == np.inf
    assert not np.any(np.isnan(recall))


def test_recall_at_precision_just_below_a_local_maximum():
    # sigma_pos < sigma_neg: precision peaks (at ~0.4498) and then falls to 0, so a target
    # just below the peak is met only on a tiny interval of thresholds between the
    # search-grid points; the maximum is located independently by scipy's bounded search
    model = Binormal(1.0, 0.4, 0.0, 1.0, 0.2)
    res = minimize_scalar(
        lambda t: -model.precision(t),
        bounds=(-2.0, 6.0),
        method="bounded",
        options={"xatol": 1e-12},
    )
    p_max = -res.fun
    r_peak = model.recall(res.x)
    rec = model.recall_at_precision([p_max - 1e-12, p_max + 1e-9])
    # the target is met only within ~sqrt(1e-12) = 1e-6 (in threshold units) of the peak,
    # so the largest recall lies within ~1e-6 of the peak's recall; tolerance 1e-5
    assert rec[0] == pytest.approx(r_peak, abs=1e-5)
    assert rec[1] == 0.0  # above the maximum: unreachable
    thr = model.threshold_at_precision(p_max - 1e-12)
    assert model.precision(thr) >= p_max - 1e-12 - 1e-15


def test_recall_at_precision_vectorised_matches_scalar_calls():
    mu_pos = np.array([0.5, 1.0, 2.0, 3.0])
    sigma_pos = np.array([0.4, 1.0, 2.0, 5.0])
    model = Binormal(mu_pos, sigma_pos, 0.0, 1.0, 0.2)
    targets = np.array([0.3, 0.6, 0.9])
    batch = model.recall_at_precision(targets)
    for i in range(4):
        single = Binormal(mu_pos[i], sigma_pos[i], 0.0, 1.0, 0.2).recall_at_precision(targets)
        np.testing.assert_array_equal(batch[i], single)
    np.testing.assert_array_equal(
        model.recall_at_precision(0.6, prevalence=0.5),
        Binormal(mu_pos, sigma_pos, 0.0, 1.0, 0.5).recall_at_precision(0.6),
    )


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("params", OP_MODELS)
def test_max_fbeta_matches_brute_force(params, beta):
    model = Binormal(*params)
    best = model.max_fbeta(beta=beta)
    assert isinstance(best, BinormalFBetaResult)
    _, r_grid, p_grid = brute_u_grid(params)
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        f_grid = np.where(r_grid > 0, (1 + b2) * p_grid * r_grid / (b2 * p_grid + r_grid), 0.0)
    brute = f_grid.max()
    # the brute-force grid (step 5e-5 in u) misses the true maximum by at most
    # |dF/du^2| * step**2 / 8 < 1e-9; the optimiser must not be worse than the grid
    assert best.fbeta >= brute - 1e-12
    assert best.fbeta <= brute + 1e-9
    # the reported operating point is consistent
    assert model.precision(best.threshold) == pytest.approx(best.precision, rel=1e-10)
    assert model.recall(best.threshold) == pytest.approx(best.recall, rel=1e-10)
    f = (1 + b2) * best.precision * best.recall / (b2 * best.precision + best.recall)
    assert f == pytest.approx(best.fbeta, rel=1e-12)


def test_max_fbeta_vectorised_and_prevalence():
    model = Binormal(np.array([1.0, 2.0]), np.array([1.0, 0.5]), 0.0, 1.0, 0.1)
    best = model.max_fbeta(prevalence=0.4)
    for i in range(2):
        single = Binormal(model.mu_pos[i], model.sigma_pos[i], 0.0, 1.0, 0.4).max_fbeta()
        assert best.fbeta[i] == pytest.approx(single.fbeta, rel=1e-14)
        assert best.threshold[i] == pytest.approx(single.threshold, rel=1e-12)


# --------------------------------------------------------------------------------------
# densities, sampling, fitting
# --------------------------------------------------------------------------------------


def test_pdf_matches_scipy():
    model = Binormal(np.array([1.0, 2.0]), np.array([0.5, 2.0]), -1.0, 3.0, 0.2)
    x = np.linspace(-5, 5, 11)
    np.testing.assert_allclose(
        model.pdf(x, label=1), stats.norm.pdf(x, [[1.0], [2.0]], [[0.5], [2.0]]), rtol=1e-13
    )
    np.testing.assert_allclose(model.logpdf(x, label=False)[0], stats.norm.logpdf(x, -1.0, 3.0))


def test_sample_is_reproducible_and_matches_the_model():
    model = Binormal(1.0, 2.0, -0.5, 0.5, 0.3)
    y1, s1 = model.sample(1000, random_seed=7)
    y2, s2 = model.sample(1000, random_seed=np.random.default_rng(7))
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(s1, s2)
    assert y1.dtype == np.int64 and set(np.unique(y1)) <= {0, 1}
    assert s1.dtype == np.float64 and s1.shape == (1000,)
    y3, _ = model.sample(1000, random_seed=8)
    assert not np.array_equal(y1, y3)

    n = 200_000
    y, s = model.sample(n, random_seed=12345)
    pos = y == 1
    # every check within 5 standard errors (fails by chance with probability < 1e-6)
    assert abs(pos.mean() - 0.3) < 5 * math.sqrt(0.3 * 0.7 / n)
    assert abs(s[pos].mean() - 1.0) < 5 * 2.0 / math.sqrt(pos.sum())
    assert abs(s[~pos].mean() + 0.5) < 5 * 0.5 / math.sqrt((~pos).sum())
    assert abs(s[pos].std() - 2.0) < 5 * 2.0 / math.sqrt(2 * pos.sum())

    fitted = Binormal.fit(y, s)
    assert fitted.batch_shape == ()
    assert float(fitted.mu_pos) == pytest.approx(np.mean(s[pos]), rel=1e-14)
    assert float(fitted.sigma_pos) == pytest.approx(np.std(s[pos], ddof=0), rel=1e-14)
    assert float(fitted.mu_neg) == pytest.approx(np.mean(s[~pos]), rel=1e-14)
    assert float(fitted.sigma_neg) == pytest.approx(np.std(s[~pos], ddof=0), rel=1e-14)
    assert float(fitted.prevalence) == pytest.approx(pos.mean(), rel=1e-14)
    assert abs(fitted.sigma_neg - 0.5) < 5 * 0.5 / math.sqrt(2 * (~pos).sum())

    # bool labels and plain lists are accepted
    fitted_bool = Binormal.fit(pos.tolist(), s.tolist())
    assert float(fitted_bool.mu_pos) == float(fitted.mu_pos)


def test_sample_empty_and_zero_items():
    y, s = Binormal(0.0, 1.0, 0.0, 1.0, 0.5).sample(0, random_seed=1)
    assert y.shape == (0,) and s.shape == (0,)


# --------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mu_pos": np.nan}, r"`mu_pos` must be finite; got nan"),
        ({"mu_neg": [0.0, np.inf]}, r"`mu_neg` must be finite; got inf"),
        ({"sigma_pos": -1.0}, r"`sigma_pos` must be > 0; got -1.0"),
        ({"sigma_neg": 0.0}, r"`sigma_neg` must be > 0; got 0.0"),
        ({"prevalence": 1.0}, r"`prevalence` must be in \(0, 1\); got 1.0"),
        ({"prevalence": [0.5, 0.0]}, r"`prevalence` must be in \(0, 1\); got 0.0"),
        ({"mu_pos": [1.0, 2.0], "sigma_pos": [1.0, 2.0, 3.0]}, r"cannot be broadcast"),
        ({"mu_pos": "a"}, r"`mu_pos` must be a real number"),
    ],
)
def test_constructor_validation(kwargs, match):
    params = dict(mu_pos=1.0, sigma_pos=1.0, mu_neg=0.0, sigma_neg=1.0, prevalence=0.1)
    params.update(kwargs)
    with pytest.raises(ValueError, match=match):
        Binormal(**params)


def test_method_argument_validation():
    model = Binormal(np.array([1.0, 2.0]), 1.0, 0.0, 1.0, 0.1)
    with pytest.raises(ValueError, match=r"`recall` must be in \[0, 1\]; got 1.5"):
        model.precision_at_recall([0.5, 1.5])
    with pytest.raises(ValueError, match=r"`recall` must be in \[0, 1\]; got nan"):
        model.threshold_at_recall(np.nan)
    with pytest.raises(ValueError, match=r"`fpr` must be in \[0, 1\]; got -0.1"):
        model.tpr_at_fpr(-0.1)
    with pytest.raises(ValueError, match=r"`min_precision` must be in \[0, 1\]; got 2.0"):
        model.recall_at_precision(2.0)
    with pytest.raises(ValueError, match=r"`prevalence` must be in \(0, 1\); got 0.0"):
        model.average_precision(prevalence=0.0)
    with pytest.raises(ValueError, match=r"`prevalence` of shape \(3,\) cannot be broadcast"):
        model.precision(0.0, prevalence=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"`beta` must be a finite number > 0; got 0"):
        model.max_fbeta(beta=0)
    with pytest.raises(ValueError, match=r"`n_points` must be an integer >= 2; got 1"):
        model.roc_curve(n_points=1)
    with pytest.raises(ValueError, match=r"`label` must be 0, 1 or a bool; got 2"):
        model.pdf(0.0, label=2)
    with pytest.raises(ValueError, match=r"batch_shape \(2,\)"):
        model.sample(10)
    with pytest.raises(ValueError, match=r"`n` must be a non-negative integer; got -1"):
        Binormal(1.0, 1.0, 0.0, 1.0, 0.1).sample(-1)


@pytest.mark.parametrize(
    ("y_true", "y_score", "match"),
    [
        ([0, 1, 0], [0.1, 0.2], r"`y_true` has 3, `y_score` has 2"),
        ([0, 0, 1, 1], [0.1, np.nan, 0.3, 0.4], r"`y_score` contains NaN"),
        ([0, 0, 1, 1], [0.1, 0.2, np.inf, 0.4], r"`y_score` contains an infinite value"),
        ([0, 2, 1, 1], [0.1, 0.2, 0.3, 0.4], r"`y_true` must hold 0/1 or bool labels; got 2"),
        (["a", "b", "a", "b"], [0.1, 0.2, 0.3, 0.4], r"`y_true` must hold 0/1 or bool labels"),
        ([0, 0, 1, 1], [0.1, 0.1, 0.3, 0.4], r"negative class .* 1 distinct"),
        ([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4], r"positive class .* 1 score\(s\)"),
    ],
)
def test_fit_validation(y_true, y_score, match):
    with pytest.raises(ValueError, match=match):
        Binormal.fit(y_true, y_score)
