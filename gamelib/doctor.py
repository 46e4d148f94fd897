"""What a Sense HAT game needs from this machine, one check at a time (the ``doctor`` commands).

Each check is a function of a :class:`System`, the OS boundary (files under ``/sys`` and
``/dev``, the groups, modules, programs on the ``PATH``, ``systemctl``, sockets), and returns a
:class:`Check`: a status, what was found, and for a failure the fix.  The checks decide
nothing else: :func:`verdict` then says whether the chosen way to play works (the backend
that ``--backend``, ``$GAMELIB_BACKEND`` or ``auto`` picks, as :mod:`gamelib.backends` would),
and turns what is only *absent* and not needed for it into ``SKIP`` (no emulator on a Pi that
plays on its HAT is no fault; nor is a ``sense_hat`` library, missing or broken, where there is no HAT).
A fix that installs something names the command for how the game was installed
(:mod:`gamelib.install`: apt, pipx or a venv's pip).

What is looked for is what the libraries look for: the LED framebuffer by its name in
``/sys/class/graphics/fb*/name`` (``sense_hat`` and ``auto`` do the same), the joystick by
its name in ``/sys/class/input/event*/device/name`` (where ``sense_hat`` finds it, and says
"unable to locate SenseHAT joystick device" when it cannot), access as this process has it
(its groups now, not those of a later login), and the framebuffer's gamma ioctl asked for
real: the ``rpisense-fb`` driver answers it, the driver of newer kernels refuses it, and then
low light is done in software.

The words are in one table, :data:`WORDS` (keys ``check.outcome``), so they can move to a
catalogue.
"""
from __future__ import annotations

import array
import fcntl
import glob
import grp
import importlib
import os
import pwd
import shutil
import socket
import stat
import subprocess
import sys
from dataclasses import dataclass, field, replace
from enum import Enum
from importlib import metadata
from types import ModuleType
from typing import Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from . import install
from .backends import AUTO, Found, Needs, Probe, Registration, auto_choice, nothing_to_play_on
from .backends.senselib import HAT_FB_NAME, STICK_NAME, emulator_running
from .backends.terminal import standard_fds
from .i18n import N_, NP_, Word, _, said
from .install import SENSE_EMU, ZEROCONF, Install

FBIOGET_GAMMA = 0xF100
"""The ``rpisense-fb`` driver's ioctl that reads its 32-entry gamma table."""
I2C_DEVICE = "/dev/i2c-1"
"""The Pi's I2C bus on the HAT connector (the sensors; the LEDs and stick do not need it)."""
MDNS_PORT = 5353
NAME_BYTES = 256
"""At most this much of a name file in ``/sys`` is read."""


class Status(Enum):
    OK = "ok"
    FAIL = "fail"
    SKIP = "skip"
    """Not needed by the way to play (not there; or the HAT's library where there is no HAT), or not checked
    (the line says why)."""


MARKS = {Status.OK: ("✓", "ok"), Status.FAIL: ("✗", "XX"), Status.SKIP: ("–", "--")}
"""Each status's mark: in UTF-8, and elsewhere."""


