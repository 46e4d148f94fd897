"""Joystick play: one best-of-three match as a loop over events with an explicit state.

The loop waits on the backend with a timeout taken from the next deadline (the
next animation frame, the next blink), so it never spins and never recurses:
ten thousand rounds run in constant stack.  Events that arrive while an
animation or a result is showing (a falling token, a full column's flash, the
winning line, a score) are read and dropped; a hint's blinks (``HINTING``) are
the exception: a press of the player to move ends them and does what it does.

Each seat is played by a :class:`~.players.Player` (:mod:`.players`): the stick,
the computer (:class:`~.computer.Thinker`), or whoever :class:`~.players.Seats`
puts there (a phone, another Pi).  A player that moves by presses has the
``SELECTING`` state, driven by the presses from its source; one that moves by
itself has ``THINKING``, polled when the backend is woken and at each step of
the indicator.  The stick at the backend (:data:`~gamelib.backends.base.STICK`)
may always ask to abandon; another source only on its own turn.

Helps (:attr:`MatchOptions.helps`, a person at the stick against the computer): middle asks for
a hint (the solver's best column blinks in the cursor row and the cursor is left over it; down
drops, during the blinks too), and down while the abandon question blinks (up, then down) takes back the person's last
move and the computer's reply; up, up still abandons.  Both are counted in the round's record.
*Match me* (:attr:`MatchOptions.match_me`): after each round the computer's level steps up or
down the ladder by the person's result (:class:`~..engine.matchme.MatchMe`).
"""
from __future__ import annotations

import enum
import logging
import random
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from gamelib.animation import Animation
from gamelib.backends.base import STICK, Action, Backend, Direction, StickEvent
from gamelib.colours import RGB
from gamelib.errors import QuitRequested
from gamelib.palette import Palette, for_round
from gamelib.scroll import SPEED as SCROLL_SPEED, scroll_frames
from gamelib.stepper import REPEAT, Stepper
from gamelib.waiting import DUE, wait

from ..engine.matchme import MatchMe
from ..errors import ConfigError
from ..i18n import _
from ..records import MatchRecorder
from ..rules import FIRST_CHOICES, Board, Size, Starts
from . import render, words
from .bookkeeping import Bookkeeper
from .computer import Computer, Thinker
from .helps import Helps
from .lineup import Lineup
from .question import Question
from .tally import Tally
from .players import Player, Seats

log = logging.getLogger("sensehat_c4")


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
    """One step of the thinking indicator (the thinking player is polled at each step too)."""
    think_min: float = 0.6
    """A thinking player's move is shown no sooner than this after its turn began, so players see it coming."""
    aim: float = 0.3
    """How long the cursor rests over a thinking player's column before the token drops."""
    repeat: float = REPEAT
    """Least time between cursor steps while left/right is held."""
    name_scroll: float = SCROLL_SPEED
    """One column's step of the match winner's name scrolling across."""
    resume_board: float = 2.0
    """How long the resume question shows the interrupted board each time (:mod:`.resume`)."""
    resume_score: float = 1.0
    """How long it shows the match's score in between."""
    hint_blink: float = 0.25
    """Half a blink of a hint's column in the cursor row."""
    hint_blinks: int = 3
    hint_poll: float = 0.1
    """How often a hint's search is asked for its answer (it also wakes the match when it has one)."""


