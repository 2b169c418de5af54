"""Rich display of the result objects in notebooks: ``_repr_html_`` as a small table.

numpy only. :class:`HTMLReprMixin` gives a frozen dataclass result (interval results,
fit checks, label selections, comparisons) a two-column HTML table of its scalar fields
and a one-line ``repr``, numbers with 4 significant digits; arrays are summarized by
their shape. :class:`RecommendationTableMixin` gives a pandas DataFrame subclass (the
comparison tables) a caption with its recommendation. Jupyter calls ``_repr_html_``
when a cell ends with the object.
"""

from __future__ import annotations

import dataclasses
import html
import numbers

import numpy as np

__all__ = ["HTMLReprMixin", "RecommendationTableMixin", "format_value", "html_table"]


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
    if isinstance(value, dict) and all(isinstance(v, numbers.Real) for v in value.values()):
        return "{" + ", ".join(f"{k!r}: {format_value(v)}" for k, v in value.items()) + "}"
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
        f'<table>{cap}<thead><tr><th colspan="2" style="text-align:left">{html.escape(title)}'
        f"</th></tr></thead><tbody>{body}</tbody></table>"
    )


class HTMLReprMixin:
    """``_repr_html_`` and a readable ``repr`` for a dataclass result.

    The HTML is a table of the non-array, non-None fields; the ``repr`` is one line,
    ``Name(field=value, ...)``, with numbers to 4 significant digits, arrays as their
    shape and None fields left out (the values themselves are on the attributes).
    A class may set ``_html_caption`` (a method returning a sentence, or None) to show a
    caption, e.g. the verdict of a check.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # @dataclass adds its own __repr__ unless the class body has one: give every
        # subclass the readable one (a class that writes its own keeps it)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = HTMLReprMixin._readable_repr

    def _readable_repr(self):
        parts = []
        for f in dataclasses.fields(self):
            if not f.repr or f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if value is None:
                continue
            shown = repr(value) if isinstance(value, str) else format_value(value)
            parts.append(f"{f.name}={shown}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _html_rows(self):
        rows = []
        for f in dataclasses.fields(self):
            if f.name.startswith("_") or not f.repr:  # as the dataclass's repr
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


def _fmt4(value):
    return f"{value:.4g}"


class RecommendationTableMixin:
    """Display of a comparison table (a pandas DataFrame subclass) with its recommendation.

    ``attrs["recommended"]`` (a row of the index) and ``attrs["recommendation"]`` (why)
    become a caption above the table in notebooks (``_repr_html_``) and a line under it
    in text (``repr``); numbers are shown to 4 significant digits. The data are not
    changed: the values, rows and columns are the DataFrame's. A table whose recommended
    row was filtered out shows no caption. pandas operations return tables of the same
    subclass; ``of`` makes one from a plain frame, keeping its ``attrs``.
    """

    @property
    def _constructor(self):
        return type(self)

    @classmethod
    def of(cls, frame):
        """``frame`` (a DataFrame with the table's attrs) as a table of this class."""
        table = cls(frame)
        table.attrs = frame.attrs
        return table

    def _recommendation_text(self):
        rec = self.attrs.get("recommended")
        if rec is None or rec not in self.index:
            return None
        label = self.loc[rec, "label"] if "label" in self.columns else None
        name = f"{label} ({rec})" if isinstance(label, str) and label != rec else str(rec)
        why = self.attrs.get("recommendation")
        return f"Recommended: {name}." + (f" {why}" if why else "")

    def _repr_html_(self):
        table = self.to_html(float_format=_fmt4, max_rows=60, max_cols=20)
        text = self._recommendation_text()
        if text is None:
            return table
        caption = (
            f'<caption style="caption-side: top; text-align: left">{html.escape(text)}</caption>'
        )
        start = table.index(">", table.index("<table")) + 1
        return table[:start] + caption + table[start:]

    def __repr__(self):
        table = self.to_string(float_format=_fmt4, max_rows=60, max_cols=20)
        text = self._recommendation_text()
        return table if text is None else f"{table}\n{text}"

    def to_xarray(self):
        """The table as an :class:`xarray.Dataset`, its ``method`` index as dim ``row``.

        pandas would name the dimension after the index, ``method``, which is also
        ``Dataset.sel``'s own keyword (``ds.sel(method="logit")`` silently selects
        nothing). The dimension is ``row``; ``method`` stays an indexed coordinate
        along it, so ``ds.sel(row="logit")`` and ``ds.sel({"method": "logit"})`` both
        select the row. Other index levels keep their names.
        """
        ds = super().to_xarray()
        if "method" not in ds.dims:
            return ds
        ds = ds.rename({"method": "row"})
        return ds.assign_coords(method=("row", ds["row"].values)).set_xindex("method")
