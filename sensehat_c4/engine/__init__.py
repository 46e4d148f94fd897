"""The computer opponent's engine: four levels, up to perfect play, in pure Python.

It depends only on the rules core and works on copies: :func:`choose_move` takes a
:class:`~sensehat_c4.rules.Board`, a level, a :class:`Limit` and a seed, and returns a
:class:`SearchResult`; :func:`move_scores` gives every legal move's exact score.

Modules: :mod:`.solver` (the exact negamax), :mod:`.openings` (the shipped book, up to
8 stones), :mod:`.book12` (the optional 12-ply book), :mod:`.oracle` (books, then the
solver), :mod:`.heuristic` (depth-limited search), :mod:`.levels` (easy to hard).
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Dict, Optional

from ..errors import ConfigError, IllegalMoveError, SearchAborted
from ..rules import Board
from . import levels
from .heuristic import Budget
from .oracle import Oracle, default_oracle

__all__ = ["LEVELS", "Limit", "SearchResult", "choose_move", "move_scores", "Oracle", "default_oracle"]

LEVELS = ("easy", "medium", "hard", "perfect")


@dataclass(frozen=True)
class Limit:
    """How much a search may do; ``None`` means no limit of that kind.

    With ``seconds`` the result may depend on the machine's speed (a deeper search
    finishes on a faster one); ``depth`` and ``nodes`` keep it reproducible.
    """

    seconds: Optional[float] = None
    depth: Optional[int] = None
    """The deepest search of the heuristic levels (medium stops at 4 in any case; hard
    without any limit at :data:`~.levels.HARD_UNBOUNDED_DEPTH`)."""
    nodes: Optional[int] = None


@dataclass(frozen=True)
class SearchResult:
    """The engine's move and what it knows about it."""

    column: int
    """The move, a 0-based column."""
    level: str
    score: Optional[int]
    """The move's exact score (test-set convention) when the perfect level knows it."""
    value: Optional[int]
    """The heuristic levels' value of the move (side to move's view)."""
    optimal: bool
    """True if the move is proven to be of optimal value."""
    depth: int
    nodes: int
    seconds: float
    source: str
    """How it was found: ``win``, ``book``, ``solver``, ``forced``, ``lost``, ``budget``
    (perfect ran out of time: best move known so far), ``search``, ``block``, ``weighted``."""


def choose_move(board: Board, level: str, *, limit: Limit = Limit(), seed: Optional[int] = None,
                stop: Optional[threading.Event] = None, oracle: Optional[Oracle] = None) -> SearchResult:
    """The ``level``'s move in ``board`` (searched on a copy; ``board`` is not changed).

    The same ``seed`` gives the same move (with a ``seconds`` limit, as long as the
    search ends within it).  When ``limit`` runs out, or ``stop`` is set, the best
    move found so far is returned.  Raises :class:`IllegalMoveError` if the game is
    over, :class:`ConfigError` for an unknown level.
    """
    if level not in LEVELS:
        raise ConfigError(f"level must be one of {', '.join(LEVELS)} (not {level!r})")
    if board.is_over:
        raise IllegalMoveError("the game is already over")
    board = board.copy()
    rng = random.Random(seed)
    started = time.monotonic()
    deadline = None if limit.seconds is None else started + limit.seconds
    if level == "perfect":
        return _perfect(board, rng, deadline, limit, stop, oracle or default_oracle(), started)
    budget = Budget(deadline=deadline, max_nodes=limit.nodes, stop=stop)
    if level == "easy":
        decision = levels.easy(board, rng)
    elif level == "medium":
        decision = levels.medium(board, rng, budget, depth=min(levels.MEDIUM_DEPTH, limit.depth or 99))
    else:
        bounded = limit.seconds is not None or limit.nodes is not None
        depth = limit.depth or (levels.HARD_MAX_DEPTH if bounded else levels.HARD_UNBOUNDED_DEPTH)
        decision = levels.hard(board, rng, budget, max_depth=depth)
    return SearchResult(decision.column, level, None, decision.value, False, decision.depth, budget.nodes,
                        time.monotonic() - started, decision.source)


def _perfect(board: Board, rng: random.Random, deadline: Optional[float], limit: Limit,
             stop: Optional[threading.Event], oracle: Oracle, started: float) -> SearchResult:
    with oracle.lock:  # a cancelled search still unwinding lets go within milliseconds
        solver = oracle.solver
        try:
            solver.deadline, solver.stop, solver.max_nodes, solver.nodes = deadline, stop, limit.nodes, 0
            choice = oracle.choose(board, rng)
            nodes = solver.nodes
        finally:
            solver.deadline = solver.stop = solver.max_nodes = None
    return SearchResult(choice.column, "perfect", choice.score, None, choice.optimal, 0, nodes,
                        time.monotonic() - started, choice.source)


def move_scores(board: Board, *, seconds: Optional[float] = None, stop: Optional[threading.Event] = None,
                oracle: Optional[Oracle] = None) -> Dict[int, int]:
    """``{column (0-based): exact score}`` for every legal move; ``{}`` if the game is over.

    Raises :class:`SearchAborted` if ``seconds`` pass (or ``stop`` is set) first.
    """
    oracle = oracle or default_oracle()
    with oracle.lock:
        solver = oracle.solver
        solver.deadline = None if seconds is None else time.monotonic() + seconds
        solver.stop = stop
        try:
            return oracle.move_scores(board)
        except SearchAborted:
            raise SearchAborted(f"no exact answer within {seconds:g} s" if seconds is not None
                                else "the search was stopped") from None
        finally:
            solver.deadline = solver.stop = None
