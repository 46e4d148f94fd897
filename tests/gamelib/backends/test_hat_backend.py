"""The real-HAT backend off a Pi: a stand-in ``sense_hat`` module at the library's boundary, and a fake
kernel's ``/sys/class`` and ``/dev`` (``senselib.SYS``, ``senselib.DEV``).

The stand-in has what ``HatBackend`` uses of the real library, its public API: ``SenseHat()``, its
``stick.close()`` and ``low_light``.  The backend finds the framebuffer (here a 160-byte file) and the
joystick (here a FIFO fed 24-byte input events) by their names in ``/sys``, as the kernel shows them.
"""
import errno
import logging
import os
import pwd
import shutil
import struct
import sys
import tempfile
import types
from pathlib import Path

import pytest
from as_nobody import in_child

from gamelib.backends import senselib
from gamelib.backends.base import Action, Direction
from gamelib.errors import BackendError, SetupError
from gamelib import install
from gamelib.install import Install, Kind

EVENT = struct.Struct("llHHI")
USER = "nobody" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name


class FakeStick:
    """The library's joystick: the backend only closes it (it reads its own, grabbed)."""

    def __init__(self):
        self.closed = False

    def close(self):
        self.closed = True


def fake_kernel(folder):
    """A Pi's ``/sys/class`` and ``/dev`` with a Sense HAT under ``folder`` (anyone may enter): fb1 (a file)
    and input/event2 (a FIFO, held open for writing: its write end returned)."""
    os.chmod(folder, 0o755)
    for path, name in (("sys/class/graphics/fb0/name", "vc4drmfb"), ("sys/class/graphics/fb1/name", "RPi-Sense FB"),
                       ("sys/class/input/event0/device/name", "vc4-hdmi"),
                       ("sys/class/input/event2/device/name", "Raspberry Pi Sense HAT Joystick")):
        os.makedirs(os.path.join(folder, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(folder, path), "w") as f:
            f.write(name + "\n")
    os.makedirs(os.path.join(folder, "dev", "input"))
    for root, dirs, files in os.walk(folder):
        for entry in dirs:
            os.chmod(os.path.join(root, entry), 0o755)
        for entry in files:
            os.chmod(os.path.join(root, entry), 0o644)
    fb = os.path.join(folder, "dev", "fb1")
    with open(fb, "wb") as f:
        f.write(b"\xff" * 160)
    stick = os.path.join(folder, "dev", "input", "event2")
    os.mkfifo(stick)
    for path in (fb, stick):
        os.chmod(path, 0o666)
    return os.open(stick, os.O_RDWR)


@pytest.fixture
def fake_library(monkeypatch):
    folder = tempfile.mkdtemp()
    write_end = fake_kernel(folder)
    monkeypatch.setattr(senselib, "SYS", os.path.join(folder, "sys"))
    monkeypatch.setattr(senselib, "DEV", os.path.join(folder, "dev"))
    made = []

    class SenseHat:
        fail = None
        refuse_gamma = False
        """Answer low light as Bookworm's newer display driver does (python-sense-hat issue 145)."""

        def __init__(self):
            if SenseHat.fail:
                raise SenseHat.fail
            self.stick = FakeStick()
            self.asked = []
            self._low_light = False
            made.append(self)

        @property
        def low_light(self):
            return self._low_light

        @low_light.setter
        def low_light(self, value):
            self.asked.append(value)
            if SenseHat.refuse_gamma:
                raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
            self._low_light = value

    module = types.ModuleType("sense_hat")
    module.SenseHat = SenseHat
    monkeypatch.setitem(sys.modules, "sense_hat", module)
    grabs = []
    monkeypatch.setattr(senselib.fcntl, "ioctl", lambda fd, request, arg: grabs.append((request, arg)))
    yield types.SimpleNamespace(SenseHat=SenseHat, made=made, fb=Path(folder, "dev", "fb1"), grabs=grabs,
                                stick=write_end, folder=folder)
    try:
        os.close(write_end)
    except OSError:   # a test closed it
        pass
    shutil.rmtree(folder)


def test_frames_events_grab_and_close(fake_library):
    backend = senselib.HatBackend(low_light=True)
    hat = fake_library.made[0]
    assert fake_library.grabs == [(senselib.EVIOCGRAB, 1)]      # presses stay out of the console
    assert hat.low_light is True
    backend.screen.show([(255, 0, 0)] + [(0, 0, 255)] * 62 + [(255, 255, 0)])
    pixels = struct.unpack("64H", fake_library.fb.read_bytes()[:128])
    assert (pixels[0], pixels[1], pixels[63]) == (0xF800, 0x001F, 0xFFE0)
    assert fake_library.fb.read_bytes()[128:] == b"\xff" * 32       # the gamma area is left alone
    os.write(fake_library.stick, EVENT.pack(0, 0, 0, 0, 0) + EVENT.pack(0, 0, 1, 105, 1))
    event = backend.stick.wait_event(1.0)                               # the sync event is skipped
    assert (event.direction, event.action) == (Direction.LEFT, Action.PRESSED)
    assert backend.stick.wait_event(0.01) is None
    backend.close()
    assert hat.stick.closed and hat.low_light is False
    assert fake_library.fb.read_bytes()[:128] == bytes(128)        # cleared


def test_a_joystick_that_goes_away_is_an_error_not_a_spin(fake_library):
    backend = senselib.HatBackend()
    os.close(fake_library.stick)                                  # the FIFO's last writer: its end of events
    with pytest.raises(BackendError) as info:
        backend.stick.wait_event(1.0)
    assert str(info.value) == "the joystick has gone: end of its events"
    backend.close()


def leds(fb):
    """The framebuffer's 64 pixels as (r, g, b) at RGB565's precision (each channel's top bits)."""
    return [((p >> 11) << 3, ((p >> 5) & 63) << 2, (p & 31) << 3) for p in struct.unpack("64H", fb.read_bytes()[:128])]


def test_low_light_where_the_driver_takes_gamma_is_its_own(fake_library, caplog):
    caplog.set_level(logging.INFO, logger="gamelib")
    backend = senselib.HatBackend(low_light=True)
    backend.screen.show([(255, 0, 0)] * 64)
    assert leds(fake_library.fb) == [(248, 0, 0)] * 64                   # the driver dims: the pixels as they are
    backend.screen.low_light = False
    backend.screen.low_light = True
    backend.close()
    assert fake_library.made[0].asked == [True, False, True, False]
    assert [r.getMessage() for r in caplog.records] == [
        "low light: the LED driver's low-light gamma table"]


def test_low_light_where_the_driver_refuses_gamma_is_done_in_software(fake_library, caplog):
    """Bookworm's newer display driver answers the gamma ioctls with ENOTTY: the frames are dimmed
    here instead, as the low-light table would dim them, a lit channel never below 48."""
    caplog.set_level(logging.INFO, logger="gamelib")
    fake_library.SenseHat.refuse_gamma = True
    frame = [(255, 0, 0), (1, 2, 7), (47, 48, 104), (128, 200, 255)] + [(0, 0, 0)] * 60
    backend = senselib.HatBackend(low_light=True)
    backend.screen.show(frame)
    assert leds(fake_library.fb)[:5] == [(144, 0, 0), (48, 48, 48), (48, 48, 64), (80, 120, 144), (0, 0, 0)]
    backend.screen.low_light = False                                             # drawn again at once
    assert leds(fake_library.fb)[:4] == [(248, 0, 0), (0, 0, 0), (40, 48, 104), (128, 200, 248)]
    backend.screen.low_light = True
    assert leds(fake_library.fb)[0] == (144, 0, 0)
    backend.close()
    assert fake_library.made[0].asked == [True]                          # refused once: not asked again
    assert fake_library.fb.read_bytes()[:128] == bytes(128)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "low light: dimmed in software (the LED driver refuses the gamma ioctls: Inappropriate ioctl "
                    "for device)")]


