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
move, and a level plays as strongly on every machine unless its budget runs out.  Among moves of
the same exact score the choice is drawn from the seed: perfect plays any optimal move, the others
draw again among the moves of their choice's score where the opening book knows them (with more
than one thread, which of several optimal moves perfect finds in a long search may depend on
their timing).

Modules: :mod:`.position` (the bitboards of a board, the layout's masks), :mod:`.limit`
(:class:`Limit` and its running :class:`~.limit.Budget`), :mod:`.result`,
:mod:`.levels` (the ladder of levels), :mod:`.rungs` (its table of facts, light), :mod:`.sight` (how the levels below
perfect play: exact outcomes within a horizon, a heuristic with a noise beyond it),
:mod:`.matchme` (the "match me" opponent: which level next), :mod:`.puzzles` ("find the
win" puzzles and the day's puzzle), :mod:`.solver` (the exact negamax: the Python core and
the interface of any core), :mod:`.cores` (where the core is chosen), :mod:`.openings`
(the shipped book, up to 8 stones), :mod:`.book12` (the optional 12-ply book),
:mod:`.oracle` (books, then the solver), :mod:`.native` (the optional C core), :mod:`.heuristic` (the evaluation, and the
depth-limited search perfect falls back on when its budget runs out).

Importing this package loads none of them: :func:`choose_move`, :func:`move_scores` and the
names below are found in :mod:`.moves` and the modules named in :data:`_HOMES` when first
used (PEP 562), so ``sensehat_c4.engine.rungs`` (the levels' names, for ``--help`` and the
words) costs no search modules.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Dict

if TYPE_CHECKING:
    from .levels import LEVELS
    from .limit import Limit
    from .oracle import Oracle, default_oracle
    from .moves import choose_move, move_scores
    from .result import SearchResult

__all__ = ["LEVELS", "Limit", "SearchResult", "choose_move", "move_scores", "Oracle", "default_oracle"]

_HOMES: Dict[str, str] = {
    "LEVELS": "levels", "Limit": "limit", "Oracle": "oracle", "default_oracle": "oracle",
    "choose_move": "moves", "move_scores": "moves", "SearchResult": "result",
}
"""Where each name of :data:`__all__` is defined."""


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, imported from its module when first asked for (then kept here)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
