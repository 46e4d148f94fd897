"""Text scrolling across the 8x8 matrix, right to left, like the Sense HAT's ``show_message``.

Drawn with :mod:`gamelib.font` into ordinary frames, so it looks the same on every
backend.  :func:`scroll_frames` is a pure generator of ``(frame, seconds)`` steps (a
game can play them inside its own loop); :func:`scroll` plays them on a backend and
stops at the first press.
"""
from __future__ import annotations

from typing import Iterator, List, Tuple

from .backends.base import STICK, Action, Backend
from .colours import BLACK, RGB
from .font import HEIGHT, draw_text, text_width

SPEED = 0.08
"""Seconds per one-column step (``show_message`` uses 0.1; a little quicker reads as well)."""
TOP = (8 - HEIGHT + 1) // 2
"""The text's top row: the glyphs sit where the score digits do."""


def scroll_frames(text: str, colour: RGB, background: RGB = BLACK, *, speed: float = SPEED,
                  y: int = TOP) -> Iterator[Tuple[List[RGB], float]]:
    """``text`` entering at the right edge and leaving at the left, one column per step.

    The first frame shows the text's first column at ``x = 7``; the last is empty (the
    text just left).  Every character must be in the font (``KeyError`` otherwise).
    """
    width = text_width(text)
    for x in range(7, -width - 1, -1):
        pixels = [background] * 64
        draw_text(pixels, text, colour, x=x, y=y)
        yield pixels, speed


def scroll(backend: Backend, text: str, colour: RGB, background: RGB = BLACK, *,
           speed: float = SPEED, stop_on_press: bool = True) -> bool:
    """Scroll ``text`` on ``backend`` once; True if a press (any direction) ended it early.

    Each frame is due ``speed`` after the previous one, so a slow write does not
    stretch the message; between frames the loop waits on the stick.  Presses are
    thrown away when ``stop_on_press`` is false, and always when they come from another
    source than the backend's own stick (a phone's).  The LEDs are left with the last,
    empty frame.
    """
    due = backend.now()
    for pixels, seconds in scroll_frames(text, colour, background, speed=speed):
        backend.show(pixels)
        due += seconds
        while True:
            left = due - backend.now()
            if left <= 0:
                break
            event = backend.wait_event(left)
            if event is not None and event.action is Action.PRESSED and event.source == STICK and stop_on_press:
                return True
    return False
