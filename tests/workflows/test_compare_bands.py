"""compare_bands: each row equals its method called directly, and the pick is by situation."""

import numpy as np
import pytest
from scipy import stats

import bayes_prc as bp
from bayes_prc.bayes import FitCheck
from bayes_prc.compare import (
    BAND_METHODS,
    DEFAULT_BAND_METHODS,
    MIN_BOOTSTRAP_BAND_POSITIVES,
    recommend_band,
)


@pytest.fixture(scope="module")
def data():
    return bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)


@pytest.fixture(scope="module")
def post(data):
    return bp.fit_binormal(*data, random_seed=0)


@pytest.fixture(scope="module")
def bands(data, post):
    return bp.compare_bands(*data, ci_prob=0.9, random_seed=3, n_resamples=200, posterior=post)


def test_rows_equal_the_methods_called_directly(data, post, bands):
    y, s = data
    grid = bands["recall"].values
    np.testing.assert_allclose(grid, np.linspace(0.01, 0.99, 99))
    assert list(bands["band"].values) == list(DEFAULT_BAND_METHODS)
    for kind in ("pointwise", "simultaneous"):
        direct = post.pr_band(recall=grid, ci_prob=0.9, kind=kind, averaged=False)
        row = bands.sel(band=f"semiparametric_{kind}")
        for v in ("lower", "median", "upper"):
            np.testing.assert_array_equal(row[v].values, direct[v].values)
        # the given default fit lends its companions: the averaged rows are its own
        # default band (what pr_band() and PRCurveDisplay.from_posterior draw)
        default = post.pr_band(recall=grid, ci_prob=0.9, kind=kind)
        row = bands.sel(band=f"averaged_{kind}")
        for v in ("lower", "median", "upper"):
            np.testing.assert_array_equal(row[v].values, default[v].values)
    seeds = np.random.default_rng(3).spawn(len(DEFAULT_BAND_METHODS) + 3)
    for i, method in enumerate(DEFAULT_BAND_METHODS):
        if not method.startswith("bootstrap"):
            continue
        direct = bp.bootstrap_pr_band(
            y,
            s,
            grid_points=grid,
            n_resamples=200,
            confidence_level=0.9,
            random_seed=seeds[i],
            kind=method.split("_", 1)[1],
        )
        np.testing.assert_array_equal(bands.sel(band=method)["upper"].values, direct["upper"])


def test_structure_and_order(bands):
    assert set(bands.data_vars) == {"lower", "median", "upper"}
    assert bands["lower"].dims == ("band", "recall")
    assert (bands["lower"] <= bands["median"] + 1e-12).all()
    assert (bands["median"] <= bands["upper"] + 1e-12).all()
    assert list(bands["kind"].values) == ["pointwise", "simultaneous"] * 4
    assert bands.attrs["ci_prob"] == 0.9
    assert bands.attrs["recommended"] == "averaged_simultaneous"
    assert set(bands.attrs["fit_checks"]) == {"semiparametric", "contaminated", "flexible"}
    # the simultaneous band is never narrower than the pointwise one of the same source
    sources = ("averaged", "semiparametric", "contaminated")
    for src, simul in [(s, "simultaneous") for s in sources] + [("bootstrap", "simultaneous_t")]:
        w_p = (bands["upper"] - bands["lower"]).sel(band=f"{src}_pointwise")
        w_s = (bands["upper"] - bands["lower"]).sel(band=f"{src}_{simul}")
        assert (w_s >= w_p - 1e-12).all()


def test_recommendation_does_not_depend_on_the_seed(data):
    picks = {
        bp.compare_bands(*data, random_seed=seed, n_resamples=100).attrs["recommended"]
        for seed in (0, 1)
    }
    assert len(picks) == 1


def test_recommend_band_by_situation():
    def check(grade, model="semiparametric"):
        return FitCheck(0.5, grade != "fail", 0.05, 1.0, 1.0, 8, model, "", grade)

    rows = list(BAND_METHODS)
    for grade in ("pass", "inconclusive"):
        assert recommend_band(rows, {"semiparametric": check(grade)}, 30)[0] == (
            "averaged_simultaneous"
        )
    # without the averaged row: the first single model whose check passes
    single = [r for r in rows if not r.startswith("averaged")]
    checks = {"semiparametric": check("pass"), "contaminated": check("pass", "contaminated")}
    assert recommend_band(single, checks, 30)[0] == "contaminated_simultaneous"
    checks["contaminated"] = check("fail", "contaminated")
    assert recommend_band(single, checks, 30)[0] == "semiparametric_simultaneous"
    # one pooled model passing is enough for the averaged band
    fails = {m: check("fail", m) for m in ("semiparametric", "contaminated", "flexible")}
    rec, why = recommend_band(rows, fails, 30)
    assert rec == "bootstrap_simultaneous_t" and "fails" in why
    fails["flexible"] = check("pass", "flexible")
    assert recommend_band(rows, fails, 30)[0] == "averaged_simultaneous"
    # separated classes: the averaged band (it reaches precision 1 along the whole curve);
    # the bootstrap's collapses there, so it is never the pick
    rec, why = recommend_band(rows, {"semiparametric": check("pass")}, 30, separated=True)
    assert rec == "averaged_simultaneous" and "every positive" in why
    no_avg = [r for r in rows if not r.startswith("averaged")]
    fails["flexible"] = check("fail", "flexible")
    rec, why = recommend_band(no_avg, fails, 30, separated=True)
    assert rec is None and "every positive" in why
    # too few positives for any band, or for the bootstrap's when the models fail
    rec, why = recommend_band(rows, {"semiparametric": check("pass")}, 1)
    assert rec is None and "1 positive" in why
    rec, why = recommend_band(rows, fails, MIN_BOOTSTRAP_BAND_POSITIVES - 1)
    assert rec is None and "fails its fit check" in why
    assert recommend_band(rows, fails, MIN_BOOTSTRAP_BAND_POSITIVES)[0] == (
        "bootstrap_simultaneous_t"
    )


