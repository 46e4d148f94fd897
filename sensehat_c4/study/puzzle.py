"""The puzzle of the day, played on the LEDs: ``sensehat-c4 puzzle`` and the launcher's *puzzle of the day*.

The day's puzzle (:func:`~sensehat_c4.engine.puzzles.daily`) is set up on the field as in a match,
the cursor over the middle column in the colour of the side to move.  Left/right move the cursor
(wrapping round), middle or down drops a token, up leaves (at any time, also during an animation).
A full column flashes, as in play.  The player plays against the computer's best defence (the
solver's: every defence considered, it plays the reply that holds out longest,
:func:`~sensehat_c4.engine.puzzles.defence`), and solves the puzzle by winning within ``n`` of its
own stones.

* A right move (it still wins within the stones left): the token falls, the cursor rests over the
  defence's column for a moment in its colour, its token falls, and the player moves again.
* The winning move: the token falls, the four blink as in a match, and the streak (the days in a
  row solved on the day, :func:`~sensehat_c4.records.streak`) scrolls across in white:
  ``STREAK 3``.  Then the LEDs are cleared.
* A wrong move (one that no longer wins within the stones left,
  :func:`~sensehat_c4.engine.puzzles.check`): the token falls, then the board as it was before it
  comes back with the right column (every right one) blinking at the cursor row in the player's
  colour, and stays lit: middle or down (also during the blinks) tries again from the puzzle's
  position, up leaves.

Each try that ends (by the win or by a wrong move) is kept in the records (:class:`Keeper`: one row
a day, :meth:`~sensehat_c4.records.Recorder.puzzle_tried`).  The words (:class:`~gamelib.status.Status`,
phase ``puzzle``) carry the puzzle's id and date, ``n``, the stones left, the try and the streak, for
the terminal's status line and the web page.  Like the training, it is an :class:`~gamelib.keys.Animated`
screen (its keys in :attr:`PuzzlePlay.KEYS`) run by :func:`gamelib.keys.run`, which waits until the next
deadline, so it never spins; presses made during an animation (other than up)
are dropped.
"""
from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Protocol

from gamelib.animation import Animation, Step
from gamelib.backends.base import STICK, Action, Backend, Direction, StickEvent
from gamelib.colours import RGB, hex_colour
from gamelib.games import Game
from gamelib.icons import Icon
from gamelib.keys import Animated, bind, run
from gamelib.scroll import scroll_frames
from gamelib.status import ENTER, LEFT_RIGHT, UP, Status
from gamelib.stepper import Stepper

from ..engine.limit import Limit
from ..engine.puzzles import Puzzle, Verdict, check, daily, defence, stones_left
from ..errors import C4Error
from ..i18n import _, ngettext
from ..match import render, unrecorded, words
from ..match.controller import start_column
from ..records import PuzzleRecord, Recorder, Records, streak
from ..rules import Board
from .training import StudyTiming

log = logging.getLogger(__name__)

PHASE = "puzzle"
"""The words' phase while a puzzle is played (an API value: never translated)."""


@dataclass(frozen=True)
class PuzzleTiming(StudyTiming):
    """The puzzle's pace: :class:`~.training.StudyTiming` (a wrong token stays where it landed, then the right
    columns blink at the cursor row; the streak scrolls at the end)."""


@dataclass(frozen=True)
class PuzzleResult:
    """How the play went: the day's ``tries`` ended so far (earlier plays' too; the last the win if
    ``solved``), and the streak after it (``None``: not recorded)."""

    day: date
    puzzle: Puzzle
    tries: int
    solved: bool
    streak: Optional[int]

    @property
    def line(self) -> str:
        """``puzzle 3-0042 of 2026-11-25: solved at try 2; streak: 3 days``, or ``...: not solved (1 try)``."""
        head = _("puzzle {id} of {day}").format(id=self.puzzle.ident, day=self.day.isoformat())
        if not self.solved:
            tries = ngettext("{n} try", "{n} tries", self.tries).format(n=self.tries)
            return _("{head}: not solved ({tries})").format(head=head, tries=tries)
        text = _("{head}: solved at try {n}").format(head=head, n=self.tries)
        return text if self.streak is None else with_streak(text, self.streak)


def streak_words(days: int) -> str:
    """``streak: 3 days``."""
    return ngettext("streak: {n} day", "streak: {n} days", days).format(n=days)


def with_streak(text: str, days: int) -> str:
    """``text; streak: 3 days`` (in French, a space before the semicolon: one message)."""
    return _("{text}; {streak}").format(text=text, streak=streak_words(days))


