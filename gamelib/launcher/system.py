"""Running the system's own commands (``systemctl``...) from the launcher and the installer."""
from __future__ import annotations

import logging
import subprocess
from typing import Callable, Sequence

from ..i18n import _

log = logging.getLogger("gamelib")

CommandRunner = Callable[[Sequence[str]], int]
"""Runs a command (a list of arguments, no shell) and returns its exit status; tests inject their own."""


def run_command(command: Sequence[str]) -> int:
    """Run ``command`` with our stdout/stderr, no stdin; its exit status, or 127 if it cannot be run."""
    try:
        return subprocess.run(list(command), stdin=subprocess.DEVNULL, timeout=120, check=False).returncode
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.error(_("cannot run {command}: {error}").format(command=" ".join(command), error=exc))
        return 127
