"""``sensehat-c4 puzzle [--date YYYY-MM-DD] [--show | --solution | --json]``: the day's "find the win" puzzle.

The puzzle is :func:`~sensehat_c4.engine.puzzles.daily` of the date (today's, by this
machine's local clock, without ``--date``): the same on every Pi on that date.  A date after
today is refused (one line, exit 2): a day's puzzle comes out on its day.  Without
``--show``, ``--solution`` or ``--json`` it is played on the chosen backend (``--backend``, as
the game's) against the computer's best defence, each try kept in the games database
(:mod:`sensehat_c4.study.puzzle`), its result line printed at the end.  The text
form (``--show``) draws the position and says who is to move and within how many stones they win;
``--solution`` adds the answer.  ``--json`` prints one object: ``date``, ``id``, ``board``,
``moves``, ``to_move``, ``n``, ``solution`` (the first move, a 1-based column), ``line``
(the fastest win against the longest defence) and ``tries`` (the grade).
"""
from __future__ import annotations

import argparse
import json
import re
from calendar import monthrange
from datetime import MINYEAR, date
from typing import Callable, Sequence

from gamelib.jsonvalue import JSONObject

from gamelib import app, backends, web
from gamelib.files import state_home
from gamelib.launcher.log import LauncherLog

from ..engine.puzzles import Puzzle, daily
from ..i18n import N_, _
from ..match import unrecorded
from ..study.puzzle import PuzzlePlay, RecordsKeeper
from .common import PROG, add_db, check_db_folder, parser, show

WEEKDAYS = (N_("Monday"), N_("Tuesday"), N_("Wednesday"), N_("Thursday"), N_("Friday"), N_("Saturday"),
            N_("Sunday"))
"""The days' names, Monday first (words: translated where shown)."""
TASKS = {1: N_("win with this move"),
         2: N_("win with your 2nd stone from here, whatever the defence"),
         3: N_("win with your 3rd stone from here, whatever the defence"),
         4: N_("win with your 4th stone from here, whatever the defence"),
         5: N_("win with your 5th stone from here, whatever the defence"),
         6: N_("win with your 6th stone from here, whatever the defence"),
         7: N_("win with your 7th stone from here, whatever the defence")}
"""The task of a puzzle that wins within ``n`` stones (1 on Mondays up to 7 on Sundays), a whole
sentence each (an ordinal is said differently in every language); :data:`~..engine.puzzles.MAX_N` at most."""
MARKS = {1: "X", 2: "O"}


DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


def iso_date(text: str) -> date:
    """An argparse ``type``: a date written ``YYYY-MM-DD`` (ASCII digits, a day that exists); what is wrong
    with another is said in our words once (never :class:`datetime.date`'s, which are English)."""
    match = DATE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(_("not a date YYYY-MM-DD: {text!r}").format(text=text))
    year, month, day = (int(part) for part in match.groups())
    if year < MINYEAR:
        raise argparse.ArgumentTypeError(_("not a date YYYY-MM-DD: {text!r} (the years start at 0001)").format(
            text=text))
    if not 1 <= month <= 12:
        raise argparse.ArgumentTypeError(_("not a date YYYY-MM-DD: {text!r} (a month is 01 to 12)").format(text=text))
    days = monthrange(year, month)[1]
    if not 1 <= day <= days:
        raise argparse.ArgumentTypeError(_("not a date YYYY-MM-DD: {text!r} (that month has {days} days)").format(
            text=text, days=days))
    return date(year, month, day)


def as_json(day: date, puzzle: Puzzle) -> JSONObject:
    return {"date": day.isoformat(), **puzzle.as_json()}


def text(day: date, puzzle: Puzzle, solution: bool = False) -> str:
    """The puzzle as text: the date, the board, who is to move and the task (and the answer)."""
    board = puzzle.board()
    task = _(TASKS[puzzle.n])
    lines = [_("puzzle {id} of {weekday} {date}").format(id=puzzle.ident, weekday=_(WEEKDAYS[day.weekday()]),
                                                          date=day.isoformat()),
             str(board), "".join(str(c + 1) for c in range(board.columns)),
             _("moves: {moves}").format(moves=puzzle.moves),
             _("player {seat} ({mark}) to move: {task} (one first move does it)").format(
                 seat=puzzle.to_move, mark=MARKS[puzzle.to_move], task=task)]
    if solution:
        lines.append(_("solution: {column} (a line: {line})").format(column=puzzle.solution + 1, line=puzzle.line))
    return "\n".join(lines)


def run(argv: Sequence[str], *, today: Callable[[], date] = date.today) -> int:
    """The command; ``today()`` is the local date (a test's clock)."""
    args_parser = parser("puzzle", _("The day's puzzle: find the move that wins within N stones "
                                     "(N is 1 on Mondays up to 7 on Sundays)."))
    args_parser.add_argument("--date", type=iso_date, default=None, metavar="YYYY-MM-DD",
                             help=_("that day's puzzle (default: today's)"))
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON object (with the solution)"))
    args_parser.add_argument("--solution", action="store_true", help=_("show the solution too"))
    args_parser.add_argument("--show", action="store_true",
                             help=_("print the puzzle without its solution (without these three: play it)"))
    backends.add_arguments(args_parser)
    add_db(args_parser)
    web.add_argument(args_parser)
    args = args_parser.parse_args(argv)
    now = today()
    day = args.date or now
    if day > now:
        args_parser.error(_("argument --date: {date} is after today ({today}): a day's puzzle comes out on "
                            "its day").format(date=day.isoformat(), today=now.isoformat()))
    puzzle = daily(day)
    if args.json or args.solution or args.show:
        show(json.dumps(as_json(day, puzzle)) if args.json else text(day, puzzle, args.solution))
        return app.EXIT_OK
    check_db_folder(args_parser, args.db)
    return play(args, day, puzzle, today)


def play(args: argparse.Namespace, day: date, puzzle: Puzzle, today: Callable[[], date] = date.today) -> int:
    """Play ``day``'s ``puzzle`` on the backend the options name; its result line is printed at the end."""
    def notice(message: str) -> None:
        app.report(f"{PROG} puzzle", message)

    keeper = RecordsKeeper(day, puzzle, args.db, today=today)
    try:
        # the log (the recorder's one line) routed as the game routes it: never over the board
        with LauncherLog("warning", state_home() / PROG / f"{PROG}.log", prog=PROG) as logs:
            keeper.recorder.open()   # a file it cannot write is told now, before the board takes the terminal
            with backends.from_args(args, notice=notice) as backend, web.serving(backend, args.web, notice):
                if backend.needs.terminal:
                    logs.aside()
                unrecorded.check(backend, keeper.recorder)
                result = PuzzlePlay(backend, day, puzzle, keeper=keeper).run()
    finally:
        keeper.close()
    show(result.line)
    return app.EXIT_OK
