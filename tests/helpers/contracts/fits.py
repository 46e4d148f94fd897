"""Fakes that fit the typed contracts (mypy --strict finds nothing here; test_contracts runs it and
uses the fakes): a solver core, a match's recorder and a LAN session, none deriving from ours."""
from __future__ import annotations

from typing import List, Optional, Tuple

from gamelib.animation import Animation
from gamelib.backends.mock import MockBackend
from gamelib.waiting import DUE, WOKEN, Wake, wait
from gamelib.backends.base import StickEvent
from sensehat_c4.engine.cores import Core
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.lan.remote import RemotePlayer, RemoteSession
from sensehat_c4.match.opponents import HUMAN, Opponent, OpponentKind
from sensehat_c4.records import NO_FACTS, MatchRecorder, RoundFacts, Side
from sensehat_c4.rules import Board, Starts


class FakeCore:
    """Answers ``answer`` for every position, and keeps the positions it was asked."""

    name = "fake"

    def __init__(self, answer: int) -> None:
        self.answer = answer
        self.asked: List[Position] = []
        self.nodes = 0

    def reset(self) -> None:
        self.asked.clear()

    def score(self, position: Position, budget: Budget, *, window: Optional[Tuple[int, int]] = None) -> int:
        self.asked.append(position)
        self.nodes += 1
        budget.nodes += 1
        return self.answer

    def at_most(self, position: Position, value: int, budget: Budget) -> bool:
        return self.score(position, budget) <= value


class Calls:
    """A match's recorder that keeps each call as a tuple (the board as its moves), and numbers a match 7."""

    def __init__(self) -> None:
        self.calls: List[Tuple[object, ...]] = []

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None:
        self.calls.append(("start_match", sides, columns, rows, backend, starts, wins))

    def start_round(self) -> None:
        self.calls.append(("start_round",))

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None,
               facts: RoundFacts = NO_FACTS) -> None:
        self.calls.append(("played", number, starter, board.notation(), match_winner, facts))

    def end_match(self, winner: Optional[int]) -> None:
        self.calls.append(("end_match", winner))

    @property
    def number(self) -> Optional[int]:
        """The match's number in these records: 7 once a move was kept (a row written), else none."""
        return 7 if any(call[0] == "played" for call in self.calls) else None


class Session:
    """The other Pi's session as the seat sees it."""

    source = "lan:1"
    gone = False


core: Core = FakeCore(0)
recorder: MatchRecorder = Calls()
session: RemoteSession = Session()
player = RemotePlayer(Session())
opponent: Opponent = Opponent(OpponentKind.COMPUTER, "easy")
kind: OpponentKind = HUMAN.kind


def waits(backend: MockBackend) -> Optional[StickEvent]:
    """What :func:`~gamelib.waiting.wait` gives: a :class:`Wake` or an event (checked, not run)."""
    got = wait(backend, Animation(backend).deadline)
    if isinstance(got, Wake):
        assert got in (DUE, WOKEN)
        return None
    return got
