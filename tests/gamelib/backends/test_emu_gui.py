"""The game in the real ``sense_emu_gui`` window, played with the keyboard as a person does.

A virtual X display (Xvfb) shows the emulator's own window; ``sensehat-c4
--backend emu`` plays in it; xdotool presses the arrow keys and Enter in the
window; the LEDs are read back both from the emulator's screen file and from a
screenshot of what the window painted (ImageMagick's ``import``).  The window
and the game use a temporary directory instead of ``/dev/shm`` (``emu_sandbox``),
so a real emulator on this machine is neither seen nor disturbed.

Needs Debian's display stack and a venv for the window (``.ci/install-gui-deps``
makes both; the window needs python3-gi and numpy < 2.3, so it cannot run from
the test venv).  Where they are missing the test is skipped, saying what to run;
under CI (``CI`` set) it fails instead, because there they can be installed.

``C4_GUI_SCREENSHOT=path.png`` saves a picture of the window in mid-game (the
guide's, docs/guide/emulator.md).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from sense_emu.screen import GAMMA_DEFAULT

from ci_needs import require
from emu_sandbox import LOCK, STICK, child_env, lit, screen_pixels, to565
from frames import in_order

from gamelib.colours import RED
from sensehat_c4.match import render
from sensehat_c4.rules import Board

pytestmark = pytest.mark.slow  # the fast tier (-m "not slow") leaves these out

GUI_VENV = Path(os.environ.get("C4_GUI_VENV", "/opt/sensehat-c4-gui-venv"))
LAUNCH = Path(__file__).resolve().parents[2] / "helpers" / "emu_gui_launch.py"
TOOLS = ("Xvfb", "xdotool", "import")
JOYSTICK = ("up_button", "down_button", "left_button", "right_button", "enter_button")
WINDOW_SIZE = (900, 760)
FALL_MS = 80
P = render.Palette()


def what_is_missing():
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    python = GUI_VENV / "bin" / "python"
    if not python.exists():
        missing.append(f"the window's venv {GUI_VENV}")
    else:
        check = subprocess.run([str(python), "-c", "import gi, numpy, sense_emu.gui; "
                                "assert hasattr(numpy.ndarray, 'tostring')"], capture_output=True)
        if check.returncode:
            missing.append(f"python3-gi, numpy < 2.3 or sense-emu in {GUI_VENV}")
    return missing


@pytest.fixture(scope="module")
def display_stack():
    require(what_is_missing(), "the display stack is not installed", ".ci/install-gui-deps")


# -- what the window paints ---------------------------------------------------------------------

_LED_TABLE = (np.sqrt(np.sqrt(np.linspace(0.05, 1, 32))) * 255).astype(np.uint8)


def painted(pixel, gamma=GAMMA_DEFAULT):
    """The colour the window paints for one screen-file pixel (as ``ScreenClient.rgb_array`` does)."""
    value = to565(pixel)
    five_bit = ((value & 0xF800) >> 11, (value & 0x07E0) >> 6, value & 0x001F)
    return tuple(int(_LED_TABLE[gamma[c]]) for c in five_bit)


def screenshot(display):
    """The whole X screen as ``(width, height, rgb bytes)``."""
    data = subprocess.run(["import", "-display", display, "-window", "root", "-depth", "8", "ppm:-"],
                          capture_output=True, check=True, timeout=30).stdout
    fields, pos = [], 0
    while len(fields) < 4:                      # P6 width height maxval, separated by whitespace
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P6" and fields[3] == b"255", fields
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[pos + 1:]


def leds_in_screenshot(shot, leds):
    """The 64 painted LED colours, sampled at each LED's centre."""
    width, _, rgb = shot
    cell = leds["size"] / 8.1                   # gui.py scales the 8x8 image by size / 8.1
    out = []
    for y in range(8):
        for x in range(8):
            px = int(leds["x"] + (x + 0.5) * cell)
            py = int(leds["y"] + (y + 0.5) * cell)
            i = (py * width + px) * 3
            out.append(tuple(rgb[i:i + 3]))
    return out


# -- the emulator's files ---------------------------------------------------------------------

