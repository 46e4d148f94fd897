"""Test positions with exact scores, and the books the engine tests use.

``tests/data/*.sample`` are samples of Pascal Pons' Connect 4 test sets ("Solving
Connect 4: how to build a perfect AI", github PascalPons/connect4): ``MOVES SCORE``
lines, the score for the side to move in the ``22 - k`` convention.
"""
import functools
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest
from ci_needs import require

from sensehat_c4.engine import Oracle, native
from sensehat_c4.engine.book12 import SHAPE, Book12, default_path
from sensehat_c4.engine.cores import new_solver
from sensehat_c4.engine.openings import OpeningBook
from sensehat_c4.engine.position import Position, Shape
from sensehat_c4.engine.solver import Solver
from sensehat_c4.rules import Board, Size

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


# (columns, rows): (who wins, the move the game ends on), from the tables cited above
PUBLISHED = {
    (4, 4): (None, 16), (5, 4): (None, 20), (6, 4): (2, 24), (7, 4): (None, 28), (8, 4): (2, 32),
    (4, 5): (None, 20), (5, 5): (None, 25), (6, 5): (None, 30), (7, 5): (None, 35), (8, 5): (1, 39),
    (4, 6): (None, 24), (5, 6): (None, 30), (6, 6): (2, 36), (7, 6): (1, 41), (8, 6): (2, 48),
}


def published_score(size: Size) -> int:
    """The empty board's score for the first player, from :data:`PUBLISHED`."""
    winner, last = PUBLISHED[(size.columns, size.rows)]
    if winner is None:
        return 0
    score = (size.columns * size.rows + 3) // 2 - (last + 1) // 2
    return score if winner == 1 else -score


def minimax(board: Board, memo: Dict) -> int:
    """The exact score for the side to move (memoised on the position, nothing else).

    On the board's own bitboards (column ``c``, row ``r`` at bit ``c * (rows + 1) + r``), with a
    four-in-a-row test of its own: the engine's code is not used, and the rules' ``Board`` only to
    read the position (2-3x faster than pushing and popping a ``Board``: the 5 x 4 board's 3.1
    million positions in some 7 s)."""
    first, second = board.bitboards
    mover = first if board.to_move == 1 else second
    return _plain_search(board.columns, board.rows)(mover, first | second, board.ply, memo)


def child_scores(board: Board, memo: Dict) -> Dict[int, int]:
    cells = board.columns * board.rows
    scores = {}
    for column in board.legal_moves():
        board.push(column)
        outcome = board.outcome
        if outcome is None:
            scores[column] = -minimax(board, memo)
        else:
            scores[column] = 0 if outcome.winner is None else (cells + 2 - board.ply) // 2
        board.pop()
    return scores


def make_book(*argv):
    import subprocess
    import sys
    from pathlib import Path

    tool = Path(__file__).resolve().parents[2] / "tools" / "make_book.py"
    proc = subprocess.run([sys.executable, str(tool), *argv], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@functools.lru_cache(maxsize=None)
def _plain_search(columns: int, rows: int) -> Callable[[int, int, int, Dict], int]:
    """:func:`minimax` for one size: ``search(mover's stones, all stones, stones played, memo)``."""
    stride, cells = rows + 1, columns * rows
    directions = (1, stride, stride - 1, stride + 1)            # vertical, horizontal, the two diagonals
    bottoms = [1 << (column * stride) for column in range(columns)]
    tops = [bottom << (rows - 1) for bottom in bottoms]

    def four(stones: int) -> bool:
        for shift in directions:
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def search(mover: int, stones: int, played: int, memo: Dict) -> int:
        key = mover + stones                                    # one number per position (mover within stones)
        best = memo.get(key)
        if best is None:
            for column in range(columns):
                if stones & tops[column]:
                    continue                                    # a full column
                after = stones | (stones + bottoms[column])     # the new stone on top of the column
                if four(mover | (after ^ stones)):
                    value = (cells + 1 - played) // 2           # a win with this stone, the (played + 1)th
                elif played + 1 == cells:
                    value = 0
                else:
                    value = -search(mover ^ stones, after, played + 1, memo)
                best = value if best is None else max(best, value)
            memo[key] = best
        return best

    return search
