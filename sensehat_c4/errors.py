"""The project's exceptions: one tree under :class:`C4Error`.

Each error also inherits the built-in it resembles, so callers may catch
either (``except ValueError`` works for a bad move list).
"""
from __future__ import annotations

from typing import Optional


class C4Error(Exception):
    """Root of every error sensehat-c4 raises on purpose."""


class IllegalMoveError(C4Error, ValueError):
    """A move that the rules do not allow (full column, game over, off the board)."""


class MoveListError(IllegalMoveError):
    """A move list in solver notation (``"4453"``) that cannot be played.

    :attr:`position` is the 1-based index of the offending character.
    """

    def __init__(self, position: int, move: str, reason: str) -> None:
        self.position = position
        self.move = move
        self.reason = reason
        super().__init__(f"move {position} ({move!r}): {reason}")


class ConfigError(C4Error, ValueError):
    """A bad option value (colours, rotation, timing...)."""


class BackendError(C4Error, OSError):
    """A Sense HAT backend that cannot be opened; the message says how to fix it."""


class QuitRequested(C4Error):
    """The player asked to quit (``q`` in the terminal backend): a clean exit."""


class MockExhausted(C4Error, RuntimeError):
    """The mock backend was asked to wait forever with no scripted event left."""

    def __init__(self, message: Optional[str] = None) -> None:
        super().__init__(message or "mock backend: no scripted joystick event left to wait for")
