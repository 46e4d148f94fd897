"""Database paths the commands cannot use, and text they print that they did not write.

A ``--db`` (or ``$SENSEHAT_C4_DB``, or ``$XDG_DATA_HOME``) with a name too long, in a directory
this user may not enter, a file it may not read, a FIFO or a device: the read commands say so in
one line naming the path and exit 2; play logs one line and goes on.  A path or a stored value
holding a newline or an escape sequence is printed escaped, on stdout as on stderr.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from as_nobody import in_child

from gamelib import backends
from gamelib.backends.mock import MockBackend
from records_data import record_match, ticking
from sensehat_c4 import cli
from sensehat_c4.records import Recorder
from scripted import ROUND_SETTLE, moves

ROOT = Path(__file__).resolve().parents[2]
LONG = "a" * 300
"""A path component longer than any file system takes (255 bytes): ENAMETOOLONG."""
READERS = [["history"], ["stats"], ["replay", "last"], ["review", "last"]]


def run(capsys, argv):
    try:
        code = cli.main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
@pytest.mark.parametrize("where", ["--db", "SENSEHAT_C4_DB", "XDG_DATA_HOME"])
def test_a_name_too_long_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path, command, where):
    if where == "--db":
        path = tmp_path / LONG / "games.db"
        argv = [*command, "--db", str(path)]
    elif where == "SENSEHAT_C4_DB":
        path = tmp_path / LONG
        monkeypatch.setenv("SENSEHAT_C4_DB", str(path))
        argv = command
    else:
        monkeypatch.setenv("SENSEHAT_C4_DB", "")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / LONG))
        path = tmp_path / LONG / "sensehat-c4" / "games.db"
        argv = command
    assert run(capsys, argv) == (2, "", f"sensehat-c4 {command[0]}: cannot read {path}: File name too long\n")


@pytest.fixture
def shared():
    """A directory everyone may enter (``tmp_path`` lies under a root-only one)."""
    folder = tempfile.mkdtemp()
    os.chmod(folder, 0o755)
    yield Path(folder)
    shutil.rmtree(folder)


def recorded(path: Path) -> Path:
    record_match(Recorder(path, clock=ticking()), ["1212121"])
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run a child as nobody")
@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_database_this_user_may_not_read(shared, tmp_path, command):
    """``history --db /root/games.db`` run as another user; a file of mode 000 in an open directory."""
    closed = recorded(tmp_path / "games.db")           # under a directory only root may enter
    locked = recorded(shared / "locked.db")
    os.chmod(locked, 0)
    for path in (closed, locked):
        got = in_child(lambda: cli.main([*command, "--db", str(path)]))
        assert got == (2, "", f"sensehat-c4 {command[0]}: cannot read {path}: Permission denied\n")


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), Path("/dev/null")):
        done = subprocess.run([sys.executable, "-m", "sensehat_c4", *command, "--db", str(path)],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)   # a FIFO used to hang here
        assert (done.returncode, done.stdout, done.stderr) == (
            2, "", f"sensehat-c4 {command[0]}: {path} is not a regular file, not a games database\n")


# -- play: the recorder's one line, and the game goes on ------------------------------------------


def play_one_round(db):
    """``sensehat-c4 --opponent human --matches 1 --db DB`` on a mock (no ``--db`` if ``None``): player 1
    wins a round, then up, up."""
    backend = MockBackend()
    moves(backend, "4545454")
    backend.wait_until(backend._cursor + ROUND_SETTLE)
    backend.tap("up", "up")
    original = backends.open_backend
    backends.open_backend = lambda *args, **kwargs: backend
    try:
        return cli.main(["--opponent", "human", "--matches", "1"] + ([] if db is None else ["--db", db]))
    finally:
        backends.open_backend = original


PLAYED = "match not recorded: abandoned at 1-0, player 1 ahead\n"
"""The match's line when the database cannot be used: no number, as nothing is recorded (docs/guide/records.md)."""


@pytest.mark.parametrize("where", ["--db", "SENSEHAT_C4_DB", "XDG_DATA_HOME"])
def test_play_with_a_name_too_long_logs_one_line_and_plays_on(capsys, monkeypatch, tmp_path, where):
    path = tmp_path / LONG / "games.db"
    if where == "SENSEHAT_C4_DB":
        monkeypatch.setenv(where, str(path))
    elif where == "XDG_DATA_HOME":
        monkeypatch.setenv("SENSEHAT_C4_DB", "")
        monkeypatch.setenv(where, str(tmp_path / LONG))
        path = tmp_path / LONG / "sensehat-c4" / "games.db"
    assert play_one_round(str(path) if where == "--db" else None) == 0
    out, err = capsys.readouterr()
    assert (out, err) == (PLAYED, f"sensehat-c4: WARNING: games are not being recorded: File name too long ({path})\n")


