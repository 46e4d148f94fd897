"""The ``sense_emu`` backend on the real library, at its OS boundary.

The library is pointed at a temporary directory (``emu_sandbox``), where a
:class:`FakeEmulator` holds the lock, serves the joystick socket and reads the
screen file, as ``sense_emu_gui`` would.  Nothing here touches ``/dev/shm``.
"""
import json
import os
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
from sense_emu.screen import GAMMA_DEFAULT, GAMMA_LOW

from frames import turned
from emu_play import expected
from emu_sandbox import child_env, lit
from pty_terminal import PtyProgram
from gamelib.backends import open_backend
from gamelib.backends.base import STICK, Action, Direction, Observer
from gamelib.backends import senselib
from gamelib.backends.senselib import EmuBackend
from gamelib.errors import BackendError, SetupError
from gamelib.colours import BLACK, RED, YELLOW
from gamelib import install
from gamelib.install import Install, Kind
from sensehat_c4.match import render
from sensehat_c4.rules import Board

P = render.Palette()


def test_a_frame_is_written_to_the_screen_file(emulator):
    frame = render.board_frame(Board.from_moves("4453"), P, cursor=3)
    with EmuBackend() as backend:
        backend.screen.show(frame)
        assert emulator.pixels() == lit(frame)
        assert emulator.pixels()[3] == (248, 0, 0)             # red, as get_pixel reads it
        assert emulator.pixels()[7 * 8 + 2] == (248, 252, 0)   # yellow at the bottom of column 3
    assert emulator.pixels() == [BLACK] * 64                   # closing clears


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rotation_turns_the_picture(emulator, rotation):
    frame = render.board_frame(Board.from_moves("4453"), P, cursor=3)
    with EmuBackend(rotation=rotation) as backend:
        backend.screen.show(frame)
        assert emulator.pixels() == lit(turned(frame, rotation))
        assert emulator.pixels() != lit(frame)


def test_an_observer_sees_the_picture_unturned_while_the_leds_are_turned(emulator):
    frames = [render.board_frame(Board.from_moves(moves), P, cursor=3) for moves in ("", "4", "45")]
    seen = []

    class Mirror(Observer):
        def shown(self, frame):
            seen.append(frame)

    with EmuBackend(rotation=270) as backend:
        backend.screen.observe(Mirror())
        for frame in frames:
            backend.screen.show(frame)
            assert emulator.pixels() == lit(turned(frame, 270))
    assert seen == [tuple(frame) for frame in frames] + [(BLACK,) * 64]      # closing clears: seen too


def test_stick_events_arrive_in_order_and_timeouts_return_none(emulator):
    with EmuBackend() as backend:
        emulator.wait_client()
        assert backend.stick.wait_event(0.05) is None
        emulator.send("left", "pressed")
        emulator.send("left", "held")
        emulator.send("left", "released")
        emulator.send("middle", "pressed")
        events = [backend.stick.wait_event(2.0) for _ in range(4)]
        assert [(e.direction, e.action) for e in events] == [
            (Direction.LEFT, Action.PRESSED), (Direction.LEFT, Action.HELD),
            (Direction.LEFT, Action.RELEASED), (Direction.MIDDLE, Action.PRESSED)]
        assert all(abs(e.timestamp - backend.now()) < 2.0 for e in events)   # our monotonic clock
        assert backend.stick.wait_event(0.05) is None


@pytest.mark.parametrize("rotation, pushed, seen", [
    (90, "right", Direction.UP), (90, "up", Direction.LEFT),
    (180, "left", Direction.RIGHT), (270, "up", Direction.RIGHT), (270, "middle", Direction.MIDDLE),
])
def test_rotation_turns_the_stick_with_the_picture(emulator, rotation, pushed, seen):
    with EmuBackend(rotation=rotation) as backend:
        emulator.wait_client()
        emulator.send(pushed)
        assert backend.stick.wait_event(2.0).direction is seen


def test_another_threads_press_wakes_the_wait_beside_the_stick(emulator):
    with EmuBackend(rotation=90) as backend:
        emulator.wait_client()
        timer = threading.Timer(0.2, lambda: backend.stick.inject("left", source="phone:1"))
        timer.start()
        started = time.monotonic()
        event = backend.stick.wait_event()                  # no timeout: the phone's press ends it
        timer.join()
        assert 0.15 < time.monotonic() - started < 2.0
        assert (event.direction, event.source) == (Direction.LEFT, "phone:1")   # as the players see it
        emulator.send("right")                        # the stick still comes, turned
        event = backend.stick.wait_event(2.0)
        assert (event.direction, event.source) == (Direction.UP, STICK)
        threading.Timer(0.1, backend.stick.wake).start()
        assert backend.stick.wait_event() is None