WORDS: Dict[str, Word] = {
    # the labels, in the order of the lines
    "label.python": N_("Python"),
    "label.sense_hat": N_("sense_hat library"),
    "label.leds": N_("LEDs"),
    "label.stick": N_("joystick"),
    "label.driver": N_("display driver"),
    "label.i2c": N_("I2C"),
    "label.emulator": N_("emulator"),
    "label.terminal": N_("terminal"),
    "label.service": N_("service"),
    "label.web_port": N_("web port"),
    "label.mdns_port": N_("mDNS port"),
    "label.zeroconf": N_("zeroconf"),
    "label.play": N_("way to play"),
    "label.library": N_("{module} library"),
    "label.device": N_("device {device}"),
    "label.group": N_("group {group}"),
    "label.backend": N_("backend {backend}"),
    # what the checks found
    "python.ok": N_("{version} ({executable})"),
    "python.old": N_("{version} ({executable}) is older than 3.9"),
    "python.old.fix": N_("install Python 3.9 or newer"),
    "module.ok": N_("{version} ({where})"),
    "module.missing": NP_("a library", "not installed"),
    "module.broken": NP_("a library", "cannot be imported: {error}"),
    "sense_hat.venv.fix": N_("{apt}, then {command} (this venv does not see the system's packages)"),
    "sense_hat.hidden.fix": N_("{command} (the system has sense_hat, and this venv does not see the system's "
                               "packages)"),
    "sense_hat.unneeded": N_("{detail} (only the Sense HAT needs it, not {backend})"),
    "sense_hat.unneeded.none": N_("{detail} (only the Sense HAT needs it, and none was found)"),
    "leds.ok": N_("{device} ({name}), writable"),
    "leds.missing": N_("the kernel shows no '{hat_fb_name}' framebuffer (no Sense HAT, or its driver is not loaded)"),
    "leds.missing.fix": N_("check the HAT is seated (the rainbow at power-on goes off once the driver has it); "
                           "if it stays lit, add dtoverlay=rpi-sense to /boot/firmware/config.txt and reboot"),
    "leds.no_node": N_("the kernel shows {fb} ({name}) but there is no {device}"),
    "leds.no_node.fix": N_("reboot (udev did not make the device node)"),
    "leds.denied": N_("{device} ({name}) cannot be written by {user} ({owner}:{group} {mode})"),
    "stick.ok": N_("{device} ({name}), readable"),
    "stick.missing": N_("the kernel shows no '{stick_name}' input device: sense_hat says "
                        "'unable to locate SenseHAT joystick device'"),
    "stick.missing.fix": N_("check the HAT is seated; if the LEDs work, update the kernel (sudo apt full-upgrade) "
                            "and reboot"),
    "stick.no_node": N_("the kernel shows {event} ({name}) but there is no {device}"),
    "stick.no_node.fix": N_("reboot (udev did not make the device node)"),
    "stick.denied": N_("{device} ({name}) cannot be read by {user} ({owner}:{group} {mode})"),
    "group.fix": N_("sudo usermod -aG {group} {user}, then log in again"),
    "group.relogin.fix": N_("{user} was added to the '{group}' group after this login began: log in again (or reboot)"),
    "driver.answered": N_("gamma ioctls answered (rpisense-fb): low light in the driver"),
    "driver.refused": N_("gamma ioctls refused ({error}): low light in software"),
    "driver.unchecked": N_("not checked: {why}"),
    "driver.no_leds": N_("no LEDs to ask"),
    "i2c.ok": N_("{device}, readable and writable"),
    "i2c.missing": N_("no {device}: I2C is off (the sensors need it; the LEDs and the stick do not)"),
    "i2c.missing.fix": N_("sudo raspi-config nonint do_i2c 0, then reboot"),
    "i2c.denied": N_("{device} cannot be opened by {user} ({owner}:{group} {mode})"),
    "emulator.parts": N_("library {library}; window {window}; {running}"),
    "emulator.window.found": N_("{path}"),
    "emulator.window.missing": N_("not on the PATH"),
    "emulator.running": N_("running (pid {pid})"),
    "emulator.stopped": N_("not running"),
    "emulator.window.fix": N_("sudo apt install sense-emu-tools (see docs/guide/emulator.md)"),
    "emulator.start.fix": N_("start sense_emu_gui on a desktop"),
    "library.fix": N_("install {module} (the {backend} backend needs it)"),
    "device.ok": N_("{device}, usable"),
    "device.missing": N_("there is no {device}"),
    "device.missing.fix": N_("the {backend} backend needs it: see its documentation"),
    "device.denied": N_("{device} cannot be opened by {user} ({owner}:{group} {mode})"),
    "group.ok": N_("{user} is in it"),
    "group.missing": N_("{user} is not in it"),
    "backend.absent": N_("not here: {why}"),
    "terminal.ok": N_("standard input and output are a terminal"),
    "terminal.missing": N_("standard input or output is not a terminal"),
    "terminal.missing.fix": N_("run it in a terminal (or over ssh -t)"),
    "service.none": N_("no unit installed (optional)"),
    "service.none.fix": N_("to start the games at boot: sudo gamelib install-service --user {user}"),
    "service.no_systemd": N_("not checked: {why}"),
    "service.unit": N_("{unit}: {enabled}, {active}{last}"),
    "service.last": N_("; last exit {status} ({result})"),
    "service.failed.fix": N_("journalctl -u {unit} says why; then sudo systemctl restart {unit}"),
    "service.user_failed.fix": N_("journalctl --user -u {unit} says why; then systemctl --user restart {unit}"),
    "service.start.fix": N_("to start the games at boot: sudo systemctl enable --now {unit}"),
    "service.user_start.fix": N_("to start the games at login: systemctl --user enable --now {unit}"),
    "port.free": N_("{kind} {port} is free"),
    "port.used": N_("{kind} {port} is taken: {error}"),
    "port.used.fix": N_("another program (or a launcher's unit started with --web) serves there: stop it, "
                        "or choose another port: --web PORT"),
    "mdns.used.fix": N_("another program holds UDP 5353 for itself (avahi-daemon shares it)"),
    "zeroconf.fix": N_("{command} (for the game between two Pis)"),
    "play.ok": N_("{backend} ({how})"),
    "play.broken": N_("{backend} ({how}) does not work here: see the lines marked above"),
    "play.none": N_("nothing to play on ({how}): {found}"),
    "play.unknown": N_("{backend} ({how}) is not a backend"),
    "play.unknown.fix": N_("use one of: {names}"),
    "how.default": N_("auto-detected"),
    "how.--backend": N_("--backend"),
    "how.env": N_("from ${variable}"),
    "backend.hat": N_("the Sense HAT"),
    "backend.emu": N_("the emulator"),
    "backend.terminal": N_("this terminal"),
}
"""Every word the checks say, in English (marked for the catalogue, shown through :func:`say`); ``{names}``
are filled in with :meth:`str.format`.  A word one English text says of more than one noun is marked with
its context (``NP_("a library", ...)``: each language agrees it with that noun).  The keys are the program's,
never shown."""


