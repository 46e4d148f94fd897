"""``sensehat-c4 history``: recent matches and their rounds, newest first.

The record commands (``history``, ``stats``, ``replay ID``, ``review ID``) each take
``--db PATH`` (else ``$SENSEHAT_C4_DB``, else the XDG data directory).  A missing or
empty database holds no matches.  One that cannot be read or is not ours, or an ID that
names no round that can be shown, is a :class:`~sensehat_c4.records.RecordsError`: one
line on stderr and exit 2.  A row that makes no sense is skipped with one line on stderr
(:func:`~.common.done`), the rest is shown, and the exit is 1.
"""
from __future__ import annotations

import json
from typing import Sequence

from ..i18n import _
from ..records import Records
from ..study import history
from .common import add_db, count, done, parser, show

LIMIT = 10


def run(argv: Sequence[str]) -> int:
    args_parser = parser("history", _("Recent matches and their rounds, newest first."))
    add_db(args_parser)
    args_parser.add_argument("--limit", type=count, default=LIMIT, metavar="N",
                             help=_("show the last N matches (default: {limit}; 0: all)").format(limit=LIMIT))
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON array"))
    args = args_parser.parse_args(argv)
    with Records(args.db) as stored:
        matches = stored.matches(args.limit or None)
    show(json.dumps(history.history_json(matches)) if args.json else history.history_text(matches, stored.empty))
    return done("history", stored.notes)
