"""A backend's screen: the 8x8 picture on its device's LEDs, turned by its rotation, dimmed by low light,
and what it shows said in words, with the observers of both.

:class:`Screen` is the part of a :class:`~gamelib.backends.base.Backend` the games draw through
(``backend.screen.show(frame)``, ``backend.screen.say(status)``).  Its :attr:`~Screen.rotation` turns the
picture here and the stick in :mod:`.stick` (which reads it: one fact).  While an interlude or a pause
(:mod:`.interlude`) is over the game, :attr:`Screen.cover` says so: the game's frames are kept (and the
observers still see them under a private interlude), and the game's words are held under a pause.
A device that shows words (:class:`~gamelib.backends.device.Captioned`, :class:`~gamelib.backends.device.Noting`:
the terminal) is told them here.
"""
from __future__ import annotations

import functools
import logging
import reprlib
import threading
from typing import Callable, List, Optional, Sequence, Tuple, TypeVar

from gamelib.colours import BLACK, RGB

from ..errors import ConfigError
from ..i18n import _
from ..matrix import PIXELS, SIDE
from ..status import Status
from .device import Captioned, Device, Dimmable, Noting
from .events import Frame, Observer, Picture

log = logging.getLogger("gamelib")
Told = TypeVar("Told")
"""What an observer is told: a picture, or a status."""

ROTATIONS = (0, 90, 180, 270)


@functools.lru_cache(maxsize=None)
def pixel_map(rotation: int) -> Tuple[int, ...]:
    """For each logical index, the physical index it is written to (clockwise rotation)."""
    result = []
    for y in range(SIDE):
        for x in range(SIDE):
            px, py = x, y
            for _turn in range(rotation // 90):
                px, py = SIDE - 1 - py, px
            result.append(py * SIDE + px)
    return tuple(result)


def check_rotation(rotation: int) -> int:
    """``rotation`` if it is the integer 0, 90, 180 or 270, else :class:`ConfigError` (``90.0`` and
    ``True`` are refused: a float or a bool would break the pixel tables)."""
    if type(rotation) is not int or rotation not in ROTATIONS:
        raise ConfigError(_("rotation must be one of 0, 90, 180, 270 (not {value})").format(value=reprlib.repr(rotation)))
    return rotation


class Screen:
    """The LEDs of ``device`` as the players see them: frames, rotation, low light, words, observers.

    Everything but :meth:`observe` is called in the game's thread.
    """

    def __init__(self, device: Device, *, rotation: int = 0) -> None:
        self._device = device
        self._rotation = check_rotation(rotation)
        self._low_light = False
        self._observers: Tuple[Observer, ...] = ()
        self._observers_lock = threading.Lock()
        self._frame: Picture = (BLACK,) * PIXELS
        self._status: Optional[Status] = None
        self.cover: Optional[bool] = None
        """Something is over the game (:mod:`.interlude`, which sets it): ``True`` if the observers see it
        (a pause, a public interlude), ``False`` if only the LEDs do (a PIN); ``None``: nothing."""
        self._held = False
        self._under: Optional[Status] = None
        """The game's words while they are held (said again when released)."""

    # -- the picture ------------------------------------------------------------

    @property
    def rotation(self) -> int:
        """Clockwise rotation of the picture (and of the stick) in degrees."""
        return self._rotation

    @rotation.setter
    def rotation(self, value: int) -> None:
        self._rotation = check_rotation(value)

    @property
    def low_light(self) -> bool:
        return self._low_light

    @low_light.setter
    def low_light(self, value: bool) -> None:
        """Dim (or undim) the LEDs: the device's :meth:`~gamelib.backends.device.Dimmable.set_low_light`, if
        it has one."""
        self._low_light = bool(value)
        if isinstance(self._device, Dimmable):
            self._device.set_low_light(self._low_light)

    def show(self, frame: Frame) -> None:
        """Write a whole 64-pixel frame (as the player sees it) in one call, then tell the observers."""
        if len(frame) != PIXELS:
            raise ValueError(f"a frame has {PIXELS} pixels, not {len(frame)}")
        logical: Picture = tuple(tuple(pixel) for pixel in frame)  # type: ignore[misc]
        self._frame = logical
        if self.cover is not None:
            if not self.cover:
                self.tell(logical)
            return  # kept, and shown when the cover goes
        self.write(logical)
        self.tell(logical)

    def clear(self) -> None:
        """Turn every LED off."""
        self.show([BLACK] * PIXELS)

    @property
    def frame(self) -> Picture:
        """The last frame shown, as the players see it (all off before the first)."""
        return self._frame

    def write(self, logical: Sequence[RGB]) -> None:
        """Write ``logical`` (as the players see it) to the LEDs, turned; the observers are not told (an
        interlude's frame: :mod:`.interlude`)."""
        physical: List[RGB] = [BLACK] * PIXELS
        for index, target in enumerate(pixel_map(self._rotation)):
            physical[target] = logical[index]
        self._device.write(physical)

    def tell(self, logical: Picture) -> None:
        """Tell every observer ``logical`` is shown."""
        for observer in self._observers:
            self._tell(observer, observer.shown, logical)

    # -- words ---------------------------------------------------------------------

    def say(self, status: Status) -> None:
        """Say what the LEDs show, in words: kept as :attr:`status`, passed to the device if it shows words
        and to every observer (a status equal to the last one is not passed on again)."""
        if self._held:
            self._under = status   # said when released
            return
        self._say_now(status)

    def _say_now(self, status: Status) -> None:
        if status == self._status:
            return
        self._status = status
        if isinstance(self._device, Captioned):
            self._device.said(status)
        for observer in self._observers:
            self._tell(observer, observer.said, status)

    @property
    def status(self) -> Optional[Status]:
        """The last status said (``None`` before the first)."""
        return self._status

    def hold_words(self, status: Optional[Status]) -> None:
        """Say ``status`` (if any) over the game's words, which are kept from now on (a pause)."""
        if not self._held:
            self._under, self._held = self._status, True
        if status is not None:
            self._say_now(status)

    def release_words(self, *, say: bool = True) -> None:
        """Let the game's words through again, saying the last it said meanwhile (unless ``say`` is false)."""
        self._held = False
        if say and self._under is not None:
            self._say_now(self._under)

    def notice(self, text: str) -> None:
        """Show ``text`` beside the picture until the program prints a line (the terminal, under the board:
        a line printed before the board would be hidden by it), if the device shows words."""
        if isinstance(self._device, Noting):
            self._device.notice(text)

    # -- observers -----------------------------------------------------------------

    def observe(self, observer: Observer) -> Callable[[], None]:
        """Tell ``observer`` every frame shown and every status said from now on (safe from any
        thread); returns the function that stops it.  :attr:`frame` and :attr:`status` say what
        is up at the moment it starts."""
        with self._observers_lock:
            self._observers = self._observers + (observer,)
        return lambda: self._forget(observer)

    def _forget(self, observer: Observer) -> None:
        with self._observers_lock:
            self._observers = tuple(o for o in self._observers if o is not observer)

    def _tell(self, observer: Observer, method: Callable[[Told], None], value: Told) -> None:
        try:
            method(value)
        except Exception:  # a broken mirror must not stop the game
            log.error(_("an observer of the LEDs failed and was dropped"), exc_info=True)
            self._forget(observer)
