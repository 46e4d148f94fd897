"""HTTP clients for the web server's tests: real sockets, on loopback only; and the game's side a test serves (:class:`Console`).

``h11`` (the server's own parser, here on the client's side) reads the replies;
:func:`raw` sends bytes exactly as given, for the hostile requests.
"""
import contextlib
import json
import select
import socket
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import h11

from gamelib.palette import palette
from gamelib.seats import SeatTable
from gamelib.status import Status
from gamelib.web.address import Address
from gamelib.web.limits import Limits
from gamelib.web.server import WebServer

LOOPBACK = "127.0.0.1"


@dataclass
class Reply:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def connect(port: int, *, source: Optional[str] = None, timeout: float = 10.0,
            receive_buffer: Optional[int] = None) -> socket.socket:
    """A TCP connection to the server on loopback (from ``source``, another loopback address, if given;
    with a small receive window if ``receive_buffer`` is given: a slow phone)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    if source is not None:
        assert source.startswith("127."), "tests talk to loopback only"
        sock.bind((source, 0))
    sock.connect((LOOPBACK, port))
    return sock


class Client:
    """One keep-alive connection making requests one after another."""

    def __init__(self, port: int, *, source: Optional[str] = None, host: Optional[str] = None,
                 timeout: float = 10.0) -> None:
        self.port = port
        self.host = host or f"{LOOPBACK}:{port}"
        self.sock = connect(port, source=source, timeout=timeout)
        self.conn = h11.Connection(h11.CLIENT)

    def request(self, method: str, path: str, body: Optional[Any] = None,
                headers: Sequence[Tuple[str, str]] = (), *, raw_body: Optional[bytes] = None) -> Reply:
        data = raw_body if raw_body is not None else (b"" if body is None else json.dumps(body).encode())
        names = {name.lower() for name, _ in headers}
        head = [("Host", self.host), *headers]
        if body is not None and "content-type" not in names:
            head.append(("Content-Type", "application/json"))
        if data or method == "POST":
            head.append(("Content-Length", str(len(data))))
        out = self.conn.send(h11.Request(method=method, target=path, headers=head))
        if data:
            out += self.conn.send(h11.Data(data=data))
        out += self.conn.send(h11.EndOfMessage())
        self.sock.sendall(out)
        reply = self._read()
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
        return reply

    def _read(self) -> Reply:
        status, headers, body = 0, {}, bytearray()
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                self.conn.receive_data(self.sock.recv(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
                headers = {k.decode().lower(): v.decode("latin-1") for k, v in event.headers}
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                return Reply(status, headers, bytes(body))

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def call(port: int, method: str, path: str, body: Optional[Any] = None,
         headers: Sequence[Tuple[str, str]] = (), **options: Any) -> Reply:
    """One request on a connection of its own."""
    with Client(port, **options) as client:
        return client.request(method, path, body, headers)


def post(port: int, path: str, body: Any, **options: Any) -> Reply:
    return call(port, "POST", path, body, **options)


def raw(port: int, data: bytes, *, wait: float = 5.0, source: Optional[str] = None) -> bytes:
    """Send ``data`` as it is; what the server answers until it closes (or ``wait`` runs out)."""
    sock = connect(port, source=source, timeout=wait)
    try:
        sock.sendall(data)
        return read_until_closed(sock, wait)
    finally:
        sock.close()


def read_until_closed(sock: socket.socket, wait: float) -> bytes:
    got = bytearray()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        got += chunk
    return bytes(got)


def status_of(answer: bytes) -> int:
    """The status code of a raw answer (0 if there is none)."""
    if not answer.startswith(b"HTTP/1.1 "):
        return 0
    return int(answer[9:12])


class Events:
    """``GET /api/events``: the Server-Sent Events as ``(kind, data)``."""

    def __init__(self, port: int, *, source: Optional[str] = None, path: str = "/api/events",
                 headers: Sequence[Tuple[str, str]] = ()) -> None:
        self.sock = connect(port, source=source)
        self.conn = h11.Connection(h11.CLIENT)
        self.sock.sendall(self.conn.send(h11.Request(method="GET", target=path,
                                                     headers=[("Host", f"{LOOPBACK}:{port}"), *headers]))
                          + self.conn.send(h11.EndOfMessage()))
        self.status = 0
        self.headers: Dict[str, str] = {}
        self._text = ""
        self.retry: Optional[int] = None
        self.comments = 0
        self.ended = False
        while not self.status:
            self._pump(10.0)

    def _pump(self, timeout: float) -> bool:
        """Read what has come (waiting up to ``timeout``); False if nothing did."""
        try:
            return self._read(timeout)
        except h11.RemoteProtocolError:   # cut off mid-stream (the server stopped)
            self.ended = True
            return False

    def _read(self, timeout: float) -> bool:
        event = self.conn.next_event()
        while event is h11.NEED_DATA:
            ready, _, _ = select.select([self.sock], [], [], timeout)
            if not ready:
                return False
            data = self.sock.recv(65536)
            self.conn.receive_data(data)
            if not data:
                self.ended = True
            event = self.conn.next_event()
        if isinstance(event, h11.Response):
            self.status = event.status_code
            self.headers = {k.decode().lower(): v.decode("latin-1") for k, v in event.headers}
        elif isinstance(event, h11.Data):
            self._text += event.data.decode()
        elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
            self.ended = True
        return True

    def _parsed(self) -> Iterator[Tuple[str, Any]]:
        while "\n\n" in self._text:
            block, self._text = self._text.split("\n\n", 1)
            kind, data = "message", None
            for line in block.split("\n"):
                if line.startswith(":"):
                    self.comments += 1
                elif line.startswith("retry: "):
                    self.retry = int(line[7:])
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
            if data is not None:
                yield kind, data

    def next(self, timeout: float = 10.0) -> Optional[Tuple[str, Any]]:
        """The next event, or ``None`` if none came within ``timeout`` (or the stream ended)."""
        deadline = time.monotonic() + timeout
        while True:
            for item in self._parsed():
                return item
            left = deadline - time.monotonic()
            if left <= 0 or self.ended or not self._pump(left):
                return None

    def until(self, test, timeout: float = 10.0) -> List[Tuple[str, Any]]:
        """Events up to and including the first that passes ``test(kind, data)`` (AssertionError if none does)."""
        seen: List[Tuple[str, Any]] = []
        deadline = time.monotonic() + timeout
        while True:
            item = self.next(max(0.0, deadline - time.monotonic()))
            assert item is not None, f"no such event within {timeout} s (saw {[k for k, _ in seen]})"
            seen.append(item)
            if test(*item):
                return seen

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> "Events":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Spectators:
    """``count`` event streams at once, each from its own loopback address (127.0.0.2, .3 ...), read by one
    thread: every frame's number, and the last frame and state each one got."""

    def __init__(self, port: int, count: int, *, first: int = 2, times: bool = False) -> None:
        import selectors
        import threading

        self.selector = selectors.DefaultSelector()
        self.streams = []
        for n in range(count):
            sock = connect(port, source=f"127.0.0.{first + n}")
            conn = h11.Connection(h11.CLIENT)
            sock.sendall(conn.send(h11.Request(method="GET", target="/api/events",
                                               headers=[("Host", f"{LOOPBACK}:{port}")]))
                         + conn.send(h11.EndOfMessage()))
            sock.setblocking(False)
            stream = {"sock": sock, "conn": conn, "text": "", "seqs": [], "frame": None, "state": None,
                      "status": 0, "ended": False, "times": {} if times else None}
            self.streams.append(stream)
            self.selector.register(sock, selectors.EVENT_READ, stream)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(0.1):
                stream = key.data
                try:
                    data = stream["sock"].recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                stream["conn"].receive_data(data)
                stream["now"] = time.monotonic()
                if not data:
                    stream["ended"] = True
                    self.selector.unregister(stream["sock"])
                self._events(stream)

    @staticmethod
    def _events(stream: Dict[str, Any]) -> None:
        while True:
            try:
                event = stream["conn"].next_event()
            except h11.RemoteProtocolError:
                stream["ended"] = True
                return
            if event is h11.NEED_DATA or event is h11.PAUSED:
                break
            if isinstance(event, h11.Response):
                stream["status"] = event.status_code
            elif isinstance(event, h11.Data):
                stream["text"] += event.data.decode()
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                stream["ended"] = True
                break
        while "\n\n" in stream["text"]:
            block, stream["text"] = stream["text"].split("\n\n", 1)
            kind = data = None
            for line in block.split("\n"):
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
            if kind == "frame":
                stream["seqs"].append(data["seq"])
                stream["frame"] = data["pixels"]
                if stream["times"] is not None:
                    stream["times"][data["seq"]] = stream["now"]
            elif kind == "state":
                stream["state"] = data

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)
        for stream in self.streams:
            stream["sock"].close()
        self.selector.close()


