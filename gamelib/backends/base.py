"""The one interface every Sense HAT backend implements, the joystick event types, and the
observers of what a backend shows.

A backend owns the 8x8 display, the joystick and a clock.  Rotation is applied
here, once, to the display *and* the stick, so that "left" on the stick is left
as the player sees the picture.

Besides its own stick, a backend takes events from other threads
(:meth:`Backend.inject`: a phone's presses, another Pi's) and wake-ups
(:meth:`Backend.wake`: the computer has its move) into the same wait, and tells
its observers (:meth:`Backend.observe`) every frame it shows and every
:class:`~gamelib.status.Status` the game says.  Its :attr:`Backend.seats` say which
seat those other sticks play; another thread may also ask it to show an
:meth:`~Backend.interlude` over the game (the web view's PIN) and a
:meth:`~Backend.note` beside it (the page's address), which the game's own thread
carries out in its next wait.

The pairing gesture is seen here, once for every game: the stick's middle held for
:data:`PAIR_HOLD` seconds (its first ``pressed`` reaches the game as any press does;
no game acts on a ``held`` middle).  :meth:`Backend.pair` then tells the pairing
listeners (:meth:`Backend.watch_pairing`: the web view, which shows a pairing PIN at
once); a backend may call it for a key of its own too (the terminal's ``p``).

A backend is this one composing object around a :class:`~gamelib.backends.device.Device`
(:mod:`.device`: write a frame, the waitables, read the stick, close): the HAT's or the
emulator's (:mod:`.senselib`), the terminal's, the mock's.  Only :meth:`Backend._read` waits,
in one ``select()`` on the device's waitables and the inbox together, so injected events and
wake-ups end the wait and waiting costs no CPU; no device sees the inbox.  A subclass opens its
device, then calls ``super().__init__(device, ...)``; it **may** override :meth:`Backend._said`
(the terminal prints a status's caption), :meth:`Backend._noted` (it prints a note),
:meth:`Backend.notice` and :meth:`Backend._pairing_watched`.  A device that dims its LEDs is
:class:`~gamelib.backends.device.Dimmable`; the mock brings its fake clock
(:class:`~gamelib.backends.device.Clock`).
"""
from __future__ import annotations

import enum
import logging
import reprlib
import threading
from collections import deque
from dataclasses import dataclass
from typing import Callable, Deque, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

from gamelib.colours import BLACK, RGB

from ..errors import ConfigError
from ..i18n import _
from ..matrix import PIXELS, SIDE
from ..palette import DEFAULT as DEFAULT_PALETTE
from ..seats import SeatTable
from ..status import Status
from .device import Clock, Device, Dimmable
from .entry import Needs
from .inbox import Inbox
from .interlude import QUEUED, Pause, Interlude, Step

log = logging.getLogger("gamelib")
Told = TypeVar("Told")
"""What an observer is told: a picture, or a status."""

Frame = Sequence[RGB]
"""64 (:data:`~gamelib.matrix.PIXELS`) ``(r, g, b)`` pixels, row by row from the top left (index ``y * 8 + x``)."""
Picture = Tuple[RGB, ...]
"""A frame as observers get it: 64 ``(r, g, b)`` tuples in a tuple (it cannot change: keep it)."""

STICK = "stick"
"""The source of the backend's own joystick (the HAT's, the emulator's, the terminal's arrow keys)."""

ROTATIONS = (0, 90, 180, 270)

PAIR_HOLD = 3.0
"""Seconds the stick's middle is held (from its press) for the pairing gesture (:meth:`Backend.pair`)."""


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
    """One joystick event; ``timestamp`` is on the backend's own clock (:meth:`Backend.now`).

    ``source`` says whose stick it came from: :data:`STICK` for the backend's own, else
    what was given to :meth:`Backend.inject` (a phone's seat, another Pi).
    """

    timestamp: float
    direction: Direction
    action: Action
    source: str = STICK


