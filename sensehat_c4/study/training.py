"""Find the better move, on the LEDs: ``sensehat-c4 review ID --train`` and the launcher's
*Connect 4 training*.

Every position of a reviewed round where the move played changed the outcome (a mistake
or a blunder, by either player) comes up in turn: the board as it was, the cursor over
the middle column in the colour of the player who made that move.  Left/right move the
cursor (wrapping round), middle or down tries the column, up leaves (at any time, also
during an animation).  A full column flashes, as in play.  A column is *right* when it
keeps the position's outcome: it wins where the position was won, draws where it was
drawn (the solver's exact scores say so; any winning column is right, the quickest or not).

* Right: the token falls, then every right column lights three times in the player's
  colour (the cell a token would land in, and the dot above the column).
* Wrong: the token falls, then the move's result shows for 1.5 s, ``L`` in the
  opponent's colour (the move loses) or ``D`` in white (it draws); then the right
  columns light as above.

Then the next position.  After the last, how many were right scrolls across in white
(``2/3``) and the LEDs are cleared.  Presses made during an animation (other than up)
are dropped.  Like the replay, it is an :class:`~gamelib.keys.Animated` screen (its keys in
:attr:`Training.KEYS`) run by :func:`gamelib.keys.run`, which waits until the next deadline, so it never spins.

:data:`GAME` is the launcher's entry (``connect4-training`` under ``gamelib.games``): it
reviews the last rounds recorded, newest first (at most :data:`LOOK_BACK`), and trains on
the first one that has a mistake; while it reviews, the round's board is up with a white
bar filling the top row.
"""
from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

from gamelib.animation import Animation, Step
from gamelib.backends.base import STICK, Action, Backend, Direction, StickEvent
from gamelib.colours import RGB
from gamelib.font import centred_text
from gamelib.games import Game
from gamelib.jsonvalue import JSONObject
from gamelib.keys import Animated, bind, run
from gamelib.icons import Icon
from gamelib.palette import for_round
from gamelib.scroll import scroll, scroll_frames
from gamelib.seats import Kind
from gamelib.status import Status
from gamelib.stepper import Stepper

from ..errors import C4Error
from ..i18n import N_, _
from ..match import render, words
from ..match.controller import Timing, start_column
from ..match.opponents import MATCH_ME
from ..records import MatchRecord, Records, RoundRecord
from ..rules import Board
from .review import CHANGED, MoveReview, Review, ending, review_round

log = logging.getLogger(__name__)

LOOK_BACK = 10
"""How many of the last rounds the launcher's entry reviews, at most, to find one with a mistake."""
SECONDS = 10.0
"""The launcher's entry's time limit per position (as ``review``'s default)."""

LOSS, DRAW = "L", "D"
"""What a wrong move's result shows: a loss (in the opponent's colour), a draw (in white)."""


@dataclass(frozen=True)
class StudyTiming(Timing):
    """The pace of a position to find a move in (training's and the puzzle's), in seconds: the game's
    :class:`~..match.controller.Timing`, and these."""

    landed: float = 0.4
    """The tried token stays where it landed before the verdict."""
    lit: float = 0.3
    """Half a blink of the right columns."""
    lit_blinks: int = 3
    scroll: float = 0.08
    """One column's step of the words scrolled at the end (training's count, the puzzle's streak)."""


@dataclass(frozen=True)
class TrainingTiming(StudyTiming):
    """The training's pace: :class:`StudyTiming`, and these."""

    result: float = 1.5
    """How long a wrong move's result (``L`` or ``D``) shows."""
    after: float = 0.6
    """The right columns stay lit this long before the next position."""


@dataclass(frozen=True)
class TrainingResult:
    """How a training went: ``right`` of ``tried`` positions (of ``total``)."""

    round_id: int
    total: int
    tried: int
    right: int

    @property
    def line(self) -> str:
        """``training (round 12): 2 of 3 right``, and ``, left after 1 of 3`` when up ended it early."""
        if self.tried == self.total:
            return _("training (round {round}): {right} of {tried} right").format(
                round=self.round_id, right=self.right, tried=self.tried)
        return _("training (round {round}): {right} of {tried} right, left after {tried} of {total}").format(
            round=self.round_id, right=self.right, tried=self.tried, total=self.total)


