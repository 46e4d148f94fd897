"""Hostile command lines for every command and option of both programs (``tests/helpers/hostile_lines.py``):
never a traceback, an exit code the guide's table lists, and stderr only our one-line messages, with
no raw control character on either stream.

In this process, through ``sensehat_c4.commands.main`` and ``gamelib.launcher.cli.main``: the backend
that would open is a mock that takes a few random presses, then quits; the launcher's and the
installer's system commands are fakes (nothing is installed, nothing powers off), files go to a
temporary directory, and each line has 30 s (a hang fails).  ``HOSTILE_LINES`` sets how many
(default 600; ``HOSTILE_SEED`` the seed).  A smaller set runs as real programs.
"""
import contextlib
import functools
import os
import random
import signal
import subprocess
import sys

import pytest

from gamelib import backends
from gamelib.backends.mock import MockBackend
from gamelib.errors import MockExhausted, QuitRequested
from gamelib.launcher import cli as launcher_cli, system
from gamelib.launcher.menu import Launcher
from gamelib.launcher.service import Installer
from hostile_lines import Paths, check, lines, summary
from records_data import record_match, ticking
from sensehat_c4 import commands
from sensehat_c4.records import Recorder
from guide import guide_exit_codes

COUNT = int(os.environ.get("HOSTILE_LINES", "600"))
SEED = int(os.environ.get("HOSTILE_SEED", "16"))
SECONDS = 30
DIRECTIONS = ["left", "right", "middle", "down", "up"]


class Hang(BaseException):
    """A line ran past :data:`SECONDS` (a BaseException: nothing on the way may catch it)."""


class Quitting(MockBackend):
    """The backend a command opens: the presses scripted, then ``q`` once it would wait for ever."""

    def __init__(self, **options):
        super().__init__(**options)
        read = self.stick._read           # the stick's one wait

        def quitting(timeout):
            try:
                return read(timeout)
            except MockExhausted:
                raise QuitRequested("q") from None

        self.stick._read = quitting


@pytest.fixture
def world(tmp_path, monkeypatch):
    """Everything the lines may touch, in ``tmp_path``; the backend and the system commands faked."""
    good = tmp_path / "good.db"
    recorder = Recorder(good, clock=ticking())
    record_match(recorder, ["1212121", "4455667", "1122334"])
    record_match(recorder, ["21212131"], winner=None, abandoned_moves="44")
    recorder.close()
    files = tmp_path / "files"
    files.mkdir()
    paths = Paths(files, good)
    for name, value in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(name, str(tmp_path / value))
    for name in ("GAMELIB_BACKEND", "SENSEHAT_C4_BACKEND", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(files)                    # a relative --db lands here
    rng = random.Random(SEED)
    ran = []

    def fake_run(command):
        ran.append(list(command))
        return rng.choice([0, 0, 1])

    def fake_open(name=None, *, rotation=0, low_light=False, notice=None):
        backend = Quitting(rotation=rotation, low_light=low_light)
        backend.tap(*rng.choices(DIRECTIONS, k=rng.randrange(7)))
        return backend

    monkeypatch.setattr(backends, "open_backend", fake_open)
    monkeypatch.setattr(system, "run_command", fake_run)
    monkeypatch.setattr(launcher_cli, "Launcher", functools.partial(Launcher, run=fake_run))
    monkeypatch.setattr(launcher_cli, "Installer", functools.partial(
        Installer, root=tmp_path / "root", run=fake_run, environ={"XDG_CONFIG_HOME": str(tmp_path / "config")}))
    return paths, ran


def on_alarm(signum, frame):
    raise Hang


def run_in_process(capsys, program, argv):
    main = commands.main if program == "sensehat-c4" else launcher_cli.main
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    except Hang:
        code = f"still running after {SECONDS} s"
    except BaseException as exc:  # noqa: BLE001 (what escaped is the finding)
        code = f"raised {type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    return code, out, err


def test_hostile_command_lines_in_process(world, capsys):
    paths, ran = world
    codes = set(guide_exit_codes())
    results, wrong = [], []
    for program, argv in lines(SEED, COUNT, paths):
        outcome = run_in_process(capsys, program, argv)
        results.append(((program, argv), outcome))
        why = check(outcome, codes)
        if why is not None:
            wrong.append(f"{program} {argv!r}"[:300] + f": {why}: exit {str(outcome[0])[:200]!r}, "
                         f"stderr {outcome[2][-300:]!r}")
    with capsys.disabled() if "HOSTILE_LINES" in os.environ else contextlib.nullcontext():
        print(f"\n{COUNT} hostile command lines (seed {SEED}) in this process ({len(ran)} system commands faked):\n"
              + summary(results))
    assert not wrong, f"{len(wrong)} of {COUNT} lines:\n" + "\n".join(wrong[:20])
    assert len({outcome[0] for _, outcome in results}) >= 3     # the lines reach more than the parser


REAL = int(os.environ.get("HOSTILE_PROGRAMS", "40"))
"""How many lines run as real programs: the first :data:`FAST` in the fast tier, the rest in the slow one
(each is an interpreter's start, ~0.4 s of CPU)."""
FAST = 12


@pytest.mark.parametrize("first, last", [(0, FAST), pytest.param(FAST, None, marks=pytest.mark.slow)],
                         ids=["fast", "rest"])
def test_hostile_command_lines_as_programs(world, tmp_path, first, last):
    paths, _ = world
    codes = set(guide_exit_codes())
    env = {**os.environ}
    env.pop("PYTHONUNBUFFERED", None)
    picked = [(program, argv) for program, argv in lines(SEED + 1, REAL * 3, paths)
              if "service" not in "".join(argv[:1])][:REAL][first:last]   # not the installer: it would change this machine
    results, wrong = [], []
    for program, argv in picked:
        module = "sensehat_c4" if program == "sensehat-c4" else "gamelib"
        try:
            done = subprocess.run([sys.executable, "-m", module, *argv], stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=SECONDS, cwd=paths.folder, env=env)
            outcome = (done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))
        except subprocess.TimeoutExpired:
            outcome = (f"still running after {SECONDS} s", "", "")
        results.append(((program, argv), outcome))
        why = check(outcome, codes)
        if why is not None:
            wrong.append(f"{program} {argv!r}"[:300] + f": {why}: exit {outcome[0]!r}, stderr {outcome[2][-300:]!r}")
    print(f"\n{len(picked)} hostile command lines as programs (seed {SEED + 1}, lines {first}-{first + len(picked)}):\n" + summary(results))
    assert not wrong, "\n".join(wrong[:20])
