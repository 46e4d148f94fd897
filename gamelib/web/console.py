"""The game's side of the web server, on a backend: presses injected, the PINs and the seats on the LEDs.

Everything here is called in the server's thread and only queues work for the game's
thread (:meth:`~gamelib.backends.base.Backend.inject`, :meth:`~gamelib.backends.base.Backend.interlude`,
:meth:`~gamelib.backends.base.Backend.note`): the server never draws or waits on the LEDs itself.
"""
from __future__ import annotations

from gamelib.backends.base import Action, Backend
from gamelib.colours import WHITE, RGB, ColourError, parse_colour
from gamelib.scroll import scroll_frames

PIN_TEXT = "PIN {pin}  PIN {pin}"
"""What scrolls on the LEDs when someone asks for a seat (twice: four digits are read at a glance)."""
PAIR_TEXT = "PIN {pin}  PIN {pin}  PIN {pin}"
"""What scrolls on the LEDs after the pairing gesture (three times: six digits to type on the phone)."""
SEATED_TEXT = "P{seat} PHONE"
"""What scrolls, in the seat's colour, when a phone has taken a seat."""


class BackendConsole:
    """:class:`~gamelib.web.api.Console` on ``backend``."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.seats = backend.seats

    def press(self, direction: str, source: str) -> bool:
        """A press and its release from ``source``'s stick; False if the game's queue is full (a flood)."""
        if not self.backend.inject(direction, Action.PRESSED, source=source):
            return False
        self.backend.inject(direction, Action.RELEASED, source=source)
        return True

    def show_pin(self, pin: str) -> None:
        """Scroll the PIN on the LEDs only: the web page, which anyone may watch, never shows it."""
        self.backend.interlude(list(scroll_frames(PIN_TEXT.format(pin=pin), WHITE)))

    def show_pairing(self, pin: str) -> None:
        """Scroll the pairing PIN on the LEDs only, at the game's next wait, ahead of any other scroll and
        cutting short the one playing (the person at the Pi asked for it)."""
        self.backend.interlude(list(scroll_frames(PAIR_TEXT.format(pin=pin), WHITE)), first=True)

    def show_seated(self, seat: int) -> None:
        """Say on the LEDs, and on the page, that a phone took ``seat``."""
        self.backend.interlude(list(scroll_frames(SEATED_TEXT.format(seat=seat), self.colour(seat))), mirrored=True)

    def colour(self, seat: int) -> RGB:
        """``seat``'s colour as the game's words give it (``seats[n].colour``), else white."""
        status = self.backend.status
        seats = status.details.get("seats") if status is not None else None
        try:
            return parse_colour(seats[seat - 1]["colour"])  # type: ignore[index]
        except (TypeError, KeyError, IndexError, ColourError):
            return WHITE

    def note(self, text: str) -> None:
        self.backend.note(text)
