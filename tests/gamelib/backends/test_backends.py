"""What every backend shares (``gamelib/backends/base.py``, ``inbox.py``, ``__init__.py``): observers of
the frames and words, events injected from other threads, and the registry of backends."""
import ast
import contextlib
import importlib.util
import logging
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from frames import turned
from records_data import record_match, ticking
from scripted import MATCH_SETTLE, ROUND_SETTLE, moves

from gamelib import backends
from gamelib.backends import inbox
from gamelib.backends.base import PAIR_HOLD, STICK, Action, Backend, Direction, Observer, StickEvent
from gamelib.backends.stick import stick_map
from gamelib.backends.mock import HOLD_DELAY, HOLD_PERIOD, MockBackend
from gamelib.colours import BLACK, BLUE, RED, YELLOW
from gamelib import doctor
from gamelib.errors import BackendError, ConfigError, MockExhausted, SetupError
from gamelib.launcher import cli as launcher_cli
from gamelib.status import Status
from sensehat_c4 import cli
from sensehat_c4.commands import checks as cdoctor
from sensehat_c4.match import render
from sensehat_c4.match.controller import MatchOptions, play
from sensehat_c4.records import MatchStatus, Recorder, Records
from sensehat_c4.rules import Board

P = render.Palette()


class Recording(Observer):
    def __init__(self):
        self.seen = []

    def shown(self, frame):
        self.seen.append(("frame", frame))

    def said(self, status):
        self.seen.append(("status", status))


# -- observers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_observers_get_every_logical_frame_in_order_before_rotation(rotation):
    mock = MockBackend(rotation=rotation)
    watcher = Recording()
    mock.screen.observe(watcher)
    physical = {logical.value: d.value for d, logical in stick_map(rotation).items()}   # the stick turns too
    mock.tap(physical["right"], physical["down"])
    mock.tap(physical["up"], physical["up"], at=2.0)
    play(mock, MatchOptions())
    logical = [frame for kind, frame in watcher.seen if kind == "frame"]
    assert len(logical) == len(mock.frames) > 10
    assert [turned(frame, rotation) for frame in logical] == [f for _, f in mock.frames]   # as shown, unturned
    assert logical[:2] == [tuple(render.board_frame(Board(), P, cursor=c)) for c in (3, 4)]
    assert all(isinstance(f, tuple) and all(isinstance(p, tuple) for p in f) for f in logical)  # keep it as is
    assert logical[-1] == (BLACK,) * 64 and mock.screen.frame == logical[-1]


def test_words_go_to_the_observers_between_the_frames_and_equal_ones_once():
    mock = MockBackend()
    watcher = Recording()
    stop = mock.screen.observe(watcher)
    first = Status("menu", "menu: Connect 4", "Connect 4", {"item": "Connect 4"})
    mock.screen.show([RED] * 64)
    mock.screen.say(first)
    mock.screen.say(Status("menu", "menu: Connect 4", "Connect 4", {"item": "Connect 4"}))   # equal: not again
    mock.screen.show([BLUE] * 64)
    stop()
    mock.screen.show([YELLOW] * 64)
    mock.screen.say(Status("menu", "menu: quit"))
    assert watcher.seen == [("frame", (RED,) * 64), ("status", first), ("frame", (BLUE,) * 64)]
    assert mock.screen.status == Status("menu", "menu: quit") and mock.screen.frame == (YELLOW,) * 64
    assert first.as_json() == {"phase": "menu", "text": "menu: Connect 4", "caption": "Connect 4", "item": "Connect 4"}
    assert [s.text for _, s in mock.statuses] == ["menu: Connect 4", "menu: quit"]


def test_an_observer_that_fails_is_dropped_and_the_game_goes_on(caplog):
    class Broken(Observer):
        calls = 0

        def shown(self, frame):
            Broken.calls += 1
            raise RuntimeError("the mirror broke")

    mock = MockBackend()
    good = Recording()
    mock.screen.observe(Broken())
    mock.screen.observe(good)
    with caplog.at_level(logging.ERROR, logger="gamelib"):
        mock.screen.show([RED] * 64)
        mock.screen.show([BLUE] * 64)
    assert Broken.calls == 1
    assert good.seen == [("frame", (RED,) * 64), ("frame", (BLUE,) * 64)]
    assert [f for _, f in mock.frames] == [(RED,) * 64, (BLUE,) * 64]
    assert caplog.messages == ["an observer of the LEDs failed and was dropped"]


