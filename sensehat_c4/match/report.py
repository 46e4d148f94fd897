"""The line printed after each match, by ``sensehat-c4`` and in the launcher, whichever loop played it
(the match loop, :mod:`..lan`'s host and guest): the match numbered as the records number it."""
from __future__ import annotations

from typing import Optional, Tuple

from ..i18n import _
from .computer import Computer
from . import words
from .controller import MatchResult, seat_names

Names = Tuple[Optional[str], Optional[str]]


def result_line(computer: Optional[Computer], result: MatchResult, names: Optional[Names] = None) -> str:
    """The line printed after each match, by ``sensehat-c4`` and in the launcher:
    ``match 2 (computer: easy, player 2): player 1 wins 2-1`` (a name for a person's seat; by
    default the match's own), numbered as ``history`` numbers it (:attr:`MatchResult.number`;
    ``match not recorded ...`` for a match the records do not keep)."""
    summary = result.summary(None if names is None else seat_names(names, computer))
    if computer is None:
        return words.match_line(result.number, summary)
    against = dict(level=words.level_name(computer.level), seat=computer.player, summary=summary)
    if result.number is None:
        return _("match not recorded (computer: {level}, player {seat}): {summary}").format(**against)
    return _("match {number} (computer: {level}, player {seat}): {summary}").format(number=result.number, **against)


def print_result(computer: Optional[Computer], result: MatchResult, names: Optional[Names] = None) -> None:
    """Print :func:`result_line` on standard output (the terminal backend shows it under the board,
    and again after the board has gone)."""
    print(result_line(computer, result, names), flush=True)
