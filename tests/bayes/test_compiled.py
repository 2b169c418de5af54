"""The compiled-model cache of the NUTS fits (:mod:`bayes_prc.bayes._compiled`).

A fit through the cache must be the fit of its own data: a warm fit (model compiled by an
earlier fit of other data) repeats the cold fit's draws exactly for the same seed, and its
posterior follows the new data. References: the closed-form conjugate posterior (BDA3
3.3) for the parametric model, a fit through an empty cache for the rank-based model, and
scipy's densities for the pointwise log-likelihood. Tolerances are Monte Carlo errors:
5 standard errors, ``sd / sqrt(ESS)`` with ArviZ's bulk ESS.

Each test runs with PyMC's NUTS and, when nutpie is installed, with nutpie's.
"""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pymc as pm
import pytest
from scipy import stats

import bayes_prc as bp
from bayes_prc.bayes import SamplerOptions, _compiled
from bayes_prc.bayes._common import convergence_diagnostics
from bayes_prc.bayes._ordinal import ordinal_categories
from bayes_prc.bayes._priors import BinormalPriors, sufficient_statistics
from bayes_prc.bayes._score_models import fit_score_model
from bayes_prc.exceptions import ConvergenceWarning

SAMPLERS = ["pymc"] + (["nutpie"] if importlib.util.find_spec("nutpie") else [])
NUTS = dict(method="nuts", draws=300, tune=300, chains=2, cores=1, progressbar=False)


@pytest.fixture(params=SAMPLERS)
def sampler(request, monkeypatch):
    monkeypatch.setattr(_compiled, "SAMPLER", request.param)
    _compiled.clear_cache()
    yield request.param
    _compiled.clear_cache()


def _fit(y, s, seed, **kw):
    with warnings.catch_warnings():  # short chains; convergence is not the subject here
        warnings.simplefilter("ignore", ConvergenceWarning)
        return bp.fit_binormal(y, s, random_seed=seed, **{**NUTS, **kw})


def _draws(post, names):
    return {n: post.idata["posterior"][n].values for n in names}


def _mc_tol(idata, name, index):
    """Five Monte Carlo standard errors of the posterior mean of ``name[..., index]``."""
    x = idata["posterior"][name].values[..., index]
    ess = convergence_diagnostics(idata, [name])["min_ess_bulk"]
    return 5 * x.std() / np.sqrt(ess)


def test_warm_fit_repeats_the_cold_fit_and_follows_new_data(sampler, rng):
    seed = int(rng.integers(2**31))
    ya, sa = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.3).sample(400, random_seed=rng)
    yb, sb = bp.Binormal(3.0, 0.5, 0.0, 1.0, 0.3).sample(600, random_seed=rng)
    names = ["prevalence", "mu", "sigma2", "sigma"]

    cold = _fit(ya, sa, seed, model="parametric")
    assert _compiled.cache_info()["models"] == 1
    other = _fit(yb, sb, seed, model="parametric")
    assert _compiled.cache_info()["models"] == 1  # same structure: compiled once
    warm = _fit(ya, sa, seed, model="parametric")
    for name, value in _draws(cold, names).items():
        np.testing.assert_array_equal(_draws(warm, [name])[name], value, err_msg=name)

    # the second data set's posterior mean of mu_c (standardized) is its own conjugate
    # posterior mean m_n = (kappa0 m0 + n xbar) / (kappa0 + n), not the first data's
    priors = BinormalPriors()
    for post, (y, s) in ((other, (yb, sb)), (warm, (ya, sa))):
        z = (s - post.location) / post.scale
        for c, st in enumerate(sufficient_statistics(z, y == 1)):
            m_n = (priors.mu_kappa * priors.mu_loc + st.n * st.mean) / (priors.mu_kappa + st.n)
            got = float(post.idata["posterior"]["mu"].values[..., c].mean())
            assert abs(got - m_n) < _mc_tol(post.idata, "mu", c), (c, got, m_n)
    mu_a = cold.idata["posterior"]["mu"].values[..., 1].mean()
    mu_b = other.idata["posterior"]["mu"].values[..., 1].mean()
    assert abs(mu_b - mu_a) > 20 * _mc_tol(other.idata, "mu", 1)  # the check can fail


def test_rank_model_warm_fit_equals_a_fit_through_an_empty_cache(sampler, rng):
    seed = int(rng.integers(2**31))
    ya, sa = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.3).sample(300, random_seed=rng)
    k = ordinal_categories(ya == 1, sa, 8).n_categories
    while True:  # other data with as many categories: the same compiled structure
        yb, sb = bp.Binormal(2.0, 2.0, 0.0, 1.0, 0.4).sample(500, random_seed=rng)
        if ordinal_categories(yb == 1, sb, 8).n_categories == k:
            break
    kw = dict(model="semiparametric", n_categories=8)
    names = ["prevalence", "mu", "sigma", "cutpoints"]

    cold_a = _draws(_fit(ya, sa, seed, **kw), names)
    warm_b = _fit(yb, sb, seed, **kw)
    assert _compiled.cache_info()["models"] == 1
    warm_a = _draws(_fit(ya, sa, seed, **kw), names)
    _compiled.clear_cache()
    cold_b = _draws(_fit(yb, sb, seed, **kw), names)
    for name in names:
        np.testing.assert_array_equal(warm_a[name], cold_a[name], err_msg=name)
        np.testing.assert_array_equal(_draws(warm_b, [name])[name], cold_b[name], err_msg=name)
    assert not np.array_equal(cold_a["mu"], cold_b["mu"])


