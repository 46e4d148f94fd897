"""Taking a seat from the web: the PINs, the queue for them, and the tokens.

A device that wants a seat asks for a PIN (four digits); the LEDs scroll it, and only
someone who can see the Pi reads it.  :meth:`Seating.sit` trades the right PIN for a
seat (1 or 2, of the match being played or the next one) and a token: a random string
(:mod:`secrets`) that the phone sends with each press.  The rules:

- a PIN is made for the address that asked for it, when its scroll begins, and only
  that address may use it (for :attr:`~.limits.Limits.pin_seconds`): nobody else's
  wrong guesses can spend it, and guesses from an address that was shown no PIN are
  refused unchecked (403 ``no_pin``);
- :attr:`~.limits.Limits.pin_tries` wrong guesses void it (403 ``bad_pin``; then ask
  again): nothing is ever locked for everyone;
- the scrolls wait their turn: one address waits once at most, in the order they asked,
  and a scroll begins at most once every :attr:`~.limits.Limits.pin_show_seconds`
  (:meth:`Seating.ask`, :meth:`Seating.next_pin`).  So a device that asks is shown its
  PIN after at most one scroll per address that asked before it, however many wrong
  PINs anyone sends; the network hides the game for one scroll in that time at most;
  and a guesser gets at most ``pin_tries`` guesses per ``pin_show_seconds`` (docs/API.md
  gives the expected time to guess);
- every PIN seats once;
- the pairing PIN (:meth:`Seating.pair`: the person at the Pi held the stick's middle, the LEDs
  show it at once, ahead of any queue) has eight digits (read in two groups of four: :func:`grouped`),
  is good from any address for
  :attr:`~.limits.Limits.pair_seconds`, and takes one guess per address (a wrong one spends
  only that address's: 403 ``bad_pin``, then ``tried``); the first right one seats and
  spends it.  Nothing caps the guesses of all addresses together, so nothing anyone on the
  network does keeps the person at the Pi from seating a phone; an attacker holding A
  addresses guesses it with a chance of A in 10^8 (docs/API.md);
- the right PIN for a seat a phone holds takes it over (the PIN proves its bearer
  can see the LEDs; the first phone's token stops working);
- a token is good for its seat until the seat is left, taken over, or emptied
  when the match ends or the game stops (:meth:`gamelib.seats.SeatTable.clear`);
  while it is, its address is trusted (:meth:`Seating.trusts`: the web server never
  lets strangers' connections crowd it out).

Nothing here does I/O; the clock and the random source are injectable.
"""
from __future__ import annotations

import hmac
import itertools
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Set, Tuple

from ..backends.base import PAIR_HOLD
from ..i18n import N_, _, ngettext
from ..jsonvalue import JSONObject
from ..seats import Kind, SeatTable, Sitter, check_seat
from .http import HttpError
from .limits import Limits, RateTable

PIN_DIGITS = 4
PAIR_DIGITS = 8
"""A pairing PIN's digits (any address may guess it, once each: 10^8 of them).  A ``pin`` of this many
digits is a try at the pairing PIN, of :data:`PIN_DIGITS` at a device's PIN, of any other length refused."""
GROUP = 4
"""Digits in a group as a PIN is shown to people (:func:`grouped`)."""
HOLD = N_("hold the middle of the stick at the Pi for {seconds:g} seconds: the LEDs show a PIN for any phone")
HOLD_ADVICE = HOLD.format(seconds=PAIR_HOLD)
"""What to do when the queue for PINs is long or full (the page says it too, in its words), in English."""
KIND = Kind.PHONE
"""What a seat taken from the web is called in the game's words."""
SHOWN = 64
"""PINs kept at most (one per address; the oldest go first: with a scroll at most every
``pin_show_seconds``, a PIN is long gone before 64 newer ones are made)."""


def new_pin(digits: int = PIN_DIGITS) -> str:
    return f"{secrets.randbelow(10 ** digits):0{digits}d}"


def new_pairing_pin() -> str:
    return new_pin(PAIR_DIGITS)


