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
from gamelib.palette import DEFAULT, PALETTES
from gamelib.scroll import scroll_frames
from records_data import record_match, rows, ticking
from sensehat_c4 import cli
from sensehat_c4.match import render
from sensehat_c4.records import Recorder
from sensehat_c4.rules import Board
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


# -- play: the recorder's one line and the LEDs' warning before the match, and the game goes on -------


def scrolled(text="GAMES NOT RECORDED"):
    """The frames of the warning's words scrolling in the palette's warning colour, and how long they take."""
    colours = PALETTES[DEFAULT]
    steps = list(scroll_frames(text, colours.warning, colours.background))
    return [tuple(frame) for frame, _ in steps], sum(seconds for _, seconds in steps)


def play_one_round(db, *, warned=True):
    """``sensehat-c4 --opponent human --matches 1 --db DB`` on a mock (no ``--db`` if ``None``): once the
    warning has scrolled (if ``warned``), player 1 wins a round, then up, up.  Returns the exit code, what
    stderr held when the backend was opened, and the backend."""
    backend = MockBackend()
    if warned:
        backend.wait_until(scrolled()[1])
    moves(backend, "4545454")
    backend.wait_until(backend._cursor + ROUND_SETTLE)
    backend.tap("up", "up")
    before = []

    def opened(*args, **kwargs):
        before.append(sys.stderr.getvalue())
        return backend

    original = backends.open_backend
    backends.open_backend = opened
    try:
        code = cli.main(["--opponent", "human", "--matches", "1"] + ([] if db is None else ["--db", db]))
    finally:
        backends.open_backend = original
    return code, "".join(before), backend


PLAYED = "match not recorded: abandoned at 1-0, player 1 ahead\n"
"""The match's line when the database cannot be used: no number, as nothing is recorded (docs/guide/records.md)."""
RECORDED = "match 1: abandoned at 1-0, player 1 ahead\n"
WARNING = "sensehat-c4: WARNING: games are not being recorded: {why} ({path})\n"


def warned_on_the_leds(backend, why):
    """The mock's first frames are ``GAMES NOT RECORDED`` scrolling once in the palette's warning colour,
    said with ``why``; then the match's board."""
    frames, _ = scrolled()
    shown = [frame for _, frame in backend.frames]
    assert shown[:len(frames)] == frames
    assert list(shown[len(frames)]) == render.board_frame(Board(), PALETTES[DEFAULT], cursor=3)
    said = backend.statuses[0][1]
    assert (said.phase, said.text, said.caption) == (
        "unrecorded", f"games are not being recorded: {why}", f"games are not being recorded: {why}; any key goes on")
    assert backend.statuses[1][1].phase == "playing"


