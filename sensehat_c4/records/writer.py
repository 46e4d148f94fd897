"""Writing the games file: :class:`Recorder`, which the match loop calls, a move at a time.

It commits each move as it is played (WAL, ``synchronous=FULL``, so a committed move survives
kill -9 and a power cut), and never stops play: a lock another process holds makes it keep the
move for the next write; if the file is read-only, a directory, on a full disk, from a newer
version or another program's, it logs one line and records nothing more in this process; a
damaged games database is renamed ``games.db.corrupt-<time>`` and a new one started.  A match
left ``playing`` by a process that is gone (:class:`~.owner.Owner`) was interrupted:
:meth:`Recorder.interrupted` finds it for the game to resume.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

from gamelib.app import one_line

from ..i18n import _
from ..rules import Board, Starts
from .access import Reason, writable
from .files import (BUSY_SECONDS, Damaged, check_header, connect, default_path, identify, integrity, is_busy,
                    is_corrupt, reason, why)
from .migrations import is_newer, migrate
from .owner import Owner
from .reader import Reader
from .recording import NO_FACTS
from .rows import BadRow, MatchRecord, MatchStatus, RoundResult, Side, expected_cells, round_end, timestamp
from .schema import FACTS, MATCHES, PUZZLES, ROUNDS, MatchRow, RoundFacts, RoundRow

log = logging.getLogger("sensehat_c4.records")

MOVE_BUSY_SECONDS = 0.05
"""How long a write during play waits for another process's write to finish: a move's write must
not hold up the game.  Past it, what it had to write is kept and written with the next write."""
CLOSING_TRIES = 10
"""The last write tries again while another process is seen committing, at most this many times."""
LOCKED_SECONDS = 600.0
"""Writes refused by a lock for this long: the lock is taken as held for good, and recording stops."""
CHECKED_MATCHES = 100
"""The writer checks the rows of this many of the last matches when it opens a file (:func:`check_file`)."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class _End(NamedTuple):
    """How a match ends: ``status`` (``finished`` or ``abandoned``), the seat that won, and when (``None``:
    its last move's time, else its start's)."""

    status: MatchStatus
    winner: Optional[int]
    ended: Optional[str]


_ABANDONED = _End(status=MatchStatus.ABANDONED, winner=None, ended=None)
_ROUND_CHANGES = ("moves", "result", "winner", "winning_cells", "ended", *FACTS)
"""What a round's next move changes in its row (found by its match and number)."""


@dataclass
class _Pending:
    """One match's writes that are not committed yet (the match row, rounds by number, its end)."""

    row: Optional[MatchRow]
    """The match row to insert, until it is (``None`` for a match already in the file)."""
    id: Optional[int] = None
    rounds: Dict[int, RoundRow] = field(default_factory=dict)
    """Round number -> its row as the last move left it (``match_id`` set as the row is written)."""
    end: Optional[_End] = None
    """How it ends, to write."""
    decided: bool = False
    """Its end is known (written or to be written): nothing more comes for it."""

    @property
    def dirty(self) -> bool:
        return bool(self.rounds) or self.end is not None


