"""Peak resident memory of the whole program playing against the computer, with and without the 12-ply book.

The program (``python -m sensehat_c4 --backend terminal --opponent LEVEL --matches N``) runs in an 80 x 24
pseudo-terminal (the tests' ``pty_terminal``) with a games file of its own; a scripted person moves the
cursor a column left or right (seeded) and drops, about once a second, until the matches end.  Its
``VmHWM`` (peak resident) and ``VmRSS`` are read from ``/proc/PID/status`` after every move: the figure
includes the pages of the memory-mapped 12-ply book the computer read.  Beside it, the largest
``RssAnon`` (the process's own memory) and ``RssFile`` (file pages: the book's, which the kernel can
drop) seen after a move.  ``--no-book`` runs it again with
``SENSEHAT_C4_BOOK12`` naming a missing file.

Usage: ``python benchmarks/memory.py [--opponent perfect] [--matches 1] [--seed 1] [--no-book]``.
It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from emu_sandbox import child_env  # noqa: E402
from pty_terminal import PtyProgram, game  # noqa: E402


def status(pid: int) -> Dict[str, int]:
    """``VmRSS``, ``VmHWM``, ``RssAnon`` and ``RssFile`` of a process, in KiB (empty once it has gone)."""
    found = {}
    try:
        with open(f"/proc/{pid}/status") as lines:
            for line in lines:
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                    found[name] = int(value.split()[0])
    except OSError:
        pass
    return found


def one_run(opponent: str, matches: int, seed: int, book: bool) -> None:
    with tempfile.TemporaryDirectory() as directory:
        env = child_env(directory)
        env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8",
                   SENSEHAT_C4_DB=os.path.join(directory, "games.db"))
        if not book:
            env["SENSEHAT_C4_BOOK12"] = os.path.join(directory, "no-book.dat")
        program = PtyProgram(game("--backend", "terminal", "--opponent", opponent, "--matches", str(matches)),
                             columns=80, lines=24, env=env)
        rng, start, moves, peak, first = random.Random(seed), time.monotonic(), 0, 0, None
        anon = file = 0
        try:
            program.wait_for(lambda p: "┌" in p.text(), what="the board")
            program.pump(0.5)
            first = status(program.process.pid).get("VmRSS")
            while program.process.poll() is None and time.monotonic() - start < 600:
                program.press(rng.choice(["left", "right"]), "enter", gap=0.2)
                program.pump(1.0)
                moves += 1
                now = status(program.process.pid)
                peak = max(peak, now.get("VmHWM", 0))
                anon, file = max(anon, now.get("RssAnon", 0)), max(file, now.get("RssFile", 0))
        finally:
            program.close()
        print(f"{opponent}, {matches} match(es), 12-ply book {'on' if book else 'off'}: resident at the board "
              f"{(first or 0) / 1024:.1f} MiB, peak (VmHWM) {peak / 1024:.1f} MiB (largest after a move: "
              f"RssAnon {anon / 1024:.1f} MiB, RssFile {file / 1024:.1f} MiB); {moves} presses, "
              f"{time.monotonic() - start:.0f} s, exit {program.process.returncode}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="perfect")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-book", action="store_true", help="also without the 12-ply book")
    args = parser.parse_args()
    one_run(args.opponent, args.matches, args.seed, book=True)
    if args.no_book:
        one_run(args.opponent, args.matches, args.seed, book=False)


if __name__ == "__main__":
    main()