@pytest.mark.slow
def test_the_middle_held_on_the_emulator_shows_a_pairing_pin_at_once_and_a_phone_sits_with_it(emulator):
    """The emulator's held events (as ``sense_emu_gui`` sends them) make the pairing gesture 3 s after the press:
    the screen file shows the pairing PIN's scroll, and the phone's first try with it seats it."""
    from web_client import post

    from gamelib import web
    from gamelib.colours import WHITE
    from gamelib.scroll import scroll_frames
    from gamelib.web.address import Address
    from gamelib.web.console import PAIR_TEXT

    with EmuBackend() as backend, web.serving(backend, Address("127.0.0.1", 0)) as server:
        emulator.wait_client()
        backend.screen.show(render.board_frame(Board(), P, cursor=3))
        holder = threading.Thread(target=emulator.hold, args=("middle", 3.8))
        held, events, pressed = [], [], time.monotonic()
        holder.start()
        deadline = pressed + 10
        while server.seating.pairing is None and time.monotonic() < deadline:   # the game's loop, as it reads
            event = backend.stick.wait_event(0.1)
            if event is not None:
                events.append(event)
        took = time.monotonic() - pressed
        pin = server.seating.pairing
        assert pin is not None and 3.0 <= took < 3.8, took
        assert (events[0].direction, events[0].action) == (Direction.MIDDLE, Action.PRESSED)
        assert {(e.direction, e.action) for e in events[1:]} == {(Direction.MIDDLE, Action.HELD)}
        scroll = [lit(frame) for frame, _ in scroll_frames(PAIR_TEXT.format(pin=pin), WHITE, (0, 0, 0))]
        while len(held) < 20 and time.monotonic() < deadline:                      # its scroll on the LEDs
            backend.stick.wait_event(0.02)
            pixels = emulator.pixels()
            if pixels in scroll and pixels not in held:
                held.append(pixels)
        assert len(held) == 20 and [scroll.index(p) for p in held] == sorted(scroll.index(p) for p in held)
        holder.join()
        reply = post(server.port, "/api/seat", {"pin": pin, "seat": 2}, source="127.0.0.5")
        assert reply.status == 200 and backend.seats[2] is not None


def test_discard_events_empties_the_queue(emulator):
    with EmuBackend() as backend:
        emulator.wait_client()
        emulator.tap("left", "right", gap=0)
        assert backend.stick.wait_event(2.0).direction is Direction.LEFT   # they have arrived
        assert backend.stick.discard_events() == 3
        assert backend.stick.wait_event(0.05) is None


def test_low_light_sets_the_gamma_and_closing_puts_it_back(emulator):
    backend = EmuBackend(low_light=True)
    assert emulator.gamma() == tuple(GAMMA_LOW)
    backend.screen.show([(255, 255, 255)] * 64)
    backend.close()
    backend.close()                                   # twice is fine
    assert emulator.gamma() == tuple(GAMMA_DEFAULT)
    assert emulator.pixels() == [BLACK] * 64


def test_missing_emulator_is_a_clear_error(emu_dir):
    with pytest.raises(OSError, match=r"^the Sense HAT emulator is not running: start sense_emu_gui"):
        EmuBackend()


@pytest.mark.parametrize("found, command", [
    (Install(Kind.DEBIAN, Path("/usr")), "sudo apt install python3-sense-emu sense-emu-tools"),
    (Install(Kind.PIPX, Path("/home/pi/.local/pipx/venvs/sensehat-c4")), "pipx inject sensehat-c4 sense-emu"),
    (Install(Kind.VENV, Path("/home/pi/c4/.venv")), "/home/pi/c4/.venv/bin/pip install sense-emu"),
])
def test_without_the_library_the_hint_names_it_as_this_install_adds_it(monkeypatch, found, command):
    """A Debian package's user is never told to pip install into the system's Python."""
    monkeypatch.setitem(sys.modules, "sense_emu", None)        # as if it were not installed
    monkeypatch.setattr(install, "this", lambda: found)
    with pytest.raises(SetupError) as info:
        EmuBackend()
    assert str(info.value) == ("the sense_emu library is not installed (import of sense_emu halted; None in "
                               f"sys.modules): {command}")


def test_a_window_that_does_not_come_up_says_what_it_needs(emu_dir, monkeypatch, tmp_path):
    gui = tmp_path / "sense_emu_gui"           # a sense_emu_gui that dies at once (no gi, numpy too new...)
    gui.write_text("#!/bin/sh\nexit 1\n")
    gui.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(senselib, "EMU_START_SECONDS", 0.3)
    with pytest.raises(BackendError) as info:
        EmuBackend()
    assert str(info.value) == (
        "sense_emu_gui was started but its window did not come up: run sense_emu_gui in a terminal to see why; "
        "the window needs Raspberry Pi OS's sense-emu-tools, or elsewhere python3-gi and numpy older than 2.3 "
        "in a venv made with --system-site-packages (see docs/guide/emulator.md)")


