"""The ladder as a table of facts: each level's name, horizon, budget and board sizes, weakest first.

:mod:`.levels` makes the playing levels from these rows (a :class:`.sight.Sight` from a
:class:`Horizon`, perfect from the oracle); the command line, the words and the chooser read the
rows here.  This module imports only the rules core, so ``sensehat-c4 --help``, ``stats`` and
the words of the LEDs name the levels without loading the engine's search (the solver core is
asked only by :meth:`Rung.offered_sizes`, when it is called).  :mod:`.levels`'s docstring says
why each level is offered where it is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, NamedTuple, Optional, Tuple

from ..i18n import N_
from ..rules import SIZES, Size

DEFAULT_SECONDS = 1.0
"""The budget per move of the two lowest levels, in wall-clock seconds on any machine: a safety
net, as their work is bounded by their short horizons (they answer within milliseconds)."""
PERFECT_SECONDS = 8.0
"""The budget of perfect and of the levels from steady up: they mostly answer within
milliseconds, but some positions just past the 12-ply book need seconds (docs/BENCHMARKS.md,
"Engine" and "The ladder")."""
PERFECT_SIZES: Tuple[Size, ...] = (Size(4, 4), Size(5, 4), Size(6, 4), Size(4, 5), Size(4, 6), Size(7, 6))
"""The board sizes where perfect is offered with the Python solver core: where its worst move
fits its budget on a Pi 4 (about 320,000 positions; ``benchmarks/sizes.py``: docs/guide/computer.md,
"Where each level plays")."""
STRATEGY_BOOK_SIZES: Tuple[Size, ...] = (Size(8, 6),)
"""The sizes perfect plays from a strategy book (:mod:`.strategy`) where that book is shipped
(:func:`.strategy.strategy_sizes` looks, when :meth:`Rung.offered_sizes` asks)."""
NATIVE_PERFECT_SIZES: Tuple[Size, ...] = tuple(s for s in SIZES if s in PERFECT_SIZES + (
    Size(5, 5), Size(6, 5), Size(7, 4), Size(5, 6), Size(8, 4), Size(7, 5), Size(6, 6), Size(8, 5)))
"""With the native core: also 5x5, 6x5, 7x4, 5x6, with their shipped books of the first four
stones (``data/book-WxH.bin``) 8x4, 7x5 and 6x6, and with its book of the first six 8x5; 8x6
only with its strategy book (:data:`STRATEGY_BOOK_SIZES`, where ``data/strategy-8x6.bin`` is
shipped): without it its first moves take minutes (``benchmarks/sizes.py``; docs/guide/computer.md,
"Perfect on other board sizes")."""


class Horizon(NamedTuple):
    """A level below perfect: the range of its horizon in plies, and its noise (:class:`.sight.Sight`)."""

    low: int
    high: int
    noise: float


@dataclass(frozen=True)
class Rung:
    """A row of the ladder."""

    name: str
    horizon: Optional[Horizon]
    """What it knows below perfect (``None``: perfect, the books then the solver)."""
    seconds: float
    """The default thinking budget per move: a safety net below perfect (their work is bounded by
    their horizon, and ``benchmarks/ladder.py`` checks they finish well within it)."""
    sizes: Tuple[Size, ...] = SIZES
    """The board sizes the level is offered on (with the Python solver core)."""
    native_sizes: Optional[Tuple[Size, ...]] = None
    """The board sizes it is offered on when the native solver core runs (``None``: the same)."""
    book_sizes: Tuple[Size, ...] = ()
    """Sizes it is also offered on with the native core where their strategy book is shipped."""
    word: str = ""
    """Its name as people read it, marked ``N_("...")`` for the game's catalogue (translated where shown)."""
    about: str = ""
    """How it plays and how strong it is, in words marked ``N_("...")`` (``{low}``/``{high}``: its horizon's
    plies, filled in where shown: :func:`sensehat_c4.match.words.about`)."""

    def offered_sizes(self) -> Tuple[Size, ...]:
        """The board sizes the level is offered on with the solver core that runs."""
        # start-up: the solver core (ctypes) and the strategy books (the disk), only when sizes are asked for
        from . import cores, strategy  # noqa: PLC0415

        if self.native_sizes is not None and cores.core_name() == "native":
            shipped = strategy.strategy_sizes(self.book_sizes)
            return tuple(s for s in SIZES if s in self.native_sizes or s in shipped) if shipped else self.native_sizes
        return self.sizes


