"""Joint (precision, recall) regions: bayes_prc.frequentist._joint.

References used here:
* the MLE point against scikit-learn's precision_score / recall_score (exact);
* the closed-form profile -2 log LR against a brute-force profile computed here: the full
  four-cell multinomial log-likelihood (scipy.stats.multinomial.logpmf) maximised over
  the nuisance pi_tp by a dense 1-D grid then bounded Brent refinement (tolerance 1e-6
  on -2 log LR: Brent's x-tolerance 1e-13 puts the likelihood maximum within ~1e-12);
* coverage by simulating a fixed multinomial whose true (precision, recall) is computed
  from its cell probabilities (tolerance band 0.92-0.98, Monte Carlo SE stated per test);
* the Dirichlet credible region's posterior probability against fresh Dirichlet draws
  made here with numpy's gamma generator.
"""

import numpy as np
import pytest
from scipy import optimize, stats
from sklearn.metrics import precision_score, recall_score

from bayes_prc import PRJointRegion, pr_joint_credible_region, pr_joint_region, pr_joint_regions


def _data(tp, fp, fn, tn):
    """Labels and 0/1 scores with these confusion counts at threshold 0.5."""
    y = np.r_[np.ones(tp), np.zeros(fp), np.ones(fn), np.zeros(tn)].astype(int)
    s = np.r_[np.ones(tp + fp), np.zeros(fn + tn)]
    return y, s


def _brute_profile(counts, p, r):
    """-2 log LR(p, r): the nuisance pi_tp found by a dense grid search + Brent."""
    counts = np.asarray(counts)
    n = counts.sum()
    c = 1 / p + 1 / r - 1  # pi = (t, t(1-p)/p, t(1-r)/r, 1 - c t), t in (0, 1/c)

    def cells(t):
        t = np.atleast_1d(t)
        return np.column_stack([t, t * (1 - p) / p, t * (1 - r) / r, 1 - c * t])

    def negll(t):
        with np.errstate(divide="ignore"):
            return -stats.multinomial.logpmf(counts, n, cells(t))

    grid = np.linspace(0, 1 / c, 200_001)[1:-1]
    i = int(np.argmin(negll(grid)))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    best = optimize.minimize_scalar(
        lambda t: negll(t)[0], bounds=(lo, hi), method="bounded", options={"xatol": 1e-13}
    )
    full = stats.multinomial.logpmf(counts, n, counts / n)
    return 2 * (full + best.fun)


COUNTS = [(60, 25, 40, 375), (155, 44, 66, 135), (8, 1, 3, 88), (30, 0, 12, 58), (3, 9, 20, 70)]


@pytest.mark.parametrize("counts", COUNTS)
def test_mle_point_is_empirical_precision_recall(counts):
    y, s = _data(*counts)
    reg = pr_joint_region(y, s, 0.5)
    pred = (s >= 0.5).astype(int)
    assert reg.estimate == pytest.approx(
        (precision_score(y, pred), recall_score(y, pred)), abs=1e-15
    )
    assert (reg.tp, reg.fp, reg.fn, reg.tn) == counts
    assert not reg.statistic.flags.writeable
    assert reg.statistic_at(*reg.estimate) == pytest.approx(0.0, abs=1e-9)
    assert reg.contains(*reg.estimate)
    i = np.flatnonzero(reg.precision_grid == reg.estimate[0])
    j = np.flatnonzero(reg.recall_grid == reg.estimate[1])
    assert reg.inside[i[0], j[0]]


@pytest.mark.parametrize("counts", COUNTS)
def test_profile_statistic_matches_brute_force(counts, rng):
    y, s = _data(*counts)
    reg = pr_joint_region(y, s, 0.5, grid_size=11)
    pts = [(0.5, 0.5), (0.9, 0.3), (0.2, 0.8), (0.95, 0.95), tuple(rng.uniform(0.05, 0.95, 2))]
    pts.append((reg.precision_grid[3], reg.recall_grid[7]))
    for p, r in pts:
        ref = _brute_profile(counts, p, r)
        assert reg.statistic_at(p, r) == pytest.approx(ref, abs=1e-6, rel=1e-9)
    # the grid surface is the same function
    assert reg.statistic[3, 7] == pytest.approx(_brute_profile(counts, *pts[-1]), abs=1e-6)