def test_software_low_light_keeps_every_lit_channel_lit():
    table = senselib.SOFT_LOW_LIGHT
    assert table[0] == 0
    assert min(table[1:]) == senselib.LIT_MIN == 48                       # python-sense-hat issue 67
    assert max(table) == 144 and list(table) == sorted(table)             # 255 at level 10 of 31, the order kept
    for value in range(256):                                              # the low-light table's level, where lit
        level = senselib.GAMMA_DEFAULT[table[value] >> 3]
        assert level == max(1 if value else 0, senselib.GAMMA_LOW[value >> 3])


def test_the_middle_held_makes_the_pairing_gesture_from_the_kernel_s_repeats(fake_library):
    """The joystick's driver sets EV_REP: the kernel repeats a key held down (value 2, ``held``) after 250 ms,
    every 33 ms.  Held 3.6 s, the middle makes the pairing gesture once, 3 s after its press."""
    import threading
    import time

    backend = senselib.HatBackend()
    write_end = fake_library.stick
    gestures = []
    backend.stick.watch_pairing(lambda: gestures.append(time.monotonic()))

    def hold():
        start = time.monotonic()
        os.write(write_end, EVENT.pack(0, 0, 1, 28, 1) + EVENT.pack(0, 0, 0, 0, 0))
        k = 0
        while 0.25 + k * 0.033 < 3.6:
            time.sleep(max(0.0, start + 0.25 + k * 0.033 - time.monotonic()))
            os.write(write_end, EVENT.pack(0, 0, 1, 28, 2) + EVENT.pack(0, 0, 0, 0, 0))
            k += 1
        time.sleep(max(0.0, start + 3.6 - time.monotonic()))
        os.write(write_end, EVENT.pack(0, 0, 1, 28, 0) + EVENT.pack(0, 0, 0, 0, 0))

    holder = threading.Thread(target=hold)
    pressed = time.monotonic()
    holder.start()
    events = []
    while not events or events[-1].action is not Action.RELEASED:
        event = backend.stick.wait_event(5.0)
        assert event is not None
        events.append(event)
    holder.join()
    backend.close()
    assert [e.action for e in events] == [Action.PRESSED] + [Action.HELD] * (len(events) - 2) + [Action.RELEASED]
    assert {e.direction for e in events} == {Direction.MIDDLE} and len(events) > 90
    assert len(gestures) == 1 and 3.0 <= gestures[0] - pressed < 3.6


