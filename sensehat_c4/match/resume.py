"""Taking up a match that a power cut or a crash interrupted.

Every move is committed as it is played (:class:`~..records.Recorder`), so a match whose
program died (a power cut, kill -9) is in the file as it was: ``playing``, its process gone.
A game starting (``sensehat-c4``, or Connect 4 from the launcher's menu) asks its recorder
for one before anything else (:func:`pending`).  If there is one, the LEDs show its board as it
was, with the cursor of the player to move over the middle column, for
:attr:`~.controller.Timing.resume_board` seconds, then the match's score (seat 1's round
wins on the left in its colour, seat 2's on the right) for
:attr:`~.controller.Timing.resume_score`, in turn, and say it in words
(:func:`~.words.resume`).  Middle or down resumes it exactly as stored: the players (people,
or the computer's level, budget and seat), colours, names, board size, who starts the rounds
and how many wins take the match, the score, the round in play and who is to move.  Up
marks it abandoned (its round in play too), and the game starts as usual.

Only the stick at the backend answers, as on the choosers (a phone's press does nothing
here).  A seat a phone or another Pi played is the stick's again when the match is resumed,
unless one takes it again (:class:`~.players.Seats`): the records keep who played, not how.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass, replace
from typing import List, Optional

from gamelib.backends.base import STICK, Action, Backend, Direction, StickEvent
from gamelib.keys import Screen, bind, run
from gamelib.palette import for_round
from gamelib.status import Status

from ..errors import C4Error, ConfigError
from ..i18n import _
from ..records import MatchRecord, Recorder, RoundResult
from ..rules import Board, Size
from . import render, words
from ..engine.matchme import MatchMe, Round
from .computer import Computer, middle
from .opponents import MATCH_ME, ladder_for
from .controller import MatchOptions, Resumed, round_starter, start_column
from .players import Kind, Seats

log = logging.getLogger("sensehat_c4")

RESUME, AFRESH = True, False
ANSWERS = {Direction.MIDDLE: RESUME, Direction.DOWN: RESUME, Direction.UP: AFRESH}
"""What a press of the stick answers (left and right do nothing): :attr:`Question.KEYS` is bound from it."""


class NotResumable(C4Error, ValueError):
    """A stored match that cannot be played on (its seats, level or score make no match)."""


@dataclass(frozen=True)
class Interrupted:
    """A stored match ready to be played on: how (``options``) and from where (``resumed``)."""

    record: MatchRecord
    options: MatchOptions
    resumed: Resumed

    @property
    def board(self) -> Board:
        size = self.options.size
        return Board.from_moves(self.resumed.moves, size.columns, size.rows)

    @property
    def turn(self) -> int:
        """The seat to move."""
        starter = self.resumed.starter
        return starter if self.board.to_move == 1 else 3 - starter


def interrupted(record: MatchRecord, base: Optional[MatchOptions] = None,
                rng: Optional[random.Random] = None) -> Interrupted:
    """``record`` as a match to play on, with ``base``'s timing and seed (the rest is the record's);
    :class:`NotResumable` if it cannot be.  Between rounds, the next round's starter is drawn
    now (``rng``) when the rounds' starters are random."""
    sides = record.sides
    if any(side.remote for side in sides):   # the other Pi gave it up long ago (it abandons it after a while)
        raise NotResumable(_("it was played with another Pi over the LAN"))
    computer, ladder = None, None
    for seat, side in enumerate(sides, start=1):
        if side.level is None:
            continue
        if computer is not None:
            raise NotResumable(_("both of its seats are the computer's"))
        level = side.level
        try:
            if level == MATCH_ME.name:   # match me: on at the level of its last round (stepped, if it ended)
                levels = ladder_for(Size(record.columns, record.rows))
                played = [r for r in record.rounds if r.level in levels]
                ladder = MatchMe.starting(levels, str(played[-1].level) if played else middle(levels), settled=True)
                last = record.rounds[-1] if record.rounds else None
                if last is not None and played and last is played[-1] and last.result in (RoundResult.WIN, RoundResult.DRAW):
                    ladder.after(Round.DRAWN if last.result is RoundResult.DRAW else
                                 Round.LOST if last.winner == seat else Round.WON)
                level = ladder.level
            computer = Computer(level, player=seat, seconds=side.seconds)
        except (ConfigError, IndexError) as exc:
            raise NotResumable(str(exc) or _("match me has no levels on its board")) from None
    score = record.score
    if max(score) >= record.wins:
        raise NotResumable(_("its score {first}-{second} already decides it").format(first=score[0], second=score[1]))
    rounds = record.rounds
    if any(r.result is RoundResult.PLAYING for r in rounds[:-1]):
        raise NotResumable(_("a round before its last is still in play"))
    if rounds and rounds[-1].result is RoundResult.PLAYING:
        last = rounds[-1]
        resumed = Resumed(score, last.number, last.starter, last.moves, last.hints, last.takebacks)
    else:
        number = (rounds[-1].number if rounds else 0) + 1
        resumed = Resumed(score, number, round_starter(record.starts, number, rng or random.Random()))
    options = replace(base or MatchOptions(), colours=(sides[0].colour, sides[1].colour), first=record.starts, wins=record.wins,
                      computer=computer, size=Size(record.columns, record.rows), match_me=ladder,
                      names=(sides[0].name, sides[1].name))
    return Interrupted(record, options, resumed)


