"""compare_bands: each row equals its method called directly, and the pick is by situation."""

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc.bayes import FitCheck
from bayes_prc.compare import BAND_METHODS, DEFAULT_BAND_METHODS, recommend_band


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
    assert list(bands["method"].values) == list(DEFAULT_BAND_METHODS)
    for kind in ("pointwise", "simultaneous"):
        direct = post.pr_band(recall=grid, ci_prob=0.9, kind=kind)
        row = bands.sel({"method": f"semiparametric_{kind}"})
        for v in ("lower", "median", "upper"):
            np.testing.assert_array_equal(row[v].values, direct[v].values)
    seeds = np.random.default_rng(3).spawn(len(DEFAULT_BAND_METHODS) + 2)
    for i, method in enumerate(DEFAULT_BAND_METHODS):
        if not method.startswith("bootstrap"):
            continue
        direct = bp.bootstrap_pr_band(
            y, s, grid_points=grid, n_resamples=200, confidence_level=0.9,
            random_seed=seeds[i], kind=method.split("_", 1)[1],
        )  # fmt: skip
        np.testing.assert_array_equal(
            bands.sel({"method": method})["upper"].values, direct["upper"]
        )


def test_structure_and_order(bands):
    assert set(bands.data_vars) == {"lower", "median", "upper"}
    assert bands["lower"].dims == ("method", "recall")
    assert (bands["lower"] <= bands["median"] + 1e-12).all()
    assert (bands["median"] <= bands["upper"] + 1e-12).all()
    assert list(bands["kind"].values) == ["pointwise", "simultaneous"] * 2
    assert bands.attrs["ci_prob"] == 0.9
    assert bands.attrs["recommended"] == "semiparametric_simultaneous"
    # the simultaneous band is never narrower than the pointwise one of the same source
    for src, simul in (("semiparametric", "simultaneous"), ("bootstrap", "simultaneous_t")):
        w_p = (bands["upper"] - bands["lower"]).sel({"method": f"{src}_pointwise"})
        w_s = (bands["upper"] - bands["lower"]).sel({"method": f"{src}_{simul}"})
        assert (w_s >= w_p - 1e-12).all()


def test_recommendation_does_not_depend_on_the_seed(data):
    picks = {
        bp.compare_bands(*data, random_seed=seed, n_resamples=100).attrs["recommended"]
        for seed in (0, 1)
    }
    assert len(picks) == 1


def test_recommend_band_by_situation():
    def check(grade):
        return FitCheck(0.5, grade != "fail", 0.05, 1.0, 1.0, 8, "semiparametric", "", grade)

    rows = list(BAND_METHODS)
    for grade in ("pass", "inconclusive"):
        assert recommend_band(rows, {"semiparametric": check(grade)}, 30)[0] == (
            "semiparametric_simultaneous"
        )
    rec, why = recommend_band(rows, {"semiparametric": check("fail")}, 30)
    assert rec == "bootstrap_simultaneous_t" and "fails" in why
    rec, why = recommend_band(rows, {"semiparametric": check("pass")}, 30, separated=True)
    assert rec == "bootstrap_simultaneous_t" and "every positive" in why


def test_separated_data_get_the_bootstrap_band():
    y = np.r_[np.ones(20, int), np.zeros(80, int)]
    s = np.r_[np.linspace(5, 6, 20), np.linspace(0, 1, 80)]
    bands = bp.compare_bands(y, s, random_seed=0, n_resamples=100)
    assert bands.attrs["recommended"] == "bootstrap_simultaneous_t"


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
