"""The guest's side of a game over the LAN: the link to the host, kept up across drops.

:class:`GuestLink` runs in a thread of its own with an asyncio loop: it connects to the
host's web server, switches to the LAN protocol (``GET /api/lan``, ``Upgrade:
gamelib-lan/1``), says ``hello`` (with its token if it has one) and turns what the host
sends into :data:`Event` values (a dataclass a :class:`Kind`), queued for the game's thread (:meth:`GuestLink.take`),
which it wakes (``notify``).  Frames and words coalesce in the queue (the newest wins),
``game`` messages never do.  Presses go the other way (:meth:`GuestLink.press`, any thread).

Every line from the host is checked (:func:`~.protocol.decode`, and ``check_game`` for the
game's own messages) as strictly as the host checks the guest's: a host that breaks the
protocol, however (an answer nested 8,000 deep, ``Infinity``, a name the LEDs cannot show),
ends the link with one line (``failed``), never an exception in this thread.

Once welcomed, a link that drops (closed, refused, or silent for
:attr:`~gamelib.web.limits.Limits.silent_seconds`) is tried again every
:data:`RETRY_SECONDS` with the newest token (``dropped``, then ``resumed`` or ``end``);
after :attr:`~gamelib.web.limits.Limits.away_seconds` (and :data:`GRACE` more, so the
host's own end arrives first if it can) the guest gives up (``gave_up``).  Each token
is told to ``saved`` as it arrives (and ``None`` once the session is over), so a guest
that restarts can come back without asking again.
"""
from __future__ import annotations

import asyncio
import enum
import logging
import socket
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Deque, List, Optional, Union

import h11

from ..backends.base import Frame
from ..i18n import _
from ..jsonvalue import JSONObject
from ..web.limits import Limits
from . import protocol as p

log = logging.getLogger("gamelib.lan")

RETRY_SECONDS = 1.0
"""Between two tries to reach the host again after a drop."""
CONNECT_SECONDS = 5.0
"""A try to connect (and to get the ``101``) gives up after this."""
GRACE = 5.0
"""The guest gives up this long after the host would have (its ``end`` comes first if it can)."""
HEAD_BYTES = 8 * 1024

class Kind(enum.Enum):
    """What happened on the link: an :data:`Event`'s kind."""

    ASKING = "asking"
    WELCOME = "welcome"
    RESUMED = "resumed"
    REFUSED = "refused"
    FRAME = "frame"
    STATE = "state"
    GAME = "game"
    END = "end"
    DROPPED = "dropped"
    GAVE_UP = "gave_up"
    FAILED = "failed"


ASKING, WELCOME, RESUMED, REFUSED, FRAME, STATE, GAME, END, DROPPED, GAVE_UP, FAILED = Kind
"""The kinds by name."""


@dataclass(frozen=True)
class Asking:
    """The host is asking its player."""

    kind: ClassVar[Kind] = Kind.ASKING


@dataclass(frozen=True)
class Welcome:
    """The host said yes, or (``resumed``) took us back after a drop."""

    resumed: bool = False

    @property
    def kind(self) -> Kind:
        return Kind.RESUMED if self.resumed else Kind.WELCOME


@dataclass(frozen=True)
class Refused:
    """The host said no: ``reason`` (one of the protocol's :data:`~.protocol.REFUSALS`) and its words."""

    reason: str
    message: str
    kind: ClassVar[Kind] = Kind.REFUSED


@dataclass(frozen=True)
class Shown:
    """A frame the host shows."""

    pixels: Frame
    kind: ClassVar[Kind] = Kind.FRAME


@dataclass(frozen=True)
class Said:
    """The game's words (a status as JSON; ``None``: none)."""

    status: Optional[JSONObject]
    kind: ClassVar[Kind] = Kind.STATE


@dataclass(frozen=True)
class GameMessage:
    """A ``game`` message's data, as the game's ``check_game`` made it."""

    data: Any
    kind: ClassVar[Kind] = Kind.GAME


@dataclass(frozen=True)
class Ended:
    """The session ended: ``reason`` (one of the protocol's :data:`~.protocol.ENDINGS`) and its words."""

    reason: str
    message: str
    kind: ClassVar[Kind] = Kind.END


@dataclass(frozen=True)
class Dropped:
    """The link dropped (why, in one line); it is tried again."""

    why: str
    kind: ClassVar[Kind] = Kind.DROPPED


@dataclass(frozen=True)
class GaveUp:
    """The link stayed down: we gave up waiting (why, in one line)."""

    why: str
    kind: ClassVar[Kind] = Kind.GAVE_UP


@dataclass(frozen=True)
class Failed:
    """We could not reach the host, or it broke the protocol, or speaks another version (why, in one line)."""

    why: str
    kind: ClassVar[Kind] = Kind.FAILED


Event = Union[Asking, Welcome, Refused, Shown, Said, GameMessage, Ended, Dropped, GaveUp, Failed]
"""What happened on the link, one dataclass a :class:`Kind`."""


