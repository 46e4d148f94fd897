"""The one object every Sense HAT backend is: a :class:`~gamelib.backends.device.Device` composed with its
parts.

A backend owns the 8x8 display, the joystick and a clock, as three parts over its device:

- :attr:`Backend.screen` (:mod:`.screen`): frames, rotation, low light, the words said, the observers;
- :attr:`Backend.stick` (:mod:`.stick`): the stick's events turned as the picture is, other threads'
  events and wake-ups through the inbox (:mod:`.inbox`), the one wait, the pairing gesture;
- :attr:`Backend.interludes` (:mod:`.interlude`): what other threads ask of the LEDs (interludes,
  pauses, notes), carried out in the game's waits.

Rotation is the screen's, applied to the display *and* (by the stick, which reads it) to the stick, so
that "left" on the stick is left as the player sees the picture.  Its :attr:`Backend.seats` say which
seat other sticks play, its :attr:`Backend.palette` which colours the games draw with.

The device is the only part that differs from one backend to the next (:mod:`.device`: write a frame,
the waitables, read the stick, close): the HAT's or the emulator's (:mod:`.senselib`), the terminal's,
the mock's.  A subclass opens its device, then calls ``super().__init__(device, ...)``; what a device
can do besides (dim, show words, a pairing key, settle its own events) it says by the protocols of
:mod:`.device`, which the parts look for: no subclass overrides a part.  A backend's class says how it is
found and what it needs (:mod:`.entry`).

The types the parts share (:class:`~.events.StickEvent`, :class:`~.events.Direction`, ...) are in
:mod:`.events` and named here too.
"""
from __future__ import annotations

from typing import Optional

from ..palette import Palette, palette
from ..seats import SeatTable
from .device import Clock, Device
from .entry import Needs
from .events import STICK, Action, Direction, Frame, Observer, Picture, StickEvent
from .inbox import Inbox
from .interlude import Interludes
from .screen import ROTATIONS, Screen, check_rotation
from .stick import PAIR_HOLD, Stick

__all__ = ["Action", "Backend", "Direction", "Frame", "Observer", "PAIR_HOLD", "Picture", "ROTATIONS", "STICK",
           "StickEvent", "check_rotation"]


class Backend:
    """A Sense HAT (real, emulated, mocked...) behind one interface: its device and its parts.

    Use as a context manager, or call :meth:`close` (safe to call twice); both
    clear the LEDs.
    """

    name = "abstract"
    needs = Needs()
    """What it needs on this machine (:mod:`.entry`): ``doctor`` checks it.  ``needs.terminal``: a backend
    drawn in the terminal it was started from: a service (no terminal) cannot use it, and a log line printed
    meanwhile would land on its picture (the program logs to a file instead)."""

    def __init__(self, device: Device, *, rotation: int = 0, low_light: bool = False,
                 clock: Optional[Clock] = None) -> None:
        self.device = device
        """The LEDs and the stick (:class:`~gamelib.backends.device.Device`): the only part that differs
        from one backend to the next."""
        self._time = Clock() if clock is None else clock
        self._closed = False
        self._inbox = Inbox()
        try:
            self.screen = Screen(device, rotation=rotation)
            """The picture, its rotation and low light, its words and observers (:mod:`.screen`)."""
            self.interludes = Interludes(device, self.screen, self._time, self._inbox.wake)
            """Interludes, pauses and notes other threads ask for (:mod:`.interlude`)."""
            self.stick = Stick(device, self.screen, self.interludes, self._inbox, self._time)
            """The stick's events, other threads' events, the wait, the pairing gesture (:mod:`.stick`)."""
            if low_light:
                self.screen.low_light = True
        except BaseException:
            self._inbox.close()
            raise
        self.seats = SeatTable()
        """Which seat another stick plays (a phone's): read by the game, written by the web server."""
        self.palette: Palette = palette()
        """The palette every screen draws with, read when it draws (one of :data:`gamelib.palette.PALETTES`:
        ``--palette``, the launcher's setting, which may change it between games): a setting of the LEDs, read
        by the games and the web view (its ``/palette.css``)."""

    def now(self) -> float:
        """Seconds on a monotonic clock (the mock's is fake and advanced by waiting)."""
        return self._time.now()

    def close(self) -> None:
        """Clear the LEDs and release the hardware; safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        self.interludes.close()
        try:
            self.screen.clear()
            if self.screen.low_light:
                self.screen.low_light = False  # the emulator keeps gamma between programs
        finally:
            try:
                self.device.close()
            finally:
                self._inbox.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
