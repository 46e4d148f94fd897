"""The web view's costs: idle CPU with the server on, memory with 100 spectators, and frame-to-page latency.

Everything runs on loopback, on the real ``sense_emu`` library pointed at a temporary
directory (the tests' ``emu_sandbox``):

- idle: the whole program (``python -m sensehat_c4 --backend emu --web 127.0.0.1:0``) waits
  for a move; its CPU (``/proc/PID/stat``) over ``--idle`` seconds, first with nobody
  connected, then with ``--spectators`` event streams open (each from its own loopback
  address); its resident memory (``VmRSS``, ``VmHWM``) before and after they connect;
- latency: a backend on the emulator's files serves its web view in this process and shows
  ``--frames`` frames ``--gap`` seconds apart (a falling token's pace); the spectators read
  the event stream in another process (so they do not share this one's interpreter lock),
  and each frame's time from ``backend.screen.show()`` to its arrival at each spectator is taken
  (the clocks are the same ``CLOCK_MONOTONIC``), for 1 spectator and for ``--spectators``, and
  the server's part alone: from ``show()`` until the frame has been written to every socket
  (reading 100 streams in one Python process adds its own milliseconds; a LAN's spectators
  are 100 devices);
- flood (``--flood SECONDS``, alone): the whole program as for idle; ``--flooders`` connections from
  127.0.0.2 (in another process) pipeline ``GET /api/state`` as fast as the kernel takes them and
  never read an answer; meanwhile a fresh client from 127.0.0.3 asks for ``/api/state`` every
  0.5 s (each on a new connection, given 5 s): its answer times, the server's resident memory
  (sampled every 0.25 s) and CPU over the flood;
- guesses (``--guesses SECONDS``, alone): the whole program as for idle; the emulator's middle is held
  3.2 s (the pairing gesture: a pairing PIN, one try per address), then ``--guessers`` processes guess
  it, each guess from a new loopback address on a new connection (127.10.0.1, 127.10.0.2 ...), as
  fast as the server answers: the guesses answered a second (what bounds the addresses an attacker
  gets a try in from, in the PIN's 60 s), a fresh client's ``GET /api/state`` meanwhile, the server's
  CPU and memory (each address tried is kept until the PIN is void).

Usage: ``python benchmarks/web.py [--idle SECONDS] [--spectators N] [--frames N] [--gap SECONDS]``,
``python benchmarks/web.py --flood SECONDS [--flooders N]``, or ``python benchmarks/web.py --guesses SECONDS
[--guessers N]``.
It prints figures; it asserts nothing (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import emu_sandbox  # noqa: E402
from emu_sandbox import FakeEmulator, child_env  # noqa: E402
from latency import cpu_seconds, cpu_share  # noqa: E402
from web_client import Spectators, call, connect, post  # noqa: E402

from gamelib.web.seating import PAIR_DIGITS  # noqa: E402

ADDRESS = re.compile(rb"web view on http://127\.0\.0\.1:(\d+)/")


def memory(pid: int) -> Dict[str, int]:
    """``VmRSS`` and ``VmHWM`` (peak) of a process, in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def port_of(game: subprocess.Popen) -> int:
    text = b""
    while True:
        chunk = os.read(game.stderr.fileno(), 4096)  # type: ignore[union-attr]
        if not chunk:
            raise RuntimeError(f"the game said no address: {text!r}")
        text += chunk
        found = ADDRESS.search(text)
        if found:
            return int(found.group(1))


