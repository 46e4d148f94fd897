"""The one interface every Sense HAT backend implements, and the joystick event types.

A backend owns the 8x8 display, the joystick and a clock.  Rotation is applied
here, once, to the display *and* the stick, so that "left" on the stick is left
as the player sees the picture.

Subclasses open their hardware first, then call ``super().__init__``.  They
**must** override :meth:`Backend._write`, :meth:`Backend._read` and
:meth:`Backend._close`; they **may** override :meth:`Backend.now` (the mock
does, with a fake clock) and :meth:`Backend._set_low_light`.
"""
from __future__ import annotations

import enum
import reprlib
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from gamelib.colours import BLACK, RGB

from ..errors import ConfigError

Frame = Sequence[RGB]
"""64 ``(r, g, b)`` pixels, row by row from the top left (index ``y * 8 + x``)."""

ROTATIONS = (0, 90, 180, 270)


class Direction(str, enum.Enum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    MIDDLE = "middle"


class Action(str, enum.Enum):
    PRESSED = "pressed"
    RELEASED = "released"
    HELD = "held"


@dataclass(frozen=True)
class StickEvent:
    """One joystick event; ``timestamp`` is on the backend's own clock (:meth:`Backend.now`)."""

    timestamp: float
    direction: Direction
    action: Action


# Turning the picture 90 degrees clockwise on the panel means a push towards the
# physical right is a push towards the picture's top, and so on round the compass.
_CLOCKWISE = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)


def _stick_map(rotation: int) -> Dict[Direction, Direction]:
    """Physical stick direction -> direction as the player sees it, for ``rotation``."""
    steps = rotation // 90
    table = {d: _CLOCKWISE[(i - steps) % 4] for i, d in enumerate(_CLOCKWISE)}
    table[Direction.MIDDLE] = Direction.MIDDLE
    return table


def _pixel_map(rotation: int) -> List[int]:
    """For each logical index, the physical index it is written to (clockwise rotation)."""
    result = []
    for y in range(8):
        for x in range(8):
            px, py = x, y
            for _ in range(rotation // 90):
                px, py = 7 - py, px
            result.append(py * 8 + px)
    return result


def check_rotation(rotation: int) -> int:
    """``rotation`` if it is the integer 0, 90, 180 or 270, else :class:`ConfigError` (``90.0`` and
    ``True`` are refused: a float or a bool would break the pixel tables)."""
    if type(rotation) is not int or rotation not in ROTATIONS:
        raise ConfigError(f"rotation must be one of 0, 90, 180, 270 (not {reprlib.repr(rotation)})")
    return rotation


class Backend(ABC):
    """A Sense HAT (real, emulated, mocked...) behind one interface.

    Use as a context manager, or call :meth:`close` (safe to call twice); both
    clear the LEDs.
    """

    name = "abstract"

    def __init__(self, *, rotation: int = 0, low_light: bool = False) -> None:
        self._closed = False
        self._rotation = 0
        self._pixels: List[int] = _pixel_map(0)
        self._stick_table: Dict[Direction, Direction] = _stick_map(0)
        self.rotation = rotation
        self._low_light = False
        if low_light:
            self.low_light = True

    # -- display ------------------------------------------------------------

    @property
    def rotation(self) -> int:
        """Clockwise rotation of the picture (and of the stick) in degrees."""
        return self._rotation

    @rotation.setter
    def rotation(self, value: int) -> None:
        self._rotation = check_rotation(value)
        self._pixels = _pixel_map(value)
        self._stick_table = _stick_map(value)

    @property
    def low_light(self) -> bool:
        return self._low_light

    @low_light.setter
    def low_light(self, value: bool) -> None:
        self._low_light = bool(value)
        self._set_low_light(self._low_light)

    def show(self, frame: Frame) -> None:
        """Write a whole 64-pixel frame (as the player sees it) in one call."""
        if len(frame) != 64:
            raise ValueError(f"a frame has 64 pixels, not {len(frame)}")
        physical: List[RGB] = [BLACK] * 64
        for index, target in enumerate(self._pixels):
            physical[target] = tuple(frame[index])  # type: ignore[assignment]
        self._write(physical)

    def clear(self) -> None:
        """Turn every LED off."""
        self.show([BLACK] * 64)

    # -- joystick -----------------------------------------------------------

    def wait_event(self, timeout: Optional[float] = None) -> Optional[StickEvent]:
        """Block until a joystick event arrives (``None`` after ``timeout`` seconds).

        ``timeout=None`` waits for ever.  Waiting never spins: real backends
        block in ``select()``.
        """
        event = self._read(timeout)
        if event is None:
            return None
        return StickEvent(event.timestamp, self._stick_table[event.direction], event.action)

    def discard_events(self) -> int:
        """Throw away every event already queued; return how many."""
        count = 0
        while self._read(0) is not None:
            count += 1
        return count

    # -- clock --------------------------------------------------------------

    def now(self) -> float:
        """Seconds on a monotonic clock (the mock's is fake and advanced by waiting)."""
        return time.monotonic()

    # -- lifetime -----------------------------------------------------------

    def close(self) -> None:
        """Clear the LEDs and release the hardware; safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        try:
            self.clear()
            if self._low_light:
                self.low_light = False  # the emulator keeps gamma between programs
        finally:
            self._close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what backends implement ----------------------------------------------

    @abstractmethod
    def _write(self, pixels: List[RGB]) -> None:
        """Write 64 physical pixels (already rotated) to the LEDs."""

    @abstractmethod
    def _read(self, timeout: Optional[float]) -> Optional[StickEvent]:
        """Return the next *physical* stick event, or ``None`` after ``timeout``."""

    @abstractmethod
    def _close(self) -> None:
        """Release the hardware."""

    def _set_low_light(self, value: bool) -> None:  # noqa: B027 (an optional hook)
        """Dim (or undim) the LEDs; the default does nothing."""
