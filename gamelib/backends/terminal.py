"""The 8x8 matrix in a terminal, the joystick on the arrow keys (``--backend terminal``).

For trying a game with no Sense HAT and no emulator window: on a laptop, over
SSH, in tmux or screen.  Only the standard library is used (``termios``,
``select``, ``signal``).

While open, the backend owns the terminal: raw mode (no echo, no line editing,
Ctrl+C arrives as a byte), the alternate screen, a hidden cursor.  Closing puts
back exactly what it found, whatever the reason for closing (``q``, Ctrl+C,
SIGTERM, SIGHUP, an exception; :func:`gamelib.app.run` turns the signals into
``SystemExit`` so ``with backend:`` closes it), and never fails because the
terminal has gone (writes to a hung-up terminal fail with EIO).

Waiting for a key blocks in ``select()`` on standard input and on a wake-up
pipe (``signal.set_wakeup_fd``): a resize (SIGWINCH) wakes the wait and the
board is drawn again, outside the signal handler.  Lines the program prints to
``sys.stdout`` meanwhile go to the line under the board, and are printed again
after the terminal is restored.
"""
from __future__ import annotations

import atexit
import io
import os
import signal
import sys
import termios
from collections import deque
from typing import Any, Callable, Collection, Deque, List, Mapping, Optional, Sequence, Tuple

from gamelib.colours import RGB
from gamelib.status import Status

from ..errors import BackendError, QuitRequested
from ..i18n import N_, _
from .base import Backend, Direction, StickEvent
from .device import Waitable
from .entry import Found, Needs, Probe
from .terminal_input import ESCAPE_WAIT, INTERRUPT, PAIR, QUIT, UP_DOWN, KeyDecoder, KeyRepeat
from .terminal_screen import ENTER, HINT, LEAVE, ColourMode, Painter, colour_mode, terminfo_colours

NOT_A_TERMINAL = N_("the terminal backend needs a terminal: standard input and output must both be one "
                    "(not a pipe, a file or a service)")

_SIGNALS_DURING_RESTORE = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGWINCH}


def is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def standard_fds() -> Optional[Tuple[int, int]]:
    """``(stdin, stdout)`` file descriptors if both are terminals, else ``None``."""
    try:
        fds = sys.stdin.fileno(), sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # None, closed, or replaced by a non-file
        return None
    return fds if all(is_terminal(fd) for fd in fds) else None


def raw_attributes(attributes: List[Any]) -> List[Any]:
    """``attributes`` (from ``tcgetattr``) changed for a game: keys one by one, unechoed, unsignalled.

    Like ``cfmakeraw`` for input (so Ctrl+C is byte 3, Enter is ``\\r``, Ctrl+S does not
    freeze the output), but output processing stays on.
    """
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attributes
    iflag &= ~(termios.BRKINT | termios.ICRNL | termios.INPCK | termios.ISTRIP | termios.IXON
               | termios.INLCR | termios.IGNCR)
    lflag &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    cc = list(cc)
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


class _Printed(io.TextIOBase):
    """Stands in for ``sys.stdout`` while the board is up: shows each line under it."""

    def __init__(self, device: "TerminalDevice", encoding: str) -> None:
        super().__init__()
        self._device = device
        self._encoding = encoding
        self.text = ""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        if "\n" in text:
            complete = self.text.rsplit("\n", 1)[0]
            self._device._show_status(complete.rsplit("\n", 1)[-1])
        return len(text)


