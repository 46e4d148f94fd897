"""Run the real ``sense_emu`` library against files in a temporary directory.

``sense_emu`` keeps its screen, its joystick socket and its lock in ``/dev/shm``
(a running emulator's own files).  :func:`redirect` points every one of them at
another directory, in this process; for a child process, :func:`child_env`
puts ``tests/helpers/emu_site`` on ``PYTHONPATH``, whose ``sitecustomize`` calls
:func:`redirect` on start-up.

:class:`FakeEmulator` then plays the emulator's part at its OS boundary, as
``sense_emu_gui`` does: it holds the lock (so ``SenseHat()`` does not spawn a
window), serves the joystick datagram socket, and reads the 160-byte screen
file (64 RGB565 pixels, then the 32-entry gamma table).
"""
from __future__ import annotations

import importlib
import os
import select
import socket
import struct
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

ENV_VAR = "C4_TEST_EMU_DIR"
SITE_DIR = Path(__file__).with_name("emu_site")

# (module, function, file name): every path the library derives from /dev/shm
_FILES = (
    ("sense_emu.screen", "screen_filename", "rpi-sense-emu-screen"),
    ("sense_emu.lock", "lock_filename", "rpi-sense-emu-pid"),
    ("sense_emu.imu", "imu_filename", "rpi-sense-emu-imu"),
    ("sense_emu.pressure", "pressure_filename", "rpi-sense-emu-pressure"),
    ("sense_emu.humidity", "humidity_filename", "rpi-sense-emu-humidity"),
)
STICK = "rpi-sense-emu-stick"
SCREEN = "rpi-sense-emu-screen"
LOCK = "rpi-sense-emu-pid"

EVENT = struct.Struct("llHHI")
EV_KEY = 1
KEYS = {"up": 103, "left": 105, "right": 106, "down": 108, "middle": 28}
VALUES = {"released": 0, "pressed": 1, "held": 2}

RGB = Tuple[int, int, int]


def redirect(directory: str, patch: Callable[[Any, str, Any], None] = setattr) -> None:
    """Make ``sense_emu`` (in this process) use ``directory`` instead of ``/dev/shm``.

    ``patch`` is ``setattr`` or pytest's ``monkeypatch.setattr`` (to undo it after a test).
    """
    for module_name, function, name in _FILES:
        module = importlib.import_module(module_name)
        patch(module, function, lambda name=name: os.path.join(directory, name))
    stick = importlib.import_module("sense_emu.stick")
    address = (socket.AF_UNIX, socket.SOCK_DGRAM, os.path.join(directory, STICK))
    patch(stick, "stick_address", lambda: address)


def child_env(directory: str, base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """An environment in which a child Python process redirects ``sense_emu`` to ``directory``."""
    env = dict(os.environ if base is None else base)
    env[ENV_VAR] = directory
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SITE_DIR), env.get("PYTHONPATH")]))
    env["HOME"] = directory  # sense_emu copies RTIMULib.ini under ~/.config/sense_hat
    env.pop("DISPLAY", None)
    return env


def to565(rgb: RGB) -> int:
    r, g, b = rgb
    return ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)


def from565(value: int) -> RGB:
    """As ``sense_emu``'s ``get_pixel`` reads a pixel back: ``(r5 << 3, g6 << 2, b5 << 3)``."""
    return ((value >> 11) & 0x1F) << 3, ((value >> 5) & 0x3F) << 2, (value & 0x1F) << 3


def lit(frame: Sequence[RGB]) -> List[RGB]:
    """The pixels a frame puts in the RGB565 screen file, as :func:`from565` reads them back."""
    from gamelib.colours import led_colour  # here: the emulator window's venv has no gamelib

    return [led_colour(p) for p in frame]