def test_auto_picks_the_running_emulator_and_says_so(emulator):
    said = []
    with open_backend("auto", notice=said.append) as backend:
        assert backend.name == "emu"
    assert said == [f"no Sense HAT found; using the running emulator (pid {os.getpid()})"]


# -- the whole program, as a person plays it (a child process on the real library) ---------



def start_game(emu_dir, *args):
    return subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", *args],
        env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def play_moves(emulator, moves, palette=P):
    """Play a round's ``moves`` (1-based columns), waiting for the exact frame before each press."""
    for ply, move in enumerate(moves):
        before = moves[:ply]
        emulator.wait_screen(lambda px: px == expected(before, 3, palette))
        steps = int(move) - 4
        emulator.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps))
        emulator.wait_screen(lambda px: px == expected(before, int(move) - 1, palette))
        emulator.tap("down")


@pytest.mark.slow
def test_a_whole_match_on_the_emulator(emulator, emu_dir):
    game = start_game(emu_dir, "--matches", "1", "--fall-ms", "5")
    try:
        emulator.wait_client()
        play_moves(emulator, "4545454")                      # round 1: red starts, stacks column 4
        play_moves(emulator, "14142424", render.Palette(YELLOW, RED))   # round 2: yellow starts
        out, err = game.communicate(timeout=30)
    finally:
        game.kill()
    assert (game.returncode, out, err) == (0, "match 1: player 1 wins 2-0\n", "")
    assert emulator.pixels() == [BLACK] * 64


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_stopping_the_program_clears_the_leds(emulator, emu_dir, sig, code):
    game = start_game(emu_dir, "--low-light")
    try:
        emulator.wait_client()
        emulator.wait_screen(lambda px: px == expected(""))
        assert emulator.gamma() == tuple(GAMMA_LOW)
        game.send_signal(sig)
        out, err = game.communicate(timeout=30)
    finally:
        game.kill()
    assert (game.returncode, err) == (code, "")
    assert emulator.pixels() == [BLACK] * 64
    assert emulator.gamma() == tuple(GAMMA_DEFAULT)


def test_q_in_the_terminal_that_started_it_quits_and_gives_the_terminal_back(emulator, emu_dir):
    program = PtyProgram([sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human"],
                         env=child_env(emu_dir))
    try:
        emulator.wait_client()
        emulator.wait_screen(lambda px: px == expected(""))
        cbreak = termios.tcgetattr(program.slave)
        assert not cbreak[3] & (termios.ECHO | termios.ICANON) and cbreak[3] & termios.ISIG  # Ctrl+C still works
        program.press("x", "right")                      # other keys do nothing, and are not echoed
        emulator.tap("left")
        emulator.wait_screen(lambda px: px == expected("", 2))
        program.press("q")
        assert program.finish() == ""
        assert program.process.returncode == 0
        assert termios.tcgetattr(program.slave) == program.attributes_before
        assert program.output == b"match not recorded: abandoned at 0-0\r\n"   # the match's line (no move: not kept);
        # nothing typed was echoed
        assert emulator.pixels() == [BLACK] * 64
    finally:
        program.close()


@pytest.mark.parametrize("first, second", [(signal.SIGHUP, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)],
                         ids=lambda s: s.name)
def test_two_signals_give_the_terminal_its_mode_back_and_clear_the_leds(emulator, emu_dir, first, second):
    program = PtyProgram([sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "hard",
                          "--computer-plays", "1", "--think", "30"], env=child_env(emu_dir))
    try:
        emulator.wait_client()
        emulator.wait_screen(lambda px: lit([RED])[0] in px[:8])  # the computer's dot sweeps: it thinks
        program.process.send_signal(first)
        program.process.send_signal(second)
        assert program.finish() == ""
        assert program.process.returncode in {128 + first, 128 + second, -first, -second}
        assert termios.tcgetattr(program.slave) == program.attributes_before
        assert emulator.pixels() == [BLACK] * 64
    finally:
        program.close()


def test_no_emulator_is_one_line_and_exit_1(emu_dir):
    game = start_game(emu_dir)
    out, err = game.communicate(timeout=60)
    assert game.returncode == 1 and out == ""
    assert err == ("sensehat-c4: the Sense HAT emulator is not running: start sense_emu_gui on a desktop, then try again; "
                   "the window needs Raspberry Pi OS's sense-emu-tools, or elsewhere python3-gi and numpy older "
                   "than 2.3 in a venv made with --system-site-packages (see docs/guide/emulator.md)\n")


def test_analyse_needs_no_backend(emu_dir):
    proc = subprocess.run([sys.executable, "-m", "sensehat_c4", "analyse", "4453", "--json"],
                          env=child_env(emu_dir), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["legal"] == [1, 2, 3, 4, 5, 6, 7]
