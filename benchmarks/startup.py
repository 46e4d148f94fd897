"""Benchmark: how long ``sensehat-c4`` takes to start, and what it imports.

For ``--version``, ``--help``, ``history`` and ``stats`` (on a database that does not exist),
each run N times as ``python -m sensehat_c4 ...`` in a fresh process, prints the median wall time
and the median CPU time (user + system of the child, from ``os.wait4``), and a bare ``python -c
pass`` for the interpreter's own share.  Then, from one ``python -X importtime`` run of each, the
modules loaded and the imports that cost most (cumulative microseconds, as ``-X importtime``
reports them: the parent includes its children).

Usage: ``.venv/bin/python benchmarks/startup.py [--runs 21] [--top 8]``
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Sequence, Tuple

COMMANDS: Dict[str, List[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    "history": ["history", "--db", "{tmp}/none.db"],
    "stats": ["stats", "--db", "{tmp}/none.db"],
}


def timed(argv: Sequence[str], env: Dict[str, str]) -> Tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (its output thrown away)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def medians(argv: Sequence[str], env: Dict[str, str], runs: int) -> Tuple[float, float]:
    timed(argv, env)   # a first run warms the page cache and writes the .pyc files
    walls, cpus = zip(*(timed(argv, env) for _ in range(runs)))
    return statistics.median(walls), statistics.median(cpus)


LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def imports(argv: Sequence[str], env: Dict[str, str]) -> List[Tuple[int, int, str]]:
    """``(cumulative us, depth, module)`` of every import of one ``-X importtime`` run."""
    proc = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], capture_output=True, text=True, env=env)
    return [(int(m.group(2)), len(m.group(3)) // 2, m.group(4)) for m in map(LINE.match, proc.stderr.splitlines())
            if m]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (the median is shown)")
    parser.add_argument("--top", type=int, default=8, help="the costliest imports shown per command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HOME": tmp}
        env.pop("SENSEHAT_C4_DB", None)
        wall, cpu = medians([sys.executable, "-c", "pass"], env, args.runs)
        print(f"python -c pass          wall {wall * 1000:6.1f} ms  cpu {cpu * 1000:6.1f} ms  (the interpreter alone)")
        rows = {}
        for name, argv in COMMANDS.items():
            command = [sys.executable, "-m", "sensehat_c4", *(a.format(tmp=tmp) for a in argv)]
            wall, cpu = medians(command, env, args.runs)
            rows[name] = command
            print(f"sensehat-c4 {name:<11} wall {wall * 1000:6.1f} ms  cpu {cpu * 1000:6.1f} ms  "
                  f"(median of {args.runs}; Pi 4 x5: {wall * 5:.2f} s)")
        for name, command in rows.items():
            found = imports(command, env)
            ours = [module for _, _, module in found if module.startswith(("sensehat_c4", "gamelib"))]
            heavy = [m for m in ("asyncio", "h11", "ctypes", "sqlite3") if any(mod == m for _, _, mod in found)]
            engine = sorted(m for m in ours if m.startswith("sensehat_c4.engine"))
            print(f"\n{name}: {len(found)} modules imported ({len(ours)} of ours); "
                  f"asyncio/h11/ctypes/sqlite3 loaded: {', '.join(heavy) or 'none'}; engine: {', '.join(engine) or 'none'}")
            for cumulative, depth, module in sorted(found, reverse=True)[:args.top]:
                print(f"  {cumulative / 1000:7.1f} ms  {'  ' * depth}{module}")


if __name__ == "__main__":
    main()
