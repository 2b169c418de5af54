"""fit_pool: the pool bins against scikit-learn, label noise against brute force, the fast
sampler against NUTS, invariances and the posterior's methods."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special
from sklearn.metrics import average_precision_score, roc_auc_score

from bayes_prc.pool._model import (
    PoolData,
    PoolPriors,
    _grad_hess,
    pool_log_posterior,
    pool_normal_scores,
    rate,
    sample_prior,
)
from bayes_prc.pool._posterior import PoolBins, fit_pool, pool_bins
from bayes_prc.pool._selection import select_labels


def _pool(n=20_000, prevalence=0.02, seed=0, shift=2.5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    return y, rng.normal(size=n) + shift * y


@pytest.mark.parametrize("digits", [None, 1])
def test_bins_with_every_label_known_match_sklearn(digits):
    # reference: scikit-learn on the full labelled pool; bins of > 1 item place their
    # positives exchangeably, an error we bound by 1e-3 (measured 2e-6 at 2e5 items)
    y, s = _pool(n=200_000, prevalence=0.01, shift=2.0)
    if digits is not None:
        s = np.round(s, digits)  # ties: each tie group is a bin or inside one
    b = pool_bins(s, np.arange(s.size), y)
    c = b.known_pos[None]
    assert b.size.size < 2000
    assert b.average_precision(c)[0] == pytest.approx(average_precision_score(y, s), abs=1e-3)
    assert b.roc_auc(c)[0] == pytest.approx(roc_auc_score(y, s), abs=1e-4)
    if digits is not None:  # bins are whole tie groups: exact
        assert b.average_precision(c)[0] == pytest.approx(average_precision_score(y, s), abs=1e-12)


def test_label_noise_matches_brute_force_simulation():
    # reference: labels of the whole pool drawn item by item from a fixed calibration,
    # AP by scikit-learn; the bins' per-draw AP must have the same mean and sd
    # (tolerances: 4 Monte Carlo standard errors of the mean, 20% on the sd with 300
    # brute-force replicates, sd of an sd ~ 4%)
    rng = np.random.default_rng(5)
    n = 20_000
    s = rng.normal(size=n)
    p = special.expit(-5.0 + 2.0 * s)
    labelled = rng.choice(n, 200, replace=False)
    y_lab = (rng.random(200) < p[labelled]).astype(float)
    u = pool_normal_scores(s)
    b = PoolBins(s, u, labelled, y_lab)
    # calibration at the bins' u: p as a function of u is p at the score of that rank
    s_sorted = np.sort(s)
    p_of_u = np.interp(
        b.u, special.ndtri((np.arange(n) + 0.5) / n), special.expit(-5.0 + 2.0 * s_sorted)
    )
    reps = 300
    c = b.counts(np.broadcast_to(p_of_u, (2000, p_of_u.size)), np.random.default_rng(1))
    fast = b.average_precision(c)
    brute = []
    for _ in range(reps):
        y = (rng.random(n) < p).astype(int)
        y[labelled] = y_lab
        brute.append(average_precision_score(y, s))
    brute = np.array(brute)
    se = np.sqrt(brute.var() / reps + fast.var() / fast.size)
    assert abs(fast.mean() - brute.mean()) < 4 * se
    assert fast.std() == pytest.approx(brute.std(), rel=0.2)


def test_census_posterior_is_the_pool_ap():
    y, s = _pool(n=1500, prevalence=0.05)
    sel = select_labels(s, s.size, random_seed=0)
    post = fit_pool(s, sel, y[sel.indices], draws=100, chains=2, random_seed=0)
    ap = post.average_precision().values
    assert np.allclose(ap, average_precision_score(y, s), atol=1e-12)
    assert np.allclose(post.roc_auc().values, roc_auc_score(y, s), atol=1e-12)


def test_rank_invariance_and_seed():
    y, s = _pool(n=10_000)
    sel = select_labels(s, 200, random_seed=1)
    a = fit_pool(s, sel, y[sel.indices], draws=200, chains=2, random_seed=3)
    s2 = np.exp(s)
    sel2 = select_labels(s2, 200, random_seed=1)
    np.testing.assert_array_equal(sel.indices, sel2.indices)
    b = fit_pool(s2, sel2, y[sel2.indices], draws=200, chains=2, random_seed=3)
    np.testing.assert_allclose(a.average_precision().values, b.average_precision().values)


def test_posterior_methods():
    y, s = _pool(n=20_000)
    sel = select_labels(s, 300, random_seed=2)
    post = fit_pool(s, sel, y[sel.indices], draws=250, chains=2, random_seed=4)
    assert "PoolPosterior(" in repr(post) and "n_labelled=300" in repr(post)
    band = post.pr_band(kind="pointwise")
    assert band.sizes["recall"] == 201
    assert np.all(band["lower"] <= band["median"] + 1e-12)
    assert np.all(band["median"] <= band["upper"] + 1e-12)
    sim = post.pr_band(recall=np.linspace(0.05, 1, 40), kind="simultaneous", ci_prob=0.8)
    assert sim.attrs["coverage"] >= 0.8
    iv = post.interval("average_precision", ci_kind="eti")
    assert iv.attrs["ci_prob"] == 0.95 and iv.values[0] < iv.values[1]
    par = post.precision_at_recall([0.2, 0.5])
    assert par.dims == ("chain", "draw", "recall") and np.all((par >= 0) & (par <= 1))
    pt = post.precision_at_threshold([1.0, 3.0])
    rt = post.recall_at_threshold([1.0, 3.0])
    assert np.all(pt.values[..., 1] >= 0) and np.all(rt.values[..., 0] >= rt.values[..., 1])
    cal = post.calibration([0.0, 3.0])
    assert np.all(cal.values[..., 1] >= cal.values[..., 0])  # monotone calibration
    summ = post.summary()
    assert "average_precision" in summ.index
    # resampled importance draws: the ESS reported is the weighted one, capped at the
    # distinct draws (not ArviZ's ESS of the duplicated draws)
    imp = post.importance
    distinct = np.unique(post.idata["posterior"]["alpha"].values).size
    assert imp["n_distinct"] == distinct and imp["ess_draws"] == min(imp["ess"], distinct)
    assert np.all(summ["ess_bulk"] <= imp["ess_draws"])
    assert set(post.idata["posterior"].data_vars) >= {
        "alpha",
        "log_slopes",
        "f_knots",
        "floor",
        "average_precision",
        "roc_auc",
    }


def test_prior_predictive_is_weakly_informative():
    # prior draws of the pool's prevalence spread from rare to common positives
    y, s = _pool(n=20_000)
    sel = select_labels(s, 300, random_seed=2)
    data = PoolData(
        pool_normal_scores(s),
        sel.indices,
        y[sel.indices].astype(bool),
        6,
        prevalence=0.02,
        floor_share=0.05,
    )
    alpha, log_slopes, floor = sample_prior(data, PoolPriors(), 2000, np.random.default_rng(0))
    u = pool_normal_scores(s)[::20]
    prev = rate(data.f(alpha, log_slopes, u), floor).mean(axis=1)
    lo, hi = np.quantile(prev, [0.05, 0.95])
    assert lo < 0.01 and hi > 0.4
    # the floor's prior median is floor_share x prevalence
    assert np.median(floor) == pytest.approx(0.05 * 0.02, rel=0.1)


@pytest.mark.parametrize("floor_share", [0.0, 0.05])
def test_gradient_and_hessian_match_finite_differences(floor_share):
    # reference: central differences of pool_log_posterior (step 1e-5; tolerance 1e-4
    # relative to the largest entry: the differences' own error is ~1e-8)
    y, s = _pool(n=5000, prevalence=0.05)
    sel = select_labels(s, 200, random_seed=3)
    data = PoolData(
        pool_normal_scores(s),
        sel.indices,
        y[sel.indices].astype(bool),
        4,
        prevalence=0.05,
        floor_share=floor_share,
    )
    pri = PoolPriors()
    k = data.knots.size + 1
    theta = np.concatenate([[-2.5], np.linspace(-0.5, 0.4, k)])
    if floor_share:
        theta = np.append(theta, -6.0)
    grad, hess = _grad_hess(theta, data, pri)
    step = 1e-5
    eye = np.eye(theta.size) * step
    num_g = np.array(
        [
            (
                pool_log_posterior(theta + e, data, pri)[0]
                - pool_log_posterior(theta - e, data, pri)[0]
            )
            / (2 * step)
            for e in eye
        ]
    )
    num_h = np.array(
        [
            (_grad_hess(theta + e, data, pri)[0] - _grad_hess(theta - e, data, pri)[0]) / (2 * step)
            for e in eye
        ]
    )
    assert np.max(np.abs(grad - num_g)) < 1e-4 * max(1.0, np.abs(grad).max())
    assert np.max(np.abs(hess - num_h)) < 1e-4 * np.abs(hess).max()


def test_floor_is_optional_and_bounds_the_calibration():
    # floor_share=0 is the strictly monotone model: no floor, and the calibration of the
    # lowest score tends to 0; with the floor every rate is at least the draw's floor
    y, s = _pool(n=20_000)
    sel = select_labels(s, 300, random_seed=2)
    kw = {"draws": 200, "chains": 2, "random_seed": 5}
    none = fit_pool(s, sel, y[sel.indices], priors={"floor_share": 0.0}, **kw)
    assert np.all(none.idata["posterior"]["floor"].values == 0)
    post = fit_pool(s, sel, y[sel.indices], **kw)
    floor = post.idata["posterior"]["floor"].values
    assert np.all(floor > 0)
    cal = post.calibration([s.min(), np.median(s)]).values
    assert np.all(cal >= floor[..., None] - 1e-15)
    with pytest.raises(ValueError, match="floor_share"):
        PoolPriors(floor_share=1.0)


def test_fast_sampler_matches_nuts():
    # reference: PyMC's NUTS on the same model. Tolerance: 4 Monte Carlo standard errors
    # of the difference of posterior means (ESS ~ 1000 each) and 0.05 on the 5%/95%
    # quantiles of AP (in units of the posterior sd of AP: 0.25 sd)
    pytest.importorskip("pymc")
    y, s = _pool(n=20_000, prevalence=0.02)
    sel = select_labels(s, 300, random_seed=7)
    lab = y[sel.indices]
    fast = fit_pool(s, sel, lab, draws=1000, chains=4, random_seed=1)
    nuts = fit_pool(s, sel, lab, method="nuts", draws=500, chains=2, tune=500, random_seed=1)
    for name in ("average_precision", "f_knots", "floor"):
        a = fast.idata["posterior"][name].values.reshape(4000, -1)
        b = nuts.idata["posterior"][name].values.reshape(1000, -1)
        se = np.sqrt(a.var(axis=0) / 800 + b.var(axis=0) / 500)
        assert np.all(np.abs(a.mean(axis=0) - b.mean(axis=0)) < 4 * se), name
    a = fast.average_precision().values.ravel()
    b = nuts.average_precision().values.ravel()
    qa, qb = np.quantile(a, [0.05, 0.95]), np.quantile(b, [0.05, 0.95])
    assert np.all(np.abs(qa - qb) < 0.25 * b.std())
