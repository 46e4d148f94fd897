"""The computer's levels: one table, :data:`LEVELS` (name -> how it plays).

* easy: no search; takes an immediate win 80% of the time, blocks an immediate threat
  60% of the time, otherwise picks a move at random, weighted towards the centre and
  towards making threats, and mostly (not always) avoids giving away a win.
* medium: alpha-beta up to 4 plies deep with the heuristic of :mod:`.heuristic`.
* hard: the same search, deepened one ply at a time until the budget runs out (the
  last finished depth decides).
* perfect: :class:`.oracle.Oracle` (books, then the exact solver).

Adding a level is adding a function and a row here: the engine, the computer player,
the command line, the chooser on the LEDs and the benchmarks all read this table.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from ..rules import SIZES, Size
from . import cores
from .heuristic import deepen, pick
from .limit import Budget, Limit
from .oracle import Oracle, default_oracle
from .position import Position, popcount
from .result import SearchResult
from .strategy import strategy_path

DEFAULT_SECONDS = 1.0
"""Thinking budget per move, in wall-clock seconds on any machine (easy and medium answer
much sooner; hard deepens its search until the budget ends)."""
PERFECT_SIZES: Tuple[Size, ...] = (Size(4, 4), Size(5, 4), Size(6, 4), Size(4, 5), Size(4, 6), Size(7, 6))
"""The board sizes where perfect is offered with the Python solver core: where its worst move
fits its budget on a Pi 4 (about 320,000 positions; ``benchmarks/sizes.py``: README, "The
computer opponent")."""
STRATEGY_SIZES: Tuple[Size, ...] = tuple(s for s in (Size(8, 6),) if strategy_path(s).is_file())
"""The sizes perfect plays from a strategy book (:mod:`.strategy`): 8x6 where its book is shipped."""
NATIVE_PERFECT_SIZES: Tuple[Size, ...] = tuple(s for s in SIZES if s in PERFECT_SIZES + (
    Size(5, 5), Size(6, 5), Size(7, 4), Size(5, 6), Size(8, 4), Size(7, 5), Size(6, 6), Size(8, 5)) + STRATEGY_SIZES)
"""With the native core: also 5x5, 6x5, 7x4, 5x6, with their shipped books of the first four
stones (``data/book-WxH.bin``) 8x4, 7x5 and 6x6, with its book of the first six 8x5, and 8x6
with its strategy book (``data/strategy-8x6.bin``): without it its first moves take minutes
(``benchmarks/sizes.py``; README, "Perfect on other board sizes")."""
PERFECT_SECONDS = 8.0
"""The perfect level's default budget: it mostly answers within milliseconds, but some
positions just past its 12-ply book need seconds (docs/BENCHMARKS.md, "Engine")."""

MEDIUM_DEPTH = 4
HARD_UNBOUNDED_DEPTH = 10
"""Hard's depth when it is given no limit at all (so that it ends: about a second)."""


@dataclass(frozen=True)
class Search:
    """One call's inputs, as every level's function receives them."""

    position: Position
    rng: random.Random
    limit: Limit
    budget: Budget
    """The started :attr:`limit`, handed down to every search of the call."""
    oracle: Optional[Oracle] = None
    """Perfect's oracle (``None``: the process's default for the board size)."""


@dataclass(frozen=True)
class Level:
    """A row of the levels table."""

    name: str
    play: Callable[[Search], SearchResult]
    seconds: float
    """The default thinking budget per move."""
    sizes: Tuple[Size, ...] = SIZES
    """The board sizes the level is offered on (with the Python solver core)."""
    native_sizes: Optional[Tuple[Size, ...]] = None
    """The board sizes it is offered on when the native solver core runs (``None``: the same)."""

    def offered_sizes(self) -> Tuple[Size, ...]:
        """The board sizes the level is offered on with the solver core that runs."""
        if self.native_sizes is not None and cores.core_name() == "native":
            return self.native_sizes
        return self.sizes


def easy(search: Search) -> SearchResult:
    """A child's opponent: good habits, with lapses."""
    position, rng = search.position, search.rng
    shape = position.shape
    current, mask = position.current, position.mask
    possible = position.possible
    mine = shape.winning_cells(current, mask)
    theirs = shape.winning_cells(current ^ mask, mask)
    columns = position.legal_columns()
    wins = [c for c in columns if possible & shape.column_masks[c] & mine]
    if wins and rng.random() < 0.8:
        return SearchResult(rng.choice(wins), "win")
    blocks = [c for c in columns if possible & shape.column_masks[c] & theirs]
    if blocks and rng.random() < 0.6:
        return SearchResult(rng.choice(blocks), "block")
    weights = []
    careful = rng.random() < 0.7
    for c in columns:
        move = possible & shape.column_masks[c]
        weight: float = shape.centre_weight[c]
        weight += 2 * popcount(shape.winning_cells(current | move, mask | move))
        if careful and (move << 1) & theirs:
            weight = 0.1  # the opponent would win on top of it
        weights.append(weight)
    return SearchResult(rng.choices(columns, weights)[0], "weighted")


def medium(search: Search) -> SearchResult:
    """A short search (at most :data:`MEDIUM_DEPTH` plies, or the limit's depth); ties split at random."""
    return _deepening(search, min(MEDIUM_DEPTH, search.limit.depth or MEDIUM_DEPTH))


def hard(search: Search) -> SearchResult:
    """Iterative deepening until the budget runs out or the result is proven."""
    cells = search.position.shape.cells
    default = cells if search.limit.bounded else HARD_UNBOUNDED_DEPTH
    return _deepening(search, search.limit.depth or default)


def _deepening(search: Search, max_depth: int) -> SearchResult:
    values, depth = deepen(search.position, search.budget, max_depth)
    column, value = pick(values, search.rng)
    return SearchResult(column, "search", value=value, depth=depth)


def perfect(search: Search) -> SearchResult:
    """Exact play: the books, then the solver (see :class:`.oracle.Oracle`)."""
    oracle = search.oracle or default_oracle(search.position.shape.layout)
    with oracle.lock:  # a cancelled search still unwinding lets go within milliseconds
        return oracle.choose(search.position, search.rng, search.budget)


LEVELS: Dict[str, Level] = {level.name: level for level in (
    Level("easy", easy, DEFAULT_SECONDS),
    Level("medium", medium, DEFAULT_SECONDS),
    Level("hard", hard, DEFAULT_SECONDS),
    Level("perfect", perfect, PERFECT_SECONDS, PERFECT_SIZES, NATIVE_PERFECT_SIZES),
)}
"""Every level by name, weakest first (the order of the chooser and the command line)."""
