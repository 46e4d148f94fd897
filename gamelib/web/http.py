"""A small, bounded HTTP/1.1 server on :mod:`asyncio`, with ``h11`` reading and writing the protocol.

``h11`` (pure Python, sans-I/O) parses requests and frames responses; this module
does the I/O and holds every client to :class:`~.limits.Limits`: connections at
once (all, and per address), header and body size, the time a request may take
to arrive (a slowloris client is cut off whatever it drips), requests per
second per address, and streams whose client stops reading.

A client slows only itself.  A connection is read :attr:`~.limits.Limits.read_bytes`
at a time and answers at most :attr:`~.limits.Limits.requests_per_turn` pipelined
requests before the other connections have had their turn; it is not read while more
than :attr:`~.limits.Limits.send_buffer` bytes of its answers wait (its client does
not read them: backpressure, with the kernel's send buffer capped too), nor, after
a ``429``, until its ``Retry-After`` has passed.  When every connection slot is
taken, a new connection takes the place of a stranger's that has no request in
progress (:data:`IDLE` ... :data:`PARTIAL`: idle ones first, the longest waiting first),
answering it ``503`` in case its request was on its way; a request that has reached
the machine is always answered.  Connections from a trusted address
(:attr:`HttpServer.trusted`: a seated phone's, the LAN guest's) are never the ones to
give way, may take a spectator's stream's place if nothing else can give way, and a
seated phone's streams are not held to the strangers' :attr:`~.limits.Limits.streams`.
A connection refused for want of room is answered ``503`` and read until its client
closes (a lingering close: :attr:`~.limits.Limits.refusing`).  Every response
carries the security headers (:data:`SECURITY_HEADERS`, a content security
policy allowing only the page's own files); every request's ``Host`` must be a
name of the LAN (:func:`lan_host`, against DNS rebinding); and every request that
changes something (:attr:`Route.changes`) must carry JSON and, if it has an
``Origin``, the page's own (:func:`check_origin`), so no other site's page can
make a visitor's browser press for it.

An application is a table of :class:`Route`\\ s.  A handler gets a :class:`Request`
and returns a :class:`Response`, a :class:`StreamReply` that keeps the
connection open as a :class:`Stream` the application writes to (the event
stream of the web view), or an :class:`UpgradeReply` that switches the
connection to another protocol (``101 Switching Protocols``) spoken in lines
both ways, a :class:`Link` (another Pi's game over the LAN).  Handlers run in the
server's event loop and must not block.
"""
from __future__ import annotations

import asyncio
import fcntl
import hashlib
import http
import ipaddress
import json
import logging
import socket
import struct
import termios
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

import h11

from ..errors import GamelibError
from ..i18n import _
from ..jsonvalue import JSON
from .address import name_labels
from .limits import Limits, RateTable

log = logging.getLogger("gamelib.web")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
       "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""Only the page's own files: no inline script or style, no other site, no frames, no forms."""

SECURITY_HEADERS: Tuple[Tuple[str, str], ...] = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)
"""Sent with every response."""

SERVER = "gamelib"

LAN_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain")
"""Host names (besides addresses and single-label names) taken as this LAN's: mDNS, routers' names."""


class HttpError(GamelibError):
    """A request refused: ``status``, a short ``code`` a program can test, and a message for people;
    ``details``: values a program (the page, which says it in its own words) reads beside the code
    (``bad_pin``'s ``tries_left``), sent in the answer's JSON."""

    def __init__(self, status: int, code: str, message: str, *,
                 headers: Sequence[Tuple[str, str]] = (), details: Optional[Mapping[str, int]] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = tuple(headers)
        self.details: Mapping[str, int] = dict(details or {})


@dataclass(frozen=True)
class Request:
    """A whole request: method, path (without the query), query, headers (lower-case names; repeated
    ones joined with ``", "``), body and the client's address."""

    method: str
    path: str
    query: str
    headers: Mapping[str, str]
    body: bytes
    peer: str

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())

    def json(self) -> Any:
        """The body as JSON (a 400 :class:`HttpError` if it is not)."""
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise HttpError(400, "bad_json", _("the body is not JSON")) from None


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes = b""
    content_type: Optional[str] = None
    headers: Tuple[Tuple[str, str], ...] = ()

    @classmethod
    def json(cls, value: JSON, status: int = 200, headers: Iterable[Tuple[str, str]] = ()) -> "Response":
        body = json.dumps(value, separators=(",", ":")).encode()
        return cls(status, body, "application/json", (("Cache-Control", "no-store"), *headers))

    @classmethod
    def error(cls, error: HttpError) -> "Response":
        return cls.json({**error.details, "error": error.code, "message": error.message}, error.status, error.headers)


