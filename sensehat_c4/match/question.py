"""The abandon question while it blinks (:attr:`~.controller.State.CONFIRMING`): who asked it, whether a
player was thinking then (play goes back to it), its blink and when it gives up."""
from __future__ import annotations

from typing import Optional

from gamelib.backends.base import STICK


class Question:
    """Asking to abandon: it gives up (and play goes on) ``timeout`` seconds after it is asked."""

    def __init__(self, *, timeout: float) -> None:
        self._timeout = timeout
        self._until = 0.0
        self._by = STICK
        self._lit = False
        self.thinking = False
        """True if it was asked while a player thought (play goes back to thinking)."""

    def ask(self, source: str, now: float, *, thinking: bool) -> None:
        """``source`` asks at ``now`` (its cursor row starts dark)."""
        self._by, self._until, self._lit, self.thinking = source, now + self._timeout, False, thinking

    def hears(self, source: str) -> bool:
        """True if a press from ``source`` answers it: the stick at the backend's, or the asker's."""
        return source in (STICK, self._by)

    def blink(self, now: float) -> Optional[bool]:
        """The blink's next half at ``now``: True lit, False dark; ``None`` once it has given up."""
        if now >= self._until:
            return None
        self._lit = not self._lit
        return self._lit
