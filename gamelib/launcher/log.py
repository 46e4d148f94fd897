"""The launcher's log: one line per message on stderr (the journal under systemd), except while
the terminal backend owns the screen.

Lines written to the terminal then would land on the board and stay there, so
meanwhile they go to a file under the XDG state directory
(``$XDG_STATE_HOME/gamelib/gamelib.log``, by default
``~/.local/state/gamelib/gamelib.log``; at most 256 KiB, and one older file
``gamelib.log.1``), and once the terminal is given back they are shown on
stderr, as they would have been, followed by one line saying where the file is.

The file may fail (a full disk, a directory that cannot be made, a FIFO nobody
reads): logging goes on without it, nothing is drawn over the board (no
"--- Logging error ---"), and the line after says it was not kept, and why.
Neither play nor the exit code changes.
"""
from __future__ import annotations

import collections
import contextlib
import io
import logging
import logging.handlers
import os
import sys
from pathlib import Path
from types import TracebackType
from typing import Deque, List, Mapping, Optional, Type

from ..app import one_line
from ..files import state_home
from ..i18n import _, ngettext
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


class OneLine(logging.Formatter):
    """A log line whose message is one line, control characters escaped (a path or a name with a
    newline or an escape sequence cannot split it or reach the terminal); a traceback logged with
    it follows on the lines after, as usual."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        return one_line(super().formatMessage(record))


def _why(error: BaseException) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error) or type(error).__name__


class _Kept(logging.Handler):
    """Keeps the last :data:`SHOWN` formatted records, and counts the ones dropped."""

    def __init__(self, prog: str = PROG) -> None:
        super().__init__()
        self.prog = prog
        self.lines: Deque[str] = collections.deque(maxlen=SHOWN)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
        except Exception as exc:  # noqa: BLE001 (a bad logging call: say so after, not over the board)
            line = self.prog + ": " + _("a line could not be logged ({error}): {line}").format(
                error=f"{type(exc).__name__}: {exc}", line=repr(record.msg))
        self.lines.append(line)
        self.count += 1


class _LogFile(logging.handlers.RotatingFileHandler):
    """The log file.  The first write that fails (``OSError``: a full disk, an I/O error)
    breaks it for the rest of the run: nothing more is tried, and :attr:`broken` says why.

    Opened non-blocking, so a FIFO nobody reads fails at once instead of hanging the start.
    """

    def __init__(self, path: Path) -> None:
        self.broken: Optional[str] = None
        self.written = 0
        """Lines written before it broke."""
        self._failed = False
        super().__init__(path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8")

    def _open(self) -> io.TextIOWrapper:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.baseFilename, flags, 0o666)
        try:
            return open(fd, "a", encoding=self.encoding, errors=self.errors)
        except BaseException:
            os.close(fd)
            raise

    def emit(self, record: logging.LogRecord) -> None:
        if self.broken is not None:
            return
        self._failed = False
        super().emit(record)
        if not self._failed:
            self.written += 1

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        self._failed = True
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            super().handleError(record)  # a bad logging call: the line is skipped
            return
        self.broken = _why(error)
        stream, self.stream = self.stream, None
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()  # the buffered line cannot be written either

    def close(self) -> None:
        try:
            super().close()
        except (OSError, ValueError) as exc:  # flushing a line that cannot be written
            if self.broken is None:
                self.broken = _why(exc)


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
        self._stderr.setFormatter(OneLine(self._format))
        self._aside: List[logging.Handler] = []
        self._kept: Optional[_Kept] = None
        self._file: Optional[_LogFile] = None
        self._file_error: Optional[str] = None
        self._raise_exceptions = logging.raiseExceptions
        self._root_level = logging.WARNING
        """The root logger's level before :meth:`__enter__`, given back by :meth:`__exit__`."""

    def __enter__(self) -> "LauncherLog":
        root = logging.getLogger()
        self._root_level = root.level
        root.addHandler(self._stderr)
        root.setLevel(self.level)
        return self

    def aside(self) -> None:
        """From now on, log to the file (and keep the lines to show after), not to stderr.

        Whatever fails meanwhile, the logging module prints nothing (``logging.raiseExceptions``
        is off until :meth:`__exit__`): stderr is the terminal the board is drawn on.
        """
        root = logging.getLogger()
        self._raise_exceptions, logging.raiseExceptions = logging.raiseExceptions, False
        self._kept = _Kept(self.prog)
        self._kept.setFormatter(OneLine(self._format))
        self._aside = [self._kept]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = _LogFile(self.path)
        except OSError as exc:
            self._file_error = _why(exc)
        else:
            self._file.setFormatter(OneLine(f"%(asctime)s {self._format}"))
            self._aside.append(self._file)
        root.removeHandler(self._stderr)
        for handler in self._aside:
            root.addHandler(handler)

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        root = logging.getLogger()
        root.setLevel(self._root_level)
        for handler in [self._stderr, *self._aside]:
            root.removeHandler(handler)
            with contextlib.suppress(Exception):  # the file's own failures are kept in .broken
                handler.close()
        kept = self._kept
        if kept is None:
            return
        logging.raiseExceptions = self._raise_exceptions
        with contextlib.suppress(OSError, ValueError):  # stderr itself cannot be written: nothing to say
            for line in self._after(kept):
                print(line, file=sys.stderr)
            sys.stderr.flush()

    def _after(self, kept: _Kept) -> List[str]:
        """What is printed once the terminal is given back: the lines kept, then where they are."""
        path = one_line(str(self.path))
        why = self._file_error or (self._file.broken if self._file is not None else None)
        written = 0 if self._file is None else self._file.written
        if kept.count == 0:
            return [] if why is None else [self.prog + ": " + _("the log was not kept: cannot write {path} ({error})").format(
                path=path, error=one_line(why))]
        dropped = kept.count - len(kept.lines)
        if why is None:
            where = _("also in {path}").format(path=path)
        elif written == 0:
            where = _("not kept: cannot write {path} ({error})").format(path=path, error=one_line(why))
        else:
            where = _("the first {count} also in {path}, then it could not be written ({error})").format(
                count=written, path=path, error=one_line(why))
        lines = []
        if dropped:
            if why is None or written >= dropped:
                fate = ngettext("{count} earlier line logged while the board was shown is in {path}",
                                "{count} earlier lines logged while the board was shown are in {path}", dropped)
            elif written == 0:
                fate = ngettext("{count} earlier line logged while the board was shown was not kept",
                                "{count} earlier lines logged while the board was shown were not kept", dropped)
            else:
                fate = ngettext("{count} earlier line logged while the board was shown was not all kept "
                                "(the first {written} are in {path})",
                                "{count} earlier lines logged while the board was shown were not all kept "
                                "(the first {written} are in {path})", dropped)
            lines.append(self.prog + ": " + fate.format(count=dropped, written=written, path=path))
        lines.extend(kept.lines)
        lines.append(self.prog + ": " + _("the lines above were logged while the board filled the terminal ({where})").format(
            where=where))
        return lines
