"""Connect 4 put together: the match loop with the LAN's entry in its chooser (:func:`play_matches`), the
game's pages in the web view (:func:`web_pages`), and the launcher's game (:data:`GAME`, registered in ``setup.cfg`` under the ``gamelib.games`` entry-point group as
``connect4 = sensehat_c4.game:GAME``: one match per launch).  ``sensehat-c4 [play]`` (``commands/play.py``)
imports this module once its arguments are read.

It sits above the match, the LAN and the web pages, so that none of them imports another upward
(``docs/ARCHITECTURE.md``, "The dependency rules").
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from gamelib.backends.base import Backend
from gamelib.games import Choices, Game

from .errors import BoardSizeError
from .i18n import _
from .lan.game import play_lan
from .match import unrecorded
from .match.computer import Computer, ComputerSeat
from .match.controller import MatchOptions, MatchResult
from .match.game import ICON, Report
from .match.game import play_matches as match_loop
from .match.opponents import Opponent
from .match.players import Seats
from .match.report import Names, print_result
from .match.words import GAME as NAME
from .records import Recorder
from .rules import Size

if TYPE_CHECKING:
    from gamelib.web.pages import Pages


def play_matches(backend: Backend, options: Optional[MatchOptions] = None, *, opponent: Optional[Opponent] = None,
                 computer_plays: ComputerSeat = ComputerSeat.TWO, think: Optional[float] = None, matches: int = 0,
                 back_leaves: bool = False, report: Optional[Report] = None, size: Optional[Size] = None,
                 default_size: Size = Size(), chosen_size: Optional[Callable[[Size], None]] = None,
                 recorder: Optional[Recorder] = None, seats: Optional[Seats] = None,
                 helps: Optional[bool] = None) -> int:
    """:func:`~.match.game.play_matches` (the options are its) with the LAN's entry in its chooser
    (:func:`~.lan.game.play_lan`)."""
    return match_loop(backend, options, opponent=opponent, computer_plays=computer_plays, think=think,
                      matches=matches, back_leaves=back_leaves, report=report, size=size, default_size=default_size,
                      chosen_size=chosen_size, recorder=recorder, seats=seats, helps=helps, lan=play_lan)


def play(backend: Backend, choices: Optional[Choices] = None) -> None:
    """One match from the launcher (up on the chooser goes back to the menu), kept in the records,
    its result printed like ``sensehat-c4``'s (numbered as the records number it).  A match a
    power cut interrupted is offered first (:func:`~.match.resume.pending`).

    The size chooser starts from the size chosen last time, which the launcher keeps
    in ``choices`` (``"board": "6x5"``); the players' names are the launcher's
    (``choices.names``).
    """
    remembered = None if choices is None else choices.get("board")
    try:
        default = Size.parse(remembered) if remembered else Size()
    except BoardSizeError:
        default = Size()
    given = tuple(choices.names) + (None, None) if choices is not None else (None, None)
    names: Names = (given[0], given[1])

    def report(number: int, computer: Optional[Computer], result: MatchResult) -> None:
        print_result(computer, result)

    with contextlib.closing(Recorder()) as recorder:
        unrecorded.check(backend, recorder)   # told before play if the games cannot be recorded
        play_matches(backend, MatchOptions(names=names), matches=1, back_leaves=True,
                     default_size=default, recorder=recorder, report=report,
                     chosen_size=None if choices is None else lambda size: choices.set("board", str(size)))


def web_pages(db: Optional[Path] = None) -> Pages:
    """Connect 4's pages in the web view (the games played, reviews, replays: a
    :class:`gamelib.web.pages.Pages`) over the games file ``db`` (``None``: the default one)."""
    # start-up: the launcher loads GAME for its menu; the web server (asyncio, h11) only when a web view is served
    from .web.pages import pages  # noqa: PLC0415

    return pages(db)


GAME = Game(name=NAME, icon=ICON, play=play, remembers=True, web=web_pages, words=_)
"""The launcher's entry (``connect4`` in the ``gamelib.games`` entry points)."""