def but(*names: str) -> Tuple[Size, ...]:
    """Every size the game offers but those named (``"8x6"``)."""
    return tuple(size for size in SIZES if str(size) not in names)


def seeing(horizon: Horizon, sizes: Tuple[Size, ...]) -> Tuple[Size, ...]:
    """``sizes`` but those where ``horizon`` sees to the end of the game from the first move: it is
    perfect there, and perfect is offered instead."""
    return tuple(size for size in sizes if horizon.low < size.cells)


def sighted(name: str, horizon: Horizon, seconds: float, python: Tuple[Size, ...], native: Tuple[Size, ...], *,
            word: str, about: str) -> Rung:
    """A level below perfect, offered where its slowest move fits its budget on a Pi 4 with each core
    (``benchmarks/ladder.py --costs``), and where it does not see to the end from the first move."""
    return Rung(name, horizon, seconds, seeing(horizon, python), seeing(horizon, native), word=word, about=about)


SMALL = tuple(Size.parse(text) for text in ("4x4", "5x4", "6x4", "4x5", "4x6"))
"""The boards of at most 24 cells: there every level's slowest move is short even with the Python core."""

RUNGS: Tuple[Rung, ...] = (
    sighted("easy", Horizon(1, 3, 1.0), DEFAULT_SECONDS, SIZES, SIZES, word=N_("easy"),
            about=N_("sees its wins in one and, two times in three, your threats to block; plays by feel "
                     "beyond (Elo about 780)")),
    sighted("casual", Horizon(2, 7, 0.9), DEFAULT_SECONDS, SIZES, SIZES, word=N_("casual"),
            about=N_("sees wins and losses {low} to {high} stones ahead (yours and its own); plays by "
                     "feel beyond (Elo about 960)")),
    sighted("steady", Horizon(7, 13, 0.75), PERFECT_SECONDS, SIZES, SIZES, word=N_("steady"),
            about=N_("sees wins and losses {low} to {high} stones ahead; plays by feel beyond "
                     "(Elo about 1130)")),
    sighted("medium", Horizon(15, 21, 0.55), PERFECT_SECONDS, but("8x4", "8x5", "8x6"), SIZES, word=N_("medium"),
            about=N_("sees wins and losses {low} to {high} stones ahead; plays by feel beyond "
                     "(Elo about 1310)")),
    sighted("tough", Horizon(21, 27, 0.37), PERFECT_SECONDS, SMALL + (Size(),), but("8x6"), word=N_("tough"),
            about=N_("sees wins and losses {low} to {high} stones ahead; plays by feel beyond "
                     "(Elo about 1520)")),
    sighted("hard", Horizon(25, 31, 0.4), PERFECT_SECONDS, SMALL + (Size(),), but("8x6"), word=N_("hard"),
            about=N_("sees wins and losses {low} to {high} stones ahead; plays by feel beyond "
                     "(Elo about 1700)")),
    sighted("expert", Horizon(28, 34, 0.33), PERFECT_SECONDS, SMALL + (Size(5, 5), Size()), but("8x6"),
            word=N_("expert"),
            about=N_("sees wins and losses {low} to {high} stones ahead: most of a game after its first "
                     "moves (Elo about 1900)")),
    sighted("master", Horizon(31, 37, 0.3), PERFECT_SECONDS, SMALL + (Size(),), but("8x5", "8x6"), word=N_("master"),
            about=N_("sees wins and losses {low} to {high} stones ahead: slips only in the opening "
                     "(Elo about 2090)")),
    Rung("perfect", None, PERFECT_SECONDS, PERFECT_SIZES, NATIVE_PERFECT_SIZES, STRATEGY_BOOK_SIZES, word=N_("perfect"),
         about=N_("sees to the end: a move of optimal value in every position; starting on 7x6 it "
                  "always wins (Elo about 2280)")),
)
"""The ladder, weakest first (the order of the chooser, the command line and the benchmarks)."""

BY_NAME: Dict[str, Rung] = {rung.name: rung for rung in RUNGS}
"""Every rung by name, weakest first."""


NAMES: Dict[str, str] = {rung.name: rung.word for rung in RUNGS}
"""Each level's name as a word people read, marked for the game's catalogue and translated where it is
shown (``_(NAMES[name])``); the name itself is a value (``--opponent``, the records)."""


def number(name: str) -> int:
    """A level's number on the ladder (the chooser's digit): 1 for the weakest."""
    return list(BY_NAME).index(name) + 1
