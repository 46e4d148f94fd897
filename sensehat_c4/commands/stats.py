"""``sensehat-c4 stats``: wins, draws and losses per named player and against each level."""
from __future__ import annotations

import json
from typing import Sequence

from ..i18n import _
from ..match.computer import LEVELS
from ..records import Records
from ..study import history
from .common import add_db, done, parser, show


def run(argv: Sequence[str]) -> int:
    args_parser = parser("stats", _("Wins, draws and losses per named player and against each computer level."))
    add_db(args_parser)
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    args = args_parser.parse_args(argv)
    with Records(args.db) as stored:
        result = history.stats(stored.matches(), list(LEVELS))
    show(json.dumps(history.stats_json(result)) if args.json else history.stats_text(result, stored.empty))
    return done("stats", stored.notes)
