"""The games database on real SQLite files: exact rows, migration, and every way storage can fail."""
from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from as_nobody import NOBODY, in_child
from records_data import ANN, BOB, GONE, foreign, interrupted_match, many_matches, record_match, rows, ticking
from sensehat_c4 import records
from sensehat_c4.records import migrations, reader, schema, writer
from sensehat_c4.records import MatchStatus, Owner, Recorder, Records, RecordsError, RoundResult, Side
from sensehat_c4.rules import Board, Starts
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
         "Ann", None, None, "#ff0000", None, "hard", 1.0, "#ffff00", None, "alternate", 2, None, 0, 0)]
    assert rows(path, "SELECT * FROM rounds") == [
        (1, 1, 1, 1, "1212121", "win", 1, "[[1, 1], [1, 2], [1, 3], [1, 4]]",
         "2026-11-23T14:01:00Z", "2026-11-23T14:02:00Z", None, 0, 0),
        (2, 1, 2, 2, "4455667", "win", 2, "[[4, 1], [5, 1], [6, 1], [7, 1]]",
         "2026-11-23T14:03:00Z", "2026-11-23T14:04:00Z", None, 0, 0),
        (3, 1, 3, 1, "1122334", "win", 1, "[[1, 1], [2, 1], [3, 1], [4, 1]]",
         "2026-11-23T14:05:00Z", "2026-11-23T14:06:00Z", None, 0, 0)]
    assert rows(path, "PRAGMA user_version") == [(migrations.SCHEMA_VERSION,)]
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]
    assert recorder.failed is None


def test_each_move_is_committed_as_it_is_played(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=6, rows=5, backend="hat", starts=Starts.P2, wins=3)
    recorder.start_round()
    assert not path.exists()   # nothing is written before the first move (the game starts at once)
    board = Board(6, 5)
    for ply, column in enumerate([0, 1, 0, 1, 0, 1, 0], start=1):
        board.play(column)
        recorder.played(1, 2, board)
        # read by another connection while the match runs: the round as it stands, in its one row
        assert rows(path, "SELECT id, number, starter, moves, result, winner, started, ended FROM rounds") == [
            (1, 1, 2, "1212121"[:ply], "playing" if ply < 7 else "win", None if ply < 7 else 2,
             "2026-11-23T14:01:00Z", f"2026-11-23T14:{1 + ply:02d}:00Z")]
    assert rows(path, "SELECT status, columns, rows, starts, wins, ended, owner FROM matches") == [
        ("playing", 6, 5, "p2", 3, None, str(recorder.owner))]
    assert recorder.pending == 0


def test_the_move_that_wins_the_match_ends_it_in_the_same_write(tmp_path):
    """A power cut during the winner's animation finds the match finished, not one to resume."""
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("121212"))
    recorder.played(1, 1, Board.from_moves("1212121"), match_winner=1)
    assert rows(path, "SELECT status, winner, ended, owner FROM matches") == [
        ("finished", 1, "2026-11-23T14:03:00Z", None)]
    recorder.end_match(1)   # the match loop's call once the animation is over: nothing more to write
    assert rows(path, "SELECT status, winner, ended FROM matches") == [("finished", 1, "2026-11-23T14:03:00Z")]


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
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + ("ALTER TABLE matches ADD COLUMN note TEXT",))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(migrations.MIGRATIONS))
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    assert rows(path, "PRAGMA user_version") == [(migrations.SCHEMA_VERSION,)]
    assert rows(path, "SELECT id, note FROM matches") == [(1, None), (2, None)]
    assert rows(path, "SELECT match_id, moves FROM rounds") == [(1, "1212121"), (2, "4455667")]


