"""The report's settings travel as one ReportOptions from `report` to its computing step."""

from __future__ import annotations

import numpy as np
import pytest

import bayes_prc as bp
import bayes_prc._report as rep
from bayes_prc._report import ReportOptions


def test_report_hands_one_options_object_to_the_computing_step(tmp_path, monkeypatch, rng):
    seen = []

    def fake_compute(y_true, y_score, options=None, *, steps=None, **settings):
        seen.append((options, settings))
        raise RuntimeError("stop here")

    monkeypatch.setattr(rep._entry, "compute_report", fake_compute)
    y, s = bp.Binormal(1.2, 1.0, 0.0, 1.0, 0.3).sample(60, random_seed=rng)
    groups = np.arange(60) // 2
    kw = dict(
        title="t",
        random_seed=3,
        n_resamples=50,
        ci_prob=0.9,
        bayes_method="laplace",
        progressbar=False,
        groups=groups,
        min_precision=0.8,
    )
    with pytest.raises(RuntimeError, match="stop here"):
        bp.report(y, s, tmp_path / "r.html", **kw)
    assert not (tmp_path / "r.html").exists()
    ((options, settings),) = seen
    assert type(options) is ReportOptions and settings == {}
    for name, value in kw.items():
        if name == "groups":
            assert options.groups is groups
        else:
            assert getattr(options, name) == value, name
    assert options.model == "semiparametric" and options.transform is None  # defaults


def test_options_or_keywords_not_both():
    assert ReportOptions.from_settings(None, {"ci_prob": 0.8}).ci_prob == 0.8
    opts = ReportOptions(n_resamples=10)
    assert ReportOptions.from_settings(opts, {}) is opts
    with pytest.raises(TypeError, match="not both"):
        ReportOptions.from_settings(opts, {"ci_prob": 0.8})
    with pytest.raises(TypeError, match="unknown report setting.*colour"):
        ReportOptions.from_settings(None, {"colour": "red"})
    with pytest.raises(TypeError, match="must be a ReportOptions; got dict"):
        ReportOptions.from_settings({"ci_prob": 0.8}, {})