def idle(seconds: float, spectators: int) -> None:
    directory = tempfile.mkdtemp(prefix="c4bench-")
    try:
        with FakeEmulator(directory) as emulator:
            for web in (False, True):
                game = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent",
                                         "human"] + (["--web", "127.0.0.1:0"] if web else []),
                                        env=child_env(directory), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                try:
                    port = port_of(game) if web else 0
                    emulator.wait_client()
                    emulator.wait_screen(lambda px: any(p != (0, 0, 0) for p in px))
                    time.sleep(1.0)
                    used, wall = cpu_share(game.pid, seconds)
                    alone = memory(game.pid)
                    print(f"idle CPU, whole program waiting for a move, {'with' if web else 'without'} --web, "
                          f"nobody connected: {used:.3f} s in {wall:.1f} s = {100 * used / wall:.2f}% of one core; "
                          f"resident {alone['VmRSS'] / 1024:.1f} MiB")
                    if not web:
                        continue
                    watchers = Spectators(port, spectators)
                    deadline = time.monotonic() + 30
                    while not all(s["frame"] is not None for s in watchers.streams):
                        if time.monotonic() > deadline:
                            raise RuntimeError("not every spectator connected")
                        time.sleep(0.05)
                    time.sleep(1.0)
                    used, wall = cpu_share(game.pid, seconds)
                    crowd = memory(game.pid)
                    print(f"with {spectators} spectators connected and nobody playing: {used:.3f} s of CPU in "
                          f"{wall:.1f} s = {100 * used / wall:.2f}% of one core; resident "
                          f"{crowd['VmRSS'] / 1024:.1f} MiB (+{(crowd['VmRSS'] - alone['VmRSS']) / 1024:.1f} MiB "
                          f"for them, {(crowd['VmRSS'] - alone['VmRSS']) / spectators:.0f} KiB each), "
                          f"peak {crowd['VmHWM'] / 1024:.1f} MiB")
                    watchers.close()
                finally:
                    game.terminate()
                    game.wait(10)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def spectate(port: int, count: int, last: int) -> None:
    """(The spectators' process.)  Read ``count`` streams until frame ``last``; print the arrival times."""
    watchers = Spectators(port, count, times=True)
    print("ready", flush=True)
    deadline = time.monotonic() + 120
    while not all(s["seqs"] and s["seqs"][-1] >= last for s in watchers.streams):
        if time.monotonic() > deadline:
            break
        time.sleep(0.01)
    watchers.close()
    print(json.dumps([s["times"] for s in watchers.streams]), flush=True)


def latency(spectators: int, frames: int, gap: float) -> None:
    directory = tempfile.mkdtemp(prefix="c4bench-")
    emu_sandbox.redirect(directory)
    os.environ["HOME"] = directory
    from gamelib import web
    from gamelib.backends.senselib import EmuBackend
    from gamelib.web.address import Address

    try:
        with FakeEmulator(directory), EmuBackend() as backend, \
                web.serving(backend, Address("127.0.0.1", 0)) as server:
            assert server is not None
            for count in (1, spectators):
                start = server.feed.counted
                last = start + frames
                child = subprocess.Popen([sys.executable, __file__, "--spectate", str(server.port), str(count), str(last)],
                                         stdout=subprocess.PIPE, text=True)
                assert child.stdout is not None
                assert child.stdout.readline().strip() == "ready"
                time.sleep(1.0)
                shown: Dict[int, float] = {}
                sent: Dict[int, float] = {}
                flush = server.feed._flush

                def timed_flush(flush=flush, sent=sent) -> None:   # in the server's thread: every socket written
                    flush()
                    sent[server.feed.seq] = time.monotonic()

                server.feed._flush = timed_flush  # type: ignore[method-assign]
                cpu = time.process_time()
                for n in range(frames):
                    frame = [((n * 7) % 256, (n * 13) % 256, i) for i in range(64)]
                    backend.screen.show(frame)
                    shown[server.feed.counted] = time.monotonic()
                    time.sleep(gap)
                cpu = time.process_time() - cpu
                server.feed._flush = flush  # type: ignore[method-assign]
                out = sorted(1000 * (t - shown[seq]) for seq, t in sent.items() if seq in shown)
                arrivals: List[Dict[str, float]] = json.loads(child.stdout.readline())
                child.wait(30)
                delays = sorted(1000 * (t - shown[int(seq)]) for times in arrivals for seq, t in times.items()
                                if int(seq) in shown)
                missing = count * frames - len(delays)
                print(f"frame shown -> frame received, {count} spectator{'s' if count > 1 else ''}, {frames} frames "
                      f"{1000 * gap:.0f} ms apart: median {statistics.median(delays):.2f} ms, "
                      f"p99 {delays[int(0.99 * (len(delays) - 1))]:.2f} ms, max {delays[-1]:.2f} ms; "
                      f"frames missed {missing}; this process's CPU {cpu:.2f} s "
                      f"({1000 * cpu / frames:.2f} ms a frame)")
                print(f"    of which shown -> written to every socket (the server's part): median "
                      f"{statistics.median(out):.2f} ms, p99 {out[int(0.99 * (len(out) - 1))]:.2f} ms, max {out[-1]:.2f} ms")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


PIPELINED = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 1000


