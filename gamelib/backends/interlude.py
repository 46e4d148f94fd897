"""What the LEDs say over the game for a moment, asked for by another thread: an interlude (and a
pause, and a note beside the game).

The web server asks the backend to scroll the PIN (someone wants a seat) or to say
that a phone took a seat; the game does not know.  :meth:`Interludes.interlude`
(``backend.interludes.interlude(steps)``) queues the frames from any thread and
wakes the wait; the game's own thread plays them inside
:meth:`Stick.wait_event <gamelib.backends.stick.Stick.wait_event>`, one step per deadline, so the
mock's fake clock drives them like everything else.  :class:`Interludes` is that part of a backend:
it draws over the :class:`~gamelib.backends.screen.Screen` (setting its ``cover``) and is asked by
the :class:`~gamelib.backends.stick.Stick` around each wait.

- It starts at the next moment the game waits for a person: a wait of at least
  :data:`IDLE` seconds, or for ever (the cursor waiting for a move, a chooser, the
  menu), not in the middle of a falling token or the computer's thinking, and in
  any case once it has waited :data:`MOST_DEFERRED` seconds.
- While it plays, the game goes on underneath: its frames are kept, not shown, and
  the last one comes back when the interlude ends.  A press of the backend's own
  stick ends it at once, and reaches the game as it would have without it (no press
  at the Pi is lost to a PIN someone on the network asked for); other sources'
  presses reach the game as usual.
- A private interlude (the PIN) is written to the LEDs only: observers (the web
  page, which anyone on the LAN may watch) keep seeing the game.  A public one (a
  seat was taken) is shown to them too.
- Interludes asked for while one plays wait their turn (at most :data:`QUEUED`; beyond
  that the oldest waiting one is dropped).
"""
from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Deque, List, Optional, Sequence, Tuple

from gamelib.colours import RGB

from gamelib.status import Status

from .device import Clock, Device, Noting
from .events import STICK, Action, StickEvent
from .screen import Screen

IDLE = 0.5
"""A wait at least this long (or for ever) is a moment the game waits for a person."""
MOST_DEFERRED = 5.0
"""An interlude waits at most this long (on the backend's clock) for such a moment."""

QUEUED = 4
"""Interludes waiting at most (two seats taken and a PIN asked for at once fit)."""

Step = Tuple[Sequence[RGB], float]


@dataclass
class Interlude:
    """Frames to show, each for its seconds, and whether observers see them."""

    steps: List[Step]
    mirrored: bool = False
    asked: Optional[float] = None
    """When the game's thread first saw it waiting (the backend's clock)."""
    index: int = -1
    due: float = 0.0
    """When the next step is due (once started)."""
    shown: List[Sequence[RGB]] = field(default_factory=list)

    @property
    def started(self) -> bool:
        return self.index >= 0

    def ready(self, now: float, timeout: Optional[float]) -> bool:
        """Whether to start now, in a wait of ``timeout`` seconds (``None``: for ever)."""
        if self.asked is None:
            self.asked = now
        return timeout is None or timeout >= IDLE or now - self.asked >= MOST_DEFERRED

    def next(self, now: float) -> Optional[Sequence[RGB]]:
        """The next frame to show (its deadline set from ``now``), or ``None`` at the end."""
        self.index += 1
        if self.index >= len(self.steps):
            return None
        frame, seconds = self.steps[self.index]
        self.due = now + seconds
        return frame


@dataclass(eq=False)
class Pause:
    """Frames shown over and over, over the game, until released (:meth:`Interludes.pause`): the game waits for something outside it (another Pi's
    link).  ``pressed`` is told the stick's presses meanwhile (the game gets none)."""

    steps: List[Step]
    pressed: Optional[Callable[[StickEvent], None]] = None
    status: Optional[Status] = None
    """Said while it is up (the game's words come back after)."""
    released: bool = False
    """Set (from any thread) by :meth:`Interludes.unpause`."""
    index: int = -1
    due: float = 0.0

    def next(self, now: float) -> Sequence[RGB]:
        """The next frame (after the last, the first again); its deadline set from ``now``."""
        self.index = (self.index + 1) % len(self.steps)
        frame, seconds = self.steps[self.index]
        self.due = now + seconds
        return frame


