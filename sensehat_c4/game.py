"""Connect 4 as a game: matches one after another (chooser, computer, match, repeat), and
its entry in the launcher.

:func:`play_matches` is the one match loop: before each match the players
choose the opponent with the joystick (``2P`` or a level) unless it is fixed,
the computer is set up for that match, the match is played and reported.  The
``sensehat-c4`` command runs it for as many matches as asked (``cli.py``); the
launcher runs one match per launch (:data:`GAME`, registered in ``setup.cfg``
under the ``gamelib.games`` entry-point group as ``connect4 =
sensehat_c4.game:GAME``), and up on the chooser goes back to the menu.
"""
from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Callable, Optional

from gamelib.backends.base import Backend
from gamelib.colours import BLUE, RED, YELLOW
from gamelib.games import Game
from gamelib.icons import picture
from gamelib.players import session_names

from .chooser import choose_opponent
from .computer import Computer, computer_for
from .controller import MatchOptions, MatchResult, play as play_match
from .records import Recorder

ICON = picture((
    "...R....",
    "........",
    "BBBBBBBB",
    "BBBBBBBB",
    "BBBBBBBB",
    "BBBYBBBB",
    "BBRYBBBB",
    "BYRRYBRB",
), {"B": BLUE, "R": RED, "Y": YELLOW})
"""A small board with a few tokens, and a red one about to drop."""


Report = Callable[[int, Optional[Computer], MatchResult], None]
"""Told of each match played: its number (from 1), the computer (``None``: two people), the result."""


def play_matches(backend: Backend, options: Optional[MatchOptions] = None, *, opponent: Optional[str] = None,
                 computer_plays: str = "2", think: Optional[float] = None, matches: int = 0,
                 back_leaves: bool = False, report: Optional[Report] = None,
                 recorder: Optional[Recorder] = None) -> int:
    """Play matches on ``backend`` until ``matches`` have been played (0: for ever); the number played.

    ``opponent`` (``human`` or a level) fixes the opponent; without it the chooser
    asks before each match, starting from the last choice.  Up on the chooser ends
    the loop if ``back_leaves``, else the chooser asks again.  ``computer_plays``
    (``1``, ``2`` or ``alternate``) and ``think`` (seconds; ``None``: the level's
    own budget) set up the computer (:func:`~.computer.computer_for`).
    """
    base = options or MatchOptions()
    played, last = 0, opponent or "human"
    while matches == 0 or played < matches:
        chosen = opponent or choose_opponent(backend, last)
        if chosen is None:
            if back_leaves:
                break
            continue
        last = chosen
        computer = computer_for(chosen, computer_plays, played + 1, think)
        result = play_match(backend, replace(base, computer=computer), recorder=recorder)
        played += 1
        if report is not None:
            report(played, computer, result)
    return played


def play(backend: Backend) -> None:
    """One match from the launcher (up on the chooser goes back to the menu), kept in the records,
    with the names the launcher keeps (:func:`gamelib.players.session_names`)."""
    with contextlib.closing(Recorder()) as recorder:
        play_matches(backend, MatchOptions(names=session_names()), matches=1, back_leaves=True, recorder=recorder)


GAME = Game(name="Connect 4", icon=ICON, play=play)
