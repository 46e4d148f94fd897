"""A heuristic evaluation (how the levels below perfect judge the moves whose outcome they do not
see, :mod:`.sight`) and a depth-limited alpha-beta search on it (what perfect falls back on when
its budget runs out, :meth:`.oracle.Oracle.best_known`).

Values are from the side to move's view.  Proven results are exact and outrank
every heuristic value: a win is ``WIN + score`` (the test sets' score, so a faster
win is worth more), a loss ``-(WIN + score)``.  Like the solver, the search never
plays under the opponent's winning cell, blocks a single threat and counts two
threats as lost, so it never misses a win in one or a block.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from ..errors import SearchAborted
from .limit import Budget
from .position import Position, Shape, non_losing, popcount

CHECK_EVERY = 1024
"""Nodes between two looks at the budget (its nodes cost more than the solver's)."""

WIN = 1000
"""Proven wins score ``WIN + score``; heuristic values stay well inside ``(-WIN, WIN)``."""


def evaluate(shape: Shape, current: int, mask: int, moves: int) -> int:
    """Heuristic value for the side to move: threats (weighted by row parity) and the centre.

    A threat counts double on the rows parity gives its owner: the leader's rows
    (:attr:`~.position.Shape.rows_leader`) for the player who moves with an even number of
    empty cells, the other rows for the other (on 7 x 6: rows 1, 3, 5 for player 1).
    """
    other = current ^ mask
    mine = shape.winning_cells(current, mask)
    theirs = shape.winning_cells(other, mask)
    if (shape.cells - moves) % 2 == 0:  # an even number of empty cells (on 7 x 6: player 1 to move)
        good_mine, good_theirs = shape.rows_leader, shape.rows_follower
    else:
        good_mine, good_theirs = shape.rows_follower, shape.rows_leader
    value = (6 * popcount(mine & good_mine) + 3 * popcount(mine & ~good_mine)
             - 6 * popcount(theirs & good_theirs) - 3 * popcount(theirs & ~good_theirs))
    value += 2 * (popcount(current & shape.centre) - popcount(other & shape.centre))
    value += popcount(current & shape.near_centre) - popcount(other & shape.near_centre)
    return value


def _search(shape: Shape, current: int, mask: int, moves: int, threats: int, depth: int,
            alpha: int, beta: int, budget: Budget) -> int:
    """Negamax value to ``depth`` more plies; the side to move cannot win at once."""
    budget.nodes += 1
    if budget.nodes & (CHECK_EVERY - 1) == 0 and budget.spent():
        raise SearchAborted("the search was stopped")
    cells = shape.cells
    possible = shape.possible(mask)
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -(WIN + (cells - moves) // 2)
        possible = forced
    possible &= ~(threats >> 1)
    if not possible:
        return -(WIN + (cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    if depth <= 0:
        return evaluate(shape, current, mask, moves)
    best = -(WIN + cells)
    for _, move, wins in shape.ranked_moves(current, mask, possible):
        value = -_search(shape, current ^ mask, mask | move, moves + 1, wins, depth - 1, -beta, -alpha, budget)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def root_values(position: Position, depth: int, budget: Budget, order: Sequence[int] = ()) -> List[Tuple[int, int]]:
    """``(column, value)`` of every legal move, each searched to ``depth`` plies (exact values).

    ``order`` lists columns to try first (e.g. the previous iteration's best).
    """
    shape = position.shape
    current, mask, moves = position.current, position.mask, position.moves
    cells = shape.cells
    possible = position.possible
    mine = shape.winning_cells(current, mask)
    theirs = shape.winning_cells(current ^ mask, mask)
    safe = non_losing(possible, theirs)
    values = []
    moves_first = sorted(shape.ranked_moves(current, mask, possible),
                         key=lambda m: order.index(m[0]) if m[0] in order else len(order))
    for column, move, wins in moves_first:
        if move & mine:
            value = WIN + shape.win_score(moves)
        elif not move & safe:
            value = -(WIN + (cells - moves) // 2)  # the opponent wins with its next stone
        elif moves + 1 >= cells:
            value = 0
        else:
            # full window at the root: every move gets its exact value at this depth
            value = -_search(shape, current ^ mask, mask | move, moves + 1, wins, depth - 1,
                             -(WIN + cells), WIN + cells, budget)
        values.append((column, value))
    return values


def deepen(position: Position, budget: Budget, max_depth: int) -> Tuple[List[Tuple[int, int]], int]:
    """Iterative deepening until ``budget`` runs out, ``max_depth`` is reached or the result
    is proven: the ``(column, value)`` pairs of the deepest finished search, and its depth."""
    depth = 1
    values = root_values(position, depth, Budget())  # depth 1 always finishes
    left = position.shape.cells - position.moves
    while depth < min(max_depth, left) and not budget.spent():
        order = [c for c, _ in sorted(values, key=lambda cv: -cv[1])]
        try:
            deeper = root_values(position, depth + 1, budget, order)
        except SearchAborted:
            break
        values, depth = deeper, depth + 1
        best = max(v for _, v in values)
        if best >= WIN or all(v <= -WIN for _, v in values):
            break  # a proven win, or every move proven lost
    return values, depth