def frames(match: Interrupted, shown: render.Palette) -> List[render.Step]:
    """The question's two frames in the palette ``shown`` and how long each stays up: the board as it was, then
    the score."""
    options, resumed = match.options, match.resumed
    colours = options.players(shown)
    palette = for_round(colours, resumed.starter, shown)
    board = match.board
    return [(render.board_frame(board, palette, cursor=start_column(board)), options.timing.resume_board),
            (render.score_frame(resumed.score, colours, palette.background), options.timing.resume_score)]


def said(match: Interrupted, seats: Optional[Seats] = None, *, shown: render.Palette) -> Status:
    """The question in words (who plays each seat: the computer, whoever ``seats`` puts there, the stick; its
    colour, as :func:`frames` draws it in ``shown``)."""
    options = match.options
    colours = options.players(shown)
    computer = options.computer
    described = []
    for seat in (1, 2):
        player = None if seats is None else seats[seat]
        ours = computer is not None and computer.player == seat and player is None
        described.append(words.Seat(seat, colours[seat - 1], options.names[seat - 1],
                                    computer.level if ours and computer is not None else None,
                                    Kind.COMPUTER if ours else player.kind if player is not None else Kind.STICK))
    return words.resume((described[0], described[1]), size=options.size, number=match.resumed.round,
                        score=match.resumed.score, turn=match.turn)


def ask(backend: Backend, match: Interrupted, seats: Optional[Seats] = None) -> bool:
    """Show the question until the stick answers: True (middle or down) resumes, False (up) does not.
    What else was pressed meanwhile is dropped.  The LEDs are left as they are (the resumed match's
    first frame is the question's board; the chooser draws its own)."""
    question = Question(backend, frames(match, backend.palette))
    backend.screen.say(said(match, seats, shown=backend.palette))
    question.show()
    run(backend, question)
    backend.stick.discard_events()
    return question.answer


class Question(Screen):
    """:func:`ask`'s screen: its two steps (the board, the score) in turn, each for its seconds, until
    :data:`ANSWERS`' keys answer (:attr:`answer`); only the backend's own stick answers."""

    def __init__(self, backend: Backend, steps: List[render.Step]) -> None:
        self.backend = backend
        self.steps = steps
        self.shown = 0
        self.answer = AFRESH
        self._due = 0.0

    def show(self) -> None:
        """Show step :attr:`shown`, the next due after its seconds."""
        frame, seconds = self.steps[self.shown]
        self.backend.screen.show(frame)
        self._due = self.backend.now() + seconds

    def deadline(self) -> Optional[float]:
        return self._due

    def due(self) -> None:
        self.shown = 1 - self.shown
        self.show()

    def heeds(self, event: StickEvent) -> bool:
        return event.source == STICK

    def _resume(self, event: StickEvent) -> None:
        self.answer, self.done = RESUME, True

    def _afresh(self, event: StickEvent) -> None:
        self.answer, self.done = AFRESH, True

    KEYS = {**bind(_resume, *((d, Action.PRESSED) for d, a in ANSWERS.items() if a is RESUME)),
            **bind(_afresh, *((d, Action.PRESSED) for d, a in ANSWERS.items() if a is AFRESH))}


def pending(backend: Backend, recorder: Recorder, base: Optional[MatchOptions] = None, *,
            seats: Optional[Seats] = None) -> Optional[Interrupted]:
    """Before anything else: the interrupted match, if there is one, asked about; the match to play
    on if the players say so (its recorder goes on with it), else ``None`` (it is abandoned, or
    there was none)."""
    record = recorder.interrupted()
    if record is None:
        return None
    try:
        match = interrupted(record, base, random.Random(None if base is None else base.seed))
    except NotResumable as exc:
        log.warning(_("the interrupted match {id} cannot be resumed ({why}); it is kept as abandoned").format(
            id=record.id, why=exc))
        recorder.abandon(record)
        return None
    if not ask(backend, match, seats):
        recorder.abandon(record)
        return None
    recorder.resume(record)
    return match
