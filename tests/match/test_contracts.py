"""The typed contracts between the parts: fakes that fit the protocols work in their place, mypy
refuses what does not fit (``contracts/fits.py``, ``contracts/misfits.py``); the opponent as a
value; the one wait (``gamelib/waiting.py``) blocking in ``select()``; Match animating through
``gamelib.animation``."""
import os
import re
import threading
import time
from pathlib import Path

import pytest

from contracts.fits import Calls, FakeCore, Session
from gamelib import animation as animation_module
from gamelib.backends.base import Action, Backend, Direction, StickEvent
from gamelib.backends.device import Clock
from gamelib.backends.mock import MockBackend
from gamelib.colours import RED
from gamelib.errors import MockExhausted
from gamelib.palette import for_round
from gamelib.waiting import DUE, WOKEN, wait
from sensehat_c4.engine import oracle as oracle_module
from sensehat_c4.engine.limit import Limit
from sensehat_c4.engine.position import Position
from sensehat_c4.errors import ConfigError
from sensehat_c4.lan.remote import RemotePlayer
from sensehat_c4.match import render
from sensehat_c4.match.controller import MatchOptions, MatchResult, Timing, play
from sensehat_c4.match.opponents import HUMAN, LAN, MATCH_ME, NAMES, OPPONENTS, Opponent, OpponentKind
from sensehat_c4.records import RoundFacts, Side
from sensehat_c4.rules import Board, Layout, Starts
from scripted import moves

ROOT = Path(__file__).resolve().parents[2]


# -- the protocols, checked by mypy ---------------------------------------------------------------

def mypy(path: Path, cache: Path, *, strict: bool = True) -> list:
    """mypy --strict's error lines about ``path`` (the repository's settings otherwise; those alone if not
    ``strict``)."""
    api = pytest.importorskip("mypy.api")
    here = os.getcwd()
    os.chdir(ROOT)   # mypy finds our packages from the checkout
    try:
        out, err, _ = api.run(["--strict"] * strict + [
                               "--no-error-summary", "--follow-imports=silent", "--cache-dir", str(cache),
                               "--config-file", str(ROOT / "pyproject.toml"), str(path.relative_to(ROOT))])
    finally:
        os.chdir(here)
    assert not err
    return [line for line in out.splitlines() if ": error: " in line]


def test_fakes_that_fit_the_protocols_pass_mypy_strict(tmp_path):
    assert mypy(ROOT / "tests/helpers/contracts/fits.py", tmp_path) == []


def test_mypy_refuses_each_fake_that_does_not_fit(tmp_path):
    path = ROOT / "tests/helpers/contracts/misfits.py"
    marked = {n for n, line in enumerate(path.read_text().splitlines(), 1) if line.endswith("# refused")}
    errors = mypy(path, tmp_path)
    assert len(marked) == 7
    assert {int(re.match(r"[^:]+:(\d+):", line).group(1)) for line in errors} == marked
    said = "\n".join(errors)
    for refusal in ('"NoNullWindow", variable has type "Core"', '"ColumnScores", variable has type "Core"',
                    '"Forgetful", variable has type "MatchRecorder"',
                    '"Helpless", variable has type "MatchRecorder"', '"Nameless"; expected "RemoteSession"',
                    'type "str"; expected "Opponent | None"', 'for + ("None")'):
        assert refusal in said


def test_the_projects_mypy_refuses_a_domain_value_compared_with_a_string(tmp_path):
    """A match's status, a round's result, who starts, the computer's seat, the terminal's colour mode and a LAN
    guest's event are enums: compared with their words as strings, mypy (the project's settings: strict_equality)
    refuses the line; compared as enums or by their values, it does not."""
    path = ROOT / "tests/helpers/contracts/strings.py"
    marked = {n for n, line in enumerate(path.read_text().splitlines(), 1) if line.endswith("# refused")}
    errors = mypy(path, tmp_path, strict=False)
    assert len(marked) == 5
    assert {int(re.match(r"[^:]+:(\d+):", line).group(1)) for line in errors} == marked
    assert all("[comparison-overlap]" in line for line in errors)


