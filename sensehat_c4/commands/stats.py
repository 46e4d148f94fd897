"""``sensehat-c4 stats``: wins, draws and losses per named player and against each level, and the
days' puzzles (played, solved, solved on the day, and the streak up to today)."""
from __future__ import annotations

import json
from datetime import date
from typing import Any, Dict, Sequence

from ..i18n import _, ngettext
from ..match.computer import LEVELS
from ..records import PuzzleRecord, Records, streak
from ..study import history
from .common import add_db, done, parser, show


def puzzles_json(played: Sequence[PuzzleRecord], today: date) -> Dict[str, Any]:
    """The days' puzzles: how many were ``played``, ``solved``, solved ``on_the_day``, the ``tries`` in all,
    and the ``streak`` (days in a row solved on the day, up to ``today``)."""
    return {"played": len(played), "solved": sum(p.solved_on is not None for p in played),
            "on_the_day": sum(p.on_the_day for p in played), "tries": sum(p.tries for p in played),
            "streak": streak(played, today)}


def puzzles_text(summary: Dict[str, Any]) -> str:
    """``puzzles: 3 played, 2 solved (2 on the day) in 5 tries; streak: 2 days``."""
    days = ngettext("{n} day", "{n} days", summary["streak"]).format(n=summary["streak"])
    tries = ngettext("{n} try", "{n} tries", summary["tries"]).format(n=summary["tries"])
    played = ngettext("{n} played", "{n} played", summary["played"]).format(n=summary["played"])
    solved = ngettext("{n} solved", "{n} solved", summary["solved"]).format(n=summary["solved"])
    return _("puzzles: {played}, {solved} ({on_the_day} on the day) in {tries}; streak: {days}").format(
        played=played, solved=solved, on_the_day=summary["on_the_day"], tries=tries, days=days)


def run(argv: Sequence[str]) -> int:
    args_parser = parser("stats", _("Wins, draws and losses per named player and against each computer level, "
                                    "and the days' puzzles solved (the streak)."))
    add_db(args_parser)
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    args = args_parser.parse_args(argv)
    with Records(args.db) as stored:
        result = history.stats(stored.matches(), list(LEVELS))
        played = stored.puzzles()
    puzzles = puzzles_json(played, date.today())
    if args.json:
        show(json.dumps({**history.stats_json(result), "puzzles": puzzles}))
    else:
        text = history.stats_text(result, stored.empty if not played else None)
        show(text + (f"\n\n{puzzles_text(puzzles)}" if played else ""))
    return done("stats", stored.notes)
