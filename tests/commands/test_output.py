"""Standard output that cannot be written, for every command of both programs: a reader that has
gone (a pipe closed early, ``| head``) ends quietly with exit 141; a full device (``/dev/full``)
or an I/O error is one line and exit 74; never a traceback, never "Exception ignored"."""
import errno
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamelib import app
from gamelib.errors import ConfigError
from records_data import record_match, ticking
from sensehat_c4.records import Recorder

ROOT = Path(__file__).resolve().parents[2]
C4 = [sys.executable, "-m", "sensehat_c4"]
GAMELIB = [sys.executable, "-m", "gamelib"]

# every command of both programs that writes to standard output, as a user types it
COMMAND_LINES = [
    (C4, ["--version"], "sensehat-c4"),
    (C4, ["--help"], "sensehat-c4"),
    (C4, ["analyse", "4453"], "sensehat-c4 analyse"),
    (C4, ["analyse", "4453", "--solve", "--json"], "sensehat-c4 analyse"),
    (C4, ["analyse", "--help"], "sensehat-c4 analyse"),
    (C4, ["history"], "sensehat-c4 history"),
    (C4, ["history", "--limit", "0", "--json"], "sensehat-c4 history"),
    (C4, ["history", "--help"], "sensehat-c4 history"),
    (C4, ["stats"], "sensehat-c4 stats"),
    (C4, ["stats", "--help"], "sensehat-c4 stats"),
    (C4, ["review", "last", "--json"], "sensehat-c4 review"),
    (C4, ["review", "--help"], "sensehat-c4 review"),
    (C4, ["replay", "--help"], "sensehat-c4 replay"),
    (C4, ["puzzle", "--date", "2026-11-24", "--show"], "sensehat-c4 puzzle"),
    (C4, ["puzzle", "--json"], "sensehat-c4 puzzle"),
    (C4, ["puzzle", "--help"], "sensehat-c4 puzzle"),
    (GAMELIB, ["--help"], "gamelib"),
    (GAMELIB, ["list"], "gamelib list"),
    (GAMELIB, ["list", "--help"], "gamelib list"),
    (GAMELIB, ["names"], "gamelib names"),
    (GAMELIB, ["names", "Ann,Bob"], "gamelib names"),
    (GAMELIB, ["install-service", "--help"], "gamelib install-service"),
    (GAMELIB, ["uninstall-service", "--help"], "gamelib uninstall-service"),
    (C4, ["doctor", "--backend", "terminal"], "sensehat-c4 doctor"),
    (C4, ["doctor", "--json"], "sensehat-c4 doctor"),
]
IDS = [" ".join(["sensehat-c4" if program is C4 else "gamelib", *argv]) for program, argv, _ in COMMAND_LINES]


@pytest.fixture
def env(tmp_path):
    """A database with a few matches, and the launcher's settings in a temporary directory."""
    db = tmp_path / "games.db"
    recorder = Recorder(db, clock=ticking())
    for _ in range(3):
        record_match(recorder, ["1212121", "4455667", "1122334"])
    recorder.close()
    environ = {**os.environ, "SENSEHAT_C4_DB": str(db), "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "XDG_STATE_HOME": str(tmp_path / "state")}
    environ.pop("PYTHONUNBUFFERED", None)  # buffered, as for most users: the last flush is at exit
    return environ


def run_into(stdout, command, env):
    return subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT,
                          env=env)


@pytest.mark.parametrize("program, argv, prog", COMMAND_LINES, ids=IDS)
def test_a_pipe_whose_reader_has_gone_ends_quietly_with_141(env, program, argv, prog):
    read, write = os.pipe()
    os.close(read)                       # the reader has gone before the first write
    try:
        done = run_into(write, program + argv, env)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


@pytest.mark.parametrize("program, argv, prog", COMMAND_LINES, ids=IDS)
def test_a_full_device_is_one_line_and_exit_74(env, program, argv, prog):
    with open("/dev/full", "w") as full:
        done = run_into(full, program + argv, env)
    assert (done.returncode, done.stderr) == (74, f"{prog}: cannot write the output: No space left on device\n")