# -- events from other threads ---------------------------------------------------------------------

def test_injected_events_carry_their_source_and_are_not_turned():
    mock = MockBackend(rotation=90)
    assert mock.stick.inject("left", source="phone:1")
    mock.event("left", source="phone:2")               # scripted from another source: as the players see it
    mock.event("left")                                  # the backend's own stick: turned (90 degrees)
    assert mock.stick.wait_event() == StickEvent(0.0, Direction.LEFT, Action.PRESSED, "phone:1")
    assert mock.stick.wait_event() == StickEvent(0.0, Direction.LEFT, Action.PRESSED, "phone:2")
    assert mock.stick.wait_event() == StickEvent(0.0, Direction.DOWN, Action.PRESSED, STICK)


def test_the_inbox_is_bounded_discarded_with_the_rest_and_closed_with_the_backend():
    mock = MockBackend()
    assert all(mock.stick.inject("right", source="phone") for _ in range(inbox.LIMIT))
    assert not mock.stick.inject("right", source="phone")    # a flood is refused, not queued without end
    mock.event("left", at=0.0)                          # and the stick's press, due now
    assert mock.stick.discard_events() == 1 + inbox.LIMIT
    mock.close()
    assert not mock.stick.inject("right", source="phone")
    mock.stick.wake()                                         # harmless once closed


def test_an_injection_from_another_thread_wakes_a_wait_for_ever():
    mock = MockBackend(real_wait=10.0)

    def later():
        mock.blocked.wait(10)
        mock.stick.inject("middle", "held", source="phone")

    thread = threading.Thread(target=later)
    thread.start()
    started = time.monotonic()
    event = mock.stick.wait_event()
    thread.join(10)
    assert event == StickEvent(0.0, Direction.MIDDLE, Action.HELD, "phone")
    assert time.monotonic() - started < 5 and mock.real_waits == 1 and mock.now() == 0.0


def test_a_wake_up_from_another_thread_ends_a_wait_with_no_event():
    mock = MockBackend(real_wait=10.0)
    mock.stick.wake()                          # before anyone waits: the next wait returns at once
    assert mock.stick.wait_event() is None
    thread = threading.Thread(target=lambda: mock.blocked.wait(10) and mock.stick.wake())
    thread.start()
    assert mock.stick.wait_event() is None and mock.real_waits == 2
    thread.join(10)
    mock.real_wait = 0.05                # nothing comes: the script is exhausted, as before
    with pytest.raises(MockExhausted):
        mock.stick.wait_event()


# -- the pairing gesture ---------------------------------------------------------------------------

def read_all(mock):
    """Every event the game gets until the script ends (the pairing gesture is seen as they are read)."""
    events = []
    while mock.pending:
        event = mock.stick.wait_event(10.0)
        if event is not None:
            events.append(event)
    return events


def pairings(mock):
    """The fake clock's time at each pairing gesture."""
    times = []
    mock.stick.watch_pairing(lambda: times.append(mock.now()))
    return times


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_the_stick_s_middle_held_three_seconds_is_the_pairing_gesture_once_per_hold(rotation):
    mock = MockBackend(rotation=rotation)
    times = pairings(mock)
    assert PAIR_HOLD == 3.0 and mock.stick.pairing_watched
    mock.hold("middle", 2.95, at=1.0)                  # not quite: nothing
    mock.hold("middle", 6.0, at=5.0)                   # once, at the first held event 3 s after the press
    mock.hold("middle", 3.2, at=12.0)                  # a new hold: again
    events = read_all(mock)
    assert times == pytest.approx([8.0, 15.0])
    helds = [e for e in events if e.action is Action.HELD]     # the game gets every event as before
    assert len(helds) == len([k for k in range(200) if HOLD_DELAY + k * HOLD_PERIOD < 2.95]) + \
        len([k for k in range(200) if HOLD_DELAY + k * HOLD_PERIOD < 6.0]) + \
        len([k for k in range(200) if HOLD_DELAY + k * HOLD_PERIOD < 3.2])
    assert {(e.direction, e.source) for e in events} == {(Direction.MIDDLE, STICK)}
    assert [e.action for e in events if e.action is not Action.HELD] == [Action.PRESSED, Action.RELEASED] * 3


