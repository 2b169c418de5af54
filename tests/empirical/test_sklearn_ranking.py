"""scikit-learn's own ranking tests, run on bayes_prc: a drop-in check.

The installed scikit-learn's ``sklearn/metrics/tests/test_ranking.py`` is collected in a
pytest subprocess (``--pyargs``, nothing copied from it) with the plugin
``_sklearn_ranking_swap`` (this directory), which swaps bayes_prc's
``precision_recall_curve``, ``average_precision_score``, ``roc_curve``, ``roc_auc_score``
and ``UndefinedMetricWarning`` into that module before collection and checks that the
swap took. Every one of its tests must pass: same values, same warnings (our class),
error messages matching scikit-learn's patterns. Tests of that module that use none of
the swapped names (ndcg, lrap, top-k, ...) run too; they cost a few seconds.

A subprocess keeps scikit-learn's conftest (fixtures such as ``global_random_seed``),
its module state and the patch out of this session. Its ``global_random_seed`` is drawn
from the ``rng`` fixture (scikit-learn states every seed in [0, 99] is valid) unless
``SKLEARN_TESTS_GLOBAL_RANDOM_SEED`` is set; the seed is in the failure message. It runs
twice: as shipped (these small inputs take the numpy path) and with every input forced
through the compiled (numba) kernel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLUGIN = "_sklearn_ranking_swap"
MODULE = "sklearn.metrics.tests.test_ranking"
SUMMARY_PREFIX = "bayes_prc-swap: "


@pytest.mark.parametrize("kernel", ["numpy", "numba"])
def test_sklearn_ranking_tests_pass_on_bayes_prc(tmp_path, rng, kernel):
    pytest.importorskip("sklearn")
    if kernel == "numba":
        pytest.importorskip("numba")
    pytest.importorskip(MODULE, reason="this scikit-learn install has no tests")
    ini = tmp_path / "pytest.ini"  # isolates the run from this repo's pytest options
    ini.write_text("[pytest]\nfilterwarnings =\n    error::RuntimeWarning:bayes_prc.*\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HERE), str(REPO)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    env.setdefault("SKLEARN_TESTS_GLOBAL_RANDOM_SEED", str(int(rng.integers(0, 100))))
    env["BAYES_PRC_SWAP_KERNEL"] = kernel
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "--pyargs",
        MODULE,
        "-p",
        PLUGIN,
        "-p",
        "no:cacheprovider",
        "-c",
        str(ini),
        "--rootdir",
        str(tmp_path),
        "-q",
        "-rfE",
        "--tb=short",
    ]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    where = f"SKLEARN_TESTS_GLOBAL_RANDOM_SEED={env['SKLEARN_TESTS_GLOBAL_RANDOM_SEED']}\n"
    assert proc.returncode == 0, where + out[-20000:]

    lines = out.splitlines()
    (swap,) = [line for line in lines if line.startswith(SUMMARY_PREFIX)]
    state = json.loads(swap[len(SUMMARY_PREFIX) :])
    # every swapped function was called by scikit-learn's tests, through the patch
    assert all(n > 0 for n in state["calls"].values()), state
    assert state["replaced_params"] > 0, state  # CURVE_FUNCS and literal lists patched

    summary = lines[-1]
    counts = {kind: int(n) for n, kind in (part.split()[:2] for part in summary.split(", "))}
    assert "failed" not in counts and "error" not in counts and "errors" not in counts, summary
    ran = sum(counts.get(k, 0) for k in ("passed", "skipped", "xfailed", "xpassed"))
    assert ran == state["items"], summary
    assert counts["passed"] > 0, summary
