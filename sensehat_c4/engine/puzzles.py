"""Puzzles: "find the win" on 7 x 6, and the puzzle of the day.

A puzzle is a position from real play (games between the ladder's levels) where the side to
move wins with its ``n``-th stone from here whatever the defence (``n`` from 1 to 7), and
only one first move wins that soon: every other move wins later, draws or loses.  The exact
solver proved both when the set was made, every defence considered (``tools/make_puzzles.py``;
the tests check a sample against an independent solver).  Each puzzle also has a grade,
``tries``: how many tries the ladder's levels 1 to 3 need on average to find the first move,
each try ruling a column out (a stand-in for people's tries until those are recorded).

``data/puzzles.bin`` holds at least 1,000 puzzles of each ``n``: zlib-compressed UTF-8 text,
a header line ``C4PZ 1 7x6`` (format version, board), then one puzzle a line, ``N TRIES MOVES
SOLUTION LINE``: the moves leading to the position and the solution line (from the position:
the fastest win against the longest defence, the lowest column among equals) in the
solver's notation (1-based column digits), the first move of that line as ``SOLUTION``.
Puzzles are numbered from 1 within each ``n`` in the file's order: ``3-0042``.

**The day's puzzle** (:func:`daily`) is the same on every Pi on the same date: ``n`` follows
the week, Monday's wins with the first stone and Sunday's with the seventh, and among the
puzzles of that ``n`` the day's is number ``sha256(ISO date) mod count`` (from 0).  From
:data:`FAIR_FROM` on, that is among the *fair* puzzles of that ``n`` only (:func:`fair`: at least
:data:`MIN_MOVES` legal moves, and :data:`MIN_SAFE` of them that do not lose at once, so that
finding the move is not a matter of the only column left, or of the only move that does not hand
the defence a four).  The days before it keep the puzzle they were given since the puzzles
began (2026-11-26), fair or not: the records name a day's puzzle by its id, and a day played
again (``--date``) is the same puzzle.  The file itself never changes order: an id is the same
puzzle for good.

**Solving** (:func:`check`, :func:`defence`) is pure: a board in, a verdict or a column out, the
exact solver's answer within a :class:`~.limit.Limit`; the LEDs, the terminal and the web
page play a puzzle through these two.
"""
from __future__ import annotations

import enum
import hashlib
import re
import threading
import zlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Tuple

from ..errors import ConfigError, IllegalMoveError
from ..i18n import _
from ..rules import STANDARD, Board
from .limit import Limit
from .oracle import Oracle, default_oracle
from .position import Position, non_losing, popcount

PATH = Path(__file__).resolve().parent / "data" / "puzzles.bin"
MAGIC = "C4PZ"
VERSION = 1
MAX_N = 7
"""The longest puzzles: the side to move wins with its seventh stone from the position."""
FAIR_FROM = date(2026, 12, 8)
"""The first day whose puzzle is chosen among the fair ones (:func:`fair`); every day before it keeps
the puzzle the first rule gave it (the day after the last one served by that rule)."""
MIN_MOVES = 3
"""A fair puzzle has at least this many legal moves ..."""
MIN_SAFE = 2
"""... and at least this many that do not lose at once (the defence has no four to make after them)."""


@dataclass(frozen=True)
class Puzzle:
    """One "find the win" position (see the module's docstring)."""

    n: int
    """The side to move wins with its ``n``-th stone from here, and not sooner."""
    number: int
    """Its place among the puzzles of its ``n``, from 1."""
    moves: str
    """The moves leading to the position (the solver's notation: 1-based column digits)."""
    line: str
    """A solution line from the position: the fastest win against the longest defence."""
    tries: float
    """How many tries the ladder's levels 1 to 3 need on average to find the first move."""

    @property
    def ident(self) -> str:
        """``3-0042``: its ``n`` and number."""
        return f"{self.n}-{self.number:04d}"

    @property
    def solution(self) -> int:
        """The one first move that wins within :attr:`n` (a 0-based column)."""
        return int(self.line[0]) - 1

    @property
    def to_move(self) -> int:
        """The player to move, 1 (who started the game) or 2."""
        return 1 + len(self.moves) % 2

    def board(self) -> Board:
        """The position, on a new board."""
        return Board.from_moves(self.moves)

    def as_json(self) -> Dict[str, Any]:
        """The puzzle as a JSON-ready dict (columns 1-based, as in the notation)."""
        return {"id": self.ident, "board": f"{STANDARD.columns}x{STANDARD.rows}", "moves": self.moves,
                "to_move": self.to_move, "n": self.n, "solution": self.solution + 1, "line": self.line,
                "tries": self.tries}


LINE = re.compile(r"([1-7]) ([0-9]{1,2}\.[0-9]{2}) ([1-7]{1,41}|-) ([1-7]) ([1-7]{1,13})")
"""A puzzle's line: ``N TRIES MOVES SOLUTION LINE`` (the moves may be ``-``: none)."""


