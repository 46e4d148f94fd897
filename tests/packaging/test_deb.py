"""The Debian package for real: built from this tree, installed with apt into a booted Debian 12, used, removed.

``tools/build-deb`` builds ``sensehat-c4_VERSION_amd64.deb`` (Debian's debhelper and pybuild); the
boot test's machine (``boot_machine.py``: the ``mmdebstrap`` tree, cached, under ``systemd-nspawn``
with the fake Sense HAT) gets it with ``apt-get install ./sensehat-c4_*.deb``, which takes
``python3-h11`` and ``python3-zeroconf`` from Debian.  What a Pi's Raspberry Pi OS adds and Debian
has not stands in as in the boot test: ``sense_hat`` from its PyPI wheel where
``python3-sense-hat`` would put it (the package only recommends it), the ``RTIMU`` stub, and
``fake_hat_ioctl`` for the ioctls a FIFO and a file cannot answer.  Then, in order: the programs
answer (``--version`` with the native core, ``analyse`` as this tree's), ``doctor`` finds the HAT,
the packaged unit (``sensehat-games@pi``) starts the launcher, whose menu the LEDs show, a unit
made to fail is ``doctor``'s ✗ with its exit status, and ``apt-get remove`` (then ``autoremove``)
leaves nothing but the user's own files: checked with ``dpkg -L`` and a listing of the whole
file system before and after; systemd lists none of its units afterwards.

Needs what the boot test needs (``.ci/install-boot-deps``) and Debian's build tools
(``.ci/install-package-deps``); skipped without them (failed under CI).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

import pytest
from boot_machine import SITE_DIR, FakeHat, Machine, chroot, group_id, overlay, rootfs_tree, unmount, wait_for, \
    what_is_missing
from ci_needs import require
from debian_package import build_deb

from gamelib.backends.mock import MockBackend
from gamelib.backends.senselib import pack_frame
from gamelib.games import discover
from gamelib.launcher.menu import Launcher
from sensehat_c4 import __version__

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SENSE_HAT = "sense-hat==2.6.0"
USER = "pi"
UNIT = f"sensehat-games@{USER}.service"
DEBS = "/opt/c4-debs"
LOCAL_SITE = "/usr/local/lib/python3.11/dist-packages"
"""Where the stand-ins go: the system Python's own path for what the admin adds (as python3-sense-hat would)."""
START_TIMEOUT = 90.0
STEP_TIMEOUT = 30.0
SKIPPED = ("/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp", "/var/cache/apt", "/var/cache/debconf",
           "/var/cache/ldconfig", "/var/lib/apt", "/var/lib/dpkg", "/var/log", "/etc/ld.so.cache", DEBS)
"""What the file-system listing leaves out: the kernel's and the run's files, and the package manager's own
records (apt's lists and caches, dpkg's database, the logs and the journal, ldconfig's cache), which any
install and removal change."""


def menu_frame() -> bytes:
    return pack_frame(Launcher(MockBackend(), discover()).frame())