@contextlib.contextmanager
def immediate(conn: sqlite3.Connection, busy: float) -> Iterator[sqlite3.Connection]:
    """A write transaction taken at once (``BEGIN IMMEDIATE``, waiting up to ``busy`` seconds for another
    writer), committed when the block ends, rolled back if it raises (the error goes on)."""
    conn.execute(f"PRAGMA busy_timeout = {round(busy * 1000)}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


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
        self.failed_reason: Optional[Reason] = None
        """:attr:`failed` as values, when it has a code (:func:`.files.reason`)."""
        self._conn: Optional[sqlite3.Connection] = None
        self._checked = False
        self._ready = False
        self._queue: List[_Pending] = []
        """Matches with writes not yet committed (and the current one)."""
        self._current: Optional[_Pending] = None
        self._numbered: Optional[_Pending] = None
        """The match last started or resumed (being kept, or ended): :attr:`number` is its row's."""
        self._round_started: Optional[datetime] = None
        self._locked_since: Optional[float] = None
        self._said_locked = False

    @property
    def number(self) -> Optional[int]:
        """The records' number of the match being kept, or of the last one once it ended: what ``history``
        and the games played call it (its row's ``id``).  ``None`` while its row is not written (before its
        first move; while another program holds the file's lock) and for a match that is not kept (left
        before a move, or nothing recorded: no database that works)."""
        return None if self._numbered is None else self._numbered.id

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
            if not is_busy(exc):
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
            with immediate(conn, self.move_busy):
                found = self._claim(conn)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
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
                    MATCHES.select(("id", "owner")) + " WHERE status = 'playing' ORDER BY id DESC")
                if row["owner"] != mine and not Owner.alive_text(row["owner"])]
        offered: Optional[MatchRecord] = None
        for ident in gone:
            if offered is None:
                try:
                    offered = Reader(conn, _raise, _raise).match(ident)
                except BadRow as exc:
                    log.warning(_("an interrupted match cannot be resumed: {why}; it is kept as abandoned").format(
                        why=one_line(str(exc))))
                else:
                    conn.execute("UPDATE matches SET owner = ? WHERE id = ?", (mine, ident))
                    continue
            _write_end(conn, ident, _ABANDONED)
        return offered

    def resume(self, match: MatchRecord) -> None:
        """Go on writing ``match`` (one :meth:`interrupted` gave): its next move, its end."""
        self._current = self._numbered = _Pending(None, match.id)
        self._queue.append(self._current)
        self._round_started = None

    def abandon(self, match: MatchRecord) -> None:
        """Mark ``match`` (one :meth:`interrupted` gave) abandoned, with its round in play."""
        self._queue.append(_Pending(None, match.id, end=_ABANDONED, decided=True))
        self._write()

    # -- the match loop's calls -------------------------------------------------

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None:
        """A new match (status ``playing``).  Its row is written with its first move (or its end),
        so nothing is written before a move is made."""
        row = MATCHES.row(id=None, started=timestamp(self.clock()), ended=None, status=MatchStatus.PLAYING.value, winner=None,
                          columns=columns, rows=rows, backend=backend, pid=None, starts=starts.value, wins=wins,
                          owner=str(self.owner), **sides[0].columns(1), **sides[1].columns(2))
        self._current = self._numbered = _Pending(row)
        self._queue.append(self._current)

    def start_round(self) -> None:
        """Note when the round's first move could be made."""
        self._round_started = self.clock()

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None,
               facts: RoundFacts = NO_FACTS) -> None:
        """Commit round ``number`` as ``board`` holds it after a move (``playing`` until it is won or
        drawn), or after a take-back; ``match_winner``: the seat this move won the match for, committed
        with it; ``facts``: the round's so far (:class:`~.schema.RoundFacts`), each in its column."""
        match = self._current
        if match is None:
            return
        result, winner = round_end(board, starter)
        now = timestamp(self.clock())
        started = now if self._round_started is None else timestamp(self._round_started)
        match.rounds[number] = ROUNDS.row(
            id=None, match_id=match.id, number=number, starter=starter, moves=board.notation(), result=result.value,
            winner=winner, winning_cells=json.dumps(expected_cells(board)), started=started, ended=now,
            **asdict(facts))
        if result is not RoundResult.PLAYING:
            self._round_started = None
        if match_winner is not None:
            match.end, match.decided = _End(status=MatchStatus.FINISHED, winner=match_winner, ended=now), True
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
            match.end = _End(status=MatchStatus.ABANDONED if winner is None else MatchStatus.FINISHED, winner=winner,
                             ended=timestamp(self.clock()))
            match.decided = True
        self._write()

    def puzzle_tried(self, day: date, puzzle: str, n: int, *, solved: bool, today: date) -> bool:
        """Commit a try of ``day``'s puzzle (id ``puzzle``, of ``n``) that has just ended, ``solved`` or
        not, ``today`` by the local clock: one more try in the day's row (made at its first try), and the
        date it was first solved on (never before ``day``: a clock set back meanwhile counts it solved on
        the day, as its readers want it).  True if it is written; like every write, a failure is logged,
        never raised (a lock held past ``busy`` seconds loses this try's row only)."""
        if self.failed is not None:
            return False
        now = timestamp(self.clock())
        row = PUZZLES.row(id=None, day=day.isoformat(), puzzle=puzzle, n=n, tries=1,
                          solved_on=max(today, day).isoformat() if solved else None, started=now, ended=now)
        insert, values = PUZZLES.insert(row)
        upsert = (insert + " ON CONFLICT (day) DO UPDATE SET tries = tries + 1, "
                  "solved_on = COALESCE(solved_on, excluded.solved_on), ended = excluded.ended")
        try:
            conn = self._open(self.busy)
            with immediate(conn, self.busy):
                conn.execute(upsert, values)
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                log.warning(_("a puzzle's try was not recorded: {why} ({path})").format(
                    why=why(exc), path=one_line(str(self.path))))
            else:
                self._give_up(exc)
            return False
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)
            return False
        return True

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
            if not is_busy(exc):
                self._give_up(exc)
            else:
                self._held_up(exc)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)

    def _last_write(self) -> None:
        """The writes still waiting, with ``busy`` seconds for the lock; again while another process
        commits meanwhile (the file is busy, not stuck), up to :data:`CLOSING_TRIES` times."""
        seen = self._data_version()
        for _try in range(CLOSING_TRIES):
            try:
                self._flush(self.busy)
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
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
        try:
            with immediate(conn, busy):
                for match in work:
                    _write_match(conn, match)
        except BaseException:
            for match, ident in zip(work, ids):
                match.id = ident  # the match row was not written either
            raise
        for match in work:
            match.row, match.end = None, None
            match.rounds.clear()
        self._queue = [m for m in self._queue if m is self._current or m.dirty]
        if self._locked_since is not None:
            log.info(_("games are recorded again ({path})").format(path=self.path))
        self._locked_since = None

    def _held_up(self, exc: BaseException) -> None:
        """Another process holds the lock: keep the writes for the next one, unless it has been
        held for ``give_up`` seconds (then it is taken as held for good)."""
        now = time.monotonic()
        if self._locked_since is None:
            self._locked_since = now
        elif now - self._locked_since >= self.give_up:
            self._give_up(exc, _("for {seconds:.0f} s; {rows} rows not written").format(
                seconds=now - self._locked_since, rows=self.pending))
            return
        if not self._said_locked:
            self._said_locked = True
            log.warning(_("games wait to be recorded: {why}; the moves are kept and written when it is free "
                          "({path})").format(why=why(exc), path=self.path))

    def _give_up(self, exc: BaseException, detail: str = "") -> None:
        self.failed, self.failed_reason = why(exc), reason(exc)
        self._queue, self._current = [], None
        self.close()
        path = one_line(str(self.path))
        log.warning((_("games are not being recorded: {why} ({detail}) ({path})") if detail else
                     _("games are not being recorded: {why} ({path})")).format(why=self.failed, detail=detail,
                                                                               path=path))

    def _open(self, busy: float) -> sqlite3.Connection:
        if self._conn is not None and self._ready:
            return self._conn
        real = writable(self.path)  # a symlink followed; its folders made (a named one's were checked before)
        try:
            return self._prepare(real, busy)
        except (sqlite3.DatabaseError, Damaged, BadRow, UnicodeDecodeError) as exc:
            if not is_corrupt(exc):
                raise
            self._drop_connection()
            aside = self._set_aside(real)
            log.warning(_("the games database was damaged ({why}): kept as {aside}, starting a new one").format(
                why=why(exc), aside=one_line(aside.name)))
            return self._prepare(real, busy)

    def _prepare(self, real: Path, busy: float) -> sqlite3.Connection:
        """Open ``real`` for writing: ours (or empty), checked whole (once), in WAL mode, migrated.
        A lock another process holds (``SQLITE_BUSY``) leaves what is done done, for the next try."""
        if self._conn is None:
            if not self._checked and real.exists():  # looked at read-only first: another program's file is never written
                check_header(real)
                with contextlib.closing(connect(real, busy=busy, query="mode=ro")) as look:
                    look.execute("BEGIN")  # one snapshot: another process may write meanwhile
                    if identify(look):
                        check_file(look)
            self._checked = True
            self._conn = connect(real, busy=busy)
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {round(busy * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        migrate(conn)
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
        assert match.row is not None
        match.id = conn.execute(*MATCHES.insert(match.row)).lastrowid
        assert match.id is not None
    for _number, waiting in sorted(match.rounds.items()):
        rnd = replace(waiting, match_id=match.id)
        if not conn.execute(*ROUNDS.update(rnd, _ROUND_CHANGES, key=("match_id", "number"))).rowcount:
            conn.execute(*ROUNDS.insert(rnd))
    if match.end is not None:
        _write_end(conn, match.id, match.end)


def _write_end(conn: sqlite3.Connection, ident: int, end: _End) -> None:
    """Match ``ident`` ends as ``end`` says, a round still in play as abandoned (an ``ended`` of
    ``None`` is its last move's time, else its start's)."""
    conn.execute("UPDATE rounds SET result = 'abandoned' WHERE match_id = ? AND result = 'playing'", (ident,))
    conn.execute("UPDATE matches SET status = ?, winner = ?, owner = NULL, pid = NULL, ended = COALESCE(?, "
                 "(SELECT MAX(ended) FROM rounds WHERE match_id = matches.id), started) WHERE id = ?",
                 (end.status.value, end.winner, end.ended, ident))


def check_file(conn: sqlite3.Connection) -> None:
    """What the writer checks once per process before it writes into a file of ours: its whole
    structure (:func:`integrity`) and the rows of its last :data:`CHECKED_MATCHES` matches
    (:mod:`.rows`), where writes land; :class:`Damaged` or :class:`BadRow` if anything is wrong.

    An older row damaged in a file whose structure is sound is left to the readers, which skip
    it with one line each time: writing new rows cannot spread it, and setting the file aside
    for it would hide every good match from ``history``.
    """
    integrity(conn)

    def skip(exc: BadRow) -> None:
        raise exc

    def partial(table: str, exc: BaseException) -> None:
        raise exc

    if not is_newer(conn.execute("PRAGMA user_version").fetchone()[0]):
        Reader(conn, skip, partial).matches(CHECKED_MATCHES)
