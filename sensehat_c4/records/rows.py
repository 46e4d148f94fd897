"""What a stored match or round is, and the checks that turn a database row into one.

A row is made into a :class:`MatchRecord` or :class:`RoundRecord` only from values that
make sense: the right types (SQLite lets any column hold any type, and a damaged page can
turn text into a number, a number into a blob, or text into bytes that are not UTF-8),
seats 1 and 2, a board size the game offers, colours ``#rrggbb``, names the LEDs can
show, times as the recorder writes them, and moves that replay legally on the match's
board, with a result, winner and winning cells that are the replayed board's own (a round
still ``playing`` only in a match still ``playing``: one a power cut interrupted, or in play).
Anything else raises :class:`BadRow`, whose message names the table, the row's id and
what is wrong, in one line; the readers skip that row and report it.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Tuple, TypeVar

from gamelib.colours import RGB, from_hex, hex_colour
from gamelib.errors import ConfigError
from gamelib.names import WORD
from gamelib.players import check_name

from ..errors import C4Error
from ..rules import FIRST_CHOICES, Board, Cell, Size

STATUSES = ("playing", "finished", "abandoned")
RESULTS = ("playing", "win", "draw", "abandoned")
"""A round's result: ``playing`` while it is played (each move is committed as it is played)."""
_TIME = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")
_SHOWN = 40
"""At most this many characters of a bad value are quoted in a report."""
MAX_HELPS = 10_000
"""The most hints (or take-backs) a round can keep: more is a damaged row."""


class Row(Protocol):
    """A row as ``sqlite3.Row`` gives it: each value by its column's name."""

    def __getitem__(self, column: str) -> Any: ...


class BadRow(C4Error, ValueError):
    """A stored row that does not make sense; the message is one line: table, id, and why."""

    def __init__(self, table: str, ident: object, why: str) -> None:
        self.table = table
        self.ident = ident
        self.why = why
        super().__init__(f"{table} row {ident}: {why}")


def timestamp(when: datetime) -> str:
    """``2026-11-23T14:05:09Z``: how times are stored (UTC, to the second)."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Side:
    """Who played one seat: a person (``name`` or none) or the computer (``level``, ``seconds``); a
    person at another Pi over the LAN is ``remote``."""

    colour: RGB
    name: Optional[str] = None
    level: Optional[str] = None
    seconds: Optional[float] = None
    remote: bool = False

    def label(self, seat: int) -> str:
        """``Ann``, ``player 2``, ``Bob (remote)`` or ``computer hard (1 s)``."""
        if self.level is not None:
            budget = "" if self.seconds is None else f" ({self.seconds:g} s)"
            return f"computer {self.level}{budget}"
        return (self.name or f"player {seat}") + (" (remote)" if self.remote else "")

    def columns(self, seat: int) -> Dict[str, Any]:
        """How a match's row keeps this side as seat ``seat``: its ``pN_`` columns by name."""
        prefix = f"p{seat}_"
        return {prefix + "name": self.name, prefix + "level": self.level, prefix + "seconds": self.seconds,
                prefix + "colour": hex_colour(self.colour), prefix + "remote": int(self.remote)}

    def as_json(self) -> Mapping[str, Any]:
        """How ``history --json`` and ``review --json`` describe a player."""
        return {"name": self.name, "level": self.level, "seconds": self.seconds, "colour": hex_colour(self.colour),
                "remote": self.remote}


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
    """When it ended; for a round still ``playing``, and an ``abandoned`` one, its last move."""
    level: Optional[str] = None
    """The computer's level played in this round (``None``: two people, or a file older than version 4)."""
    hints: int = 0
    """Hints shown to the person in this round."""
    takebacks: int = 0
    """Take-backs in this round (each the person's last move and the computer's reply)."""

    @property
    def helped(self) -> bool:
        """True if the person had a hint or a take-back in this round."""
        return bool(self.hints or self.takebacks)

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
    starts: str = "alternate"
    """Who starts each round: ``p1``, ``p2``, ``alternate`` or ``random`` (``--first``)."""
    wins: int = 2
    """Round wins that take the match."""

    @property
    def score(self) -> Tuple[int, int]:
        """Rounds won by seat 1 and seat 2."""
        wins = [r.winner for r in self.rounds if r.result == "win"]
        return wins.count(1), wins.count(2)

    def label(self, seat: int) -> str:
        return self.sides[seat - 1].label(seat)


