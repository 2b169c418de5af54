"""Populations that break the binormal assumption, and coverage of AP intervals on them.

(a) ``bayes_prc.populations``: true AP by quadrature against large samples, shapes,
reproducibility, both classes present. (b) A reduced coverage study that runs in CI
(``benchmarks/coverage_nonnormal.py`` has the full one, reported in docs/coverage.md).
(c) The full-size study and the Monte-Carlo constant, marked ``slow``.

Every bound holds for any seed with overwhelming probability; the reasoning is next to
each assertion.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from scipy.special import logit

import bayes_prc as bp
from bayes_prc import populations as P
from bayes_prc.populations import POPULATIONS, population

ROOT = Path(__file__).resolve().parents[2]
CLOSED_FORM = ("gamma_skewed", "beta_probabilities", "hard_negatives", "binormal")


# ---------------------------------------------------------------------------------------
# (a) the populations


def _sample_ap_and_se(pop, n, rng, n_batches=50):
    """Empirical AP of an n-item sample and its Monte-Carlo SE (from disjoint batches)."""
    y, s = pop.sample(n, random_seed=rng)
    ap = bp.average_precision_score(y, s)
    batch = [
        bp.average_precision_score(yb, sb)
        for yb, sb in zip(np.array_split(y, n_batches), np.array_split(s, n_batches), strict=True)
    ]
    # the batch APs have the spread of an (n / n_batches)-item estimate
    return ap, float(np.std(batch, ddof=1) / np.sqrt(n_batches))


@pytest.mark.parametrize("name", CLOSED_FORM)
def test_quadrature_matches_a_2e6_item_sample(name):
    # The documented verification of the quadrature: a 2e6-item sample agrees within
    # 3 Monte-Carlo standard errors (fixed seed, so this is a reproducible check of the
    # constants, not a random test; the bias of the empirical AP at 4e5 positives is
    # O(1e-6), far below the SE of about 5e-4).
    pop = POPULATIONS[name]
    ap, se = _sample_ap_and_se(pop, 2_000_000, np.random.default_rng(20260101))
    assert 1e-4 < se < 2e-3
    assert abs(ap - pop.true_ap) <= 3 * se, (ap, pop.true_ap, se)


@pytest.mark.parametrize("name", CLOSED_FORM)
def test_quadrature_matches_a_large_sample_any_seed(name, rng):
    # The same check for an arbitrary seed at 4.5 SE: |Z| > 4.5 has probability 7e-6, and
    # the SE estimated from 50 batches is within 25% of its value with probability > 0.99.
    pop = POPULATIONS[name]
    ap, se = _sample_ap_and_se(pop, 1_000_000, rng)
    assert abs(ap - pop.true_ap) <= 4.5 * se, (ap, pop.true_ap, se)


def test_binormal_control_agrees_with_the_binormal_class():
    # two independent computations of the same integral
    expected = bp.Binormal(1.5, 1.0, 0.0, 1.0, 0.2).average_precision()
    assert POPULATIONS["binormal"].true_ap == pytest.approx(float(expected), abs=1e-6)


def test_quadrature_limits_and_prevalence():
    # AP rises with the prevalence, and lies between the prevalence and 1
    for name in CLOSED_FORM:
        aps = [population(name, prevalence=p).true_ap for p in (0.05, 0.2, 0.5)]
        assert 0.05 < aps[0] < aps[1] < aps[2] < 1
        assert aps[1] == pytest.approx(POPULATIONS[name].true_ap, abs=1e-12)
    # identical class distributions: precision is the prevalence at every recall
    same = P._quadrature_ap(stats.norm(0, 1), stats.norm(0, 1).logsf, 0.3)
    assert same == pytest.approx(0.3, abs=1e-9)


def test_classifier_constant_against_a_smaller_sample(rng):
    # 2e5 items per class: SE about 1e-3 (the cached constant's own SE is 3e-4), so 4.5
    # combined SEs is an all-seeds bound
    pop = POPULATIONS["classifier_probabilities"]
    ap, se = P.classifier_reference_ap(0.2, n_per_class=200_000, random_seed=rng, n_batches=20)
    assert 3e-4 < se < 3e-3
    assert abs(ap - pop.true_ap) <= 4.5 * np.hypot(se, pop.true_ap_se)
    # and the empirical AP of an ordinary 4e5-item sample from pop.sample
    ap2, se2 = _sample_ap_and_se(pop, 400_000, rng, n_batches=20)
    assert abs(ap2 - pop.true_ap) <= 4.5 * np.hypot(se2, pop.true_ap_se)


def test_classifier_scores_are_not_binormal_on_the_logit_scale(rng):
    y, s = POPULATIONS["classifier_probabilities"].sample(100_000, random_seed=rng)
    assert ((s > 0) & (s < 1)).all()
    pos = logit(s[y == 1])
    # bimodal positives: excess kurtosis about -1.1 (a normal has 0; its SE here is 0.04)
    assert stats.kurtosis(pos) < -0.7
    # and the two modes: the histogram dips between them
    counts, _ = np.histogram(pos, bins=30)
    peak = np.argmax(counts)
    other = np.argmax(np.where(np.abs(np.arange(30) - peak) > 6, counts, 0))
    lo, hi = sorted((peak, other))
    assert counts[lo:hi].min() < 0.8 * counts[other]


def test_gamma_scores_are_skewed(rng):
    y, s = POPULATIONS["gamma_skewed"].sample(50_000, random_seed=rng)
    assert (s > 0).all()
    # Gamma(a) has skewness 2/sqrt(a): 1.63 and 1.0
    assert stats.skew(s[y == 0]) > 1.2
    assert stats.skew(s[y == 1]) > 0.7


@pytest.mark.parametrize("name", list(POPULATIONS))
def test_sample_shapes_classes_and_reproducibility(name, rng):
    pop = POPULATIONS[name]
    seed = int(rng.integers(2**31))
    y, s = pop.sample(300, random_seed=seed)
    assert y.shape == s.shape == (300,)
    assert y.dtype.kind == "i" and set(np.unique(y)) <= {0, 1}
    assert s.dtype == np.float64 and np.isfinite(s).all()
    y2, s2 = pop.sample(300, random_seed=seed)
    np.testing.assert_array_equal(y, y2)
    np.testing.assert_array_equal(s, s2)
    y3, s3 = pop.sample(300, random_seed=seed + 1)
    assert not np.array_equal(s, s3)
    if pop.transform == "logit":
        assert ((s > 0) & (s < 1)).all()
    # both classes, at least two of each, even for tiny data sets
    for _ in range(50):
        yy, _ = pop.sample(4, random_seed=rng)
        assert yy.sum() == 2
    # prevalence: 20000 Bernoulli(0.2) labels, SE 0.003
    yy, _ = pop.sample(20_000, random_seed=rng)
    assert abs(yy.mean() - 0.2) < 0.015


def test_population_metadata():
    assert set(POPULATIONS) == {
        "classifier_probabilities",
        "gamma_skewed",
        "beta_probabilities",
        "hard_negatives",
        "binormal",
    }
    transforms = {k: v.transform for k, v in POPULATIONS.items()}
    assert transforms == {
        "classifier_probabilities": "logit",
        "gamma_skewed": None,
        "beta_probabilities": "logit",
        "hard_negatives": None,
        "binormal": None,
    }
    for pop in POPULATIONS.values():
        assert pop.prevalence == 0.2 and 0.2 < pop.true_ap < 1 and pop.description
    with pytest.raises(dataclasses.FrozenInstanceError):
        POPULATIONS["binormal"].true_ap = 0.5


def test_population_validation():
    with pytest.raises(ValueError, match="`name`"):
        population("normal")
    for bad in (0, 1, 1.5, True, "0.2"):
        with pytest.raises(ValueError, match="`prevalence`"):
            population("binormal", prevalence=bad)
    for bad in (3, 2.5, True, -1):
        with pytest.raises(ValueError, match="`n`"):
            POPULATIONS["binormal"].sample(bad)


def test_populations_module_imports_only_the_numpy_core():
    tree = ast.parse((ROOT / "bayes_prc" / "populations.py").read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add("." * node.level + (node.module or ""))
    allowed = {
        "__future__",
        "functools",
        "collections.abc",
        "dataclasses",
        "numpy",
        "scipy",
        "scipy.special",
        "._core",
        "._core.transforms",
        ".empirical",
    }
    assert modules <= allowed, modules - allowed


# ---------------------------------------------------------------------------------------
# (b) reduced coverage study

REDUCED_METHODS = ("semiparametric_eti", "binormal_eti", "logit")


def _coverage(name, n, n_rep, rng, methods=REDUCED_METHODS):
    pop = POPULATIONS[name]
    covered = {m: [] for m in methods}
    recommended, passed = [], {}
    for _ in range(n_rep):
        y, s = pop.sample(n, random_seed=rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df = bp.compare_intervals(
                y,
                s,
                ci_prob=0.9,
                methods=methods,
                transform=pop.transform,
                random_seed=rng,
                n_resamples=50,
            )
        for m in methods:
            if m in df.index:
                covered[m].append(bool(df.loc[m, "low"] <= pop.true_ap <= df.loc[m, "high"]))
        recommended.append(df.attrs["recommended"])
        for model, check in df.attrs["fit_checks"].items():
            passed.setdefault(model, []).append(bool(check.passed))
    return {
        "coverage": {m: float(np.mean(v)) for m, v in covered.items() if v},
        "count": {m: len(v) for m, v in covered.items()},
        "recommended": recommended,
        "passed": {m: float(np.mean(v)) for m, v in passed.items()},
    }


@pytest.fixture(scope="module", params=["gamma_skewed", "hard_negatives"])
def reduced_n200(request, rng_for):
    # a fresh seed on each run: the bounds below hold for any seed
    return request.param, _coverage(
        request.param, 200, 40, rng_for(f"{request.node.nodeid}::{request.param}")
    )


@pytest.fixture(scope="module")
def reduced_gamma_n1000(request, rng_for):
    return _coverage("gamma_skewed", 1000, 20, rng_for(f"{request.node.nodeid}::gamma_n1000"))


def test_reduced_coverage_n200(reduced_n200):
    name, res = reduced_n200
    cov = res["coverage"]
    assert res["count"]["semiparametric_eti"] == 40  # the rank-based model always fits
    if name == "gamma_skewed":
        # The rank-based model only sees ranks, and the gamma ROC is close to binormal, so
        # its 90% ETI should cover near 0.9 (0.908 from 120 data sets in docs/coverage.md;
        # 0.75 from 40 data sets at n = 1000, where every row covered 0.75-0.80). With 40 data
        # sets, coverage >= 0.70 means at least 28 covered: P(X <= 27) for X ~ Bin(40, 0.9)
        # is 9e-5 (and 4e-3 if the true coverage were only 0.85).
        assert cov["semiparametric_eti"] >= 0.70, res
    # Boyd et al.'s logit interval (nominal 0.9, about 40 positives) covered 0.85-0.95 on
    # these populations; >= 0.65 (26 of 40) fails with probability 1e-6 at 0.9 and 1e-3 at
    # 0.82.
    assert cov["logit"] >= 0.65, res
    # every recommendation names a row of the table, never the parametric ETI while the
    # rank-based rows are present (recommend_interval's rule)
    assert set(res["recommended"]) <= set(REDUCED_METHODS)
    assert "binormal_eti" not in res["recommended"]


def test_reduced_parametric_worse_on_gamma_n1000(reduced_gamma_n1000):
    res = reduced_gamma_n1000
    cov, passed = res["coverage"], res["passed"]
    # At n = 1000 the parametric binormal model on the raw gamma scores is biased (the
    # scores are skewed, not normal): its 90% ETI covered 0.125 (40 data sets) in
    # docs/coverage.md and its fit check never passed, while the rank-based ETI covered
    # 0.75 there (0.91 at n = 200).
    # With 20 data sets: the rank-based coverage is >= 0.65 (13 of 20) except with
    # probability 4e-4 at a true 0.9 (but 0.07 at 0.78); the parametric one is <= 0.35
    # (7 of 20) except with probability 0.02 at a true 0.15. So "at least 0.3 lower" is
    # likely but not certain; the second branch carries the all-seeds guarantee: the
    # parametric fit check passed in 0 of 40 data sets at n = 1000 (1 of 40 would give
    # P(more than 4 of 20 pass) < 1e-4), and a model its own check flags is never
    # recommended.
    assert cov["binormal_eti"] <= cov["semiparametric_eti"] - 0.3 or passed["parametric"] <= 0.2, (
        res
    )
    assert "binormal_eti" not in res["recommended"]


# ---------------------------------------------------------------------------------------
# the benchmark script (smoke test) and (c) the full-size study


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "coverage_nonnormal", ROOT / "benchmarks" / "coverage_nonnormal.py"
    )
    mod = importlib.util.module_from_spec(spec)
    # registered under its name, so that its functions pickle for the process pool
    # (workers=2): a module loaded by path alone is not importable by that name
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_benchmark_script_smoke(tmp_path, capsys):
    mod = _load_script()
    out = tmp_path / "cov.csv"
    rc = mod.main(
        [
            "--n",
            "60",
            "--n-rep",
            "3",
            "--populations",
            "binormal",
            "gamma_skewed",
            "--methods",
            "logit",
            "binomial",
            "--workers",
            "1",
            "--out",
            str(out),
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "| population | true AP | logit | binomial | recommended |" in text
    assert "| gamma_skewed | 0.6526 |" in text
    assert "Monte-Carlo SE" in text
    import pandas as pd

    df = pd.read_csv(out)
    assert len(df) == 2 * 3 * 2
    assert set(df["method"]) == {"logit", "binomial"}


@pytest.mark.slow
def test_classifier_constant_reproduces():
    # the cached constant is exactly what its documented computation gives, and an
    # independent 4e6-item sample agrees within 4 combined standard errors
    ap, se = P.classifier_reference_ap(0.2, n_per_class=2_000_000, random_seed=0)
    assert (ap, se) == pytest.approx(P._CLASSIFIER_AP_02, rel=1e-12)
    ap1, se1 = P.classifier_reference_ap(0.2, n_per_class=2_000_000, random_seed=1)
    assert se1 < 1e-3
    assert abs(ap1 - ap) <= 4 * np.hypot(se, se1)


@pytest.mark.slow
def test_full_coverage_study_semiparametric():
    # The documented study at reduced width: 200 data sets of n = 200 per population.
    # Bounds: the rank-based ETI covered 0.84-0.93 on these populations with 120 data
    # sets (docs/coverage.md); coverage >= 0.75 (150 of 200) fails with probability 2e-4
    # at a true 0.84. The parametric ETI on the non-normal populations does not cover, so
    # only the rank-based row and the control are checked here.
    mod = _load_script()
    names = list(POPULATIONS)
    rows, summaries = mod.run_study(
        names,
        200,
        200,
        ci_prob=0.9,
        n_resamples=200,
        seed=None,
        methods=("semiparametric_eti", "binormal_eti", "logit"),
        workers=2,
        progress=False,
    )
    import pandas as pd

    long = pd.DataFrame(rows)
    cov = long.groupby(["population", "method"])["covered"].mean()
    for name in ("gamma_skewed", "binormal", "classifier_probabilities"):
        assert cov[(name, "semiparametric_eti")] >= 0.75, cov
    # the binormal control: the parametric model is correct, it must cover too (0.875)
    assert cov[("binormal", "binormal_eti")] >= 0.75, cov
