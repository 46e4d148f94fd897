"""The ``sensehat-c4`` console script (and ``python -m sensehat_c4``): the commands are in
:mod:`sensehat_c4.commands`, one module each, in one table.

This module stays light: the commands' table loads inside :func:`main` (and each command's
module only when that command runs, inside :func:`gamelib.app.run`), where Ctrl+C while they load
ends the program as it does later (exit 130, nothing printed) instead of with a traceback.
"""
from __future__ import annotations

from typing import List, Optional

from gamelib.app import EXIT_INTERRUPTED

__all__ = ["main"]


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command ``argv`` names (:func:`sensehat_c4.commands.main`); its exit code."""
    try:
        from .commands import main as dispatch  # noqa: PLC0415 (start-up: the table loads where Ctrl+C is caught)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return dispatch(argv)
