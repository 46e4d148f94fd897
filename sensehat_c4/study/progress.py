"""A progress line on a terminal: redrawn in place, erased when the work is done.

``analyse --solve`` can take a minute on the Python core, ``review`` longer; silence would
look like a hang, so :class:`ProgressLine` shows how far the work is on standard error when
that is a terminal (the columns done and the positions searched, or the move reviewed).
"""
from __future__ import annotations

import time
from typing import Callable, Optional, TextIO

from ..i18n import _

ERASE = "\r\x1b[K"
"""Back to the start of the line, and clear it."""


class ProgressLine:
    """``line(done, total, nodes)`` shows ``solving: done/total columns, N positions`` in place.

    Only if ``stream`` is a terminal (elsewhere it writes nothing).  A new column is shown
    at once, node counts at most every ``every`` seconds.  :meth:`close` (or leaving the
    ``with`` block) erases the line.
    """

    def __init__(self, stream: TextIO, *, every: float = 0.1, clock: Callable[[], float] = time.monotonic,
                 text: Optional[Callable[[int, int, int], str]] = None) -> None:
        self.stream = stream
        self.text = text or (lambda done, total, nodes: _("solving: {done}/{total} columns, {nodes:,} "
                                                          "positions").format(done=done, total=total, nodes=nodes))
        """``(done, total, nodes) -> the line`` (default: the solver's columns and positions)."""
        self.enabled = stream.isatty()
        self.every = every
        self.clock = clock
        self._shown = False
        self._done = -1
        self._at = 0.0

    def __call__(self, done: int, total: int, nodes: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if done == self._done and now - self._at < self.every:
            return
        self._done, self._at = done, now
        self._shown = True  # first: a signal during the write still leaves it to be erased
        self._write(ERASE + self.text(done, total, nodes))

    def close(self) -> None:
        """Erase the line, if anything was shown.

        Twice if need be: the first signal of Ctrl+C, SIGTERM or SIGHUP raises in whatever runs
        (:func:`gamelib.app.run`), this erase too, and the ones after it are ignored, so the
        second erase runs whole.
        """
        try:
            self._erase()
        finally:
            self._erase()

    def _erase(self) -> None:
        if self._shown:
            self._write(ERASE)
            self._shown = False

    def _write(self, text: str) -> None:
        """Write and flush; a terminal that has gone (EIO after a hang-up) ends the line for good."""
        if not self.enabled:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False

    def __enter__(self) -> "ProgressLine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
