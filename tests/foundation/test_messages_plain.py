"""Issue 39 item 6: no message of the API quotes a NumPy repr (``np.float64(...)``).

Each case below is a bad input given the way NumPy users give it (NumPy scalars,
NumPy arrays); the error must name the parameter and quote the value plainly.
"""

import warnings

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc._core import plain

f64, i64 = np.float64, np.int64


def _data(rng, n=60):
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    return y.astype(int), rng.normal(size=n) + y


CASES = {
    "ci_prob": lambda y, s: bp.compare_intervals(y, s, ci_prob=f64(1.5)),
    "confidence_level": lambda y, s: bp.ap_interval(y, s, confidence_level=f64(1.0)),
    "n_resamples": lambda y, s: bp.ap_interval(y, s, method="bootstrap", n_resamples=i64(0)),
    "method": lambda y, s: bp.ap_interval(y, s, method=np.str_("nope")),
    "random_seed": lambda y, s: bp.ap_interval(y, s, method="bootstrap", random_seed=f64(1.5)),
    "labels_3": lambda y, s: bp.ap_interval(np.where(s > 0, 2, y), s),
    "labels_12": lambda y, s: bp.fit_binormal(y + 1, s),
    "labels_nan": lambda y, s: bp.ap_interval(np.where(s > 1, np.nan, y), s),
    "score_nan": lambda y, s: bp.ap_interval(y, np.where(s > 1, np.nan, s)),
    "score_str": lambda y, s: bp.ap_interval(y, s.astype(str)),
    "length": lambda y, s: bp.ap_interval(y[:-1], s),
    "weights": lambda y, s: bp.average_precision_score(y, s, sample_weight=-np.ones(y.size)),
    "groups_len": lambda y, s: bp.ap_interval(y, s, groups=np.arange(3)),
    "groups_nan": lambda y, s: bp.ap_interval(y, s, groups=np.where(s > 1, np.nan, 1.0)),
    "pos_label": lambda y, s: bp.ap_interval(np.where(y, "a", "b"), s, pos_label=np.str_("c")),
    "k": lambda y, s: bp.precision_at_k(y, s, f64(1e9)),
    "beta": lambda y, s: bp.max_fbeta(y, s, beta=f64(-1)),
    "min_precision": lambda y, s: bp.recall_at_precision(y, s, f64(2)),
    "threshold": lambda y, s: bp.operating_point_interval(y, s, threshold=f64(np.nan)),
    "transform": lambda y, s: bp.compare_intervals(y, s * 10, transform="logit"),
    "prevalence": lambda y, s: bp.deployment_prevalence(y, s, prevalence=f64(2)),
    "budget": lambda y, s: bp.select_labels(s, i64(10**6)),
    "budget_0": lambda y, s: bp.select_labels(s, i64(0)),
    "rope": lambda y, s: bp.compare_classifiers(y, s, s[::-1], rope=(f64(0.1), f64(0))),
    "subgroup": lambda y, s: bp.compare_subgroups(y, s, np.arange(y.size)[:5]),
    "constant": lambda y, s: bp.fit_binormal(y, np.full(y.size, f64(0.3))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_messages_quote_values_plainly(rng, case):
    y, s = _data(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)) as info:
            CASES[case](y, s)
    text = str(info.value)
    assert "np." not in text and "float64(" not in text and "int64(" not in text, text
    assert "array(" not in text, text


def test_plain_matches_repr_for_python_values():
    """``plain`` is ``repr`` except for NumPy objects (their Python values)."""
    for v in (0.25, 1, "a", None, (1, "b"), [0.5], {"a": 1}, True):
        assert plain(v) == repr(v)
    assert plain(f64(4.395344)) == "4.395344" and plain(np.str_("x")) == "'x'"
    assert plain(np.array(2.0)) == "2.0" and plain(np.array([1, 2])) == "[1, 2]"
