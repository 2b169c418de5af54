"""The package's layers, read from the source (AST) and checked in a fresh interpreter.

Layers, bottom to top (README, "What is here"); a module imports only its own layer or
lower ones, lazily (inside a function) or not. A layer is a set of top-level folders (and
the few top-level modules); a concept folder's own models sit on their layer through
MODULE_LAYERS (module by module):

0 foundation   _core/ (validation, transforms, progress), exceptions, _version, datasets/
1 empirical    empirical/ (numpy only)
2 core         models/, frequentist/ and the public paths binormal, intervals, bootstrap
3 bayes        bayes/ (the only layer importing PyMC)
4 workflows    compare/, paired/, pool/, subgroups/, ranking/, planning/, recommend/ (the rule
               book), criticism, prevalence,
               simulate, populations, folds
5 scale        scale/ (the dask adapter) and _dispatch (the faces routing dask input)
6 presentation plotting/, _report/, cli/

The tree itself is checked too (issue 26): at most 12 modules directly under bayes_prc/,
none a private satellite of a concept, and no module imports a private name or a private
module of another package.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "bayes_prc"
# a module of one concept may grow to about 1000 lines before it is worth a second look
# (cohesion over line counts: a concept is never split to fit a number; issue 26)
MAX_LINES = 1000

LAYER_NAMES = {
    0: ("_core", "exceptions", "_version", "datasets"),
    1: ("empirical",),
    2: ("models", "frequentist", "binormal", "intervals", "bootstrap"),
    3: ("bayes",),
    4: (
        "compare",
        "paired",
        "pool",
        "subgroups",
        "ranking",
        "threshold",
        "criticism",
        "prevalence",
        "simulate",
        "populations",
        "folds",
        "planning",
        "recommend",
    ),
    5: ("scale", "_dispatch"),
    6: ("plotting", "_report", "cli", "tracking"),
}
LAYERS = {name: layer for layer, names in LAYER_NAMES.items() for name in names}
# A concept folder holds its own models (issue 41): a module (or a private subpackage) of a
# folder may sit on another layer than the folder's face. The longest matching prefix wins,
# e.g. "pool._model": 3 puts bayes_prc/pool/_model.py on the PyMC layer.
MODULE_LAYERS: dict[str, int] = {
    # subgroups: the hierarchical model, its sampler and fit (numpy/scipy) and the PyMC
    # reference sit on the model layer; compare_subgroups and its result on the workflows'
    "subgroups._model": 3,
    "subgroups._proposals": 3,
    "subgroups._prevalence": 3,
    "subgroups._sampler": 3,
    "subgroups._fit": 3,
    "subgroups._pymc": 3,
    # pool: the label-selection design and its estimates (numpy/scipy), the calibration
    # model, its posterior and the paired pool model (PyMC, lazily)
    "pool._selection": 2,
    "pool._design": 2,
    "pool._model": 3,
    "pool._posterior": 3,
    "pool._pair_model": 3,
    # paired: the bivariate normal kernel and the permutation test (numpy/scipy), the
    # two paired models (bivariate binormal on scores, rank-based) and the PyMC one (lazily)
    "paired._bvn": 2,
    "paired._permutation": 2,
    "paired._bivariate": 3,
    "paired._rank": 3,
    "paired._rank_model": 3,
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
    parts = module.split(".")[1:]
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in MODULE_LAYERS:
            return MODULE_LAYERS[".".join(parts[:k])]
    first = parts[0]
    if first not in LAYERS:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return LAYERS[first]


def _import_target(package, node):
    """The absolute module an ``ast.ImportFrom`` names, from a module of ``package``."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module):
    """(imported bayes_prc module, third-party top-level package, line) of every import."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    own, other = [], []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            target = _import_target(package, node)
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


def test_no_formatter_opt_out():
    """The size limit is soft and no line layout is forced: no formatter opt-out comment."""
    repo = ROOT.parent
    hits = [
        f"{path.relative_to(repo)}:{i}"
        for folder in ("bayes_prc", "tests", "benchmarks", "examples")
        for path in sorted((repo / folder).rglob("*.py"))
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if "# fmt: " + "skip" in line or "# fmt: " + "off" in line
    ]
    assert not hits, hits


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_size(module):
    """A soft limit: a module past MAX_LINES is worth a second look (a warning, not a failure)."""
    n = len(MODULES[module].read_text().splitlines())
    if n > MAX_LINES:
        warnings.warn(f"{MODULES[module]} has {n} lines (soft limit {MAX_LINES})", stacklevel=1)


def test_only_bayes_imports_pymc():
    users = {
        m for m, (_, other) in GRAPH.items() for pkg, _ in other if pkg in {"pymc", "pytensor"}
    }
    assert users and all(_layer(m) == 3 for m in users), sorted(users)


def test_import_loads_no_heavy_dependency():
    code = (
        "import sys, bayes_prc; "
        "print(sorted(m for m in ('pymc', 'pytensor', 'matplotlib', 'pandas', 'arviz', 'dask', "
        "'numba') if m in sys.modules))"
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
    target = _import_target("bayes_prc.frequentist", node)
    assert target == "bayes_prc.plotting" and _layer(target) > _layer("bayes_prc.frequentist._ap")


# --------------------------------------------------------------------------------------
# the tree (issue 26)
# --------------------------------------------------------------------------------------
MAX_TOP_MODULES = 12
SATELLITES = ("_pool_", "_paired_", "_cli_", "_compare_")


def test_top_level_is_small_and_has_no_satellites():
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules under bayes_prc/: {top}"
    satellites = [name for name in top if name.startswith(SATELLITES)]
    assert not satellites, f"move these into their concept's package: {satellites}"
    for name in LAYERS:  # every layer name is a top-level module or package
        assert (ROOT / f"{name}.py").is_file() or (ROOT / name / "__init__.py").is_file(), name


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _package(module):
    """The top-level folder (or module) of bayes_prc a module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def cross_package_private_imports():
    """``module <- target`` of every import of a private name or through a private module of
    another package (``from ..frequentist._design import x``, ``from ..empirical import _y``);
    within one package private names and modules are fine."""
    found = []
    for module, path in MODULES.items():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _import_target(package, node)
            if target.split(".")[0] != "bayes_prc":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                full = sub if sub in MODULES else target
                if _package(full) in ("", _package(module)):
                    continue
                through = [c for c in full.split(".")[2:] if _private(c)]
                if through or (full == target and _private(alias.name)):
                    found.append(f"{module} <- {target}")
                    break
    return found


def test_no_cross_package_private_import():
    found = cross_package_private_imports()
    assert not found, (
        "import another package's public names (its __init__), not its private names or "
        f"modules: {sorted(set(found))}"
    )


def test_private_import_checker_sees_one():
    src = "from ..frequentist._design import select_labels\n"
    (node,) = [n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ImportFrom)]
    target = _import_target("bayes_prc.pool", node)
    assert _package(target) != _package("bayes_prc.pool._plan")
    assert any(_private(c) for c in target.split(".")[2:])
