"""What a stored match, round or day's puzzle is, and the checks that turn a database row into one.

A row is made into a :class:`MatchRecord` or :class:`RoundRecord` only from values that
make sense: the right types (SQLite lets any column hold any type, and a damaged page can
turn text into a number, a number into a blob, or text into bytes that are not UTF-8),
seats 1 and 2, a board size the game offers, colours ``#rrggbb``, names the LEDs can
show, times as the recorder writes them, and moves that replay legally on the match's
board, with a result, winner and winning cells that are the replayed board's own (a round
still ``playing`` only in a match still ``playing``: one a power cut interrupted, or in play).
Anything else raises :class:`BadRow`, whose message names the table, the row's id and
what is wrong, in one line; the readers skip that row and report it.  A day's puzzle played
(:class:`PuzzleRecord`) is checked the same way, and :func:`streak` counts the days in a row
solved on the day.
"""
from __future__ import annotations

import enum
import json
import math
import re
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Protocol, Tuple, TypeVar, get_type_hints

from gamelib.colours import RGB, from_hex, hex_colour
from gamelib.errors import ConfigError
from gamelib.names import WORD
from gamelib.players import check_name

from ..errors import C4Error
from ..i18n import _
from ..match.opponents import word as computer_word
from ..rules import FIRST_CHOICES, Board, Cell, Size, Starts
from .schema import RoundFacts



class MatchStatus(enum.Enum):
    """How a stored match stands: its ``status`` column's values."""

    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class RoundResult(enum.Enum):
    """A round's result, its ``result`` column's values: ``playing`` while it is played (each move is committed
    as it is played)."""

    PLAYING = "playing"
    WIN = "win"
    DRAW = "draw"
    ABANDONED = "abandoned"


STATUSES = tuple(status.value for status in MatchStatus)
RESULTS = tuple(result.value for result in RoundResult)
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
        super().__init__(_("{table} row {id}: {why}").format(table=table, id=ident, why=why))


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
            level = computer_word(self.level)   # a value (match-me): its word
            if self.seconds is None:
                return _("computer {level}").format(level=level)
            return _("computer {level} ({seconds:g} s)").format(level=level, seconds=self.seconds)
        name = self.name or _("player {seat}").format(seat=seat)
        return _("{name} (remote)").format(name=name) if self.remote else name

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
class _RoundKept:
    id: int
    match_id: int
    number: int
    starter: int
    moves: str
    result: RoundResult
    winner: Optional[int]
    cells: Tuple[Cell, ...]
    started: datetime
    ended: datetime
    """When it ended; for a round still ``playing``, and an ``abandoned`` one, its last move."""


@dataclass(frozen=True)
class RoundRecord(RoundFacts, _RoundKept):
    """One stored round; ``winner`` is the seat (1 or 2) that won, ``cells`` 0-based ``(column, row)``; its
    :class:`~.schema.RoundFacts` last (a file older than version 5 has none: their defaults)."""

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
    status: MatchStatus
    winner: Optional[int]
    columns: int
    rows: int
    backend: str
    sides: Tuple[Side, Side]
    rounds: Tuple[RoundRecord, ...] = field(default=())
    starts: Starts = Starts.ALTERNATE
    """Who starts each round: ``p1``, ``p2``, ``alternate`` or ``random`` (``--first``)."""
    wins: int = 2
    """Round wins that take the match."""

    @property
    def score(self) -> Tuple[int, int]:
        """Rounds won by seat 1 and seat 2."""
        wins = [r.winner for r in self.rounds if r.result is RoundResult.WIN]
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
    raise _Wrong((_("{column} {value} is not a number") if kind is int else
                  _("{column} {value} is not text")).format(column=column, value=quoted(value)))


def _choice(row: Row, column: str, allowed: Tuple[Any, ...]) -> Any:
    value = row[column]
    if type(value) not in (int, str, type(None)) or value not in allowed:
        raise _Wrong(_("{column} {value} is not one of {allowed}").format(
            column=column, value=quoted(value), allowed=", ".join(map(str, allowed))))
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
        raise _Wrong(_("{column} {value} is not a time").format(column=column, value=quoted(row[column]))) from None


