"""Both Pis record the matches over the LAN: the host's :class:`RecordTee` (its recorder's calls, each
also sent to the guest as a ``game`` message) and the guest's :class:`GuestRecords` (those messages,
checked, made into its own recorder's calls: only what its own boards confirm)."""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from gamelib.errors import GamelibError
from gamelib.jsonvalue import JSONObject
from gamelib.lan.protocol import ProtocolError

from ..i18n import _, pgettext
from ..match.controller import MatchResult, round_starter
from ..records import NO_FACTS, Recorder, RoundFacts, Side, hex_colour, round_end
from ..rules import Board, Size, Starts
from .messages import GameEvent, MatchEnds, MatchStarts, Played, RoundStarts, check_game

log = logging.getLogger("sensehat_c4")

MAX_MATCHES = 100
"""A host's session writes at most this many matches into the guest's records (the rest are not kept)."""

class RecordTee:
    """The host's :class:`~.records.Recorder` (or none), with each call also sent to the guest as a
    ``game`` message, so the guest's Pi records the same match; :meth:`catch_up` is the match so far,
    for a guest that comes back (its Pi may have restarted)."""

    def __init__(self, recorder: Optional[Recorder], send: Callable[[JSONObject], None]) -> None:
        self.recorder = recorder
        self.send = send
        self.matches = 0
        self.kept = False
        """Whether the last match ended had a move (a match left before one is not a match: nothing is kept)."""
        self._match: Optional[Dict[str, Any]] = None
        """The match being played, with its rounds so far (replaced, never changed: read from another thread)."""

    def catch_up(self) -> List[JSONObject]:
        """The ``game`` messages a guest needs to record the match being played from its start."""
        match = self._match
        return [] if match is None else [match]

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: Starts = Starts.ALTERNATE, wins: int = 2) -> None:
        if self.recorder is not None:
            self.recorder.start_match(sides, columns=columns, rows=rows, backend=backend, starts=starts, wins=wins)
        self.matches += 1
        self._match = {"event": "match", "match": self.matches, "columns": columns, "rows": rows, "starts": starts.value,
                       "wins": wins, "rounds": [],
                       "sides": [{"colour": hex_colour(side.colour), "name": side.name} for side in sides]}
        self.send(self._match)

    def start_round(self) -> None:
        if self.recorder is not None:
            self.recorder.start_round()
        self.send({"event": "round", "match": self.matches})

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None,
               facts: RoundFacts = NO_FACTS) -> None:
        if self.recorder is not None:   # (no computer and no helps over the LAN: the match passes them on all the same)
            self.recorder.played(number, starter, board, match_winner=match_winner, facts=facts)
        move: JSONObject = {"number": number, "starter": starter, "moves": board.notation()}
        if self._match is not None:
            rounds = [r for r in self._match["rounds"] if r["number"] != number]
            self._match = {**self._match, "rounds": [*rounds, move]}
        self.send({"event": "played", "match": self.matches, "match_winner": match_winner, **move})

    def end_match(self, winner: Optional[int]) -> None:
        if self.recorder is not None:
            self.recorder.end_match(winner)
        self.kept = bool(self._match is not None and self._match["rounds"])
        self._match = None
        self.send({"event": "end_match", "match": self.matches, "winner": winner})

    @property
    def number(self) -> Optional[int]:
        """The host's records' number of the match (its recorder's; ``None`` without one)."""
        return None if self.recorder is None else self.recorder.number



def _ended(winner: Optional[int]) -> str:
    """How a match ended, in the words of a warning: ``abandoned`` or ``won by player 2``."""
    return pgettext("a match", "abandoned") if winner is None else _("won by player {seat}").format(seat=winner)


class Nonsense(ValueError):
    """A game message that does not follow from what the guest saw (its own boards): not recorded."""


@dataclass
class _Match:
    """The match the guest records: its rules and each round's starter and board, rebuilt from the moves."""

    number: int
    size: Size
    sides: Tuple[Side, Side]
    starts: Starts
    wins: int
    rounds: Dict[int, Tuple[int, Board]] = field(default_factory=dict)
    winner: Optional[int] = None
    """The seat that took the match, as the boards say (``None`` while nobody has)."""

    @property
    def score(self) -> Tuple[int, int]:
        won = [_round_winner(starter, board) for starter, board in self.rounds.values()]
        return won.count(1), won.count(2)

    @property
    def names(self) -> Tuple[Optional[str], Optional[str]]:
        return self.sides[0].name, self.sides[1].name