@pytest.mark.parametrize("method", ["profile", "normal"])
def test_contour_is_the_level_set_and_bounds_the_grid_mask(method):
    path = pytest.importorskip("matplotlib.path")
    y, s = _data(60, 25, 40, 375)
    reg = pr_joint_region(y, s, 0.5, method=method, grid_size=121)
    poly = reg.contour(200)
    assert poly.shape == (200, 2)
    # interior boundary points sit on statistic == cutoff (bisection to ~1e-14 in radius)
    stat = reg.statistic_at(poly[:, 0], poly[:, 1])
    assert np.allclose(stat, reg.cutoff, atol=1e-6)
    pp, rr = np.meshgrid(reg.precision_grid, reg.recall_grid, indexing="ij")
    inside_pts = np.column_stack([pp[reg.inside], rr[reg.inside]])
    assert inside_pts.shape[0] > 50
    # every grid point of the mask lies in the polygon (up to the polygon's chords)
    assert path.Path(poly).contains_points(inside_pts, radius=1e-3).all()
    # and the cutoff is the chi-square(2) quantile of the confidence level
    assert reg.cutoff == pytest.approx(stats.chi2.ppf(0.95, 2), rel=1e-12)


def test_regions_on_the_edge():
    # fp = 0: precision estimate 1; the profile region is a 2-D set touching p = 1
    y, s = _data(30, 0, 12, 58)
    reg = pr_joint_region(y, s, 0.5)
    assert reg.estimate[0] == 1.0 and reg.inside.sum() > 20
    assert reg.inside[:, reg.recall_grid == reg.estimate[1]].sum() > 3
    with pytest.warns(UserWarning, match="normal ellipse is degenerate"):
        norm = pr_joint_region(y, s, 0.5, method="normal")
    assert np.all(reg.precision_grid[np.any(norm.inside, axis=1)] == 1.0)
    # tp = 0: the estimate is (0, 0); the profile statistic is 0 there
    y, s = _data(0, 5, 20, 75)
    reg = pr_joint_region(y, s, 0.5)
    assert reg.estimate == (0.0, 0.0) and reg.statistic_at(0.0, 0.0) == 0.0
    assert reg.statistic_at(0.05, 0.05) < reg.statistic_at(0.3, 0.3)


def _coverage(rng, pi, n, n_rep, method):
    """Share of replicates whose region holds the true (precision, recall)."""
    pi = np.asarray(pi)
    p_true, r_true = pi[0] / (pi[0] + pi[1]), pi[0] / (pi[0] + pi[2])
    hits = used = 0
    for counts in rng.multinomial(n, pi, size=n_rep):
        if counts[0] + counts[1] == 0:
            continue
        y, s = _data(*counts)
        reg = pr_joint_region(y, s, 0.5, method=method, grid_size=2)
        hits += bool(reg.contains(p_true, r_true))
        used += 1
    return hits / used, used


# profile coverage 0.950 and normal 0.940 for PI_A, 0.951 / 0.945 for PI_B (40 000
# replicates each, direct kernel simulation while developing).
PI_A = (0.12, 0.05, 0.08, 0.75)
PI_B = (0.30, 0.10, 0.10, 0.50)


@pytest.mark.parametrize(("method", "pi"), [("profile", PI_A), ("normal", PI_B)])
def test_coverage_quick(rng, method, pi):
    # 2000 replicates: Monte Carlo SE sqrt(.95 * .05 / 2000) = 0.0049, so 0.92-0.98 is
    # over 4 SE either side of the expected coverage. `normal` at 0.95 must cover ~95%,
    # not ~5% (mmu's bivariate-normal `alpha=0.95` gives a 5% region).
    cov, used = _coverage(rng, pi, 500, 2000, method)
    assert used == 2000
    assert 0.92 <= cov <= 0.98, cov


@pytest.mark.slow
@pytest.mark.parametrize("method", ["profile", "normal"])
@pytest.mark.parametrize("pi", [PI_A, PI_B])
def test_coverage_slow(rng, method, pi):
    # 20 000 replicates: Monte Carlo SE 0.0015 (0.0017 at coverage 0.94)
    cov, _ = _coverage(rng, pi, 500, 20_000, method)
    assert 0.92 <= cov <= 0.98, cov


def test_level_is_the_probability_held():
    y, s = _data(60, 25, 40, 375)
    small = pr_joint_region(y, s, 0.5, confidence_level=0.5, method="normal", grid_size=81)
    large = pr_joint_region(y, s, 0.5, confidence_level=0.99, method="normal", grid_size=81)
    assert small.inside.sum() < large.inside.sum()
    assert np.all(large.inside[small.inside])
    assert small.level == 0.5 and large.method == "normal"


def test_along_the_curve_matches_single_threshold(rng):
    y = rng.integers(0, 2, 300)
    s = y + rng.normal(0, 1, 300)
    ts = [-0.5, 0.5, 1.2]
    regs = pr_joint_regions(y, s, ts, grid_size=31)
    assert len(regs) == 3 and all(isinstance(r, PRJointRegion) for r in regs)
    for t, reg in zip(ts, regs, strict=True):
        one = pr_joint_region(y, s, t, grid_size=31)
        assert reg.estimate == one.estimate and reg.threshold == t
        np.testing.assert_array_equal(reg.statistic, one.statistic)
    # recall falls as the threshold rises
    assert regs[0].estimate[1] >= regs[1].estimate[1] >= regs[2].estimate[1]


