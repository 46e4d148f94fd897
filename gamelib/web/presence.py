"""Whether a seated phone still has its page open, and what its turn does when it has not.

A seated phone's page keeps the event stream open with its seat's token
(``GET /api/events?token=...``, docs/API.md).  When it is the turn of a seat a phone
holds (the game's words say ``turn``) and no stream with that phone's token has been
open for :attr:`~.limits.Limits.phone_gone_seconds`, the phone is *away*: the game
waits for it (:meth:`Waiting.away`: the LEDs show a phone blinking in the seat's
colour, and the words, and so the terminal's line, say the game waits for that phone)
until its page comes back, the stick at the HAT takes the seat back (middle or down),
or :attr:`~.limits.Limits.phone_away_seconds` more pass: then the seat goes back to the
stick at the HAT (:meth:`gamelib.seats.SeatTable.leave`) and the game goes on.

Everything here runs in the server's event loop: :meth:`Presence.update` is called when
a stream opens or closes, when the game says something, when the seats change, and at
the deadlines it sets itself.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional, Protocol, Tuple

from ..i18n import _
from ..seats import Sitter
from .feed import Feed
from .limits import Limits
from .seating import KIND, Seating

log = logging.getLogger("gamelib.web")


class Waiting(Protocol):
    """What :class:`Presence` needs from the game's side (the server's :class:`~.api.Console`)."""

    def away(self, seat: int, seconds: float, take_back: Callable[[], None]) -> None:
        """Say on the LEDs, in words, that the game waits for ``seat``'s phone (its page is closed), for
        ``seconds`` at most; ``take_back`` (callable from any thread) gives the seat to the stick now."""

    def here(self) -> None:
        """The wait of :meth:`away` is over."""


class Presence:
    """Watches the seated phones' streams on their turns (see the module)."""

    def __init__(self, console: Waiting, feed: Feed, seating: Seating, limits: Limits = Limits(), *,
                 clock: Callable[[], float], later: Callable[[float, Callable[[], None]], Any]) -> None:
        self.console = console
        self.feed = feed
        self.seating = seating
        self.limits = limits
        self._clock = clock
        self._later = later
        self._missing: Optional[Tuple[Sitter, float]] = None
        """The phone whose turn it is with no stream open, and since when."""
        self.away: Optional[Sitter] = None
        """The phone the game waits for now."""
        self._timer: Any = None
        feed.watching = self.update

    def update(self) -> None:
        """Look again: whose turn it is, whether that phone's page is open, what is due."""
        sitter = self._to_move()
        if sitter is None or any(watcher.sitter is sitter for watcher in self.feed.watchers):
            self._missing = None
            self._cancel()
            self._back()
            return
        now = self._clock()
        if self._missing is None or self._missing[0] is not sitter:
            self._back()
            self._missing = (sitter, now)
        gone_at = self._missing[1] + self.limits.phone_gone_seconds
        leave_at = gone_at + self.limits.phone_away_seconds
        if now >= leave_at:
            log.info(_("the phone in seat {seat} closed its page on its turn {seconds:.0f} s ago: the seat is back "
                       "with the stick").format(seat=sitter.seat, seconds=now - self._missing[1]))
            self._missing = None
            self._cancel()
            self._back()
            self.seating.table.leave(sitter.seat, sitter)
            return
        if now >= gone_at and self.away is None:
            def take_back() -> None:   # the stick at the HAT (middle or down), in the game's thread
                self.seating.table.leave(sitter.seat, sitter)

            self.away = sitter
            self.console.away(sitter.seat, self.limits.phone_away_seconds, take_back)
        self._at(gone_at if now < gone_at else leave_at)

    def _to_move(self) -> Optional[Sitter]:
        """The phone in the seat to move (the game's words' ``turn``), if a phone holds it."""
        status = self.feed.status
        turn = None if status is None else status.turn
        if turn is None:
            return None
        sitter = self.seating.table[turn]
        return sitter if sitter is not None and sitter.kind == KIND else None

    def _back(self) -> None:
        if self.away is not None:
            self.away = None
            self.console.here()

    def _at(self, when: float) -> None:
        self._cancel()
        self._timer = self._later(max(0.0, when - self._clock()) + 0.01, self.update)

    def _cancel(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
