"""Keys from a terminal in raw mode, turned into joystick events.

:class:`KeyDecoder` splits the bytes a terminal sends into keys (arrows as
``ESC [ A..D`` or ``ESC O A..D``, Enter as ``\\r`` or ``\\n``, space, ``q``, ``p``,
Ctrl+C); everything else is skipped.  :class:`KeyRepeat` makes the stick's
``pressed``/``held``/``released`` out of them.  Both are pure (bytes and times
in, events out).

A terminal sends no key-up, only the key again while it is held (its
auto-repeat): first after the keyboard's repeat delay (0.25-0.66 s), then every
30-50 ms.  So a key held down reads as: press, (delay), key, key, key...; and a
key tapped twice reads as: press, (a pause), key.  The second arrival looks the
same in both; what tells them apart is what follows it: auto-repeat sends the
key again within :data:`FOLLOW`.  :class:`KeyRepeat` therefore

- makes every arrival of left or right a whole tap (``pressed`` and ``released``
  at once), however close to the last: taps 80 ms apart, or slow ones that a
  network bunched into one read, each step the cursor once, and a held arrow steps
  at the pace of the terminal's own auto-repeat (no ``held``: the stick's
  ``held`` events are paced by :class:`~gamelib.stepper.Stepper`, which would
  swallow quick taps);
- makes the first arrival of up, down or middle ``pressed``;
- makes the same key within :data:`REPEAT_WINDOW` of the last one ``held`` (the
  repeat stream);
- for the first repeat after a press (within :data:`REPEAT_DELAY`) waits
  :data:`FOLLOW` for the next repeat: ``held`` if it comes (so holding Enter drops
  one token, and holding up asks to abandon without confirming it), else a new
  ``pressed`` (so Enter, Enter and up, up are two presses);
- makes a ``released`` when the repeats stop, or at once when another key comes.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

from .base import Action, Direction

REPEAT_WINDOW = 0.15
"""Once a key repeats, the same key again within this many seconds is still the key held
down; after this long without it, the key counts as released."""

REPEAT_DELAY = 0.7
"""The longest keyboard repeat delay we allow for (X11's default is 0.66 s): a key that
does not come again within this long after its press counts as released."""

FOLLOW = 0.1
"""How long an up/down/middle arriving again within the repeat delay waits for a next
repeat before it counts as a second press."""

ESCAPE_WAIT = 0.05
"""How long to wait for the rest of an escape sequence split across reads."""

QUIT = "quit"
INTERRUPT = "interrupt"
PAIR = "pair"
UP_DOWN = "up-down"
Key = Union[Direction, str]
"""A :class:`Direction`, :data:`QUIT` (``q``), :data:`PAIR` (``p``: the pairing gesture), :data:`UP_DOWN` (``u``
or Backspace: up then down, Connect 4's take-back with helps on) or :data:`INTERRUPT` (Ctrl+C).  ``h`` is
the middle (Connect 4's hint with helps on), as Enter is."""

_ARROWS = {"A": Direction.UP, "B": Direction.DOWN, "C": Direction.RIGHT, "D": Direction.LEFT}
_SINGLE = {b"\r": Direction.MIDDLE, b"\n": Direction.MIDDLE, b" ": Direction.MIDDLE,
           b"h": Direction.MIDDLE, b"H": Direction.MIDDLE, b"u": UP_DOWN, b"U": UP_DOWN, b"\x7f": UP_DOWN,
           b"\x08": UP_DOWN, b"q": QUIT, b"Q": QUIT, b"p": PAIR, b"P": PAIR, b"\x03": INTERRUPT}


class KeyDecoder:
    """Feed bytes, get keys; keeps an incomplete escape sequence for the next feed."""

    def __init__(self) -> None:
        self._buffer = b""

    @property
    def pending(self) -> bool:
        """True while an escape sequence has started but not ended."""
        return bool(self._buffer)

    def feed(self, data: bytes) -> List[Key]:
        self._buffer += data
        keys: List[Key] = []
        buf = self._buffer
        i = 0
        while i < len(buf):
            byte = buf[i:i + 1]
            if byte != b"\x1b":
                key = _SINGLE.get(byte)
                if key is not None:
                    keys.append(key)
                i += 1
                continue
            end = _sequence_end(buf, i)
            if end is None:  # incomplete: keep it for the next read
                break
            body = buf[i:end].decode("latin-1")
            if len(body) >= 3 and body[1] in "[O" and body[-1] in _ARROWS:
                keys.append(_ARROWS[body[-1]])
            i = end
        self._buffer = buf[i:]
        return keys

    def flush(self) -> List[Key]:
        """Give up on an incomplete sequence (a lone Escape key, or garbage): skip it."""
        self._buffer = b""
        return []


def _sequence_end(buf: bytes, start: int) -> Optional[int]:
    """End (exclusive) of the escape sequence at ``start``, or ``None`` if it is cut short."""
    if start + 1 >= len(buf):
        return None
    kind = buf[start + 1:start + 2]
    if kind == b"O":  # SS3: one more byte
        return start + 3 if start + 2 < len(buf) else None
    if kind == b"[":  # CSI: parameters and intermediates, then a final byte 0x40-0x7e
        for j in range(start + 2, len(buf)):
            if 0x40 <= buf[j] <= 0x7E:
                return j + 1
            if not 0x20 <= buf[j] <= 0x3F:
                return j  # not a CSI after all: skip what we saw
        return None
    if kind == b"\x1b":
        return start + 1  # Escape pressed twice: skip the first
    return start + 2  # Alt+key: skip both


Event = Tuple[float, Direction, Action]

_STEPS = (Direction.LEFT, Direction.RIGHT)
"""Keys whose every arrival is a tap (one step of a cursor)."""


class KeyRepeat:
    """Joystick press/held/release events from keys and the times they arrived."""

    def __init__(self) -> None:
        self._down: Optional[Direction] = None
        self._last = 0.0
        self._repeating = False
        self._maybe: Optional[float] = None  # an arrival that may be a repeat or a second tap

    @property
    def release_due(self) -> Optional[float]:
        """When :meth:`expire` next has something to say (a release, or a second tap decided)."""
        if self._down is None:
            return None
        if self._maybe is not None:
            return self._maybe + FOLLOW
        return self._last + (REPEAT_WINDOW if self._repeating else REPEAT_DELAY)

    def key(self, direction: Direction, now: float) -> List[Event]:
        """``direction`` arrived at ``now``."""
        events = self.expire(now)
        if direction is self._down:
            if self._repeating or self._maybe is not None or now - self._last <= REPEAT_WINDOW:
                return events + self._repeat(now)  # a second arrival soon after: auto-repeat
            self._maybe = now  # a repeat after the delay, or a second tap: the next arrival tells
            return events
        events.extend(self._let_go(now))
        if direction in _STEPS:
            return events + [(now, direction, Action.PRESSED), (now, direction, Action.RELEASED)]
        self._press(direction, now)
        return events + [(now, direction, Action.PRESSED)]

    def expire(self, now: float) -> List[Event]:
        """What has happened by ``now`` without a key: a second tap decided, or a release."""
        due = self.release_due
        if due is None or now < due:
            return []
        down = self._down
        assert down is not None
        if self._maybe is not None:  # no repeat followed: it was a second tap
            return self._second_tap() + self.expire(now)
        self._down = None
        return [(due, down, Action.RELEASED)]

    def settle(self) -> None:
        """Forget an arrival not yet told apart (its events are being thrown away); a key
        still down stays down, so its repeats go on as ``held``, never as a new press."""
        self._maybe = None

    def _press(self, direction: Direction, now: float) -> None:
        self._down, self._last, self._repeating, self._maybe = direction, now, False, None

    def _let_go(self, now: float) -> List[Event]:
        """Another key came at ``now``: the key down is released (after its second tap, if one
        was waiting to be told apart)."""
        events = [] if self._maybe is None else self._second_tap()
        if self._down is not None:
            events.append((now, self._down, Action.RELEASED))
            self._down = None
        return events

    def _second_tap(self) -> List[Event]:
        tap, down = self._maybe, self._down
        assert tap is not None and down is not None
        self._press(down, tap)
        return [(tap, down, Action.RELEASED), (tap, down, Action.PRESSED)]

    def _repeat(self, now: float) -> List[Event]:
        down = self._down
        assert down is not None
        events: List[Event] = [] if self._maybe is None else [(self._maybe, down, Action.HELD)]
        self._maybe, self._repeating, self._last = None, True, now
        return events + [(now, down, Action.HELD)]