def parse(text: str) -> Tuple[Puzzle, ...]:
    """The puzzles of a puzzle file's text (decompressed); :class:`ConfigError` if it is not one.

    Each line's form is checked here; whether its moves can be played, when the puzzle is
    used (:func:`daily`), so that reading the file stays quick on a Pi."""
    lines = text.splitlines()
    if not lines or lines[0].split() != [MAGIC, str(VERSION), f"{STANDARD.columns}x{STANDARD.rows}"]:
        raise ConfigError(_("not a puzzle file of version {version} (its first line is {line!r})").format(
            version=VERSION, line=lines[0][:40]) if lines else _("an empty puzzle file"))
    counts: Dict[int, int] = {}
    found = []
    for number, line in enumerate(lines[1:], start=2):
        match = LINE.fullmatch(line)
        if match is None:
            raise ConfigError(_("puzzle file line {number}: not N TRIES MOVES SOLUTION LINE ({line!r})").format(
                number=number, line=line[:60]))
        n_text, tries, moves, solution, solved = match.groups()
        n, moves = int(n_text), "" if moves == "-" else moves
        if solution != solved[0] or len(solved) != 2 * n - 1:
            raise ConfigError(_("puzzle file line {number}: not a puzzle ({line!r})").format(number=number, line=line[:60]))
        counts[n] = counts.get(n, 0) + 1
        found.append(Puzzle(n, counts[n], moves, solved, float(tries)))
    return tuple(found)


def playable(puzzle: Puzzle, path: Path = PATH) -> Puzzle:
    """``puzzle`` if its moves and its line can be played; :class:`ConfigError` if not (a damaged file)."""
    try:
        board = Board.from_moves(puzzle.moves + puzzle.line)
    except IllegalMoveError as exc:
        raise ConfigError(_("puzzle {puzzle} of {path} cannot be played: {error}").format(
            puzzle=puzzle.ident, path=path, error=exc)) from None
    outcome = board.outcome
    if outcome is None or outcome.winner != puzzle.to_move:
        raise ConfigError(_("puzzle {puzzle} of {path}: its line does not win").format(puzzle=puzzle.ident, path=path))
    return puzzle


_loaded: Dict[Path, Tuple[Puzzle, ...]] = {}
_lock = threading.Lock()


def puzzles(n: Optional[int] = None, *, path: Path = PATH) -> Tuple[Puzzle, ...]:
    """The shipped puzzles (read once), or those of one ``n``."""
    with _lock:
        if path not in _loaded:
            try:
                _loaded[path] = parse(zlib.decompress(path.read_bytes()).decode("utf-8"))
            except (OSError, zlib.error, UnicodeDecodeError) as exc:
                raise ConfigError(_("the puzzles cannot be read from {path}: {error}").format(path=path, error=exc)) from None
        every = _loaded[path]
    return every if n is None else tuple(p for p in every if p.n == n)


def n_of(day: date) -> int:
    """The day's ``n``: 1 on Monday up to 7 on Sunday."""
    return day.isoweekday()


def fair(puzzle: Puzzle) -> bool:
    """True if the side to move has at least :data:`MIN_MOVES` legal moves, and at least
    :data:`MIN_SAFE` of them do not lose at once: after them the defence cannot make four with its
    next stone (a move that wins at once is one of them).  :class:`IllegalMoveError` if its moves
    cannot be played."""
    here = Position.of(puzzle.board())
    shape = here.shape
    possible = here.possible
    if popcount(possible) < MIN_MOVES:
        return False
    wins = possible & shape.winning_cells(here.current, here.mask)
    safe = wins | non_losing(possible, shape.winning_cells(here.opponent, here.mask))
    return popcount(safe) >= MIN_SAFE


_fair: Dict[Tuple[Path, int], Tuple[Puzzle, ...]] = {}


def fair_puzzles(n: int, *, path: Path = PATH) -> Tuple[Puzzle, ...]:
    """The fair puzzles of ``n`` (:func:`fair`), in the file's order (worked out once); a puzzle whose
    moves cannot be played (a damaged file) is not one."""
    every = puzzles(n, path=path)
    with _lock:
        if (path, n) not in _fair:
            _fair[path, n] = tuple(p for p in every if _fair_or_not(p))
        return _fair[path, n]


def _fair_or_not(puzzle: Puzzle) -> bool:
    try:
        return fair(puzzle)
    except IllegalMoveError:
        return False