class Interludes:
    """What other threads ask of the LEDs (interludes, pauses, notes), carried out by the game's thread in its
    waits, over ``screen``; ``wake`` ends the wait in progress (the inbox's).  :meth:`interlude`,
    :meth:`pause`, :meth:`unpause` and :meth:`note` are safe from any thread."""

    def __init__(self, device: Device, screen: Screen, clock: Clock, wake: Callable[[], None]) -> None:
        self._device = device
        self._screen = screen
        self._clock = clock
        self._wake = wake
        self._lock = threading.Lock()
        self._asked: Deque[Interlude] = deque(maxlen=QUEUED)
        self._asked_first: Optional[Interlude] = None
        """An interlude to show ahead of the queue, cutting short the one playing (:meth:`interlude`'s ``first``)."""
        self._asked_note: Optional[str] = None
        self._interlude: Optional[Interlude] = None
        self._asked_pause: Optional[Pause] = None
        self._pause: Optional[Pause] = None
        self.noted = ""
        """The last :meth:`note` carried out."""

    # -- asked from any thread -------------------------------------------------------

    def interlude(self, steps: Sequence[Step], *, mirrored: bool = False, first: bool = False) -> None:
        """Show ``steps`` (``(frame, seconds)``) over the game at its next wait for a person, from any
        thread (the game goes on underneath; a press at the stick ends it and is the game's, as any
        other), after those asked before.  ``mirrored``: observers see it too (else only the LEDs do: the
        PIN).  ``first``: at the game's next wait whatever it is, ahead of those waiting, cutting short the
        one playing (the pairing PIN the person at the Pi asked for); a newer one replaces it if not begun."""
        asked = Interlude([(tuple(frame), seconds) for frame, seconds in steps], mirrored)
        with self._lock:
            if first:
                self._asked_first = asked
            else:
                self._asked.append(asked)
        self._wake()

    def pause(self, steps: Sequence[Step], *, pressed: Optional[Callable[[StickEvent], None]] = None,
              status: Optional[Status] = None) -> Pause:
        """Show ``steps`` (``(frame, seconds)``, over and over) over the game from its next wait until
        :meth:`unpause`, from any thread (another Pi's link dropped: the game waits for it).  The game
        goes on underneath, but gets no event meanwhile: a press at the stick goes to ``pressed``
        (called in the game's thread) and nothing else does anything.  Observers see it (the web page
        shows the wait too), and ``status`` is said meanwhile (the game's words come back with its
        frame).  A newer pause replaces one not yet released."""
        held = Pause([(tuple(frame), seconds) for frame, seconds in steps], pressed, status)
        with self._lock:
            self._asked_pause = held
        self._wake()
        return held

    def unpause(self, held: Pause) -> None:
        """End ``held`` (from any thread): the game's last frame comes back at its next wait."""
        held.released = True
        self._wake()

    def note(self, text: str) -> None:
        """A line about the program for beside the game (the web view's address and PIN), from any
        thread: the terminal shows it under the board; a device with no room for words ignores it."""
        with self._lock:
            self._asked_note = text
        self._wake()

    @property
    def paused(self) -> bool:
        """True while a :meth:`pause` is on the LEDs."""
        return self._pause is not None

    @property
    def interluding(self) -> bool:
        """True while an interlude is on the LEDs."""
        return self._interlude is not None

    @property
    def shows_notes(self) -> bool:
        """True if the device shows notes (:class:`~gamelib.backends.device.Noting`)."""
        return isinstance(self._device, Noting)

    # -- the game's thread, around each wait (the stick's) ----------------------------

    def before_wait(self, timeout: Optional[float]) -> Optional[float]:
        """Carry out what other threads asked for; the wait's limit, shortened to the interlude's next step."""
        if self._asked_pause is not None or self._pause is not None:
            limit = self._asked_pauses(timeout)
            if self._pause is not None:       # interludes wait until it ends; notes do not
                with self._lock:
                    note, self._asked_note = self._asked_note, None
                self._carry_note(note)
                return limit
        if self._asked or self._asked_note is not None or self._asked_first is not None:
            with self._lock:
                note, self._asked_note = self._asked_note, None
                asked, self._asked_first = self._asked_first, None
                queue = self._asked
                if asked is None and self._interlude is None and queue and queue[0].ready(self._clock.now(), timeout):
                    asked = queue.popleft()
            self._carry_note(note)
            if asked is not None:
                cut, self._interlude = self._interlude, None      # only a first one finds one playing
                if cut is not None and cut.mirrored:
                    self._screen.tell(self._screen.frame)         # the observers see the game again
                self._interlude = asked
                self._screen.cover = asked.mirrored
                self._interlude_step()
        if self._interlude is None:
            return timeout
        left = max(0.0, self._interlude.due - self._clock.now())
        return left if timeout is None else min(timeout, left)

    def after_wait(self, event: Optional[StickEvent]) -> None:
        """The wait returned ``event`` (physical; ``None``: none): the next step if due; a press at the stick
        ends an interlude (and goes on to the game)."""
        if self._pause is not None:
            if self._clock.now() >= self._pause.due:
                self._pause_step()
        elif self._interlude is not None:
            if event is not None and event.source == STICK and event.action is Action.PRESSED:
                self._end_interlude()
            elif self._clock.now() >= self._interlude.due:
                self._interlude_step()

    def holds(self, event: StickEvent) -> bool:
        """True if a pause keeps ``event`` from the game (a press at the stick goes to its ``pressed``)."""
        paused = self._pause
        if paused is None:
            return False
        if event.source == STICK and event.action is Action.PRESSED and paused.pressed is not None:
            paused.pressed(event)
        return True

    def close(self) -> None:
        """Drop what is up (the backend closes: the LEDs are cleared next)."""
        self._interlude = self._pause = None
        self._screen.cover = None
        self._screen.release_words(say=False)

    def _carry_note(self, note: Optional[str]) -> None:
        if note is not None and note != self.noted:
            self.noted = note
            if isinstance(self._device, Noting):
                self._device.noted(note)

    def _asked_pauses(self, timeout: Optional[float]) -> Optional[float]:
        with self._lock:
            asked, self._asked_pause = self._asked_pause, None
        screen = self._screen
        if asked is not None and not asked.released:
            if self._interlude is not None:      # a pause comes first: an interlude playing is cut short
                self._interlude = None
            self._pause = asked
            screen.cover = True
            screen.hold_words(asked.status)
            self._pause_step()
        held = self._pause
        if held is not None and held.released:
            self._pause = None
            screen.cover = None
            screen.write(screen.frame)
            screen.tell(screen.frame)
            screen.release_words()
            return timeout
        if held is None:
            return timeout
        left = max(0.0, held.due - self._clock.now())
        return left if timeout is None else min(timeout, left)

    def _pause_step(self) -> None:
        held = self._pause
        assert held is not None
        frame = held.next(self._clock.now())
        self._screen.write(frame)
        self._screen.tell(tuple(frame))

    def _interlude_step(self) -> None:
        interlude = self._interlude
        assert interlude is not None
        frame = interlude.next(self._clock.now())
        if frame is None:
            self._end_interlude()
            return
        self._screen.write(frame)
        if interlude.mirrored:
            self._screen.tell(tuple(frame))

    def _end_interlude(self) -> None:
        """Stop the interlude; the game's last frame comes back (to the observers too if they saw it)."""
        interlude, self._interlude = self._interlude, None
        self._screen.cover = None
        if interlude is not None:
            self._screen.write(self._screen.frame)
            if interlude.mirrored:
                self._screen.tell(self._screen.frame)
