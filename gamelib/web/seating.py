"""Taking a seat from the web: the PIN, the lockout and the tokens.

The game shows a PIN (four digits) on the LEDs when someone asks for a seat, and
in the terminal's status line; only someone who can see the Pi can read it.
:meth:`Seating.sit` trades the right PIN for a seat (1 or 2, of the match being
played or the next one) and a token: a random string (:mod:`secrets`) that the
phone sends with each press.  The rules:

- a wrong PIN is refused (403); :attr:`~.limits.Limits.pin_tries` wrong PINs in a row,
  from anywhere, lock seating for :attr:`~.limits.Limits.lockout_seconds` (429, even
  with the right PIN), after which there is a fresh PIN;
- every PIN seats once: a seat taken makes a fresh PIN;
- the right PIN for a seat a phone holds takes it over (the PIN proves its bearer
  can see the LEDs; the first phone's token stops working);
- a token is good for its seat until the seat is left, taken over, or emptied
  when the match ends or the game stops (:meth:`gamelib.seats.SeatTable.clear`).

Nothing here does I/O; the clock and the random source are injectable.
"""
from __future__ import annotations

import hmac
import itertools
import secrets
import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple

from ..seats import SeatTable, Sitter, check_seat
from .http import HttpError
from .limits import Limits, RateTable

PIN_DIGITS = 4
KIND = "phone"
"""What a seat taken from the web is called in the game's words."""


def new_pin() -> str:
    return f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Seating:
    """The PIN, the lockout and the tokens of one server, over the game's :class:`~gamelib.seats.SeatTable`.

    ``pin_changed`` is told each new PIN (the terminal's status line shows it).  Thread-safe.
    """

    def __init__(self, table: SeatTable, limits: Limits = Limits(), *, clock: Callable[[], float] = time.monotonic,
                 pins: Callable[[], str] = new_pin, tokens: Callable[[], str] = new_token,
                 pin_changed: Callable[[str], None] = lambda pin: None) -> None:
        self.table = table
        self.limits = limits
        self._clock = clock
        self._pins = pins
        self._tokens_source = tokens
        self._pin_changed = pin_changed
        self._lock = threading.Lock()
        self._pin = pins()
        self._wrong = 0
        self._locked_until = 0.0
        self._tokens: Dict[str, Sitter] = {}
        self._sources = itertools.count(1)
        self._presses: RateTable[int] = RateTable(limits.presses_per_second, limits.press_burst, size=4, clock=clock)
        self.wrong_total = 0
        """Wrong PINs since the server started."""

    @property
    def pin(self) -> str:
        return self._pin

    def locked_for(self) -> float:
        """Seconds until seating opens again (0: open)."""
        return max(0.0, self._locked_until - self._clock())

    def sit(self, pin: object, seat: object) -> Tuple[str, Sitter, int]:
        """The right ``pin`` gives ``seat`` to a new phone: its token, :class:`~gamelib.seats.Sitter` and
        the seat table's version with it seated (a state of an older version was sent before it sat)."""
        if not isinstance(pin, str) or len(pin) != PIN_DIGITS or not (pin.isascii() and pin.isdigit()):
            raise HttpError(400, "bad_request", f"pin must be a string of {PIN_DIGITS} digits")
        try:
            seat = check_seat(seat)
        except ValueError:
            raise HttpError(400, "bad_request", "seat must be 1 or 2") from None
        with self._lock:
            wait = self.locked_for()
            if wait > 0:
                raise HttpError(429, "locked", f"too many wrong PINs: seating is locked for {wait:.0f} s",
                                headers=(("Retry-After", str(max(1, round(wait)))),))
            if not hmac.compare_digest(pin.encode(), self._pin.encode()):
                self._wrong += 1
                self.wrong_total += 1
                if self._wrong < self.limits.pin_tries:
                    raise HttpError(403, "bad_pin", "wrong PIN: read it on the LEDs")
                self._wrong = 0
                self._locked_until = self._clock() + self.limits.lockout_seconds
                renewed = self._pin = self._pins()
                lockout = round(self.limits.lockout_seconds)
                error: Optional[HttpError] = HttpError(
                    403, "bad_pin", f"wrong PIN, {self.limits.pin_tries} in a row: seating is locked for {lockout} s",
                    headers=(("Retry-After", str(lockout)),))
            else:
                self._wrong = 0
                sitter = self.table.take(seat, f"{KIND}:{next(self._sources)}", KIND)
                version = self.table.version
                token = self._tokens_source()
                self._tokens = {t: s for t, s in self._tokens.items() if self._seated(s)}
                self._tokens[token] = sitter
                renewed = self._pin = self._pins()
                error = None
        self._pin_changed(renewed)
        if error is not None:
            raise error
        return token, sitter, version

    def _seated(self, sitter: Optional[Sitter]) -> bool:
        return sitter is not None and self.table[sitter.seat] is sitter

    def sitter(self, token: object) -> Sitter:
        """Whose ``token`` this is, if it is still good (a 403 :class:`~.http.HttpError` if not)."""
        with self._lock:
            sitter = self._tokens.get(token) if isinstance(token, str) else None
            if sitter is None or not self._seated(sitter):
                if isinstance(token, str):
                    self._tokens.pop(token, None)
                raise HttpError(403, "bad_token", "no seat goes with this token: take a seat with the PIN")
            return sitter

    def press_allowed(self, sitter: Sitter) -> bool:
        """Spend one of the seat's presses (:attr:`~.limits.Limits.presses_per_second`)."""
        with self._lock:
            return self._presses.take(sitter.seat)

    def leave(self, token: object) -> Sitter:
        """The token's phone leaves its seat (back to the players at the HAT)."""
        sitter = self.sitter(token)
        self.table.leave(sitter.seat, sitter)
        with self._lock:
            self._tokens = {t: s for t, s in self._tokens.items() if s is not sitter}
        return sitter

    def state(self) -> Dict[str, Any]:
        """For the page: each seat taken or not (and by what), whether seating is locked, and the seat
        table's version (it goes up at every change: a page that sat at version n ignores older states)."""
        version, sitters = self.table.read()
        return {"seats": [{"seat": seat, "taken": sitter is not None,
                           "kind": None if sitter is None else sitter.kind}
                          for seat, sitter in zip((1, 2), sitters)],
                "locked": self.locked_for() > 0, "version": version}