@dataclass(frozen=True)
class StaticFile:
    """A file served from memory: its bytes, its type, and its ETag (:func:`static_file`)."""

    body: bytes
    content_type: str
    etag: str


def static_file(body: bytes, content_type: str) -> StaticFile:
    """``body`` to serve as ``content_type``, with an ETag from its digest."""
    return StaticFile(body, content_type, '"' + hashlib.sha256(body).hexdigest()[:16] + '"')


def load_files(directory: Path, table: Mapping[str, Tuple[str, str]]) -> Dict[str, StaticFile]:
    """Read the files of ``table`` (URL path -> (file in ``directory``, type)) once (the server never touches
    the disk for a request)."""
    return {path: static_file((directory / name).read_bytes(), kind) for path, (name, kind) in table.items()}


def serve_file(file: StaticFile, request: Request) -> Response:
    """``file`` as the answer to ``request`` (304 if its ``If-None-Match`` is the file's ETag)."""
    headers = (("ETag", file.etag), ("Cache-Control", "no-cache"))
    if request.header("if-none-match") == file.etag:
        return Response(304, headers=headers)
    return Response(200, file.body, file.content_type, headers)


@dataclass
class StreamReply:
    """Keep the connection open after these headers (status 200); ``opened`` gets the :class:`Stream`."""

    content_type: str
    opened: Callable[["Stream"], object]
    headers: Tuple[Tuple[str, str], ...] = (("Cache-Control", "no-store"),)


@dataclass
class UpgradeReply:
    """Switch the connection to ``protocol`` (``101 Switching Protocols``, for a request that asked
    for it with ``Upgrade:``); ``opened`` gets the :class:`Link`, before any line is delivered."""

    protocol: str
    opened: Callable[["Link"], object]


Reply = Union[Response, StreamReply, UpgradeReply]


@dataclass(frozen=True)
class Route:
    """``method path`` -> ``handle``.  ``changes``: the request changes something (a press, a seat):
    it must send JSON, and its ``Origin``, if any, must be the page's own.  A path ending in ``/*``
    (``/review/*``) takes every path one non-empty segment below it (``/review/12``), where no route
    has that exact path; the handler reads the segment from :attr:`Request.path`."""

    method: str
    path: str
    handle: Callable[[Request], Reply]
    changes: bool = False


def wildcard(path: str) -> str:
    """The ``/*`` route that would take ``path`` (``/review/12`` -> ``/review/*``); ``""`` if none could."""
    parent, _slash, last = path.rpartition("/")
    return f"{parent}/*" if parent and last else ""


def lan_host(host: str) -> bool:
    """True for a ``Host`` header naming this machine on a LAN: an IP address, a name without dots
    (``raspberrypi``, ``localhost``) or one ending in :data:`LAN_SUFFIXES`; with or without a port.

    A public name is refused: a page on another site whose name was pointed at this address
    (DNS rebinding) could otherwise talk to us as if it were our own page."""
    name = host.strip().lower()
    if name.startswith("["):                     # [v6]:port
        end = name.find("]")
        rest = name[end + 1:] if end > 0 else None
        if rest is None or (rest and not _port(rest)):
            return False
        try:
            ipaddress.IPv6Address(name[1:end])
        except ValueError:
            return False
        return True
    if name.count(":") == 1:
        name, port = name.split(":")
        if not _port(":" + port):
            return False
    try:
        ipaddress.IPv4Address(name)
        return True
    except ValueError:
        pass
    labels = name_labels(name)
    if labels is None:
        return False
    return len(labels) == 1 or any(("." + ".".join(labels)).endswith(suffix) for suffix in LAN_SUFFIXES)


def _port(text: str) -> bool:
    return text.startswith(":") and text[1:].isdigit() and len(text) <= 6 and 0 < int(text[1:]) < 65536


def check_origin(request: Request) -> None:
    """Refuse (403 ``origin``) a request another site's page sent: an ``Origin`` other than
    ``http://`` or ``https://`` + this ``Host``, or ``Sec-Fetch-Site`` other than ``same-origin``
    or ``none``.  Without those headers (curl, a script, another Pi) it passes: browsers send
    ``Origin`` with every POST, so a cross-site page cannot leave it out."""
    host = request.header("host") or ""
    origin = request.header("origin")
    if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
        raise HttpError(403, "origin", _("requests from {origin} are not accepted here").format(origin=origin))
    site = request.header("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HttpError(403, "origin", _("requests from a {site} page are not accepted here").format(site=site))


def address_of(peer: object) -> str:
    """The client's address alone (``::ffff:1.2.3.4`` as ``1.2.3.4``)."""
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer)
    return host[7:] if host.startswith("::ffff:") else host


