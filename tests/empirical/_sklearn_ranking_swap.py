"""pytest plugin: run scikit-learn's ranking tests with bayes_prc's functions swapped in.

Loaded with ``-p _sklearn_ranking_swap`` by ``test_sklearn_ranking.py`` in a pytest
subprocess that collects ``--pyargs sklearn.metrics.tests.test_ranking``. Before
collection it imports that module from the installed scikit-learn and replaces, in its
namespace, ``precision_recall_curve``, ``average_precision_score``, ``roc_curve``,
``roc_auc_score`` (by call-counting wrappers of bayes_prc's public functions) and
``UndefinedMetricWarning`` (by bayes_prc's class), and does the same inside the
``parametrize`` value lists that captured scikit-learn's functions at import time
(``CURVE_FUNCS`` and literal lists).

After collection it checks that every collected test lives in that patched module and
that no parameter is still one of scikit-learn's swapped functions. A test that reaches
none of the four functions (its code, and the module's helpers it calls, name none of
them, and no parameter is one) tests scikit-learn's own functions only
(``top_k_accuracy_score``), which warn with scikit-learn's class: while such a test runs,
and only then, the module's ``UndefinedMetricWarning`` is scikit-learn's again. That
cannot make a test of ours pass, since bayes_prc never emits scikit-learn's class.

With the environment variable ``BAYES_PRC_SWAP_KERNEL=numba`` every input, however small,
is counted by the compiled (numba) kernel instead of numpy's sorts.

At the end it prints one line ``bayes_prc-swap: {json}`` (calls of each swapped function,
collected items, replaced parameters, tests of scikit-learn only), which the outer test
reads. Nothing happens at import (pytest's doctest collection imports this file too).
"""

from __future__ import annotations

import functools
import json
import sys
import types

import pytest

MODULE = "sklearn.metrics.tests.test_ranking"
FUNCTIONS = ("precision_recall_curve", "average_precision_score", "roc_curve", "roc_auc_score")
WARNING = "UndefinedMetricWarning"
SUMMARY_PREFIX = "bayes_prc-swap: "
KERNEL_VARIABLE = "BAYES_PRC_SWAP_KERNEL"  # "numba": count every input by the compiled kernel

_state = {
    "calls": dict.fromkeys(FUNCTIONS, 0),
    "items": 0,
    "replaced_params": 0,
    "sklearn_only": set(),  # node ids of the tests that reach none of our functions
}


def _wrap(name, func):
    @functools.wraps(func)
    def counted(*args, **kwargs):
        _state["calls"][name] += 1
        return func(*args, **kwargs)

    return counted


def _swap(value, table):
    """``value`` with scikit-learn's swapped objects replaced (tuples and params too)."""
    from _pytest.mark.structures import ParameterSet

    if isinstance(value, ParameterSet):
        return value._replace(values=tuple(_swap(v, table) for v in value.values))
    if isinstance(value, tuple):
        return tuple(_swap(v, table) for v in value)
    replacement = table.get(id(value))
    if replacement is not None and replacement[0] is value:
        _state["replaced_params"] += 1
        return replacement[1]
    return value


def pytest_configure(config):
    import importlib
    import os

    import bayes_prc
    import bayes_prc.empirical
    from bayes_prc.empirical import _counting, counting_kernel
    from bayes_prc.exceptions import UndefinedMetricWarning

    if os.environ.get(KERNEL_VARIABLE) == "numba":  # every input through the compiled path
        _counting._NUMBA_MIN_N = _counting._NUMBA_LOAD_N = 0
        assert counting_kernel(1) == "numba"

    module = importlib.import_module(MODULE)
    ours = {}
    for name in FUNCTIONS:
        func = getattr(bayes_prc, name)  # the public face (some route dask input first)
        core = getattr(bayes_prc.empirical, name)
        assert func is core or getattr(func, "__wrapped__", None) is core, name
        ours[name] = _wrap(name, func)
    ours[WARNING] = UndefinedMetricWarning
    # id -> (scikit-learn's object, ours); the object is kept so that its id stays valid
    table = {id(getattr(module, name)): (getattr(module, name), ours[name]) for name in ours}
    for name, value in ours.items():
        setattr(module, name, value)
    for value in list(vars(module).values()):
        if isinstance(value, list):  # CURVE_FUNCS and the like, also held by marks
            value[:] = [_swap(v, table) for v in value]
        for mark in getattr(value, "pytestmark", ()):
            if mark.name == "parametrize" and len(mark.args) > 1:
                argvalues = mark.args[1]
                swapped = [_swap(v, table) for v in argvalues]
                if isinstance(argvalues, list):
                    argvalues[:] = swapped
                else:  # a tuple: Mark is frozen, set the field as pytest's __init__ does
                    object.__setattr__(mark, "args", (mark.args[0], swapped, *mark.args[2:]))
    config._bayes_prc_swap = (module, ours, table)


def _check_module(module, ours):
    for name, value in ours.items():
        if getattr(module, name) is not value:
            raise AssertionError(f"{MODULE}.{name} is not bayes_prc's")


def _global_names(code):
    """Global names a code object (and the functions nested in it) loads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _reaches_ours(func, module, seen):
    """True if ``func`` names a swapped function, directly or through the module's helpers."""
    names = _global_names(func.__code__)
    if names & set(FUNCTIONS):
        return True
    for name in names:
        helper = vars(module).get(name)
        if (
            isinstance(helper, types.FunctionType)
            and helper.__module__ == module.__name__
            and helper not in seen
        ):
            seen.add(helper)
            if _reaches_ours(helper, module, seen):
                return True
    return False


def pytest_collection_modifyitems(session, config, items):
    module, ours, table = config._bayes_prc_swap
    _check_module(module, ours)
    if sys.modules[MODULE] is not module:
        raise AssertionError(f"{MODULE} was imported twice; the patched copy is not collected")
    wrappers = [ours[name] for name in FUNCTIONS]
    for item in items:
        if getattr(item, "module", None) is not module:
            raise AssertionError(f"{item.nodeid} is not from the patched {MODULE}")
        callspec = getattr(item, "callspec", None)
        params = [
            v
            for value in (callspec.params.values() if callspec else ())
            for v in (value if isinstance(value, tuple) else (value,))
        ]
        for v in params:
            if id(v) in table and table[id(v)][0] is v:
                raise AssertionError(f"{item.nodeid} still runs scikit-learn's {v!r}")
        takes_ours = any(v is f for v in params for f in wrappers)
        if not (takes_ours or _reaches_ours(item.function, module, set())):
            _state["sklearn_only"].add(item.nodeid)
    _state["items"] = len(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if item.nodeid not in _state["sklearn_only"]:
        return (yield)
    module, ours, table = item.config._bayes_prc_swap
    (sklearn_class,) = [theirs for theirs, mine in table.values() if mine is ours[WARNING]]
    setattr(module, WARNING, sklearn_class)
    try:
        return (yield)
    finally:
        setattr(module, WARNING, ours[WARNING])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    module, ours, _ = config._bayes_prc_swap
    _check_module(module, ours)  # still ours after every test ran
    summary = dict(_state, sklearn_only=len(_state["sklearn_only"]))
    terminalreporter.write_line(SUMMARY_PREFIX + json.dumps(summary, sort_keys=True))
