""""Match me": an opponent that climbs or descends the ladder to meet the person's strength.

After each round the person won, the opponent goes up the ladder; after each round they
lost, down; after a draw it stays.  How far:

* **First, halving the distance.** A new series does not know the person: the first round that
  moves it goes half the way to the end of the levels it goes toward (from either end of nine
  levels, four levels: to the middle), and it goes on by that stride while the rounds go the
  same way (from an end, the second round reaches the other end).  The first round that goes
  the other way halves the stride, and so does each later one, down to one level.  From an end
  it starts at, the first round going away leaves it at once: a person who loses to perfect, or
  beats easy, from the first round is not made to show it twice.
* **Then one level at a time.** Once the stride is one level, steps are one level; from the
  third round in a row going the same way they are two (so a person whose strength changes is
  followed within a few rounds), and the first round that goes the other way brings it back to
  single steps.  Once a round has gone the other way, it leaves either end of the levels only
  after two rounds in a row going that way, by one level: a person as weak as the lowest level,
  or as strong as the highest, then plays mostly that level rather than being pushed past it
  and back.

It never leaves the levels it is given (the ladder as offered on the board size played).
Around the person's strength it goes up and down a level at a time, so the person scores about
half the points: each level scores about a quarter against the next one up.  A series going on
from one played before (the records' last round, an interrupted match) starts settled, at one
level a step (:meth:`MatchMe.starting`'s ``settled``).  ``benchmarks/ladder.py --match-me``
measures it with the ladder's own levels as the players (the score over the first ten rounds
from either end, and the settling from every start); ``tests/engine/test_engine_matchme.py``
checks the steps, and that it settles within 10 rounds from either end.

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
"""Once settled: from this many rounds in a row going the same way, the steps are :data:`FAST_STEP` levels."""
FAST_STEP = 2
LEAVE_END_AFTER = 2
"""Once a round has gone the other way: rounds in a row going the same way it takes to leave either end."""


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
    stride: int = field(default=0)
    """The levels a step goes while it halves the distance (0: it has not moved yet; 1: settled)."""
    way: Round = field(default=Round.DRAWN)
    """The last won or lost round's result (``DRAWN``: none yet)."""
    turned: bool = field(default=False)
    """True once a won or lost round has gone the other way from the one before it."""

    def __post_init__(self) -> None:
        self.levels = tuple(self.levels)
        if self.level not in self.levels:
            raise ConfigError(_("match me starts from one of {levels} (not {level!r})").format(
                levels=", ".join(self.levels), level=self.level))

    @classmethod
    def starting(cls, levels: Sequence[str], start: str, *, settled: bool = False) -> "MatchMe":
        """A new opponent at ``start`` on ``levels``: a new series, halving the distance first, or
        (``settled``) one going on from rounds played before, at one level a step."""
        if settled:
            return cls(tuple(levels), start, stride=1, turned=True)
        return cls(tuple(levels), start)

    def after(self, result: Round) -> str:
        """Take a round's result; the level of the next round."""
        result = Round(result)
        if result is Round.DRAWN:
            self.streak = 0
            return self.level
        self.streak = self.streak + result if self.streak * result > 0 else int(result)
        if self.way is not Round.DRAWN and result is not self.way:
            self.turned = True
            self.stride = max(1, self.stride // 2)
        self.way = result
        here, top = self.levels.index(self.level), len(self.levels) - 1
        if (here == 0 and result is Round.LOST) or (here == top and result is Round.WON):
            return self.level  # nowhere further that way
        if not self.turned:
            if not self.stride:  # the first move: half the way to the end it goes toward
                far = top - here if result is Round.WON else here
                self.stride = max(1, (far + 1) // 2)
            step = self.stride
        elif here in (0, top):  # leaving an end
            if abs(self.streak) < LEAVE_END_AFTER:
                return self.level
            step = 1
        elif self.stride > 1:
            step = self.stride
        else:
            step = FAST_STEP if abs(self.streak) >= FAST_AFTER else 1
        self.level = self.levels[max(0, min(top, here + step * result))]
        return self.level