def positions(review: Review) -> List[MoveReview]:
    """The moves to train on: those that changed the outcome, in order."""
    return [m for m in review.moves if m.mark in CHANGED]


def palette(match: MatchRecord, rnd: RoundRecord, base: render.Palette) -> render.Palette:
    """The round's colours: the board's first mover in the starter's colour, the rest ``base``'s (the
    backend's palette)."""
    return for_round((match.sides[0].colour, match.sides[1].colour), rnd.starter, base)


def lit_frame(board: Board, columns: Sequence[int], colours: render.Palette, lit: bool) -> List[RGB]:
    """``board`` with ``columns`` lit (if ``lit``) in the colour of the player to move: the cell a
    token would land in and the dot above each column."""
    pixels = render.board_frame(board, colours)
    if lit:
        colour = colours.player(board.to_move)
        for column in columns:
            pixels[render.CURSOR_ROW * render.SIZE + render.column_x(board, column)] = colour
            if board.height(column) < board.rows:
                x, y = render.cell_xy(board, column, board.height(column))
                pixels[y * render.SIZE + x] = colour
    return pixels


def result_frame(score: int, opponent: RGB, colours: render.Palette) -> List[RGB]:
    """A wrong move's result: ``L`` in the opponent's colour (it loses), ``D`` in white (it draws)."""
    if score < 0:
        return centred_text(LOSS, opponent, colours.background)
    return centred_text(DRAW, colours.text, colours.background)


