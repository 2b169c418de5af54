"""Griffe extension: render the reST bits of bayes_prc's numpydoc docstrings as Markdown.

The docstrings are numpydoc (parsed by griffe's numpy parser) but use a few Sphinx
constructs that Markdown does not know. Before rendering, this extension rewrites, in
every docstring of the package:

* roles ``:func:`x```, ``:class:`~a.b.C```, ``:meth:``, ``:mod:``, ``:data:``,
  ``:attr:``, ``:exc:``, ``:obj:`` -> inline code, linked through mkdocs-autorefs when
  the target is a documented bayes_prc object (optional references: an unresolved one
  is plain code, never a build warning);
* ``:math:`x``` -> ``$x$`` (joined onto one line) and ``.. math::`` blocks -> ``$$ ... $$``
  (pymdownx.arithmatex);
* the types of ``name : type`` lines -> without reST backticks (a type is shown as code);
* ``.. [1] reference`` -> a bullet ``[1] reference``;
* reST simple tables (``=====  =====`` borders) -> Markdown tables;
* reST definition lists (a term line, its description indented by four more spaces,
  which Markdown would show as a code block) -> bullets, outside the ``name : type``
  lines of the numpydoc sections and outside Examples;
* a paragraph ending in ``::`` (reST literal block marker) -> ``:``;
* "See Also" entries (``name, name : text``) -> bullets with links;
* the "Parameters" of a callable whose only parameters are ``*args``/``**kwargs`` (the
  keyword options of ``bayes_prc.scale.set_options``, documented as xarray documents
  ``xarray.set_options``) -> "Other Parameters", numpydoc's section for keyword options,
  which griffe does not check against the signature;
* a raw docstring whose type line is wrapped with a backslash (which leaves the
  continuation line unindented, so that nothing is dedented and no section is found)
  -> the two lines joined, then dedented.

It only changes what the documentation shows; the source files are not touched. Loaded
by ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import inspect
import re

import griffe

_ROLE = re.compile(r":(func|class|meth|mod|data|attr|exc|obj):`(~?)([^`<>]+?)`")
_MATH_ROLE = re.compile(r":math:`([^`]+)`")
_MATH_DIRECTIVE = re.compile(r"^(\s*)\.\. math::\s*(.*)$")
_FIELD_LINE = re.compile(r"^[*\w][\w, *]*\s:\s")
_FIELD_SECTIONS = {
    "parameters",
    "other parameters",
    "returns",
    "yields",
    "receives",
    "raises",
    "warns",
    "warnings",
    "attributes",
    "methods",
}
_CITATION = re.compile(r"^(\s*)\.\. \[(\w+)\]\s+(.*)$")
_TABLE_BORDER = re.compile(r"^(\s*)=+( +=+)+\s*$")
_EXTERNAL = ("numpy", "scipy", "xarray", "pandas", "arviz", "pymc", "matplotlib", "sklearn")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _convert_math_blocks(lines: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _MATH_DIRECTIVE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        pad = m.group(1)
        base = len(pad)
        i += 1
        if m.group(2).strip():  # ".. math:: expression" on one line
            out += [f"{pad}$$", pad + m.group(2).strip(), f"{pad}$$"]
            continue
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():  # the blank line after the block stays
            body.pop()
            i -= 1
        deeper = [_indent(ln) for ln in body if ln.strip()]
        cut = min(deeper) if deeper else 0
        # one $$ block per blank-separated equation group
        groups: list[list[str]] = [[]]
        for ln in body:
            if ln.strip():
                groups[-1].append(ln[cut:])
            elif groups[-1]:
                groups.append([])
        for g in groups:
            if g:
                out += [f"{pad}$$", *(pad + ln for ln in g), f"{pad}$$", ""]
        if out and not out[-1].strip():
            out.pop()
    return out


def _convert_citations(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        m = _CITATION.match(line)
        out.append(f"{m.group(1)}- [{m.group(2)}] {m.group(3)}" if m else line)
    return out


def _md_cell(text: str) -> str:
    return text.strip().replace("|", "\\|")


def _convert_tables(lines: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _TABLE_BORDER.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        border = lines[i]
        pad = m.group(1)
        spans = [(s.start(), s.end()) for s in re.finditer(r"=+", border)]
        borders = [i]
        j = i + 1
        while j < len(lines) and len(borders) < 3:
            if lines[j].strip() == border.strip() and _indent(lines[j]) == len(pad):
                borders.append(j)
                # a table without header ends at its second border
                if len(borders) == 2 and (j + 1 >= len(lines) or not lines[j + 1].strip()):
                    break
            elif not lines[j].strip():
                break
            j += 1
        if len(borders) < 2:  # not a table after all
            out.append(lines[i])
            i += 1
            continue

        def cells(line, spans=spans):
            starts = [a for a, _ in spans]
            ends = [*starts[1:], None]
            return [line[a:e] for a, e in zip(starts, ends, strict=True)]

        def rows(a, b):
            result: list[list[str]] = []
            for line in lines[a:b]:
                parts = cells(line)
                if result and not parts[0].strip():  # continuation of the previous row
                    for k, part in enumerate(parts):
                        if part.strip():
                            result[-1][k] = (result[-1][k] + " " + part.strip()).strip()
                else:
                    result.append([p.strip() for p in parts])
            return result

        if len(borders) == 3:
            header = rows(borders[0] + 1, borders[1])
            body = rows(borders[1] + 1, borders[2])
            head = [" ".join(col) for col in zip(*header, strict=True)] if header else []
            end = borders[2]
        else:
            head = [""] * len(spans)
            body = rows(borders[0] + 1, borders[1])
            end = borders[1]
        table = [
            pad + "| " + " | ".join(_md_cell(c) for c in head) + " |",
            pad + "|" + "---|" * len(spans),
            *(pad + "| " + " | ".join(_md_cell(c) for c in row) + " |" for row in body),
        ]
        if out and out[-1].strip():
            out.append("")
        out += table
        i = end + 1
    return out


def _sections(lines: list[str]) -> list[str]:
    """Name (lower case) of the numpydoc section each line is in ("" before the first)."""
    names, current = [], ""
    for k, line in enumerate(lines):
        nxt = lines[k + 1] if k + 1 < len(lines) else ""
        if line.strip() and not line.startswith(" ") and re.fullmatch(r"-{3,}", nxt.strip()):
            current = line.strip().lower()
        names.append(current)
    return names


def _convert_definition_lists(lines: list[str]) -> list[str]:
    sections = _sections(lines)
    out = list(lines)
    literal = None  # indentation of the paragraph introducing a "::" literal block
    for k, line in enumerate(lines[:-1]):
        nxt = lines[k + 1]
        if literal is not None and line.strip() and _indent(line) <= literal:
            literal = None
        if line.rstrip().endswith("::"):
            literal = _indent(line)
            continue
        if literal is not None:
            continue
        if not line.strip() or not nxt.strip() or sections[k] == "examples":
            continue
        depth = _indent(line)
        if depth == 0 and sections[k] in _FIELD_SECTIONS:
            continue  # "name : type" entries of numpydoc sections
        if _indent(nxt) != depth + 4 or re.fullmatch(r"[-=]{3,}", nxt.strip()):
            continue
        stripped = line.strip()
        if stripped.startswith(("- ", "* ", "$$", ">>>", "..")) or stripped.endswith(":"):
            continue
        prev = lines[k - 1] if k > 0 else ""
        if prev.strip() and _indent(prev) == depth and not _is_item_end(lines, k):
            continue  # a wrapped paragraph line, not a term
        colon = "" if stripped.endswith((":", ".", ",", ";")) else ":"
        out[k] = " " * depth + "- " + stripped + colon
    return out


def _is_item_end(lines: list[str], k: int) -> bool:
    """True if line ``k`` follows the (deeper) description of a previous term."""
    j = k - 1
    while j >= 0 and lines[j].strip() and _indent(lines[j]) > _indent(lines[k]):
        j -= 1
    return j < k - 1


class RestToMarkdown(griffe.Extension):
    """Rewrite the reST constructs of every docstring of the loaded package (see above)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        objects = list(_walk(pkg))
        index: dict[str, set[str]] = {}
        for obj in objects:
            index.setdefault(obj.name, set()).add(obj.path)
        index[""] = {obj.path for obj in objects} | {
            m.path for obj in objects for m in obj.members.values() if m.is_alias
        }
        for obj in objects:
            if obj.docstring is not None:
                obj.docstring.value = _convert(obj.docstring.value, obj, index)
                if _only_var_parameters(obj):
                    obj.docstring.value = re.sub(
                        r"^Parameters\n(-+)$",
                        lambda m: "Other Parameters\n" + "-" * 16,
                        obj.docstring.value,
                        flags=re.M,
                    )


