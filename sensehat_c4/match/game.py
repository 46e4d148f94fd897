"""Connect 4 as a game: matches one after another (chooser, computer, match, repeat), and
its entry in the launcher.

:func:`play_matches` is the one match loop: before each match the players
choose the opponent with the joystick (``2P`` or a level) unless it is fixed,
the computer is set up for that match, the match is played and reported.  The
``sensehat-c4`` command runs it for as many matches as asked (``commands/play.py``); the
launcher runs one match per launch (:data:`sensehat_c4.game.GAME`), and up on the chooser goes
back to the menu.  The chooser's LAN entry plays what the caller passes (:class:`LanEntry`: the
LAN's :func:`~sensehat_c4.lan.game.play_lan`), as the LAN's modules import these, never the other way.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Protocol, Sequence, Tuple

from gamelib.backends.base import Backend
from gamelib.games import Choices
from gamelib.icons import Icon

from ..engine.matchme import MatchMe, Round
from ..records import MatchRecord, Recorder, Records, RecordsError, RoundResult
from ..rules import Size
from .chooser import choose_helps, choose_opponent, choose_size
from .computer import LEVELS, Computer, ComputerSeat, computer_for, middle
from .opponents import HUMAN, MATCH_ME, OPPONENTS, Opponent, OpponentKind, ladder_for, opponents_for
from .controller import MatchOptions, MatchResult, play as play_match
from .players import Seats, follow
from .resume import pending

ICON = Icon((
    "...R....",
    "........",
    "BBBBBBBB",
    "BBBBBBBB",
    "BBBBBBBB",
    "BBBYBBBB",
    "BBRYBBBB",
    "BYRRYBRB",
), lambda p: {"B": p.field, "R": p.first, "Y": p.second})
"""A small board with a few tokens, and a red one about to drop (drawn in the palette shown)."""


Report = Callable[[int, Optional[Computer], MatchResult], None]
"""Told of each match played: how many this loop has played with it (from 1), the computer (``None``: two
people), the result (its :attr:`~.controller.MatchResult.number`: the match's in the records)."""

LEVEL_NAMES = tuple(LEVELS)
"""The ladder's levels, weakest first."""


class LanEntry(Protocol):
    """What the chooser's LAN entry plays (:func:`sensehat_c4.lan.game.play_lan`): offer or join, asked on
    the LEDs, as the first of ``choices.names``; the matches played."""

    def __call__(self, backend: Backend, choices: Optional[Choices] = None, *, size: Optional[Size] = None,
                 recorder: Optional[Recorder] = None) -> int: ...


def play_matches(backend: Backend, options: Optional[MatchOptions] = None, *, opponent: Optional[Opponent] = None,
                 computer_plays: ComputerSeat = ComputerSeat.TWO, think: Optional[float] = None, matches: int = 0,
                 back_leaves: bool = False, report: Optional[Report] = None, size: Optional[Size] = None,
                 default_size: Size = Size(), chosen_size: Optional[Callable[[Size], None]] = None,
                 recorder: Optional[Recorder] = None, seats: Optional[Seats] = None,
                 helps: Optional[bool] = None, lan: Optional[LanEntry] = None) -> int:
    """Play matches on ``backend`` until ``matches`` have been played (0: for ever); the number played.

    ``opponent`` (:data:`~.opponents.HUMAN`, a level or :data:`~.opponents.MATCH_ME`) fixes the opponent; without it the chooser
    asks before each match, starting from the last choice.  ``size`` fixes the board
    size; without it, and unless ``opponent`` is fixed (then the size is
    ``options.size``), the size chooser asks after the opponent, starting from
    ``default_size`` and then from the last choice; up there goes back to the
    opponent.  ``chosen_size`` is told each size chosen (the launcher remembers it).
    Up on the opponent chooser ends the loop if ``back_leaves``, else the chooser
    asks again.  ``computer_plays`` (``1``, ``2`` or ``alternate``) and ``think``
    (seconds; ``None``: the level's own budget) set up the computer
    (:func:`~.computer.computer_for`).  ``seats`` puts other players (a phone,
    another Pi) in the seats of every match, for as long as they sit there.  The
    backend's seat table (:attr:`~gamelib.backends.base.Backend.seats`: a phone seated
    through the web view) is followed into them, and emptied when each match ends: a
    seat taken that way is for the match being played or the next one.

    ``helps`` (hints and take-backs against the computer) fixes them on or off; without it they
    are asked after the size when the opponent was chosen on the LEDs (up there goes back to the
    opponent), and off when ``opponent`` is fixed.  *Match me* (:data:`~.opponents.MATCH_ME`) starts
    each match where the person's last match me left off (:func:`match_me_start`).  ``lan`` is what the
    chooser's LAN entry plays (another Pi: :func:`sensehat_c4.lan.game.play_lan`); without it that entry
    is not offered.

    With a ``recorder``, a match a power cut or a crash interrupted comes first, whatever
    the options say (:func:`~.resume.pending`): resumed, it is played as it was stored and
    counts as the first match; up there abandons it, and the loop starts as usual.
    """
    seats = seats if seats is not None else Seats()
    stop_following = follow(backend.seats, seats)
    try:
        return _play_matches(backend, options, opponent=opponent, computer_plays=computer_plays, think=think,
                             matches=matches, back_leaves=back_leaves, report=report, size=size,
                             default_size=default_size, chosen_size=chosen_size, recorder=recorder, seats=seats,
                             helps=helps, lan=lan)
    finally:
        stop_following()


def _play_matches(backend: Backend, options: Optional[MatchOptions], *, opponent: Optional[Opponent],
                  computer_plays: ComputerSeat, think: Optional[float], matches: int, back_leaves: bool,
                  report: Optional[Report], size: Optional[Size], default_size: Size,
                  chosen_size: Optional[Callable[[Size], None]], recorder: Optional[Recorder], seats: Seats,
                  helps: Optional[bool] = None, lan: Optional[LanEntry] = None) -> int:
    base = options or MatchOptions()
    fixed = size if size is not None else base.size if opponent is not None else None
    played, last, last_size, last_helps = 0, opponent or HUMAN, default_size, False
    ladder: Optional[MatchMe] = None   # match me as the last match left it (if the records cannot say)
    interrupted = pending(backend, recorder, base, seats=seats) if recorder is not None else None
    if interrupted is not None:
        try:
            result = play_match(backend, interrupted.options, recorder=recorder, seats=seats,
                                resumed=interrupted.resumed, left=_told(report, played + 1, interrupted.options.computer))
        finally:
            backend.seats.clear()   # the phones' seats were for this match
        played += 1
        if report is not None:
            report(played, interrupted.options.computer, result)
    while matches == 0 or played < matches:
        offered = OPPONENTS if fixed is None else opponents_for(fixed)
        chosen = opponent or choose_opponent(backend, last, offered, lan=lan is not None)
        if chosen is None:
            if back_leaves:
                break
            continue
        last = chosen
        if chosen.kind is OpponentKind.LAN:   # another Pi: offer or join (the matches are its own loop's)
            if lan is None:
                raise ValueError("play_matches: the LAN opponent needs lan (what its entry plays)")
            played += lan(backend, Choices(names=tuple(n for n in base.names if n)), recorder=recorder,
                               size=fixed)
            continue
        board = fixed or choose_size(backend, chosen.sizes(), last_size)
        if board is None:  # up on the size chooser: back to the opponent
            continue
        if fixed is None:
            last_size = board
            if chosen_size is not None:
                chosen_size(board)
        against_computer = chosen.kind is not OpponentKind.HUMAN
        helped = bool(helps) and against_computer
        if against_computer and helps is None and opponent is None:
            asked = choose_helps(backend, last_helps)
            if asked is None:  # up: back to the opponent
                continue
            helped = last_helps = asked
        me: Optional[MatchMe] = None
        if chosen.kind is OpponentKind.MATCH_ME:
            levels = ladder_for(board)
            computer = computer_for(Opponent.computer(middle(levels)), computer_plays, played + 1, think)
            assert computer is not None
            person = base.names[2 - computer.player]
            me = ladder = match_me_start(recorder, person, levels, ladder)
            computer = replace(computer, level=ladder.level)
        else:
            computer = computer_for(chosen, computer_plays, played + 1, think)
        try:
            result = play_match(backend, replace(base, computer=computer, size=board, helps=helped, match_me=me),
                                recorder=recorder, seats=seats, left=_told(report, played + 1, computer))
        finally:
            backend.seats.clear()   # the phones' seats were for this match
        played += 1
        if report is not None:
            report(played, computer, result)
    return played


MATCH_ME_LOOKED_AT = 200
"""How many of the last matches :func:`match_me_start` looks through for the person's last match me."""


def match_me_start(recorder: Optional[Recorder], person: Optional[str], levels: Sequence[str],
                   last: Optional[MatchMe] = None) -> MatchMe:
    """*Match me* for a match on ``levels`` against ``person`` (a name, or ``None``): from the level
    after the last round of that person's last match me in the records (the level it played, stepped
    by its result), else from ``last`` (this process's), else from the middle of ``levels``.  A level
    the board does not offer is taken as the nearest one it does.  Going on from a series played
    before, it steps one level at a time; only a new series (from the middle) halves the distance
    first (:mod:`~..engine.matchme`)."""
    found: Optional[Tuple[str, Optional[Round]]] = None
    if recorder is not None and recorder.failed is None:
        try:
            with Records(recorder.path) as stored:
                found = _last_match_me(stored.matches(MATCH_ME_LOOKED_AT), person)
        except RecordsError:
            found = None
    if found is None and last is not None:
        found = (last.level, None)
    if found is None:
        return MatchMe.starting(levels, middle(levels))
    level, result = found
    ladder = MatchMe.starting(levels, _nearest(level, levels), settled=True)   # going on: one level a step
    if result is not None:
        ladder.after(result)
    return ladder


def _last_match_me(matches: Sequence[MatchRecord], person: Optional[str]) -> Optional[Tuple[str, Optional[Round]]]:
    """The level of the newest match me round played against ``person`` and its result for them."""
    for match in matches:   # newest first
        for seat, side in enumerate(match.sides, start=1):
            other = match.sides[2 - seat]
            if side.level != MATCH_ME.name or other.level is not None or other.name != person:
                continue
            for rnd in reversed(match.rounds):
                if rnd.level is None or rnd.level not in LEVEL_NAMES:
                    continue
                if rnd.result is RoundResult.WIN:
                    return rnd.level, Round.LOST if rnd.winner == seat else Round.WON
                return rnd.level, Round.DRAWN if rnd.result is RoundResult.DRAW else None
    return None


def _nearest(level: str, levels: Sequence[str]) -> str:
    """``level`` if ``levels`` has it, else the one of ``levels`` nearest it on the ladder."""
    if level in levels:
        return level
    rank = LEVEL_NAMES.index(level)
    return min(levels, key=lambda name: (abs(LEVEL_NAMES.index(name) - rank), LEVEL_NAMES.index(name)))


def _told(report: Optional[Report], number: int, computer: Optional[Computer]) -> Optional[Callable[[MatchResult], None]]:
    """What a match left with ``q`` tells (``report``, as if it had ended abandoned)."""
    if report is None:
        return None
    return lambda result: report(number, computer, result)