def _side(row: Row, seat: int) -> Side:
    prefix = f"p{seat}_"
    colour = from_hex(row[prefix + "colour"])
    if colour is None:
        raise _Wrong(_("{prefix}colour {value} is not #rrggbb").format(
            prefix=prefix, value=quoted(row[prefix + "colour"])))
    name = _typed(row, prefix + "name", str, null=True)
    level = _typed(row, prefix + "level", str, null=True)
    seconds = row[prefix + "seconds"]
    if name is not None:
        try:
            good = check_name(name) == name
        except ConfigError:
            good = False
        if not good:
            raise _Wrong(_("{prefix}name {name} is not a player's name").format(prefix=prefix, name=quoted(name)))
    if level is not None and not WORD.fullmatch(level):
        raise _Wrong(_("{prefix}level {level} is not a level").format(prefix=prefix, level=quoted(level)))
    if seconds is not None and (type(seconds) not in (int, float) or not math.isfinite(seconds) or seconds <= 0):
        raise _Wrong(_("{prefix}seconds {seconds} is not a thinking time").format(
            prefix=prefix, seconds=quoted(seconds)))
    if level is None and seconds is not None:
        raise _Wrong(_("{prefix}seconds {seconds!r} without a level").format(prefix=prefix, seconds=seconds))
    if level is not None and name is not None:
        raise _Wrong(_("{prefix}name {name!r} and {prefix}level {level!r}: a seat is a person or the "
                       "computer").format(prefix=prefix, name=name, level=level))
    remote = _choice(row, prefix + "remote", (0, 1))
    if remote and level is not None:
        raise _Wrong(_("{prefix}remote with {prefix}level {level!r}: the computer plays at this Pi").format(
            prefix=prefix, level=level))
    return Side(colour=colour, name=name, level=level,
                seconds=None if seconds is None else float(seconds), remote=bool(remote))


def _ident(row: Row, table: str) -> int:
    ident = row["id"]
    if type(ident) is not int:  # the row id, unless the schema's page is damaged
        raise BadRow(table, quoted(ident), _("its id is not a number"))
    return ident


def match_from_row(row: Row) -> MatchRecord:
    """The match in ``row`` (with no rounds yet), or :class:`BadRow` saying what is wrong with it."""
    ident = _ident(row, "matches")
    try:
        status = MatchStatus(_choice(row, "status", STATUSES))
        winner = _choice(row, "winner", (None, 1, 2))
        if (status is MatchStatus.FINISHED) != (winner is not None):
            raise _Wrong(_("status {status} with winner {winner}").format(status=status.value, winner=winner))
        started = _time(row, "started")
        ended = None if row["ended"] is None else _time(row, "ended")
        if (status is MatchStatus.PLAYING) != (ended is None):
            raise _Wrong(_("status {status} with ended {ended}").format(status=status.value,
                                                                          ended=quoted(row["ended"])))
        columns, rows = _typed(row, "columns", int), _typed(row, "rows", int)
        try:
            Size(columns, rows)
        except ConfigError:
            raise _Wrong(_("board {columns}x{rows} is not offered").format(columns=columns, rows=rows)) from None
        backend = _typed(row, "backend", str)
        if not WORD.fullmatch(backend):
            raise _Wrong(_("backend {backend} is not a backend's name").format(backend=quoted(backend)))
        sides = (_side(row, 1), _side(row, 2))
        starts = Starts(_choice(row, "starts", FIRST_CHOICES))
        wins = _typed(row, "wins", int)
        if wins < 1:
            raise _Wrong(_("wins {wins} is not a number of round wins").format(wins=wins))
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


def _count(row: Row, column: str) -> int:
    value = _typed(row, column, int)
    if not 0 <= value <= MAX_HELPS:
        raise _Wrong(_("{column} {value} is not a count").format(column=column, value=value))
    return value


def _level(row: Row, column: str) -> Optional[str]:
    value = _typed(row, column, str, null=True)
    if value is not None and not WORD.fullmatch(value):
        raise _Wrong(_("level {level} is not a level").format(level=quoted(value)))
    return value


_CHECKS: Dict[object, Callable[[Row, str], Any]] = {int: _count, Optional[str]: _level}
"""How a round's fact is checked, by its type: a count (at most :data:`MAX_HELPS`), or a level's name or none
(the only text fact so far: another needs its own check, keyed by a type of its own)."""
_FACT_CHECKS = {name: _CHECKS[kind] for name, kind in get_type_hints(RoundFacts).items()}
"""Each of a round's facts (:class:`~.schema.RoundFacts`) and its check (a fact of another type needs its own)."""


def round_end(board: Board, starter: int) -> Tuple[RoundResult, Optional[int]]:
    """The result of the round on ``board`` started by seat ``starter`` (``playing``, ``win`` or ``draw``: the
    moves say nothing of an abandon), and the seat that won."""
    outcome = board.outcome
    if outcome is None:
        return RoundResult.PLAYING, None
    if outcome.winner is None:
        return RoundResult.DRAW, None
    return RoundResult.WIN, starter if outcome.winner == 1 else 3 - starter


