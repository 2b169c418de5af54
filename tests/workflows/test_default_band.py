"""The band a user gets without choosing is the model-averaged one (issue 39, items 9, 10).

``fit_binormal(y, s).pr_band()`` and ``PRCurveDisplay.from_posterior(post, y, s)`` give the
band of the three rank-based posteriors pooled (as ``compare_bands``' recommended band),
with an upper bound of 1 where the data cannot rule out precision 1. The references
here are computed independently: pooled quantiles by ``np.quantile`` over the
concatenated curves, the reach of precision 1 by ``scipy.stats.beta.ppf`` and its
coverage by simulation. Coverage of the bands themselves is measured in
``benchmarks/coverage_default_band.py`` and ``benchmarks/coverage_few_positives.py``
(``docs/coverage.md``).
"""

import matplotlib
import numpy as np
import pytest
from scipy import stats

import bayes_prc as bp
from bayes_prc.bayes import positives_above_negatives, precision_one_reach
from bayes_prc.compare import MIN_BAND_POSITIVES

matplotlib.use("Agg")

GRID = np.linspace(0.05, 0.95, 19)


@pytest.fixture(scope="module")
def data():
    return bp.Binormal(1.2, 1.3, 0.0, 1.0, 0.25).sample(200, random_seed=11)


@pytest.fixture(scope="module")
def post(data):
    return bp.fit_binormal(*data, random_seed=4)


def _reach_by_hand(y, s, ci_prob):
    k = int((s[y == 1] > s[y == 0].max()).sum())
    n_pos = int(y.sum())
    return 1.0 if k == n_pos else float(stats.beta.ppf(1 - (1 - ci_prob) / 2, k + 1, n_pos - k))


def test_default_band_is_the_average_of_the_three_rank_models(data, post):
    y, s = data
    band = post.pr_band(recall=GRID, ci_prob=0.9)
    assert band.attrs["band"] == "averaged_pointwise"
    assert band.attrs["models"] == ["semiparametric", "contaminated", "flexible"]
    assert "averaged" in band.attrs["label"]
    fits = post.averaged_posteriors()
    assert list(fits) == ["semiparametric", "contaminated", "flexible"]
    assert fits["semiparametric"] is post
    assert [f.model_type for f in fits.values()] == list(fits)
    # by hand: 5% and 95% quantiles of the concatenated curves (every model 4000 draws)
    curves = np.concatenate(
        [f.model.precision_at_recall(GRID).reshape(-1, GRID.size) for f in fits.values()]
    )
    lo, med, hi = np.quantile(curves, [0.05, 0.5, 0.95], axis=0)
    hi[GRID <= _reach_by_hand(y, s, 0.9)] = 1.0
    np.testing.assert_allclose(band["lower"].values, lo, atol=1e-12)
    np.testing.assert_allclose(band["median"].values, med, atol=1e-12)
    np.testing.assert_allclose(band["upper"].values, hi, atol=1e-12)
    # the single model's band on request: its own quantiles
    own = post.pr_band(recall=GRID, ci_prob=0.9, averaged=False)
    assert own.attrs["band"] == "semiparametric_pointwise"
    mine = post.model.precision_at_recall(GRID).reshape(-1, GRID.size)
    np.testing.assert_allclose(own["lower"].values, np.quantile(mine, 0.05, axis=0), atol=1e-12)
    # the simultaneous band holds at least 90% of the pooled curves, and the pointwise band
    sim = post.pr_band(recall=GRID, ci_prob=0.9, kind="simultaneous")
    assert sim.attrs["band"] == "averaged_simultaneous"
    inside = (curves >= sim["lower"].values - 1e-12) & (curves <= sim["upper"].values + 1e-12)
    assert inside.all(axis=1).mean() >= 0.9
    assert np.all(sim["lower"].values <= band["lower"].values + 1e-12)


