"""Every fit check of the library returns the one `FitCheck` type (issue 41, item 3).

The binormal family (rank-based, parametric, flexible), the paired rank model's deviance
check, the subgroup model's predictive check and the pool's calibration check: each
result is a `bayes_prc.bayes.FitCheck` whose fields mean the same everywhere (grade vs
passed vs p-value, a reason exactly when inconclusive) and which renders in a notebook.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc.bayes import FitCheck
from bayes_prc.paired import JointFitCheck
from bayes_prc.subgroups import SubgroupFitCheck


@pytest.fixture(scope="module")
def checks(rng_for):
    rng = rng_for("fit_check_type")
    y, s = bp.Binormal(1.4, 1.1, 0.0, 1.0, 0.3).sample(300, random_seed=rng)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for model in ("semiparametric", "parametric", "flexible"):
            post = bp.fit_binormal(y, s, model=model, draws=300, random_seed=rng)
            out[model] = post.fit_check(random_seed=rng)
        b = s + rng.normal(size=s.size)
        out["paired_rank"] = bp.compare_classifiers(
            y, s, b, method="bayes", random_seed=rng
        ).fit_check
        # too few distinct scores for the paired check: inconclusive, not a fake pass
        coarse_a, coarse_b = np.round(s).clip(0, 1), np.round(b).clip(0, 1)
        out["paired_inconclusive"] = bp.compare_classifiers(
            y, coarse_a + 0.0, coarse_b + 0.0, method="bayes", random_seed=rng
        ).fit_check
        groups = np.array(["a", "b", "c"])[rng.integers(0, 3, size=y.size)]
        res = bp.compare_subgroups(
            y, s, groups, draws=200, tune=200, random_seed=rng, progressbar=False
        )
        out["subgroups"] = res.fit_check(random_seed=rng, n_draws=100)
        yp = rng.random(20_000) < 0.03
        sp = rng.normal(size=yp.size) + 2.0 * yp
        sel = bp.select_labels(sp, 300, random_seed=rng)
        prepared = bp.pool.prepare_selection(sp, sel, yp[sel.indices])
        post = bp.fit_pool(None, prepared, random_seed=rng)
        out["pool_calibration"] = bp.pool.calibration_check(post, prepared, random_seed=rng)
    return out


def test_every_check_is_one_type(checks):
    for name, check in checks.items():
        assert type(check) is FitCheck, name
    assert JointFitCheck is FitCheck and SubgroupFitCheck is FitCheck  # former names


def test_fields_mean_the_same_everywhere(checks):
    for name, c in checks.items():
        assert c.grade in ("pass", "inconclusive", "fail"), name
        assert c.passed == (c.grade != "fail"), name
        assert c.observed == c.statistic and c.level == c.significance_level, name
        assert c.method and c.verdict, name
        if c.grade == "inconclusive":
            assert math.isnan(c.p_value) and c.reason, name
        else:
            assert 0.0 <= c.p_value <= 1.0 and c.reason is None, name
            assert c.passed == (c.p_value >= c.significance_level), name
            assert np.isfinite(c.statistic), name
    assert checks["paired_inconclusive"].grade == "inconclusive"
    assert checks["paired_rank"].model == "paired_rank"
    assert checks["paired_rank"].df == checks["paired_rank"].replicated  # chi-square's mean
    assert checks["subgroups"].model == "subgroups"
    assert checks["pool_calibration"].model == "pool_calibration"


def test_subgroup_check_keeps_its_per_subgroup_p_values(checks):
    c = checks["subgroups"]
    assert list(c.p_values.index) == ["a", "b", "c"]
    assert ((c.p_values >= 0) & (c.p_values <= 1)).all()
    html = c._repr_html_()
    assert "FitCheck" in html and "<table" in html and html.count("<table") == 2


def test_every_check_renders(checks):
    for name, c in checks.items():
        html = c._repr_html_()
        assert "FitCheck" in html and c.grade in html, name
        assert repr(c).startswith("FitCheck(") and "p_values" not in repr(c), name