class Keeper(Protocol):
    """Where the tries are kept: the day's tries before this play, and each try as it ends."""

    def before(self) -> int:
        """The tries of the day's puzzle ended before this play."""

    def tried(self, solved: bool) -> Optional[int]:
        """Keep a try that ended (``solved`` or not); the streak after it (``None``: not kept)."""


class NoKeeper:
    """Keeps nothing (a play with no records)."""

    def before(self) -> int:
        return 0

    def tried(self, solved: bool) -> Optional[int]:
        return None


class RecordsKeeper:
    """Keeps the tries of ``day``'s ``puzzle`` in the games database at ``path`` (default the game's);
    ``today()`` is the local date (the streak counts from it).  Storage problems are logged, never raised."""

    def __init__(self, day: date, puzzle: Puzzle, path: Optional[Path] = None, *,
                 today: Callable[[], date] = date.today, recorder: Optional[Recorder] = None) -> None:
        self.day, self.puzzle, self.path, self.today = day, puzzle, path, today
        self.recorder = recorder if recorder is not None else Recorder(path)

    def _played(self) -> List[PuzzleRecord]:
        with Records(self.recorder.path) as stored:
            return list(stored.puzzles())

    def before(self) -> int:
        try:
            return next((p.tries for p in self._played() if p.day == self.day), 0)
        except C4Error as exc:
            if self.recorder.failed is None:   # else its one line said why already
                log.warning(_("the puzzles played cannot be read: {error}").format(error=exc))
            return 0

    def tried(self, solved: bool) -> Optional[int]:
        today = self.today()
        if not self.recorder.puzzle_tried(self.day, self.puzzle.ident, self.puzzle.n, solved=solved, today=today):
            return None
        try:
            return streak(self._played(), today)
        except C4Error as exc:
            log.warning(_("the puzzles played cannot be read: {error}").format(error=exc))
            return None

    def close(self) -> None:
        self.recorder.close()


# -- the words ------------------------------------------------------------------------------------

def _details(day: date, puzzle: Puzzle, left: int, attempt: int, streak: Optional[int],
             **more: Any) -> Dict[str, Any]:
    return {"game": words.GAME, "puzzle": puzzle.ident, "date": day.isoformat(), "n": puzzle.n, "left": left,
            "try": attempt, "streak": streak, **more}


def _task(player: str, left: int) -> str:
    return ngettext("{player} to move: win with this stone", "{player} to move: win within {n} stones",
                    left).format(player=player, n=left)


def playing(day: date, puzzle: Puzzle, player: str, left: int, attempt: int, streak: Optional[int],
            colour: Optional[RGB] = None) -> Status:
    """The turn of ``player`` (its colour's name; ``colour``: the colour itself, the details' ``colour`` and
    ``colour_name``) in the puzzle, ``left`` stones to win with, at try ``attempt``."""
    task = _task(player, left)
    text = _("puzzle {id}, try {n}: {task}").format(id=puzzle.ident, n=attempt, task=task)
    caption = _("{task}; {keys}: choose, {enter}: drop, {up}: leave").format(task=task, keys=LEFT_RIGHT, enter=ENTER,
                                                                            up=UP)
    shown = {} if colour is None else {"colour": hex_colour(colour), "colour_name": words.named(colour)}
    return Status(PHASE, text, caption, _details(day, puzzle, left, attempt, streak, **shown))


def wrong(day: date, puzzle: Puzzle, column: int, right: List[int], attempt: int, streak: Optional[int]) -> Status:
    """A wrong move ended try ``attempt``: ``right`` are the columns that won."""
    columns = ngettext("column {columns} wins", "columns {columns} win", len(right)).format(
        columns=", ".join(str(c + 1) for c in right))
    text = _("puzzle {id}, try {n}: {column} does not win in time; {columns}").format(
        id=puzzle.ident, n=attempt, column=column + 1, columns=columns)
    caption = _("{columns}; {enter}: try again, {up}: leave").format(columns=columns, enter=ENTER, up=UP)
    return Status(PHASE, text, caption, _details(day, puzzle, 0, attempt, streak, tried=column + 1, right=False,
                                                 winning=[c + 1 for c in right]))


def solved(day: date, puzzle: Puzzle, attempt: int, streak: Optional[int]) -> Status:
    """The puzzle is solved at try ``attempt``."""
    text = _("puzzle {id} solved at try {n}").format(id=puzzle.ident, n=attempt)
    if streak is not None:
        text = with_streak(text, streak)
    return Status(PHASE, text, text, _details(day, puzzle, 0, attempt, streak, solved=True))


