"""An exact Connect 4 solver in pure Python (7 x 6 only).

The algorithm is Pascal Pons' ("Solving Connect 4: how to build a perfect AI"):
negamax with alpha-beta on two bitboards, a null window narrowed by a binary
search on the score, a transposition table keeping lower *and* upper bounds,
"non-losing moves" (never play under the opponent's winning cell; play a forced
block; two threats lose at once) and moves ordered by the threats they create.
Cheap parity rules (after Allis' "claimeven" and odd threats) bound many positions
without a search.  Rows are counted from 1 at the bottom; a column is odd or even by
its number of empty cells; a player "answers on top" by playing each time on top of
the other's last stone.

* Every column even (the first player to move): if the second player answers on top,
  the first gets only the empty cells of rows 1, 3, 5 and the second those of rows
  2, 4, 6.  No four for the first there: it cannot win (score <= 0); and if the
  second makes a four there, it wins in the end (score <= -1).
* One odd column, the second player to move: it plays there, then answers on top,
  so the same split holds the other way round (score >= 0, or >= 1).
* The second player to move (an odd number of odd columns) and a winning cell of the
  first player on row 3 or 5 of an odd column: the first answers on top, and when
  the second fills an odd column it plays in another odd column.  The second gets at
  most rows 2, 4, 6 below that cell, rows 1, 3, 5 of the even columns and all of the
  other odd columns; no four there and the first player wins in the end (score <= -1).
The hot loop is one closure over local names, as fast as CPython allows.

A position is ``(current, mask)``: the stones of the side to move and all stones,
in the rules core's layout (column ``c`` uses bits ``c*7 .. c*7+5``).  Scores are
the test sets' convention: for the side to move, ``22 - k`` if it wins with its
``k``-th stone, ``-(22 - k)`` if the opponent does, 0 for a draw.
"""
from __future__ import annotations

import threading
import time
from array import array
from typing import Callable, List, Optional, Tuple

from ..errors import ConfigError, NativeCoreError, SearchAborted
from ..rules import Board
from . import native

WIDTH = 7
HEIGHT = 6
H1 = HEIGHT + 1
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (c * H1) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))
ORDER = (3, 2, 4, 1, 5, 0, 6)
"""Columns from the centre out: the tie-break of move ordering."""
ROWS_135 = BOTTOM * 0b010101
"""Rows 1, 3 and 5, counted from 1 at the bottom: the first player's threats count there."""
ROWS_246 = BOTTOM * 0b101010
"""Rows 2, 4 and 6: the second player's."""

CHECK_EVERY = 4096
"""Nodes between two looks at the clock and the stop event (a few milliseconds)."""

ETC_BELOW = 32
"""Enhanced transposition cutoffs (looking up every child first) in positions with fewer stones."""

DEFAULT_TABLE_BITS = 20
"""Transposition table of 2**20 (+ a few) slots: 8 MB as an ``array('Q')``."""


def count_bits(x: int) -> int:
    """Number of set bits, for Python 3.9 (``int.bit_count`` arrived in 3.10)."""
    return bin(x).count("1")


popcount: Callable[[int], int] = getattr(int, "bit_count", count_bits)


class CapReached(SearchAborted):
    """One attempt's own node cap (:attr:`Solver.cap`) ran out; the search's limits did not."""


def winning_cells(position: int, mask: int) -> int:
    """Empty cells (anywhere on the board) where ``position`` would complete a four."""
    r = (position << 1) & (position << 2) & (position << 3)
    for d in (H1, HEIGHT, H1 + 1):
        p = (position << d) & (position << 2 * d)
        r |= p & (position << 3 * d)
        r |= p & (position >> d)
        p = (position >> d) & (position >> 2 * d)
        r |= p & (position << d)
        r |= p & (position >> 3 * d)
    return r & (BOARD ^ mask)


def has_four(stones: int) -> bool:
    """True if ``stones`` hold four in a row (any direction)."""
    for d in (1, H1, HEIGHT, H1 + 1):
        m = stones & (stones >> d)
        if m & (m >> 2 * d):
            return True
    return False


def position_of(board: Board) -> Tuple[int, int, int]:
    """``(current, mask, moves)`` of a rules-core board (7 x 6 only)."""
    if (board.columns, board.rows) != (WIDTH, HEIGHT):
        raise ConfigError("the engine plays on the 7 x 6 board only")
    p1, p2 = board.bitboards
    moves = board.ply
    return (p1 if moves % 2 == 0 else p2), p1 | p2, moves


