"""How many threads the native solver core searches with: the bounds, and the one reading of a number of
threads (``--threads``, :data:`THREADS_ENV`, :func:`.native.use_threads`).  Imports nothing of the
engine, so a command's ``--help`` can say the bounds without loading the core."""
from __future__ import annotations

from typing import Optional, Union

THREADS_ENV = "SENSEHAT_C4_THREADS"
"""The native core's threads (1 to :data:`MAX_THREADS`; unset: :func:`.native.default_threads`)."""
MAX_THREADS = 4
"""The most threads a search takes by default: every Raspberry Pi the game runs on (Zero 2 W, 3, 4,
5) has four cores."""


def threads_of(value: Union[int, str]) -> Optional[int]:
    """``value`` as a number of threads: a whole number (or its ASCII digits) from 1 to :data:`MAX_THREADS`;
    ``None`` if it is not one (each caller says so in its own words)."""
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()):
            return None
        value = int(value)
    return value if 1 <= value <= MAX_THREADS else None
