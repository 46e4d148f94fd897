"""The four levels of the computer opponent, as functions of a position, a budget and an RNG.

* easy: no search; takes an immediate win 80% of the time, blocks an immediate threat
  60% of the time, otherwise picks a move at random, weighted towards the centre and
  towards making threats, and mostly (not always) avoids giving away a win.
* medium: alpha-beta up to 4 plies deep with the heuristic of :mod:`.heuristic`.
* hard: the same search, deepened one ply at a time until the budget runs out (the
  last finished depth decides).
* perfect: :class:`.oracle.Oracle` (books, then the exact solver).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from ..errors import SearchAborted
from ..rules import Board
from .heuristic import WIN, Budget, pick, root_values
from .solver import BOARD, BOTTOM, CELLS, COLUMN_MASKS, popcount, position_of, winning_cells

MEDIUM_DEPTH = 4
HARD_MAX_DEPTH = CELLS
HARD_UNBOUNDED_DEPTH = 10
"""Hard's depth when it is given no limit at all (so that it ends: about a second)."""


@dataclass(frozen=True)
class Decision:
    """A level's answer: the column (0-based), a value, the depth searched, and how."""

    column: int
    value: Optional[int]
    depth: int
    source: str


def easy(board: Board, rng: random.Random) -> Decision:
    """A child's opponent: good habits, with lapses."""
    current, mask, moves = position_of(board)
    possible = (mask + BOTTOM) & BOARD
    mine = winning_cells(current, mask)
    theirs = winning_cells(current ^ mask, mask)
    columns = [c for c in range(board.columns) if possible & COLUMN_MASKS[c]]
    wins = [c for c in columns if possible & COLUMN_MASKS[c] & mine]
    if wins and rng.random() < 0.8:
        return Decision(rng.choice(wins), None, 0, "win")
    blocks = [c for c in columns if possible & COLUMN_MASKS[c] & theirs]
    if blocks and rng.random() < 0.6:
        return Decision(rng.choice(blocks), None, 0, "block")
    weights = []
    careful = rng.random() < 0.7
    for c in columns:
        move = possible & COLUMN_MASKS[c]
        weight: float = 4 - abs(3 - c)  # 1 at the edges, 4 in the centre
        weight += 2 * popcount(winning_cells(current | move, mask | move))
        if careful and (move << 1) & theirs:
            weight = 0.1  # the opponent would win on top of it
        weights.append(weight)
    return Decision(rng.choices(columns, weights)[0], None, 0, "weighted")


def medium(board: Board, rng: random.Random, budget: Budget, depth: int = MEDIUM_DEPTH) -> Decision:
    """A short search (at most ``depth`` plies); ties split at random."""
    return hard(board, rng, budget, max_depth=depth)


def hard(board: Board, rng: random.Random, budget: Budget, max_depth: int = HARD_MAX_DEPTH) -> Decision:
    """Iterative deepening until the budget runs out or the result is proven."""
    current, mask, moves = position_of(board)
    depth = 1
    values = root_values(current, mask, moves, depth, Budget())  # depth 1 always finishes
    left = CELLS - moves
    while depth < min(max_depth, left):
        order = [c for c, _ in sorted(values, key=lambda cv: -cv[1])]
        try:
            deeper = root_values(current, mask, moves, depth + 1, budget, order)
        except SearchAborted:
            break
        values, depth = deeper, depth + 1
        best = max(v for _, v in values)
        if best >= WIN or all(v <= -WIN for _, v in values):
            break  # a proven win, or every move proven lost
    column, value = pick(values, rng)
    return Decision(column, value, depth, "search")
