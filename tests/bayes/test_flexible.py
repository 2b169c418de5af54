"""The flexible (normal-mixture) rank-based ROC model: fast sampler, NUTS, analytic model."""

import warnings

import numpy as np
import pytest
from scipy import integrate

import bayes_prc as bp
from bayes_prc.bayes._flexible import FlexiblePriors, FlexibleROCModel
from bayes_prc.models import NormalMixtureScoreModel

#: the simulated population: 15% of the negatives score like the positives
TRUE_MODEL = NormalMixtureScoreModel([1.0], [2.0], [1.0], [0.85, 0.15], [0.0, 2.0], [1.0, 1.0], 0.2)


def hard_negatives(n, seed):
    return TRUE_MODEL.sample(n, random_seed=seed)


def _fit(y, s, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bp.ConvergenceWarning)
        return bp.fit_binormal(y, s, model="flexible", progressbar=False, **kw)


@pytest.fixture(scope="module")
def data300():
    return hard_negatives(300, 11)


@pytest.fixture(scope="module")
def fast300(data300):
    return _fit(*data300, draws=500, random_seed=3)


@pytest.fixture(scope="module")
def data1000():
    return hard_negatives(1000, 5)


def test_fast_sampler_matches_nuts(data300, fast300):
    # Tolerances: the posterior sd of the AP is ~0.055; NUTS with 2 x 500 draws (a few
    # hundred effective draws of the AP; fewer for the mixture parameters, which is why
    # its own diagnostics are not asserted) has a Monte-Carlo error of ~0.004 in the mean
    # and ~0.01-0.015 in the 5%/95% quantiles, the 2000 resampled fast draws somewhat less,
    # and the Laplace/importance-sampling (tempered SMC) approximation adds its own bias:
    # 0.015 (mean) and 0.03 (quantiles) are ~2-3 combined standard errors. Measured:
    # 0.002 and <= 0.006.
    nuts = _fit(*data300, method="nuts", draws=500, tune=500, chains=2, cores=1, random_seed=4)
    a = fast300.average_precision().values.ravel()
    b = nuts.average_precision().values.ravel()
    assert abs(a.mean() - b.mean()) < 0.015
    qa, qb = np.quantile(a, [0.05, 0.5, 0.95]), np.quantile(b, [0.05, 0.5, 0.95])
    np.testing.assert_allclose(qa, qb, atol=0.03)


def test_analytic_ap_matches_quadrature():
    model = FlexibleROCModel([0.2, 0.5, 0.3], [-0.5, 1.0, 2.5], [0.7, 1.2, 0.5], 0.15)
    exact, _ = integrate.quad(
        lambda r: float(model.precision_at_recall(r)), 0, 1, limit=200, epsabs=1e-11
    )
    assert abs(float(model.average_precision()) - exact) < 1e-6
    # ROC AUC closed form against quadrature of TPR over FPR
    auc, _ = integrate.quad(lambda f: float(model.tpr_at_fpr(f)), 0, 1, epsabs=1e-11)
    assert abs(float(model.roc_auc()) - auc) < 1e-6


def test_per_draw_thresholds_and_unsupported_methods(fast300):
    thr = np.array([-1.0, 0.0, 1.5])
    rec = fast300.recall_at_threshold(thr)
    prec = fast300.precision_at_threshold(thr)
    assert rec.dims == prec.dims == ("chain", "draw", "threshold")
    assert np.all(np.diff(rec.values, axis=-1) <= 1e-12)  # recall falls with the threshold
    assert np.all((prec.values >= 0) & (prec.values <= 1))
    t = fast300.threshold_at_recall([0.25, 0.5, 0.75])
    assert np.all(np.diff(t.values, axis=-1) <= 1e-9)
    band = fast300.pr_band(recall=[0.2, 0.5, 0.8])
    assert np.all(band["lower"] <= band["upper"])
    for name in ("recall_at_precision", "threshold_at_precision"):
        with pytest.raises(NotImplementedError, match="model='flexible'"):
            getattr(fast300, name)([0.5])
    with pytest.raises(NotImplementedError, match="model='flexible'"):
        fast300.max_fbeta()
    assert fast300.fit_check(random_seed=0).model == "flexible"
    assert {"weights", "means", "sds", "cutpoints"} <= set(fast300.idata["posterior"].data_vars)
    assert "weights[0]" in fast300.summary().index
    assert np.isfinite(fast300.importance["khat"])


def test_invariant_to_monotone_transforms(data300, fast300):
    y, s = data300
    ap = fast300.average_precision().values
    for t in (2 * s + 5, np.exp(s)):
        other = _fit(y, t, draws=500, random_seed=3).average_precision().values
        np.testing.assert_array_equal(ap, other)


def test_hard_negatives_ap(data1000):
    # The requested comparison "flexible closer to the true AP than the binormal" is not
    # robust for this population: the binormal ROC misfits its shape (its fit check fails
    # at large n) but its AP is within ~0.002 of the truth even at n = 20000, far below the
    # sampling error of n = 1000 (~0.03). So check calibration against the data instead.
    y, s = data1000
    true_ap = float(TRUE_MODEL.average_precision())
    ap = _fit(y, s, draws=500, random_seed=0).average_precision().values
    lo, hi = np.quantile(ap, [0.001, 0.999])
    assert lo < true_ap < hi
    assert abs(np.median(ap) - bp.average_precision_score(y, s)) < 0.03


@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([0, 0, 0, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5], r"`y_true` needs at least 2 positives"),
        ([0, 1, 0, 1, 1], [0.5] * 5, r"`y_score` has a single distinct value"),
    ],
)
def test_bad_input_names_parameter(y, s, match):
    with pytest.raises(ValueError, match=match):
        bp.fit_binormal(y, s, model="flexible")


def test_priors_validated():
    assert FlexiblePriors.from_any({"n_components": 2}).n_components == 2
    with pytest.raises(ValueError, match=r"`priors.weight_alpha` must be > 0"):
        FlexiblePriors(weight_alpha=0)
    with pytest.raises(ValueError, match=r"unknown key"):
        FlexiblePriors.from_any({"mu_sd": 1})