def _round_winner(starter: int, board: Board) -> Optional[int]:
    """The seat that won the round on ``board`` (``None``: in play or drawn)."""
    return round_end(board, starter)[1]


GuestReport = Callable[[MatchResult, Tuple[Optional[str], Optional[str]]], None]
"""Told of each match the guest recorded, at its end: the result (from the guest's own boards) and the names."""


class GuestRecords:
    """The guest's side of the records: the host's ``game`` messages (:func:`check_game`) made into its
    recorder's calls, the host's seat a named ``remote`` player.

    The guest records only what its own boards confirm: each round is rebuilt from its moves with
    the rules core (a move that is not legal there, a round that goes back on its moves, a starter the
    match's rule does not give, a round before the last one ended: not recorded), each round's result
    and the match's winner are worked out from those boards (what the host says about them is only
    compared), and one host's session writes at most :data:`MAX_MATCHES` matches.  A match's
    messages may come twice (the match so far again after a drop): a move is recorded once.  What
    makes no sense is logged and dropped; play goes on."""

    def __init__(self, recorder: Optional[Recorder], backend: str, seat: Callable[[], Optional[int]],
                 report: Optional[GuestReport] = None) -> None:
        self.recorder = recorder
        self.backend = backend
        self.seat = seat
        self.report = report
        self.current: Optional[_Match] = None
        self.last: Optional[int] = None
        """The number (the host's) of the last match started."""
        self.started = 0
        self.matches = 0
        """Matches recorded to their end (won, or abandoned at either side), with a move at least."""
        self._kept = False
        """The last match started is kept by :attr:`recorder` (so :attr:`number` is its)."""

    @property
    def number(self) -> Optional[int]:
        """This Pi's records' number of the match being played, or of the last one once it ended (what its
        own ``history`` calls it, not the host's); ``None`` until its row is written, and when it is not kept."""
        return self.recorder.number if self.recorder is not None and self._kept else None

    @property
    def size(self) -> Optional[Size]:
        return None if self.current is None else self.current.size

    @property
    def recorded(self) -> Dict[int, str]:
        """Each round's moves as recorded so far."""
        return {} if self.current is None else {n: b.notation() for n, (_, b) in self.current.rounds.items()}

    def take(self, data: Any) -> None:

        try:
            self._take(data if isinstance(data, (MatchStarts, RoundStarts, Played, MatchEnds)) else check_game(data))
        except (ProtocolError, Nonsense, GamelibError) as exc:
            log.warning(_("the host sent a game message that makes no sense ({why}): not recorded").format(why=exc))

    def _take(self, event: GameEvent) -> None:
        match = self.current
        if isinstance(event, MatchStarts):
            if match is None or event.match != match.number:
                self._start(event)
            elif (event.size, [(s.colour, s.name) for s in match.sides]) != (match.size, list(event.sides)):
                raise Nonsense(_("match {match} came again with other sides or another size").format(
                    match=event.match))
            for played in event.rounds:   # the match so far (again, after a drop): what is not recorded yet
                self._played(played)
            return
        if match is None or event.match != match.number:
            raise Nonsense(_("an event of match {match}, which has not started").format(match=event.match))
        if isinstance(event, RoundStarts):
            if match.winner is not None or any(not board.is_over for _, board in match.rounds.values()):
                raise Nonsense(_("a round started before the last one ended, or after the match was won"))
            if self.recorder is not None:
                self.recorder.start_round()
        elif isinstance(event, Played):
            self._played(event, said=True)
        else:
            if event.winner != match.winner:
                log.warning(_("the host says the match was {said}, its moves say {moves}: recorded as the moves "
                              "say").format(said=_ended(event.winner), moves=_ended(match.winner)))
            self._end()

    def _start(self, event: MatchStarts) -> None:
        if self.last is not None and event.match <= self.last:
            raise Nonsense(_("match {match} after match {last}").format(match=event.match, last=self.last))
        if self.started >= MAX_MATCHES:
            self._kept = False   # this match is not kept: it has no number here
            raise Nonsense(_("more than {matches} matches in one session").format(matches=MAX_MATCHES))
        self.close()
        self._kept = False
        own = self.seat() or 2
        sides = tuple(Side(colour=colour, name=name, remote=number != own)
                      for number, (colour, name) in enumerate(event.sides, 1))
        match = _Match(event.match, event.size, (sides[0], sides[1]), event.starts, event.wins)
        self.current, self.last = match, event.match
        self.started += 1
        if self.recorder is None:
            return
        self._kept = True
        if event.rounds and self._take_up(match, event.rounds):
            return
        self.recorder.start_match(match.sides, columns=match.size.columns, rows=match.size.rows, backend=self.backend,
                                  starts=match.starts, wins=match.wins)

    def _take_up(self, match: _Match, rounds: Sequence[Played]) -> bool:
        """Joined in the middle of a match: if this Pi's program was killed during it (the guest restarted),
        its record is in the file, interrupted: take it up (its moves so far are kept; the rest follows)."""
        assert self.recorder is not None
        record = self.recorder.interrupted()
        if record is None:
            return False
        sent = {r.number: r.moves for r in rounds}
        if (record.columns, record.rows) != (match.size.columns, match.size.rows) or record.sides != match.sides or \
                any(not sent.get(r.number, "").startswith(r.moves) for r in record.rounds):
            return False   # another match (it stays interrupted, for the next game to offer)
        try:
            kept = {r.number: (r.starter, match.size.from_moves(r.moves)) for r in record.rounds}
        except GamelibError:
            return False
        self.recorder.resume(record)
        match.rounds = kept
        won = match.score
        match.winner = next((seat for seat in (1, 2) if won[seat - 1] >= match.wins), None)
        return True

    def _played(self, event: Played, *, said: bool = False) -> None:
        """Record ``event``'s move if it follows from the round's moves so far (``said``: a ``played``
        message, which says whether the move won the match; the match so far does not)."""
        match = self.current
        assert match is not None
        number, moves = event.number, event.moves
        last = max(match.rounds, default=0)
        known = match.rounds.get(number)
        if known is not None:
            starter, before = known
            if starter != event.starter:
                raise Nonsense(_("round {number} was started by player {starter}, not {said}").format(
                    number=number, starter=starter, said=event.starter))
            if before.notation().startswith(moves):
                return   # nothing new (the match so far again)
            if not moves.startswith(before.notation()):
                raise Nonsense(_("round {number} went back on its moves").format(number=number))
        elif number != last + 1:
            raise Nonsense(_("round {number} after round {last}").format(number=number, last=last))
        else:
            if match.winner is not None:
                raise Nonsense(_("round {number} after the match was won").format(number=number))
            if last and not match.rounds[last][1].is_over:
                raise Nonsense(_("round {number} before round {last} ended").format(number=number, last=last))
            if match.starts is not Starts.RANDOM and \
                    event.starter != round_starter(match.starts, number, random.Random(0)):
                raise Nonsense(_("round {number} cannot be started by player {starter} ({starts})").format(
                    number=number, starter=event.starter, starts=match.starts.value))
        try:
            board = match.size.from_moves(moves)
        except GamelibError as exc:
            raise Nonsense(_("round {number}: {why}").format(number=number, why=exc)) from None
        match.rounds[number] = (event.starter, board)
        won = match.score
        decided = next((seat for seat in (1, 2) if won[seat - 1] >= match.wins), None)
        if said and decided != event.match_winner:
            log.warning(_("the host says round {round}'s move {move} {said}; the moves say {moves}: recorded as the "
                          "moves say").format(
                round=number, move=board.ply,
                said=_("won nothing") if event.match_winner is None else
                _("won the match for player {seat}").format(seat=event.match_winner),
                moves=_("it won nothing") if decided is None else
                _("it won the match for player {seat}").format(seat=decided)))
        newly = decided if decided is not None and match.winner is None else None
        match.winner = decided
        if self.recorder is not None:
            self.recorder.played(number, event.starter, board, match_winner=newly)

    def _end(self) -> None:
        match, self.current = self.current, None
        if match is None:
            return
        if self.recorder is not None:
            self.recorder.end_match(match.winner)
        if not any(board.ply for _, board in match.rounds.values()):
            return   # left before a move: no match (nothing is recorded)
        self.matches += 1
        if self.report is not None:
            score = match.score
            self.report(MatchResult(match.winner, score, match.winner is None, len(match.rounds), match.names,
                                    self.number), match.names)

    def close(self) -> None:
        """The link ended (or another match started): a match still open is kept as the boards say (won,
        or abandoned)."""
        self._end()

