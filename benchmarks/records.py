"""The games database: what damaged pages do to the commands, and what the checks cost.

``--fuzz N``: a games file of ``--matches`` matches (``tests/records_damage.py``) copied N
times per way of damaging a page (bytes flipped, random, zeros, another page's copy);
on each copy ``history``, ``history --json``, ``stats --json``, ``review last`` and
``replay last`` (mock backend) run in this process, then the recorder writes one match.
It prints, per way: the commands' exits (0 all shown, 1 shown with rows skipped, 2 one
line, or a traceback) and the writer's fate (set aside, refused, written), and for the
files written to, whether their rows were as recorded, changed in rows older than the
writer checks (the readers skip those), or changed in a way no check sees.

``--cost``: CPU time of the writer's check when it opens a file (once per process:
identity, ``integrity_check``, the rows of the last 100 matches) and of ``quick_check``
alone (what it ran before), and of reading every row (``stats``), on files of 100, 1,000
and 3,000 matches.  A Raspberry Pi 4 is 4-6 times slower.

Usage: ``python benchmarks/records.py [--fuzz 250] [--matches 60] [--cost]``.  Figures only.
"""
from __future__ import annotations

import argparse
import collections
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from records_damage import MODES, damage, fresh, games_file, read_commands, rows, write_after  # noqa: E402
from sensehat_c4 import records  # noqa: E402
from sensehat_c4.records import Records  # noqa: E402


def fuzz(files: int, matches: int, work: Path) -> None:
    original = games_file(fresh(work / "original"), matches)
    pages = original.stat().st_size // 4096
    print(f"a games file of {matches} matches ({pages} pages of 4 KiB); {files} damaged copies per way")
    logging.getLogger("sensehat_c4.records").disabled = True
    patch = pytest.MonkeyPatch()
    crashes: List[str] = []
    for mode in MODES:
        exits: Dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        fates: collections.Counter = collections.Counter()
        for seed in range(files):
            path = fresh(work / "copy")
            page = damage(original, path, mode, seed)
            same = rows(path) == rows(original)
            outcomes = read_commands(path, patch)
            for outcome in outcomes:
                exits[outcome.command][outcome.exit if outcome.crash == "" else "traceback"] += 1
                if outcome.crash:
                    crashes.append(f"{mode} seed {seed} page {page}: {outcome.command}: {outcome.crash}")
            fate = write_after(path)
            if fate == "written" and same:
                fate += ", rows as recorded"
            elif fate == "written":
                fate += (", rows changed that the readers skip (older than the writer checks)"
                         if outcomes[0].exit == 1 else ", rows changed that no check sees")
            fates[fate] += 1
        print(f"\n{mode}: {files} files")
        for command, counts in exits.items():
            print(f"  {command:<16} " + ", ".join(f"exit {k}: {v}" if k != "traceback" else f"traceback: {v}"
                                                   for k, v in sorted(counts.items(), key=str)))
        print("  writer           " + ", ".join(f"{k}: {v}" for k, v in sorted(fates.items())))
    print(f"\ntracebacks: {len(crashes)}")
    for line in crashes[:20]:
        print("  " + line)


def cpu(action: Callable[[], object], repeat: int = 5) -> float:
    """The median CPU seconds of ``action``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times)


def cost(work: Path) -> None:
    print("CPU per open (median of 5; this machine; a Pi 4 is 4-6x slower)")
    print(f"{'matches':>8} {'rounds':>7} {'KiB':>6}  {'quick_check':>11}  {'writer check':>12}  {'stats (every row)':>17}")
    for matches in (100, 1000, 3000):
        path = games_file(fresh(work / f"cost{matches}"), matches, seed=2)
        conn = records._connect(path, busy=2.0, query="mode=ro")
        count = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        quick = cpu(lambda conn=conn: conn.execute("PRAGMA quick_check").fetchall())
        writer = cpu(lambda conn=conn: (records._identify(conn), records.check_file(conn)))
        reading = cpu(lambda path=path: read_all(path), 3)
        conn.close()
        print(f"{matches:>8} {count:>7} {path.stat().st_size // 1024:>6}  {quick * 1000:>8.1f} ms  "
              f"{writer * 1000:>9.1f} ms  {reading * 1000:>14.1f} ms")


def read_all(path: Path) -> None:
    with Records(path) as stored:
        stored.matches()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="damaged copies per way (0: none)")
    parser.add_argument("--matches", type=int, default=60, help="matches in the file damaged (default 60)")
    parser.add_argument("--cost", action="store_true", help="the checks' CPU time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="c4-records-") as work:
        if args.fuzz:
            fuzz(args.fuzz, args.matches, Path(work))
        if args.cost:
            cost(Path(work))


if __name__ == "__main__":
    main()
