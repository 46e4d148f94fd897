"""Opening books of the other board sizes: the exact score of every position with up to a few stones.

``data/book-WxH.bin`` (built by ``tools/make_book.py --board WxH --plies N`` with the
solver itself) holds, for one board size, every position with at most ``plies`` stones
that is not over and whose side to move cannot win at once, up to mirror symmetry.  The
file is zlib-compressed: a header ``C4BK`` with the width, height and plies (one byte
each), then 9-byte records sorted by key: the key as 8 big-endian bytes and the score
for the side to move as a signed byte.  The key of a position is :func:`book_key`: the
smaller of ``current + mask`` and its mirror image's (``current``: the stones of the side
to move), which tells positions apart.  A lookup is a binary search.
"""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import List, Optional, Tuple

from ..rules import Layout
from .openings import find_score
from .position import Shape, shape_of

MAGIC = b"C4BK"
HEADER = len(MAGIC) + 3
RECORD = 9
DATA = Path(__file__).resolve().parent / "data"


def book_path(layout: Layout) -> Path:
    """Where the book of ``layout`` is shipped (``data/book-WxH.bin``)."""
    return DATA / f"book-{layout.columns}x{layout.rows}.bin"


def mirror_key(shape: Shape, key: int) -> int:
    """``key`` with its columns in the reverse order (the mirror image's key)."""
    width, stride = shape.width, shape.stride
    column = (1 << stride) - 1
    return sum(((key >> (c * stride)) & column) << ((width - 1 - c) * stride) for c in range(width))


def book_key(shape: Shape, current: int, mask: int) -> int:
    """The key of a position in a book: the smaller of its and its mirror image's ``current + mask``."""
    key = current + mask
    return min(key, mirror_key(shape, key))


def encode(layout: Layout, plies: int, records: List[Tuple[int, int]]) -> bytes:
    """A book file's bytes from ``(key, score)`` records (sorted here)."""
    body = b"".join(key.to_bytes(8, "big") + score.to_bytes(1, "big", signed=True)
                    for key, score in sorted(records))
    return zlib.compress(MAGIC + bytes([layout.columns, layout.rows, plies]) + body, 9)


class SizeBook:
    """Exact scores of the positions of one board size with at most :attr:`max_ply` stones."""

    def __init__(self, path: Path) -> None:
        data = zlib.decompress(path.read_bytes())
        if data[:len(MAGIC)] != MAGIC or len(data) < HEADER or (len(data) - HEADER) % RECORD:
            raise ValueError(f"{path}: not an opening book")
        self.layout = Layout(data[4], data[5])
        self.max_ply = data[6]
        self.shape = shape_of(self.layout)
        self._data = data
        self.entries = (len(data) - HEADER) // RECORD

    def score(self, current: int, mask: int, moves: int) -> Optional[int]:
        """The exact score for the side to move, or ``None`` beyond :attr:`max_ply` stones."""
        if moves > self.max_ply:
            return None
        shape = self.shape
        if shape.can_win_now(current, mask):
            return shape.win_score(moves)
        target = book_key(shape, current, mask).to_bytes(8, "big")
        score = find_score(self._data, HEADER, self.entries, target)
        if score is None:
            raise LookupError(f"the {self.layout.columns}x{self.layout.rows} book lacks a position with {moves} stones")
        return score
