"""Helpers for tests of the games database: a ticking fake wall clock and a few recorded matches."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, List, Optional

from gamelib.colours import RED, YELLOW
from sensehat_c4.records import Owner, Recorder, RoundFacts, Side
from sensehat_c4.rules import Board, Starts

START = datetime(2026, 11, 23, 14, 0, 0, tzinfo=timezone.utc)


def ticking(start: datetime = START, step: float = 60.0) -> Callable[[], datetime]:
    """A wall clock that moves ``step`` seconds each time it is read."""
    now = [start - timedelta(seconds=step)]

    def clock() -> datetime:
        now[0] += timedelta(seconds=step)
        return now[0]

    return clock


ANN = Side(RED, name="Ann")
BOB = Side(YELLOW, name="Bob")


def record_match(recorder: Recorder, rounds: List[str], *, sides=(ANN, BOB), winner: Optional[int] = 1,
                 abandoned_moves: Optional[str] = None, columns: int = 7, rows: int = 6,
                 backend: str = "mock") -> None:
    """One match as the match loop records it: rounds alternate their starter (seat 1 first)."""
    recorder.start_match(sides, columns=columns, rows=rows, backend=backend)
    number = 0
    for number, moves in enumerate(rounds, start=1):
        recorder.start_round()
        recorder.played(number, 1 if number % 2 else 2, Board.from_moves(moves, columns, rows))
    if abandoned_moves is not None:
        number += 1
        recorder.start_round()
        recorder.played(number, 1 if number % 2 else 2, Board.from_moves(abandoned_moves, columns, rows))
    recorder.end_match(winner)


GONE = Owner("an-earlier-boot", 4242, 17)
"""A process that is gone: the game a power cut stopped (the pid may well be running now)."""


def interrupted_match(path: Path, rounds: List[str], *, sides=(ANN, BOB), columns: int = 7, rows: int = 6,
                      starts: Starts = Starts.ALTERNATE, wins: int = 2, backend: str = "mock",
                      owner: Owner = GONE) -> None:
    """A match as a game left it when the power went: each round's moves committed one by one
    (starters by ``starts``: ``alternate``, ``p1`` or ``p2``), never ended."""
    recorder = Recorder(path, clock=ticking(), owner=owner)
    recorder.start_match(sides, columns=columns, rows=rows, backend=backend, starts=starts, wins=wins)
    for number, moves in enumerate(rounds, start=1):
        starter = (1 if number % 2 else 2) if starts is Starts.ALTERNATE else int(starts.value[1])
        recorder.start_round()
        board = Board(columns, rows)
        for char in moves:
            board.play(int(char) - 1)
            recorder.played(number, starter, board)
    recorder.close()


def rows(path: Path, sql: str) -> List[tuple]:
    conn = sqlite3.connect(str(path))
    try:
        return [tuple(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def foreign(path: Path, application_id: int = 0) -> bytes:
    """Another program's SQLite file (its own table, and ``application_id`` if given); its bytes."""
    conn = sqlite3.connect(str(path))
    conn.execute(f"PRAGMA application_id = {application_id}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('milk')")
    conn.commit()
    conn.close()
    return path.read_bytes()


def many_matches(path: Path, matches: int = 40) -> bytes:
    """``path`` with ``matches`` two-round matches, its write-ahead log folded in; its bytes."""
    recorder = Recorder(path, clock=ticking())
    for _ in range(matches):
        record_match(recorder, ["1212121", "4455667"])
    recorder.close()
    rows(path, "PRAGMA wal_checkpoint(TRUNCATE)")
    return path.read_bytes()


HARD = Side(YELLOW, level="hard", seconds=1.0)


def every_kind(path: Path) -> None:
    """``path`` holding every kind of game a Pi records, read from the tables: a match against each level of the
    ladder (``RUNGS``) and one against *match me* (each round at its own level, with helps), two named people and
    two unnamed ones, a person at another Pi (the LAN), a match abandoned, a drawn round (4x4), an interrupted
    match (still ``playing``), each backend's name (``history.BACKENDS``), and the day's puzzles tried (one
    solved, one not).  A phone's seat is recorded as a person at the Pi's backend; training records nothing."""
    from datetime import date

    from sensehat_c4.engine.matchme import NAME as MATCH_ME
    from sensehat_c4.engine.rungs import RUNGS
    from sensehat_c4.study.history import BACKENDS

    backends = list(BACKENDS)
    recorder = Recorder(path, clock=ticking())
    for number, rung in enumerate(RUNGS):
        record_match(recorder, ["1212121", "12121232"], sides=(ANN, Side(YELLOW, level=rung.name, seconds=1.0)),
                     backend=backends[number % len(backends)])
    recorder.start_match((ANN, Side(YELLOW, level=MATCH_ME, seconds=1.0)), columns=7, rows=6, backend=backends[0])
    for number, (moves, level) in enumerate(zip(["1212121", "4455667", "2323232"], [rung.name for rung in RUNGS]), 1):
        recorder.start_round()
        recorder.played(number, 1 if number % 2 else 2, Board.from_moves(moves, 7, 6),
                        facts=RoundFacts(level=level, hints=number - 1, takebacks=number % 2),
                        match_winner=1 if number == 3 else None)
    record_match(recorder, ["1212121", "4455667"], sides=(ANN, BOB), backend=backends[1 % len(backends)])
    record_match(recorder, ["1212121", "4455667"], sides=(Side(RED), Side(YELLOW)), backend=backends[-1])
    record_match(recorder, ["1212121"], sides=(ANN, Side(YELLOW, name="Bob", remote=True)), winner=None,
                 abandoned_moves="4455", backend=backends[0])
    record_match(recorder, ["1234123443214321", "1212121"], sides=(ANN, BOB), columns=4, rows=4, winner=None,
                 abandoned_moves="", backend=backends[-1])
    recorder.puzzle_tried(date(2026, 11, 23), "1-0001", 1, solved=True, today=date(2026, 11, 23))
    recorder.puzzle_tried(date(2026, 11, 24), "2-0002", 2, solved=False, today=date(2026, 11, 24))
    recorder.close()
    interrupted_match(path, ["1212121", "445566"], sides=(ANN, Side(YELLOW, level=MATCH_ME, seconds=1.0)),
                      backend=backends[1 % len(backends)])
