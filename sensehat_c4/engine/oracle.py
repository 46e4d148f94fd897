"""Exact scores and optimal moves: the opening books first, then the solver.

:class:`Oracle` answers in the test sets' convention (see :mod:`.solver`):

* up to 8 stones: the shipped opening book (:mod:`.openings`);
* 9 to 12 stones, if the 12-ply book is installed (:mod:`.book12`): a search whose
  leaves at 12 stones are looked up, so it is at most 3 plies deep;
* otherwise the solver, whose transposition table is kept between calls (so the
  moves of one game help each other).

Every search obeys a :class:`Budget`-like deadline, node limit and stop event on
the solver and raises :class:`~sensehat_c4.errors.SearchAborted` when it runs out.
"""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from ..errors import SearchAborted
from ..rules import Board
from . import book12 as book12_module
from .book12 import Book12
from .openings import MAX_PLY as OPENING_PLY, OpeningBook, PATH as OPENINGS_PATH
from .solver import (BOARD, BOTTOM, CELLS, COLUMN_MASKS, H1, ORDER, CapReached, Solver, non_losing,
                     position_of, ranked_moves, win_score, winning_cells)

CAP = 16384
SCHEDULE: Tuple[Optional[int], ...] = (CAP, 4 * CAP, 16 * CAP, None)
"""Node caps of the rounds of :meth:`Oracle._first_at_most`; ``None``: no cap (the last round)."""
MEMORY = 4096
"""How many exact scores of positions reached after its own moves the oracle keeps."""


@dataclass(frozen=True)
class Choice:
    """What the oracle decided: a column (0-based), its exact score if known, and how."""

    column: int
    score: Optional[int]
    source: str
    """``"win"`` (wins at once), ``"book"``, ``"solver"``, ``"forced"`` (one move does
    not lose at once), ``"lost"`` (every move loses at once), or ``"budget"`` (the time
    ran out: the best move known so far)."""

    @property
    def optimal(self) -> bool:
        """True if the move is proven to be of optimal value (all but ``"budget"``)."""
        return self.source != "budget"