def flooder(port: int, connections: int, seconds: float) -> None:
    """(The flooders' process.)  Pipeline requests on ``connections`` connections for ``seconds``, reading
    nothing; print the bytes the kernel took."""
    import select

    socks = [connect(port, source="127.0.0.2") for _ in range(connections)]
    for sock in socks:
        sock.setblocking(False)
    print("ready", flush=True)
    sent, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, ready, _ = select.select([], socks, [], max(0.0, min(0.5, deadline - time.monotonic())))
        for sock in ready:
            try:
                sent += sock.send(PIPELINED)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:   # cut off by the server
                socks.remove(sock)
        if not socks:
            break
    print(sent, len(socks), flush=True)
    for sock in socks:
        sock.close()


def fresh(port: int) -> float:
    """Seconds for a new connection's ``GET /api/state`` to be answered 200 (``inf``: not within 5 s)."""
    start = time.monotonic()
    try:
        reply = call(port, "GET", "/api/state", source="127.0.0.3", timeout=5.0)
    except OSError:
        return float("inf")
    return time.monotonic() - start if reply.status == 200 else float("inf")


def flood(seconds: float, flooders: int) -> None:
    directory = tempfile.mkdtemp(prefix="c4bench-")
    try:
        with FakeEmulator(directory) as emulator:
            game = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human",
                                     "--web", "127.0.0.1:0"], env=child_env(directory), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            try:
                port = port_of(game)
                emulator.wait_client()
                emulator.wait_screen(lambda px: any(p != (0, 0, 0) for p in px))
                time.sleep(1.0)
                quiet = [fresh(port) for _ in range(5)]
                before = memory(game.pid)["VmRSS"]
                child = subprocess.Popen([sys.executable, __file__, "--flooder", str(port), str(flooders), str(seconds)],
                                         stdout=subprocess.PIPE, text=True)
                assert child.stdout is not None
                assert child.stdout.readline().strip() == "ready"
                cpu, start = cpu_seconds(game.pid), time.monotonic()
                answers: List[float] = []
                peak = before
                next_ask = start
                while time.monotonic() - start < seconds:
                    peak = max(peak, memory(game.pid)["VmRSS"])
                    if time.monotonic() >= next_ask:
                        answers.append(fresh(port))
                        next_ask += 0.5
                    time.sleep(0.25)
                cpu, wall = cpu_seconds(game.pid) - cpu, time.monotonic() - start
                sent, left = child.stdout.readline().split()
                child.wait(30)
                after = [fresh(port) for _ in range(3)]
                rss = memory(game.pid)["VmRSS"]
            finally:
                game.terminate()
                game.wait(10)
        done = sorted(a for a in answers if a != float("inf"))
        print(f"a fresh client's GET /api/state with nobody flooding: median {1000 * statistics.median(quiet):.1f} ms")
        print(f"flood: {flooders} connections from one address pipelining GET /api/state for {wall:.1f} s, reading "
              f"nothing ({int(sent) / 1e6:.1f} MB of requests taken by the kernel; {left} connections still open "
              f"at the end)")
        print(f"  a fresh client's GET /api/state every 0.5 s, from another address: {len(done)} of {len(answers)} "
              f"answered within 5 s" + (f"; median {1000 * statistics.median(done):.1f} ms, max {1000 * done[-1]:.1f} ms"
                                       if done else ""))
        print(f"  the server: {cpu:.2f} s of CPU in {wall:.1f} s ({100 * cpu / wall:.0f}% of one core); resident "
              f"{before / 1024:.1f} MiB before, at most {peak / 1024:.1f} MiB during, {rss / 1024:.1f} MiB after")
        print("  after the flood, a fresh client: " + ", ".join("timed out" if a == float("inf") else f"{1000 * a:.1f} ms"
                                                            for a in after))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def guesser(port: int, index: int, seconds: float) -> None:
    """(A guesser's process.)  Guess a pairing PIN for ``seconds``, each guess from a new address on a new
    connection; print the answers counted as JSON."""
    import secrets

    counts: Dict[str, int] = {}
    n, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        source = f"127.{10 + index}.{n // 250 % 250}.{n % 250 + 1}"
        try:
            pin = f"{secrets.randbelow(10 ** PAIR_DIGITS):0{PAIR_DIGITS}d}"
            reply = post(port, "/api/seat", {"pin": pin, "seat": 1}, source=source,
                         timeout=5.0)
            key = f"{reply.status} {reply.json().get('error', '')}"
        except OSError as exc:
            key = type(exc).__name__
        counts[key] = counts.get(key, 0) + 1
        n += 1
    print(json.dumps(counts), flush=True)


