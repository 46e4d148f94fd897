"""Connect 4 between two Pis on the LAN: ``--lan``, ``--join``, the chooser's entry and the launcher's.

The host (:func:`host`) offers the game (:func:`gamelib.lan.offering`), waits for a guest
and asks its player (:func:`gamelib.lan.flows.wait_for_guest`), then plays matches on its
own :mod:`.controller` with the guest in seat 2: a :class:`RemotePlayer`, whose presses
come from the guest's stick over the link, whose seat is ``remote`` in the words and the
records, and who is :attr:`~.players.Player.gone` when the guest quits or stays away too
long (the match is then abandoned).  The host owns the game: the guest only ever sees
the host's frames, so two boards cannot differ.  The matches go on, one after another,
until one is abandoned or either side leaves.

The guest (:func:`join`) finds the game (:func:`gamelib.lan.flows.choose_game`, or the
address given), asks, and shows the host's frames (:func:`gamelib.lan.flows.visit`).
Both Pis record the matches: the host with its own recorder, the guest from the
``game`` messages the host sends beside its recorder's calls (:class:`RecordTee`,
:class:`GuestRecords`), each with the other side as a named ``remote`` player.  The guest
checks each of those messages (:func:`check_game`) and records only what its own boards
confirm: it rebuilds every round from its moves with the rules core and works out the
winners itself.  Both print each match's line; a match left before a move is none.  The guest
keeps its token in :class:`SessionFile` so it comes back after a restart without asking
again; a match a power cut interrupts is not taken up again (the other Pi has given
up by then), it is kept as abandoned.
"""
from __future__ import annotations

import json
import logging
import os
import random
import re
import socket
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from gamelib.backends.base import Backend
from gamelib.colours import BLACK, BLUE, CYAN, GREEN, RED, YELLOW
from gamelib.errors import ConfigError, GamelibError
from gamelib.files import atomic_write, state_home
from gamelib.games import Choices, Game
from gamelib.icons import picture
from gamelib.players import MAX_LENGTH, check_name
from gamelib.web.address import Address

from .chooser import browse
from .controller import MatchOptions, MatchResult, play as play_match, round_starter
from .errors import C4Error
from .players import Person, Seats
from .records import Recorder
from .rules import FIRST_CHOICES, MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Board, Size
from .stored import Side, hex_colour
from .words import GAME as NAME, as_guest

log = logging.getLogger("sensehat_c4")

GAME_KEY = "connect4"
"""The game's key in the protocol and the mDNS TXT record."""
OFFER, JOIN = "offer", "join"


class LanError(C4Error, OSError):
    """A game over the LAN that cannot go on: the host cannot be reached, refused, speaks another version."""


def default_name() -> str:
    """This Pi's player's name when none is given: the machine's name as the LEDs can show it."""
    host = re.sub(r"[^A-Za-z0-9 -]", "", socket.gethostname().split(".")[0])[:MAX_LENGTH].strip(" -")
    try:
        return check_name(host)
    except ConfigError:
        return "PI"


class RemotePlayer(Person):
    """The guest at the other Pi, in its seat: presses from its source; gone when its session is."""

    def __init__(self, session: Any) -> None:
        super().__init__(session.source, kind="remote")
        self.session = session

    @property
    def gone(self) -> bool:
        return bool(self.session.gone)


# -- records on both sides -------------------------------------------------------------------------

class RecordTee:
    """The host's :class:`~.records.Recorder` (or none), with each call also sent to the guest as a
    ``game`` message, so the guest's Pi records the same match; :meth:`catch_up` is the match so far,
    for a guest that comes back (its Pi may have restarted)."""

    def __init__(self, recorder: Optional[Recorder], send: Callable[[Dict[str, Any]], None]) -> None:
        self.recorder = recorder
        self.send = send
        self.matches = 0
        self.kept = False
        """Whether the last match ended had a move (a match left before one is not a match: nothing is kept)."""
        self._match: Optional[Dict[str, Any]] = None
        """The match being played, with its rounds so far (replaced, never changed: read from another thread)."""

    def catch_up(self) -> List[Dict[str, Any]]:
        """The ``game`` messages a guest needs to record the match being played from its start."""
        match = self._match
        return [] if match is None else [match]

    def start_match(self, sides: Tuple[Side, Side], *, columns: int, rows: int, backend: str,
                    starts: str = "alternate", wins: int = 2) -> None:
        if self.recorder is not None:
            self.recorder.start_match(sides, columns=columns, rows=rows, backend=backend, starts=starts, wins=wins)
        self.matches += 1
        self._match = {"event": "match", "match": self.matches, "columns": columns, "rows": rows, "starts": starts,
                       "wins": wins, "rounds": [],
                       "sides": [{"colour": hex_colour(side.colour), "name": side.name} for side in sides]}
        self.send(self._match)

    def start_round(self) -> None:
        if self.recorder is not None:
            self.recorder.start_round()
        self.send({"event": "round", "match": self.matches})

    def played(self, number: int, starter: int, board: Board, *, match_winner: Optional[int] = None) -> None:
        if self.recorder is not None:
            self.recorder.played(number, starter, board, match_winner=match_winner)
        move = {"number": number, "starter": starter, "moves": board.notation()}
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


