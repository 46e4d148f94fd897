"""What Connect 4's LEDs show, in words: the :class:`gamelib.status.Status` values the game says.

The choosers and the match say one at every change of what the LEDs mean
(:meth:`gamelib.backends.base.Backend.say`); a mirror (a web page) shows the text and
reads the details, the terminal prints the caption under the board: while choosing, and during the
match whose turn it is, in which colour, with the keys (or what the game waits for: the computer, a
phone, the other Pi).
Pure functions, no I/O.

The details (``Status.as_json()`` adds ``phase``, ``text`` and ``caption``):

- every status: ``game`` (``"Connect 4"``);
- choosing: ``choice`` (what the LEDs show: ``"2 players"``, ``"computer: 1 easy"``,
  ``"rules"``, or a size ``"6x5"``) and ``choices`` (every label offered, in order); for a
  level, ``about`` (how it plays, in words);
- the resume question (phase ``resume``): the match's ``board``, ``round``, ``score``, ``turn``
  and ``seats`` as below, and ``choices`` (``["resume", "start afresh"]``);
- the match: ``board`` (``"7x6"``), ``round`` (from 1), ``score`` (``[seat 1's, seat
  2's]``), ``turn`` (the seat to move, or ``null``), ``seats`` (two objects: ``seat``,
  ``colour`` as ``#rrggbb``, ``name`` or ``null``, ``level`` (the computer's) or ``null``,
  ``kind``: ``stick``, ``computer``, ``phone``...), ``winner`` (the seat, or ``null``) and
  ``result`` (``round``, ``draw``, ``match``, ``abandoned`` or ``null``);
- the replay (``replay ID``; phase ``replay``): ``round`` (the round's ID), ``move`` (the moves shown)
  and ``moves`` (the round's), ``paused`` and ``ended`` (true or false);
- training (``review --train``, the launcher's Connect 4 training): ``round`` (the round's
  ID), ``position`` (from 1) and ``positions``, ``turn`` (the seat to find a move, as in
  ``seats``), ``goal`` (``win`` or ``draw``: what a right move keeps), ``keeping`` (the right
  columns, 1-based), and after a try ``tried`` (the column, 1-based) and ``right`` (true or
  false); at the end ``right`` (how many) and ``tried``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, Optional, Sequence, Tuple

from gamelib.colours import RGB, ColourError, colour_name, hex_colour, parse_colour
from gamelib.jsonvalue import JSONObject
from gamelib.seats import Kind
from gamelib.status import DOWN, ENTER, LEFT_RIGHT, UP, Status

from ..engine import rungs
from ..i18n import N_, _, ngettext
from ..rules import Size
from .opponents import Opponent, OpponentKind

GAME = "Connect 4"
BROWSE = f"{LEFT_RIGHT} browse, {ENTER} chooses"
"""Said beside the choosers' labels."""

CHOOSING_OPPONENT = "choosing opponent"
CHOOSING_SIZE = "choosing size"
RULES = "rules"
PLAYING = "playing"
THINKING = "thinking"
CONFIRMING = "confirming"
RESULT = "result"
RESUME = "resume"
TRAINING = "training"
REPLAY = "replay"

SEES = "sees wins and losses {low} to {high} stones ahead"
"""A level's horizon in words (:class:`~..engine.rungs.Horizon`: its numbers are the ladder's)."""
_LEVEL_WORDS: Dict[str, str] = {
    "easy": "sees its wins in one and, two times in three, your threats to block; plays by feel beyond "
            "(Elo about 780)",
    "casual": SEES + " (yours and its own); plays by feel beyond (Elo about 960)",
    "steady": SEES + "; plays by feel beyond (Elo about 1130)",
    "medium": SEES + "; plays by feel beyond (Elo about 1310)",
    "tough": SEES + "; plays by feel beyond (Elo about 1520)",
    "hard": SEES + "; plays by feel beyond (Elo about 1700)",
    "expert": SEES + ": most of a game after its first moves (Elo about 1900)",
    "master": SEES + ": slips only in the opening (Elo about 2090)",
    "perfect": "sees to the end: a move of optimal value in every position; starting on 7x6 it always "
               "wins (Elo about 2280)",
}
LEVEL_WORDS: Dict[str, str] = {
    rung.name: _LEVEL_WORDS[rung.name].format(**(rung.horizon._asdict() if rung.horizon else {}))
    for rung in rungs.RUNGS}
