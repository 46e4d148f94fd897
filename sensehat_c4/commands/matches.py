"""What ``sensehat-c4 [play]`` runs once its options are read and checked (``commands/play.py``): the log,
the records, the backend and the web view, then the matches (or ``--lan`` / ``--join``).  Imported only
then, so ``--help`` and ``--version`` load none of it."""
from __future__ import annotations

import argparse
import contextlib
from typing import List, Optional, Tuple

from gamelib import app, backends, web
from gamelib.files import state_home
from gamelib.launcher.log import LauncherLog
from gamelib.colours import RGB
from gamelib.web.address import Address

from ..game import play_matches, web_pages
from ..lan import play as lan_play
from ..lan.remote import default_name
from ..match import unrecorded
from ..match.computer import Computer, ComputerSeat
from ..match.controller import MatchOptions, MatchResult, Timing
from ..match.opponents import Opponent
from ..match.report import print_result
from ..records import Recorder
from ..rules import Size, Starts
from .common import PROG


def play_chosen(args: argparse.Namespace, *, colours: Optional[Tuple[RGB, RGB]],
                names: Tuple[Optional[str], Optional[str]], opponent: Optional[Opponent], helps: Optional[bool],
                computer_plays: ComputerSeat, lan: Optional[Address],
                join: Optional[Tuple[str, int]]) -> int:
    """Play what ``args`` say, with what the command read from them and checked: the players' ``colours``
    (``None``: the palette's) and ``names``, the ``opponent``, ``helps`` (``None``: chosen on the LEDs) and
    ``computer_plays``, where the game is offered (``lan``) or the host to join (``join``; ``None`` with ``--join`` alone: looked for on the LAN); the exit code."""
    options = MatchOptions(colours=colours, first=Starts(args.first),
                           timing=Timing(fall_row=args.fall_ms / 1000), size=args.board or Size(), names=names)
    name = options.names[0] or default_name()

    def notice(message: str) -> None:
        app.report(PROG, message)

    def report(number: int, computer: Optional[Computer], result: MatchResult) -> None:
        print_result(computer, result)

    after: List[str] = []   # the guest's last words (Bob quit), said once the board has gone (a terminal's own
    #                         screen would take them with it)
    try:
        # the log (the recorder's one line) routed as the launcher routes its own: never over the board
        with LauncherLog("warning", state_home() / PROG / f"{PROG}.log", prog=PROG) as logs, \
                contextlib.closing(Recorder(args.db)) as recorder:
            recorder.open()   # a file it cannot write is told now, before the board takes the terminal
            with backends.from_args(args, notice=notice) as backend, \
                    web.serving(backend, args.web, notice, pages=lambda: [web_pages(args.db)]):
                if backend.needs.terminal:   # log lines would land on the board
                    logs.aside()
                unrecorded.check(backend, recorder)
                if lan is not None:
                    lan_play.host(backend, options, name=name, recorder=recorder, address=lan, matches=args.matches,
                             notice=notice, report=lambda number, result, names: print_result(None, result, names))
                elif args.join is not None:
                    lan_play.join(backend, name=name, target=join, recorder=recorder, notice=after.append,
                             report=lambda number, result, names: print_result(None, result, names))
                else:
                    play_matches(backend, options, opponent=opponent, computer_plays=computer_plays,
                                 size=args.board, think=args.think, matches=args.matches, report=report,
                                 recorder=recorder, helps=helps)
    finally:
        for line in after:
            notice(line)
    return app.EXIT_OK
