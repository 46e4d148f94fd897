"""The web server's slots under a crowd of strangers from many addresses: a seated phone and a fresh client.

The whole program (``python -m sensehat_c4 --backend terminal --opponent human --web 127.0.0.1:0``) runs
in a pty; its terminal line gives the page's address and, once asked for, the PIN.  Everything
else happens on loopback, each client from a loopback address of its own (127.0.0.0/8):

- the phone (127.0.0.20) asks for a PIN, takes seat 1 (the first to move: on its turn, its page
  must keep its stream open) and opens its event stream with its token;
- the spectators: ``--streams`` event streams (default 160, the server's limit) from ``--addresses``
  addresses (default 7: 127.0.2.1 ...), opened until the server refuses one, all kept read;
- a grabber (127.0.3.1) asks for one more stream every 20 ms, keeping (and reading) each it gets;
- the phone closes its stream and opens it again, ``--reopen`` times (default 5), as a phone whose
  screen locks or a reload does: a refused one is tried again after 1 s, as the page does, for at
  most 40 s (the seat goes back to the stick 33 s after its page closed on its turn); then it presses;
- the churners (another process): ``--churners`` addresses (default 100: 127.1.0.1 ...) with
  ``--idle`` connections each (default 10) that send nothing and are opened again as soon as the
  server closes one, for the rest of the probe;
- meanwhile a fresh client (127.0.0.30) asks for ``GET /api/state`` ``--requests`` times (default 72),
  0.25 s apart, each on a new connection given 5 s; and the phone presses once a second.

It prints the phone's refusals, whether it kept its seat and its presses' answers, and the fresh
client's answers: 200, 503 (refused, with ``Retry-After``) and none (closed or reset without an
answer, or nothing within 5 s).

Usage: ``python benchmarks/web_crowd.py [--streams N] [--addresses N] [--reopen N] [--churners N] [--idle N]
[--requests N]``.  It prints figures; it asserts nothing (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import h11

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from emu_sandbox import child_env  # noqa: E402
from pty_terminal import PtyProgram  # noqa: E402
from web_client import LOOPBACK, Client, call, connect, post  # noqa: E402

PHONE, GRABBER, FRESH = "127.0.0.20", "127.0.3.1", "127.0.0.30"
NOTE = re.compile(r"web: http://127\.0\.0\.1:(\d+)/(?:  PIN (\d{4}))?")
EVENTS = b"GET /api/events%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def status_of(data: bytes) -> int:
    """The status code at the start of an answer (0: none)."""
    found = re.match(rb"HTTP/1\.[01] (\d{3}) ", data)
    return int(found.group(1)) if found else 0


class Streams:
    """Event streams kept read by one thread: those :meth:`open` got (200), each from its address."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.open_streams = 0
        self.ended = 0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def open(self, source: str, query: bytes = b"") -> Tuple[int, Optional[socket.socket]]:
        """Ask for a stream from ``source``: its status, and the socket if it is a stream (kept read here)."""
        try:
            sock = connect(self.port, source=source, timeout=5.0)
            sock.sendall(EVENTS % query)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                head += chunk
        except OSError:
            return 0, None
        status = status_of(head)
        if status != 200:
            sock.close()
            return status, None
        sock.setblocking(False)
        with self.lock:
            self.selector.register(sock, selectors.EVENT_READ)
            self.open_streams += 1
        return status, sock

    def drop(self, sock: socket.socket) -> None:
        with self.lock:
            try:
                self.selector.unregister(sock)
                self.open_streams -= 1
            except KeyError:
                pass
        sock.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                ready = self.selector.select(0) if self.selector.get_map() else []
            if not ready:
                time.sleep(0.01)
                continue
            for key, _ in ready:
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.ended += 1
                    self.drop(key.fileobj)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