def guesses(seconds: float, guessers: int) -> None:
    import threading

    directory = tempfile.mkdtemp(prefix="c4bench-")
    try:
        with FakeEmulator(directory) as emulator:
            game = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human",
                                     "--web", "127.0.0.1:0"], env=child_env(directory), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            try:
                port = port_of(game)
                emulator.wait_client()
                emulator.wait_screen(lambda px: any(p != (0, 0, 0) for p in px))
                time.sleep(1.0)
                holder = threading.Thread(target=emulator.hold, args=("middle", 3.2))
                holder.start()
                holder.join()                                      # the pairing PIN is up, for 60 s
                before = memory(game.pid)["VmRSS"]
                children = [subprocess.Popen([sys.executable, __file__, "--guesser", str(port), str(k), str(seconds)],
                                             stdout=subprocess.PIPE, text=True) for k in range(guessers)]
                cpu, start = cpu_seconds(game.pid), time.monotonic()
                answers: List[float] = []
                peak = before
                while time.monotonic() - start < seconds:
                    peak = max(peak, memory(game.pid)["VmRSS"])
                    answers.append(fresh(port))
                    time.sleep(0.5)
                counts: Dict[str, int] = {}
                for child in children:
                    out, _ = child.communicate(timeout=30)
                    for key, value in json.loads(out).items():
                        counts[key] = counts.get(key, 0) + value
                cpu, wall = cpu_seconds(game.pid) - cpu, time.monotonic() - start
                rss = memory(game.pid)["VmRSS"]
            finally:
                game.terminate()
                game.wait(10)
        tried = counts.get("403 bad_pin", 0)
        done = sorted(a for a in answers if a != float("inf"))
        print(f"pairing PIN guessed by {guessers} processes for {wall:.1f} s, each guess from a new address on a new "
              f"connection: {json.dumps(counts, sort_keys=True)}")
        print(f"  guesses counted against the PIN: {tried} ({tried / wall:.0f} a second: {60 * tried / wall:.0f} "
              f"addresses in the PIN's 60 s, a chance of {60 * tried / wall / 10 ** PAIR_DIGITS:.4%} to guess it)")
        print(f"  a fresh client's GET /api/state every 0.5 s meanwhile: {len(done)} of {len(answers)} answered "
              f"within 5 s" + (f"; median {1000 * statistics.median(done):.1f} ms, max {1000 * done[-1]:.1f} ms"
                               if done else ""))
        print(f"  the server: {cpu:.2f} s of CPU in {wall:.1f} s ({100 * cpu / wall:.0f}% of one core; "
              f"{1000 * cpu / max(1, tried):.2f} ms a guess: at most {tried / cpu:.0f} a second on a whole core, "
              f"{60 * tried / cpu:.0f} in 60 s); resident {before / 1024:.1f} MiB before, at most {peak / 1024:.1f} MiB "
              f"during, {rss / 1024:.1f} MiB after ({1024 * (peak - before) / max(1, tried):.0f} bytes an address tried)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    if sys.argv[1:2] == ["--spectate"]:
        spectate(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        return
    if sys.argv[1:2] == ["--flooder"]:
        flooder(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
        return
    if sys.argv[1:2] == ["--guesser"]:
        guesser(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure (default 10)")
    parser.add_argument("--spectators", type=int, default=100, help="spectators at once (default 100)")
    parser.add_argument("--frames", type=int, default=300, help="frames to time (default 300)")
    parser.add_argument("--gap", type=float, default=0.03, help="seconds between frames (default 0.03)")
    parser.add_argument("--flood", type=float, default=None, metavar="SECONDS",
                        help="measure only a flood of pipelined requests, this long")
    parser.add_argument("--flooders", type=int, default=4, help="the flood's connections (default 4)")
    parser.add_argument("--guesses", type=float, default=None, metavar="SECONDS",
                        help="measure only guesses at a pairing PIN from new addresses, this long (at most 60)")
    parser.add_argument("--guessers", type=int, default=2, help="the guessing processes (default 2)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.flood is not None:
        flood(args.flood, args.flooders)
        return
    if args.guesses is not None:
        guesses(min(args.guesses, 55.0), args.guessers)
        return
    idle(args.idle, args.spectators)
    latency(args.spectators, args.frames, args.gap)


if __name__ == "__main__":
    main()