def test_default_band_is_reproducible_and_rank_invariant(data, post):
    """Same seed, same band; a strictly increasing transform of the scores leaves the
    draws, hence the companions' seed and the band, unchanged."""
    y, s = data
    band = post.pr_band(recall=GRID, ci_prob=0.9, kind="simultaneous")
    again = bp.fit_binormal(y, np.exp(3 * s), random_seed=4)
    other = again.pr_band(recall=GRID, ci_prob=0.9, kind="simultaneous")
    for v in ("lower", "median", "upper"):
        np.testing.assert_array_equal(band[v].values, other[v].values)


def test_explicit_models_keep_their_own_band(data):
    y, s = data
    cont = bp.fit_binormal(y, s, model="contaminated", random_seed=1, draws=200)
    assert cont.pr_band(recall=GRID).attrs["band"] == "contaminated_pointwise"
    assert cont.pr_band(recall=GRID, averaged=True).attrs["band"] == "averaged_pointwise"
    par = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=1, draws=200)
    assert par.pr_band(recall=GRID).attrs["band"] == "parametric_pointwise"
    with pytest.raises(ValueError, match=r"`averaged`=True .*model='parametric'"):
        par.pr_band(averaged=True)
    with pytest.raises(ValueError, match="`averaged`"):
        cont.pr_band(averaged="yes")


def test_display_draws_the_default_band(data, post):
    from bayes_prc.plotting import PRCurveDisplay

    y, s = data
    disp = PRCurveDisplay.from_posterior(post, y, s, recall=GRID, ci_prob=0.9)
    assert disp.posterior_band == "averaged"
    band = post.pr_band(recall=GRID, ci_prob=0.9)
    np.testing.assert_array_equal(disp.upper, band["upper"].values)


def test_precision_one_reach_matches_scipy_and_covers(rng):
    """The reach is the Clopper-Pearson upper bound (scipy's beta quantile); by simulation
    it is below a true run of precision 1 (to recall rho) in at most about 5% of data sets
    (90% band: one tail). 4000 data sets: MC se of a 5% rate 0.0035; bound 0.05 + 4 se."""
    assert precision_one_reach(3, 10, 0.9) == pytest.approx(stats.beta.ppf(0.95, 4, 7))
    assert precision_one_reach(10, 10, 0.9) == 1.0
    assert precision_one_reach(0, 10, 0.9) == pytest.approx(1 - 0.05 ** (1 / 10))
    rho, n_pos, n_neg, reps = 0.3, 12, 150, 4000
    # positives uniform on [0, 1]: the top rho of them (scores > 1 - rho) above every
    # negative, whose scores are uniform on [0, 1 - rho]: true precision 1 up to rho
    pos = rng.random((reps, n_pos))
    neg = rng.random((reps, n_neg)) * (1 - rho)
    missed = 0
    for p, q in zip(pos, neg, strict=True):
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        k = positives_above_negatives(y, np.r_[p, q])
        assert k == int((p > q.max()).sum())
        missed += precision_one_reach(k, n_pos, 0.9) < rho
    assert missed / reps <= 0.05 + 4 * 0.0035


def test_too_few_positives_draw_no_band(rng):
    """One positive: compare_bands recommends no band and says why; the display given
    that comparison draws no posterior band."""
    from bayes_prc.plotting import PRCurveDisplay

    y = np.zeros(120, int)
    y[rng.integers(120)] = 1
    s = rng.normal(size=120) + y
    bands = bp.compare_bands(y, s, methods=["bootstrap_simultaneous_t"], n_resamples=50)
    assert bands.attrs["recommended"] is None
    assert "No band" in bands.attrs["recommendation"]
    assert f"at least {MIN_BAND_POSITIVES} positives" in bands.attrs["recommendation"]
    y2, s2 = bp.Binormal(1, 1, 0, 1, 0.3).sample(100, random_seed=rng)
    post = bp.fit_binormal(y2, s2, model="parametric", method="exact", draws=100)
    bands.attrs["ci_prob"] = post.ci_prob
    disp = PRCurveDisplay.from_posterior(post, y2, s2, bands=bands)
    assert disp.band_ is None and disp.simultaneous_band_ is None
    assert disp.line_ is not None and disp.recommended_band is None
