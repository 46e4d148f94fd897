"""A depth-limited alpha-beta search with a heuristic evaluation (the medium and hard levels).

Values are from the side to move's view.  Proven results are exact and outrank
every heuristic value: a win is ``WIN + score`` (the test sets' score, so a faster
win is worth more), a loss ``-(WIN + score)``.  Like the solver, the search never
plays under the opponent's winning cell, blocks a single threat and counts two
threats as lost, so it never misses a win in one or a block.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..errors import SearchAborted
from .solver import (BOARD, BOTTOM, CELLS, COLUMN_MASKS, ROWS_135, ROWS_246, non_losing, popcount, ranked_moves,
                     winning_cells)

CHECK_EVERY = 1024
"""Nodes between two looks at the budget (its nodes cost more than the solver's)."""

WIN = 1000
"""Proven wins score ``WIN + score``; heuristic values stay well inside ``(-WIN, WIN)``."""

CENTRE = COLUMN_MASKS[3]
NEAR_CENTRE = COLUMN_MASKS[2] | COLUMN_MASKS[4]


def evaluate(current: int, mask: int, moves: int) -> int:
    """Heuristic value for the side to move: threats (weighted by row parity) and the centre."""
    other = current ^ mask
    mine = winning_cells(current, mask)
    theirs = winning_cells(other, mask)
    if moves % 2 == 0:  # the side to move is player 1
        good_mine, good_theirs = ROWS_135, ROWS_246
    else:
        good_mine, good_theirs = ROWS_246, ROWS_135
    value = (6 * popcount(mine & good_mine) + 3 * popcount(mine & ~good_mine)
             - 6 * popcount(theirs & good_theirs) - 3 * popcount(theirs & ~good_theirs))
    value += 2 * (popcount(current & CENTRE) - popcount(other & CENTRE))
    value += popcount(current & NEAR_CENTRE) - popcount(other & NEAR_CENTRE)
    return value


@dataclass
class Budget:
    """When a search must stop: a deadline, a node count, a stop event (each optional)."""

    deadline: Optional[float] = None
    max_nodes: Optional[int] = None
    stop: Optional[threading.Event] = None
    nodes: int = 0

    def spent(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline


def _search(current: int, mask: int, moves: int, threats: int, depth: int,
            alpha: int, beta: int, budget: Budget) -> int:
    """Negamax value to ``depth`` more plies; the side to move cannot win at once."""
    budget.nodes += 1
    if budget.nodes & (CHECK_EVERY - 1) == 0 and budget.spent():
        raise SearchAborted("the search was stopped")
    possible = (mask + BOTTOM) & BOARD
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -(WIN + (CELLS - moves) // 2)
        possible = forced
    possible &= ~(threats >> 1)
    if not possible:
        return -(WIN + (CELLS - moves) // 2)
    if moves >= CELLS - 2:
        return 0
    if depth <= 0:
        return evaluate(current, mask, moves)
    best = -(WIN + CELLS)
    for _, move, wins in ranked_moves(current, mask, possible):
        value = -_search(current ^ mask, mask | move, moves + 1, wins, depth - 1, -beta, -alpha, budget)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def root_values(current: int, mask: int, moves: int, depth: int, budget: Budget,
                order: Sequence[int] = ()) -> List[Tuple[int, int]]:
    """``(column, value)`` of every legal move, each searched to ``depth`` plies (exact values).

    ``order`` lists columns to try first (e.g. the previous iteration's best).
    """
    possible = (mask + BOTTOM) & BOARD
    mine = winning_cells(current, mask)
    theirs = winning_cells(current ^ mask, mask)
    safe = non_losing(possible, theirs)
    values = []
    moves_first = sorted(ranked_moves(current, mask, possible),
                         key=lambda m: order.index(m[0]) if m[0] in order else len(order))
    for column, move, wins in moves_first:
        if move & mine:
            value = WIN + (CELLS + 1 - moves) // 2
        elif not move & safe:
            value = -(WIN + (CELLS - moves) // 2)  # the opponent wins with its next stone
        elif moves + 1 >= CELLS:
            value = 0
        else:
            # full window at the root: every move gets its exact value at this depth
            value = -_search(current ^ mask, mask | move, moves + 1, wins, depth - 1,
                             -(WIN + CELLS), WIN + CELLS, budget)
        values.append((column, value))
    return values


def pick(values: Sequence[Tuple[int, int]], rng: random.Random) -> Tuple[int, int]:
    """The best ``(column, value)``; equal values are split by ``rng`` (seeded)."""
    best = max(v for _, v in values)
    tied = sorted(c for c, v in values if v == best)
    return rng.choice(tied), best