class TerminalBackend(Backend):
    """A Sense HAT drawn in a terminal (a :class:`TerminalDevice`): arrows are the stick, Enter and space the
    middle button.

    ``p`` is the pairing gesture (:meth:`~.stick.Stick.pair`, as holding Enter is); ``q`` raises :class:`~gamelib.errors.QuitRequested`, Ctrl+C raises
    ``KeyboardInterrupt``.  ``stdin``/``stdout`` are file descriptors (default: the
    process's own); ``env`` decides the colours (default ``os.environ``).  Besides the picture, the
    terminal shows words under it: a status's caption, the notes, the notices (the device is
    :class:`~.device.Captioned`, :class:`~.device.Noting`, :class:`~.device.PairingKey` and
    :class:`~.device.Settling`: the parts tell it).
    """

    name = "terminal"
    needs = Needs(terminal=True)
    device: "TerminalDevice"

    @staticmethod
    def probe() -> Probe:
        """Here if standard input and output are both a terminal."""
        if standard_fds() is None:
            return Probe(Found.ABSENT, _(NOT_A_TERMINAL))
        return Probe(Found.HERE, _("standard input and output are a terminal"),
                     _("no Sense HAT or running emulator found; playing in this terminal "
                       "(--backend emu opens the emulator window)"))

    def __init__(self, *, rotation: int = 0, low_light: bool = False, stdin: Optional[int] = None,
                 stdout: Optional[int] = None, env: Optional[Mapping[str, str]] = None) -> None:
        device = TerminalDevice(lambda: self.stick.pair(), stdin=stdin, stdout=stdout, env=env)
        try:
            super().__init__(device, rotation=rotation, low_light=low_light)
        except BaseException:  # a bad rotation, Ctrl+C while opening...: give the terminal back
            device.close()
            raise

    def close(self) -> None:
        self.device.leaving = True   # closing clears the LEDs; the terminal gets its own screen back instead
        super().close()