def _only_var_parameters(obj) -> bool:
    """True for a function or class whose parameters (besides self) are *args/**kwargs."""
    if not (obj.is_function or obj.is_class):
        return False
    try:
        params = [p for p in obj.parameters if p.name not in ("self", "cls")]
    except (AttributeError, KeyError, ValueError):
        return False
    kinds = {str(p.kind.value) for p in params}
    return bool(params) and kinds <= {"variadic positional", "variadic keyword"}


def _walk(obj):
    yield obj
    for member in list(obj.members.values()):
        if not member.is_alias:
            yield from _walk(member)


def _resolve(target: str, obj, index) -> str | None:
    """Full path of a role target written relative to ``obj``, or None."""
    head, _, rest = target.partition(".")
    if head in _EXTERNAL:
        return None
    if head == "bayes_prc" and target in index[""]:
        return target
    node = obj
    while node is not None and head != "bayes_prc":
        member = node.members.get(head)
        if member is not None:
            base = member.target_path if member.is_alias else member.path
            return f"{base}.{rest}" if rest else base
        node = node.parent
    # lazily exported names (bayes_prc.fit_binormal) and names imported inside functions
    paths = index.get(target.rsplit(".", 1)[-1], set())
    if len(paths) == 1 and (head == "bayes_prc" or "." not in target):
        return next(iter(paths))
    return None


