"""Prevalence shift against the analytic model; one-vs-rest fits against sklearn's averages."""

import numpy as np
import pytest
from sklearn import metrics as skm

import bayes_prc as bp


def test_reweighted_ap_matches_analytic_model_at_new_prevalence(rng):
    """Large sample at prevalence 0.3 re-weighted to 0.05 vs the analytic AP at 0.05.

    n = 400000: the AP standard error at the target is ~0.003 (effective positives are
    the 120000 positives); 0.012 is 4 standard errors.
    """
    model = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.3)
    y, s = model.sample(400_000, random_seed=rng)
    w = bp.prevalence_weights(y, 0.05)
    assert bp.chance_baseline(y, sample_weight=w) == pytest.approx(0.05, abs=1e-12)
    target = float(bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.05).average_precision())
    assert abs(bp.average_precision_score(y, s, sample_weight=w) - target) < 0.012
    # recall is unchanged by re-weighting
    _, r_w, _ = bp.precision_recall_curve(y[:2000], s[:2000], sample_weight=w[:2000])
    _, r, _ = bp.precision_recall_curve(y[:2000], s[:2000])
    np.testing.assert_allclose(r_w, r, atol=1e-12)


def test_posterior_at_deployment_prevalence_matches_analytic(rng):
    y, s = bp.Binormal(1.0, 1.0, 0.0, 1.0, 0.3).sample(500, random_seed=rng)
    post = bp.fit_binormal(y, s, model="parametric", method="exact", draws=200, random_seed=2)
    m = post.model
    ref = bp.Binormal(m.mu_pos, m.sigma_pos, m.mu_neg, m.sigma_neg, 0.05)
    np.testing.assert_allclose(
        post.average_precision(prevalence=0.05).values, ref.average_precision(), atol=1e-12
    )
    np.testing.assert_allclose(
        post.precision_at_recall([0.5], prevalence=0.05).values[..., 0],
        ref.precision_at_recall(0.5),
        atol=1e-12,
    )
    prev = bp.deployment_prevalence(post, 5, 95, random_seed=3)
    assert prev.dims == ("chain", "draw")
    ap = post.average_precision(prevalence=prev)
    ref2 = bp.Binormal(m.mu_pos, m.sigma_pos, m.mu_neg, m.sigma_neg, prev.values)
    np.testing.assert_allclose(ap.values, ref2.average_precision(), atol=1e-12)


def test_prevalence_errors():
    with pytest.raises(ValueError, match=r"`prevalence` must be a number in \(0, 1\); got 1.5"):
        bp.prevalence_weights([0, 1], 1.5)
    with pytest.raises(ValueError, match=r"both classes"):
        bp.prevalence_weights([1, 1], 0.5)


@pytest.fixture(scope="module")
def multiclass_data():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 600)
    scores = rng.normal(size=(600, 3)) + np.array([1.0, 1.5, 2.0]) * np.eye(3)[y]
    return y, scores


def test_ovr_posterior_per_class_and_averages(multiclass_data):
    y, scores = multiclass_data
    ovr = bp.fit_binormal_ovr(y, scores, random_seed=1, draws=500)
    per = ovr.average_precision()
    assert per.dims == ("chain", "draw", "class") and list(per["class"].values) == [0, 1, 2]
    # each class's posterior is the binary fit of that column (same seed stream, same draws)
    for j in range(3):
        single = ovr.posteriors[j].average_precision()
        np.testing.assert_array_equal(per.isel({"class": j}).values, single.values)
    macro = ovr.average_precision("macro")
    np.testing.assert_allclose(macro.values, per.mean("class").values)
    # posterior means near the empirical per-class APs (n=600: posterior sd ~0.03)
    emp = skm.average_precision_score(y, scores, average=None)
    np.testing.assert_allclose(per.mean(("chain", "draw")).values, emp, atol=0.1)
    weighted = ovr.average_precision("weighted")
    assert weighted.dims == ("chain", "draw")
    assert float(weighted.min()) >= float(per.min()) and float(weighted.max()) <= 1


def test_ovr_multilabel_and_errors():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, (200, 2))
    s = rng.normal(size=(200, 2)) + y
    ovr = bp.fit_binormal_ovr(y, s, random_seed=0, draws=100)
    assert list(ovr.classes) == [0, 1]
    with pytest.raises(ValueError, match=r"multiclass or multilabel"):
        bp.fit_binormal_ovr([0, 1, 0], [[0.1, 0.2]] * 3)
    with pytest.raises(ValueError, match=r"`y_score` must have shape"):
        bp.fit_binormal_ovr([0, 1, 2, 2], rng.normal(size=(4, 2)))
    with pytest.raises(ValueError, match=r"`average` must be None"):
        ovr.average_precision("micro")


def test_per_class_ap_plot_draws_the_posterior(multiclass_data):
    import matplotlib

    matplotlib.use("Agg")
    y, scores = multiclass_data
    ovr = bp.fit_binormal_ovr(y, scores, random_seed=1, draws=300)
    disp = bp.PerClassAPDisplay.from_posterior(ovr, y, scores, ci_prob=0.9)
    per = ovr.average_precision().values.reshape(-1, 3)
    lo, hi = np.quantile(per, [0.05, 0.95], axis=0)
    segs = disp.interval_lines_.get_segments()
    # rows are drawn top to bottom in class order: segment j is class j
    for j in range(3):
        np.testing.assert_allclose(segs[j][:, 0], [lo[j], hi[j]])
    np.testing.assert_allclose(
        disp.empirical_markers_.get_xdata(), skm.average_precision_score(y, scores, average=None)
    )
    assert len(disp.violins_["bodies"]) == 3
    assert [t.get_text() for t in disp.ax_.get_yticklabels()] == ["0", "1", "2"]
