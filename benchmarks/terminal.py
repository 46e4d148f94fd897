"""The terminal backend: idle CPU, CPU while a key is held, key-to-frame latency, bytes per frame.

The whole program (``python -m sensehat_c4 --backend terminal``) runs in a
pseudo-terminal (the tests' ``pty_terminal``), 80 x 24, in true colour:

- idle CPU: user + system time while it waits for a key, over ``--idle`` seconds;
- held key: the same, while "right" arrives every 33 ms (a terminal's auto-repeat) for
  ``--hold`` seconds (the cursor steps every 0.15 s, the rest are throttled);
- latency: from writing a right-arrow to the pty to the first byte of the new frame read
  back, over ``--presses`` cursor moves (spaced 0.3 s, so each is a new press);
- bytes a cursor move writes (only the changed LEDs are redrawn).

Usage: ``python benchmarks/terminal.py [--idle S] [--hold S] [--presses N]``.  It prints
figures and asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import platform
import select
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from emu_sandbox import child_env  # noqa: E402
from latency import cpu_seconds  # noqa: E402
from pty_terminal import KEYS, PtyProgram, game  # noqa: E402

RIGHT = KEYS["right"]


def start(directory: str) -> PtyProgram:
    env = child_env(directory)
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    program = PtyProgram(game("--backend", "terminal", "--opponent", "human"), columns=80, lines=24, env=env)
    program.wait_for(lambda p: "┌" in p.text(), what="the board")
    program.pump(1.0)                                  # let start-up settle
    return program


def cpu_over(program: PtyProgram, seconds: float, key_every: float = 0.0) -> float:
    pid = program.process.pid
    before, start = cpu_seconds(pid), time.monotonic()
    next_key = start
    while time.monotonic() - start < seconds:
        if key_every:
            if time.monotonic() >= next_key:
                os.write(program.master, RIGHT)
                next_key += key_every
            program.pump(max(0.0, min(next_key, start + seconds) - time.monotonic()))
        else:
            program.pump(seconds - (time.monotonic() - start))
    return cpu_seconds(pid) - before


def latency(program: PtyProgram, presses: int) -> tuple:
    times, sizes = [], []
    for _ in range(presses):
        program.pump(0.3)                              # a new press each time, not a held key
        sent = time.monotonic()
        os.write(program.master, RIGHT)
        ready, _, _ = select.select([program.master], [], [], 2.0)
        if not ready:
            raise RuntimeError("no frame within 2 s of a key")
        times.append((time.monotonic() - sent) * 1000)
        data = os.read(program.master, 65536)
        time.sleep(0.02)                               # the rest of the frame, if it came in parts
        while select.select([program.master], [], [], 0)[0]:
            data += os.read(program.master, 65536)
        sizes.append(len(data))
        program.stream.feed(data)
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--hold", type=float, default=5.0)
    parser.add_argument("--presses", type=int, default=50)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    directory = tempfile.mkdtemp(prefix="c4bench-")
    program = start(directory)
    try:
        used = cpu_over(program, args.idle)
        print(f"idle CPU, whole program waiting for a key on the terminal backend: {used:.3f} s of CPU "
              f"in {args.idle:.0f} s ({100 * used / args.idle:.2f}% of one core)")
        used = cpu_over(program, args.hold, key_every=0.033)
        print(f"holding right (a key every 33 ms): {used:.3f} s of CPU in {args.hold:.0f} s "
              f"({100 * used / args.hold:.2f}% of one core)")
        times, sizes = latency(program, args.presses)
        print(f"key to frame, {args.presses} cursor moves: median {statistics.median(times):.2f} ms, "
              f"max {max(times):.2f} ms; {statistics.median(sizes):.0f} bytes written per move")
    finally:
        program.close()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
