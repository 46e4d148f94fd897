"""What a games file is: its application id, its tables, the SQL that reads and writes their rows.

Each table's columns are one list: the fields of its row's dataclass (:class:`MatchRow`,
:class:`RoundRow`, :class:`PuzzleRow`), in the table's order.  :class:`Table` builds every ``INSERT``, ``UPDATE``
and ``SELECT`` the records run from that list, and the writer and the readers name each value
by its column; a column added to a row's fields reaches them all.  The tables themselves are
made and changed by :mod:`.migrations`, step by step (their SQL is each version's history,
never rebuilt from today's columns); a test compares the tables a new file gets with these
lists.  The rows read are checked by :mod:`.rows`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, FrozenSet, Generic, Optional, Sequence, Tuple, Type, TypeVar

APPLICATION_ID = 0x43346462
"""``PRAGMA application_id`` of our files ("C4db"): set when a file is made or migrated."""
MAX_ID = 2 ** 63 - 1
"""The largest row id SQLite has: a larger ID or ``--limit`` names nothing more."""


@dataclass(frozen=True)
class MatchRow:
    """A row of ``matches``: one field a column, in the table's order (times as :func:`~.rows.timestamp`
    writes them, colours ``#rrggbb``, seats 1 and 2)."""

    id: Optional[int]
    """``None`` in a row to insert: SQLite gives the next."""
    started: str
    ended: Optional[str]
    status: str
    """``playing``, ``finished`` or ``abandoned``."""
    winner: Optional[int]
    columns: int
    rows: int
    backend: str
    p1_name: Optional[str]
    p1_level: Optional[str]
    p1_seconds: Optional[float]
    p1_colour: str
    p2_name: Optional[str]
    p2_level: Optional[str]
    p2_seconds: Optional[float]
    p2_colour: str
    pid: Optional[int]
    """Version 1's owner (a pid alone); unused."""
    starts: str
    wins: int
    owner: Optional[str]
    """The process playing the match (:class:`~.owner.Owner`), while it plays."""
    p1_remote: int
    p2_remote: int


@dataclass(frozen=True)
class RoundFacts:
    """What a round's record keeps beside its moves and result, as the match counts them: what
    :meth:`~.recording.MatchRecorder.played` is given, and the last fields of :class:`RoundRow` and
    :class:`~.rows.RoundRecord` (both are made of them).  A new fact is a field here, with the default an
    older row reads as, its column in a step of :mod:`.migrations`, and where the match counts it."""

    level: Optional[str] = None
    """The computer's level played this round (``None``: two people); a *match me* match's changes
    from round to round."""
    hints: int = 0
    """Hints the person asked for and was shown this round (helps on)."""
    takebacks: int = 0
    """Take-backs this round: each undid the person's last move and the computer's reply."""


FACTS = tuple(f.name for f in fields(RoundFacts))
"""The columns of ``rounds`` that are a round's facts (:class:`RoundFacts`), in order."""


@dataclass(frozen=True)
class _RoundKeys:
    """The first columns of ``rounds``: the round, its moves and its result."""

    id: Optional[int]
    """``None`` in a row to insert: SQLite gives the next."""
    match_id: Optional[int]
    """``None`` in a row waiting for its match's row to be inserted (the writer sets it then)."""
    number: int
    starter: int
    moves: str
    """Solver notation: a column digit (1-based) a move."""
    result: str
    """``playing``, ``win``, ``draw`` or ``abandoned``."""
    winner: Optional[int]
    winning_cells: str
    """JSON ``[[column, row], ...]``, 1-based, sorted."""
    started: str
    ended: str


@dataclass(frozen=True)
class RoundRow(RoundFacts, _RoundKeys):
    """A row of ``rounds``: one field a column, in the table's order (a dataclass's fields come from its last
    base first: :class:`_RoundKeys`', then the :class:`RoundFacts`)."""


