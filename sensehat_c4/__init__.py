"""Connect 4 for the Raspberry Pi Sense HAT."""
from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"
__all__ = ["play", "__version__"]

if TYPE_CHECKING:
    from gamelib.backends.base import Backend

    from .match.controller import MatchOptions, MatchResult


def play(backend: "Backend", options: "MatchOptions | None" = None) -> "MatchResult":
    """Play one best-of-three match on ``backend`` (see :func:`sensehat_c4.match.controller.play`)."""
    from .match.controller import play as _play  # noqa: PLC0415 (start-up: `import sensehat_c4` stays light)

    return _play(backend, options)