# -- the fakes at work ----------------------------------------------------------------------------

def test_a_fake_core_plugged_in_where_cores_are_made_answers_the_oracle(monkeypatch):
    core = FakeCore(7)
    monkeypatch.setattr(oracle_module, "new_solver", lambda shape, **options: core)
    layout = Layout(4, 4)
    oracle = oracle_module.Oracle(Position.of(Board(4, 4)).shape)
    position = Position.of(Board.from_moves("12", layout.columns, layout.rows))
    budget = Limit().start()
    assert oracle.score(position, budget) == 7
    assert core.asked == [position] and budget.nodes == 1 and oracle.solver.name == "fake"


def test_a_fake_recorder_keeps_a_match_s_calls():
    """Any object with the four methods and ``number`` records a match (the LAN's RecordTee is one, with no base class);
    a round with no computer keeps no level and no helps."""
    mock = MockBackend()
    mock.tap("down")                            # seat 1 drops in column 4
    mock.tap("up", "up", at=mock._cursor + 1)   # seat 2 asks to abandon, and confirms
    calls = Calls()
    result = play(mock, MatchOptions(seed=1), recorder=calls)
    assert result == MatchResult(None, (0, 0), True, 1) and result.number == 7   # the number the recorder gives
    assert mock.statuses[-1][1].text == "match 7: abandoned at 0-0"
    assert calls.calls == [
        ("start_match", (Side((255, 0, 0)), Side((255, 255, 0))), 7, 6, "mock", Starts.ALTERNATE, 2),
        ("start_round",), ("played", 1, 1, "4", None, RoundFacts()), ("end_match", None)]


def test_a_remote_session_is_what_has_a_source_and_gone():
    session = Session()
    player = RemotePlayer(session)
    assert (player.source, player.gone) == ("lan:1", False)
    session.gone = True
    assert player.gone


# -- the opponent as a value ----------------------------------------------------------------------

def test_an_opponent_is_parsed_once_from_its_word_and_gives_it_back():
    assert [Opponent.parse(name) for name in NAMES] == list(OPPONENTS)
    assert Opponent.parse("human") is not HUMAN and Opponent.parse("human") == HUMAN
    assert Opponent.parse("lan") == LAN and LAN.kind is OpponentKind.LAN and LAN not in OPPONENTS
    steady = Opponent.parse("steady")
    assert (steady.kind, steady.level, steady.name) == (OpponentKind.COMPUTER, "steady", "steady")
    assert Opponent.parse("match-me") == MATCH_ME and MATCH_ME.kind is OpponentKind.MATCH_ME and MATCH_ME.level is None
    with pytest.raises(ConfigError, match=r"^the opponent is human, match-me, lan or a level: easy, .*perfect \(not 'rules'\)$"):
        Opponent.parse("rules")
    with pytest.raises(ConfigError, match=r"^level must be one of easy, .* \(not 'godlike'\)$"):
        Opponent.computer("godlike")
    with pytest.raises(ConfigError, match=r"^only the computer has a level \(not human\)$"):
        Opponent(OpponentKind.HUMAN, "easy")
    with pytest.raises(ConfigError, match=r"^only the computer has a level \(not match-me\)$"):
        Opponent(OpponentKind.MATCH_ME, "easy")    # match me's level is the match's, round by round


# -- the one wait ---------------------------------------------------------------------------------

def test_wait_on_the_mock_gives_due_events_and_woken():
    mock = MockBackend()
    mock.event("left", at=1.0)
    assert wait(mock, 0.0) is DUE and mock.now() == 0.0        # due already: no wait, nothing read
    assert wait(mock, 0.5) is WOKEN and mock.now() == 0.5      # the deadline came first
    assert wait(mock, 0.5) is DUE
    got = wait(mock, 2.0)                                     # an event before the deadline
    assert isinstance(got, StickEvent) and got.direction is Direction.LEFT and mock.now() == 1.0
    mock.event("right", at=5.0)
    got = wait(mock, None)                                    # no deadline: the next event
    assert isinstance(got, StickEvent) and got.direction is Direction.RIGHT
    with pytest.raises(MockExhausted):                        # nothing to come, no deadline: it would wait for ever
        wait(mock, None)