def test_a_press_ends_the_warning_and_plays_nothing(capsys, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    backend = MockBackend()
    backend.tap("middle", at=1.0)
    backend.tap("up", "up", at=5.0)
    original = backends.open_backend
    backends.open_backend = lambda *args, **kwargs: backend
    try:
        code = cli.main(["--opponent", "human", "--matches", "1", "--db", str(folder)])
    finally:
        backends.open_backend = original
    assert (code, capsys.readouterr().out) == (0, "match not recorded: abandoned at 0-0\n")
    frames, _ = scrolled()
    shown = [(round(when, 6), frame) for when, frame in backend.frames]
    board = tuple(render.board_frame(Board(), PALETTES[DEFAULT], cursor=3))
    cut = next(i for i, (when, _) in enumerate(shown) if when >= 1.0)
    assert [f for _, f in shown[:cut]] == frames[:cut] and shown[cut] == (1.0, board)
    assert [s.phase for _, s in backend.statuses][:3] == ["unrecorded", "playing", "confirming"]


def test_play_with_a_db_in_a_folder_that_does_not_exist_is_refused_in_one_line(capsys, tmp_path):
    """``--db`` names a file in a folder that is not there: refused before anything opens, nothing made."""
    for path in (tmp_path / "nonexistent" / "dir" / "games.db", tmp_path / "nonexistent" / "games.db"):
        backend = MockBackend()
        original = backends.open_backend
        backends.open_backend = lambda *args, **kwargs: backend
        try:
            assert run(capsys, ["--opponent", "human", "--db", str(path)]) == (
                2, "", f"sensehat-c4: error: --db {path}: the folder {path.parent} does not exist (see --help)\n")
            assert run(capsys, ["puzzle", "--date", "2026-11-24", "--db", str(path)]) == (
                2, "", f"sensehat-c4 puzzle: error: --db {path}: the folder {path.parent} does not exist (see --help)\n")
        finally:
            backends.open_backend = original
        assert not backend.frames and list(tmp_path.iterdir()) == []


def test_the_default_path_s_folders_are_still_made(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SENSEHAT_C4_DB", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "new" / "data"))
    code, before, backend = play_one_round(None, warned=False)
    assert (code, before, capsys.readouterr()) == (0, "", (RECORDED, ""))
    assert backend.statuses[0][1].phase == "playing"
    assert rows(tmp_path / "new" / "data" / "sensehat-c4" / "games.db", "SELECT moves FROM rounds") == [("4545454",)]


@pytest.mark.parametrize("where", ["--db", "SENSEHAT_C4_DB", "XDG_DATA_HOME"])
def test_play_with_a_name_too_long_says_so_before_the_match_and_plays_on(capsys, monkeypatch, tmp_path, where):
    """A folder whose name is too long: whether it is there cannot be told, so it is no refusal but the
    system's reason (``--db`` too)."""
    path = tmp_path / LONG / "games.db"
    if where == "SENSEHAT_C4_DB":
        monkeypatch.setenv(where, str(path))
    elif where == "XDG_DATA_HOME":
        monkeypatch.setenv("SENSEHAT_C4_DB", "")
        monkeypatch.setenv(where, str(tmp_path / LONG))
        path = tmp_path / LONG / "sensehat-c4" / "games.db"
    warning = WARNING.format(why="File name too long", path=path)
    code, before, backend = play_one_round(str(path) if where == "--db" else None)
    assert (code, before, capsys.readouterr()) == (0, warning, (PLAYED, warning))
    warned_on_the_leds(backend, "File name too long")


def test_play_with_a_directory_says_so_before_the_match_and_plays_on(capsys, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    warning = WARNING.format(why="adir is a directory", path=folder)
    code, before, backend = play_one_round(str(folder))
    assert (code, before, capsys.readouterr()) == (0, warning, (PLAYED, warning))
    warned_on_the_leds(backend, "adir is a directory")


def test_play_with_a_fifo_or_a_device_says_so_before_the_match_and_plays_on(tmp_path):
    """In a child process: SQLite opening a FIFO waits for a writer for ever (it did, here)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    script = ("import io, sys; sys.path[:0] = ['tests/helpers', 'tests/commands']; from test_cli_paths import play_one_round; "
              "sys.stderr = io.StringIO(); code, before, backend = play_one_round(sys.argv[1]); "
              "print(sys.stderr.getvalue() + repr(before), backend.statuses[0][1].text, file=sys.__stderr__); "
              "sys.exit(code)")
    for path in (fifo, Path("/dev/null")):
        done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=60,
                              cwd=ROOT)
        warning = WARNING.format(why=f"{path.name} is not a regular file", path=path)
        assert (done.returncode, done.stdout, done.stderr) == (
            0, PLAYED, f"{warning}{warning!r} games are not being recorded: {path.name} is not a regular file\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run a child as nobody")
def test_play_as_a_user_who_may_not_write_there(shared, tmp_path):
    import sensehat_c4.match.controller  # loaded before the child drops root
    import sensehat_c4.commands.matches  # noqa: F401
    import termios  # noqa: F401

    hidden = tmp_path / "games.db"                          # in a directory only root may enter
    odd = tmp_path / "x\n\x1b[31my" / "games.db"            # ... whose name holds a newline and an escape
    odd.parent.mkdir()
    open_folder = Path(tempfile.mkdtemp())                  # a directory everyone may write in ...
    os.chmod(open_folder, 0o777)
    locked = open_folder / "locked.db"                      # ... holding a file this user may not write
    locked.write_bytes(b"")
    os.chmod(locked, 0o444)
    os.chmod(shared, 0o555)                                 # a directory nobody may write in
    try:
        for path, why in ((hidden, "Permission denied"), (odd, "Permission denied"),
                          (shared / "games.db", f"{shared} is read-only"), (locked, f"{locked} is read-only")):
            got = in_child(lambda: play_one_round(str(path))[:2])
            shown = str(path).replace("\n", "\\n").replace("\x1b", "\\x1b")
            warning = WARNING.format(why=why, path=shown)
            assert got == ((0, warning), PLAYED, warning)
    finally:
        os.chmod(shared, 0o755)
        shutil.rmtree(open_folder)


def test_the_warning_and_the_system_s_reason_are_in_the_player_s_language(capsys, tmp_path):
    """``--language fr``: the line before the match and the words on the LEDs in French, the operating system's
    reason (ENAMETOOLONG) too, and the scrolled words."""
    from gamelib import i18n

    folder = tmp_path / "adir"
    folder.mkdir()
    for db, why in ((str(folder), "adir est un dossier"), (str(tmp_path / LONG), "Nom de fichier trop long")):
        backend = MockBackend()
        backend.tap("up", "up", at=30.0)
        original = backends.open_backend
        backends.open_backend = lambda *args, **kwargs: backend
        try:
            code = cli.main(["--language", "fr", "--opponent", "human", "--matches", "1", "--db", db])
        finally:
            backends.open_backend = original
            i18n.choose(None)
        out, err = capsys.readouterr()
        assert (code, err) == (0, f"sensehat-c4: WARNING: les parties ne sont pas enregistrées : {why} ({db})\n")
        said = backend.statuses[0][1]
        assert (said.phase, said.text) == ("unrecorded", f"les parties ne sont pas enregistrées : {why}")
        frames, _ = scrolled("PARTIES NON ENREGISTRÉES")
        assert [f for _, f in backend.frames][:len(frames)] == frames


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
