"""A fake LAN host for the tests: a real server on loopback that takes a guest's upgrade (``GET /api/lan``,
``Upgrade: gamelib-lan/1``) as docs/API.md says and then sends exactly what the test gives it, hostile
lines included, so a real guest (:class:`~gamelib.lan.guest.GuestLink`, or ``sensehat-c4 --join``) can be
probed as another Pi could probe it.  The counterpart of :mod:`lan_client` (a fake guest).

Each connection is one :class:`HostLink`: :meth:`FakeHost.link` waits for the next, answers it (``101``,
or the raw ``answer`` given) and reads its ``hello``.  Messages go out as dicts (JSON) or as raw bytes (a
line no real host would send)."""
from __future__ import annotations

import json
import select
import socket
import time
from typing import Any, Dict, List, Optional

from gamelib.lan import protocol as p

TOKEN = "T" * 32
"""A well-formed token for the fake host's ``welcome``."""

SWITCH = (b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + p.PROTOCOL.encode() +
          b"\r\n\r\n")


class HostLink:
    """One guest's connection to the fake host, after the switch: its ``hello``, and what to send it."""

    def __init__(self, sock: socket.socket, rest: bytes) -> None:
        self.sock = sock
        self.buffer = rest
        self.hello: Optional[Dict[str, Any]] = None

    def send(self, message: Any) -> None:
        """A message (a dict, sent as one line of JSON) or raw bytes, exactly as given."""
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.sock.sendall(data)

    def welcome(self, host: str = "Bob", *, seat: int = 2, token: str = TOKEN, resumed: bool = False) -> None:
        self.send({"type": "welcome", "token": token, "seat": seat, "host": host, "resumed": resumed})

    def frame(self, pixels: List[Any], seq: int = 1) -> None:
        self.send({"type": "frame", "seq": seq, "pixels": [list(pixel) for pixel in pixels]})

    def state(self, **status: Any) -> None:
        self.send({"type": "state", "status": {"phase": "playing", "text": "", "caption": None, **status}})

    def game(self, data: Dict[str, Any]) -> None:
        self.send({"type": "game", "data": data})

    def end(self, reason: str = "quit", message: str = "Bob quit") -> None:
        self.send({"type": "end", "reason": reason, "message": message})

    def refused(self, reason: str = "refused", message: str = "Bob said no") -> None:
        self.send({"type": "refused", "reason": reason, "message": message})

    def recv(self, timeout: float = 10.0, *, skip: tuple = ("ping",)) -> Optional[Dict[str, Any]]:
        """The guest's next message (``None`` once it closed, or after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            if b"\n" in self.buffer:
                line, _, self.buffer = self.buffer.partition(b"\n")
                message = json.loads(line)
                if message.get("type") in skip:
                    continue
                return message
            chunk = _recv(self.sock, deadline - time.monotonic())
            if not chunk:
                return None
            self.buffer += chunk

    def closed(self, timeout: float = 10.0) -> List[Dict[str, Any]]:
        """Everything the guest sends until it closes (fails if it does not within ``timeout``)."""
        got = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.recv(deadline - time.monotonic())
            if message is None:
                return got
            got.append(message)
        raise AssertionError(f"the guest did not close the link; it sent {got}")

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def _recv(sock: socket.socket, timeout: float) -> bytes:
    ready, _, _ = select.select([sock], [], [], max(0.0, timeout))
    if not ready:
        return b""
    try:
        return sock.recv(65536)
    except OSError:
        return b""


class FakeHost:
    """A listening socket on loopback (or, ``in_namespace``, on an address of a network namespace the test
    made); each guest that connects is answered by :meth:`link`."""

    def __init__(self, address: str = "127.0.0.1", *, in_namespace: bool = False) -> None:
        assert address.startswith("127.") or in_namespace, "loopback, or a network namespace the test made"
        self.server = socket.create_server((address, 0))
        self.address = address
        self.port = self.server.getsockname()[1]
        self.links: List[HostLink] = []

    def link(self, *, answer: Optional[bytes] = None, timeout: float = 20.0) -> HostLink:
        """The next guest's connection: its request read, then ``101`` and its ``hello`` read; or, with
        ``answer``, those bytes sent instead of ``101`` (then the connection is closed)."""
        self.server.settimeout(timeout)
        sock, _ = self.server.accept()
        sock.settimeout(None)
        head = b""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in head:
            chunk = _recv(sock, deadline - time.monotonic())
            assert chunk, f"the guest sent no whole request: {head!r}"
            head += chunk
        request, _, rest = head.partition(b"\r\n\r\n")
        assert request.startswith(b"GET " + p.PATH.encode() + b" HTTP/1.1\r\n"), request
        assert b"upgrade: " + p.PROTOCOL.encode() in request.lower(), request
        link = HostLink(sock, rest)
        self.links.append(link)
        if answer is not None:
            sock.sendall(answer)
            sock.close()
            return link
        sock.sendall(SWITCH)
        link.hello = link.recv(timeout)
        assert link.hello is not None and link.hello["type"] == "hello", link.hello
        return link

    def close(self) -> None:
        for link in self.links:
            link.close()
        self.server.close()

    def __enter__(self) -> "FakeHost":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
