"""A program in a pseudo-terminal, watched through ``pyte`` (a terminal emulator in Python).

:class:`PtyProgram` starts a command with a pty as its controlling terminal
(standard input and output; standard error goes to a pipe, so it can be read
even after a hang-up), feeds everything it writes into a ``pyte`` screen, and
lets a test type keys, resize the window and wait for what the screen shows.
:func:`leds` reads the 8x8 board off that screen.
"""
from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from typing import Callable, Dict, List, Optional, Sequence

import pyte
from emu_sandbox import child_env

from gamelib.backends.terminal_screen import DOTS, Layout, dot_colour
from sensehat_c4.match import render
from sensehat_c4.rules import Board

KEYS: Dict[str, bytes] = {
    "up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
    "enter": b"\r", "space": b" ", "q": b"q", "ctrl-c": b"\x03",
}

SAME_KEY_GAP = 0.25
"""A person cannot tap Enter, space, up or down twice faster than this; quicker repeats read as
holding it (left and right step once per arrival, however close)."""

STEP_KEYS = ("left", "right")


def set_size(fd: int, columns: int, lines: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


def _controlling_terminal() -> None:  # in the child, after setsid(): the pty on fd 0 becomes its terminal
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyScreen:
    """The far end of a ``columns`` x ``lines`` pty, as a terminal emulator would hold it."""

    def __init__(self, *, columns: int = 40, lines: int = 16) -> None:
        self.master, self.slave = os.openpty()
        set_size(self.slave, columns, lines)
        self.attributes_before = termios.tcgetattr(self.slave)
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.output = b""

    def resize(self, columns: int, lines: int) -> None:
        """Resize the window (a program whose terminal this is gets SIGWINCH)."""
        self.pump(0)
        self.screen.resize(lines, columns)
        set_size(self.master, columns, lines)

    def pump(self, seconds: float) -> None:
        """Read what the program writes for ``seconds`` (at least once)."""
        deadline = time.monotonic() + seconds
        while True:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # EIO: the program closed the terminal
                    data = b""
                if not data:
                    return
                self.output += data
                self.stream.feed(data)
            elif left <= 0:
                return

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display).strip("\n")

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = -1


class PtyProgram(PtyScreen):
    """A child process whose controlling terminal is the pty."""

    def __init__(self, argv: Sequence[str], *, columns: int = 40, lines: int = 16,
                 env: Optional[Dict[str, str]] = None, stderr_on_terminal: bool = False) -> None:
        super().__init__(columns=columns, lines=lines)
        self._last_key: Dict[bytes, float] = {}
        self.process = subprocess.Popen(
            list(argv), stdin=self.slave, stdout=self.slave, env=env,
            stderr=self.slave if stderr_on_terminal else subprocess.PIPE,
            start_new_session=True, preexec_fn=_controlling_terminal, close_fds=True)

    def press(self, *keys: str, gap: float = 0.0) -> None:
        """Type ``keys`` (names from :data:`KEYS`, or raw text) as a person would."""
        for key in keys:
            data = KEYS.get(key, key.encode())
            wait = 0.0 if key in STEP_KEYS else self._last_key.get(data, -1e9) + SAME_KEY_GAP - time.monotonic()
            if wait > 0:
                self.pump(wait)
            os.write(self.master, data)
            self._last_key[data] = time.monotonic()
            if gap:
                self.pump(gap)

    def tap(self, *keys: str, gap: Optional[float]) -> None:
        """Type ``keys`` ``gap`` seconds apart by the clock (0: one write each, at once), or all
        in one write (``gap=None``: they reach the program in one read), reading the output
        meanwhile."""
        data = [KEYS.get(key, key.encode()) for key in keys]
        if gap is None:
            os.write(self.master, b"".join(data))
            return
        start = time.monotonic()
        for i, chunk in enumerate(data):
            if gap:
                self.pump(max(0.0, start + i * gap - time.monotonic()))
            os.write(self.master, chunk)

    def hang_up(self) -> None:
        """Close the terminal, as an SSH connection that drops does (the program gets SIGHUP)."""
        super().close()

    def wait_for(self, predicate: Callable[["PtyProgram"], bool], timeout: float = 10.0,
                 what: str = "the expected screen") -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n" + "\n".join(self.screen.display))
            if self.process.poll() is not None:
                self.pump(0.05)
                if not predicate(self):
                    raise AssertionError(f"the program exited ({self.process.returncode}) before {what}: "
                                         + (self.process.stderr.read().decode() if self.process.stderr else
                                            "\n".join(self.screen.display)))
                return
            self.pump(0.02)

    def finish(self, timeout: float = 10.0) -> str:
        """Wait for the program to end (reading its output); return its standard error."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            if self.master >= 0:
                self.pump(0.05)
            else:
                time.sleep(0.05)
        if self.master >= 0:
            self.pump(0.05)
        _, err = self.process.communicate(timeout=max(0.1, deadline - time.monotonic()))
        return "" if err is None else err.decode()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        super().close()


def board_origin(screen: pyte.Screen) -> Optional[tuple]:
    """(row, column) of the board frame's top-left corner, or ``None`` if no board is shown."""
    for row, line in enumerate(screen.display):
        for corner in ("┌", "+"):
            column = line.find(corner)
            if column >= 0 and line[column + Layout.WIDTH - 1:column + Layout.WIDTH] in ("┐", "+"):
                return row, column
    return None


