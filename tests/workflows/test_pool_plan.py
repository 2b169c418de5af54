"""plan_labels: the planned width of the pool-AP interval against the width measured on
actual selections (an independent simulation: real selections of a real pool, labelled
with its real labels), and the assumed binormal pool against the mixture's prevalence."""

import numpy as np
import pandas as pd
import pytest
from scipy import special

import bayes_prc as bp
from bayes_prc._pool_plan import _assumed_logit, budget_for_width, plan_labels


def _pool(rng, n=20_000, prevalence=0.02, d=2.0):
    y = rng.random(n) < prevalence
    return y, rng.normal(size=n) + d * y


def test_structure_seed_and_pilot_accounting(rng):
    y, s = _pool(rng)
    sel = bp.select_labels(s, 100, random_seed=rng)
    pilot = (sel, y[sel.indices])
    seed = int(rng.integers(1000))
    a = plan_labels(s, [300, 100], pilot=pilot, n_replicates=2, draws=50, random_seed=seed)
    b = plan_labels(s, [100, 300], pilot=pilot, n_replicates=2, draws=50, random_seed=seed)
    pd.testing.assert_frame_equal(a, b)  # same seed, same plan; budgets sorted
    assert a.index.name == "budget" and list(a.index) == [100, 300]
    assert list(a["n_new"]) == [0, 200]  # the pilot's labels count
    for col in ("ap_width", "ap_width_sd", "ap_width_se", "ap_coverage",
                "precision_at_recall_width", "n_labelled_positives", "unreliable_fits"):  # fmt: skip
        assert col in a.columns
    assert a.attrs["n_pilot"] == 100 and a.attrs["ci_prob"] == 0.9
    assert ((a["ap_width"] > 0) & (a["ap_width"] < 1)).all()
    # at the pilot's own budget every replicate refits the same pilot labels
    assert a.loc[100, "n_labelled_positives"] == y[sel.indices].sum()


def test_bad_input_names_the_parameter(rng):
    y, s = _pool(rng, n=2000)
    sel = bp.select_labels(s, 100, random_seed=0)
    pilot = (sel, y[sel.indices])
    with pytest.raises(ValueError, match="`budgets`.*pilot"):
        plan_labels(s, [50], pilot=pilot)
    with pytest.raises(ValueError, match="`budgets`.*pool size 2000"):
        plan_labels(s, [2001])
    with pytest.raises(ValueError, match="`budgets`.*integer"):
        plan_labels(s, [100.5])
    with pytest.raises(ValueError, match="`pilot`"):
        plan_labels(s, [200], pilot=sel)
    with pytest.raises(ValueError, match="`y_labels`"):
        plan_labels(s, [200], pilot=(sel, y[:5]))
    with pytest.raises(ValueError, match="`y_score`"):
        plan_labels(s[:-1], [200], pilot=pilot)
    with pytest.raises(ValueError, match="`separation`"):
        plan_labels(s, [200], separation=-1.0)
    with pytest.raises(ValueError, match="`y_score`"):
        plan_labels(np.r_[s[:-1], np.nan], [200])


@pytest.mark.parametrize(("prevalence", "d"), [(0.01, 2.0), (0.2, 1.0)])
def test_assumed_pool_has_the_assumed_prevalence(rng, prevalence, d):
    # reference: for the binormal mixture E[P(y=1|x)] = prevalence exactly; the map of
    # pool ranks to mixture quantiles is numerical (grid + interpolation) and the ranks
    # are a midpoint rule over N items, so 2e-4 absolute is generous at N = 2e4
    s = rng.normal(size=20_000)
    p = special.expit(_assumed_logit(s, prevalence, d))
    assert abs(p.mean() - prevalence) < 2e-4
    assert np.all(np.diff(p[np.argsort(s)]) >= 0)  # monotone in the score


def test_widths_shrink_with_budget(rng):
    # no pilot: a width cannot fail to fall from 100 to 1600 labels unless the budget is
    # ignored (expected ratio about 1/4; 3 replicates leave it far below 0.8)
    y, s = _pool(rng)
    plan = plan_labels(s, [100, 1600], prevalence=0.02, n_replicates=3, draws=100,
                       random_seed=rng)  # fmt: skip
    assert plan["ap_width"].iloc[1] < 0.8 * plan["ap_width"].iloc[0]
    assert plan.attrs["model"].startswith("assumed binormal")


def _measured(y, s, budget, selections, rng, draws):
    widths = []
    for _ in range(selections):
        sel = bp.select_labels(s, budget, random_seed=rng)
        post = bp.fit_pool(s, sel, y[sel.indices], draws=draws, chains=1, random_seed=rng)
        lo, hi = np.quantile(post.average_precision().values, [0.05, 0.95])
        widths.append(hi - lo)
    return float(np.mean(widths))


def test_planned_width_matches_actual_selections_small_pool(rng):
    # reduced acceptance: pool 2e4 at 2%, pilot 150 stratified labels, budget 300.
    # Monte Carlo: the width varies by ~25% between selections, so the mean of 8 planned
    # and 10 measured widths each carry ~8-9% error (~12% for the ratio); the pilot's
    # posterior adds its own error. [0.6, 1.6] is about 3.5 sigma of that, and fails if
    # the plan ignored the budget (the pilot's width is ~1.4x) or the level.
    y, s = _pool(rng)
    sel = bp.select_labels(s, 150, random_seed=rng)
    plan = plan_labels(s, [300], pilot=(sel, y[sel.indices]), n_replicates=8, draws=250,
                       random_seed=rng)  # fmt: skip
    measured = _measured(y, s, 300, 10, rng, draws=250)
    assert 0.6 < plan["ap_width"].iloc[0] / measured < 1.6


@pytest.mark.slow
def test_planned_width_matches_actual_selections_acceptance(rng):
    # issue 16's setting: pool 2e5 at 1%, pilots of 200 stratified labels, budget 400,
    # measured: mean width over 30 fresh stratified selections of 400. The prediction
    # depends on the pilot (benchmarks/plan_labels_check.py: ratios 0.72-1.61 over six
    # pilots, mean 1.29; against each pilot's own next_batch extensions 0.86-1.10):
    # the mean ratio over 4 pilots (sd ~0.15) must lie in [0.75, 1.75].
    from bayes_prc.populations import population

    y, s = population("binormal", prevalence=0.01).sample(200_000, random_seed=rng)
    y = np.asarray(y, dtype=bool)
    measured = _measured(y, s, 400, 30, rng, draws=1000)
    ratios = []
    for _ in range(4):
        sel = bp.select_labels(s, 200, random_seed=rng)
        plan = plan_labels(s, [400], pilot=(sel, y[sel.indices]), random_seed=rng)
        ratios.append(plan["ap_width"].iloc[0] / measured)
    assert 0.75 < np.mean(ratios) < 1.75


def test_budget_for_width_interpolates_log_log():
    # widths falling exactly like budget^-1/2: the interpolation is exact
    b = np.array([100, 400, 1600])
    plan = pd.DataFrame({"ap_width": 2.0 / np.sqrt(b)}, index=pd.Index(b, name="budget"))
    assert budget_for_width(plan, 2.0 / np.sqrt(900)) == 900
    assert budget_for_width(plan, 0.01) is None
    assert budget_for_width(plan, 1.0) == 100
