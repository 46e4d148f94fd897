"""The games database on real SQLite files: exact rows, migration, and every way storage can fail."""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from records_data import ANN, BOB, record_match, rows, ticking
from sensehat_c4 import records
from sensehat_c4.records import Recorder, Records, RecordsError, Side
from gamelib.colours import RED, YELLOW

ROOT = os.geteuid() == 0


@pytest.fixture(autouse=True)
def warnings_seen(caplog):
    """The recorder's warnings reach caplog whatever level an earlier test left on the root logger."""
    caplog.set_level(logging.WARNING, logger="sensehat_c4.records")


def one_warning(caplog) -> str:
    lines = [r.getMessage() for r in caplog.records if r.name == "sensehat_c4.records"]
    assert len(lines) == 1, lines
    return lines[0]


def test_a_match_is_stored_round_by_round(tmp_path):
    path = tmp_path / "share" / "sensehat-c4" / "games.db"
    recorder = Recorder(path, clock=ticking())
    computer = Side(YELLOW, level="hard", seconds=1.0)
    record_match(recorder, ["1212121", "4455667", "1122334"], sides=(ANN, computer), winner=1,
                 backend="terminal")
    assert rows(path, "SELECT * FROM matches") == [
        (1, "2026-11-23T14:00:00Z", "2026-11-23T14:07:00Z", "finished", 1, 7, 6, "terminal",
         "Ann", None, None, "#ff0000", None, "hard", 1.0, "#ffff00", None)]
    assert rows(path, "SELECT * FROM rounds") == [
        (1, 1, 1, 1, "1212121", "win", 1, "[[1, 1], [1, 2], [1, 3], [1, 4]]",
         "2026-11-23T14:01:00Z", "2026-11-23T14:02:00Z"),
        (2, 1, 2, 2, "4455667", "win", 2, "[[4, 1], [5, 1], [6, 1], [7, 1]]",
         "2026-11-23T14:03:00Z", "2026-11-23T14:04:00Z"),
        (3, 1, 3, 1, "1122334", "win", 1, "[[1, 1], [2, 1], [3, 1], [4, 1]]",
         "2026-11-23T14:05:00Z", "2026-11-23T14:06:00Z")]
    assert rows(path, "PRAGMA user_version") == [(records.SCHEMA_VERSION,)]
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]
    assert recorder.failed is None


def test_each_round_is_committed_when_it_ends(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=6, rows=5, backend="hat")
    recorder.start_round()
    assert not path.exists()   # nothing is written before the first round ends (the game starts at once)
    from sensehat_c4.rules import Board
    recorder.end_round(1, 2, Board.from_moves("1212121", 6, 5))
    # read by another connection while the match still runs
    assert rows(path, "SELECT number, starter, moves, result, winner FROM rounds") == [(1, 2, "1212121", "win", 2)]
    assert rows(path, "SELECT status, columns, rows, ended FROM matches") == [("playing", 6, 5, None)]


def test_an_abandoned_match_keeps_its_unfinished_round(tmp_path):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"], winner=None, abandoned_moves="4453")
    assert rows(path, "SELECT status, winner FROM matches") == [("abandoned", None)]
    assert rows(path, "SELECT number, starter, moves, result, winner, winning_cells FROM rounds") == [
        (1, 1, "1212121", "win", 1, "[[1, 1], [1, 2], [1, 3], [1, 4]]"),
        (2, 2, "4453", "abandoned", None, "[]")]


def test_default_path_follows_xdg_and_the_environment_variable():
    assert records.default_path({"HOME": "/home/ann"}) == Path("/home/ann/.local/share/sensehat-c4/games.db")
    assert records.default_path({"HOME": "/h", "XDG_DATA_HOME": "/data"}) == Path("/data/sensehat-c4/games.db")
    assert records.default_path({"HOME": "/h", "XDG_DATA_HOME": "rel"}) == Path("/h/.local/share/sensehat-c4/games.db")
    assert records.default_path({"HOME": "/h", "SENSEHAT_C4_DB": "/pi2/games.db"}) == Path("/pi2/games.db")


def test_an_older_schema_is_migrated_in_place(tmp_path, monkeypatch):
    path = tmp_path / "games.db"
    # a version-1 file with one match, then a program whose schema 2 adds a column
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    monkeypatch.setattr(records, "MIGRATIONS", records.MIGRATIONS + ("ALTER TABLE matches ADD COLUMN note TEXT",))
    monkeypatch.setattr(records, "SCHEMA_VERSION", 2)
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    assert rows(path, "PRAGMA user_version") == [(2,)]
    assert rows(path, "SELECT id, note FROM matches") == [(1, None), (2, None)]
    assert rows(path, "SELECT match_id, moves FROM rounds") == [(1, "1212121"), (2, "4455667")]


