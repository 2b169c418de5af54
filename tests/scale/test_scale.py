"""Dask input (bayes_prc.scale) against the in-memory numpy core, on a local cluster.

Oracles: the numpy functions of bayes_prc on the same data (themselves tested against
scikit-learn in test_ranking.py). Tolerances: the exact path must give identical results
(same arrays, bit for bit); sufficient statistics agree to 1e-10 relative (per-block
moments merged with Chan's update vs the two-pass formula: round-off only); posterior
draws with the same seed to 1e-8 relative; the binned AP must lie within its own stated
bound of the exact AP, for every input (the bound is a guarantee, not an estimate).
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

import bayes_prc as bp  # noqa: E402
from bayes_prc import UndefinedMetricWarning, scale  # noqa: E402
from bayes_prc._core import is_dask  # noqa: E402
from bayes_prc.bayes._priors import sufficient_statistics  # noqa: E402
from bayes_prc.scale import BinnedCurveWarning, binned_pr_curve  # noqa: E402

N, CHUNK = 200_000, 25_000  # 8 blocks


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each; closed at the end of the module."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def data():
    """200k binormal scores, 10% positives, continuous (no ties)."""
    y, s = bp.Binormal(1.2, 1.1, 0.0, 1.0, 0.1).sample(N, random_seed=20261122)
    return y, s


def _dask(*arrays, chunks=CHUNK):
    return tuple(da.from_array(a, chunks=chunks) for a in arrays)


# ------------------------------------------------------------------------- dispatch
def test_import_does_not_import_dask():
    code = "import sys, bayes_prc, bayes_prc.scale; assert 'dask' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_is_dask_is_cheap_and_exact():
    import pandas as pd
    import xarray as xr

    x = np.arange(4.0)
    for plain in (x, x.tolist(), pd.Series(x), xr.DataArray(x, dims="i"), 3.0, None):
        assert not is_dask(plain)
    dx = da.from_array(x, chunks=2)
    assert is_dask(dx)
    assert is_dask(xr.DataArray(dx, dims="i"))
    assert is_dask(dd.from_pandas(pd.Series(x), npartitions=2))


# ------------------------------------------------------------------------- exact path
def test_exact_path_is_identical_to_numpy(client, data):
    y, s = data
    Y, S = _dask(y, s)
    assert bp.average_precision_score(Y, S) == bp.average_precision_score(y, s)
    for ours, ref in zip(
        bp.precision_recall_curve(Y, S), bp.precision_recall_curve(y, s), strict=True
    ):
        assert ours.dtype == ref.dtype
        np.testing.assert_array_equal(ours, ref)
    y, s = y[:20_000], s[:20_000]  # the interpolated estimators are slow at 200k
    Y, S = _dask(y, s, chunks=2_500)
    for est in bp.AUC_PR_ESTIMATORS:
        assert bp.auc_pr(Y, S, estimator=est) == bp.auc_pr(y, s, estimator=est)


def test_exact_path_labels_weights_and_mixed_input(client, data):
    y, s = data
    labels = np.where(y == 1, "spam", "ham")
    w = np.linspace(0.5, 2.0, N)
    L, S, W = _dask(labels, s, w)
    ref = bp.average_precision_score(labels, s, pos_label="spam", sample_weight=w)
    assert bp.average_precision_score(L, S, pos_label="spam", sample_weight=W) == ref
    # one argument dask, the other numpy
    assert bp.average_precision_score(y, S) == bp.average_precision_score(y, s)
    curve = bp.precision_recall_curve(L, s, pos_label="spam", drop_intermediate=True)
    ref_curve = bp.precision_recall_curve(labels, s, pos_label="spam", drop_intermediate=True)
    for a, b in zip(curve, ref_curve, strict=True):
        np.testing.assert_array_equal(a, b)


def test_xarray_and_dask_series_input(client, data):
    import pandas as pd
    import xarray as xr

    y, s = data
    Y, S = _dask(y, s)
    ref = bp.average_precision_score(y, s)
    assert bp.average_precision_score(xr.DataArray(Y, dims="item"), xr.DataArray(S)) == ref
    frame = dd.from_pandas(pd.DataFrame({"y": y, "s": s}), npartitions=7)
    assert bp.average_precision_score(frame["y"], frame["s"]) == ref  # unknown chunk sizes


# ------------------------------------------------------------------------- binned path
@pytest.mark.parametrize("grid", scale.GRIDS)
def test_binned_curve_points_are_exact_and_ap_within_bound(client, data, grid):
    y, s = data
    Y, S = _dask(y, s)
    res = binned_pr_curve(Y, S, bins=2048, grid=grid)
    precision, recall, thresholds = bp.precision_recall_curve(y, s)
    # every threshold is a real score, and precision/recall there are the exact ones
    idx = np.searchsorted(thresholds, res.thresholds)
    np.testing.assert_array_equal(thresholds[idx], res.thresholds)
    np.testing.assert_array_equal(precision[idx], res.precision[:-1])
    np.testing.assert_array_equal(recall[idx], res.recall[:-1])
    assert (res.precision[-1], res.recall[-1]) == (1.0, 0.0)
    assert res.n_bins <= 2048 and res.n_samples == N and res.n_positive == int(y.sum())
    # the AP is the step area of the binned curve, and the exact AP is within the bound
    step = -np.sum(np.diff(res.recall) * res.precision[:-1])
    assert res.average_precision == pytest.approx(step, abs=1e-12)
    exact = bp.average_precision_score(y, s)
    assert res.ap_low <= exact <= res.ap_high
    assert abs(res.average_precision - exact) <= res.ap_error_bound
    assert res.ap_error_bound < {"tail": 2e-3, "quantile": 2e-2, "uniform": 5e-3}[grid]


def test_tail_grid_bound_shrinks_with_bins(client, data):
    y, s = data
    Y, S = _dask(y, s)
    bounds = [binned_pr_curve(Y, S, bins=b).ap_error_bound for b in (256, 2048, 16384)]
    assert bounds[0] > bounds[1] > bounds[2]
    assert bounds[2] < 2e-4


def test_binned_with_explicit_edges_at_every_score_is_exact():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 5000)
    s = rng.integers(0, 40, 5000).astype(np.float64)  # heavy ties
    res = binned_pr_curve(y, s, bins=np.unique(s))
    exact = bp.average_precision_score(y, s)
    assert res.average_precision == pytest.approx(exact, abs=1e-12)
    assert res.ap_error_bound < 1e-12
    for a, b in zip(
        (res.precision, res.recall, res.thresholds), bp.precision_recall_curve(y, s), strict=True
    ):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed", range(60))
def test_bound_holds_on_adversarial_small_cases(seed):
    """Few bins, ties, extreme prevalences, positives piled at a bin's top or bottom."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    kind = seed % 4
    if kind == 0:
        s = rng.normal(size=n)
    elif kind == 1:
        s = rng.integers(0, int(rng.integers(1, 10)), n).astype(np.float64)
    else:
        s = np.round(rng.uniform(size=n), 2)
    prevalence = rng.choice([0.01, 0.2, 0.5, 0.95])
    y = (rng.uniform(size=n) < prevalence).astype(int)
    if kind == 2:  # within any bin positives score above negatives: the exact AP is high
        s = s + 1e-6 * y
    elif kind == 3:  # ... or below them
        s = s - 1e-6 * y
    y[rng.integers(0, n)] = 1
    grid = scale.GRIDS[seed % 3]
    res = binned_pr_curve(y, s, bins=int(rng.integers(1, 12)), grid=grid)
    exact = bp.average_precision_score(y, s)
    assert res.ap_low <= exact <= res.ap_high
    assert abs(res.average_precision - exact) <= res.ap_error_bound
    precision, recall, thresholds = bp.precision_recall_curve(y, s)
    idx = np.searchsorted(thresholds, res.thresholds)
    np.testing.assert_array_equal(precision[idx], res.precision[:-1])
    np.testing.assert_array_equal(recall[idx], res.recall[:-1])