@dataclass(frozen=True)
class MatchOptions:
    """How a match is played."""

    colours: Optional[Tuple[RGB, RGB]] = None
    """Player 1's and player 2's colours (``None``: the palette's players, :meth:`players`).  Every other colour
    the match shows is the backend's palette's (:attr:`~gamelib.backends.base.Backend.palette`; a round's:
    :func:`~gamelib.palette.for_round`)."""
    first: Starts = Starts.ALTERNATE
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
    helps: bool = False
    """Hints and take-backs for the person at the stick playing :attr:`computer`."""
    match_me: Optional[MatchMe] = None
    """*Match me*: steps :attr:`computer`'s level after each round (it starts at the computer's level)."""

    @property
    def player_names(self) -> Tuple[Optional[str], Optional[str]]:
        """:attr:`names` with the computer's seat nameless."""
        return seat_names(self.names, self.computer)

    def players(self, palette: Palette) -> Tuple[RGB, RGB]:
        """Seat 1's and seat 2's colours: :attr:`colours`, else ``palette``'s players (the backend's palette)."""
        return self.colours if self.colours is not None else palette.players

    def __post_init__(self) -> None:
        if not isinstance(self.first, Starts):   # a value from outside, not made a Starts
            raise ConfigError(_("first must be one of {choices} (not {first!r})").format(
                choices=", ".join(FIRST_CHOICES), first=self.first))
        if self.wins < 1:
            raise ConfigError(_("a match needs at least one round win"))
        if self.match_me is not None and (self.computer is None or self.computer.level != self.match_me.level):
            raise ConfigError(_("match me plays the computer at its own level"))


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
    names: Tuple[Optional[str], Optional[str]] = field(default=(None, None), compare=False)
    """The seats' names in the match (a resumed match's are the stored ones)."""
    number: Optional[int] = field(default=None, compare=False)
    """The match's number in the records, as ``history`` and the games played call it (its recorder's
    :attr:`~..records.MatchRecorder.number`); ``None`` when it is not recorded."""

    def summary(self, names: Optional[Tuple[Optional[str], Optional[str]]] = None) -> str:
        """One line, the winner's (or leader's) score first: ``player 2 wins 2-1`` (``Bob wins 2-1``
        when player 2 has a name in ``names``, by default the match's own)."""
        names = self.names if names is None else names
        leader = self.winner or (1 if self.score[0] > self.score[1] else 2 if self.score[1] > self.score[0] else 0)
        high, low = sorted(self.score, reverse=True)
        who = (names[leader - 1] or _("player {seat}").format(seat=leader)) if leader else ""
        if not self.abandoned:
            return _("{who} wins {high}-{low}").format(who=who, high=high, low=low)
        return (_("abandoned at {high}-{low}, {who} ahead") if leader else _("abandoned at {high}-{low}")).format(
            who=who, high=high, low=low)


def round_starter(first: Starts, number: int, rng: random.Random) -> int:
    """The seat that starts round ``number`` (from 1) under the rule ``first``."""
    if first is Starts.ALTERNATE:
        return 1 if number % 2 else 2
    if first is Starts.RANDOM:
        return rng.choice((1, 2))
    return 1 if first is Starts.P1 else 2


@dataclass(frozen=True)
class Resumed:
    """Where a match a power cut or a crash interrupted takes up again (:mod:`.resume`)."""

    score: Tuple[int, int]
    round: int
    """The number of the round to play on (the round in play, or the next one)."""
    starter: int
    """The seat that started (or starts) that round."""
    moves: str = ""
    """Its moves so far (solver notation; empty: the round has not started)."""
    hints: int = 0
    """The hints of that round so far."""
    takebacks: int = 0
    """Its take-backs so far."""


class State(enum.Enum):
    """What the match is doing, and so what a press does (:meth:`Match._on_event`)."""

    SELECTING = "selecting"
    """A player who presses chooses a column: left/right move, down drops, up asks to abandon."""
    THINKING = "thinking"
    """A player who moves by itself (the computer, another Pi) is to move: only up asks to abandon."""
    ANIMATING = "animating"
    """A falling token, a full column's flash, a result: presses are dropped."""
    HINTING = "hinting"
    """A hint's column blinks, the cursor over it: a press of the player to move ends the blinks and
    does what it does while selecting."""
    CONFIRMING = "confirming"
    """The abandon question blinks: up abandons, down takes back (with helps), another key plays on."""


ANIMATIONS = frozenset({State.ANIMATING, State.HINTING})
"""The states in which an animation plays (its deadline is the loop's)."""

def dropping_presses(backend: Backend, then: Callable[[], None]) -> Callable[[], None]:
    """``then``, run once the presses made meanwhile on ``backend`` are dropped (an animation's end)."""
    def ended() -> None:
        backend.stick.discard_events()
        then()
    return ended


ThinkerFactory = Callable[[Computer, int], Player]
"""Makes the computer's player for a match: ``(computer, seed)`` -> a :class:`~.players.Player`."""