def test_a_file_from_a_newer_program_is_left_alone(tmp_path, caplog):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])
    assert one_warning(caplog) == ("games are not being recorded: made by a newer sensehat-c4 "
                                   f"(schema 99; this one knows 1) ({path})")
    assert rows(path, "PRAGMA user_version") == [(99,)]
    with pytest.raises(RecordsError, match=r"made by a newer sensehat-c4 \(schema 99\); upgrade to read it"):
        Records(path)


def test_a_locked_database_costs_one_log_line_and_play_goes_on(tmp_path, caplog):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than the busy timeout
    recorder = Recorder(path, clock=ticking(), busy=0.05)
    record_match(recorder, ["4455667", "1212121"])  # every call returns
    assert recorder.failed == "database is locked"
    assert one_warning(caplog) == f"games are not being recorded: database is locked ({path})"
    other.execute("ROLLBACK")
    other.close()
    assert rows(path, "SELECT id, moves FROM rounds") == [(1, "1212121")]


def test_two_processes_write_at_once(tmp_path):
    path = tmp_path / "games.db"
    script = ("import sys; sys.path.insert(0, 'tests'); from pathlib import Path\n"
              "from records_data import record_match; from sensehat_c4.records import Recorder\n"
              "r = Recorder(Path(sys.argv[1]))\n"
              "for _ in range(25): record_match(r, ['1212121', '4455667'])\n"
              "assert r.failed is None, r.failed\n")
    children = [subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=Path(__file__).parent.parent)
                for _ in range(2)]
    assert [c.wait(timeout=120) for c in children] == [0, 0]
    assert rows(path, "SELECT COUNT(*), COUNT(DISTINCT pid) FROM matches WHERE status = 'finished'") == [(50, 0)]
    assert rows(path, "SELECT COUNT(*) FROM rounds") == [(100,)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]


def test_a_file_that_is_not_a_database_is_kept_aside(tmp_path, caplog):
    path = tmp_path / "games.db"
    junk = b"this is not SQLite, but somebody's notes\n" * 200
    path.write_bytes(junk)
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    aside = tmp_path / "games.db.corrupt-20261123T140300"
    assert aside.read_bytes() == junk
    assert one_warning(caplog) == ("the games database was damaged (file is not a database): "
                                   "kept as games.db.corrupt-20261123T140300, starting a new one")
    assert rows(path, "SELECT moves FROM rounds") == [("1212121",)]


def test_a_database_with_a_damaged_page_is_kept_aside(tmp_path, caplog):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    for _ in range(40):
        record_match(recorder, ["1212121", "4455667"])
    recorder.close()
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    assert len(data) >= 3 * page
    data[2 * page: 3 * page] = b"\xa5" * page  # the third page: part of a table's b-tree
    path.write_bytes(bytes(data))
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    message = one_warning(caplog)
    assert message.startswith("the games database was damaged (")
    assert message.endswith("): kept as games.db.corrupt-20261123T140300, starting a new one")
    assert (tmp_path / "games.db.corrupt-20261123T140300").read_bytes() == bytes(data)
    assert rows(path, "SELECT id, moves FROM rounds") == [(1, "4455667")]


def test_a_directory_in_its_place(tmp_path, caplog):
    path = tmp_path / "games.db"
    path.mkdir()
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])
    assert one_warning(caplog) == f"games are not being recorded: games.db is a directory ({path})"
    assert path.is_dir() and list(path.iterdir()) == []
    with pytest.raises(RecordsError, match=f"^{path} is a directory, not a games database$"):
        Records(path)


