"""The schema's versions: :data:`MIGRATIONS` brings any older file up to :data:`SCHEMA_VERSION`
step by step, in one transaction (:func:`migrate`); what the columns later versions added were
before them (:data:`ADDED`), and the first version's tables (:data:`FIRST_TABLES`)."""
from __future__ import annotations

import sqlite3
from typing import Mapping, Sequence, Tuple

from ..i18n import _
from .schema import APPLICATION_ID, MATCH_COLUMNS, ROUND_COLUMNS

_V1 = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    ended TEXT,
    status TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished', 'abandoned')),
    winner INTEGER CHECK (winner IN (1, 2)),
    columns INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    backend TEXT NOT NULL,
    p1_name TEXT, p1_level TEXT, p1_seconds REAL, p1_colour TEXT NOT NULL,
    p2_name TEXT, p2_level TEXT, p2_seconds REAL, p2_colour TEXT NOT NULL,
    pid INTEGER
);
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    number INTEGER NOT NULL,
    starter INTEGER NOT NULL CHECK (starter IN (1, 2)),
    moves TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('win', 'draw', 'abandoned')),
    winner INTEGER CHECK (winner IN (1, 2)),
    winning_cells TEXT NOT NULL DEFAULT '[]',
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    UNIQUE (match_id, number)
);
CREATE INDEX rounds_by_match ON rounds (match_id);
"""

_V2 = """
CREATE TABLE rounds_v2 (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    number INTEGER NOT NULL,
    starter INTEGER NOT NULL CHECK (starter IN (1, 2)),
    moves TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('playing', 'win', 'draw', 'abandoned')),
    winner INTEGER CHECK (winner IN (1, 2)),
    winning_cells TEXT NOT NULL DEFAULT '[]',
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    UNIQUE (match_id, number)
);
INSERT INTO rounds_v2 (id, match_id, number, starter, moves, result, winner, winning_cells, started, ended)
    SELECT id, match_id, number, starter, moves, result, winner, winning_cells, started, ended FROM rounds;
DROP TABLE rounds;
ALTER TABLE rounds_v2 RENAME TO rounds;
CREATE INDEX rounds_by_match ON rounds (match_id);
ALTER TABLE matches ADD COLUMN starts TEXT NOT NULL DEFAULT 'alternate'
    CHECK (starts IN ('p1', 'p2', 'alternate', 'random'));
ALTER TABLE matches ADD COLUMN wins INTEGER NOT NULL DEFAULT 2 CHECK (wins >= 1);
ALTER TABLE matches ADD COLUMN owner TEXT;
UPDATE matches SET status = 'abandoned', pid = NULL,
    ended = COALESCE((SELECT MAX(ended) FROM rounds WHERE match_id = matches.id), started)
    WHERE status = 'playing'
"""
"""Version 2: a round is committed at every move (``result`` ``playing`` until it ends); a match
keeps who starts its rounds (``starts``), the wins that take it (``wins``) and the process that
plays it (``owner``), so a match a power cut interrupted can be resumed.  Version 1 kept no
round in play nor these: its matches left ``playing`` are kept as abandoned, as it would have."""

_V3 = """
ALTER TABLE matches ADD COLUMN p1_remote INTEGER NOT NULL DEFAULT 0 CHECK (p1_remote IN (0, 1));
ALTER TABLE matches ADD COLUMN p2_remote INTEGER NOT NULL DEFAULT 0 CHECK (p2_remote IN (0, 1))
"""
"""Version 3: a seat played from another Pi over the LAN (``remote``: 1), a named person who was not at
this Pi."""

_V4 = """
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY,
    day TEXT NOT NULL UNIQUE,
    puzzle TEXT NOT NULL,
    n INTEGER NOT NULL CHECK (n BETWEEN 1 AND 7),
    tries INTEGER NOT NULL CHECK (tries >= 1),
    solved_on TEXT,
    started TEXT NOT NULL,
    ended TEXT NOT NULL
)
"""
"""Version 4: the days' puzzles played (``sensehat-c4 puzzle``, the launcher's *puzzle of the day*), one row a
date: its tries, and the date it was first solved on (the streak counts the days solved on the day)."""

_V5 = """
ALTER TABLE rounds ADD COLUMN level TEXT;
ALTER TABLE rounds ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);
ALTER TABLE rounds ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0 CHECK (takebacks >= 0)
"""
"""Version 5: a round keeps the computer's level it was played at (``level``: a *match me* match's changes
from round to round; ``NULL`` between two people and in older files), and the hints and take-backs the
person used in it (helps on; 0 before)."""

MIGRATIONS: Sequence[str] = (_V1, _V2, _V3, _V4, _V5)
"""``MIGRATIONS[v]`` turns a file at ``user_version`` v into v + 1 (0 is a new, empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)
ADDED: Mapping[str, Tuple[int, str]] = {"starts": (2, "'alternate'"), "wins": (2, "2"),
                                        "p1_remote": (3, "0"), "p2_remote": (3, "0"),
                                        "level": (5, "NULL"), "hints": (5, "0"), "takebacks": (5, "0")}
"""The columns later versions added (``matches``' and, from version 5, ``rounds``'): the version that added each, and what an older file's matches
were (``--first`` and best of three were the defaults version 1 could not keep; nobody played from
another Pi before version 3; no round kept its level, hints or take-backs before version 5).  The readers read an older file as it is, without migrating it."""
FIRST_TABLES = {"matches": set(MATCH_COLUMNS) - set(ADDED) | {"pid"}, "rounds": set(ROUND_COLUMNS) - set(ADDED)}
"""The tables (and their columns) of the first version, which set no ``application_id``."""


def is_newer(version: int) -> bool:
    """True if a file at ``user_version`` ``version`` was made by a later program (read at each call, so
    a test that adds a migration changes :data:`SCHEMA_VERSION` for every module at once)."""
    return version > SCHEMA_VERSION


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to :data:`SCHEMA_VERSION` and mark it ours (``ValueError`` if a newer program made it)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ValueError(_("made by a newer sensehat-c4 (schema {version}; this one knows {known})").format(
            version=version, known=SCHEMA_VERSION))
    if version == SCHEMA_VERSION and conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
