"""The exact solver's pure-Python core: the reference, and the fallback of any faster core.

The algorithm is Pascal Pons' ("Solving Connect 4: how to build a perfect AI"):
negamax with alpha-beta on two bitboards, a null window narrowed by a binary
search on the score, a transposition table keeping lower *and* upper bounds,
"non-losing moves" (never play under the opponent's winning cell; play a forced
block; two threats lose at once) and moves ordered by the threats they create.
Cheap parity rules (after Allis' "claimeven" and odd threats) bound many positions
without a search.  Rows are counted from 1 at the bottom; a column is odd or even by
its number of empty cells; a player "answers on top" by playing each time on top of
the other's last stone.  As written here for the 7 x 6 board: on another size "rows 1,
3, 5" are the rows whose cells are an even number from the top of their column
(counting the cell; :attr:`~.position.Shape.rows_leader`: rows 2 and 4 on a 5-row
board), "rows 2, 4, 6" the others, and "the first player to move" / "the second" are
"an even / odd number of empty cells" (the same on 42 cells).

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

The bit layout (width, height, stride) comes from the rules core through the
:class:`~.position.Shape` the solver is made for; any board whose bitboard has at most
:data:`MAX_KEY_BITS` bits (``columns * (rows + 1)``: every size the game offers, up to
8 x 6) works.  Scores are the test sets' convention (see :mod:`.position`).

The table: a position's key ``k = current + mask`` (below ``2 ** (columns * (rows + 1))``:
each column's stones plus its mover's stones fit the column's bits) goes to slot
``k % size``, and the entry keeps ``(k >> shift) + 1`` (:func:`tag_shift`) with the two
bounds.  As the size is more than ``2 ** shift``, the slot and that tag tell the key
apart; the ``+ 1`` keeps a tag from ever being 0, an empty slot.

The core interface
------------------
A solver core (this class, or a native one behind :func:`.cores.new_solver`) provides:

``Core(shape, *, table_bits=None, leaf=None, leaf_ply=-1)``
    A core for one board size with a fixed transposition table of about
    ``2**table_bits`` entries (``None``: the board's own size, :func:`table_bits_for`),
    allocated once.  ``leaf(current, mask)``, if given, is
    asked for the exact score of every position with ``leaf_ply`` stones the search
    reaches (the 12-ply book); ``None`` from it means search on.  Raises
    :class:`~sensehat_c4.errors.ConfigError` for a board size it cannot take.
``score(position, budget, window=None) -> int``
    The exact score of a :class:`~.position.Position` that is not over (binary search of
    null windows); ``window=(low, high)``: the score is known to lie in it.
``at_most(position, value, budget) -> bool``
    One null-window search: True if the score is at most ``value``.
``nodes``
    Positions searched since the core was made (read only).
``reset()``
    Empties the transposition table.
``name``
    ``"python"`` here (``"native"`` for the C core).

Both searches obey the :class:`~.limit.Budget` they are given, and nothing else: they
look at its stop event, deadline and node cap every :data:`CHECK_EVERY` nodes (telling
``budget.progress``, if set, the budget's node count so far), add the nodes they searched
to ``budget.nodes``, and raise
:class:`~sensehat_c4.errors.SearchAborted` when it runs out (the table stays valid).  A
core keeps its table between calls and is not thread-safe (the oracle's lock guards it).
"""
from __future__ import annotations

import time
from array import array
from typing import Callable, Optional, Tuple

from ..errors import ConfigError, SearchAborted
from ..i18n import _
from .limit import Budget
from .position import Position, Shape, popcount

CHECK_EVERY = 4096
"""Nodes between two looks at the clock and the stop event (a few milliseconds)."""

ETC_BELOW = 32
"""Enhanced transposition cutoffs (looking up every child first) in positions with fewer stones."""

DEFAULT_TABLE_BITS = 20
"""The largest boards' transposition table: 2**20 (+ a few) slots, 8 MB (:func:`table_bits_for`)."""

MAX_KEY_BITS = 56
"""The largest bitboard (``columns * (rows + 1)`` bits) the solver takes: 8 x 6, the largest
board the game offers."""
TAG_BITS = 50
"""Bits of a table entry for the key's tag (the other 14 hold the two bounds)."""
MIN_TABLE_BITS, MAX_TABLE_BITS = 10, 30


