"""Text scrolling across the 8x8 matrix, right to left, like the Sense HAT's ``show_message``.

Drawn with :mod:`gamelib.font` into ordinary frames, so it looks the same on every
backend.  :class:`Scrolling` holds the ``(frame, seconds)`` steps as a sequence whose
frames are made when asked for (a game can play them inside its own loop, one step per
deadline), :func:`scroll_frames` is the same as a generator, and :func:`scroll` plays them
on a backend and stops at the first press.  A step costs the 8 columns it shows, whatever
the text's length: nothing is made up front but the glyphs' places.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Iterator, List, Mapping, Optional, Sequence, Tuple, Union, overload

from .backends.base import STICK, Action, Backend, Direction, StickEvent
from .colours import RGB
from .font import HEIGHT, draw_glyph, glyph
from .matrix import PIXELS, SIDE
from .keys import Screen, bind, run

SPEED = 0.08
"""Seconds per one-column step (``show_message`` uses 0.1; a little quicker reads as well)."""
TOP = (8 - HEIGHT + 1) // 2
"""The text's top row: the glyphs sit where the score digits do."""

Step = Tuple[Tuple[RGB, ...], float]


class Scrolling(Sequence[Step]):
    """``text`` entering at the right edge and leaving at the left, one column per step, as a
    sequence of ``(frame, seconds)`` steps made when each is asked for.

    The first frame shows the text's first column at ``x = 7``; the last is empty (the text
    just left): ``len`` is the text's width + 8.  A character the font lacks is drawn as
    its fallback box (:data:`gamelib.font.FALLBACK`).  ``marks`` are pixels set on every
    frame (``{index: colour}``: a chooser's place dot).
    """

    def __init__(self, text: str, colour: RGB, background: RGB, *, speed: float = SPEED, y: int = TOP,
                 marks: Mapping[int, RGB] = {}) -> None:   # never changed
        self.colour, self.background, self.speed, self.y = colour, background, speed, y
        self.marks = dict(marks)
        self._glyphs = [glyph(char) for char in text]
        self._starts: List[int] = []
        x = 0
        for rows in self._glyphs:
            self._starts.append(x)
            x += len(rows[0]) + 1
        self.width = max(0, x - 1)
        """The text's width in columns, one dark column between glyphs."""

    def __len__(self) -> int:
        return self.width + 8

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> List[Step]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Step, List[Step]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return tuple(self.pixels(index)), self.speed

    def pixels(self, index: int) -> List[RGB]:
        """Step ``index``'s frame as a new list of 64 pixels."""
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("no such step")
        x = SIDE - 1 - index
        pixels = [self.background] * PIXELS
        starts = self._starts
        # the first glyph that may reach column 0 (none is wider than 5 columns), then those left of column 8
        k = bisect_right(starts, -x - 5)
        while k < len(starts) and x + starts[k] < SIDE:
            draw_glyph(pixels, self._glyphs[k], self.colour, x + starts[k], self.y)
            k += 1
        for place, colour in self.marks.items():
            pixels[place] = colour
        return pixels


def scroll_frames(text: str, colour: RGB, background: RGB, *, speed: float = SPEED,
                  y: int = TOP) -> Iterator[Tuple[List[RGB], float]]:
    """:class:`Scrolling`'s steps one after another, each frame a new list."""
    steps = Scrolling(text, colour, background, speed=speed, y=y)
    for index in range(len(steps)):
        yield steps.pixels(index), speed


def scroll(backend: Backend, text: str, colour: RGB, background: RGB, *,
           speed: float = SPEED, stop_on_press: bool = True) -> bool:
    """Scroll ``text`` on ``backend`` once; True if a press (any direction) ended it early.

    Each frame is due ``speed`` after the previous one, so a slow write does not
    stretch the message; between frames the loop waits on the stick.  Presses are
    thrown away when ``stop_on_press`` is false, and always when they come from another
    source than the backend's own stick (a phone's).  The LEDs are left with the last,
    empty frame.
    """
    screen = Scroll(backend, scroll_frames(text, colour, background, speed=speed), stop_on_press=stop_on_press)
    run(backend, screen)
    return screen.stopped


class Scroll(Screen):
    """:func:`scroll`'s screen: each frame at its deadline (the first at once), done after the last one's
    time; any press of the backend's own stick (when ``stop_on_press``) ends it, :attr:`stopped`."""

    def __init__(self, backend: Backend, steps: Iterator[Tuple[List[RGB], float]], *, stop_on_press: bool) -> None:
        self.backend = backend
        self.stopped = False
        self._steps = steps
        self._stop_on_press = stop_on_press
        self._due = backend.now()
        self.due()

    def deadline(self) -> Optional[float]:
        return self._due

    def due(self) -> None:
        """The next frame, due ``speed`` after the last one's deadline (a slow write does not stretch it)."""
        step = next(self._steps, None)
        if step is None:
            self.done = True
            return
        pixels, seconds = step
        self.backend.screen.show(pixels)
        self._due += seconds

    def heeds(self, event: StickEvent) -> bool:
        return self._stop_on_press and event.source == STICK

    def _pressed(self, event: StickEvent) -> None:
        self.stopped = self.done = True

    KEYS = bind(_pressed, *((direction, Action.PRESSED) for direction in Direction))
    """Any press ends the scroll."""
