"""The host's side of a game over the LAN: requests, consent, the guest's session, its link.

:class:`LanHost` lives in the web server's event loop (``GET /api/lan``, the upgrade to the
LAN protocol, is its route) and is told the backend's frames and words as an
:class:`~gamelib.backends.base.Observer`, which go to the accepted guest.  The game's
thread asks it for the request waiting (:meth:`LanHost.pending`) and answers it
(:meth:`LanHost.accept`, :meth:`LanHost.refuse`: only a press at the host's stick does);
everything else happens in the loop:

- a ``hello`` without a token is a request: the guest is told ``asking`` and the game's
  thread is woken to show it (the asker's name and address: a name alone proves nothing);
  requests made while one is shown wait in line, in the order they came (one per address,
  at most :attr:`~gamelib.web.limits.Limits.links`), so each is shown in turn and none holds
  the host for longer than :attr:`~gamelib.web.limits.Limits.consent_seconds`: asking again
  from a fresh address goes to the back.  While a guest plays, requests are refused
  (``busy``); after a refusal, or a request nobody answered, that address's requests are
  refused for :attr:`~gamelib.web.limits.Limits.refused_seconds`;
- the accepted guest gets a token (``welcome``); its presses reach the game as the
  backend's events from the session's source (``lan:N``), its seat's player's;
- when its link drops (closed, or silent for :attr:`~gamelib.web.limits.Limits.silent_seconds`)
  the backend is :meth:`~gamelib.backends.interlude.Interludes.pause`-ing the waiting screen: the
  game waits underneath.  A ``hello`` with the session's token within
  :attr:`~gamelib.web.limits.Limits.away_seconds` takes the session up again where it
  was (a new token; the current frame and words at once), without asking; else, or
  when the host's player pushes up, the session ends (``away``, ``abandoned``), and
  :attr:`Session.gone` tells the game.  Every token is good once: a replayed one, or
  one of a session that ended, changes nothing.
"""
from __future__ import annotations

import asyncio
import hmac
import itertools
import logging
import secrets
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple, Union

from ..backends.base import Action, Backend, Direction, Observer, StickEvent
from ..i18n import _
from ..icons import Picture
from ..jsonvalue import JSONObject
from ..seats import Kind
from ..status import Status
from ..web.http import HttpError, Link, Request, Route, UpgradeReply
from ..web.limits import Limits, RateTable, TokenBucket
from . import protocol as p
from . import screens

log = logging.getLogger("gamelib.lan")