def test_credible_region_holds_its_posterior_probability(rng):
    counts = (60, 25, 40, 375)
    y, s = _data(*counts)
    seed = int(rng.integers(2**31))
    reg = pr_joint_credible_region(y, s, 0.5, ci_prob=0.9, random_seed=seed, grid_size=41)
    assert reg.method == "dirichlet" and reg.level == 0.9
    # fresh posterior draws made here: Dirichlet(tp + 1, fp + 1, fn + 1) via gammas
    g = rng.standard_gamma(np.array(counts[:3]) + 1.0, size=(4000, 3))
    p, r = g[:, 0] / (g[:, 0] + g[:, 1]), g[:, 0] / (g[:, 0] + g[:, 2])
    held = reg.contains(p, r).mean()
    # SE of the share 0.0047; the KDE (2000 draws) and its level add a few percent
    assert 0.86 <= held <= 0.94, held
    # posterior mean within 3 posterior SD / sqrt(2000) of the exact one (+ rounding)
    assert reg.estimate[0] == pytest.approx(p.mean(), abs=4 * p.std() / np.sqrt(1000))
    assert reg.estimate[1] == pytest.approx(r.mean(), abs=4 * r.std() / np.sqrt(1000))
    # same seed, same region
    again = pr_joint_credible_region(y, s, 0.5, ci_prob=0.9, random_seed=seed, grid_size=41)
    np.testing.assert_array_equal(again.statistic, reg.statistic)
    # Bernstein-von Mises: close to the 90% profile region (areas within 25%)
    prof = pr_joint_region(y, s, 0.5, confidence_level=0.9, grid_size=41)
    assert 0.75 <= reg.inside.sum() / prof.inside.sum() <= 1.25


def test_credible_contour_bounds_the_mask():
    path = pytest.importorskip("matplotlib.path")
    y, s = _data(60, 25, 40, 375)
    reg = pr_joint_credible_region(y, s, 0.5, random_seed=0, grid_size=61)
    pp, rr = np.meshgrid(reg.precision_grid, reg.recall_grid, indexing="ij")
    pts = np.column_stack([pp[reg.inside], rr[reg.inside]])
    assert path.Path(reg.contour(256)).contains_points(pts, radius=1e-3).all()


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, float("nan"), True, "0.95", None])
def test_bad_confidence_level(level):
    y, s = _data(6, 2, 3, 9)
    with pytest.raises(ValueError, match="`confidence_level` must be a number in \\(0, 1\\)"):
        pr_joint_region(y, s, 0.5, confidence_level=level)
    with pytest.raises(ValueError, match="`ci_prob`"):
        pr_joint_credible_region(y, s, 0.5, ci_prob=level)


@pytest.mark.parametrize("threshold", [float("nan"), float("inf"), -np.inf, "0.5", None, True])
def test_bad_threshold(threshold):
    y, s = _data(6, 2, 3, 9)
    with pytest.raises(ValueError, match="`threshold` must be a finite real number"):
        pr_joint_region(y, s, threshold)
    with pytest.raises(ValueError, match="`thresholds` must be a finite real number"):
        pr_joint_regions(y, s, [0.5, threshold])


def test_no_predicted_positive_or_no_positive():
    y, s = _data(6, 2, 3, 9)
    with pytest.raises(ValueError, match="`threshold` 1.5 is above every score"):
        pr_joint_region(y, s, 1.5)
    with pytest.raises(ValueError, match="above every score"):
        pr_joint_credible_region(y, s, 2.0)
    with pytest.raises(ValueError, match="`y_true` has no positive"):
        pr_joint_region(np.zeros(10), np.linspace(0, 1, 10), 0.5)


def test_bad_options():
    y, s = _data(6, 2, 3, 9)
    with pytest.raises(ValueError, match="`method` must be one of"):
        pr_joint_region(y, s, 0.5, method="Profile")
    with pytest.raises(ValueError, match="`grid_size`"):
        pr_joint_region(y, s, 0.5, grid_size=1)
    with pytest.raises(ValueError, match="`thresholds` must be a non-empty 1-D"):
        pr_joint_regions(y, s, [])
    with pytest.raises(ValueError, match="`prior`"):
        pr_joint_credible_region(y, s, 0.5, prior=0)
    with pytest.raises(ValueError, match="`n_points`"):
        pr_joint_region(y, s, 0.5).contour(2)