def test_other_holds_and_other_sticks_make_no_pairing_gesture():
    mock = MockBackend()
    times = pairings(mock)
    mock.hold("up", 4.0, at=1.0)                       # another direction held
    mock.hold("left", 4.0, at=6.0)
    mock.event("middle", "pressed", at=11.0, source="phone:1")      # a phone's middle "held" (injected, scripted)
    for k in range(80):
        mock.event("middle", "held", at=11.25 + k * 0.05, source="phone:1")
    assert mock.stick.inject("middle", "pressed", source="phone:2")
    for _ in range(80):
        assert mock.stick.inject("middle", "held", source="phone:2")
    mock.tap("middle", at=16.0)                        # taps of the stick's middle, however many
    mock.tap("middle", at=17.0)
    read_all(mock)
    assert times == []


def test_a_hold_goes_on_through_events_the_game_throws_away():
    mock = MockBackend()
    times = pairings(mock)
    mock.event("middle", "pressed", at=0.0)
    for k in range(100):                               # held for 5.25 s
        mock.event("middle", "held", at=0.25 + k * 0.05)
    assert mock.stick.wait_event(1.0).action is Action.PRESSED
    mock.advance(3.5)
    assert times == []
    assert mock.stick.discard_events() == 66                 # the game threw away what came meanwhile (0.25 to 3.5) ...
    assert times == [3.5]                              # ... with the hold's 3 s in it: the gesture, as they go
    read_all(mock)
    assert times == [3.5]                              # once


def test_a_hold_that_began_before_the_stick_was_read_counts_from_its_first_held_event():
    mock = MockBackend()
    times = pairings(mock)
    for k in range(100):                               # its press came before the program opened the stick
        mock.event("middle", "held", at=0.25 + k * 0.05)
    read_all(mock)
    assert times == pytest.approx([3.25])


def test_a_pairing_listener_that_fails_is_dropped_and_the_game_goes_on(caplog):
    mock = MockBackend()

    def broken():
        raise RuntimeError("broken")

    mock.stick.watch_pairing(broken)
    stop = mock.stick.watch_pairing(lambda: None)
    mock.hold("middle", 3.5, at=0.0)
    mock.hold("middle", 3.5, at=5.0)
    assert len(read_all(mock)) > 100
    assert caplog.text.count("a listener for the pairing gesture failed and was dropped") == 1
    assert mock.stick.pairing_watched
    stop()
    assert not mock.stick.pairing_watched


# -- the registry ----------------------------------------------------------------------------------

def test_the_registered_backends_in_order():
    assert backends.names() == ("auto", "hat", "emu", "terminal")
    assert backends.names(service=True) == ("auto", "hat", "emu")


def test_a_new_backend_is_one_registration_everywhere(capsys, monkeypatch, tmp_path):
    """A headless backend (a web view's, later): one register() call, and both commands, the variable
    and the selection order take it; auto never picks it."""
    opened = []

    def headless(*, rotation, low_light):
        mock = MockBackend(rotation=rotation, low_light=low_light)
        mock.tap("up", "up")                                        # the game: abandon at once
        mock.hold("up", 2.1, at=5.0)                                # the launcher: the system menu, then quit
        mock.tap("right", "right", "middle")
        opened.append(mock)
        return mock

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))              # the launcher's settings
    with backends.registered("headless", headless):
        assert backends.names() == ("auto", "hat", "emu", "terminal", "headless")
        assert cli.main(["--backend", "headless", "--rotation", "90", "--opponent", "human", "--matches", "1"]) == 0
        assert capsys.readouterr().out == "match not recorded: abandoned at 0-0\n"   # no move: not kept
        assert (opened[0].screen.rotation, opened[0].closed) == (90, True)
        monkeypatch.setenv("GAMELIB_BACKEND", "headless")
        assert launcher_cli.main(["--log-level", "error"]) == 0
        assert opened[1].closed and len(opened) == 2
        with pytest.raises(SetupError) as info:
            backends.open_backend("tv")
        assert str(info.value) == "--backend='tv' is not a backend: use one of auto, hat, emu, terminal, headless"
    assert backends.names() == ("auto", "hat", "emu", "terminal")
    with pytest.raises(SystemExit):
        cli.main(["--backend", "headless"])                             # gone with the registration
    assert "invalid choice: 'headless'" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["auto", "hat", "", "Two Words", "a,b"])