def say(key: str, **fields: object) -> str:
    """The words of ``key`` in the language of the moment, with ``fields`` filled in (and the devices' names)."""
    return said(WORDS[key]).format(**{"hat_fb_name": HAT_FB_NAME, "stick_name": STICK_NAME, **fields})


@dataclass(frozen=True)
class Check:
    """One line of the report: a check's name, its status, what was found and, for a failure, the fix."""

    name: str
    label: str
    status: Status
    detail: str
    fix: str = ""
    absent: bool = False
    """A failure that only means "not here" (no HAT, no library): not a fault unless it is needed."""
    needed: bool = False
    """The chosen way to play needs it (set by :func:`verdict`)."""

    def line(self, *, utf8: bool = True) -> str:
        """``✓ LEDs: /dev/fb1 (RPi-Sense FB), writable``; a failure ends with ``; fix: ...`` (what is only
        not needed keeps its fix to the JSON)."""
        mark = MARKS[self.status][0 if utf8 else 1]
        if self.fix and self.status is Status.FAIL:
            return _("{mark} {label}: {detail}; fix: {fix}").format(mark=mark, label=self.label, detail=self.detail,
                                                                     fix=self.fix)
        return _("{mark} {label}: {detail}").format(mark=mark, label=self.label, detail=self.detail)

    def as_json(self) -> Dict[str, object]:
        return {"check": self.name, "label": self.label, "status": self.status.value, "detail": self.detail,
                "fix": self.fix or None, "needed": self.needed}


def _label(name: str, label: Optional[str]) -> str:
    return label if label is not None else say(f"label.{name}") if f"label.{name}" in WORDS else name


def ok(name: str, detail: str, *, label: Optional[str] = None) -> Check:
    """A check that passed (``label``: the line's label, else this module's ``label.NAME``)."""
    return Check(name, _label(name, label), Status.OK, detail)


def fail(name: str, detail: str, fix: str = "", *, absent: bool = False, label: Optional[str] = None) -> Check:
    """A check that failed: ``absent`` if it only means "not here"."""
    return Check(name, _label(name, label), Status.FAIL, detail, fix, absent=absent)


def skip(name: str, detail: str, fix: str = "", *, label: Optional[str] = None) -> Check:
    return Check(name, _label(name, label), Status.SKIP, detail, fix)


# -- the OS boundary ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Access:
    """A device or file as this process may use it."""

    path: str
    allowed: bool
    owner: str
    group: str
    mode: str


@dataclass(frozen=True)
class UnitState:
    """What ``systemctl show`` says of a unit."""

    name: str
    load: str
    enabled: str
    active: str
    sub: str
    result: str
    status: str
    user: bool = False