def test_a_new_file_has_the_columns_of_the_rows_dataclasses(tmp_path):
    """The migrations make the tables the rows' dataclasses name, column for column, in order."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    for table in (schema.MATCHES, schema.ROUNDS):
        assert tuple(name for _, name, *_ in rows(path, f"PRAGMA table_info({table.name})")) == table.columns
    assert schema.MATCHES.columns[-6:] == ("pid", "starts", "wins", "owner", "p1_remote", "p2_remote")  # v1's, v2's, v3's
    assert schema.MATCH_COLUMNS == tuple(c for c in schema.MATCHES.columns if c not in ("pid", "owner"))
    assert schema.ROUND_COLUMNS == schema.ROUNDS.columns


def test_the_sql_is_built_from_the_column_lists():
    row = schema.ROUNDS.row(id=None, match_id=3, number=2, starter=1, moves="44", result="playing", winner=None,
                            winning_cells="[]", started="2026-11-23T14:01:00Z", ended="2026-11-23T14:02:00Z")
    assert schema.ROUNDS.insert(row) == (
        "INSERT INTO rounds (id, match_id, number, starter, moves, result, winner, winning_cells, started, ended, "
        "level, hints, takebacks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (None, 3, 2, 1, "44", "playing", None, "[]", "2026-11-23T14:01:00Z", "2026-11-23T14:02:00Z", None, 0, 0))
    assert schema.ROUNDS.update(row, ("moves", "ended"), key=("match_id", "number")) == (
        "UPDATE rounds SET moves = ?, ended = ? WHERE match_id = ? AND number = ?",
        ("44", "2026-11-23T14:02:00Z", 3, 2))
    assert schema.MATCHES.select() == (
        "SELECT id, started, ended, status, winner, columns, rows, backend, p1_name, p1_level, p1_seconds, "
        "p1_colour, p2_name, p2_level, p2_seconds, p2_colour, starts, wins, p1_remote, p2_remote "
        "FROM matches NOT INDEXED")
    assert schema.MATCHES.select(("id", "0 AS p1_remote")) == "SELECT id, 0 AS p1_remote FROM matches NOT INDEXED"
    with pytest.raises(ValueError, match="rounds has no column 'note'"):
        schema.ROUNDS.update(row, ("note",), key=("id",))
    with pytest.raises(ValueError, match="matches has no column 'note'"):
        schema.MATCHES.select(("id", "note"))


def test_a_column_added_to_a_row_reaches_the_writer_and_the_readers(tmp_path, monkeypatch):
    """A column is one field of its row's dataclass (and its migration): the recorder's INSERT writes it,
    the readers' SELECT reads it, nothing else to change."""
    path = tmp_path / "games.db"
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + ("ALTER TABLE matches ADD COLUMN note TEXT",))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(migrations.MIGRATIONS))
    noted = dataclasses.make_dataclass("MatchRow", [(f.name, f.type) for f in dataclasses.fields(schema.MatchRow)]
                                       + [("note", str, dataclasses.field(default="kept"))], frozen=True)
    monkeypatch.setattr(schema.MATCHES, "row", noted)   # the one object the writer and the readers share
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    assert rows(path, "SELECT id, note FROM matches") == [(1, "kept")]
    with Records(path) as stored:
        read = list(stored._reader().scan(schema.MATCHES, newest_first=True))
        assert [(row["id"], row["note"]) for row in read] == [(1, "kept")]
        assert [m.id for m in stored.matches()] == [1]


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


def timed(call, *args, **kwargs) -> float:
    start = time.monotonic()
    call(*args, **kwargs)
    return time.monotonic() - start


