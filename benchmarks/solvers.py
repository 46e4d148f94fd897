#!/usr/bin/env python3
"""Our exact solver side by side with other solvers, in the same run: CPU time and positions.

Prints figures; not a test.  Without books: each solver alone on the same positions.

    python benchmarks/solvers.py --sets Test_L1_R2,Test_L2_R2 --sample 200 \\
        --steininger PATH --pons PATH              # the test sets
    python benchmarks/solvers.py --sets none --empty --table-bits 23 --steininger PATH --pons PATH

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

from sensehat_c4.engine.book12 import SHAPE  # noqa: E402
from sensehat_c4.engine.cores import CORES, new_solver  # noqa: E402
from sensehat_c4.engine.limit import Budget  # noqa: E402
from sensehat_c4.engine.position import Position  # noqa: E402
from sensehat_c4.rules import Board  # noqa: E402

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


def report(name: str, what: str, rows: List[Row], scores: List[int], nodes: int, cpu: float, table: str) -> None:
    wrong = sum(known is not None and known != got for (_, known), got in zip(rows, scores))
    verdict = "all correct" if not wrong else f"{wrong} WRONG"
    print(f"{name:11} {what:11} {len(rows):4} positions  {verdict:11}  mean {cpu / len(rows) * 1000:10.2f} ms CPU  "
          f"total {cpu:8.2f} s  {nodes:14,} positions searched  ({table})", flush=True)


def ours(rows: List[Row], core: str, table_bits: int) -> Tuple[List[int], int, float]:
    solver = new_solver(SHAPE, table_bits=table_bits, core=core)
    scores, nodes = [], 0
    cpu = time.process_time()
    for moves, _ in rows:
        budget = Budget()
        scores.append(solver.score(Position.of(Board.from_moves(moves)), budget))
        nodes += budget.nodes
    return scores, nodes, time.process_time() - cpu


def external(program: str, rows: List[Row]) -> Tuple[List[int], int, float]:
    lines = "".join(f"{moves or '-'}\n" for moves, _ in rows)
    proc = subprocess.run([program], input=lines, capture_output=True, text=True, check=True)
    scores, nodes, cpu = [], 0, 0.0
    for line in proc.stdout.splitlines():
        fields = line.split()
        if len(fields) == 4:
            scores.append(int(fields[1]))
            nodes += int(fields[2])
            cpu += float(fields[3])
    if len(scores) != len(rows):
        raise SystemExit(f"{program}: {len(scores)} answers for {len(rows)} positions")
    return scores, nodes, cpu


def bitbully(rows: List[Row]) -> Tuple[List[int], int, float]:
    from bitbully import bitbully_core  # type: ignore[import-not-found]  # noqa: PLC0415 (optional)

    solver = bitbully_core.BitBullyCore()
    scores, nodes = [], 0
    cpu = time.process_time()
    for moves, _ in rows:
        board = bitbully_core.BoardCore()
        board.play([int(c) - 1 for c in moves])
        solver.resetNodeCounter()
        scores.append(solver.mtdf(board, 0))
        nodes += solver.getNodeCounter()
    return scores, nodes, time.process_time() - cpu


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
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; Python {platform.python_version()}; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    groups: List[Tuple[str, List[Row]]] = []
    for name in ([] if args.sets == "none" else args.sets.split(",")):
        groups.append((name, read_set(args.testsets / name, args.sample)))
    if args.empty:
        groups.append(("empty", [("", 1)]))   # the first player wins with its last stone
    ours_table = f"table 2**{args.table_bits} entries, {8 << args.table_bits >> 20} MB"
    for name, rows in groups:
        report(f"ours ({args.core})", name, rows, *ours(rows, args.core, args.table_bits), ours_table)
        if args.steininger:
            report("Steininger", name, rows, *external(args.steininger, rows), "as built")
        if args.pons:
            report("Pons", name, rows, *external(args.pons, rows), "as built")
        if args.bitbully and name != "empty":
            report("bitbully", name, rows, *bitbully(rows), "its own table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
