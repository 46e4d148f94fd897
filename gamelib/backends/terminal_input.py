"""Keys from a terminal in raw mode, turned into joystick events.

:class:`KeyDecoder` splits the bytes a terminal sends into keys (arrows as
``ESC [ A..D`` or ``ESC O A..D``, Enter as ``\\r`` or ``\\n``, space, ``q``,
Ctrl+C); everything else is skipped.  :class:`KeyRepeat` makes the stick's
``pressed``/``held``/``released`` out of them: a terminal sends no key-up, only
the key again while it is held (its auto-repeat), so the same key again within
:data:`REPEAT_WINDOW` is ``held``, and a release is made up when the repeats
stop or another key comes.  Both are pure (bytes and times in, events out).

Why the window is short: auto-repeat comes every 30-50 ms once it has started,
while a person tapping a key twice takes 150 ms or more; a long window would turn
quick taps (Enter, Enter) into one press and a ``held`` that games ignore.  The
price: a terminal's first repeat comes only after its repeat delay (0.25-0.66 s),
so holding a key reads as press, release, press, held, held...  Left/right then
step like the stick's held repeat; holding Enter past the delay presses it twice.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

from .base import Action, Direction

REPEAT_WINDOW = 0.15
"""The same key again within this many seconds is the key still held down (auto-repeat);
after this long without it, the key counts as released."""

ESCAPE_WAIT = 0.05
"""How long to wait for the rest of an escape sequence split across reads."""

QUIT = "quit"
INTERRUPT = "interrupt"
Key = Union[Direction, str]
"""A :class:`Direction`, :data:`QUIT` (``q``) or :data:`INTERRUPT` (Ctrl+C)."""

_ARROWS = {"A": Direction.UP, "B": Direction.DOWN, "C": Direction.RIGHT, "D": Direction.LEFT}
_SINGLE = {b"\r": Direction.MIDDLE, b"\n": Direction.MIDDLE, b" ": Direction.MIDDLE,
           b"q": QUIT, b"Q": QUIT, b"\x03": INTERRUPT}


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


class KeyRepeat:
    """Joystick press/held/release events from keys and the times they arrived."""

    def __init__(self, window: float = REPEAT_WINDOW) -> None:
        self.window = window
        self._down: Optional[Direction] = None
        self._last = 0.0

    @property
    def release_due(self) -> Optional[float]:
        """When the key now down counts as released if it does not come again."""
        return None if self._down is None else self._last + self.window

    def key(self, direction: Direction, now: float) -> List[Event]:
        """``direction`` arrived at ``now``."""
        events = self.expire(now)
        if direction is self._down:
            self._last = now
            return [(now, direction, Action.HELD)]
        if self._down is not None:
            events.append((now, self._down, Action.RELEASED))
        self._down, self._last = direction, now
        events.append((now, direction, Action.PRESSED))
        return events

    def expire(self, now: float) -> List[Event]:
        """The release of the key that is down, if its repeats have stopped by ``now``."""
        due = self.release_due
        if due is None or now < due:
            return []
        down, self._down = self._down, None
        assert down is not None
        return [(due, down, Action.RELEASED)]
