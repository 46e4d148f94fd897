"""The ``sensehat-c4`` console script (and ``python -m sensehat_c4``): the commands are in
:mod:`sensehat_c4.commands`, one module each, in one table."""
from __future__ import annotations

from .commands import main

__all__ = ["main"]
