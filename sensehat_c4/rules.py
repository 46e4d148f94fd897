"""Connect 4 rules: a pure core with no I/O and no imports from the rest of the game.

The board is two bitboards (plain ``int``), one per player.  Column ``c`` uses
bits ``c * stride`` to ``c * stride + rows - 1`` with ``stride = rows + 1``; the
spare top bit of each column keeps lines from wrapping into the next column.

Columns and rows are 0-based here (row 0 is the bottom).  The solver notation
used by :func:`Board.from_moves` is 1-based (``"4453"``).
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Tuple

from .errors import BoardSizeError, IllegalMoveError, MoveListError
from .i18n import _

Cell = Tuple[int, int]
"""A board cell as ``(column, row)``, 0-based, row 0 at the bottom."""

COLUMNS = 7
ROWS = 6
MIN_COLUMNS, MAX_COLUMNS = 4, 8
MIN_ROWS, MAX_ROWS = 4, 6
"""The sizes the game offers: every board the 8x8 matrix shows under its cursor and gap rows."""


@dataclass(frozen=True)
class Layout:
    """How a board of ``columns`` x ``rows`` lies in a bitboard: column ``c`` uses bits
    ``c * stride`` to ``c * stride + rows - 1``, and bit ``c * stride + rows`` stays empty.

    The one statement of the bit layout: the engine takes its masks from here.
    """

    columns: int = COLUMNS
    rows: int = ROWS

    @property
    def stride(self) -> int:
        """Bits per column: the rows and one spare bit, so lines never wrap into the next column."""
        return self.rows + 1

    @property
    def cells(self) -> int:
        return self.columns * self.rows


STANDARD = Layout()
"""The classic board: 7 columns by 6 rows."""


@dataclass(frozen=True)
class Size(Layout):
    """A board size the game plays on: 4 to 8 columns by 4 to 6 rows (default 7 x 6).

    Written ``COLUMNSxROWS`` (``"6x5"``: six columns, five rows), as in ``--board``.
    A :class:`Layout` that checks it is offered.
    """

    def __post_init__(self) -> None:
        if not (MIN_COLUMNS <= self.columns <= MAX_COLUMNS and MIN_ROWS <= self.rows <= MAX_ROWS):
            raise BoardSizeError(_("board {columns}x{rows} is not offered: boards have {min_columns}-{max_columns} "
                                   "columns and {min_rows}-{max_rows} rows (e.g. 6x5)").format(
                columns=self.columns, rows=self.rows, min_columns=MIN_COLUMNS, max_columns=MAX_COLUMNS,
                min_rows=MIN_ROWS, max_rows=MAX_ROWS))

    @classmethod
    def parse(cls, text: str) -> "Size":
        """``"6x5"`` -> ``Size(6, 5)``; raises :class:`BoardSizeError` for anything else."""
        match = re.fullmatch(r"\s*([0-9]{1,2})\s*[xX]\s*([0-9]{1,2})\s*", text)
        if match is None:
            raise BoardSizeError(_("board size {text!r} is not COLUMNSxROWS (e.g. 7x6 or 6x5)").format(text=text))
        return cls(int(match.group(1)), int(match.group(2)))

    def board(self) -> "Board":
        """An empty board of this size."""
        return Board(self.columns, self.rows)

    def from_moves(self, text: str) -> "Board":
        """:meth:`Board.from_moves` on a board of this size."""
        return Board.from_moves(text, self.columns, self.rows)

    def __str__(self) -> str:
        return f"{self.columns}x{self.rows}"


SIZES: Tuple[Size, ...] = tuple(Size(c, r) for r in range(MIN_ROWS, MAX_ROWS + 1)
                                for c in range(MIN_COLUMNS, MAX_COLUMNS + 1))
"""Every size the game offers, smallest rows first, then by columns (4x4, 5x4 ... 8x6)."""

class Starts(enum.Enum):
    """Who starts each round of a match (``--first``, a match's ``starts`` in the records and over the LAN):
    player 1, player 2, each in turn (player 1 first), or chance."""

    P1 = "p1"
    P2 = "p2"
    ALTERNATE = "alternate"
    RANDOM = "random"


FIRST_CHOICES = tuple(starts.value for starts in Starts)
"""The values of :class:`Starts`, as ``--first`` and the stored rows spell them."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winner`` is 1 or 2, or ``None`` for a draw."""

    winner: Optional[int]
    cells: FrozenSet[Cell] = frozenset()
    """Every cell of every winning line (empty for a draw)."""

    @property
    def is_draw(self) -> bool:
        return self.winner is None


class Board:
    """A Connect 4 position.

    :meth:`play` checks its move and raises :class:`IllegalMoveError`;
    :meth:`push` is the fast unchecked path for search; :meth:`pop` undoes.
    """

    __slots__ = ("columns", "rows", "stride", "layout", "_bits", "_heights", "_moves", "_won")

    def __init__(self, columns: int = COLUMNS, rows: int = ROWS) -> None:
        if not (1 <= columns <= 9 and rows >= 1):
            raise BoardSizeError(_("a board has 1 to 9 columns (one digit each in a move list) "
                                   "and at least one row"))
        self.columns = columns
        self.rows = rows
        self.layout = Layout(columns, rows)
        self.stride = self.layout.stride
        self._bits = [0, 0]
        self._heights = [0] * columns
        self._moves: List[int] = []
        self._won = False

    # -- construction -------------------------------------------------------

    @classmethod
    def from_moves(cls, text: str, columns: int = COLUMNS, rows: int = ROWS) -> "Board":
        """Play a move list in solver notation (1-based column digits, e.g. ``"4453"``).

        Raises :class:`MoveListError` naming the 1-based position of the first
        character that is not a column, a move into a full column, or a move
        after the game has ended.
        """
        board = cls(columns, rows)
        for position, char in enumerate(text, start=1):
            if not ("1" <= char <= "9") or int(char) > columns:
                raise MoveListError(position, char, _("not a column: use digits 1-{columns}").format(columns=columns))
            column = int(char) - 1
            if board.is_over:
                raise MoveListError(position, char, _("the game is already over"))
            if board._heights[column] >= rows:
                raise MoveListError(position, char, _("column {column} is full").format(column=char))
            board.push(column)
        return board

    def copy(self) -> "Board":
        """An independent copy (search works on copies, never on the game's board)."""
        other = Board.__new__(Board)
        other.columns, other.rows, other.stride, other.layout = self.columns, self.rows, self.stride, self.layout
        other._bits = self._bits[:]
        other._heights = self._heights[:]
        other._moves = self._moves[:]
        other._won = self._won
        return other

    # -- moves --------------------------------------------------------------

    def can_play(self, column: int) -> bool:
        """True if ``column`` (0-based) is on the board, not full, and the game goes on."""
        return 0 <= column < self.columns and self._heights[column] < self.rows and not self.is_over

    def legal_moves(self) -> List[int]:
        """The 0-based columns that can be played (empty once the game is over)."""
        if self.is_over:
            return []
        return [c for c in range(self.columns) if self._heights[c] < self.rows]

    def play(self, column: int) -> int:
        """Drop a token for the player to move into ``column`` (0-based); return its row."""
        if not 0 <= column < self.columns:
            raise IllegalMoveError(_("column {column} is not on the board (1-{columns})").format(
                column=column + 1, columns=self.columns))
        if self.is_over:
            raise IllegalMoveError(_("the game is already over"))
        if self._heights[column] >= self.rows:
            raise IllegalMoveError(_("column {column} is full").format(column=column + 1))
        return self.push(column)

    def push(self, column: int) -> int:
        """Drop a token without checks (for search); return its row."""
        row = self._heights[column]
        player = len(self._moves) & 1
        bits = self._bits[player] | (1 << (column * self.stride + row))
        self._bits[player] = bits
        self._heights[column] = row + 1
        self._moves.append(column)
        self._won = self._has_four(bits)
        return row

    def pop(self) -> int:
        """Take back the last move; return its column."""
        column = self._moves.pop()
        row = self._heights[column] - 1
        self._heights[column] = row
        self._bits[len(self._moves) & 1] ^= 1 << (column * self.stride + row)
        self._won = False
        return column

    # -- state --------------------------------------------------------------

    @property
    def moves(self) -> Tuple[int, ...]:
        """The 0-based columns played so far, in order."""
        return tuple(self._moves)

    def notation(self) -> str:
        """The moves so far in solver notation (1-based digits)."""
        return "".join(str(c + 1) for c in self._moves)

    @property
    def size(self) -> Tuple[int, int]:
        """``(columns, rows)``."""
        return self.columns, self.rows

    @property
    def ply(self) -> int:
        """How many tokens are on the board."""
        return len(self._moves)

    @property
    def to_move(self) -> int:
        """The player (1 or 2) whose turn it is, or would be if the game were not over."""
        return 1 + (len(self._moves) & 1)

    @property
    def bitboards(self) -> Tuple[int, int]:
        """The stones of player 1 and player 2 as bitboards."""
        return self._bits[0], self._bits[1]

    def height(self, column: int) -> int:
        """How many tokens are in ``column``."""
        return self._heights[column]

    def cell(self, column: int, row: int) -> int:
        """0 for empty, else the player (1 or 2) whose token is at ``(column, row)``."""
        bit = 1 << (column * self.stride + row)
        if self._bits[0] & bit:
            return 1
        if self._bits[1] & bit:
            return 2
        return 0

    @property
    def is_over(self) -> bool:
        return self._won or len(self._moves) == self.columns * self.rows

    @property
    def outcome(self) -> Optional[Outcome]:
        """``None`` while the game goes on, else who won and the winning cells."""
        if self._won:
            winner = 2 - (len(self._moves) & 1)
            return Outcome(winner, frozenset(self._cells(self._line_bits(self._bits[winner - 1]))))
        if len(self._moves) == self.columns * self.rows:
            return Outcome(None)
        return None

    # -- line detection -----------------------------------------------------

    def _directions(self) -> Tuple[int, int, int, int]:
        # vertical, horizontal, diagonal /, diagonal \
        return 1, self.stride, self.stride + 1, self.stride - 1

    def _has_four(self, bits: int) -> bool:
        for d in self._directions():
            m = bits & (bits >> d)
            if m & (m >> (2 * d)):
                return True
        return False

    def _line_bits(self, bits: int) -> int:
        """Every bit that belongs to a run of four or more in ``bits``."""
        cells = 0
        for d in self._directions():
            m = bits & (bits >> d)
            starts = m & (m >> (2 * d))
            for k in range(4):
                cells |= starts << (k * d)
        return cells

    def _cells(self, bits: int) -> List[Cell]:
        return [(c, r) for c in range(self.columns) for r in range(self.rows)
                if bits >> (c * self.stride + r) & 1]

    def __str__(self) -> str:
        """Rows top to bottom: ``.`` empty, ``X`` player 1, ``O`` player 2."""
        marks = ".XO"
        return "\n".join(
            "".join(marks[self.cell(c, r)] for c in range(self.columns))
            for r in reversed(range(self.rows)))

    def __repr__(self) -> str:
        size = "" if self.size == (COLUMNS, ROWS) else f", {self.columns}, {self.rows}"
        return f"Board.from_moves({self.notation()!r}{size})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Board) and (self.columns, self.rows) == (other.columns, other.rows)
                and self._bits == other._bits)

    def __hash__(self) -> int:
        return hash((self.columns, self.rows, self._bits[0], self._bits[1]))