class ScreenFile:
    """Reads the 64 LEDs from the screen file, and records every change (polled every 5 ms)."""

    def __init__(self, directory):
        self.directory = directory
        self.seen = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def pixels(self):
        return screen_pixels(self.directory)

    def _watch(self):
        while not self._stop.wait(0.005):
            pixels = self.pixels()
            if pixels is not None and (not self.seen or self.seen[-1] != pixels):
                self.seen.append(pixels)

    def wait_for(self, frame, timeout=10.0, what="the expected frame"):
        wanted = lit(frame)
        deadline = time.monotonic() + timeout
        while self.pixels() != wanted:
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen file has {self.pixels()}")
            time.sleep(0.01)
        return wanted

    def stop(self):
        self._stop.set()
        self._thread.join()


# -- the session --------------------------------------------------------------------------------

class Session:
    """Xvfb, the emulator window, and keys pressed into it."""

    def __init__(self, directory):
        self.directory = directory
        self.processes = []
        self.display = self._start_xvfb()
        env = child_env(directory)
        env.update(DISPLAY=self.display, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
        self.gui_log = open(os.path.join(directory, "gui.log"), "w")
        self.gui = self._spawn([str(GUI_VENV / "bin" / "python"), str(LAUNCH)], env=env,
                               stdout=self.gui_log, stderr=subprocess.STDOUT)
        self.geometry = self._wait(lambda: self._geometry_with("leds"), 20, "the emulator window")
        self._wait(lambda: self._lock_pid() == self.gui.pid and os.path.exists(self._path(STICK)), 10,
                   "the window to take the emulator lock")
        self.xid = str(self.geometry["xid"])
        self.xdotool("windowmove", self.xid, "0", "0")
        self.xdotool("windowsize", self.xid, *map(str, WINDOW_SIZE))
        self.geometry = self._wait(lambda: self._geometry_with("leds", width=WINDOW_SIZE[0]), 10,
                                   "the window to take its size")
        self.xdotool("windowfocus", "--sync", self.xid)
        self._focus_joystick()

    def _path(self, name):
        return os.path.join(self.directory, name)

    def _spawn(self, argv, **kwargs):
        process = subprocess.Popen(argv, **kwargs)
        self.processes.append(process)
        return process

    def _start_xvfb(self):
        read, write = os.pipe()
        try:
            self._spawn(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(write)
            number = b""
            while not number.endswith(b"\n"):
                chunk = os.read(read, 16)
                if not chunk:
                    raise AssertionError("Xvfb did not start")
                number += chunk
        finally:
            os.close(read)
        return ":" + number.decode().strip()

    def _geometry_with(self, key, width=None):
        try:
            with open(self._path("geometry.json")) as f:
                geometry = json.load(f)
        except (OSError, ValueError):
            return None
        if key not in geometry or (width is not None and geometry["window"]["width"] != width):
            return None
        return geometry

    def _lock_pid(self):
        try:
            with open(self._path(LOCK)) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def _wait(self, probe, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            value = probe()
            if value:
                return value
            if self.gui.poll() is not None or time.monotonic() > deadline:
                self.gui_log.flush()
                raise AssertionError(f"timed out waiting for {what}; window log:\n"
                                     + Path(self._path("gui.log")).read_text()[-3000:])
            time.sleep(0.02)

    def xdotool(self, *args):
        subprocess.run(["xdotool", *args], check=True, timeout=30,
                       env={**os.environ, "DISPLAY": self.display})

    def _focus_joystick(self):
        """Tab until a joystick button has the keyboard focus (at start the Yaw slider has it)."""
        for _ in range(30):
            if self._geometry_with("focus")["focus"] in JOYSTICK:
                return
            moves = self._geometry_with("focus")["focus_moves"]
            self.xdotool("key", "Tab")
            self._wait(lambda: self._geometry_with("focus")["focus_moves"] > moves, 5, "the focus to move")
        raise AssertionError("could not move the keyboard focus to the joystick")

    def key(self, *names):
        """Press and release keys in the window, as a person does (Right, Left, Return, Down...)."""
        for name in names:
            self.xdotool("key", "--delay", "0", name)
            time.sleep(0.06)

    def leds(self):
        return leds_in_screenshot(screenshot(self.display), self.geometry["leds"])

    def wait_painted(self, frame, timeout=5.0, what="the window to paint the frame"):
        wanted = [painted(p) for p in lit(frame)]
        deadline = time.monotonic() + timeout
        while True:
            got = self.leds()
            if got == wanted:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; painted {got}, wanted {wanted}")
            time.sleep(0.05)

    def save_window(self, path):
        subprocess.run(["import", "-display", self.display, "-window", self.xid, str(path)], check=True,
                       timeout=30)

    def close(self):
        for process in reversed(self.processes):   # the window before the X server
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.gui_log.close()


@pytest.fixture
def session(display_stack):
    directory = tempfile.mkdtemp(prefix="c4gui-")   # short: socket paths are limited to 108 bytes
    session = Session(directory)
    try:
        yield session
    finally:
        session.close()
        shutil.rmtree(directory, ignore_errors=True)


def board(moves, cursor=3):
    return render.board_frame(Board.from_moves(moves), P, cursor=cursor)


def test_a_round_in_the_emulator_window(session):
    screen = ScreenFile(session.directory)
    game = subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", "--matches", "1",
         "--fall-ms", str(FALL_MS)],
        env=child_env(session.directory), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        client = os.path.join(session.directory, f"rpi-sense-emu-client-{game.pid}")
        deadline = time.monotonic() + 15
        while not os.path.exists(client):          # keys sent before the game's hello are lost
            assert time.monotonic() < deadline and game.poll() is None, "the game never connected"
            time.sleep(0.02)
        time.sleep(0.3)                            # the window takes hellos every 0.1 s

        screen.wait_for(board(""), what="the empty board")
        session.wait_painted(board(""), what="the empty board in the window")
        assert session.leds()[3] == (255, 120, 120) and session.leds()[0] == (120, 120, 120)  # red; off is grey

        session.key("Right")                       # the cursor moves
        screen.wait_for(board("", 4), what="the cursor over column 5")
        session.wait_painted(board("", 4))
        session.key("Left", "Left")
        screen.wait_for(board("", 2), what="the cursor over column 3")
        session.key("Right")
        screen.wait_for(board("", 3))

        moves = "4545454"                          # red stacks column 4, yellow column 5
        for ply, move in enumerate(moves):
            before = moves[:ply]
            screen.wait_for(board(before), what=f"the board before move {ply + 1}")
            if move == "5":
                session.key("Right")
                screen.wait_for(board(before, 4), what=f"the cursor over column 5 at move {ply + 1}")
            if ply == 6:
                session.wait_painted(board(before))
                if os.environ.get("C4_GUI_SCREENSHOT"):
                    session.save_window(os.environ["C4_GUI_SCREENSHOT"])
            session.key("Return" if ply % 2 == 0 else "Down")
            if ply == 0:                           # the first drop lands, then the window shows it
                screen.wait_for(board("4"), what="the first token landed")
                session.wait_painted(board("4"), what="the landed token in the window")

        digit = render.digit_frame(1, RED, P)      # a vertical four: red's new score
        screen.wait_for(digit, timeout=10, what="red's score digit")
        session.wait_painted(digit, what="the score digit in the window")

        fall = [lit(f) for f, _ in render.falling(Board.from_moves("4"), 3, P, 0)]
        assert in_order(fall[1:], screen.seen), "the first token did not fall row by row"
        win = Board.from_moves(moves)
        blinks = [lit(f) for f, _ in render.blink_cells(win, win.outcome.cells, P, 3, 0)]
        assert in_order(blinks + [lit(digit)], screen.seen), "the winning four did not blink"
    finally:
        screen.stop()
        game.send_signal(signal.SIGTERM)
        out, err = game.communicate(timeout=30)
    assert (game.returncode, out, err) == (143, "", "")
    assert screen.pixels() == [(0, 0, 0)] * 64     # leaving clears the LEDs
    session.wait_painted([(0, 0, 0)] * 64, what="the window to go dark")
