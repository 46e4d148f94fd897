"""Idle CPU while the game waits for the joystick, and the time from a joystick event to the frame.

Both run on the real ``sense_emu`` library, pointed at a temporary directory (the
tests' ``emu_sandbox``), so a running emulator is never touched:

- idle CPU: the whole program (``python -m sensehat_c4 --backend emu``) waits for a
  move; its CPU time (user + system, from ``/proc/PID/stat``) over ``--idle`` seconds;
- latency: the game runs in this process; a joystick event is sent on the emulator's
  socket and the time until the backend has written the new frame (``pwrite`` returned)
  is taken, for cursor moves and for drops (the first frame of the fall).

Usage: ``python benchmarks/latency.py [--idle SECONDS] [--presses N]``.  It prints
figures; it asserts nothing (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

import emu_sandbox  # noqa: E402
from emu_sandbox import FakeEmulator, child_env  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(pid: int, seconds: float) -> Tuple[float, float]:
    """``(CPU seconds, wall seconds)`` process ``pid`` uses while we sleep ``seconds``."""
    before, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return cpu_seconds(pid) - before, time.monotonic() - start


def idle_cpu(seconds: float) -> None:
    directory = tempfile.mkdtemp(prefix="c4bench-")
    try:
        with FakeEmulator(directory) as emulator:
            game = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "--backend", "emu",
                                     "--opponent", "human"], env=child_env(directory),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                emulator.wait_client()
                emulator.wait_screen(lambda px: any(p != (0, 0, 0) for p in px))
                time.sleep(1.0)                       # let start-up settle
                used, wall = cpu_share(game.pid, seconds)
            finally:
                game.terminate()
                game.wait(10)
        print(f"idle CPU, whole program waiting for a move on the emulator backend: {used:.3f} s of CPU "
              f"in {wall:.1f} s = {100 * used / wall:.2f}% of one core "
              f"(resolution {1 / os.sysconf('SC_CLK_TCK'):.2f} s)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def latency(presses: int) -> None:
    directory = tempfile.mkdtemp(prefix="c4bench-")
    emu_sandbox.redirect(directory)
    os.environ["HOME"] = directory
    from gamelib.backends.senselib import EmuBackend
    from sensehat_c4.match.controller import MatchOptions, play

    written: List[float] = []
    try:
        with FakeEmulator(directory) as emulator, EmuBackend() as backend:
            write = backend._write

            def timed_write(pixels):
                write(pixels)
                written.append(time.perf_counter())

            backend._write = timed_write  # type: ignore[method-assign]
            game = threading.Thread(target=play, args=(backend, MatchOptions()), daemon=True)
            game.start()
            emulator.wait_client()
            time.sleep(0.3)

            def measure(direction: str, settle: float) -> float:
                count = len(written)
                sent = time.perf_counter()
                emulator.send(direction, "pressed")
                while len(written) == count:
                    time.sleep(0.0002)
                emulator.send(direction, "released")
                first = written[count] - sent
                time.sleep(settle)
                return first

            moves = [measure("right", 0.05) for _ in range(presses)]
            drops = []
            for _ in range(6):                           # six drops (columns 4, then 5), no four
                drops.append(measure("down", 0.5))
                measure("right", 0.05)
            emulator.send("up")
            emulator.send("up")
            game.join(5)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for name, samples in (("cursor move", moves), ("drop (first frame of the fall)", drops)):
        ms = sorted(1000 * s for s in samples)
        print(f"joystick event -> frame written, {name}: n={len(ms)} median {statistics.median(ms):.2f} ms, "
              f"p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure (default 10)")
    parser.add_argument("--presses", type=int, default=50, help="cursor moves to time (default 50)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    idle_cpu(args.idle)
    latency(args.presses)


if __name__ == "__main__":
    main()