@pytest.mark.parametrize("program, argv, prog", COMMAND_LINES[:3] + COMMAND_LINES[6:7] + COMMAND_LINES[14:15],
                         ids=IDS[:3] + IDS[6:7] + IDS[14:15])
def test_unbuffered_too(env, program, argv, prog):
    """``PYTHONUNBUFFERED=1`` (or ``python -u``): each write reaches the file at once."""
    env = {**env, "PYTHONUNBUFFERED": "1"}
    read, write = os.pipe()
    os.close(read)
    try:
        assert (run_into(write, program + argv, env).returncode) == 141
    finally:
        os.close(write)
    with open("/dev/full", "w") as full:
        done = run_into(full, program + argv, env)
    assert (done.returncode, done.stderr) == (74, f"{prog}: cannot write the output: No space left on device\n")


@pytest.fixture
def big(env):
    """Some 2 MB of history (6,144 matches): more than any pipe holds (64 kB, at most 1 MB), so the writer
    is still writing when its reader leaves."""
    conn = sqlite3.connect(env["SENSEHAT_C4_DB"])
    columns = {table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")] for table in ("matches", "rounds")}
    for _ in range(11):                  # the 3 matches doubled 11 times, rounds with them
        shift = {"matches": {"id": conn.execute("SELECT MAX(id) FROM matches").fetchone()[0]}}
        shift["rounds"] = {"id": conn.execute("SELECT MAX(id) FROM rounds").fetchone()[0],
                           "match_id": shift["matches"]["id"]}
        for table in ("matches", "rounds"):
            values = ", ".join(f"{c} + {shift[table][c]}" if c in shift[table] else c for c in columns[table])
            conn.execute(f"INSERT INTO {table} SELECT {values} FROM {table}")
    conn.commit()
    conn.close()
    return env


@pytest.mark.slow
def test_a_reader_that_closes_after_the_first_byte(big):
    """``history --limit 0 | head -c1``, as a program reading one byte and closing its end."""
    for command in (["history", "--limit", "0"], ["history", "--json", "--limit", "0"]):
        process = subprocess.Popen(C4 + command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                   env=big)
        assert process.stdout.read(1) == (b"m" if command[1] == "--limit" else b"[")
        process.stdout.close()
        _, err = process.communicate(timeout=120)
        assert (process.returncode, err) == (141, b"")


@pytest.mark.parametrize("pipeline, head, exits", [
    ("sensehat-c4 history --limit 0 | head -1", "match 6144 ", ["141"]),
    pytest.param("sensehat-c4 history --limit 0 --json | head -c1", "[", ["141"],
                 marks=pytest.mark.slow),   # the same 6,144 matches read again: 5 s of the fast tier's CPU
    # small outputs: written whole before head leaves (0), or not (141): a race, never 1
    ("sensehat-c4 review last --json | head -c1", "{", ["0", "141"]),
    ("sensehat-c4 --version | head -c1", "s", ["0", "141"]),
    ("gamelib list | head -c1", "c", ["0", "141"]),
])
def test_shell_pipelines_as_the_issue_gave_them(big, pipeline, head, exits):
    """What a shell shows: ``head``'s output, nothing on stderr, and (pipefail) the program's 141."""
    bin_dir = Path(sys.executable).parent
    script = f"set -o pipefail; {pipeline}; echo \" exit $?\""
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**big, "PATH": f"{bin_dir}:{big['PATH']}"})
    shown, code = done.stdout.rsplit(" exit ", 1)
    assert (shown.startswith(head), code.strip() in exits, done.stderr) == (True, True, ""), done


# -- app.run itself, in this process ----------------------------------------------


class Failing(io.TextIOBase):
    """A standard output whose writes (or only its flushes) fail with ``error``."""

    def __init__(self, error, *, on_write=True):
        self.error = error
        self.on_write = on_write
        self.buffered = ""

    def write(self, text):
        if self.on_write:
            raise self.error
        self.buffered += text
        return len(text)

    def flush(self):
        if self.buffered:
            raise self.error


