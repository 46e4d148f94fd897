"""Joystick play: one best-of-three match as a loop over events with an explicit state.

The loop waits on the backend with a timeout taken from the next deadline (the
next animation frame, the next blink), so it never spins and never recurses:
ten thousand rounds run in constant stack.  Events that arrive while an
animation or a result is showing are read and dropped.
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from gamelib.backends.base import Action, Backend, Direction, StickEvent
from gamelib.colours import RED, RGB, YELLOW
from gamelib.scroll import SPEED as SCROLL_SPEED, scroll_frames
from gamelib.stepper import REPEAT, Stepper

from . import render
from .computer import Computer, Thinker
from .errors import ConfigError
from .records import Recorder, Side
from .rules import Board, Size

FIRST_CHOICES = ("p1", "p2", "alternate", "random")


def start_column(board: Board) -> int:
    """Where the cursor starts each turn: the middle column (rounded to the left)."""
    return (board.columns - 1) // 2


@dataclass(frozen=True)
class Timing:
    """Every delay of the game, in seconds (tests and the benchmark shorten them)."""

    fall_row: float = 0.03
    """One row of a falling token."""
    win_blink: float = 0.25
    """Half a blink of the winning line."""
    win_blinks: int = 3
    score: float = 1.5
    """How long the scorer's new score stays up."""
    draw: float = 1.5
    """How long a full board stays up after a draw."""
    match_end: float = 1.5
    """How long the winner's colour fills the screen."""
    flash: float = 0.1
    """Half a flash of a full column."""
    flashes: int = 2
    confirm_blink: float = 0.25
    """Half a blink of the cursor row while asking to abandon."""
    confirm_timeout: float = 5.0
    """Asking to abandon gives up (and play goes on) after this long."""
    think_tick: float = 0.1
    """One step of the computer's thinking indicator (and how often its search is polled)."""
    aim: float = 0.3
    """How long the computer's cursor rests over its column before the token drops."""
    repeat: float = REPEAT
    """Least time between cursor steps while left/right is held."""
    name_scroll: float = SCROLL_SPEED
    """One column's step of the match winner's name scrolling across."""


@dataclass(frozen=True)
class MatchOptions:
    """How a match is played."""

    colours: Tuple[RGB, RGB] = (RED, YELLOW)
    """Player 1's and player 2's colours."""
    first: str = "alternate"
    """Who starts each round: ``p1``, ``p2``, ``alternate`` (p1 starts round 1) or ``random``."""
    wins: int = 2
    """Round wins that take the match (2: best of three)."""
    timing: Timing = field(default_factory=Timing)
    seed: Optional[int] = None
    """Seed for ``first="random"`` and for the computer's choices."""
    computer: Optional[Computer] = None
    """The computer player, or ``None`` for two people."""
    size: Size = Size()
    """The board's size (default 7 columns by 6 rows)."""
    names: Tuple[Optional[str], Optional[str]] = (None, None)
    """Player 1's and player 2's names (a seat the computer plays keeps none)."""

    @property
    def player_names(self) -> Tuple[Optional[str], Optional[str]]:
        """:attr:`names` with the computer's seat nameless."""
        return seat_names(self.names, self.computer)

    def __post_init__(self) -> None:
        if self.first not in FIRST_CHOICES:
            raise ConfigError(f"first must be one of {', '.join(FIRST_CHOICES)} (not {self.first!r})")
        if self.wins < 1:
            raise ConfigError("a match needs at least one round win")


def seat_names(names: Tuple[Optional[str], Optional[str]],
               computer: Optional[Computer]) -> Tuple[Optional[str], Optional[str]]:
    """The players' names as a match uses them: a seat the computer plays has none."""
    return (None if computer is not None and computer.player == 1 else names[0],
            None if computer is not None and computer.player == 2 else names[1])


@dataclass(frozen=True)
class MatchResult:
    """How a match ended: ``winner`` 1 or 2, or ``None`` when abandoned."""

    winner: Optional[int]
    score: Tuple[int, int]
    abandoned: bool
    rounds: int

    def summary(self, names: Tuple[Optional[str], Optional[str]] = (None, None)) -> str:
        """One line, the winner's (or leader's) score first: ``player 2 wins 2-1`` (``Bob wins 2-1``
        when player 2 has a name in ``names``)."""
        leader = self.winner or (1 if self.score[0] > self.score[1] else 2 if self.score[1] > self.score[0] else 0)
        high, low = sorted(self.score, reverse=True)
        who = (names[leader - 1] or f"player {leader}") if leader else ""
        if not self.abandoned:
            return f"{who} wins {high}-{low}"
        return f"abandoned at {high}-{low}" + (f", {who} ahead" if leader else "")


class State(enum.Enum):
    SELECTING = "selecting"
    THINKING = "thinking"
    ANIMATING = "animating"
    CONFIRMING = "confirming"


ThinkerFactory = Callable[[Computer, int], Thinker]


