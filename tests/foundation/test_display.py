"""``_repr_html_`` of the result objects (issue 30): notebooks show a table, not a repr."""

import re

import numpy as np
import pandas as pd
import pytest

import bayes_prc as bp
from bayes_prc._core.display import format_value, html_table


def test_format_value_and_table():
    assert format_value(0.123456) == "0.1235" and format_value(3) == "3"
    assert format_value(np.float64(1e300)) == "1e+300" and format_value(None) == "None"
    assert format_value(np.zeros((2, 3))) == "array of shape (2, 3)"
    table = html_table("T", [("a<b", 1.5)], caption="why")
    assert "a&lt;b" in table and "<caption>why</caption>" in table


def test_results_render_themselves():
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.3).astype(int)
    s = rng.normal(size=200) + y
    objects = [
        bp.ap_interval(y, s),
        bp.roc_auc_interval(y, s),
        bp.compare_classifiers(y, s, s + rng.normal(size=200), method="bootstrap", n_resamples=50),
        bp.select_labels(rng.normal(size=1000), 50, random_seed=1),
    ]
    post = bp.fit_binormal(y, s, draws=100, chains=2, random_seed=1)
    objects += [post, post.fit_check()]
    for obj in objects:
        text = obj._repr_html_()
        assert text.startswith(("<table", "<p>")) and len(text) > 50
    assert "estimate" in objects[0]._repr_html_() and "average_precision" in post._repr_html_()


# --------------------------------------------------------------------------------------
# every public result renders itself (issue 30): a table in notebooks, a short repr
# --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def data(request, rng_for):
    rng = rng_for(f"{request.node.nodeid}::data")
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + 1.2 * y
    pool_y = rng.random(20_000) < 0.03
    pool_s = rng.normal(size=pool_y.size) + 2.0 * pool_y
    return rng, y, s, s + rng.normal(size=300), pool_y, pool_s


def _posterior(d):
    return bp.fit_binormal(d[1], d[2], draws=200, random_seed=d[0])


def _pool(d):
    rng, *_, pool_y, pool_s = d
    sel = bp.select_labels(pool_s, 300, random_seed=rng)
    return pool_s, sel, pool_y[sel.indices]


def _folds(d):
    rng = d[0]
    model = bp.Binormal(1.5, 1, 0, 1, 0.3)
    return [model.sample(100, random_seed=rng) for _ in range(5)]


RESULTS = {
    # posteriors
    "BinormalPosterior": _posterior,
    "BinormalPosterior (parametric)": lambda d: bp.fit_binormal(
        d[1], d[2], model="parametric", method="exact", draws=200, random_seed=d[0]
    ),
    "OvRPosterior": lambda d: bp.fit_binormal_ovr(
        d[0].integers(0, 3, 300),
        d[0].normal(size=(300, 3)) + 1.5 * np.eye(3)[d[0].integers(0, 3, 300)],
        draws=100,
        random_seed=d[0],
    ),
    "PoolPosterior": lambda d: bp.fit_pool(*_pool(d), draws=200, random_seed=d[0]),
    # interval results
    "APInterval": lambda d: bp.ap_interval(d[1], d[2]),
    "ROCAUCInterval": lambda d: bp.roc_auc_interval(d[1], d[2]),
    "ProportionInterval": lambda d: bp.proportion_interval(7, 20),
    "ThresholdInterval": lambda d: bp.precision_interval(d[1], d[2], 0.5),
    "OperatingPointInterval": lambda d: bp.operating_point_interval(d[1], d[2], 0.5),
    "PrecisionAtKInterval": lambda d: bp.precision_at_k_interval(d[1], d[2], 20),
    "PRJointRegion": lambda d: bp.pr_joint_region(d[1], d[2], 0.5),
    "DesignInterval": lambda d: bp.design_ap_interval(*_pool(d), n_resamples=100),
    "PPIInterval": lambda d: bp.pool.ppi_ap_interval(*_pool(d), n_resamples=100),
    "FoldInterval": lambda d: bp.fold_ap_interval(_folds(d)),
    # paired comparisons
    "PairedComparison (bootstrap)": lambda d: bp.compare_classifiers(
        d[1], d[2], d[3], method="bootstrap", n_resamples=100, random_seed=d[0]
    ),
    "PairedComparison (bayes)": lambda d: bp.compare_classifiers(
        d[1], d[2], d[3], random_seed=d[0]
    ),
    "FoldComparison": lambda d: bp.compare_folds(
        (folds := _folds(d)), [(y, s + d[0].normal(size=s.size)) for y, s in folds]
    ),
    "McNemarResult": lambda d: bp.mcnemar_test(d[1], d[2], d[3], 0.5),
    # fit checks and selections
    "FitCheck": lambda d: _posterior(d).fit_check(random_seed=d[0]),
    "JointFitCheck": lambda d: bp.compare_classifiers(d[1], d[2], d[3], random_seed=d[0]).fit_check,
    "LabelSelection": lambda d: _pool(d)[1],
    # comparison tables (DataFrames with their recommendation)
    "compare_intervals": lambda d: bp.compare_intervals(
        d[1], d[2], n_resamples=100, random_seed=d[0]
    ),
}


