"""The one result type of every level: :class:`SearchResult`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class SearchResult:
    """A level's move and what it knows about it."""

    column: int
    """The move, a 0-based column."""
    source: str
    """How it was found: ``win``, ``book``, ``solver``, ``forced``, ``lost``, ``budget``
    (perfect ran out of time: best move known so far), ``search``, ``block``, ``weighted``."""
    score: Optional[int] = None
    """The move's exact score (test-set convention) when the perfect level knows it."""
    value: Optional[int] = None
    """The heuristic levels' value of the move (side to move's view)."""
    optimal: bool = False
    """True if the move is proven to be of optimal value."""
    depth: int = 0
    """The depth of the heuristic levels' last finished search."""
    level: str = ""
    nodes: int = 0
    seconds: float = 0.0
