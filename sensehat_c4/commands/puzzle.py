"""``sensehat-c4 puzzle [--date YYYY-MM-DD] [--json]``: the day's "find the win" puzzle.

The puzzle is :func:`~sensehat_c4.engine.puzzles.daily` of the date (today's, by this
machine's local clock, without ``--date``): the same on every Pi on that date.  The text
form draws the position and says who is to move and within how many stones they win;
``--solution`` adds the answer.  ``--json`` prints one object: ``date``, ``id``, ``board``,
``moves``, ``to_move``, ``n``, ``solution`` (the first move, a 1-based column), ``line``
(the fastest win against the longest defence) and ``tries`` (the grade).
"""
from __future__ import annotations

import argparse
import json
import re
from datetime import date
from typing import Sequence

from gamelib.jsonvalue import JSONObject

from gamelib import app

from ..engine.puzzles import Puzzle, daily
from .common import parser, show

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MARKS = {1: "X", 2: "O"}


DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


def iso_date(text: str) -> date:
    """An argparse ``type``: a date written ``YYYY-MM-DD`` (ASCII digits, a day that exists)."""
    match = DATE.fullmatch(text)
    try:
        if match is None:
            raise ValueError("not YYYY-MM-DD")
        return date(*(int(part) for part in match.groups()))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD ({exc}): {text!r}") from None


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... (up to 7, as the puzzles need)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"


def as_json(day: date, puzzle: Puzzle) -> JSONObject:
    return {"date": day.isoformat(), **puzzle.as_json()}


def text(day: date, puzzle: Puzzle, solution: bool = False) -> str:
    """The puzzle as text: the date, the board, who is to move and the task (and the answer)."""
    board = puzzle.board()
    who = f"player {puzzle.to_move} ({MARKS[puzzle.to_move]})"
    task = ("win with this move" if puzzle.n == 1 else
            f"win with your {ordinal(puzzle.n)} stone from here, whatever the defence")
    lines = [f"puzzle {puzzle.ident} of {WEEKDAYS[day.weekday()]} {day.isoformat()}",
             str(board), "".join(str(c + 1) for c in range(board.columns)),
             f"moves: {puzzle.moves}", f"{who} to move: {task} (one first move does it)"]
    if solution:
        lines.append(f"solution: {puzzle.solution + 1} (a line: {puzzle.line})")
    return "\n".join(lines)


def run(argv: Sequence[str]) -> int:
    args_parser = parser("puzzle", "The day's puzzle: find the move that wins within N stones "
                         "(N is 1 on Mondays up to 7 on Sundays).")
    args_parser.add_argument("--date", type=iso_date, default=None, metavar="YYYY-MM-DD",
                             help="that day's puzzle (default: today's)")
    args_parser.add_argument("--json", action="store_true", help="print one JSON object (with the solution)")
    args_parser.add_argument("--solution", action="store_true", help="show the solution too")
    args = args_parser.parse_args(argv)
    day = args.date or date.today()
    puzzle = daily(day)
    show(json.dumps(as_json(day, puzzle)) if args.json else text(day, puzzle, args.solution))
    return app.EXIT_OK