def can_win_now(current: int, mask: int) -> bool:
    """True if the side to move completes a four with its next stone."""
    return bool(winning_cells(current, mask) & ((mask + BOTTOM) & BOARD))


def non_losing(possible: int, theirs: int) -> int:
    """The playable cells (of ``possible``) that do not let the opponent, whose winning
    cells are ``theirs``, win with its next stone: a single threat must be blocked, two lose."""
    forced = possible & theirs
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(theirs >> 1)


def ranked_moves(current: int, mask: int, possible: int) -> List[Tuple[int, int, int]]:
    """``(column, move, winning cells after it)`` for the moves in ``possible``: most threats
    made first, then from the centre out."""
    ranked = []
    for rank, column in enumerate(ORDER):
        move = possible & COLUMN_MASKS[column]
        if move:
            wins = winning_cells(current | move, mask | move)
            ranked.append((-popcount(wins), rank, column, move, wins))
    ranked.sort()
    return [(column, move, wins) for _, _, column, move, wins in ranked]


def win_score(moves: int) -> int:
    """The score of winning with the next stone, ``moves`` stones on the board."""
    return (CELLS + 1 - moves) // 2


class Solver:
    """Exact scores of positions; keeps its transposition table between calls.

    ``leaf(current, mask)``, if given, is asked for the exact score of every position
    with ``leaf_ply`` stones the search reaches (a book); ``None`` means search on.

    ``table_bits`` sizes the table (``2**table_bits`` slots of 8 bytes, allocated
    once).  ``deadline`` (a ``time.monotonic()`` value) and ``stop`` are checked
    every :data:`CHECK_EVERY` nodes; past either, the search raises
    :class:`SearchAborted`.
    """

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS, *,
                 leaf: Optional[Callable[[int, int], Optional[int]]] = None, leaf_ply: int = -1,
                 core: Optional[str] = None) -> None:
        self.max_nodes: Optional[int] = None
        self.cap: Optional[int] = None
        """A node count at which to raise :class:`CapReached` (for trying moves in turn)."""
        self.deadline: Optional[float] = None
        self.stop: Optional[threading.Event] = None
        self.leaf = leaf
        self.leaf_ply = leaf_ply if leaf is not None else -1
        lib = None if core == "python" else native.library()
        if core == "native" and lib is None:
            raise NativeCoreError("the native solver core is not available (not built, or "
                                  f"{native.PURE_ENV} is set)")
        self.engine = "python" if lib is None else "native"
        """Which core searches: ``"native"`` (:mod:`.native`) or ``"python"``."""
        if lib is None:
            self.size = (1 << table_bits) + 9
            self.table: Optional[array] = array("Q", [0]) * self.size
            self.table_bytes = self.size * self.table.itemsize
            self._negamax = self._make_negamax()
        else:
            search = native.NativeSearch(lib, WIDTH, HEIGHT, table_bits, CHECK_EVERY, ETC_BELOW,
                                         self._check_limits, leaf, self.leaf_ply)
            self.table = None
            self.table_bytes = search.table_bytes
            self._negamax = search.negamax
            self._get_nodes = lambda: search.nodes
            self._set_nodes = lambda value: setattr(search, "nodes", value)

    @property
    def nodes(self) -> int:
        """Positions searched since the count was last set (``solver.nodes = 0``)."""
        return self._get_nodes()

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._set_nodes(value)

    def _check_limits(self) -> None:
        """Raise :class:`SearchAborted` (or :class:`CapReached`) if a limit has run out."""
        stop = self.stop
        if stop is not None and stop.is_set():
            raise SearchAborted("the search was stopped")
        nodes = self.nodes
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise SearchAborted("the node limit was reached")
        deadline = self.deadline
        if deadline is not None and time.monotonic() >= deadline:
            raise SearchAborted("the time ran out")
        if self.cap is not None and nodes >= self.cap:
            raise CapReached("this attempt's node cap ran out")

    # -- the search -----------------------------------------------------------

    def _make_negamax(self) -> Callable[[int, int, int, int, int, int], int]:
        table = self.table
        size = self.size
        bottom, board_mask = BOTTOM, BOARD
        columns = tuple(COLUMN_MASKS[c] for c in ORDER)
        h1, h2, h3 = H1, 2 * H1, 3 * H1
        d1, d2, d3 = HEIGHT, 2 * HEIGHT, 3 * HEIGHT
        e1, e2, e3 = H1 + 1, 2 * (H1 + 1), 3 * (H1 + 1)
        check = CHECK_EVERY - 1
        offset = 64  # bounds are stored as score + 64 in 7 bits
        bits = popcount
        check_limits = self._check_limits
        cells = CELLS
        rows_135, rows_246 = ROWS_135, ROWS_246
        etc_below = ETC_BELOW
        winning = winning_cells
        four = has_four
        column_of = {1 << (c * H1 + r): COLUMN_MASKS[c] for c in range(WIDTH) for r in range(HEIGHT)}

        leaf, leaf_ply = self.leaf, self.leaf_ply
        count = 0

        def get_nodes() -> int:
            return count

        def set_nodes(value: int) -> None:
            nonlocal count
            count = value

        self._get_nodes, self._set_nodes = get_nodes, set_nodes

        def negamax(cur: int, mask: int, moves: int, threats: int, alpha: int, beta: int) -> int:
            """Score of ``(cur, mask)`` within ``[alpha, beta]``; the side to move cannot win now.

            ``threats`` are the opponent's winning cells (empty cells only).
            """
            nonlocal count
            count += 1
            if count & check == 0:
                check_limits()
            if moves == leaf_ply:
                known = leaf(cur, mask)  # type: ignore[misc]
                if known is not None:
                    return known
            possible = possible_all = (mask + bottom) & board_mask
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    return -((cells - moves) // 2)
                possible = forced
            possible &= ~(threats >> 1)
            if not possible:
                return -((cells - moves) // 2)
            if moves >= cells - 2:
                return 0
            low = -((cells - 2 - moves) // 2)
            high = (cells - 1 - moves) // 2
            q = possible_all & rows_246  # the next cells of the columns with an odd number of empty cells
            if moves & 1:  # the second player is to move: an odd number of odd columns
                empty = board_mask ^ mask
                if not q & (q - 1) and alpha < 1 and not four((cur ^ mask) | (empty & rows_135)):
                    # one odd column: play it, then answer each opponent move on top of it; the
                    # opponent only ever gets rows 1, 3, 5 and we get rows 2, 4, 6
                    low = 1 if four(cur | (empty & rows_246)) else 0
                odd = threats & rows_135
                if odd and beta > -1:
                    # the opponent's winning cells on rows 3 or 5 of an odd column: it answers each
                    # of our moves on top of it, and when we fill an odd column it plays in another
                    # odd column (there is one: their number is odd); we get rows 2, 4, 6 below
                    # the winning cell, rows 1, 3, 5 of the even columns, at most all of the other
                    # odd columns, and the opponent gets the winning cell in the end
                    odd_columns = 0
                    x = q
                    while x:
                        bit = x & -x
                        odd_columns |= column_of[bit]
                        x ^= bit
                    odd &= odd_columns
                    if odd:
                        gets = cur | (empty & rows_135 & ~odd_columns)
                        while odd:
                            cell = odd & -odd  # the lowest such cell of the lowest column
                            column = column_of[cell]
                            odd &= ~column
                            if not four(gets | ((cell - (q & column)) & rows_246) | (empty & odd_columns & ~column)):
                                high = -1  # we cannot win and the opponent wins in the end
                                break
            elif not q and beta > -1:
                # every column has an even number of empty cells (the first player is to move):
                # if the opponent answers each move on top of it, we only ever get rows 1, 3, 5
                empty = board_mask ^ mask
                if not four(cur | (empty & rows_135)):
                    high = -1 if four((cur ^ mask) | (empty & rows_246)) else 0
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
            key = cur + mask + 1  # never 0, so an empty slot matches no position
            slot = key % size
            entry = table[slot]
            if entry >> 14 == key:
                t = ((entry >> 7) & 127) - offset
                if t > low:
                    low = t
                    if alpha < low:
                        alpha = low
                        if alpha >= beta:
                            return alpha
                t = (entry & 127) - offset
                if t < high:
                    high = t
                    if beta > high:
                        beta = high
                        if alpha >= beta:
                            return beta
            start_alpha = alpha
            # order the moves by the threats they make (centre first on ties)
            after = moves + 1
            if possible & (possible - 1):
                ranked = []
                rank = 7
                for column in columns:
                    move = possible & column
                    if move:
                        # winning_cells(cur | move, mask | move), inlined: this is the hot loop
                        m2 = mask | move
                        pos = cur | move
                        r = (pos << 1) & (pos << 2) & (pos << 3)
                        p = (pos << h1) & (pos << h2)
                        r |= p & (pos << h3)
                        r |= p & (pos >> h1)
                        p = (pos >> h1) & (pos >> h2)
                        r |= p & (pos << h1)
                        r |= p & (pos >> h3)
                        p = (pos << d1) & (pos << d2)
                        r |= p & (pos << d3)
                        r |= p & (pos >> d1)
                        p = (pos >> d1) & (pos >> d2)
                        r |= p & (pos << d1)
                        r |= p & (pos >> d3)
                        p = (pos << e1) & (pos << e2)
                        r |= p & (pos << e3)
                        r |= p & (pos >> e1)
                        p = (pos >> e1) & (pos >> e2)
                        r |= p & (pos << e1)
                        r |= p & (pos >> e3)
                        r &= board_mask ^ m2
                        ranked.append(((bits(r) << 3) | rank, move, r))
                    rank -= 1
                ranked.sort(reverse=True)
                if moves < etc_below:
                    # enhanced transposition cutoff: a child already known to be bad enough for the opponent
                    opp = cur ^ mask
                    for _, move, r in ranked:
                        ckey = opp + (mask | move) + 1
                        centry = table[ckey % size]
                        if centry >> 14 == ckey:
                            score = offset - (centry & 127)
                            if score >= beta:
                                table[slot] = (key << 14) | ((score + offset) << 7) | (high + offset)
                                return score
                for _, move, r in ranked:
                    score = -negamax(cur ^ mask, mask | move, after, r, -beta, -alpha)
                    if score >= beta:
                        table[slot] = (key << 14) | ((score + offset) << 7) | (high + offset)
                        return score
                    if score > alpha:
                        alpha = score
            else:
                move = possible
                m2 = mask | move
                pos = cur | move
                score = -negamax(cur ^ mask, m2, after, winning(pos, m2), -beta, -alpha)
                if score >= beta:
                    table[slot] = (key << 14) | ((score + offset) << 7) | (high + offset)
                    return score
                if score > alpha:
                    alpha = score
            if alpha > start_alpha:  # exact
                table[slot] = (key << 14) | ((alpha + offset) << 7) | (alpha + offset)
            else:  # failed low: an upper bound
                table[slot] = (key << 14) | ((low + offset) << 7) | (alpha + offset)
            return alpha

        return negamax

    # -- public ---------------------------------------------------------------

    def score(self, current: int, mask: int, moves: int, *,
              window: Optional[Tuple[int, int]] = None) -> int:
        """The exact score of a position that is not over (a binary search of null windows).

        ``window=(low, high)`` narrows the search to scores known to lie in it.
        """
        if can_win_now(current, mask):
            return win_score(moves)
        if moves >= CELLS:
            return 0
        low = -((CELLS - moves) // 2)
        high = (CELLS + 1 - moves) // 2
        if window is not None:
            low, high = max(low, window[0]), min(high, window[1])
        threats = winning_cells(current ^ mask, mask)
        negamax = self._negamax
        while low < high:
            med = low + (high - low) // 2
            if med <= 0 and low // 2 < med:
                med = low // 2
            elif med >= 0 and high // 2 > med:
                med = high // 2
            r = negamax(current, mask, moves, threats, med, med + 1)
            if r <= med:
                high = r
            else:
                low = r
        return low

    def at_most(self, current: int, mask: int, moves: int, value: int) -> bool:
        """True if the position's score is at most ``value`` (one null-window search)."""
        if can_win_now(current, mask):
            return win_score(moves) <= value
        if moves >= CELLS:
            return 0 <= value
        threats = winning_cells(current ^ mask, mask)
        return self._negamax(current, mask, moves, threats, value, value + 1) <= value

    def probe(self, current: int, mask: int, moves: int, value: int) -> bool:
        """True if the position's score is more than ``value``."""
        return not self.at_most(current, mask, moves, value)
