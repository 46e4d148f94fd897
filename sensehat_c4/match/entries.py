"""The opponent chooser's entries as a table, and in words: :data:`CHOICES` (each opponent, its label on
the LEDs, the label's colour by its role in the palette, in the chooser's order) and :func:`entries_in_words` (``--help``'s list).

Light and pure: the command line reads it before any game is loaded; :mod:`.chooser` draws and browses
the entries.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from gamelib.colours import RGB
from gamelib.palette import Palette

from ..i18n import N_, _
from . import words
from .opponents import HUMAN, LAN, MATCH_ME, OPPONENTS, Opponent, OpponentKind

Role = Callable[[Palette], RGB]
"""A label's colour by its role: read off the palette shown when the chooser draws it."""


def _text(palette: Palette) -> RGB:
    return palette.text


def _lan(palette: Palette) -> RGB:
    return palette.lan


def level_colour(number: int) -> Role:
    """Level ``number``'s label colour (from 1): the palette's :attr:`~gamelib.palette.Palette.levels`, weakest
    first, from green to magenta (repeated if there are more levels)."""
    return lambda palette: palette.levels[(number - 1) % len(palette.levels)]


Entry = Optional[Opponent]
"""An entry of the opponent chooser: an opponent, or ``None`` for ``?`` (the rules, no opponent)."""
CHOICES: Sequence[Tuple[Entry, str, Role]] = ((HUMAN, "2P", _text),) + tuple(
    (opponent, str(number), level_colour(number))
    for number, opponent in enumerate(OPPONENTS[1:-1], start=1)) + (
    (MATCH_ME, "M", _text), (LAN, "", _lan), (None, "?", _text))
"""Each opponent with its label on the matrix and the label's colour's role: ``2P``, then the
levels of the levels table numbered from 1, then ``M``, *match me* (its level steps with each round),
in the order of :data:`~.opponents.OPPONENTS`; then the LAN (a picture: waves); last ``?``, the
rules (no opponent)."""
RULES_INDEX = len(CHOICES) - 1
LAN_INDEX = len(CHOICES) - 2
MATCH_ME_INDEX = len(CHOICES) - 3

ENTRY_WORDS = {OpponentKind.HUMAN: N_("{label} (two players)"),
               OpponentKind.COMPUTER: N_("{first}-{last} (the computer's levels, {weakest} to {strongest})"),
               OpponentKind.MATCH_ME: N_("{label} (match me)"), OpponentKind.LAN: N_("the waves (another Pi over the LAN)"),
               None: N_("{label} (the rules)")}
"""How :func:`entries_in_words` names each kind of entry of :data:`CHOICES` (``None``: the rules)."""


def entries_in_words(choices: Sequence[Tuple[Entry, str, Role]] = CHOICES) -> str:
    """The opponent chooser's entries in their order on the LEDs, in words: ``2P (two players), 1-9 (the
    computer's levels, easy to perfect), M (match me), the waves (another Pi over the LAN), ? (the rules)``
    (``--help``'s; made from :data:`CHOICES`, the levels one run of labels)."""
    said: List[str] = []
    levels: List[Tuple[Opponent, str]] = []
    for index, (entry, label, _colour) in enumerate(choices):
        kind = None if entry is None else entry.kind
        if kind is OpponentKind.COMPUTER and entry is not None:
            levels.append((entry, label))
            if index + 1 < len(choices) and (choices[index + 1][0] or HUMAN).kind is OpponentKind.COMPUTER:
                continue
            (weakest, first), (strongest, last) = levels[0], levels[-1]
            said.append(_(ENTRY_WORDS[kind]).format(first=first, last=last, weakest=words.level_name(weakest.name),
                                                     strongest=words.level_name(strongest.name)))
            levels = []
        else:
            said.append(_(ENTRY_WORDS[kind]).format(label=label))
    return _(", ").join(said)
