"""The pool comparison table: the comparison tables' DataFrame of :mod:`bayes_prc.compare`.

One table type for every table of methods; ``PoolIntervalTable`` is its name here.
"""

from __future__ import annotations

from ..compare import IntervalTable as PoolIntervalTable

__all__ = ["PoolIntervalTable"]
