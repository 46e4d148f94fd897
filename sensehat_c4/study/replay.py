"""``sensehat-c4 replay``: a stored round played again on the LEDs, at a watchable pace.

Each move shows the mover's token over its column, then falls as in play; a won round
ends with the winning line blinking.  The stick: right steps one move forward, left one
back (both pause the replay and show the position at once), middle pauses and goes on
(at the end: starts again), up leaves.  It says where it is in words at each change (the move
shown of how many, paused or not, the keys).  It is an :class:`~gamelib.keys.Animated` screen (its keys
in :attr:`Replay.KEYS`) run by :func:`gamelib.keys.run`, which waits until the next deadline, so it never spins.
"""
from __future__ import annotations

from dataclasses import dataclass

from gamelib.animation import Animation
from gamelib.backends.base import Action, Backend, Direction, StickEvent
from gamelib.keys import Animated, bind, run
from gamelib.palette import for_round
from gamelib.stepper import Stepper

from ..match import render, words
from ..match.controller import Timing
from ..records import MatchRecord, RoundRecord
from ..rules import Board


@dataclass(frozen=True)
class ReplayTiming(Timing):
    """The replay's pace, in seconds: the game's :class:`~..match.controller.Timing`, slower to watch."""

    start: float = 1.0
    """The empty board stays up this long before the first move."""
    move: float = 0.8
    """Between one token landing and the next one appearing."""
    aim: float = 0.4
    """The mover's token over its column, before it falls."""
    fall_row: float = 0.06


class Replay(Animated):
    """Plays ``rnd`` on ``backend``; call :meth:`run` once."""

    def __init__(self, backend: Backend, match: MatchRecord, rnd: RoundRecord,
                 timing: ReplayTiming = ReplayTiming()) -> None:
        self.backend = backend
        self.match = match
        self.timing = timing
        self.round_id = rnd.id
        self.starter = rnd.starter
        self.palette = for_round((match.sides[0].colour, match.sides[1].colour), rnd.starter, backend.palette)
        self.moves = [int(c) - 1 for c in rnd.moves]
        self.board = Board(match.columns, match.rows)
        self.paused = False
        self.done = False
        self.animation = Animation(backend)
        self._stepper = Stepper()

    @property
    def shown(self) -> int:
        """How many moves the board shows."""
        return self.board.ply

    @property
    def ended(self) -> bool:
        """True once the last move is shown and nothing is moving (the winning line has blinked)."""
        return self.shown == len(self.moves) and self.animation.deadline is None

    def run(self) -> None:
        """Replay until the players push up; the LEDs are left clear."""
        self._show()
        self.animation.wait(self.timing.start, self._next_move)
        run(self.backend, self)
        self.backend.screen.clear()

    # -- the stick ----------------------------------------------------------------

    def _stepped(self, event: StickEvent) -> None:
        step = self._stepper.step(event)
        if step:
            self._step(step)

    def _leave(self, event: StickEvent) -> None:
        self.done = True

    def _toggled(self, event: StickEvent) -> None:
        self._toggle()

    KEYS = {**bind(_stepped, *((d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD))),
            **bind(_leave, (Direction.UP, Action.PRESSED)),
            **bind(_toggled, (Direction.MIDDLE, Action.PRESSED))}
    """Right/left (pressed, or held at the stepper's pace) step, up leaves, middle pauses and goes on."""

    def _step(self, step: int) -> None:
        falling = self.animation.then == self._landed  # a token on its way: forward lands it
        busy = self.animation.deadline is not None
        self.paused = True
        self.animation.stop()
        if step > 0 and falling:
            pass
        elif step > 0 and self.shown < len(self.moves):
            self.board.play(self.moves[self.shown])
        elif step < 0 and self.shown > 0:
            self.board.pop()
        elif not busy:
            return  # already at that end: nothing to redraw
        self._show()

    def _toggle(self) -> None:
        if self.shown == len(self.moves) and self.animation.deadline is None:  # the end: from the start
            self.board = Board(self.match.columns, self.match.rows)
            self.paused = False
            self._show()
            self.animation.wait(self.timing.start, self._next_move)
        elif self.paused:
            self.paused = False
            self.animation.wait(0.0, self._next_move)
            self._say()
        else:
            self.paused = True
            self.animation.stop()
            self._show()

    # -- playing ------------------------------------------------------------------

    def _next_move(self) -> None:
        if self.shown == len(self.moves):
            self._finish()
            return
        column = self.moves[self.shown]
        aim = render.board_frame(self.board, self.palette, cursor=column)
        self.board.play(column)
        steps = [(aim, self.timing.aim)]
        steps += render.falling(self.board, column, self.palette, self.timing.fall_row)
        self.animation.play(steps, self._landed)
        self._say()

    def _landed(self) -> None:
        if self.shown == len(self.moves):
            self._finish()
        else:
            self.animation.wait(self.timing.move, self._next_move)

    def _finish(self) -> None:
        outcome = self.board.outcome
        if outcome is not None and outcome.winner is not None:
            t = self.timing
            seat = self.starter if outcome.winner == 1 else 3 - self.starter
            self.animation.play(render.win_blinks(self.board, outcome.cells, self.palette, seat, t.win_blinks,
                                                   t.win_blink), self._show)
        else:
            self._show()

    def _show(self) -> None:
        self.animation.stop()
        self.backend.screen.show(render.board_frame(self.board, self.palette))
        self._say()

    def _say(self) -> None:
        """Say where the replay is, in words (the terminal shows the moves and the keys under the board)."""
        self.backend.screen.say(words.replay(self.round_id, self.shown, len(self.moves), paused=self.paused,
                                      ended=self.ended))


def replay(backend: Backend, match: MatchRecord, rnd: RoundRecord, timing: ReplayTiming = ReplayTiming()) -> None:
    """Replay round ``rnd`` of ``match`` on ``backend`` until up is pushed (see the module)."""
    Replay(backend, match, rnd, timing).run()
