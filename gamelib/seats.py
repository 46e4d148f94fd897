"""Who sits in a game's seats besides the players at the HAT: the seat table of a backend.

A phone (or later another Pi) that takes seat 1 or 2 is a second joystick: its
presses reach the game as events of the backend with their own ``source``
(:meth:`gamelib.backends.stick.Stick.inject`), and this table says which seat
that source plays.  A game reads it when a match starts and follows its changes
(Connect 4 puts a :class:`~sensehat_c4.match.players.Person` of that source in the
seat); it :meth:`~SeatTable.clear`\\ s the table when the match ends, since a seat is
taken for one match.  Nothing here knows how seats are given (a PIN, a consent
on the LEDs): the web server decides that and writes here.

Thread-safe: the server's thread takes and leaves seats while the game's thread
reads; watchers are called in the thread that made the change and must not block.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import Enum
from typing import Callable, List, Optional, Tuple

SEATS = (1, 2)


class Kind(str, Enum):
    """What plays a seat, as a game's words, the web API's seats (``kind``, docs/API.md) and the logs name
    it.  Each member is its string (``Kind.PHONE == "phone"``; ``str()``, ``format()`` and JSON give
    ``phone``), so it is said and sent as it always was."""

    STICK = "stick"
    """The stick at the Pi (or the keys of the terminal or the emulator's window)."""
    PHONE = "phone"
    """A phone's page, seated through the web view."""
    REMOTE = "remote"
    """A person at another Pi, over the LAN (the records keep it: ``pN_remote``)."""
    COMPUTER = "computer"
    PERSON = "person"
    """Presses from another source; also another Pi's kind this one does not know."""
    PLAYER = "player"
    """A player that says nothing more of itself."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

Watcher = Callable[[int, Optional["Sitter"]], None]
"""Told ``(seat, sitter)`` at every change (``None``: the seat is back with the players at the HAT)."""


@dataclass(frozen=True, eq=False)
class Sitter:
    """Someone in a seat: the source of their presses and what they are (``phone``, ``remote``).

    Compared by identity: the same phone seated again is a new sitter, so what was
    handed out for the old one (a token) no longer matches.
    """

    seat: int
    source: str
    kind: Kind = Kind.PHONE


def check_seat(seat: object) -> int:
    """``seat`` if it is the integer 1 or 2, else ``ValueError`` (``True`` and ``1.0`` are refused)."""
    if type(seat) is not int or seat not in SEATS:
        raise ValueError(f"a seat is 1 or 2 (not {seat!r})")
    return seat


class SeatTable:
    """Seat 1 and seat 2: each empty (the players at the HAT) or a :class:`Sitter`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sitters: List[Optional[Sitter]] = [None, None]
        self._watchers: Tuple[Watcher, ...] = ()
        self._version = 0

    def __getitem__(self, seat: int) -> Optional[Sitter]:
        return self._sitters[check_seat(seat) - 1]

    @property
    def version(self) -> int:
        """Goes up at every change."""
        return self._version

    def sitters(self) -> Tuple[Optional[Sitter], Optional[Sitter]]:
        """Seat 1's and seat 2's sitters, read together."""
        return self.read()[1]

    def read(self) -> Tuple[int, Tuple[Optional[Sitter], Optional[Sitter]]]:
        """The :attr:`version` and both sitters, read together."""
        with self._lock:
            return self._version, (self._sitters[0], self._sitters[1])

    def take(self, seat: int, source: str, kind: Kind = Kind.PHONE) -> Sitter:
        """``source`` plays ``seat`` from now on (whoever sat there leaves); the new :class:`Sitter`."""
        sitter = Sitter(check_seat(seat), source, kind)
        self._set(seat, sitter, None)
        return sitter

    def leave(self, seat: int, sitter: Optional[Sitter] = None) -> bool:
        """Empty ``seat`` (only if ``sitter`` still sits there, when given); True if it changed."""
        return self._set(check_seat(seat), None, sitter)

    def clear(self) -> None:
        """Every seat back to the players at the HAT (the match, or the game, ended)."""
        for seat in SEATS:
            self._set(seat, None, None)

    def _set(self, seat: int, sitter: Optional[Sitter], only: Optional[Sitter]) -> bool:
        with self._lock:
            current = self._sitters[seat - 1]
            if (only is not None and current is not only) or (current is None and sitter is None):
                return False
            self._sitters[seat - 1] = sitter
            self._version += 1
            watchers = self._watchers
        for watcher in watchers:
            watcher(seat, sitter)
        return True

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher`` at every change from now on; returns the function that stops it."""
        with self._lock:
            self._watchers = self._watchers + (watcher,)

        def stop() -> None:
            with self._lock:
                self._watchers = tuple(w for w in self._watchers if w is not watcher)

        return stop
