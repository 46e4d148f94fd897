"""The launcher's log in a real terminal: nothing is written over the board; the lines come after.

``python -m gamelib --backend terminal`` runs with a pty as its controlling terminal and
as its standard error too, as in a person's terminal (``tests/helpers/pty_terminal.py``).  The log
file may fail (a full disk, a directory that cannot be made, a FIFO nobody reads): play and
the exit code do not change, and one line after says so.
"""
import logging
import os
import resource
import sys

import pytest
from pty_terminal import PtyProgram, hex_colours, leds

from gamelib.backends.terminal_screen import LEAVE
from gamelib.launcher.log import LauncherLog
from gamelib.palette import palette as default_palette
from sensehat_c4 import game as c4
from sensehat_c4.match.chooser import choice_frame


def launcher(tmp_path):
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    env.pop("SENSEHAT_C4_DB", None)
    return PtyProgram([sys.executable, "-m", "gamelib", "--backend", "terminal"], columns=60, lines=20,
                      env=env, stderr_on_terminal=True)


def start_connect_4_and_quit(program):
    """Start Connect 4 (the launcher logs "starting Connect 4"), quit; what came after the board."""
    program.wait_for(lambda p: leds(p.screen) == hex_colours(c4.ICON(default_palette())), what="Connect 4's icon")
    program.press("enter")
    program.wait_for(lambda p: leds(p.screen) == hex_colours(choice_frame(0, default_palette())), what="the chooser")
    program.pump(0.3)
    screen = "\n".join(program.screen.display)
    assert "gamelib" not in screen and "Logging error" not in screen and "Traceback" not in screen
    program.press("q")
    program.finish()
    assert program.process.returncode == 0
    return program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()


def test_no_log_line_lands_on_the_board_and_the_lines_are_shown_after(tmp_path):
    program = launcher(tmp_path)
    try:
        after = start_connect_4_and_quit(program)
        path = tmp_path / "state" / "gamelib" / "gamelib.log"
        assert after == ("gamelib: INFO: starting Connect 4\r\n"
                         f"gamelib: the lines above were logged while the board filled the terminal (also in "
                         f"{path})\r\n")
        assert [line[24:] for line in path.read_text().splitlines()] == ["gamelib: INFO: starting Connect 4"]
    finally:
        program.close()


def under_the_board(program):
    """The status line: two lines under the board's frame (the key hint is between)."""
    bottom = max(row for row, line in enumerate(program.screen.display) if "└" in line)
    return program.screen.display[bottom + 2].strip()


def test_match_results_show_under_the_board_and_after_like_sensehat_c4s(tmp_path):
    program = launcher(tmp_path)
    try:
        for number in (1, 2):
            program.wait_for(lambda p: leds(p.screen) == hex_colours(c4.ICON(default_palette())), what="Connect 4's icon")
            program.press("enter", "enter", "enter", "down", gap=0.3)   # launch, 2P, 7x6, a move
            program.pump(0.5)
            program.press("up", "up", gap=0.3)                              # abandon
            line = f"match {number}: abandoned at 0-0"                      # as the records number it
            program.wait_for(lambda p, line=line: under_the_board(p) == line, what=f"{line!r} under the board")
        program.press("q")
        program.finish()
        assert program.process.returncode == 0
        after = program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()
        path = tmp_path / "state" / "gamelib" / "gamelib.log"
        assert after == ("match 1: abandoned at 0-0\r\nmatch 2: abandoned at 0-0\r\n"
                         "gamelib: INFO: starting Connect 4\r\ngamelib: INFO: starting Connect 4\r\n"
                         "gamelib: the lines above were logged while the board filled the terminal (also in "
                         f"{path})\r\n")
    finally:
        program.close()


def full_disk(path):
    path.symlink_to("/dev/full")                 # every write: ENOSPC


def fifo(path):
    os.mkfifo(path)                              # nobody reads it: opening it for writing would wait for ever


@pytest.mark.parametrize("make, why", [(full_disk, "No space left on device"), (fifo, "No such device or address")],
                         ids=["full-disk", "fifo"])