def daily(day: date, *, path: Path = PATH) -> Puzzle:
    """The puzzle of ``day``: the same on every Pi (see the module's docstring): among the fair
    puzzles of its ``n`` from :data:`FAIR_FROM` on, among all of them before."""
    n = n_of(day)
    choice = fair_puzzles(n, path=path) if day >= FAIR_FROM else puzzles(n, path=path)
    if not choice:
        raise ConfigError(_("no puzzle of n = {n} in {path}").format(n=n, path=path))
    digest = int.from_bytes(hashlib.sha256(day.isoformat().encode("ascii")).digest(), "big")
    return playable(choice[digest % len(choice)], path)


# -- solving ---------------------------------------------------------------------------------

class Verdict(enum.Enum):
    """What a solver's move does to the puzzle."""

    WRONG = "wrong"
    """It does not win within the stones left (the defence can hold out longer, or it loses)."""
    RIGHT = "right"
    """It still wins within the stones left: the defence moves next."""
    SOLVED = "solved"
    """It wins: four in a row."""


def position(puzzle: Puzzle, played: Sequence[int]) -> Board:
    """The puzzle's board after ``played`` (0-based columns from the puzzle's position on, the
    solver's and the defence's in turn); :class:`IllegalMoveError` for a move that cannot be played."""
    board = puzzle.board()
    for column in played:
        board.play(column)
    return board


def stones_left(puzzle: Puzzle, played: Sequence[int]) -> int:
    """How many stones the solver has left to win with, after ``played``."""
    return puzzle.n - (len(played) + 1) // 2


def check(puzzle: Puzzle, played: Sequence[int], column: int, *, limit: Limit = Limit(),
          oracle: Optional[Oracle] = None) -> Verdict:
    """The verdict on the solver's move ``column`` (0-based) after ``played`` (the solver's and the
    defence's moves so far, an even number of them).  Raises :class:`IllegalMoveError` if it is
    not the solver's turn or ``column`` cannot be played, :class:`~sensehat_c4.errors.SearchAborted`
    if ``limit`` runs out (the searches are at most a few stones deep: milliseconds)."""
    if len(played) % 2:
        raise IllegalMoveError(_("it is the defence's move, not the solver's"))
    board = position(puzzle, played)
    if board.is_over:
        raise IllegalMoveError(_("the puzzle is over"))
    left = stones_left(puzzle, played)
    if left < 1:
        raise IllegalMoveError(_("the puzzle has no stones left"))
    if not board.can_play(column):
        raise IllegalMoveError(_("column {column} is full").format(column=column + 1))
    here = Position.of(board)
    shape = here.shape
    if here.column_move(column) & shape.winning_cells(here.current, here.mask):
        return Verdict.SOLVED
    if left == 1:
        return Verdict.WRONG
    target = shape.win_score(here.moves + 2 * left - 2)     # winning with the last stone left
    oracle = oracle or default_oracle(STANDARD)
    with oracle.lock:
        wins = oracle.solver.at_most(here.play(column), -target, limit.start())
    return Verdict.RIGHT if wins else Verdict.WRONG


def defence(puzzle: Puzzle, played: Sequence[int], *, limit: Limit = Limit(),
            oracle: Optional[Oracle] = None) -> int:
    """The defence's move after ``played`` (an odd number of moves, the solver's last one right):
    one that holds out longest, the lowest column among equals (0-based)."""
    if len(played) % 2 == 0:
        raise IllegalMoveError(_("it is the solver's move, not the defence's"))
    board = position(puzzle, played)
    if board.is_over:
        raise IllegalMoveError(_("the puzzle is over"))
    here = Position.of(board)
    shape = here.shape
    oracle = oracle or default_oracle(STANDARD)
    budget = limit.start()
    # the solver wins within the stones it has left whatever the defence: its scores lie in this window
    window = (shape.win_score(here.moves + 1 + 2 * stones_left(puzzle, played) - 2), shape.win_score(here.moves + 1))
    best, chosen = None, None
    with oracle.lock:
        for column in here.legal_columns():
            if here.column_move(column) & shape.winning_cells(here.current, here.mask):
                return column    # a solver's move that was not right after all: the defence wins
            child = here.play(column)
            theirs = oracle.solver.score(child, budget, window=window) if here.moves + 1 < shape.cells else 0
            if best is None or theirs < best:
                best, chosen = theirs, column
    assert chosen is not None
    return chosen


def solution_line(moves: str, *, limit: Limit = Limit(), oracle: Optional[Oracle] = None) -> str:
    """The solution line of the position after ``moves``, if its side to move wins: the fastest win
    against the longest defence, the lowest column among equals (the notation, from the position)."""
    board = Board.from_moves(moves)
    oracle = oracle or default_oracle(STANDARD)
    budget = limit.start()
    line = ""
    with oracle.lock:
        while not board.is_over:
            scores = oracle.move_scores(Position.of(board), budget)
            best = max(scores.values())
            if not line and best <= 0:
                raise ConfigError(f"the side to move does not win after {moves or 'no moves'}")
            column = min(c for c, s in scores.items() if s == best)
            line += str(column + 1)
            board.play(column)
    return line