def churn(port: int, churners: int, idle: int, seconds: float) -> None:
    """(The churners' process.)  ``idle`` connections from each of ``churners`` addresses that send nothing,
    each opened again as soon as the server closes it; print how often they were closed, as JSON."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    selector = selectors.DefaultSelector()
    counts = {"opened": 0, "closed": 0, "answered": 0, "failed": 0}

    def open_one(source: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            sock.connect_ex((LOOPBACK, port))
        except OSError:
            sock.close()
            counts["failed"] += 1
            return
        counts["opened"] += 1
        selector.register(sock, selectors.EVENT_READ, source)

    sources = [f"127.1.{n // 250}.{n % 250 + 1}" for n in range(churners)]
    for source in sources:
        for _ in range(idle):
            open_one(source)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for key, _ in selector.select(0.1):
            try:
                data = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                counts["answered"] += 1     # a 503 before the close: read on, the close follows
                continue
            counts["closed"] += 1
            selector.unregister(key.fileobj)
            key.fileobj.close()
            open_one(key.data)
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    print(json.dumps(counts), flush=True)


class Pumped:
    """The program's terminal read by a thread (the screen parsed while ``parse`` is set)."""

    def __init__(self, program: PtyProgram) -> None:
        self.program = program
        self.parse = True
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.parse:
                with self.lock:
                    self.program.pump(0.05)
            else:
                try:
                    os.read(self.program.master, 65536)
                except OSError:
                    time.sleep(0.05)

    def note(self) -> Optional[Tuple[int, Optional[str]]]:
        with self.lock:
            for line in self.program.screen.display:
                found = NOTE.search(line)
                if found:
                    return int(found.group(1)), found.group(2)
        return None

    def wait(self, test, what: str, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while True:
            found = self.note()
            if found is not None and test(found):
                return found
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {what} on the terminal")
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)


def fresh_request(port: int) -> str:
    """``GET /api/state`` on a new connection from :data:`FRESH`: ``200``, ``503``..., or ``none`` (closed or reset
    unanswered, or no answer within 5 s)."""
    try:
        with Client(port, source=FRESH, timeout=5.0) as client:
            status = client.request("GET", "/api/state").status
    except (OSError, h11.RemoteProtocolError):   # reset, timed out, or closed mid-answer
        return "none"
    return str(status) if status else "none"


