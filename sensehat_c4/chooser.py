"""Choosing the opponent with the joystick before a match: ``2P`` (two people), or levels 1-4,
and ``?``, which scrolls the rules.

Left/right browse (with wrap-around; held, at the game's pace), down or middle
chooses, up backs out.  Choosing ``?`` scrolls :data:`RULES` across the LEDs once (any
press ends it) and comes back to ``?``.  The top row shows where in the list you are.  Like the controller, this is a loop
over events; it waits without a timeout, so it costs no CPU while nobody moves.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from gamelib.backends.base import Action, Backend, Direction
from gamelib.colours import BLACK, CYAN, GREEN, MAGENTA, ORANGE, RGB, WHITE
from gamelib.font import centred_text
from gamelib.scroll import scroll
from gamelib.stepper import Stepper

from .computer import OPPONENTS

LEVEL_COLOURS = (GREEN, CYAN, ORANGE, MAGENTA)
"""The labels' colours, weakest level first (repeated if there are more levels)."""

RULES_CHOICE = "rules"
CHOICES: Sequence[Tuple[str, str, RGB]] = (("human", "2P", WHITE),) + tuple(
    (name, str(number), LEVEL_COLOURS[(number - 1) % len(LEVEL_COLOURS)])
    for number, name in enumerate(OPPONENTS[1:], start=1)) + ((RULES_CHOICE, "?", WHITE),)
"""Each opponent with its label on the matrix and the label's colour: ``2P``, then the
levels of the levels table numbered from 1; last ``?``, the rules."""

RULES = ("Four in a row wins: across, up or diagonal.  Left/right: move.  "
         "Down or middle: drop.  Up: leave.")
"""What ``?`` scrolls (the font draws it in capitals)."""

CHOOSE, BACK = "choose", "back"
PRESSES = {Direction.DOWN: CHOOSE, Direction.MIDDLE: CHOOSE, Direction.UP: BACK}
"""What a press does on the chooser (left/right step through the choices)."""


def choice_frame(index: int) -> List[RGB]:
    """The label of choice ``index``, with a dot on the top row marking its place."""
    _, label, colour = CHOICES[index]
    pixels = centred_text(label, colour, BLACK)
    pixels[1 + index] = colour
    return pixels


def choose_opponent(backend: Backend, default: str = "human") -> Optional[str]:
    """Let the players pick ``human`` or a level; ``None`` if they push up (back)."""
    index = OPPONENTS.index(default)
    stepper = Stepper()
    backend.show(choice_frame(index))
    while True:
        event = backend.wait_event()
        step = 0 if event is None else stepper.step(event)
        if step:
            index = (index + step) % len(CHOICES)
            backend.show(choice_frame(index))
        elif event is not None and event.action is Action.PRESSED and event.direction in PRESSES:
            backend.clear()
            if PRESSES[event.direction] == BACK:
                return None
            if CHOICES[index][0] != RULES_CHOICE:
                return CHOICES[index][0]
            scroll(backend, RULES, CHOICES[index][2])
            backend.discard_events()
            stepper.reset()
            backend.show(choice_frame(index))