def test_a_registration_needs_a_new_plain_name(name):
    with pytest.raises(ConfigError):
        backends.register(name, MockBackend)


@pytest.mark.parametrize("variable", ["GAMELIB_BACKEND", "SENSEHAT_C4_BACKEND"])
@pytest.mark.parametrize("argv", [[], ["--opponent", "human"], ["replay", "last"]])
def test_an_unknown_backend_in_the_environment_is_one_line_and_exit_78(capsys, monkeypatch, tmp_path,
                                                                      variable, argv):
    monkeypatch.delenv("GAMELIB_BACKEND", raising=False)
    monkeypatch.setenv(variable, "tv")
    path = tmp_path / "games.db"
    with contextlib.closing(Recorder(path, clock=ticking())) as recorder:   # a round, so replay gets as far
        record_match(recorder, ["4455667"])                                  # as the backend
    monkeypatch.setenv("SENSEHAT_C4_DB", str(path))
    assert cli.main(list(argv)) == 78
    prog = " ".join(["sensehat-c4"] + argv[:1] if argv[:1] == ["replay"] else ["sensehat-c4"])
    assert capsys.readouterr().err == f"{prog}: {variable}='tv' is not a backend: use one of auto, hat, emu, terminal\n"


# -- a device composed into a backend ---------------------------------------------------------------

class PipeDevice:
    """The least device: its stick a pipe (one byte a press: u, d, l, r, m), its LEDs a list."""

    KEYS = {b"u": Direction.UP, b"d": Direction.DOWN, b"l": Direction.LEFT, b"r": Direction.RIGHT,
            b"m": Direction.MIDDLE}

    def __init__(self):
        self.stick, self.presses = os.pipe()
        self.written, self.asked = [], []
        self.closed = False

    def write(self, pixels):
        self.written.append(tuple(pixels))

    def waitables(self):
        return [self.stick]

    def read(self, ready, now):
        self.asked.append(tuple(ready))
        if self.stick in ready:
            return StickEvent(now, self.KEYS[os.read(self.stick, 1)], Action.PRESSED)
        return None

    def due(self, now):
        return None

    def close(self):
        self.closed = True
        os.close(self.stick)
        os.close(self.presses)


def test_a_device_is_all_a_backend_needs_and_never_sees_the_inbox():
    device = PipeDevice()
    backend = Backend(device, rotation=90)
    frame = [BLACK] * 64
    frame[0] = RED                                               # the picture's top left
    backend.screen.show(frame)
    assert device.written[-1][7] == RED and device.written[-1].count(RED) == 1   # the panel's top right
    os.write(device.presses, b"u")                               # the panel's up is the picture's left at 90
    event = backend.stick.wait_event(1.0)
    assert (event.direction, event.action, event.source) == (Direction.LEFT, Action.PRESSED, STICK)
    waiting = threading.Thread(target=lambda: (time.sleep(0.05), backend.stick.inject("down", source="phone")))
    waiting.start()
    event = backend.stick.wait_event()                                 # no timeout: another thread's press ends it
    waiting.join()
    assert (event.direction, event.action, event.source) == (Direction.DOWN, Action.PRESSED, "phone")
    assert all(backend._inbox not in ready for ready in device.asked)   # only its own waitables reach it
    with backend:
        pass
    assert device.closed and device.written[-1] == (BLACK,) * 64


