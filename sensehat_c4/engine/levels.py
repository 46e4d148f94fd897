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
shows each level's number (its place here, from 1).  :data:`WORDS` says, for people, how each plays and
how strong it is.

Adding a level is adding a row here (and its words): the engine, the computer player,
the command line, the chooser on the LEDs and the benchmarks all read this table.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from ..rules import SIZES, Size
from . import cores
from .limit import Budget, Limit
from .oracle import Oracle, default_oracle
from .position import Position
from .result import SearchResult
from .sight import Sight
from .strategy import strategy_path

DEFAULT_SECONDS = 1.0
"""The budget per move of the two lowest levels, in wall-clock seconds on any machine: a safety
net, as their work is bounded by their short horizons (they answer within milliseconds)."""
PERFECT_SIZES: Tuple[Size, ...] = (Size(4, 4), Size(5, 4), Size(6, 4), Size(4, 5), Size(4, 6), Size(7, 6))
"""The board sizes where perfect is offered with the Python solver core: where its worst move
fits its budget on a Pi 4 (about 320,000 positions; ``benchmarks/sizes.py``: docs/guide/computer.md,
"Where each level plays")."""
STRATEGY_SIZES: Tuple[Size, ...] = tuple(s for s in (Size(8, 6),) if strategy_path(s).is_file())
"""The sizes perfect plays from a strategy book (:mod:`.strategy`): 8x6 where its book is shipped."""
NATIVE_PERFECT_SIZES: Tuple[Size, ...] = tuple(s for s in SIZES if s in PERFECT_SIZES + (
    Size(5, 5), Size(6, 5), Size(7, 4), Size(5, 6), Size(8, 4), Size(7, 5), Size(6, 6), Size(8, 5)) + STRATEGY_SIZES)
"""With the native core: also 5x5, 6x5, 7x4, 5x6, with their shipped books of the first four
stones (``data/book-WxH.bin``) 8x4, 7x5 and 6x6, with its book of the first six 8x5, and 8x6
with its strategy book (``data/strategy-8x6.bin``): without it its first moves take minutes
(``benchmarks/sizes.py``; docs/guide/computer.md, "Perfect on other board sizes")."""
PERFECT_SECONDS = 8.0
"""The budget of perfect and of the levels from steady up: they mostly answer within
milliseconds, but some positions just past the 12-ply book need seconds (docs/BENCHMARKS.md,
"Engine" and "The ladder")."""



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
    """A row of the levels table."""

    name: str
    play: Callable[[Search], SearchResult]
    """Its move in a position: a :class:`.sight.Sight` below perfect, :func:`perfect` at the top."""
    seconds: float
    """The default thinking budget per move: a safety net below perfect (their work is bounded by
    their horizon, and ``benchmarks/ladder.py`` checks they finish well within it)."""
    sizes: Tuple[Size, ...] = SIZES
    """The board sizes the level is offered on (with the Python solver core)."""
    native_sizes: Optional[Tuple[Size, ...]] = None
    """The board sizes it is offered on when the native solver core runs (``None``: the same)."""

    def offered_sizes(self) -> Tuple[Size, ...]:
        """The board sizes the level is offered on with the solver core that runs."""
        if self.native_sizes is not None and cores.core_name() == "native":
            return self.native_sizes
        return self.sizes


def perfect(search: Search) -> SearchResult:
    """Exact play: the books, then the solver (see :class:`.oracle.Oracle`)."""
    oracle = search.oracle or default_oracle(search.position.shape.layout)
    with oracle.lock:  # a cancelled search still unwinding lets go within milliseconds
        return oracle.choose(search.position, search.rng, search.budget)


def but(*names: str) -> Tuple[Size, ...]:
    """Every size the game offers but those named (``"8x6"``)."""
    return tuple(size for size in SIZES if str(size) not in names)


def seeing(sight: Sight, sizes: Tuple[Size, ...]) -> Tuple[Size, ...]:
    """``sizes`` but those where ``sight`` sees to the end of the game from the first move: it is
    perfect there, and perfect is offered instead."""
    return tuple(size for size in sizes if sight.low < size.cells)


def sighted(name: str, sight: Sight, seconds: float, python: Tuple[Size, ...], native: Tuple[Size, ...]) -> Level:
    """A level below perfect, offered where its slowest move fits its budget on a Pi 4 with each core
    (``benchmarks/ladder.py --costs``), and where it does not see to the end from the first move."""
    return Level(name, sight, seconds, seeing(sight, python), seeing(sight, native))


SMALL = tuple(Size.parse(text) for text in ("4x4", "5x4", "6x4", "4x5", "4x6"))
"""The boards of at most 24 cells: there every level's slowest move is short even with the Python core."""

LADDER: Tuple[Level, ...] = (
    sighted("easy", Sight(1, 3, 1.0), DEFAULT_SECONDS, SIZES, SIZES),
    sighted("casual", Sight(2, 7, 0.9), DEFAULT_SECONDS, SIZES, SIZES),
    sighted("steady", Sight(7, 13, 0.75), PERFECT_SECONDS, SIZES, SIZES),
    sighted("medium", Sight(15, 21, 0.55), PERFECT_SECONDS, but("8x4", "8x5", "8x6"), SIZES),
    sighted("tough", Sight(21, 27, 0.37), PERFECT_SECONDS, SMALL + (Size(),), but("8x6")),
    sighted("hard", Sight(25, 31, 0.4), PERFECT_SECONDS, SMALL + (Size(),), but("8x6")),
    sighted("expert", Sight(28, 34, 0.33), PERFECT_SECONDS, SMALL + (Size(5, 5), Size()), but("8x6")),
    sighted("master", Sight(31, 37, 0.3), PERFECT_SECONDS, SMALL + (Size(),), but("8x5", "8x6")),
    Level("perfect", perfect, PERFECT_SECONDS, PERFECT_SIZES, NATIVE_PERFECT_SIZES),
)
"""The ladder, weakest first (the order of the chooser, the command line and the benchmarks)."""

LEVELS: Dict[str, Level] = {level.name: level for level in LADDER}
"""Every level by name, weakest first."""

WORDS: Dict[str, str] = {
    "easy": "sees its wins in one and, two times in three, your threats to block; plays by feel beyond "
            "(Elo about 780)",
    "casual": "sees wins and losses 2 to 7 stones ahead (yours and its own); plays by feel beyond "
              "(Elo about 960)",
    "steady": "sees wins and losses 7 to 13 stones ahead; plays by feel beyond (Elo about 1130)",
    "medium": "sees wins and losses 15 to 21 stones ahead; plays by feel beyond (Elo about 1310)",
    "tough": "sees wins and losses 21 to 27 stones ahead; plays by feel beyond (Elo about 1520)",
    "hard": "sees wins and losses 25 to 31 stones ahead; plays by feel beyond (Elo about 1700)",
    "expert": "sees wins and losses 28 to 34 stones ahead: most of a game after its first moves "
              "(Elo about 1900)",
    "master": "sees wins and losses 31 to 37 stones ahead: slips only in the opening (Elo about 2090)",
    "perfect": "sees to the end: a move of optimal value in every position; starting on 7x6 it always "
               "wins (Elo about 2280)",
}
"""How each level plays and how strong it is, in words for people (the chooser's and docs/guide/computer.md's):
one place, to move into a translation catalogue.  Elo on 7x6 with a uniformly random player at 0
(docs/BENCHMARKS.md, *The ladder*); a stone ahead is one ply, either player's."""


def number(name: str) -> int:
    """A level's number on the ladder (the chooser's digit): 1 for the weakest."""
    return list(LEVELS).index(name) + 1
