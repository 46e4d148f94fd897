"""How the levels below perfect play: they know the outcomes decided within a horizon, exactly.

The model, the same at every level and on every board size (a level is two numbers and a
horizon's range, :class:`Sight`):

* **What it sees.** Before each move the level draws a *horizon* of ``h`` plies, uniformly
  from its range (``low`` to ``high``).  For every legal move it then knows the outcome
  exactly if the game ends within ``h`` plies with best play from both sides: "this move
  wins with my third stone from now whatever the defence", "this one loses to their
  second", or, near the end, "this one draws".  Outcomes further away it does not know.
  The exact solver proves these (:func:`foresee`): a null-window search asking whether the
  score reaches a win (or a loss) that soon, which is a search at most ``h`` plies deep, or
  a book's exact score when a book has the position.  So a level with a short horizon misses
  deep threats and sees shallow ones; a horizon of 1 sees only its own wins in one, 2 also
  the threats it must block; a horizon reaching the end of the game is perfect knowledge.
* **What it does with it** (:func:`choose`): the fastest win it sees; otherwise, among the
  moves it does not see lose, the one a heuristic judgement prefers (:func:`.heuristic.evaluate`:
  threats weighted by row parity, the centre), blurred by a *noise*: a softmax draw with
  temperature ``noise``, in the heuristic's units (one threat on its owner's good rows is 6);
  when every move loses, the longest defence.  A horizon that reaches the end of the game is
  perfect knowledge: the level then plays as perfect does (:meth:`.oracle.Oracle.choose`:
  the same choice, found with less work).
* **Not memorisable.** The horizon and the noise are drawn anew at every move (from the
  seed the caller gives), so the same position does not always get the same move: a line
  that beat a level once need not beat it again.  Where several moves win equally fast, or
  several defences last as long, one is drawn at random too.  And where the opening book
  holds every move's exact score (the first 8 stones on 7 x 6), a move the level judged is
  drawn again among the moves of the same exact score as its choice (:func:`vary`: the
  heuristic blurred by :data:`VARIETY`), so its openings vary as much as the scores allow
  and it plays neither better nor worse for it: the noises alone are too small to vary
  them from tough up.
* **The same on every Pi.** A level's move depends on what it knows, not on how long it
  thinks: the work is bounded by the horizon, not by the clock.  The budget of the
  :class:`~.limit.Limit` is only a safety net: if it runs out, the moves not examined yet
  count as unknown (``source="budget"``; ``benchmarks/ladder.py`` counts how often that
  happens at a fifth of a Pi's budget).
"""
from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from typing import Dict, Optional, Protocol, Tuple

from ..errors import SearchAborted
from .heuristic import evaluate
from .limit import Budget
from .oracle import Oracle, default_oracle
from .position import Position
from .result import SearchResult

WIN, DRAW, LOSS = 1, 0, -1