@dataclass(frozen=True)
class PuzzleRow:
    """A row of ``puzzles`` (since version 4): one day's puzzle as its solver played it, one row a date."""

    id: Optional[int]
    """``None`` in a row to insert: SQLite gives the next."""
    day: str
    """The puzzle's date, ``YYYY-MM-DD`` (the day it is the puzzle of; one row a day)."""
    puzzle: str
    """Its id, ``3-0042`` (:attr:`~sensehat_c4.engine.puzzles.Puzzle.ident`)."""
    n: int
    """Its ``n``: the win comes with the solver's ``n``-th stone."""
    tries: int
    """Tries ended so far (by a wrong move, or by the win)."""
    solved_on: Optional[str]
    """The local date it was first solved on, ``YYYY-MM-DD`` (``None``: not solved yet); a streak counts
    the days whose puzzle was solved on that very day."""
    started: str
    """When its first try ended (:func:`~.rows.timestamp`)."""
    ended: str
    """When its last try ended."""


R = TypeVar("R", MatchRow, RoundRow, PuzzleRow)


@dataclass
class Table(Generic[R]):
    """One table: its name, its row's dataclass (whose fields are its columns), and the SQL built from them."""

    name: str
    row: Type[R]
    recorder_only: FrozenSet[str] = field(default=frozenset())
    """Columns only the recorder reads (a record is not made from them)."""

    @property
    def columns(self) -> Tuple[str, ...]:
        """Every column, in the table's order."""
        return tuple(f.name for f in fields(self.row))

    @property
    def read(self) -> Tuple[str, ...]:
        """The columns a record is made from (:mod:`.rows`): all but :attr:`recorder_only`."""
        return tuple(c for c in self.columns if c not in self.recorder_only)

    def insert(self, row: R) -> Tuple[str, Tuple[Any, ...]]:
        """``INSERT`` of ``row`` (every column) and its values."""
        names = self.columns
        return (f"INSERT INTO {self.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                tuple(getattr(row, name) for name in names))

    def update(self, row: R, changed: Sequence[str], *, key: Sequence[str]) -> Tuple[str, Tuple[Any, ...]]:
        """``UPDATE`` of the ``changed`` columns to ``row``'s values, in the row whose ``key`` columns are
        ``row``'s, and its values."""
        for name in (*changed, *key):
            self._column(name)
        return (f"UPDATE {self.name} SET {', '.join(f'{c} = ?' for c in changed)} "
                f"WHERE {' AND '.join(f'{c} = ?' for c in key)}",
                tuple(getattr(row, name) for name in (*changed, *key)))

    def select(self, columns: Optional[Sequence[str]] = None) -> str:
        """``SELECT`` of ``columns`` (each a column's name, or an expression ``... AS name`` for one an older
        file lacks; :attr:`read` if ``None``) in table order, never through an index (``NOT INDEXED``:
        a damaged page can make an index lie, never a table's own order)."""
        shown = self.read if columns is None else columns
        for column in shown:
            self._column(column.rsplit(" AS ", 1)[-1])
        return f"SELECT {', '.join(shown)} FROM {self.name} NOT INDEXED"

    def _column(self, name: str) -> None:
        if name not in self.columns:
            raise ValueError(f"{self.name} has no column {name!r}")


MATCHES = Table("matches", MatchRow, frozenset({"pid", "owner"}))
"""``matches``: ``owner`` (and ``pid`` before it) are the recorder's alone."""
ROUNDS = Table("rounds", RoundRow)
PUZZLES = Table("puzzles", PuzzleRow)
"""``puzzles``: the days' puzzles played (version 4)."""
MATCH_COLUMNS = MATCHES.read
"""The columns of ``matches`` a :class:`~.rows.MatchRecord` is made from."""
ROUND_COLUMNS = ROUNDS.read
"""The columns of ``rounds`` a :class:`~.rows.RoundRecord` is made from."""
