"""Over the LAN from the chooser and the launcher: offer a game or join one, asked on the LEDs
(:func:`play_lan`), and the launcher's entry, :data:`GAME`."""
from __future__ import annotations

import contextlib
import logging
from typing import List, Optional

from gamelib.backends.base import Backend
from gamelib.colours import RGB
from gamelib.games import Choices, Game
from gamelib.icons import Icon, picture
from gamelib.lan import screens
from gamelib.palette import Palette

from ..i18n import _
from ..match import unrecorded, words
from ..match.chooser import browse, choose_size
from ..match.controller import MatchOptions
from ..match.opponents import HUMAN
from ..match.report import print_result
from ..records import Recorder
from ..rules import Size
from .remote import default_name

log = logging.getLogger("sensehat_c4")

OFFER, JOIN = "offer", "join"


_ROLE_ICONS = {
    OFFER: ("........", "..CCCC..", ".C....C.", "C..CC..C", "..C..C..", "........", "...WW...", "...WW..."),
    JOIN: ("........", "..GGGG..", ".G....G.", "G..GG..G", "..G..G..", "........", "...WW...", "...WW..."),
}


def role_frame(role: str, index: int, palette: Palette) -> List[RGB]:
    """The choice between offering a game (cyan waves) and joining one (green), with its place dot."""
    frame = list(picture(_ROLE_ICONS[role], {"C": palette.lan, "G": palette.join, "W": palette.text},
                         palette.background))
    frame[1 + index] = palette.lan if role == OFFER else palette.join
    return frame


def choose_role(backend: Backend) -> Optional[str]:
    """Offer a game on the LAN, or join one? Left/right, middle chooses, up goes back (``None``)."""

    roles = (OFFER, JOIN)
    said = [screens._status("role", _("play over the LAN: offer a game here (left/right: browse)"),
                            _("offer a game on the LAN (left/right: browse)"), choice="offer", choices=list(roles)),
            screens._status("role", _("play over the LAN: join a game on another Pi (left/right: browse)"),
                            _("join a game on the LAN (left/right: browse)"), choice="join", choices=list(roles))]
    chosen = browse(backend, [role_frame(role, i, backend.palette) for i, role in enumerate(roles)], 0, said)
    return None if chosen is None else roles[chosen]


ICON = Icon((
    "........",
    "..CCCC..",
    ".C....C.",
    "C..CC..C",
    "..C..C..",
    "BBBBBBBB",
    "BBRBBBYB",
    "BYRRBYRB",
), lambda p: {"B": p.field, "R": p.first, "Y": p.second, "C": p.lan})
"""The launcher's entry: the waves over a small board."""


def play_lan(backend: Backend, choices: Optional[Choices] = None, *, size: Optional[Size] = None,
             recorder: Optional[Recorder] = None) -> int:
    """The chooser's and the launcher's entry: offer or join (asked on the LEDs), as this Pi's first
    name (the launcher's ``gamelib names``), else :func:`default_name`; the matches played."""
    # start-up: the launcher's menu loads GAME; the LAN's network (asyncio) when it is played
    from .play import host, join  # noqa: PLC0415

    names = tuple(choices.names) if choices is not None else ()
    name = names[0] if names else default_name()
    with contextlib.ExitStack() as stack:
        if recorder is None:   # the launcher's entry: told now if the games cannot be recorded
            recorder = stack.enter_context(contextlib.closing(Recorder()))
            unrecorded.check(backend, recorder)
        while True:
            role = choose_role(backend)
            if role is None:
                return 0
            if role == JOIN:
                return join(backend, name=name, recorder=recorder, notice=lambda line: log.info("%s", line),
                            report=lambda number, result, names: print_result(None, result, names))
            board = size or choose_size(backend, HUMAN.sizes(), Size())
            if board is None:
                continue
            return host(backend, MatchOptions(size=board), name=name, recorder=recorder,
                        report=lambda number, result, names: print_result(None, result, names),
                        notice=lambda line: log.info("%s", line))


GAME = Game(name=words.LAN_GAME, icon=ICON, play=play_lan, remembers=True, words=_)
"""The launcher's entry (``connect4-lan`` in the ``gamelib.games`` entry points)."""