@pytest.mark.parametrize("error, code, err", [
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), 141, ""),
    (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), 141, ""),
    (OSError(errno.ENOSPC, "No space left on device"), 74, "prog: cannot write the output: No space left on device\n"),
    (OSError(errno.EIO, "Input/output error"), 74, "prog: cannot write the output: Input/output error\n"),
])
@pytest.mark.parametrize("on_write", [True, False], ids=["write", "flush at the end"])
def test_run_turns_output_failures_into_an_exit_code(capsys, monkeypatch, error, code, err, on_write):
    stream = Failing(error, on_write=on_write)
    monkeypatch.setattr(sys, "stdout", stream)

    def main():
        print("some output")
        print("more")               # never reached when the first write fails
        return 0

    assert app.run(main, "prog") == code
    assert capsys.readouterr().err == err
    assert sys.stdout is stream                    # put back


def test_a_failure_something_swallowed_still_decides_the_exit(capsys, monkeypatch):
    """argparse ignores the errors of its own writes (``--help``): the failure is kept all the same."""
    monkeypatch.setattr(sys, "stdout", Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")))

    def main():
        try:
            print("usage: ...")
        except OSError:
            pass
        raise SystemExit(0)

    assert app.run(main, "prog") == 141


def test_errors_of_ours_and_a_signal_keep_their_own_exit(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", Failing(OSError(errno.ENOSPC, "No space left on device"), on_write=False))

    def refuse():
        print("partial")
        raise ConfigError("bad value")

    # the error's line, then the output's: the output's failure decides the code
    assert app.run(refuse, "prog") == 74
    assert capsys.readouterr().err == "prog: bad value\nprog: cannot write the output: No space left on device\n"

    def interrupted():
        print("partial")
        raise KeyboardInterrupt

    assert app.run(interrupted, "prog") == 130      # Ctrl+C ended it: its code, nothing more said
    assert capsys.readouterr().err == ""


def test_stderr_that_cannot_be_written_is_left_at_that(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Failing(OSError(errno.ENOSPC, "No space left on device")))
    app.report("prog", "a line nobody can see")   # no exception

    def refuse():
        raise ConfigError("bad value")

    assert app.run(refuse, "prog") == 1


def test_stderr_closed_at_start_prints_nothing_anywhere(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stderr", None)
    app.report("prog", "nowhere")               # not printed on stdout instead (print(file=None) would)
    assert capsys.readouterr().out == ""


# -- the games: a match line whose reader has gone -----------------------------------------------------


@pytest.fixture
def quitting_mock(monkeypatch):
    from gamelib import backends
    from gamelib.backends.mock import MockBackend

    backend = MockBackend()
    monkeypatch.setattr(backends, "open_backend", lambda *args, **kwargs: backend)
    return backend


@pytest.mark.parametrize("error, code, err", [
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), 141, ""),
    (OSError(errno.ENOSPC, "No space left on device"), 74, "sensehat-c4: cannot write the output: No space left on device\n"),
])
def test_a_match_line_that_cannot_be_written_ends_play_and_clears_the_leds(capsys, monkeypatch, quitting_mock,
                                                                        error, code, err):
    from gamelib.colours import BLACK
    from sensehat_c4 import cli

    quitting_mock.tap("up", "up")                          # match 1 abandoned: its line cannot be written
    quitting_mock.tap("up", "up", at=10)                   # match 2 is never played
    monkeypatch.setattr(sys, "stdout", Failing(error))
    assert cli.main(["--opponent", "human", "--matches", "2"]) == code
    assert capsys.readouterr().err == err
    assert quitting_mock.closed and quitting_mock.leds == (BLACK,) * 64


def test_the_launcher_ends_too_when_a_games_line_cannot_be_written(capsys, monkeypatch, quitting_mock, tmp_path):
    """Not a game's bug (no traceback in the log, no red cross): the launcher's own output has gone."""
    from gamelib.colours import BLACK
    from gamelib.launcher import cli as launcher

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    quitting_mock.tap("middle", "middle", "middle")        # Connect 4; two players; 7x6
    quitting_mock.tap("up", "up", at=quitting_mock._cursor + 1)
    monkeypatch.setattr(sys, "stdout", Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert launcher.main([]) == 141
    err = capsys.readouterr().err
    assert "Traceback" not in err and "raised" not in err
    assert quitting_mock.closed and quitting_mock.leds == (BLACK,) * 64
