"""Ctrl+C, SIGTERM and SIGHUP while ``analyse --solve`` or ``review`` works (the pure-Python core, a
long search), in a real terminal read through ``pyte``: the exit code the guide gives (docs/guide/options.md) (130, 143,
129), nothing printed, and the progress line erased: the screen is empty after the program."""
import os
import signal
import time

import pytest
from pty_terminal import PtyProgram, game

from gamelib.colours import RED, YELLOW
from records_data import record_match, ticking
from sensehat_c4.records import Recorder, Side

SOLVE = ("analyse", "444442222666", "--solve")     # minutes of search on the Python core, past the books


def start(argv, env):
    program = PtyProgram(game(*argv), columns=60, lines=10, stderr_on_terminal=True,
                         env={**os.environ, "SENSEHAT_C4_PURE_PYTHON": "1", **env})
    program.wait_for(lambda p: "solving: " in p.text() or "reviewing: " in p.text(), timeout=60,
                     what="the progress line")
    program.pump(0.3)
    return program


@pytest.fixture
def long_review(tmp_path):
    """A round on 6x5 (no books there): reviewing its first position, the empty board, takes the Python core
    well over a minute."""
    db = tmp_path / "games.db"
    record_match(Recorder(db, clock=ticking()), ["1212121"], sides=(Side(RED, name="Ann"), Side(YELLOW, name="Bob")),
                 columns=6, rows=5)
    return ("review", "last", "--db", str(db))


@pytest.mark.parametrize("how, code", [("ctrl-c", 130), ("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
@pytest.mark.parametrize("command", ["analyse --solve", "review"])
def test_a_signal_ends_it_with_its_code_and_the_progress_line_erased(long_review, command, how, code):
    program = start(SOLVE if command == "analyse --solve" else long_review, {})
    try:
        assert program.text().startswith("solving: " if command == "analyse --solve" else "reviewing: move 1 of 7")
        if how == "ctrl-c":
            program.press("ctrl-c")                      # typed: the terminal sends SIGINT
        else:
            program.process.send_signal(getattr(signal, how))
        assert program.finish(timeout=20) == ""
        assert program.process.returncode == code
        assert program.text() == ""                      # the line is gone (so is the ^C the terminal echoed)
        assert program.output.endswith(b"\r\x1b[K")
    finally:
        program.close()


@pytest.mark.parametrize("command", ["analyse --solve", "review"])
def test_a_terminal_that_hangs_up_ends_it_with_129(long_review, command):
    """The SSH connection drops: SIGHUP, and the erase itself cannot be written (EIO): still 129."""
    program = start(SOLVE if command == "analyse --solve" else long_review, {})
    try:
        program.hang_up()
        deadline = time.monotonic() + 20
        while program.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert program.process.returncode == 129
    finally:
        program.close()


# -- the progress line itself, with a signal's exception at the worst moments -------------------------

from sensehat_c4.study.progress import ERASE, ProgressLine  # noqa: E402


class Terminal:
    """A stream that says it is a terminal; ``interrupt`` raises (as a signal's handler does) at the
    given call: ``("write", 2)`` is the second write, ``("flush", 1)`` the first flush."""

    def __init__(self, interrupt=None, error=None):
        self.text = ""
        self.calls = {"write": 0, "flush": 0}
        self.interrupt = interrupt
        self.error = error

    def isatty(self):
        return True

    def _call(self, name):
        self.calls[name] += 1
        if self.interrupt == (name, self.calls[name]):
            raise KeyboardInterrupt
        if self.error is not None:
            raise self.error

    def write(self, text):
        self._call("write")
        self.text += text

    def flush(self):
        self._call("flush")


@pytest.mark.parametrize("interrupt", [("flush", 1), ("write", 2)],
                         ids=["after the line was written, before it was marked shown", "in the first erase"])
def test_a_signal_at_the_worst_moment_still_leaves_the_line_erased(interrupt):
    stream = Terminal(interrupt)
    with pytest.raises(KeyboardInterrupt):
        with ProgressLine(stream) as line:
            line(0, 7, 0)                                # write 1, flush 1; leaving: the erase is write 2
    assert stream.text.startswith(ERASE + "solving: 0/7 columns") and stream.text.endswith(ERASE)


def test_a_terminal_that_has_gone_is_not_an_error():
    stream = Terminal(error=OSError(5, "Input/output error"))
    with ProgressLine(stream) as line:
        line(0, 7, 0)                                    # EIO: the line gives up quietly
        line(1, 7, 10)
    assert stream.calls["write"] == 1
