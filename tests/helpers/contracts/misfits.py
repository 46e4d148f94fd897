"""What the typed contracts refuse: each line marked ``# refused`` is an error of mypy --strict
(test_contracts runs it and compares the lines it names with the marks)."""
from __future__ import annotations

from typing import Optional, Tuple

from sensehat_c4.engine.cores import Core
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.lan.remote import RemotePlayer
from sensehat_c4.match.game import play_matches
from sensehat_c4.match.opponents import Opponent
from sensehat_c4.records import NO_FACTS, MatchRecorder, RoundFacts
from sensehat_c4.rules import Board, Starts
from gamelib.backends.mock import MockBackend


class NoNullWindow:
    """A core without ``at_most``."""

    name = "fake"
    nodes = 0

    def reset(self) -> None: ...

    def score(self, position: Position, budget: Budget, *, window: Optional[Tuple[int, int]] = None) -> int:
        return 0


class ColumnScores:
    """A core whose ``score`` answers a column's scores, not one score."""

    name = "fake"
    nodes = 0

    def reset(self) -> None: ...

    def score(self, position: Position, budget: Budget, *, window: Optional[Tuple[int, int]] = None) -> str:
        return "0"

    def at_most(self, position: Position, value: int, budget: Budget) -> bool:
        return True


class Forgetful:
    """A recorder without ``end_match``."""

    def start_match(self, sides: object, *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None: ...

    def start_round(self) -> None: ...

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None,
               facts: RoundFacts = NO_FACTS) -> None: ...

    @property
    def number(self) -> Optional[int]: ...


class Helpless:
    """A recorder whose ``played`` keeps no level, hints or take-backs (schema 3's)."""

    def start_match(self, sides: object, *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None: ...

    def start_round(self) -> None: ...

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None) -> None: ...

    def end_match(self, winner: Optional[int]) -> None: ...

    @property
    def number(self) -> Optional[int]: ...


class Nameless:
    """A session whose presses have no source."""

    gone = False


core: Core = NoNullWindow()  # refused
other: Core = ColumnScores()  # refused
recorder: MatchRecorder = Forgetful()  # refused
helpless: MatchRecorder = Helpless()  # refused
player = RemotePlayer(Nameless())  # refused
play_matches(MockBackend(), opponent="human")  # refused
level = Opponent.computer("easy").level + "!"  # refused