class System:
    """The machine as the checks see it.  Tests use the real one in a mount namespace of their own (a
    fake ``/sys/class`` and ``/dev``), or override a method."""

    def __init__(self, environ: Optional[Mapping[str, str]] = None) -> None:
        self.environ: Mapping[str, str] = os.environ if environ is None else environ

    # files
    def glob(self, pattern: str) -> List[str]:
        return sorted(glob.glob(pattern))

    def read_name(self, path: str) -> Optional[str]:
        """The first :data:`NAME_BYTES` of a small text file (a name in ``/sys``), stripped; ``None`` if
        it cannot be read."""
        try:
            with open(path, "rb") as f:
                return f.read(NAME_BYTES).decode("utf-8", "replace").strip()
        except OSError:
            return None

    def exists(self, path: str) -> bool:
        return os.path.lexists(path)

    def access(self, path: str, mode: int) -> Access:
        """``path`` as this process may use it with ``mode`` (``os.R_OK | os.W_OK``), by its real ids."""
        info = os.stat(path)
        return Access(path, os.access(path, mode), _user_name(info.st_uid), _group_name(info.st_gid),
                      stat.filemode(info.st_mode)[1:])

    def gamma(self, device: str) -> Optional[OSError]:
        """Ask the framebuffer ``device`` for its gamma table: ``None`` if answered, else the refusal."""
        table = array.array("B", bytes(32))
        try:
            fd = os.open(device, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            return exc
        try:
            fcntl.ioctl(fd, FBIOGET_GAMMA, table)
        except OSError as exc:
            return exc
        finally:
            os.close(fd)
        return None

    # who we are
    def user(self) -> str:
        return _user_name(os.geteuid())

    def groups(self) -> Set[str]:
        """The groups this process has now."""
        return {_group_name(gid) for gid in {os.getegid(), *os.getgroups()}}

    def members(self, group: str) -> Set[str]:
        """The users the group database lists in ``group`` (a login after the change has it)."""
        try:
            entry = grp.getgrnam(group)
        except KeyError:
            return set()
        return set(entry.gr_mem) | {p.pw_name for p in _users_with_gid(entry.gr_gid)}

    # Python
    def python(self) -> Tuple[Tuple[int, int, int], str]:
        return tuple(sys.version_info[:3]), sys.executable  # type: ignore[return-value]

    def module(self, name: str) -> ModuleType:
        """Import ``name`` (any exception: it cannot be used)."""
        return importlib.import_module(name)

    def version(self, distribution: str, module: ModuleType) -> str:
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            return str(getattr(module, "__version__", "?"))

    def system_has(self, module: str) -> Optional[str]:
        """Where the system's Python keeps ``module`` when this Python does not see it (a venv without
        ``--system-site-packages``), else ``None``."""
        if sys.prefix == sys.base_prefix:
            return None
        for folder in ("/usr/lib/python3/dist-packages", f"/usr/local/lib/python3.{sys.version_info[1]}/dist-packages"):
            if os.path.exists(os.path.join(folder, module)):
                return folder
        return None

    def install(self) -> Install:
        """How this program was installed (:mod:`gamelib.install`): what a fix's command is."""
        return install.this()

    # programs
    def which(self, program: str) -> Optional[str]:
        return shutil.which(program, path=self.environ.get("PATH", os.defpath))

    def emulator_pid(self) -> Optional[int]:
        return emulator_running()

    def terminal(self) -> bool:
        return standard_fds() is not None

    def systemctl(self, args: Sequence[str]) -> Tuple[int, str]:
        """Run ``systemctl ARGS`` (127 if it cannot be run); its status and output."""
        try:
            done = subprocess.run(["systemctl", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=30, check=False, errors="replace")
        except (OSError, subprocess.TimeoutExpired) as exc:
            return 127, str(exc)
        return done.returncode, done.stdout + done.stderr

    # the network
    def bind(self, kind: int, port: int) -> Optional[OSError]:
        """Bind (and at once close) a socket of ``kind`` to ``port`` on every address, as the servers do
        (UDP as zeroconf does, sharing the port): ``None`` if it can be, else why not.  Nothing is sent."""
        sock = socket.socket(socket.AF_INET, kind)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if kind == socket.SOCK_DGRAM and hasattr(socket, "SO_REUSEPORT"):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(("", port))
        except OSError as exc:
            return exc
        finally:
            sock.close()
        return None


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def _users_with_gid(gid: int) -> List[pwd.struct_passwd]:
    try:
        return [p for p in pwd.getpwall() if p.pw_gid == gid]
    except OSError:
        return []


# -- the checks -----------------------------------------------------------------------------------


def check_python(system: System) -> Check:
    version, executable = system.python()
    text = ".".join(map(str, version))
    if version < (3, 9):
        return fail("python", say("python.old", version=text, executable=executable), say("python.old.fix"))
    return ok("python", say("python.ok", version=text, executable=executable))


def check_module(system: System, name: str, check: str, distribution: str,
                 fix: Callable[[], str]) -> Tuple[Check, Optional[ModuleType]]:
    """Import ``name``: its version and where it is; not installed (absent), or broken."""
    try:
        module = system.module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name != name and not name.startswith(exc.name + "."):
            return fail(check, say("module.broken", error=exc), fix()), None  # it is there, a dependency is not
        return fail(check, say("module.missing"), fix(), absent=True), None
    except Exception as exc:  # noqa: BLE001 (any import failure is the finding)
        return fail(check, say("module.broken", error=f"{type(exc).__name__}: {exc}"), fix()), None
    where = os.path.dirname(getattr(module, "__file__", None) or "?")
    return ok(check, say("module.ok", version=system.version(distribution, module), where=where)), module


def check_sense_hat(system: System) -> Check:
    return check_module(system, "sense_hat", "sense_hat", "sense-hat", lambda: sense_hat_fix(system))[0]


def sense_hat_fix(system: System) -> str:
    """Raspberry Pi OS's package, which the system's Python sees (and a venv made with
    ``--system-site-packages``); a venv that does not see it is made to (``sense_hat`` needs ``RTIMU``,
    which only the system has)."""
    apt, command = system.install().add_sense_hat()
    if command is None:
        return apt
    if system.system_has("sense_hat"):
        return say("sense_hat.hidden.fix", command=command)
    return say("sense_hat.venv.fix", apt=apt, command=command)


def add_command(system: System, library: install.Library) -> str:
    """The command that adds ``library`` to this install (apt's, pipx's or the venv's pip)."""
    return system.install().add(library) or ""


def find_by_name(system: System, pattern: str, name_file: str, wanted: str) -> Optional[str]:
    """The first ``pattern`` entry (``/sys/class/graphics/fb*``) whose ``name_file`` reads ``wanted``."""
    for entry in system.glob(pattern):
        if system.read_name(os.path.join(entry, name_file)) == wanted:
            return entry
    return None


def _device_check(system: System, check: str, entry: Optional[str], name: str, device_dir: str, mode: int,
                  group: str) -> Check:
    """A device the kernel shows in ``/sys`` at ``entry``: its node exists, and this process may use it."""
    if entry is None:
        return fail(check, say(f"{check}.missing"), say(f"{check}.missing.fix"), absent=True)
    base = os.path.basename(entry)
    device = os.path.join(device_dir, base)
    if not system.exists(device):
        fields = {"fb" if check == "leds" else "event": base}
        return fail(check, say(f"{check}.no_node", name=name, device=device, **fields), say(f"{check}.no_node.fix"))
    access = system.access(device, mode)
    if access.allowed:
        return ok(check, say(f"{check}.ok", device=device, name=name))
    user = system.user()
    return fail(check, say(f"{check}.denied", device=device, name=name, user=user, owner=access.owner,
                           group=access.group, mode=access.mode), group_fix(system, access.group or group, user))


def group_fix(system: System, group: str, user: str) -> str:
    """How ``user`` gets ``group``: added to it, or only a new login if the group database has it already."""
    if user in system.members(group) and group not in system.groups():
        return say("group.relogin.fix", group=group, user=user)
    return say("group.fix", group=group, user=user)


def leds_entry(system: System) -> Optional[str]:
    return find_by_name(system, "/sys/class/graphics/fb*", "name", HAT_FB_NAME)


def check_leds(system: System) -> Check:
    entry = leds_entry(system)
    return _device_check(system, "leds", entry, HAT_FB_NAME, "/dev", os.R_OK | os.W_OK, "video")


def check_stick(system: System) -> Check:
    entry = find_by_name(system, "/sys/class/input/event*", "device/name", STICK_NAME)
    return _device_check(system, "stick", entry, STICK_NAME, "/dev/input", os.R_OK, "input")


def check_driver(system: System, leds: Check) -> Check:
    """Which display driver: the one that answers the gamma ioctls, or one that refuses them."""
    entry = leds_entry(system)
    if entry is None or leds.status is not Status.OK:
        why = say("driver.no_leds") if entry is None else leds.detail
        return skip("driver", say("driver.unchecked", why=why))
    refused = system.gamma(os.path.join("/dev", os.path.basename(entry)))
    if refused is None:
        return ok("driver", say("driver.answered"))
    return ok("driver", say("driver.refused", error=refused.strerror or refused))


def check_i2c(system: System) -> Check:
    if not system.exists(I2C_DEVICE):
        return fail("i2c", say("i2c.missing", device=I2C_DEVICE), say("i2c.missing.fix"), absent=True)
    access = system.access(I2C_DEVICE, os.R_OK | os.W_OK)
    if access.allowed:
        return ok("i2c", say("i2c.ok", device=I2C_DEVICE))
    user = system.user()
    return fail("i2c", say("i2c.denied", device=I2C_DEVICE, user=user, owner=access.owner, group=access.group,
                           mode=access.mode), group_fix(system, access.group, user))


@dataclass(frozen=True)
class Emulator:
    library: bool
    window: Optional[str]
    pid: Optional[int]
    add: str = ""
    """The command that installs the library here."""


def find_emulator(system: System) -> Tuple[Check, Emulator]:
    """The emulator: its library, its window program on the PATH, a running one.  Works if the library is
    there and an emulator runs or its window can be started here (a desktop)."""
    library, _ = check_module(system, "sense_emu", "emulator", "sense-emu", lambda: add_command(system, SENSE_EMU))
    window = system.which("sense_emu_gui")
    pid = system.emulator_pid() if library.status is Status.OK else None
    found = Emulator(library.status is Status.OK, window, pid, add_command(system, SENSE_EMU))
    detail = say("emulator.parts", library=library.detail,
                 window=say("emulator.window.found", path=window) if window else say("emulator.window.missing"),
                 running=say("emulator.running", pid=pid) if pid is not None else say("emulator.stopped"))
    if not found.library:
        return fail("emulator", detail, library.fix, absent=library.absent), found
    if pid is not None or (window and system.environ.get("DISPLAY")):
        return ok("emulator", detail), found
    fix = say("emulator.start.fix") if window else say("emulator.window.fix")
    return fail("emulator", detail, fix, absent=True), found


def check_terminal(system: System) -> Check:
    if system.terminal():
        return ok("terminal", say("terminal.ok"))
    return fail("terminal", say("terminal.missing"), say("terminal.missing.fix"), absent=True)


SHOWN_PROPERTIES = ("LoadState", "UnitFileState", "ActiveState", "SubState", "Result", "ExecMainStatus")


def unit_state(system: System, unit: str, *, user: bool = False) -> Optional[UnitState]:
    """What systemd says of ``unit`` (``None``: systemd cannot be asked)."""
    status, out = system.systemctl([*(["--user"] if user else []), "show", unit,
                                    "--property=" + ",".join(SHOWN_PROPERTIES)])
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    if status != 0 or "LoadState" not in values:
        return None
    return UnitState(unit, values["LoadState"], values.get("UnitFileState", ""), values.get("ActiveState", ""),
                     values.get("SubState", ""), values.get("Result", ""), values.get("ExecMainStatus", ""), user)


def check_service(system: System, units: Sequence[Tuple[str, bool]]) -> List[Check]:
    """One line per unit of ``units`` (name, a user unit?) that is installed; one line if none is."""
    if not system.which("systemctl"):
        return [skip("service", say("service.no_systemd", why=_("no systemctl here")))]
    lines, asked = [], False
    for unit, user in units:
        state = unit_state(system, unit, user=user)
        if state is None:
            continue
        asked = True
        if state.load != "loaded":
            continue
        lines.append(_unit_line(state))
    if not asked:
        return [skip("service", say("service.no_systemd", why=_("systemd does not answer (not booted with it?)")))]
    return lines or [skip("service", say("service.none"), say("service.none.fix", user=system.user()))]


def _unit_line(state: UnitState) -> Check:
    """A unit that runs: ✓; that failed (or keeps restarting): ✗ with its last exit; installed, stopped: –."""
    last = ""
    if state.status and (state.result not in ("", "success") or state.status not in ("0", "")):
        last = say("service.last", status=state.status, result=state.result or "?")
    active = f"{state.active} ({state.sub})" if state.sub and state.sub != state.active else state.active
    detail = say("service.unit", unit=state.name, enabled=state.enabled or "static", active=active, last=last)
    if state.active == "failed" or (state.result not in ("", "success") and state.active != "active"):
        key = "service.user_failed.fix" if state.user else "service.failed.fix"
        return fail("service", detail, say(key, unit=state.name))
    if state.active == "active":
        return ok("service", detail)
    key = "service.user_start.fix" if state.user else "service.start.fix"
    return skip("service", detail, say(key, unit=state.name))


def check_port(system: System, name: str, kind: int, port: int, fix_key: str) -> Check:
    words = "TCP" if kind == socket.SOCK_STREAM else "UDP"
    refused = system.bind(kind, port)
    if refused is None:
        return ok(name, say("port.free", kind=words, port=port))
    return fail(name, say("port.used", kind=words, port=port, error=refused.strerror or refused), say(fix_key))


def check_zeroconf(system: System) -> Check:
    return check_module(system, "zeroconf", "zeroconf", "zeroconf",
                        lambda: say("zeroconf.fix", command=add_command(system, ZEROCONF)))[0]


# -- the verdict ----------------------------------------------------------------------------------


LIBRARY_CHECKS: Mapping[str, str] = {"sense_hat": "sense_hat", "sense_emu": "emulator"}
"""The checks above that look at a library a backend needs (another library gets a line of its own)."""
DEVICE_CHECKS: Mapping[str, str] = {HAT_FB_NAME: "leds", STICK_NAME: "stick"}
"""The checks above that look at a device a backend needs (another device gets a line of its own)."""
GROUP_CHECKS: Mapping[str, str] = {"video": "leds", "input": "stick"}
"""The checks above that say whether this user has a group a backend needs (the device's)."""
def needed_checks(needs: Needs) -> FrozenSet[str]:
    """The checks that say whether ``needs`` is met: those above, else lines of their own
    (``library.NAME``, ``device.PATH``, ``group.NAME``: :func:`check_needs`)."""
    names = {"python"}
    names.update(LIBRARY_CHECKS.get(module, f"library.{module}") for module in needs.libraries)
    names.update(DEVICE_CHECKS.get(device, f"device.{device}") for device in needs.devices)
    names.update(GROUP_CHECKS.get(group, f"group.{group}") for group in needs.groups)
    if needs.terminal:
        names.add("terminal")
    return frozenset(names)


@dataclass(frozen=True)
class Way:
    """A registered backend as the doctor sees it: the checks it needs, and its probe if the checks above
    do not make it (another package's backend; ``None``: none, or made by :data:`PROBED`)."""

    name: str
    needs: FrozenSet[str]
    probe: Optional[Probe] = None
    wants: Needs = Needs()
    """What the backend said it needs (:attr:`needs` names the checks that say whether it is met)."""


def ways(registrations: Sequence[Registration]) -> Tuple[Way, ...]:
    """Each registered backend's needs, and the probe of those :data:`PROBED` does not make."""
    return tuple(Way(r.name, needed_checks(r.needs()) | ({f"backend.{r.name}"} if r.name not in PROBED else set()),
                     None if r.name in PROBED else r.probe(), r.needs())
                 for r in registrations)


def check_needs(system: System, found: Sequence[Way]) -> List[Check]:
    """A line for each library, device and group a backend needs that no check above looks at, and one for
    each probe asked (another package's backend: what it found)."""
    lines: List[Check] = []
    done: Set[str] = set()
    def fresh(names: Sequence[str], checked: Mapping[str, str], kind: str) -> List[Tuple[str, str]]:
        """``(check, name)`` of the names no check above looks at and no line here has said yet."""
        new = [(f"{kind}.{what}", what) for what in sorted(set(names))
               if what not in checked and f"{kind}.{what}" not in done]
        done.update(check for check, _what in new)
        return new

    for way in found:
        for name, device in fresh(way.wants.devices, DEVICE_CHECKS, "device"):
            lines.append(check_device(system, name, device, way.name))
        for name, group in fresh(way.wants.groups, GROUP_CHECKS, "group"):
            user = system.user()
            label = say("label.group", group=group)
            lines.append(ok(name, say("group.ok", user=user), label=label) if group in system.groups() else
                         fail(name, say("group.missing", user=user), group_fix(system, group, user), label=label))
        for name, module in fresh(way.wants.libraries, LIBRARY_CHECKS, "library"):
            fix = say("library.fix", module=module, backend=way.name)
            check, _module = check_module(system, module, name, module, fix.__str__)
            lines.append(replace(check, label=say("label.library", module=module)))
        if way.probe is not None:
            label = say("label.backend", backend=way.name)
            lines.append(ok(f"backend.{way.name}", way.probe.why, label=label) if way.probe.found is not Found.ABSENT
                         else fail(f"backend.{way.name}", say("backend.absent", why=way.probe.why), absent=True,
                                   label=label))
    return lines


def check_device(system: System, name: str, device: str, backend: str) -> Check:
    """A device file another package's backend needs: there, and usable (read and written) by this user."""
    label = say("label.device", device=device)
    if not system.exists(device):
        return fail(name, say("device.missing", device=device), say("device.missing.fix", backend=backend),
                    absent=True, label=label)
    access = system.access(device, os.R_OK | os.W_OK)
    if access.allowed:
        return ok(name, say("device.ok", device=device), label=label)
    user = system.user()
    return fail(name, say("device.denied", device=device, user=user, owner=access.owner, group=access.group,
                          mode=access.mode), group_fix(system, access.group, user), label=label)


@dataclass(frozen=True)
class Choice:
    """The way to play asked for and where that came from (``--backend``, a variable, the default)."""

    asked: str
    source: str = "default"
    registered: Tuple[Way, ...] = ()
    """Every registered backend (:func:`ways`), in the registry's order."""

    def how(self) -> str:
        if self.source == "default":
            return say("how.default")
        if self.source == "--backend":
            return say("how.--backend")
        return say("how.env", variable=self.source)


@dataclass
class Report:
    """The checks' lines, the way to play chosen (``None``: none works) and whether it works."""

    checks: List[Check]
    choice: Choice
    chosen: Optional[str]
    works: bool = field(default=False)

    def lines(self, *, utf8: bool = True) -> List[str]:
        return [check.line(utf8=utf8) for check in self.checks]

    def as_json(self) -> Dict[str, object]:
        return {"works": self.works, "backend": {"asked": self.choice.asked, "from": self.choice.source,
                                                  "chosen": self.chosen},
                "checks": [check.as_json() for check in self.checks]}


def chosen_backend(choice: Choice, found: Mapping[str, Check], emulator: Emulator) -> Optional[str]:
    """The backend the game would open: the one asked for, or ``auto``'s choice from the probes: those
    :data:`PROBED` makes from what was found, the others' own."""
    if choice.asked != AUTO:
        return choice.asked
    probes = [(way.name, PROBED[way.name](found, emulator) if way.name in PROBED else way.probe)
              for way in choice.registered]
    chosen = auto_choice((name, probe) for name, probe in probes if probe is not None)
    return None if chosen is None else chosen[0]


def _hat_probe(found: Mapping[str, Check], emulator: Emulator) -> Probe:
    return Probe(Found.HERE if leds_entry_found(found) else Found.ABSENT, found["leds"].detail)


def _emu_probe(found: Mapping[str, Check], emulator: Emulator) -> Probe:
    startable = emulator.library and bool(emulator.window) and found["emulator"].status is Status.OK
    return Probe(Found.HERE if emulator.pid is not None else Found.STARTED if startable else Found.ABSENT,
                 found["emulator"].detail)


def _terminal_probe(found: Mapping[str, Check], emulator: Emulator) -> Probe:
    return Probe(Found.HERE if found["terminal"].status is Status.OK else Found.ABSENT, found["terminal"].detail)


PROBED: Mapping[str, Callable[[Mapping[str, Check], Emulator], Probe]] = {
    "hat": _hat_probe, "emu": _emu_probe, "terminal": _terminal_probe}
"""The backends whose probe the checks above make (the HAT, the emulator, the terminal: from what was found
in this :class:`System`); another backend's probe is asked (its own line)."""


def leds_entry_found(found: Mapping[str, Check]) -> bool:
    """The kernel shows the HAT's framebuffer (whether or not this user may write it): ``auto`` takes the HAT."""
    leds = found["leds"]
    return not (leds.status is Status.FAIL and leds.absent)


def backend_name(chosen: str) -> str:
    """``the Sense HAT``, ``this terminal``...; another backend by its name."""
    return say(f"backend.{chosen}") if f"backend.{chosen}" in WORDS else chosen


def verdict(checks: List[Check], choice: Choice, emulator: Emulator) -> Report:
    """Mark what the chosen way to play needs, turn what is only absent and not needed into ``SKIP`` (and
    the ``sense_hat`` library where there is no HAT, working or not: saying so), and add the last line:
    the way to play, and whether it works."""
    found = {check.name: check for check in checks}
    chosen = chosen_backend(choice, found, emulator)
    needs = next((way.needs for way in choice.registered if way.name == chosen), frozenset())
    hat_here = leds_entry_found(found)
    marked = []
    for check in checks:
        needed = check.name in needs
        if check.status is Status.FAIL and not needed:
            if check.name == "sense_hat":
                if not hat_here:   # a HAT that is here needs it, whatever this way to play
                    check = replace(check, status=Status.SKIP, detail=(
                        say("sense_hat.unneeded", detail=check.detail, backend=backend_name(chosen)) if chosen
                        else say("sense_hat.unneeded.none", detail=check.detail)))
            elif check.absent:
                check = replace(check, status=Status.SKIP)
        marked.append(replace(check, needed=needed))
    if chosen is None:
        emu = found.get("emulator")
        nothing, fix = nothing_to_play_on(bool(emu and emulator.library), add_emulator=emulator.add)
        line = fail("play", say("play.none", how=choice.how(), found=nothing), fix)
    elif all(way.name != chosen for way in choice.registered):
        line = fail("play", say("play.unknown", backend=chosen, how=choice.how()),
                    say("play.unknown.fix", names=", ".join(way.name for way in choice.registered)))
    else:
        name = backend_name(chosen)
        broken = [check for check in marked if check.needed and check.status is not Status.OK]
        line = (fail("play", say("play.broken", backend=name, how=choice.how())) if broken
                else ok("play", say("play.ok", backend=name, how=choice.how())))
    report = Report(marked + [replace(line, needed=True)], choice, chosen)
    report.works = line.status is Status.OK
    return report