@dataclass
class Counts:
    """Connections open now: all, per address, streams (of them, trusted addresses') and links."""

    total: int = 0
    streams: int = 0
    trusted_streams: int = 0
    links: int = 0
    by_address: Dict[str, int] = field(default_factory=dict)


IDLE, DRIPPING, DEAF, FRESH, PARTIAL, STREAM = range(6)
"""How readily a connection gives way to a new one when the slots are all taken, first to last (a
stranger's; a trusted address's never gives way to a stranger's): waiting for a request for longer than
:attr:`Limits.fresh_seconds`, with nothing of one received (:data:`IDLE`) or part of one (:data:`DRIPPING`);
its client reading none of its answers or over its rate (:data:`DEAF`); connected or answered within
:attr:`Limits.fresh_seconds`, nothing received (:data:`FRESH`) or part of a request (:data:`PARTIAL`);
and, only for a trusted address's new connection, a stranger's event stream (:data:`STREAM`).  A
connection whose request has reached the machine (read, or waiting in the kernel to be read) and is not
yet answered never gives way: every request read is answered (but a request dripping for longer than
:attr:`Limits.fresh_seconds` is a slow client's, or a slowloris': its next bytes do not save it)."""


class HttpServer:
    """The routes, the limits and the connections of one server (in one event loop).

    ``trusted(address)`` says whether an address is one the game knows (a seated phone's, the LAN
    guest's): its connections never give way to others', and it may take a stream's place.
    """

    def __init__(self, routes: Iterable[Route], limits: Limits = Limits(), *,
                 clock: Callable[[], float] = lambda: asyncio.get_running_loop().time(),
                 trusted: Callable[[str], bool] = lambda address: False) -> None:
        self.limits = limits
        self.routes: Dict[str, Dict[str, Route]] = {}
        for route in routes:
            self.routes.setdefault(route.path, {})[route.method] = route
        self.counts = Counts()
        self.connections: "set[Connection]" = set()
        self.refusing: "set[Connection]" = set()
        """Connections refused (their 503 sent), read until they close (:attr:`Limits.refusing`)."""
        self.rates: RateTable[str] = RateTable(limits.requests_per_second, limits.request_burst,
                                               clock=lambda: clock())
        self.trusted = trusted
        self.evicted = 0
        """Connections closed to make room for newer ones."""
        self.refused = 0
        """Connections refused for want of room (answered 503)."""
        self.read_buffer = bytearray(limits.read_bytes)
        """Where every connection's reads land (each is taken out at once: one buffer for all)."""
        self._servers: List[asyncio.AbstractServer] = []

    async def listen(self, host: Optional[str], port: int) -> List[Tuple[str, int]]:
        """Listen on ``host`` (``None``: every address, IPv4 and IPv6) and ``port`` (0: a free one);
        the addresses bound."""
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: Connection(self), host, port, reuse_address=True,
                                          backlog=128)
        self._servers.append(server)
        return [sock.getsockname()[:2] for sock in server.sockets]

    def close(self) -> None:
        """Stop listening; end every stream (its last chunk goes out) and close every connection."""
        for server in self._servers:
            server.close()
        for connection in list(self.connections):
            connection.finish()
        for connection in list(self.refusing):
            connection.abort()

    # -- what connections call -----------------------------------------------------

    def admit(self, connection: "Connection") -> bool:
        """Count ``connection`` in, making room for it if its address's slots or all the slots are taken
        (:meth:`room`); False if it is refused.  A trusted address's connection is never refused for the
        strangers': when none of theirs can give way, it comes in over :attr:`Limits.connections` (bounded by
        :attr:`Limits.per_address`)."""
        counts, limits = self.counts, self.limits
        trusted = self.trusted(connection.peer)
        if counts.by_address.get(connection.peer, 0) >= limits.per_address:
            own = self.room(connection.since, among=connection.peer) if trusted else None
            if own is None:
                return False
            self._evict(own)
        if counts.total >= limits.connections:
            room = self.room(connection.since, trusted=trusted)
            if room is not None:
                self._evict(room)
            elif not trusted:
                return False
            # else: a trusted address's connection comes in over the limit (its address's own limit bounds it)
        counts.total += 1
        counts.by_address[connection.peer] = counts.by_address.get(connection.peer, 0) + 1
        self.connections.add(connection)
        return True

    def room(self, now: float, *, trusted: bool = False, among: Optional[str] = None) -> Optional["Connection"]:
        """The connection to close for a new one at ``now``: a stranger's, the first by :data:`IDLE` ...
        :data:`PARTIAL` (and :data:`STREAM` for a ``trusted`` newcomer), the longest waiting first; only
        those of the address ``among`` if given (a trusted address making room among its own).  ``None``:
        none can give way."""
        trust: Dict[str, bool] = {}
        found: List[Tuple[int, float, Connection]] = []
        for other in self.connections:
            if among is not None:
                if other.peer != among:
                    continue
            else:
                known = trust.get(other.peer)
                if known is None:
                    known = trust[other.peer] = self.trusted(other.peer)
                if known:
                    continue
            rank = other.giving_way(now)
            if rank is not None and (rank != STREAM or (trusted and among is None)):
                found.append((rank, other.since, other))
        found.sort(key=lambda item: item[:2])
        for rank, _since, other in found:
            if rank in (IDLE, FRESH, PARTIAL) and other.arrived():
                continue    # its request is here, waiting to be read: it will be answered
            return other    # (a request dripping for longer than fresh_seconds is not one arriving)
        return None

    def _evict(self, connection: "Connection") -> None:
        self.evicted += 1
        self.release(connection)
        connection.give_way()

    def release(self, connection: "Connection") -> None:
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        counts = self.counts
        counts.total -= 1
        left = counts.by_address[connection.peer] - 1
        if left:
            counts.by_address[connection.peer] = left
        else:
            del counts.by_address[connection.peer]
        if connection.stream is not None:
            counts.streams -= 1
            if connection.trusted_stream:
                counts.trusted_streams -= 1
        if connection.link is not None:
            counts.links -= 1

    def over_rate(self, peer: str) -> Optional[int]:
        """Spend one of ``peer``'s requests (:attr:`Limits.requests_per_second`): ``None``, or if it has
        none, the whole seconds (at least 1) until it has one again."""
        if self.rates.take(peer):
            return None
        return max(1, round(self.rates.wait(peer)))

    def dispatch(self, request: Request) -> Reply:
        """The reply to ``request``: its route's, or an error (its rate is checked before: :meth:`over_rate`)."""
        try:
            if not lan_host(request.header("host") or ""):
                raise HttpError(403, "host", _("use this machine's address or local name (http://ADDRESS:PORT/)"))
            methods = self.routes.get(request.path) or self.routes.get(wildcard(request.path))
            if methods is None:
                raise HttpError(404, "not_found", _("nothing at {path}").format(path=request.path))
            route = methods.get(request.method) or (methods.get("GET") if request.method == "HEAD" else None)
            if route is None:
                allow = ", ".join(sorted(set(methods) | ({"HEAD"} if "GET" in methods else set())))
                raise HttpError(405, "method", _("{method} is not allowed here (only {allow})").format(
                    method=request.method, allow=allow),
                                headers=(("Allow", allow),))
            if route.changes:
                check_origin(request)
                kind = (request.header("content-type") or "").split(";")[0].strip().lower()
                if kind != "application/json":
                    raise HttpError(415, "content_type", _("send the body as application/json"))
            reply = route.handle(request)
            if request.method == "HEAD":   # the headers alone: nothing is opened (the connection sees to it)
                return reply
            if isinstance(reply, StreamReply) and self.counts.streams - self.counts.trusted_streams >= \
                    self.limits.streams and not self.trusted(request.peer):
                raise HttpError(503, "busy", _("too many watchers at once: try again later"),
                                headers=(("Retry-After", "10"),))
            if isinstance(reply, UpgradeReply) and self.counts.links >= self.limits.links:
                raise HttpError(503, "busy", _("too many links at once: try again later"),
                                headers=(("Retry-After", "10"),))
            return reply
        except HttpError as error:
            return Response.error(error)


