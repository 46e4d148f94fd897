"""The terminal backend: idle CPU, CPU while a key is held, key-to-frame latency, bytes per frame.

The whole program (``python -m sensehat_c4 --backend terminal``) runs in a
pseudo-terminal (the tests' ``pty_terminal``), 80 x 24, in true colour:

- idle CPU: user + system time while it waits for a key, over ``--idle`` seconds;
- held key: the same, while "right" arrives every 33 ms (a terminal's auto-repeat) for
  ``--hold`` seconds (each arrival steps the cursor and draws a frame);
- latency: from writing a right-arrow to the pty to the first byte of the new frame read
  back, over ``--presses`` cursor moves (spaced 0.3 s, so each is a new press);
- bytes a cursor move writes (only the changed LEDs are redrawn);
- taps: moves typed as quick taps of left/right then Enter, ``gap`` ms apart (or all in one
  write), in fresh games: how many tokens land in the column the taps lead to.

Usage: ``python benchmarks/terminal.py [--idle S] [--hold S] [--presses N] [--taps GAP,...]``
(``--taps ''`` skips them).  It prints figures and asserts nothing.
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
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from emu_sandbox import child_env  # noqa: E402
from latency import cpu_seconds  # noqa: E402
from pty_terminal import KEYS, PtyProgram, game, hex_colours, leds  # noqa: E402

from sensehat_c4.match import render  # noqa: E402
from sensehat_c4.rules import Board  # noqa: E402

RIGHT = KEYS["right"]


def start(directory: str) -> PtyProgram:
    env = child_env(directory)
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    # a games file of its own: the game killed before it (close()) left an interrupted match, which a
    # shared file would offer first ("resume?") instead of the board
    handle, env["SENSEHAT_C4_DB"] = tempfile.mkstemp(prefix="games-", suffix=".db", dir=directory)
    os.close(handle)
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


TAP_MOVES = "171717262626"
"""Twelve moves that win for no one (each typed from the middle column, 4)."""


def board_leds(moves: str) -> list:
    return hex_colours(render.board_frame(Board.from_moves(moves), render.Palette(), cursor=3))


def taps(directory: str, gap: Optional[float]) -> Tuple[int, int, List[str]]:
    """``(right, tried, wrong)``: :data:`TAP_MOVES` typed as taps ``gap`` s apart (``None``: each
    move in one write); a wrong drop ends that game and a new one plays the rest."""
    right, tried, wrong = 0, 0, []
    while tried < len(TAP_MOVES):
        program = start(directory)
        try:
            moves = ""
            for target in TAP_MOVES[tried:]:
                ready = board_leds(moves)
                program.wait_for(lambda p, ready=ready: leds(p.screen) == ready, what="the board")
                steps = int(target) - 4
                keys = ["right" if steps > 0 else "left"] * abs(steps) + ["enter"]
                program.tap(*keys, gap=gap)
                after = {c: board_leds(moves + str(c)) for c in range(1, 8)}
                program.wait_for(lambda p, after=after: leds(p.screen) in after.values(), what="the drop")
                column = next(c for c, frame in after.items() if frame == leds(program.screen))
                tried += 1
                if column != int(target):
                    wrong.append(f"{target}->{column}")
                    break
                right += 1
                moves += target
        finally:
            program.close()
    return right, tried, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--hold", type=float, default=5.0)
    parser.add_argument("--presses", type=int, default=50)
    parser.add_argument("--taps", default="one,0,10,40,80,100,140,200",
                        help="gaps between taps in ms ('one': all of a move in one write)")
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
    try:
        for text in filter(None, args.taps.split(",")):
            gap = None if text == "one" else float(text) / 1000
            right, tried, wrong = taps(directory, gap)
            what = "each move in one write" if gap is None else f"taps {text} ms apart"
            print(f"{what}: {right} of {tried} tokens in the column the taps lead to"
                  + (f" (wrong: {', '.join(wrong)})" if wrong else ""))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