def round_from_row(row: Row, match: MatchRecord) -> RoundRecord:
    """The round in ``row`` of ``match``, or :class:`BadRow`: its moves must replay legally on the
    match's board and its result, winner and winning cells be the replayed board's; a round still
    ``playing`` has a move, is unfinished, and its match is ``playing`` too."""
    ident = _ident(row, "rounds")
    try:
        number = _typed(row, "number", int)
        if number < 1:
            raise _Wrong(_("number {number} is not a round's number").format(number=number))
        starter = _choice(row, "starter", (1, 2))
        moves = _typed(row, "moves", str)
        try:
            board = Board.from_moves(moves, match.columns, match.rows)
        except ValueError as exc:
            raise _Wrong(_("moves {moves} do not replay on {columns}x{rows}: {why}").format(
                moves=quoted(moves), columns=match.columns, rows=match.rows, why=exc)) from None
        result = RoundResult(_choice(row, "result", RESULTS))
        winner = _choice(row, "winner", (None, 1, 2))
        replayed = round_end(board, starter)
        unfinished = replayed[0] is RoundResult.PLAYING
        if unfinished and result is RoundResult.ABANDONED:
            replayed = (result, None)   # an unfinished round is in play, or was abandoned
        if (result, winner) != replayed:
            if unfinished:
                said = _("result {result} and winner {winner}, but the moves end in an unfinished round")
            elif replayed[1] is None:
                said = _("result {result} and winner {winner}, but the moves end in {end}")
            else:
                said = _("result {result} and winner {winner}, but the moves end in {end} for seat {seat}")
            raise _Wrong(said.format(result=result.value, winner=winner, end=replayed[0].value, seat=replayed[1]))
        facts = RoundFacts(**{name: check(row, name) for name, check in _FACT_CHECKS.items()})
        if result is RoundResult.PLAYING and not moves and not facts.takebacks:  # a take-back may undo every move
            raise _Wrong(_("result playing without a move"))
        if result is RoundResult.PLAYING and match.status is not MatchStatus.PLAYING:
            raise _Wrong(_("result playing in a match {status}").format(status=match.status.value))
        text = _typed(row, "winning_cells", str)
        try:
            stored = json.loads(text)
        except (ValueError, RecursionError):
            stored = None
        cells = expected_cells(board)
        if stored != cells:
            raise _Wrong(_("winning_cells {text} are not the moves' {cells}").format(text=quoted(text), cells=cells))
        started, ended = _time(row, "started"), _time(row, "ended")
    except _Wrong as why:
        raise BadRow("rounds", ident, str(why)) from None
    return RoundRecord(id=ident, match_id=match.id, number=number, starter=starter, moves=moves, result=result,
                       winner=winner, cells=tuple((c - 1, r - 1) for c, r in cells), started=started, ended=ended,
                       **asdict(facts))


# -- the days' puzzles (version 4) -----------------------------------------------------------------

_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_PUZZLE_ID = re.compile(r"([1-7])-([0-9]{4})")


@dataclass(frozen=True)
class PuzzleRecord:
    """One day's puzzle as it was played: its date, its id and ``n``, the tries ended, and the local date
    it was first solved on (``None``: not solved)."""

    id: int
    day: date
    puzzle: str
    n: int
    tries: int
    solved_on: Optional[date]
    started: datetime
    ended: datetime

    @property
    def on_the_day(self) -> bool:
        """Solved on the day it is the puzzle of (what a streak counts)."""
        return self.solved_on == self.day


def parse_day(value: object) -> date:
    """A stored date (``2026-11-23``); ``ValueError`` for anything else."""
    found = _DAY.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"not a date: {quoted(value)}")
    return date(*(int(part) for part in found.groups()))


def _day(row: Row, column: str, *, null: bool = False) -> Optional[date]:
    if null and row[column] is None:
        return None
    try:
        return parse_day(row[column])
    except ValueError:
        raise _Wrong(f"{column} {quoted(row[column])} is not a date") from None


def puzzle_from_row(row: Row) -> PuzzleRecord:
    """The puzzle played in ``row``, or :class:`BadRow` saying what is wrong with it: a date, an id of
    the puzzles' form whose ``n`` is the row's, at least one try, solved on the day or later."""
    ident = _ident(row, "puzzles")
    try:
        day = _day(row, "day")
        assert day is not None
        puzzle = _typed(row, "puzzle", str)
        found = _PUZZLE_ID.fullmatch(puzzle)
        if found is None:
            raise _Wrong(f"puzzle {quoted(puzzle)} is not a puzzle's id")
        n = _typed(row, "n", int)
        if n != int(found.group(1)):
            raise _Wrong(f"n {n} is not puzzle {puzzle}'s")
        tries = _typed(row, "tries", int)
        if tries < 1:
            raise _Wrong(f"tries {tries} is not a number of tries")
        solved_on = _day(row, "solved_on", null=True)
        if solved_on is not None and solved_on < day:
            raise _Wrong(f"solved_on {solved_on} is before its day {day}")
        started, ended = _time(row, "started"), _time(row, "ended")
    except _Wrong as why:
        raise BadRow("puzzles", ident, str(why)) from None
    return PuzzleRecord(id=ident, day=day, puzzle=puzzle, n=n, tries=tries, solved_on=solved_on, started=started,
                        ended=ended)


def streak(played: Iterable[PuzzleRecord], today: date) -> int:
    """How many days in a row, up to ``today``, had their puzzle solved on the day: counted back from
    today, or from yesterday while today's is not solved yet (a streak lasts until a day passes unsolved)."""
    solved = {p.day for p in played if p.on_the_day}
    day = today if today in solved else today - timedelta(days=1)
    count = 0
    while day in solved:
        count += 1
        day -= timedelta(days=1)
    return count