class GuestLink:
    """The guest's link to the host at ``host``:``port`` (see the module's docstring)."""

    def __init__(self, host: str, port: int, *, name: str, game: str, token: Optional[str] = None,
                 limits: Limits = Limits(), notify: Callable[[], None] = lambda: None,
                 saved: Callable[[Optional[str]], None] = lambda token: None,
                 check_game: Callable[[Any], Any] = lambda data: data) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.game = game
        self.token = token
        self.limits = limits
        self.notify = notify
        self.saved = saved
        self.check_game = check_game
        """The game's check of its ``game`` messages' data: what to queue, or :class:`~.protocol.ProtocolError`."""
        self.host_name: Optional[str] = None
        """The host's player's name (from its ``welcome``)."""
        self.seat: Optional[int] = None
        self.welcomed = token is not None
        """True once a session exists (a token came, or was given): drops are then tried again."""
        self.drops = 0
        self._events: Deque[Event] = deque()
        self._lock = threading.Lock()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._stopping = False
        self._task: Optional["asyncio.Task[None]"] = None

    # -- any thread -------------------------------------------------------------------------

    def start(self) -> "GuestLink":
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="gamelib-lan-guest", daemon=True)
        self._thread.start()
        ready.wait()
        return self

    def take(self) -> List[Event]:
        """Every event queued since the last call (the game's thread)."""
        with self._lock:
            events = list(self._events)
            self._events.clear()
        return events

    def press(self, direction: str, action: str = "pressed") -> None:
        """Send a press of the guest's stick (dropped while the link is down: the host holds the game)."""
        self._send(p.encode(p.PRESS, direction=direction, action=action))

    def bye(self) -> None:
        """Leave: the host is told (if the link is up) and nothing is tried again."""
        self._stopping = True
        self._send(p.encode(p.BYE), close=True)
        self.saved(None)

    def close(self) -> None:
        """Stop the thread (a ``bye`` first if the link is up); safe to call twice."""
        if not self._stopping:
            self.bye()
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            try:
                loop.call_soon_threadsafe(self._cancel)
            except RuntimeError:
                pass
            thread.join(3.0)

    def __enter__(self) -> "GuestLink":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the link's thread ------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        with self._lock:
            last = self._events[-1] if self._events else None
            if isinstance(event, (Shown, Said)) and type(last) is type(event):
                self._events[-1] = event      # the newest frame (or words) wins
            else:
                self._events.append(event)
        self.notify()

    def _send(self, line: bytes, *, close: bool = False) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def write() -> None:
            writer = self._writer
            if writer is not None and not writer.is_closing():
                writer.write(line + b"\n")
                if close:
                    writer.close()
        try:
            loop.call_soon_threadsafe(write)
        except RuntimeError:
            pass

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _run(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        ready.set()
        try:
            self._task = loop.create_task(self._main())
            loop.run_until_complete(self._task)
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a bug here must end the visit in one line, not hang it
            log.debug("the link to the host failed", exc_info=True)
            self.saved(None)
            self._fail(_("the link to {address} failed: {error}").format(
                address=f"{self.host}:{self.port}", error=f"{type(exc).__name__}: {exc}")[:p.MAX_TEXT])
        finally:
            loop.close()

    async def _main(self) -> None:
        away_since: Optional[float] = None
        loop = asyncio.get_running_loop()
        while not self._stopping:
            why = await self._session()
            if self._stopping:
                return
            if not self.welcomed:
                self._emit(Failed(why))
                return
            if self._resumed or away_since is None:   # a link that was up dropped (or a saved token's first try)
                away_since = loop.time()
                self.drops += 1
                self._emit(Dropped(why))
            elif loop.time() - away_since > self.limits.away_seconds + GRACE:
                self.saved(None)
                self._emit(GaveUp(_("the link stayed down for {seconds} s").format(seconds=f"{self.limits.away_seconds:g}")))
                return
            await asyncio.sleep(RETRY_SECONDS)

    _resumed = False
    """Whether the last connection was welcomed (a drop after it starts a new wait)."""

    async def _session(self) -> str:
        """One connection, to its end; why it ended (for a drop), or ``""`` when the session is over."""
        self._resumed = False
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), CONNECT_SECONDS)
        except (OSError, asyncio.TimeoutError) as exc:
            return _("cannot reach {address}: {error}").format(address=f"{self.host}:{self.port}", error=_reason(exc))
        sock = writer.get_extra_info("socket")
        if sock is not None:
            _tune(sock)
        self._writer = writer
        try:
            rest = await asyncio.wait_for(self._switch(reader, writer), CONNECT_SECONDS)
            if rest is None:
                return _("the host is busy")
            writer.write(p.encode(p.HELLO, version=p.VERSION, game=self.game, name=self.name, token=self.token) + b"\n")
            pinger = asyncio.get_running_loop().create_task(self._ping(writer))
            try:
                return await self._lines(reader, rest)
            finally:
                pinger.cancel()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as exc:
            return _("the link to {address} dropped: {error}").format(address=f"{self.host}:{self.port}", error=_reason(exc))
        finally:
            self._writer = None
            writer.close()

    async def _switch(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Optional[bytes]:
        """Ask for the LAN protocol; what came after the ``101``, or ``None`` (refused: the event is out)."""
        conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=HEAD_BYTES)
        host = f"[{self.host}]" if ":" in self.host else self.host
        writer.write(conn.send(h11.Request(method="GET", target=p.PATH, headers=[
            ("Host", f"{host}:{self.port}"), ("Connection", "Upgrade"), ("Upgrade", p.PROTOCOL)])) +
            conn.send(h11.EndOfMessage()))
        status, headers, body = 0, {}, bytearray()
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                self._fail(_("{address} is not a game's web server ({error})").format(
                    address=f"{self.host}:{self.port}", error=exc))
                return None
            if event is h11.NEED_DATA:
                data = await reader.read(HEAD_BYTES)
                if not data:
                    raise asyncio.IncompleteReadError(b"", None)
                conn.receive_data(data)
            elif isinstance(event, h11.InformationalResponse) and event.status_code == 101:
                return conn.trailing_data[0]
            elif isinstance(event, h11.Response):
                status = event.status_code
                headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in event.headers}
            elif isinstance(event, h11.Data):
                if len(body) < HEAD_BYTES:
                    body += event.data
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)) or event is h11.PAUSED:
                break
        message = p.answer_text(bytes(body))
        if status in (429, 503) and self.welcomed:   # too many links at the host for now: try again
            return None
        if status == 426:
            theirs = p.upgrade_version(headers.get("upgrade"))
            self._fail(p.mismatch(p.VERSION, theirs) if theirs not in (None, p.VERSION)
                       else message or _("the host refused the LAN protocol"))
        elif status == 404:
            self._fail(_("{address} serves no game over the LAN (is it sensehat-c4 --lan?)").format(
                address=f"{self.host}:{self.port}"))
        else:
            self._fail(_("{address} answered {status}: {message}").format(
                address=f"{self.host}:{self.port}", status=status, message=message or _("no reason given")))
        return None

    def _stop(self, event: Event) -> None:
        self._stopping = True
        self._emit(event)

    def _fail(self, why: str) -> None:
        self._stop(Failed(why))

    async def _ping(self, writer: asyncio.StreamWriter) -> None:
        while not writer.is_closing():
            await asyncio.sleep(self.limits.ping_seconds)
            if not writer.is_closing():
                writer.write(p.encode(p.PING) + b"\n")

    async def _lines(self, reader: asyncio.StreamReader, buffer: bytes) -> str:
        pending = bytearray(buffer)
        limit = self.limits.line_bytes
        while True:
            end = pending.find(b"\n", 0, limit + 1)
            if end < 0:
                if len(pending) > limit:
                    self._fail(_("the host at {host} sent a line over {limit} bytes").format(host=self.host, limit=limit))
                    return ""
                try:
                    data = await asyncio.wait_for(reader.read(65536), self.limits.silent_seconds)
                except asyncio.TimeoutError:
                    return _("nothing from {host} for {seconds} s").format(host=self.host,
                                                                          seconds=f"{self.limits.silent_seconds:g}")
                if not data:
                    return _("{host} closed the link").format(host=self.host)
                pending += data
                continue
            line = bytes(pending[:end])
            del pending[:end + 1]
            if not self._line(line):
                return ""

    def _line(self, line: bytes) -> bool:
        """Handle one line from the host; False when the session is over."""
        try:
            message = p.decode(line, p.FROM_HOST)
        except p.ProtocolError as error:
            self._fail(_("the host at {host} broke the LAN protocol: {error}").format(host=self.host, error=error))
            return False
        kind = message.type
        if kind == p.PING:
            return True
        if kind == p.ASKING:
            self._emit(Asking())
        elif kind == p.WELCOME:
            first = not self.welcomed or self.seat is None
            self.token, self.seat, self.host_name = message["token"], message["seat"], message["host"]
            self.welcomed = True
            self.saved(self.token)
            self._resumed = True
            self._emit(Welcome(resumed=message["resumed"] and not first))
        elif kind == p.REFUSED:
            self.saved(None)
            self._stop(Refused(message["reason"], message["message"]))
            return False
        elif kind == p.END:
            self.saved(None)
            self._stop(Ended(message["reason"], message["message"]))
            return False
        elif kind == p.ERROR:
            self._fail(_("the host at {host} said: {message}").format(host=self.host,
                                                                              message=message["message"][:p.MAX_TEXT]))
            return False
        elif kind == p.FRAME:
            self._emit(Shown(message["pixels"]))
        elif kind == p.STATE:
            self._emit(Said(message.get("status")))
        elif kind == p.GAME:
            try:
                data = self.check_game(message["data"])
            except p.ProtocolError as error:
                self._fail(_("the host at {host} broke the LAN protocol: {error}").format(host=self.host, error=error))
                return False
            self._emit(GameMessage(data))
        return True


def _reason(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return _("no answer")
    if isinstance(exc, ConnectionRefusedError):
        return _("nothing listens there (connection refused)")
    if isinstance(exc, asyncio.IncompleteReadError):
        return _("closed")
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _tune(sock: socket.socket) -> None:
    for level, option, value in ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
                                 (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)):
        try:
            sock.setsockopt(level, option, value)
        except OSError:
            pass
