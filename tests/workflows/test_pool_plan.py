"""plan_labels: the planned width of the pool-AP interval against the width measured on
actual selections (an independent simulation: real selections of a real pool, labelled
with its real labels), and the assumed binormal pool against the mixture's prevalence."""

import numpy as np
import pandas as pd
import pytest
from scipy import special

import bayes_prc as bp
from bayes_prc.pool._plan import _assumed_logit, budget_for_width, plan_labels


def _pool(rng, n=20_000, prevalence=0.02, d=2.0):
    y = rng.random(n) < prevalence
    return y, rng.normal(size=n) + d * y


COLUMNS = (
    "ap_width",
    "ap_width_sd",
    "ap_width_se",
    "ap_coverage",
    "precision_at_recall_width",
    "n_labelled_positives",
    "unreliable_fits",
)
EXTENDED = (
    "ap_width_extended",
    "ap_width_extended_sd",
    "ap_width_extended_se",
    "ap_coverage_extended",
    "precision_at_recall_width_extended",
    "n_labelled_positives_extended",
    "unreliable_fits_extended",
)


def test_structure_seed_and_pilot_accounting(rng):
    y, s = _pool(rng, n=5000, prevalence=0.05)
    sel = bp.select_labels(s, 100, random_seed=rng)
    pilot = (sel, y[sel.indices])
    seed = int(rng.integers(1000))
    a = plan_labels(s, [300, 100], pilot=pilot, n_replicates=2, draws=50, random_seed=seed)
    b = plan_labels(s, [100, 300], pilot=pilot, n_replicates=2, draws=50, random_seed=seed)
    pd.testing.assert_frame_equal(a, b)  # same seed, same plan; budgets sorted
    assert a.index.name == "budget" and list(a.index) == [100, 300]
    assert list(a["n_new"]) == [0, 200]  # the pilot's labels count
    # the fresh prediction and the extended one
    assert set(COLUMNS) | set(EXTENDED) | {"n_new"} == set(a.columns)
    assert a.attrs["n_pilot"] == 100 and a.attrs["ci_prob"] == 0.95 and a.attrs["extended"]
    for col in ("ap_width", "ap_width_extended"):
        assert ((a[col] > 0) & (a[col] < 1)).all()
    # at the pilot's own budget every extended replicate refits the same pilot labels
    assert a.loc[100, "n_labelled_positives_extended"] == y[sel.indices].sum()


def test_extension_only_when_the_pilot_can_be_extended(rng):
    y, s = _pool(rng, n=5000)
    # no pilot, or a pilot of another strategy: only the fresh prediction
    plan = plan_labels(s, [200], n_replicates=1, draws=30, random_seed=rng)
    assert not plan.attrs["extended"] and "ap_width_extended" not in plan
    sel = bp.select_labels(s, 100, strategy="random", random_seed=rng)
    plan = plan_labels(
        s, [50, 200], pilot=(sel, y[sel.indices]), n_replicates=1, draws=30, random_seed=rng
    )
    assert list(plan["n_new"]) == [50, 200] and "ap_width_extended" not in plan
    assert budget_for_width(plan, 1.0, column="ap_width") == 50
    with pytest.raises(ValueError, match="`column`.*ap_width_extended"):
        budget_for_width(plan, 0.1, column="ap_width_extended")


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
    plan = plan_labels(s, [100, 1600], prevalence=0.02, n_replicates=3, draws=100, random_seed=rng)
    assert plan["ap_width"].iloc[1] < 0.8 * plan["ap_width"].iloc[0]
    assert plan.attrs["model"].startswith("assumed binormal")


def _measured(y, s, selections, rng, draws, budget=None, pilot=None):
    """Mean fit_pool AP-interval width over fresh selections of ``budget`` (or extensions
    of ``pilot = (selection, labels, budget)`` by next_batch), with the pool's labels."""
    widths = []
    for _ in range(selections):
        if pilot is None:
            sel = bp.select_labels(s, budget, random_seed=rng)
        else:
            sel = pilot[0].next_batch(pilot[1], pilot[2] - pilot[0].indices.size, random_seed=rng)
        post = bp.fit_pool(s, sel, y[sel.indices], draws=draws, chains=1, random_seed=rng)
        # the same level as plan_labels' default interval (0.95)
        lo, hi = np.quantile(post.average_precision().values, [0.025, 0.975])
        widths.append(hi - lo)
    return float(np.mean(widths))


