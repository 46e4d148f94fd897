"""The real ``sense_hat`` library over a faked kernel: low light on both LED drivers.

Each program runs in a private mount namespace (``unshare --mount``, root) whose
``/sys/class`` and ``/dev`` show a Sense HAT (``boot_machine.FakeHat``: the
framebuffer a file, the joystick a FIFO), so the stock ``sense-hat`` library finds
and opens it as on a Pi; ``tests/helpers/boot_site`` supplies ``RTIMU`` (the IMU's C
extension, only built on a Pi) and the ioctl answers a file and a FIFO cannot give
(``fake_hat_ioctl``).  Two drivers:

- ``answered``: ``rpisense-fb``, which takes the gamma ioctls (its low-light table);
- ``refused``: the display driver of Raspberry Pi OS Bookworm's newer kernels, which
  answers them with ``ENOTTY`` (python-sense-hat issue 145): low light is then done
  in software, every lit channel kept at 48 or more (python-sense-hat issue 67).

The tests read the LEDs from the framebuffer file on this side of the namespace.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

import pytest
from boot_machine import FakeHat, wait_for

from gamelib.backends.mock import MockBackend
from gamelib.backends.senselib import pack_frame, soft_dimmed
from gamelib.games import discover
from gamelib.launcher.menu import Launcher
from gamelib.launcher.settings import Settings
from gamelib.palette import palette as default_palette
from sensehat_c4.match.chooser import choice_frame

BIN = Path(sys.executable).parent
SITE = Path(__file__).resolve().parents[2] / "helpers" / "boot_site"
REFUSED = ("WARNING: low light: dimmed in software (the LED driver refuses the gamma ioctls: Inappropriate ioctl "
           "for device)")
ANSWERED = "INFO: low light: the LED driver's low-light gamma table"
LAUNCHER_OPTIONS = ("--dim-after", "0", "--blank-after", "0")

NAMESPACE = r'''
host_dev=$1; hat=$2; shift 2
mkdir -p "$host_dev"
mount --rbind /dev "$host_dev"
mount -t tmpfs -o mode=755 tmpfs /dev
for name in null zero full random urandom tty; do touch "/dev/$name"; mount --bind "$host_dev/$name" "/dev/$name"; done
ln -s /proc/self/fd /dev/fd
mkdir /dev/input
touch /dev/fb1 /dev/input/event0 /dev/i2c-1
mount --bind "$hat/fb1" /dev/fb1
mount --bind "$hat/event0" /dev/input/event0
mount --bind "$hat/i2c-1" /dev/i2c-1
mount --bind "$hat/sys-class" /sys/class
exec "$@"
'''
"""In the new mount namespace: a ``/dev`` of its own (the few devices a program needs, then the HAT's
files), the HAT's ``/sys/class``, then the program."""


@pytest.fixture
def hat(tmp_path):
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare (util-linux) for a private mount namespace")
    try:
        import sense_hat  # noqa: F401
    except ImportError as exc:
        if "RTIMU" not in str(exc):
            pytest.skip(f"the sense_hat library is not installed ({exc}): pip install -e '.[test]'")
    fake = FakeHat(tmp_path / "hat", {"video": 0, "input": 0, "i2c": 0})
    yield fake
    fake.close()


def start(hat: FakeHat, tmp_path: Path, gamma: str, command: List[str],
          settings: Optional[dict] = None) -> subprocess.Popen:
    """``command`` (a console script of this venv) in the namespace, its driver answering or refusing gamma."""
    home = tmp_path / "home"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8",
           "PYTHONPATH": str(SITE), "FAKE_HAT_GAMMA": gamma, "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_STATE_HOME": str(home / ".state"), "XDG_DATA_HOME": str(home / ".data"),
           "SENSEHAT_C4_DB": str(tmp_path / "games.db")}
    if settings is not None:
        (home / ".config" / "gamelib").mkdir(parents=True)
        (home / ".config" / "gamelib" / "settings.json").write_text(json.dumps(settings))
    return subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-ec", NAMESPACE, "sh",
                             str(tmp_path / "host-dev"), str(hat.directory), str(BIN / command[0]), *command[1:]],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def shows_then_stops(hat: FakeHat, program: subprocess.Popen, expected: bytes) -> str:
    """Wait for the LEDs to show ``expected``, stop the program (SIGTERM); its stderr.  It must
    leave as a stop leaves: exit 143, no traceback, the LEDs off."""
    try:
        wait_for("the LEDs' frame", lambda: hat.frame() == expected or program.poll() is not None, 60.0)
        assert program.poll() is None, f"the program ended ({program.returncode}): {program.communicate()}"
    finally:
        program.send_signal(signal.SIGTERM)
        out, err = program.communicate(timeout=30)
    assert "Traceback" not in err, err
    assert program.returncode == 128 + signal.SIGTERM, (out, err)
    assert hat.frame() == bytes(128)
    return err


def lines(err: str, prog: str) -> List[str]:
    return [line[len(prog) + 2:] for line in err.splitlines() if line.startswith(f"{prog}: ")]


def test_sensehat_c4_low_light_where_the_driver_takes_gamma(hat, tmp_path):
    program = start(hat, tmp_path, "answered", ["sensehat-c4", "--backend", "hat", "--low-light"])
    err = shows_then_stops(hat, program, pack_frame(choice_frame(0, default_palette())))   # the driver dims: the pixels as they are
    assert lines(err, "sensehat-c4") == []      # its log says warnings only


def test_sensehat_c4_low_light_where_the_driver_refuses_gamma(hat, tmp_path):
    program = start(hat, tmp_path, "refused", ["sensehat-c4", "--backend", "hat", "--low-light"])
    dimmed = soft_dimmed(choice_frame(0, default_palette()))
    assert {v for pixel in dimmed for v in pixel} == {0, 144}      # white (255) at the low-light table's level
    err = shows_then_stops(hat, program, pack_frame(dimmed))
    assert lines(err, "sensehat-c4") == [REFUSED]


@pytest.mark.parametrize("gamma", ["answered", "refused"])
@pytest.mark.parametrize("how", ["saved", "--low-light"])
def test_the_launcher_at_low_brightness_on_both_drivers(hat, tmp_path, gamma, how):
    """The kiosk's saved "brightness: low" (and ``gamelib --low-light``) starts on both drivers."""
    settings = {"low_light": True} if how == "saved" else None
    flags = ["--low-light"] if how == "--low-light" else []
    program = start(hat, tmp_path, gamma, ["gamelib", "--backend", "hat", *flags, *LAUNCHER_OPTIONS], settings)
    menu = list(Launcher(MockBackend(), discover(), settings=Settings(low_light=True)).frame())
    err = shows_then_stops(hat, program, pack_frame(menu if gamma == "answered" else soft_dimmed(menu)))
    said = [line for line in lines(err, "gamelib") if "low light" in line]
    assert said == [ANSWERED if gamma == "answered" else REFUSED]
