"""Reading the 12-ply book of ``bitbully-databases`` (optional; MIT, Markus Thill).

``book_12ply_distances.dat`` holds 4,200,899 positions with 12 stones, each a
5-byte record: the position Huffman-coded in a big-endian signed 32-bit word,
then one signed byte.  Records are sorted by the word, so a lookup is a binary
search (about 22 probes) in the memory-mapped file: nothing is loaded, and the
operating system pages in only what is read.

The code: columns left to right, each column bottom to top, ``10`` for a
player-1 stone, ``11`` for a player-2 stone, ``0`` to end the column (a full
column too), then one more ``0``.  A position may be stored as itself or as its
mirror image.  The byte ``v``: ``|v| = 100 - d`` where ``d`` is the number of
further plies to the end under perfect play; ``v > 0`` means player 1 wins,
``v < 0`` player 2 wins, ``0`` a draw.  Positions that player 1 (to move) wins
with its next stone are left out (:func:`score12` computes them).
"""
from __future__ import annotations

import logging
import mmap
import os
import stat
from importlib.util import find_spec
from pathlib import Path
from typing import Optional, Set, Tuple

from ..i18n import _
from ..rules import STANDARD
from .position import shape_of

SHAPE = shape_of(STANDARD)
"""The books are for the 7 x 6 board only."""

FILE_NAME = "book_12ply_distances.dat"
ENV_VAR = "SENSEHAT_C4_BOOK12"
"""An explicit path to ``book_12ply_distances.dat`` (else the installed package's copy)."""
RECORD = 5
PLY = 12
SAMPLES = 64
"""How many evenly spaced records :class:`Book12` checks are in order when it opens a file."""

log = logging.getLogger("sensehat_c4.engine")
_warned: Set[Tuple[str, str]] = set()


def huffman_bits(first: int, second: int, mirror: bool = False) -> Tuple[int, int]:
    """The book's Huffman code of a position, unpadded: ``(code, number of bits)``."""
    code = 0
    bits = 0
    width, height, stride = SHAPE.width, SHAPE.height, SHAPE.stride
    for c in (range(width - 1, -1, -1) if mirror else range(width)):
        for r in range(height):
            bit = 1 << (c * stride + r)
            if first & bit:
                code = (code << 2) | 2
            elif second & bit:
                code = (code << 2) | 3
            else:
                break
            bits += 2
        code <<= 1
        bits += 1
    return code << 1, bits + 1


def huffman(first: int, second: int, mirror: bool = False) -> int:
    """The 12-ply book's signed 32-bit code of a 12-stone position (``first``: player 1's stones)."""
    code, bits = huffman_bits(first, second, mirror)
    code <<= 32 - bits  # 12 stones: 24 + 7 + 1 = 32 bits exactly
    return code - (1 << 32) if code >> 31 else code


def default_path() -> Optional[Path]:
    """Where the 12-ply book is: ``$SENSEHAT_C4_BOOK12``, else the ``bitbully_databases`` package."""
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return Path(explicit)
    try:
        spec = find_spec("bitbully_databases")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "assets" / FILE_NAME
        if path.is_file():
            return path
    return None


def installed() -> "Optional[Book12]":
    """The 12-ply book at :func:`default_path`, or ``None``: not installed, or a file that cannot
    be used (empty, not the book, unreadable, a directory, a FIFO, a device), which one line in
    the log names, once per process; the engine then goes on without it."""
    path = default_path()
    if path is None:
        return None
    try:
        return Book12(path)
    except (OSError, ValueError, OverflowError) as exc:  # OverflowError: larger than a 32-bit mmap
        why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        if (str(path), why) not in _warned:
            _warned.add((str(path), why))
            log.warning(_("the 12-ply book {path} cannot be used: {why}; going on without it").format(path=path, why=why))
        return None


class Book12:
    """Exact scores of 12-stone positions from the memory-mapped distance book.

    ``ValueError`` (or ``OSError``) if ``path`` is not one: not a regular file, empty, not a
    whole number of records, or records out of order (checked at :data:`SAMPLES` places).
    """

    def __init__(self, path: Path) -> None:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the open, a device never ends
            raise ValueError("it is not a regular file")
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0 or size % RECORD:
                raise ValueError("it is empty" if size == 0 else f"its size, {size}, is not a multiple of {RECORD}")
            self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.path = path
        self.entries = len(self._map) // RECORD
        keys = [self._key(i * (self.entries - 1) // SAMPLES) for i in range(SAMPLES + 1)]
        if self.entries <= SAMPLES or any(a >= b for a, b in zip(keys, keys[1:])):
            self._map.close()
            raise ValueError("it holds too few positions" if self.entries <= SAMPLES else
                             "its positions are not in order")

    def _key(self, index: int) -> int:
        at = index * RECORD
        return int.from_bytes(self._map[at:at + 4], "big", signed=True)

    def close(self) -> None:
        self._map.close()

    def raw(self, code: int) -> Optional[int]:
        """The stored byte for a position code, or ``None`` if the code is not in the book."""
        data = self._map
        lo, hi = 0, self.entries - 1
        from_bytes = int.from_bytes
        while lo <= hi:
            mid = (lo + hi) >> 1
            at = mid * RECORD
            key = from_bytes(data[at:at + 4], "big", signed=True)
            if key == code:
                return from_bytes(data[at + 4:at + 5], "big", signed=True)
            if key < code:
                lo = mid + 1
            else:
                hi = mid - 1
        return None

    def score12(self, current: int, mask: int) -> Optional[int]:
        """Exact score (test-set convention, player 1 to move) of a 12-stone position.

        ``None`` if the position is not in the book and player 1 cannot win at once
        (e.g. a position where someone has already won).
        """
        if SHAPE.can_win_now(current, mask):
            return SHAPE.win_score(PLY)
        first, second = current, current ^ mask
        value = self.raw(huffman(first, second))
        if value is None:
            value = self.raw(huffman(first, second, mirror=True))
        if value is None:
            return None
        return distance_to_score(value, PLY)


def distance_to_score(value: int, ply: int) -> int:
    """The book's byte at ``ply`` stones -> the score for the side to move.

    ``|value| = 100 - d``: the game ends ``d`` plies later with the last stone played
    by the winner, who then has ``(ply + d + 1) // 2`` stones; the score is
    ``22 - k`` for that ``k``, positive if the winner is the side to move.
    """
    if value == 0:
        return 0
    end = ply + 100 - abs(value)  # stones on the board once the winner has played
    stones = (end + 1) // 2
    winner_first = value > 0
    mover_first = ply % 2 == 0
    magnitude = 22 - stones
    return magnitude if winner_first == mover_first else -magnitude
