"""A backend's stick: its device's joystick turned by the screen's rotation, the events other threads
inject, the one wait, and the pairing gesture.

:class:`Stick` is the part of a :class:`~gamelib.backends.base.Backend` the games read
(``backend.stick.wait_event(timeout)``).  Besides the device's own stick it takes events from other
threads (:meth:`Stick.inject`: a phone's presses, another Pi's) and wake-ups (:meth:`Stick.wake`: the
computer has its move) through the :class:`~gamelib.backends.inbox.Inbox`, into the same wait.  Only
:meth:`Stick._read` waits, in one ``select()`` on the device's waitables and the inbox together, so
injected events and wake-ups end the wait and waiting costs no CPU; no device sees the inbox.  Around
the wait, the :class:`~gamelib.backends.interlude.Interludes` carry out what other threads asked of the
LEDs (:meth:`~gamelib.backends.interlude.Interludes.before_wait`, ``after_wait``, ``holds``).

The pairing gesture is seen here, once for every game: the stick's middle held for
:data:`PAIR_HOLD` seconds (its first ``pressed`` reaches the game as any press does;
no game acts on a ``held`` middle).  :meth:`Stick.pair` then tells the pairing
listeners (:meth:`Stick.watch_pairing`: the web view, which shows a pairing PIN at
once); a device may call it for a key of its own too (the terminal's ``p``:
:class:`~gamelib.backends.device.PairingKey`).
"""
from __future__ import annotations

import functools
import logging
import threading
from typing import Callable, Dict, Optional, Tuple, Union

from ..i18n import _
from .device import Clock, Device, PairingKey, Settling
from .events import STICK, Action, Direction, StickEvent
from .inbox import Inbox
from .interlude import Interludes
from .screen import Screen

log = logging.getLogger("gamelib")

PAIR_HOLD = 3.0
"""Seconds the stick's middle is held (from its press) for the pairing gesture (:meth:`Stick.pair`)."""

# Turning the picture 90 degrees clockwise on the panel means a push towards the
# physical right is a push towards the picture's top, and so on round the compass.
_CLOCKWISE = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)


@functools.lru_cache(maxsize=None)
def stick_map(rotation: int) -> Dict[Direction, Direction]:
    """Physical stick direction -> direction as the player sees it, for ``rotation``."""
    steps = rotation // 90
    table = {d: _CLOCKWISE[(i - steps) % 4] for i, d in enumerate(_CLOCKWISE)}
    table[Direction.MIDDLE] = Direction.MIDDLE
    return table


