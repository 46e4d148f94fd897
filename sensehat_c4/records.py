"""Every round kept in SQLite: the schema, the writer the match loop calls, and the reader.

The file is ``$XDG_DATA_HOME/sensehat-c4/games.db`` (``~/.local/share/...`` when the
variable is unset), or ``$SENSEHAT_C4_DB``, or ``--db PATH``.  One table holds the
matches (who played each side, colours, board size, backend, how the match ended),
another the rounds (the moves in solver notation, who started, the result and the
winning cells, start and end times).  Seats are the match's player 1 and player 2;
``starter`` says which of them made the round's first move.

:class:`Recorder` writes.  It commits each round when it ends (WAL, ``synchronous=FULL``,
so a committed round survives kill -9 and a power cut) and never stops play: if the
file is locked, read-only, a directory, on a full disk or from a newer version, it logs
one line and records nothing more in this process; a corrupt file is renamed
``games.db.corrupt-<time>`` and a new one started.  :class:`Records` reads, for the
``history``, ``stats``, ``replay`` and ``review`` commands, and raises
:class:`RecordsError` (one line) when it cannot.

The schema's version is ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older
file up to :data:`SCHEMA_VERSION` step by step, in one transaction.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from gamelib.colours import RGB
from gamelib.files import data_home

from .errors import C4Error
from .rules import Board, Cell

log = logging.getLogger("sensehat_c4.records")

DB_ENV = "SENSEHAT_C4_DB"
"""Environment variable naming the database file (the ``--db`` option wins over it)."""
BUSY_SECONDS = 2.0
"""How long a write waits for another process's write to finish before giving up."""

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

MIGRATIONS: Sequence[str] = (_V1,)
"""``MIGRATIONS[v]`` turns a file at ``user_version`` v into v + 1 (0 is a new, empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)


class RecordsError(C4Error, OSError):
    """The records cannot be read: no file yet, not a database, unreadable, or no such round."""


def default_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$SENSEHAT_C4_DB`` if set, else ``$XDG_DATA_HOME/sensehat-c4/games.db``."""
    env = os.environ if environ is None else environ
    named = env.get(DB_ENV, "")
    return Path(named) if named else data_home(env) / "sensehat-c4" / "games.db"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def timestamp(when: datetime) -> str:
    """``2026-11-23T14:05:09Z``: how times are stored (UTC, to the second)."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def hex_colour(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def rgb_colour(text: str) -> RGB:
    value = int(text.lstrip("#"), 16)
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)


@dataclass(frozen=True)
class Side:
    """Who played one seat: a person (``name`` or none) or the computer (``level``, ``seconds``)."""

    colour: RGB
    name: Optional[str] = None
    level: Optional[str] = None
    seconds: Optional[float] = None

    def label(self, seat: int) -> str:
        """``Ann``, ``player 2`` or ``computer hard (1 s)``."""
        if self.level is not None:
            budget = "" if self.seconds is None else f" ({self.seconds:g} s)"
            return f"computer {self.level}{budget}"
        return self.name or f"player {seat}"


@dataclass(frozen=True)
class RoundRecord:
    """One stored round; ``winner`` is the seat (1 or 2) that won, ``cells`` 0-based ``(column, row)``."""

    id: int
    match_id: int
    number: int
    starter: int
    moves: str
    result: str
    winner: Optional[int]
    cells: Tuple[Cell, ...]
    started: datetime
    ended: datetime

    def seat(self, board_player: int) -> int:
        """The seat that was the board's player ``board_player`` (1 moved first) in this round."""
        return self.starter if board_player == 1 else 3 - self.starter


@dataclass(frozen=True)
class MatchRecord:
    """One stored match and its rounds (in order)."""

    id: int
    started: datetime
    ended: Optional[datetime]
    status: str
    winner: Optional[int]
    columns: int
    rows: int
    backend: str
    sides: Tuple[Side, Side]
    rounds: Tuple[RoundRecord, ...] = field(default=())

    @property
    def score(self) -> Tuple[int, int]:
        """Rounds won by seat 1 and seat 2."""
        wins = [r.winner for r in self.rounds if r.result == "win"]
        return wins.count(1), wins.count(2)

    def label(self, seat: int) -> str:
        return self.sides[seat - 1].label(seat)


# -- opening ------------------------------------------------------------------


