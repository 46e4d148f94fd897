"""An in-memory backend for tests: records every frame and status, replays scripted stick
events, and owns a fake clock that only moves when the code under test waits.

No test ever sleeps: the mock's :meth:`stick.wait_event <.stick.Stick.wait_event>` jumps the clock to the next
scripted event (or by the timeout).  Scripted directions are *physical*, as the
hardware would report them, so rotation is exercised too; events scripted with
another ``source`` (a phone's) are logical, as :meth:`~.stick.Stick.inject` takes them.

Events :meth:`~.stick.Stick.inject`-ed from another thread wake the wait as on a real
backend: when nothing is scripted and the code waits for ever, a mock made with
``real_wait`` blocks (for real, in ``select()`` on the same inbox pipe as the real
backends) until another thread injects or wakes, instead of raising
:class:`~gamelib.errors.MockExhausted` at once; the fake clock does not move meanwhile.
"""
from __future__ import annotations

import bisect
import contextlib
import select
import threading
from collections import deque
from typing import Collection, Deque, Iterator, List, Optional, Sequence, Tuple

from gamelib.colours import RGB

from ..errors import MockExhausted
from ..matrix import PIXELS
from ..status import Status
from .base import STICK, Action, Backend, Direction, StickEvent
from .device import Clock, Waitable

HOLD_DELAY = 0.25
"""Seconds from press to the first ``held`` event (as the emulator and kernel send them)."""
HOLD_PERIOD = 0.05
"""Seconds between ``held`` events."""


class MockBackend(Backend):
    """A fake Sense HAT driven by tests.

    :attr:`frames` holds ``(time, pixels)`` for every frame written, in physical
    LED order (only the last ``history`` frames if that is given); :attr:`statuses`
    holds ``(time, status)`` for every status said.  Script input with :meth:`tap`,
    :meth:`hold` or :meth:`event`; each call schedules after the previous one unless
    ``at`` is given.  ``real_wait`` is how many real seconds a wait for ever with
    nothing scripted blocks for another thread's :meth:`~.stick.Stick.inject` (0:
    raise :class:`~gamelib.errors.MockExhausted` at once); :attr:`blocked` is set
    while it does, and :attr:`real_waits` counts those waits.
    """

    name = "mock"

    def __init__(self, *, rotation: int = 0, low_light: bool = False, gap: float = 0.2,
                 history: Optional[int] = None, real_wait: float = 0.0) -> None:
        self.frames: Deque[Tuple[float, Tuple[RGB, ...]]] = deque(maxlen=history)
        self.statuses: List[Tuple[float, Status]] = []
        self.low_light_log: List[bool] = []
        self.real_wait = real_wait
        self.blocked = threading.Event()
        self.real_waits = 0
        self._together = threading.Lock()
        self._clock = 0.0
        self._queue: List[Tuple[float, int, StickEvent]] = []
        self._seq = 0
        self._cursor = 0.0
        self.gap = gap
        self.closed_hardware = False
        super().__init__(_MockDevice(self), rotation=rotation, low_light=low_light, clock=_MockClock(self))

    # -- scripting ----------------------------------------------------------

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """While inside, a real wait that another thread's event ends does not return: what is
        :meth:`~.stick.Stick.inject`-ed inside arrives as one batch (the match cannot act on
        the first event, and time out a question on the fake clock, before the next is queued)."""
        with self._together:
            yield

    def event(self, direction: str, action: str = "pressed", *, at: Optional[float] = None,
              source: str = STICK) -> float:
        """Queue one raw event (from ``source``'s stick); return its time."""
        when = self._cursor if at is None else at
        self._seq += 1
        event = StickEvent(when, Direction(direction), Action(action), source)
        bisect.insort(self._queue, (when, self._seq, event))
        self._cursor = max(self._cursor, when)
        return when

    def tap(self, *directions: str, at: Optional[float] = None, gap: Optional[float] = None,
            source: str = STICK) -> float:
        """Press and release each direction in turn, ``gap`` seconds apart."""
        gap = self.gap if gap is None else gap
        when = self._cursor + gap if at is None else at
        for direction in directions:
            self.event(direction, "pressed", at=when, source=source)
            self.event(direction, "released", at=when + 0.05, source=source)
            when += gap
        return self._cursor

    def hold(self, direction: str, seconds: float, *, at: Optional[float] = None) -> float:
        """Press, send ``held`` with the hardware's timing for ``seconds``, release."""
        start = self._cursor + self.gap if at is None else at
        self.event(direction, "pressed", at=start)
        k = 0
        while HOLD_DELAY + k * HOLD_PERIOD < seconds:
            self.event(direction, "held", at=start + HOLD_DELAY + k * HOLD_PERIOD)
            k += 1
        return self.event(direction, "released", at=start + seconds)

    def wait_until(self, when: float) -> None:
        """Make the next relative script step start at ``when``."""
        self._cursor = max(self._cursor, when)

    @property
    def pending(self) -> int:
        """How many scripted events have not been read yet."""
        return len(self._queue)

    # -- observing ----------------------------------------------------------

    @property
    def leds(self) -> Tuple[RGB, ...]:
        """The last frame written (all black before the first)."""
        return self.frames[-1][1] if self.frames else ((0, 0, 0),) * PIXELS

    # -- Backend ------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Move the fake clock forward."""
        self._clock += seconds

    def _block(self) -> Sequence[Waitable]:
        """Wait (really) for another thread's event or wake-up: the inbox if one came."""
        self.real_waits += 1
        self.blocked.set()
        try:
            ready, _, _ = select.select([self._inbox], [], [], self.real_wait)
            with self._together:  # a batch being injected is whole before the wait returns
                pass
        finally:
            self.blocked.clear()
        return ready


class _MockDevice:
    """The mock's LEDs and stick: the frames it records, the events scripted on it."""

    def __init__(self, mock: MockBackend) -> None:
        self._mock = mock

    def write(self, pixels: List[RGB]) -> None:
        mock = self._mock
        mock.frames.append((mock._clock, tuple(pixels)))

    def waitables(self) -> Sequence[Waitable]:
        return ()

    def read(self, ready: Collection[Waitable], now: float) -> Optional[StickEvent]:
        queue = self._mock._queue
        if queue and queue[0][0] <= now:
            return queue.pop(0)[2]
        return None

    def due(self, now: float) -> Optional[float]:
        return None

    def close(self) -> None:
        self._mock.closed_hardware = True

    def said(self, status: Status) -> None:
        mock = self._mock
        mock.statuses.append((mock._clock, status))

    def set_low_light(self, value: bool) -> None:
        self._mock.low_light_log.append(value)


class _MockClock(Clock):
    """The mock's fake clock: a wait jumps it to the next scripted event, or by the timeout."""

    def __init__(self, mock: MockBackend) -> None:
        self._mock = mock

    def now(self) -> float:
        return self._mock._clock

    def wait(self, waitables: Sequence[Waitable], timeout: Optional[float]) -> Sequence[Waitable]:
        mock = self._mock
        if mock._queue and (timeout is None or mock._queue[0][0] <= mock._clock + timeout):
            mock._clock = max(mock._clock, mock._queue[0][0])
            return ()
        if timeout is None:
            ready = mock._block() if mock.real_wait > 0 else ()
            if ready:
                return ready
            raise MockExhausted()
        mock._clock += timeout
        return ()