# -- a backend from another package, through the entry points ------------------------------------

PLUGIN = '''
from gamelib.backends.entry import Found, Needs, Probe
from gamelib.backends.mock import MockBackend

OPENED = []
SCRIPT = []
PLUGGED = []


class ScriptedBoard(MockBackend):
    """Another package's backend: a board whose presses are scripted by whoever installed it."""

    name = "scripted"
    needs = Needs(libraries=("scripted_board",), devices=("/dev/null", "/dev/scripted-board"))

    @staticmethod
    def probe():
        if PLUGGED:
            return Probe(Found.HERE, "a scripted board is plugged in")
        return Probe(Found.ABSENT, "no scripted board is plugged in")

    def __init__(self, *, rotation=0, low_light=False):
        super().__init__(rotation=rotation, low_light=low_light)
        for script in SCRIPT:
            script(self)
        OPENED.append(self)
'''


def three_rounds(mock):
    """Player 1 wins, player 2 wins, player 2 wins in column 4 (as test_cli's winners' score)."""
    moves(mock, "4545454")
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14241464")
    mock.wait_until(mock._cursor + MATCH_SETTLE)


@pytest.fixture
def installed_plugin(tmp_path, monkeypatch):
    """A distribution installed for the test: its dist-info's entry_points.txt registers ``scripted``
    under ``gamelib.backends``, its module on sys.path beside it."""
    (tmp_path / "scripted_board.py").write_text(PLUGIN)
    info = tmp_path / "scripted_board-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: scripted-board\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gamelib.backends]\nscripted = scripted_board:ScriptedBoard\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "scripted_board", raising=False)
    backends.rediscover()
    yield
    sys.modules.pop("scripted_board", None)
    backends.rediscover()


def test_a_backend_installed_by_another_package_plays_a_match(installed_plugin, capsys, games_db, tmp_path):
    """An entry point is the whole registration: --backend takes it, the match plays through it frame
    for frame as on the mock it is built on, and the records name it."""
    assert backends.names() == ("auto", "hat", "emu", "terminal", "scripted")
    assert backends.names(service=True) == ("auto", "hat", "emu", "scripted")
    import scripted_board

    scripted_board.SCRIPT.append(three_rounds)
    assert cli.main(["--backend", "scripted", "--opponent", "human", "--matches", "1"]) == 0
    assert capsys.readouterr() == ("match 1: player 2 wins 2-1\n", "")
    (board,) = scripted_board.OPENED
    assert type(board).__module__ == "scripted_board" and board.closed and board.leds == (BLACK,) * 64

    reference = MockBackend()                                   # the same match on the mock, opened directly
    three_rounds(reference)
    with reference, contextlib.closing(Recorder(tmp_path / "reference.db")) as recorder:
        result = play(reference, MatchOptions(), recorder=recorder)   # recorded too: the words number it 1
    assert (result.winner, result.score) == (2, (1, 2))
    assert list(board.frames) == list(reference.frames) and len(board.frames) > 100
    assert board.statuses == reference.statuses
    with Records(games_db) as records:
        (match,) = records.matches(1)
    assert (match.backend, match.status, match.winner) == ("scripted", MatchStatus.FINISHED, 2)


class Bare(doctor.System):
    """A machine with no HAT, no emulator running or startable, no terminal."""

    def glob(self, pattern):
        return []

    def emulator_pid(self):
        return None

    def terminal(self):
        return False

    def which(self, program):
        return None

    def user(self):
        return "pi"


@pytest.fixture
def bare(monkeypatch):
    """This machine as :class:`Bare` to ``auto``."""
    from gamelib.backends import senselib, terminal
    monkeypatch.setattr(senselib, "hat_present", lambda: False)
    monkeypatch.setattr(senselib, "emulator_running", lambda: None)
    monkeypatch.setattr(terminal, "standard_fds", lambda: None)
    monkeypatch.delenv("DISPLAY", raising=False)
    for variable in ("GAMELIB_BACKEND", "SENSEHAT_C4_BACKEND"):
        monkeypatch.delenv(variable, raising=False)