def _plain_type(line: str) -> str:
    """``name : type`` with the reST backticks of the type removed (it is shown as code)."""
    m = _FIELD_LINE.match(line)
    if not m:
        return line
    return line[: m.end()] + line[m.end() :].replace("``", "").replace("`", "")


def _join_backslash_lines(text: str) -> str:
    lines = text.split("\n")
    if not any(ln.endswith("\\") for ln in lines):
        return text
    out: list[str] = []
    for line in lines:
        prev = out[-1] if out else ""
        if prev.endswith("\\") and not prev.endswith("\\\\") and _indent(line) < _indent(prev):
            out[-1] = out[-1][:-1] + line.lstrip()
        else:
            out.append(line)
    return inspect.cleandoc("\n".join(out))


def _convert_see_also(lines: list[str], link) -> list[str]:
    sections = _sections(lines)
    out = list(lines)
    for k, line in enumerate(lines):
        if sections[k] != "see also" or not line.strip() or line.startswith(" "):
            continue
        if re.fullmatch(r"-{3,}", line.strip()) or line.strip().lower() == "see also":
            continue
        names, sep, desc = line.partition(" : ")
        if not sep and line.rstrip().endswith(" :"):
            names, desc = line.rstrip()[:-2], ""
        shown = ", ".join(link(n.strip()) for n in names.split(",") if n.strip())
        out[k] = f"- {shown}" + (f": {desc.strip()}" if desc.strip() else "")
    return out


def _convert(text: str, obj, index) -> str:
    text = _join_backslash_lines(text)

    def link(target, shown=None):
        shown = target if shown is None else shown
        path = _resolve(target, obj, index)
        if path is None:
            return f"`{shown}`"
        return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'

    def plain_role(m):
        _, tilde, target = m.groups()
        return target.strip().rsplit(".", 1)[-1] if tilde else target.strip()

    def role(m):
        kind, tilde, target = m.groups()
        target = target.strip()
        shown = target.rsplit(".", 1)[-1] if tilde else target
        return link(target, shown + ("()" if kind in ("func", "meth") else ""))

    lines = text.split("\n")
    sections = _sections(lines)
    lines = [
        _ROLE.sub(plain_role, ln)  # a type is shown as code: no HTML in it
        if sections[k] in _FIELD_SECTIONS and _FIELD_LINE.match(ln)
        else _ROLE.sub(role, ln)
        for k, ln in enumerate(lines)
    ]
    lines = [
        _plain_type(ln) if sections[k] in _FIELD_SECTIONS else ln for k, ln in enumerate(lines)
    ]
    # inline math on one line: a continuation line starting with "+" would be a list item
    text = _MATH_ROLE.sub(
        lambda m: "$" + re.sub(r"\s*\n\s*", " ", m.group(1).strip()) + "$", "\n".join(lines)
    )
    lines = text.split("\n")
    lines = _convert_math_blocks(lines)
    lines = _convert_citations(lines)
    lines = _convert_tables(lines)
    lines = _convert_definition_lists(lines)
    lines = _convert_see_also(lines, link)
    lines = [
        re.sub(r"(\S)::$", r"\1:", ln) if not ln.lstrip().startswith(">>>") else ln for ln in lines
    ]
    return "\n".join(lines)
