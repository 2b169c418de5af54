"""Issue 39 item 11: the documentation's commands and code run.

Every shell command of README.md and docs/*.md is found (fenced ``sh``/``bash``/
``console`` blocks and inline ```bayes-prc FILE ...``` commands):

- each ``bayes-prc`` command parses with the real argument parser, and runs on tiny CSVs
  written here (its columns, labels matching ``--pos-label``; the rows ``select`` wrote are
  labelled before the command that reads them). In CI the fast ones run (summary, select,
  errors) plus one report and the pool report; every report command runs in the ``slow``
  test;
- the other commands (studies of minutes to hours, installs, make targets) are checked to
  name a script, module or target that exists, with options the script defines;
- every ``python`` block compiles, and every ``bp.name`` / ``from bayes_prc... import
  name`` it uses exists; the ``slow`` test executes every block, one namespace per page.

docs/cli.md's option tables are checked against the parser: every option of every
subcommand is documented in its section, and no documented option is stale.
"""

import argparse
import ast
import doctest
import importlib
import importlib.util
import re
import shlex
import warnings
from pathlib import Path

import numpy as np
import pytest

from bayes_prc.cli import build_parser, main

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
SHELL = ("sh", "bash", "console", "shell")


def _blocks(page, languages):
    return [body for lang, body in FENCE.findall(page.read_text()) if lang in languages]


def _shell_lines(page):
    """Command lines of the page's shell blocks (continuations joined, comments dropped)."""
    out = []
    for body in _blocks(page, SHELL):
        for line in body.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            line = re.sub(r"\s+#.*$", "", line)
            if line and not line.startswith("#"):
                out.append(line)
    return out


def _cli_commands(page):
    """``bayes-prc`` commands of a page: shell lines, and inline spans naming a file."""
    found = [ln for ln in _shell_lines(page) if ln.startswith("bayes-prc ")]
    text = FENCE.sub("", page.read_text())
    for span in re.findall(r"`(bayes-prc [^`]+)`", text):
        placeholder = re.search(r"\b[A-Z]{3,}\b", span)  # FILE.csv --score COL: a synopsis
        if re.search(r"\s[\w/.-]+\.(csv|parquet)\b", span) and not placeholder:
            found.append(span)
    return found


def _expand(command):
    """A synopsis as one command: ``[--opt x]`` kept, ``a|b|c`` choices read as ``a``."""
    command = command.replace("[", " ").replace("]", " ")
    words = shlex.split(command)[1:]
    words = [w.split("|")[0] if "|" in w and not w.startswith("'") else w for w in words]
    return ["0" if w == "N" else w for w in words]  # `--seed N`: a number


ALL_CLI = [(p.name, c) for p in PAGES for c in _cli_commands(p)]


def test_docs_have_commands_to_check():
    assert len(ALL_CLI) >= 15
    assert any("--subgroup" in c for _, c in ALL_CLI)


@pytest.mark.parametrize(("page", "command"), ALL_CLI, ids=[f"{p}:{c[:40]}" for p, c in ALL_CLI])
def test_every_documented_command_parses(page, command):
    parser = build_parser()
    try:
        parser.parse_args(_expand(command))
    except SystemExit as stop:  # usage error (2); --version and --help exit 0
        assert stop.code == 0, f"{page}: `{command}` does not parse"


# --------------------------------------------------------------------------------------
# running the commands on tiny files
# --------------------------------------------------------------------------------------
def _option(words, name, default=None):
    return words[words.index(name) + 1] if name in words else default


def _write_inputs(words, folder, rng):
    """The tiny input file a command reads, with the columns it names."""
    if "--help" in words or "--version" in words or words[0] == "demo":
        return
    target = folder / words[1]
    if not target.resolve().is_relative_to(folder.resolve()):
        return  # a file of the repository (a bundled data set): read, never written
    if target in _WRITTEN_BY_COMMANDS or "--labels" in words:
        return  # what select wrote (labelled since)
    label = _option(words, "--label", "y")
    # every --score (compare repeats it; a comma list names several models)
    given = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--score"] or ["prob"]
    scores = [name for value in given for name in value.split(",")]
    score = scores[0]
    n = 80 if words[0] != "select" else int(_option(words, "--budget")) + 100
    y = rng.random(n) < 0.3
    y[:4] = [True, False, True, False]
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 1)))  # probabilities (--transform)
    cols = {score: [f"{v:.6f}" for v in s]}
    for other in scores[1:]:  # the other models: the same signal, other noise
        s2 = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.0 * y - 1)))
        cols[other] = [f"{v:.6f}" for v in s2]
    if words[0] != "select":
        pos = _option(words, "--pos-label")
        words_y = [(pos if v else "no") if pos else str(int(v)) for v in y]
        if "labelled_pool" in words[1]:  # a pool: a selection labelled, the rest empty
            keep = rng.random(n) < 0.5
            keep[:4] = True
            words_y = [w if k else "" for w, k in zip(words_y, keep, strict=True)]
            cols["inclusion_prob"] = ["0.5"] * n
        cols[label] = words_y
    for opt in ("--groups", "--subgroup"):
        if opt in words:
            cols[_option(words, opt)] = [f"g{i % 6}" for i in range(n)]
    if "--dask" in words:
        import pandas as pd

        target.mkdir(parents=True, exist_ok=True)
        pd.DataFrame({k: v for k, v in cols.items()}).astype({score: float}).to_parquet(
            target / "part.0.parquet"
        )
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = zip(*cols.values(), strict=True)
    target.write_text(",".join(cols) + "\n" + "".join(",".join(r) + "\n" for r in rows))