def test_fresh_width_matches_actual_selections_of_the_assumed_pool(rng):
    # the fresh prediction against fresh selections, with the model known: the pool is
    # drawn from exactly the assumed binormal model (prevalence 2%, d' = 2), so only
    # Monte Carlo error separates the two. The width varies by ~25% between selections:
    # 12 planned and 14 measured widths leave ~8% error on the ratio (measured over ten
    # pools: mean ratio 0.92, sd 0.09 with 8 and 10). [0.65, 1.35] is > 3 sigma, and
    # fails if the budget were ignored (300 -> 150 labels: ratio ~1.4) or the level
    # (a 50% interval: ratio ~0.4).
    y, s = _pool(rng)
    plan = plan_labels(s, [300], prevalence=0.02, separation=2.0, n_replicates=12, random_seed=rng)
    measured = _measured(y, s, 14, rng, draws=250, budget=300)
    assert 0.65 < plan["ap_width"].iloc[0] / measured < 1.35


def test_extended_width_matches_actual_extensions_small_pool(rng):
    # reduced acceptance with a pilot: pool 2e4 at 2%, pilot 150 stratified labels,
    # budget 300; the extended prediction against actual next_batch extensions of that
    # pilot labelled with the pool's labels. Besides Monte Carlo (~12% on the ratio with
    # 6 planned and 8 measured widths) the pilot's posterior adds its own error: over
    # twelve pools the ratio ranged 0.83-1.49 (8 and 8). [0.5, 2.0] fails if the plan
    # ignored the budget and the level together, not for a 20% bias: the pilot limits
    # what any plan can know (benchmarks/plan_labels_check.py).
    y, s = _pool(rng)
    sel = bp.select_labels(s, 150, random_seed=rng)
    plan = plan_labels(
        s, [300], pilot=(sel, y[sel.indices]), n_replicates=6, draws=250, random_seed=rng
    )
    measured = _measured(y, s, 8, rng, draws=250, pilot=(sel, y[sel.indices], 300))
    assert 0.5 < plan["ap_width_extended"].iloc[0] / measured < 2.0


@pytest.mark.slow
def test_planned_width_matches_actual_selections_acceptance(rng):
    # issue 16's setting: pool 2e5 at 1%, pilots of 200 stratified labels, budget 400,
    # measured: mean width over 30 fresh stratified selections of 400. The fresh
    # prediction depends on what the pilot learnt (benchmarks/plan_labels_check.py,
    # binormal: pred / fresh 0.84-1.49 over six pilots, mean 1.17, sd 0.23): the mean
    # ratio over 4 pilots (sd ~0.12) must lie in [0.65, 1.6], about 3 sd each side.
    from bayes_prc.populations import population

    y, s = population("binormal", prevalence=0.01).sample(200_000, random_seed=rng)
    y = np.asarray(y, dtype=bool)
    measured = _measured(y, s, 30, rng, draws=1000, budget=400)
    ratios = []
    for _ in range(4):
        sel = bp.select_labels(s, 200, random_seed=rng)
        plan = plan_labels(s, [400], pilot=(sel, y[sel.indices]), random_seed=rng)
        ratios.append(plan["ap_width"].iloc[0] / measured)
    assert 0.65 < np.mean(ratios) < 1.6


def test_budget_for_width_interpolates_log_log():
    # widths falling exactly like budget^-1/2: the interpolation is exact
    b = np.array([100, 400, 1600])
    plan = pd.DataFrame({"ap_width": 2.0 / np.sqrt(b)}, index=pd.Index(b, name="budget"))
    assert budget_for_width(plan, 2.0 / np.sqrt(900)) == 900
    assert budget_for_width(plan, 0.01) is None
    assert budget_for_width(plan, 1.0) == 100