def _headers(extra: Iterable[Tuple[str, str]]) -> List[Tuple[str, str]]:
    return [("Server", SERVER), *SECURITY_HEADERS, *extra]


CONTENT_LENGTH_DIGITS = 20
"""A longer ``Content-Length`` is malformed (h11 0.15+ says so itself; Debian 12's 0.14 does not)."""

RETRY_FULL, RETRY_ADDRESS = 2, 10
"""``Retry-After`` of a connection refused because every slot is taken (they turn over within seconds), and
because its address has :attr:`Limits.per_address` open."""


def refusal(full: bool) -> bytes:
    """The whole answer to a connection refused for want of room (``full``: every slot is taken; else its
    address's): 503 ``busy``, JSON as every refusal, ``Connection: close``."""
    body = json.dumps({"error": "busy", "message": _("too many connections at once: try again later") if full
                       else _("too many connections from this device at once: close some")}).encode()
    extra = [("Retry-After", str(RETRY_FULL if full else RETRY_ADDRESS)), ("Cache-Control", "no-store"),
             ("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Connection", "close")]
    return (b"HTTP/1.1 503 Service Unavailable\r\n" + b"".join(f"{name}: {value}\r\n".encode()
                                                              for name, value in _headers(extra)) + b"\r\n" + body)


