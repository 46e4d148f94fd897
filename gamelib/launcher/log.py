"""The launcher's log: one line per message on stderr (the journal under systemd), except while
the terminal backend owns the screen.

Lines written to the terminal then would land on the board and stay there, so
meanwhile they go to a file under the XDG state directory
(``$XDG_STATE_HOME/gamelib/gamelib.log``, by default
``~/.local/state/gamelib/gamelib.log``; at most 256 KiB, and one older file
``gamelib.log.1``), and once the terminal is given back they are shown on
stderr, as they would have been, followed by one line saying where the file is.
"""
from __future__ import annotations

import collections
import logging
import logging.handlers
import sys
from pathlib import Path
from types import TracebackType
from typing import Deque, List, Mapping, Optional, Type

from ..files import state_home
from . import PROG

FORMAT = "{prog}: %(levelname)s: %(message)s"
"""A log line, once ``{prog}`` is filled in (``gamelib``, or a game run by itself)."""
FILE_NAME = "gamelib.log"
MAX_BYTES = 256 * 1024
SHOWN = 100
"""At most this many of the lines logged while the board was shown are shown after it."""


def log_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_STATE_HOME/gamelib/gamelib.log``, else under ``~/.local/state``."""
    return state_home(environ) / "gamelib" / FILE_NAME


class _Kept(logging.Handler):
    """Keeps the last :data:`SHOWN` formatted records, and counts the ones dropped."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: Deque[str] = collections.deque(maxlen=SHOWN)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
        self.count += 1


class LauncherLog:
    """The root logger's output for one run of the launcher: use as a context manager, and call
    :meth:`aside` once the terminal backend owns the screen."""

    def __init__(self, level: str, path: Optional[Path] = None, *, prog: str = PROG) -> None:
        self.level = level.upper()
        self.path = path or log_path()
        self.prog = prog
        """The program that logs (a game run by itself names its own, with its own ``path``)."""
        self._format = FORMAT.format(prog=prog)
        self._stderr = logging.StreamHandler(sys.stderr)
        self._stderr.setFormatter(logging.Formatter(self._format))
        self._aside: List[logging.Handler] = []
        self._kept: Optional[_Kept] = None
        self._file_error: Optional[str] = None

    def __enter__(self) -> "LauncherLog":
        root = logging.getLogger()
        root.addHandler(self._stderr)
        root.setLevel(self.level)
        return self

    def aside(self) -> None:
        """From now on, log to the file (and keep the lines to show after), not to stderr."""
        root = logging.getLogger()
        self._kept = _Kept()
        self._kept.setFormatter(logging.Formatter(self._format))
        self._aside = [self._kept]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            to_file = logging.handlers.RotatingFileHandler(self.path, maxBytes=MAX_BYTES, backupCount=1,
                                                           encoding="utf-8")
        except OSError as exc:
            self._file_error = exc.strerror or str(exc)
        else:
            to_file.setFormatter(logging.Formatter(f"%(asctime)s {self._format}"))
            self._aside.append(to_file)
        root.removeHandler(self._stderr)
        for handler in self._aside:
            root.addHandler(handler)

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        root = logging.getLogger()
        for handler in [self._stderr, *self._aside]:
            root.removeHandler(handler)
            handler.close()
        kept = self._kept
        if kept is None or kept.count == 0:
            return
        dropped = kept.count - len(kept.lines)
        where = (f"also in {self.path}" if self._file_error is None else
                 f"not kept: cannot write {self.path} ({self._file_error})")
        if dropped:
            fate = f"are in {self.path}" if self._file_error is None else "were not kept"
            print(f"{self.prog}: {dropped} earlier line(s) logged while the board was shown {fate}", file=sys.stderr)
        for line in kept.lines:
            print(line, file=sys.stderr)
        print(f"{self.prog}: the lines above were logged while the board filled the terminal ({where})",
              file=sys.stderr, flush=True)