# -- the checks ---------------------------------------------------------------


class _Wrong(Exception):
    """Why one value does not make sense (turned into :class:`BadRow` with the row's id)."""


def quoted(value: object) -> str:
    """``repr(value)``, cut short."""
    text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


T = TypeVar("T")


def _typed(row: Row, column: str, kind: Callable[..., T], *, null: bool = False) -> T:
    """``row[column]`` if it is exactly of type ``kind`` (``None`` too, if ``null``)."""
    value = row[column]
    if (value is None and null) or type(value) is kind:
        typed: T = value
        return typed
    raise _Wrong(f"{column} {quoted(value)} is not {'a number' if kind is int else 'text'}")


def _choice(row: Row, column: str, allowed: Tuple[Any, ...]) -> Any:
    value = row[column]
    if type(value) not in (int, str, type(None)) or value not in allowed:
        raise _Wrong(f"{column} {quoted(value)} is not one of {', '.join(map(str, allowed))}")
    return value


def parse_time(value: object) -> datetime:
    """A stored time (``2026-11-23T14:05:09Z``); ``ValueError`` for anything else."""
    found = _TIME.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"not a time: {quoted(value)}")
    year, month, day, hour, minute, second = (int(part) for part in found.groups())
    return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)


def _time(row: Row, column: str) -> datetime:
    try:
        return parse_time(row[column])
    except ValueError:
        raise _Wrong(f"{column} {quoted(row[column])} is not a time") from None


def _side(row: Row, seat: int) -> Side:
    prefix = f"p{seat}_"
    colour = from_hex(row[prefix + "colour"])
    if colour is None:
        raise _Wrong(f"{prefix}colour {quoted(row[prefix + 'colour'])} is not #rrggbb")
    name = _typed(row, prefix + "name", str, null=True)
    level = _typed(row, prefix + "level", str, null=True)
    seconds = row[prefix + "seconds"]
    if name is not None:
        try:
            good = check_name(name) == name
        except ConfigError:
            good = False
        if not good:
            raise _Wrong(f"{prefix}name {quoted(name)} is not a player's name")
    if level is not None and not WORD.fullmatch(level):
        raise _Wrong(f"{prefix}level {quoted(level)} is not a level")
    if seconds is not None and (type(seconds) not in (int, float) or not math.isfinite(seconds) or seconds <= 0):
        raise _Wrong(f"{prefix}seconds {quoted(seconds)} is not a thinking time")
    if level is None and seconds is not None:
        raise _Wrong(f"{prefix}seconds {seconds!r} without a level")
    if level is not None and name is not None:
        raise _Wrong(f"{prefix}name {name!r} and {prefix}level {level!r}: a seat is a person or the computer")
    remote = _choice(row, prefix + "remote", (0, 1))
    if remote and level is not None:
        raise _Wrong(f"{prefix}remote with {prefix}level {level!r}: the computer plays at this Pi")
    return Side(colour=colour, name=name, level=level,
                seconds=None if seconds is None else float(seconds), remote=bool(remote))


def _ident(row: Row, table: str) -> int:
    ident = row["id"]
    if type(ident) is not int:  # the row id, unless the schema's page is damaged
        raise BadRow(table, quoted(ident), "its id is not a number")
    return ident