@dataclass(frozen=True)
class Known:
    """A move's outcome with best play from both sides, as a level sees it."""

    outcome: int
    """:data:`WIN`, :data:`DRAW` or :data:`LOSS`, for the side that plays the move."""
    plies: int
    """How many plies from now the game ends (1: the move itself wins or fills the board)."""

    def score(self, cells: int, moves: int) -> int:
        """The move's exact score (its player's view) played with ``moves`` stones on a board of
        ``cells`` cells: the inverse of :func:`known_of`."""
        return 0 if self.outcome == DRAW else self.outcome * ((cells + 2 - moves - self.plies) // 2)


def known_of(cells: int, moves: int, score: int) -> Known:
    """The outcome of a move of exact ``score`` (its player's view; the test sets' convention)
    played with ``moves`` stones on a board of ``cells`` cells."""
    if score == 0:
        return Known(DRAW, cells - moves)
    # a stone that wins as the (moves + p)-th scores (cells + 2 - moves - p) // 2: p is odd for
    # the mover's own stones, even for the other side's
    plies = cells + 2 - moves - 2 * abs(score)
    if plies % 2 != (1 if score > 0 else 0):
        plies -= 1
    return Known(WIN if score > 0 else LOSS, plies)


@dataclass
class Foresight:
    """What :func:`foresee` found: each legal column's :class:`Known` outcome, or ``None``."""

    seen: Dict[int, Optional[Known]] = field(default_factory=dict)
    complete: bool = True
    """False if the budget ran out (the columns not examined are ``None``)."""


def foresee(oracle: Oracle, position: Position, horizon: int, budget: Budget) -> Foresight:
    """Each legal move's outcome if the game ends within ``horizon`` plies with best play from
    both sides, else ``None``.  Stops early (:attr:`Foresight.complete` false) when ``budget``
    runs out.  The caller holds ``oracle.lock``."""
    shape = position.shape
    cells, moves = shape.cells, position.moves
    solver = oracle.solver
    mine = shape.winning_cells(position.current, position.mask)
    found = Foresight({column: None for column in position.legal_columns()})
    everything = horizon >= cells - moves
    odd = horizon if horizon % 2 else horizon - 1       # the mover's stones fall on odd plies
    even = horizon - horizon % 2
    try:
        if odd >= 3 and not everything:
            # no move wins by ply ``odd`` unless the position itself does: one search may spare seven
            if solver.at_most(position, shape.win_score(moves + odd - 1) - 1, budget):
                odd = 1
        for column in found.seen:
            if horizon < 1:
                break
            if position.column_move(column) & mine:
                found.seen[column] = Known(WIN, 1)
                continue
            if moves + 1 >= cells:
                found.seen[column] = Known(DRAW, 1)
                continue
            child = position.play(column)
            exact = oracle.known(child)
            if exact is None and everything:
                exact = oracle.score(child, budget)
            if exact is not None:
                known = known_of(cells, moves, -exact)
                found.seen[column] = known if known.plies <= horizon else None
                continue
            if odd >= 3:
                target = shape.win_score(moves + odd - 1)    # our score for a win on ply ``odd``
                if solver.at_most(child, -target, budget):
                    score = solver.score(child, budget, window=(shape.loss_score(moves + 1), -target))
                    found.seen[column] = known_of(cells, moves, -score)
                    continue
            if even >= 2:
                target = shape.win_score(moves + even - 1)   # theirs for a win on ply ``even``
                if not solver.at_most(child, target - 1, budget):
                    score = solver.score(child, budget, window=(target, shape.win_score(moves + 1)))
                    found.seen[column] = known_of(cells, moves, -score)
    except SearchAborted:
        found.complete = False
    return found


VARIETY = 2.0
"""The noise (the heuristic's units: a third of a threat on its owner's good rows) with which
:func:`vary` draws among moves of the same exact score: enough that the levels' openings vary
(``benchmarks/variety.py``), small enough that a move the heuristic likes much less is rare."""


def gumbel(rng: random.Random) -> float:
    """A draw of the standard Gumbel distribution: adding ``t`` times one to each value and taking
    the largest is a softmax draw with temperature ``t``."""
    return -math.log(-math.log(rng.random() or 5e-324))


def choose(position: Position, seen: Dict[int, Optional[Known]], noise: float,
           rng: random.Random) -> Tuple[int, Optional[Known], Optional[float]]:
    """The move a level makes knowing ``seen``: ``(column, what it knew of it, its heuristic value
    if it was judged)``.

    The fastest win it sees; else, among the moves it does not see lose, the largest
    heuristic value plus ``noise`` times a Gumbel draw; else (every move seen to lose) the
    longest defence.  Ties are split by ``rng``.
    """
    wins = [(known.plies, column) for column, known in seen.items() if known is not None and known.outcome == WIN]
    if wins:
        fastest = min(plies for plies, _ in wins)
        column = rng.choice(sorted(c for plies, c in wins if plies == fastest))
        return column, seen[column], None
    open_ = sorted(c for c, known in seen.items() if known is None or known.outcome == DRAW)
    if not open_:
        longest = max(known.plies for known in seen.values() if known is not None)
        column = rng.choice(sorted(c for c, known in seen.items() if known is not None and known.plies == longest))
        return column, seen[column], None
    shape = position.shape
    best: Tuple[float, float] = (-math.inf, 0.0)
    chosen, judged = open_[0], 0.0
    for column in open_:
        child = position.play(column)
        value = float(-evaluate(shape, child.current, child.mask, child.moves))
        blurred = (value + noise * gumbel(rng) if noise > 0 else value, rng.random())
        if blurred > best:
            best, chosen, judged = blurred, column, value
    return chosen, seen[chosen], judged


def vary(position: Position, scores: Dict[int, int], column: int, rng: random.Random) -> Tuple[int, float]:
    """A move of the same exact score as ``column`` (``scores``: every legal move's), drawn by the
    heuristic blurred by :data:`VARIETY`, and its heuristic value."""
    shape = position.shape
    best, chosen, judged = -math.inf, column, 0.0
    for other in sorted(scores):
        if scores[other] != scores[column]:
            continue
        child = position.play(other)
        value = float(-evaluate(shape, child.current, child.mask, child.moves))
        blurred = value + VARIETY * gumbel(rng)
        if blurred > best:
            best, chosen, judged = blurred, other, value
    return chosen, judged


@dataclass(frozen=True)
class Sight:
    """A level below perfect: its horizon's range in plies and its noise (see the module's docstring).

    Called with a :class:`~.levels.Search`, it plays one move (``SearchResult.depth`` is the
    horizon drawn, ``score`` the exact score when the move's outcome was seen, ``value`` the
    heuristic value when it was judged).
    """

    low: int
    high: int
    noise: float

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high or self.noise < 0:
            raise ValueError(f"a sight needs 0 <= low <= high and noise >= 0 (not {self})")

    def __call__(self, search: "SearchLike") -> SearchResult:
        position, rng = search.position, search.rng
        horizon = rng.randint(self.low, self.high)
        oracle = search.oracle or default_oracle(position.shape.layout)
        with oracle.lock:
            if horizon >= position.shape.cells - position.moves:
                # it sees to the end of the game: it knows what perfect knows, and plays as it does
                return dataclasses.replace(oracle.choose(position, rng, search.budget), depth=horizon)
            found = foresee(oracle, position, horizon, search.budget)
            scores = oracle.book_scores(position)
        column, known, value = choose(position, found.seen, self.noise, rng)
        if value is not None and scores is not None:
            column, value = vary(position, scores, column, rng)
            known = found.seen[column]
        score = None if known is None else known.score(position.shape.cells, position.moves)
        return SearchResult(column, "sight" if found.complete else "budget", score=score,
                            value=None if value is None else round(value), depth=horizon)


class SearchLike(Protocol):
    """What :class:`Sight` reads of a :class:`~.levels.Search` (a protocol: levels imports this module)."""

    @property
    def position(self) -> Position: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def budget(self) -> Budget: ...
    @property
    def oracle(self) -> Optional[Oracle]: ...
