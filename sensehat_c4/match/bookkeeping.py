"""What a match writes in the records: the bridge from :class:`~.controller.Match` to its
:class:`~..records.MatchRecorder` (none: nothing is kept).  Each call commits at once, so an interrupted
match can be taken up from its last move (:mod:`.resume`); a round's facts beside its moves
(:class:`~..records.RoundFacts`: the computer's level, the helps used) come from ``facts``.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence, Tuple

from ..records import MatchRecorder, RoundFacts, Side
from ..rules import Board, Starts


class Bookkeeper:
    """Keeps one match in ``recorder``: ``wins`` round wins take it; ``facts`` are the round's so far."""

    def __init__(self, recorder: Optional[MatchRecorder], *, wins: int, facts: Callable[[], RoundFacts]) -> None:
        self.recorder = recorder
        self._wins = wins
        self._facts = facts

    @property
    def number(self) -> Optional[int]:
        """The match's number in the records (``None``: not written, or no records)."""
        return None if self.recorder is None else self.recorder.number

    def start(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str, starts: Starts) -> None:
        """A new match (a resumed one's recorder goes on with its row: not called)."""
        if self.recorder is not None:
            self.recorder.start_match(sides, columns=columns, rows=rows, backend=backend, starts=starts,
                                      wins=self._wins)

    def start_round(self) -> None:
        """A new round, from its start."""
        if self.recorder is not None:
            self.recorder.start_round()

    def moved(self, number: int, starter: int, board: Board, score: Sequence[int]) -> None:
        """Commit the move just played in round ``number`` (started by seat ``starter``), with the round's
        result, and the match's if it decides it (``score``: before this round's result)."""
        if self.recorder is None:
            return
        outcome = board.outcome
        decided = None
        if outcome is not None and outcome.winner is not None:
            seat = starter if outcome.winner == 1 else 3 - starter
            if score[seat - 1] + 1 >= self._wins:
                decided = seat
        self.recorder.played(number, starter, board, match_winner=decided, facts=self._facts())

    def helped(self, number: int, starter: int, board: Board) -> None:
        """Commit the round's counts now (after a hint or a take-back), if it has a row to keep them."""
        if self.recorder is None:
            return
        facts = self._facts()
        if board.ply or facts.takebacks:
            self.recorder.played(number, starter, board, facts=facts)

    def end(self, winner: Optional[int]) -> None:
        """Keep the match's end (``None``: abandoned; its round in play is kept as abandoned, if it had a move)."""
        if self.recorder is not None:
            self.recorder.end_match(winner)