def _label_selection(path, column, rng):
    """Fill the label column of the rows ``select`` wrote (as the docs ask the user to)."""
    lines = path.read_text().splitlines()
    head = lines[0].split(",")
    j = head.index(column)
    out = [lines[0]]
    for i, line in enumerate(lines[1:]):
        cells = line.split(",")
        cells[j] = str(int(i % 3 == 0 or rng.random() < 0.3))
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n")


def _run(words, folder, rng, monkeypatch, capsys):
    words = [str(REPO / w) if w.startswith("bayes_prc/datasets/") else w for w in words]
    _write_inputs(words, folder, rng)
    monkeypatch.chdir(folder)
    if words[0] == "select" and (folder / _option(words, "-o")).exists():
        words = [*words, "--force"]  # a page showing the same command twice
    if words[0] in ("report", "demo", "compare"):
        words = [*words, *(["--force"] if "--force" not in words else []), "-q"]
        words += ["--n-resamples", "100"] if "--labels" not in words else []
    try:
        code = main(words)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 0, f"bayes-prc {' '.join(words)}: exit {code}: {err}"
    if words[0] == "select":
        _label_selection(folder / _option(words, "-o"), "label", rng)
        _WRITTEN_BY_COMMANDS.add(folder / _option(words, "-o"))


_WRITTEN_BY_COMMANDS = set()


def _is_fast(words):
    return words[0] in ("summary", "select", "compare") or "--version" in words


def _page_commands(fast):
    """``(page, commands)`` of the pages with commands (with a fast one, for ``fast``)."""
    out = []
    for page in PAGES:
        cmds = [_expand(c) for c in _cli_commands(page)]
        if cmds and (not fast or any(_is_fast(w) for w in cmds)):
            out.append((page.name, cmds))
    return out


@pytest.mark.parametrize(("page", "commands"), _page_commands(True), ids=lambda v: str(v)[:20])
def test_fast_documented_commands_run(page, commands, tmp_path, rng, monkeypatch, capsys):
    """summary and select commands run as written, in the page's order; in CI also the
    first report of the README and the pool report that follows its select."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings are the subject of another test
        for words in commands:
            if "--version" in words or "--help" in words:
                continue
            pool_report = "--labels" in words and page == "README.md"
            if _is_fast(words) or pool_report:
                _run(words, tmp_path, rng, monkeypatch, capsys)


@pytest.mark.slow
@pytest.mark.parametrize(("page", "commands"), _page_commands(False), ids=lambda v: str(v)[:20])
def test_every_documented_command_runs(page, commands, tmp_path, rng, monkeypatch, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for words in commands:
            if "--version" in words or "--help" in words:
                continue
            _run(words, tmp_path, rng, monkeypatch, capsys)


def test_one_documented_report_runs(tmp_path, rng, monkeypatch, capsys):
    """The README's report command (the main CSV workflow), on a tiny file, in CI."""
    words = next(_expand(c) for p, c in ALL_CLI if p == "README.md" and " report " in c)
    _run(words, tmp_path, rng, monkeypatch, capsys)
    assert (tmp_path / _option(words, "-o")).is_file()


# --------------------------------------------------------------------------------------
# the other shell commands: what they name exists
# --------------------------------------------------------------------------------------
OTHER = [(p.name, ln) for p in PAGES for ln in _shell_lines(p) if not ln.startswith("bayes-prc")]


