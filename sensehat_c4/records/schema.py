"""What a games file is: its application id, the columns of its two tables, the largest row id.

The tables themselves are made and changed by :mod:`.migrations`, step by step; the rows read
from them are checked by :mod:`.rows`.
"""
from __future__ import annotations

APPLICATION_ID = 0x43346462
"""``PRAGMA application_id`` of our files ("C4db"): set when a file is made or migrated."""
MAX_ID = 2 ** 63 - 1
"""The largest row id SQLite has: a larger ID or ``--limit`` names nothing more."""
MATCH_COLUMNS = ("id", "started", "ended", "status", "winner", "columns", "rows", "backend",
                 "p1_name", "p1_level", "p1_seconds", "p1_colour", "p2_name", "p2_level", "p2_seconds", "p2_colour",
                 "starts", "wins", "p1_remote", "p2_remote")
"""The columns of ``matches`` a :class:`~.rows.MatchRecord` is made from (``owner``, and ``pid`` before it,
are the recorder's alone)."""
ROUND_COLUMNS = ("id", "match_id", "number", "starter", "moves", "result", "winner", "winning_cells",
                 "started", "ended")
"""The columns of ``rounds`` a :class:`~.rows.RoundRecord` is made from."""