def screen_pixels(directory: str) -> Optional[List[RGB]]:
    """The 64 LEDs in ``directory``'s screen file (physical order), or ``None`` if it has none."""
    try:
        with open(os.path.join(directory, SCREEN), "rb") as f:
            raw = f.read(128)
    except FileNotFoundError:
        return None
    return [from565(v) for v in struct.unpack("64H", raw)] if len(raw) == 128 else None


class FakeEmulator:
    """The emulator's side of the files: lock, joystick server, screen reader."""

    def __init__(self, directory: str, pid: Optional[int] = None) -> None:
        self.directory = directory
        self.pid = os.getpid() if pid is None else pid
        self.clients: List[str] = []
        self.sock: Optional[socket.socket] = None

    def path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def __enter__(self) -> "FakeEmulator":
        with open(self.path(LOCK), "w") as f:
            f.write(f"{self.pid}\n")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path(STICK))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.sock is not None:
            self.sock.close()
        for name in (LOCK, STICK):
            try:
                os.unlink(self.path(name))
            except FileNotFoundError:
                pass

    # -- the joystick ---------------------------------------------------------

    def _take_hellos(self, timeout: float) -> None:
        assert self.sock is not None
        ready, _, _ = select.select([self.sock], [], [], timeout)
        while ready:
            data, address = self.sock.recvfrom(64)
            if data == b"hello" and address and address not in self.clients:
                self.clients.append(address)
            ready, _, _ = select.select([self.sock], [], [], 0)

    def wait_client(self, timeout: float = 15.0) -> str:
        """Wait for a ``SenseHat()`` to say hello; return its socket path."""
        deadline = time.monotonic() + timeout
        while not self.clients:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no sense_emu client said hello")
            self._take_hellos(min(left, 0.2))
        return self.clients[-1]

    def send(self, direction: str, action: str = "pressed") -> None:
        """Send one raw key event to every client, as the emulator's StickServer does."""
        assert self.sock is not None
        self._take_hellos(0)
        now = time.time()
        data = EVENT.pack(int(now), int(now % 1 * 1e6), EV_KEY, KEYS[direction], VALUES[action])
        for client in self.clients:
            try:
                self.sock.sendto(data, client)
            except (ConnectionRefusedError, FileNotFoundError):
                pass

    def hold(self, direction: str, seconds: float) -> None:
        """Press, send ``held`` as ``sense_emu_gui`` does while its button is held down (after 0.25 s, then
        every 0.05 s) for ``seconds``, release (in real time: call it from a thread of its own)."""
        start = time.monotonic()
        self.send(direction, "pressed")
        k = 0
        while 0.25 + k * 0.05 < seconds:
            time.sleep(max(0.0, start + 0.25 + k * 0.05 - time.monotonic()))
            self.send(direction, "held")
            k += 1
        time.sleep(max(0.0, start + seconds - time.monotonic()))
        self.send(direction, "released")

    def tap(self, *directions: str, gap: float = 0.05) -> None:
        """Press and release each direction in turn."""
        for direction in directions:
            self.send(direction, "pressed")
            self.send(direction, "released")
            time.sleep(gap)

    # -- the screen -------------------------------------------------------------

    def pixels(self) -> List[RGB]:
        """The 64 LEDs, physical order, as ``get_pixel`` would read them."""
        pixels = screen_pixels(self.directory)
        assert pixels is not None, "no screen file yet"
        return pixels

    def gamma(self) -> Tuple[int, ...]:
        with open(self.path(SCREEN), "rb") as f:
            return tuple(f.read()[128:160])

    def wait_screen(self, predicate, timeout: float = 10.0, interval: float = 0.02) -> List[RGB]:
        """Poll the screen file until ``predicate(pixels)`` holds; return those pixels."""
        deadline = time.monotonic() + timeout
        while True:
            pixels = screen_pixels(self.directory)
            if pixels is not None and predicate(pixels):
                return pixels
            if time.monotonic() > deadline:
                raise TimeoutError(f"the screen never matched; last: {pixels}")
            time.sleep(interval)