@pytest.mark.parametrize(("page", "line"), OTHER, ids=[f"{p}:{c[:40]}" for p, c in OTHER])
def test_other_commands_name_what_exists(page, line):
    words = shlex.split(line.replace(";", " ; "))
    if words[0] == "make":
        assert re.search(rf"^{words[1]}:", (REPO / "Makefile").read_text(), re.M), line
    elif "-m" in words and "bayes_prc.simulate" in words:  # a study of minutes
        source = (REPO / "bayes_prc" / "simulate.py").read_text()
        for opt in (w for w in words if w.startswith("--")):
            assert f'"{opt}"' in source, f"{page}: bayes_prc.simulate has no option {opt}"
    elif any(w.endswith(".py") and "/" in w for w in words):
        script = next(w for w in words if w.endswith(".py") and "/" in w)
        if "*" in script:
            assert list(REPO.glob(script)), line
            return
        source = (REPO / script).read_text()
        for opt in (w for w in words if w.startswith("--")):
            assert f'"{opt}"' in source, f"{page}: {script} has no option {opt}"
    elif words[0] in ("pip", ".venv/bin/pip", ".venv/bin/mkdocs", "done", "for"):
        return  # installs (the environment has them); mkdocs: tests/test_docs.py
    elif words[0].startswith("BAYES_PRC_TEST_SEED="):
        assert "BAYES_PRC_TEST_SEED" in (REPO / "tests" / "conftest.py").read_text()
    else:
        pytest.fail(f"{page}: no check for the command `{line}`: add one here")


# --------------------------------------------------------------------------------------
# python blocks
# --------------------------------------------------------------------------------------
PY = [(p, i, b) for p in PAGES for i, b in enumerate(_blocks(p, ("python",)))]


def _source(block):
    """The block's code; a doctest-style block (``>>>``) gives its examples' source."""
    if block.lstrip().startswith(">>>"):
        return "".join(ex.source for ex in doctest.DocTestParser().get_examples(block))
    return block


@pytest.mark.parametrize(("page", "i", "block"), PY, ids=[f"{p.name}:{i}" for p, i, _ in PY])
def test_python_blocks_compile_and_name_what_exists(page, i, block):
    import bayes_prc as bp

    tree = ast.parse(_source(block), f"{page.name}[{i}]")
    where = f"{page.name} block {i}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "bp":
            assert hasattr(bp, node.attr), f"{where}: bp.{node.attr} does not exist"
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bayes_prc"):
            module = importlib.import_module(node.module)
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                ok = hasattr(module, alias.name) or importlib.util.find_spec(full) is not None
                assert ok, f"{where}: {full} does not exist"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bayes_prc"):
                    importlib.import_module(alias.name)


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted({p for p, _, _ in PY}), ids=lambda p: p.name)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    """Every block of the page, in order, in one namespace (as a reader runs them);
    doctest-style blocks are run as doctests (their printed output checked); a block
    whose first line is ``# not run`` (it says why) is only compiled."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for i, block in enumerate(_blocks(page, ("python",))):
        name = f"{page.name}[{i}]"
        if block.lstrip().startswith("# not run"):
            continue  # marked in the page (e.g. starts a cluster); compiled above
        if block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, name, name, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, clear_globs=False)
            assert runner.failures == 0, f"{name}: the doctest output differs"
            continue
        try:
            exec(compile(block, name, "exec"), namespace)
        except Exception as err:  # noqa: BLE001 - reported with the block
            pytest.fail(f"{name}: {type(err).__name__}: {err}")


# --------------------------------------------------------------------------------------
# docs/cli.md's option tables and the parser
# --------------------------------------------------------------------------------------
def _sections():
    text = (REPO / "docs" / "cli.md").read_text()
    parts = re.split(r"^## `bayes-prc (\w+)`.*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _parser_options():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: {o for a in p._actions for o in a.option_strings if o not in ("-h", "--help")}
        for name, p in sub.choices.items()
    }


def test_cli_doc_lists_every_option_of_every_subcommand():
    sections, options = _sections(), _parser_options()
    assert set(sections) == set(options), "one section per subcommand"
    for name, opts in options.items():
        mentioned = set(re.findall(r"`[^`]*?(--?[\w-]+)", sections[name]))
        mentioned |= {m for m in re.findall(r"(--?[a-z][\w-]*)", sections[name])}
        missing = {o for o in opts if o not in mentioned}
        assert not missing, f"docs/cli.md, `bayes-prc {name}`: undocumented {sorted(missing)}"


def test_cli_doc_tables_list_no_stale_option():
    sections, options = _sections(), _parser_options()
    for name, text in sections.items():
        for row in re.findall(r"^\| (`[^|]*`) \|", text, flags=re.M):
            for opt in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", row):
                known = options[name] | {"--no-progress"}
                assert opt in known, f"docs/cli.md, `bayes-prc {name}` table: stale {opt}"
