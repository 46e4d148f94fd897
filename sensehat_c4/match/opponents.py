"""Who the players play against, as a typed value: each other, a level of the ladder, *match me*
(a level that steps with each round, :mod:`~..engine.matchme`), or another Pi.

An :class:`Opponent` is made once at the edge, from ``--opponent``'s word (:meth:`Opponent.parse`)
or by the chooser on the LEDs, and handed on as it is; nothing past the edge compares words.
Its :attr:`~Opponent.name` is the word again (``human``, a level's name, ``match-me``, ``lan``): what the
command line takes, and what a match's record keeps as the computer's level (:data:`WORDS` says each
computer's in words: a name is a value, never shown as it is).  Pure: the levels are the ladder's facts
(:data:`~..engine.rungs.RUNGS`).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from ..engine.matchme import NAME as MATCH_ME_NAME
from ..engine.matchme import WORD as MATCH_ME_WORD
from ..engine.rungs import BY_NAME as LEVELS
from ..engine.rungs import NAMES as LEVEL_NAMES
from ..errors import ConfigError
from ..i18n import _
from ..rules import SIZES, Size

__all__ = ["HUMAN", "LAN", "MATCH_ME", "NAMES", "OPPONENTS", "WORDS", "Opponent", "OpponentKind", "ladder_for",
           "opponents_for", "word"]


class OpponentKind(enum.Enum):
    """What kind of opponent: the other person at the same stick, the computer (at one level, or
    *match me*: its level steps with each round), another Pi."""

    HUMAN = "human"
    COMPUTER = "computer"
    MATCH_ME = MATCH_ME_NAME
    LAN = "lan"


@dataclass(frozen=True)
class Opponent:
    """Whom the players play: ``kind``, and the computer's ``level`` (a rung's name; only for it)."""

    kind: OpponentKind
    level: Optional[str] = None

    def __post_init__(self) -> None:
        if self.kind is OpponentKind.COMPUTER:
            if self.level not in LEVELS:
                raise ConfigError(_("level must be one of {levels} (not {level!r})").format(
                    levels=", ".join(LEVELS), level=self.level))
        elif self.level is not None:
            raise ConfigError(_("only the computer has a level (not {kind})").format(kind=self.kind.value))

    @classmethod
    def computer(cls, level: str) -> Opponent:
        """The computer at ``level`` (:class:`ConfigError` for a name the ladder does not have)."""
        return cls(OpponentKind.COMPUTER, level)

    @classmethod
    def parse(cls, text: str) -> Opponent:
        """The opponent a word names: ``human``, ``match-me``, ``lan`` or a level's name (else
        :class:`ConfigError`)."""
        for kind in (OpponentKind.HUMAN, OpponentKind.MATCH_ME, OpponentKind.LAN):
            if text == kind.value:
                return cls(kind)
        if text not in LEVELS:
            raise ConfigError(_("the opponent is human, {match_me}, lan or a level: {levels} (not {text!r})").format(
                match_me=MATCH_ME_NAME, levels=", ".join(LEVELS), text=text))
        return cls.computer(text)

    @property
    def name(self) -> str:
        """The word for it: ``human``, the level's name, ``match-me``, ``lan``."""
        return self.level if self.level is not None else self.kind.value

    def sizes(self) -> Tuple[Size, ...]:
        """The board sizes it plays on (a level's: the levels table says; *match me*'s: wherever
        two levels are offered)."""
        if self.kind is OpponentKind.MATCH_ME:
            return tuple(size for size in SIZES if len(ladder_for(size)) >= 2)
        return SIZES if self.level is None else LEVELS[self.level].offered_sizes()


HUMAN = Opponent(OpponentKind.HUMAN)
"""Two people, at the same stick (``2P``)."""
MATCH_ME = Opponent(OpponentKind.MATCH_ME)
"""The computer, its level stepping up or down the ladder after each round (:class:`~..engine.matchme.MatchMe`)."""
LAN = Opponent(OpponentKind.LAN)
"""Another Pi over the LAN (:mod:`..lan`)."""
OPPONENTS: Tuple[Opponent, ...] = (HUMAN, *(Opponent.computer(level) for level in LEVELS), MATCH_ME)
"""Who the players can play against on this Pi: each other, a level of the ladder (weakest first),
or *match me*."""
NAMES: Tuple[str, ...] = tuple(opponent.name for opponent in OPPONENTS)
"""Their words, as ``--opponent`` takes them."""
WORDS: Dict[str, str] = {**LEVEL_NAMES, MATCH_ME_NAME: MATCH_ME_WORD}
"""Each computer's name (a level's, or ``match-me``: what a seat's record keeps as its ``level``) and its
message, the name as people read it (``match me``), translated where it is shown (:func:`word`)."""


def word(name: str) -> str:
    """A computer's name (``easy``, ``match-me``) as people read it, in the words of the moment
    (:data:`WORDS`); a name not there (another version's, from the records) as it is."""
    return _(WORDS[name]) if name in WORDS else name


def ladder_for(size: Size) -> Tuple[str, ...]:
    """The levels offered on a board of ``size``, weakest first (the ladder *match me* climbs there)."""
    return tuple(name for name, rung in LEVELS.items() if size in rung.offered_sizes())


def opponents_for(size: Size) -> Tuple[Opponent, ...]:
    """The opponents (:data:`HUMAN`, the levels, :data:`MATCH_ME`) offered on a board of ``size``."""
    return tuple(o for o in OPPONENTS if size in o.sizes())
