"""A Debian machine booted under ``systemd-nspawn``, with a fake Sense HAT, for ``tests/gamelib/launcher/test_boot.py``.

* :func:`rootfs_tree`: Debian 12 made by ``mmdebstrap`` (systemd, Python, and
  Debian's numpy and Pillow, which ``sense_hat`` imports), kept under
  :data:`CACHE_DIR` for :data:`CACHE_DAYS` days; a missing or stale tree is built
  again, so nothing depends on the cache.  It is never written to: each run boots
  an :func:`overlay` of it, whose changes live in the run's temporary directory.
* :class:`FakeHat`: on the host, what the kernel shows of a Sense HAT, bound into
  the container: ``/sys/class/graphics/fb1/name`` reading ``RPi-Sense FB`` (and
  an HDMI ``fb0`` before it), ``/sys/class/input/event0/device/name`` reading the
  joystick's name, ``/dev/fb1`` (a ``root:video 0660`` file of 64 RGB565 pixels),
  ``/dev/input/event0`` (a ``root:input 0660`` FIFO the test writes
  ``struct input_event`` records to) and ``/dev/i2c-1``.  The host keeps the FIFO
  open for writing, so the launcher's open never blocks and its reads never see
  end-of-file.  ``boot_site/`` holds what cannot be a file: ``RTIMU`` (a stub of
  the IMU's C extension) and the ioctl answers a FIFO and a file cannot give.
* :class:`Machine`: boots the tree, runs commands inside it (``nsenter`` into the
  container's namespaces, as root or as a user), reads files from it, and powers
  it off, always within a bounded wait.  ``--register=no --keep-unit`` because
  there may be no systemd on the host (CI machines and containers have none).
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import signal
import struct
import subprocess
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, TypeVar

CACHE_DIR = Path(os.environ.get("C4_BOOT_CACHE", "/var/cache/sensehat-c4"))
CACHE_DAYS = 7
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
PACKAGES = ("systemd", "systemd-sysv", "dbus", "libpam-systemd", "python3-venv", "python3-numpy", "python3-pil")
TOOLS = ("mmdebstrap", "systemd-nspawn", "nsenter")
SITE_DIR = Path(__file__).with_name("boot_site")
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

FB_NAME = "RPi-Sense FB"
STICK_NAME = "Raspberry Pi Sense HAT Joystick"
FB_BYTES = 128
EVENT = struct.Struct("llHHI")
"""``struct input_event``: time (seconds, microseconds), type, code, value."""
EV_SYN, EV_KEY = 0, 1
KEYS = {"up": 103, "down": 108, "left": 105, "right": 106, "middle": 28}
VALUES = {"released": 0, "pressed": 1, "held": 2}

T = TypeVar("T")


def what_is_missing() -> List[str]:
    """Why the boot test cannot run here (empty if it can)."""
    missing = [] if os.geteuid() == 0 else ["root"]
    missing += [tool for tool in TOOLS if shutil.which(tool) is None]
    return missing


def wait_for(what: str, probe: Callable[[], T], timeout: float, *, interval: float = 0.1,
             fail: Optional[Callable[[], Optional[str]]] = None, fail_every: float = 1.0) -> T:
    """Poll ``probe`` until it returns something true; ``AssertionError`` after ``timeout`` seconds.

    ``fail`` is asked every ``fail_every`` seconds and ends the wait early when it returns a reason."""
    start = time.monotonic()
    deadline, next_fail = start + timeout, start
    while True:
        value = probe()
        if value:
            return value
        now = time.monotonic()
        if fail is not None and now >= next_fail:
            next_fail = now + fail_every
            reason = fail()
            if reason:
                raise AssertionError(f"gave up waiting for {what}: {reason}")
        if now > deadline:
            raise AssertionError(f"gave up waiting for {what} after {timeout:.0f} s (last: {value!r})")
        time.sleep(interval)


# -- the root file system ------------------------------------------------------------------------

def _cache_key() -> str:
    recipe = "\n".join([SUITE, MIRROR, "apt", *PACKAGES])
    return hashlib.sha256(recipe.encode()).hexdigest()[:12]


def _fresh(tree: Path) -> bool:
    return (tree / "usr" / "bin" / "python3").exists() and time.time() - tree.stat().st_mtime < CACHE_DAYS * 86400


def _build(tree: Path) -> None:
    """Make the Debian tree at ``tree`` (built aside, then renamed: a tree that exists is whole)."""
    partial = tree.with_name(f"partial-{os.getpid()}-{tree.name}")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        subprocess.run(["mmdebstrap", "--quiet", "--variant=apt", "--include=" + ",".join(PACKAGES),
                        SUITE, str(partial), MIRROR], check=True, stdin=subprocess.DEVNULL)
        if tree.exists():
            if _fresh(tree):
                return  # another run built it meanwhile
            stale = tree.with_name(f"stale-{os.getpid()}-{tree.name}")
            os.rename(tree, stale)
            shutil.rmtree(stale, ignore_errors=True)
        os.rename(partial, tree)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def rootfs_tree(work: Path) -> Path:
    """The Debian tree, never written to: the cached one if it is fresh, else a new one (cached if possible)."""
    cached = CACHE_DIR / f"rootfs-{SUITE}-{_cache_key()}"
    try:
        if _fresh(cached):
            return cached
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        _build(cached)
        for old in CACHE_DIR.glob(f"rootfs-{SUITE}-*"):  # trees of an older recipe, unused for a day
            if old != cached and time.time() - old.stat().st_mtime > 86400:
                shutil.rmtree(old, ignore_errors=True)
        return cached
    except (OSError, subprocess.CalledProcessError):
        fresh = work / "rootfs"
        _build(fresh)
        return fresh


def overlay(lower: Path, work: Path) -> Path:
    """Mount a writable overlay of ``lower`` (changes go to ``work/upper``); return its mount point."""
    root, upper, scratch = work / "root", work / "upper", work / "overlay-work"
    for directory in (root, upper, scratch):
        directory.mkdir()
    subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                    f"lowerdir={lower},upperdir={upper},workdir={scratch}", str(root)], check=True)
    return root


def unmount(root: Path) -> None:
    subprocess.run(["umount", "--lazy", str(root)], check=False)


def group_id(root: Path, name: str) -> int:
    """The gid of group ``name`` in the tree at ``root`` (the container shares the host's ids)."""
    for line in (root / "etc" / "group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return int(fields[2])
    raise KeyError(f"no group {name!r} in {root}/etc/group")


def chroot(root: Path, script: str) -> None:
    """Run a shell script in the (not yet booted) tree."""
    subprocess.run(["chroot", str(root), "/bin/sh", "-ec", script], check=True,
                   env={"PATH": PATH, "LANG": "C.UTF-8"})


# -- the fake Sense HAT ---------------------------------------------------------------------------

class FakeHat:
    """The Sense HAT's kernel interfaces as files under ``directory`` on the host."""

    def __init__(self, directory: Path, gids: Dict[str, int]) -> None:
        self.directory = directory
        classes = directory / "sys-class"
        for fb, name in (("fb0", "vc4drmfb"), ("fb1", FB_NAME)):  # the HDMI framebuffer comes first on a Pi
            (classes / "graphics" / fb).mkdir(parents=True)
            (classes / "graphics" / fb / "name").write_text(name + "\n")
        (classes / "input" / "input0").mkdir(parents=True)
        (classes / "input" / "input0" / "name").write_text(STICK_NAME + "\n")
        (classes / "input" / "event0").mkdir()
        (classes / "input" / "event0" / "device").symlink_to("../input0")  # as sysfs links them
        self.fb = directory / "fb1"
        self.fb.write_bytes(bytes(FB_BYTES))
        self.stick = directory / "event0"
        os.mkfifo(self.stick)
        self.i2c = directory / "i2c-1"
        self.i2c.touch()
        for path, group in ((self.fb, "video"), (self.stick, "input"), (self.i2c, "i2c")):
            os.chown(path, 0, gids[group])
            os.chmod(path, 0o660)
        self._writer = os.open(self.stick, os.O_RDWR | os.O_NONBLOCK)  # RDWR: never blocks, keeps a writer

    def nspawn_args(self) -> List[str]:
        return [f"--bind-ro={self.directory / 'sys-class'}:/sys/class",
                f"--bind={self.fb}:/dev/fb1",
                f"--bind={self.stick}:/dev/input/event0",
                f"--bind={self.i2c}:/dev/i2c-1"]

    def frame(self) -> bytes:
        """The LEDs: the framebuffer's 128 bytes."""
        return self.fb.read_bytes()[:FB_BYTES]

    def event(self, direction: str, action: str) -> None:
        """One joystick event, then a sync report, as the kernel writes them."""
        now = time.time()
        sec, usec = int(now), int(now % 1 * 1e6)
        record = EVENT.pack(sec, usec, EV_KEY, KEYS[direction], VALUES[action]) + EVENT.pack(sec, usec, EV_SYN, 0, 0)
        os.write(self._writer, record)

    def tap(self, direction: str) -> None:
        self.event(direction, "pressed")
        self.event(direction, "released")

    def close(self) -> None:
        os.close(self._writer)


# -- the machine ----------------------------------------------------------------------------------

class Machine:
    """The tree at ``root`` booted with systemd as PID 1, the fake HAT bound in."""

    BOOT_TIMEOUT = 120.0
    STOP_TIMEOUT = 60.0

    def __init__(self, root: Path, hat: FakeHat, log: Path, name: str = f"c4boot-{os.getpid()}") -> None:
        self.root, self.hat, self.log, self.name = root, hat, log, name
        self._nspawn: Optional[subprocess.Popen] = None
        self.leader: Optional[int] = None
        self.boots = 0
        self.mark = ""
        """A journal cursor: where the current test began (see ``journal_cursor``)."""

    # -- life cycle

    def boot(self) -> None:
        """Start the container and wait until systemd says the boot is over."""
        self.boots += 1
        with open(self.log, "a") as log:
            log.write(f"==== boot {self.boots}\n")
            log.flush()
            self._nspawn = subprocess.Popen(
                ["systemd-nspawn", "--quiet", "--boot", f"--directory={self.root}", f"--machine={self.name}",
                 "--register=no", "--keep-unit", "--console=passive",
                 *self.hat.nspawn_args()],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        self.leader = wait_for("the container's init", self._init_pid, self.BOOT_TIMEOUT, fail=self._exited)
        wait_for("the boot to finish", self._booted, self.BOOT_TIMEOUT, interval=0.25, fail=self._exited)

    def _exited(self) -> Optional[str]:
        if self._nspawn is not None and self._nspawn.poll() is not None:
            return f"systemd-nspawn exited with status {self._nspawn.returncode}; see {self.log}"
        return None

    def _init_pid(self) -> Optional[int]:
        assert self._nspawn is not None
        for children in Path(f"/proc/{self._nspawn.pid}/task").glob("*/children"):
            for pid in children.read_text().split():
                try:
                    if Path(f"/proc/{pid}/comm").read_text().strip() == "systemd":
                        return int(pid)
                except OSError:
                    continue
        return None

    def _booted(self) -> bool:
        state = self.run(["systemctl", "is-system-running"], check=False).stdout.strip()
        return state in ("running", "degraded")

    def poweroff(self) -> None:
        """Shut the container down cleanly (SIGKILL after :attr:`STOP_TIMEOUT`); idempotent."""
        process, self._nspawn = self._nspawn, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # nspawn asks the container's systemd to power off
            try:
                process.wait(self.STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                if self.leader is not None:
                    _kill(self.leader)
                process.kill()
                process.wait(self.STOP_TIMEOUT)
        self.leader = None

    # -- inside

    def run(self, command: Sequence[str], *, user: Optional[str] = None, check: bool = True,
            env: Optional[Dict[str, str]] = None, timeout: float = 300.0) -> subprocess.CompletedProcess:
        """Run ``command`` in the container (as root, or as ``user`` with their home as ``HOME``)."""
        assert self.leader is not None, "the machine is not running"
        home = "/root" if user is None else f"/home/{user}"
        environment = {"PATH": PATH, "LANG": "C.UTF-8", "HOME": home, **(env or {})}
        prefix = ["nsenter", f"--target={self.leader}", "--all", "--", "env", "-i",
                  *(f"{k}={v}" for k, v in environment.items())]
        if user is not None:
            prefix += ["runuser", "-u", user, "--"]
        result = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=timeout,
                                stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(command)} exited {result.returncode} in the container:\n"
                                 f"{result.stdout}{result.stderr}")
        return result

    def read_file(self, path: str) -> bytes:
        """A file as the container sees it (through its mounts, not the tree on the host)."""
        assert self.leader is not None, "the machine is not running"
        result = subprocess.run(["nsenter", f"--target={self.leader}", "--all", "--", "cat", path],
                                capture_output=True, timeout=60)
        if result.returncode != 0:
            raise FileNotFoundError(f"{path} in the container: {result.stderr.decode().strip()}")
        return result.stdout

    def write_file(self, path: str, data: bytes, *, owner: Optional[str] = None) -> None:
        """Write ``data`` to ``path`` in the container (owned by ``owner`` if given)."""
        assert self.leader is not None, "the machine is not running"
        result = subprocess.run(["nsenter", f"--target={self.leader}", "--all", "--", "sh", "-c", 'cat > "$1"',
                                 "sh", path], input=data, capture_output=True, timeout=60)
        if result.returncode != 0:
            raise AssertionError(f"cannot write {path} in the container: {result.stderr.decode().strip()}")
        if owner is not None:
            self.run(["chown", f"{owner}:{owner}", path])

    def exists(self, path: str) -> bool:
        return self.run(["test", "-e", path], check=False).returncode == 0

    def journal(self, *matches: str) -> str:
        """The messages of this boot that fit the ``journalctl`` matches or options, one per line."""
        return self.run(["journalctl", "--no-pager", "--output=cat", "--boot", *matches]).stdout

    def journal_cursor(self) -> str:
        """Where the journal ends now: ``journal(f"--after-cursor={cursor}")`` reads what comes after."""
        out = self.run(["journalctl", "--lines=0", "--show-cursor", "--no-pager"]).stdout
        return out.strip().rsplit("-- cursor: ", 1)[1]

    def unit_property(self, unit: str, name: str) -> str:
        return self.run(["systemctl", "show", f"--property={name}", "--value", unit]).stdout.strip()


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the test process dies, so a killed run powers the container off."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass

