"""What the LEDs show, in words: the value a game says beside its frames.

A game calls :meth:`gamelib.backends.screen.Screen.say` with a :class:`Status`
whenever what the LEDs mean changes (a chooser's item, whose turn it is, a
result); the backend passes it to its observers with the frames, so a mirror (a
web page) shows the picture and the words together, and the terminal backend
prints :attr:`Status.caption` under the board.  Pure data, no I/O.

Words may come from outside (a name, another Pi's caption or refusal, an mDNS
advertisement): a terminal shows them only through :func:`printable`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Mapping, Optional, Tuple

from .i18n import N_, _
from .jsonvalue import JSONObject


class Key(str):
    """A key's name in a caption: the English name as a value, the chosen language's when formatted
    (``f"{ENTER}: yes"``, ``"{enter}".format(enter=ENTER)``), so a caption made at any moment names
    the key in the words of that moment."""

    def __format__(self, spec: str) -> str:
        return format(_(str.__str__(self)), spec)


# The keys, as a caption names them: the terminal's (and the emulator window's) keys for the stick,
# never the Sense HAT's words ("stick", "middle"); the terminal spells the arrows out where it has
# no UTF-8 (:func:`gamelib.backends.terminal_screen.plain_keys`).
LEFT_RIGHT = "←/→"
"""Left and right (``←/→``)."""
UP = "↑"
"""Up (``↑``)."""
DOWN = "↓"
"""Down (``↓``)."""
ENTER = Key(N_("Enter"))
"""The middle of the stick (Enter, or space, in the terminal)."""

SEATS = (1, 2)
"""The seats of a game of two."""
TYPED: FrozenSet[str] = frozenset({"turn", "seats"})
"""The keys of :meth:`Status.as_json` that are :class:`Status`'s typed fields."""

_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?"                                # CSI: colours, moves, clears
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"   # OSC (a title, the clipboard), DCS...
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?")                                       # any other escape
"""An escape sequence, whole (what a terminal would act on), in its 7-bit or 8-bit form."""


def printable(text: str) -> str:
    """``text`` as a terminal may show it on one line: escape sequences (a title, a clear screen, a
    clipboard write) removed whole, the other control and format characters (C0, C1, DEL, bidi
    overrides, zero-width ones) removed, line breaks and other spaces made one space each."""
    return "".join(ch if ch.isprintable() else " " if ch.isspace() else "" for ch in _SEQUENCE.sub("", text))


@dataclass(frozen=True)
class Status:
    """The state in words: a phase, a one-line text, and details for a program to read.

    ``phase`` names what the game is doing (Connect 4: ``choosing opponent``,
    ``choosing size``, ``rules``, ``playing``, ``thinking``, ``confirming``,
    ``result``; the launcher: ``menu``).  ``text`` says it all in one line.
    ``caption`` is the one line a display with a line to spare (the terminal's status
    line) shows under the LEDs: what they mean where they alone do not say (a chooser's
    label, whose turn it is and in which colour) and which keys do what, named by
    :data:`LEFT_RIGHT`, :data:`UP`, :data:`DOWN` and :data:`ENTER`; that display shows
    what it showed before when a status without a caption follows.  ``turn`` and ``seats``
    are what a program acts on (the web server refuses a phone's press out of its seat's
    turn by ``turn``), typed; ``details`` holds the rest, JSON-ready values (str, int, float,
    bool, None, lists and dicts of them), never ``turn`` or ``seats`` beside the typed ones;
    do not change it.
    """

    phase: str
    text: str
    caption: Optional[str] = None
    details: Mapping[str, Any] = field(default_factory=dict)
    turn: Optional[int] = None
    """The seat to move (1 or 2), whose presses the game takes now; ``None``: nobody's turn."""
    seats: Optional[Tuple[Mapping[str, Any], ...]] = None
    """The two seats as the game describes them (JSON-ready), when the words are about a match."""

    def __post_init__(self) -> None:
        if self.turn is not None and (type(self.turn) is not int or self.turn not in SEATS):
            raise ValueError(f"turn is seat 1 or 2, not {self.turn!r}")  # a program's error, not a player's
        if (self.turn is not None or self.seats is not None) and not TYPED.isdisjoint(self.details):
            raise ValueError("turn and seats are typed fields, not details")

    def as_json(self) -> JSONObject:
        """A JSON-ready dict: ``phase``, ``text``, ``caption``, ``turn`` and ``seats`` (when the words are
        about a turn or a match) and the details' keys."""
        typed: Dict[str, Any] = {}
        if self.turn is not None or self.seats is not None:
            typed["turn"] = self.turn
        if self.seats is not None:
            typed["seats"] = [dict(seat) for seat in self.seats]
        return {"phase": self.phase, "text": self.text, "caption": self.caption, **typed, **self.details}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Status":
        """The status :meth:`as_json` gave (from another Pi: checked by the caller for its sizes): a
        ``turn`` that is seat 1 or 2 and ``seats`` that are a list of two objects become the typed
        fields; anything else stays a detail."""
        details = {k: v for k, v in data.items() if k not in ("phase", "text", "caption")}
        turn, seats = details.get("turn"), details.get("seats")
        typed_seats: Optional[Tuple[Mapping[str, Any], ...]] = None
        if isinstance(seats, list) and len(seats) == len(SEATS) and all(isinstance(s, dict) for s in seats):
            typed_seats = tuple(seats)
        typed_turn = turn if type(turn) is int and turn in SEATS else None
        if typed_seats is not None or typed_turn is not None or ("turn" in details and turn is None):
            details = {k: v for k, v in details.items() if k not in TYPED}
        caption = data.get("caption")
        return cls(str(data["phase"]), str(data["text"]), None if caption is None else str(caption), details,
                   typed_turn, typed_seats)

    def __str__(self) -> str:
        return self.text
