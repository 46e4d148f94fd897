"""The other Pi's player in its seat (:class:`RemotePlayer`), this Pi's player's name when none is
given (:func:`default_name`), and :class:`LanError`, a game over the LAN that cannot go on."""
from __future__ import annotations

import re
import socket
from typing import Protocol

from gamelib.errors import ConfigError
from gamelib.players import MAX_LENGTH, check_name
from gamelib.seats import Kind

from ..errors import C4Error
from ..match.players import Person

class LanError(C4Error, OSError):
    """A game over the LAN that cannot go on: the host cannot be reached, refused, speaks another version."""


def default_name() -> str:
    """This Pi's player's name when none is given: the machine's name as the LEDs can show it."""
    host = re.sub(r"[^A-Za-z0-9 -]", "", socket.gethostname().split(".")[0])[:MAX_LENGTH].strip(" -")
    try:
        return check_name(host)
    except ConfigError:
        return "PI"


class RemoteSession(Protocol):
    """What the seat needs of the other Pi's session (:class:`gamelib.lan.host.Session`)."""

    @property
    def source(self) -> str:
        """The source of its presses (``lan:...``)."""

    @property
    def gone(self) -> bool:
        """It ended for good (the other Pi quit, or is away too long)."""


class RemotePlayer(Person):
    """The guest at the other Pi, in its seat: presses from its source; gone when its session is."""

    def __init__(self, session: RemoteSession) -> None:
        super().__init__(session.source, kind=Kind.REMOTE)
        self.session = session

    @property
    def gone(self) -> bool:
        return bool(self.session.gone)