def test_a_match_s_number_is_its_row_s_once_written_and_none_for_a_match_not_kept(tmp_path):
    """``Recorder.number``: what ``history`` calls the match (its row's id), from its first move's write until
    the next match starts; ``None`` before that, for a match left before a move, and without a database."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])            # match 1, from another run
    recorder = Recorder(path, clock=ticking())
    assert recorder.number is None                                        # nothing started yet
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    assert recorder.number is None                                        # no row before a move
    recorder.played(1, 1, Board.from_moves("4"))
    assert recorder.number == 2
    recorder.end_match(None)
    assert recorder.number == 2                                           # the match just ended keeps it
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    assert recorder.number is None
    recorder.end_match(None)                                              # left before a move: not kept
    assert recorder.number is None
    assert rows(path, "SELECT id FROM matches") == [(1,), (2,)]
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")                                      # another program writing a while
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4"))
    assert recorder.number is None                                        # not written yet: no number yet
    other.execute("ROLLBACK")
    other.close()
    recorder.played(1, 1, Board.from_moves("45"))
    assert recorder.number == 3
    recorder.close()
    interrupted_match(tmp_path / "cut.db", ["4545454", "44"])
    resumed = Recorder(tmp_path / "cut.db", clock=ticking())
    resumed.resume(resumed.interrupted())
    assert resumed.number == 1                                            # an interrupted match goes on as itself
    nowhere = Recorder(tmp_path / "not-a-dir" / "x" / "games.db", clock=ticking())
    (tmp_path / "not-a-dir").write_text("a file where a folder should be")
    nowhere.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    nowhere.played(1, 1, Board.from_moves("4"))
    assert (nowhere.failed is not None, nowhere.number) == (True, None)   # no database: no number


def test_a_lock_held_a_while_only_delays_the_writes(tmp_path, caplog):
    """Another process's long write (SQLITE_BUSY) is not an error: each move waits at most
    MOVE_BUSY_SECONDS for the lock, keeps what it could not write, and the next write takes it all."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than a move may wait
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, BOB), columns=7, rows=6, backend="mock")
    recorder.start_round()
    board = Board()
    waits = []
    for column in (3, 3, 4, 4, 5, 5):
        board.play(column)
        waits.append(timed(recorder.played, 1, 1, board))
    assert max(waits) < 1.0   # 0.05 s for the lock, never BUSY_SECONDS (it was 2 s, then nothing more kept)
    assert (recorder.failed, recorder.pending) == (None, 2)   # the match's row and its round's, kept
    assert one_warning(caplog) == ("games wait to be recorded: database is locked; the moves are kept and "
                                   f"written when it is free ({path})")
    assert rows(path, "SELECT id, moves FROM rounds") == [(1, "1212121")]
    other.execute("ROLLBACK")
    other.close()
    board.play(6)
    recorder.played(1, 1, board, match_winner=1)   # the lock is free: this write takes the six before it too
    assert recorder.pending == 0
    assert rows(path, "SELECT match_id, number, moves, result, winner, started, ended FROM rounds WHERE id = 2") == [
        (2, 1, "4455667", "win", 1, "2026-11-23T14:01:00Z", "2026-11-23T14:08:00Z")]
    assert rows(path, "SELECT id, status, winner FROM matches") == [(1, "finished", 1), (2, "finished", 1)]