class Match:
    """The state machine behind :func:`play`.  Call :meth:`run` once."""

    def __init__(self, backend: Backend, options: MatchOptions,
                 thinker: Optional[ThinkerFactory] = None, recorder: Optional[Recorder] = None) -> None:
        self.backend = backend
        self.options = options
        self.recorder = recorder
        self.timing = options.timing
        self.rng = random.Random(options.seed)
        self.score = [0, 0]
        self.rounds = 0
        self.board = options.size.board()
        self.starter = 1
        self.palette = render.Palette()
        self.cursor = start_column(self.board)
        self.state = State.SELECTING
        self.result: Optional[MatchResult] = None
        self._deadline: Optional[float] = None
        self._steps: Iterator[render.Step] = iter(())
        self._then: Callable[[], None] = lambda: None
        self._stepper = Stepper(self.timing.repeat)
        self._confirm_lit = False
        self._confirm_until = 0.0
        self._confirm_from = State.SELECTING
        self._thinker: Optional[Thinker] = None
        self._think_started = 0.0
        self._think_tick = 0
        make = thinker or (lambda computer, seed: Thinker(computer, seed))
        self._make_thinker: ThinkerFactory = make
        self._presses: Dict[Direction, Callable[[], None]] = {
            Direction.DOWN: self._drop, Direction.MIDDLE: self._drop, Direction.UP: self._ask_abandon}
        """What a press does while a player selects a column (left/right move the cursor)."""

    # -- the loop -----------------------------------------------------------

    def run(self) -> MatchResult:
        """Play the match to its end and return the result."""
        if self.recorder is not None:
            self.recorder.start_match(self.sides(), columns=self.board.columns, rows=self.board.rows,
                                      backend=self.backend.name)
        try:
            self._new_round()
            while self.result is None:
                now = self.backend.now()
                if self._deadline is not None and now >= self._deadline:
                    self._on_deadline()
                    continue
                timeout = None if self._deadline is None else self._deadline - now
                event = self.backend.wait_event(timeout)
                if event is not None:
                    self._on_event(event)
            return self.result
        finally:
            if self._thinker is not None:
                self._thinker.cancel()
            if self.result is None:  # left some other way (Ctrl+C, SIGTERM): the match is abandoned
                self._record_end(None)

    def sides(self) -> Tuple[Side, Side]:
        """Who plays each seat, as the records keep it."""
        computer = self.options.computer
        sides = []
        for seat in (1, 2):
            colour = self.options.colours[seat - 1]
            if computer is not None and computer.player == seat:
                sides.append(Side(colour, level=computer.level, seconds=computer.budget))
            else:
                sides.append(Side(colour, name=self.options.player_names[seat - 1]))
        return sides[0], sides[1]

    def _record_end(self, winner: Optional[int]) -> None:
        """Keep the match's end (an unfinished round is kept as abandoned, if it had a move)."""
        if self.recorder is None:
            return
        if winner is None and self.board.ply and self.board.outcome is None:
            self.recorder.end_round(self.rounds, self.starter, self.board)
        self.recorder.end_match(winner)

    def _on_event(self, event: StickEvent) -> None:
        if event.action is Action.RELEASED:
            return
        if self.state is State.SELECTING:
            self._selecting(event)
        elif self.state is State.THINKING:
            if event.direction is Direction.UP and event.action is Action.PRESSED:
                self._ask_abandon()
        elif self.state is State.CONFIRMING:
            if event.action is Action.PRESSED:
                self._abandon() if event.direction is Direction.UP else self._cancel_confirm()
        # State.ANIMATING: dropped, never replayed

    def _on_deadline(self) -> None:
        if self.state is State.ANIMATING:
            self._next_step()
        elif self.state is State.THINKING:
            self._think()
        elif self.state is State.CONFIRMING:
            if self.backend.now() >= self._confirm_until:
                self._cancel_confirm()
            else:
                self._confirm_lit = not self._confirm_lit
                self.backend.show(render.confirm_frame(self.board, self.palette, self._confirm_lit))
                self._deadline = self.backend.now() + self.timing.confirm_blink

    # -- selecting ----------------------------------------------------------

    def _selecting(self, event: StickEvent) -> None:
        step = self._stepper.step(event)
        if step:
            self.cursor = (self.cursor + step) % self.board.columns
            self._show_cursor()
        elif event.action is Action.PRESSED and event.direction in self._presses:
            self._presses[event.direction]()

    def _ask_abandon(self) -> None:
        self._confirm_from = self.state
        self.state = State.CONFIRMING
        self._confirm_lit = False
        self._confirm_until = self.backend.now() + self.timing.confirm_timeout
        self._deadline = self.backend.now()

    def _show_cursor(self) -> None:
        self.backend.show(render.board_frame(self.board, self.palette, cursor=self.cursor))

    def _drop(self) -> None:
        column = self.cursor
        if not self.board.can_play(column):
            colour = self.palette.player(self.board.to_move)
            self._animate(render.flash_column(self.board, column, self.palette, colour,
                                              self.timing.flashes, self.timing.flash), self._resume)
            return
        self.board.play(column)
        self._animate(render.falling(self.board, column, self.palette, self.timing.fall_row),
                      self._after_move)

    def _resume(self) -> None:
        self.state = State.SELECTING
        self._show_cursor()

    def _cancel_confirm(self) -> None:
        if self._confirm_from is State.THINKING:
            self.state = State.THINKING
            self._deadline = self.backend.now()
            return
        self._deadline = None
        self._resume()

    # -- the computer's turn --------------------------------------------------

    def _computer_to_move(self) -> bool:
        computer = self.options.computer
        return computer is not None and self._player(self.board.to_move) == computer.player

    def _start_thinking(self) -> None:
        computer = self.options.computer
        assert computer is not None
        self._thinker = self._make_thinker(computer, self.rng.randrange(2 ** 32))
        self._thinker.start(self.board)
        self.state = State.THINKING
        self._think_started = self.backend.now()
        self._think_tick = 0
        self._deadline = self._think_started

    def _think(self) -> None:
        assert self._thinker is not None and self.options.computer is not None
        now = self.backend.now()
        column = self._thinker.poll()
        if column is not None and now - self._think_started >= self.options.computer.min_seconds - 1e-9:
            self._thinker = None
            self.cursor = column
            aim = render.board_frame(self.board, self.palette, cursor=column)
            self._animate([(aim, self.timing.aim)], self._drop)
            return
        self.backend.show(render.thinking_frame(self.board, self.palette, self._think_tick))
        self._think_tick += 1
        self._deadline = now + self.timing.think_tick

    def _abandon(self) -> None:
        self._deadline = None
        if self._thinker is not None:
            self._thinker.cancel()
            self._thinker = None
        self.backend.clear()
        self._record_end(None)
        self.result = MatchResult(None, (self.score[0], self.score[1]), True, self.rounds)

    # -- rounds -------------------------------------------------------------

    def _player(self, board_player: int) -> int:
        """The match player (1 or 2) who is the board's player ``board_player`` this round."""
        return self.starter if board_player == 1 else 3 - self.starter

    def _new_round(self) -> None:
        self.rounds += 1
        first = self.options.first
        if first == "alternate":
            self.starter = 1 if self.rounds % 2 else 2
        elif first == "random":
            self.starter = self.rng.choice((1, 2))
        else:
            self.starter = int(first[1])
        colours = self.options.colours
        self.palette = render.Palette(colours[self.starter - 1], colours[2 - self.starter])
        self.board = self.options.size.board()
        if self.recorder is not None:
            self.recorder.start_round()
        self._new_turn()

    def _new_turn(self) -> None:
        self.cursor = start_column(self.board)
        self._stepper.reset()
        if self._computer_to_move():
            self._start_thinking()
        else:
            self._resume()

    def _after_move(self) -> None:
        outcome = self.board.outcome
        if outcome is None:
            self._new_turn()
            return
        if self.recorder is not None:
            self.recorder.end_round(self.rounds, self.starter, self.board)
        t = self.timing
        if outcome.winner is None:
            self._animate([(render.board_frame(self.board, self.palette), t.draw)], self._new_round)
            return
        winner = self._player(outcome.winner)
        self.score[winner - 1] += 1
        colour = self.options.colours[winner - 1]
        steps: List[render.Step] = list(render.blink_cells(self.board, outcome.cells, self.palette,
                                                           t.win_blinks, t.win_blink))
        steps.append((render.digit_frame(self.score[winner - 1], colour, self.palette), t.score))
        if self.score[winner - 1] < self.options.wins:
            self._animate(steps, self._new_round)
            return
        steps.append((render.fill_frame(colour), t.match_end))
        name = self.options.player_names[winner - 1]
        if name:
            steps += scroll_frames(name, colour, speed=t.name_scroll)
        self._animate(steps, lambda: self._finish(winner))

    def _finish(self, winner: int) -> None:
        self.backend.clear()
        self._record_end(winner)
        self.result = MatchResult(winner, (self.score[0], self.score[1]), False, self.rounds)

    # -- animations ---------------------------------------------------------

    def _animate(self, steps: Iterable[render.Step], then: Callable[[], None]) -> None:
        self.state = State.ANIMATING
        self._steps = iter(steps)
        self._then = then
        self._next_step()

    def _next_step(self) -> None:
        step = next(self._steps, None)
        if step is None:
            self._deadline = None
            self.backend.discard_events()
            self._then()
            return
        frame, seconds = step
        self.backend.show(frame)
        self._deadline = self.backend.now() + seconds


def play(backend: Backend, options: Optional[MatchOptions] = None, *,
         thinker: Optional[ThinkerFactory] = None, recorder: Optional[Recorder] = None) -> MatchResult:
    """Play one best-of-three match on ``backend`` and return how it ended.

    The LEDs are left clear.  The backend stays open (the caller owns it).
    ``thinker`` replaces the computer's search (tests drive it on the fake clock);
    ``recorder`` keeps every round in the games database.
    """
    return Match(backend, options or MatchOptions(), thinker, recorder).run()
