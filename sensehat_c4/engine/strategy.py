"""Strategy books: perfect's own move in every position it can reach itself, up to a few stones.

A size's opening book (:mod:`.sizebooks`) scores every position up to its stones; on 8 x 6
that is some 200,000 positions of eight stones at seconds each.  Perfect needs an answer only
in positions it reaches itself: at each of its turns after its own book move and every reply
of the opponent.  So ``data/strategy-WxH.bin`` (built by ``tools/make_book.py --board WxH
--strategy N``) holds, for each side, the positions where that side is to move and that
arise when it plays the book's move at each of its turns and the opponent any move, up to
``N`` stones: some 8 ** (N / 2) a side instead of every position.  With each: the exact score
for the side to move and the book's move (one of optimal value: the fastest win, the longest
defence, or a draw kept).  Positions where the side to move wins at once are left out (the
oracle plays the win).

The file is zlib-compressed: a header ``C4ST`` with the width, height and stones (one byte
each), then 10-byte records sorted by key: the key (:func:`.sizebooks.book_key`, the smaller of
the position's and its mirror image's) as 8 big-endian bytes, the score as a signed byte and
the column (0-based) of the move in the position of that key (mirrored back when the position
is the mirror image).  A lookup is a binary search.
"""
from __future__ import annotations

import functools
import logging
import zlib
from pathlib import Path
from typing import List, Optional, Tuple

from ..i18n import _
from ..rules import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Layout, Size
from .position import Position, shape_of
from .sizebooks import DATA, mirror_key

MAGIC = b"C4ST"
HEADER = len(MAGIC) + 3
RECORD = 10
MAX_BYTES = 4 * 1024 * 1024
"""A shipped strategy book is some hundred kilobytes; anything larger is not read."""

log = logging.getLogger(__name__)

Decision = Tuple[int, int]
"""``(column, score)``: the book's move in a position and the position's exact score."""


def strategy_path(layout: Layout) -> Path:
    """Where the strategy book of ``layout`` is shipped (``data/strategy-WxH.bin``)."""
    return DATA / f"strategy-{layout.columns}x{layout.rows}.bin"


@functools.lru_cache(maxsize=None)
def strategy_sizes(sizes: Tuple[Size, ...]) -> Tuple[Size, ...]:
    """The sizes among ``sizes`` whose book is shipped (each looked for once, when first asked)."""
    return tuple(size for size in sizes if strategy_path(size).is_file())


def encode(layout: Layout, stones: int, records: List[Tuple[int, int, int]]) -> bytes:
    """A strategy book's bytes from ``(key, score, column)`` records (sorted here)."""
    body = b"".join(key.to_bytes(8, "big") + score.to_bytes(1, "big", signed=True) + bytes([column])
                    for key, score, column in sorted(records))
    return zlib.compress(MAGIC + bytes([layout.columns, layout.rows, stones]) + body, 9)


class StrategyBook:
    """Perfect's moves and exact scores in the positions it reaches itself, up to :attr:`max_ply` stones."""

    def __init__(self, path: Path) -> None:
        packed = path.read_bytes()
        if len(packed) > MAX_BYTES:
            raise ValueError(f"{path}: not a strategy book (too large)")
        try:
            data = zlib.decompressobj().decompress(packed, 64 * MAX_BYTES)
        except zlib.error:
            raise ValueError(f"{path}: not a strategy book") from None
        if data[:len(MAGIC)] != MAGIC or len(data) < HEADER or (len(data) - HEADER) % RECORD \
                or not MIN_COLUMNS <= data[4] <= MAX_COLUMNS or not MIN_ROWS <= data[5] <= MAX_ROWS:
            raise ValueError(f"{path}: not a strategy book")
        self.layout = Layout(data[4], data[5])
        self.max_ply = data[6]
        self.shape = shape_of(self.layout)
        self.size = (self.layout.columns, self.layout.rows)
        self._data = data
        self.entries = (len(data) - HEADER) // RECORD

    def _find(self, key: int) -> Optional[Decision]:
        target = key.to_bytes(8, "big")
        data, low, high = self._data, 0, self.entries
        while low < high:
            middle = (low + high) // 2
            at = HEADER + middle * RECORD
            found = data[at:at + 8]
            if found < target:
                low = middle + 1
            elif found > target:
                high = middle
            else:
                return data[at + 9], int.from_bytes(data[at + 8:at + 9], "big", signed=True)
        return None

    def decision(self, position: Position) -> Optional[Decision]:
        """``(column, score)`` if the book has ``position`` (the column as the position lies), else ``None``."""
        if position.moves > self.max_ply or (position.shape.width, position.shape.height) != self.size:
            return None
        key = position.current + position.mask
        mirrored = mirror_key(self.shape, key)
        found = self._find(min(key, mirrored))
        if found is None:
            return None
        column, score = found
        if mirrored < key:
            column = self.shape.width - 1 - column
        if column >= self.shape.width or not position.possible & self.shape.column_masks[column]:
            return None  # a damaged record: the solver decides
        return column, score

    def score_after(self, position: Position) -> Optional[int]:
        """The exact score of ``position`` (side to move) if its last stone was a book move, else ``None``.

        The positions one stone before are tried (each column's top stone taken away), so the last move
        need not be known."""
        if not 0 < position.moves <= self.max_ply + 1 or (position.shape.width, position.shape.height) != self.size:
            return None
        shape = self.shape
        before = position.mask ^ position.current  # the stones of the side that moved last
        for column in range(shape.width):
            stones = position.mask & shape.column_masks[column]
            if not stones:
                continue
            top = 1 << (stones.bit_length() - 1)  # the column's top stone
            if not top & before:
                continue
            parent = Position(before ^ top, position.mask ^ top, position.moves - 1, shape)
            found = self.decision(parent)
            if found is not None and found[0] == column:
                return -found[1]
        return None


def installed(layout: Layout) -> Optional[StrategyBook]:
    """The shipped strategy book of ``layout``, or ``None`` (a damaged one is one log line)."""
    path = strategy_path(layout)
    if not path.is_file():
        return None
    try:
        book = StrategyBook(path)
    except (OSError, ValueError) as exc:
        log.warning(_("strategy book not used ({error})").format(error=exc))
        return None
    if (book.layout.columns, book.layout.rows) != (layout.columns, layout.rows):
        log.warning(_("strategy book not used ({path}: for {columns}x{rows})").format(
            path=path, columns=book.layout.columns, rows=book.layout.rows))
        return None
    return book