class Stick:
    """The joystick of ``device`` as the players see it (turned as ``screen`` is), other threads' events
    through ``inbox``, the wait, and the pairing gesture.  :meth:`inject`, :meth:`wake` and
    :meth:`watch_pairing` are safe from any thread; the rest is the game's thread's."""

    def __init__(self, device: Device, screen: Screen, interludes: Interludes, inbox: Inbox, clock: Clock) -> None:
        self._device = device
        self._screen = screen
        self._interludes = interludes
        self._inbox = inbox
        self._clock = clock
        self._lock = threading.Lock()
        self._pairing: Tuple[Callable[[], None], ...] = ()
        self._middle_since: Optional[float] = None
        """When the stick's middle went down (``None``: it is up, as far as the events read say)."""
        self._middle_paired = False
        """The hold in progress has made the pairing gesture already (once per hold)."""

    # -- events -------------------------------------------------------------------

    def wait_event(self, timeout: Optional[float] = None) -> Optional[StickEvent]:
        """Block until a joystick event arrives (``None`` after ``timeout`` seconds, or sooner
        when :meth:`wake` is called).

        ``timeout=None`` waits for ever.  Waiting never spins: real backends
        block in ``select()``.  Events :meth:`inject`-ed by other threads come here too,
        stamped with this backend's clock as they are read.
        """
        interludes = self._interludes
        event = self._injected()
        if event is None:
            limit = interludes.before_wait(timeout)
            event = self._read(limit)
            interludes.after_wait(event)
            if event is None:
                event = self._injected()
            elif event.source == STICK:   # the mock's events from another source are as the players see them
                event = self._turned(event)
                self._watch_middle(event)
        if event is not None and interludes.holds(event):   # paused: the game gets nothing
            return None
        return event

    def inject(self, direction: Union[Direction, str], action: Union[Action, str] = Action.PRESSED, *,
               source: str) -> bool:
        """Queue an event from another stick (a phone, another Pi), from any thread; the wait in
        progress returns it at once.  ``direction`` is as the players see the picture (it is not
        turned by the rotation); ``source`` names the stick.  False if it was refused: the
        backend is closed, or :data:`~gamelib.backends.inbox.LIMIT` events are already waiting."""
        return self._inbox.put(Direction(direction), Action(action), source)

    def wake(self) -> None:
        """Make the wait in progress (or the next one) return ``None`` at once; from any thread
        (a player that found its move in a thread says so)."""
        self._inbox.wake()

    def discard_events(self) -> int:
        """Throw away every event already queued (the stick's and the injected ones, and a key arrival
        the device still has to tell apart); return how many."""
        count = 0
        while True:
            event = self._read(0)
            if event is None:
                break
            count += 1
            if event.source == STICK:   # the pairing gesture follows the stick all the same
                self._watch_middle(self._turned(event))
        count += self._inbox.discard()
        if isinstance(self._device, Settling):
            self._device.settle()
        return count

    def _turned(self, event: StickEvent) -> StickEvent:
        return StickEvent(event.timestamp, stick_map(self._screen.rotation)[event.direction], event.action)

    def _injected(self) -> Optional[StickEvent]:
        taken = self._inbox.take()
        return None if taken is None else StickEvent(self._clock.now(), *taken)

    def _read(self, timeout: Optional[float]) -> Optional[StickEvent]:
        """The next *physical* stick event, or ``None`` after ``timeout`` or as soon as the inbox is
        readable (another thread's event or wake-up): the one wait of every backend, on the device's
        waitables and the inbox together; the stick's events come first."""
        device, clock, inbox = self._device, self._clock, self._inbox
        now = clock.now()
        deadline = None if timeout is None else now + timeout
        event = device.read((), now)
        while event is None:
            limits = [t for t in (deadline, device.due(now)) if t is not None]
            ready = clock.wait([*device.waitables(), inbox], max(0.0, min(limits) - now) if limits else None)
            now = clock.now()
            woken = inbox in ready
            event = device.read([w for w in ready if w is not inbox] if woken else ready, now)
            if event is None and woken:
                inbox.drain()
                return None
            if event is None and deadline is not None and now >= deadline:
                return None
        return event

    # -- the pairing gesture ----------------------------------------------------------

    def watch_pairing(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` at every pairing gesture from now on (:meth:`pair`; safe from any thread);
        returns the function that stops it.  It is called in the game's thread and must not block."""
        with self._lock:
            self._pairing = self._pairing + (listener,)
        self._pairing_watched(True)
        return lambda: self._unwatch_pairing(listener)

    def _unwatch_pairing(self, listener: Callable[[], None]) -> None:
        with self._lock:
            self._pairing = tuple(known for known in self._pairing if known is not listener)
            watched = bool(self._pairing)
        self._pairing_watched(watched)

    def _pairing_watched(self, watched: bool) -> None:
        if isinstance(self._device, PairingKey):
            self._device.pairing_watched(watched)

    @property
    def pairing_watched(self) -> bool:
        """True while someone listens for the pairing gesture (the web view serves seats)."""
        return bool(self._pairing)

    def pair(self) -> None:
        """The person at the Pi asked to pair a device (the stick's middle held :data:`PAIR_HOLD` seconds, or
        a device's own key): tell every pairing listener, here, in the game's thread.  A listener that
        raises is logged and dropped; the game goes on."""
        for listener in self._pairing:
            try:
                listener()
            except Exception:  # a broken listener must not stop the game
                log.error(_("a listener for the pairing gesture failed and was dropped"), exc_info=True)
                self._unwatch_pairing(listener)

    def _watch_middle(self, event: StickEvent) -> None:
        """Follow the stick's middle (every event read, those the game throws away too); the pairing gesture
        once it is held long enough."""
        if event.direction is not Direction.MIDDLE:
            return
        if event.action is Action.PRESSED:
            self._middle_since, self._middle_paired = event.timestamp, False
        elif event.action is Action.RELEASED:
            self._middle_since, self._middle_paired = None, False
        elif self._middle_since is None:      # held since before the backend was read: the hold counts from here
            self._middle_since = event.timestamp
        elif not self._middle_paired and event.timestamp - self._middle_since >= PAIR_HOLD - 1e-6:
            self._middle_paired = True
            self.pair()
