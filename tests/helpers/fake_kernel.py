"""A Sense HAT as the kernel shows it, in a mount namespace of a forked child: for ``test_doctor``.

:func:`in_fake_kernel` forks; the child makes a private mount namespace (``unshare(CLONE_NEWNS)``,
everything below ``/`` private, so nothing reaches the machine) and mounts over it:

* ``/sys/class``: a tmpfs with ``graphics/fb0/name`` (an HDMI framebuffer, as on a Pi) and, if
  :attr:`Kernel.leds`, ``graphics/fb1/name`` reading ``RPi-Sense FB``; if :attr:`Kernel.stick`,
  ``input/event0/device/name`` reading the joystick's name (where ``sense_hat`` looks);
* ``/dev``: a tmpfs with ``null``, ``zero``, ``full``, ``random``, ``urandom``, and the HAT's nodes
  as the Pi has them: ``fb1`` (a regular file of 160 bytes, ``root:video 0660``: writes land, the
  gamma ioctl is refused for real, ``ENOTTY``), ``input/event0`` (a FIFO, ``root:input 0660``) and
  ``i2c-1`` (``root:i2c 0660``);
* ``/etc/group``: the machine's, with ``input`` and ``i2c`` added where missing (and ``members``
  listed in groups, as ``usermod -aG`` leaves them before the next login);
* ``/tmp``: a tmpfs, where :attr:`Kernel.database` (a file of the test's) is copied as
  ``/tmp/c4/games.db``, owned by the user.

Then it drops root for :data:`~as_nobody.NOBODY` with the supplementary ``groups`` asked for and
runs ``action()``; what it returned and printed come back through a pipe, as in ``as_nobody``.
Modules must be imported before the fork (the standard library may lie where ``nobody`` cannot
read): :func:`in_fake_kernel` takes ``preload``, called in the parent first.
"""
from __future__ import annotations

import ctypes
import grp
import io
import os
import pickle
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from as_nobody import NOBODY

FB_NAME = "RPi-Sense FB"
STICK_NAME = "Raspberry Pi Sense HAT Joystick"
CLONE_NEWNS = 0x00020000
EXTRA_GROUPS = {"input": 61990, "i2c": 61991}
"""Groups a Pi has and this machine may not: added to the namespace's ``/etc/group`` with these ids."""
DATABASE = "/tmp/c4/games.db"
NODES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}


@dataclass(frozen=True)
class Kernel:
    """What the fake kernel shows."""

    leds: bool = True
    stick: bool = True
    i2c: bool = True
    leds_node: bool = True
    """``/dev/fb1`` exists (else only ``/sys`` shows the framebuffer)."""
    members: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    """Users the group database lists in a group (``usermod -aG`` done, no new login yet)."""
    database: Optional[Path] = None


def usable() -> Optional[str]:
    """Why the fake kernel cannot be made here (``None``: it can)."""
    if os.geteuid() != 0:
        return "needs root (a mount namespace, device nodes, another user)"
    if shutil.which("mount") is None:
        return "needs mount"
    return None