# -- the play ---------------------------------------------------------------------------------------

def lit_frame(board: Board, columns: List[int], colours: render.Palette, lit: bool) -> render.Pixels:
    """``board`` with the cursor row lit over ``columns`` (if ``lit``) in the colour of the player to move."""
    pixels = render.board_frame(board, colours)
    if lit:
        for column in columns:
            pixels[render.CURSOR_ROW * render.SIZE + render.column_x(board, column)] = colours.player(board.to_move)
    return pixels


class State(enum.Enum):
    SELECTING = "selecting"
    ANIMATING = "animating"
    OFFERED = "offered"
    """A wrong move ended the try: middle or down tries again, up leaves."""


class PuzzlePlay(Animated):
    """Plays ``day``'s ``puzzle`` on ``backend``; call :meth:`run` once."""

    def __init__(self, backend: Backend, day: date, puzzle: Puzzle, *, keeper: Optional[Keeper] = None,
                 timing: PuzzleTiming = PuzzleTiming(), limit: Limit = Limit()) -> None:
        self.backend = backend
        self.day, self.puzzle = day, puzzle
        self.keeper: Keeper = keeper or NoKeeper()
        self.timing = timing
        self.limit = limit
        self.palette = backend.palette
        """The colours: the backend's palette (``--palette``, the launcher's setting)."""
        self.state = State.SELECTING
        self.board = puzzle.board()
        self.played: List[int] = []
        self.cursor = start_column(self.board)
        self.before = self.keeper.before()
        self.tries = 0
        """Tries ended in this play."""
        self.attempt = self.before + 1
        """The number of the try in play (or of the last one ended), counting the day's earlier ones."""
        self.solved = False
        self.streak: Optional[int] = None
        self.animation = Animation(backend)
        self._stepper = Stepper(timing.repeat)

    def run(self) -> PuzzleResult:
        """Play until the puzzle is solved or up is pushed; the LEDs are left clear."""
        self._begin()
        run(self.backend, self)
        self.backend.screen.clear()
        return PuzzleResult(self.day, self.puzzle, self.before + self.tries, self.solved, self.streak)

    # -- the stick ------------------------------------------------------------------------------

    def heeds(self, event: StickEvent) -> bool:
        return event.source == STICK  # a puzzle is played at the backend's own stick

    def _leave(self, event: StickEvent) -> None:
        self.done = True

    def _stepped(self, event: StickEvent) -> None:
        if self.state is not State.SELECTING:
            return  # dropped during an animation (and once offered)
        step = self._stepper.step(event)
        if step:
            self.cursor = (self.cursor + step) % self.board.columns
            self._show()

    def _dropped(self, event: StickEvent) -> None:
        if self.state is State.OFFERED:
            self.animation.stop()
            self._begin()
        elif self.state is State.SELECTING:  # else dropped during an animation
            self._try(self.cursor)

    KEYS = {**bind(_leave, (Direction.UP, Action.PRESSED)),
            **bind(_stepped, *((d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD))),
            **bind(_dropped, (Direction.MIDDLE, Action.PRESSED), (Direction.DOWN, Action.PRESSED))}
    """Up leaves (at any time), left/right move the cursor, middle or down drops (once a try is over:
    tries again)."""

    # -- the tries ------------------------------------------------------------------------------

    def _begin(self) -> None:
        self.board = self.puzzle.board()
        self.played = []
        self.attempt = self.before + self.tries + 1
        self._selecting()

    def _selecting(self) -> None:
        self.state = State.SELECTING
        self.cursor = start_column(self.board)
        self._stepper.reset()
        self._show()
        colour = self.palette.player(self.puzzle.to_move)
        self.backend.screen.say(playing(self.day, self.puzzle, words.colour_word(colour), stones_left(self.puzzle, self.played),
                                 self.attempt, self.streak, colour))

    def _show(self) -> None:
        self.backend.screen.show(render.board_frame(self.board, self.palette, cursor=self.cursor))

    def _try(self, column: int) -> None:
        t = self.timing
        self.state = State.ANIMATING
        if not self.board.can_play(column):  # full: flash it, choose again
            self.animation.play(render.flash_column(self.board, column, self.palette,
                                                     self.palette.player(self.board.to_move), t.flashes, t.flash),
                                 self._again)
            return
        verdict = check(self.puzzle, self.played, column, limit=self.limit)
        after = self.board.copy()
        after.play(column)
        steps: List[Step] = list(render.falling(after, column, self.palette, t.fall_row))
        if verdict is Verdict.SOLVED:
            self._solved(after, steps)
        elif verdict is Verdict.RIGHT:
            self._defend(column, after, steps)
        else:
            self._wrong(column, steps)

    def _again(self) -> None:
        self.state = State.SELECTING
        self._show()

    def _defend(self, column: int, after: Board, steps: List[Step]) -> None:
        """A right move: the defence's reply, then the player's turn."""
        t = self.timing
        self.played.append(column)
        reply = defence(self.puzzle, self.played, limit=self.limit)
        self.played.append(reply)
        steps.append((render.board_frame(after, self.palette, cursor=reply), t.aim))
        self.board = after.copy()
        self.board.play(reply)
        steps.extend(render.falling(self.board, reply, self.palette, t.fall_row))
        self.animation.play(steps, self._selecting)

    def _wrong(self, column: int, steps: List[Step]) -> None:
        """A wrong move: the try ends; once the token has landed, the right columns blink at the cursor
        row and another try is offered (a press during the blinks takes it at once)."""
        t = self.timing
        right = [c for c in range(self.board.columns) if self.board.can_play(c)
                 and check(self.puzzle, self.played, c, limit=self.limit) is not Verdict.WRONG]
        self.tries += 1
        self.streak = self.keeper.tried(False)
        landed, seconds = steps[-1]
        steps[-1] = (landed, seconds + t.landed)
        self.backend.screen.say(wrong(self.day, self.puzzle, column, right, self.attempt, self.streak))
        self.animation.play(steps, lambda: self._offer(right))

    def _offer(self, right: List[int]) -> None:
        t = self.timing
        self.state = State.OFFERED
        steps: List[Step] = []
        for _blink in range(t.lit_blinks):
            steps.append((lit_frame(self.board, right, self.palette, True), t.lit))
            steps.append((lit_frame(self.board, right, self.palette, False), t.lit))
        steps.append((lit_frame(self.board, right, self.palette, True), 0.0))
        self.animation.play(steps)

    def _solved(self, after: Board, steps: List[Step]) -> None:
        t = self.timing
        self.board = after
        self.tries += 1
        self.solved = True
        self.streak = self.keeper.tried(True)
        outcome = after.outcome
        assert outcome is not None
        steps.extend(render.blink_cells(after, outcome.cells, self.palette, t.win_blinks, t.win_blink))
        shown = _("STREAK {n}").format(n=self.streak) if self.streak is not None else _("SOLVED")
        steps.extend(scroll_frames(shown, self.palette.text, self.palette.background, speed=t.scroll))
        self.backend.screen.say(solved(self.day, self.puzzle, self.attempt, self.streak))
        self.animation.play(steps, self._done)

    def _done(self) -> None:
        self.done = True


