"""The games database on real SQLite files: exact rows, migration, and every way storage can fail."""
from __future__ import annotations

import contextlib
import logging
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from records_data import ANN, BOB, foreign, many_matches, record_match, rows, ticking
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
         "Ann", None, None, "#ff0000", None, "hard", 1.0, "#ffff00", None, 0, 0)]
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
    # a file of this version with one match, then a program whose next schema adds a column
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    version = records.SCHEMA_VERSION
    monkeypatch.setattr(records, "MIGRATIONS", records.MIGRATIONS + ("ALTER TABLE matches ADD COLUMN note TEXT",))
    monkeypatch.setattr(records, "SCHEMA_VERSION", version + 1)
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    assert rows(path, "PRAGMA user_version") == [(version + 1,)]
    assert rows(path, "SELECT id, note FROM matches") == [(1, None), (2, None)]
    assert rows(path, "SELECT match_id, moves FROM rounds") == [(1, "1212121"), (2, "4455667")]


def test_a_file_from_a_newer_program_is_left_alone(tmp_path, caplog):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(str(path))
    conn.execute(f"PRAGMA application_id = {records.APPLICATION_ID}")  # ours, from a later version
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])
    assert one_warning(caplog) == ("games are not being recorded: made by a newer sensehat-c4 "
                                   f"(schema 99; this one knows {records.SCHEMA_VERSION}) ({path})")
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


def test_reading_while_games_are_written_reads_one_snapshot(tmp_path):
    """A match and its rounds are read as one: a round is never 'of a match that is not there'
    because the match came in between two reads (nor, for a writer's check, a reason to set the
    file aside)."""
    path = tmp_path / "games.db"
    script = ("import sys; sys.path.insert(0, 'tests'); from pathlib import Path\n"
              "from records_data import record_match; from sensehat_c4.records import Recorder\n"
              "r = Recorder(Path(sys.argv[1]))\n"
              "for _ in range(100): record_match(r, ['1212121', '4455667'])\n"
              "assert r.failed is None, r.failed\n")
    children = [subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=Path(__file__).parent.parent)
                for _ in range(2)]
    reads, notes = 0, []
    while any(c.poll() is None for c in children):
        if path.exists():
            with contextlib.suppress(RecordsError), Records(path) as stored:  # RecordsError: not made yet
                stored.matches(3)
                stored.matches()
                notes += stored.notes
                reads += 1
    assert [c.wait(timeout=120) for c in children] == [0, 0]
    assert reads > 5 and notes == []
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert rows(path, "SELECT COUNT(*) FROM rounds") == [(400,)]


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
    data = bytearray(many_matches(path))
    page = rows(path, "PRAGMA page_size")[0][0]
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


def fill(where: Path) -> Path:
    """Fill the filesystem at ``where`` to its last block; the file that fills it."""
    filler = where / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)
    return filler


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
        fill(mnt)
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
    with Records(missing) as stored:
        assert (stored.matches(), stored.empty, stored.notes) == ([], f"{missing} does not exist", [])
        with pytest.raises(RecordsError, match=f"^no games recorded yet \\({missing} does not exist\\)$"):
            stored.round("last")
    empty = tmp_path / "empty.db"
    sqlite3.connect(str(empty)).close()
    with Records(empty) as stored:
        assert (stored.matches(), stored.empty) == ([], f"{empty} is empty")
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
        with pytest.raises(RecordsError, match=f"^no round {2 ** 64} in {good}$"):  # past SQLite's integers
            stored.round(str(2 ** 64))
        with pytest.raises(RecordsError, match=r"^not a round ID: 'x1' \(use a number from 'history', or last\)$"):
            stored.round("x1")
        assert len(stored.matches(2 ** 64)) == 1


def test_a_match_left_before_any_move_leaves_nothing(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.end_match(None)
    assert not path.exists()
    record_match(recorder, ["1212121"])
    assert rows(path, "SELECT id, status FROM matches") == [(1, "finished")]


# -- whose file: application_id, other programs' files, symlinks --------------------------------


def test_a_new_file_is_marked_ours(tmp_path):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    assert rows(path, "PRAGMA application_id") == [(records.APPLICATION_ID,)] == [(0x43346462,)]


def test_a_file_of_the_first_version_is_still_ours_and_gets_its_mark(tmp_path):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA application_id = 0")   # as the first version left its files
    conn.close()
    with Records(path) as stored:
        assert [r.moves for m in stored.matches() for r in m.rounds] == ["1212121"]
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    assert rows(path, "PRAGMA application_id") == [(records.APPLICATION_ID,)]
    assert rows(path, "SELECT moves FROM rounds") == [("1212121",), ("4455667",)]


@pytest.mark.parametrize("application_id, why", [
    (0, "another program's database (tables: notes; user_version 0)"),
    (0x12345678, "another program's database (application_id 0x12345678)")])
def test_another_programs_database_is_never_written(tmp_path, caplog, application_id, why):
    path = tmp_path / "notes.db"
    before = foreign(path, application_id)
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])   # every call returns: play goes on
    assert one_warning(caplog) == f"games are not being recorded: {why} ({path})"
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]
    with pytest.raises(RecordsError) as err:
        Records(path)
    assert str(err.value) == f"{path} is not a sensehat-c4 games database: {why}"