# -- the game messages, checked ----------------------------------------------------------------------

EVENTS = ("match", "round", "played", "end_match")
"""The ``event`` of a ``game`` message (docs/API.md): a match starts (with the rounds so far), a round
starts, a move was played (the round's moves so far), the match ended."""
MAX_ROUNDS = 99
"""A match's rounds (and a round's number) go up to this."""
MAX_WINS = 99
"""A match is taken by 1 to this many round wins."""
MAX_MATCHES = 100
"""A host's session writes at most this many matches into the guest's records (the rest are not kept)."""
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


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
    starts: str
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
    from gamelib.lan import protocol as p  # noqa: PLC0415

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
        colour = p.need(side, "colour", str)
        if not _COLOUR.fullmatch(colour):
            raise p.ProtocolError("bad_message", "a side's colour is #rrggbb")
        value = int(colour[1:], 16)
        checked.append(((value >> 16 & 255, value >> 8 & 255, value & 255), p.player_name(side, "name", null=True)))
    return MatchStarts(match, size, (checked[0], checked[1]), p.one_of(data, "starts", FIRST_CHOICES),
                       p.whole(data, "wins", 1, MAX_WINS), tuple(_played(played, match) for played in rounds))


def _played(data: Dict[str, Any], match: int) -> Played:
    from gamelib.lan import protocol as p  # noqa: PLC0415

    moves = p.need(data, "moves", str)
    if len(moves) > MAX_COLUMNS * MAX_ROWS or not moves.isascii() or not moves.isdigit():
        raise p.ProtocolError("bad_message", "a round's moves are column digits")
    return Played(match, p.whole(data, "number", 1, MAX_ROUNDS), p.one_of(data, "starter", (1, 2)), moves,
                  p.one_of(data, "match_winner", (None, 1, 2)) if "match_winner" in data else None)


class Nonsense(ValueError):
    """A game message that does not follow from what the guest saw (its own boards): not recorded."""


