"""The computer's levels: one ladder, :data:`LEVELS` (name -> how it plays), weakest first.

Nine levels from a beginner to perfect play, each scoring about a quarter of the points
against the next one up (docs/BENCHMARKS.md, *The ladder*, measures them: an Elo per level,
a uniformly random player at 0).  Below perfect every level is a :class:`.sight.Sight`: it
knows exactly the outcomes decided within a horizon of plies drawn anew at each move, and
judges the other moves by a heuristic blurred by a noise (the model is written in
:mod:`.sight`).  What a level is depends on what it knows, not on how long it may think:
the same level is as strong on a Pi Zero as on a Pi 5.  Perfect is :class:`.oracle.Oracle`
(books, then the exact solver).

Where a level is offered: on the board sizes where its slowest move fits its budget on a
Pi 4 with the solver core that runs (``benchmarks/ladder.py --costs``: a fifth of the budget on
a CI-class PC), as for perfect, and on 7 x 6 with either core (as perfect is: with the Python
core a few upper-level moves of long games run out of a Pi 4's budget, docs/BENCHMARKS.md
counts them); not where it would see to the end of the game from the first move (there it
would be perfect, which is offered instead).

The names are what the records keep.  ``easy``, ``medium``, ``hard`` and ``perfect`` are the
names the records have held from the first version, kept as rungs of the ladder near the
strengths they had (medium, hard and perfect about the same; easy some 200 Elo stronger: the
old easy was below the beginner a ladder of nine steps can start from), so older records,
``stats`` and interrupted matches read on without a translation.  The chooser on the LEDs
shows each level's number (its place here, from 1).  :data:`~..match.words.LEVEL_WORDS` says, for people,
how each plays and how strong it is.

The table's facts (names, horizons, budgets, sizes) are :data:`.rungs.RUNGS`, which loads
nothing of the search: adding a level is adding a row there (and its words): the engine, the
computer player, the command line, the chooser on the LEDs and the benchmarks all read it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from ..rules import Size
from .limit import Budget, Limit
from .oracle import Oracle, default_oracle
from .position import Position
from .result import SearchResult
from .rungs import (DEFAULT_SECONDS, NATIVE_PERFECT_SIZES, PERFECT_SECONDS, PERFECT_SIZES, RUNGS, Rung,
                    number)
from .sight import Sight

__all__ = ["DEFAULT_SECONDS", "LADDER", "LEVELS", "NATIVE_PERFECT_SIZES", "PERFECT_SECONDS", "PERFECT_SIZES",
           "Level", "Search", "number", "perfect"]


@dataclass(frozen=True)
class Search:
    """One call's inputs, as every level's function receives them."""

    position: Position
    rng: random.Random
    limit: Limit
    budget: Budget
    """The started :attr:`limit`, handed down to every search of the call."""
    oracle: Optional[Oracle] = None
    """The oracle of the exact scores (``None``: the process's default for the board size)."""


@dataclass(frozen=True)
class Level:
    """A playing level: its row of the ladder (:class:`.rungs.Rung`) and how it plays."""

    rung: Rung
    play: Callable[[Search], SearchResult]
    """Its move in a position: a :class:`.sight.Sight` below perfect, :func:`perfect` at the top."""

    @property
    def name(self) -> str:
        return self.rung.name

    @property
    def seconds(self) -> float:
        """The default thinking budget per move (:attr:`.rungs.Rung.seconds`)."""
        return self.rung.seconds

    @property
    def sizes(self) -> Tuple[Size, ...]:
        """The board sizes the level is offered on (with the Python solver core)."""
        return self.rung.sizes

    @property
    def native_sizes(self) -> Optional[Tuple[Size, ...]]:
        """The board sizes it is offered on when the native solver core runs (``None``: the same)."""
        return self.rung.native_sizes

    def offered_sizes(self) -> Tuple[Size, ...]:
        """The board sizes the level is offered on with the solver core that runs."""
        return self.rung.offered_sizes()


def perfect(search: Search) -> SearchResult:
    """Exact play: the books, then the solver (see :class:`.oracle.Oracle`)."""
    oracle = search.oracle or default_oracle(search.position.shape.layout)
    with oracle.lock:  # a cancelled search still unwinding lets go within milliseconds
        return oracle.choose(search.position, search.rng, search.budget)


LADDER: Tuple[Level, ...] = tuple(
    Level(rung, perfect if rung.horizon is None else Sight(*rung.horizon)) for rung in RUNGS)
"""The ladder, weakest first (the order of the chooser, the command line and the benchmarks)."""

LEVELS: Dict[str, Level] = {level.name: level for level in LADDER}
"""Every level by name, weakest first."""
