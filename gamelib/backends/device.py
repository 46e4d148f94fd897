"""The device under a backend: the LEDs and the stick, and nothing else.

A :class:`~gamelib.backends.base.Backend` composes one :class:`Device` (the HAT's or the
emulator's through their library, the terminal, the mock) with what every backend shares:
rotation, observers, interludes and pauses, notes, seats, the pairing gesture, and the
inbox through which other threads reach its wait.  The backend alone waits: it puts the
device's :meth:`Device.waitables` and its inbox in one ``select()`` (so waiting costs no
CPU), then asks the device to :meth:`Device.read` what became readable.  A device never
sees the inbox.

Pixels are physical (rotation is the backend's) and stick events too: a device reports the
stick as the hardware sees it.
"""
from __future__ import annotations

import select
import time
from typing import Collection, List, Optional, Protocol, Sequence, Union, runtime_checkable

from gamelib.colours import RGB
from gamelib.status import Status

from .events import StickEvent


class HasFileno(Protocol):
    def fileno(self) -> int: ...


Waitable = Union[int, HasFileno]
"""What ``select()`` takes: a file descriptor, or an object with ``fileno()``."""


class Device(Protocol):
    """The LEDs and the stick of one backend."""

    def write(self, pixels: List[RGB]) -> None:
        """Show 64 physical pixels (row by row from the top left of the panel)."""

    def waitables(self) -> Sequence[Waitable]:
        """What to wait on for input (the stick's file; the terminal's keys...)."""

    def read(self, ready: Collection[Waitable], now: float) -> Optional[StickEvent]:
        """Read what ``ready`` (those of :meth:`waitables` that ``select()`` found readable; empty: none)
        holds, without blocking; the next physical stick event, else ``None``."""

    def due(self, now: float) -> Optional[float]:
        """When :meth:`read` may have an event with nothing readable (a key's release that auto-repeat
        no longer confirms); ``None``: never."""

    def close(self) -> None:
        """Release the hardware (the backend has cleared the LEDs)."""


@runtime_checkable
class Dimmable(Protocol):
    """A device that can dim its LEDs (the HAT's driver, the emulator, the terminal's colours)."""

    def set_low_light(self, value: bool) -> None:
        """Dim (or undim) the LEDs."""


@runtime_checkable
class Captioned(Protocol):
    """A device that shows what the game says in words (the terminal prints a status's caption)."""

    def said(self, status: Status) -> None:
        """The game said ``status`` (:meth:`Screen.say <gamelib.backends.screen.Screen.say>`)."""


@runtime_checkable
class Noting(Protocol):
    """A device with room for lines beside the picture (the terminal, under the board)."""

    def noted(self, text: str) -> None:
        """Show the note ``text`` (:meth:`Interludes.note <gamelib.backends.interlude.Interludes.note>`; in
        the game's thread)."""

    def notice(self, text: str) -> None:
        """Show ``text`` until the program prints a line (:meth:`Screen.notice
        <gamelib.backends.screen.Screen.notice>`)."""


@runtime_checkable
class PairingKey(Protocol):
    """A device with a key of its own for the pairing gesture (the terminal's ``p``): told whether anyone
    listens (its key help names the key then)."""

    def pairing_watched(self, watched: bool) -> None:
        """Someone listens for the pairing gesture now (or nobody does any more), told in the thread that
        started or stopped listening."""


@runtime_checkable
class Settling(Protocol):
    """A device that makes events of its own from what it read (the terminal's auto-repeat)."""

    def settle(self) -> None:
        """The backend threw the events away: forget a key arrival still waiting to be told apart."""


class Clock:
    """Time, and the wait: real (a monotonic clock, ``select()``); the mock's is fake."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, waitables: Sequence[Waitable], timeout: Optional[float]) -> Sequence[Waitable]:
        """Block until one of ``waitables`` is readable or ``timeout`` seconds pass; those readable."""
        ready, _, _ = select.select(list(waitables), [], [], timeout)
        return ready