def listing(machine: Machine) -> Dict[str, str]:
    """Every path of the machine's file system (but :data:`SKIPPED`): its type, mode and, for a file, size."""
    prune = " -o ".join(f"-path {path}" for path in SKIPPED)
    out = machine.run(["sh", "-c", f"find / -xdev \\( {prune} \\) -prune -o -printf '%p\\t%y %m %s\\n'"]).stdout
    found = {}
    for line in out.splitlines():
        path, what = line.split("\t")
        kind, mode, size = what.split(" ")
        found[path] = f"{kind} {mode}" + (f" {size}" if kind == "f" else "")
        if path in SKIPPED:
            del found[path]
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The package built from this tree."""
    require(what_is_missing(), "cannot boot a container here, missing", ".ci/install-boot-deps")
    deb = build_deb(tmp_path_factory.mktemp("debs"))
    assert deb.name == f"sensehat-c4_{__version__}_amd64.deb"
    return deb


@pytest.fixture(scope="module")
def machine(built, tmp_path_factory):
    work = tmp_path_factory.mktemp("deb")
    wheels = work / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", "download", "--no-deps",
                    "--dest", str(wheels), SENSE_HAT], check=True)
    root = overlay(rootfs_tree(work), work)
    hat = booted = None
    try:
        # as Raspberry Pi OS makes its first user: in video, input and i2c
        chroot(root, f"groupadd --system input; groupadd --system i2c; "
                     f"useradd --create-home --shell /bin/bash --groups video,input,i2c {USER}")
        site = root / LOCAL_SITE.lstrip("/")
        site.mkdir(parents=True, exist_ok=True)
        shutil.copy(SITE_DIR / "RTIMU.py", site / "RTIMU.py")
        for name in ("fake_hat_ioctl.py", "fake_hat_ioctl.pth"):
            shutil.copy(SITE_DIR / name, site / name)
        for wheel in wheels.glob("*.whl"):
            subprocess.run([sys.executable, "-m", "zipfile", "-e", str(wheel), str(site)], check=True)
        chroot(root, f"python3 -m compileall -q {LOCAL_SITE}")  # (their bytecode is no trace of the package)
        (root / DEBS.lstrip("/")).mkdir(parents=True)
        shutil.copy(built, root / DEBS.lstrip("/") / built.name)
        hat = FakeHat(work / "hat", {g: group_id(root, g) for g in ("video", "input", "i2c")})
        booted = Machine(root, hat, work / "nspawn.log")
        booted.boot()
        yield booted
    finally:
        if booted is not None:
            booted.poweroff()
        if hat is not None:
            hat.close()
        unmount(root)


@pytest.fixture(scope="module")
def installed(machine, built):
    """``apt-get install ./sensehat-c4_*.deb`` on the plain Debian 12; the file system just before it."""
    machine.run(["apt-get", "update", "-q"], timeout=600)
    before = listing(machine)
    started = time.monotonic()
    done = machine.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", f"{DEBS}/{built.name}"],
                       env={"DEBIAN_FRONTEND": "noninteractive"}, timeout=600)
    print(f"\napt-get install: {time.monotonic() - started:.0f} s", file=sys.stderr)
    assert "python3-h11" in done.stdout and "python3-zeroconf" in done.stdout
    return before


def test_apt_installed_it_with_debians_h11_and_zeroconf(machine, installed):
    versions = machine.run(["dpkg-query", "--show", "--showformat=${Package} ${Version} ${Status}\\n",
                            "sensehat-c4", "python3-h11", "python3-zeroconf"]).stdout.splitlines()
    assert sorted(versions) == ["python3-h11 0.14.0-1.1~deb12u1 install ok installed",
                                "python3-zeroconf 0.47.3-1 install ok installed",
                                f"sensehat-c4 {__version__} install ok installed"]


def test_debians_h11_refuses_the_request_smuggling_body(machine, installed):
    """CVE-2025-43859: a chunk not followed by CRLF.  h11 0.14.0 accepted it; Debian's 0.14.0-1.1~deb12u1, which
    the package depends on, refuses it as h11 0.16 does."""
    script = ("import h11\n"
              "c = h11.Connection(h11.SERVER)\n"
              "c.receive_data(b'POST / HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n'\n"
              "               b'5\\r\\nAAAAAXX2\\r\\n45\\r\\n0\\r\\n\\r\\n')\n"
              "events = []\n"
              "try:\n"
              "    while True:\n"
              "        e = c.next_event()\n"
              "        events.append(type(e).__name__)\n"
              "        if e in (h11.NEED_DATA, h11.PAUSED) or isinstance(e, h11.EndOfMessage): break\n"
              "except h11.RemoteProtocolError as exc:\n"
              "    print('refused:', exc)\n"
              "else:\n"
              "    print('accepted:', events)\n")
    said = machine.run(["python3", "-c", script], user=USER).stdout.strip()
    assert said.startswith("refused:"), said


def test_the_programs_answer(machine, installed):
    assert machine.run(["/usr/games/sensehat-c4", "--version"], user=USER).stdout == \
        f"sensehat-c4 {__version__} (solver core: native)\n"
    for args in (["analyse", "4453"], ["analyse", "4453", "--solve", "--json"]):
        here = subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                              check=True, cwd=REPO).stdout
        assert machine.run(["/usr/games/sensehat-c4", *args], user=USER).stdout == here
    listed = machine.run(["/usr/games/gamelib", "list"], user=USER).stdout
    assert "Connect 4" in listed


def test_the_man_pages_and_the_units_are_in_the_package(machine, installed):
    files = set(machine.run(["dpkg", "-L", "sensehat-c4"]).stdout.split())
    assert {"/usr/share/man/man6/sensehat-c4.6.gz", "/usr/share/man/man6/gamelib.6.gz",
            "/lib/systemd/system/sensehat-games@.service", "/usr/lib/systemd/user/sensehat-games.service",
            "/usr/lib/python3/dist-packages/sensehat_c4/engine/_c4core.so"} <= files
    page = machine.run(["sh", "-c", "zcat /usr/share/man/man6/sensehat-c4.6.gz"]).stdout
    assert '.SS "sensehat-c4 doctor"' in page and ".SH \"EXIT STATUS\"" in page
    # the user's guide where it is in the tree, beside README (uncompressed: their links work), which the man
    # pages name
    guide = sorted(f.rsplit("/", 1)[1] for f in files if f.startswith("/usr/share/doc/sensehat-c4/docs/guide/"))
    assert guide == sorted(p.name for p in (REPO / "docs" / "guide").glob("*.md"))
    assert "/usr/share/doc/sensehat-c4/docs/guide/" in page and "/usr/share/doc/sensehat-c4/README.md" in files
    # installed, not enabled, not started
    assert machine.run(["systemctl", "is-enabled", UNIT], check=False).stdout.strip() == "disabled"
    assert machine.run(["systemctl", "is-active", UNIT], check=False).stdout.strip() == "inactive"


def test_doctor_on_the_pi_finds_the_hat(machine, installed):
    done = machine.run(["/usr/games/sensehat-c4", "doctor", "--json"], user=USER, check=False)
    report = json.loads(done.stdout)
    found = {c["check"]: c for c in report["checks"]}
    assert done.returncode == 0 and report["backend"]["chosen"] == "hat"
    assert [(found[c]["status"], found[c]["detail"]) for c in ("leds", "stick", "driver", "i2c")] == [
        ("ok", "/dev/fb1 (RPi-Sense FB), writable"),
        ("ok", "/dev/input/event0 (Raspberry Pi Sense HAT Joystick), readable"),
        ("ok", "gamma ioctls answered (rpisense-fb): low light in the driver"),
        ("ok", "/dev/i2c-1, readable and writable")]
    assert found["sense_hat"]["detail"] == f"2.6.0 ({LOCAL_SITE}/sense_hat)"
    assert found["core"]["status"] == "ok" and found["core"]["detail"].startswith(
        "native (/usr/lib/python3/dist-packages/sensehat_c4/engine/_c4core.so; sha256 ")
    assert found["zeroconf"]["detail"] == "0.47.3 (/usr/lib/python3/dist-packages/zeroconf)"
    assert found["service"]["detail"] == f"{UNIT}: disabled, inactive (dead)"
    # the fixes are the Debian package's: apt, never pip into the system's Python
    assert found["emulator"]["fix"] == "sudo apt install python3-sense-emu sense-emu-tools"
    assert found["book"]["detail"].endswith("; 12-ply book: not installed (optional; Debian has no package of it: "
                                            "$SENSEHAT_C4_BOOK12 can name a copy of book_12ply_distances.dat)")


def test_the_packaged_unit_starts_the_launcher(machine, installed):
    machine.run(["systemctl", "enable", "--now", UNIT])
    wait_for("the unit to be active", lambda: machine.run(["systemctl", "is-active", UNIT], check=False)
             .stdout.strip() == "active", START_TIMEOUT)
    wait_for("the launcher's menu on the LEDs", lambda: machine.hat.frame() == menu_frame(), START_TIMEOUT,
             interval=0.05)
    assert machine.unit_property(UNIT, "User") == USER
    for folder in (".config/sense_hat", ".config/gamelib", ".local/share/sensehat-c4"):  # made by ExecStartPre
        assert machine.run(["stat", "--format=%U", f"/home/{USER}/{folder}"]).stdout.strip() == USER
    done = machine.run(["/usr/games/sensehat-c4", "doctor", "--json"], user=USER, check=False)
    service = [c for c in json.loads(done.stdout)["checks"] if c["check"] == "service"]
    assert [(c["status"], c["detail"]) for c in service] == [("ok", f"{UNIT}: enabled, active (running)")]
    assert "Traceback" not in machine.journal("--unit", UNIT)


def test_doctor_shows_a_failing_unit_with_its_exit(machine, installed):
    dropin = "/etc/systemd/system/sensehat-games@.service.d"
    machine.run(["mkdir", "-p", dropin])
    # a backend that is not one: the launcher's one line and exit 78, which the unit does not restart on
    machine.write_file(f"{dropin}/fail.conf", b"[Service]\nExecStart=\nExecStart=/usr/bin/python3 -m gamelib\n"
                                                b"Environment=GAMELIB_BACKEND=nosuch\n")
    try:
        machine.run(["systemctl", "daemon-reload"])
        machine.run(["systemctl", "restart", UNIT], check=False)
        wait_for("the unit to fail", lambda: machine.unit_property(UNIT, "ActiveState") == "failed", START_TIMEOUT)
        done = machine.run(["/usr/games/sensehat-c4", "doctor"], user=USER, check=False)
        lines = done.stdout.splitlines()
        assert done.returncode == 0   # the HAT works: playing by hand works
        assert f"✗ service: {UNIT}: enabled, failed; last exit 78 (exit-code); fix: journalctl -u {UNIT} says why; " \
               f"then sudo systemctl restart {UNIT}" in lines
        assert machine.hat.frame() == bytes(128)
    finally:
        machine.run(["rm", "-rf", dropin])
        machine.run(["systemctl", "daemon-reload"])
        machine.run(["systemctl", "reset-failed", UNIT], check=False)
        machine.run(["systemctl", "restart", UNIT])
    wait_for("the menu again", lambda: machine.hat.frame() == menu_frame(), START_TIMEOUT, interval=0.05)


def test_apt_remove_leaves_nothing_but_the_users_files(machine, installed):
    files = [path for path in machine.run(["dpkg", "-L", "sensehat-c4"]).stdout.split()
             if machine.run(["test", "-f", path], check=False).returncode == 0]
    assert len(files) > 100
    # units systemd keeps loaded: an instance that failed (its user does not exist: its ExecStartPre fails),
    # wanted by a transient unit that holds it loaded while the package goes
    ghost, holder = "sensehat-games@ghost.service", "c4-holder.service"
    machine.run(["systemd-run", f"--unit={holder}", f"--property=Wants={ghost}", "sleep", "infinity"])
    wait_for("the instance to fail", lambda: machine.unit_property(ghost, "ActiveState") == "failed", START_TIMEOUT)
    machine.run(["apt-get", "remove", "-y", "-q", "sensehat-c4"], env={"DEBIAN_FRONTEND": "noninteractive"})
    # systemd reloaded once the unit files were gone (postrm): still held, the instance is not-found, not
    # "changed on disk"; its failure was forgotten (prerm), so once let go it is unloaded
    assert [machine.unit_property(ghost, p) for p in ("LoadState", "NeedDaemonReload")] == ["not-found", "no"]
    machine.run(["systemctl", "stop", holder])
    # the running, enabled instance was stopped and disabled, and the LEDs cleared on the way out
    assert machine.run(["systemctl", "is-active", UNIT], check=False).stdout.strip() in ("inactive", "failed")
    assert machine.hat.frame() == bytes(128)
    assert machine.run(["sh", "-c", "ls /etc/systemd/system/*.wants/ | grep sensehat"], check=False).stdout == ""
    # and systemd has forgotten its units: none listed (as "loaded failed ... changed on disk" were)
    assert machine.run(["systemctl", "list-units", "--all", "--plain", "--no-legend", "sensehat-games*"]).stdout == ""
    assert machine.unit_property(UNIT, "NeedDaemonReload") == "no"
    left = [path for path in files if machine.run(["test", "-e", path], check=False).returncode == 0]
    assert left == []
    machine.run(["apt-get", "autoremove", "-y", "-q"], env={"DEBIAN_FRONTEND": "noninteractive"})
    after = listing(machine)
    changed = sorted(path for path in set(installed) | set(after) if installed.get(path) != after.get(path))
    # the folders the unit made for the launcher's user (ExecStartPre): settings, sense_hat's, the games
    home = f"/home/{USER}"
    assert changed == [f"{home}/.config", f"{home}/.config/gamelib", f"{home}/.config/sense_hat", f"{home}/.local",
                       f"{home}/.local/share", f"{home}/.local/share/sensehat-c4"]
