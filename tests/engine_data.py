"""Test positions with exact scores, and the books the engine tests use.

``tests/data/*.sample`` are samples of Pascal Pons' Connect 4 test sets ("Solving
Connect 4: how to build a perfect AI", github PascalPons/connect4): ``MOVES SCORE``
lines, the score for the side to move in the ``22 - k`` convention.
"""
from pathlib import Path
from typing import List, Tuple

import pytest

from sensehat_c4.engine import Oracle
from sensehat_c4.engine.book12 import SHAPE, Book12, default_path
from sensehat_c4.engine.openings import OpeningBook
from sensehat_c4.engine.position import Position
from sensehat_c4.rules import Board

DATA = Path(__file__).resolve().parent / "data"


def positions(name: str) -> List[Tuple[str, int]]:
    """The ``(moves, score)`` rows of ``tests/data/NAME.sample``."""
    rows = []
    for line in (DATA / f"{name}.sample").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            rows.append((moves, int(score)))
    return rows


def book12_or_skip() -> Book12:
    """The installed 12-ply book (``pip install -e '.[test]'`` installs it on Python 3.10+)."""
    path = default_path()
    if path is None or not path.is_file():
        pytest.skip("the 12-ply book (bitbully-databases) is not installed")
    return Book12(path)


def oracle(book12: bool = True) -> Oracle:
    """A fresh oracle (its own transposition table) with the opening book, and the 12-ply book if asked."""
    return Oracle(SHAPE, OpeningBook(), book12_or_skip() if book12 else None)


def at(moves: str) -> Position:
    """The engine's position after a move list on the 7 x 6 board."""
    return Position.of(Board.from_moves(moves))