def _connect(path: Path, *, busy: float, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        # a WAL file in a directory we cannot write (a read-only mount) opens only as immutable
        query = "?mode=ro" if os.access(path.parent, os.W_OK) else "?immutable=1"
        uri = "file:" + "/".join(_quote(part) for part in str(path.resolve()).split("/")) + query
        conn = sqlite3.connect(uri, uri=True, timeout=busy, isolation_level=None)
    else:
        conn = sqlite3.connect(str(path), timeout=busy, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def _quote(part: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-._~" else "%{:02X}".format(ord(ch)) for ch in part)


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to :data:`SCHEMA_VERSION` (``ValueError`` if a newer program made it)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ValueError(f"made by a newer sensehat-c4 (schema {version}; this one knows {SCHEMA_VERSION})")
    if version == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
    text = str(exc)
    return "not a database" in text or "malformed" in text


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, as another user
        return True
    return True


# -- writing ------------------------------------------------------------------


class Recorder:
    """Writes one process's matches; storage problems are logged once and never raised.

    The match loop calls :meth:`start_match`, then :meth:`start_round` and
    :meth:`end_round` for each round, then :meth:`end_match`.
    """

    def __init__(self, path: Optional[Path] = None, *, clock: Callable[[], datetime] = utc_now,
                 busy: float = BUSY_SECONDS) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.clock = clock
        self.busy = busy
        self.failed: Optional[str] = None
        """Why nothing more is recorded (``None`` while recording works)."""
        self._conn: Optional[sqlite3.Connection] = None
        self._pending: Optional[List[Any]] = None
        """The match row to insert with the match's first write (nothing is written before then)."""
        self._match: Optional[int] = None
        self._round_started: Optional[datetime] = None

    # -- the match loop's calls -------------------------------------------------

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str) -> None:
        """A new match (status ``playing``).  Its row is written with its first round (or its
        end), so the file is not touched before the first move can be made."""
        self._match = None
        values = [timestamp(self.clock()), columns, rows, backend]
        for side in sides:
            values += [side.name, side.level, side.seconds, hex_colour(side.colour)]
        self._pending = values + [os.getpid()]

    def _match_id(self, conn: sqlite3.Connection) -> Optional[int]:
        """The current match's row id, inserting the row first if it is still pending."""
        if self._match is None and self._pending is not None:
            cursor = conn.execute(
                "INSERT INTO matches (started, columns, rows, backend, p1_name, p1_level, p1_seconds, "
                "p1_colour, p2_name, p2_level, p2_seconds, p2_colour, pid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._pending)
            self._match, self._pending = cursor.lastrowid, None
        return self._match

    def start_round(self) -> None:
        """Note when the round's first move could be made."""
        self._round_started = self.clock()

    def end_round(self, number: int, starter: int, board: Board) -> None:
        """Commit round ``number``: ``board`` holds its moves (an unfinished board: abandoned)."""
        if self._match is None and self._pending is None:
            return
        outcome = board.outcome
        cells: List[List[int]]
        if outcome is None:
            result, winner, cells = "abandoned", None, []
        elif outcome.winner is None:
            result, winner, cells = "draw", None, []
        else:
            result = "win"
            winner = starter if outcome.winner == 1 else 3 - starter
            cells = [[c + 1, r + 1] for c, r in sorted(outcome.cells)]
        ended = self.clock()
        started = self._round_started or ended
        self._write(lambda conn: conn.execute(
            "INSERT INTO rounds (match_id, number, starter, moves, result, winner, winning_cells, started, ended) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self._match_id(conn), number, starter, board.notation(), result, winner, json.dumps(cells),
             timestamp(started), timestamp(ended))))
        self._round_started = None

    def end_match(self, winner: Optional[int]) -> None:
        """Close the match: won by seat ``winner``, or abandoned (``None``)."""
        if self._match is None and self._pending is None:
            return
        if self._match is None and winner is None:  # left before a round was kept: nothing to keep
            self._pending = None
            return
        status = "abandoned" if winner is None else "finished"
        ended = timestamp(self.clock())
        self._write(lambda conn: conn.execute(
            "UPDATE matches SET status = ?, winner = ?, ended = ?, pid = NULL WHERE id = ?",
            (status, winner, ended, self._match_id(conn))))
        self._match = self._pending = None

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None

    # -- behind the calls -------------------------------------------------------

    def _write(self, action: Callable[[sqlite3.Connection], Any]) -> None:
        if self.failed is not None:
            return
        try:
            conn = self._open()
            match, pending = self._match, self._pending
            conn.execute("BEGIN IMMEDIATE")
            try:
                action(conn)
                conn.execute("COMMIT")
            except BaseException:
                self._match, self._pending = match, pending  # the match row was not written either
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)

    def _give_up(self, exc: BaseException) -> None:
        self.failed = str(exc) or type(exc).__name__
        self._match = self._pending = None
        self.close()
        log.warning("games are not being recorded: %s (%s)", self.failed, self.path)

    def _open(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        if self.path.is_dir():
            raise OSError(f"{self.path.name} is a directory")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for place in (self.path.parent, self.path):  # WAL needs its journal files beside the database
            if place.exists() and not os.access(place, os.W_OK):
                raise OSError(f"{place} is read-only")
        try:
            conn = self._prepare()
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
            aside = self._set_aside()
            log.warning("the games database was damaged (%s): kept as %s, starting a new one", exc, aside.name)
            conn = self._prepare()
        self._conn = conn
        return conn

    def _prepare(self) -> sqlite3.Connection:
        conn = _connect(self.path, busy=self.busy)
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            _migrate(conn)
            self._close_stale(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _close_stale(self, conn: sqlite3.Connection) -> None:
        """Mark abandoned the matches left ``playing`` by a process that no longer runs (kill -9)."""
        stale = [row["id"] for row in conn.execute("SELECT id, pid FROM matches WHERE status = 'playing'")
                 if row["pid"] is None or (row["pid"] != os.getpid() and not _pid_alive(row["pid"]))]
        if not stale:
            return
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "UPDATE matches SET status = 'abandoned', pid = NULL, ended = COALESCE("
            "(SELECT MAX(ended) FROM rounds WHERE match_id = matches.id), started) WHERE id = ?",
            [(i,) for i in stale])
        conn.execute("COMMIT")

    def _set_aside(self) -> Path:
        """Rename the damaged file (and its journal files) out of the way; return the new name."""
        aside = self.path.with_name(f"{self.path.name}.corrupt-{self.clock().strftime('%Y%m%dT%H%M%S')}")
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm"):
            extra = self.path.with_name(self.path.name + suffix)
            if extra.exists():
                os.replace(extra, aside.with_name(aside.name + suffix))
        return aside


# -- reading ------------------------------------------------------------------


def _time(text: Optional[str]) -> Optional[datetime]:
    if text is None:
        return None
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _round(row: sqlite3.Row) -> RoundRecord:
    cells = tuple((c - 1, r - 1) for c, r in json.loads(row["winning_cells"]))
    return RoundRecord(row["id"], row["match_id"], row["number"], row["starter"], row["moves"], row["result"],
                       row["winner"], cells, _time(row["started"]), _time(row["ended"]))  # type: ignore[arg-type]


def _match(row: sqlite3.Row, rounds: Sequence[RoundRecord]) -> MatchRecord:
    sides = tuple(Side(rgb_colour(row[f"p{s}_colour"]), row[f"p{s}_name"], row[f"p{s}_level"],
                       row[f"p{s}_seconds"]) for s in (1, 2))
    return MatchRecord(row["id"], _time(row["started"]), _time(row["ended"]),  # type: ignore[arg-type]
                       row["status"], row["winner"], row["columns"], row["rows"], row["backend"],
                       sides, tuple(rounds))  # type: ignore[arg-type]


class Records:
    """Read-only access to the games database; every failure is a one-line :class:`RecordsError`."""

    def __init__(self, path: Optional[Path] = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        if not self.path.exists():
            raise RecordsError(f"no games recorded yet ({self.path} does not exist)")
        if self.path.is_dir():
            raise RecordsError(f"{self.path} is a directory, not a games database")
        try:
            self._conn = _connect(self.path, busy=BUSY_SECONDS, readonly=True)
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            raise RecordsError(f"cannot read {self.path}: {exc}") from None
        if version == 0:
            raise RecordsError(f"no games recorded yet ({self.path} is empty)")
        if version > SCHEMA_VERSION:
            raise RecordsError(f"{self.path} was made by a newer sensehat-c4 (schema {version}); upgrade to read it")
        if version < SCHEMA_VERSION:
            raise RecordsError(f"{self.path} has an older schema ({version}); play one round to upgrade it")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "Records":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _query(self, sql: str, args: Sequence[Any] = ()) -> List[sqlite3.Row]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise RecordsError(f"cannot read {self.path}: {exc}") from None

    def _with_rounds(self, rows: Sequence[sqlite3.Row]) -> List[MatchRecord]:
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        by_match: Dict[int, List[RoundRecord]] = {i: [] for i in ids}
        marks = ",".join("?" * len(ids))
        for r in self._query(f"SELECT * FROM rounds WHERE match_id IN ({marks}) ORDER BY match_id, number", ids):
            by_match[r["match_id"]].append(_round(r))
        return [_match(row, by_match[row["id"]]) for row in rows]

    def matches(self, limit: Optional[int] = None) -> List[MatchRecord]:
        """The most recent ``limit`` matches (all if ``None``), newest first, with their rounds."""
        sql = "SELECT * FROM matches ORDER BY id DESC"
        rows = self._query(sql + " LIMIT ?", (limit,)) if limit is not None else self._query(sql)
        return self._with_rounds(rows)

    def round(self, ident: str) -> Tuple[MatchRecord, RoundRecord]:
        """Round ``ident`` (its number in ``history``, or ``last``) and its match."""
        if ident == "last":
            rows = self._query("SELECT match_id, id FROM rounds ORDER BY id DESC LIMIT 1")
            if not rows:
                raise RecordsError(f"no rounds recorded yet in {self.path}")
        else:
            if not ident.isdigit() or not ident.isascii():
                raise RecordsError(f"not a round ID: {ident!r} (use a number from 'history', or last)")
            rows = self._query("SELECT match_id, id FROM rounds WHERE id = ?", (int(ident),))
            if not rows:
                raise RecordsError(f"no round {ident} in {self.path}")
        match = self._with_rounds(self._query("SELECT * FROM matches WHERE id = ?", (rows[0]["match_id"],)))[0]
        chosen = next(r for r in match.rounds if r.id == rows[0]["id"])
        return match, chosen


def load_round(path: Optional[Path], ident: str) -> Tuple[MatchRecord, RoundRecord]:
    """Round ``ident`` (a number or ``last``) and its match, from the database at ``path``."""
    with Records(path) as stored:
        return stored.round(ident)
