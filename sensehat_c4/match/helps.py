"""A round's helps (:attr:`~.controller.MatchOptions.helps`): the hint being searched, and the counts of
hints shown and take-backs that the round's record keeps (:class:`~..records.RoundFacts`).

The match (:class:`~.controller.Match`) decides when a hint is asked and shows it; this part starts the
solver's search, asks it for its answer, checks the column and counts.
"""
from __future__ import annotations

import logging
import random
from typing import Callable, Optional

from ..i18n import _
from ..records import RoundFacts
from ..rules import Board
from .computer import Computer
from .players import Player

log = logging.getLogger("sensehat_c4")

HINT_SECONDS = 2.0
"""The solver's budget for a hint (its best move found so far is shown when it runs out)."""


class Helps:
    """The hints and take-backs of the round in play: ``make`` makes the solver's player that finds a
    hint (``(computer, seed)`` -> a :class:`~.players.Player`), seeded from ``rng``."""

    def __init__(self, make: Callable[[Computer, int], Player], rng: random.Random) -> None:
        self._make = make
        self._rng = rng
        self._search: Optional[Player] = None
        """The search of a hint asked for in this turn, until it answers."""
        self.hints = 0
        """Hints shown in the round in play."""
        self.takebacks = 0
        """Take-backs in the round in play."""

    @property
    def searching(self) -> bool:
        """True while a hint asked for has not answered."""
        return self._search is not None

    def ask(self, board: Board, seat: int) -> bool:
        """Start the solver's search for ``seat``'s best column on ``board``; False if one already runs."""
        if self._search is not None:
            return False
        self._search = self._make(Computer("perfect", player=seat, seconds=HINT_SECONDS), self._rng.randrange(2 ** 32))
        self._search.start(board.copy())
        return True

    def answer(self, board: Board) -> Optional[int]:
        """The hint's column, counted as shown, once the search has one; ``None`` while it searches, or
        if it answered a column ``board`` cannot play (said in the log, and the search is over)."""
        if self._search is None:
            return None
        column = self._search.poll()
        if column is None:
            return None
        self._search = None
        if not (0 <= column < board.columns and board.can_play(column)):
            log.warning(_("the hint chose column {column!r}, which cannot be played; ignored").format(column=column))
            return None
        self.hints += 1
        return column

    def drop(self) -> None:
        """Forget the hint being searched (the turn ended)."""
        if self._search is not None:
            self._search.cancel()
            self._search = None

    def take_back(self, board: Board) -> None:
        """Undo the person's last move and the computer's reply on ``board`` (it has both), and count it;
        a hint being searched is forgotten."""
        self.drop()
        board.pop()
        board.pop()
        self.takebacks += 1

    def restart(self, hints: int = 0, takebacks: int = 0) -> None:
        """A new round's counts (a resumed round's: the ones it had)."""
        self.hints, self.takebacks = hints, takebacks

    def facts(self, level: Optional[str]) -> RoundFacts:
        """What the round's record keeps: the computer's ``level`` played, the helps used."""
        return RoundFacts(level=level, hints=self.hints, takebacks=self.takebacks)