def progress_frame(board: Board, colours: render.Palette, done: int, total: int) -> List[RGB]:
    """``board`` under a white bar along the top row, ``done`` of ``total`` of the way."""
    pixels = render.board_frame(board, colours)
    for x in range(render.SIZE * done // max(1, total)):
        pixels[x] = colours.flash
    return pixels


class State(enum.Enum):
    SELECTING = "selecting"
    ANIMATING = "animating"


class Training(Animated):
    """Trains on ``review``'s mistakes on ``backend``; call :meth:`run` once."""

    def __init__(self, backend: Backend, review: Review, timing: TrainingTiming = TrainingTiming()) -> None:
        self.backend = backend
        self.review = review
        self.timing = timing
        self.match, self.round = review.match, review.round
        self.palette = palette(self.match, self.round, backend.palette)
        self.positions = positions(review)
        self.index = 0
        self.tried = 0
        self.right = 0
        self.state = State.SELECTING
        self.board = Board(self.match.columns, self.match.rows)
        self.cursor = 0
        self.animation = Animation(backend)
        self._stepper = Stepper(timing.repeat)

    @property
    def move(self) -> MoveReview:
        """The move being trained on."""
        return self.positions[self.index]

    def run(self) -> TrainingResult:
        """Train until the last position is done or up is pushed; the LEDs are left clear."""
        if self.positions:
            self._begin()
        else:
            self.done = True
        run(self.backend, self)
        self.backend.screen.clear()
        return TrainingResult(self.round.id, len(self.positions), self.tried, self.right)

    # -- words ----------------------------------------------------------------

    def _seat(self) -> words.Seat:
        seat = self.move.seat
        side = self.match.sides[seat - 1]
        if side.level == MATCH_ME.name and self.round.level is not None:   # match me: the level of that round
            return words.Seat(seat, side.colour, level=self.round.level, kind=Kind.COMPUTER, match_me=True)
        return words.Seat(seat, side.colour, side.name, side.level, Kind.COMPUTER if side.level else Kind.STICK)

    def _goal(self) -> str:
        return words.WIN if (self.move.best_score or 0) > 0 else words.DRAW_GOAL

    def _said(self, status: Status) -> None:
        self.backend.screen.say(status)

    # -- the stick --------------------------------------------------------------

    def heeds(self, event: StickEvent) -> bool:
        return event.source == STICK  # training is done at the backend's own stick

    def _leave(self, event: StickEvent) -> None:
        self.done = True

    def _stepped(self, event: StickEvent) -> None:
        if self.state is not State.SELECTING:
            return  # dropped during an animation
        step = self._stepper.step(event)
        if step:
            self.cursor = (self.cursor + step) % self.board.columns
            self._show()

    def _tried(self, event: StickEvent) -> None:
        if self.state is State.SELECTING:  # else dropped during an animation
            self._try(self.cursor)

    KEYS = {**bind(_leave, (Direction.UP, Action.PRESSED)),
            **bind(_stepped, *((d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD))),
            **bind(_tried, (Direction.MIDDLE, Action.PRESSED), (Direction.DOWN, Action.PRESSED))}
    """Up leaves (at any time), left/right move the cursor, middle or down tries its column."""

    # -- the positions ------------------------------------------------------------

    def _begin(self) -> None:
        move = self.move
        self.board = Board.from_moves(self.round.moves[:move.ply - 1], self.match.columns, self.match.rows)
        self.cursor = start_column(self.board)
        self._stepper.reset()
        self.state = State.SELECTING
        self._show()
        self._said(words.training(self.round.id, self.index + 1, len(self.positions), self._seat(), self._goal(),
                                  move.keeping))

    def _show(self) -> None:
        self.backend.screen.show(render.board_frame(self.board, self.palette, cursor=self.cursor))

    def _try(self, column: int) -> None:
        t = self.timing
        self.state = State.ANIMATING
        if self.board.height(column) >= self.board.rows:  # full: flash it, choose again
            self.animation.play(render.flash_column(self.board, column, self.palette,
                                                     self.palette.player(self.board.to_move), t.flashes, t.flash),
                                 self._selecting)
            return
        move = self.move
        assert move.scores is not None  # positions() takes solved moves only
        score = move.scores[column]
        right = column in move.keeping
        self.tried += 1
        self.right += right
        after = self.board.copy()
        after.play(column)
        steps: List[Step] = list(render.falling(after, column, self.palette, t.fall_row))
        landed, seconds = steps[-1]
        steps[-1] = (landed, seconds + t.landed)  # the token stays where it landed a moment
        if not right:
            steps.append((result_frame(score, self.palette.player(after.to_move), self.palette), t.result))
        for _blink in range(t.lit_blinks):
            steps.append((lit_frame(self.board, move.keeping, self.palette, True), t.lit))
            steps.append((lit_frame(self.board, move.keeping, self.palette, False), t.lit))
        steps.append((lit_frame(self.board, move.keeping, self.palette, True), t.after))
        self._said(words.training_try(self.round.id, self.index + 1, len(self.positions), self._seat(),
                                      self._goal(), move.keeping, column, self._result(score), self._outcome(score)))
        self.animation.play(steps, self._next)

    def _result(self, score: int) -> str:
        """``wins``, ``draws`` or ``loses (Bob wins in 3)``: what a tried move leads to."""
        if score > 0:
            return _("wins")
        if score == 0:
            return _("draws")
        opponent = 3 - self.move.seat
        text = self.review.match.label(opponent)
        stones = self.move.ply  # the stones on the board once the tried token is down
        _shown, moves = ending(self.review.cells, stones, -score)
        return _("loses ({who} wins in {moves})").format(who=text, moves=moves)

    def _outcome(self, score: int) -> JSONObject:
        """:meth:`_result` as values (:func:`~..match.words.try_outcome`)."""
        if score >= 0:
            return words.try_outcome(score)
        opponent = 3 - self.move.seat
        side = self.review.match.sides[opponent - 1]
        _shown, moves = ending(self.review.cells, self.move.ply, -score)
        return words.try_outcome(score, moves=moves, winner={
            "seat": opponent, "name": side.name, "level": side.level, "seconds": side.seconds, "remote": side.remote})

    def _selecting(self) -> None:
        self.state = State.SELECTING
        self._show()

    def _next(self) -> None:
        self.index += 1
        if self.index < len(self.positions):
            self._begin()
            return
        self._said(words.training_done(self.round.id, self.right, self.tried, len(self.positions)))
        self.animation.play(scroll_frames(f"{self.right}/{self.tried}", self.palette.text, self.palette.background, speed=self.timing.scroll),
                             self._done)

    def _done(self) -> None:
        self.done = True


def train(backend: Backend, review: Review, timing: TrainingTiming = TrainingTiming()) -> TrainingResult:
    """Train on ``review``'s mistakes on ``backend`` (see the module)."""
    return Training(backend, review, timing).run()


# -- the launcher's entry ---------------------------------------------------------------

ICON = Icon((
    "R.R..WW.",
    ".......W",
    "BBBBBBWB",
    "BBBBBBBB",
    "RBRBBBWB",
    "YBYBBBBB",
    "RBRYBBBB",
    "YYRRYBRB",
), lambda p: {"B": p.field, "R": p.first, "Y": p.second, "W": p.text})
"""A board with two columns lit in red (the right moves) and a white question mark."""

NAME = words.TRAINING_GAME
NO_GAMES = N_("NO GAMES")
NO_MISTAKES = N_("NO MISTAKES")
"""What scrolls when there is nothing to train on (translated where it scrolls)."""


class Left(Exception):
    """Up was pushed while the launcher's entry reviewed."""


Candidate = Tuple[MatchRecord, RoundRecord]

Reviewer = Callable[[MatchRecord, RoundRecord, Callable[[int, int], None]], Review]
"""``(match, round, progress) -> review``: how the launcher's entry reviews a round."""


def _review(match: MatchRecord, rnd: RoundRecord, progress: Callable[[int, int], None]) -> Review:
    return review_round(match, rnd, seconds=SECONDS, progress=progress)


def _progress(backend: Backend, final: Board, colours: render.Palette) -> Callable[[int, int], None]:
    """The review's progress on the LEDs (:func:`progress_frame`); up raises :class:`Left`."""
    def progress(done: int, total: int) -> None:
        backend.screen.show(progress_frame(final, colours, done, total))
        while True:
            event = backend.stick.wait_event(0)
            if event is None:
                return
            if event.source == STICK and event.action is Action.PRESSED and event.direction is Direction.UP:
                raise Left()

    return progress


def pick(backend: Backend, candidates: Sequence[Candidate], reviewer: Reviewer = _review) -> Optional[Review]:
    """Review ``candidates`` (``(match, round)``, newest first) until one has a position to train on;
    its review, or ``None``.  The LEDs show each round's board under a progress bar; up (pushed
    between two positions) raises :class:`Left`."""
    for match, rnd in candidates:
        progress = _progress(backend, Board.from_moves(rnd.moves, match.columns, match.rows),
                             palette(match, rnd, backend.palette))
        backend.screen.say(words.training_review(rnd.id))
        review = reviewer(match, rnd, progress)
        if positions(review):
            return review
    return None


def candidates(path: Optional[Path] = None, look_back: int = LOOK_BACK) -> List[Candidate]:
    """The last ``look_back`` rounds with moves, newest first, from the games database
    (``path``: default the game's file)."""

    found: List[Candidate] = []
    with Records(path) as stored:
        for match in stored.matches(look_back):
            for rnd in reversed(match.rounds):
                if rnd.moves and len(found) < look_back:
                    found.append((match, rnd))
    return found


def play(backend: Backend, *, path: Optional[Path] = None, reviewer: Reviewer = _review,
         timing: TrainingTiming = TrainingTiming()) -> Optional[TrainingResult]:
    """The launcher's entry: train on the newest round with a mistake (see the module); its result
    line is printed as the match's is.  ``NO GAMES`` or ``NO MISTAKES`` scrolls when there is none."""
    try:
        found = candidates(path)
    except C4Error as exc:  # a database that cannot be read: as if there were no games
        log.warning(_("no rounds to train on: {error}").format(error=exc))
        found = []
    if not found:
        scroll(backend, _(NO_GAMES), backend.palette.text, backend.palette.background)
        return None
    try:
        review = pick(backend, found, reviewer)
    except Left:
        backend.screen.clear()
        return None
    if review is None:
        scroll(backend, _(NO_MISTAKES), backend.palette.text, backend.palette.background)
        return None
    result = train(backend, review, timing)
    print(result.line, flush=True)
    return result


GAME = Game(name=NAME, icon=ICON, play=play, words=_)
