"""A seat's player: where that seat's moves come from, whatever it is.

The match (:mod:`.controller`) drives every player through one protocol,
:class:`Player`, without knowing what sits behind it: at each of its seat's turns it
calls :meth:`Player.start`, then asks :meth:`Player.poll` for a move when woken, and
calls :meth:`Player.cancel` if the turn ends without one (the match is abandoned).
A player moves in one of two ways, or both:

- **by presses** (:attr:`Player.source` set): presses from that source drive the
  seat's cursor, as the stick does (left/right move it, down or middle drops, up asks
  to abandon). :class:`Person` is such a player: the stick at the HAT
  (``Person(STICK)``), a phone (``Person("phone:1", kind=Kind.PHONE)``), another Pi
  sending presses.  Their presses reach the match as events of the backend
  (:meth:`gamelib.backends.stick.Stick.inject` from another thread), each with its
  source; presses from a source that does not own the seat to move change nothing.
- **by moves** (:meth:`Player.poll` returns a column): the computer
  (:class:`~.computer.Thinker`, which searches in a thread), another Pi sending its
  moves.  While such a player has the turn and no :attr:`~Player.source`, the LEDs
  show it thinking.  A player that finds its move in another thread calls the
  backend's :meth:`~gamelib.backends.stick.Stick.wake` when it has one, so the match
  polls at once (no timer); the match also polls at each step of the thinking
  indicator.

:class:`Seats` says who plays each seat beyond the defaults (the stick, or the
computer when it plays that seat); another thread may change it while a match runs.
"""
from __future__ import annotations

import threading
from typing import Callable, List, Optional

from gamelib.backends.base import STICK
from gamelib.seats import SEATS, Kind, SeatTable, Sitter

from ..rules import Board

__all__ = ["STICK", "Kind", "Person", "Player", "Seats", "follow"]


class Player:
    """The protocol every seat's player follows; subclasses override what they use.

    ``kind`` names it for the words beside the LEDs (:class:`~gamelib.seats.Kind`: ``stick``,
    ``computer``, ``phone``, ``remote``...).  Every method is called in the match's thread and must not block.
    """

    kind: Kind = Kind.PLAYER
    source: Optional[str] = None
    """Presses from this source drive the seat's cursor on its turns (``None``: the player
    does not press; it moves by :meth:`poll`, and the LEDs show it thinking).  Read at
    every press, so it may change while a match runs."""

    @property
    def gone(self) -> bool:
        """True once the player has left the match for good (another Pi's player quit, or its link
        stayed down too long): the match is abandoned at once.  Read by the match whenever it is
        woken (a player that goes wakes the backend)."""
        return False

    def start(self, board: Board) -> None:  # an optional hook
        """The seat's turn begins on ``board`` (a copy the player may keep): start thinking."""

    def poll(self) -> Optional[int]:
        """The move (a 0-based column) once the player has one, else ``None``.  Called when the
        backend is woken and at each step of the thinking indicator; may be called again after
        it answered (the match keeps the first answer).  A column that is off the board or full
        is not played (a person's is flashed, as on the stick)."""
        return None

    def cancel(self) -> None:  # an optional hook
        """The turn ends without this player's move (the match was abandoned or left, or
        another player took the seat): stop thinking and forget the turn."""


class Person(Player):
    """Someone pressing a stick: the HAT's own (``source=STICK``), a phone's, another Pi's."""

    def __init__(self, source: str = STICK, *, kind: Optional[Kind] = None) -> None:
        self.source = source
        self.kind = Kind(kind) if kind else Kind.STICK if source == STICK else Kind.PERSON

    def __repr__(self) -> str:
        return f"Person({self.source!r}, kind={self.kind.value!r})"


class Seats:
    """Who plays seat 1 and seat 2, where it is not the default (``None``): the stick, or the
    computer in the seat the match's options give it.

    Thread-safe: another thread (a server seating a phone) may :meth:`take` or :meth:`leave`
    a seat at any time.  A match reads the table at every turn; a change to the seat whose
    turn it is restarts that turn with the new player (the old one is cancelled), and the
    backend of the match playing (:meth:`attach`) is woken so it happens at once.
    """

    def __init__(self, first: Optional[Player] = None, second: Optional[Player] = None) -> None:
        self._lock = threading.Lock()
        self._players: List[Optional[Player]] = [first, second]
        self._version = 0
        self._wake: Optional[Callable[[], None]] = None

    def __getitem__(self, seat: int) -> Optional[Player]:
        return self._players[_index(seat)]

    @property
    def version(self) -> int:
        """Goes up at every change (the match compares it)."""
        return self._version

    def take(self, seat: int, player: Optional[Player]) -> None:
        """``player`` plays ``seat`` from now on (``None``: the default again)."""
        with self._lock:
            self._players[_index(seat)] = player
            self._version += 1
            wake = self._wake
        if wake is not None:
            wake()

    def leave(self, seat: int) -> None:
        """``seat`` goes back to its default player."""
        self.take(seat, None)

    def attach(self, wake: Optional[Callable[[], None]]) -> None:
        """Call ``wake`` at every change (the playing match's backend's; ``None``: nobody)."""
        with self._lock:
            self._wake = wake


def _index(seat: int) -> int:
    if seat not in (1, 2):
        raise ValueError(f"a seat is 1 or 2 (not {seat!r})")
    return seat - 1


def follow(table: SeatTable, seats: Seats) -> Callable[[], None]:
    """Keep ``seats`` as the backend's seat table says (:attr:`gamelib.backends.base.Backend.seats`:
    a phone that took a seat through the web view): each sitter is a :class:`Person` of its
    source, from now until the returned function is called."""
    def changed(seat: int, sitter: Optional[Sitter]) -> None:
        seats.take(seat, None if sitter is None else Person(sitter.source, kind=sitter.kind))

    stop = table.watch(changed)
    for seat, sitter in zip(SEATS, table.sitters()):
        if sitter is not None:
            changed(seat, sitter)
    return stop
