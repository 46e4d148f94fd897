"""The computer as a player: its settings, and :class:`Thinker`, the player that searches off
the main loop.

The match never blocks on the engine: a :class:`Thinker` is a
:class:`~.players.Player` that searches in a thread, wakes the match's backend when it
has its move, and answers :meth:`Thinker.poll`; the match keeps reading the joystick
meanwhile (so "up" still abandons).
"""
from __future__ import annotations

import enum
import random
import threading
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from gamelib.seats import Kind

from ..engine.rungs import BY_NAME as LEVELS
from ..engine.rungs import DEFAULT_SECONDS, PERFECT_SECONDS
from ..errors import ConfigError
from ..i18n import _
from ..rules import Board
from .opponents import Opponent
from .players import Player

__all__ = ["DEFAULT_SECONDS", "LEVELS", "PERFECT_SECONDS", "Computer", "Thinker", "computer_for", "middle"]


@dataclass(frozen=True)
class Computer:
    """A computer player: its level, which match player it is, and its time budget."""

    level: str
    player: int = 2
    seconds: Optional[float] = None
    """Thinking budget per move (``None``: the level's own, from the levels table); the best
    move found so far is played when it runs out."""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ConfigError(_("level must be one of {levels} (not {level!r})").format(
                levels=", ".join(LEVELS), level=self.level))
        if self.player not in (1, 2):
            raise ConfigError(_("the computer is player 1 or 2 (not {player!r})").format(player=self.player))
        if self.seconds is not None and not self.seconds > 0:
            raise ConfigError(_("the thinking budget must be more than 0 seconds (not {seconds!r})").format(
                seconds=self.seconds))

    @property
    def budget(self) -> float:
        """The thinking budget in force, in seconds."""
        return self.seconds if self.seconds is not None else LEVELS[self.level].seconds


class ComputerSeat(enum.Enum):
    """The seat the computer plays over a run of matches (``--computer-plays``): player 1, player 2, or each
    in turn (player 2 in odd matches, player 1 in even ones)."""

    ONE = "1"
    TWO = "2"
    ALTERNATE = "alternate"


def computer_for(opponent: Opponent, plays: ComputerSeat, match_number: int,
                 seconds: Optional[float]) -> Optional[Computer]:
    """The computer player for match ``match_number`` (1-based), or ``None`` when ``opponent`` is no
    computer (two people).

    ``plays`` :attr:`ComputerSeat.ALTERNATE` makes the computer player 2 in odd matches and player 1 in even ones.
    """
    if opponent.level is None:
        return None
    player = (2 if match_number % 2 else 1) if plays is ComputerSeat.ALTERNATE else int(plays.value)
    return Computer(opponent.level, player=player, seconds=seconds)


def middle(levels: Sequence[str]) -> str:
    """Where *match me* starts the first time: the middle of ``levels`` (rounded down)."""
    return levels[(len(levels) - 1) // 2]


class _Search:
    """One search of a :class:`Thinker`: its thread, its stop event and what it found."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.thread: Optional[threading.Thread] = None
        self.column: Optional[int] = None
        self.error: Optional[BaseException] = None
        self.done = threading.Event()
        """Set once :attr:`column` or :attr:`error` holds the answer, before the match is woken (the
        thread itself is still alive then: what it is doing is returning)."""


class Thinker(Player):
    """The computer's player: finds its move in a background thread; :meth:`poll` until it answers.

    ``seed`` makes its choices repeatable (each search draws its own seed from it);
    ``wake`` is called from the search's thread when it ends (the match's backend's
    :meth:`~gamelib.backends.stick.Stick.wake`, so the match polls at once).
    """

    kind = Kind.COMPUTER

    def __init__(self, computer: Computer, seed: Optional[int] = None, *,
                 wake: Optional[Callable[[], None]] = None) -> None:
        self.computer = computer
        self.seed = seed
        self.wake = wake
        self._seeds = random.Random(seed)
        self._search: Optional[_Search] = None

    @property
    def _thread(self) -> Optional[threading.Thread]:
        """The current search's thread (tests look at it)."""
        return None if self._search is None else self._search.thread

    def start(self, board: Board) -> None:
        """Begin searching a copy of ``board`` (a search still running is cancelled first)."""
        if self._search is not None and self._search.thread is not None and self._search.thread.is_alive():
            self.cancel()
        search = _Search()
        self._search = search
        search.thread = threading.Thread(target=self._run, args=(search, board.copy(), self._seeds.randrange(2 ** 32)),
                                         name="c4-think", daemon=True)
        search.thread.start()

    def _run(self, search: _Search, board: Board, seed: int) -> None:
        try:
            # start-up: --help and --version load this module, the engine's search when the computer first plays
            # (here, in the try, so a broken engine reaches the caller)
            from ..engine import Limit, choose_move  # noqa: PLC0415

            limit = Limit(seconds=self.computer.budget, stop=search.stop)
            search.column = choose_move(board, self.computer.level, limit=limit, seed=seed).column
        except BaseException as exc:  # noqa: BLE001 (handed to the main loop by poll(), raised there)
            search.error = exc
        finally:
            search.done.set()
            if self.wake is not None and not search.stop.is_set():
                self.wake()

    def poll(self) -> Optional[int]:
        """The chosen column (0-based) once the search is over, else ``None``; an error the search
        raised is raised here."""
        search = self._search
        if search is None or not search.done.is_set():
            return None
        if search.error is not None:
            raise search.error
        return search.column

    def cancel(self) -> None:
        """Stop searching (the match was abandoned) and wait briefly for the thread."""
        search = self._search
        if search is None:
            return
        search.stop.set()
        if search.thread is not None:
            search.thread.join(timeout=2.0)
