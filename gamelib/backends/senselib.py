"""Backends over the stock libraries: ``sense_hat`` (real HAT) and ``sense_emu`` (emulator).

Of the libraries only their public API is used: ``SenseHat()`` (which finds the HAT, or starts the
emulator's window) and its ``low_light``.  The LEDs and the stick are opened here, as the kernel
documents them: on a Pi, the framebuffer whose ``/sys/class/graphics/fb*/name`` is ``RPi-Sense FB``
and the input device whose ``/sys/class/input/event*/device/name`` is the joystick's (both under
:data:`SYS`, their nodes under :data:`DEV`); for the emulator, its screen file and a joystick client
from ``sense_emu``'s public functions (``screen.screen_filename()``, ``stick.init_stick_client()``).
The joystick is a file of evdev ``input_event`` records (a datagram socket of the same records for the
emulator) that we wait on with ``select()``, so waiting for a move costs no CPU.  The same
``select()`` watches the terminal the program was started from, if any, for ``q`` (:mod:`.quit_key`).
The libraries are imported only here, inside the function that needs them: ``RTIMU`` is missing off a Pi.
"""
from __future__ import annotations

import fcntl
import glob
import importlib.util
import logging
import os
import pwd
import shutil
import struct
import time
import warnings
from typing import Any, Collection, Dict, List, Optional, Sequence, Tuple

from gamelib.colours import RGB

from .. import install

from ..errors import BackendError, SetupError
from ..i18n import N_, _
from ..matrix import PIXELS
from .base import Action, Backend, Direction, StickEvent
from .device import Waitable
from .entry import Found, Needs, Probe
from .quit_key import QuitKey

EVIOCGRAB = 0x40044590
"""ioctl that gives this process the joystick's input device to itself (``_IOW('E', 0x90, int)``)."""

SYS = "/sys"
"""Where the kernel shows its devices (tests point it at a fake kernel's)."""
DEV = "/dev"
"""Where their nodes are."""

EVENT = struct.Struct("llHHI")
"""An evdev ``input_event``: ``struct timeval`` (seconds, microseconds), type, code, value (native)."""
EV_KEY = 1
KEYS: Dict[int, Direction] = {103: Direction.UP, 108: Direction.DOWN, 105: Direction.LEFT, 106: Direction.RIGHT,
                              28: Direction.MIDDLE}
"""The joystick's key codes (``KEY_UP``... ``KEY_ENTER``, ``linux/input-event-codes.h``)."""
VALUES: Dict[int, Action] = {0: Action.RELEASED, 1: Action.PRESSED, 2: Action.HELD}
"""An ``EV_KEY`` event's value: released, pressed, repeated by the kernel (auto-repeat)."""

HAT_FB_NAME = "RPi-Sense FB"
"""The name the kernel gives the HAT's LED framebuffer (``/sys/class/graphics/fb*/name``)."""
STICK_NAME = "Raspberry Pi Sense HAT Joystick"
"""The name the kernel gives the HAT's joystick (``/sys/class/input/event*/device/name``)."""

log = logging.getLogger("gamelib")

_FRAME = struct.Struct(f"{PIXELS}H")
"""The LED framebuffer: 64 RGB565 pixels in native byte order (as both libraries write it)."""

WINDOW_NEEDS = N_("the window needs Raspberry Pi OS's sense-emu-tools, or elsewhere python3-gi and numpy "
                   "older than 2.3 in a venv made with --system-site-packages (see docs/guide/emulator.md)")
"""What ``sense_emu_gui`` needs that the ``sense_emu`` library (the ``[emu]`` extra) does not bring."""

EMU_START_SECONDS = 10.0
"""How long to wait for a spawned ``sense_emu_gui`` to take the emulator lock."""


GAMMA_DEFAULT = (0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7,
                 8, 9, 10, 11, 12, 14, 15, 17, 18, 20, 21, 23, 25, 27, 29, 31)
"""The LED driver's gamma table (``rpisense-fb``'s ``gamma_default``): a channel's top five bits to
the LED's level (0-31).  Nothing under 6 << 3 = 48 lights (python-sense-hat issue 67)."""
GAMMA_LOW = (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
             3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10, 10)
"""Its low-light table (``gamma_low``), what ``SenseHat.low_light = True`` asks for."""
LIT_MIN = 8 * GAMMA_DEFAULT.index(1)
"""The least channel value the LEDs light at through :data:`GAMMA_DEFAULT` (48 of 255)."""


def _soft_low(value: int) -> int:
    """``value`` dimmed in software to the level the low-light table gives it (a lit channel
    stays lit: at least :data:`LIT_MIN`)."""
    if value == 0:
        return 0
    level = max(1, GAMMA_LOW[value >> 3])
    return 8 * next(i for i, got in enumerate(GAMMA_DEFAULT) if got >= level)


