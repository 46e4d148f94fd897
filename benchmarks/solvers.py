#!/usr/bin/env python3
"""Our exact solver side by side with other solvers, in the same run: CPU time, wall time and positions.

Prints figures; not a test.  Without books: each solver alone on the same positions.

    python benchmarks/solvers.py --sets Test_L1_R2,Test_L2_R2 --sample 200 \\
        --steininger PATH --pons PATH              # the test sets
    python benchmarks/solvers.py --sets none --empty --table-bits 23 --steininger PATH --pons PATH
    python benchmarks/solvers.py --sets Test_L1_R2 --empty --threads 1,2 --repeat 3 --steininger PATH

``--threads 1,2`` runs our native core with each number of threads in turn (helper threads in
C sharing the table, ``c4core.c``), each on a fresh table; ``--repeat N`` runs everything N times
(the machine is shared: the wall times vary).  Each line gives CPU and wall time; the speedup is
the wall time with one thread over the wall time with more (from the same repetition), and the
load average is printed before and after each line (another process's load takes our threads'
cores: the speedup holds only when the load stays well below the cores).  On a loaded machine
the line also gives the speedup by the CPU time of the thread that drives the search (the main
search, Python's thread): the threads then take turns on the cores, each a fair share, so the
main search's CPU time is what its wall time would be on cores of its own (cache contention
between cores aside).

The other solvers are not part of this project and nothing here builds them.  ``--steininger``
and ``--pons`` take the path of a program built by hand from their public repositories
(Christophe Steininger's github.com/ChristopheSteininger/c4, Pascal Pons'
github.com/PascalPons/connect4; both AGPL, only run here) around a small driver that reads
one move list a line on stdin (``-`` for the empty board) and prints ``MOVES SCORE
POSITIONS CPU_SECONDS`` for each, keeping its table from one position to the next.  Each
was built for 7 x 6 with one thread and the table it was built with (the figures say which).
bitbully (PyPI ``bitbully``, AGPL) runs if it is installed (``--bitbully``), in this process.

Our core keeps one table for a set too (``--table-bits``: 2**N entries of 8 bytes; the
game's is 2**20, 8 MB; 2**23 is 64 MB, the size Steininger's 8,388,617 entries take).
CPU time is ``time.process_time`` for this process and the drivers' own per-position
figures for theirs (so their start and table allocation are left out).
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.engine.book12 import SHAPE
from sensehat_c4.engine.cores import CORES, new_solver
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.rules import Board

REPOSITORY = Path(__file__).resolve().parent.parent
SHARED = REPOSITORY.parent / "shared" / "c4-testsets"
Row = Tuple[str, Optional[int]]
"""A move list and its known score (``None``: not known)."""


def read_set(path: Path, sample: Optional[int]) -> List[Row]:
    rows: List[Row] = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()[:2]
            rows.append((moves, int(score)))
    if sample is not None and sample < len(rows):
        rows = sorted(random.Random(0).sample(rows, sample))
    return rows


Run = Tuple[List[int], int, float, float, float]
"""Scores, positions searched (all threads), CPU seconds (all threads), wall seconds, CPU seconds of the
thread that drives the search (ours: the main search; theirs: the same as CPU)."""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(name: str, what: str, rows: List[Row], run: Run, table: str, loads: str,
           speedup: Optional[Tuple[float, float]] = None) -> None:
    scores, nodes, cpu, wall, main = run
    wrong = sum(known is not None and known != got for (_, known), got in zip(rows, scores))
    verdict = "all correct" if not wrong else f"{wrong} WRONG"
    print(f"{name:15} {what:11} {len(rows):4} positions  {verdict:11}  mean {cpu / len(rows) * 1000:10.2f} ms CPU "
          f"{wall / len(rows) * 1000:10.2f} ms wall  total {cpu:8.2f} s CPU {wall:8.2f} s wall  "
          f"{nodes:14,} positions searched  ({table}; load {loads})"
          + (f"  speedup {speedup[0]:.2f}x wall, {speedup[1]:.2f}x by the main search's CPU ({main:.2f} s)"
             if speedup is not None else ""), flush=True)


def ours(rows: List[Row], core: str, table_bits: int, threads: int = 1) -> Run:
    solver = new_solver(SHAPE, table_bits=table_bits, core=core, threads=threads)
    if core == "native" and getattr(solver, "threads", 1) != threads:
        raise SystemExit(f"the native core runs {getattr(solver, 'threads', 1)} threads, not {threads}")
    scores = []
    cpu, wall, main = time.process_time(), time.monotonic(), time.thread_time()
    for moves, _ in rows:
        scores.append(solver.score(Position.of(Board.from_moves(moves)), Budget()))
    cpu, wall, main = time.process_time() - cpu, time.monotonic() - wall, time.thread_time() - main
    return scores, getattr(solver, "all_nodes", solver.nodes), cpu, wall, main


def external(program: str, rows: List[Row]) -> Run:
    lines = "".join(f"{moves or '-'}\n" for moves, _ in rows)
    proc = subprocess.run([program], input=lines, capture_output=True, text=True, check=True)
    scores, nodes, cpu, wall = [], 0, 0.0, 0.0
    for line in proc.stdout.splitlines():
        fields = line.split()
        if len(fields) in (4, 5):  # MOVES SCORE POSITIONS CPU_SECONDS [WALL_SECONDS]
            scores.append(int(fields[1]))
            nodes += int(fields[2])
            cpu += float(fields[3])
            wall += float(fields[4] if len(fields) == 5 else fields[3])
    if len(scores) != len(rows):
        raise SystemExit(f"{program}: {len(scores)} answers for {len(rows)} positions")
    return scores, nodes, cpu, wall, cpu


def bitbully(rows: List[Row]) -> Run:
    from bitbully import bitbully_core  # type: ignore[import-not-found,import-untyped,unused-ignore]  # optional

    solver = bitbully_core.BitBullyCore()
    scores, nodes = [], 0
    cpu, wall = time.process_time(), time.monotonic()
    for moves, _ in rows:
        board = bitbully_core.BoardCore()
        board.play([int(c) - 1 for c in moves])
        solver.resetNodeCounter()
        scores.append(solver.mtdf(board, 0))
        nodes += solver.getNodeCounter()
    cpu = time.process_time() - cpu
    return scores, nodes, cpu, time.monotonic() - wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--testsets", type=Path, default=SHARED if SHARED.is_dir() else REPOSITORY / "tests" / "data")
    parser.add_argument("--sets", default="Test_L1_R2,Test_L2_R2", help="comma-separated, or 'none'")
    parser.add_argument("--sample", type=int, default=200, metavar="N", help="N positions of each set (default 200)")
    parser.add_argument("--empty", action="store_true", help="also the empty board (minutes)")
    parser.add_argument("--core", choices=CORES, default="native")
    parser.add_argument("--table-bits", type=int, default=20, help="our table: 2**N entries (default 20: 8 MB)")
    parser.add_argument("--steininger", default=None, metavar="PROGRAM")
    parser.add_argument("--pons", default=None, metavar="PROGRAM")
    parser.add_argument("--bitbully", action="store_true", help="bitbully too (pip install bitbully)")
    parser.add_argument("--threads", default="1", metavar="N[,N...]",
                        help="our native core's threads, each in turn (default 1)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="run everything N times (default 1)")
    args = parser.parse_args()
    try:
        threads = [int(n) for n in args.threads.split(",")]
    except ValueError:
        parser.error("--threads is a list of numbers: 1,2")
    if any(not 1 <= n <= 64 for n in threads) or (args.core == "python" and threads != [1]):
        parser.error("--threads: 1 to 64 each, and only with the native core")
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; Python {platform.python_version()}; "
          f"load average {load()}", flush=True)
    groups: List[Tuple[str, List[Row]]] = []
    for name in ([] if args.sets == "none" else args.sets.split(",")):
        groups.append((name, read_set(args.testsets / name, args.sample)))
    if args.empty:
        groups.append(("empty", [("", 1)]))   # the first player wins with its last stone
    ours_table = f"table 2**{args.table_bits} entries, {8 << args.table_bits >> 20} MB"
    for repetition in range(args.repeat):
        if args.repeat > 1:
            print(f"-- repetition {repetition + 1} of {args.repeat}", flush=True)
        for name, rows in groups:
            first: Optional[Run] = None
            for n in threads:
                before = load()
                run = ours(rows, args.core, args.table_bits, n)
                first = run if n == 1 else first
                label = f"ours ({args.core})" if threads == [1] else f"ours {n} thread{'s' if n > 1 else ''}"
                report(label, name, rows, run, ours_table, f"{before} -> {load()}",
                       (first[3] / run[3], first[4] / run[4]) if n > 1 and first is not None else None)
            for title, program in (("Steininger", args.steininger), ("Pons", args.pons)):
                if program:
                    before = load()
                    report(title, name, rows, external(program, rows), "as built, 1 thread", f"{before} -> {load()}")
            if args.bitbully and name != "empty":
                before = load()
                report("bitbully", name, rows, bitbully(rows), "its own table", f"{before} -> {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
