"""Reading the games file: :class:`Records` (for ``history``, ``stats``, ``replay``, ``review`` and
the web pages), and :class:`Reader`, the rows of one connection made into records (the writer's
checks use it too).

Each row is checked as it is read (:mod:`.rows`), a row that makes no sense is skipped and
reported in one line (:attr:`Records.notes`), and what cannot be read at all raises
:class:`~.files.RecordsError`.
"""
from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import stat
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from gamelib.app import one_line

from ..i18n import _
from .files import (BUSY_SECONDS, NotOurs, NotRecorded, RecordsError, cannot_open, check_header, connect,
                    default_path, identify, is_corrupt, side_files, side_files_usable, why)
from .migrations import ADDED, is_newer
from .rows import BadRow, MatchRecord, PuzzleRecord, RoundRecord, match_from_row, puzzle_from_row, quoted, round_from_row
from .schema import MATCHES, MAX_ID, PUZZLES, ROUNDS, Table

PUZZLES_SINCE = 4
"""The schema version that added ``puzzles``: an older file has played none."""


class Reader:
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

    def scan(self, table: Table[Any], *, newest_first: bool, where: str = "", args: Sequence[Any] = (),
             limit: Optional[int] = None) -> Iterator[sqlite3.Row]:
        """The rows of ``table`` (the columns a record is made from) by id, ``newest_first`` or oldest
        first, at most ``limit``."""
        select = table.select([self._older.get(column, column) for column in table.read])
        sql = select + (f" WHERE {where}" if where else "")
        order, other = ("DESC", "ASC") if newest_first else ("ASC", "DESC")
        read, last = 0, None
        try:
            for row in self.conn.execute(f"{sql} ORDER BY id {order}" + ("" if limit is None else f" LIMIT {limit}"),
                                         args):
                read, last = read + 1, row["id"]
                yield row
            return
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
            damage = exc
        beyond = "" if last is None else f"id {'<' if newest_first else '>'} ?"
        condition = " AND ".join(f"({c})" for c in (where, beyond) if c)
        rest: List[sqlite3.Row] = []
        try:  # from the other end, up to the damage
            for row in self.conn.execute(select + (f" WHERE {condition}" if condition else "")
                                         + f" ORDER BY id {other}", [*args, *([last] if beyond else [])]):
                rest.append(row)
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
        if read == 0 and not rest:
            raise damage
        self.cut.add(table.name)
        self.partial(table.name, damage)
        rest.reverse()
        yield from rest if limit is None else rest[:max(0, limit - read)]

    def matches(self, limit: Optional[int]) -> List[MatchRecord]:
        """The last ``limit`` matches (all if ``None``), newest first, with their rounds."""
        found: Dict[int, MatchRecord] = {}
        bad: Set[Any] = set()
        for row in self.scan(MATCHES, newest_first=True, limit=limit):
            try:
                match = match_from_row(row)
                if match.id in found or match.id in bad:
                    raise BadRow("matches", match.id, _("it is there twice (a damaged page)"))
                found[match.id] = match
            except BadRow as exc:
                bad.add(exc.ident)
                self.skip(exc)
        if not found:
            return []
        rounds: Dict[int, Dict[int, RoundRecord]] = {i: {} for i in found}
        seen: Set[Any] = set()
        lowest = min(i for i in found.keys() | bad if type(i) is int)
        for row in self.scan(ROUNDS, newest_first=False,
                             where="" if limit is None else "match_id >= ?", args=() if limit is None else (lowest,)):
            match_id = row["match_id"]
            try:
                if row["id"] in seen:
                    raise BadRow("rounds", row["id"], _("it is there twice (a damaged page)"))
                seen.add(row["id"])
                if type(match_id) is not int:
                    raise BadRow("rounds", row["id"], _("match_id {id} is not a number").format(id=quoted(match_id)))
                if match_id in bad or (match_id not in found and "matches" in self.cut):
                    continue  # its match was reported
                if match_id not in found:
                    raise BadRow("rounds", row["id"], _("its match {id} is not there").format(id=match_id))
                rnd = round_from_row(row, found[match_id])
                if rnd.number in rounds[match_id]:
                    raise BadRow("rounds", rnd.id, _("match {id} has a round {number} already (rounds row {row})").format(
                        id=match_id, number=rnd.number, row=rounds[match_id][rnd.number].id))
                rounds[match_id][rnd.number] = rnd
            except BadRow as exc:
                self.skip(exc)
        return [replace(m, rounds=tuple(r for _number, r in sorted(rounds[m.id].items()))) for m in found.values()]

    def puzzles(self) -> List[PuzzleRecord]:
        """The days' puzzles played, newest day first (none in a file older than version 4)."""
        if type(self.version) is not int or self.version < PUZZLES_SINCE:
            return []
        found: Dict[Any, PuzzleRecord] = {}
        for row in self.scan(PUZZLES, newest_first=True):
            try:
                puzzle = puzzle_from_row(row)
                if puzzle.day in found:
                    raise BadRow("puzzles", puzzle.id, f"day {puzzle.day} is there twice (a damaged page)")
                found[puzzle.day] = puzzle
            except BadRow as exc:
                self.skip(exc)
        return sorted(found.values(), key=lambda p: p.day, reverse=True)

    def match(self, ident: int) -> MatchRecord:
        """Match ``ident`` with its rounds (a bad row goes to ``skip``; ``BadRow`` if it is not there)."""
        rows = list(self.scan(MATCHES, newest_first=True, where="id = ?", args=(ident,)))
        if not rows:
            raise BadRow("matches", ident, _("it is not there"))
        match = match_from_row(rows[0])
        rounds: Dict[int, RoundRecord] = {}
        for row in self.scan(ROUNDS, newest_first=False, where="match_id = ?", args=(ident,)):
            try:
                rnd = round_from_row(row, match)
                if rnd.number in rounds:
                    raise BadRow("rounds", rnd.id, _("match {id} has a round {number} already").format(
                        id=ident, number=rnd.number))
                rounds[rnd.number] = rnd
            except BadRow as exc:
                self.skip(exc)
        return replace(match, rounds=tuple(r for _number, r in sorted(rounds.items())))

    def match_of(self, row: sqlite3.Row) -> MatchRecord:
        """The match of round ``row`` (without its rounds); :class:`BadRow` if it is not there or bad."""
        match_id = row["match_id"]
        if type(match_id) is not int:
            raise BadRow("rounds", row["id"], _("match_id {id} is not a number").format(id=quoted(match_id)))
        try:
            found = list(self.scan(MATCHES, newest_first=True, where="id = ?", args=(match_id,)))
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
            raise BadRow("rounds", row["id"], _("its match {id} cannot be read ({why})").format(
                id=match_id, why=why(exc))) from None
        if not found:
            raise BadRow("rounds", row["id"], _("its match {id} is not there").format(id=match_id))
        return match_from_row(found[0])


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
            self.empty = _("{path} does not exist").format(path=self.path)
            return
        except OSError as exc:  # a name too long, a directory this user may not enter, a symlink loop
            raise self._failed(exc) from None
        if stat.S_ISDIR(mode):
            raise RecordsError(_("{path} is a directory, not a games database").format(path=self.path))
        if not stat.S_ISREG(mode):  # a FIFO would hang the open, a device holds no games
            raise RecordsError(_("{path} is not a regular file, not a games database").format(path=self.path))
        if not os.access(self.path, os.R_OK):  # SQLite would say only "unable to open database file"
            raise RecordsError(_("cannot read {path}: {why}").format(path=self.path, why=os.strerror(errno.EACCES)))
        try:
            check_header(self.path)
            conn = self._open()
            conn.execute("BEGIN")  # everything read from one snapshot, whatever a game writes meanwhile
            ours = identify(conn)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except NotOurs as exc:
            self.close()
            raise RecordsError(_("{path} is not a sensehat-c4 games database: {why}").format(
                path=self.path, why=exc)) from None
        except (sqlite3.Error, OSError, ValueError) as exc:
            self.close()
            raise self._failed(exc) from None
        if not ours:
            self.close()
            self.empty = _("{path} is empty").format(path=self.path)
        elif is_newer(version):
            self.close()
            raise RecordsError(_("{path} was made by a newer sensehat-c4 (schema {version}); upgrade to read "
                                 "it").format(path=self.path, version=version))

    def _open(self) -> sqlite3.Connection:
        """Read-only, taking no space, and leaving nothing beside the file that the game cannot use:
        ``mode=ro`` where its ``-wal`` and ``-shm`` are there (a game has it open, or left them) or
        where those SQLite would make are files its owner's game can write (:func:`~.files.side_files_usable`);
        else, and where SQLite cannot make them (a read-only directory, a full disk), a copy made
        elsewhere if the ``-wal`` holds rounds, else the file as it is (``immutable``: no lock, no file
        made; with no ``-wal``, everything is in the file)."""
        wal, shm = side_files(self.path.resolve())
        if (wal.exists() and shm.exists()) or side_files_usable(self.path):
            try:
                self._conn = connect(self.path, busy=BUSY_SECONDS, query="mode=ro")
                self._conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return self._conn
            except sqlite3.Error as exc:
                self.close()
                if not cannot_open(exc) or not os.access(self.path, os.R_OK):
                    raise
                why = one_line(str(exc))
        else:
            why = _("its owner's game could not write the files SQLite would make beside it")
        if wal.exists() and wal.stat().st_size > 0:
            try:
                self._conn = self._copied(wal)
                return self._conn
            except (OSError, sqlite3.Error) as exc:
                self.close()
                self.notes.append(_("some rounds may be missing: {wal} holds rounds not yet in {name}, and it can be "
                                    "neither read here ({why}) nor copied ({error})").format(
                    wal=wal.name, name=self.path.name, why=why, error=one_line(str(exc))))
        self._conn = connect(self.path, busy=BUSY_SECONDS, query="immutable=1")
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
                conn = connect(copy, busy=BUSY_SECONDS, query="mode=ro")
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
            self.notes.append((_("skipped {row} (and its rounds)") if exc.table == "matches" else
                               _("skipped {row}")).format(row=one_line(str(exc))))

    def _partial(self, table: str, exc: BaseException) -> None:
        self.notes.append(_("{path} is damaged: some of its {table} cannot be read ({why})").format(
            path=self.path, table=table, why=why(exc)))

    def _reader(self) -> Reader:
        assert self._conn is not None
        return Reader(self._conn, self._skip, self._partial)

    def _failed(self, exc: BaseException) -> RecordsError:
        return RecordsError(_("cannot read {path}: {why}").format(path=self.path, why=why(exc)))

    # -- reading --------------------------------------------------------------------

    def matches(self, limit: Optional[int] = None) -> List[MatchRecord]:
        """The most recent ``limit`` matches (all if ``None``), newest first, with their rounds."""
        if self._conn is None:
            return []
        try:
            return self._reader().matches(None if limit is None or limit > MAX_ID else limit)
        except (sqlite3.Error, ValueError) as exc:
            raise self._failed(exc) from None

    def puzzles(self) -> List[PuzzleRecord]:
        """The days' puzzles played, newest day first."""
        if self._conn is None:
            return []
        try:
            return self._reader().puzzles()
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
            raise NotRecorded(_("no games recorded yet ({why})").format(why=self.empty), _("no games recorded yet"))
        if ident != "last" and not (ident.isdigit() and ident.isascii()):
            raise RecordsError(_("not a round ID: {id!r} (use a number from 'history', or last)").format(id=ident))
        reader = self._reader()
        try:
            if ident == "last":
                for row in reader.scan(ROUNDS, newest_first=True):
                    try:
                        match = reader.match_of(row)
                    except BadRow as exc:
                        self._skip(exc)
                        continue
                    try:
                        return match, round_from_row(row, match)
                    except BadRow as exc:
                        self._skip(exc)
                raise (NotRecorded(_("no rounds recorded yet in {path}").format(path=self.path), _("no rounds recorded yet"))
                       if not self.notes else
                       NotRecorded(_("no round in {path} can be shown").format(path=self.path), _("no round can be shown")))
            digits = ident.lstrip("0") or "0"
            number = int(digits) if len(digits) <= len(str(MAX_ID)) else MAX_ID + 1   # int() takes 4,300 digits
            rows = list(reader.scan(ROUNDS, newest_first=True, where="id = ?", args=(number,))
                        ) if number <= MAX_ID else []
            if not rows:
                raise NotRecorded(_("no round {id} in {path}").format(id=ident, path=self.path),
                                  _("no round {id}").format(id=ident))
            try:
                match = reader.match_of(rows[0])
                return match, round_from_row(rows[0], match)
            except BadRow as exc:
                raise RecordsError(_("round {id} cannot be shown: {why}").format(
                    id=ident, why=one_line(str(exc)))) from None
        except (sqlite3.Error, ValueError) as exc:
            raise self._failed(exc) from None


def load_round(path: Optional[Path], ident: str) -> Tuple[MatchRecord, RoundRecord, List[str]]:
    """Round ``ident`` (a number or ``last``) and its match, from the database at ``path``, and
    the notes of what was skipped on the way (:attr:`Records.notes`)."""
    with Records(path) as stored:
        match, rnd = stored.round(ident)
        return match, rnd, stored.notes