class Console:
    """The game's side as the server sees it, recording what it is asked."""

    def __init__(self) -> None:
        self.seats = SeatTable()
        self.palette = palette()   # the palette the LEDs show (a test may change it, as the launcher's menu does)
        self.presses = []
        self.pins = []
        self.pairings = []
        self.seated = []
        self.notes = []
        self.accept = True

    def press(self, direction, source):
        self.presses.append((direction, source))
        return self.accept

    def show_pin(self, pin):
        self.pins.append(pin)

    def show_pairing(self, pin):
        self.pairings.append(pin)

    def show_seated(self, seat):
        self.seated.append(seat)

    def note(self, text):
        self.notes.append(text)


@contextlib.contextmanager
def served(**limits):
    console = Console()
    with WebServer(console, Address("127.0.0.1", 0), limits=Limits(**limits)) as server:
        yield server, console


def wait_for(test, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def frame(n):
    """A frame telling its number and every pixel's place: pixel i is (n, i, 255 - i)."""
    return [(n % 256, i, 255 - i) for i in range(64)]


def shown_pin(server, console, **options):
    """Ask for a PIN (from ``source``, if given) and read it where the LEDs would scroll it."""
    asked = len(console.pins)
    reply = post(server.port, "/api/pin", {}, **options)
    assert reply.status == 202 and reply.json() == {"shown": True, "seconds": 0}, reply.body
    wait_for(lambda: len(console.pins) > asked)
    return console.pins[-1]


MALFORMED = [
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(40) + b"\r\n\r\n",   # a TLS hello
    b"GET\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n",                                     # no Host
    b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
    b"POST /api/seat HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"POST /api/seat HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
    b"POST /api/seat HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"\r\n" * 5000, bytes(range(256)) * 4,
]


def said(turn=None, **details):
    """A game's words in a turn (gamelib.status.Status, the typed turn the press check reads)."""
    return Status("playing", "a test", None, details, turn=turn)
