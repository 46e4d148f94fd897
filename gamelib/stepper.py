"""Left/right as steps through a row of choices: every press, and a held stick at a steady pace.

The stick (and the emulator) send ``held`` every 50 ms once a direction has been
held for 0.25 s; acting on each would race through a menu at 20 steps a second.
The game's cursor, the launcher's menus and the opponent chooser all step with
one :class:`Stepper`.  Presses are never paced: the terminal backend sends every
left/right key as a press (a terminal's auto-repeat paces a held key itself).
"""
from __future__ import annotations

from .backends.base import Action, Direction, StickEvent

REPEAT = 0.15
"""Least time between two steps while left/right is held, in seconds."""


class Stepper:
    """Turns left/right events into steps of -1 or +1 (0: not a step)."""

    def __init__(self, repeat: float = REPEAT) -> None:
        self.repeat = repeat
        self._last = float("-inf")

    def step(self, event: StickEvent) -> int:
        """-1 or +1 for a press of left/right, or a ``held`` one at least :attr:`repeat` after
        the last step; else 0."""
        if event.direction not in (Direction.LEFT, Direction.RIGHT) or event.action is Action.RELEASED:
            return 0
        if event.action is Action.HELD and event.timestamp - self._last < self.repeat - 1e-9:
            return 0
        self._last = event.timestamp
        return 1 if event.direction is Direction.RIGHT else -1

    def reset(self) -> None:
        """Forget the last step (a new turn: the next held event steps at once)."""
        self._last = float("-inf")
