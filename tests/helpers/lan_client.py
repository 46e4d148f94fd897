"""A LAN-protocol client for the tests: a real socket on loopback that asks for the upgrade and then
sends and reads lines exactly as given (so a test can send what no real guest would)."""
from __future__ import annotations

import json
import select
import socket
import threading
import time
from typing import Any, List, Optional, Tuple

from web_client import LOOPBACK, connect

from gamelib.lan import protocol as p
from gamelib.web.limits import Limits


class LanClient:
    """One connection to ``/api/lan`` on loopback (from ``source``, another loopback address)."""

    def __init__(self, port: int, *, source: Optional[str] = None, upgrade: str = p.PROTOCOL,
                 headers: str = "", ping: bool = False) -> None:
        self.sock = connect(port, source=source)
        self.buffer = b""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        request = (f"GET {p.PATH} HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nConnection: Upgrade\r\n"
                   f"Upgrade: {upgrade}\r\n{headers}\r\n")
        self.sock.sendall(request.encode())
        self.status, self.head = self._head()
        if ping:   # as a real guest does: a ping when it has nothing else to say, so the host hears it is there
            threading.Thread(target=self._ping, daemon=True).start()

    def _ping(self) -> None:
        while not self._stop.wait(0.2):
            try:
                self.send({"type": "ping"})
            except OSError:
                return

    def _head(self) -> Tuple[int, str]:
        deadline = time.monotonic() + 10
        while b"\r\n\r\n" not in self.buffer and time.monotonic() < deadline:
            chunk = self._recv(deadline - time.monotonic())
            if not chunk:
                break
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        text = head.decode("latin-1")
        status = int(text[9:12]) if text.startswith("HTTP/1.1 ") else 0
        return status, text

    def _recv(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            return self.sock.recv(65536)
        except (ConnectionResetError, OSError):
            return b""

    def send(self, message: Any) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        with self._lock:
            self.sock.sendall(data)

    def hello(self, name: str = "Ann", token: Optional[str] = None, **more: Any) -> None:
        self.send({"type": "hello", "version": p.VERSION, "game": "connect4", "name": name, "token": token, **more})

    def recv(self, timeout: float = 10.0, *, skip: Tuple[str, ...] = ("ping",)) -> Optional[dict]:
        """The next message (``None`` once the host closed, or after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            if b"\n" in self.buffer:
                line, _, self.buffer = self.buffer.partition(b"\n")
                message = json.loads(line)
                if message["type"] in skip:
                    continue
                return message
            chunk = self._recv(deadline - time.monotonic())
            if not chunk:
                return None
            self.buffer += chunk

    def until(self, kind: str, timeout: float = 10.0) -> dict:
        """Read until a message of ``kind`` (frames and words on the way are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.0, deadline - time.monotonic()))
            assert message is not None, f"closed (or nothing) before a {kind}"
            if message["type"] == kind:
                return message

    def closed(self, timeout: float = 10.0) -> List[dict]:
        """Everything until the host closes (fails if it does not within ``timeout``)."""
        got = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.recv(deadline - time.monotonic())
            if message is None:
                return got
            got.append(message)
        raise AssertionError(f"the host did not close the link; it sent {got}")

    def close(self) -> None:
        self._stop.set()
        self.sock.close()

    def __enter__(self) -> "LanClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def raw_lan(port: int, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send ``data`` on a fresh connection; everything answered until close."""
    sock = socket.create_connection((LOOPBACK, port), timeout=wait)
    try:
        sock.sendall(data)
        got = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sock], [], [], deadline - time.monotonic())
            if not ready:
                break
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
        return got
    finally:
        sock.close()


LIMITS = Limits(hello_seconds=1.0, ping_seconds=0.2, silent_seconds=1.5, consent_seconds=2.0, refused_seconds=2.0,
                away_seconds=2.0, links=4)