def test_a_lock_held_for_good_never_holds_up_play(tmp_path, caplog):
    """Another process holds the lock and never commits: play goes on at a move's pace, and closing
    waits ``busy`` once, sees nobody commit meanwhile, and says what was not written."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    recorder = Recorder(path, clock=ticking(), busy=0.2)
    assert timed(record_match, recorder, ["4455667", "1212121"]) < 3.0   # four writes: 0.05 s each for the lock
    assert recorder.failed is None
    assert timed(recorder.close) < 1.9   # 0.2 s for the lock (each try); none commits: held for good
    assert recorder.failed == "database is locked"
    lines = [r.getMessage() for r in caplog.records if r.name == "sensehat_c4.records"]
    assert lines == [
        f"games wait to be recorded: database is locked; the moves are kept and written when it is free ({path})",
        f"games are not being recorded: database is locked (4 rows not written) ({path})"]
    other.execute("ROLLBACK")
    other.close()
    assert rows(path, "SELECT id, moves FROM rounds") == [(1, "1212121")]


def test_a_lock_refusing_writes_for_long_stops_the_recording(tmp_path, caplog):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    recorder = Recorder(path, clock=ticking(), give_up=0.0)   # held for 0 s is held for good, here
    record_match(recorder, ["4455667"])
    assert recorder.failed == "database is locked" and recorder.pending == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "sensehat_c4.records"]
    assert lines == [
        f"games wait to be recorded: database is locked; the moves are kept and written when it is free ({path})",
        f"games are not being recorded: database is locked (for 0 s; 3 rows not written) ({path})"]
    other.execute("ROLLBACK")
    other.close()


WRITER = ("import sys; sys.path.insert(0, 'tests/helpers'); from pathlib import Path\n"
          "from records_data import record_match; from sensehat_c4.records import Recorder\n"
          "r = Recorder(Path(sys.argv[1]))\n"
          "for _ in range(int(sys.argv[2])): record_match(r, ['1212121', '4455667'])\n"
          "r.close()\n"
          "assert (r.failed, r.pending) == (None, 0), (r.failed, r.pending)\n")


def test_two_processes_write_at_once(tmp_path):
    """Both write as fast as they can: a write that finds the other's lock keeps its rows for the next,
    and closing waits while the other commits; every row of both is there and the file is sound."""
    path = tmp_path / "games.db"
    children = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), "25"], cwd=Path(__file__).resolve().parents[2])
                for _ in range(2)]
    assert [c.wait(timeout=120) for c in children] == [0, 0]
    assert rows(path, "SELECT COUNT(*), COUNT(DISTINCT owner) FROM matches WHERE status = 'finished'") == [(50, 0)]
    assert rows(path, "SELECT COUNT(*), COUNT(DISTINCT match_id) FROM rounds WHERE result = 'win'") == [(100, 50)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]


def test_reading_while_games_are_written_reads_one_snapshot(tmp_path):
    """A match and its rounds are read as one: a round is never 'of a match that is not there'
    because the match came in between two reads (nor, for a writer's check, a reason to set the
    file aside)."""
    path = tmp_path / "games.db"
    children = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), "100"], cwd=Path(__file__).resolve().parents[2])
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


@pytest.mark.parametrize("junk", [b"this is not SQLite, but somebody's notes\n" * 200, b"x", b"SQLite format 2\x00" * 300])
def test_a_file_that_is_not_sqlite_at_all_is_not_ours_and_left_as_it_is(tmp_path, caplog, junk):
    """Somebody's text (a mistyped --db, a symlink to ~/.profile) is not a damaged games database: it is
    never renamed or replaced, as another program's database is not."""
    path = tmp_path / "games.db"
    path.write_bytes(junk)
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121"])   # every call returns: play goes on
    assert one_warning(caplog) == f"games are not being recorded: not an SQLite database ({path})"
    assert path.read_bytes() == junk and sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]
    with pytest.raises(RecordsError) as err:
        Records(path)
    assert str(err.value) == f"{path} is not a sensehat-c4 games database: not an SQLite database"


def test_a_damaged_database_with_its_header_is_still_kept_aside(tmp_path, caplog):
    """SQLite's own first bytes, then garbage: a damaged database (ours, or empty), set aside."""
    path = tmp_path / "games.db"
    junk = b"SQLite format 3\x00" + b"\xa5" * 4080
    path.write_bytes(junk)
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    assert (tmp_path / "games.db.corrupt-20261123T140300").read_bytes() == junk
    assert one_warning(caplog).endswith("kept as games.db.corrupt-20261123T140300, starting a new one")
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
import sys; sys.path.insert(0, 'tests/helpers'); from pathlib import Path
from sensehat_c4.records import Recorder
from sensehat_c4.rules import Board, Starts
from records_data import ANN, BOB
r = Recorder(Path(sys.argv[1]))
r.start_match((ANN, BOB), columns=7, rows=6, backend="mock", starts=Starts.P1, wins=100000)
for number in range(1, 100000):
    r.start_round()
    board = Board()
    for column in (0, 1, 0, 1, 0, 1, 0):
        board.play(column)
        r.played(number, 1, board)
        assert (r.failed, r.pending) == (None, 0)
        print(number, board.ply, flush=True)
