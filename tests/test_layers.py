"""The package's layers, read from the source (AST) and checked in a fresh interpreter.

Layers, bottom to top (README, "What is here"); a module imports only its own layer or
lower ones, lazily (inside a function) or not:

0 foundation  exceptions, _validation, _transforms, _version, datasets
1 empirical   empirical/ (numpy only)
2 core        models/, frequentist/ and the public paths binormal, intervals, bootstrap
3 bayes       bayes/ (the only layer importing PyMC)
4 workflows   compare, paired, criticism, prevalence, simulate, populations
5 scale       scale/ (the dask adapter) and _dispatch (the faces routing dask input)
6 presentation plotting/, _report/, cli, _cli_io
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "bayes_prc"
# a module of one concept may grow to about 1000 lines before it is worth a second look
# (cohesion over line counts: a concept is never split to fit a number; issue 26)
MAX_LINES = 1000

LAYERS = {
    "exceptions": 0,
    "_core": 0,
    "_version": 0,
    "datasets": 0,
    "empirical": 1,
    "models": 2,
    "frequentist": 2,
    "binormal": 2,
    "intervals": 2,
    "bootstrap": 2,
    "bayes": 3,
    "compare": 4,
    "paired": 4,
    "criticism": 4,
    "prevalence": 4,
    "simulate": 4,
    "populations": 4,
    "folds": 4,
    "pool": 4,
    "scale": 5,
    "_dispatch": 5,
    "plotting": 6,
    "_report": 6,
    "cli": 6,
}
TOP = 7  # the package face bayes_prc/__init__.py

# third-party packages a layer may not import (lazily or not)
HEAVY = {"pandas", "matplotlib", "pymc", "pytensor", "arviz", "xarray", "dask"}
FORBIDDEN = {
    0: HEAVY,
    1: HEAVY | {"scipy"},
    2: HEAVY - {"xarray"},  # frequentist bands are xarray Datasets, like the posterior's
    3: {"matplotlib", "dask"},
    4: {"matplotlib", "dask", "pymc", "pytensor"},
    5: {"matplotlib", "pymc", "pytensor"},
    6: {"pymc", "pytensor"},
}


def _module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _layer(module):
    if module == "bayes_prc":
        return TOP
    first = module.split(".")[1]
    if first not in LAYERS:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return LAYERS[first]


def _imports(module):
    """(imported bayes_prc module, third-party top-level package, line) of every import."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    own, other = [], []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bayes_prc":
                other.append((target.split(".")[0], node.lineno))
                continue
            for alias in node.names:  # `from . import scale` imports a submodule
                sub = f"{target}.{alias.name}"
                own.append((sub if sub in MODULES else target, node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == "bayes_prc":
                    own.append((alias.name, node.lineno))
                else:
                    other.append((top, node.lineno))
    return own, other


GRAPH = {m: _imports(m) for m in MODULES}


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down(module):
    own, other = GRAPH[module]
    layer = _layer(module)
    up = [
        f"{module}:{line} imports {target} (layer {_layer(target)} > {layer})"
        for target, line in own
        if target in MODULES and target != module and _layer(target) > layer
    ]
    assert not up, "\n".join(up)
    if layer == TOP:
        return
    bad = [f"{module}:{line} imports {pkg}" for pkg, line in other if pkg in FORBIDDEN[layer]]
    assert not bad, "\n".join(bad)


def test_no_module_imports_the_package_face():
    offenders = [
        f"{m}:{line}" for m, (own, _) in GRAPH.items() for t, line in own if t == "bayes_prc"
    ]
    assert not offenders, f"import specific modules, not the package face: {offenders}"


def test_no_import_cycle():
    edges = {m: {t for t, _ in GRAPH[m][0] if t in MODULES and t != m} for m in MODULES}
    # a package imports its __init__ chain implicitly; the explicit edges suffice here
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_size(module):
    n = len(MODULES[module].read_text().splitlines())
    assert n <= MAX_LINES, f"{MODULES[module]} has {n} lines (at most {MAX_LINES})"


def test_only_bayes_imports_pymc():
    users = {
        m for m, (_, other) in GRAPH.items() for pkg, _ in other if pkg in {"pymc", "pytensor"}
    }
    assert users and all(m.startswith("bayes_prc.bayes") for m in users), sorted(users)


def test_import_loads_no_heavy_dependency():
    code = (
        "import sys, bayes_prc; "
        "print(sorted(m for m in ('pymc', 'pytensor', 'matplotlib', 'pandas', 'arviz', 'dask') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_layer_checker_sees_an_upward_import(tmp_path):
    """The AST reader is not blind: a lazy upward import inside a function is caught."""
    src = "def f():\n    from ..plotting import PRCurveDisplay\n    return PRCurveDisplay\n"
    tree = ast.parse(src)
    (node,) = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert node.level == 2 and node.module == "plotting"
    # resolved the way _imports resolves it, from a module of bayes_prc.frequentist
    package = "bayes_prc.frequentist"
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    target = ".".join(base + [node.module])
    assert target == "bayes_prc.plotting" and _layer(target) > _layer("bayes_prc.frequentist._ap")
