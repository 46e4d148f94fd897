"""Damaged games files for tests and the records benchmark: a realistic file, pages damaged
four ways (seeded), and the four read commands run on it in this process.

:func:`games_file` records ``matches`` matches of random legal rounds (sizes, names, the
computer's levels, abandoned rounds) with the real :class:`~sensehat_c4.records.Recorder`.
:func:`damage` copies it and damages one page: ``bytes`` flips 1-8 bytes, ``random`` fills
the page with random bytes, ``zero`` with zeros, ``copy`` with another page of the file
(a stale or misdirected write).  :func:`read_commands` runs ``history``, ``history --json``,
``stats --json``, ``review last`` and ``replay last`` (on the mock backend) and returns, for
each, the exit code or the exception that escaped, with what it wrote on stderr.
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sqlite3
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

from gamelib import backends
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLUE, GREEN, RED, YELLOW
from records_data import ticking
from sensehat_c4 import commands
from sensehat_c4.records import Recorder, Side
from sensehat_c4.rules import Board

MODES = ("bytes", "random", "zero", "copy")
SIZES = ((7, 6), (6, 5), (4, 4), (8, 6), (5, 4))


def _round(rng: random.Random, columns: int, rows: int) -> Board:
    board = Board(columns, rows)
    stop = rng.randrange(1, columns * rows + 1)  # some rounds are left unfinished (abandoned)
    while not board.is_over and board.ply < stop:
        board.play(rng.choice(board.legal_moves()))
    return board


def games_file(path: Path, matches: int, seed: int = 1) -> Path:
    """``path`` with ``matches`` recorded matches, the write-ahead log folded into it."""
    rng = random.Random(seed)
    recorder = Recorder(path, clock=ticking())
    for _ in range(matches):
        columns, rows = rng.choice(SIZES)
        if rng.random() < 0.5:
            level = rng.choice(["easy", "medium", "hard", "perfect"])
            sides = (Side(RED, name=rng.choice(["Ann", "Bob", "Cy", "Dee"])),
                     Side(YELLOW, level=level, seconds=rng.choice([1.0, 8.0])))
        else:
            sides = (Side(BLUE, name="Ann"), Side(GREEN, name=rng.choice(["Bob", None])))
        recorder.start_match(sides, columns=columns, rows=rows, backend=rng.choice(["hat", "emu", "terminal"]))
        for number in range(1, rng.randrange(2, 5)):
            recorder.start_round()
            recorder.played(number, 1 if number % 2 else 2, _round(rng, columns, rows))
        recorder.end_match(rng.choice([1, 2, None]))
    recorder.close()
    assert recorder.failed is None, recorder.failed
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


PAGE = 4096


def damage(source: Path, target: Path, mode: str, seed: int) -> int:
    """``source`` copied to ``target`` with one page damaged (``mode``, see the module); the page's number."""
    rng = random.Random(f"{mode}-{seed}")
    data = bytearray(source.read_bytes())
    pages = len(data) // PAGE
    page = rng.randrange(pages)
    start = page * PAGE
    if mode == "bytes":
        for _ in range(rng.randrange(1, 9)):
            data[start + rng.randrange(PAGE)] ^= rng.randrange(1, 256)
    elif mode == "random":
        data[start:start + PAGE] = bytes(rng.randrange(256) for _ in range(PAGE))
    elif mode == "zero":
        data[start:start + PAGE] = bytes(PAGE)
    else:
        other = rng.randrange(pages)
        data[start:start + PAGE] = data[other * PAGE:(other + 1) * PAGE]
    target.write_bytes(bytes(data))
    return page + 1


def rows(path: Path) -> Optional[List[tuple]]:
    """Every row of both tables as SQLite holds them (bytes for text), or ``None`` if they cannot be read."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.text_factory = bytes
    try:
        return [tuple(r) for table in ("matches", "rounds") for r in conn.execute(f"SELECT * FROM {table} NOT INDEXED")]
    except (sqlite3.Error, ValueError):
        return None
    finally:
        conn.close()


@dataclass
class Outcome:
    command: str
    exit: Optional[int]
    """The exit code, or ``None`` if an exception escaped (:attr:`crash`)."""
    stderr: List[str]
    crash: str = ""


COMMANDS: Tuple[Tuple[str, ...], ...] = (
    ("history", "--limit", "0"), ("history", "--json", "--limit", "0"), ("stats", "--json"),
    ("review", "last", "--time-limit", "0.001"), ("replay", "last"))


def read_commands(path: Path, monkeypatch) -> List[Outcome]:
    """Each of :data:`COMMANDS` on ``path``, in this process (replay on a mock that pushes up at 600 s)."""
    def mock(args, notice=None):
        backend = MockBackend()
        backend.tap("up", at=600.0)
        return backend

    outcomes = []
    with monkeypatch.context() as patch:
        patch.setattr(backends, "from_args", mock)
        for command in COMMANDS:
            out, err = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = commands.main([*command, "--db", str(path)])
                if "--json" in command and code != 2:
                    json.loads(out.getvalue())  # whatever was skipped, what is printed is JSON
                outcomes.append(Outcome(" ".join(command[:2]), code, err.getvalue().splitlines()))
            except BaseException as exc:  # noqa: B036, BLE001 (a test harness: every escape is a finding)
                where = traceback.extract_tb(exc.__traceback__)[-1]
                outcomes.append(Outcome(" ".join(command[:2]), None, err.getvalue().splitlines(),
                                        f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"))
    return outcomes


def write_after(path: Path) -> str:
    """Record one match into ``path`` (damaged): ``set aside``, ``refused`` or ``written``."""
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((Side(RED, name="Eve"), Side(YELLOW)), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("1212121"))
    recorder.end_match(1)
    recorder.close()
    if any(p.name.startswith(path.name + ".corrupt-") for p in path.parent.iterdir()):
        return "set aside"
    return "refused" if recorder.failed else "written"


def fresh(directory: Path) -> Path:
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory / "games.db"
