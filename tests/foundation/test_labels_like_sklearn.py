"""Issue 39 item 2: labels that are not {0, 1}/{-1, 1}/bool behave exactly as in
scikit-learn (the reference): the same result where it accepts, an error naming
`pos_label` where it refuses ("pos_label is not specified")."""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import bayes_prc as bp

N = 40


def _label_sets(base):
    return {
        "01": base,
        "-11": np.where(base, 1, -1),
        "bool": base.astype(bool),
        "12": base + 1,
        "02": base * 2,
        "float12": base + 1.0,
        "str": np.where(base, "yes", "no"),
        "one1": np.ones(N, int),
        "one0": np.zeros(N, int),
        "one2": np.full(N, 2),
        "onestr": np.full(N, "a"),
    }


def _outcome(f, y, s, pos_label):
    kw = {} if pos_label is None else {"pos_label": pos_label}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one-class input: sklearn warns, so do we
            out = f(y, s, **kw)
    except (ValueError, TypeError) as err:
        return type(err).__name__, str(err)
    if isinstance(out, tuple):
        return "ok", [np.asarray(a, dtype=float) for a in out]
    return "ok", float(out)


@pytest.mark.parametrize(
    "name", ["average_precision_score", "precision_recall_curve", "roc_curve", "roc_auc_score"]
)
def test_same_outcome_as_sklearn_for_every_label_set(rng, name):
    base = rng.integers(0, 2, N)
    base[:2] = [0, 1]
    s = rng.normal(size=N) + base
    for key, y in _label_sets(base).items():
        for pos_label in (None, 1, 2, 0, -1, "yes", True):
            if name == "roc_auc_score" and pos_label is not None:
                continue  # no pos_label there (scikit-learn's signature)
            ref = _outcome(getattr(skm, name), y, s, pos_label)
            got = _outcome(getattr(bp, name), y, s, pos_label)
            where = f"{name}, labels {key}, pos_label={pos_label!r}"
            assert got[0] == ref[0], f"{where}: sklearn {ref}, bayes_prc {got}"
            if ref[0] != "ok":
                if "pos_label is not specified" in ref[1]:
                    assert "pos_label" in got[1], where
                continue
            if isinstance(ref[1], list):  # exact counts: same curve to rounding
                for a, b in zip(ref[1], got[1], strict=True):
                    np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12, err_msg=where)
            else:
                assert got[1] == pytest.approx(ref[1], rel=1e-12, abs=1e-12, nan_ok=True), where


@pytest.mark.parametrize("labels", [(1, 2), (0, 2), ("no", "yes")])
def test_functions_without_a_sklearn_twin_refuse_ambiguous_labels(rng, labels):
    """Where scikit-learn's curve refuses (pos_label=None), so do the intervals; with
    pos_label they agree with the 0/1 coding."""
    base = rng.integers(0, 2, N)
    base[:2] = [0, 1]
    s = rng.normal(size=N) + base
    y = np.where(base == 1, labels[1], labels[0])
    with pytest.raises(ValueError, match="pos_label"):
        bp.ap_interval(y, s)
    with pytest.raises(ValueError, match="pos_label"):
        bp.precision_recall_curve(y, s)
    got = bp.ap_interval(y, s, pos_label=labels[1], method="logit")
    ref = bp.ap_interval(base, s, method="logit")
    assert (got.estimate, got.low, got.high) == (ref.estimate, ref.low, ref.high)