def match_from_row(row: Row) -> MatchRecord:
    """The match in ``row`` (with no rounds yet), or :class:`BadRow` saying what is wrong with it."""
    ident = _ident(row, "matches")
    try:
        status = _choice(row, "status", STATUSES)
        winner = _choice(row, "winner", (None, 1, 2))
        if (status == "finished") != (winner is not None):
            raise _Wrong(f"status {status} with winner {winner}")
        started = _time(row, "started")
        ended = None if row["ended"] is None else _time(row, "ended")
        if (status == "playing") != (ended is None):
            raise _Wrong(f"status {status} with ended {quoted(row['ended'])}")
        columns, rows = _typed(row, "columns", int), _typed(row, "rows", int)
        try:
            Size(columns, rows)
        except ConfigError:
            raise _Wrong(f"board {columns}x{rows} is not offered") from None
        backend = _typed(row, "backend", str)
        if not WORD.fullmatch(backend):
            raise _Wrong(f"backend {quoted(backend)} is not a backend's name")
        sides = (_side(row, 1), _side(row, 2))
        starts = _choice(row, "starts", FIRST_CHOICES)
        wins = _typed(row, "wins", int)
        if wins < 1:
            raise _Wrong(f"wins {wins} is not a number of round wins")
    except _Wrong as why:
        raise BadRow("matches", ident, str(why)) from None
    return MatchRecord(id=ident, started=started, ended=ended, status=status, winner=winner, columns=columns,
                       rows=rows, backend=backend, sides=sides, starts=starts, wins=wins)


def expected_cells(board: Board) -> List[List[int]]:
    """The winning cells of ``board`` as stored: ``[[column, row], ...]``, 1-based, sorted."""
    outcome = board.outcome
    if outcome is None or outcome.winner is None:
        return []
    return [[c + 1, r + 1] for c, r in sorted(outcome.cells)]


def round_from_row(row: Row, match: MatchRecord) -> RoundRecord:
    """The round in ``row`` of ``match``, or :class:`BadRow`: its moves must replay legally on the
    match's board and its result, winner and winning cells be the replayed board's; a round still
    ``playing`` has a move, is unfinished, and its match is ``playing`` too."""
    ident = _ident(row, "rounds")
    try:
        number = _typed(row, "number", int)
        if number < 1:
            raise _Wrong(f"number {number} is not a round's number")
        starter = _choice(row, "starter", (1, 2))
        moves = _typed(row, "moves", str)
        try:
            board = Board.from_moves(moves, match.columns, match.rows)
        except ValueError as exc:
            raise _Wrong(f"moves {quoted(moves)} do not replay on {match.columns}x{match.rows}: {exc}") from None
        result = _choice(row, "result", RESULTS)
        winner = _choice(row, "winner", (None, 1, 2))
        outcome = board.outcome
        if outcome is None:
            replayed: Tuple[str, Optional[int]] = (result if result in ("playing", "abandoned") else "unfinished",
                                                   None)
        elif outcome.winner is None:
            replayed = ("draw", None)
        else:
            replayed = ("win", starter if outcome.winner == 1 else 3 - starter)
        if (result, winner) != replayed:
            end = "an unfinished round" if outcome is None else replayed[0]
            raise _Wrong(f"result {result} and winner {winner}, but the moves end in "
                         f"{end}{'' if replayed[1] is None else f' for seat {replayed[1]}'}")
        hints, takebacks = _typed(row, "hints", int), _typed(row, "takebacks", int)
        for column, value in (("hints", hints), ("takebacks", takebacks)):
            if not 0 <= value <= MAX_HELPS:
                raise _Wrong(f"{column} {value} is not a count")
        level = _typed(row, "level", str, null=True)
        if level is not None and not WORD.fullmatch(level):
            raise _Wrong(f"level {quoted(level)} is not a level")
        if result == "playing" and not moves and not takebacks:  # a take-back may undo a round's every move
            raise _Wrong("result playing without a move")
        if result == "playing" and match.status != "playing":
            raise _Wrong(f"result playing in a match {match.status}")
        text = _typed(row, "winning_cells", str)
        try:
            stored = json.loads(text)
        except (ValueError, RecursionError):
            stored = None
        cells = expected_cells(board)
        if stored != cells:
            raise _Wrong(f"winning_cells {quoted(text)} are not the moves' {cells}")
        started, ended = _time(row, "started"), _time(row, "ended")
    except _Wrong as why:
        raise BadRow("rounds", ident, str(why)) from None
    return RoundRecord(id=ident, match_id=match.id, number=number, starter=starter, moves=moves, result=result,
                       winner=winner, cells=tuple((c - 1, r - 1) for c, r in cells), started=started, ended=ended,
                       level=level, hints=hints, takebacks=takebacks)
