"""What the parts of a backend share and import from nowhere else in the package: the stick's events and
the frames' types, and the observers of what the LEDs show (a leaf: it imports none of the backends' modules,
so :mod:`.device`, :mod:`.inbox`, :mod:`.interlude`, :mod:`.screen` and :mod:`.stick` import it at their top
and none of them imports :mod:`.base`)."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence, Tuple

from gamelib.colours import RGB
from gamelib.status import Status

Frame = Sequence[RGB]
"""64 (:data:`~gamelib.matrix.PIXELS`) ``(r, g, b)`` pixels, row by row from the top left (index ``y * 8 + x``)."""
Picture = Tuple[RGB, ...]
"""A frame as observers get it: 64 ``(r, g, b)`` tuples in a tuple (it cannot change: keep it)."""

STICK = "stick"
"""The source of the backend's own joystick (the HAT's, the emulator's, the terminal's arrow keys)."""


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
    """One joystick event; ``timestamp`` is on the backend's own clock (:meth:`Backend.now
    <gamelib.backends.base.Backend.now>`).

    ``source`` says whose stick it came from: :data:`STICK` for the backend's own, else
    what was given to :meth:`Stick.inject <gamelib.backends.stick.Stick.inject>` (a phone's seat, another Pi).
    """

    timestamp: float
    direction: Direction
    action: Action
    source: str = STICK


class Observer:
    """Watches a backend's screen (:meth:`Screen.observe <gamelib.backends.screen.Screen.observe>`): a mirror
    of the LEDs, a web page's feed.

    Both methods are called in the game's thread, synchronously, as the frame is shown or
    the status said, so they must not block: copy what is needed (a :data:`Picture` and a
    :class:`~gamelib.status.Status` never change, so keeping them is enough) and hand it to
    another thread (a queue, an event loop's ``call_soon_threadsafe``).  An observer that
    raises is logged and dropped; the game goes on.  Override either or both.
    """

    def shown(self, frame: Picture) -> None:
        """A frame was shown: the logical 8x8 picture, before rotation, as the players see it."""

    def said(self, status: Status) -> None:
        """The game said what the LEDs show, in words (:meth:`Screen.say <gamelib.backends.screen.Screen.say>`)."""
