"""Rich display of the result objects in notebooks: ``_repr_html_`` as a small table.

numpy only. :class:`HTMLReprMixin` gives a frozen dataclass result (interval results,
fit checks, label selections, comparisons) a two-column HTML table of its scalar fields,
numbers with 4 significant digits; arrays are summarized by their shape. Jupyter calls
``_repr_html_`` when a cell ends with the object.
"""

from __future__ import annotations

import dataclasses
import html
import numbers

import numpy as np

__all__ = ["HTMLReprMixin", "format_value", "html_table"]


def format_value(value):
    """A short display string: 4 significant digits for numbers, shapes for arrays."""
    if value is None:
        return "None"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        return f"{v:.4g}" if np.isfinite(v) else str(v)
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape}"
    if isinstance(value, (tuple, list)) and all(isinstance(v, numbers.Real) for v in value):
        return "(" + ", ".join(format_value(v) for v in value) + ")"
    text = str(value)
    return text if len(text) <= 120 else text[:117] + "..."


def html_table(title, rows, *, caption=None):
    """A two-column HTML table: ``title`` as its header, ``rows`` of (name, value)."""
    body = "".join(
        f'<tr><th style="text-align:left">{html.escape(str(k))}</th>'
        f'<td style="text-align:left">{html.escape(format_value(v))}</td></tr>'
        for k, v in rows
    )
    cap = "" if caption is None else f"<caption>{html.escape(caption)}</caption>"
    return (
        f'<table><thead><tr><th colspan="2" style="text-align:left">{html.escape(title)}'
        f"</th></tr></thead>{cap}<tbody>{body}</tbody></table>"
    )


class HTMLReprMixin:
    """``_repr_html_`` for a dataclass: its non-array, non-None fields in a table.

    A class may set ``_html_caption`` (a method returning a sentence, or None) to show a
    caption, e.g. the verdict of a check.
    """

    def _html_rows(self):
        rows = []
        for f in dataclasses.fields(self):
            if f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if value is None or isinstance(value, np.ndarray) or callable(value):
                continue
            if hasattr(value, "_repr_html_") and not isinstance(value, numbers.Number):
                continue  # nested rich objects (a fit check inside a comparison)
            rows.append((f.name, value))
        return rows

    def _html_caption(self):
        return None

    def _repr_html_(self):
        return html_table(type(self).__name__, self._html_rows(), caption=self._html_caption())
