"""The shipped opening book: the exact score of every position with up to 8 stones.

``data/book8.bin`` is derived from the 12-ply distance book of ``bitbully-databases``
(MIT licence, Markus Thill; see ``data/LICENSE-bitbully-databases``) by
``tools/make_book.py``.  It holds 113,934 positions (up to mirror symmetry) in
4-byte records, sorted: a 24-bit key (the book's Huffman code of the position, see
:mod:`.book12`, left-aligned; the smaller of the position's and its mirror's) and the
score as a signed byte.  Positions whose side to move wins at once are left out.
Loaded once, it costs about 0.5 MB of memory; a lookup is a binary search.
"""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Optional

from ..rules import STANDARD
from .book12 import SHAPE, huffman_bits

MAX_PLY = 8
KEY_BITS = 24
RECORD = 4
OUTPUT = "sensehat_c4/engine/data/book8.bin"
"""The book's path in the source tree (written by ``tools/make_book.py``)."""
PATH = Path(__file__).resolve().parent / "data" / "book8.bin"


def key24(first: int, second: int) -> int:
    """A position's key in the book: the smaller of its and its mirror's Huffman codes,
    left-aligned in 24 bits (``first``/``second``: player 1's and player 2's stones)."""
    codes = []
    for flip in (False, True):
        code, bits = huffman_bits(first, second, flip)
        codes.append(code << (KEY_BITS - bits))
    return min(codes)


class OpeningBook:
    """Exact scores of positions with at most :data:`MAX_PLY` stones."""

    layout = STANDARD
    max_ply = MAX_PLY

    def __init__(self, path: Path = PATH) -> None:
        self._data = zlib.decompress(path.read_bytes())
        if len(self._data) % RECORD:
            raise ValueError(f"{path}: not an opening book (size is not a multiple of {RECORD})")
        self.entries = len(self._data) // RECORD

    def score(self, current: int, mask: int, moves: int) -> Optional[int]:
        """The exact score for the side to move, or ``None`` beyond :data:`MAX_PLY` stones."""
        if moves > MAX_PLY:
            return None
        if SHAPE.can_win_now(current, mask):
            return SHAPE.win_score(moves)
        first = current if moves % 2 == 0 else current ^ mask
        target = key24(first, first ^ mask).to_bytes(3, "big")
        score = find_score(self._data, 0, self.entries, target)
        if score is None:
            raise LookupError(f"the opening book lacks a position with {moves} stones")
        return score


def find_score(data: bytes, start: int, entries: int, key: bytes) -> Optional[int]:
    """The signed score byte after ``key`` in ``entries`` sorted records of ``len(key) + 1`` bytes
    from ``start`` (a binary search), or ``None`` if no record has that key."""
    size = len(key) + 1
    lo, hi = 0, entries - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        at = start + mid * size
        found = data[at:at + size - 1]
        if found == key:
            return int.from_bytes(data[at + size - 1:at + size], "big", signed=True)
        if found < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return None