@dataclass
class _Match:
    """The match the guest records: its rules and each round's starter and board, rebuilt from the moves."""

    number: int
    size: Size
    sides: Tuple[Side, Side]
    starts: str
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
    outcome = board.outcome
    if outcome is None or outcome.winner is None:
        return None
    return starter if outcome.winner == 1 else 3 - starter


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

    @property
    def size(self) -> Optional[Size]:
        return None if self.current is None else self.current.size

    @property
    def recorded(self) -> Dict[int, str]:
        """Each round's moves as recorded so far."""
        return {} if self.current is None else {n: b.notation() for n, (_, b) in self.current.rounds.items()}

    def take(self, data: Any) -> None:
        from gamelib.lan.protocol import ProtocolError  # noqa: PLC0415

        try:
            self._take(data if isinstance(data, (MatchStarts, RoundStarts, Played, MatchEnds)) else check_game(data))
        except (ProtocolError, Nonsense, GamelibError) as exc:
            log.warning("the host sent a game message that makes no sense (%s): not recorded", exc)

    def _take(self, event: GameEvent) -> None:
        match = self.current
        if isinstance(event, MatchStarts):
            if match is None or event.match != match.number:
                self._start(event)
            elif (event.size, [(s.colour, s.name) for s in match.sides]) != (match.size, list(event.sides)):
                raise Nonsense(f"match {event.match} came again with other sides or another size")
            for played in event.rounds:   # the match so far (again, after a drop): what is not recorded yet
                self._played(played)
            return
        if match is None or event.match != match.number:
            raise Nonsense(f"an event of match {event.match}, which has not started")
        if isinstance(event, RoundStarts):
            if match.winner is not None or any(not board.is_over for _, board in match.rounds.values()):
                raise Nonsense("a round started before the last one ended, or after the match was won")
            if self.recorder is not None:
                self.recorder.start_round()
        elif isinstance(event, Played):
            self._played(event, said=True)
        else:
            if event.winner != match.winner:
                log.warning("the host says the match was %s, its moves say %s: recorded as the moves say",
                            "abandoned" if event.winner is None else f"won by player {event.winner}",
                            "abandoned" if match.winner is None else f"won by player {match.winner}")
            self._end()

    def _start(self, event: MatchStarts) -> None:
        if self.last is not None and event.match <= self.last:
            raise Nonsense(f"match {event.match} after match {self.last}")
        if self.started >= MAX_MATCHES:
            raise Nonsense(f"more than {MAX_MATCHES} matches in one session")
        self.close()
        own = self.seat() or 2
        sides = tuple(Side(colour, name, remote=number != own) for number, (colour, name) in enumerate(event.sides, 1))
        match = _Match(event.match, event.size, (sides[0], sides[1]), event.starts, event.wins)
        self.current, self.last = match, event.match
        self.started += 1
        if self.recorder is None:
            return
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
                raise Nonsense(f"round {number} was started by player {starter}, not {event.starter}")
            if before.notation().startswith(moves):
                return   # nothing new (the match so far again)
            if not moves.startswith(before.notation()):
                raise Nonsense(f"round {number} went back on its moves")
        elif number != last + 1:
            raise Nonsense(f"round {number} after round {last}")
        else:
            if match.winner is not None:
                raise Nonsense(f"round {number} after the match was won")
            if last and not match.rounds[last][1].is_over:
                raise Nonsense(f"round {number} before round {last} ended")
            if match.starts in ("alternate", "p1", "p2") and \
                    event.starter != round_starter(match.starts, number, random.Random(0)):
                raise Nonsense(f"round {number} cannot be started by player {event.starter} ({match.starts})")
        try:
            board = match.size.from_moves(moves)
        except GamelibError as exc:
            raise Nonsense(f"round {number}: {exc}") from None
        match.rounds[number] = (event.starter, board)
        won = match.score
        decided = next((seat for seat in (1, 2) if won[seat - 1] >= match.wins), None)
        if said and decided != event.match_winner:
            log.warning("the host says round %d's move %d %s; the moves say %s: recorded as the moves say", number,
                        board.ply, "won nothing" if event.match_winner is None else
                        f"won the match for player {event.match_winner}",
                        "it won nothing" if decided is None else f"it won the match for player {decided}")
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
            self.report(MatchResult(match.winner, score, match.winner is None, len(match.rounds), match.names),
                        match.names)

    def close(self) -> None:
        """The link ended (or another match started): a match still open is kept as the boards say (won,
        or abandoned)."""
        self._end()


# -- the guest's token, across restarts ------------------------------------------------------------

@dataclass(frozen=True)
class Saved:
    host: str
    port: int
    token: str
    host_name: str