def test_averaged_band_pools_the_three_posteriors(data, post, bands):
    """The averaged rows equal the band of the three fits' pooled curves, computed here by
    hand (quantiles of the concatenated draws); each model's own fit gives its row."""
    y, s = data
    grid = bands["recall"].values
    # the fixture's default fit and its companions are re-used; each is a fit of its model
    fits = list(post.averaged_posteriors().values())
    assert [f.model_type for f in fits] == ["semiparametric", "contaminated", "flexible"]
    curves = np.concatenate(
        [f.model.precision_at_recall(grid).reshape(-1, grid.size) for f in fits]
    )
    lo, hi = np.quantile(curves, [0.05, 0.95], axis=0)
    # up to the Clopper-Pearson upper bound (scipy's beta quantile) of the recall of the
    # positives above every negative, precision 1 is not ruled out: the upper bound is 1
    k = int((s[y == 1] > s[y == 0].max()).sum())
    n_pos = int(y.sum())
    reach = 1.0 if k == n_pos else stats.beta.ppf(0.95, k + 1, n_pos - k)
    hi[grid <= reach] = 1.0
    row = bands.sel(band="averaged_pointwise")
    np.testing.assert_allclose(row["lower"].values, lo, atol=1e-12)
    np.testing.assert_allclose(row["upper"].values, hi, atol=1e-12)
    cont = fits[1].pr_band(recall=grid, ci_prob=0.9, kind="simultaneous")
    np.testing.assert_array_equal(
        bands.sel(band="contaminated_simultaneous")["upper"].values, cont["upper"].values
    )
    # the pooled simultaneous band holds at least 90% of the pooled curves
    sim = bands.sel(band="averaged_simultaneous")
    inside = (curves >= sim["lower"].values - 1e-12) & (curves <= sim["upper"].values + 1e-12)
    assert inside.all(axis=1).mean() >= 0.9


def test_separated_data_get_a_band_reaching_precision_one():
    """Every positive above every negative: the recommended (averaged) band's upper bound
    is 1 at every recall (the data cannot rule it out)."""
    y = np.r_[np.ones(20, int), np.zeros(80, int)]
    s = np.r_[np.linspace(5, 6, 20), np.linspace(0, 1, 80)]
    bands = bp.compare_bands(y, s, random_seed=0, n_resamples=100)
    assert bands.attrs["recommended"] == "averaged_simultaneous"
    best = bands.sel(band=bands.attrs["recommended"])
    assert np.all(best["upper"].values == 1.0)
    assert np.all(best["lower"].values < 1.0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"methods": ["semiparametric_eti"]}, "`methods`"),
        ({"recall": [0.5]}, "`recall`"),
        ({"recall": [0.5, 0.2]}, "`recall`"),
        ({"recall": [0.1, 1.5]}, "`recall`"),
        ({"ci_prob": 1.5}, "`ci_prob`"),
    ],
)
def test_bad_options_name_the_parameter(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        bp.compare_bands(*data, **kwargs)


def test_averaged_band_of_one_posterior_is_its_band(post):
    """Pooling one posterior gives its own band; bad input names the parameter."""
    from bayes_prc.bayes import averaged_pr_band

    grid = [0.2, 0.5, 0.8]
    for kind in ("pointwise", "simultaneous"):
        one = averaged_pr_band([post], recall=grid, ci_prob=0.9, kind=kind)
        own = post.pr_band(recall=grid, ci_prob=0.9, kind=kind, averaged=False)
        for v in ("lower", "median", "upper"):
            np.testing.assert_array_equal(one[v].values, own[v].values)
    with pytest.raises(ValueError, match="`posteriors`"):
        averaged_pr_band([])
    with pytest.raises(ValueError, match="`kind`"):
        averaged_pr_band([post], kind="sup-t")
    with pytest.raises(ValueError, match="`ci_prob`"):
        averaged_pr_band([post], ci_prob=95)


def test_constant_scores_draw_no_band_and_zero_width_bands_are_degenerate(rng):
    """A constant score ranks nothing: no band is recommended, and the bootstrap bands,
    zero-width at every recall there, are marked degenerate rather than drawn."""
    y = (rng.random(200) < 0.2).astype(int)
    y[:3] = 1
    bands = bp.compare_bands(y, np.full(200, 0.3), ci_prob=0.9, random_seed=rng, n_resamples=50)
    assert bands.attrs["recommended"] is None
    assert "every score is tied" in bands.attrs["recommendation"]
    flat = [
        m for m in bands["band"].values if (bands["upper"] - bands["lower"]).sel(band=m).max() <= 0
    ]
    assert flat and all("degenerate" in bands.attrs["notes"][m] for m in flat)
