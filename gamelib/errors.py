"""The exceptions shared by every game: one tree under :class:`GamelibError`.

Each error also inherits the built-in it resembles, so callers may catch
either (``except OSError`` works for a backend that cannot be opened).  A game's
own errors (e.g. :class:`sensehat_c4.errors.C4Error`) derive from
:class:`GamelibError` too, so :func:`gamelib.app.run` reports them all alike.
"""
from __future__ import annotations

from typing import Optional

from .i18n import _


class GamelibError(Exception):
    """Root of every error raised on purpose by gamelib and the games."""


class ConfigError(GamelibError, ValueError):
    """A bad option or setting value (colours, rotation, timing...)."""


class UsageError(GamelibError, ValueError):
    """Input on the command line that the parser let through but cannot be used (a move list
    that cannot be played): :func:`gamelib.app.run` exits 2, as for a bad option."""


class BackendError(GamelibError, OSError):
    """A Sense HAT backend that cannot be opened; the message says how to fix it."""


class SetupError(BackendError):
    """A backend this machine's setup keeps closed (a group the user lacks, a library not installed,
    an unknown backend name): trying again cannot help until someone changes the setup, so
    :func:`gamelib.app.run` exits with its own status, which the systemd units do not restart on."""


class OutputError(GamelibError, OSError):
    """Standard output cannot be written (a full disk, an I/O error): :func:`gamelib.app.run`
    says so in one line and exits 74."""


class OutputClosed(OutputError, BrokenPipeError):
    """Standard output's reader has gone (``sensehat-c4 history | head -1``): :func:`gamelib.app.run`
    ends quietly with 141, as a program killed by SIGPIPE does in a shell."""


class QuitRequested(GamelibError):
    """The player asked to quit (``q`` in the terminal backend): a clean exit."""


class MockExhausted(GamelibError, RuntimeError):
    """The mock backend was asked to wait forever with no scripted event left."""

    def __init__(self, message: Optional[str] = None) -> None:
        super().__init__(message or _("mock backend: no scripted joystick event left to wait for"))


class ServerError(GamelibError, OSError):
    """The web server cannot start (its port is taken, or below 1024 without root); the message says which."""
