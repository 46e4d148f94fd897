"""What Connect 4's LEDs show, in words: the :class:`gamelib.status.Status` values the game says.

The choosers and the match say one at every change of what the LEDs mean
(:meth:`gamelib.backends.base.Backend.say`); a mirror (a web page) shows the text and
reads the details, the terminal prints the caption under the board while choosing.
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
- training (``review --train``, the launcher's Connect 4 training): ``round`` (the round's
  ID), ``position`` (from 1) and ``positions``, ``turn`` (the seat to find a move, as in
  ``seats``), ``goal`` (``win`` or ``draw``: what a right move keeps), ``keeping`` (the right
  columns, 1-based), and after a try ``tried`` (the column, 1-based) and ``right`` (true or
  false); at the end ``right`` (how many) and ``tried``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence, Tuple

from gamelib.colours import RGB, colour_name
from gamelib.status import Status

from .engine import levels
from .rules import Size

GAME = "Connect 4"
BROWSE = "left/right: browse"
"""Said beside the first chooser's label."""

CHOOSING_OPPONENT = "choosing opponent"
CHOOSING_SIZE = "choosing size"
RULES = "rules"
PLAYING = "playing"
THINKING = "thinking"
CONFIRMING = "confirming"
RESULT = "result"
RESUME = "resume"
TRAINING = "training"
PHASES = (RESUME, CHOOSING_OPPONENT, CHOOSING_SIZE, RULES, PLAYING, THINKING, CONFIRMING, RESULT, TRAINING)


def opponent_label(opponent: str) -> str:
    """``2 players`` for ``human``, ``computer: 3 steady`` for a level (its number on the ladder, as
    the LEDs show it, and its name), ``over the LAN`` for another Pi, ``rules`` for the rules."""
    if opponent == "human":
        return "2 players"
    if opponent == "lan":
        return "over the LAN"
    return RULES if opponent == RULES else f"computer: {levels.number(opponent)} {opponent}"


def choosing_opponent(choice: str, offered: Sequence[str]) -> Status:
    """The opponent chooser showing ``choice`` (``human``, a level, or ``rules``) among ``offered``;
    for a level the text says how it plays (:data:`~.engine.levels.WORDS`), and so does the
    detail ``about``."""
    label = opponent_label(choice)
    about = levels.WORDS.get(choice)
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
    return Status(CHOOSING_SIZE, f"choosing the board size: {size}", f"board size: {size}",
                  {"game": GAME, "choice": str(size), "choices": [str(s) for s in offered]})


@dataclass(frozen=True)
class Seat:
    """Who plays a seat, as the words name them."""

    seat: int
    colour: RGB
    name: Optional[str] = None
    level: Optional[str] = None
    """The computer's level when the computer plays the seat."""
    kind: str = "stick"

    @property
    def label(self) -> str:
        """``Ann (red)``, ``computer (easy, yellow)`` or ``player 1 (red)``."""
        colour = colour_name(self.colour)
        if self.level is not None:
            return f"computer ({self.level}, {colour})"
        return f"{self.name or f'player {self.seat}'} ({colour})"

    def as_json(self) -> Dict[str, Any]:
        return {"seat": self.seat, "colour": "#%02x%02x%02x" % tuple(self.colour), "name": self.name,
                "level": self.level, "kind": self.kind}


def match(phase: str, seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int],
          turn: Optional[int] = None, winner: Optional[int] = None, result: Optional[str] = None,
          summary: str = "") -> Status:
    """The match in ``phase``: ``playing``/``thinking`` (``turn`` to move), ``confirming``, or
    ``result`` (``result``: ``round``, ``draw``, ``match`` or ``abandoned``; ``summary`` is the
    match's one line for the last two)."""
    where = f"round {number} ({score[0]}-{score[1]}, {size})"
    if phase == PLAYING and turn is not None:
        text = f"{where}: {seats[turn - 1].label} to move"
    elif phase == THINKING and turn is not None:
        text = f"{where}: {seats[turn - 1].label} is thinking"
    elif phase == CONFIRMING:
        text = f"{where}: abandon the match? up again to confirm"
    elif result == "round" and winner is not None:
        text = f"{where}: {seats[winner - 1].label} wins the round"
    elif result == "draw":
        text = f"{where}: a draw"
    else:
        text = summary
    return Status(phase, text, None, {
        "game": GAME, "board": str(size), "round": number, "score": list(score), "turn": turn,
        "seats": [seat.as_json() for seat in seats], "winner": winner, "result": result})


def resume(seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int], turn: int) -> Status:
    """The question before anything else when a match was interrupted: its board and score, in turn."""
    where = f"round {number} ({score[0]}-{score[1]}, {size})"
    return Status(RESUME, f"resume? an interrupted match, {where}: {seats[turn - 1].label} to move "
                  "(middle or down: resume, up: start afresh)", "resume? middle: yes, up: start afresh", {
                      "game": GAME, "board": str(size), "round": number, "score": list(score), "turn": turn,
                      "seats": [seat.as_json() for seat in seats], "choices": ["resume", "start afresh"]})


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
