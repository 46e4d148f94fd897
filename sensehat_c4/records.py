"""Every game kept in SQLite, move by move: the schema, the writer the match loop calls, and the reader.

The file is ``$XDG_DATA_HOME/sensehat-c4/games.db`` (``~/.local/share/...`` when the
variable is unset), or ``$SENSEHAT_C4_DB``, or ``--db PATH``.  One table holds the
matches (who played each side, colours, board size, backend, who starts the rounds and
how many wins take the match, how the match ended), another the rounds (the moves in
solver notation, who started, the result and the winning cells, start and end times).
Seats are the match's player 1 and player 2; ``starter`` says which of them made the
round's first move.

:class:`Recorder` writes.  It commits each move as it is played (WAL, ``synchronous=FULL``,
so a committed move survives kill -9 and a power cut), and never stops play: a lock
another process holds makes it keep the move for the next write; if the file is
read-only, a directory, on a full disk, from a newer version or another program's, it
logs one line and records nothing more in this process (as for a file that is not
SQLite at all: somebody's text, which a mistyped ``--db`` or a symlink may name: it
is never touched); a damaged games database is renamed ``games.db.corrupt-<time>``
and a new one started.  A match left ``playing`` by a process
that is gone (:class:`Owner`) was interrupted: :meth:`Recorder.interrupted` finds it for
the game to resume.  :class:`Records` reads, for the ``history``, ``stats``, ``replay`` and
``review`` commands: each row is checked as it is read (:mod:`.stored`), a row that makes
no sense is skipped and reported in one line (:attr:`Records.notes`), and what cannot be
read at all raises :class:`RecordsError`.

The file is ours when ``PRAGMA application_id`` is :data:`APPLICATION_ID` (or, as the
first version left it, 0 with our two tables); its schema's version is ``PRAGMA
user_version``, and :data:`MIGRATIONS` brings any older file up to :data:`SCHEMA_VERSION`
step by step, in one transaction.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from gamelib.app import one_line
from gamelib.files import data_home

from .errors import C4Error
from .rules import Board
from .stored import (MATCH_COLUMNS, ROUND_COLUMNS, BadRow, MatchRecord, RoundRecord, Side, expected_cells,
                     hex_colour, match_from_row, quoted, round_from_row, timestamp)

__all__ = ["APPLICATION_ID", "BUSY_SECONDS", "DB_ENV", "MIGRATIONS", "MOVE_BUSY_SECONDS", "SCHEMA_VERSION",
           "MatchRecord", "Owner", "Recorder", "Records", "RecordsError", "RoundRecord", "Side", "default_path",
           "load_round", "utc_now"]

log = logging.getLogger("sensehat_c4.records")

DB_ENV = "SENSEHAT_C4_DB"
"""Environment variable naming the database file (the ``--db`` option wins over it)."""
MOVE_BUSY_SECONDS = 0.05
"""How long a write during play waits for another process's write to finish: a move's write must
not hold up the game.  Past it, what it had to write is kept and written with the next write."""
BUSY_SECONDS = 2.0
"""How long the last write (:meth:`Recorder.close`) waits for the lock, each try."""
CLOSING_TRIES = 10
"""The last write tries again while another process is seen committing, at most this many times."""
LOCKED_SECONDS = 600.0
"""Writes refused by a lock for this long: the lock is taken as held for good, and recording stops."""
APPLICATION_ID = 0x43346462
"""``PRAGMA application_id`` of our files ("C4db"): set when a file is made or migrated."""
MAX_ID = 2 ** 63 - 1
"""The largest row id SQLite has: a larger ID or ``--limit`` names nothing more."""
CHECKED_MATCHES = 100
"""The writer checks the rows of this many of the last matches when it opens a file (:func:`check_file`)."""

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

MIGRATIONS: Sequence[str] = (_V1, _V2, _V3)
"""``MIGRATIONS[v]`` turns a file at ``user_version`` v into v + 1 (0 is a new, empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)
ADDED: Mapping[str, Tuple[int, str]] = {"starts": (2, "'alternate'"), "wins": (2, "2"),
                                        "p1_remote": (3, "0"), "p2_remote": (3, "0")}
"""The match columns later versions added: the version that added each, and what an older file's matches
were (``--first`` and best of three were the defaults version 1 could not keep; nobody played from
another Pi before version 3).  The readers read an older file as it is, without migrating it."""
_FIRST_TABLES = {"matches": set(MATCH_COLUMNS) - set(ADDED) | {"pid"}, "rounds": set(ROUND_COLUMNS)}
"""The tables (and their columns) of the first version, which set no ``application_id``."""


class RecordsError(C4Error, OSError):
    """The records cannot be read: not a database, not ours, unreadable, or no such round."""


class NotOurs(C4Error, ValueError):
    """A database another program made (its own ``application_id``, or other tables), or a file that is
    not SQLite at all: never written."""


class Damaged(C4Error, ValueError):
    """A games database SQLite reads but whose structure or rows are wrong: the writer sets it aside."""


