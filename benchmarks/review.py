"""How long ``sensehat-c4 review`` takes on whole recorded 7 x 6 games.

Each game (40 moves unless ``--games`` names others) is recorded into a fresh games file,
then ``sensehat-c4 review ID`` runs in a child process, as a person runs it: the figures
are the child's wall time and CPU time (user + system, from ``getrusage``), start-up and
imports included, and the review alone (in this process, one fresh oracle per game,
``time.process_time``), with the positions that took longest.  ``--core`` picks the
solver's core (``SENSEHAT_C4_PURE_PYTHON=1`` for ``python``); ``--no-book`` hides the
12-ply book (``SENSEHAT_C4_BOOK12`` pointed at a missing file).  The target: a 40-move game
in at most 5 s with the native core and the 12-ply book; a Raspberry Pi 4 is 4-6 times slower.

Usage: ``python benchmarks/review.py [--core native|python] [--no-book] [--games MOVES,...]``.  Figures only.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

GAMES = {   # 40-move 7 x 6 games the levels played (seeded), as tests/study/test_review_solvers.py records them
    "medium v medium": "4344744673633212217741661367327622115555",
    "hard v perfect": "4432444555676554351212223333217111777766",
    "medium v hard": "4344574546435526666556122277177117221133",
    "hard v perfect (2)": "4444326555455674352222217111333377717166",
}


def environment(core: str, book: bool) -> Dict[str, str]:
    env = dict(os.environ)
    env.pop("SENSEHAT_C4_PURE_PYTHON", None)
    if core == "python":
        env["SENSEHAT_C4_PURE_PYTHON"] = "1"
    if not book:
        env["SENSEHAT_C4_BOOK12"] = str(ROOT / "no-such-book.dat")
    return env


def command(path: Path, env: Dict[str, str]) -> Tuple[float, float]:
    """Wall and CPU seconds of ``sensehat-c4 review last`` in a child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "review", "last", "--time-limit", "600",
                           "--db", str(path)], env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"review failed: {done.stderr.strip()}")
    if "not solved in time" in done.stdout:
        raise SystemExit("a position was not solved in 600 s")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_process(moves: str) -> Tuple[float, float, List[Tuple[float, int]]]:
    """Wall and CPU seconds of scoring every position with a fresh oracle, and the slowest positions."""
    from sensehat_c4.engine import Limit, Oracle, move_scores
    from sensehat_c4.rules import Board

    oracle = Oracle.installed()
    board = Board()
    wall, cpu = time.monotonic(), time.process_time()
    per: List[Tuple[float, int]] = []
    for char in moves:
        start = time.process_time()
        move_scores(board, limit=Limit(seconds=600), oracle=oracle)
        per.append((time.process_time() - start, board.ply))
        board.play(int(char) - 1)
    return time.monotonic() - wall, time.process_time() - cpu, sorted(per, reverse=True)[:3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", choices=("native", "python"), default="native")
    parser.add_argument("--no-book", action="store_true", help="without the 12-ply book")
    parser.add_argument("--games", default=None, help="move lists (7 x 6), comma-separated (default: four 40-move games)")
    args = parser.parse_args()
    env = environment(args.core, not args.no_book)
    os.environ.update({k: v for k, v in env.items() if k.startswith("SENSEHAT_C4_")})
    if "SENSEHAT_C4_PURE_PYTHON" not in env:
        os.environ.pop("SENSEHAT_C4_PURE_PYTHON", None)
    from records_data import record_match, ticking
    from sensehat_c4.engine import book12, cores
    from sensehat_c4.records import Recorder

    games = GAMES if args.games is None else {f"game {i + 1}": m for i, m in enumerate(args.games.split(","))}
    book = book12.default_path()
    print(f"core: {cores.core_name()}; 12-ply book: {'yes' if book is not None and book.is_file() else 'no'}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as work:
        for name, moves in games.items():
            path = Path(work) / f"{len(moves)}-{abs(hash(moves))}.db"
            record_match(Recorder(path, clock=ticking()), [moves])
            wall, cpu = command(path, env)
            alone_wall, alone_cpu, slowest = in_process(moves)
            worst = ", ".join(f"{stones} stones {seconds * 1000:.0f} ms" for seconds, stones in slowest)
            print(f"{name} ({len(moves)} moves): sensehat-c4 review {wall:.2f} s wall, {cpu:.2f} s CPU; "
                  f"the review alone {alone_wall:.2f} s wall, {alone_cpu:.2f} s CPU (slowest: {worst})")


if __name__ == "__main__":
    main()
