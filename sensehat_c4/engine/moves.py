"""The engine's two calls: a level's move (:func:`choose_move`) and every move's exact score
(:func:`move_scores`); :mod:`sensehat_c4.engine` offers them."""
from __future__ import annotations

import dataclasses
import random
import time
from typing import Dict, Optional

from ..errors import ConfigError, IllegalMoveError, SearchAborted
from ..i18n import _
from ..rules import Board
from .levels import LEVELS, Search
from .limit import Limit
from .oracle import Oracle, Progress, default_oracle
from .position import Position
from .result import SearchResult

__all__ = ["choose_move", "move_scores"]


def choose_move(board: Board, level: str, *, limit: Limit = Limit(), seed: Optional[int] = None,
                oracle: Optional[Oracle] = None) -> SearchResult:
    """The ``level``'s move in ``board`` (``board`` is not changed).

    The same ``seed`` gives the same move (with a ``seconds`` limit, as long as the
    search ends within it).  When ``limit`` runs out (or its stop event is set), the
    best move found so far is returned.  Raises :class:`IllegalMoveError` if the game
    is over, :class:`ConfigError` for an unknown level.
    """
    if level not in LEVELS:
        raise ConfigError(_("level must be one of {levels} (not {level!r})").format(levels=", ".join(LEVELS), level=level))
    if board.is_over:
        raise IllegalMoveError(_("the game is already over"))
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
