"""Exact scores and optimal moves: the opening books first, then the solver.

:class:`Oracle` answers in the test sets' convention (see :mod:`.solver`):

* up to 8 stones: the shipped opening book (:mod:`.openings`; on other board sizes the
  size's own book of a few stones, :mod:`.sizebooks`, where one is shipped);
* on a size with a strategy book (:mod:`.strategy`, 8 x 6): its move in the positions
  perfect reaches itself, and their scores;
* 9 to 12 stones, if the 12-ply book is installed (:mod:`.book12`): a search whose
  leaves at 12 stones are looked up, so it is at most 3 plies deep;
* otherwise the solver, whose transposition table is kept between calls (so the
  moves of one game help each other).

Every call takes the :class:`~.limit.Budget` of the caller's one
:class:`~.limit.Limit` and hands it to every search it makes; a search that runs out
raises :class:`~sensehat_c4.errors.SearchAborted`.  The 12-ply book is for 7 x 6 only;
another board size has its own opening book if one is shipped, else none.
"""
from __future__ import annotations

import random
import threading
from functools import partial
from typing import Callable, Dict, List, Optional, Tuple, Union

from ..errors import ConfigError, SearchAborted
from ..i18n import _
from ..rules import STANDARD, Layout
from . import book12 as book12_module
from .book12 import Book12
from .cores import new_solver
from .heuristic import deepen
from .limit import Budget
from .openings import MAX_PLY as OPENING_PLY
from .openings import PATH as OPENINGS_PATH
from .openings import OpeningBook
from .position import Position, Shape, non_losing, shape_of
from .result import SearchResult
from .sizebooks import SizeBook, book_path
from .strategy import StrategyBook
from .strategy import installed as strategy_installed

Book = Union[OpeningBook, SizeBook]
"""An opening book: the exact score of every position with up to its ``max_ply`` stones."""

CAP = 16384
SCHEDULE: Tuple[Optional[int], ...] = (CAP, 4 * CAP, 16 * CAP, None)
"""Node caps of the rounds of :meth:`Oracle._first_at_most`; ``None``: no cap (the last round)."""
MEMORY = 4096
"""How many exact scores of positions reached after its own moves the oracle keeps."""

EXACT_SHARE = 0.9
"""The share of a limited budget the exact search may spend; the rest is kept for a heuristic
search that ranks the moves if the exact search runs out."""

Kid = Tuple[int, Position]
"""A candidate move: its column and the position after it."""

Progress = Callable[[int, int, int], None]
"""``progress(columns done, columns in all, nodes so far)``, called by :meth:`Oracle.move_scores`
before each column, every few thousand nodes of its search, and at the end."""


