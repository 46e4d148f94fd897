"""Two Pis over the LAN: a move on one Pi to its frame on the other, idle CPU with the link up, and the
time to come back after a cut.

Two real programs (``python -m sensehat_c4 --backend emu``, each on its own emulator's files: the tests'
``lan_pis``), the host with ``--lan``, the guest with ``--join``; the host's player accepts.  Then, on the
host's turn, its stick moves the cursor ``--moves`` times (right, left, ...) and each time the guest's
LEDs are polled (every millisecond) until they show the moved cursor: the time from the stick's event
being sent to the frame on the other Pi.  The host drops, and the guest's stick does the same the other
way.  Then both programs' CPU (``/proc/PID/stat``) over ``--idle`` seconds while nobody presses (the
link is up: a ``ping`` each way every second).

- ``loopback``: both on 127.0.0.1;
- ``--netns`` (root): the host and the guest in two network namespaces joined by a veth pair, 200 ms
  each way (``tc netem``, or where the kernel has none a relay in the guest's namespace holding each
  chunk 200 ms: tests/helpers/delay_relay.py), and with ``--cut`` then a 30 s cut of the link (nftables): the
  time from the link's return until both Pis show the board again.

Usage: ``python benchmarks/lan.py [--moves N] [--idle SECONDS] [--netns] [--cut]``.  It prints figures;
it asserts nothing (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from emu_sandbox import lit, screen_pixels  # noqa: E402
from frames import turned  # noqa: E402
from lan_pis import Pi, physical, board  # noqa: E402
from latency import cpu_seconds  # noqa: E402

from gamelib.lan import screens  # noqa: E402
from gamelib.palette import palette as default_palette  # noqa: E402


def move_to_frame(mover: Pi, watcher: Pi, starter: int, moves: str, count: int) -> List[float]:
    """Seconds from each cursor move at ``mover``'s stick to the frame on ``watcher``'s LEDs."""
    times, cursor = [], 3
    for i in range(count):
        direction = "right" if i % 2 == 0 else "left"
        cursor += 1 if direction == "right" else -1
        wanted = lit(turned(board(moves, starter, cursor), watcher.rotation))
        time.sleep(0.2)
        start = time.monotonic()
        mover.emulator.send(physical(direction, mover.rotation), "pressed")
        while screen_pixels(watcher.emulator.directory) != wanted:
            if time.monotonic() - start > 10:
                raise TimeoutError("the frame never came")
            time.sleep(0.001)
        times.append(time.monotonic() - start)
        mover.emulator.send(physical(direction, mover.rotation), "released")
    return times


def summary(name: str, times: List[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
    return f"{name}: median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} moves)"


def session(host: Pi, guest: Pi, host_args: List[str], target: str, prefix_host=(), prefix_guest=(), *,
            asker: str = "127.0.0.1") -> None:
    """Bob offers, Ann joins at ``target``, Bob accepts the request (which comes from ``asker``)."""
    host.start("--lan", *host_args, "--names", "Bob", prefix=prefix_host)
    port = host.port()
    guest.start("--join", target.format(port=port), "--names", "Ann", prefix=prefix_guest)
    host.shows_any(screens.frames(screens.request("Ann", asker, default_palette())), timeout=60)
    host.tap("middle")
    for pi in (host, guest):
        pi.shows(board("", 1), timeout=60)


def measure(host: Pi, guest: Pi, args: argparse.Namespace, where: str) -> None:
    print(summary(f"{where}: host's stick -> guest's LEDs", move_to_frame(host, guest, 1, "", args.moves)))
    host.tap("middle")
    for pi in (host, guest):
        pi.shows(board("4", 1), timeout=30)
    print(summary(f"{where}: guest's stick -> host's LEDs", move_to_frame(guest, host, 1, "4", args.moves)))
    guest.shows(board("4", 1, 3), timeout=30) if args.moves % 2 == 0 else None
    pids = [pi.process.pid for pi in (host, guest)]  # type: ignore[union-attr]
    before = [cpu_seconds(pid) for pid in pids]
    time.sleep(args.idle)
    used = [cpu_seconds(pid) - b for pid, b in zip(pids, before)]
    print(f"{where}: idle with the link up, {args.idle:g} s: host {used[0]:.3f} s CPU "
          f"({100 * used[0] / args.idle:.2f}%), guest {used[1]:.3f} s ({100 * used[1] / args.idle:.2f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--netns", action="store_true", help="also through two network namespaces (root)")
    parser.add_argument("--cut", action="store_true", help="with --netns: then a 30 s cut")
    args = parser.parse_args()
    started = time.process_time()
    with tempfile.TemporaryDirectory(prefix="c4lan-") as tmp:
        with Pi(Path(tmp) / "host") as host, Pi(Path(tmp) / "guest", rotation=90) as guest:
            session(host, guest, ["127.0.0.1:0"], "127.0.0.1:{port}")
            measure(host, guest, args, "loopback")
        if args.netns:
            netns(args, Path(tmp))
    print(f"(this script's own CPU: {time.process_time() - started:.2f} s; load average {os.getloadavg()[0]:.2f})")


def netns(args: argparse.Namespace, tmp: Path) -> None:
    from lan_netns import GUEST_IP, HOST_IP, PORT, RELAY, Link

    link = Link().up()
    relay = None
    try:
        with Pi(tmp / "nhost") as host, Pi(tmp / "nguest", rotation=90) as guest:
            if link.netem():
                how, target = "tc netem delay 200ms on both veth ends", f"{HOST_IP}:{PORT}"
            else:
                relay = subprocess.Popen(link.prefix(link.guest) + [sys.executable, str(RELAY), "127.0.0.1", HOST_IP,
                                                                      str(PORT), "0.2"], stdout=subprocess.PIPE)
                assert relay.stdout is not None
                how, target = ("no netem in this kernel: a relay in the guest's namespace, 200 ms each way",
                               f"127.0.0.1:{int(relay.stdout.readline())}")
            print(f"veth: {how}")
            session(host, guest, [f"{HOST_IP}:{PORT}"], target, link.prefix(link.host), link.prefix(link.guest),
                    asker=GUEST_IP)
            measure(host, guest, args, "veth, 200 ms each way")
            if args.cut:
                link.faults("cut")
                cut = time.monotonic()
                host.shows_any(screens.frames(screens.away(default_palette())), timeout=30)
                print(f"cut: the host shows the waiting screen {time.monotonic() - cut:.1f} s after the cut")
                time.sleep(max(0.0, 30.0 - (time.monotonic() - cut)))
                link.faults("none")
                back = time.monotonic()
                moved = board("4", 1, 3 + (1 if args.moves % 2 else 0))
                for pi in (host, guest):
                    pi.shows(moved, timeout=90)
                print(f"cut of 30 s: both Pis show the board again {time.monotonic() - back:.2f} s after the link is back")
    finally:
        link.faults("none")
        link.down()
        if relay is not None:
            relay.kill()


if __name__ == "__main__":
    main()