"""How each level plays and how strong it is, in words for people (the chooser's and docs/guide/computer.md's),
weakest first; a horizon's plies are the ladder's own (:data:`~..engine.rungs.RUNGS`).  Elo on 7x6 with a
uniformly random player at 0 (docs/BENCHMARKS.md, *The ladder*); a stone ahead is one ply, either player's."""


MATCH_ME_WORDS = N_("steps up the ladder after each round you win and down after each you lose, "
                    "so it meets your strength")
CHOOSING_HELPS = "choosing helps"


def opponent_label(opponent: Optional[Opponent]) -> str:
    """``2 players`` for two people, ``computer: 3 steady`` for a level (its number on the ladder, as
    the LEDs show it, and its name), ``computer: match me`` for *match me*, ``over the LAN`` for
    another Pi, ``rules`` for ``None`` (the rules)."""
    if opponent is None:
        return RULES
    if opponent.kind is OpponentKind.HUMAN:
        return "2 players"
    if opponent.kind is OpponentKind.LAN:
        return "over the LAN"
    if opponent.kind is OpponentKind.MATCH_ME:
        return _("computer: match me")
    return f"computer: {rungs.number(opponent.name)} {opponent.name}"


def choosing_opponent(choice: Optional[Opponent], offered: Sequence[Optional[Opponent]]) -> Status:
    """The opponent chooser showing ``choice`` (an opponent, or ``None``: the rules) among ``offered``;
    for a level the text says how it plays (:data:`LEVEL_WORDS`), and so does the
    detail ``about``."""
    label = opponent_label(choice)
    about = (_(MATCH_ME_WORDS) if choice is not None and choice.kind is OpponentKind.MATCH_ME
             else None if choice is None or choice.level is None else LEVEL_WORDS[choice.level])
    details = {"game": GAME, "choice": label, "choices": [opponent_label(o) for o in offered]}
    if about is not None:
        details["about"] = about
    text = f"choosing the opponent: {label}" + (f": {about}" if about is not None else "")
    return Status(CHOOSING_OPPONENT, text, f"{label} ({BROWSE})", details)


def rules(text: str) -> Status:
    """The rules scrolling across the LEDs (``text``)."""
    return Status(RULES, text, "the rules are scrolling: any key stops them", {"game": GAME})


def choosing_size(size: Size, offered: Sequence[Size]) -> Status:
    """The size chooser showing ``size`` among ``offered``."""
    return Status(CHOOSING_SIZE, f"choosing the board size: {size}", f"board size: {size} ({BROWSE}, {UP} back)",
                  {"game": GAME, "choice": str(size), "choices": [str(s) for s in offered]})


def choosing_helps(on: bool) -> Status:
    """The helps chooser showing hints and take-backs ``on`` or off."""
    label = _("helps: hints and take-backs") if on else _("helps: none")
    about = _("middle shows a hint, up then down takes a move back") if on else _("no hints, no take-backs")
    return Status(CHOOSING_HELPS, _("choosing helps: {label}: {about}").format(label=label, about=about),
                  f"{label} ({BROWSE}, {UP} back)", {"game": GAME, "choice": label, "helps": on,
                                                     "choices": [_("helps: none"), _("helps: hints and take-backs")]})


def helps_counts(hints: int, takebacks: int) -> str:
    """``2 hints, 1 take-back`` (``no helps used`` for none)."""
    if not hints and not takebacks:
        return _("no helps used")
    return _("{hints}, {takebacks}").format(
        hints=ngettext("{n} hint", "{n} hints", hints).format(n=hints),
        takebacks=ngettext("{n} take-back", "{n} take-backs", takebacks).format(n=takebacks))


