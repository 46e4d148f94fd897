"""The games database: what damaged pages do to the commands, and what the checks cost.

``--fuzz N``: a games file of ``--matches`` matches (``tests/helpers/records_damage.py``) copied N
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

``--moves N``: the per-move commit (WAL, ``synchronous=FULL``): N moves of random best-of-three
matches through ``Recorder.played``, each timed (wall and the thread's CPU), in a file under
``--dir`` (default: the current directory; a tmpfs would hide the fsyncs), and the fsyncs
counted by running the same again under ``strace`` (when it is installed); then a real game on
the ``sense_emu`` library (the tests' sandbox) dropping 30 tokens, with when each commit
starts and ends against the fall's first frame and when the second frame comes (one row,
30 ms, later: a write that held it up would make it late).

Usage: ``python benchmarks/records.py [--fuzz 250] [--matches 60] [--cost] [--moves 500 [--dir D]]``.
Figures only.
"""
from __future__ import annotations

import argparse
import collections
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from records_damage import MODES, damage, fresh, games_file, read_commands, rows, write_after  # noqa: E402
from sensehat_c4.records import files, writer as writing  # noqa: E402
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
        conn = files.connect(path, busy=2.0, query="mode=ro")
        count = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        quick = cpu(lambda conn=conn: conn.execute("PRAGMA quick_check").fetchall())
        writer = cpu(lambda conn=conn: (files.identify(conn), writing.check_file(conn)))
        reading = cpu(lambda path=path: read_all(path), 3)
        conn.close()
        print(f"{matches:>8} {count:>7} {path.stat().st_size // 1024:>6}  {quick * 1000:>8.1f} ms  "
              f"{writer * 1000:>9.1f} ms  {reading * 1000:>14.1f} ms")


def read_all(path: Path) -> None:
    with Records(path) as stored:
        stored.matches()


def spread(name: str, seconds: Sequence[float]) -> str:
    ms = sorted(1000 * x for x in seconds)
    return (f"{name}: median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, "
            f"max {ms[-1]:.2f} ms")


def random_rounds(rng: random.Random):
    """Random legal games, move by move: ``(board after the move, its round number, starter)``."""
    from sensehat_c4.rules import Board

    number = 0
    while True:
        number += 1
        board = Board()
        while board.outcome is None:
            board.play(rng.choice(board.legal_moves()))
            yield board, number, 1 if number % 2 else 2


def commit_moves(count: int, directory: Path, mark: bool = False) -> Tuple[List[float], List[float]]:
    """``count`` moves committed one by one (after the file's first move); wall and CPU seconds of each."""
    from records_data import ANN, BOB
    from sensehat_c4.records import Recorder

    recorder = Recorder(directory / "games.db")
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock", wins=10 ** 6)
    recorder.start_round()
    moves = random_rounds(random.Random(1))
    board, number, starter = next(moves)
    recorder.played(number, starter, board)   # the file made, checked and opened
    if mark:
        os.write(2, b"-- moves --\n")
    wall, cpu = [], []
    for _ in range(count):
        board, number, starter = next(moves)
        if board.ply == 1:
            recorder.start_round()
        start, start_cpu = time.perf_counter(), time.thread_time()
        recorder.played(number, starter, board)
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    assert recorder.failed is None and recorder.pending == 0
    recorder.close()
    return wall, cpu


def fsyncs(count: int, directory: Path) -> str:
    """The fsyncs of ``count`` moves, counted by strace (in a child running :func:`commit_moves`)."""
    if shutil.which("strace") is None:
        return "fsyncs: not counted (strace is not installed)"
    trace = directory / "strace.txt"
    code = ("import sys; sys.path[:0] = [sys.argv[3], sys.argv[3] + '/tests/helpers']; from pathlib import Path\n"
            "from benchmarks.records import commit_moves\n"
            "commit_moves(int(sys.argv[1]), Path(sys.argv[2]), mark=True)\n")
    work = directory / "traced"
    work.mkdir()
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,write", "-o", str(trace), sys.executable,
                    "-c", code, str(count), str(work), str(ROOT)], check=True, stderr=subprocess.DEVNULL)
    lines = trace.read_text().splitlines()
    after = lines[next(i for i, line in enumerate(lines) if "-- moves --" in line):]
    syncs = [line for line in after if "fsync(" in line or "fdatasync(" in line]
    return (f"fsyncs: {len(syncs)} in {count} moves ({len(syncs) / count:.2f} a move; "
            f"{sum('fdatasync(' in line for line in syncs)} of them fdatasync)")


