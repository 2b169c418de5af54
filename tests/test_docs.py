"""The documentation builds with ``mkdocs build --strict``: every warning is an error.

The strict build catches broken links and anchors, pages missing from the nav, API
reference entries that do not resolve and docstrings griffe cannot parse. It needs the
``docs`` extra (mkdocs, mkdocs-material, mkdocstrings[python]); without it the tests are
skipped.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml")]
        + ["-d", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=out,  # the configuration must not depend on the working directory
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert res.returncode == 0, res.stdout + res.stderr
    return out


def test_strict_build(site):
    assert (site / "index.html").is_file()
    assert (site / "api" / "empirical" / "index.html").is_file()
    assert not (site / "_griffe").exists()  # the griffe extension is not published


def _text(html_file):
    return html_file.read_text(encoding="utf-8")


def test_api_reference_rendered(site):
    html = _text(site / "api" / "bayes" / "index.html")
    for name in ("fit_binormal", "BinormalPosterior.pr_band", "fit_binormal_ovr"):
        assert f'id="bayes_prc.bayes.{name}"' in html, name
    for page in (site / "api").glob("*/index.html"):
        text = _text(page)
        # the reST of the docstrings is turned into Markdown (docs/_griffe/rst_to_markdown.py)
        assert not re.search(r":(func|class|meth|mod|data|math):`", text), page
        assert ".. math::" not in text and "<autoref" not in text, page


def test_seed_figures_page_shows_every_example(site):
    page = (DOCS / "seed-figures.md").read_text(encoding="utf-8")
    scripts = sorted(p.stem for p in (REPO / "examples").glob("seed*.py"))
    total = 0
    for stem in scripts:
        assert f"img/examples/{stem}.png" in page
        png = DOCS / "img" / "examples" / f"{stem}.png"
        assert png.is_file()
        total += png.stat().st_size
    assert total < 1_500_000
    assert (site / "img" / "examples" / f"{scripts[0]}.png").is_file()


def _python_blocks(page):
    """The ```python blocks of a guide page, in order."""
    text = page.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


GUIDE_PAGES = sorted(p for p in DOCS.glob("*.md") if _python_blocks(p))


@pytest.mark.parametrize("page", GUIDE_PAGES, ids=lambda p: p.stem)
def test_guide_code_runs(page, tmp_path, monkeypatch):
    """Each page's Python blocks run in order in one namespace (doctest blocks are checked).

    A block whose text contains "# not run" (a NUTS fit of minutes) is left out.
    """
    import doctest

    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)  # a snippet that writes a file writes it here
    namespace = {"__name__": f"docs_{page.stem}"}
    for block in _python_blocks(page):
        if "# not run" in block:
            continue
        if block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, page.name, str(page), 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test)
            assert runner.failures == 0, f"{page.name}: a doctest block fails"
        else:
            exec(compile(block, str(page), "exec"), namespace)


def test_site_works_offline(site):
    """No remote script, stylesheet or font; the math is MathML made at build time."""
    remote = re.compile(r'<(script|link)\b[^>]*(src|href)="(https?:)?//', re.I)
    for page in site.rglob("*.html"):
        text = _text(page)
        assert not remote.search(text), f"{page} loads a remote resource"
    for page in ("bayesian", "estimators", "api/binormal"):
        text = _text(site / page / "index.html")
        assert "<math" in text, page
        prose = re.sub(r"<(pre|code)\b.*?</\1>", "", text, flags=re.S)
        assert not re.search(r"\$[^$<\s][^$<]*\$", prose), f"TeX left in {page}"


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    """The README's quick start runs as written, block after block in one namespace."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", readme, flags=re.S | re.M)
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)  # the report is written here
    namespace = {}
    for code in blocks:
        exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102
    assert (tmp_path / "report.html").is_file()