"""


def test_committed_moves_survive_sigkill(tmp_path):
    path = tmp_path / "games.db"
    child = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(path)], cwd=Path(__file__).resolve().parents[2],
                             stdout=subprocess.PIPE, text=True)
    committed = [tuple(map(int, child.stdout.readline().split())) for _ in range(66)]
    os.kill(child.pid, signal.SIGKILL)  # mid-game, probably mid-write
    child.wait()
    child.stdout.close()
    assert committed[-1] == (10, 3)   # 9 rounds of 7 moves, and 3 moves of the tenth
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    stored = rows(path, "SELECT number, moves, result FROM rounds ORDER BY id")
    assert stored[:9] == [(n, "1212121", "win") for n in range(1, 10)]
    number, moves, result = stored[-1]   # every move it said was committed is there (and maybe one more)
    assert (number, moves[:3]) == (10, "121") or (number, moves) == (11, "1")
    assert rows(path, "SELECT status FROM matches") == [("playing",)]
    # another program recording a game leaves it as it is; the next to ask finds it interrupted
    record_match(Recorder(path, clock=ticking()), ["4455667"])
    assert rows(path, "SELECT id, status FROM matches") == [(1, "playing"), (2, "finished")]
    found = Recorder(path, clock=ticking()).interrupted()
    assert found is not None and found.id == 1 and found.score == (len(stored) - 1 + (result == "win"), 0)
    assert [(r.number, r.moves, r.result.value) for r in found.rounds] == stored


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
    junk.write_bytes(b"SQLite format 3\x00" + b"x" * 4080)
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
    target.write_bytes(b"SQLite format 3\x00" + b"not a database any more" * 200)
    record_match(Recorder(link, clock=ticking()), ["1122334"])
    assert one_warning(caplog) == ("the games database was damaged (file is not a database): "
                                   "kept as games.db.corrupt-20261123T140300, starting a new one")
    assert (tmp_path / "real" / "games.db.corrupt-20261123T140300").exists() and link.is_symlink()
    assert rows(link, "SELECT moves FROM rounds") == rows(target, "SELECT moves FROM rounds") == [("1122334",)]


def test_a_symlink_to_a_users_own_text_file_leaves_it_as_it_is(tmp_path, caplog):
    """``games.db`` -> ``~/.profile``: the text stays where it is, under its name; nothing is recorded."""
    profile = tmp_path / ".profile"
    text = b"# ~/.profile: executed by the command interpreter for login shells.\nPATH=$HOME/bin:$PATH\n"
    profile.write_bytes(text)
    link = tmp_path / "games.db"
    link.symlink_to(profile)
    record_match(Recorder(link, clock=ticking()), ["1212121"])
    assert one_warning(caplog) == f"games are not being recorded: not an SQLite database ({link})"
    assert profile.read_bytes() == text and link.is_symlink() and link.resolve() == profile
    assert sorted(p.name for p in tmp_path.iterdir()) == [".profile", "games.db"]
    with pytest.raises(RecordsError, match="is not a sensehat-c4 games database: not an SQLite database$"):
        Records(link)


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
import os, sys; sys.path.insert(0, 'tests/helpers'); from pathlib import Path
from records_data import record_match
from sensehat_c4.records import Recorder
r = Recorder(Path(sys.argv[1]))
for _ in range(5): record_match(r, ['1212121'])
r._conn.execute('PRAGMA wal_checkpoint(TRUNCATE)')
for _ in range(7): record_match(r, ['4455667'])
os._exit(0)   # as a power cut leaves it: the last 7 rounds only in games.db-wal
"""


def left_in_wal(path: Path) -> None:
    subprocess.run([sys.executable, "-c", UNCHECKPOINTED, str(path)], cwd=Path(__file__).resolve().parents[2], check=True)
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
                monkeypatch.setattr(reader.tempfile, "TemporaryDirectory", no_room)
                assert moves_read(path) == (["1212121"] * 5, [
                    "some rounds may be missing: games.db-wal holds rounds not yet in games.db, and it can be "
                    "neither read here (unable to open database file) nor copied ([Errno 28] No space left on device)"])
                monkeypatch.undo()


@pytest.fixture
def open_folder():
    """A folder everyone may write in (as ``/tmp``), under one everyone may enter (``tmp_path`` is root's only)."""
    top = Path(tempfile.mkdtemp())
    os.chmod(top, 0o755)
    folder = top / "shared"
    folder.mkdir()
    os.chmod(folder, 0o1777)
    yield folder
    shutil.rmtree(top)


def read_as(uid: int, path: Path):
    """The rounds' moves and notes as :class:`Records` reads them in a process of ``uid``."""
    if uid == 0:
        return moves_read(path)
    return in_child(lambda: moves_read(path), uid)[0]