SOFT_LOW_LIGHT: Tuple[int, ...] = tuple(_soft_low(v) for v in range(256))
"""Low light in software, channel by channel, for a driver that refuses the gamma ioctls (the
display driver of Raspberry Pi OS Bookworm's newer kernels): through the default table each
value lights the LED as the low-light table would (255 -> 144, level 10 of 31), and every lit
channel at least :data:`LIT_MIN`."""


def soft_dimmed(pixels: List[RGB]) -> List[RGB]:
    """``pixels`` through :data:`SOFT_LOW_LIGHT`."""
    table = SOFT_LOW_LIGHT
    return [(table[r], table[g], table[b]) for r, g, b in pixels]


def pack_frame(pixels: List[RGB]) -> bytes:
    """64 ``(r, g, b)`` pixels as the framebuffer's RGB565 bytes."""
    return _FRAME.pack(*[((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3) for r, g, b in pixels])


def key_event(record: bytes, now: float) -> Optional[StickEvent]:
    """The stick event in one evdev record (``None``: a sync or another non-key event, an unknown key)."""
    _sec, _usec, kind, code, value = EVENT.unpack(record)
    if kind != EV_KEY or code not in KEYS or value not in VALUES:
        return None
    return StickEvent(now, KEYS[code], VALUES[value])


def find_device(pattern: str, name_file: str, wanted: str, nodes: str) -> Optional[str]:
    """The node (under :data:`DEV`/``nodes``) of the first ``pattern`` entry under :data:`SYS`
    (``class/graphics/fb*``) whose ``name_file`` reads ``wanted``; ``None``: the kernel shows none."""
    for entry in sorted(glob.glob(os.path.join(SYS, pattern))):
        try:
            with open(os.path.join(entry, name_file)) as f:
                if f.read(256).strip() == wanted:
                    return os.path.join(DEV, nodes, os.path.basename(entry))
        except OSError:
            continue
    return None


class SenseLibDevice:
    """The LEDs (a framebuffer file: ``/dev/fbN`` on a Pi, the emulator's screen file) and the stick (a file
    of evdev records) of a HAT or an emulator; ``low_light`` sets the library's ``SenseHat.low_light``.

    Frames go to the framebuffer in one ``pwrite`` (the library's ``set_pixels`` would open the file and
    write the 64 pixels one by one, every frame).

    Low light is the driver's low-light gamma table where the driver takes the gamma
    ioctls (``rpisense-fb``, the emulator); where it refuses them (the display driver
    of Bookworm's newer kernels: ``OSError`` ENOTTY, python-sense-hat issue 145) every
    frame is dimmed in software instead (:data:`SOFT_LOW_LIGHT`).  The first time low
    light is asked for, one log line says which.  The device owns ``stick`` and ``fb`` (closed by
    :meth:`close`, or here if this fails).
    """

    def __init__(self, hat: Any, *, stick: Any, fb: int) -> None:
        self._hat = hat
        self._gamma: Optional[bool] = None
        """Whether the driver takes the gamma ioctls (``None``: not asked yet)."""
        self._refused = ""
        """Why the driver refused them."""
        self._told = False
        """Whether the log said how low light is done."""
        self._soft_low = False
        self._closed = False
        self._written: Optional[List[RGB]] = None
        """The last physical pixels written (drawn again when software low light changes)."""
        self._stick = stick
        self._file = stick.fileno()
        self._fb = fb
        self._quit_key = QuitKey.attach()

    def write(self, pixels: List[RGB]) -> None:
        self._written = pixels
        os.pwrite(self._fb, pack_frame(soft_dimmed(pixels) if self._soft_low else pixels), 0)

    def waitables(self) -> Sequence[Waitable]:
        quit_key = self._quit_key
        return [self._file, quit_key] if quit_key is not None and quit_key.watching else [self._file]

    def read(self, ready: Collection[Waitable], now: float) -> Optional[StickEvent]:
        if self._quit_key is not None and self._quit_key in ready:
            self._quit_key.check()
        if self._file in ready:
            try:
                record = os.read(self._file, EVENT.size)
            except BlockingIOError:
                return None
            except OSError as exc:     # ENODEV: the HAT's driver let go of it
                raise BackendError(_("the joystick has gone: {error}").format(error=exc.strerror or exc)) from exc
            if len(record) < EVENT.size:
                raise BackendError(_("the joystick has gone: {error}").format(error=_("end of its events")))
            return key_event(record, now)
        return None

    def due(self, now: float) -> Optional[float]:
        return None

    def set_low_light(self, value: bool) -> None:
        if self._gamma is not False:
            try:
                self._hat.low_light = value
            except OSError as exc:  # ENOTTY from Bookworm's newer display driver; anything else alike
                self._gamma = False
                self._refused = exc.strerror or str(exc)
            else:
                self._gamma = True
        if value and not self._told:
            self._told = True
            if self._gamma:
                log.info(_("low light: the LED driver's low-light gamma table"))
            else:
                log.warning(_("low light: dimmed in software (the LED driver refuses the gamma ioctls: {error})").format(
                    error=self._refused))
        if not self._gamma:
            self._soft_low = value
            if self._written is not None and not self._closed:
                self.write(self._written)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._quit_key is not None:
                self._quit_key.close()
            self._stick.close()
        finally:
            os.close(self._fb)


class SenseLibBackend(Backend):
    """A backend around a ``SenseHat`` object from ``sense_hat`` or ``sense_emu``: a :class:`SenseLibDevice`
    on its framebuffer and stick (opened by the subclass)."""

    def __init__(self, hat: Any, *, stick: Any, fb: int, rotation: int = 0, low_light: bool = False) -> None:
        device = SenseLibDevice(hat, stick=stick, fb=fb)
        try:
            super().__init__(device, rotation=rotation, low_light=low_light)
        except BaseException:
            device.close()
            raise


class HatBackend(SenseLibBackend):
    """The real Sense HAT.  The joystick is grabbed so presses do not reach the console."""

    name = "hat"
    needs = Needs(libraries=("sense_hat",), devices=(HAT_FB_NAME, STICK_NAME), groups=("video", "input"))

    @staticmethod
    def probe() -> Probe:
        """Here if the kernel shows the HAT's LED framebuffer (whether or not this user may write it)."""
        if hat_present():
            return Probe(Found.HERE, _("the kernel shows its LED framebuffer"),
                         _("using the Sense HAT (found its LED framebuffer)"))
        return Probe(Found.ABSENT, _("the kernel shows no '{name}' framebuffer").format(name=HAT_FB_NAME))

    def __init__(self, *, rotation: int = 0, low_light: bool = False) -> None:
        try:
            from sense_hat import SenseHat  # noqa: PLC0415 (optional dependency: only on a Pi)
        except ImportError as exc:
            apt, command = install.this().add_sense_hat()
            raise SetupError((_("the sense_hat library cannot be imported ({error}): on Raspberry Pi OS run {apt}")
                              if command is None else
                              _("the sense_hat library cannot be imported ({error}): on Raspberry Pi OS run {apt}, "
                                "then {command} (this venv does not see the system's packages)")).format(
                error=exc, apt=apt, command=command)) from exc
        # sense_hat 2.3+ logs a root-logger warning when the HAT has no colour sensor (v1 HATs)
        logging.disable(logging.WARNING)
        try:
            hat = SenseHat()
        except PermissionError as exc:  # the one device SenseHat() opens itself is the joystick
            raise SetupError(no_permission(N_("joystick"), exc, "input")) from exc
        except Exception as exc:  # OSError (framebuffer, I2C), RuntimeError (no joystick), PermissionError
            raise BackendError(
                _("the Sense HAT cannot be opened ({error}): check it is seated, that I2C is on in "
                  "raspi-config, and that this user is in the 'video' and 'input' groups").format(error=exc)) from exc
        finally:
            logging.disable(logging.NOTSET)
        hat.stick.close()   # the library's own handle on the joystick: ours, grabbed, reads it
        stick = _open_node(find_device("class/input/event*", "device/name", STICK_NAME, "input"), os.O_RDONLY,
                           _("the kernel shows no '{name}' input device").format(name=STICK_NAME), N_("joystick"),
                           "input")
        try:
            fcntl.ioctl(stick, EVIOCGRAB, 1)
        except OSError as exc:
            os.close(stick)
            raise BackendError(_("cannot grab the Sense HAT joystick ({error}): is another program using it?").format(
                error=exc)) from exc
        try:
            fb = _open_node(find_device("class/graphics/fb*", "name", HAT_FB_NAME, ""), os.O_RDWR,
                            _("the kernel shows no '{name}' framebuffer").format(name=HAT_FB_NAME), N_("LEDs"), "video")
        except BaseException:
            os.close(stick)
            raise
        super().__init__(hat, stick=open(stick, "rb", buffering=0), fb=fb, rotation=rotation, low_light=low_light)


def _open_node(path: Optional[str], flags: int, missing: str, part: str, group: str) -> int:
    """Open the HAT's device ``path`` (``None``: the kernel shows none, ``missing`` says so): a
    :class:`~gamelib.errors.SetupError` naming ``group`` if this user may not, else a
    :class:`~gamelib.errors.BackendError`."""
    try:
        if path is None:
            raise OSError(missing)
        return os.open(path, flags)
    except PermissionError as exc:
        raise SetupError(no_permission(part, exc, group)) from exc
    except OSError as exc:
        raise BackendError(
            _("the Sense HAT cannot be opened ({error}): check it is seated, that I2C is on in "
              "raspi-config, and that this user is in the 'video' and 'input' groups").format(
                error=missing if path is None else f"{path}: {exc.strerror or exc}")) from exc


def no_permission(part: str, exc: OSError, group: str) -> str:
    """One line for a device this user may not open: the group it lacks and the fix (``part``: English,
    marked with ``N_``)."""
    try:
        user = pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        user = str(os.geteuid())
    return _("the Sense HAT {part} ({path}) cannot be opened: permission denied; user {user} needs "
             "the '{group}' group: run 'sudo usermod -aG {group} {user}', then log in again").format(
                 part=_(part), path=exc.filename, user=user, group=group)


def hat_present() -> bool:
    """True if the kernel shows a Sense HAT framebuffer (what ``sense_hat`` looks for)."""
    return find_device("class/graphics/fb*", "name", HAT_FB_NAME, "") is not None


def emulator_running() -> Optional[int]:
    """The pid of a running emulator (``sense_emu_gui`` or ``sense_play``), if any."""
    try:
        from sense_emu.lock import lock_filename, pid_exists  # noqa: PLC0415 (optional dependency)
    except ImportError:
        return None
    try:
        with open(lock_filename()) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return None
    return pid if pid_exists(pid) else None


def emu_installed() -> bool:
    """Whether the emulator's library is installed (found, not imported)."""
    try:
        return importlib.util.find_spec("sense_emu") is not None
    except (ImportError, ValueError):
        return False


def can_start_window() -> bool:
    """True if ``SenseHat()`` could start ``sense_emu_gui`` here: a desktop, and the program."""
    return bool(os.environ.get("DISPLAY")) and shutil.which("sense_emu_gui") is not None


class EmuBackend(SenseLibBackend):
    """The ``sense_emu`` emulator (its GUI window, ``sense_play``, or a test's fake)."""

    name = "emu"
    needs = Needs(libraries=("sense_emu",))

    @staticmethod
    def probe() -> Probe:
        """Here if an emulator runs; can be started where its window can (a desktop, the program)."""
        if not emu_installed():
            return Probe(Found.ABSENT, _("the sense_emu library is not installed"))
        pid = emulator_running()
        if pid is not None:
            return Probe(Found.HERE, _("running (pid {pid})").format(pid=pid),
                         _("no Sense HAT found; using the running emulator (pid {pid})").format(pid=pid))
        if can_start_window():
            return Probe(Found.STARTED, _("its window can be started on this desktop"),
                         _("no Sense HAT, running emulator or terminal found; starting the emulator window "
                           "(sense_emu_gui)"))
        return Probe(Found.ABSENT, _("not running, and its window cannot be started here (no desktop, or no "
                                     "sense_emu_gui)"))

    def __init__(self, *, rotation: int = 0, low_light: bool = False) -> None:
        try:
            # optional dependency: the emulator's library, its screen file and its joystick's client
            from sense_emu import SenseHat, screen as emu_screen, stick as emu_stick  # noqa: PLC0415
        except ImportError as exc:
            raise SetupError(
                _("the sense_emu library is not installed ({error}): {command}").format(
                    error=exc, command=install.this().add(install.SENSE_EMU))) from exc
        spawned = emulator_running() is None  # then SenseHat() starts sense_emu_gui itself
        if spawned and not can_start_window():
            raise BackendError(
                _("the Sense HAT emulator is not running: start sense_emu_gui on a desktop, then try again; "
                  "{window_needs}").format(window_needs=_(WINDOW_NEEDS)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "spawning sense_emu_gui": we say it ourselves
            try:
                hat = SenseHat()
            except OSError as exc:
                raise BackendError(_("the Sense HAT emulator cannot be opened: {error}").format(error=exc)) from exc
        hat.stick.close()   # the library's own client: ours reads the emulator's joystick
        if spawned and not _wait_for_emulator(EMU_START_SECONDS):
            raise BackendError(
                _("sense_emu_gui was started but its window did not come up: run sense_emu_gui in a "
                  "terminal to see why; {window_needs}").format(window_needs=_(WINDOW_NEEDS)))
        try:
            fb = os.open(emu_screen.screen_filename(), os.O_RDWR)
        except OSError as exc:
            raise BackendError(_("the LEDs ({path}) cannot be opened: {error}").format(
                path=exc.filename, error=exc.strerror or exc)) from exc
        try:
            stick = emu_stick.init_stick_client()
        except BaseException:
            os.close(fb)
            raise
        super().__init__(hat, stick=stick, fb=fb, rotation=rotation, low_light=low_light)


def _wait_for_emulator(seconds: float) -> bool:
    """Wait (polling the lock file every 0.1 s) for an emulator to take the lock."""
    deadline = time.monotonic() + seconds
    while emulator_running() is None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True
