"""Choosing before a match with the joystick: the opponent (``2P``, levels 1-9 or ``M``, *match me*), then the
board size, then (against the computer) the helps: ``-`` none, ``H`` hints and take-backs.

Left/right browse (with wrap-around; held, at the game's pace), down or middle
chooses, up backs out: on the backend's own stick (another source's presses, a phone's, do
nothing here).  The opponent chooser's last entry, ``?``, scrolls
:data:`RULES` across the LEDs once (any press ends it) and comes back to ``?``.  On the opponent chooser a dot on the top row shows where in the
list you are (a scroll bar: the first entry at the left, the last at the right); the size chooser shows each size's empty field where the game will
draw it, under a white lid across its columns.  Every frame is drawn in the backend's palette when the chooser
opens (:attr:`~gamelib.backends.base.Backend.palette`).  Each chooser is a :class:`Browse` screen,
its keys in its ``KEYS``, run by :func:`gamelib.keys.run`; it waits without a timeout, so it costs
no CPU while nobody moves.
Each item shown is said in words too (:mod:`.words`: ``2 players``, ``computer: 1 easy`` up to
``computer: 9 perfect``, ``rules``, ``board size: 6x5``), for the terminal's status line and a mirror.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from gamelib.backends.base import STICK, Action, Backend, Direction, StickEvent
from gamelib.colours import RGB
from gamelib.font import centred_text
from gamelib.icons import picture
from gamelib.keys import Screen, bind, run
from gamelib.matrix import SIDE
from gamelib.palette import Palette
from gamelib.scroll import scroll
from gamelib.status import Status
from gamelib.stepper import Stepper

from ..i18n import N_, _
from ..rules import Size
from . import render, words
from .entries import CHOICES as CHOICES, LAN_INDEX as LAN_INDEX  # the table
from .entries import MATCH_ME_INDEX as MATCH_ME_INDEX, RULES_INDEX as RULES_INDEX, Entry as Entry
from .opponents import HUMAN, LAN, OPPONENTS, Opponent

LAN_ICON = ("........",
            "..CCCC..",
            ".C....C.",
            "C..CC..C",
            "..C..C..",
            "........",
            "...WW...",
            "...WW...")
"""The LAN's entry: a sender's waves (row 0 is the place dot's)."""

RULES = N_("Four in a row wins: across, up or diagonal.  Left/right: move.  Down or middle: drop.  Up: leave.")
"""What ``?`` scrolls (the font draws it in capitals), translated where it scrolls."""

Frame = Sequence[RGB]

def place(index: int, count: int = len(CHOICES)) -> int:
    """The top row's pixel that marks entry ``index`` of ``count``: the first at the left, the last
    at the right, in order between (neighbours may share a pixel when there are more than 8)."""
    return index * SIDE // count


def choice_frame(index: int, palette: Palette) -> List[RGB]:
    """The label of choice ``index`` in ``palette``, with a dot on the top row marking its place."""
    entry, label, role = CHOICES[index]
    colour = role(palette)
    pixels = (list(picture(LAN_ICON, {"C": palette.lan, "W": palette.text}, palette.background)) if entry == LAN
              else centred_text(label, colour, palette.background))
    pixels[place(index)] = colour
    return pixels


class Browse(Screen):
    """The choosers' screen: ``frames[index]`` shown (and ``said[index]`` said), its :attr:`KEYS`
    stepping through them; :attr:`chosen` is the index chosen, ``None`` if backed out."""

    def __init__(self, backend: Backend, frames: Sequence[Frame], index: int,
                 said: Optional[Sequence[Status]] = None) -> None:
        self.backend = backend
        self.frames = frames
        self.index = index
        self.said = said
        self.chosen: Optional[int] = None
        self._stepper = Stepper()

    def heeds(self, event: StickEvent) -> bool:
        return event.source == STICK  # choosing is done at the backend's own stick (a phone has no seat yet)

    def show(self) -> None:
        """Show (and say) the entry at :attr:`index`."""
        self.backend.screen.show(self.frames[self.index])
        if self.said is not None:
            self.backend.screen.say(self.said[self.index])

    def step(self, event: StickEvent) -> None:
        """Left/right: the previous or next entry (wrapping); held, at the stepper's pace."""
        step = self._stepper.step(event)
        if step:
            self.index = (self.index + step) % len(self.frames)
            self.show()

    def choose(self, event: StickEvent) -> None:
        """Down or middle: the entry shown is chosen."""
        self.chosen = self.index
        self._leave()

    def back(self, event: StickEvent) -> None:
        """Up: nothing chosen."""
        self._leave()

    def _leave(self) -> None:
        self.backend.screen.clear()
        self.done = True

    KEYS = {**bind(step, *((d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD))),
            **bind(choose, (Direction.DOWN, Action.PRESSED), (Direction.MIDDLE, Action.PRESSED)),
            **bind(back, (Direction.UP, Action.PRESSED))}


def browse(backend: Backend, frames: Sequence[Frame], index: int,
           said: Optional[Sequence[Status]] = None) -> Optional[int]:
    """Show ``frames[index]`` (and say ``said[index]``); left/right step through the frames
    (wrapping), down or middle returns the index shown, up returns ``None``.  The LEDs are
    left clear."""
    screen = Browse(backend, frames, index, said)
    screen.show()
    run(backend, screen)
    return screen.chosen


def choose_opponent(backend: Backend, default: Opponent = HUMAN,
                    offered: Sequence[Opponent] = OPPONENTS, *, lan: bool = True) -> Optional[Opponent]:
    """Let the players pick :data:`~.opponents.HUMAN`, a level or :data:`~.opponents.MATCH_ME` among
    ``offered``, or (if ``lan``)
    :data:`~.opponents.LAN`;
    ``None`` if they push up (back).  Choosing ``?`` scrolls the rules, then the choice goes on
    from ``?``."""
    indices = [OPPONENTS.index(o) for o in offered] + ([LAN_INDEX] if lan else []) + [RULES_INDEX]
    start = indices.index(OPPONENTS.index(default)) if default in offered else \
        indices.index(LAN_INDEX) if default == LAN and lan else 0
    frames = [choice_frame(i, backend.palette) for i in indices]
    entries = [CHOICES[i][0] for i in indices]
    said = [words.choosing_opponent(entry, entries) for entry in entries]
    while True:
        chosen = browse(backend, frames, start, said)
        if chosen is not None and indices[chosen] == LAN_INDEX:
            return LAN
        if chosen is None or indices[chosen] != RULES_INDEX:
            return None if chosen is None else offered[chosen]
        text = _(RULES)
        backend.screen.say(words.rules(text, RULES))
        scroll(backend, text, CHOICES[RULES_INDEX][2](backend.palette), backend.palette.background)  # a press ends it ...
        backend.stick.discard_events()                          # ... and does nothing else
        start = chosen


def size_frame(size: Size, colours: Palette) -> List[RGB]:
    """The empty field of ``size`` where the game draws it, under a white lid across its columns."""
    board = size.board()
    pixels = render.board_frame(board, colours)
    for column in range(board.columns):
        pixels[render.column_x(board, column)] = colours.flash
    return pixels


def choose_size(backend: Backend, offered: Sequence[Size], default: Size = Size()) -> Optional[Size]:
    """Let the players pick a board size among ``offered``, starting from ``default`` (else
    from 7 x 6, else the first); ``None`` if they push up (back)."""
    start = next((offered.index(s) for s in (default, Size()) if s in offered), 0)
    chosen = browse(backend, [size_frame(size, backend.palette) for size in offered], start,
                    [words.choosing_size(size, offered) for size in offered])
    return None if chosen is None else offered[chosen]


HELPS_CHOICES: Sequence[Tuple[bool, str]] = ((False, "-"), (True, "H"))
"""The helps chooser's entries and their labels: none (``-``), hints and take-backs (``H``)."""


def choose_helps(backend: Backend, default: bool = False) -> Optional[bool]:
    """Let the person choose hints and take-backs against the computer (off first unless ``default``);
    ``None`` if they push up (back)."""
    frames, shown = [], backend.palette
    for index, (_on, label) in enumerate(HELPS_CHOICES):
        pixels = centred_text(label, shown.text, shown.background)
        pixels[place(index, len(HELPS_CHOICES))] = shown.text
        frames.append(pixels)
    chosen = browse(backend, frames, 1 if default else 0, [words.choosing_helps(on) for on, _ in HELPS_CHOICES])
    return None if chosen is None else HELPS_CHOICES[chosen][0]
