"""The label-efficient workflow through the public face, and a reduced coverage study.

The full study (2e5 items, prevalence 1%, budget 400, four populations) is
``benchmarks/coverage_pool.py``; its slow test below checks the issue's acceptance on one
population.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import bayes_prc as bp


def test_public_names():
    for name in (
        "select_labels",
        "fit_pool",
        "design_ap_interval",
        "design_threshold_interval",
        "LabelSelection",
        "PoolPosterior",
        "DesignInterval",
    ):
        assert getattr(bp, name) is getattr(bp.pool, name)


def test_errors_name_the_parameter():
    s = np.random.default_rng(0).normal(size=100)
    with pytest.raises(ValueError, match="`budget`.*got 101"):
        bp.select_labels(s, 101)
    sel = bp.select_labels(s, 10, random_seed=0)
    with pytest.raises(ValueError, match="`y_labels`.*one label per selected item"):
        bp.fit_pool(s, sel, (s > 1).astype(int))
    with pytest.raises(TypeError, match="`selection`"):
        bp.fit_pool(s, sel.indices, np.zeros(10, int))


def test_reduced_coverage_of_fit_pool():
    # 30 stratified selections of 300 labels from one pool of 50 000 items at 2%
    # prevalence; the 90% interval must cover the pool's AP at least 18 times (60%):
    # at the nominal 90% that fails with probability < 1e-6, at 70% true coverage with
    # probability ~0.08, so a badly broken fit is caught.
    rng = np.random.default_rng(11)
    n = 50_000
    y = (rng.random(n) < 0.02).astype(int)
    s = rng.gamma(np.where(y == 1, 4.0, 1.5), 1.0)
    target = bp.average_precision_score(y, s)
    hits, widths = 0, []
    for r in range(30):
        sel = bp.select_labels(s, 300, random_seed=r)
        post = bp.fit_pool(s, sel, y[sel.indices], draws=250, chains=2, random_seed=r)
        lo, hi = post.interval("average_precision", ci_kind="eti").values
        hits += lo <= target <= hi
        widths.append(hi - lo)
    assert hits >= 18
    assert np.mean(widths) < 0.3


def test_reduced_coverage_on_a_plateau_calibration():
    # hard negatives (12% of the negatives score like positives): the calibration rises
    # and then plateaus, the shape the first single-guess allocation missed (72% at 90%
    # on the full study). 30 selections of 300 from 50 000 items at 2%: at least 21
    # hits; at the nominal 90% that fails with probability ~1e-3. Measured 26, 29 and 26
    # on pools 0, 1, 2.
    from bayes_prc.populations import population

    y, s = population("hard_negatives", prevalence=0.02).sample(50_000, random_seed=0)
    target = bp.average_precision_score(y, s)
    hits = 0
    for r in range(30):
        sel = bp.select_labels(s, 300, random_seed=r)
        post = bp.fit_pool(s, sel, y[sel.indices], draws=250, chains=2, random_seed=r)
        lo, hi = post.interval("average_precision", ci_kind="eti").values
        hits += lo <= target <= hi
    assert hits >= 21


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["binormal", "gamma_skewed", "classifier_probabilities", "hard_negatives"]
)
def test_acceptance_on_a_pool(name):
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "coverage_pool.py"
    spec = importlib.util.spec_from_file_location("coverage_pool", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    methods = (
        "fit_pool strat",
        "fit_pool random",
        "ap_interval logit",
        "ap_interval bootstrap",
        "ap_interval bayesian_bootstrap",
    )
    _, res = mod.study(name, 100, methods=methods)
    cover, width = res["fit_pool strat"]
    best = min(w for m, (c, w) in res.items() if m != "fit_pool strat" and c >= 0.83)
    # the band 0.83-0.96, widened by 2 binomial standard errors (0.03 at R = 100)
    # so that a method meeting it is not failed by Monte Carlo noise
    assert 0.77 <= cover <= 0.99
    assert width <= 0.6 * best
