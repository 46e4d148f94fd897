"""``SENSEHAT_C4_BOOK12`` naming something that is not the 12-ply book: one line in the log, and the
engine goes on without it (never a traceback, never a hang, never scores from a file that is not
the book)."""
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from engine_data import book12_or_skip

from sensehat_c4.engine import Oracle, book12
from sensehat_c4.engine.book12 import ENV_VAR, RECORD, SAMPLES, Book12

ROOT = Path(__file__).resolve().parents[2]


def records(keys):
    """Book records (a big-endian signed 32-bit key, then a byte) for ``keys``."""
    return b"".join(key.to_bytes(4, "big", signed=True) + b"\x01" for key in keys)


def make(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / kind
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "odd-size":
        path.write_bytes(b"\x07" * 1001)
    elif kind == "out-of-order":
        path.write_bytes(records(range(1000, 0, -1)))           # a whole number of records, descending
    elif kind == "too-few":
        path.write_bytes(records(range(SAMPLES)))
    elif kind == "huge":                                       # 10 GB of zeros (sparse): every key equal
        with open(path, "wb") as f:
            f.truncate(10_000_000_000)
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "missing":
        pass
    return path


WHY = {
    "empty": "it is empty",
    "odd-size": "its size, 1001, is not a multiple of 5",
    "out-of-order": "its positions are not in order",
    "too-few": "it holds too few positions",
    "huge": "its positions are not in order",
    "directory": "it is not a regular file",
    "fifo": "it is not a regular file",
    "device": "it is not a regular file",
    "missing": "No such file or directory",
}


@pytest.mark.parametrize("kind", list(WHY))
def test_a_file_that_is_not_the_book_is_one_warning_and_no_book(tmp_path, monkeypatch, caplog, kind):
    path = make(tmp_path, kind)
    monkeypatch.setenv(ENV_VAR, str(path))
    caplog.set_level(logging.WARNING, logger="sensehat_c4.engine")
    assert book12.installed() is None
    assert book12.installed() is None                          # said once per process
    assert Oracle.installed().book12 is None
    assert [r.getMessage() for r in caplog.records] == [
        f"the 12-ply book {path} cannot be used: {WHY[kind]}; going on without it"]


def test_the_real_book_still_opens(monkeypatch):
    real = book12_or_skip()
    monkeypatch.setenv(ENV_VAR, str(real.path))
    opened = book12.installed()
    assert opened is not None and opened.entries == real.entries == 4_200_899
    assert os.path.getsize(real.path) == real.entries * RECORD


def test_a_file_of_sorted_records_is_taken_as_a_book(tmp_path):
    """What the check cannot tell from the book: any file of records in order (documented)."""
    path = tmp_path / "sorted.dat"
    path.write_bytes(records(range(SAMPLES + 1)))
    assert Book12(path).entries == SAMPLES + 1


@pytest.mark.parametrize("kind", ["empty", "out-of-order", "fifo", "directory"])
def test_analyse_solve_goes_on_without_it(tmp_path, kind):
    path = make(tmp_path, kind)
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "analyse", "4453", "--solve"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**os.environ, ENV_VAR: str(path)})
    assert done.returncode == 0
    assert done.stdout.splitlines()[-2:] == ["scores: 1:-5 2:-5 3:-2 4:-3 5:-4 6:-2 7:-2", "best: 3"]
    assert done.stderr == (f"sensehat-c4 analyse: WARNING: the 12-ply book {path} cannot be used: {WHY[kind]}; "
                           "going on without it\n")