class Stream:
    """A connection kept open after :class:`StreamReply`: the application writes to it.

    :attr:`behind` is true while the client has not read what was written (more than
    :attr:`Limits.stream_buffer` bytes wait); :attr:`caught_up` is called when it has, and
    :attr:`closed` once when the connection ends.
    """

    def __init__(self, connection: "Connection") -> None:
        self._connection = connection
        self.peer = connection.peer
        self.caught_up: Callable[[], None] = lambda: None
        self.closed: Callable[[], None] = lambda: None

    @property
    def behind(self) -> bool:
        return self._connection.paused

    @property
    def open(self) -> bool:
        return not self._connection.done

    def write(self, data: bytes) -> None:
        self._connection.send_data(data)

    def close(self) -> None:
        self._connection.finish()


class Link(Stream):
    """A connection switched to a protocol of lines (after :class:`UpgradeReply`): each side sends
    lines of at most :attr:`Limits.line_bytes` bytes, each ending in ``\\n``.

    The application sets :attr:`line` (called with each line received, without its ``\\n``),
    :attr:`too_long` (a line over the limit arrived: the link is closed after it returns), and, as
    for a :class:`Stream`, :attr:`caught_up` and :attr:`closed`; :attr:`behind` is as a stream's
    (behind for :attr:`Limits.stalled_seconds`, it is dropped).
    """

    def __init__(self, connection: "Connection") -> None:
        super().__init__(connection)
        self.line: Callable[[bytes], None] = lambda line: None
        self.too_long: Callable[[], None] = lambda: None
        self._buffer = bytearray()

    def write(self, data: bytes) -> None:
        """Write ``data`` as it is (no HTTP framing: the connection speaks the other protocol now)."""
        self._connection._write(data)

    def send(self, line: bytes) -> None:
        """Write one line (``\\n`` is added)."""
        self.write(line + b"\n")

    def abort(self) -> None:
        """Drop the connection now."""
        self._connection.abort()

    def _feed(self, data: bytes) -> None:
        limit = self._connection.limits.line_bytes
        self._buffer += data
        while self.open:
            end = self._buffer.find(b"\n", 0, limit + 1)
            if end < 0:
                if len(self._buffer) > limit:
                    self._buffer.clear()
                    self.too_long()
                    self.close()
                return
            line = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            self.line(line)


WRITING, TURN, RATE = "writing", "turn", "rate"
"""Why a connection is not read: its answers wait, its turn's requests are answered, it went over its rate."""


