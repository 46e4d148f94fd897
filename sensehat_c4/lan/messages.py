"""Connect 4's ``game`` messages (docs/API.md), which the host sends beside its recorder's calls,
checked field by field on the guest's side (:func:`check_game`): pure, no I/O."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple, Union

from gamelib.colours import from_hex
from gamelib.lan import protocol as p

from ..rules import FIRST_CHOICES, MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Size, Starts

EVENTS = ("match", "round", "played", "end_match")
"""The ``event`` of a ``game`` message (docs/API.md): a match starts (with the rounds so far), a round
starts, a move was played (the round's moves so far), the match ended."""
MAX_ROUNDS = 99
"""A match's rounds (and a round's number) go up to this."""
MAX_WINS = 99
"""A match is taken by 1 to this many round wins."""


@dataclass(frozen=True)
class Played:
    """``played``: round ``number`` (started by seat ``starter``) has ``moves`` so far."""

    match: int
    number: int
    starter: int
    moves: str
    match_winner: Optional[int] = None
    """The seat the host says this move won the match for (the guest works it out itself)."""


@dataclass(frozen=True)
class MatchStarts:
    """``match``: match ``match`` starts (or goes on, for a guest that comes back): its size, its two
    sides (colour, name), its rules, and the rounds so far."""

    match: int
    size: Size
    sides: Tuple[Tuple[Tuple[int, int, int], Optional[str]], Tuple[Tuple[int, int, int], Optional[str]]]
    starts: Starts
    wins: int
    rounds: Tuple[Played, ...]


@dataclass(frozen=True)
class RoundStarts:
    match: int


@dataclass(frozen=True)
class MatchEnds:
    match: int
    winner: Optional[int]
    """The seat the host says won (``None``: abandoned); the guest works it out itself."""


GameEvent = Union[MatchStarts, RoundStarts, Played, MatchEnds]


def check_game(data: Any) -> GameEvent:
    """A ``game`` message's ``data`` as its event, if it has every field docs/API.md gives it, of its type
    and range (the protocol's own checks, :mod:`gamelib.lan.protocol`); else
    :class:`~gamelib.lan.protocol.ProtocolError`.  Whether it follows from the moves is
    :class:`GuestRecords`' to say."""

    if not isinstance(data, dict):
        raise p.ProtocolError("bad_message", "game's data must be an object")
    event = p.one_of(data, "event", EVENTS)
    match = p.whole(data, "match", 1, 2 ** 31)
    if event == "round":
        return RoundStarts(match)
    if event == "end_match":
        return MatchEnds(match, p.one_of(data, "winner", (None, 1, 2)))
    if event == "played":
        return _played(data, match)
    size = Size(p.whole(data, "columns", MIN_COLUMNS, MAX_COLUMNS), p.whole(data, "rows", MIN_ROWS, MAX_ROWS))
    sides = p.need(data, "sides", list)
    rounds = p.need(data, "rounds", list)
    if len(sides) != 2 or not all(isinstance(side, dict) for side in sides):
        raise p.ProtocolError("bad_message", "a match has two sides")
    if len(rounds) > MAX_ROUNDS or not all(isinstance(played, dict) for played in rounds):
        raise p.ProtocolError("bad_message", f"a match has at most {MAX_ROUNDS} rounds")
    checked = []
    for side in sides:
        colour = from_hex(p.need(side, "colour", str))
        if colour is None:
            raise p.ProtocolError("bad_message", "a side's colour is #rrggbb")
        checked.append((colour, p.player_name(side, "name", null=True)))
    return MatchStarts(match, size, (checked[0], checked[1]), Starts(p.one_of(data, "starts", FIRST_CHOICES)),
                       p.whole(data, "wins", 1, MAX_WINS), tuple(_played(played, match) for played in rounds))


def _played(data: Dict[str, Any], match: int) -> Played:

    moves = p.need(data, "moves", str)
    if len(moves) > MAX_COLUMNS * MAX_ROWS or not moves.isascii() or not moves.isdigit():
        raise p.ProtocolError("bad_message", "a round's moves are column digits")
    return Played(match, p.whole(data, "number", 1, MAX_ROUNDS), p.one_of(data, "starter", (1, 2)), moves,
                  p.one_of(data, "match_winner", (None, 1, 2)) if "match_winner" in data else None)
