""""Match me": an opponent that climbs or descends the ladder to meet the person's strength.

After each round the person won, the opponent goes up the ladder; after each round they
lost, down; after a draw it stays.  Steps are one level; from the third round in a row
going the same way they are two (so an opponent that starts far from the person's strength
gets there within a few rounds), and the first round that goes the other way brings it back
to single steps.  It never leaves the levels it is given (the ladder as offered on the board
size played), and it leaves either end of them only after two rounds in a row going that
way: a person as weak as the lowest level, or as strong as the highest, then plays mostly
that level rather than being pushed past it and back.  Around the person's strength it then
goes up and down a level at a time, so the person scores about half the points: each level
scores about a quarter against the next one up (``benchmarks/ladder.py --match-me``
measures it with the ladder's own levels as the players; ``tests/engine/test_engine_matchme.py``
checks that it settles within 10 rounds from any start).

Pure: no I/O, no clock, no randomness; the match loop tells it each round's result.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Sequence, Tuple

from ..errors import ConfigError
from ..i18n import N_, _

__all__ = ["MatchMe", "Round", "FAST_AFTER", "FAST_STEP", "LEAVE_END_AFTER", "NAME", "WORD"]

NAME = "match-me"
"""Its name: what ``--opponent`` takes and a match's record keeps as the computer's level (each round
keeps the level it played); a value, never shown as it is."""
WORD = N_("match me")
"""Its name as people read it (translated where it is shown), as a level's is its rung's ``word``."""

FAST_AFTER = 3
"""From this many rounds in a row going the same way, the steps are :data:`FAST_STEP` levels."""
FAST_STEP = 2
LEAVE_END_AFTER = 2
"""Rounds in a row going the same way it takes to leave either end of the levels."""


class Round(enum.IntEnum):
    """A round's result for the person: what moves the opponent."""

    LOST = -1
    DRAWN = 0
    WON = 1


@dataclass
class MatchMe:
    """The opponent's place on ``levels`` (names, weakest first), moved by each round's result."""

    levels: Tuple[str, ...]
    level: str
    """The level to play now."""
    streak: int = field(default=0)
    """Rounds in a row the person won (positive) or lost (negative); 0 after a draw."""

    def __post_init__(self) -> None:
        self.levels = tuple(self.levels)
        if self.level not in self.levels:
            raise ConfigError(_("match me starts from one of {levels} (not {level!r})").format(
                levels=", ".join(self.levels), level=self.level))

    @classmethod
    def starting(cls, levels: Sequence[str], start: str) -> "MatchMe":
        """A new opponent at ``start`` on ``levels``."""
        return cls(tuple(levels), start)

    def after(self, result: Round) -> str:
        """Take a round's result; the level of the next round."""
        result = Round(result)
        if result is Round.DRAWN:
            self.streak = 0
            return self.level
        same_way = self.streak * result > 0
        self.streak = self.streak + result if same_way else int(result)
        step = FAST_STEP if abs(self.streak) >= FAST_AFTER else 1
        here, top = self.levels.index(self.level), len(self.levels) - 1
        at_end = (here == 0 and result is Round.WON) or (here == top and result is Round.LOST)
        if at_end and abs(self.streak) < LEAVE_END_AFTER:
            step = 0
        self.level = self.levels[max(0, min(top, here + step * result))]
        return self.level