def play_puzzle(backend: Backend, day: date, *, keeper: Optional[Keeper] = None,
                timing: PuzzleTiming = PuzzleTiming()) -> PuzzleResult:
    """Play ``day``'s puzzle on ``backend`` (see the module)."""
    return PuzzlePlay(backend, day, daily(day), keeper=keeper, timing=timing).run()


# -- the launcher's entry ------------------------------------------------------------------------

ICON = Icon((
    "...R....",
    "........",
    "BBBBBBB.",
    "BBBBBBB.",
    "BBBBBBB.",
    "BBBBBBB.",
    "YYYBBBB.",
    "RRRBYBB.",
), lambda p: {"B": p.field, "R": p.first, "Y": p.second})
"""Red to move over the one column that wins: the fourth in the bottom row."""

NAME = words.PUZZLE_GAME


def play(backend: Backend, *, path: Optional[Path] = None, today: Callable[[], date] = date.today,
         timing: PuzzleTiming = PuzzleTiming()) -> Optional[PuzzleResult]:
    """The launcher's entry: today's puzzle, its tries kept in the games database (``path``: default the
    game's; one that cannot be written is warned of on the LEDs first, :mod:`..match.unrecorded`); its result
    line is printed as the match's is."""
    day = today()
    puzzle = daily(day)
    keeper = RecordsKeeper(day, puzzle, path, today=today)
    try:
        unrecorded.check(backend, keeper.recorder)   # told before play
        result = PuzzlePlay(backend, day, puzzle, keeper=keeper, timing=timing).run()
    finally:
        keeper.close()
    print(result.line, flush=True)
    return result


GAME = Game(name=NAME, icon=ICON, play=play, words=_)
"""``connect4-puzzle`` under ``gamelib.games``."""
