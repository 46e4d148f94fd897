"""Connect 4 as a launcher game: its menu icon and one match per launch.

Registered in ``setup.cfg`` under the ``gamelib.games`` entry-point group as
``connect4 = sensehat_c4.game:GAME``.  Launched from the menu, the players
choose the opponent (``2P`` or a level; up goes back to the menu), play one
best-of-three match, and the launcher takes the backend back.  The standalone
``sensehat-c4`` command keeps repeating matches instead (``cli.py``).
"""
from __future__ import annotations

import contextlib
from typing import Optional

from gamelib.backends.base import Backend
from gamelib.colours import BLUE, RED, YELLOW
from gamelib.games import Game
from gamelib.icons import picture

from .chooser import choose_opponent
from .computer import Computer
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


def play(backend: Backend) -> Optional[MatchResult]:
    """Choose the opponent, then play one match; ``None`` if the players backed out of the choice."""
    opponent = choose_opponent(backend)
    if opponent is None:
        return None
    computer = None if opponent == "human" else Computer(opponent, player=2)  # the level's own budget
    with contextlib.closing(Recorder()) as recorder:  # the games database (see records.py)
        return play_match(backend, MatchOptions(computer=computer), recorder=recorder)


GAME = Game(name="Connect 4", icon=ICON, play=play)
