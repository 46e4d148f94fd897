"""``sensehat-c4 history``: recent matches and their rounds, newest first.

The record commands (``history``, ``stats``, ``replay ID``, ``review ID``) each take
``--db PATH`` (else ``$SENSEHAT_C4_DB``, else the XDG data directory).  A database
that is missing, empty or unreadable, or an ID that names no round, is a
:class:`~sensehat_c4.records.RecordsError`: one line on stderr and exit 2.
"""
from __future__ import annotations

import json
from typing import Sequence

from gamelib import app

from .. import history
from ..records import Records
from .common import Command, add_db, count, parser

LIMIT = 10


def run(argv: Sequence[str]) -> int:
    args_parser = parser("history", "Recent matches and their rounds, newest first.")
    add_db(args_parser)
    args_parser.add_argument("--limit", type=count, default=LIMIT, metavar="N",
                             help=f"show the last N matches (default: {LIMIT}; 0: all)")
    args_parser.add_argument("--json", action="store_true", help="print one JSON array")
    args = args_parser.parse_args(argv)
    with Records(args.db) as stored:
        matches = stored.matches(args.limit or None)
    print(json.dumps(history.history_json(matches)) if args.json else history.history_text(matches))
    return app.EXIT_OK


COMMAND = Command("history", "history", "recent matches and their rounds", run)