def default_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$SENSEHAT_C4_DB`` if set, else ``$XDG_DATA_HOME/sensehat-c4/games.db``."""
    env = os.environ if environ is None else environ
    named = env.get(DB_ENV, "")
    return Path(named) if named else data_home(env) / "sensehat-c4" / "games.db"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


# -- opening ------------------------------------------------------------------


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""


def check_header(path: Path) -> None:
    """:class:`NotOurs` if ``path`` holds something other than an SQLite database (an empty file is
    an empty database); ``OSError`` if it cannot be read."""
    with open(path, "rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise NotOurs("not an SQLite database")


def _decode(data: bytes) -> str:
    """Text as SQLite holds it; bytes that are not UTF-8 (a damaged page) stay visible to the
    row checks as lone surrogates instead of failing the whole query."""
    return data.decode("utf-8", "surrogateescape")


def _uri(path: Path, query: str) -> str:
    return "file:" + "/".join(_quote(part) for part in str(path.resolve()).split("/")) + "?" + query


def _connect(path: Path, *, busy: float, query: Optional[str] = None) -> sqlite3.Connection:
    """A connection to ``path``: read-write, or as the URI ``query`` says (``mode=ro``, ``immutable=1``)."""
    if query is None:
        conn = sqlite3.connect(str(path), timeout=busy, isolation_level=None)
    else:
        conn = sqlite3.connect(_uri(path, query), uri=True, timeout=busy, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.text_factory = _decode
    return conn


def _quote(part: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-._~" else "%{:02X}".format(ord(ch)) for ch in part)


def _identify(conn: sqlite3.Connection) -> bool:
    """True if the file is ours, False if it is empty (ours to start); :class:`NotOurs` if another
    program's, :class:`Damaged` if ours but its tables are not the games' (a damaged schema page)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise NotOurs(f"another program's database (application_id {app_id:#x})")
    if app_id == APPLICATION_ID and version > SCHEMA_VERSION:
        return True  # a later version's tables: not for this one to judge
    tables = sorted(str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                    if not str(row[0]).startswith("sqlite_"))
    if app_id == 0 and version == 0 and not tables:
        return False
    if version >= 1 and all(_is_ours(conn, name, wanted) for name, wanted in _FIRST_TABLES.items()):
        return True
    shown = ", ".join(one_line(t) for t in tables[:5]) + (", ..." if len(tables) > 5 else "")
    if app_id == APPLICATION_ID:
        raise Damaged(f"its tables are not the games' (tables: {shown or 'none'}; user_version {version})")
    raise NotOurs(f"another program's database (tables: {shown or 'none'}; user_version {version})")


def _is_ours(conn: sqlite3.Connection, table: str, wanted: Set[str]) -> bool:
    """``table`` has our columns, ``id`` its integer primary key (the row id)."""
    info = {str(row[1]): (str(row[2]), row[5]) for row in conn.execute(f"PRAGMA table_info({table})")}
    return set(info) >= wanted and info["id"] == ("INTEGER", 1)


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to :data:`SCHEMA_VERSION` and mark it ours (``ValueError`` if a newer program made it)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ValueError(f"made by a newer sensehat-c4 (schema {version}; this one knows {SCHEMA_VERSION})")
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


def _is_corrupt(exc: BaseException) -> bool:
    """A damaged file: SQLite says so (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``), or our checks did."""
    if isinstance(exc, (Damaged, BadRow, UnicodeDecodeError)):  # the last: a name in a damaged schema
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (11, 26)
    text = str(exc)
    return "not a database" in text or "malformed" in text


def _why(exc: BaseException) -> str:
    """``exc`` as one line (a name SQLite keeps that is not UTF-8: the file is damaged)."""
    if isinstance(exc, UnicodeDecodeError):
        return "database disk image is malformed (a name in its schema is not UTF-8)"
    if isinstance(exc, OSError) and exc.strerror:  # the system's words, without "[Errno 36] ... 'path'"
        return one_line(exc.strerror)
    return one_line(str(exc) or type(exc).__name__)


