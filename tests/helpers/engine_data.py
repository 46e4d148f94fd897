"""Test positions with exact scores, and the books the engine tests use.

``tests/data/*.sample`` are samples of Pascal Pons' Connect 4 test sets ("Solving
Connect 4: how to build a perfect AI", github PascalPons/connect4): ``MOVES SCORE``
lines, the score for the side to move in the ``22 - k`` convention.
"""
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from ci_needs import require

from sensehat_c4.engine import Oracle, native
from sensehat_c4.engine.book12 import SHAPE, Book12, default_path
from sensehat_c4.engine.cores import new_solver
from sensehat_c4.engine.openings import OpeningBook
from sensehat_c4.engine.position import Position, Shape
from sensehat_c4.engine.solver import Solver
from sensehat_c4.rules import Board

DATA = Path(__file__).resolve().parents[1] / "data"


def positions(name: str) -> List[Tuple[str, int]]:
    """The ``(moves, score)`` rows of ``tests/data/NAME.sample``."""
    rows = []
    for line in (DATA / f"{name}.sample").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            rows.append((moves, int(score)))
    return rows


def scored(size: str) -> List[Tuple[str, int, int]]:
    """The ``(moves, score, positions its solver searched)`` rows of ``tests/data/sizes_SIZE.scores``:
    positions of the large boards scored by an independent solver (the file's header says which)."""
    rows = []
    for line in (DATA / f"sizes_{size}.scores").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score, work = line.split()
            rows.append((moves, int(score), int(work)))
    return rows


def book12_or_skip() -> Book12:
    """The installed 12-ply book (``pip install -e '.[test]'`` installs it on Python 3.10+)."""
    path = default_path()
    if path is None or not path.is_file():
        pytest.skip("the 12-ply book (bitbully-databases) is not installed")
    return Book12(path)


CORES = ("python", "native")
"""The solver's two cores, for ``pytest.mark.parametrize``."""


def native_or_skip() -> None:
    """Skip when the native core is not available (no C compiler at install time); under CI, fail."""
    if native.library() is None:
        require([native.LIBRARY.name], f"the native solver core (not built, or {native.PURE_ENV} is set)",
                ".ci/native-cross (it installs gcc), then pip install -e .")


def solver(core: str, table_bits: int, shape: Shape = SHAPE, threads: int = 1) -> Solver:
    """A fresh solver core (skips a native one that is not available); one thread unless asked, so
    that node counts are exact (with helper threads only the scores are)."""
    if core == "native":
        native_or_skip()
    return new_solver(shape, table_bits=table_bits, core=core, threads=threads)


def oracle(book12: bool = True, core: Optional[str] = None, threads: Optional[int] = None) -> Oracle:
    """A fresh oracle (its own transposition table) with the opening book, and the 12-ply book if asked;
    ``threads=1`` where a node limit must be reproducible (with more, the helpers' timing decides)."""
    if core == "native":
        native_or_skip()
    return Oracle(SHAPE, OpeningBook(), book12_or_skip() if book12 else None, core, threads=threads)


def at(moves: str) -> Position:
    """The engine's position after a move list on the 7 x 6 board."""
    return Position.of(Board.from_moves(moves))