@pytest.mark.skipif(not ROOT, reason="needs root, to read as nobody and to give files to nobody")
def test_reading_makes_no_file_beside_the_database_that_its_owners_game_cannot_write(open_folder):
    """SQLite gives the ``-wal`` and ``-shm`` it makes the database's mode, and this process's owner (root's
    connections give them the database's owner): a reader makes them only where they are its owner's to write,
    and reads the rounds a game left in its ``-wal`` where they are there already."""
    path = open_folder / "games.db"
    with contextlib.closing(Recorder(path, clock=ticking())) as recorder:
        record_match(recorder, ["1212121"])
    for owner, mode, reader_uid in ((NOBODY, 0o444, NOBODY),   # its owner, a file it may not write
                                    (0, 0o644, NOBODY),        # another user's, in a folder both may write in
                                    (NOBODY, 0o444, 0)):       # root, a file its owner may not write
        os.chown(path, owner, owner)
        os.chmod(path, mode)
        assert read_as(reader_uid, path) == (["1212121"], [])
        assert sorted(p.name for p in open_folder.iterdir()) == ["games.db"], (owner, mode, reader_uid)
    os.chmod(path, 0o644)   # root reading nobody's writable file: what it makes is nobody's, as the file
    assert read_as(0, path) == (["1212121"], [])
    assert {(p.name, p.stat().st_uid, p.stat().st_mode & 0o777) for p in open_folder.iterdir()} <= {
        ("games.db", NOBODY, 0o644), ("games.db-wal", NOBODY, 0o644), ("games.db-shm", NOBODY, 0o644)}
    path.unlink()
    for extra in open_folder.iterdir():
        extra.unlink()
    left_in_wal(path)     # a game's files as a power cut left them: read through, whatever the database's mode
    for extra in open_folder.iterdir():
        os.chown(extra, NOBODY, NOBODY)
    os.chmod(path, 0o444)
    assert read_as(NOBODY, path) == (ALL_12, [])
    assert [(p.name, p.stat().st_mode & 0o777) for p in sorted(open_folder.iterdir())] == [
        ("games.db", 0o444), ("games.db-shm", 0o644), ("games.db-wal", 0o644)]


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


# -- interrupted matches: whose process is gone, offered, claimed, resumed or abandoned ---------------


def test_whose_match_it_is_and_whether_that_process_is_gone():
    me = Owner.this()
    assert me.boot == Path("/proc/sys/kernel/random/boot_id").read_text().strip() and me.start is not None
    assert Owner.parse(str(me)) == me and me.alive() and Owner.alive_text(str(me))
    # a power cut: after the next boot the launcher's service may get the very pid it had
    assert not Owner("an-earlier-boot", me.pid, me.start).alive()
    # the same pid on this boot, but a process started later (the pid given out again)
    assert not Owner(me.boot, me.pid, me.start + 1).alive()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not Owner(me.boot, child.pid, None).alive()
    assert Owner.parse("- 12 -") == Owner("", 12, None)   # where the boot and start cannot be read
    for bad in (None, "", "x", "b 12", "b -1 3", "b 12 x", "b 1 2 3", 12, b"b 1 1"):
        assert Owner.parse(bad) is None and not Owner.alive_text(bad), bad


def test_a_match_whose_process_is_gone_is_offered_once_and_claimed(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "44"], sides=(ANN, Side(YELLOW, level="hard", seconds=1.0)),
                      columns=6, rows=5, starts=Starts.ALTERNATE, wins=3)
    recorder = Recorder(path, clock=ticking())
    found = recorder.interrupted()
    assert found is not None
    assert (found.id, found.status, found.columns, found.rows, found.starts, found.wins, found.score) == (
        1, MatchStatus.PLAYING, 6, 5, Starts.ALTERNATE, 3, (1, 0))
    assert found.sides == (ANN, Side(YELLOW, level="hard", seconds=1.0))
    assert [(r.number, r.starter, r.moves, r.result) for r in found.rounds] == [
        (1, 1, "1212121", RoundResult.WIN), (2, 2, "44", RoundResult.PLAYING)]
    assert rows(path, "SELECT owner FROM matches") == [(str(recorder.owner),)]   # claimed: this process plays it
    assert Recorder(path, clock=ticking()).interrupted() is None   # another game starting now does not offer it