def _cannot_open(exc: sqlite3.Error) -> bool:
    """SQLite could not open its journal files beside the database (a read-only directory, a full disk)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (8, 10, 14)  # SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN
    text = str(exc)
    return any(words in text for words in ("unable to open", "disk I/O error", "readonly", "read-only"))


def integrity(conn: sqlite3.Connection) -> None:
    """``PRAGMA integrity_check`` (b-trees, indexes against their tables, ``NOT NULL`` and ``CHECK``);
    :class:`Damaged` with its first finding, in one line."""
    found = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
    if found != ["ok"]:
        problems = [line for text in found for line in text.splitlines() if line and not line.startswith("***")]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise Damaged(f"integrity_check: {one_line(problems[0] if problems else found[0])}{more}")


def _pid_alive(pid: object) -> bool:
    if type(pid) is not int or not 0 < pid < 2 ** 31:  # a damaged value: kill(-1, 0) would be "alive"
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, as another user
        return True
    return True


def _boot_id() -> str:
    """The kernel's id of this boot (Linux; ``""`` elsewhere)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _start_ticks(pid: int) -> Optional[int]:
    """When process ``pid`` started, in clock ticks after boot (``/proc/PID/stat``'s 22nd field), or
    ``None`` where that cannot be read."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


@dataclass(frozen=True)
class Owner:
    """The process playing a match, kept in its row (``owner``) as ``BOOT PID START``.

    A pid alone cannot say whether the process is gone: after a power cut the next boot
    gives the same numbers out again (the launcher's service often gets the very pid it had),
    so the boot's id and the process's start time go with it.
    """

    boot: str
    pid: int
    start: Optional[int]

    @classmethod
    def this(cls) -> "Owner":
        pid = os.getpid()
        return cls(_boot_id(), pid, _start_ticks(pid))

    def __str__(self) -> str:
        return f"{self.boot or '-'} {self.pid} {'-' if self.start is None else self.start}"

    @classmethod
    def parse(cls, text: object) -> Optional["Owner"]:
        """The owner a row keeps, or ``None`` if it is not one (a damaged value)."""
        parts = text.split(" ") if isinstance(text, str) else []
        if len(parts) != 3 or not parts[1].isdigit() or not (parts[2] == "-" or parts[2].isdigit()):
            return None
        return cls("" if parts[0] == "-" else parts[0], int(parts[1]), None if parts[2] == "-" else int(parts[2]))

    def alive(self) -> bool:
        """Still running: the same boot, the pid there, started when it did (where that can be read)."""
        if self.boot != _boot_id() or not _pid_alive(self.pid):
            return False
        started = _start_ticks(self.pid)
        return self.start is None or started is None or started == self.start

    @classmethod
    def alive_text(cls, text: object) -> bool:
        """:meth:`alive` for a row's ``owner``; one that is not an owner (damaged, none) is gone."""
        owner = cls.parse(text)
        return owner is not None and owner.alive()


def _is_busy(exc: BaseException) -> bool:
    """Another connection holds the lock (``SQLITE_BUSY``, ``SQLITE_LOCKED``): it passes."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (5, 6)
    return "is locked" in str(exc)


# -- reading rows -------------------------------------------------------------


def _select(columns: Sequence[str], table: str) -> str:
    return f"SELECT {', '.join(columns)} FROM {table} NOT INDEXED"


class _Reader:
    """Rows of one connection made into records; each row that makes no sense goes to ``skip``.

    Reads never use the indexes (``NOT INDEXED``): a damaged page can make an index lie, never
    a table's own order.  Where SQLite stops a scan at a damaged page (``SQLITE_CORRUPT``),
    the rows beyond it are read from the table's other end, and ``partial`` says that some
    could not be read; if none at all can be, the error is raised.
    """

    def __init__(self, conn: sqlite3.Connection, skip: Callable[[BadRow], None],
                 partial: Callable[[str, BaseException], None]) -> None:
        self.conn = conn
        self.skip = skip
        self.partial = partial
        self.cut: Set[str] = set()
        """The tables some rows of which could not be read."""
        self.version = conn.execute("PRAGMA user_version").fetchone()[0]
        self._older = {name: f"{value} AS {name}" for name, (since, value) in ADDED.items()
                       if type(self.version) is int and self.version < since}
        """The columns this file is too old to have, as their values (``0 AS p1_remote``)."""

    def scan(self, table: str, columns: Sequence[str], *, newest_first: bool, where: str = "",
             args: Sequence[Any] = (), limit: Optional[int] = None) -> Iterator[sqlite3.Row]:
        """The rows of ``table`` by id, ``newest_first`` or oldest first, at most ``limit``."""
        columns = [self._older.get(column, column) for column in columns]
        sql = _select(columns, table) + (f" WHERE {where}" if where else "")
        order, other = ("DESC", "ASC") if newest_first else ("ASC", "DESC")
        read, last = 0, None
        try:
            for row in self.conn.execute(f"{sql} ORDER BY id {order}" + ("" if limit is None else f" LIMIT {limit}"),
                                         args):
                read, last = read + 1, row["id"]
                yield row
            return
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
            damage = exc
        beyond = "" if last is None else f"id {'<' if newest_first else '>'} ?"
        condition = " AND ".join(f"({c})" for c in (where, beyond) if c)
        rest: List[sqlite3.Row] = []
        try:  # from the other end, up to the damage
            for row in self.conn.execute(_select(columns, table) + (f" WHERE {condition}" if condition else "")
                                         + f" ORDER BY id {other}", [*args, *([last] if beyond else [])]):
                rest.append(row)
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
        if read == 0 and not rest:
            raise damage
        self.cut.add(table)
        self.partial(table, damage)
        rest.reverse()
        yield from rest if limit is None else rest[:max(0, limit - read)]

    def matches(self, limit: Optional[int]) -> List[MatchRecord]:
        """The last ``limit`` matches (all if ``None``), newest first, with their rounds."""
        found: Dict[int, MatchRecord] = {}
        bad: Set[Any] = set()
        for row in self.scan("matches", MATCH_COLUMNS, newest_first=True, limit=limit):
            try:
                match = match_from_row(row)
                if match.id in found or match.id in bad:
                    raise BadRow("matches", match.id, "it is there twice (a damaged page)")
                found[match.id] = match
            except BadRow as exc:
                bad.add(exc.ident)
                self.skip(exc)
        if not found:
            return []
        rounds: Dict[int, Dict[int, RoundRecord]] = {i: {} for i in found}
        seen: Set[Any] = set()
        lowest = min(i for i in found.keys() | bad if type(i) is int)
        for row in self.scan("rounds", ROUND_COLUMNS, newest_first=False,
                             where="" if limit is None else "match_id >= ?", args=() if limit is None else (lowest,)):
            match_id = row["match_id"]
            try:
                if row["id"] in seen:
                    raise BadRow("rounds", row["id"], "it is there twice (a damaged page)")
                seen.add(row["id"])
                if type(match_id) is not int:
                    raise BadRow("rounds", row["id"], f"match_id {quoted(match_id)} is not a number")
                if match_id in bad or (match_id not in found and "matches" in self.cut):
                    continue  # its match was reported
                if match_id not in found:
                    raise BadRow("rounds", row["id"], f"its match {match_id} is not there")
                rnd = round_from_row(row, found[match_id])
                if rnd.number in rounds[match_id]:
                    raise BadRow("rounds", rnd.id, f"match {match_id} has a round {rnd.number} already "
                                 f"(rounds row {rounds[match_id][rnd.number].id})")
                rounds[match_id][rnd.number] = rnd
            except BadRow as exc:
                self.skip(exc)
        return [replace(m, rounds=tuple(r for _, r in sorted(rounds[m.id].items()))) for m in found.values()]

    def match(self, ident: int) -> MatchRecord:
        """Match ``ident`` with its rounds (a bad row goes to ``skip``; ``BadRow`` if it is not there)."""
        rows = list(self.scan("matches", MATCH_COLUMNS, newest_first=True, where="id = ?", args=(ident,)))
        if not rows:
            raise BadRow("matches", ident, "it is not there")
        match = match_from_row(rows[0])
        rounds: Dict[int, RoundRecord] = {}
        for row in self.scan("rounds", ROUND_COLUMNS, newest_first=False, where="match_id = ?", args=(ident,)):
            try:
                rnd = round_from_row(row, match)
                if rnd.number in rounds:
                    raise BadRow("rounds", rnd.id, f"match {ident} has a round {rnd.number} already")
                rounds[rnd.number] = rnd
            except BadRow as exc:
                self.skip(exc)
        return replace(match, rounds=tuple(r for _, r in sorted(rounds.items())))

    def match_of(self, row: sqlite3.Row) -> MatchRecord:
        """The match of round ``row`` (without its rounds); :class:`BadRow` if it is not there or bad."""
        match_id = row["match_id"]
        if type(match_id) is not int:
            raise BadRow("rounds", row["id"], f"match_id {quoted(match_id)} is not a number")
        try:
            found = list(self.scan("matches", MATCH_COLUMNS, newest_first=True, where="id = ?", args=(match_id,)))
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
            raise BadRow("rounds", row["id"], f"its match {match_id} cannot be read ({_why(exc)})") from None
        if not found:
            raise BadRow("rounds", row["id"], f"its match {match_id} is not there")
        return match_from_row(found[0])


# -- writing ------------------------------------------------------------------


@dataclass
class _Pending:
    """One match's writes that are not committed yet (the match row, rounds by number, its end)."""

    values: Optional[List[Any]]
    """The match row to insert, until it is (``None`` for a match already in the file)."""
    id: Optional[int] = None
    rounds: Dict[int, List[Any]] = field(default_factory=dict)
    """Round number -> ``[starter, moves, result, winner, winning_cells, started, ended]``."""
    end: Optional[Tuple[str, Optional[int], Optional[str]]] = None
    """``(status, winner, ended)`` to write (``ended`` ``None``: its last move's time)."""
    decided: bool = False
    """Its end is known (written or to be written): nothing more comes for it."""

    @property
    def dirty(self) -> bool:
        return bool(self.rounds) or self.end is not None


class Recorder:
    """Writes one process's matches, a move at a time; storage problems are logged and never raised.

    The match loop calls :meth:`start_match`, then for each round :meth:`start_round` and
    :meth:`played` after each move (one small transaction: the round's row is inserted at its
    first move and updated after), and :meth:`end_match`.  A game starting asks
    :meth:`interrupted` for a match a power cut or a crash left in play, then :meth:`resume`s
    or :meth:`abandon`s it.

    A write waits at most ``move_busy`` seconds for another process's; past that, what it had
    to write is kept and written with the next write (``SQLITE_BUSY`` is not an error).  Only a
    lock held for ``give_up`` seconds, or one no process commits under while :meth:`close`
    waits ``busy`` seconds, stops the recording, with one line.
    """

    def __init__(self, path: Optional[Path] = None, *, clock: Callable[[], datetime] = utc_now,
                 busy: float = BUSY_SECONDS, move_busy: float = MOVE_BUSY_SECONDS, give_up: float = LOCKED_SECONDS,
                 owner: Optional[Owner] = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.clock = clock
        self.busy = busy
        self.move_busy = move_busy
        self.give_up = give_up
        self.owner = owner or Owner.this()
        """The process that writes (kept in each match it plays, so a later one knows if it is gone)."""
        self.failed: Optional[str] = None
        """Why nothing more is recorded (``None`` while recording works)."""
        self._conn: Optional[sqlite3.Connection] = None
        self._checked = False
        self._ready = False
        self._queue: List[_Pending] = []
        """Matches with writes not yet committed (and the current one)."""
        self._current: Optional[_Pending] = None
        self._round_started: Optional[datetime] = None
        self._locked_since: Optional[float] = None
        self._said_locked = False

    @property
    def pending(self) -> int:
        """How many rows wait to be written (another process held the file's lock)."""
        return sum((m.id is None) + len(m.rounds) + (m.end is not None) for m in self._queue if m.dirty)

    # -- starting -----------------------------------------------------------------

    def open(self) -> bool:
        """Open and check the file now (the program's start, before anything is on the LEDs), so
        that the first move's write is only that move's; True if it is ready."""
        if self.failed is not None:
            return False
        try:
            self._open(self.move_busy)
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                self._give_up(exc)
                return False
            self._held_up(exc)
            return False
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)
            return False
        return True

    def interrupted(self) -> Optional[MatchRecord]:
        """The newest match left ``playing`` by a process that is gone (a power cut, kill -9), with
        its rounds, claimed for this process (another game starting now will not offer it); the
        older ones are marked abandoned.  ``None`` if there is none (or the file cannot say)."""
        if not self.open():
            return None
        assert self._conn is not None
        conn = self._conn
        try:
            conn.execute(f"PRAGMA busy_timeout = {round(self.move_busy * 1000)}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                found = self._claim(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                self._give_up(exc)
            else:
                self._held_up(exc)
            return None
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)
            return None
        return found

    def _claim(self, conn: sqlite3.Connection) -> Optional[MatchRecord]:
        mine = str(self.owner)
        gone = [row["id"] for row in conn.execute(
                    "SELECT id, owner FROM matches NOT INDEXED WHERE status = 'playing' ORDER BY id DESC")
                if row["owner"] != mine and not Owner.alive_text(row["owner"])]
        offered: Optional[MatchRecord] = None
        for ident in gone:
            if offered is None:
                try:
                    offered = _Reader(conn, _raise, _raise).match(ident)
                except BadRow as exc:
                    log.warning("an interrupted match cannot be resumed: %s; it is kept as abandoned", one_line(str(exc)))
                else:
                    conn.execute("UPDATE matches SET owner = ? WHERE id = ?", (mine, ident))
                    continue
            _write_end(conn, ident, ("abandoned", None, None))
        return offered

    def resume(self, match: MatchRecord) -> None:
        """Go on writing ``match`` (one :meth:`interrupted` gave): its next move, its end."""
        self._current = _Pending(None, match.id)
        self._queue.append(self._current)
        self._round_started = None

    def abandon(self, match: MatchRecord) -> None:
        """Mark ``match`` (one :meth:`interrupted` gave) abandoned, with its round in play."""
        self._queue.append(_Pending(None, match.id, end=("abandoned", None, None), decided=True))
        self._write()

    # -- the match loop's calls -------------------------------------------------

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: str = "alternate", wins: int = 2) -> None:
        """A new match (status ``playing``).  Its row is written with its first move (or its end),
        so nothing is written before a move is made."""
        values: List[Any] = [timestamp(self.clock()), columns, rows, backend]
        for side in sides:
            values += [side.name, side.level, side.seconds, hex_colour(side.colour)]
        self._current = _Pending(values + [starts, wins, str(self.owner), int(sides[0].remote),
                                           int(sides[1].remote)])
        self._queue.append(self._current)

    def start_round(self) -> None:
        """Note when the round's first move could be made."""
        self._round_started = self.clock()

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None) -> None:
        """Commit round ``number`` as ``board`` holds it after a move (``playing`` until it is won or
        drawn); ``match_winner``: the seat this move won the match for, committed with it."""
        match = self._current
        if match is None:
            return
        outcome = board.outcome
        if outcome is None:
            result, winner = "playing", None
        elif outcome.winner is None:
            result, winner = "draw", None
        else:
            result = "win"
            winner = starter if outcome.winner == 1 else 3 - starter
        now = timestamp(self.clock())
        started = now if self._round_started is None else timestamp(self._round_started)
        match.rounds[number] = [starter, board.notation(), result, winner, json.dumps(expected_cells(board)),
                                started, now]
        if outcome is not None:
            self._round_started = None
        if match_winner is not None:
            match.end, match.decided = ("finished", match_winner, now), True
        self._write()

    def end_match(self, winner: Optional[int]) -> None:
        """Close the match: won by seat ``winner`` (already written with its last move, if
        :meth:`played` was told), or abandoned (``None``), its round in play with it."""
        match, self._current = self._current, None
        if match is None:
            return
        if not match.decided:
            if winner is None and match.id is None and not match.rounds:  # left before a move: nothing to keep
                self._queue.remove(match)
                return
            match.end = ("abandoned" if winner is None else "finished", winner, timestamp(self.clock()))
            match.decided = True
        self._write()

    def close(self) -> None:
        """Write what is still waiting (for up to ``busy`` seconds, longer while another process
        is seen committing), then close the file."""
        if self.failed is None and any(m.dirty for m in self._queue):
            self._last_write()
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None
            self._ready = False

    # -- behind the calls -------------------------------------------------------

    def _write(self) -> None:
        if self.failed is not None or not any(m.dirty for m in self._queue):
            return
        try:
            self._flush(self.move_busy)
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                self._give_up(exc)
            else:
                self._held_up(exc)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)

    def _last_write(self) -> None:
        """The writes still waiting, with ``busy`` seconds for the lock; again while another process
        commits meanwhile (the file is busy, not stuck), up to :data:`CLOSING_TRIES` times."""
        seen = self._data_version()
        for _ in range(CLOSING_TRIES):
            try:
                self._flush(self.busy)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    self._give_up(exc)
                    return
                failure: BaseException = exc
            except (sqlite3.Error, OSError, ValueError) as exc:
                self._give_up(exc)
                return
            now = self._data_version()
            if now is None or now == seen:
                break  # nobody committed while we waited: the lock is held for good
            seen = now
        self._give_up(failure, f"{self.pending} rows not written")

    def _data_version(self) -> Optional[int]:
        """``PRAGMA data_version``: changes when another connection commits (``None``: cannot be read)."""
        try:
            if self._conn is None:
                return None
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None

    def _flush(self, busy: float) -> None:
        """Commit every waiting write in one transaction (all or none)."""
        conn = self._open(busy)
        work = [m for m in self._queue if m.dirty]
        ids = [m.id for m in work]
        conn.execute(f"PRAGMA busy_timeout = {round(busy * 1000)}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for match in work:
                _write_match(conn, match)
            conn.execute("COMMIT")
        except BaseException:
            for match, ident in zip(work, ids):
                match.id = ident  # the match row was not written either
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        for match in work:
            match.values, match.end = None, None
            match.rounds.clear()
        self._queue = [m for m in self._queue if m is self._current or m.dirty]
        if self._locked_since is not None:
            log.info("games are recorded again (%s)", self.path)
        self._locked_since = None

    def _held_up(self, exc: BaseException) -> None:
        """Another process holds the lock: keep the writes for the next one, unless it has been
        held for ``give_up`` seconds (then it is taken as held for good)."""
        now = time.monotonic()
        if self._locked_since is None:
            self._locked_since = now
        elif now - self._locked_since >= self.give_up:
            self._give_up(exc, f"for {now - self._locked_since:.0f} s; {self.pending} rows not written")
            return
        if not self._said_locked:
            self._said_locked = True
            log.warning("games wait to be recorded: %s; the moves are kept and written when it is free (%s)",
                        _why(exc), self.path)

    def _give_up(self, exc: BaseException, detail: str = "") -> None:
        self.failed = _why(exc)
        self._queue, self._current = [], None
        self.close()
        more = f" ({detail})" if detail else ""
        log.warning("games are not being recorded: %s%s (%s)", self.failed, more, one_line(str(self.path)))

    def _open(self, busy: float) -> sqlite3.Connection:
        if self._conn is not None and self._ready:
            return self._conn
        real = self.path.resolve()  # a symlink is followed: its target is the database
        if real.is_dir():
            raise OSError(f"{self.path.name} is a directory")
        if real.exists() and not real.is_file():  # a FIFO would hang the open, a device holds no games
            raise OSError(f"{self.path.name} is not a regular file")
        real.parent.mkdir(parents=True, exist_ok=True)
        for place in (real.parent, real):  # WAL needs its journal files beside the database
            if place.exists() and not os.access(place, os.W_OK):
                raise OSError(f"{place} is read-only")
        try:
            return self._prepare(real, busy)
        except (sqlite3.DatabaseError, Damaged, BadRow, UnicodeDecodeError) as exc:
            if not _is_corrupt(exc):
                raise
            self._drop_connection()
            aside = self._set_aside(real)
            log.warning("the games database was damaged (%s): kept as %s, starting a new one", _why(exc),
                        one_line(aside.name))
            return self._prepare(real, busy)

    def _prepare(self, real: Path, busy: float) -> sqlite3.Connection:
        """Open ``real`` for writing: ours (or empty), checked whole (once), in WAL mode, migrated.
        A lock another process holds (``SQLITE_BUSY``) leaves what is done done, for the next try."""
        if self._conn is None:
            if not self._checked and real.exists():  # looked at read-only first: another program's file is never written
                check_header(real)
                with _closing(_connect(real, busy=busy, query="mode=ro")) as look:
                    look.execute("BEGIN")  # one snapshot: another process may write meanwhile
                    if _identify(look):
                        check_file(look)
            self._checked = True
            self._conn = _connect(real, busy=busy)
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {round(busy * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        _migrate(conn)
        self._ready = True
        return conn

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
        self._conn, self._ready, self._checked = None, False, False

    def _set_aside(self, real: Path) -> Path:
        """Rename the damaged file (and its journal files) out of the way; return the new name."""
        aside = real.with_name(f"{real.name}.corrupt-{self.clock().strftime('%Y%m%dT%H%M%S')}")
        os.replace(real, aside)
        for suffix in ("-wal", "-shm"):
            extra = real.with_name(real.name + suffix)
            if extra.exists():
                os.replace(extra, aside.with_name(aside.name + suffix))
        return aside


def _raise(*args: Any) -> None:
    """A reader's ``skip`` and ``partial`` for the writer: a bad row stops it."""
    exc = args[-1]
    assert isinstance(exc, BaseException)
    raise exc


def _write_match(conn: sqlite3.Connection, match: _Pending) -> None:
    """``match``'s waiting writes, inside the caller's transaction."""
    if match.id is None:
        assert match.values is not None
        match.id = conn.execute(
            "INSERT INTO matches (started, columns, rows, backend, p1_name, p1_level, p1_seconds, p1_colour, "
            "p2_name, p2_level, p2_seconds, p2_colour, starts, wins, owner, p1_remote, p2_remote) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match.values).lastrowid
    for number, (starter, moves, result, winner, cells, started, ended) in sorted(match.rounds.items()):
        if not conn.execute("UPDATE rounds SET moves = ?, result = ?, winner = ?, winning_cells = ?, ended = ? "
                            "WHERE match_id = ? AND number = ?",
                            (moves, result, winner, cells, ended, match.id, number)).rowcount:
            conn.execute("INSERT INTO rounds (match_id, number, starter, moves, result, winner, winning_cells, "
                         "started, ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (match.id, number, starter, moves, result, winner, cells, started, ended))
    if match.end is not None:
        assert match.id is not None
        _write_end(conn, match.id, match.end)


def _write_end(conn: sqlite3.Connection, ident: int, end: Tuple[str, Optional[int], Optional[str]]) -> None:
    """Match ``ident`` ends as ``end`` says, a round still in play as abandoned (an ``ended`` of
    ``None`` is its last move's time, else its start's)."""
    status, winner, ended = end
    conn.execute("UPDATE rounds SET result = 'abandoned' WHERE match_id = ? AND result = 'playing'", (ident,))
    conn.execute("UPDATE matches SET status = ?, winner = ?, owner = NULL, pid = NULL, ended = COALESCE(?, "
                 "(SELECT MAX(ended) FROM rounds WHERE match_id = matches.id), started) WHERE id = ?",
                 (status, winner, ended, ident))


class _closing:
    """``contextlib.closing`` for a connection (typed)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def check_file(conn: sqlite3.Connection) -> None:
    """What the writer checks once per process before it writes into a file of ours: its whole
    structure (:func:`integrity`) and the rows of its last :data:`CHECKED_MATCHES` matches
    (:mod:`.stored`), where writes land; :class:`Damaged` or :class:`BadRow` if anything is wrong.

    An older row damaged in a file whose structure is sound is left to the readers, which skip
    it with one line each time: writing new rows cannot spread it, and setting the file aside
    for it would hide every good match from ``history``.
    """
    integrity(conn)

    def skip(exc: BadRow) -> None:
        raise exc

    def partial(table: str, exc: BaseException) -> None:
        raise exc

    if conn.execute("PRAGMA user_version").fetchone()[0] <= SCHEMA_VERSION:
        _Reader(conn, skip, partial).matches(CHECKED_MATCHES)


# -- reading ------------------------------------------------------------------


class Records:
    """Read-only access to the games database.

    Rows that make no sense are skipped, each reported by one line in :attr:`notes` (as is a
    table SQLite could read only part of, or rounds that may be missing); anything that stops
    the reading raises a one-line :class:`RecordsError`.  A missing or empty file holds no
    matches (:attr:`empty` says why).
    """

    def __init__(self, path: Optional[Path] = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notes: List[str] = []
        """One line for each row skipped, or part of the file not read."""
        self.empty: Optional[str] = None
        """Why there is nothing to read (``PATH does not exist``, ``PATH is empty``), else ``None``."""
        self._conn: Optional[sqlite3.Connection] = None
        self._copy: "Optional[tempfile.TemporaryDirectory[str]]" = None
        self._reported: Set[Tuple[str, object]] = set()
        try:
            mode = os.stat(self.path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            self.empty = f"{self.path} does not exist"
            return
        except OSError as exc:  # a name too long, a directory this user may not enter, a symlink loop
            raise RecordsError(f"cannot read {self.path}: {_why(exc)}") from None
        if stat.S_ISDIR(mode):
            raise RecordsError(f"{self.path} is a directory, not a games database")
        if not stat.S_ISREG(mode):  # a FIFO would hang the open, a device holds no games
            raise RecordsError(f"{self.path} is not a regular file, not a games database")
        if not os.access(self.path, os.R_OK):  # SQLite would say only "unable to open database file"
            raise RecordsError(f"cannot read {self.path}: {os.strerror(errno.EACCES)}")
        try:
            check_header(self.path)
            conn = self._open()
            conn.execute("BEGIN")  # everything read from one snapshot, whatever a game writes meanwhile
            ours = _identify(conn)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except NotOurs as exc:
            self.close()
            raise RecordsError(f"{self.path} is not a sensehat-c4 games database: {exc}") from None
        except (sqlite3.Error, OSError, ValueError) as exc:
            self.close()
            raise RecordsError(f"cannot read {self.path}: {_why(exc)}") from None
        if not ours:
            self.close()
            self.empty = f"{self.path} is empty"
        elif version > SCHEMA_VERSION:
            self.close()
            raise RecordsError(f"{self.path} was made by a newer sensehat-c4 (schema {version}); upgrade to read it")

    def _open(self) -> sqlite3.Connection:
        """Read-only, taking no space: ``mode=ro``; where SQLite cannot make its ``-shm`` file
        beside the database (a read-only directory, a full disk), a copy made elsewhere if the
        ``-wal`` holds rounds, else the file as it is (``immutable``)."""
        try:
            self._conn = _connect(self.path, busy=BUSY_SECONDS, query="mode=ro")
            self._conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return self._conn
        except sqlite3.Error as exc:
            self.close()
            if not _cannot_open(exc) or not os.access(self.path, os.R_OK):
                raise
            why = one_line(str(exc))
        wal = self.path.with_name(self.path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            try:
                self._conn = self._copied(wal)
                return self._conn
            except (OSError, sqlite3.Error) as exc:
                self.close()
                self.notes.append(f"some rounds may be missing: {wal.name} holds rounds not yet in {self.path.name}, "
                                  f"and it can be neither read here ({why}) nor copied ({one_line(str(exc))})")
        self._conn = _connect(self.path, busy=BUSY_SECONDS, query="immutable=1")
        self._conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return self._conn

    def _copied(self, wal: Path) -> sqlite3.Connection:
        """The database and its ``-wal`` copied to a temporary directory (else ``/dev/shm``), opened there."""
        places: List[Optional[str]] = [None] + (["/dev/shm"] if os.path.isdir("/dev/shm") else [])
        failure: BaseException = OSError("nowhere to copy to")
        for where in places:
            try:
                self._copy = tempfile.TemporaryDirectory(prefix="sensehat-c4-", dir=where)
                copy = Path(self._copy.name) / "games.db"
                shutil.copyfile(self.path, copy)
                shutil.copyfile(wal, copy.with_name("games.db-wal"))
                conn = _connect(copy, busy=BUSY_SECONDS, query="mode=ro")
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return conn
            except (OSError, sqlite3.Error) as exc:
                failure = exc
                self.close()
        raise failure

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> "Records":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what was wrong -----------------------------------------------------------

    def _skip(self, exc: BadRow) -> None:
        key = (exc.table, exc.ident)
        if key not in self._reported:
            self._reported.add(key)
            rounds = " (and its rounds)" if exc.table == "matches" else ""
            self.notes.append(f"skipped {one_line(str(exc))}{rounds}")

    def _partial(self, table: str, exc: BaseException) -> None:
        self.notes.append(f"{self.path} is damaged: some of its {table} cannot be read ({_why(exc)})")

    def _reader(self) -> _Reader:
        assert self._conn is not None
        return _Reader(self._conn, self._skip, self._partial)

    def _failed(self, exc: BaseException) -> RecordsError:
        return RecordsError(f"cannot read {self.path}: {_why(exc)}")

    # -- reading --------------------------------------------------------------------

    def matches(self, limit: Optional[int] = None) -> List[MatchRecord]:
        """The most recent ``limit`` matches (all if ``None``), newest first, with their rounds."""
        if self._conn is None:
            return []
        try:
            return self._reader().matches(None if limit is None or limit > MAX_ID else limit)
        except (sqlite3.Error, ValueError) as exc:
            raise self._failed(exc) from None

    def quick_check(self) -> Tuple[int, List[str]]:
        """How many matches the file holds, and what ``PRAGMA quick_check`` finds wrong in it, one line
        each (none: it is sound; a missing or empty file holds 0 and is sound).  The quick check reads
        every page but not the indexes against their tables: seconds for years of games on a Pi."""
        if self._conn is None:
            return 0, []
        try:
            found = [str(row[0]) for row in self._conn.execute("PRAGMA quick_check")]
            count = self._conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] if found == ["ok"] else 0
        except (sqlite3.Error, ValueError) as exc:
            raise self._failed(exc) from None
        if found == ["ok"]:
            return int(count), []
        return 0, [one_line(line) for text in found for line in text.splitlines() if line and not line.startswith("***")]

    def round(self, ident: str) -> Tuple[MatchRecord, RoundRecord]:
        """Round ``ident`` (its number in ``history``, or ``last``: the last one that can be shown)
        and its match (without its rounds)."""
        if self._conn is None:
            raise RecordsError(f"no games recorded yet ({self.empty})")
        if ident != "last" and not (ident.isdigit() and ident.isascii()):
            raise RecordsError(f"not a round ID: {ident!r} (use a number from 'history', or last)")
        reader = self._reader()
        try:
            if ident == "last":
                for row in reader.scan("rounds", ROUND_COLUMNS, newest_first=True):
                    try:
                        match = reader.match_of(row)
                    except BadRow as exc:
                        self._skip(exc)
                        continue
                    try:
                        return match, round_from_row(row, match)
                    except BadRow as exc:
                        self._skip(exc)
                raise RecordsError(f"no rounds recorded yet in {self.path}" if not self.notes else
                                   f"no round in {self.path} can be shown")
            digits = ident.lstrip("0") or "0"
            number = int(digits) if len(digits) <= len(str(MAX_ID)) else MAX_ID + 1   # int() takes 4,300 digits
            rows = list(reader.scan("rounds", ROUND_COLUMNS, newest_first=True, where="id = ?", args=(number,))
                        ) if number <= MAX_ID else []
            if not rows:
                raise RecordsError(f"no round {ident} in {self.path}")
            try:
                match = reader.match_of(rows[0])
                return match, round_from_row(rows[0], match)
            except BadRow as exc:
                raise RecordsError(f"round {ident} cannot be shown: {one_line(str(exc))}") from None
        except (sqlite3.Error, ValueError) as exc:
            raise self._failed(exc) from None


def load_round(path: Optional[Path], ident: str) -> Tuple[MatchRecord, RoundRecord, List[str]]:
    """Round ``ident`` (a number or ``last``) and its match, from the database at ``path``, and
    the notes of what was skipped on the way (:attr:`Records.notes`)."""
    with Records(path) as stored:
        match, rnd = stored.round(ident)
        return match, rnd, stored.notes
