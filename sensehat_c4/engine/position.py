"""The engine's view of a position: bitboards over the rules core's bit layout.

A :class:`Shape` holds the masks of one board size, derived once from the rules
core's :class:`~sensehat_c4.rules.Layout` (so the engine has no layout constants of its
own), and the bit tricks every level uses.  A :class:`Position` is made once from a
:class:`~sensehat_c4.rules.Board` and handed down to every search.

Rows are counted from 1 at the bottom in the comments of the parity rules; bit
``c * stride + r`` is row ``r + 1`` of column ``c``.  Scores are the test sets'
convention: for the side to move, ``(cells + 1 - k) // 2``-style: ``22 - k`` on 7 x 6
if it wins with its ``k``-th stone, the negation if the opponent does, 0 for a draw.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, List, Optional, Tuple

from ..rules import Board, Layout


def count_bits(x: int) -> int:
    """Number of set bits, for Python 3.9 (``int.bit_count`` arrived in 3.10)."""
    return bin(x).count("1")


popcount: Callable[[int], int] = getattr(int, "bit_count", count_bits)


def non_losing(possible: int, theirs: int) -> int:
    """The playable cells (of ``possible``) that do not let the opponent, whose winning
    cells are ``theirs``, win with its next stone: a single threat must be blocked, two lose."""
    forced = possible & theirs
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(theirs >> 1)


class Shape:
    """The masks of one board size and the bit operations on its bitboards."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.width, self.height, self.stride = layout.columns, layout.rows, layout.stride
        self.cells = layout.cells
        self.bottom = sum(1 << (c * self.stride) for c in range(self.width))
        """The bottom cell of every column."""
        self.full = self.bottom * ((1 << self.height) - 1)
        """Every cell of the board."""
        self.column_masks = tuple(((1 << self.height) - 1) << (c * self.stride) for c in range(self.width))
        middle = self.width // 2
        self.order = tuple(middle + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(self.width))
        """Columns from the centre out (7 wide: 3 2 4 1 5 0 6): the tie-break of move ordering."""
        self.rows_leader = self.bottom * sum(1 << r for r in range(self.height) if (self.height - r) % 2 == 0)
        """The rows whose cells are an even number of cells from the top row (counting the cell
        and the top row): where every column has an even number of empty cells, the player to
        move (the leader) gets these when the other answers each move on top.  Rows 1, 3, 5 on
        a 6-row board; rows 2 and 4 on a 5-row one."""
        self.rows_follower = self.full ^ self.rows_leader
        """The other rows: the follower's (2, 4, 6 on a 6-row board; 1, 3, 5 on a 5-row one)."""
        off = [abs(2 * c - (self.width - 1)) for c in range(self.width)]
        self.centre = sum(m for m, d in zip(self.column_masks, off) if d <= 1)
        """The middle column (two on an even width)."""
        self.near_centre = sum(m for m, d in zip(self.column_masks, off) if 2 <= d <= 3)
        """The columns either side of :attr:`centre`."""
        self.centre_weight = tuple((self.width - d + 1) // 2 for d in off)
        """1 at the edges up to ``(width + 1) // 2`` in the middle (7 wide: 1 2 3 4 3 2 1)."""
        self.directions = (1, self.stride, self.height, self.stride + 1)
        """Bit distances of the four line directions: vertical, horizontal, the two diagonals."""

    def __repr__(self) -> str:
        return f"Shape({self.width} x {self.height})"

    def winning_cells(self, position: int, mask: int) -> int:
        """Empty cells (anywhere on the board) where ``position`` would complete a four."""
        r = (position << 1) & (position << 2) & (position << 3)
        for d in self.directions[1:]:
            p = (position << d) & (position << 2 * d)
            r |= p & (position << 3 * d)
            r |= p & (position >> d)
            p = (position >> d) & (position >> 2 * d)
            r |= p & (position << d)
            r |= p & (position >> 3 * d)
        return r & (self.full ^ mask)

    def has_four(self, stones: int) -> bool:
        """True if ``stones`` hold four in a row (any direction)."""
        for d in self.directions:
            m = stones & (stones >> d)
            if m & (m >> 2 * d):
                return True
        return False

    def possible(self, mask: int) -> int:
        """The cells where a stone can be played next (one per column that is not full)."""
        return (mask + self.bottom) & self.full

    def can_win_now(self, current: int, mask: int) -> bool:
        """True if the side to move completes a four with its next stone."""
        return bool(self.winning_cells(current, mask) & self.possible(mask))

    def win_score(self, moves: int) -> int:
        """The score of winning with the next stone, ``moves`` stones on the board."""
        return (self.cells + 1 - moves) // 2

    def loss_score(self, moves: int) -> int:
        """The score of losing to the opponent's next stone, ``moves`` stones on the board."""
        return -((self.cells - moves) // 2)

    def ranked_moves(self, current: int, mask: int, possible: int) -> List[Tuple[int, int, int]]:
        """``(column, move, winning cells after it)`` for the moves in ``possible``: most threats
        made first, then from the centre out."""
        ranked = []
        for rank, column in enumerate(self.order):
            move = possible & self.column_masks[column]
            if move:
                wins = self.winning_cells(current | move, mask | move)
                ranked.append((-popcount(wins), rank, column, move, wins))
        ranked.sort()
        return [(column, move, wins) for _, _, column, move, wins in ranked]


@lru_cache(maxsize=None)
def shape_of(layout: Layout) -> Shape:
    """The (shared) :class:`Shape` of a layout."""
    return Shape(layout)


@dataclass(frozen=True)
class Position:
    """A position as the engine searches it, made once from a board and handed down.

    ``current``: the stones of the side to move; ``mask``: all stones; ``moves``: how
    many stones; ``shape``: the board size's masks.  ``last`` is the column of the last
    move (``None`` on the empty board).
    """

    current: int
    mask: int
    moves: int
    shape: Shape
    last: Optional[int] = None

    @classmethod
    def of(cls, board: Board) -> "Position":
        """The position of a rules-core board."""
        p1, p2 = board.bitboards
        moves = board.ply
        last = board.moves[-1] if moves else None
        return cls(p1 if moves % 2 == 0 else p2, p1 | p2, moves, shape_of(board.layout), last)

    @property
    def opponent(self) -> int:
        """The stones of the side that just moved."""
        return self.current ^ self.mask

    @property
    def possible(self) -> int:
        return self.shape.possible(self.mask)

    def column_move(self, column: int) -> int:
        """The bit a stone in ``column`` lands on (0 if the column is full)."""
        return self.possible & self.shape.column_masks[column]

    def play(self, column: int) -> "Position":
        """The position after a stone in ``column`` (unchecked: the column must not be full)."""
        move = self.column_move(column)
        return Position(self.current ^ self.mask, self.mask | move, self.moves + 1, self.shape, column)

    def undo_last(self) -> "Position":
        """The position before the last move (``last`` unknown there)."""
        assert self.last is not None
        column_bits = self.mask & self.shape.column_masks[self.last]
        top = 1 << (column_bits.bit_length() - 1)
        return Position(self.opponent ^ top, self.mask ^ top, self.moves - 1, self.shape)

    def legal_columns(self) -> List[int]:
        """Columns that are not full, left to right."""
        possible = self.possible
        return [c for c, m in enumerate(self.shape.column_masks) if possible & m]