class Connection(asyncio.BufferedProtocol):
    """One client's TCP connection: requests in, responses out, within the limits."""

    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.limits = server.limits
        self.peer = "?"
        self.transport: Optional[asyncio.Transport] = None
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=self.limits.header_bytes)
        self.stream: Optional[Stream] = None
        self.link: Optional[Link] = None
        self.paused = False
        self.done = False
        self._head: Optional[h11.Request] = None
        self._body = bytearray()
        self._received = False
        self._chunked = True
        self._timer: Optional[asyncio.TimerHandle] = None
        self._stall: Optional[asyncio.TimerHandle] = None
        self._holds: Set[str] = set()
        """Why it is not read now (:data:`WRITING`, :data:`TURN`, :data:`RATE`); read when empty."""
        self._rate_timer: Optional[asyncio.TimerHandle] = None
        self._eof = False
        self._fd = -1
        self.trusted_stream = False
        """Its stream is a trusted address's (not counted against :attr:`Limits.streams`)."""
        self.since = 0.0
        """When it began to wait for its next request (its start, or its last answer): the longest
        waiting gives way first when the slots are all taken."""

    # -- asyncio.Protocol ------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.peer = address_of(transport.get_extra_info("peername"))
        self.since = asyncio.get_running_loop().time()
        sock = transport.get_extra_info("socket")
        self._fd = sock.fileno() if sock is not None else -1
        if not self.server.admit(self):
            self.server.refused += 1
            self._refuse(full=self.server.counts.by_address.get(self.peer, 0) < self.limits.per_address)
            return
        transport.set_write_buffer_limits(high=self.limits.send_buffer, low=self.limits.send_buffer // 4)
        if sock is not None:
            _tune(sock, self.limits.send_buffer)
        self._arm(self.limits.request_seconds)

    def _refuse(self, *, full: bool) -> None:
        """No room: the 503, our end closed, and what the client still sends read and thrown away until it
        closes (:attr:`Limits.linger_seconds` at most): closing with its request unread would reset the
        connection before it read its answer."""
        assert self.transport is not None
        self.done = True
        self._disarm()
        self.transport.write(refusal(full))
        if len(self.server.refusing) >= self.limits.refusing:
            self.transport.close()
            return
        self.server.refusing.add(self)
        self.transport.write_eof()
        self._timer = asyncio.get_running_loop().call_later(self.limits.linger_seconds, self.abort)

    # -- giving way to a new connection ---------------------------------------------------

    def giving_way(self, now: float) -> Optional[int]:
        """How readily it gives way to a new connection at ``now`` (:data:`IDLE` first ... :data:`STREAM`), or
        ``None``: never (a link; its requests being answered in turn)."""
        if self.done or self.link is not None or TURN in self._holds:
            return None
        if self.stream is not None:
            return STREAM
        if WRITING in self._holds or RATE in self._holds:
            return DEAF
        begun = self._received or bool(self.h11.trailing_data[0])
        if now - self.since < self.limits.fresh_seconds:
            return PARTIAL if begun else FRESH
        return DRIPPING if begun else IDLE

    def arrived(self) -> bool:
        """Bytes from the client wait in the kernel to be read (its request has come: it will be answered)."""
        if self._fd < 0:
            return False
        try:
            waiting: int = struct.unpack("i", fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return False
        return waiting > 0

    def give_way(self) -> None:
        """Close for a newer connection: at once when its client reads nothing (what waits for it would hold
        the connection); a stream with its last chunk; a connection waiting for a request with a 503
        (:meth:`_refuse`: its request may be on its way, and is then answered, never cut off unanswered)."""
        if self.paused or self._holds:
            self.abort()
        elif self.stream is None and self.link is None and self.h11.our_state is h11.IDLE \
                and self.transport is not None:
            self._refuse(full=True)
        else:
            self.finish()

    def get_buffer(self, sizehint: int) -> bytearray:
        return self.server.read_buffer

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(self.server.read_buffer[:nbytes]))

    def data_received(self, data: bytes) -> None:
        if self.done:
            return
        if self.stream is not None:
            return  # a stream's client has nothing more to say; what it sends is ignored
        if self.link is not None:
            self.link._feed(data)
            return
        self._received = True
        self.h11.receive_data(data)
        self._process()

    def eof_received(self) -> Optional[bool]:
        """The client has sent all it will: its requests still waiting are answered, then we close."""
        self._eof = True
        if self.stream is None and self.link is None and not self.done:
            try:
                self.h11.receive_data(b"")
            except h11.RemoteProtocolError:
                pass
            self._process()
            return True   # open until they are answered (h11 then says ConnectionClosed: finish())
        return False  # close our side too

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.done = True
        self._disarm()
        self.server.refusing.discard(self)
        if self._stall is not None:
            self._stall.cancel()
        if self._rate_timer is not None:
            self._rate_timer.cancel()
        self.server.release(self)
        if self.stream is not None:
            stream, self.stream = self.stream, None
            stream.closed()
        if self.link is not None:
            link = self.link
            link.closed()

    def pause_writing(self) -> None:
        self.paused = True
        if self._stall is None and self.transport is not None:
            self._stall = asyncio.get_running_loop().call_later(self.limits.stalled_seconds, self.abort)
        if self.stream is None and self.link is None:
            self._hold(WRITING)   # its answers wait: read nothing more until they have gone

    def resume_writing(self) -> None:
        self.paused = False
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if WRITING in self._holds:
            self._release(WRITING)
        if self.stream is not None:
            self.stream.caught_up()
        if self.link is not None:
            self.link.caught_up()

    # -- reading or not ----------------------------------------------------------------

    def _hold(self, reason: str) -> None:
        """Stop reading for ``reason`` (until :meth:`_release`)."""
        if not self._holds and self.transport is not None and not self._eof:
            self.transport.pause_reading()
        self._holds.add(reason)

    def _release(self, reason: str) -> None:
        """``reason`` no longer holds: if nothing else does, read again, starting with what waits in h11."""
        self._holds.discard(reason)
        if self._holds or self.done:
            return
        if self.transport is not None and not self._eof:
            self.transport.resume_reading()
        asyncio.get_running_loop().call_soon(self._process)

    def _rate_held(self, seconds: float) -> None:
        self._hold(RATE)
        self._rate_timer = asyncio.get_running_loop().call_later(seconds, self._rate_over)

    def _rate_over(self) -> None:
        self._rate_timer = None
        self._release(RATE)

    # -- requests --------------------------------------------------------------------

    def _process(self) -> None:
        answered = 0
        while not self.done and self.stream is None and self.link is None and not self._holds:
            try:
                event = self.h11.next_event()
            except h11.RemoteProtocolError as exc:
                self._fail(exc.error_status_hint, "bad_request", _("malformed request: {why}").format(why=exc))
                return
            except ValueError:  # h11 before 0.15 (Debian 12's): a Content-Length past Python's 4300 digits
                self._fail(400, "bad_request", _("malformed request: bad Content-Length"))
                return
            if event is h11.NEED_DATA:
                return
            if event is h11.PAUSED:
                if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
                    self.h11.start_next_cycle()
                    continue
                return
            if isinstance(event, h11.Request):
                self._head = event
                self._body.clear()
                refusal = self._refusal(event)
                if refusal is not None:
                    self._fail(*refusal)
                    return
            elif isinstance(event, h11.Data):
                self._body += event.data
                if len(self._body) > self.limits.body_bytes:
                    self._fail(413, "too_large", _("the body may hold at most {n} bytes").format(n=self.limits.body_bytes))
                    return
            elif isinstance(event, h11.EndOfMessage):
                self._answer()
                answered += 1
                if answered >= self.limits.requests_per_turn and not self.done:
                    self._hold(TURN)   # the others' turn: the rest of its requests wait for the next one
                    asyncio.get_running_loop().call_soon(self._release, TURN)
                    return
            elif isinstance(event, h11.ConnectionClosed):
                self.finish()
                return

    def _refusal(self, head: h11.Request) -> Optional[Tuple[int, str, str]]:
        """Why a request head is refused before its body is read (``None``: it is not)."""
        size = len(head.method) + len(head.target) + 12 + sum(len(n) + len(v) + 4 for n, v in head.headers)
        if size > self.limits.header_bytes:
            return 431, "headers_too_large", _("the request line and headers may hold at most {n} bytes").format(
                n=self.limits.header_bytes)
        if head.http_version not in (b"1.0", b"1.1"):
            return 505, "version", _("this server speaks HTTP/1.1")
        names = [name for name, _value in head.headers]
        if b"transfer-encoding" in names and b"content-length" in names:   # a smuggling attempt: refuse both
            return 400, "bad_request", _("Transfer-Encoding and Content-Length together")
        length = dict(head.headers).get(b"content-length")
        if length is not None and len(length) > CONTENT_LENGTH_DIGITS:  # as h11 0.15+ itself refuses
            return 400, "bad_request", _("malformed request: bad Content-Length")
        if length is not None and int(length) > self.limits.body_bytes:
            return 413, "too_large", _("the body may hold at most {n} bytes").format(n=self.limits.body_bytes)
        return None

    def _answer(self) -> None:
        head = self._head
        assert head is not None
        target = head.target.decode("ascii", "replace")
        path, _mark, query = target.partition("?")
        headers: Dict[str, str] = {}
        for name, value in head.headers:
            key = name.decode("ascii", "replace")
            text = value.decode("latin-1")
            headers[key] = f"{headers[key]}, {text}" if key in headers else text
        request = Request(head.method.decode("ascii", "replace").upper(), path, query, headers,
                          bytes(self._body), self.peer)
        wait = self.server.over_rate(self.peer)
        if wait is not None:   # answered, and not read again until its Retry-After has passed
            self._respond(Response.error(HttpError(429, "rate", _("too many requests: slow down"),
                                                   headers=(("Retry-After", str(wait)),))))
            self._rate_held(wait)
            return
        try:
            reply = self.server.dispatch(request)
        except Exception:  # a handler's bug must not take the server down
            log.exception("the web server's handler for %s %s failed", request.method, request.path)
            reply = Response.error(HttpError(500, "internal", _("something went wrong on the game's side")))
        head_only = request.method == "HEAD"
        if isinstance(reply, StreamReply) and head_only:   # the headers alone: no stream is opened
            self._respond(Response(200, b"", reply.content_type, reply.headers), head=True, length=False)
        elif isinstance(reply, UpgradeReply) and head_only:
            self._respond(Response.error(HttpError(400, "bad_request", _("ask with GET and Upgrade: {protocol}").format(
                protocol=reply.protocol))))
        elif isinstance(reply, StreamReply):
            self._open_stream(reply)
        elif isinstance(reply, UpgradeReply):
            self._switch(reply)
        else:
            self._respond(reply, head=head_only)

    def _respond(self, response: Response, *, head: bool = False, close: bool = False, length: bool = True) -> None:
        extra = list(response.headers)
        if response.content_type:
            extra.append(("Content-Type", response.content_type))
        if length:
            extra.append(("Content-Length", str(len(response.body))))
        if close:
            extra.append(("Connection", "close"))
        try:
            out = self.h11.send(h11.Response(status_code=response.status, headers=_headers(extra),
                                             reason=_reason(response.status)))
            if response.body and not head:
                out = (out or b"") + (self.h11.send(h11.Data(data=response.body)) or b"")
            out = (out or b"") + (self.h11.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:
            self.abort()
            return
        self._write(out)
        if self.h11.our_state is h11.MUST_CLOSE or close:
            self.finish()
            return
        self._received = False
        self.since = asyncio.get_running_loop().time()
        self._arm(self.limits.request_seconds)

    def _fail(self, status: int, code: str, message: str) -> None:
        """Answer a request we will not read to its end, then close."""
        if self.h11.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            self._respond(Response.error(HttpError(status, code, message)), close=True)
        else:
            self.finish()

    def _open_stream(self, reply: StreamReply) -> None:
        self._disarm()
        extra = [("Content-Type", reply.content_type), *reply.headers]
        try:
            out = self.h11.send(h11.Response(status_code=200, headers=_headers(extra), reason=b"OK"))
        except h11.LocalProtocolError:
            self.abort()
            return
        self.stream = Stream(self)
        self._chunked = self._head is not None and self._head.http_version == b"1.1"
        self.server.counts.streams += 1
        self.trusted_stream = self.server.trusted(self.peer)
        self.server.counts.trusted_streams += self.trusted_stream
        assert self.transport is not None
        self.transport.set_write_buffer_limits(high=self.limits.stream_buffer, low=self.limits.stream_buffer // 4)
        _send_buffer(self.transport, self.limits.stream_buffer)   # a client that reads nothing holds little memory
        self._write(out)
        reply.opened(self.stream)

    def _switch(self, reply: UpgradeReply) -> None:
        """``101 Switching Protocols``, then the connection is a :class:`Link` (what the client sent
        after its request is its first data)."""
        if self.h11.their_state is not h11.MIGHT_SWITCH_PROTOCOL:
            self._respond(Response.error(HttpError(400, "bad_request", _("ask for Upgrade: {protocol}").format(
                protocol=reply.protocol))))
            return
        self._disarm()
        try:
            out = self.h11.send(h11.InformationalResponse(
                status_code=101, reason=b"Switching Protocols",
                headers=[("Server", SERVER), ("Upgrade", reply.protocol), ("Connection", "Upgrade")]))
        except h11.LocalProtocolError:
            self.abort()
            return
        data, closed = self.h11.trailing_data
        self.link = Link(self)
        self.server.counts.links += 1
        assert self.transport is not None
        self.transport.set_write_buffer_limits(high=self.limits.stream_buffer, low=self.limits.stream_buffer // 4)
        _send_buffer(self.transport, self.limits.stream_buffer)
        self._write(out)
        reply.opened(self.link)
        if data:
            self.link._feed(data)
        if closed:
            self.finish()

    # -- writing and closing ----------------------------------------------------------

    def send_data(self, data: bytes) -> None:
        """Part of a stream's body: framed here as a chunk (HTTP/1.1), or as it is (HTTP/1.0, which ends
        the body by closing), not by h11, so many streams sending the same event cost little."""
        if self.done or not data:
            return
        self._write(b"%x\r\n%b\r\n" % (len(data), data) if self._chunked else data)

    def _write(self, data: Optional[bytes]) -> None:
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def finish(self) -> None:
        """Close once what was written has gone (a stream ends with its last chunk)."""
        if self.done:
            return
        self.done = True
        self._disarm()
        if self.stream is not None and self.h11.our_state is h11.SEND_BODY:
            try:
                self._write(self.h11.send(h11.EndOfMessage()))
            except h11.LocalProtocolError:
                pass
        if self.transport is not None:
            self.transport.close()

    def abort(self) -> None:
        """Drop the connection now (what was not sent is thrown away)."""
        self.done = True
        self._disarm()
        if self.transport is not None:
            self.transport.abort()

    # -- the request timer --------------------------------------------------------------

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = asyncio.get_running_loop().call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        self._timer = None
        if self.done or self.stream is not None or self.link is not None:
            return
        if self._received:   # a request began and did not finish in time
            if self.h11.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                self._respond(Response.error(HttpError(408, "timeout", _("the request took too long"))), close=True)
                return
        self.finish()          # an idle connection between requests: just close it


def _reason(status: int) -> bytes:
    try:
        return http.HTTPStatus(status).phrase.encode()
    except ValueError:
        return b""


def _send_buffer(transport: asyncio.Transport, size: int) -> None:
    """The kernel's send buffer of ``transport``'s socket (where it can be set)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        except OSError:
            pass


def _tune(sock: socket.socket, send_buffer: int) -> None:
    """No Nagle delay (frames go out at once); a small send buffer (answers a client does not read
    stop its connection being read soon); find dead peers: keepalive probes after 30 s idle,
    and unacknowledged data given up after 30 s (a client that vanished without closing)."""
    options = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1), (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
               (socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)]
    for name, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", 30000)):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        try:
            sock.setsockopt(level, option, value)
        except OSError:
            pass