@contextlib.contextmanager
def tmpfs(where: Path, size: str, *options: str):
    """A real small filesystem (root only); unmounted afterwards."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(("size=" + size,) + options), "tmpfs",
                           str(where)], capture_output=True)
    if done.returncode:
        pytest.skip("cannot mount a tmpfs here: " + done.stderr.decode().strip())
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def remount(where: Path, option: str) -> None:
    subprocess.run(["mount", "-o", "remount," + option, str(where)], check=True)


@pytest.mark.skipif(not ROOT, reason="a read-only mount needs root (the chmod case below runs instead)")
def test_a_read_only_filesystem(tmp_path, caplog):
    with tmpfs(tmp_path / "mnt", "1m") as mnt:
        path = mnt / "games.db"
        first = Recorder(path, clock=ticking())
        record_match(first, ["1212121"])
        first.close()
        remount(mnt, "ro")
        recorder = Recorder(path, clock=ticking())
        record_match(recorder, ["4455667"])
        assert one_warning(caplog) == f"games are not being recorded: {mnt} is read-only ({path})"
        with Records(path) as stored:  # still readable
            assert [r.moves for m in stored.matches() for r in m.rounds] == ["1212121"]


@pytest.mark.skipif(ROOT, reason="root writes whatever the file mode says (the read-only mount case runs)")
def test_a_read_only_file_for_its_user(tmp_path, caplog):
    path = tmp_path / "games.db"
    first = Recorder(path, clock=ticking())
    record_match(first, ["1212121"])
    first.close()
    for p in tmp_path.iterdir():
        p.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        recorder = Recorder(path, clock=ticking())
        record_match(recorder, ["4455667"])
    finally:
        tmp_path.chmod(0o755)
    assert one_warning(caplog) == f"games are not being recorded: {tmp_path} is read-only ({path})"
    assert rows(path, "SELECT moves FROM rounds") == [("1212121",)]


def test_a_full_disk_by_max_page_count(tmp_path, caplog):
    """SQLITE_FULL simulated: the file may not grow past its pages (works without root)."""
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])
    pages = rows(path, "PRAGMA page_count")[0][0]
    recorder._conn.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(30):  # a few fit in the free space of the pages there are, then it is full
        record_match(recorder, ["4455667" * 1, "1212121"], sides=(Side(RED, name="A" * 500), BOB))
    assert recorder.failed == "database or disk is full"
    assert one_warning(caplog) == f"games are not being recorded: database or disk is full ({path})"
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "SELECT moves FROM rounds WHERE id = 1") == [("1212121",)]


@pytest.mark.skipif(not ROOT, reason="a small real filesystem needs root to mount (max_page_count case runs)")
def test_a_full_disk_on_a_small_tmpfs(tmp_path, caplog):
    with tmpfs(tmp_path / "mnt", "256k") as mnt:
        path = mnt / "games.db"
        recorder = Recorder(path, clock=ticking())
        record_match(recorder, ["1212121"])
        with contextlib.suppress(OSError), open(mnt / "filler", "wb", buffering=0) as filler:
            while True:  # the rest of the disk, to the last block
                filler.write(b"\0" * 4096)
        for _ in range(20):
            record_match(recorder, ["4455667", "1212121"], sides=(Side(RED, name="A" * 2000), BOB))
        assert recorder.failed == "database or disk is full"
        assert one_warning(caplog) == f"games are not being recorded: database or disk is full ({path})"
        (mnt / "filler").unlink()
        assert rows(path, "PRAGMA integrity_check") == [("ok",)]
        assert rows(path, "SELECT id, moves FROM rounds WHERE id = 1") == [(1, "1212121")]


KILL_SCRIPT = """
import sys; sys.path.insert(0, 'tests'); from pathlib import Path
from sensehat_c4.records import Recorder
from sensehat_c4.rules import Board
from records_data import ANN, BOB
r = Recorder(Path(sys.argv[1]))
r.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
for number in range(1, 100000):
    r.start_round()
    r.end_round(number, 1, Board.from_moves("1212121"))
    assert r.failed is None
    print(number, flush=True)
"""


def test_committed_rounds_survive_sigkill(tmp_path):
    path = tmp_path / "games.db"
    child = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(path)], cwd=Path(__file__).parent.parent,
                             stdout=subprocess.PIPE, text=True)
    committed = [int(child.stdout.readline()) for _ in range(30)]
    os.kill(child.pid, signal.SIGKILL)  # mid-game, probably mid-write
    child.wait()
    child.stdout.close()
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    stored = [n for (n,) in rows(path, "SELECT number FROM rounds ORDER BY id")]
    assert stored[:30] == committed == list(range(1, 31))
    assert stored == list(range(1, len(stored) + 1))
    assert rows(path, "SELECT status FROM matches") == [("playing",)]
    # the next program to record sees that the killed one is gone and marks its match abandoned
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    last_end = rows(path, "SELECT MAX(ended) FROM rounds WHERE match_id = 1")[0][0]
    assert rows(path, "SELECT id, status, ended, pid FROM matches") == [
        (1, "abandoned", last_end, None), (2, "finished", "2026-11-23T14:03:00Z", None)]


def test_reading_errors_are_one_line(tmp_path):
    missing = tmp_path / "none.db"
    with pytest.raises(RecordsError) as err:
        Records(missing)
    assert str(err.value) == f"no games recorded yet ({missing} does not exist)"
    empty = tmp_path / "empty.db"
    sqlite3.connect(str(empty)).close()
    with pytest.raises(RecordsError) as err:
        Records(empty)
    assert str(err.value) == f"no games recorded yet ({empty} is empty)"
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"x" * 4096)
    with pytest.raises(RecordsError) as err:
        Records(junk)
    assert str(err.value) == f"cannot read {junk}: file is not a database"
    good = tmp_path / "good.db"
    record_match(Recorder(good, clock=ticking()), ["1212121", "4455667"])
    with Records(good) as stored:
        assert stored.round("last")[1].moves == "4455667"
        assert stored.round("1")[1].moves == "1212121"
        with pytest.raises(RecordsError, match=f"^no round 3 in {good}$"):
            stored.round("3")
        with pytest.raises(RecordsError, match=r"^not a round ID: 'x1' \(use a number from 'history', or last\)$"):
            stored.round("x1")


def test_a_match_left_before_any_move_leaves_nothing(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.end_match(None)
    assert not path.exists()
    record_match(recorder, ["1212121"])
    assert rows(path, "SELECT id, status FROM matches") == [(1, "finished")]