def probe(args: argparse.Namespace) -> None:
    directory = tempfile.mkdtemp(prefix="c4crowd-")
    env = child_env(directory)
    env.update(TERM="xterm-256color", LANGUAGE="en")
    program = PtyProgram([sys.executable, "-m", "sensehat_c4", "--backend", "terminal", "--opponent", "human",
                          "--web", "127.0.0.1:0"], columns=60, lines=16, env=env)
    pumped = Pumped(program)
    streams: Optional[Streams] = None
    churners: Optional[subprocess.Popen] = None
    grabbing = threading.Event()
    grabbed: List[int] = []
    try:
        port, _pin = pumped.wait(lambda found: True, "web address")
        assert post(port, "/api/pin", {}, source=PHONE).status == 202
        pin = pumped.wait(lambda found: found[1] is not None, "PIN", timeout=30)[1]
        seated = post(port, "/api/seat", {"pin": pin, "seat": 1}, source=PHONE)
        token = seated.json()["token"]
        pumped.parse = False
        print(f"the phone ({PHONE}) took seat 1: {seated.status}")
        query = f"?token={token}".encode()
        streams = Streams(port)
        status, phone_stream = streams.open(PHONE, query)
        assert status == 200, status
        refused_spectator = 0
        for n in range(args.streams + 40):
            status, _sock = streams.open(f"127.0.2.{n % args.addresses + 1}")
            if status != 200:
                refused_spectator = status
                break
        print(f"spectators: {streams.open_streams - 1} streams from {args.addresses} addresses (the next one: "
              f"{refused_spectator}), and the phone's")

        def grab() -> None:
            while not grabbing.is_set():
                status, _sock = streams.open(GRABBER)
                grabbed.append(status)
                time.sleep(0.02)

        grabber = threading.Thread(target=grab, daemon=True)
        grabber.start()
        time.sleep(0.5)
        refusals: List[int] = []
        reopened = 0
        started = time.monotonic()
        for _ in range(args.reopen):
            assert phone_stream is not None
            streams.drop(phone_stream)                              # the screen locks, the page reloads
            phone_stream = None
            time.sleep(1.0)                                          # EventSource's retry
            while phone_stream is None and time.monotonic() - started < 40:
                status, phone_stream = streams.open(PHONE, query)
                if phone_stream is None:
                    refusals.append(status)
                    time.sleep(1.0)
            if phone_stream is None:
                break
            reopened += 1
            time.sleep(0.5)
        grabbing.set()
        grabber.join(5)
        state = call(port, "GET", "/api/state", source=PHONE).json()
        press = post(port, "/api/press", {"token": token, "direction": "left"}, source=PHONE)
        kept = state["seating"]["seats"][0]["taken"]
        print(f"the phone closed and opened its stream {args.reopen} times with a grabber ({GRABBER}) asking for "
              f"a stream every 20 ms ({grabbed.count(200)} got, {len(grabbed) - grabbed.count(200)} refused):")
        print(f"  reopened {reopened} of {args.reopen}; refused {len(refusals)} times "
              f"({', '.join(str(s) for s in refusals) or 'never'}) in {time.monotonic() - started:.1f} s; "
              f"its seat {'kept' if kept else 'gone back to the stick'}; its press: {press.status} "
              f"{press.json().get('error', '')}".rstrip())

        cpu_before = cpu_seconds(program.process.pid)
        churners = subprocess.Popen([sys.executable, __file__, "--churn", str(port), str(args.churners), str(args.idle),
                                     str(args.requests * 0.25 + 10)], stdout=subprocess.PIPE, text=True)
        time.sleep(3.0)                                               # the churners fill what is left
        answers: Dict[str, int] = {}
        presses: Dict[str, int] = {}
        began = time.monotonic()
        for n in range(args.requests):
            key = fresh_request(port)
            answers[key] = answers.get(key, 0) + 1
            if n % 4 == 0:
                try:
                    reply = post(port, "/api/press", {"token": token, "direction": "left" if n % 8 else "right"},
                                 source=PHONE, timeout=5.0)
                    said = f"{reply.status} {reply.json().get('error', '')}".rstrip()
                except (OSError, h11.RemoteProtocolError):
                    said = "none"
                presses[said] = presses.get(said, 0) + 1
            time.sleep(max(0.0, began + 0.25 * (n + 1) - time.monotonic()))
        wall = time.monotonic() - began
        cpu = cpu_seconds(program.process.pid) - cpu_before
        out, _ = churners.communicate(timeout=60)
        churned = json.loads(out)
        churners = None
        print(f"with the spectators' streams and {args.churners} addresses x {args.idle} idle connections opened again "
              f"as soon as closed ({churned['closed']} closed by the server, {churned['answered']} of them answered "
              f"first, in {wall:.0f} s):")
        print(f"  the fresh client ({FRESH}), {args.requests} requests on new connections: "
              + ", ".join(f"{answers[k]} {k}" for k in sorted(answers)))
        print("  the phone's presses meanwhile: " + ", ".join(f"{presses[k]} {k}" for k in sorted(presses))
              + f"; its stream {'still open' if phone_stream is not None and streams.open_streams else 'gone'}")
        print(f"  the server's CPU: {cpu:.1f} s in {wall:.0f} s ({100 * cpu / wall:.0f}% of one core)")
    finally:
        grabbing.set()
        if churners is not None:
            churners.kill()
            churners.wait()
        if streams is not None:
            streams.close()
        pumped.stop()
        program.close()
        shutil.rmtree(directory, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    if sys.argv[1:2] == ["--churn"]:
        churn(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=160, help="the spectators' streams at most (default 160)")
    parser.add_argument("--addresses", type=int, default=7, help="the spectators' addresses (default 7)")
    parser.add_argument("--reopen", type=int, default=5, help="times the phone reopens its stream (default 5)")
    parser.add_argument("--churners", type=int, default=100, help="addresses opening idle connections (default 100)")
    parser.add_argument("--idle", type=int, default=10, help="idle connections per churning address (default 10)")
    parser.add_argument("--requests", type=int, default=72, help="the fresh client's requests (default 72)")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    probe(args)


if __name__ == "__main__":
    main()