@dataclass(frozen=True)
class Seat:
    """Who plays a seat, as the words name them."""

    seat: int
    colour: RGB
    name: Optional[str] = None
    level: Optional[str] = None
    """The computer's level when the computer plays the seat."""
    kind: Kind = Kind.STICK
    match_me: bool = False
    """The computer is *match me*: :attr:`level` is the level it plays this round."""
    helps: bool = False
    """The person at this seat has hints and take-backs."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))

    @property
    def label(self) -> str:
        """``Ann (red)``, ``computer (easy, yellow)`` or ``player 1 (red)``."""
        colour = colour_name(self.colour)
        if self.level is not None and self.match_me:
            return _("computer (match me: {number} {level}, {colour})").format(
                number=rungs.number(self.level) if self.level in rungs.BY_NAME else "?", level=self.level, colour=colour)
        if self.level is not None:
            return f"computer ({self.level}, {colour})"
        return f"{self.owner} ({colour})"

    @property
    def owner(self) -> str:
        """``Ann``, or ``player 1`` for a seat without a name."""
        return self.name or f"player {self.seat}"

    def turn(self) -> str:
        """The terminal's line while this seat is to move: who, in which colour, and how (the keys, or
        what the game waits for)."""
        colour = colour_name(self.colour)
        if self.kind is Kind.PHONE:
            return f"waiting for {self.owner}'s phone ({colour})"
        if self.kind is Kind.REMOTE:
            return f"waiting for {self.owner} ({colour}) at the other Pi"
        if self.level is not None or self.kind is Kind.COMPUTER:
            return f"{self.label} thinking"
        if self.helps:
            return _("{who} to move: {left_right} choose, {down} drops, {enter} or h: a hint, {up} then {down} "
                     "or u: take back, {up} abandons").format(who=self.label, left_right=LEFT_RIGHT, down=DOWN,
                                                             enter=ENTER, up=UP)
        return f"{self.label} to move: {LEFT_RIGHT} choose, {ENTER} drops, {UP} abandons"

    def as_json(self) -> JSONObject:
        found: JSONObject = {"seat": self.seat, "colour": hex_colour(self.colour), "name": self.name,
                             "level": self.level, "kind": self.kind}
        if self.match_me:
            found["match_me"] = True
        return found


def match(phase: str, seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int],
          turn: Optional[int] = None, winner: Optional[int] = None, result: Optional[str] = None,
          summary: str = "", helps: Optional[Tuple[int, int]] = None, take_back: bool = False) -> Status:
    """The match in ``phase``: ``playing``/``thinking`` (``turn`` to move), ``confirming``, or
    ``result`` (``result``: ``round``, ``draw``, ``match`` or ``abandoned``; ``summary`` is the
    match's one line for the last two).  ``helps``: the round's hints and take-backs so far, when the
    person has helps (said in the text and the details ``hints``, ``takebacks``); ``take_back``: down
    takes back while the abandon question is asked."""
    where = f"round {number} ({score[0]}-{score[1]}, {size})"
    if phase == PLAYING and turn is not None:
        text = f"{where}: {seats[turn - 1].label} to move"
        caption = seats[turn - 1].turn()
    elif phase == THINKING and turn is not None:
        text = f"{where}: {seats[turn - 1].label} is thinking"
        caption = seats[turn - 1].turn()
    elif phase == CONFIRMING and take_back:
        text = _("{where}: abandon the match? up again to confirm, down takes back your last move").format(
            where=where)
        caption = _("abandon the match? {up} again: yes, {down}: take back your last move, another key: "
                    "play on").format(up=UP, down=DOWN)
    elif phase == CONFIRMING:
        text = f"{where}: abandon the match? up again to confirm"
        caption = f"abandon the match? {UP} again: yes, another key: play on"
    elif result == "round" and winner is not None:
        text = f"{where}: {seats[winner - 1].label} wins the round"
        caption = f"{seats[winner - 1].label} wins round {number}"
    elif result == "draw":
        text = f"{where}: a draw"
        caption = f"round {number}: a draw"
    else:
        text = caption = summary
    details: JSONObject = {"game": GAME, "board": str(size), "round": number, "score": list(score),
                           "winner": winner, "result": result}
    if helps is not None:
        text = f"{text} ({helps_counts(*helps)})"
        details.update(hints=helps[0], takebacks=helps[1])
    return Status(phase, text, caption or None, details, turn=turn, seats=tuple(seat.as_json() for seat in seats))


def as_guest(status: Status, mine: Optional[int]) -> Status:
    """The host's words as the guest of a game over the LAN says them: the caption of a turn from the
    guest's side (its own seat, ``mine``, at its keys; the host's person at the other Pi).  Words that
    are not a turn, or whose seats cannot be read, keep their text and lose a turn's caption."""
    if status.phase not in (PLAYING, THINKING):
        return status
    try:
        turn = status.turn
        if turn is None or status.seats is None:
            raise ValueError(turn)
        seat = status.seats[turn - 1]
        name, level = seat["name"], seat["level"]
        try:
            kind = Kind(seat["kind"])
        except ValueError:
            kind = Kind.PERSON   # a kind this Pi does not know: a person at some keys
        colour = seat["colour"]
        if not isinstance(colour, str):         # another Pi's words: a colour that is no text is no turn to say
            raise TypeError(colour)
        who = Seat(turn, parse_colour(colour), name if isinstance(name, str) else None,
                   level if isinstance(level, str) else None, kind)
    except (KeyError, IndexError, TypeError, ValueError, ColourError):
        return replace(status, caption=None)
    if turn == mine:
        who = replace(who, kind=Kind.STICK)        # this Pi's player: the keys
    elif who.kind is Kind.STICK:
        who = replace(who, kind=Kind.REMOTE)       # the host's player, at the other Pi
    return replace(status, caption=who.turn())


