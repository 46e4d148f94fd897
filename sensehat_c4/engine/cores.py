"""Where the exact solver's core is chosen: the one place a faster core plugs in.

Every solver the engine uses is made by :func:`new_solver`; the interface a core must
provide is :class:`Core` (a protocol: what the searches call, checked by mypy), written out in
:mod:`.solver`'s docstring (and ``docs/ARCHITECTURE.md``).  Two
cores provide it: the native one (:mod:`.native`, C, when it was built and loads) and
the pure-Python :class:`.solver.Solver`, the reference and the fallback.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Protocol, Tuple

from ..errors import ConfigError, NativeCoreError
from ..i18n import N_, _
from . import native
from .limit import Budget
from .position import Position, Shape
from .solver import Solver

Leaf = Callable[[int, int], Optional[int]]
"""``leaf(current, mask)``: the exact score of a position at the leaf ply, or ``None``."""

CORES = ("native", "python")
WORDS: Dict[str, str] = {"native": N_("native"), "python": N_("python")}
"""Each core's name (a value: ``--version`` and ``doctor`` say which runs) as people read it, translated where
it is shown."""


class Core(Protocol):
    """A solver core: exact scores of one board size's positions, within a :class:`~.limit.Budget`.

    :class:`.solver.Solver` (Python) and :class:`.native.NativeSolver` provide it; a core is made
    as ``Core(shape, *, table_bits=None, leaf=None, leaf_ply=-1)`` by :func:`new_solver` alone."""

    @property
    def name(self) -> str:
        """``"python"`` or ``"native"``."""

    @property
    def nodes(self) -> int:
        """Positions searched since the core was made."""

    def reset(self) -> None:
        """Empty the transposition table."""

    def score(self, position: Position, budget: Budget, *, window: Optional[Tuple[int, int]] = None) -> int:
        """The exact score of ``position`` (not over); ``window=(low, high)``: it is known to lie in it.
        :class:`~sensehat_c4.errors.SearchAborted` when ``budget`` runs out."""

    def at_most(self, position: Position, value: int, budget: Budget) -> bool:
        """One null-window search: True if the score of ``position`` is at most ``value``."""


def new_solver(shape: Shape, *, table_bits: Optional[int] = None, leaf: Optional[Leaf] = None,
               leaf_ply: int = -1, core: Optional[str] = None, threads: Optional[int] = None) -> Core:
    """A solver core for ``shape`` (see :mod:`.solver` for what it provides).

    ``core``: ``"native"`` or ``"python"``; ``None`` takes the native core when it is
    available and takes this size and table, else the Python core.  ``table_bits``: ``None``
    for the board's own table size (:func:`.solver.table_bits_for`).  ``threads``: the native
    core's (``None``: :func:`.native.default_threads`); the Python core searches with one.
    """
    if core not in (None,) + CORES:
        raise ConfigError(_("the solver core is one of {cores} (not {core!r})").format(cores=", ".join(CORES), core=core))
    if core == "native" or (core is None and native.library() is not None):
        try:
            return native.NativeSolver(shape, table_bits=table_bits, leaf=leaf, leaf_ply=leaf_ply, threads=threads)
        except NativeCoreError:
            if core == "native":
                raise
    return Solver(shape, table_bits=table_bits, leaf=leaf, leaf_ply=leaf_ply)


def core_name() -> str:
    """The core :func:`new_solver` takes for the standard board: ``"native"`` or ``"python"``."""
    return "native" if native.library() is not None else "python"
