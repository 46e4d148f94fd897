"""Two Pis for the LAN tests: each a real ``sensehat-c4`` process on the real ``sense_emu`` library, its
emulator's files in a directory of its own (:mod:`emu_sandbox`), its own games database and state
directory.  The test reads each Pi's LEDs from its screen file and pushes its stick through its
joystick socket, as a person would; :func:`physical` turns a push as the player sees it into the
stick's own direction on a Pi turned ``rotation`` degrees."""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import List, Optional, Sequence

from emu_sandbox import FakeEmulator, child_env, lit
from frames import turned

from gamelib.backends.base import Direction
from gamelib.backends.stick import stick_map
from gamelib.colours import RED, YELLOW
from sensehat_c4.match import render
from sensehat_c4.rules import Board

PORT = re.compile(r"over the LAN on port (\d+)")


def physical(direction: str, rotation: int) -> str:
    """The stick's own direction that reads as ``direction`` on a Pi turned ``rotation`` degrees."""
    table = stick_map(rotation)
    return next(d.value for d, logical in table.items() if logical is Direction(direction))


class Pi:
    """One Pi: a sandboxed emulator, and the program run on it (:meth:`start`)."""

    def __init__(self, directory: Path, *, rotation: int = 0) -> None:
        self.directory = directory
        self.rotation = rotation
        directory.mkdir(parents=True, exist_ok=True)
        self.emulator = FakeEmulator(str(directory))
        self.process: Optional[subprocess.Popen] = None
        self.err = ""
        self._reader: Optional[threading.Thread] = None
        self.env = child_env(str(directory))
        self.env.update(XDG_STATE_HOME=str(directory / "state"), SENSEHAT_C4_DB=str(directory / "games.db"),
                        PYTHONUNBUFFERED="1")

    def __enter__(self) -> "Pi":
        self.emulator.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self.emulator.__exit__(*exc)

    def start(self, *args: str, prefix: Sequence[str] = ()) -> subprocess.Popen:
        """``sensehat-c4 --backend emu ARGS`` on this Pi (``prefix``: a command to run it under, e.g.
        ``ip netns exec NAME``)."""
        self.err = ""
        command = [*prefix, sys.executable, "-m", "sensehat_c4", "--backend", "emu",
                   "--rotation", str(self.rotation), *args]
        self.emulator.clients.clear()
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL)
        self._reader = threading.Thread(target=self._read_err, args=(self.process,), daemon=True)
        self._reader.start()
        self.emulator.wait_client(30.0)
        return self.process

    def _read_err(self, process: subprocess.Popen) -> None:
        assert process.stderr is not None
        for line in iter(process.stderr.readline, b""):
            self.err += line.decode("utf-8", "replace")

    def port(self, timeout: float = 30.0) -> int:
        """The port the host offers its game on (from the line it prints)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = PORT.search(self.err)
            if found:
                return int(found.group(1))
            time.sleep(0.05)
        raise AssertionError(f"no LAN port on standard error: {self.err!r}")

    def wait_said(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.err:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never said; standard error: {self.err!r}")
            time.sleep(0.05)

    def shows(self, frame: Sequence, timeout: float = 20.0) -> List:
        """Wait until the LEDs show ``frame`` (a picture as the players see it), turned and as the
        screen file keeps it."""
        wanted = lit(turned(frame, self.rotation))
        try:
            return self.emulator.wait_screen(lambda pixels: pixels == wanted, timeout=timeout, interval=0.005)
        except TimeoutError:
            raise AssertionError(f"this Pi's LEDs never showed the frame; stderr: {self.err[-2000:]!r}") from None

    def shows_any(self, frames: Sequence[Sequence], timeout: float = 20.0) -> int:
        """Wait until the LEDs show one of ``frames`` (a dark one does not count: every screen has one); its index."""
        wanted = [lit(turned(f, self.rotation)) if any(any(pixel) for pixel in f) else None for f in frames]
        try:
            pixels = self.emulator.wait_screen(lambda px: px in wanted, timeout=timeout, interval=0.005)
        except TimeoutError:
            raise AssertionError(f"this Pi's LEDs never showed one of the frames; stderr: {self.err[-2000:]!r}") \
                from None
        return wanted.index(pixels)

    def tap(self, *directions: str, gap: float = 0.15) -> None:
        """Push the stick as the player sees the picture."""
        for direction in directions:
            self.emulator.tap(physical(direction, self.rotation), gap=gap)

    def wait(self, timeout: float = 30.0) -> int:
        assert self.process is not None
        code = self.process.wait(timeout)
        if self._reader is not None:
            self._reader.join(5.0)
        return code

    def out(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        return self.process.stdout.read().decode()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def history(self) -> list:
        done = subprocess.run([sys.executable, "-m", "sensehat_c4", "history", "--json", "--limit", "0"],
                              env=self.env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


def ready_to_read(stream, timeout: float) -> bool:
    return bool(select.select([stream], [], [], timeout)[0])


__all__ = ["Pi", "physical", "os"]


def board(moves, starter, cursor=3):
    """The board of a round ``starter`` (1: Bob, the host, red; 2: Ann, yellow) began, cursor over column 4."""
    palette = render.Palette(RED, YELLOW) if starter == 1 else render.Palette(YELLOW, RED)
    return render.board_frame(Board.from_moves(moves), palette, cursor=cursor)


def play(host, guest, moves, starter, begun=""):
    """Play ``moves`` (each 4 or 5: middle, or right then middle) from the position ``begun``; after each
    move, both Pis show the same board with the next player's cursor."""
    done = begun
    for move in moves:
        mover = host if (len(done) % 2 == 0) == (starter == 1) else guest
        mover.tap(*(["middle"] if move == "4" else ["right", "middle"]))
        done += move
        if Board.from_moves(done).outcome is None:
            for pi in (host, guest):
                pi.shows(board(done, starter))
