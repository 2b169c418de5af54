"""Progress on stderr, shared by every long computation: bars and step lines.

:class:`Progress` is a one-line bar (the bootstrap engine, the coverage study, the
labelling planner, the report's figures), on a terminal by default. :class:`Steps`
writes one line per step of a long job (``bayes-prc: fitting the model ... done
(3.2 s)``), whether or not stderr is a terminal: the command line's progress for logs
and pipelines. No dependency beyond numpy.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

import numpy as np

from .validation import plain

__all__ = ["Progress", "Steps", "check_progressbar"]

# the step whose line is open on stderr (written up to "... "), if any: a progress bar
# that starts meanwhile ends that line first, and the step then writes its own again
_OPEN_STEP = []


def check_progressbar(progressbar):
    """``progressbar`` must be True, False or None (None: on when stderr is a terminal)."""
    if progressbar is not None and not isinstance(progressbar, (bool, np.bool_)):
        raise ValueError(f"`progressbar` must be True, False or None; got {plain(progressbar)}")
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
        _break_open_step()
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


def _break_open_step():
    """End an open step line (the bar takes the next one)."""
    if _OPEN_STEP and not _OPEN_STEP[-1].broken:
        _OPEN_STEP[-1].broken = True
        sys.stderr.write("\n")


class Steps:
    """One line per step on stderr: ``"<prefix>: <what> ... done (3.2 s)"``.

    Parameters
    ----------
    enabled : bool
        Write the lines (False: silent). Unlike :class:`Progress` it does not depend on
        stderr being a terminal: one line per step suits logs too.
    prefix : str, default "bayes-prc"

    Examples
    --------
    >>> from bayes_prc._core.progress import Steps
    >>> steps = Steps(False)
    >>> with steps.step("fitting the model"):
    ...     pass
    """

    def __init__(self, enabled, prefix="bayes-prc"):
        self.enabled = bool(enabled)
        self.prefix = prefix
        self.broken = False

    @contextmanager
    def step(self, what):
        """Write ``what ...`` now and ``done (t s)`` (or ``failed``) when the block ends."""
        if not self.enabled:
            yield
            return
        start = time.monotonic()
        self.broken = False
        _break_open_step()  # a step inside another: the outer line ends here
        sys.stderr.write(f"{self.prefix}: {what} ... ")
        sys.stderr.flush()
        _OPEN_STEP.append(self)
        outcome = "failed"
        try:
            yield
            outcome = f"done ({time.monotonic() - start:.1f} s)"
        finally:
            _OPEN_STEP.remove(self)
            head = f"{self.prefix}: {what} ... " if self.broken else ""
            sys.stderr.write(f"{head}{outcome}\n")
            sys.stderr.flush()