def test_a_match_a_running_process_plays_is_not_offered(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["44"], owner=Owner.this())   # this process's own match
    script = ("import sys; sys.path.insert(0, 'tests/helpers'); from pathlib import Path\n"
              "from records_data import interrupted_match; from sensehat_c4.records import Owner\n"
              "interrupted_match(Path(sys.argv[1]), ['45'], owner=Owner.this())\n"
              "print('written', flush=True); sys.stdin.read()\n")
    child = subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=Path(__file__).resolve().parents[2],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "written\n"
        assert Recorder(path, clock=ticking(), owner=GONE).interrupted() is None   # both are in play
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdin.close()
        child.stdout.close()
    found = Recorder(path, clock=ticking(), owner=GONE).interrupted()
    assert found is not None and (found.id, found.rounds[0].moves) == (2, "45")   # the killed one's


def test_only_the_newest_interrupted_match_is_offered_the_older_are_abandoned(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "44"])
    interrupted_match(path, ["4455"])
    interrupted_match(path, ["3"])
    found = Recorder(path, clock=ticking()).interrupted()
    assert found is not None and found.id == 3
    assert rows(path, "SELECT id, status, ended, owner IS NULL FROM matches") == [
        (1, "abandoned", "2026-11-23T14:11:00Z", 1),   # its last move's time
        (2, "abandoned", "2026-11-23T14:05:00Z", 1), (3, "playing", None, 0)]
    assert rows(path, "SELECT match_id, number, moves, result FROM rounds") == [
        (1, 1, "1212121", "win"), (1, 2, "44", "abandoned"), (2, 1, "4455", "abandoned"), (3, 1, "3", "playing")]


def test_up_on_the_question_abandons_it_with_its_round_in_play(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "4455"])
    recorder = Recorder(path, clock=ticking())
    recorder.abandon(recorder.interrupted())
    assert rows(path, "SELECT status, winner, ended, owner FROM matches") == [
        ("abandoned", None, "2026-11-23T14:13:00Z", None)]   # the time of its last move
    assert rows(path, "SELECT number, moves, result, ended FROM rounds") == [
        (1, "1212121", "win", "2026-11-23T14:08:00Z"), (2, "4455", "abandoned", "2026-11-23T14:13:00Z")]
    assert recorder.interrupted() is None


def test_a_resumed_match_goes_on_in_its_own_rows(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "4455"])
    recorder = Recorder(path, clock=ticking(datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)))
    recorder.resume(recorder.interrupted())
    board = Board.from_moves("4455")
    for column in (5, 5, 6):
        board.play(column)
        recorder.played(2, 2, board, match_winner=2 if board.outcome else None)   # seat 2 started round 2
    assert rows(path, "SELECT id, number, moves, result, winner, started, ended FROM rounds") == [
        (1, 1, "1212121", "win", 1, "2026-11-23T14:01:00Z", "2026-11-23T14:08:00Z"),
        (2, 2, "4455667", "win", 2, "2026-11-23T14:09:00Z", "2026-11-24T09:02:00Z")]
    recorder.end_match(2)   # written with the move; the loop's call adds nothing
    assert rows(path, "SELECT id, status, winner, ended, owner FROM matches") == [
        (1, "finished", 2, "2026-11-24T09:02:00Z", None)]
    with Records(path) as stored:
        assert stored.matches()[0].score == (1, 1)


def test_an_interrupted_match_whose_rows_make_no_sense_is_kept_as_abandoned(tmp_path, caplog, monkeypatch):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "4455"])
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE rounds SET moves = '44559' WHERE id = 2")
    conn.commit()
    conn.close()
    monkeypatch.setattr(writer, "CHECKED_MATCHES", 0)   # older than the matches the writer checks at open
    assert Recorder(path, clock=ticking()).interrupted() is None
    assert one_warning(caplog) == ("an interrupted match cannot be resumed: rounds row 2: moves '44559' do not "
                                   "replay on 7x6: move 5 ('9'): not a column: use digits 1-7; it is kept as abandoned")
    assert rows(path, "SELECT status FROM matches") == [("abandoned",)]


# -- the first version's files --------------------------------------------------------------------------