class CountingClock(Clock):
    """The real clock and select(), counting the waits."""

    def __init__(self) -> None:
        self.waits = 0

    def wait(self, waitables, timeout):
        self.waits += 1
        return super().wait(waitables, timeout)


class PipeDevice:
    """A stick that is a pipe: each byte a press of the middle."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()

    def write(self, pixels):
        pass

    def waitables(self):
        return (self.read_end,)

    def read(self, ready, now):
        if self.read_end not in ready:
            return None
        os.read(self.read_end, 1)
        return StickEvent(now, Direction.MIDDLE, Action.PRESSED)

    def due(self, now):
        return None

    def close(self):
        os.close(self.read_end)
        os.close(self.write_end)


@pytest.fixture
def piped():
    clock, device = CountingClock(), PipeDevice()
    backend = Backend(device, clock=clock)
    yield backend, device, clock
    backend.close()


def later(seconds, action):
    timer = threading.Timer(seconds, action)
    timer.start()
    return timer


def test_wait_blocks_in_one_select_until_an_event(piped):
    """Waiting costs no CPU: one select() for the whole wait, however long (no wake-up loop)."""
    backend, device, clock = piped
    later(0.4, lambda: os.write(device.write_end, b"x"))
    cpu, wall = time.thread_time(), time.monotonic()
    got = wait(backend, None)
    cpu, wall = time.thread_time() - cpu, time.monotonic() - wall
    assert isinstance(got, StickEvent) and got.direction is Direction.MIDDLE
    assert clock.waits == 1 and wall >= 0.35 and cpu < 0.05


def test_wait_until_a_deadline_wakes_once_at_it(piped):
    backend, _, clock = piped
    deadline = backend.now() + 0.3
    cpu = time.thread_time()
    assert wait(backend, deadline) is WOKEN
    assert backend.now() >= deadline - 1e-3 and clock.waits == 1 and time.thread_time() - cpu < 0.05
    assert wait(backend, deadline) is DUE and clock.waits == 1   # due: not even a select()


def test_another_thread_s_wake_ends_the_wait_at_once(piped):
    backend, _, clock = piped
    later(0.2, backend.stick.wake)
    start = time.monotonic()
    assert wait(backend, backend.now() + 30.0) is WOKEN
    assert time.monotonic() - start < 10.0 and clock.waits == 1


# -- Match's animations ---------------------------------------------------------------------------

def test_the_match_plays_its_animations_through_gamelib_animation(monkeypatch):
    """Every animation of a match is an Animation's: each fall, and the win's blink, score and colour
    (the frames themselves: test_controller)."""
    played = []
    original = animation_module.Animation.play

    def play_recorded(self, steps, then=animation_module._nothing):
        steps = [(tuple(frame), seconds) for frame, seconds in steps]
        played.append(steps)
        original(self, steps, then)

    monkeypatch.setattr(animation_module.Animation, "play", play_recorded)
    mock = MockBackend()
    moves(mock, "4545454")                               # red stacks column 4: a win in seven moves
    timing = Timing()
    result = play(mock, MatchOptions(wins=1, timing=timing))
    assert result == MatchResult(winner=1, score=(1, 0), abandoned=False, rounds=1)
    options, board = MatchOptions(), Board()
    palette = for_round(options.players(mock.palette), 1, mock.palette)
    falls = []
    for char in "4545454":
        board.play(int(char) - 1)
        falls.append([(tuple(f), s) for f, s in render.falling(board, int(char) - 1, palette, timing.fall_row)])
    assert played[:7] == falls and len(played) == 8
    shown = [frame for _, frame in mock.frames]
    ending = [frame for frame, _ in played[7]]
    assert shown[-len(ending) - 1:-1] == ending and ending[-1] == (RED,) * 64   # then the LEDs clear
