"""The computer opponent's engine: a ladder of nine levels, up to perfect play; puzzles.

It depends only on the rules core and works on copies: :func:`choose_move` takes a
:class:`~sensehat_c4.rules.Board`, a level's name, a :class:`Limit` and a seed, and
returns a :class:`SearchResult`; :func:`move_scores` gives every legal move's exact score.

The levels (:mod:`.levels`) form a ladder, each scoring about a quarter of the points against
the next one up.  Below perfect a level is defined by what it knows, not by how long it
thinks (:mod:`.sight` states the model): at each move it draws a horizon of plies from its
range and knows exactly the outcome of every move decided within it (the exact solver's
searches bounded by the horizon), and judges the others by a heuristic with a noise.  So weaker
levels miss deep threats before shallow ones, the same position does not always get the same
move, and a level plays as strongly on every machine unless its budget runs out (with more
than one thread, which of several equally good moves it plays may depend on their timing).

Modules: :mod:`.position` (the bitboards of a board, the layout's masks), :mod:`.limit`
(:class:`Limit` and its running :class:`~.limit.Budget`), :mod:`.result`,
:mod:`.levels` (the ladder of levels and their words), :mod:`.sight` (how the levels below
perfect play: exact outcomes within a horizon, a heuristic with a noise beyond it),
:mod:`.matchme` (the "match me" opponent: which level next), :mod:`.puzzles` ("find the
win" puzzles and the day's puzzle), :mod:`.solver` (the exact negamax: the Python core and
the interface of any core), :mod:`.cores` (where the core is chosen), :mod:`.openings`
(the shipped book, up to 8 stones), :mod:`.book12` (the optional 12-ply book),
:mod:`.oracle` (books, then the solver), :mod:`.heuristic` (the evaluation, and the
depth-limited search perfect falls back on when its budget runs out).
"""
from __future__ import annotations

import dataclasses
import random
import time
from typing import Dict, Optional

from ..errors import ConfigError, IllegalMoveError, SearchAborted
from ..rules import Board
from .levels import LEVELS, Search
from .limit import Limit
from .oracle import Oracle, Progress, default_oracle
from .position import Position
from .result import SearchResult

__all__ = ["LEVELS", "Limit", "SearchResult", "choose_move", "move_scores", "Oracle", "default_oracle"]


def choose_move(board: Board, level: str, *, limit: Limit = Limit(), seed: Optional[int] = None,
                oracle: Optional[Oracle] = None) -> SearchResult:
    """The ``level``'s move in ``board`` (``board`` is not changed).

    The same ``seed`` gives the same move (with a ``seconds`` limit, as long as the
    search ends within it).  When ``limit`` runs out (or its stop event is set), the
    best move found so far is returned.  Raises :class:`IllegalMoveError` if the game
    is over, :class:`ConfigError` for an unknown level.
    """
    if level not in LEVELS:
        raise ConfigError(f"level must be one of {', '.join(LEVELS)} (not {level!r})")
    if board.is_over:
        raise IllegalMoveError("the game is already over")
    started = time.monotonic()
    search = Search(Position.of(board), random.Random(seed), limit, limit.start(), oracle)
    result = LEVELS[level].play(search)
    return dataclasses.replace(result, level=level, nodes=search.budget.nodes,
                               seconds=time.monotonic() - started)


def move_scores(board: Board, *, limit: Limit = Limit(), oracle: Optional[Oracle] = None,
                progress: Optional[Progress] = None) -> Dict[int, int]:
    """``{column (0-based): exact score}`` for every legal move; ``{}`` if the game is over.

    ``progress(columns done, columns in all, positions searched)`` is called before each
    column, every few thousand positions of its search, and at the end.  Raises :class:`SearchAborted` if ``limit`` runs out first.
    """
    if board.is_over:
        return {}
    position = Position.of(board)
    oracle = oracle or default_oracle(board.layout)
    budget = limit.start()
    with oracle.lock:
        try:
            return oracle.move_scores(position, budget, progress)
        except SearchAborted:
            raise SearchAborted(f"no exact answer within {limit.seconds:g} s" if limit.seconds is not None
                                else "the search was stopped") from None