def test_play_with_a_fifo_logs_one_line_and_plays_on(tmp_path):
    """In a child process: SQLite opening a FIFO waits for a writer for ever (it did, here)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    script = ("import sys; sys.path[:0] = ['tests/helpers', 'tests/commands']; from test_cli_paths import play_one_round; "
              "sys.exit(play_one_round(sys.argv[1]))")
    done = subprocess.run([sys.executable, "-c", script, str(fifo)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, PLAYED, f"sensehat-c4: WARNING: games are not being recorded: fifo is not a regular file ({fifo})\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run a child as nobody")
def test_play_as_a_user_who_may_not_write_there(shared, tmp_path):
    import sensehat_c4.match.controller  # loaded before the child drops root
    import sensehat_c4.match.game  # noqa: F401
    import termios  # noqa: F401

    hidden = tmp_path / "games.db"                          # in a directory only root may enter
    odd = tmp_path / "x\n\x1b[31my" / "games.db"            # ... whose name holds a newline and an escape
    os.chmod(shared, 0o555)                                 # a directory nobody may write in
    try:
        for path, why in ((hidden, "Permission denied"), (odd, "Permission denied"),
                          (shared / "games.db", f"{shared} is read-only")):
            got = in_child(lambda: play_one_round(str(path)))
            shown = str(path).replace("\n", "\\n").replace("\x1b", "\\x1b")
            assert got == (0, PLAYED, f"sensehat-c4: WARNING: games are not being recorded: {why} ({shown})\n")
    finally:
        os.chmod(shared, 0o755)


# -- escaped when printed ---------------------------------------------------------------------------


ODD = "x\n\x1b[31my"
"""A directory name with a newline and an escape sequence (red text)."""
ODD_SHOWN = "x\\n\\x1b[31my"


def test_a_path_with_a_newline_and_an_escape_is_printed_escaped(capsys, tmp_path, monkeypatch):
    folder = tmp_path / ODD
    missing = folder / "games.db"
    shown = f"{tmp_path}/{ODD_SHOWN}/games.db"
    assert run(capsys, ["history", "--db", str(missing)]) == (0, f"no matches recorded yet ({shown} does not exist)\n",
                                                             "")
    for command in ("replay", "review"):
        assert run(capsys, [command, "last", "--db", str(missing)]) == (
            2, "", f"sensehat-c4 {command}: no games recorded yet ({shown} does not exist)\n")
    folder.mkdir()
    (folder / "games.db").write_bytes(b"not a database, but long enough to be read as one" * 100)
    for command in (["history"], ["stats"], ["replay", "last"], ["review", "last"]):
        assert run(capsys, [*command, "--db", str(missing)]) == (
            2, "", f"sensehat-c4 {command[0]}: {shown} is not a sensehat-c4 games database: not an SQLite database\n")
    monkeypatch.setenv("SENSEHAT_C4_DB", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data" / ODD))
    assert run(capsys, ["history"]) == (
        0, f"no matches recorded yet ({tmp_path}/data/{ODD_SHOWN}/sensehat-c4/games.db does not exist)\n", "")


def test_a_stored_name_with_control_characters_is_skipped_in_one_escaped_line(capsys, tmp_path):
    """A hand-edited file: a name the game could never have written (an escape sequence, a newline)."""
    path = tmp_path / "games.db"
    record = Recorder(path, clock=ticking())
    record_match(record, ["1212121"])
    record_match(record, ["4455667"])
    record.close()
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE matches SET p1_name = ? WHERE id = 1", ("A\x1b[31mB\nC",))
    conn.commit()
    conn.close()
    code, out, err = run(capsys, ["history", "--db", str(path)])
    assert code == 1 and out.startswith("match 2 ") and "\x1b" not in out
    assert err == ("sensehat-c4 history: skipped matches row 1: p1_name 'A\\x1b[31mB\\nC' is not a player's name "
                   "(and its rounds)\n")
    code, out, err = run(capsys, ["history", "--db", str(path), "--json"])
    assert code == 1 and [m["match"] for m in json.loads(out)] == [2]
    assert run(capsys, ["review", "1", "--db", str(path)])[2] == (
        "sensehat-c4 review: round 1 cannot be shown: matches row 1: p1_name 'A\\x1b[31mB\\nC' is not a player's "
        "name\n")


# -- numbers past SQLite's 64-bit row ids -------------------------------------------------------------

HUGE = ["9223372036854775807", "9223372036854775808", "99999999999999999999999999999"]


@pytest.mark.parametrize("number", HUGE)
def test_a_round_id_past_sqlites_row_ids_names_no_round(capsys, tmp_path, number):
    db = recorded(tmp_path / "games.db")
    for command in ("replay", "review"):
        assert run(capsys, [command, number, "--db", str(db)]) == (
            2, "", f"sensehat-c4 {command}: no round {number} in {db}\n")


@pytest.mark.parametrize("number", HUGE)
def test_a_limit_past_sqlites_row_ids_shows_every_match(capsys, tmp_path, number):
    db = recorded(tmp_path / "games.db")
    code, out, err = run(capsys, ["history", "--limit", number, "--db", str(db)])
    assert (code, err) == (0, "") and out.startswith("match 1 ") and out.count("match ") == 1
    code, out, err = run(capsys, ["history", "--json", "--limit", number, "--db", str(db)])
    assert (code, err, [m["match"] for m in json.loads(out)]) == (0, "", [1])