def test_score_model_new_n_reuses_the_model_and_keeps_no_data(sampler, rng):
    """One compiled model for every n; the pointwise log-likelihood is scipy's density."""
    for n in (150, 250):
        y, s = bp.Binormal(1.5, 1.0, 0.0, 1.0, 0.4).sample(n, random_seed=rng)
        is_pos = y == 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = fit_score_model(
                "binormal",
                is_pos,
                s,
                sampler=SamplerOptions(draws=300, chains=2, tune=300, cores=1, progressbar=False),
                random_seed=[int(v) for v in rng.integers(2**31, size=2)],
                ci_prob=0.94,
            )
        assert _compiled.cache_info()["keys"] == [("score model", "binormal")]
        post = fit.idata["posterior"]
        z = (s - fit.location) / fit.scale
        for c, mask in enumerate((~is_pos, is_pos)):  # flat-ish prior: mean ~ class mean
            got = float(post["mu"].values[..., c].mean())
            assert abs(got - z[mask].mean()) < _mc_tol(fit.idata, "mu", c) + 0.01
        ll = fit.idata["log_likelihood"]["score"]
        assert ll.shape == (2, 300, n)
        idx = is_pos.astype(int)
        for c, d in ((0, 0), (1, 299)):
            mu, sigma = post["mu"].values[c, d], post["sigma"].values[c, d]
            ref = stats.norm.logpdf(z, mu[idx], sigma[idx]) - np.log(fit.scale)
            np.testing.assert_allclose(ll.values[c, d], ref, rtol=1e-10, atol=1e-10)
        model = _compiled._MODELS[("score model", "binormal")].model
        assert all(v.get_value().size <= 1 for v in model.data_vars)  # emptied after use


def test_cache_keeps_at_most_max_models(monkeypatch):
    monkeypatch.setattr(_compiled, "MAX_MODELS", 3)
    _compiled.clear_cache()

    def build():
        with pm.Model() as model:
            pm.Normal("x")
        return model

    first = _compiled.frozen_model(("tiny", 0), build)
    for i in range(1, 5):
        _compiled.frozen_model(("tiny", i), build)
        _compiled.frozen_model(("tiny", 0), build)  # recently used: kept
    assert _compiled.cache_info()["keys"] == [("tiny", 3), ("tiny", 4), ("tiny", 0)]
    assert _compiled.frozen_model(("tiny", 0), build) is first
    _compiled.clear_cache()
    assert _compiled.cache_info()["models"] == 0


def test_sampler_setting(monkeypatch):
    monkeypatch.setattr(_compiled, "SAMPLER", "stan")
    with pytest.raises(ValueError, match="`SAMPLER`.*'stan'"):
        _compiled.sampler_name()
    monkeypatch.setattr(_compiled, "SAMPLER", "auto")
    assert _compiled.sampler_name() == SAMPLERS[-1]


@pytest.mark.skipif("nutpie" not in SAMPLERS, reason="nutpie is not installed")
def test_nutpie_and_pymc_give_the_same_layout_and_posterior(monkeypatch, rng):
    seed = int(rng.integers(2**31))
    y, s = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.3).sample(400, random_seed=rng)
    fits = {}
    for name in ("pymc", "nutpie"):
        monkeypatch.setattr(_compiled, "SAMPLER", name)
        fits[name] = _fit(y, s, seed, model="parametric")
    a, b = (fits[k].idata for k in ("pymc", "nutpie"))
    for group in ("posterior", "observed_data"):
        ga, gb = a[group].to_dataset(), b[group].to_dataset()
        assert set(ga.data_vars) == set(gb.data_vars), group
        for v in ga.data_vars:
            assert ga[v].dims == gb[v].dims and ga[v].shape == gb[v].shape, (group, v)
    stat_names = {"diverging", "tree_depth", "acceptance_rate", "lp", "step_size", "energy"}
    assert stat_names <= set(b["sample_stats"].data_vars) & set(a["sample_stats"].data_vars)
    for c in (0, 1):  # two valid samplers of one posterior: equal means within MC error
        ma = a["posterior"]["mu"].values[..., c].mean()
        mb = b["posterior"]["mu"].values[..., c].mean()
        assert abs(ma - mb) < np.hypot(_mc_tol(a, "mu", c), _mc_tol(b, "mu", c))


def test_sampler_options_travel_as_one_object(monkeypatch, rng):
    """A public fit's NUTS settings reach the sampler as one SamplerOptions, unchanged."""
    seen = []

    def fake_sample(key, build, data, *, seeds, sampler, coords=None, log_likelihood=None):
        seen.append((len(seeds), sampler))
        raise RuntimeError("stop here")

    monkeypatch.setattr(_compiled, "sample", fake_sample)
    y, s = bp.Binormal(1.5, 1.0, 0.0, 1.0, 0.4).sample(80, random_seed=rng)
    kw = dict(draws=123, chains=3, tune=45, cores=1, target_accept=0.85, progressbar=False)
    for model in ("semiparametric", "parametric"):
        with pytest.raises(RuntimeError, match="stop here"):
            bp.fit_binormal(y, s, model=model, method="nuts", random_seed=1, **kw)
    with pytest.raises(RuntimeError, match="stop here"):
        bp.compare_classifiers(
            y, s, s + rng.normal(size=s.size), method="bayes", bayes_method="nuts", **kw
        )
    assert len(seen) == 3
    for n_seeds, sampler in seen:
        assert sampler == SamplerOptions(**kw)
        assert n_seeds == 3  # one seed per chain