def check_size(shape: Shape) -> None:
    """Refuse (:class:`ConfigError`) a board too big for the solver.  Every core takes the
    same sizes, so what the engine offers does not depend on which core runs."""
    if shape.width * shape.stride > MAX_KEY_BITS:
        raise ConfigError(_("the exact solver handles boards of up to {most} bits (columns x (rows + 1)); "
                            "{columns} x {rows} needs {bits}").format(most=MAX_KEY_BITS, columns=shape.width,
                                                                    rows=shape.height, bits=shape.width * shape.stride))


def table_bits_for(shape: Shape) -> int:
    """The table size of a board: ``2**bits`` slots of 8 bytes, from 32 KB on 4 x 4 (whose empty
    board is 7,000 positions) to 8 MB from 32 cells on (8 x 4, 7 x 5, 6 x 6, 8 x 5, 7 x 6, 8 x 6),
    so a process that plays many sizes stays small."""
    return max(12, min(DEFAULT_TABLE_BITS, shape.cells // 2 + 4))


def tag_shift(shape: Shape, table_bits: int) -> int:
    """How far a key is shifted for its tag in a table of ``2**table_bits + 9`` slots: 0 while the
    key fits the tag's bits (every board up to 7 x 6 and 8 x 5), so the tag is the key itself."""
    if not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS:
        raise ConfigError(_("the table has 2**{least} to 2**{most} slots (not 2**{bits})").format(
            least=MIN_TABLE_BITS, most=MAX_TABLE_BITS, bits=table_bits))
    shift = max(0, shape.width * shape.stride + 1 - TAG_BITS)
    assert shift <= table_bits  # the slot tells apart the keys that share a tag
    return shift


class Solver:
    """The pure-Python solver core (the interface is in the module docstring)."""

    name = "python"

    def __init__(self, shape: Shape, *, table_bits: Optional[int] = None,
                 leaf: Optional[Callable[[int, int], Optional[int]]] = None, leaf_ply: int = -1) -> None:
        check_size(shape)
        if table_bits is None:
            table_bits = table_bits_for(shape)
        self.shape = shape
        self.shift = tag_shift(shape, table_bits)
        self.size = (1 << table_bits) + 9
        self.table = array("Q", [0]) * self.size
        self.leaf = leaf
        self.leaf_ply = leaf_ply if leaf is not None else -1
        self._negamax = self._make_negamax()

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made."""
        return self._get_nodes()

    def reset(self) -> None:
        """Empty the transposition table."""
        self.table[:] = array("Q", [0]) * self.size  # in place: the search holds this array

    # -- the search -----------------------------------------------------------

    def _make_negamax(self) -> Callable[[int, int, int, int, int, int], int]:
        shape = self.shape
        table = self.table
        size = self.size
        shift = self.shift
        bottom, board_mask = shape.bottom, shape.full
        columns = tuple(shape.column_masks[c] for c in shape.order)
        width, height, stride = shape.width, shape.height, shape.stride
        h1, h2, h3 = stride, 2 * stride, 3 * stride
        d1, d2, d3 = height, 2 * height, 3 * height
        e1, e2, e3 = stride + 1, 2 * (stride + 1), 3 * (stride + 1)
        check = CHECK_EVERY - 1
        offset = 64  # bounds are stored as score + 64 in 7 bits
        bits = popcount
        monotonic = time.monotonic
        cells = shape.cells
        # rows_135 and rows_246 are named for the 7 x 6 board: the leader's and the follower's rows
        rows_135, rows_246 = shape.rows_leader, shape.rows_follower
        odd_cells = cells & 1  # an odd number of odd columns <=> an odd number of empty cells
        etc_below = ETC_BELOW
        winning = shape.winning_cells
        four = shape.has_four
        column_of = {1 << (c * stride + r): shape.column_masks[c] for c in range(width) for r in range(height)}

        leaf, leaf_ply = self.leaf, self.leaf_ply
        count = 0
        deadline: Optional[float] = None
        stop = None
        node_limit: Optional[int] = None
        progress = None
        before = 0  # the budget's nodes at the start of this search, minus the count then

        def get_nodes() -> int:
            return count

        def begin(budget: Budget) -> int:
            """Take the limits of ``budget`` for one search; returns the node count now."""
            nonlocal deadline, stop, node_limit, progress, before
            deadline, stop, progress = budget.deadline, budget.stop, budget.progress
            node_limit = None if budget.max_nodes is None else count + budget.max_nodes - budget.nodes
            before = budget.nodes - count
            return count

        self._get_nodes, self._begin = get_nodes, begin

        def aborted() -> bool:
            if progress is not None:
                progress(before + count)
            if stop is not None and stop.is_set():
                return True
            if node_limit is not None and count >= node_limit:
                return True
            return deadline is not None and monotonic() >= deadline

        def negamax(cur: int, mask: int, moves: int, threats: int, alpha: int, beta: int) -> int:
            """Score of ``(cur, mask)`` within ``[alpha, beta]``; the side to move cannot win now.

            ``threats`` are the opponent's winning cells (empty cells only).
            """
            nonlocal count
            count += 1
            if count & check == 0 and aborted():
                raise SearchAborted("the search was stopped")
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
            if (moves ^ odd_cells) & 1:  # an odd number of odd columns (on 7 x 6: the second player to move)
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
            key = cur + mask
            slot = key % size
            key = (key >> shift) + 1  # the tag: never 0, so an empty slot matches no position
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
                rank = width
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
                        ranked.append(((bits(r) << 4) | rank, move, r))  # rank: 1 to 8
                    rank -= 1
                ranked.sort(reverse=True)
                if moves < etc_below:
                    # enhanced transposition cutoff: a child already known to be bad enough for the opponent
                    opp = cur ^ mask
                    for _, move, _r in ranked:
                        ckey = opp + (mask | move)
                        centry = table[ckey % size]
                        if centry >> 14 == (ckey >> shift) + 1:
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

    # -- the interface ---------------------------------------------------------

    def _run(self, budget: Budget, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """One window search from the root, within ``budget`` (its nodes counted there)."""
        if budget.spent():
            raise SearchAborted("the search was stopped")
        start = self._begin(budget)
        try:
            threats = self.shape.winning_cells(current ^ mask, mask)
            return self._negamax(current, mask, moves, threats, alpha, beta)
        finally:
            budget.nodes += self._get_nodes() - start

    def score(self, position: Position, budget: Budget, *, window: Optional[Tuple[int, int]] = None) -> int:
        """The exact score of a position that is not over (a search of null windows).

        The first window asks who wins (at 0), the second how narrowly (at the least margin on
        that side: most positions are won or lost late), then Pons' halving of what is left.
        ``window=(low, high)`` narrows the search to scores known to lie in it.
        """
        shape = self.shape
        current, mask, moves = position.current, position.mask, position.moves
        if shape.can_win_now(current, mask):
            return shape.win_score(moves)
        if moves >= shape.cells:
            return 0
        low = shape.loss_score(moves)
        high = shape.win_score(moves)
        if window is not None:
            low, high = max(low, window[0]), min(high, window[1])
        tried = 0
        while low < high:
            med = low + (high - low) // 2
            # halves rounded towards zero, as in Pons' C++ (Python's // rounds down)
            if med <= 0 and -(-low // 2) < med:
                med = -(-low // 2)
            elif med >= 0 and high // 2 > med:
                med = high // 2
            if tried == 0 and low <= 0 < high:
                med = 0
            elif tried == 1 and low >= 0:
                med = low
            elif tried == 1 and high <= 0:
                med = high - 1
            tried += 1
            r = self._run(budget, current, mask, moves, med, med + 1)
            if r <= med:
                high = r
            else:
                low = r
        return low

    def at_most(self, position: Position, value: int, budget: Budget) -> bool:
        """True if the position's score is at most ``value`` (one null-window search)."""
        shape = self.shape
        current, mask, moves = position.current, position.mask, position.moves
        if shape.can_win_now(current, mask):
            return shape.win_score(moves) <= value
        if moves >= shape.cells:
            return 0 <= value
        return self._run(budget, current, mask, moves, value, value + 1) <= value
