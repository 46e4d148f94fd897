"""Which process plays a match: :class:`Owner`, kept in the match's row, and whether it is still running."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

def _pid_alive(pid: object) -> bool:
    if type(pid) is not int or not 0 < pid < 2 ** 31:  # a damaged value: kill(-1, 0) would be "alive"
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, as another user
        return True
    return True


def _boot_id() -> str:
    """The kernel's id of this boot (Linux; ``""`` elsewhere)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _start_ticks(pid: int) -> Optional[int]:
    """When process ``pid`` started, in clock ticks after boot (``/proc/PID/stat``'s 22nd field), or
    ``None`` where that cannot be read."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


@dataclass(frozen=True)
class Owner:
    """The process playing a match, kept in its row (``owner``) as ``BOOT PID START``.

    A pid alone cannot say whether the process is gone: after a power cut the next boot
    gives the same numbers out again (the launcher's service often gets the very pid it had),
    so the boot's id and the process's start time go with it.
    """

    boot: str
    pid: int
    start: Optional[int]

    @classmethod
    def this(cls) -> "Owner":
        pid = os.getpid()
        return cls(_boot_id(), pid, _start_ticks(pid))

    def __str__(self) -> str:
        return f"{self.boot or '-'} {self.pid} {'-' if self.start is None else self.start}"

    @classmethod
    def parse(cls, text: object) -> Optional["Owner"]:
        """The owner a row keeps, or ``None`` if it is not one (a damaged value)."""
        parts = text.split(" ") if isinstance(text, str) else []
        if len(parts) != 3 or not parts[1].isdigit() or not (parts[2] == "-" or parts[2].isdigit()):
            return None
        return cls("" if parts[0] == "-" else parts[0], int(parts[1]), None if parts[2] == "-" else int(parts[2]))

    def alive(self) -> bool:
        """Still running: the same boot, the pid there, started when it did (where that can be read)."""
        if self.boot != _boot_id() or not _pid_alive(self.pid):
            return False
        started = _start_ticks(self.pid)
        return self.start is None or started is None or started == self.start

    @classmethod
    def alive_text(cls, text: object) -> bool:
        """:meth:`alive` for a row's ``owner``; one that is not an owner (damaged, none) is gone."""
        owner = cls.parse(text)
        return owner is not None and owner.alive()
