"""A one-line text progress indicator on stderr, shared by every long computation.

Used by the bootstrap engine, the coverage study, the labelling planner and the report's
figures; it has no dependency beyond numpy.
"""

from __future__ import annotations

import sys
import time

import numpy as np

__all__ = ["Progress", "check_progressbar"]


def check_progressbar(progressbar):
    """``progressbar`` must be True, False or None (None: on when stderr is a terminal)."""
    if progressbar is not None and not isinstance(progressbar, (bool, np.bool_)):
        raise ValueError(f"`progressbar` must be True, False or None; got {progressbar!r}")
    return progressbar


class Progress:
    """A one-line text progress indicator on stderr.

    ``enabled=None`` means: on when stderr is a terminal. Updates are throttled to ten per
    second; :meth:`close` ends the line.
    """

    def __init__(self, total, label, enabled):
        if enabled is None:
            isatty = getattr(sys.stderr, "isatty", None)
            enabled = bool(isatty()) if callable(isatty) else False
        self.enabled = bool(enabled) and total > 0
        self.total = total
        self.label = label
        self._last = -np.inf
        self._start = time.monotonic()

    def update(self, done):
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / self.total
        bar = "#" * int(20 * frac)
        sys.stderr.write(
            f"\r{self.label}: {done}/{self.total} [{bar:<20}] {100 * frac:3.0f}% "
            f"{now - self._start:.1f}s"
        )
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
