"""One vocabulary over the public API (issue 26): the interval level's names and default.

Every callable in the ``__all__`` of ``bayes_prc`` and of its public subpackages (and the
public methods of public classes) is read with :func:`inspect.signature`:

- no parameter named ``level``, ``alpha``, ``hdi_prob`` or ``prob`` (``ci_prob`` for
  Bayesian or mixed functions, ``confidence_level`` for frequentist-only ones);
- never both ``ci_prob`` and ``confidence_level`` on one function;
- a level defaults to 0.95, or to None meaning the object's own (documented);
- ``progressbar`` has one default, None (PyMC's bar for NUTS sampling, a text bar on
  stderr for the resampling loops when stderr is a terminal).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

PUBLIC = [
    "bayes_prc",
    *(
        f"bayes_prc.{m}"
        for m in (
            "binormal frequentist bootstrap intervals scale bayes plotting compare paired "
            "criticism prevalence simulate datasets cli pool subgroups empirical models populations folds"
        ).split()
    ),
]
BANNED = {"level", "alpha", "hdi_prob", "prob"}
LEVELS = {"ci_prob", "confidence_level"} | BANNED


def _callables():
    seen = set()
    for name in PUBLIC:
        mod = importlib.import_module(name)
        for attr in getattr(mod, "__all__", []):
            obj = getattr(mod, attr, None)
            if obj is None or id(obj) in seen:
                continue
            seen.add(id(obj))
            if inspect.isclass(obj):
                for meth_name, meth in inspect.getmembers(obj):
                    # pandas' own methods (``level=`` of ``DataFrame.add``) are not ours:
                    # a public DataFrame subclass is scanned for what it adds.
                    if str(getattr(meth, "__module__", "")).startswith("pandas"):
                        continue
                    if callable(meth) and (
                        meth_name == "__init__" or not meth_name.startswith("_")
                    ):
                        yield f"{name}.{attr}.{meth_name}", meth
            elif callable(obj):
                yield f"{name}.{attr}", obj


def _problems():
    out = []
    for where, obj in _callables():
        try:
            params = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        names = [p for p in params if p in LEVELS]
        if set(names) & BANNED:
            out.append(f"{where}: level parameter named {sorted(set(names) & BANNED)}")
        if {"ci_prob", "confidence_level"} <= set(params):
            out.append(f"{where}: both ci_prob and confidence_level")
        bar = params["progressbar"].default if "progressbar" in params else None
        if bar is not None and bar is not inspect.Parameter.empty:
            out.append(
                f"{where}: progressbar={params['progressbar'].default!r} (one default: None)"
            )
        for p in names:
            default = params[p].default
            if default is not inspect.Parameter.empty and default not in (0.95, None):
                out.append(f"{where}: {p}={default!r} (the one default is 0.95)")
    return out


def test_one_level_vocabulary_and_default():
    problems = _problems()
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_bad_signature(monkeypatch):
    """The scan is not vacuous: a public function with a banned name is reported."""
    import bayes_prc.prevalence as prevalence

    def bad(y_true, y_score, *, level=0.9, progressbar=True):  # pragma: no cover
        return None

    monkeypatch.setattr(prevalence, "prevalence_weights", bad)
    problems = _problems()
    assert any("level parameter named ['level']" in p for p in problems)
    assert any("level=0.9" in p for p in problems)
    assert any("progressbar=True" in p for p in problems)
    assert len(list(_callables())) > 100


@pytest.mark.parametrize("name", PUBLIC)
def test_public_paths_import(name):
    importlib.import_module(name)


def test_methods_constants_have_one_name_each():
    # ``METHODS`` named the proportion methods in ``intervals`` and the comparison
    # methods in ``paired``; each is now named for what it lists, the old name warns.
    from bayes_prc import intervals, paired

    assert "METHODS" not in intervals.__all__ and "METHODS" not in paired.__all__
    with pytest.warns(DeprecationWarning, match="PROPORTION_METHODS"):
        assert intervals.METHODS == intervals.PROPORTION_METHODS
    with pytest.warns(DeprecationWarning, match="COMPARISON_METHODS"):
        assert paired.METHODS == paired.COMPARISON_METHODS
    assert "wilson" in intervals.PROPORTION_METHODS and "delong" in paired.COMPARISON_METHODS
    with pytest.raises(AttributeError):
        intervals.NOT_A_NAME  # noqa: B018