class Observer:
    """Watches a backend (:meth:`Backend.observe`): a mirror of the LEDs, a web page's feed.

    Both methods are called in the game's thread, synchronously, as the frame is shown or
    the status said, so they must not block: copy what is needed (a :data:`Picture` and a
    :class:`~gamelib.status.Status` never change, so keeping them is enough) and hand it to
    another thread (a queue, an event loop's ``call_soon_threadsafe``).  An observer that
    raises is logged and dropped; the game goes on.  Override either or both.
    """

    def shown(self, frame: Picture) -> None:
        """A frame was shown: the logical 8x8 picture, before rotation, as the players see it."""

    def said(self, status: Status) -> None:
        """The game said what the LEDs show, in words (:meth:`Backend.say`)."""


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
    for y in range(SIDE):
        for x in range(SIDE):
            px, py = x, y
            for _turn in range(rotation // 90):
                px, py = SIDE - 1 - py, px
            result.append(py * SIDE + px)
    return result


def check_rotation(rotation: int) -> int:
    """``rotation`` if it is the integer 0, 90, 180 or 270, else :class:`ConfigError` (``90.0`` and
    ``True`` are refused: a float or a bool would break the pixel tables)."""
    if type(rotation) is not int or rotation not in ROTATIONS:
        raise ConfigError(_("rotation must be one of 0, 90, 180, 270 (not {value})").format(value=reprlib.repr(rotation)))
    return rotation


class Backend:
    """A Sense HAT (real, emulated, mocked...) behind one interface.

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
        self._rotation = 0
        self._pixels: List[int] = _pixel_map(0)
        self._stick_table: Dict[Direction, Direction] = _stick_map(0)
        self._observers: Tuple[Observer, ...] = ()
        self._observers_lock = threading.Lock()
        self._frame: Picture = (BLACK,) * PIXELS
        self._status: Optional[Status] = None
        self._inbox = Inbox()
        self.seats = SeatTable()
        """Which seat another stick plays (a phone's): read by the game, written by the web server."""
        self.palette: str = DEFAULT_PALETTE
        """The name of the palette the games draw with (:data:`gamelib.palette.PALETTES`; ``--palette``, the
        launcher's setting): a setting of the LEDs, read by the game and the web view (its ``/palette.css``)."""
        self._asked_lock = threading.Lock()
        self._asked_interludes: Deque[Interlude] = deque(maxlen=QUEUED)
        self._asked_first: Optional[Interlude] = None
        """An interlude to show ahead of the queue, cutting short the one playing (:meth:`interlude`'s ``first``)."""
        self._asked_note: Optional[str] = None
        self._interlude: Optional[Interlude] = None
        self._asked_pause: Optional[Pause] = None
        self._pause: Optional[Pause] = None
        self._under: Optional[Status] = None
        """The game's words while a pause is up (said again when it ends)."""
        self.noted = ""
        """The last :meth:`note` carried out."""
        self._pairing: Tuple[Callable[[], None], ...] = ()
        self._middle_since: Optional[float] = None
        """When the stick's middle went down (``None``: it is up, as far as the events read say)."""
        self._middle_paired = False
        """The hold in progress has made the pairing gesture already (once per hold)."""
        try:
            self.rotation = rotation
            self._low_light = False
            if low_light:
                self.low_light = True
        except BaseException:
            self._inbox.close()
            raise

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
        """Write a whole 64-pixel frame (as the player sees it) in one call, then tell the observers."""
        if len(frame) != PIXELS:
            raise ValueError(f"a frame has {PIXELS} pixels, not {len(frame)}")
        logical: Picture = tuple(tuple(pixel) for pixel in frame)  # type: ignore[misc]
        self._frame = logical
        if self._pause is not None:
            return  # kept, and shown when the pause ends
        if self._interlude is not None:
            if not self._interlude.mirrored:
                self._tell_shown(logical)
            return  # kept, and shown when the interlude ends
        self._write_logical(logical)
        self._tell_shown(logical)

    def _write_logical(self, logical: Sequence[RGB]) -> None:
        physical: List[RGB] = [BLACK] * PIXELS
        for index, target in enumerate(self._pixels):
            physical[target] = logical[index]
        self._write(physical)

    def _tell_shown(self, logical: Picture) -> None:
        for observer in self._observers:
            self._tell(observer, observer.shown, logical)

    def clear(self) -> None:
        """Turn every LED off."""
        self.show([BLACK] * PIXELS)

    @property
    def frame(self) -> Picture:
        """The last frame shown, as the players see it (all off before the first)."""
        return self._frame

    # -- words and observers --------------------------------------------------

    def say(self, status: Status) -> None:
        """Say what the LEDs show, in words: kept as :attr:`status`, passed to :meth:`_said` and to
        every observer (a status equal to the last one is not passed on again)."""
        if self._pause is not None:
            self._under = status   # said when the pause ends
            return
        self._say_now(status)

    def _say_now(self, status: Status) -> None:
        if status == self._status:
            return
        self._status = status
        self._said(status)
        for observer in self._observers:
            self._tell(observer, observer.said, status)

    @property
    def status(self) -> Optional[Status]:
        """The last status said (``None`` before the first)."""
        return self._status

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

    # -- the pairing gesture ----------------------------------------------------

    def watch_pairing(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` at every pairing gesture from now on (:meth:`pair`; safe from any thread);
        returns the function that stops it.  It is called in the game's thread and must not block."""
        with self._observers_lock:
            self._pairing = self._pairing + (listener,)
        self._pairing_watched(True)
        return lambda: self._unwatch_pairing(listener)

    def _unwatch_pairing(self, listener: Callable[[], None]) -> None:
        with self._observers_lock:
            self._pairing = tuple(known for known in self._pairing if known is not listener)
            watched = bool(self._pairing)
        self._pairing_watched(watched)

    @property
    def pairing_watched(self) -> bool:
        """True while someone listens for the pairing gesture (the web view serves seats)."""
        return bool(self._pairing)

    def pair(self) -> None:
        """The person at the Pi asked to pair a device (the stick's middle held :data:`PAIR_HOLD` seconds, or
        a backend's own key): tell every pairing listener, here, in the game's thread.  A listener that
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

    # -- joystick -----------------------------------------------------------

    def wait_event(self, timeout: Optional[float] = None) -> Optional[StickEvent]:
        """Block until a joystick event arrives (``None`` after ``timeout`` seconds, or sooner
        when :meth:`wake` is called).

        ``timeout=None`` waits for ever.  Waiting never spins: real backends
        block in ``select()``.  Events :meth:`inject`-ed by other threads come here too,
        stamped with this backend's clock as they are read.
        """
        event = self._injected()
        if event is None:
            limit = self._asked(timeout)
            event = self._read(limit)
            if self._pause is not None:
                if self.now() >= self._pause.due:
                    self._pause_step()
            elif self._interlude is not None:
                if event is not None and event.source == STICK and event.action is Action.PRESSED:
                    self._end_interlude()      # a press at the stick ends it, and goes on to the game
                elif self.now() >= self._interlude.due:
                    self._interlude_step()
            if event is None:
                event = self._injected()
            elif event.source == STICK:   # the mock's events from another source are as the players see them
                event = StickEvent(event.timestamp, self._stick_table[event.direction], event.action)
                self._watch_middle(event)
        paused = self._pause
        if event is not None and paused is not None:   # paused: the game gets nothing; the stick's presses go to the pause
            if event.source == STICK and event.action is Action.PRESSED and paused.pressed is not None:
                paused.pressed(event)
            return None
        return event

    def inject(self, direction: Union[Direction, str], action: Union[Action, str] = Action.PRESSED, *,
               source: str) -> bool:
        """Queue an event from another stick (a phone, another Pi), from any thread; the wait in
        progress returns it at once.  ``direction`` is as the players see the picture (it is not
        turned by :attr:`rotation`); ``source`` names the stick.  False if it was refused: the
        backend is closed, or :data:`~gamelib.backends.inbox.LIMIT` events are already waiting."""
        return self._inbox.put(Direction(direction), Action(action), source)

    def wake(self) -> None:
        """Make the wait in progress (or the next one) return ``None`` at once; from any thread
        (a player that found its move in a thread says so)."""
        self._inbox.wake()

    # -- interludes and notes, asked for by other threads --------------------------------

    def interlude(self, steps: Sequence[Step], *, mirrored: bool = False, first: bool = False) -> None:
        """Show ``steps`` (``(frame, seconds)``) over the game at its next wait for a person, from any
        thread (:mod:`.interlude`: the game goes on underneath; a press at the stick ends it and is the
        game's, as any other), after
        those asked before.  ``mirrored``: observers see it too (else only the LEDs do: the PIN).
        ``first``: at the game's next wait whatever it is, ahead of those waiting, cutting short the one
        playing (the pairing PIN the person at the Pi asked for); a newer one replaces it if not begun."""
        asked = Interlude([(tuple(frame), seconds) for frame, seconds in steps], mirrored)
        with self._asked_lock:
            if first:
                self._asked_first = asked
            else:
                self._asked_interludes.append(asked)
        self.wake()

    def pause(self, steps: Sequence[Step], *, pressed: Optional[Callable[[StickEvent], None]] = None,
             status: Optional[Status] = None) -> Pause:
        """Show ``steps`` (``(frame, seconds)``, over and over) over the game from its next wait until
        :meth:`unpause`, from any thread (another Pi's link dropped: the game waits for it).  The game
        goes on underneath, but gets no event meanwhile: a press at the stick goes to ``pressed``
        (called in the game's thread) and nothing else does anything.  Observers see it (the web page
        shows the wait too), and ``status`` is said meanwhile (the game's words come back with its
        frame).  A newer pause replaces one not yet released."""
        held = Pause([(tuple(frame), seconds) for frame, seconds in steps], pressed, status)
        with self._asked_lock:
            self._asked_pause = held
        self.wake()
        return held

    def unpause(self, held: Pause) -> None:
        """End ``held`` (from any thread): the game's last frame comes back at its next wait."""
        held.released = True
        self.wake()

    @property
    def paused(self) -> bool:
        """True while a :meth:`pause` is on the LEDs."""
        return self._pause is not None

    def note(self, text: str) -> None:
        """A line about the program for beside the game (the web view's address and PIN), from any
        thread: the terminal shows it under the board; a backend with no room for words ignores it."""
        with self._asked_lock:
            self._asked_note = text
        self.wake()

    def _asked(self, timeout: Optional[float]) -> Optional[float]:
        """Carry out what other threads asked for; the wait's limit, shortened to the interlude's next step."""
        if self._asked_pause is not None or self._pause is not None:
            limit = self._asked_pauses(timeout)
            if self._pause is not None:       # interludes wait until it ends; notes do not
                with self._asked_lock:
                    note, self._asked_note = self._asked_note, None
                if note is not None and note != self.noted:
                    self.noted = note
                    self._noted(note)
                return limit
        if self._asked_interludes or self._asked_note is not None or self._asked_first is not None:
            with self._asked_lock:
                note, self._asked_note = self._asked_note, None
                asked, self._asked_first = self._asked_first, None
                queue = self._asked_interludes
                if asked is None and self._interlude is None and queue and queue[0].ready(self.now(), timeout):
                    asked = queue.popleft()
            if note is not None and note != self.noted:
                self.noted = note
                self._noted(note)
            if asked is not None:
                cut, self._interlude = self._interlude, None      # only a first one finds one playing
                if cut is not None and cut.mirrored:
                    self._tell_shown(self._frame)                 # the observers see the game again
                self._interlude = asked
                self._interlude_step()
        if self._interlude is None:
            return timeout
        left = max(0.0, self._interlude.due - self.now())
        return left if timeout is None else min(timeout, left)

    def _asked_pauses(self, timeout: Optional[float]) -> Optional[float]:
        with self._asked_lock:
            asked, self._asked_pause = self._asked_pause, None
        if asked is not None and not asked.released:
            if self._interlude is not None:      # a pause comes first: an interlude playing is cut short
                self._interlude = None
            if self._pause is None:
                self._under = self._status
            self._pause = asked
            if asked.status is not None:
                self._say_now(asked.status)
            self._pause_step()
        held = self._pause
        if held is not None and held.released:
            self._pause = None
            self._write_logical(self._frame)
            self._tell_shown(self._frame)
            if self._under is not None:
                self._say_now(self._under)
            return timeout
        if held is None:
            return timeout
        left = max(0.0, held.due - self.now())
        return left if timeout is None else min(timeout, left)

    def _pause_step(self) -> None:
        held = self._pause
        assert held is not None
        frame = held.next(self.now())
        self._write_logical(frame)
        self._tell_shown(tuple(frame))

    def _interlude_step(self) -> None:
        interlude = self._interlude
        assert interlude is not None
        frame = interlude.next(self.now())
        if frame is None:
            self._end_interlude()
            return
        self._write_logical(frame)
        if interlude.mirrored:
            self._tell_shown(tuple(frame))

    def _end_interlude(self) -> None:
        """Stop the interlude; the game's last frame comes back (to the observers too if they saw it)."""
        interlude, self._interlude = self._interlude, None
        if interlude is not None:
            self._write_logical(self._frame)
            if interlude.mirrored:
                self._tell_shown(self._frame)

    def notice(self, text: str) -> None:  # an optional hook
        """Show ``text`` beside the picture until the program prints a line (the terminal, under the board:
        a line printed before the board would be hidden by it); the default does nothing."""

    @property
    def shows_notes(self) -> bool:
        """True if this backend shows notes (it overrides :meth:`_noted`)."""
        return type(self)._noted is not Backend._noted

    @property
    def interluding(self) -> bool:
        """True while an interlude is on the LEDs."""
        return self._interlude is not None

    def _injected(self) -> Optional[StickEvent]:
        taken = self._inbox.take()
        return None if taken is None else StickEvent(self.now(), *taken)

    def discard_events(self) -> int:
        """Throw away every event already queued (the stick's and the injected ones); return how many."""
        count = 0
        while True:
            event = self._read(0)
            if event is None:
                break
            count += 1
            if event.source == STICK:   # the pairing gesture follows the stick all the same
                self._watch_middle(StickEvent(event.timestamp, self._stick_table[event.direction], event.action))
        return count + self._inbox.discard()

    # -- clock --------------------------------------------------------------

    def now(self) -> float:
        """Seconds on a monotonic clock (the mock's is fake and advanced by waiting)."""
        return self._time.now()

    # -- lifetime -----------------------------------------------------------

    def close(self) -> None:
        """Clear the LEDs and release the hardware; safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        self._interlude = None
        self._pause = None
        try:
            self.clear()
            if self._low_light:
                self.low_light = False  # the emulator keeps gamma between programs
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

    # -- the device ------------------------------------------------------------

    def _write(self, pixels: List[RGB]) -> None:
        """Write 64 physical pixels (already rotated) to the LEDs."""
        self.device.write(pixels)

    def _read(self, timeout: Optional[float]) -> Optional[StickEvent]:
        """The next *physical* stick event, or ``None`` after ``timeout`` or as soon as the inbox is
        readable (another thread's event or wake-up): the one wait of every backend, on the device's
        waitables and the inbox together; the stick's events come first."""
        device, clock, inbox = self.device, self._time, self._inbox
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

    def _set_low_light(self, value: bool) -> None:
        """Dim (or undim) the LEDs: the device's :meth:`~gamelib.backends.device.Dimmable.set_low_light`, if
        it has one."""
        if isinstance(self.device, Dimmable):
            self.device.set_low_light(value)

    def _said(self, status: Status) -> None:  # an optional hook
        """The game said ``status`` (:meth:`say`); the default does nothing (the terminal prints
        its caption)."""

    def _noted(self, text: str) -> None:  # an optional hook
        """Show the :meth:`note` ``text`` (in the game's thread); the default does nothing (the
        terminal prints it under the board)."""

    def _pairing_watched(self, watched: bool) -> None:  # an optional hook
        """Someone listens for the pairing gesture now (or nobody does any more), told in the thread that
        started or stopped listening; the default does nothing (the terminal's key help names its ``p``
        at its next drawing)."""