def test_binned_without_positives_warns_and_is_zero():
    with pytest.warns(UndefinedMetricWarning):
        res = binned_pr_curve(np.zeros(50, dtype=int), np.arange(50.0), bins=8)
    assert res.average_precision == 0.0 and res.ap_error_bound == 0.0
    assert np.all(res.recall[:-1] == 1.0)


def test_public_functions_past_max_exact_warn_with_the_bound(client, data):
    y, s = data
    Y, S = _dask(y, s)
    exact = bp.average_precision_score(y, s)
    with scale.set_options(max_exact=N - 1, bins=4096):
        with pytest.warns(BinnedCurveWarning, match=r"within .* of the exact value") as rec:
            ap = bp.average_precision_score(Y, S)
        bound = float(str(rec[0].message).split("within ")[1].split(" ")[0])
        assert abs(ap - exact) <= bound
        with pytest.warns(BinnedCurveWarning):
            assert bp.auc_pr(Y, S) == ap
        with pytest.warns(BinnedCurveWarning, match="each point is exact"):
            p, r, t = bp.precision_recall_curve(Y, S, drop_intermediate=True)
        assert p.shape == r.shape == (t.size + 1,) and t.size <= 4096
        with pytest.raises(ValueError, match="needs the exact curve"):
            bp.auc_pr(Y, S, estimator="davis_goadrich")
        with pytest.raises(ValueError, match="sample_weight"):
            bp.average_precision_score(Y, S, sample_weight=np.ones(N))


