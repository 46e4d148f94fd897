"""The game's side of the web server, on a backend: presses injected, the PINs and the seats on the LEDs.

Everything here is called in the server's thread and only queues work for the game's
thread (:meth:`~gamelib.backends.stick.Stick.inject`, :meth:`~gamelib.backends.interlude.Interludes.interlude`,
:meth:`~gamelib.backends.interlude.Interludes.note`): the server never draws or waits on the LEDs itself.
"""
from __future__ import annotations

from typing import Any, Callable, List, Mapping, Optional, Tuple

from gamelib.backends.base import Action, Backend, Direction, StickEvent
from gamelib.backends.interlude import Pause
from gamelib.colours import RGB, ColourError, parse_colour
from gamelib.i18n import N_, _
from gamelib.icons import Picture, picture
from gamelib.matrix import PIXELS
from gamelib.palette import Palette
from gamelib.scroll import scroll_frames
from gamelib.status import ENTER, Status

from .seating import grouped

PIN_TEXT = N_("PIN {pin}  PIN {pin}")
"""What scrolls on the LEDs when someone asks for a seat (twice: four digits are read at a glance)."""
PAIR_TEXT = N_("PIN {pin}  PIN {pin}  PIN {pin}")
"""What scrolls on the LEDs after the pairing gesture, ``pin`` in its groups (:func:`~.seating.grouped`:
``PIN 1234 5678`` three times, eight digits to type on the phone: 182 steps of :data:`~gamelib.scroll.SPEED`, 14.6 s,
within the PIN's 60 s)."""
SEATED_TEXT = N_("P{seat} PHONE")
"""What scrolls, in the seat's colour, when a phone has taken a seat."""
PHONE = (
    ".PPPPPP.",
    ".P....P.",
    ".P....P.",
    ".P....P.",
    ".P....P.",
    ".PPPPPP.",
    ".PP..PP.",
    ".PPPPPP.",
)
"""A phone, blinking in its seat's colour while the game waits for it (its page is closed)."""
PHONE_BLINK = 0.5
"""Half a blink of :data:`PHONE`, in seconds."""
WAITING = "waiting"
"""The phase of the words while the game waits for a phone."""


def phone_frames(colour: RGB, palette: Palette) -> List[Tuple[Picture, float]]:
    """The steps of the phone blinking in ``colour`` on ``palette``'s background (``(frame, seconds)``)."""
    lit: Picture = picture(PHONE, {"P": colour}, palette.background)
    return [(lit, PHONE_BLINK), ((palette.background,) * PIXELS, PHONE_BLINK)]


def away_words(seat: int, who: str, seconds: float, name: Optional[str] = None) -> Status:
    """The game waiting for ``who``'s phone, in ``seat``, for ``seconds`` at most (``name``: the seat's player's
    name, the details' ``name``, or ``None``: ``who`` is then ``player N``)."""
    return Status(WAITING, _("waiting for {who}'s phone: its page is closed; seat {seat} goes back to the stick "
                             "in {seconds:g} s (middle: now)").format(who=who, seat=seat, seconds=seconds),
                  _("waiting for {who}'s phone (page closed): {enter} plays it here, or in {seconds:g} s").format(
                      who=who, enter=ENTER, seconds=seconds),
                  {"phone": seat, "seconds": seconds, "name": name}, turn=seat)


class BackendConsole:
    """:class:`~gamelib.web.api.Console` on ``backend``."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.seats = backend.seats
        self._held: Optional[Pause] = None

    @property
    def palette(self) -> Palette:
        """The backend's palette (:attr:`~gamelib.backends.base.Backend.palette`), read when drawing."""
        return self.backend.palette

    def press(self, direction: str, source: str) -> bool:
        """A press and its release from ``source``'s stick; False if the game's queue is full (a flood)."""
        if not self.backend.stick.inject(direction, Action.PRESSED, source=source):
            return False
        self.backend.stick.inject(direction, Action.RELEASED, source=source)
        return True

    def show_pin(self, pin: str) -> None:
        """Scroll the PIN on the LEDs only: the web page, which anyone may watch, never shows it."""
        self.backend.interludes.interlude(list(scroll_frames(_(PIN_TEXT).format(pin=pin), self.palette.text, self.palette.background)))

    def show_pairing(self, pin: str) -> None:
        """Scroll the pairing PIN on the LEDs only, at the game's next wait, ahead of any other scroll and
        cutting short the one playing (the person at the Pi asked for it)."""
        self.backend.interludes.interlude(list(scroll_frames(_(PAIR_TEXT).format(pin=grouped(pin)), self.palette.text,
                                                self.palette.background)), first=True)

    def show_seated(self, seat: int) -> None:
        """Say on the LEDs, and on the page, that a phone took ``seat``."""
        self.backend.interludes.interlude(list(scroll_frames(_(SEATED_TEXT).format(seat=seat), self.colour(seat),
                                                self.palette.background)), mirrored=True)

    def colour(self, seat: int) -> RGB:
        """``seat``'s colour as the game's words give it (``seats[n].colour``), else white."""
        colour = self._seat(seat).get("colour")
        try:
            return parse_colour(colour) if isinstance(colour, str) else self.palette.text
        except ColourError:
            return self.palette.text

    def who(self, seat: int) -> str:
        """``seat``'s player's name as the game's words give it (``seats[n].name``), else ``player N``."""
        return self.name(seat) or _("player {seat}").format(seat=seat)

    def name(self, seat: int) -> Optional[str]:
        """``seat``'s player's name as the game's words give it (``seats[n].name``), if it has one."""
        name = self._seat(seat).get("name")
        return name if isinstance(name, str) and name else None

    def _seat(self, seat: int) -> Mapping[str, Any]:
        """``seat`` as the game's words describe it (:attr:`~gamelib.status.Status.seats`); empty if they do not."""
        status = self.backend.screen.status
        seats = status.seats if status is not None else None
        return seats[seat - 1] if seats is not None and 1 <= seat <= len(seats) else {}

    def away(self, seat: int, seconds: float, take_back: Callable[[], None]) -> None:
        """Pause the game with ``seat``'s phone blinking in its colour, saying it waits for that phone;
        the stick's middle or down calls ``take_back``."""
        def pressed(event: StickEvent) -> None:   # the game's thread
            if event.action is Action.PRESSED and event.direction in (Direction.MIDDLE, Direction.DOWN):
                take_back()

        self._held = self.backend.interludes.pause(phone_frames(self.colour(seat), self.palette), pressed=pressed,
                                        status=away_words(seat, self.who(seat), seconds, self.name(seat)))

    def here(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            self.backend.interludes.unpause(held)

    def note(self, text: str) -> None:
        self.backend.interludes.note(text)