def fall_timing(directory: Path) -> None:
    """A real game on the sense_emu library: each commit against the fall's first and second frames."""
    import emu_sandbox
    from emu_sandbox import FakeEmulator

    emu = tempfile.mkdtemp(prefix="c4bench-")
    emu_sandbox.redirect(emu)
    os.environ["HOME"] = emu
    from gamelib.backends.senselib import EmuBackend
    from sensehat_c4.match.controller import MatchOptions, play
    from sensehat_c4.records import Recorder

    written: List[float] = []
    commits: List[Tuple[float, float, float]] = []   # start, end, thread CPU
    recorder = Recorder(directory / "game.db")
    played = recorder.played

    def timed_played(*args, **kwargs):
        start, cpu = time.perf_counter(), time.thread_time()
        played(*args, **kwargs)
        commits.append((start, time.perf_counter(), time.thread_time() - cpu))

    recorder.played = timed_played  # type: ignore[method-assign]
    moves = "455714637617614767242476316455122212535333"[:30]   # a drawn game's first 30: no four
    drops: List[int] = []
    try:
        with FakeEmulator(emu) as emulator, EmuBackend() as backend:
            write = backend._write

            def timed_write(pixels):
                write(pixels)
                written.append(time.perf_counter())

            backend._write = timed_write  # type: ignore[method-assign]
            def run() -> None:
                recorder.open()   # as the game does when it starts (it asks for an interrupted match first)
                play(backend, MatchOptions(), recorder=recorder)

            game = threading.Thread(target=run, daemon=True)
            game.start()
            emulator.wait_client()
            time.sleep(0.3)
            for char in moves:
                steps = int(char) - 4
                for _ in range(abs(steps)):
                    emulator.tap("right" if steps > 0 else "left")
                    time.sleep(0.05)
                time.sleep(0.1)
                drops.append(len(written))
                emulator.tap("down")
                time.sleep(0.45)                  # the fall (8 rows of 30 ms) and the next turn
            emulator.tap("up")
            emulator.tap("up")
            game.join(5)
    finally:
        shutil.rmtree(emu, ignore_errors=True)
    assert recorder.failed is None and len(commits) == len(moves), (recorder.failed, len(commits))
    after_first, held, late, cpu = [], [], [], []
    for index, (start, end, used) in zip(drops, commits):
        first, second = written[index], written[index + 1]
        after_first.append(start - first)
        held.append(end - start)
        late.append(second - first - 0.03)
        cpu.append(used)
    print(f"a real game (sense_emu), {len(commits)} drops: each commit starts after the fall's first frame "
          f"(median {1000 * statistics.median(after_first):.2f} ms after it)")
    print("  " + spread("commit, wall", held))
    print("  " + spread("commit, CPU of the game's thread", cpu))
    print("  " + spread("the fall's second frame, later than its 30 ms", late))


def moves_cost(count: int, directory: Path) -> None:
    fs = subprocess.run(["stat", "-f", "-c", "%T", str(directory)], capture_output=True, text=True).stdout.strip()
    print(f"per-move commit (WAL, synchronous=FULL), {count} moves, in {directory} ({fs or 'filesystem unknown'})")
    with tempfile.TemporaryDirectory(prefix="c4-moves-", dir=directory) as work:
        wall, cpu = commit_moves(count, Path(work))
        print("  " + spread("wall", wall))
        print("  " + spread("CPU", cpu))
        print("  " + fsyncs(count, Path(work)))
        fall_timing(Path(work))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="damaged copies per way (0: none)")
    parser.add_argument("--matches", type=int, default=60, help="matches in the file damaged (default 60)")
    parser.add_argument("--cost", action="store_true", help="the checks' CPU time")
    parser.add_argument("--moves", type=int, default=0, metavar="N", help="the per-move commit's cost over N moves")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="where --moves writes (default: here)")
    args = parser.parse_args()
    if args.moves:
        moves_cost(args.moves, args.dir)
    with tempfile.TemporaryDirectory(prefix="c4-records-") as work:
        if args.fuzz:
            fuzz(args.fuzz, args.matches, Path(work))
        if args.cost:
            cost(Path(work))


if __name__ == "__main__":
    main()
