"""The line printed after each match, by ``sensehat-c4`` and in the launcher, whichever loop played it
(the match loop, :mod:`..lan`'s host and guest)."""
from __future__ import annotations

from typing import Optional, Tuple

from .computer import Computer
from .controller import MatchResult, seat_names

Names = Tuple[Optional[str], Optional[str]]


def result_line(number: int, computer: Optional[Computer], result: MatchResult, names: Optional[Names] = None) -> str:
    """The line printed after each match, by ``sensehat-c4`` and in the launcher:
    ``match 2 (computer: easy, player 2): player 1 wins 2-1`` (a name for a person's seat; by
    default the match's own)."""
    who = "" if computer is None else f" (computer: {computer.level}, player {computer.player})"
    return f"match {number}{who}: {result.summary(None if names is None else seat_names(names, computer))}"


def print_result(number: int, computer: Optional[Computer], result: MatchResult,
                 names: Optional[Names] = None) -> None:
    """Print :func:`result_line` on standard output (the terminal backend shows it under the board,
    and again after the board has gone)."""
    print(result_line(number, computer, result, names), flush=True)
