"""Who plays each seat of a match, as the match sees them: the player of :class:`~.players.Seats`
(a phone, another Pi), else the computer of the options, else the stick; their names, who gets helps,
how the records keep them (:class:`~..records.Side`) and how the words name them (:class:`~.words.Seat`).

A *match me* opponent's level changes here after each round (:meth:`Lineup.ended`, :meth:`Lineup.step`).
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, List, Optional, Tuple

from gamelib.backends.base import STICK
from gamelib.colours import RGB

from ..engine.matchme import NAME as MATCH_ME, MatchMe, Round
from ..records import Side
from . import words
from .computer import Computer
from .players import Kind, Person, Player, Seats


class Lineup:
    """The seats of one match: ``computer`` (``None``: two people) plays its seat unless :attr:`seats`
    puts someone there; ``make`` makes its player (``(computer, seed)``, seeded from ``rng``)."""

    def __init__(self, seats: Seats, colours: Tuple[RGB, RGB], *, computer: Optional[Computer],
                 names: Tuple[Optional[str], Optional[str]], helps: bool, match_me: Optional[MatchMe],
                 make: Callable[[Computer, int], Player], rng: random.Random) -> None:
        self.seats = seats
        self.colours = colours
        """Seat 1's and seat 2's colours."""
        self.computer = computer
        """The computer as it plays now (a match me one's level is the round's)."""
        self._names = names
        self._helps = helps
        self._match_me = match_me
        self._make = make
        self._rng = rng
        self._defaults: List[Optional[Player]] = [None, None]
        self._stepped: Optional[Round] = None
        """The last round's result for the person, which moves a match me opponent."""
        self._seen = seats.version

    def player(self, seat: int) -> Player:
        """Who plays ``seat`` (1 or 2) now: the one :attr:`seats` names, else the computer if it has
        this seat, else the stick."""
        chosen = self.seats[seat]
        if chosen is not None:
            return chosen
        default = self._defaults[seat - 1]
        if default is None:
            if self.computer_seat(seat):
                assert self.computer is not None
                default = self._make(self.computer, self._rng.randrange(2 ** 32))
            else:
                default = Person(STICK)
            self._defaults[seat - 1] = default
        return default

    def changed(self) -> bool:
        """True if someone took or left a seat since the last call (since the lineup was made, at the first)."""
        if self.seats.version == self._seen:
            return False
        self._seen = self.seats.version
        return True

    def helping(self, mover: Optional[Player], seat: int) -> bool:
        """True if ``mover``, ``seat``'s player whose turn runs, gets helps now (the stick's own turn)."""
        return (mover is not None and mover.source == STICK and mover.kind is Kind.STICK
                and self.helps_seat(seat))

    def gone(self) -> bool:
        """True if a seat's player left the match for good (:attr:`~.players.Player.gone`)."""
        return any(player is not None and player.gone for player in (self.seats[1], self.seats[2]))

    def computer_seat(self, seat: int) -> bool:
        """True if the computer plays ``seat`` (and no player of :attr:`seats` replaces it)."""
        return self.computer is not None and self.computer.player == seat and self.seats[seat] is None

    def helps_seat(self, seat: int) -> bool:
        """True if ``seat`` gets helps: the options give them, the computer plays the other seat, and
        the stick plays this one."""
        computer = self.computer
        return (self._helps and computer is not None and computer.player != seat
                and self.computer_seat(computer.player) and self.seats[seat] is None)

    def level(self) -> Optional[str]:
        """The computer's level played now (``None``: no computer plays)."""
        computer = self.computer
        return computer.level if computer is not None and self.computer_seat(computer.player) else None

    def names(self) -> Tuple[Optional[str], Optional[str]]:
        """The seats' names: the options' names, none for the computer's seat."""
        return (None if self.computer_seat(1) else self._names[0], None if self.computer_seat(2) else self._names[1])

    def sides(self) -> Tuple[Side, Side]:
        """Who plays each seat, as the records keep it."""
        computer = self.computer
        sides = []
        for seat in (1, 2):
            colour = self.colours[seat - 1]
            if computer is not None and self.computer_seat(seat) and self._match_me is not None:
                sides.append(Side(colour, level=MATCH_ME, seconds=computer.seconds))
            elif computer is not None and self.computer_seat(seat):
                sides.append(Side(colour, level=computer.level, seconds=computer.budget))
            else:
                sides.append(Side(colour, name=self.names()[seat - 1], remote=self.player(seat).kind is Kind.REMOTE))
        return sides[0], sides[1]

    def in_words(self) -> Tuple[words.Seat, words.Seat]:
        """Who plays each seat, as the words name them."""
        seats = []
        for seat in (1, 2):
            computer = self.computer if self.computer_seat(seat) else None
            seats.append(words.Seat(seat, self.colours[seat - 1], self.names()[seat - 1],
                                    computer.level if computer is not None else None,
                                    Kind.COMPUTER if computer is not None else self.player(seat).kind,
                                    match_me=computer is not None and self._match_me is not None,
                                    helps=self.helps_seat(seat)))
        return seats[0], seats[1]

    def ended(self, winner: Optional[int]) -> None:
        """A round ended, won by seat ``winner`` (``None``: drawn): a match me opponent steps at the next."""
        computer = self.computer
        if computer is not None:
            self._stepped = (Round.DRAWN if winner is None else Round.LOST if winner == computer.player
                             else Round.WON)

    def step(self) -> None:
        """A match me opponent takes the last round's result: the computer plays its next level."""
        computer, ladder, result = self.computer, self._match_me, self._stepped
        self._stepped = None
        if computer is None or ladder is None or result is None:
            return
        level = ladder.after(result)
        if level != computer.level:
            self.computer = replace(computer, level=level)
            if self._defaults[computer.player - 1] is not None:
                self._defaults[computer.player - 1] = None   # the next turn's thinker plays the new level
