"""PRCurveDisplay.from_posterior(bands=...): the recommended band is drawn and named."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import bayes_prc as bp  # noqa: E402
from bayes_prc.plotting import PRCurveDisplay  # noqa: E402


@pytest.fixture(scope="module")
def fitted():
    y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    post = bp.fit_binormal(y, s, random_seed=0)
    bands = bp.compare_bands(y, s, ci_prob=0.9, random_seed=0, n_resamples=100, posterior=post)
    return y, s, post, bands


def _legend(disp):
    return [t.get_text() for t in disp.ax_.get_legend().get_texts()]


def test_posterior_band_drawn_and_named(fitted):
    y, s, post, bands = fitted
    disp = PRCurveDisplay.from_posterior(post, y, s, bands=bands)
    assert disp.recommended_band == "averaged_simultaneous"
    row = bands.sel(band="averaged_simultaneous")
    np.testing.assert_array_equal(disp.simultaneous_lower, row["lower"].values)
    np.testing.assert_array_equal(disp.recall, bands["recall"].values)
    assert any("(recommended)" in t and "models averaged" in t for t in _legend(disp))
    assert disp.ci_prob == 0.9


def test_bootstrap_band_drawn_when_recommended():
    # a comparison of the bootstrap's bands only (overlapping classes, 20+ positives):
    # the studentized bootstrap band is the recommended one
    y, s = bp.Binormal(1, 1, 0, 1, 0.3).sample(200, random_seed=2)
    post = bp.fit_binormal(y, s, model="parametric", method="exact", random_seed=0, draws=200)
    bands = bp.compare_bands(
        y,
        s,
        random_seed=0,
        n_resamples=100,
        methods=["bootstrap_pointwise", "bootstrap_simultaneous_t"],
    )
    disp = PRCurveDisplay.from_posterior(post, y, s, bands=bands)
    assert disp.recommended_band == "bootstrap_simultaneous_t"
    assert disp.simultaneous_lower is None and disp.bootstrap_band_ is not None
    assert any("sup-t (recommended)" in t for t in _legend(disp))
    boot = bp.bootstrap_pr_band(y, s, n_resamples=50, random_seed=0)
    with pytest.raises(ValueError, match="`bootstrap_band` cannot be given"):
        PRCurveDisplay.from_posterior(post, y, s, bands=bands, bootstrap_band=boot)


def test_bad_bands_name_the_parameter(fitted):
    y, s, post, bands = fitted
    with pytest.raises(ValueError, match="`ci_prob`"):
        PRCurveDisplay.from_posterior(post, y, s, bands=bands, ci_prob=0.5)
    with pytest.raises(ValueError, match="`bands` must be the result"):
        PRCurveDisplay.from_posterior(post, y, s, bands=post.pr_band())