def test_a_log_file_that_cannot_be_written_is_one_line_after_and_play_goes_on(tmp_path, make, why):
    path = tmp_path / "state" / "gamelib" / "gamelib.log"
    path.parent.mkdir(parents=True)
    make(path)
    program = launcher(tmp_path)
    try:
        after = start_connect_4_and_quit(program)
        assert after == ("gamelib: INFO: starting Connect 4\r\n"
                         "gamelib: the lines above were logged while the board filled the terminal (not kept: "
                         f"cannot write {path} ({why}))\r\n")
    finally:
        program.close()


def test_a_log_directory_that_cannot_be_made_is_one_line_after_even_with_nothing_logged(tmp_path):
    (tmp_path / "state").write_text("a file where the state directory should be")
    program = launcher(tmp_path)
    try:
        program.wait_for(lambda p: leds(p.screen) == hex_colours(c4.ICON(default_palette())), what="Connect 4's icon")
        program.press("q")
        program.finish()
        assert program.process.returncode == 0
        after = program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()
        path = tmp_path / "state" / "gamelib" / "gamelib.log"
        assert after == f"gamelib: the log was not kept: cannot write {path} (Not a directory)\r\n"
    finally:
        program.close()


def test_a_file_that_fills_up_midway_keeps_what_it_could_and_says_so_escaped(tmp_path, capsys):
    """The file takes one line, then the file size limit (``RLIMIT_FSIZE``: EFBIG, like a full disk)
    stops it; the directory's name holds a newline and an escape, which the line after escapes."""
    directory = tmp_path / "odd\nname\x1b[31m"
    directory.mkdir()
    path = directory / "gamelib.log"
    path.write_bytes(b"x" * 1000 + b"\n")
    raise_exceptions = logging.raiseExceptions
    log = logging.getLogger("gamelib.test")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    with LauncherLog("info", path) as logs:
        logs.aside()
        assert logging.raiseExceptions is False
        resource.setrlimit(resource.RLIMIT_FSIZE, (1100, hard))
        try:
            log.warning("one")
            log.warning("two %s", "y" * 200)             # past the limit: the file breaks here
            log.warning("three")
            log.warning("four %d", "not a number")       # a bad logging call does not raise either
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert logging.raiseExceptions is raise_exceptions
    err = capsys.readouterr().err
    escaped = str(directory).replace("\n", "\\n").replace("\x1b", "\\x1b")
    try:
        why = "%d" % "not a number"
    except TypeError as exc:
        why = str(exc)          # Python's own words: "%d format: a (real) number is required, not str"
    assert err.splitlines() == [
        "gamelib: WARNING: one", "gamelib: WARNING: two " + "y" * 200, "gamelib: WARNING: three",
        f"gamelib: a line could not be logged (TypeError: {why}): 'four %d'",
        "gamelib: the lines above were logged while the board filled the terminal (the first 1 also in "
        f"{escaped}/gamelib.log, then it could not be written (File too large))"]
    kept = path.read_bytes()
    assert b" gamelib: WARNING: one\n" in kept and b"three" not in kept and len(kept) <= 1100   # "two" cut short


def test_a_message_with_a_newline_or_an_escape_is_one_escaped_line(capsys, tmp_path):
    """A path in a message (the recorder's ``--db``) cannot split a log line or colour the terminal."""
    with LauncherLog("warning", tmp_path / "x.log", prog="sensehat-c4"):
        logging.getLogger("sensehat_c4.records").warning("not recorded (%s)", "/tmp/x\n\x1b[31my/games.db")
    assert capsys.readouterr().err == "sensehat-c4: WARNING: not recorded (/tmp/x\\n\\x1b[31my/games.db)\n"


@pytest.mark.parametrize("aside", [False, True])
def test_the_root_logger_s_level_is_given_back(tmp_path, aside):
    """A run in this process (``cli.main(["--log-level", "error"])``, as a test makes it) leaves the
    root logger as it found it: it kept ERROR, and the warnings of every later test went unseen."""
    root = logging.getLogger()
    before = root.level
    root.setLevel(logging.INFO)
    try:
        with LauncherLog("error", tmp_path / "gamelib.log") as log:
            assert root.level == logging.ERROR
            if aside:
                log.aside()
        assert root.level == logging.INFO
    finally:
        root.setLevel(before)
