import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "helpers"))  # test helpers: frames.py ...

import shutil
import tempfile

import pytest

SETUP = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]', then .venv/bin/python -m pytest"
"""README's test command, split where the tests begin (say it when this Python cannot run them)."""


def missing_for_tests() -> list:
    """The distributions the tests need (the package's own and its ``test`` extra's, as setup.cfg names them,
    for this Python) that this interpreter does not have; ``["sensehat-c4"]`` when the package is not
    installed in it at all."""
    from importlib import metadata

    from packaging.requirements import Requirement  # pytest's own dependency

    try:
        requires = metadata.requires("sensehat-c4") or []
    except metadata.PackageNotFoundError:
        return ["sensehat-c4"]
    missing = []
    for line in requires:
        wanted = Requirement(line)
        if wanted.marker is not None and not any(wanted.marker.evaluate({"extra": extra}) for extra in ("", "test")):
            continue                                   # another extra's, or not for this Python
        try:
            metadata.distribution(wanted.name)         # present is enough (Debian's older h11 stands in: test_debian_libs)
        except metadata.PackageNotFoundError:
            missing.append(wanted.name)
    return missing


def pytest_configure(config):
    """Stop at once, in one line, when this Python lacks what the tests import (not 36 collection errors)."""
    missing = missing_for_tests()
    if missing:
        pytest.exit(f"this Python ({sys.executable}) lacks what the tests need ({', '.join(missing)}): {SETUP}",
                    returncode=4)


CORES = len(os.sched_getaffinity(0))
WORKERS = CORES
"""Test processes by default (pytest-xdist's ``-n``) for the whole suite: one a core (two a core were a
minute quicker here, but the tests that time a server under a flood or a match's pace then shared a core
with three others, and one failed now and then); ``-n 0`` or ``-p no:xdist`` runs every test in the one
process (for ``--pdb``, ``print``)."""
FAST_WORKERS = 2 * CORES
"""Test processes for the fast tier (``-m "not slow"``): two a core, as its tests wait (for a pty, a
socket, a child program) more than they compute; the tests that time a flood or a pace are slow, so
none of them shares a core with three others."""
FAST_TIER = "not slow"
NO_BYTECODE_ENV = "PYTHONDONTWRITEBYTECODE"
"""Taken out of the environment of the test processes and of every program they start: with it (some
machines set it) each process compiled every module it imports and rewrote every test module's asserts
afresh, some 20 s of the fast tier's CPU here (docs/BENCHMARKS.md, *Tests*)."""
TESTS_LANGUAGE = {"LANGUAGE": "en"}
"""The tests' language, set for the test processes and every program they start: English (the messages as
written), whatever the machine's own (``LANG=fr_FR.UTF-8`` would otherwise make the game speak French to
tests that read English: ``LANGUAGE`` comes first in gettext's order); a test of another language chooses
it (``--language``, ``gamelib.i18n.choose``, its own ``LANGUAGE``) itself."""
DIST = "loadfile"
"""A test file goes whole to one process, its tests in their order: a module-scoped fixture (a booted
Debian, a built book) is made once, and a file whose tests go on from the one before (the boot test's
machine) keeps its order. (The processes re-read the command line, so a mode that needs their help,
``loadgroup``, cannot be chosen here.)"""


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Run the tests in :data:`WORKERS` processes (the fast tier in :data:`FAST_WORKERS`) unless the command line says how many (``-n``), or
    pytest-xdist is not loaded (``-p no:xdist``; setup.cfg's addopts cannot name ``-n``: without
    pytest-xdist that is a usage error before :func:`pytest_configure` could say what is missing);
    by :data:`DIST` unless it says ``--dist``."""
    os.environ.pop(NO_BYTECODE_ENV, None)
    os.environ.update(TESTS_LANGUAGE)
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return
    if config.option.numprocesses is None and not config.option.tx:
        config.option.numprocesses = FAST_WORKERS if config.option.markexpr == FAST_TIER else WORKERS
    if config.option.numprocesses and config.option.dist == "no":
        config.option.dist = DIST


@pytest.fixture(autouse=True)
def games_db(tmp_path_factory, monkeypatch):
    """Every test, and every program a test starts, records into its own database, never the user's."""
    path = tmp_path_factory.mktemp("records") / "games.db"
    monkeypatch.setenv("SENSEHAT_C4_DB", str(path))
    return path


# -- fixtures the tests of several folders use (the package is imported in them: a Python without it is
#    stopped by pytest_configure, in one line, before any is made) -------------------------------------

@pytest.fixture
def emu_dir(monkeypatch):
    """The real ``sense_emu`` pointed at a temporary directory (``emu_sandbox``), ``$HOME`` there, no display."""
    import emu_sandbox

    # short: the library binds a socket named after the pid there (108-byte limit)
    directory = tempfile.mkdtemp(prefix="c4emu-")
    emu_sandbox.redirect(directory, monkeypatch.setattr)
    monkeypatch.setenv("HOME", directory)
    monkeypatch.delenv("DISPLAY", raising=False)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def emulator(emu_dir):
    """The emulator's side of :func:`emu_dir`: its screen file read, its joystick pressed."""
    from emu_sandbox import FakeEmulator

    with FakeEmulator(emu_dir) as emulator:
        yield emulator


@pytest.fixture
def sandbox():
    """A short-named temporary directory for a program in a pty (``pty_terminal.start``)."""
    directory = tempfile.mkdtemp(prefix="c4term-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def mock(monkeypatch):
    """The backend ``sensehat-c4`` opens: a scripted mock (the launcher's folder has its own ``mock``)."""
    from gamelib import backends
    from gamelib.backends.mock import MockBackend

    backend = MockBackend()
    monkeypatch.setattr(backends, "open_backend", lambda *a, **k: backend)
    return backend


@pytest.fixture
def config(tmp_path, monkeypatch):
    """The launcher's settings file, under a temporary ``$XDG_CONFIG_HOME``."""
    from gamelib.launcher.settings import SettingsFile

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return SettingsFile(tmp_path / "gamelib" / "settings.json")


@pytest.fixture
def launcher_mock(monkeypatch):
    """The backend the launcher opens: a scripted mock (what it was asked for is in ``opened``)."""
    from gamelib import backends
    from gamelib.backends.mock import MockBackend

    backend = MockBackend()
    backend.opened = []

    def fake_open(name=None, *, rotation=0, low_light=False, notice=None):
        backend.opened.append((name, rotation, low_light))
        backend.screen.rotation, backend.screen.low_light = rotation, low_light
        return backend

    monkeypatch.setattr(backends, "open_backend", fake_open)
    return backend