# ------------------------------------------------------------------------- validation
def test_errors_name_the_parameter(client):
    y = da.from_array(np.array([0, 1, 2, 1] * 10), chunks=10)
    s = da.from_array(np.arange(40.0), chunks=10)
    with pytest.raises(ValueError, match=r"`y_true` must be binary"):
        binned_pr_curve(y, s)
    bad = np.arange(40.0)
    bad[23] = np.nan
    with pytest.raises(ValueError, match=r"`y_score` contains NaN .*block 2 at position 3"):
        binned_pr_curve(da.from_array(np.arange(40) % 2, chunks=10), da.from_array(bad, 10))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        binned_pr_curve(da.from_array(np.arange(40) % 2, chunks=10), s[:30])
    with pytest.raises(ValueError, match=r"pos_label=1 is not a valid label. It should be one of"):
        with scale.set_options(max_exact=0):
            bp.average_precision_score(
                da.from_array(np.array(["a", "b"] * 20), chunks=10), s, pos_label=1
            )
    with pytest.raises(ValueError, match="`grid` must be one of"):
        binned_pr_curve(np.arange(40) % 2, np.arange(40.0), grid="log")
    with pytest.raises(ValueError, match="`max_exact` must be an integer"):
        scale.set_options(max_exact=-1)


def test_set_options_restores():
    before = scale.get_options()
    with scale.set_options(bins=10, grid="uniform"):
        assert scale.get_options()["bins"] == 10
    assert scale.get_options() == before


# ------------------------------------------------------------------------- binormal fit
def test_class_statistics_equal_numpy(client, data):
    y, s = data
    Y, S = _dask(y, s)
    for ours, ref in zip(
        scale.class_statistics(Y, S), sufficient_statistics(s, y == 1), strict=True
    ):
        assert ours.n == ref.n
        np.testing.assert_allclose([ours.mean, ours.ss], [ref.mean, ref.ss], rtol=1e-10)


@pytest.mark.parametrize("transform", ["logit", "probit"])
def test_class_statistics_with_transform_and_exact_0_1(client, data, transform):
    from bayes_prc._core.transforms import transform_scores

    y, s = data
    prob = 1 / (1 + np.exp(-s))
    prob[:7], prob[100_000:100_003] = 0.0, 1.0
    with pytest.warns(bp.BayesPRCWarning, match="10 score"):
        ours = scale.class_statistics(*_dask(y, prob), transform=transform)
    with pytest.warns(bp.BayesPRCWarning):
        t = transform_scores(prob, transform)
    for a, b in zip(ours, sufficient_statistics(t, y == 1), strict=True):
        assert a.n == b.n
        np.testing.assert_allclose([a.mean, a.ss], [b.mean, b.ss], rtol=1e-10)


def test_fit_binormal_exact_same_draws(client, data):
    y, s = data
    ref = bp.fit_binormal(
        y, s, model="parametric", method="exact", random_seed=42, draws=400, chains=2
    )
    ours = bp.fit_binormal(
        *_dask(y, s), model="parametric", method="exact", random_seed=42, draws=400, chains=2
    )
    assert ours.n == ref.n == N and ours.n_pos == ref.n_pos
    np.testing.assert_allclose([ours.location, ours.scale], [ref.location, ref.scale], 1e-12)
    for name in ("mu_pos", "sigma_pos", "mu_neg", "sigma_neg", "prevalence"):
        a, b = getattr(ours.model, name), getattr(ref.model, name)
        np.testing.assert_allclose(a.mean(), b.mean(), rtol=1e-8)
        np.testing.assert_allclose(a, b, rtol=1e-8)
    np.testing.assert_allclose(
        float(ours.average_precision().mean()), float(ref.average_precision().mean()), 1e-8
    )