@pytest.mark.parametrize("found, fix", [
    (Install(Kind.DEBIAN, Path("/usr")), "sudo apt install python3-sense-hat"),
    (Install(Kind.VENV, Path("/home/pi/c4/.venv"), True), "sudo apt install python3-sense-hat"),
    (Install(Kind.VENV, Path("/home/pi/c4/.venv"), False), "sudo apt install python3-sense-hat, then python3 -m venv "
     "--system-site-packages /home/pi/c4/.venv (this venv does not see the system's packages)"),
    (Install(Kind.PIPX, Path("/home/pi/.local/pipx/venvs/sensehat-c4"), False, "/home/pi/sensehat-c4"),
     "sudo apt install python3-sense-hat, then pipx install --force --system-site-packages /home/pi/sensehat-c4 "
     "(this venv does not see the system's packages)"),
])
def test_missing_library_says_how_this_install_gets_it(monkeypatch, found, fix):
    monkeypatch.setitem(sys.modules, "sense_hat", None)
    monkeypatch.setattr(install, "this", lambda: found)
    with pytest.raises(SetupError) as info:
        senselib.HatBackend()
    assert str(info.value) == ("the sense_hat library cannot be imported (import of sense_hat halted; None in "
                               f"sys.modules): on Raspberry Pi OS run {fix}")


@pytest.mark.parametrize("error", [
    RuntimeError("unable to locate SenseHAT joystick device"),
    OSError("Cannot detect RPi-Sense FB device"),
])
def test_a_hat_that_cannot_be_opened_is_one_clear_error(fake_library, error):
    fake_library.SenseHat.fail = error
    with pytest.raises(BackendError) as info:
        senselib.HatBackend()
    assert str(info.value) == (
        f"the Sense HAT cannot be opened ({error}): check it is seated, that I2C is on in raspi-config, "
        "and that this user is in the 'video' and 'input' groups")


def test_a_stick_someone_else_holds(fake_library, monkeypatch):
    def busy(fd, request, arg):
        raise OSError(16, "Device or resource busy")

    monkeypatch.setattr(senselib.fcntl, "ioctl", busy)
    with pytest.raises(BackendError, match=r"^cannot grab the Sense HAT joystick .*busy.*another program"):
        senselib.HatBackend()
    assert fake_library.made[0].stick.closed


def open_as_nobody(fake_library):
    """``HatBackend()`` in a child process running as ``nobody`` with no groups (when we are root;
    else as ourselves): what it raised."""
    def open_it():
        senselib.HatBackend().close()
        return "opened"

    return in_child(open_it)[0]


def test_leds_a_user_outside_video_may_not_open(fake_library):
    os.chmod(fake_library.fb, 0)   # /dev/fb1 is root:video 0660: closed to everyone else
    assert open_as_nobody(fake_library) == (
        f"SetupError: the Sense HAT LEDs ({fake_library.fb}) cannot be opened: permission denied; "
        f"user {USER} needs the 'video' group: run 'sudo usermod -aG video {USER}', then log in again")


def test_a_joystick_a_user_outside_input_may_not_open(fake_library):
    stick = os.path.join(fake_library.folder, "dev", "input", "event2")
    os.chmod(stick, 0)
    assert open_as_nobody(fake_library) == (
        f"SetupError: the Sense HAT joystick ({stick}) cannot be opened: permission denied; "
        f"user {USER} needs the 'input' group: run 'sudo usermod -aG input {USER}', then log in again")


@pytest.mark.parametrize("gone, missing", [
    ("sys/class/input/event2/device/name", "the kernel shows no 'Raspberry Pi Sense HAT Joystick' input device"),
    ("sys/class/graphics/fb1/name", "the kernel shows no 'RPi-Sense FB' framebuffer"),
])
def test_the_devices_are_found_by_their_names_in_sys(fake_library, gone, missing):
    os.remove(os.path.join(fake_library.folder, gone))
    with pytest.raises(BackendError) as info:
        senselib.HatBackend()
    assert str(info.value) == (
        f"the Sense HAT cannot be opened ({missing}): check it is seated, that I2C is on in raspi-config, and that "
        "this user is in the 'video' and 'input' groups")