def version_1(path: Path) -> None:
    """A file as version 1 left it: a finished match, one a dead process left playing, one a live one plays."""
    conn = sqlite3.connect(str(path))
    conn.executescript(migrations._V1)
    conn.executescript(f"""
        PRAGMA application_id = {records.APPLICATION_ID}; PRAGMA user_version = 1; PRAGMA journal_mode = WAL;
        INSERT INTO matches VALUES (1, '2026-01-01T10:00:00Z', '2026-01-01T10:05:00Z', 'finished', 1, 7, 6, 'hat',
            'Ann', NULL, NULL, '#ff0000', NULL, 'hard', 1.0, '#ffff00', NULL);
        INSERT INTO matches VALUES (2, '2026-01-02T10:00:00Z', NULL, 'playing', NULL, 6, 5, 'hat',
            NULL, NULL, NULL, '#ff0000', NULL, NULL, NULL, '#ffff00', 999999);
        INSERT INTO matches VALUES (3, '2026-01-03T10:00:00Z', NULL, 'playing', NULL, 7, 6, 'hat',
            NULL, NULL, NULL, '#ff0000', NULL, NULL, NULL, '#ffff00', {os.getpid()});
        INSERT INTO rounds VALUES (1, 1, 1, 1, '1212121', 'win', 1, '[[1, 1], [1, 2], [1, 3], [1, 4]]',
            '2026-01-01T10:01:00Z', '2026-01-01T10:02:00Z');
        INSERT INTO rounds VALUES (2, 1, 2, 2, '4455667', 'win', 2, '[[4, 1], [5, 1], [6, 1], [7, 1]]',
            '2026-01-01T10:02:00Z', '2026-01-01T10:03:00Z');
        INSERT INTO rounds VALUES (3, 2, 1, 1, '121212', 'abandoned', NULL, '[]',
            '2026-01-02T10:01:00Z', '2026-01-02T10:04:00Z');
    """)
    conn.close()


def test_a_version_1_file_is_migrated_and_its_matches_in_play_kept_as_abandoned(tmp_path):
    path = tmp_path / "games.db"
    version_1(path)
    with Records(path) as stored:   # read as it is (its matches as best of three, alternating)
        assert [(m.id, m.status, m.starts, m.wins) for m in stored.matches()] == [
            (3, MatchStatus.PLAYING, Starts.ALTERNATE, 2), (2, MatchStatus.PLAYING, Starts.ALTERNATE, 2),
            (1, MatchStatus.FINISHED, Starts.ALTERNATE, 2)]
    recorder = Recorder(path, clock=ticking())
    assert recorder.interrupted() is None   # version 1 kept no round in play, nor who starts: none is resumed
    assert rows(path, "PRAGMA user_version") == [(migrations.SCHEMA_VERSION,)]
    assert rows(path, "SELECT id, status, ended, pid, starts, wins, owner FROM matches") == [
        (1, "finished", "2026-01-01T10:05:00Z", None, "alternate", 2, None),
        (2, "abandoned", "2026-01-02T10:04:00Z", None, "alternate", 2, None),   # its last round's end
        (3, "abandoned", "2026-01-03T10:00:00Z", None, "alternate", 2, None)]   # no round: its start
    assert rows(path, "SELECT * FROM rounds") == [
        (1, 1, 1, 1, "1212121", "win", 1, "[[1, 1], [1, 2], [1, 3], [1, 4]]", "2026-01-01T10:01:00Z",
         "2026-01-01T10:02:00Z", None, 0, 0),
        (2, 1, 2, 2, "4455667", "win", 2, "[[4, 1], [5, 1], [6, 1], [7, 1]]", "2026-01-01T10:02:00Z",
         "2026-01-01T10:03:00Z", None, 0, 0),
        (3, 2, 1, 1, "121212", "abandoned", None, "[]", "2026-01-02T10:01:00Z", "2026-01-02T10:04:00Z",
         None, 0, 0)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "SELECT sql FROM sqlite_master WHERE name = 'rounds_by_match'") == [
        ("CREATE INDEX rounds_by_match ON rounds (match_id)",)]
    interrupted_match(path, ["44"])   # a round in play is a row the new schema takes
    assert rows(path, "SELECT id, result FROM rounds WHERE match_id = 4") == [(4, "playing")]