def _floats(text):
    """The decimal numbers written in ``text`` (not those inside quoted strings)."""
    text = re.sub(r"'[^']*'", "", text)
    return re.findall(r"\d+\.\d+(?:e[+-]?\d+)?", text)


def _significant_digits(number):
    mantissa = number.split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def test_significant_digits_counter():
    assert [_significant_digits(v) for v in ("0.0008431", "12.5", "1.235e-05")] == [4, 3, 4]
    assert _floats("X(a=0.1235, b='p = 0.123456', c=1e+300)") == ["0.1235"]


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_every_result_renders_a_table(name, data):
    obj = RESULTS[name](data)
    assert obj is not None, name
    html = obj._repr_html_()
    assert isinstance(html, str) and "<table" in html and "</table>" in html
    text = repr(obj)
    # a readable repr: one line per object (a table's rows for a table), numbers to at
    # most 4 significant digits, no array dumps
    assert "array([" not in text, text
    assert max(map(_significant_digits, _floats(text)), default=0) <= 4, text
    if not isinstance(obj, pd.DataFrame):
        assert "\n" not in text and len(text) < 1000, text


def test_repr_is_short_and_keeps_the_values():
    res = bp.proportion_interval(1, 3)
    assert repr(res).startswith("ProportionInterval(estimate=0.3333, low=")
    assert res.estimate == 1 / 3  # the repr rounds, the value does not
    assert "n_clusters" not in repr(bp.ap_interval([0, 1, 1, 0, 1], [0.1, 0.9, 0.8, 0.3, 0.2]))


def test_comparison_table_shows_its_recommendation(data):
    rng, y, s, *_ = data
    table = bp.compare_intervals(y, s, n_resamples=100, random_seed=rng)
    raw = pd.DataFrame(table)  # the plain frame, same values
    assert isinstance(table, pd.DataFrame) and type(raw) is pd.DataFrame
    pd.testing.assert_frame_equal(table, raw)
    pd.testing.assert_frame_equal(raw, table, check_frame_type=False)
    rec = table.attrs["recommended"]
    html = table._repr_html_()
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", html, re.S)
    assert caption is not None and f"({rec})" in caption.group(1)
    assert "Recommended:" in repr(table).splitlines()[-1]
    # numbers to 4 significant digits in the display only
    shown = re.findall(r"<td>(-?\d\.\d+)</td>", html)
    assert shown and all(len(v.lstrip("-0.").replace(".", "")) <= 4 for v in shown)
    assert table["low"].tolist() == raw["low"].tolist()
    # pandas operations keep working; without the recommended row, no caption
    others = table[table.index != rec]
    assert isinstance(others, pd.DataFrame) and "<caption" not in others._repr_html_()
    assert table.sort_values("width").shape == table.shape


def test_pool_intervals_table_shows_its_recommendation(data):
    rng = data[0]
    table = bp.pool_intervals(*_pool(data), n_resamples=100, random_seed=rng)
    assert isinstance(table, pd.DataFrame)
    pd.testing.assert_frame_equal(table, pd.DataFrame(table))
    assert f"({table.attrs['recommended']})" in table._repr_html_()


def test_html_table_skips_the_fields_the_repr_skips():
    """A field declared ``repr=False`` (a helper value, a long list) is left out of the
    notebook table as it is of the repr."""
    import dataclasses

    from bayes_prc._core.display import HTMLReprMixin

    @dataclasses.dataclass
    class Result(HTMLReprMixin):
        estimate: float
        helper: list = dataclasses.field(default_factory=lambda: [1, 2, 3], repr=False)
        note: str = "shown"

    res = Result(0.5)
    html = res._repr_html_()
    assert "estimate" in html and "note" in html and "helper" not in html
    assert "helper" not in repr(res)