class SessionFile:
    """The guest's session (the host, its token) kept in ``$XDG_STATE_HOME/sensehat-c4/lan-guest.json``,
    good for ``seconds`` after it was written: a guest restarted within that comes back without asking."""

    def __init__(self, path: Optional[Path] = None, *, seconds: float = 95.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path or state_home() / "sensehat-c4" / "lan-guest.json"
        self.seconds = seconds
        self.clock = clock

    def load(self) -> Optional[Saved]:
        try:
            with open(self.path, "rb") as file:
                data = json.loads(file.read(4096).decode("utf-8"))
            saved = Saved(str(data["host"]), int(data["port"]), str(data["token"]), str(data["host_name"]))
            if not 0 <= self.clock() - float(data["at"]) <= self.seconds or not 0 < saved.port < 65536 or \
                    check_name(saved.host_name) != saved.host_name:
                return None
            return saved
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None

    def save(self, host: str, port: int, token: Optional[str], host_name: str) -> None:
        try:
            if token is None:
                try:
                    os.unlink(self.path)
                except FileNotFoundError:
                    pass
                return
            atomic_write(self.path, json.dumps({"host": host, "port": port, "token": token, "host_name": host_name,
                                                "at": self.clock()}), mode=0o600)
        except OSError as exc:
            log.warning("the LAN session was not kept in %s (%s): a restarted guest asks again", self.path,
                        exc.strerror or exc)


# -- the host ------------------------------------------------------------------------------------

Report = Callable[[int, MatchResult, Tuple[Optional[str], Optional[str]]], None]
"""Told of each match the host played: its number (from 1), the result and the seats' names."""


def host(backend: Backend, options: MatchOptions, *, name: str, recorder: Optional[Recorder] = None,
         report: Optional[Report] = None, address: Optional[Address] = None, matches: int = 0,
         notice: Callable[[str], None] = lambda message: None, limits: Any = None) -> int:
    """Offer Connect 4 on the LAN as ``name`` and play matches with the guests who come, until the
    host's player leaves the lobby (up) or ``matches`` (0: no limit) have been played; how many were (a
    match left before a move is no match: not counted, not reported, as it is not recorded)."""
    from gamelib.lan import offering  # noqa: PLC0415 (needs the web server)
    from gamelib.lan.flows import play_once, wait_for_guest  # noqa: PLC0415
    from gamelib.lan import screens  # noqa: PLC0415

    played = 0
    with offering(backend, name, GAME_KEY, address=address, notice=notice, limits=limits) as lan:
        while matches == 0 or played < matches:
            session = wait_for_guest(backend, lan, NAME)
            if session is None:
                break
            seats = Seats(**{"first" if session.seat == 1 else "second": RemotePlayer(session)})
            names = (session.name, name) if session.seat == 1 else (name, session.name)
            tee = RecordTee(recorder, lan.send_game)
            lan.catch_up = tee.catch_up
            while not session.gone and (matches == 0 or played < matches):
                result = play_match(backend, replace(options, names=names, computer=None),
                                    recorder=cast(Recorder, tee), seats=seats)   # a Recorder's calls, and to the guest
                if tee.kept:   # left before a move: no match (none recorded, none counted, no line)
                    played += 1
                    if report is not None:
                        report(played, result, names)
                if session.gone:
                    if session.ended in ("quit", "away"):
                        why = "left" if session.ended == "quit" else "is gone"
                        play_once(backend, screens.left(session.name), screens.left_words(session.name, why))
                        backend.clear()
                    break
                if result.abandoned:
                    lan.end(session, "abandoned", f"the match was {result.summary(names)}")
                    break
            else:
                if not session.gone:
                    lan.end(session, "finished", f"{name} stopped after {played} match{'es' if played > 1 else ''}")
        lan.offer(False)
    return played


# -- the guest -----------------------------------------------------------------------------------

def join(backend: Backend, *, name: str, target: Optional[Tuple[str, int]] = None,
         recorder: Optional[Recorder] = None, notice: Callable[[str], None] = lambda message: None,
         state: Optional[SessionFile] = None, limits: Any = None,
         interfaces: Optional[Sequence[str]] = None, report: Optional[Report] = None) -> int:
    """Join a game on the LAN as ``name``: the host at ``target``, or one chosen from those found
    (then, after each visit, the list again until up); the matches recorded, each told to ``report``
    as the host's are (numbered from 1, its result as this Pi's boards say).  With ``target``, a host
    that cannot be reached or refuses is a :class:`LanError` (one line)."""
    from gamelib.lan.discovery import Browser  # noqa: PLC0415
    from gamelib.lan.flows import choose_game  # noqa: PLC0415
    from gamelib.web import lan_game  # noqa: PLC0415
    from gamelib.web.limits import Limits  # noqa: PLC0415

    limits = limits or Limits()
    state = state or SessionFile(seconds=limits.away_seconds + 5.0)
    played = 0
    browser: Optional[Browser] = None
    reported = 0

    def numbered(result: MatchResult, names: Tuple[Optional[str], Optional[str]]) -> None:
        nonlocal reported
        reported += 1
        assert report is not None
        report(reported, result, names)

    with lan_game(backend):   # no phone seat at this Pi meanwhile: the pairing gesture is not listened for
        try:
            while True:
                saved = state.load()
                if target is not None:
                    where = target
                    token = saved.token if saved is not None and (saved.host, saved.port) == target else None
                    label = saved.host_name if token is not None and saved is not None else target[0]
                elif saved is not None:
                    where, token, label = (saved.host, saved.port), saved.token, saved.host_name
                else:
                    if browser is None:
                        browser = Browser(GAME_KEY, backend.wake, interfaces=interfaces)
                        try:
                            browser.start()
                        except OSError as exc:
                            raise LanError(f"cannot look for games on this network ({exc.strerror or exc}): "
                                           "give the host's address, --join HOST[:PORT]") from None
                    found = choose_game(backend, browser)
                    if found is None:
                        return played
                    where, token, label = (found.host, found.port), None, found.name

                outcome, matches = _visit(backend, where, token, label, name=name, recorder=recorder, state=state,
                                          limits=limits, report=None if report is None else numbered)
                played += matches
                if outcome.reason == "bad_token" and token is not None:
                    continue   # the host no longer knows this Pi's session (it restarted): ask again
                if outcome.outcome == "failed" and token is not None:
                    state.save(where[0], where[1], None, label)   # not to be tried again before asking
                if target is not None and (outcome.outcome == "failed" or
                                           (outcome.outcome == "refused" and not outcome.played)):
                    raise LanError(outcome.message)
                if outcome.message:
                    notice(outcome.message)
                if target is not None:
                    return played
        finally:
            if browser is not None:
                browser.close()


def _visit(backend: Backend, where: Tuple[str, int], token: Optional[str], label: str, *, name: str,
           recorder: Optional[Recorder], state: SessionFile, limits: Any,
           report: Optional[GuestReport] = None) -> Tuple[Any, int]:
    """One visit to the host at ``where``: how it ended, and how many matches were recorded."""
    from gamelib.lan.flows import visit  # noqa: PLC0415
    from gamelib.lan.guest import GuestLink  # noqa: PLC0415

    link = GuestLink(where[0], where[1], name=name, game=GAME_KEY, token=token, limits=limits, notify=backend.wake,
                     saved=lambda kept: state.save(where[0], where[1], kept, link.host_name or label),
                     check_game=check_game)
    records = GuestRecords(recorder, backend.name, lambda: link.seat, report)
    with link:
        outcome = visit(backend, link, label, records.take, words=lambda status: as_guest(status, link.seat))
    records.close()
    return outcome, records.matches


# -- choosing, in the chooser and the launcher ----------------------------------------------------

_ROLE_ICONS = {
    OFFER: ("........", "..CCCC..", ".C....C.", "C..CC..C", "..C..C..", "........", "...WW...", "...WW..."),
    JOIN: ("........", "..GGGG..", ".G....G.", "G..GG..G", "..G..G..", "........", "...WW...", "...WW..."),
}


def role_frame(role: str, index: int) -> List[Any]:
    """The choice between offering a game (cyan waves) and joining one (green), with its place dot."""
    frame = list(picture(_ROLE_ICONS[role], {"C": CYAN, "G": GREEN, "W": (255, 255, 255)}))
    frame[1 + index] = CYAN if role == OFFER else GREEN
    return frame


def choose_role(backend: Backend) -> Optional[str]:
    """Offer a game on the LAN, or join one? Left/right, middle chooses, up goes back (``None``)."""
    from gamelib.lan import screens  # noqa: PLC0415

    roles = (OFFER, JOIN)
    said = [screens._status("role", "play over the LAN: offer a game here (left/right: browse)",
                            "offer a game on the LAN (left/right: browse)", choice="offer", choices=list(roles)),
            screens._status("role", "play over the LAN: join a game on another Pi (left/right: browse)",
                            "join a game on the LAN (left/right: browse)", choice="join", choices=list(roles))]
    chosen = browse(backend, [role_frame(role, i) for i, role in enumerate(roles)], 0, said)
    return None if chosen is None else roles[chosen]


ICON = picture((
    "........",
    "..CCCC..",
    ".C....C.",
    "C..CC..C",
    "..C..C..",
    "BBBBBBBB",
    "BBRBBBYB",
    "BYRRBYRB",
), {"B": BLUE, "R": RED, "Y": YELLOW, "C": CYAN, ".": BLACK})
"""The launcher's entry: the waves over a small board."""


def play_lan(backend: Backend, choices: Optional[Choices] = None, *, size: Optional[Size] = None,
             recorder: Optional[Recorder] = None) -> int:
    """The chooser's and the launcher's entry: offer or join (asked on the LEDs), as this Pi's first
    name (the launcher's ``gamelib names``), else :func:`default_name`; the matches played."""
    import contextlib  # noqa: PLC0415

    from .chooser import choose_size  # noqa: PLC0415
    from .computer import sizes_for  # noqa: PLC0415
    from .game import print_result  # noqa: PLC0415

    names = tuple(choices.names) if choices is not None else ()
    name = names[0] if names else default_name()
    with contextlib.ExitStack() as stack:
        if recorder is None:
            recorder = stack.enter_context(contextlib.closing(Recorder()))
        while True:
            role = choose_role(backend)
            if role is None:
                return 0
            if role == JOIN:
                return join(backend, name=name, recorder=recorder, notice=lambda line: log.info("%s", line),
                            report=lambda number, result, names: print_result(number, None, result, names))
            board = size or choose_size(backend, sizes_for("human"), Size())
            if board is None:
                continue
            return host(backend, MatchOptions(size=board), name=name, recorder=recorder,
                        report=lambda number, result, names: print_result(number, None, result, names),
                        notice=lambda line: log.info("%s", line))


GAME = Game(name=f"{NAME} over the LAN", icon=ICON, play=play_lan, remembers=True)
"""The launcher's entry (``connect4-lan`` in the ``gamelib.games`` entry points)."""
