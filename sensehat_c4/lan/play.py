"""The host's and the guest's loops: :func:`host` offers the game and plays matches with the guests who
come; :func:`join` finds a game (or goes to the address given), asks, and shows the host's frames."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Sequence, Tuple

from gamelib.backends.base import Backend
from gamelib.lan import offering, screens
from gamelib.lan import protocol as p
from gamelib.lan.discovery import Browser
from gamelib.lan.flows import Outcome, Visit, choose_game, play_once, visit, wait_for_guest
from gamelib.lan.guest import GuestLink
from gamelib.web import lan_game
from gamelib.web.address import Address
from gamelib.web.limits import Limits

from ..i18n import _, ngettext
from ..match.controller import MatchOptions, MatchResult, play as play_match
from ..match.players import Seats
from ..match.words import GAME as NAME, as_guest
from ..records import Recorder
from .messages import check_game
from .records import GuestRecords, GuestReport, RecordTee
from .remote import LanError, RemotePlayer
from .session import SessionFile

GAME_KEY = "connect4"
"""The game's key in the protocol and the mDNS TXT record."""

Report = Callable[[int, MatchResult, Tuple[Optional[str], Optional[str]]], None]
"""Told of each match played: how many this loop has played with it (from 1), the result (its
:attr:`~..match.controller.MatchResult.number`: the match's in this Pi's records) and the seats' names."""


def host(backend: Backend, options: MatchOptions, *, name: str, recorder: Optional[Recorder] = None,
         report: Optional[Report] = None, address: Optional[Address] = None, matches: int = 0,
         notice: Callable[[str], None] = lambda message: None, limits: Optional[Limits] = None) -> int:
    """Offer Connect 4 on the LAN as ``name`` and play matches with the guests who come, until the
    host's player leaves the lobby (up) or ``matches`` (0: no limit) have been played; how many were (a
    match left before a move is no match: not counted, not reported, as it is not recorded)."""

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
                                    recorder=tee, seats=seats)   # a Recorder's calls, and to the guest
                if tee.kept:   # left before a move: no match (none recorded, none counted, no line)
                    played += 1
                    if report is not None:
                        report(played, result, names)
                if session.gone:
                    if session.ended in ("quit", "away"):
                        why = _("left") if session.ended == "quit" else _("is gone")
                        play_once(backend, screens.left(session.name, backend.palette), screens.left_words(session.name, why))
                        backend.screen.clear()
                    break
                if result.abandoned:
                    lan.end(session, "abandoned", _("the match was {summary}").format(summary=result.summary(names)))
                    break
            else:
                if not session.gone:
                    lan.end(session, "finished", ngettext("{name} stopped after {n} match",
                                                          "{name} stopped after {n} matches", played).format(
                        name=name, n=played))
        lan.offer(False)
    return played


# -- the guest -----------------------------------------------------------------------------------

def join(backend: Backend, *, name: str, target: Optional[Tuple[str, int]] = None,
         recorder: Optional[Recorder] = None, notice: Callable[[str], None] = lambda message: None,
         state: Optional[SessionFile] = None, limits: Optional[Limits] = None,
         interfaces: Optional[Sequence[str]] = None, report: Optional[Report] = None) -> int:
    """Join a game on the LAN as ``name``: the host at ``target``, or one chosen from those found
    (then, after each visit, the list again until up); the matches recorded, each told to ``report``
    as the host's are (numbered from 1, its result as this Pi's boards say).  With ``target``, a host
    that cannot be reached or refuses is a :class:`LanError` (one line)."""

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
                        browser = Browser(GAME_KEY, backend.stick.wake, interfaces=interfaces)
                        try:
                            browser.start()
                        except OSError as exc:
                            raise LanError(_("cannot look for games on this network ({why}): give the host's "
                                             "address, --join HOST[:PORT]").format(why=exc.strerror or exc)) from None
                    found = choose_game(backend, browser)
                    if found is None:
                        return played
                    where, token, label = (found.host, found.port), None, found.name

                outcome, matches = _visit(backend, where, token, label, name=name, recorder=recorder, state=state,
                                          limits=limits, report=None if report is None else numbered)
                played += matches
                if outcome.reason == p.BAD_TOKEN and token is not None:
                    continue   # the host no longer knows this Pi's session (it restarted): ask again
                if outcome.outcome is Outcome.FAILED and token is not None:
                    state.save(where[0], where[1], None, label)   # not to be tried again before asking
                if target is not None and (outcome.outcome is Outcome.FAILED or
                                           (outcome.outcome is Outcome.REFUSED and not outcome.played)):
                    raise LanError(outcome.message)
                if outcome.message:
                    notice(outcome.message)
                if target is not None:
                    return played
        finally:
            if browser is not None:
                browser.close()


def _visit(backend: Backend, where: Tuple[str, int], token: Optional[str], label: str, *, name: str,
           recorder: Optional[Recorder], state: SessionFile, limits: Limits,
           report: Optional[GuestReport] = None) -> Tuple[Visit, int]:
    """One visit to the host at ``where``: how it ended, and how many matches were recorded."""

    link = GuestLink(where[0], where[1], name=name, game=GAME_KEY, token=token, limits=limits, notify=backend.stick.wake,
                     saved=lambda kept: state.save(where[0], where[1], kept, link.host_name or label),
                     check_game=check_game)
    records = GuestRecords(recorder, backend.name, lambda: link.seat, report)
    with link:
        outcome = visit(backend, link, label, records.take,
                        words=lambda status: as_guest(status, link.seat, records.number))
    records.close()
    return outcome, records.matches