def below(screen: pyte.Screen) -> List[str]:
    """The lines under the board's frame, stripped, to the screen's last (empty ones too)."""
    origin = board_origin(screen)
    assert origin is not None, "no board on the screen:\n" + "\n".join(screen.display)
    return [line.strip() for line in screen.display[origin[0] + Layout.HEIGHT:]]


def under_help(screen: pyte.Screen) -> str:
    """What the lines under the key help say, as one text: a status wrapped over several lines joined again
    (the lines after it, a printed line or a note, with it)."""
    return " ".join(line for line in below(screen)[1:] if line)


def led_cells(screen: pyte.Screen) -> Optional[List[List[pyte.screens.Char]]]:
    """The board's 8 rows of 17 cells inside the border (a gap, then a dot and a gap per LED)."""
    origin = board_origin(screen)
    if origin is None:
        return None
    top, left = origin
    return [[screen.buffer[top + 1 + y][left + 1 + i] for i in range(Layout.WIDTH - 2)] for y in range(8)]


def leds(screen: pyte.Screen) -> Optional[List[str]]:
    """The 64 LEDs as the hex colours of their dots (``"ff0000"``; a cell that is not a dot on
    black reads ``"not a dot"``), or ``None`` if no board is shown."""
    rows = led_cells(screen)
    if rows is None:
        return None
    return [cell.fg if cell.data in DOTS.values() and cell.bg in ("000000", "black") else "not a dot"
            for row in rows for cell in row[1::2]]


def letters(screen: pyte.Screen) -> Optional[List[str]]:
    """The 8 rows of the board as text (letters mode: one letter and a space per LED)."""
    rows = led_cells(screen)
    return None if rows is None else ["".join(cell.data for cell in row[1:]) for row in rows]


def hex_colours(frame: Sequence[tuple], low_light: bool = False) -> List[str]:
    """``frame``'s LEDs as the hex colours the terminal draws their dots in."""
    return ["{:02x}{:02x}{:02x}".format(*dot_colour(p, low_light)) for p in frame]


def game(*args: str) -> List[str]:
    """The command line of the game, run from this Python."""
    return [sys.executable, "-m", "sensehat_c4", *args]


def history(output: bytes, columns: int, lines: int) -> List[List[str]]:
    """Every board the program showed, in order: ``output`` replayed frame by frame.

    The truecolor and 256-colour modes end each frame's text with ``ESC [ 0 m``, so
    cutting there sees every frame, however the reads merged them.
    """
    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    seen: List[List[str]] = []
    chunks = output.split(b"\x1b[0m")
    for i, chunk in enumerate(chunks):
        stream.feed(chunk + (b"\x1b[0m" if i < len(chunks) - 1 else b""))
        board = leds(screen)
        if board is not None and (not seen or seen[-1] != board):
            seen.append(board)
    return seen


P = render.Palette()
TRUECOLOR = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"}


def board(moves="4453", cursor=3, palette=P):
    return render.board_frame(Board.from_moves(moves), palette, cursor=cursor)


def shows(frame):
    """A condition for ``PtyProgram.wait_for``: the terminal's LEDs show ``frame``."""
    return lambda program: leds(program.screen) == hex_colours(frame)


def start(sandbox, *args, env=TRUECOLOR, columns=40, lines=16):
    """``sensehat-c4 ARGS`` in a terminal; no Sense HAT and no emulator to be found."""
    base = child_env(sandbox)
    for name in ("TERM", "COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"):
        base.pop(name, None)
    base.update(env)
    return PtyProgram(game(*args), columns=columns, lines=lines, env=base)
