"""Issue 39 item 4: every rank-based number is identical under a strictly increasing
transform of the scores (and under ``transform``), to the last digit, for one seed.

The reference is the same computation on the untransformed scores: exact equality is
asserted (no tolerance), because the rank-based fits, the resampling rows and the
seeds must depend on the order of the scores only.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.special import logit, ndtri

import bayes_prc as bp
from bayes_prc._report._compute import compute_report


def _data(rng, n, tied):
    y = (rng.random(n) < 0.3).astype(int)
    y[:2], y[2:4] = 1, 0  # both classes, at least 2 of each
    p = 1.0 / (1.0 + np.exp(-(np.where(y == 1, 1.0, -0.3) + rng.normal(0.0, 1.0, n))))
    if tied:
        p = np.round(p, 1)  # about 10 distinct values: discrete scores
    return y, np.clip(p, 0.01, 0.99)


def _transforms(p):
    # strictly increasing and tie-preserving in floating point on (0.01, 0.99)
    return {"exp3": np.exp(3 * p), "logit": logit(p), "probit": ndtri(p)}


def _rank_rows(table):
    keep = [m for m in table.index if not m.startswith("binormal_")]
    return pd.DataFrame(table).loc[keep, ["estimate", "low", "high"]]


@pytest.mark.parametrize("tied", [False, True])
def test_compare_intervals_rank_rows_invariant(rng, tied):
    y, p = _data(rng, 120, tied)
    seed = int(rng.integers(2**31))
    kw = dict(ci_prob=0.9, random_seed=seed, n_resamples=100)
    ref = bp.compare_intervals(y, p, **kw)
    others = {k: bp.compare_intervals(y, s, **kw) for k, s in _transforms(p).items()}
    others["transform=logit"] = bp.compare_intervals(y, p, transform="logit", **kw)
    for name, tab in others.items():
        pd.testing.assert_frame_equal(_rank_rows(tab), _rank_rows(ref), check_exact=True, obj=name)
        assert tab.attrs["recommended"] == ref.attrs["recommended"], name
        assert (
            tab.attrs["fit_checks"]["semiparametric"] == ref.attrs["fit_checks"]["semiparametric"]
        )
    auc = bp.compare_intervals(y, p, metric="roc_auc", **kw)
    auc_exp = bp.compare_intervals(y, np.exp(3 * p), metric="roc_auc", **kw)
    pd.testing.assert_frame_equal(_rank_rows(auc_exp), _rank_rows(auc), check_exact=True)


@pytest.mark.parametrize("tied", [False, True])
def test_fit_draws_bands_and_check_invariant(rng, tied):
    y, p = _data(rng, 100, tied)
    seed = int(rng.integers(2**31))
    ref = bp.fit_binormal(y, p, random_seed=seed, draws=200, chains=2)
    for name, s in _transforms(p).items():
        post = bp.fit_binormal(y, s, random_seed=seed, draws=200, chains=2)
        for var in ("average_precision", "roc_auc", "mu_pos", "sigma_pos", "prevalence"):
            np.testing.assert_array_equal(
                post.idata["posterior"][var].values, ref.idata["posterior"][var].values, name
            )
        np.testing.assert_array_equal(
            post.pr_band(ci_prob=0.9).to_array().values, ref.pr_band(ci_prob=0.9).to_array().values
        )
        assert post.fit_check(random_seed=seed) == ref.fit_check(random_seed=seed)
    # fit_binormal ignores `transform` for the rank-based model: same draws
    post = bp.fit_binormal(y, p, transform="logit", random_seed=seed, draws=200, chains=2)
    np.testing.assert_array_equal(post.average_precision().values, ref.average_precision().values)


def test_compare_bands_invariant(rng):
    y, p = _data(rng, 100, False)
    seed = int(rng.integers(2**31))
    ref = bp.compare_bands(y, p, random_seed=seed, n_resamples=50)
    for name, s in _transforms(p).items():
        ds = bp.compare_bands(y, s, random_seed=seed, n_resamples=50)
        for var in ref.data_vars:
            np.testing.assert_array_equal(ds[var].values, ref[var].values, f"{name} {var}")
        assert ds.attrs["recommended"] == ref.attrs["recommended"]


def _report_numbers(d):
    tabs = [pd.DataFrame(t) for t in (d.ap_table, d.auc_table, d.op_table)]
    return tabs, d.bands, d.bootstrap_band, d.headline


@pytest.mark.slow
@pytest.mark.parametrize("tied", [False, True])
def test_report_numbers_invariant(rng, tied):
    """All tables, bands and the headline of the report; ~10 s per report."""
    y, p = _data(rng, 120, tied)
    seed = int(rng.integers(2**31))
    ref = _report_numbers(compute_report(y, p, random_seed=seed, n_resamples=100))
    versions = {k: (s, None) for k, s in _transforms(p).items()}
    versions["transform=logit"] = (p, "logit")
    for name, (s, tr) in versions.items():
        got = _report_numbers(compute_report(y, s, transform=tr, random_seed=seed, n_resamples=100))
        for a, b in zip(got[0], ref[0], strict=True):
            pd.testing.assert_frame_equal(a, b, check_exact=True, obj=name)
        for a, b in zip(got[1:3], ref[1:3], strict=True):
            for var in b.data_vars:
                np.testing.assert_array_equal(a[var].values, b[var].values, f"{name} {var}")
        assert got[3] == ref[3], name
