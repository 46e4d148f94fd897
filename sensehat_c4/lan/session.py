"""The guest's session (the host, its token) kept across restarts: :class:`SessionFile`."""
from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from gamelib.files import atomic_write, state_home
from gamelib.players import check_name

from ..i18n import _

log = logging.getLogger("sensehat_c4")


@dataclass(frozen=True)
class Saved:
    host: str
    port: int
    token: str
    host_name: str


class SessionFile:
    """The guest's session (the host, its token) kept in ``$XDG_STATE_HOME/sensehat-c4/lan-guest.json``,
    good for ``seconds`` after it was written: a guest restarted within that comes back without asking."""

    def __init__(self, path: Optional[Path] = None, *, seconds: float = 95.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path or state_home() / "sensehat-c4" / "lan-guest.json"
        self.seconds = seconds
        self.clock = clock

    def load(self) -> Optional[Saved]:
        try:
            with open(self.path, "rb") as file:
                data = json.loads(file.read(4096).decode("utf-8"))
            saved = Saved(str(data["host"]), int(data["port"]), str(data["token"]), str(data["host_name"]))
            if not 0 <= self.clock() - float(data["at"]) <= self.seconds or not 0 < saved.port < 65536 or \
                    check_name(saved.host_name) != saved.host_name:
                return None
            return saved
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None

    def save(self, host: str, port: int, token: Optional[str], host_name: str) -> None:
        try:
            if token is None:
                try:
                    os.unlink(self.path)
                except FileNotFoundError:
                    pass
                return
            atomic_write(self.path, json.dumps({"host": host, "port": port, "token": token, "host_name": host_name,
                                                "at": self.clock()}), mode=0o600)
        except OSError as exc:
            log.warning(_("the LAN session was not kept in {path} ({why}): a restarted guest asks again").format(
                path=self.path, why=exc.strerror or exc))