class TerminalDevice:
    """The terminal as LEDs (the board drawn) and a stick (the keys): raw mode, the alternate screen, a
    hidden cursor while open, all put back by :meth:`close`; ``pair`` is called for ``p``."""

    def __init__(self, pair: Callable[[], None], *, stdin: Optional[int] = None, stdout: Optional[int] = None,
                 env: Optional[Mapping[str, str]] = None) -> None:
        if stdin is None or stdout is None:
            fds = standard_fds()
            if fds is None:
                raise BackendError(_(NOT_A_TERMINAL))
            stdin, stdout = fds
        elif not (is_terminal(stdin) and is_terminal(stdout)):
            raise BackendError(_(NOT_A_TERMINAL))
        self._in, self._out = stdin, stdout
        env = os.environ if env is None else env
        self._painter = Painter(colour_mode(env, lambda term: terminfo_colours(term, stdout)),
                                utf8=utf8_locale(env))
        self._decoder = KeyDecoder()
        self._repeat = KeyRepeat()
        self._events: Deque[StickEvent] = deque()
        self._gone = False
        self._saved_attributes: Optional[List[Any]] = None
        self._wake_r = self._wake_w = -1
        self._old_wakeup: Optional[int] = None
        self._old_winch: Any = None
        self._winch_installed = False
        self._pending_since = 0.0
        self._old_stdout: Any = None
        self._printed: Optional[_Printed] = None
        self._line = ""
        """The last line printed (or the notice): what the status line shows when no caption does."""
        self._captioned = False
        self._on_alternate_screen = False
        self._restored = False
        self._pair = pair
        self.leaving = False
        """The backend is closing: nothing more is drawn (the terminal gets its own screen back)."""
        self._signal_mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the mask as it is, to put back
        atexit.register(self._restore)
        try:
            self._open()
        except BaseException:  # Ctrl+C while opening...: give the terminal back
            self._restore()
            raise

    # -- opening and closing ----------------------------------------------------

    def _open(self) -> None:
        try:
            self._saved_attributes = termios.tcgetattr(self._in)
            termios.tcsetattr(self._in, termios.TCSAFLUSH, raw_attributes(self._saved_attributes))
        except termios.error as exc:
            raise BackendError(_("cannot put the terminal in raw mode: {error}").format(error=exc)) from exc
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            os.set_blocking(fd, False)
        try:
            self._old_wakeup = signal.set_wakeup_fd(self._wake_w, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: no resize wake-ups (drawn at the next frame)
            pass
        else:
            self._old_winch = signal.signal(signal.SIGWINCH, self._on_winch)
            self._winch_installed = True
        if self._painter.mode is ColourMode.PLAIN:
            self._emit(_(HINT) + "\r\n")
        else:
            self._on_alternate_screen = True
            self._emit(ENTER)
        self._emit(self._painter.resize(*self._size()))
        if _same_file(_fileno(sys.stdout), self._out):
            self._old_stdout = sys.stdout
            self._printed = _Printed(self, getattr(sys.stdout, "encoding", None) or "utf-8")
            sys.stdout = self._printed

    def close(self) -> None:
        self._restore()

    def _restore(self) -> None:
        """Put the terminal back as it was; safe on a terminal that has gone (SSH dropped).

        A signal may arrive meanwhile (a second ``kill``, Ctrl+C from a script): its
        handler's exception (``SystemExit``, ``KeyboardInterrupt``) can cut any step
        short, even where the signals are blocked, because they are blocked in this
        thread only and another (the computer's) may take them.  So every step is
        marked done once done, and the whole is tried again after each interruption:
        each of SIGINT, SIGTERM and SIGHUP can interrupt at most once, since a signal
        that arrives again before its handler ran is counted once.  At exit, the same
        restore runs once more (``atexit``) in case an exception escaped before it began.
        """
        try:
            self._restore_steps()
        finally:
            try:
                self._restore_steps()
            finally:
                try:
                    self._restore_steps()
                finally:
                    self._restore_steps()

    def _restore_steps(self) -> None:
        if self._restored:
            return
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS_DURING_RESTORE)
        if self._old_stdout is not None:
            sys.stdout = self._old_stdout
            self._old_stdout = None
        if self._on_alternate_screen:
            self._emit(LEAVE)
            self._on_alternate_screen = False
        if self._saved_attributes is not None:
            try:
                termios.tcsetattr(self._in, termios.TCSAFLUSH, self._saved_attributes)
            except termios.error:
                pass  # the terminal hung up: nothing left to restore
            self._saved_attributes = None
        if self._winch_installed:
            signal.signal(signal.SIGWINCH, signal.SIG_DFL if self._old_winch is None else self._old_winch)
            signal.set_wakeup_fd(-1 if self._old_wakeup is None else self._old_wakeup)
            self._winch_installed = False
        for name in ("_wake_r", "_wake_w"):  # marked closed first: interrupted, one leaks, none is closed twice
            fd = getattr(self, name)
            if fd >= 0:
                setattr(self, name, -1)
                os.close(fd)
        # plain mode has no alternate screen: the lines are already in the scrollback
        if self._printed is not None:
            printed, self._printed = self._printed.text, None
            if printed and not self._gone and self._painter.mode is not ColourMode.PLAIN:
                try:
                    sys.stdout.write(printed)
                    sys.stdout.flush()
                except OSError:
                    pass
        self._restored = True
        atexit.unregister(self._restore)
        signal.pthread_sigmask(signal.SIG_SETMASK, self._signal_mask)  # a signal held back arrives now

    # -- output ---------------------------------------------------------------

    def _emit(self, text: str) -> None:
        """Write ``text`` to the terminal, all of it; stop writing for good if the terminal has gone."""
        if self._gone or not text:
            return
        data = text.encode("utf-8", "replace")
        try:
            while data:
                written = os.write(self._out, data)
                data = data[written:]
        except OSError:
            self._gone = True

    def _size(self) -> Tuple[int, int]:
        try:
            size = os.get_terminal_size(self._out)
        except OSError:
            return 80, 24
        return size.columns or 80, size.lines or 24

    def write(self, pixels: List[RGB]) -> None:
        if not self.leaving:  # closing clears the LEDs; the terminal gets its own screen back instead
            self._emit(self._painter.frame(pixels))

    def set_low_light(self, value: bool) -> None:
        text = self._painter.set_low_light(value)
        if not self.leaving:
            self._emit(text)

    def _status_line(self, text: str, *, printed: bool = False) -> None:
        """Write ``text`` under the board, on the status line (or, ``printed``, on the last printed
        line's own): the one place every line shown there (a line the program printed, a notice, a
        status's caption) is written."""
        self._emit(self._painter.set_printed(text) if printed else self._painter.set_status(text))

    def _show_status(self, text: str, *, printed: bool = True) -> None:
        """Show a line the program printed (or, not ``printed``, a notice) under the board; it stays
        when a caption goes, and a printed one stays on a line of its own while a caption shows."""
        self._line = text
        self._captioned = False
        if printed:
            self._status_line(text, printed=True)
        self._status_line(text)

    def said(self, status: Status) -> None:
        """A status with a caption shows it under the board; one without puts back the line it hid."""
        if self.leaving:
            return
        if status.caption is not None:
            self._captioned = True
            self._status_line(status.caption)
        elif self._captioned:
            self._captioned = False
            if self._painter.mode is not ColourMode.PLAIN:  # plain mode printed the line already: it is in the scrollback
                self._status_line(self._line)

    def noted(self, text: str) -> None:
        """The note (the web view's address and PIN) on a line of its own under the status."""
        if not self.leaving:
            self._emit(self._painter.set_note(text))

    def pairing_watched(self, watched: bool) -> None:
        """The key help names ``p`` while the web view serves seats (drawn with the next note: the server's
        address comes at once)."""
        self._painter.pairing = watched

    def notice(self, text: str) -> None:
        """Show ``text`` under the board until the program prints a line (a notice printed
        before the board would be hidden by it; ``plain`` mode has it on screen already)."""
        if self._painter.mode is not ColourMode.PLAIN:
            self._show_status(text, printed=False)

    def _on_winch(self, signum: int, frame: object) -> None:
        """Nothing to do here: the wake-up pipe wakes the wait, which redraws."""

    def _redraw_if_resized(self) -> None:
        try:
            woken = os.read(self._wake_r, 512)
        except (BlockingIOError, OSError):
            return
        if signal.SIGWINCH in woken:
            self._emit(self._painter.resize(*self._size()))

    # -- input ----------------------------------------------------------------

    def waitables(self) -> Sequence[Waitable]:
        return [self._in] + ([self._wake_r] if self._wake_r >= 0 else [])

    def due(self, now: float) -> Optional[float]:
        times = [self._repeat.release_due]
        if self._decoder.pending:
            times.append(self._pending_since + ESCAPE_WAIT)
        return min((t for t in times if t is not None), default=None)

    def read(self, ready: Collection[Waitable], now: float) -> Optional[StickEvent]:
        if self._wake_r in ready:
            self._redraw_if_resized()
        if self._in in ready:
            self._take_input(now)
        elif self._decoder.pending and now >= self._pending_since + ESCAPE_WAIT:
            self._decoder.flush()  # a lone Escape key, or a sequence cut short: skipped
        if not self._events:
            self._queue(self._repeat.expire(now))
        return self._events.popleft() if self._events else None

    def settle(self) -> None:
        """Forget a key arrival still waiting to be told apart (the backend threw the events away)."""
        self._repeat.settle()

    def _take_input(self, now: float) -> None:
        try:
            data = os.read(self._in, 1024)
        except OSError:
            data = b""
        if not data:
            self._gone = True
            raise BackendError(_("the terminal has gone (end of input)"))
        was_pending = self._decoder.pending
        keys = self._decoder.feed(data)
        if self._decoder.pending and not was_pending:
            self._pending_since = now
        for key in keys:
            if key == QUIT:
                raise QuitRequested("q pressed")
            if key == INTERRUPT:
                raise KeyboardInterrupt
            if key == PAIR:
                self._pair()      # the pairing gesture, as holding Enter for PAIR_HOLD seconds makes it
                continue
            if key == UP_DOWN:    # the stick's gesture up, then down (a take-back in Connect 4 with helps on)
                self._queue(self._repeat.key(Direction.UP, now) + self._repeat.key(Direction.DOWN, now))
                continue
            assert isinstance(key, Direction)
            self._queue(self._repeat.key(key, now))

    def _queue(self, events: List[Any]) -> None:
        self._events.extend(StickEvent(t, d, a) for t, d, a in events)


def utf8_locale(env: Mapping[str, str]) -> bool:
    """True if the locale in ``env`` says UTF-8 (then the board gets a box-drawing frame)."""
    locale = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or ""
    return "UTF8" in locale.upper().replace("-", "")


def _same_file(fd: Optional[int], other: int) -> bool:
    try:
        return fd is not None and os.path.sameopenfile(fd, other)
    except OSError:
        return False


def _fileno(stream: Any) -> Optional[int]:
    try:
        fd: int = stream.fileno()
        return fd
    except (AttributeError, OSError, ValueError):
        return None
