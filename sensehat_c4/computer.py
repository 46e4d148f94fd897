"""The computer as a player: its settings, and a thinker that searches off the main loop.

The controller never blocks on the engine: it starts a :class:`Thinker`, keeps reading
the joystick (so "up" still abandons), and polls the thinker on each tick.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Optional, Tuple

from .engine.levels import DEFAULT_SECONDS, LEVELS, PERFECT_SECONDS
from .errors import ConfigError
from .rules import SIZES, Board, Size

__all__ = ["DEFAULT_SECONDS", "PERFECT_SECONDS", "OPPONENTS", "Computer", "Thinker", "computer_for",
           "opponents_for", "sizes_for"]

OPPONENTS = ("human", *LEVELS)
"""Who the players can play against: each other, or a level of :data:`~.engine.levels.LEVELS`."""


def sizes_for(opponent: str) -> Tuple[Size, ...]:
    """The board sizes ``opponent`` (``human`` or a level) plays on (the levels table says)."""
    return SIZES if opponent == "human" else LEVELS[opponent].offered_sizes()


def opponents_for(size: Size) -> Tuple[str, ...]:
    """The opponents (``human`` and the levels) offered on a board of ``size``."""
    return tuple(o for o in OPPONENTS if size in sizes_for(o))


@dataclass(frozen=True)
class Computer:
    """A computer player: its level, which match player it is, and its time budget."""

    level: str
    player: int = 2
    seconds: Optional[float] = None
    """Thinking budget per move (``None``: the level's own, from the levels table); the best
    move found so far is played when it runs out."""
    min_seconds: float = 0.6
    """The move is shown no sooner than this, so players see it coming."""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ConfigError(f"level must be one of {', '.join(LEVELS)} (not {self.level!r})")
        if self.player not in (1, 2):
            raise ConfigError(f"the computer is player 1 or 2 (not {self.player!r})")
        if self.seconds is not None and not self.seconds > 0:
            raise ConfigError(f"the thinking budget must be more than 0 seconds (not {self.seconds!r})")

    @property
    def budget(self) -> float:
        """The thinking budget in force, in seconds."""
        return self.seconds if self.seconds is not None else LEVELS[self.level].seconds


def computer_for(opponent: str, plays: str, match_number: int,
                 seconds: Optional[float]) -> Optional[Computer]:
    """The computer player for match ``match_number`` (1-based), or ``None`` for two people.

    ``plays="alternate"`` makes the computer player 2 in odd matches and player 1 in even ones.
    """
    if opponent == "human":
        return None
    player = int(plays) if plays != "alternate" else (2 if match_number % 2 else 1)
    return Computer(opponent, player=player, seconds=seconds)


class Thinker:
    """Finds the computer's move in a background thread; :meth:`poll` until it answers."""

    def __init__(self, computer: Computer, seed: Optional[int] = None) -> None:
        self.computer = computer
        self.seed = seed
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._column: Optional[int] = None
        self._error: Optional[BaseException] = None

    def start(self, board: Board) -> None:
        """Begin searching a copy of ``board``."""
        copy = board.copy()
        self._stop.clear()
        self._column = None
        self._error = None
        self._thread = threading.Thread(target=self._run, args=(copy,), name="c4-think", daemon=True)
        self._thread.start()

    def _run(self, board: Board) -> None:
        try:
            from .engine import Limit, choose_move  # noqa: PLC0415 (here, so a broken engine reaches the caller)

            limit = Limit(seconds=self.computer.budget, stop=self._stop)
            result = choose_move(board, self.computer.level, limit=limit, seed=self.seed)
            self._column = result.column
        except BaseException as exc:  # handed to the main loop by poll()
            self._error = exc

    def poll(self) -> Optional[int]:
        """The chosen column (0-based) once the search is over, else ``None``."""
        if self._error is not None:
            raise self._error
        if self._thread is not None and not self._thread.is_alive():
            return self._column
        return None

    def cancel(self) -> None:
        """Stop searching (the match was abandoned) and wait briefly for the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
