"""Issue 39 item 6: the report on extreme inputs raises no raw library warning.

The report records the warnings raised while it computes and shows them in its
diagnostics box, so ``-W error`` alone cannot see them: each recorded warning is checked
here to be one of bayes_prc's own (:class:`bayes_prc.BayesPRCWarning`, written for the
reader); a NumPy "overflow encountered in expm1" or "divide by zero" fails the test, and
the run is under ``warnings.simplefilter("error")`` as well. Inputs: far scales (scores
about 1e8 and 1e-8), heavy ties (two distinct values), one positive, and many rows (3e4
in CI; 1e5 and 1e6 in the slow test).
"""

import warnings

import numpy as np
import pytest

import bayes_prc as bp
from bayes_prc._report import _compute

RAW = ("encountered in", "RuntimeWarning", "divide by zero", "invalid value")


def _data(rng, case, n=200):
    y = rng.random(n) < 0.2
    y[:2] = [True, False]
    s = rng.normal(size=n) + 1.5 * y
    if case == "scale_1e8":
        s = 1e8 * s
    elif case == "scale_1e-8":
        s = 1e-8 * s
    elif case == "two_values":
        s = (s > 0.8).astype(float)
    elif case == "one_positive":
        y = np.zeros(n, bool)
        y[np.argmax(s)] = True
    return y, s


def _report_own_warnings_only(y, s, path, monkeypatch):
    caught_all = []
    original = _compute.add_caught_warnings

    def check(d, caught):
        caught_all.extend(caught)
        return original(d, caught)

    monkeypatch.setattr(_compute, "add_caught_warnings", check)
    monkeypatch.setattr("bayes_prc._report._entry.add_caught_warnings", check)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bp.report(y, s, path, n_resamples=200, random_seed=0, markdown_path=path.with_suffix(".md"))
    own = bp.BayesPRCWarning
    raw = [
        f"{w.category.__name__}: {w.message}" for w in caught_all if not issubclass(w.category, own)
    ]
    assert not raw, raw
    text = path.read_text() + path.with_suffix(".md").read_text()
    assert not [word for word in RAW if word in text]


@pytest.mark.parametrize("case", ["scale_1e8", "scale_1e-8", "two_values", "one_positive"])
def test_report_on_extreme_inputs_raises_no_raw_warning(rng, tmp_path, monkeypatch, case):
    y, s = _data(rng, case)
    _report_own_warnings_only(y, s, tmp_path / "r.html", monkeypatch)


def test_report_on_many_rows_raises_no_raw_warning(rng, tmp_path, monkeypatch):
    n = 30_000  # the reduced CI version of the 1e5 and 1e6 slow tests
    y = rng.random(n) < 0.1
    y[:2] = [True, False]
    s = rng.normal(size=n) + 1.5 * y
    _report_own_warnings_only(y, s, tmp_path / "r.html", monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("n", [100_000, 1_000_000])
def test_report_on_a_million_rows_raises_no_raw_warning(rng, tmp_path, monkeypatch, n):
    y = rng.random(n) < 0.1
    y[:2] = [True, False]
    s = rng.normal(size=n) + 1.5 * y
    _report_own_warnings_only(y, s, tmp_path / "r.html", monkeypatch)