def test_a_symlink_to_another_programs_file_is_refused_the_same(tmp_path, caplog):
    target = tmp_path / "notes.db"
    before = foreign(target)
    link = tmp_path / "games.db"
    link.symlink_to(target)
    record_match(Recorder(link, clock=ticking()), ["1212121"])
    assert one_warning(caplog) == ("games are not being recorded: another program's database (tables: notes; "
                                   f"user_version 0) ({link})")
    assert target.read_bytes() == before and link.is_symlink()
    with pytest.raises(RecordsError, match="is not a sensehat-c4 games database"):
        Records(link)


def test_a_symlink_to_our_file_is_followed(tmp_path, caplog):
    """The target is the database: its journal files, and a damaged one's copy, lie beside it."""
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "games.db"
    link = tmp_path / "games.db"
    link.symlink_to(target)
    for path, moves in ((target, "1212121"), (link, "4455667")):
        with contextlib.closing(Recorder(path, clock=ticking())) as recorder:
            record_match(recorder, [moves])
    assert rows(target, "SELECT moves FROM rounds") == [("1212121",), ("4455667",)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db", "real"]   # the journal went beside the target
    with Records(link) as stored:
        assert len(stored.matches()) == 2
    target.write_bytes(b"not a database any more" * 200)
    record_match(Recorder(link, clock=ticking()), ["1122334"])
    assert one_warning(caplog) == ("the games database was damaged (file is not a database): "
                                   "kept as games.db.corrupt-20261123T140300, starting a new one")
    assert (tmp_path / "real" / "games.db.corrupt-20261123T140300").exists() and link.is_symlink()
    assert rows(link, "SELECT moves FROM rounds") == rows(target, "SELECT moves FROM rounds") == [("1122334",)]


def test_the_warning_for_a_damaged_page_is_one_line(tmp_path, caplog):
    """A page damaged so that integrity_check's first finding spans several lines (it was 13 lines)."""
    path = tmp_path / "games.db"
    good, page = many_matches(path), 4096
    probe = tmp_path / "probe.db"
    for seed in range(1000):   # flips that SQLite reads past but integrity_check describes at length
        rng = random.Random(seed)
        data = bytearray(good)
        start = rng.randrange(1, len(good) // page) * page
        for _ in range(3):
            data[start + rng.randrange(page)] ^= rng.randrange(1, 256)
        probe.write_bytes(bytes(data))
        try:
            found = rows(probe, "PRAGMA integrity_check")
        except sqlite3.DatabaseError:
            continue
        if "\n" in found[0][0]:
            break
    else:
        pytest.fail("no damage found that integrity_check reports on several lines")
    path.write_bytes(bytes(data))
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    message = one_warning(caplog)
    assert "\n" not in message
    assert re.fullmatch(r"the games database was damaged \(integrity_check: [^\n]+\): "
                        r"kept as games\.db\.corrupt-20261123T140300, starting a new one", message), message


# -- reading without room: a read-only directory, a full disk -------------------------------------

UNCHECKPOINTED = """
import os, sys; sys.path.insert(0, 'tests'); from pathlib import Path
from records_data import record_match
from sensehat_c4.records import Recorder
r = Recorder(Path(sys.argv[1]))
for _ in range(5): record_match(r, ['1212121'])
r._conn.execute('PRAGMA wal_checkpoint(TRUNCATE)')
for _ in range(7): record_match(r, ['4455667'])
os._exit(0)   # as a power cut leaves it: the last 7 rounds only in games.db-wal
"""


def left_in_wal(path: Path) -> None:
    subprocess.run([sys.executable, "-c", UNCHECKPOINTED, str(path)], cwd=Path(__file__).parent.parent, check=True)
    assert path.with_name("games.db-wal").stat().st_size > 0


def moves_read(path: Path):
    with Records(path) as stored:
        return [r.moves for m in reversed(stored.matches()) for r in m.rounds], stored.notes


ALL_12 = ["1212121"] * 5 + ["4455667"] * 7


@pytest.mark.skipif(not ROOT, reason="a read-only mount needs root")
def test_a_read_only_directory_with_rounds_in_the_wal_reads_them_all(tmp_path, monkeypatch):
    for keep_shm in (True, False):
        with tmpfs(tmp_path / f"mnt{keep_shm}", "1m") as mnt:
            path = mnt / "games.db"
            left_in_wal(path)
            if not keep_shm:   # SQLite cannot make its -shm here: the files are copied and read elsewhere
                path.with_name("games.db-shm").unlink()
            remount(mnt, "ro")
            assert moves_read(path) == (ALL_12, [])
            if not keep_shm:  # and with no room for a copy either, it says so
                monkeypatch.setattr(records.tempfile, "TemporaryDirectory", no_room)
                assert moves_read(path) == (["1212121"] * 5, [
                    "some rounds may be missing: games.db-wal holds rounds not yet in games.db, and it can be "
                    "neither read here (unable to open database file) nor copied ([Errno 28] No space left on device)"])
                monkeypatch.undo()


def no_room(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.skipif(not ROOT, reason="a small real filesystem needs root to mount")
def test_a_full_disk_is_read_without_room(tmp_path):
    with tmpfs(tmp_path / "mnt", "256k") as mnt:
        path = mnt / "games.db"
        with contextlib.closing(Recorder(path, clock=ticking())) as recorder:
            record_match(recorder, ["1212121", "4455667"])
        assert not path.with_name("games.db-shm").exists()   # closed: the log folded in, its files gone
        full = fill(mnt)
        assert moves_read(path) == (["1212121", "4455667"], [])
        full.unlink()
        path.unlink()
        left_in_wal(path)
        path.with_name("games.db-shm").unlink()
        fill(mnt)
        assert moves_read(path) == (ALL_12, [])