def resume(seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int], turn: int) -> Status:
    """The question before anything else when a match was interrupted: its board and score, in turn."""
    where = f"round {number} ({score[0]}-{score[1]}, {size})"
    return Status(RESUME, f"resume? an interrupted match, {where}: {seats[turn - 1].label} to move "
                  "(middle or down: resume, up: start afresh)", f"resume? {ENTER}: yes, {UP}: start afresh", {
                      "game": GAME, "board": str(size), "round": number, "score": list(score),
                      "choices": ["resume", "start afresh"]}, turn=turn, seats=tuple(seat.as_json() for seat in seats))


def replay(round_id: int, shown: int, total: int, *, paused: bool, ended: bool) -> Status:
    """``replay ID``: round ``round_id`` showing ``shown`` of its ``total`` moves, playing, ``paused``, or
    ``ended`` (the last move shown, its winning line blinked)."""
    where = f"round {round_id}: move {shown} of {total}" + (" (the end)" if ended else " (paused)" if paused else "")
    middle = "plays it again" if ended else "plays on" if paused else "pauses"
    return Status(REPLAY, f"replay of {where}", f"{where}: {LEFT_RIGHT} step, {ENTER} {middle}, {UP} leaves",
                  {"game": GAME, "round": round_id, "move": shown, "moves": total, "paused": paused, "ended": ended})


# -- training (``review --train``, the launcher's Connect 4 training) ----------------------

def _columns(columns: Sequence[int]) -> str:
    """``3``, ``3 and 4``, ``2, 3 and 4`` (1-based)."""
    names = [str(c + 1) for c in columns]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _keeps(goal: str, keeping: Sequence[int]) -> str:
    return f"{_columns(keeping)} {'keeps' if len(keeping) == 1 else 'keep'} the {goal}"


def training_review(round_id: int) -> Status:
    """The launcher's training reviewing round ``round_id`` to find positions to train on."""
    return Status(TRAINING, f"reviewing round {round_id}", f"reviewing round {round_id}",
                  {"game": GAME, "round": round_id})


def training(round_id: int, number: int, total: int, seat: Seat, goal: str, keeping: Sequence[int]) -> Status:
    """Position ``number`` of ``total`` to train on: ``seat`` to find a move that keeps the ``goal``."""
    return Status(TRAINING, f"training {number} of {total}: {seat.label} to move; find a move that keeps the {goal}",
                  f"{number}/{total}: find a move that keeps the {goal}",
                  {"game": GAME, "round": round_id, "position": number, "positions": total, "turn": seat.as_json(),
                   "goal": goal, "keeping": [c + 1 for c in keeping]})


def training_try(round_id: int, number: int, total: int, seat: Seat, goal: str, keeping: Sequence[int],
                 column: int, result: str) -> Status:
    """The try of ``column`` at position ``number``: ``result`` is what it leads to in words
    (``wins``, ``draws``, ``loses (Bob wins in 3)``)."""
    right = column in keeping
    verdict = "right" if right else "wrong"
    text = f"{verdict}: {column + 1} {result}" + ("" if right else f"; {_keeps(goal, keeping)}")
    return Status(TRAINING, f"training {number} of {total}: {text}", text,
                  {"game": GAME, "round": round_id, "position": number, "positions": total, "turn": seat.as_json(),
                   "goal": goal, "keeping": [c + 1 for c in keeping], "tried": column + 1, "right": right})


def training_done(round_id: int, right: int, tried: int, total: int) -> Status:
    """The end of the training: ``right`` of ``tried`` found (``total`` positions)."""
    text = f"training over: {right} of {tried} right" + ("" if tried == total else f" ({total} positions)")
    return Status(TRAINING, text, text, {"game": GAME, "round": round_id, "positions": total, "right": right,
                                         "tried": tried})