KIND = Kind.REMOTE
"""What a seat played from another Pi is called in the game's words and records."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Session:
    """The accepted guest: its name, address, seat, the source of its presses and its token.

    :attr:`ended` (``None`` while it lasts) is written by the server's thread and read by the
    game's: :attr:`gone` is what the game checks.
    """

    name: str
    address: str
    seat: int
    source: str
    token: str
    ended: Optional[str] = None
    """Why it ended: one of :data:`~.protocol.ENDINGS`."""
    link: Optional[Link] = field(default=None, repr=False)
    away_since: Optional[float] = None
    """When its link dropped (the loop's clock), while it is down."""
    resumed: int = 0
    """How many times it came back after a drop."""

    @property
    def gone(self) -> bool:
        return self.ended is not None


@dataclass(eq=False)
class Asking:
    """A request waiting for the host's answer."""

    name: str
    address: str
    link: Link = field(repr=False)
    since: float = 0.0
    withdrawn: bool = False


@dataclass(frozen=True)
class _Frame:
    """Queued for the guest: a frame shown."""

    picture: Picture


@dataclass(frozen=True)
class _Words:
    """Queued for the guest: the game's words."""

    status: Status


@dataclass(frozen=True)
class _Game:
    """Queued for the guest: a ``game`` message's data."""

    data: JSONObject


_Queued = Union[_Frame, _Words, _Game]
"""What the game's thread queues for the link's (:meth:`LanHost._post`), in order."""


@dataclass(eq=False)
class _Peer:
    """One link's state in the loop."""

    link: Link
    heard: float
    bucket: TokenBucket
    hello: bool = False
    session: Optional[Session] = None
    asking: Optional[Asking] = None


class LanHost(Observer):
    """The host's side of the LAN protocol for one game on ``backend`` (see the module's docstring).

    ``name`` is the host's player, ``game`` the game's key (``connect4``); ``on_game`` is told
    each game message the guest should get (:meth:`send_game`).  Made in any thread; its route
    (:meth:`route`) runs in the server's loop.
    """

    def __init__(self, backend: Backend, name: str, game: str, limits: Limits = Limits(), *,
                 seat: int = 2, tokens: Callable[[], str] = new_token) -> None:
        self.backend = backend
        self.name = name
        self.game = game
        self.limits = limits
        self.seat = seat
        self._tokens = tokens
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.session: Optional[Session] = None
        self.asking: Optional[Asking] = None
        """The request shown at the host (the first in line)."""
        self._waiting: Deque[Asking] = deque()
        """The requests behind it, in the order they came."""
        self.offered = False
        """True while the game waits for guests or plays with one (else requests are refused ``not_offered``)."""
        self.stats: Dict[str, int] = {"hellos": 0, "refused": 0, "errors": 0, "resumed": 0, "presses": 0}
        self._ended: Deque[Tuple[str, str]] = deque(maxlen=8)
        """Tokens of sessions that ended, and why: a guest coming back is told the end, not refused blindly."""
        self._refused: RateTable[str] = RateTable(1.0 / max(limits.refused_seconds, 1e-9), 1, size=256)
        self._peers: Dict[Link, _Peer] = {}
        self._sources = itertools.count(1)
        self._lock = threading.Lock()
        self._queue: Deque[_Queued] = deque(maxlen=limits.queued_messages)
        self._scheduled = False
        self._seq = 0
        self._frame: Optional[Tuple[Any, ...]] = None
        self._status: Optional[Status] = None
        self._held: Optional[Any] = None
        self._stale = False
        self.catch_up: Callable[[], List[Dict[str, Any]]] = list
        """The game's messages a guest that (re)joins needs first (Connect 4: the match so far, for its
        records); called in the server's loop, so it must only read what it returns."""
        self._timer: Optional[asyncio.TimerHandle] = None
        self._stop_observing = backend.screen.observe(self)

    # -- the route (the server's loop) --------------------------------------------------

    def route(self) -> Route:
        return Route("GET", p.PATH, self.upgrade)

    def upgrade(self, request: Request) -> Any:
        """``GET /api/lan`` with ``Upgrade: gamelib-lan/1``: the switch to the LAN protocol."""
        version = p.upgrade_version(request.header("upgrade"))
        if version is None:
            raise HttpError(426, "upgrade", f"this is the LAN protocol's address: ask for Upgrade: {p.PROTOCOL}",
                            headers=(("Upgrade", p.PROTOCOL), ("Connection", "Upgrade")))
        if version != p.VERSION:
            log.warning(_("a guest at {address}: {error}").format(address=request.peer, error=p.mismatch(p.VERSION, version)))
            raise HttpError(426, "version", p.mismatch(p.VERSION, version),
                            headers=(("Upgrade", p.PROTOCOL), ("Connection", "Upgrade")))
        if request.header("origin") is not None:   # browsers cannot ask for this; a page never may
            raise HttpError(403, "origin", "the LAN protocol is for another Pi, not for a page")
        return UpgradeReply(p.PROTOCOL, self._opened)

    def trusts(self, address: str) -> bool:
        """True for the accepted guest's address while its session lasts: the web server never lets
        strangers' connections crowd out its link, nor its coming back after a drop."""
        session = self.session
        return session is not None and not session.gone and session.address == address

    def _opened(self, link: Link) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is None:
            self.loop = loop
            self._tick()
        peer = _Peer(link, loop.time(), TokenBucket(self.limits.messages_per_second, self.limits.message_burst,
                                                    clock=loop.time))
        self._peers[link] = peer
        link.line = lambda line: self._line(peer, line)
        link.too_long = lambda: self._fail(peer, "too_long", f"a line may hold {self.limits.line_bytes} bytes")
        link.caught_up = lambda: self._caught_up(peer)
        link.closed = lambda: self._closed(peer)

    def _tick(self) -> None:
        """Every ``ping_seconds``: drop links silent too long (or without hello), ping the others, time out
        requests and away sessions."""
        assert self.loop is not None
        now = self.loop.time()
        limits = self.limits
        for peer in list(self._peers.values()):
            quiet = now - peer.heard
            if not peer.hello and quiet > limits.hello_seconds:
                self._fail(peer, "timeout", f"say hello within {limits.hello_seconds:g} s")
            elif quiet > limits.silent_seconds:
                log.info(_("the link from {address} went silent for {seconds} s: dropped").format(address=peer.link.peer,
                                                                                                  seconds=f"{quiet:.0f}"))
                peer.link.abort()
            elif peer.hello and not peer.link.behind:
                peer.link.send(p.encode(p.PING))
        asking = self.asking
        if asking is not None and now - asking.since > limits.consent_seconds:
            self._refuse(asking, "no_answer", f"{self.name} did not answer within {limits.consent_seconds:g} s")
        session = self.session
        if session is not None and session.away_since is not None and now - session.away_since > limits.away_seconds:
            self._end(session, "away", f"the link stayed down for {limits.away_seconds:g} s")
        self._timer = self.loop.call_later(limits.ping_seconds, self._tick)

    # -- lines -------------------------------------------------------------------------------

    def _line(self, peer: _Peer, line: bytes) -> None:
        assert self.loop is not None
        peer.heard = self.loop.time()
        if not peer.bucket.take():
            self._fail(peer, "rate", f"at most {self.limits.messages_per_second:g} lines a second")
            return
        try:
            message = p.decode(line, p.FROM_GUEST)
        except p.ProtocolError as error:
            if error.code == "version":
                log.warning(_("a guest at {address}: {error}").format(address=peer.link.peer, error=error))
            self._fail(peer, error.code, str(error))
            return
        kind = message.type
        if kind == p.PING:
            return
        if not peer.hello:
            if kind != p.HELLO:
                self._fail(peer, "bad_message", "the first line is hello")
                return
            peer.hello = True
            self._hello(peer, message)
        elif kind == p.HELLO:
            self._fail(peer, "bad_message", "hello once")
        elif kind == p.PRESS:
            self._press(peer, message)
        elif kind == p.BYE:
            self._bye(peer)

    def _hello(self, peer: _Peer, message: p.Message) -> None:
        self.stats["hellos"] += 1
        link, name, token = peer.link, message["name"], message.get("token")
        if message["game"] != self.game:
            self._refuse_link(link, "game", f"{self.name} offers {self.game}, not {message['game']}")
            return
        if token is not None:
            self._come_back(peer, token)
            return
        if not self.offered:
            self._refuse_link(link, "not_offered", f"{self.name} is not offering a game now")
        elif self.session is not None:
            self._refuse_link(link, "busy", f"{self.name} is playing with {self.session.name}")
        elif self._refused.wait(link.peer) > 0:
            self._refuse_link(link, "refused", f"{self.name} was asked from this address a moment ago: wait a little")
        elif any(asking.address == link.peer for asking in self._line_up()):
            self._refuse_link(link, "busy", f"{self.name} has a request from this address already")
        elif len(self._line_up()) >= self.limits.links:
            self._refuse_link(link, "busy", f"{self.name} is answering others first")
        else:
            assert self.loop is not None
            peer.asking = asking = Asking(name, link.peer, link, self.loop.time())
            link.send(p.encode(p.ASKING))
            log.info(_("{name} at {address} asks to play").format(name=name, address=link.peer))
            if self.asking is None:
                self.asking = asking
                self.backend.stick.wake()
            else:
                self._waiting.append(asking)

    def _line_up(self) -> List[Asking]:
        """The requests waiting: the one shown, then those behind it."""
        return ([] if self.asking is None else [self.asking]) + list(self._waiting)

    def _next(self) -> None:
        """The request shown was answered or withdrawn: show the next in line (its time starts now)."""
        assert self.loop is not None
        self.asking = None
        while self._waiting:
            asking = self._waiting.popleft()
            if not asking.withdrawn and asking.link.open:
                asking.since = self.loop.time()
                self.asking = asking
                break
        self.backend.stick.wake()

    def _come_back(self, peer: _Peer, token: str) -> None:
        """A ``hello`` with a token: the session's guest back after a drop, or nothing."""
        session = self.session
        if session is not None and not session.gone and hmac.compare_digest(token.encode(), session.token.encode()):
            old = session.link
            if old is not None and old is not peer.link:
                self._peers.pop(old, None)
                old.abort()
            session.link, session.away_since = peer.link, None
            session.token = self._tokens()
            session.resumed += 1
            self.stats["resumed"] += 1
            peer.session = session
            self._unpause()
            log.info(_("{name} is back (from {address})").format(name=session.name, address=peer.link.peer))
            peer.link.send(p.encode(p.WELCOME, token=session.token, seat=session.seat, host=self.name, resumed=True))
            self._catch_up(peer.link)
            return
        for ended, why in self._ended:
            if hmac.compare_digest(token.encode(), ended.encode()):
                peer.link.send(p.encode(p.END, reason=why, message=f"the match with {self.name} ended ({why})"))
                peer.link.close()
                return
        self._refuse_link(peer.link, "bad_token", "no session goes with this token: ask again")

    def _press(self, peer: _Peer, message: p.Message) -> None:
        session = peer.session
        if session is None or session.gone or session.link is not peer.link:
            self._fail(peer, "not_seated", "only the accepted guest presses")
            return
        self.stats["presses"] += 1
        if not self.backend.stick.inject(Direction(message["direction"]), Action(message.get("action", "pressed")),
                                   source=session.source):
            log.info(_("a press from {name} dropped: the game is not reading them").format(name=session.name))

    def _bye(self, peer: _Peer) -> None:
        if peer.asking is not None:
            self._withdraw(peer.asking)
        session = peer.session
        if session is not None and session.link is peer.link and not session.gone:
            self._end(session, "quit", f"{session.name} quit", tell=False)
        peer.link.close()

    def _fail(self, peer: _Peer, code: str, message: str) -> None:
        """A line that breaks the protocol: one error line back, then the link is closed (a session's
        guest may come back with its token)."""
        self.stats["errors"] += 1
        log.info(_("the link from {address}: {message} (closed)").format(address=peer.link.peer, message=message))
        if peer.link.open:
            peer.link.send(p.encode(p.ERROR, error=code, message=message))
            peer.link.close()

    def _closed(self, peer: _Peer) -> None:
        self._peers.pop(peer.link, None)
        if peer.asking is not None:
            self._withdraw(peer.asking)
        session = peer.session
        if session is not None and session.link is peer.link and not session.gone:
            assert self.loop is not None
            session.link, session.away_since = None, self.loop.time()
            log.info(_("the link to {name} dropped: waiting {seconds} s for it").format(
                name=session.name, seconds=f"{self.limits.away_seconds:g}"))
            self._pause(session)

    # -- the request and the session -----------------------------------------------------------

    def _withdraw(self, asking: Asking) -> None:
        asking.withdrawn = True
        if self.asking is asking:
            self._next()
        elif asking in self._waiting:
            self._waiting.remove(asking)

    def _refuse_link(self, link: Link, reason: str, message: str) -> None:
        self.stats["refused"] += 1
        link.send(p.encode(p.REFUSED, reason=reason, message=message))
        link.close()

    def _refuse(self, asking: Asking, reason: str, message: str) -> None:
        if reason in ("refused", "no_answer"):   # that address waits before it may ask again
            self._refused.take(asking.address)
        self._withdraw(asking)
        if asking.link.open:
            self._refuse_link(asking.link, reason, message)
        self.backend.stick.wake()

    def _accept(self, asking: Asking, session: Session) -> None:
        peer = self._peers.get(asking.link)
        if asking.withdrawn or peer is None:   # the guest left before the answer: the session ends at once
            self._end(session, "quit", f"{session.name} left before the answer", tell=False)
            return
        self.asking = None
        for other in list(self._waiting):
            self._refuse(other, "busy", f"{self.name} is playing with {session.name}")
        self.session, session.link, peer.session, peer.asking = session, asking.link, session, None
        asking.link.send(p.encode(p.WELCOME, token=session.token, seat=session.seat, host=self.name, resumed=False))
        self._catch_up(asking.link)
        log.info(_("{name} at {address} plays seat {seat}").format(name=session.name, address=session.address,
                                                                  seat=session.seat))

    def _end(self, session: Session, reason: str, message: str, *, tell: bool = True) -> None:
        if session.gone:
            return
        session.ended = reason
        self._ended.append((session.token, reason))
        link = session.link
        if tell and link is not None and link.open:
            link.send(p.encode(p.END, reason=reason, message=message))
        if link is not None:
            link.close()
        if self.session is session:
            self.session = None
        self._unpause()
        log.info(_("the session with {name} ended: {message}").format(name=session.name, message=message))
        self.backend.stick.wake()

    def _pause(self, session: Session) -> None:
        def pressed(event: StickEvent) -> None:   # the game's thread: up gives up waiting
            if event.direction is Direction.UP:
                self._call(self._end, session, "abandoned", f"{self.name} abandoned the match")
        self._held = self.backend.interludes.pause(screens.away(self.backend.palette), pressed=pressed,
                                       status=screens.away_words(session.name, self.limits.away_seconds))

    def _unpause(self) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            self.backend.interludes.unpause(held)

    # -- frames and words to the guest ----------------------------------------------------------

    def shown(self, frame: Picture) -> None:
        """Observer: a frame shown (the game's thread)."""
        self._post(_Frame(frame))

    def said(self, status: Status) -> None:
        """Observer: the game's words (the game's thread)."""
        if status.phase != screens.PHASE or status.details.get("screen") != screens.AWAY:
            self._post(_Words(status))

    def send_game(self, data: JSONObject) -> None:
        """Send the guest a ``game`` message (its game's own: Connect 4 sends what its records need),
        from any thread, in order with the frames."""
        self._post(_Game(data))

    def _post(self, item: _Queued) -> None:
        with self._lock:
            if self.loop is None:   # no link yet: nobody to send to (a guest gets what is up when it comes)
                return
            self._queue.append(item)
            if self._scheduled:
                return
            self._scheduled = True
        try:
            self.loop.call_soon_threadsafe(self._flush)
        except RuntimeError:  # the loop closed: the server stopped
            pass

    def _flush(self) -> None:
        with self._lock:
            items = list(self._queue)
            self._queue.clear()
            self._scheduled = False
        session = self.session
        link = None if session is None else session.link
        for item in items:
            if isinstance(item, _Frame):
                self._seq += 1
                self._frame = item.picture
            elif isinstance(item, _Words):
                self._status = item.status
            if link is None or not link.open:
                continue
            if isinstance(item, _Game):
                link.send(p.encode(p.GAME, data=item.data))
            elif link.behind:
                self._stale = True    # when it has read: the newest frame and words (latest wins)
            elif isinstance(item, _Frame):
                link.send(self._frame_line())
            else:
                link.send(self._state_line())

    def _frame_line(self) -> bytes:
        frame = self._frame if self._frame is not None else self.backend.screen.frame
        return p.encode(p.FRAME, seq=self._seq, pixels=[list(pixel) for pixel in frame])

    def _state_line(self) -> bytes:
        return p.encode(p.STATE, status=None if self._status is None else self._status.as_json())

    def _catch_up(self, link: Link) -> None:
        """What the LEDs and the words are now, for a guest that just (re)joined."""
        link.send(self._state_line())
        link.send(self._frame_line())
        for data in self.catch_up():
            link.send(p.encode(p.GAME, data=data))

    def _caught_up(self, peer: _Peer) -> None:
        if peer.session is not None and peer.session.link is peer.link and self._stale:
            self._stale = False
            self._catch_up(peer.link)

    # -- the game's thread -----------------------------------------------------------------------------

    def _call(self, function: Callable[..., None], *args: Any) -> None:
        loop = self.loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(function, *args)
        except RuntimeError:
            pass

    def pending(self) -> Optional[Asking]:
        """The request waiting for an answer, if any (any thread)."""
        return self.asking

    def accept(self, asking: Asking) -> Session:
        """The host's player said yes (middle at the stick): the guest's session (its token is sent)."""
        session = Session(asking.name, asking.address, self.seat, f"lan:{next(self._sources)}", self._tokens())
        self._call(self._accept, asking, session)
        return session

    def refuse(self, asking: Asking) -> None:
        """The host's player said no (up at the stick)."""
        self._call(self._refuse, asking, "refused", f"{self.name} said no")

    def end(self, session: Session, reason: str, message: str) -> None:
        """The session ends (the match was abandoned, the host stops): the guest is told."""
        self._call(self._end, session, reason, message)

    def offer(self, on: bool) -> None:
        """Take requests (``True``, while the game offers it) or refuse them (``not_offered``)."""
        self.offered = on

    def close(self, message: str = "") -> None:
        """The host stops: the guest is told (``quit``), every link closed, the observer stopped
        (call in any thread but the loop's, before the server closes)."""
        self._stop_observing()
        session = self.session
        done = threading.Event()

        def stop() -> None:
            if self._timer is not None:
                self._timer.cancel()
            if session is not None:
                self._end(session, "quit", message or f"{self.name} quit")
            for peer in list(self._peers.values()):
                if peer.link.open:
                    peer.link.close()
            done.set()

        if self.loop is None or self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(stop)
        except RuntimeError:
            return
        done.wait(2.0)

    def links(self) -> List[Link]:
        return [peer.link for peer in self._peers.values()]