class Match:
    """The state machine behind :func:`play`.  Call :meth:`run` once."""

    def __init__(self, backend: Backend, options: MatchOptions,
                 thinker: Optional[ThinkerFactory] = None, recorder: Optional[MatchRecorder] = None,
                 seats: Optional[Seats] = None, resumed: Optional[Resumed] = None,
                 left: Optional[Callable[[MatchResult], None]] = None,
                 hinter: Optional[ThinkerFactory] = None) -> None:
        self.backend = backend
        self.left = left
        self.options = options
        self.resumed = resumed
        self.timing = options.timing
        self.rng = random.Random(options.seed)
        self.tally = Tally(options.size, wins=options.wins)
        """The score and the round in play (:mod:`.tally`)."""
        self.colours = options.players(backend.palette)
        """Seat 1's and seat 2's colours."""
        self.lineup = Lineup(seats if seats is not None else Seats(), self.colours, computer=options.computer,
                             names=options.names, helps=options.helps, match_me=options.match_me, rng=self.rng,
                             make=thinker or (lambda computer, seed: Thinker(computer, seed,
                                                                             wake=self.backend.stick.wake)))
        """Who plays each seat (:mod:`.lineup`)."""
        self.palette = backend.palette
        self.cursor = start_column(self.tally.board)
        self.state = State.SELECTING
        self.result: Optional[MatchResult] = None
        self._deadline: Optional[float] = None
        """When the next thinking tick or confirmation blink is due (an animation keeps its own)."""
        self._animation = Animation(backend)
        self._stepper = Stepper(self.timing.repeat)
        self.question = Question(timeout=self.timing.confirm_timeout)
        """The abandon question (:mod:`.question`)."""
        self._mover: Optional[Player] = None
        """The player whose turn is running (started, its move not yet played)."""
        self._found: Optional[int] = None
        self._refused: Optional[int] = None
        """A column the player to move answered and could not play (it is said once)."""
        self._reseat = False
        self._think_started = 0.0
        self._think_tick = 0
        self.helps = Helps(hinter or (lambda computer, seed: Thinker(computer, seed, wake=self.backend.stick.wake)),
                           self.rng)
        """The round's hints and take-backs (:mod:`.helps`)."""
        self.book = Bookkeeper(recorder, wins=options.wins, facts=lambda: self.helps.facts(self.lineup.level()))
        """What the records keep of the match (:mod:`.bookkeeping`)."""
        self._presses: Dict[Direction, Callable[[StickEvent], None]] = {
            Direction.DOWN: lambda event: self._drop(), Direction.MIDDLE: lambda event: self._drop(),
            Direction.UP: lambda event: self._ask_abandon(event.source)}
        """What a press does while a player selects a column (left/right move the cursor)."""

    @property
    def board(self) -> Board:
        """The board of the round in play (:attr:`.tally.Tally.board`)."""
        return self.tally.board

    # -- the loop -----------------------------------------------------------

    def run(self) -> MatchResult:
        """Play the match to its end (from where it was, if :attr:`resumed`) and return the result."""
        if self.resumed is None:  # a resumed one's recorder goes on with its row
            self.book.start(self.lineup.sides(), columns=self.board.columns, rows=self.board.rows,
                            backend=self.backend.name, starts=self.options.first)
        self.lineup.seats.attach(self.backend.stick.wake)
        try:
            self._start_round(self.resumed)
            while self.result is None:
                if self.lineup.changed():   # someone took or left a seat
                    mover = self._mover
                    if mover is not None and mover is not self.lineup.player(self.tally.to_move()):
                        mover.cancel()   # the seat to move's: its turn starts again with the new player
                        self._mover = None
                        if self.state in (State.SELECTING, State.THINKING):
                            self._new_turn()
                        else:
                            self._reseat = True  # after the animation or the question
                            self._say()
                    else:
                        self._say()
                if self.lineup.gone():
                    self._abandon()
                    continue
                got = wait(self.backend, self._animation.deadline if self.state in ANIMATIONS else self._deadline)
                if got is DUE:
                    self._on_deadline()
                elif isinstance(got, StickEvent):
                    self._on_event(got)
                elif self.state in (State.SELECTING, State.THINKING):
                    self._check_move()  # woken (a player's move may be ready), or a deadline came: ask
                    self._poll_hint()
            return self.result
        except QuitRequested:   # q in the terminal: the match is abandoned, and told as one
            if self.result is None:
                self.book.end(None)
                self.result = MatchResult(None, (self.tally.score[0], self.tally.score[1]), True, self.tally.rounds, self.lineup.names(),
                                          self.book.number)
                if self.left is not None:
                    self.left(self.result)
            raise
        finally:
            self.lineup.seats.attach(None)
            self.helps.drop()
            if self._mover is not None:
                self._mover.cancel()
            if self.result is None:  # left some other way (Ctrl+C, SIGTERM): the match is abandoned
                self.book.end(None)

    # -- the seats ------------------------------------------------------------

    # -- words ------------------------------------------------------------------

    def _say(self, phase: Optional[str] = None, *, winner: Optional[int] = None,
             result: Optional[str] = None, summary: str = "") -> None:
        """Say what the LEDs show in words (``phase``: by the state, if not given)."""
        if phase is None:
            phase = {State.SELECTING: words.PLAYING, State.THINKING: words.THINKING,
                     State.CONFIRMING: words.CONFIRMING}.get(self.state)
            if phase is None:
                return  # animating: the words of the turn, or of the result, stay
        turn = self.tally.to_move() if phase in (words.PLAYING, words.THINKING) else None
        helps = (self.helps.hints, self.helps.takebacks) if self.options.helps and self.lineup.computer is not None else None
        self.backend.screen.say(words.match(phase, self.lineup.in_words(), size=self.options.size, number=self.tally.rounds,
                                     score=(self.tally.score[0], self.tally.score[1]), turn=turn, winner=winner,
                                     result=result, summary=summary, helps=helps,
                                     take_back=phase == words.CONFIRMING and self.lineup.helping(self._mover, self.tally.to_move()),
                                     match_number=self.book.number))

    # -- events -------------------------------------------------------------------

    def _on_event(self, event: StickEvent) -> None:
        if event.action is Action.RELEASED:
            return
        up = event.direction is Direction.UP and event.action is Action.PRESSED
        if self.state is State.SELECTING:
            if self._mover is not None and event.source == self._mover.source:
                self._selecting(event)
            elif up and event.source == STICK:   # the stick at the backend may always ask
                self._ask_abandon(STICK)
        elif self.state is State.THINKING:
            if up and event.source == STICK:
                self._ask_abandon(STICK)
        elif self.state is State.CONFIRMING:
            if event.action is Action.PRESSED and self.question.hears(event.source):
                if event.direction is Direction.UP:
                    self._abandon()
                elif event.direction is Direction.DOWN and self.lineup.helping(self._mover, self.tally.to_move()) \
                        and self.board.ply >= 2:   # a take-back (nothing to undo: play on)
                    if self._mover is not None:
                        self._mover.cancel()
                    self.helps.take_back(self.board)
                    self.book.helped(self.tally.rounds, self.tally.starter, self.board)
                    self._new_turn()
                else:
                    self._cancel_confirm()
        elif self.state is State.HINTING:
            if event.action is Action.PRESSED and self._mover is not None and event.source == self._mover.source:
                # the blinks end, the cursor stays over the hint's column, and the press does what it does
                # while selecting (a move, a drop, the abandon question, another hint)
                self._animation.stop()   # (a seat taken meanwhile has no mover: its presses never get here)
                self.state = State.SELECTING
                if event.direction is Direction.MIDDLE and self.lineup.helping(self._mover, self.tally.to_move()):
                    self._show_cursor()   # another hint is searched: the cursor meanwhile, as after the blinks
                self._on_event(event)
        # State.ANIMATING: dropped, never replayed

    def _on_deadline(self) -> None:
        if self.state is State.SELECTING:   # a hint being searched: ask it
            self._deadline = None
            self._poll_hint()
        elif self.state in ANIMATIONS:
            self._animation.advance()
        elif self.state is State.THINKING and not self._check_move():   # the indicator's next step
            self.backend.screen.show(render.thinking_frame(self.board, self.palette, self._think_tick))
            self._think_tick += 1
            self._deadline = self.backend.now() + self.timing.think_tick
        elif self.state is State.CONFIRMING:
            lit = self.question.blink(self.backend.now())
            if lit is None:
                self._cancel_confirm()
            else:
                self.backend.screen.show(render.confirm_frame(self.board, self.palette, lit))
                self._deadline = self.backend.now() + self.timing.confirm_blink

    # -- selecting ----------------------------------------------------------

    def _selecting(self, event: StickEvent) -> None:
        step = self._stepper.step(event)
        if step:
            self.cursor = (self.cursor + step) % self.board.columns
            self._show_cursor()
        elif event.action is Action.PRESSED and event.direction is Direction.MIDDLE and self.lineup.helping(self._mover, self.tally.to_move()):
            if self.helps.ask(self.board, self.tally.to_move()):
                self._poll_hint()   # (a search of this turn's already runs: it is polled as it was)
        elif event.action is Action.PRESSED and event.direction in self._presses:
            self._presses[event.direction](event)

    def _ask_abandon(self, source: str) -> None:
        self.question.ask(source, self.backend.now(), thinking=self.state is State.THINKING)
        self.state = State.CONFIRMING
        self._deadline = self.backend.now()
        self._say()

    def _show_cursor(self) -> None:
        self.backend.screen.show(render.board_frame(self.board, self.palette, cursor=self.cursor))

    def _drop(self) -> None:
        column = self.cursor
        if not self.board.can_play(column):
            colour = self.palette.player(self.board.to_move)
            self._animate(render.flash_column(self.board, column, self.palette, colour,
                                              self.timing.flashes, self.timing.flash), self._resume)
            return
        self.board.play(column)
        self.helps.drop()
        self._mover, self._reseat = None, False
        # the fall's first frame is the token still in the cursor row, as the cursor showed it; the
        # move is committed while it is up, so every frame that shows it moved is after the commit
        self._animate(render.falling(self.board, column, self.palette, self.timing.fall_row),
                      self._after_move)
        self.book.moved(self.tally.rounds, self.tally.starter, self.board, self.tally.score)

    def _resume(self) -> None:
        if self._reseat:
            self._new_turn()
            return
        self.state = State.SELECTING
        self._say()           # the words first: a phone that presses once it sees the cursor is in its turn
        self._show_cursor()
        if self.helps.searching:   # a hint still searched (the question came and went): ask it again soon
            self._deadline = self.backend.now() + self.timing.hint_poll

    def _cancel_confirm(self) -> None:
        if self._reseat:
            self._new_turn()
            return
        if self.question.thinking:
            self.state = State.THINKING
            self._deadline = self.backend.now()
            self._say()
            return
        self._deadline = None
        self._resume()

    # -- a player's move ------------------------------------------------------

    def _check_move(self) -> bool:
        """Ask the player to move for its move; aim and drop it if there is one (a thinking
        player's no sooner than :attr:`Timing.think_min` after its turn began).  True if it moved."""
        mover = self._mover
        if mover is None:
            return False
        if self._found is None:
            found = mover.poll()
            if found is not None and not (0 <= found < self.board.columns and
                                          (mover.source is not None or self.board.can_play(found))):
                if found != self._refused:  # said once, however often it is answered again
                    log.warning(_("{kind} player of seat {seat} chose column {column!r}, which it cannot play; "
                                  "ignored").format(kind=mover.kind, seat=self.tally.to_move(), column=found))
                self._refused, found = found, None
            self._found = found
        if self._found is None:
            return False
        if self.state is State.THINKING and \
                self.backend.now() - self._think_started < self.timing.think_min - 1e-9:
            return False
        self.cursor, self._found = self._found, None
        aim = render.board_frame(self.board, self.palette, cursor=self.cursor)
        self._animate([(aim, self.timing.aim)], self._drop)
        return True

    # -- helps (a person at the stick against the computer) -----------------------

    def _poll_hint(self) -> None:
        """The hint's answer, if it has one: its column blinks in the cursor row, the cursor is left there."""
        if not self.helps.searching or self.state is not State.SELECTING:
            return
        column = self.helps.answer(self.board)
        if column is None:
            self._deadline = self.backend.now() + self.timing.hint_poll if self.helps.searching else None
            return
        self._deadline = None
        self.book.helped(self.tally.rounds, self.tally.starter, self.board)
        self.cursor = column
        t = self.timing
        lit = render.board_frame(self.board, self.palette, cursor=column)
        dark = render.board_frame(self.board, self.palette)
        self._say()
        self._animate([(lit, t.hint_blink), (dark, t.hint_blink)] * t.hint_blinks, self._resume, state=State.HINTING)

    def _abandon(self) -> None:
        self._deadline = None
        self._animation.stop()
        if self._mover is not None:
            self._mover.cancel()
            self._mover = None
        self.backend.screen.clear()
        self.book.end(None)
        self.result = MatchResult(None, (self.tally.score[0], self.tally.score[1]), True, self.tally.rounds, self.lineup.names(),
                                  self.book.number)
        self._say(words.RESULT, result=words.ABANDONED, summary=self.result.summary(self.lineup.names()))

    # -- rounds -------------------------------------------------------------

    def _start_round(self, resumed: Optional[Resumed] = None) -> None:
        """The next round; or a resumed match's (the score, the round and its moves as they were)."""
        if resumed is None:
            number = self.tally.rounds + 1
            self.lineup.step()
            starter, moves = round_starter(self.options.first, number, self.rng), ""
            self.helps.restart()
        else:
            number, starter, moves = resumed.round, resumed.starter, resumed.moves
            self.tally.score = [resumed.score[0], resumed.score[1]]
            self.helps.restart(resumed.hints, resumed.takebacks)
        self.tally.start(number, starter, moves)
        self.palette = for_round(self.colours, starter, self.backend.palette)
        if not moves:
            self.book.start_round()
        self._new_turn()

    def _new_turn(self) -> None:
        self.helps.drop()
        self.cursor = start_column(self.board)
        self._stepper.reset()
        self._deadline = None
        player = self.lineup.player(self.tally.to_move())   # it starts: one that presses selects, one not thinks
        self._mover, self._found, self._refused, self._reseat = player, None, None, False
        player.start(self.board.copy())
        if player.source is not None:
            self._resume()
            return
        self.state = State.THINKING
        self._think_started = self.backend.now()
        self._think_tick = 0
        self._deadline = self._think_started
        self._say()

    def _after_move(self) -> None:
        outcome = self.board.outcome
        if outcome is None:
            self._new_turn()
            return
        self.lineup.ended(None if outcome.winner is None else self.tally.seat(outcome.winner))
        t = self.timing
        if outcome.winner is None:
            self._say(words.RESULT, result=words.DRAW)
            self._animate([(render.board_frame(self.board, self.palette), t.draw)], self._start_round)
            return
        winner = self.tally.won()
        assert winner is not None
        colour = self.colours[winner - 1]
        steps: List[render.Step] = list(render.win_blinks(self.board, outcome.cells, self.palette, winner,
                                                          t.win_blinks, t.win_blink))
        steps.append((render.digit_frame(self.tally.score[winner - 1], colour, self.palette), t.score))
        if self.tally.score[winner - 1] < self.tally.wins:
            self._say(words.RESULT, winner=winner, result=words.ROUND)
            self._animate(steps, self._start_round)
            return
        steps.append((render.fill_frame(colour), t.match_end))
        name = self.lineup.names()[winner - 1]
        if name:
            steps += scroll_frames(name, colour, self.palette.background, speed=t.name_scroll)
        final = MatchResult(winner, (self.tally.score[0], self.tally.score[1]), False, self.tally.rounds, self.lineup.names(),
                            self.book.number)
        self._say(words.RESULT, winner=winner, result=words.MATCH, summary=final.summary(self.lineup.names()))
        self._animate(steps, lambda: self._finish(final))

    def _finish(self, final: MatchResult) -> None:
        self.backend.screen.clear()
        self.book.end(final.winner)
        self.result = replace(final, number=self.book.number)   # written by now, if its last move waited for a lock

    # -- animations ---------------------------------------------------------

    def _animate(self, steps: Iterable[render.Step], then: Callable[[], None], *,
                 state: State = State.ANIMATING) -> None:
        """Play ``steps`` (:class:`~gamelib.animation.Animation`) in ``state`` (one of :data:`ANIMATIONS`);
        at their end the presses made meanwhile are dropped and ``then`` runs."""
        self.state = state
        self._deadline = None
        self._animation.play(steps, dropping_presses(self.backend, then))


def play(backend: Backend, options: Optional[MatchOptions] = None, *,
         thinker: Optional[ThinkerFactory] = None, recorder: Optional[MatchRecorder] = None,
         seats: Optional[Seats] = None, resumed: Optional[Resumed] = None,
         left: Optional[Callable[[MatchResult], None]] = None,
         hinter: Optional[ThinkerFactory] = None) -> MatchResult:
    """Play one best-of-three match on ``backend`` and return how it ended.

    The LEDs are left clear.  The backend stays open (the caller owns it).
    ``thinker`` makes the computer's player (tests drive one on the fake clock);
    ``recorder`` keeps every move in the games database; ``seats`` puts other players
    in the seats (a phone, another Pi); ``resumed`` takes up an interrupted match where it
    was (its recorder already :meth:`~..records.Recorder.resume`-d it).  ``left`` is told the
    abandoned match's result when ``q`` leaves it (:class:`~gamelib.errors.QuitRequested`, which
    then goes on up).  ``hinter`` makes the solver's player that finds a hint (tests script it).
    """
    return Match(backend, options or MatchOptions(), thinker, recorder, seats, resumed, left, hinter).run()
