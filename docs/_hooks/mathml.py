"""mkdocs hook: TeX math (``$...$`` and ``$$...$$``) to MathML at build time.

Browsers render MathML natively, so the site needs no script and no network to show
the formulas. In the guide pages the math is swapped for placeholders before Markdown
runs (so Markdown never touches it) and for the MathML after (``latex2mathml``). The API
pages' math comes from the docstrings (``:math:`` turned into ``$...$`` by
``docs/_griffe``) inside mkdocstrings' HTML: it is converted in the final HTML, outside
``<pre>`` and ``<code>``. Code is left alone; ``\\$`` is a literal dollar.
"""

from __future__ import annotations

import html as _html
import re

from latex2mathml.converter import convert

_CODE = re.compile(r"(^(?P<fence>```|~~~).*?^(?P=fence)[ \t]*$|`[^`\n]+`)", re.M | re.S)
_BLOCK = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\$)")
_TOKEN = "bayesprcmath{}x"

_store: dict[str, str] = {}


def _mathml(tex, display):
    html = convert(tex.strip(), display="block" if display else "inline")
    return html.replace("|", "&#124;")  # safe inside Markdown tables


def _swap(text):
    def keep(html):
        token = _TOKEN.format(len(_store))
        _store[token] = html
        return token

    text = _BLOCK.sub(lambda m: "\n\n" + keep(_mathml(m.group(1), True)) + "\n\n", text)
    return _INLINE.sub(lambda m: keep(_mathml(m.group(1), False)), text)


def on_page_markdown(markdown, page, config, files):
    parts, last = [], 0
    for m in _CODE.finditer(markdown):
        parts.append(_swap(markdown[last : m.start()]))
        parts.append(m.group(0))
        last = m.end()
    parts.append(_swap(markdown[last:]))
    return "".join(parts)


_HTML_CODE = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>)", re.S)
_HTML_BLOCK = re.compile(r"\$\$(.+?)\$\$", re.S)
_HTML_INLINE = re.compile(r"(?<![\\$])\$(?!\s)([^$\n<]+?)(?<!\s)\$(?!\$)")


def _html_math(text):
    text = _HTML_BLOCK.sub(lambda m: _mathml(_html.unescape(m.group(1)), True), text)
    return _HTML_INLINE.sub(lambda m: _mathml(_html.unescape(m.group(1)), False), text)


def on_page_content(html, page, config, files):
    if "bayesprcmath" in html:
        html = re.sub(r"<p>\s*(bayesprcmath\d+x)\s*</p>", r"\1", html)
        html = re.sub(r"bayesprcmath\d+x", lambda m: _store[m.group(0)], html)
    if "$" not in html:
        return html
    parts, last = [], 0
    for m in _HTML_CODE.finditer(html):
        parts.append(_html_math(html[last : m.start()]))
        parts.append(m.group(0))
        last = m.end()
    parts.append(_html_math(html[last:]))
    return "".join(parts)