def grouped(pin: str) -> str:
    """``pin`` as the LEDs and the terminal show it: in groups of :data:`GROUP` digits (``1234 5678``; a
    device's PIN is one group)."""
    return " ".join(pin[k:k + GROUP] for k in range(0, len(pin), GROUP))


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class _Shown:
    """A PIN shown for one address: good until ``until`` (the clock's), and the wrong guesses at it."""

    pin: str
    until: float
    wrong: int = 0


@dataclass
class _Pairing:
    """The pairing PIN: good until ``until`` from any address, and the addresses that have had their guess."""

    pin: str
    until: float
    tried: Set[str] = field(default_factory=set)


class Seating:
    """The PINs, their queue and the tokens of one server, over the game's :class:`~gamelib.seats.SeatTable`.

    ``pin_changed`` is told each new PIN (the pairing PIN too), and ``None`` when the last one shown is
    used or void (the terminal's status line shows it).  Thread-safe.
    """

    def __init__(self, table: SeatTable, limits: Limits = Limits(), *, clock: Callable[[], float] = time.monotonic,
                 pins: Callable[[], str] = new_pin, pairing_pins: Callable[[], str] = new_pairing_pin,
                 tokens: Callable[[], str] = new_token,
                 pin_changed: Callable[[Optional[str]], None] = lambda pin: None) -> None:
        self.table = table
        self.limits = limits
        self._clock = clock
        self._pins = pins
        self._pairing_pins = pairing_pins
        self._tokens_source = tokens
        self._pin_changed = pin_changed
        self._lock = threading.Lock()
        self._shown: "OrderedDict[str, _Shown]" = OrderedDict()
        """Address -> the PIN shown for it."""
        self._waiting: "OrderedDict[str, None]" = OrderedDict()
        """Addresses waiting for their PIN's scroll, in the order they asked."""
        self._next = -float("inf")
        """When the next scroll may begin."""
        self._newest: Optional[Tuple[Optional[str], str]] = None
        """The address (``None``: the pairing PIN) and PIN of the last scroll."""
        self._pairing: Optional[_Pairing] = None
        self._tokens: Dict[str, Tuple[Sitter, str]] = {}
        """Token -> its sitter and the address it was given to."""
        self._sources = itertools.count(1)
        self._presses: RateTable[int] = RateTable(limits.presses_per_second, limits.press_burst, size=4, clock=clock)
        self.wrong_total = 0
        """Wrong PINs since the server started."""

    @property
    def pin(self) -> Optional[str]:
        """The PIN of the last scroll (the pairing PIN's too) while it is good (``None``: none is): what the
        terminal shows."""
        with self._lock:
            if self._newest is None:
                return None
            address, pin = self._newest
            shown = self._pairing if address is None else self._shown.get(address)
            good = shown is not None and shown.pin == pin and shown.until > self._clock()
            return pin if good else None

    @property
    def pairing(self) -> Optional[str]:
        """The pairing PIN, while it is good."""
        with self._lock:
            pairing = self._pairing
            return pairing.pin if pairing is not None and pairing.until > self._clock() else None

    def pin_for(self, address: str) -> Optional[str]:
        """The PIN shown for ``address``, while it is good."""
        with self._lock:
            shown = self._shown.get(address)
            return shown.pin if shown is not None and shown.until > self._clock() else None

    # -- the queue for the LEDs ---------------------------------------------------------

    def ask(self, address: str) -> float:
        """``address`` wants a PIN: it waits its turn (once, however often it asks).  Seconds until its
        scroll may begin (0: now; :meth:`next_pin` then gives it); a 503 :class:`~.http.HttpError` if
        :attr:`~.limits.Limits.pin_queue` addresses wait already."""
        with self._lock:
            if address not in self._waiting:
                if len(self._waiting) >= self.limits.pin_queue:
                    raise HttpError(503, "busy", _("too many devices are waiting for a PIN: try again later, or "
                                                   "{advice}").format(advice=_(HOLD).format(seconds=PAIR_HOLD)),
                                    headers=(("Retry-After", str(round(self.limits.pin_show_seconds))),))
                self._waiting[address] = None
            ahead = list(self._waiting).index(address)
            return max(0.0, self._next - self._clock()) + ahead * self.limits.pin_show_seconds

    def due(self) -> Optional[float]:
        """Seconds until :meth:`next_pin` gives the next scroll (``None``: nobody waits)."""
        with self._lock:
            return max(0.0, self._next - self._clock()) if self._waiting else None

    def next_pin(self) -> Optional[Tuple[str, str]]:
        """The address whose turn it is and its fresh PIN (replacing any it had), if a scroll may begin
        now; ``None`` if nobody waits or it is too soon.  The caller scrolls it on the LEDs."""
        with self._lock:
            now = self._clock()
            if not self._waiting or now < self._next:
                return None
            address, _ = self._waiting.popitem(last=False)
            self._next = now + self.limits.pin_show_seconds
            pin = self._pins()
            self._shown.pop(address, None)
            self._shown[address] = _Shown(pin, now + self.limits.pin_seconds)
            while len(self._shown) > SHOWN:
                self._shown.popitem(last=False)
            self._newest = (address, pin)
        self._pin_changed(pin)
        return address, pin

    # -- the pairing PIN ------------------------------------------------------------------

    def pair(self) -> str:
        """A fresh pairing PIN (replacing any), good from any address for :attr:`~.limits.Limits.pair_seconds`,
        one guess per address.  The caller shows it on the LEDs at once (the person at the Pi asked)."""
        with self._lock:
            pin = self._pairing_pins()
            self._pairing = _Pairing(pin, self._clock() + self.limits.pair_seconds)
            self._newest = (None, pin)
        self._pin_changed(pin)
        return pin

    def expire(self) -> None:
        """Forget the pairing PIN if it is void (and the addresses that tried it: they cost memory)."""
        with self._lock:
            if self._pairing is not None and self._pairing.until <= self._clock():
                self._pairing = None

    def void(self) -> None:
        """Forget every PIN (shown, waiting for its scroll, the pairing PIN): a game over the LAN began, and
        no phone takes a seat meanwhile."""
        with self._lock:
            told = self._newest is not None
            self._shown.clear()
            self._waiting.clear()
            self._pairing = None
            self._newest = None
        if told:
            self._pin_changed(None)

    # -- seats ----------------------------------------------------------------------------

    def sit(self, pin: object, seat: object, address: str) -> Tuple[str, Sitter, int]:
        """The right ``pin`` gives ``seat`` to a new phone: a device's PIN from the ``address`` it was shown
        for, or the pairing PIN from any address at its first guess.  The phone's token,
        :class:`~gamelib.seats.Sitter` and the seat table's version with it seated (a state of an older
        version was sent before it sat)."""
        if not isinstance(pin, str) or len(pin) not in (PIN_DIGITS, PAIR_DIGITS) or \
                not (pin.isascii() and pin.isdigit()):
            raise HttpError(400, "bad_request", _("pin must be a string of {digits} digits (this device's PIN) "
                                                  "or {pairing} (the pairing PIN)").format(digits=PIN_DIGITS,
                                                                                           pairing=PAIR_DIGITS))
        try:
            seat = check_seat(seat)
        except ValueError:
            raise HttpError(400, "bad_request", _("seat must be 1 or 2")) from None
        with self._lock:
            if len(pin) == PAIR_DIGITS:
                self._spend_pairing(pin, address)
                error, spent = None, None
            else:
                error = self._check_shown(pin, address)
                spent = address
            if error is None:
                sitter = self.table.take(seat, f"{KIND}:{next(self._sources)}", KIND)
                version = self.table.version
                token = self._tokens_source()
                self._tokens = {t: held for t, held in self._tokens.items() if self._seated(held[0])}
                self._tokens[token] = (sitter, address)
            cleared = self._newest is not None and self._newest[0] == spent   # the terminal's line shows it: gone
            if cleared:
                self._newest = None
        if cleared:
            self._pin_changed(None)
        if error is not None:
            raise error
        return token, sitter, version

    def _check_shown(self, pin: str, address: str) -> Optional[HttpError]:
        """``None`` if ``pin`` is the PIN shown for ``address`` (then it is spent); the error for its last wrong
        try (it is void: raised once the terminal's line is told); else raises the 403.  Under the lock."""
        shown = self._shown.get(address)
        if shown is None or shown.until <= self._clock():
            self._shown.pop(address, None)
            raise HttpError(403, "no_pin", _("no PIN is waiting for this device: ask for one (the LEDs scroll it)"))
        if hmac.compare_digest(pin.encode(), shown.pin.encode()):
            del self._shown[address]
            return None
        shown.wrong += 1
        self.wrong_total += 1
        left = self.limits.pin_tries - shown.wrong
        if left > 0:
            raise HttpError(403, "bad_pin", ngettext("wrong PIN: read it on the LEDs ({n} try left)",
                                                     "wrong PIN: read it on the LEDs ({n} tries left)", left).format(n=left),
                            details={"tries_left": left})
        del self._shown[address]
        return HttpError(403, "bad_pin", _("wrong PIN {n} times: ask for a new one").format(n=self.limits.pin_tries),
                         details={"tries_left": 0})

    def _spend_pairing(self, pin: str, address: str) -> None:
        """Spend the pairing PIN if ``pin`` is it and ``address`` has not had its try yet; else raise the 403
        (a wrong ``pin`` spends that address's try).  Under the lock."""
        pairing = self._pairing
        if pairing is None or pairing.until <= self._clock():
            self._pairing = None
            raise HttpError(403, "no_pin", _("no pairing PIN is up: {advice}").format(
                advice=_(HOLD).format(seconds=PAIR_HOLD)))
        if address in pairing.tried:
            raise HttpError(403, "tried", _("this device has had its one try at this pairing PIN: "
                                            "hold the middle of the stick at the Pi again for a new one"))
        pairing.tried.add(address)
        if hmac.compare_digest(pin.encode(), pairing.pin.encode()):
            self._pairing = None
            return
        self.wrong_total += 1
        raise HttpError(403, "bad_pin", _("wrong pairing PIN (one try per device): read it on the LEDs, "
                                          "or hold the middle of the stick at the Pi again for a new one"),
                        details={"tries_left": 0})

    def _seated(self, sitter: Optional[Sitter]) -> bool:
        return sitter is not None and self.table[sitter.seat] is sitter

    def sitter(self, token: object) -> Sitter:
        """Whose ``token`` this is, if it is still good (a 403 :class:`~.http.HttpError` if not)."""
        with self._lock:
            held = self._tokens.get(token) if isinstance(token, str) else None
            if held is None or not self._seated(held[0]):
                if isinstance(token, str):
                    self._tokens.pop(token, None)
                raise HttpError(403, "bad_token", _("no seat goes with this token: take a seat with the PIN"))
            return held[0]

    def trusts(self, address: str) -> bool:
        """True while a phone at ``address`` holds a seat."""
        with self._lock:
            return any(where == address and self._seated(sitter) for sitter, where in self._tokens.values())

    def press_allowed(self, sitter: Sitter) -> bool:
        """Spend one of the seat's presses (:attr:`~.limits.Limits.presses_per_second`)."""
        with self._lock:
            return self._presses.take(sitter.seat)

    def leave(self, token: object) -> Sitter:
        """The token's phone leaves its seat (back to the players at the HAT)."""
        sitter = self.sitter(token)
        self.table.leave(sitter.seat, sitter)
        with self._lock:
            self._tokens = {t: held for t, held in self._tokens.items() if held[0] is not sitter}
        return sitter

    def state(self) -> JSONObject:
        """For the page: each seat taken or not (and by what), and the seat table's version (it goes up
        at every change: a page that sat at version n ignores older states)."""
        version, sitters = self.table.read()
        return {"seats": [{"seat": seat, "taken": sitter is not None,
                           "kind": None if sitter is None else sitter.kind}
                          for seat, sitter in zip((1, 2), sitters)],
                "version": version}
