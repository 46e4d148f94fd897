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
keeps its token in :class:`SessionFile` so it comes back after a restart without asking
again; a match a power cut interrupts is not taken up again (the other Pi has given
up by then), it is kept as abandoned.
"""
from __future__ import annotations

import json
import logging
import os
import re
import socket
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

from gamelib.backends.base import Backend
from gamelib.colours import BLACK, BLUE, CYAN, GREEN, RED, YELLOW
from gamelib.errors import ConfigError, GamelibError
from gamelib.files import atomic_write, state_home
from gamelib.games import Choices, Game
from gamelib.icons import picture
from gamelib.players import MAX_LENGTH, check_name
from gamelib.web.address import Address

from .chooser import browse
from .controller import MatchOptions, MatchResult, play as play_match
from .errors import C4Error
from .players import Person, Seats
from .records import Recorder
from .rules import FIRST_CHOICES, Board, Size
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
        self._match = None
        self.send({"event": "end_match", "match": self.matches, "winner": winner})


class GuestRecords:
    """The guest's side of the records: the host's ``game`` messages made into its recorder's calls,
    the host's seat a named ``remote`` player.  A match's messages may come twice (the match so far
    again after a drop): a move is recorded once.  Anything that makes no sense is logged and dropped."""

    def __init__(self, recorder: Optional[Recorder], backend: str, seat: Callable[[], Optional[int]]) -> None:
        self.recorder = recorder
        self.backend = backend
        self.seat = seat
        self.size: Optional[Size] = None
        self.match: Optional[int] = None
        self.recorded: Dict[int, str] = {}
        """Each round's moves as recorded so far."""
        self.matches = 0
        """Matches recorded to their end (won, or abandoned at either side)."""

    def take(self, data: Any) -> None:
        try:
            self._take(data)
        except (TypeError, ValueError, KeyError, AttributeError, GamelibError) as exc:
            log.warning("the host sent a game message that makes no sense (%s): not recorded", exc)

    def _take(self, data: Dict[str, Any]) -> None:
        event, match = data.get("event"), data.get("match")
        if type(match) is not int:
            raise ValueError("a game message names its match")
        if event == "match":
            if match != self.match:
                self.close()
                self._start(data)
            for played in data.get("rounds", []):   # the match so far (again, after a drop): what is not recorded yet
                self._played(played)
            return
        if match != self.match or self.size is None:
            raise ValueError(f"{event!r} of a match not started")
        if event == "round":
            if self.recorder is not None:
                self.recorder.start_round()
        elif event == "played":
            self._played(data)
        elif event == "end_match":
            winner = data.get("winner")
            if winner not in (None, 1, 2):
                raise ValueError("a winner is 1, 2 or null")
            self.size = None
            self.matches += 1
            if self.recorder is not None:
                self.recorder.end_match(winner)

    def _start(self, data: Dict[str, Any]) -> None:
        own = self.seat() or 2
        size = Size(int(data["columns"]), int(data["rows"]))
        sides = []
        for number, side in enumerate(data["sides"][:2], start=1):
            colour = int(str(side["colour"]).lstrip("#"), 16)
            name = side.get("name")
            sides.append(Side((colour >> 16 & 255, colour >> 8 & 255, colour & 255),
                              None if name is None else check_name(str(name)), remote=number != own))
        if len(sides) != 2:
            raise ValueError("a match has two sides")
        starts, wins = data.get("starts", "alternate"), data.get("wins", 2)
        if starts not in FIRST_CHOICES or type(wins) is not int or not 1 <= wins <= 99:
            raise ValueError("a match's starts and wins")
        self.size, self.match, self.recorded = size, data["match"], {}
        if self.recorder is None:
            return
        if data.get("rounds") and self._take_up((sides[0], sides[1]), size, data["rounds"]):
            return
        self.recorder.start_match((sides[0], sides[1]), columns=size.columns, rows=size.rows, backend=self.backend,
                                  starts=starts, wins=wins)

    def _take_up(self, sides: Tuple[Side, Side], size: Size, rounds: List[Dict[str, Any]]) -> bool:
        """Joined in the middle of a match: if this Pi's program was killed during it (the guest restarted),
        its record is in the file, interrupted: take it up (its moves so far are kept; the rest follows)."""
        assert self.recorder is not None
        record = self.recorder.interrupted()
        if record is None:
            return False
        sent = {r.get("number"): str(r.get("moves", "")) for r in rounds}
        if (record.columns, record.rows) != (size.columns, size.rows) or record.sides != sides or \
                any(not sent.get(r.number, "").startswith(r.moves) for r in record.rounds):
            return False   # another match (it stays interrupted, for the next game to offer)
        self.recorder.resume(record)
        self.recorded = {r.number: r.moves for r in record.rounds}
        return True

    def _played(self, data: Dict[str, Any]) -> None:
        number, starter, moves = data["number"], data["starter"], data["moves"]
        if type(number) is not int or not 1 <= number <= 99 or starter not in (1, 2) or not isinstance(moves, str):
            raise ValueError("a round is a number, a starter and moves")
        winner = data.get("match_winner")
        if winner not in (None, 1, 2):
            raise ValueError("a match's winner is 1, 2 or null")
        if self.size is None or len(moves) <= len(self.recorded.get(number, "")):
            return
        board = self.size.from_moves(moves)
        self.recorded[number] = moves
        if self.recorder is not None:
            self.recorder.played(number, starter, board, match_winner=winner)

    def close(self) -> None:
        """The link ended: a match still open is kept as abandoned."""
        if self.size is not None:
            self.size = None
            self.matches += 1
            if self.recorder is not None:
                self.recorder.end_match(None)


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
            if not 0 <= self.clock() - float(data["at"]) <= self.seconds:
                return None
            return saved
        except (OSError, ValueError, KeyError, TypeError):
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
    host's player leaves the lobby (up) or ``matches`` (0: no limit) have been played; how many were."""
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
         interfaces: Optional[Sequence[str]] = None) -> int:
    """Join a game on the LAN as ``name``: the host at ``target``, or one chosen from those found
    (then, after each visit, the list again until up); the matches recorded.  With ``target``, a host
    that cannot be reached or refuses is a :class:`LanError` (one line)."""
    from gamelib.lan.discovery import Browser  # noqa: PLC0415
    from gamelib.lan.flows import choose_game  # noqa: PLC0415
    from gamelib.web.limits import Limits  # noqa: PLC0415

    limits = limits or Limits()
    state = state or SessionFile(seconds=limits.away_seconds + 5.0)
    played = 0
    browser: Optional[Browser] = None
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
                                      limits=limits)
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
           recorder: Optional[Recorder], state: SessionFile, limits: Any) -> Tuple[Any, int]:
    """One visit to the host at ``where``: how it ended, and how many matches were recorded."""
    from gamelib.lan.flows import visit  # noqa: PLC0415
    from gamelib.lan.guest import GuestLink  # noqa: PLC0415

    link = GuestLink(where[0], where[1], name=name, game=GAME_KEY, token=token, limits=limits, notify=backend.wake,
                     saved=lambda kept: state.save(where[0], where[1], kept, link.host_name or label))
    records = GuestRecords(recorder, backend.name, lambda: link.seat)
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
                return join(backend, name=name, recorder=recorder, notice=lambda line: log.info("%s", line))
            board = size or choose_size(backend, sizes_for("human"), Size())
            if board is None:
                continue
            return host(backend, MatchOptions(size=board), name=name, recorder=recorder,
                        report=lambda number, result, names: print_result(number, None, result, names),
                        notice=lambda line: log.info("%s", line))


GAME = Game(name=f"{NAME} over the LAN", icon=ICON, play=play_lan, remembers=True)
"""The launcher's entry (``connect4-lan`` in the ``gamelib.games`` entry points)."""
