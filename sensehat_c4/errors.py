"""The game's exceptions: :class:`C4Error` and its subclasses.

They live under :class:`gamelib.errors.GamelibError` with the errors every game
shares (:class:`~gamelib.errors.ConfigError`, :class:`~gamelib.errors.BackendError`),
which are re-exported here.  Each error also inherits the built-in it
resembles, so callers may catch either (``except ValueError`` works for a bad
move list).  Their messages are the game's words (:mod:`.i18n`), in the language of the moment they are
raised.
"""
from __future__ import annotations

from gamelib.errors import BackendError, ConfigError, GamelibError

from .i18n import _

__all__ = ["BackendError", "BoardSizeError", "C4Error", "ConfigError", "IllegalMoveError", "MoveListError",
           "NativeCoreError", "SearchAborted"]


class C4Error(GamelibError):
    """Root of every error sensehat-c4 raises on purpose."""


class BoardSizeError(C4Error, ConfigError):
    """A board size the game does not offer, or text that is not ``COLUMNSxROWS``."""


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
        super().__init__(_("move {position} ({move!r}): {reason}").format(position=position, move=move, reason=reason))


class SearchAborted(C4Error, TimeoutError):
    """A search stopped before it finished: its time ran out, or it was cancelled."""


class NativeCoreError(C4Error, OSError):
    """The solver's native core cannot be used (not loadable, or not for these sizes)."""
