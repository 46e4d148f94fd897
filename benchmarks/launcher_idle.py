"""Benchmark: what the launcher costs while nobody plays, and how fast the stick wakes it.

Runs ``python -m gamelib --backend emu`` on the real ``sense_emu`` library in a
temporary directory (the tests' ``emu_sandbox``: a fake emulator holds the lock,
serves the stick socket, and the screen file is read back), then prints:

- CPU seconds used per second of wall time while the menu is awake, dimmed and blank
  (read from ``/proc/PID/stat``; 0.000 means it sleeps in ``select()``);
- the time from a stick press to the new frame in the screen file (wake, then launching Connect 4).

Usage: ``.venv/bin/python benchmarks/launcher_idle.py [--seconds 10]``
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from gamelib.palette import palette as default_palette
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "helpers"))
from emu_sandbox import FakeEmulator, child_env, lit
from latency import cpu_share  # benchmarks/latency.py, beside this file

from sensehat_c4.match import game as c4

TICK = os.sysconf("SC_CLK_TCK")


def phase(pid: int, seconds: float) -> float:
    used, wall = cpu_share(pid, seconds)
    return used / wall


def press_to_frame(emulator: FakeEmulator, direction: str) -> float:
    before, start = emulator.pixels(), time.monotonic()
    emulator.send(direction, "pressed")
    emulator.wait_screen(lambda px: px != before, interval=0.001)
    took = time.monotonic() - start
    emulator.send(direction, "released")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measured phase")
    args = parser.parse_args()
    s = args.seconds
    directory = tempfile.mkdtemp(prefix="c4bench-")
    try:
        with FakeEmulator(directory) as emulator:
            env = child_env(directory)
            env["XDG_CONFIG_HOME"] = directory
            launcher = subprocess.Popen(
                [sys.executable, "-m", "gamelib", "--backend", "emu", "--log-level", "warning",
                 "--dim-after", str(s + 0.5), "--blank-after", str(2 * s + 1.0)], env=env)
            try:
                emulator.wait_client()
                emulator.wait_screen(lambda px: px == lit(c4.ICON(default_palette())))
                time.sleep(0.25)
                awake = phase(launcher.pid, s)
                time.sleep(0.5)                     # dims at s + 0.5
                dim = phase(launcher.pid, s)
                time.sleep(0.75)                    # blanks at 2 s + 1
                blank = phase(launcher.pid, s)
                wake = press_to_frame(emulator, "left")
                launch = press_to_frame(emulator, "middle")   # launches Connect 4: the chooser appears
            finally:
                launcher.terminate()
                launcher.wait(timeout=30)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    print(f"CPU seconds per second: awake {awake:.4f}, dimmed {dim:.4f}, blank {blank:.4f} "
          f"({s:g} s each; clock tick {1 / TICK:g} s)")
    print(f"press to new frame: wake {wake * 1000:.1f} ms, launch {launch * 1000:.1f} ms")


if __name__ == "__main__":
    main()