class Oracle:
    """Exact scores from the books and the solver (one transposition table for all calls)."""

    def __init__(self, shape: Shape, openings: Optional[Book] = None, book12: Optional[Book12] = None,
                 core: Optional[str] = None, *, strategy: Optional[StrategyBook] = None,
                 table_bits: Optional[int] = None, threads: Optional[int] = None) -> None:
        if book12 is not None and shape.layout != STANDARD:
            raise ConfigError(_("the 12-ply book is for the 7 x 6 board only (not {columns} x {rows})").format(
                columns=shape.width, rows=shape.height))
        if openings is not None and (openings.layout.columns, openings.layout.rows) != (shape.width, shape.height):
            raise ConfigError(_("that opening book is for {book_columns} x {book_rows}, not {columns} x {rows}").format(
                book_columns=openings.layout.columns, book_rows=openings.layout.rows, columns=shape.width, rows=shape.height))
        if strategy is not None and (strategy.layout.columns, strategy.layout.rows) != (shape.width, shape.height):
            raise ConfigError(_("that strategy book is for {book_columns} x {book_rows}, not {columns} x {rows}").format(
                book_columns=strategy.layout.columns, book_rows=strategy.layout.rows, columns=shape.width, rows=shape.height))
        self.shape = shape
        self.openings = openings
        self.book12 = book12
        self.strategy = strategy
        leaf = book12.score12 if book12 is not None else None
        self.solver = new_solver(shape, leaf=leaf, leaf_ply=book12_module.PLY, core=core, table_bits=table_bits,
                                 threads=threads)
        """``core``: the solver core, ``"native"`` or ``"python"`` (``None``: native if available);
        ``table_bits`` and ``threads`` as for :func:`.cores.new_solver`."""
        self.lock = threading.Lock()
        self._memory: Dict[int, int] = {}

    @classmethod
    def installed(cls, layout: Layout = STANDARD, book12: bool = True, core: Optional[str] = None) -> "Oracle":
        """A new oracle for ``layout``: on 7 x 6 with the shipped opening book and, if asked and
        installed, the 12-ply book; on other sizes with the size's books (opening, strategy) if
        shipped.  ``core``: as for :class:`Oracle`."""
        shape = shape_of(layout)
        if (layout.columns, layout.rows) != (STANDARD.columns, STANDARD.rows):
            own = book_path(layout)
            return cls(shape, SizeBook(own) if own.is_file() else None, core=core,
                       strategy=strategy_installed(layout))
        openings = OpeningBook(OPENINGS_PATH) if OPENINGS_PATH.is_file() else None
        return cls(shape, openings, book12_module.installed() if book12 else None, core)

    def check(self, position: Position) -> None:
        """Raise :class:`ConfigError` if ``position`` is of another board size than this oracle's."""
        if position.shape is not self.shape:
            raise ConfigError(_("this oracle plays on {columns} x {rows}, not {other_columns} x {other_rows}").format(
                columns=self.shape.width, rows=self.shape.height, other_columns=position.shape.width,
                other_rows=position.shape.height))

    # -- scores ---------------------------------------------------------------

    def score(self, position: Position, budget: Budget) -> int:
        """The exact score of a position that is not over (side to move's view)."""
        found = self._book_score(position)
        return found if found is not None else self.solver.score(position, budget)

    def _book_score(self, position: Position) -> Optional[int]:
        """The exact score if a book has the position, else ``None``."""
        if self.openings is not None and position.moves <= self.openings.max_ply:
            return self.openings.score(position.current, position.mask, position.moves)
        if self.book12 is not None and position.moves == book12_module.PLY:
            return self.book12.score12(position.current, position.mask)
        if self.strategy is not None and position.moves <= self.strategy.max_ply + 1:
            found = self.strategy.decision(position)
            return found[1] if found is not None else self.strategy.score_after(position)
        return None

    def child_score(self, position: Position, column: int, budget: Budget) -> int:
        """The exact score, for the side to move, of playing ``column``."""
        shape = self.shape
        if shape.winning_cells(position.current, position.mask) & position.column_move(column):
            return shape.win_score(position.moves)
        if position.moves + 1 >= shape.cells:
            return 0
        return -self.score(position.play(column), budget)

    def move_scores(self, position: Position, budget: Budget,
                    progress: Optional[Progress] = None) -> Dict[int, int]:
        """``{column: exact score}`` for every legal move (0-based columns)."""
        self.check(position)
        columns = position.legal_columns()
        scores = {}
        try:
            for done, column in enumerate(columns):
                if progress is not None:
                    progress(done, len(columns), budget.nodes)
                    budget.progress = partial(progress, done, len(columns))  # told during the search
                scores[column] = self.child_score(position, column, budget)
        finally:
            budget.progress = None
        if progress is not None:
            progress(len(columns), len(columns), budget.nodes)
        return scores

    def book_scores(self, position: Position) -> Optional[Dict[int, int]]:
        """``{column: exact score}`` for every legal move if the opening book holds every position
        after one (no search: the first 8 stones on 7 x 6, a size's own book's stones elsewhere), else
        ``None``."""
        if self.openings is None or position.moves + 1 > self.openings.max_ply:
            return None
        self.check(position)
        return {column: self.child_score(position, column, Budget()) for column in position.legal_columns()}

    def cheap(self, moves: int) -> bool:
        """True if every move's score after ``moves`` stones comes from a book (or a short search)."""
        after = moves + 1
        if self.openings is not None and after <= self.openings.max_ply:
            return True
        return self.book12 is not None and OPENING_PLY < after <= book12_module.PLY

    # -- choosing a move -----------------------------------------------------

    def choose(self, position: Position, rng: random.Random, budget: Budget) -> SearchResult:
        """A move of optimal value (the fastest win, the longest defence, or a draw kept).

        Any optimal move: ``rng`` draws one uniformly among the optimal moves (past the books,
        among those proven within :meth:`_optimal`'s allowance; a strategy book's move is the
        book's).  The exact search may spend :data:`EXACT_SHARE` of ``budget``; if it runs out,
        the move is chosen by :meth:`best_known` (``source="budget"``).
        """
        self.check(position)
        shape = self.shape
        current, mask, moves = position.current, position.mask, position.moves
        possible = position.possible
        mine = shape.winning_cells(current, mask)
        wins = [column for column in range(shape.width) if possible & shape.column_masks[column] & mine]
        if wins:
            return SearchResult(rng.choice(wins), "win", shape.win_score(moves), optimal=True)
        if self.strategy is not None:
            found = self.strategy.decision(position)
            if found is not None:
                self.remember(position.play(found[0]), -found[1])
                return SearchResult(found[0], "book", found[1], optimal=True)
        theirs = shape.winning_cells(current ^ mask, mask)
        safe = non_losing(possible, theirs)
        if not safe:  # every move loses at once: all score alike
            return SearchResult(rng.choice(position.legal_columns()), "lost", shape.loss_score(moves), optimal=True)
        kids = [(column, position.play(column)) for column, _, _ in shape.ranked_moves(current, mask, safe)]
        if len(kids) == 1:
            score = self.known(position)
            if score is not None:
                self.remember(kids[0][1], -score)
            return SearchResult(kids[0][0], "forced", score, optimal=True)
        proofs = Proofs(kids)
        exact = budget.part(EXACT_SHARE)
        try:
            if self.cheap(moves):
                result = self._book_choice(position, kids, rng, proofs, exact)
            else:
                result = self._search_choice(position, kids, proofs, rng, exact)
        except SearchAborted:  # out of time, or stopped
            budget.absorb(exact)
            return self.best_known(position, kids, proofs, budget)
        budget.absorb(exact)
        return result

    def _book_choice(self, position: Position, kids: List[Kid], rng: random.Random, proofs: "Proofs",
                     budget: Budget) -> SearchResult:
        """Every move's score from the books (and searches at most 3 plies deep); a best one."""
        for column, _child in kids:
            proofs.exact(column, self.child_score(position, column, budget))
        best = max(proofs.low.values())
        column = rng.choice(sorted(c for c, s in proofs.low.items() if s == best))
        return SearchResult(column, "book", best, optimal=True)

    def best_known(self, position: Position, kids: List[Kid], proofs: "Proofs", budget: Budget) -> SearchResult:
        """The move when the exact search ran out: never one worse in win/draw/loss than a move
        already proven; among those, none proven to lose if there is another; then the move the
        deepest finished heuristic search (in what is left of ``budget``) prefers; then the
        threat order of ``kids``."""
        floor = max(proofs.outcome(c) for c, _ in kids)
        candidates = [c for c, _ in kids if proofs.outcome(c) >= floor]
        alive = [c for c in candidates if proofs.high[c] >= 0]
        candidates = alive or candidates
        depth, value = 0, None
        if len(candidates) > 1:
            values, depth = deepen(position, budget, self.shape.cells)
            found = dict(values)
            value = max(found[c] for c in candidates)
            candidates = [c for c in candidates if found[c] == value]
        column = candidates[0]
        score = proofs.low[column] if proofs.low[column] == proofs.high[column] else None
        return SearchResult(column, "budget", score, value, depth=depth)

    def known(self, position: Position) -> Optional[int]:
        """The exact score if a book or an earlier answer has it (no search), else ``None``."""
        found = self._book_score(position)
        return found if found is not None else self._memory.get(position.current + position.mask)

    def remember(self, position: Position, score: int) -> None:
        """Keep an exact score (a bounded memory: it is emptied when full)."""
        if len(self._memory) >= MEMORY:
            self._memory.clear()
        self._memory[position.current + position.mask] = score

    def _search_choice(self, position: Position, kids: List[Kid], proofs: "Proofs", rng: random.Random,
                       budget: Budget) -> SearchResult:
        solver = self.solver
        fallback = kids[0][0]
        low, high = self.shape.loss_score(position.moves), self.shape.win_score(position.moves)
        exact = self.known(position)
        if exact is None and position.last is not None:
            # the position before the opponent's move: its score bounds ours from below
            before = self.known(position.undo_last())
            if before is not None and -before > low:
                low = -before
                if solver.at_most(position, low, budget):
                    exact = low  # the opponent played a move of optimal value
                else:
                    low += 1
        if exact is None:
            # phase 1: win, draw or loss, and a move that keeps it
            if low >= 1:
                fallback = self._must_find(kids, -1, proofs, budget)
            else:
                winning = self._first_at_most(kids, -1, proofs, budget, exists=False)
                if winning is not None:
                    fallback, low = winning, 1
                else:
                    drawing = self._first_at_most(kids, 0, proofs, budget, exists=low >= 0)
                    if drawing is not None:
                        return self._chosen(kids, rng.choice(self._optimal(kids, drawing, 0, proofs, budget)), 0)
                    high = -1
        if exact is None:
            # phase 2: the exact score, probing out from the end nearest to zero first
            # (long games end close to zero, and a probe is dearest near the true score)
            step = 0
            while low < high:
                if low >= 1:
                    at = min(low + step, high - 1)
                    if solver.at_most(position, at, budget):
                        high = at
                        break
                    low = at + 1
                else:
                    at = max(high - 1 - step, low)
                    if not solver.at_most(position, at, budget):
                        low = at + 1
                        break
                    high = at
                step = 2 * step + 1
            exact = low if low == high else solver.score(position, budget, window=(low, high))
        first = [k for k in kids if k[0] == fallback] + [k for k in kids if k[0] != fallback]
        column = self._must_find(first, -exact, proofs, budget)
        return self._chosen(kids, rng.choice(self._optimal(kids, column, exact, proofs, budget)), exact)

    def _optimal(self, kids: List[Kid], column: int, score: int, proofs: "Proofs", budget: Budget) -> List[int]:
        """``column`` (proven to keep ``score``, the position's exact score) and the other moves proven to
        keep it, in column order.

        The other moves are tried in rounds with growing node caps (:data:`SCHEDULE`), within as many
        positions again as the call has searched (at least :data:`CAP`), so looking for them at most about
        doubles a move's work; the moves not decided within it are left out.  Deterministic: node caps,
        not the clock (but for the budget's own deadline).
        """
        optimal = {column}
        left = []
        for other, child in kids:
            if other == column or proofs.high[other] < score:
                continue
            if proofs.low[other] >= score:
                optimal.add(other)
            else:
                left.append((other, child))
        stop_at = budget.nodes + max(CAP, budget.nodes)
        for cap in SCHEDULE:
            for kid in list(left):
                room = stop_at - budget.nodes
                if room <= 0:
                    return sorted(optimal)
                other, child = kid
                attempt = budget.capped(room if cap is None else min(cap, room))
                try:
                    found = self.solver.at_most(child, -score, attempt)
                except SearchAborted:
                    budget.absorb(attempt)
                    if budget.spent():
                        return sorted(optimal)
                    continue
                budget.absorb(attempt)
                left.remove(kid)
                if found:
                    proofs.at_least(other, score)
                    optimal.add(other)
                else:
                    proofs.at_most(other, score - 1)
        return sorted(optimal)

    def move_of_score(self, position: Position, score: int, budget: Budget) -> int:
        """A column whose move keeps ``score``, the exact score of ``position`` (not over, its side to
        move cannot win at once): what a strategy book stores (``tools/make_book.py``)."""
        shape = self.shape
        safe = non_losing(position.possible, shape.winning_cells(position.opponent, position.mask))
        if not safe:  # every move loses at once: the first from the centre out
            return next(c for c in shape.order if position.possible & shape.column_masks[c])
        kids = [(column, position.play(column))
                for column, _, _ in shape.ranked_moves(position.current, position.mask, safe)]
        return self._must_find(kids, -score, Proofs(kids), budget)

    def _chosen(self, kids: List[Kid], column: int, score: int) -> SearchResult:
        child = next(k for col, k in kids if col == column)
        self.remember(child, -score)
        return SearchResult(column, "solver", score, optimal=True)

    def _must_find(self, kids: List[Kid], value: int, proofs: "Proofs", budget: Budget) -> int:
        """A child known to exist whose score, for the opponent, is at most ``value``."""
        found = self._first_at_most(kids, value, proofs, budget)
        assert found is not None
        return found

    def _first_at_most(self, kids: List[Kid], value: int, proofs: "Proofs", budget: Budget,
                       exists: bool = True) -> Optional[int]:
        """A child whose score, for the opponent, is at most ``value`` (``None`` if there is none).

        The children are tried in order, in rounds with a node cap growing fourfold (so a
        cheap proof is not stuck behind a dear one), then each to the end.  A child proven to
        score more is struck off; if ``exists`` (one is known to reach ``value``), the last
        one left is the answer without a proof: refuting is usually far cheaper than proving.
        Each answer is noted in ``proofs``.
        """
        solver = self.solver
        left = list(kids)
        for cap in SCHEDULE:  # rounds of capped tries, then each in turn to the end
            for kid in list(left):
                if exists and len(left) == 1:
                    proofs.at_least(left[0][0], -value)  # the parent's score says so
                    return left[0][0]
                column, child = kid
                attempt = budget if cap is None else budget.capped(cap)
                try:
                    found = solver.at_most(child, value, attempt)
                except SearchAborted:
                    budget.absorb(attempt)
                    if attempt is budget or budget.spent():
                        raise
                    continue  # only this attempt's cap ran out
                budget.absorb(attempt)
                if found:
                    proofs.at_least(column, -value)
                    return column
                proofs.at_most(column, -value - 1)
                left.remove(kid)
        if exists:
            raise AssertionError("no child reaches the parent's score")  # the solver is inconsistent
        return None


