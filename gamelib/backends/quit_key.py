"""``q`` in the terminal that started a program on the HAT or the emulator.

The joystick is the game's input there, but a person who started it from a
terminal expects ``q`` to quit, as it does in the terminal backend.  While the
program runs, that terminal is in cbreak mode (keys arrive one by one and are
not echoed; Ctrl+C still sends SIGINT); the backend waits on it in the same
``select()`` as the stick, so watching it costs nothing, and closing puts its
mode back.  Not used when standard input is not a terminal (a service, a pipe)
or the program runs in the background (changing the terminal would stop it).
"""
from __future__ import annotations

import os
import sys
import termios
from typing import Any, List, Optional

from ..errors import QuitRequested

QUIT_KEYS = b"qQ"


def cbreak_attributes(attributes: List[Any]) -> List[Any]:
    """``attributes`` (from ``tcgetattr``) with keys one by one and no echo; signals stay on."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attributes
    lflag &= ~(termios.ECHO | termios.ICANON)
    cc = list(cc)
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


class QuitKey:
    """Watches a terminal for ``q``; :meth:`attach` gives one for standard input, if it can."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._saved: Optional[List[Any]] = termios.tcgetattr(fd)
        termios.tcsetattr(fd, termios.TCSANOW, cbreak_attributes(self._saved))

    @classmethod
    def attach(cls) -> Optional["QuitKey"]:
        """A watcher of standard input when it is this program's terminal, in the foreground."""
        try:
            fd = sys.stdin.fileno()
            if not os.isatty(fd) or os.tcgetpgrp(fd) != os.getpgrp():
                return None
            return cls(fd)
        except (AttributeError, OSError, ValueError, termios.error):  # no stdin, closed, not ours
            return None

    def fileno(self) -> int:
        return self._fd

    def check(self) -> None:
        """Read what was typed (``select()`` said it is there); ``q`` raises :class:`QuitRequested`."""
        try:
            typed = os.read(self._fd, 1024)
        except OSError:
            typed = b""
        if not typed:  # the terminal has gone: stop watching it (the stick still works)
            self.close()
        elif any(key in typed for key in QUIT_KEYS):
            raise QuitRequested("q pressed")

    @property
    def watching(self) -> bool:
        return self._saved is not None

    def close(self) -> None:
        """Put the terminal's mode back (once; a terminal that has gone is left alone)."""
        saved, self._saved = self._saved, None
        if saved is not None:
            try:
                termios.tcsetattr(self._fd, termios.TCSANOW, saved)
            except termios.error:
                pass
