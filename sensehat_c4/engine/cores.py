"""Where the exact solver's core is chosen: the one place a faster core plugs in.

Every solver the engine uses is made by :func:`new_solver`; the interface a core must
provide is written in :mod:`.solver`'s docstring (and ``docs/ARCHITECTURE.md``).  Today
the only core is the pure-Python :class:`.solver.Solver`.
"""
from __future__ import annotations

from typing import Callable, Optional

from .position import Shape
from .solver import DEFAULT_TABLE_BITS, Solver

Leaf = Callable[[int, int], Optional[int]]
"""``leaf(current, mask)``: the exact score of a position at the leaf ply, or ``None``."""


def core_name() -> str:
    """The core :func:`new_solver` takes: ``"python"`` (the only one today; ``"native"`` once a
    native core is built and loads)."""
    return "python"


def new_solver(shape: Shape, *, table_bits: int = DEFAULT_TABLE_BITS, leaf: Optional[Leaf] = None,
               leaf_ply: int = -1) -> Solver:
    """A solver core for ``shape`` (see :mod:`.solver` for what it provides)."""
    return Solver(shape, table_bits=table_bits, leaf=leaf, leaf_ply=leaf_ply)
