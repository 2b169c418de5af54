"""How much of a concept lives in its folder, and how much logic an ``__init__`` holds.

Usage::

    python benchmarks/concept_lines.py paired
    python benchmarks/concept_lines.py --logic bayes_prc/paired/__init__.py bayes_prc/compare/__init__.py

A concept's package lines are every line (``wc -l``) of the modules of its folder plus the
modules of other folders that hold its code (``OUTSIDE``: presentation, the Displays and
the report, is not counted, as it stays in ``plotting/`` and ``_report/``). The share is
folder lines / all of them. The logic lines of a module are the non-blank, non-comment
lines of its top-level statements other than imports, the docstring and ``__all__``.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "bayes_prc"

#: Modules outside each concept's folder that hold its code (paths under bayes_prc/).
OUTSIDE = {
    # McNemar's test stays a public name of bayes_prc.frequentist (its __all__ and docs)
    "paired": ["frequentist/_mcnemar.py"],
}


def _lines(path):
    return len(Path(path).read_text().splitlines())


def share(concept):
    inside = sum(_lines(p) for p in sorted((ROOT / concept).glob("*.py")))
    outside = sum(_lines(ROOT / p) for p in OUTSIDE.get(concept, []))
    return inside, outside, inside / (inside + outside)


def logic_lines(path):
    src = Path(path).read_text()
    text = src.splitlines()
    keep = set()
    for i, node in enumerate(ast.parse(src).body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", "") == "__all__" for t in node.targets
        ):
            continue
        keep.update(range(node.lineno, node.end_lineno + 1))
    return sum(1 for k in keep if text[k - 1].strip() and not text[k - 1].lstrip().startswith("#"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("concepts", nargs="*")
    parser.add_argument("--logic", nargs="*", default=[], help="modules to count logic lines of")
    args = parser.parse_args(argv)
    for concept in args.concepts:
        inside, outside, frac = share(concept)
        print(
            f"{concept}: {inside} lines in {concept}/, {outside} outside: {frac:.1%} in its folder"
        )
    for path in args.logic:
        print(f"{path}: {_lines(path)} lines, {logic_lines(path)} logic lines")


if __name__ == "__main__":
    main()