class Proofs:
    """Bounds on each candidate move's score (for the side to move) proven during one call."""

    def __init__(self, kids: List[Kid]) -> None:
        self.low = {column: -UNKNOWN for column, _ in kids}
        self.high = {column: UNKNOWN for column, _ in kids}

    def at_least(self, column: int, score: int) -> None:
        self.low[column] = max(self.low[column], score)

    def at_most(self, column: int, score: int) -> None:
        self.high[column] = min(self.high[column], score)

    def exact(self, column: int, score: int) -> None:
        self.low[column] = self.high[column] = score

    def outcome(self, column: int) -> int:
        """The proven floor in win/draw/loss: 1 a win, 0 at least a draw, -1 nothing proven."""
        low = self.low[column]
        return (low > 0) - (low < 0)


UNKNOWN = 1000
"""Beyond any score: the bounds of a move nothing is proven about."""

_default: Dict[Layout, Oracle] = {}
_default_lock = threading.Lock()


def default_oracle(layout: Layout = STANDARD) -> Oracle:
    """The process's oracle for ``layout``: on 7 x 6 with the shipped opening book and the
    12-ply book if installed.  Besides the 7 x 6 one it keeps one other size's oracle (the
    last asked for), so a process that plays many sizes holds at most two tables."""
    layout = Layout(layout.columns, layout.rows)  # a Size is a Layout too
    with _default_lock:
        if layout not in _default:
            for other in [known for known in _default if known != STANDARD]:
                del _default[other]  # its table goes once no search holds it
            _default[layout] = Oracle.installed(layout)
        return _default[layout]