class Oracle:
    """Exact scores from the books and the solver (one transposition table for all calls)."""

    def __init__(self, openings: Optional[OpeningBook] = None, book12: Optional[Book12] = None,
                 core: Optional[str] = None) -> None:
        self.openings = openings
        self.book12 = book12
        leaf = book12.score12 if book12 is not None else None
        self.solver = Solver(leaf=leaf, leaf_ply=book12_module.PLY, core=core)
        """``core``: ``"native"``, ``"python"`` or ``None`` (native if it is available)."""
        self.lock = threading.Lock()
        self._memory: Dict[int, int] = {}

    # -- scores ---------------------------------------------------------------

    @classmethod
    def installed(cls, book12: bool = True, core: Optional[str] = None) -> "Oracle":
        """A new oracle with the shipped opening book and, if asked and installed, the 12-ply book."""
        openings = OpeningBook(OPENINGS_PATH) if OPENINGS_PATH.is_file() else None
        path = book12_module.default_path() if book12 else None
        return cls(openings, Book12(path) if path is not None and path.is_file() else None, core)

    def score(self, current: int, mask: int, moves: int) -> int:
        """The exact score of a position that is not over (side to move's view)."""
        found = self._book_score(current, mask, moves)
        return found if found is not None else self.solver.score(current, mask, moves)

    def _book_score(self, current: int, mask: int, moves: int) -> Optional[int]:
        """The exact score if a book has the position, else ``None``."""
        if self.openings is not None and moves <= OPENING_PLY:
            return self.openings.score(current, mask, moves)
        if self.book12 is not None and moves == book12_module.PLY:
            return self.book12.score12(current, mask)
        return None

    def child_score(self, current: int, mask: int, moves: int, column: int) -> int:
        """The exact score, for the side to move, of playing ``column``."""
        move = (mask + BOTTOM) & COLUMN_MASKS[column]
        if winning_cells(current, mask) & move:
            return win_score(moves)
        if moves + 1 >= CELLS:
            return 0
        return -self.score(current ^ mask, mask | move, moves + 1)

    def move_scores(self, board: Board) -> Dict[int, int]:
        """``{column: exact score}`` for every legal move (0-based columns)."""
        current, mask, moves = position_of(board)
        return {c: self.child_score(current, mask, moves, c) for c in board.legal_moves()}

    def cheap(self, moves: int) -> bool:
        """True if every move's score after ``moves`` stones comes from a book (or a short search)."""
        after = moves + 1
        if self.openings is not None and after <= OPENING_PLY:
            return True
        return self.book12 is not None and OPENING_PLY < after <= book12_module.PLY

    # -- choosing a move -----------------------------------------------------

    def choose(self, board: Board, rng: random.Random) -> Choice:
        """A move of optimal value (the fastest win, the longest defence, or a draw kept).

        Ties between optimal moves are split by ``rng`` when every score is known.
        When the solver's budget runs out, returns the best move known so far
        (``source="budget"``): one that keeps a proven win or draw if the first phase
        finished, else the first move that does not lose at once in the solver's order.
        """
        current, mask, moves = position_of(board)
        possible = (mask + BOTTOM) & BOARD
        mine = winning_cells(current, mask)
        for column in ORDER:
            if possible & COLUMN_MASKS[column] & mine:
                return Choice(column, win_score(moves), "win")
        theirs = winning_cells(current ^ mask, mask)
        safe = non_losing(possible, theirs)
        if not safe:  # every move loses at once
            column = next(c for c in ORDER if possible & COLUMN_MASKS[c])
            return Choice(column, -((CELLS - moves) // 2), "lost")
        kids = [(column, current ^ mask, mask | move) for column, move, _ in ranked_moves(current, mask, safe)]
        if len(kids) == 1:
            score = self.known(current, mask, moves)
            if score is not None:
                self.remember(kids[0][1], kids[0][2], -score)
            return Choice(kids[0][0], score, "forced")
        if self.cheap(moves):
            try:
                scores = self.move_scores(board)
            except SearchAborted:
                return Choice(kids[0][0], None, "budget")
            best = max(scores.values())
            return Choice(rng.choice(sorted(c for c, s in scores.items() if s == best)), best, "book")
        return self._search_choice(board, current, mask, moves, kids)

    def known(self, current: int, mask: int, moves: int) -> Optional[int]:
        """The exact score if a book or an earlier answer has it (no search), else ``None``."""
        found = self._book_score(current, mask, moves)
        return found if found is not None else self._memory.get(current + mask)

    def remember(self, current: int, mask: int, score: int) -> None:
        """Keep an exact score (a bounded memory: it is emptied when full)."""
        if len(self._memory) >= MEMORY:
            self._memory.clear()
        self._memory[current + mask] = score

    def _search_choice(self, board: Board, current: int, mask: int, moves: int,
                       kids: List[Tuple[int, int, int]]) -> Choice:
        solver = self.solver
        fallback = kids[0][0]
        low, high = -((CELLS - moves) // 2), (CELLS + 1 - moves) // 2
        try:
            exact = self.known(current, mask, moves)
            if exact is None and moves > 0:
                # the position before the opponent's move: its score bounds ours from below
                column = board.moves[-1]
                bit = 1 << (column * H1 + board.height(column) - 1)
                before = self.known((current ^ mask) ^ bit, mask ^ bit, moves - 1)
                if before is not None and -before > low:
                    low = -before
                    if solver.at_most(current, mask, moves, low):
                        exact = low  # the opponent played a move of optimal value
                    else:
                        low += 1
            if exact is None:
                # phase 1: win, draw or loss, and a move that keeps it
                if low >= 1:
                    fallback = self._must_find(kids, moves, -1)
                else:
                    winning = self._first_at_most(kids, moves, -1, exists=False)
                    if winning is not None:
                        fallback, low = winning, 1
                    else:
                        drawing = self._first_at_most(kids, moves, 0, exists=low >= 0)
                        if drawing is not None:
                            return self._chosen(kids, drawing, 0)
                        high = -1
            if exact is None:
                # phase 2: the exact score, probing out from the end nearest to zero first
                # (long games end close to zero, and a probe is dearest near the true score)
                step = 0
                while low < high:
                    if low >= 1:
                        at = min(low + step, high - 1)
                        if solver.at_most(current, mask, moves, at):
                            high = at
                            break
                        low = at + 1
                    else:
                        at = max(high - 1 - step, low)
                        if solver.probe(current, mask, moves, at):
                            low = at + 1
                            break
                        high = at
                    step = 2 * step + 1
                exact = low if low == high else solver.score(current, mask, moves, window=(low, high))
            first = [k for k in kids if k[0] == fallback] + [k for k in kids if k[0] != fallback]
            column = self._must_find(first, moves, -exact)
        except SearchAborted:  # out of time, or stopped: the best move known so far
            return Choice(fallback, None, "budget")
        return self._chosen(kids, column, exact)

    def _chosen(self, kids: List[Tuple[int, int, int]], column: int, score: int) -> Choice:
        child = next((c, m) for col, c, m in kids if col == column)
        self.remember(child[0], child[1], -score)
        return Choice(column, score, "solver")

    def _must_find(self, kids: List[Tuple[int, int, int]], moves: int, value: int) -> int:
        """A child known to exist whose score, for the opponent, is at most ``value``."""
        found = self._first_at_most(kids, moves, value)
        assert found is not None
        return found

    def _first_at_most(self, kids: List[Tuple[int, int, int]], moves: int, value: int,
                       exists: bool = True) -> Optional[int]:
        """A child whose score, for the opponent, is at most ``value`` (``None`` if there is none).

        The children are tried in order, in rounds with a node cap growing fourfold (so a
        cheap proof is not stuck behind a dear one), then each to the end.  A child proven to
        score more is struck off; if ``exists`` (one is known to reach ``value``), the last
        one left is the answer without a proof: refuting is usually far cheaper than proving.
        """
        solver = self.solver
        left = list(kids)
        for cap in SCHEDULE:  # rounds of capped tries, then each in turn to the end
            for kid in list(left):
                if exists and len(left) == 1:
                    return left[0][0]
                column, child, child_mask = kid
                solver.cap = None if cap is None else solver.nodes + cap
                try:
                    if solver.at_most(child, child_mask, moves + 1, value):
                        return column
                except CapReached:
                    continue
                finally:
                    solver.cap = None
                left.remove(kid)
        if exists:
            raise AssertionError("no child reaches the parent's score")  # the solver is inconsistent
        return None


_default: Optional[Oracle] = None
_default_lock = threading.Lock()


def default_oracle() -> Oracle:
    """The process's oracle: the shipped opening book, the 12-ply book if installed."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Oracle.installed()
        return _default
