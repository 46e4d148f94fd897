"""What a match records, as a protocol: :class:`MatchRecorder`.

The match (:mod:`sensehat_c4.match.controller`) calls only these four methods, at its start,
at each round's start, after each move (or take-back) and at its end, and reads the match's
:attr:`~MatchRecorder.number` in the records (the number it says and prints).  :class:`~.writer.Recorder` provides
them (into the games database); so does the LAN host's :class:`~sensehat_c4.lan.records.RecordTee`
(into its recorder, and each call to the guest), with no common base class.  A recorder never
raises into the game.
"""
from __future__ import annotations

from typing import Optional, Protocol, Tuple

from ..rules import Board, Starts
from .rows import Side
from .schema import RoundFacts

__all__ = ["NO_FACTS", "MatchRecorder", "RoundFacts"]

NO_FACTS = RoundFacts()
"""A round with none of the facts: no computer, no helps."""


class MatchRecorder(Protocol):
    """Where a match is kept as it is played (each call never raises into the game)."""

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None:
        """A new match: who plays each seat, the board's size, the backend, who starts, the wins it takes."""

    def start_round(self) -> None:
        """A new round of the match being kept."""

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None,
               facts: RoundFacts = NO_FACTS) -> None:
        """Round ``number`` (started by seat ``starter``) is ``board`` now: a move was played, or
        taken back (``match_winner``: the seat it made the match's winner; ``facts``: the round's so far,
        each kept in its column)."""

    def end_match(self, winner: Optional[int]) -> None:
        """The match ended (``winner``: its seat; ``None``: abandoned)."""

    @property
    def number(self) -> Optional[int]:
        """The records' number of the match being kept (or of the last one, once ended): what ``history``
        calls it; ``None`` until its row is written, and for a match that is not kept."""