def _run(*command: str) -> None:
    subprocess.run(list(command), check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def _group_file(kernel: Kernel) -> str:
    lines = []
    names = set()
    with open("/etc/group") as f:
        for line in f.read().splitlines():
            parts = line.split(":")
            if len(parts) == 4:
                names.add(parts[0])
                members = [m for m in parts[3].split(",") if m] + list(kernel.members.get(parts[0], ()))
                parts[3] = ",".join(members)
                line = ":".join(parts)
            lines.append(line)
    for name, gid in EXTRA_GROUPS.items():
        if name not in names:
            lines.append(f"{name}:x:{gid}:{','.join(kernel.members.get(name, ()))}")
    return "\n".join(lines) + "\n"


def _build(kernel: Kernel, scratch: str) -> None:
    """In the child, as root: the namespace and its mounts."""
    database = (Path(scratch) / "games.db").read_bytes() if kernel.database is not None else b""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    _run("mount", "--make-rprivate", "/")
    # the group database first (the tmpfs over /dev holds its copy)
    _run("mount", "-t", "tmpfs", "-o", "mode=0755", "c4-dev", "/dev")
    for name, (major, minor) in NODES.items():  # os.mknod: the mknod program would want /dev/null
        os.mknod(f"/dev/{name}", stat.S_IFCHR | 0o666, os.makedev(major, minor))
        os.chmod(f"/dev/{name}", 0o666)
    with open("/dev/.group", "w") as f:
        f.write(_group_file(kernel))
    _run("mount", "--bind", "/dev/.group", "/etc/group")
    gid = {name: grp.getgrnam(name).gr_gid for name in ("video", "input", "i2c")}
    # /sys/class
    _run("mount", "-t", "tmpfs", "-o", "mode=0755", "c4-sys", "/sys/class")
    graphics = Path("/sys/class/graphics")
    for fb, name, shown in (("fb0", "vc4drmfb", True), ("fb1", FB_NAME, kernel.leds)):
        if shown:
            (graphics / fb).mkdir(parents=True)
            (graphics / fb / "name").write_text(name + "\n")
    if kernel.stick:
        (Path("/sys/class/input/event0/device")).mkdir(parents=True)
        Path("/sys/class/input/event0/device/name").write_text(STICK_NAME + "\n")
    # the device nodes
    nodes = []
    if kernel.leds and kernel.leds_node:
        Path("/dev/fb1").write_bytes(bytes(160))
        nodes.append(("/dev/fb1", "video"))
    if kernel.stick:
        os.mkdir("/dev/input")
        os.mkfifo("/dev/input/event0")
        nodes.append(("/dev/input/event0", "input"))
    if kernel.i2c:
        Path("/dev/i2c-1").touch()
        nodes.append(("/dev/i2c-1", "i2c"))
    for path, group in nodes:
        os.chown(path, 0, gid[group])
        os.chmod(path, 0o660)
    # a /tmp of its own, with the test's database
    # (a checkout under /tmp, the tests' own files, stays where it was: kept aside by a bind mount)
    checkout = Path(__file__).resolve().parents[2]
    kept = Path("/run/c4-checkout") if Path("/tmp") in checkout.parents else None
    if kept is not None:
        kept.mkdir(parents=True, exist_ok=True)
        _run("mount", "--bind", str(checkout), str(kept))
    _run("mount", "-t", "tmpfs", "-o", "mode=1777", "c4-tmp", "/tmp")
    if kept is not None:
        checkout.mkdir(parents=True)
        _run("mount", "--bind", str(kept), str(checkout))
    if kernel.database is not None:
        os.mkdir("/tmp/c4", 0o755)
        Path(DATABASE).write_bytes(database)
        os.chown("/tmp/c4", NOBODY, NOBODY)
        os.chown(DATABASE, NOBODY, NOBODY)


def in_fake_kernel(kernel: Kernel, action: Callable[[], Any], *, groups: Sequence[str] = ("video", "input"),
                   preload: Callable[[], Any] = lambda: None, scratch: Optional[Path] = None,
                   user: Optional[int] = NOBODY) -> Tuple[Any, str, str]:
    """``action()`` in a forked child seeing ``kernel``, running as ``user`` (``None``: root) with ``groups``:
    ``(what it returned, or its SystemExit's code, or "ExceptionType: message"; out; err)``."""
    preload()
    import encodings.unicode_escape  # noqa: F401 (gamelib.app.one_line's codec)

    if kernel.database is not None:
        assert scratch is not None, "a database needs a scratch directory"
        shutil.copyfile(kernel.database, scratch / "games.db")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            os.close(read)
            out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)
            err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)
            try:
                _build(kernel, str(scratch))
                ids = [grp.getgrnam(name).gr_gid for name in groups]
                if user is not None:
                    os.setgroups(ids)
                    os.setgid(NOBODY)
                    os.setuid(user)
                sys.stdout, sys.stderr = out, err
                result = action()
            except SystemExit as exit_:
                result = exit_.code
            except BaseException as exc:  # noqa: BLE001 (reported to the parent)
                result = f"{type(exc).__name__}: {exc}"
            said = [stream.buffer.getvalue().decode("utf-8", "replace") for stream in (out, err)]  # type: ignore[attr-defined]
            os.write(write, pickle.dumps((result, *said)))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)
