"""``_repr_html_`` of the result objects (issue 30): notebooks show a table, not a repr."""

import numpy as np

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