def test_a_backend_installed_by_another_package_joins_auto_by_its_probe_and_the_doctor(installed_plugin, bare):
    """Its probe decides whether ``auto`` takes it (after this package's backends); the doctor lists it, checks
    what it declares it needs, and marks that needed when it is the way to play."""
    import scripted_board

    with pytest.raises(BackendError, match="^no Sense HAT found, the emulator is not"):
        backends.open_backend("auto")                            # not plugged in: nothing to play on
    report = cdoctor.examine(Bare({"PATH": ""}))
    lines = {check.name: check.line() for check in report.checks}
    assert lines["backend.scripted"] == "– backend scripted: not here: no scripted board is plugged in"
    assert lines["device./dev/scripted-board"] == "– device /dev/scripted-board: there is no /dev/scripted-board"
    assert (report.chosen, report.works) == (None, False)

    scripted_board.PLUGGED.append(True)
    said = []
    with backends.open_backend("auto", notice=said.append) as board:
        assert type(board).__module__ == "scripted_board"
    assert said == ["using scripted: a scripted board is plugged in"]
    report = cdoctor.examine(Bare({"PATH": ""}))
    lines = {check.name: check for check in report.checks}
    assert lines["backend.scripted"].line() == "✓ backend scripted: a scripted board is plugged in"
    assert lines["library.scripted_board"].line().startswith("✓ scripted_board library: 1.0 (")
    assert lines["device./dev/null"].line() == "✓ device /dev/null: /dev/null, usable"
    assert lines["device./dev/scripted-board"].line() == (
        "✗ device /dev/scripted-board: there is no /dev/scripted-board; fix: the scripted backend needs it: see its "
        "documentation")
    assert [name for name, check in lines.items() if check.needed] == [
        "python", "device./dev/null", "device./dev/scripted-board", "library.scripted_board", "backend.scripted",
        "play"]
    assert (report.chosen, report.works) == ("scripted", False)
    assert report.checks[-1].line() == (
        "✗ way to play: scripted (auto-detected) does not work here: see the lines marked above")


def test_without_the_package_its_backend_is_gone(capsys):
    assert "scripted" not in backends.names()
    with pytest.raises(SystemExit):
        cli.main(["--backend", "scripted"])
    assert "invalid choice: 'scripted'" in capsys.readouterr().err


# -- the backend's shape: its parts, and its modules' imports ------------------------------------------

ROOT = Path(__file__).resolve().parents[3]
PARTS = ("base", "device", "entry", "events", "inbox", "interlude", "screen", "stick")


def test_a_backend_is_its_device_and_its_parts_in_at_most_15_public_members():
    """``tools/count_members.py`` reads the class's source; a backend made says the same at run time."""
    spec = importlib.util.spec_from_file_location("count_members", ROOT / "tools" / "count_members.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    members = tool.public_members(ROOT / "gamelib" / "backends" / "base.py", "Backend")
    assert members == ["close", "closed", "device", "interludes", "name", "needs", "now", "palette", "screen",
                       "seats", "stick"]
    assert len(members) <= 15
    with Backend(PipeDevice()) as backend:
        assert [name for name in dir(backend) if not name.startswith("_")] == members


def test_the_backends_parts_import_one_another_at_their_top_and_in_no_cycle():
    """No import inside a function or under ``TYPE_CHECKING`` among the parts, and the graph of their imports
    has no cycle (``events.py`` is the leaf the others share)."""
    graph = {}
    for part in PARTS:
        tree = ast.parse((ROOT / "gamelib" / "backends" / f"{part}.py").read_text())
        top = {id(node) for node in tree.body}
        graph[part] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert id(node) in top, f"{part}.py imports .{node.module} below its top"
                graph[part].add(node.module)
    assert graph["events"] == set() and all("base" not in imported for imported in graph.values())
    done = set()
    while len(done) < len(graph):                     # peel off the modules whose imports are all done
        ready = {part for part, imported in graph.items() if part not in done and imported & set(PARTS) <= done}
        assert ready, f"an import cycle among {sorted(set(graph) - done)}"
        done |= ready
