"""The line printed after each match, by ``sensehat-c4`` and in the launcher, whichever loop played it
(the match loop, :mod:`..lan`'s host and guest)."""
from __future__ import annotations

from typing import Optional, Tuple

from ..i18n import _
from .computer import Computer
from . import words
from .controller import MatchResult, seat_names

Names = Tuple[Optional[str], Optional[str]]


def result_line(number: int, computer: Optional[Computer], result: MatchResult, names: Optional[Names] = None) -> str:
    """The line printed after each match, by ``sensehat-c4`` and in the launcher:
    ``match 2 (computer: easy, player 2): player 1 wins 2-1`` (a name for a person's seat; by
    default the match's own)."""
    summary = result.summary(None if names is None else seat_names(names, computer))
    if computer is None:
        return _("match {number}: {summary}").format(number=number, summary=summary)
    return _("match {number} (computer: {level}, player {seat}): {summary}").format(
        number=number, level=words.level_name(computer.level), seat=computer.player, summary=summary)


def print_result(number: int, computer: Optional[Computer], result: MatchResult,
                 names: Optional[Names] = None) -> None:
    """Print :func:`result_line` on standard output (the terminal backend shows it under the board,
    and again after the board has gone)."""
    print(result_line(number, computer, result, names), flush=True)