def test_fit_binormal_dask_errors(client):
    Y = da.from_array(np.zeros(40, dtype=int), chunks=10)
    S = da.from_array(np.arange(40.0), chunks=10)
    with pytest.raises(ValueError, match="both classes"):
        bp.fit_binormal(Y, S, model="parametric", method="exact")
    with pytest.raises(ValueError, match="`method` must be one of"):
        bp.fit_binormal(Y, S, model="parametric", method="mcmc")
    with pytest.raises(ValueError, match=r"needs probabilities in \[0, 1\]"):
        bp.fit_binormal(
            da.from_array(np.arange(40) % 2, 10), S, model="parametric", transform="logit"
        )


# ------------------------------------------------------------------------- Parquet and CLI
def _write_parquet(tmp_path, y, s, files=3):
    import pandas as pd

    folder = tmp_path / "scores"
    folder.mkdir()
    for k, idx in enumerate(np.array_split(np.arange(y.size), files)):
        frame = pd.DataFrame({"label": y[idx], "score": s[idx]})
        frame.to_parquet(folder / f"part-{k}.parquet", row_group_size=10_000)
    return folder


@pytest.mark.parametrize("lengths", [True, False])
def test_read_parquet_round_trip(client, tmp_path, lengths):
    y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(30_000, random_seed=3)
    folder = _write_parquet(tmp_path, y, s)
    Y, S = scale.read_parquet(folder, label="label", score="score", lengths=lengths)
    assert Y.numblocks == (3,)
    np.testing.assert_array_equal(Y.compute(), y)
    np.testing.assert_array_equal(S.compute(), s)
    assert bp.average_precision_score(Y, S) == bp.average_precision_score(y, s)
    neg, pos = scale.class_statistics(Y, S)
    assert (neg.n, pos.n) == (int((y == 0).sum()), int(y.sum()))
    with pytest.raises(ValueError, match="no score column 'prob'"):
        scale.read_parquet(folder, label="label", score="prob")


def test_cli_summary_dask(client, tmp_path, capsys):
    from bayes_prc import cli

    y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(30_000, random_seed=4)
    folder = _write_parquet(tmp_path, np.where(y == 1, "yes", "no"), s)
    args = [str(folder), "--score", "score", "--label", "label", "--pos-label", "yes"]
    assert cli.main(["summary", "--dask", *args]) == 0
    exact_text = capsys.readouterr().out
    assert exact_text.startswith(f"== {folder} ==")
    ap = bp.average_precision_score(y, s)
    line = next(ln for ln in exact_text.splitlines() if ln.startswith("average_precision"))
    assert float(line.split()[1]) == pytest.approx(ap, abs=5e-5)
    with scale.set_options(max_exact=1000, bins=512):
        assert cli.main(["summary", "--dask", *args]) == 0
        text = capsys.readouterr().out
        assert cli.main(["report", "--dask", *args, "-o", str(tmp_path / "r.html")]) == 2
        assert "needs the data in memory" in capsys.readouterr().err
    line = next(ln for ln in text.splitlines() if ln.startswith("average_precision"))
    low, high = (float(v) for v in line.split("[")[1].rstrip("]").split(","))
    assert low <= ap <= high
    assert "score bins" in text
    assert cli.main(["summary", "--dask", str(folder), "--score", "score", "--label", "label"])
    assert "pass --pos-label" in capsys.readouterr().err


def test_warnings_point_at_the_caller(client, data):
    y, s = data
    Y, S = _dask(y[:4000], s[:4000], chunks=1000)
    with scale.set_options(max_exact=100, bins=64), warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        bp.average_precision_score(Y, S)
    assert [w.filename for w in rec] == [__file__]


def test_cli_report_dask_small_file(client, tmp_path, capsys):
    from bayes_prc import cli

    y, s = bp.Binormal(1, 1, 0, 1, 0.2).sample(600, random_seed=6)
    folder = _write_parquet(tmp_path, y, s, files=2)
    out = tmp_path / "r.html"
    args = [str(folder), "--score", "score", "--label", "label", "--dask", "-o", str(out)]
    assert cli.main(["report", *args, "--n-resamples", "50"]) == 0
    assert out.is_file() and "report written" in capsys.readouterr().out
