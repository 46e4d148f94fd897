"""Choosing and opening a backend: one factory, one selection order.

Order: the explicit ``name`` (``--backend``), then the ``GAMELIB_BACKEND``
environment variable (the old name ``SENSEHAT_C4_BACKEND`` is still read when
``GAMELIB_BACKEND`` is unset or empty), then ``auto``: the real HAT if the kernel shows one, else a
running emulator, else this terminal (standard input and output are both one),
else the emulator window started on this desktop, else a
:class:`~gamelib.errors.BackendError` that says what is missing.  The mock is
for tests and is never chosen here.
"""
from __future__ import annotations

import argparse
import os
from typing import Callable, Optional

from ..errors import BackendError, SetupError
from .base import Action, Backend, Direction, Frame, StickEvent

__all__ = ["Action", "Backend", "Direction", "Frame", "StickEvent", "BACKENDS", "ENV_VAR", "open_backend"]

ENV_VAR = "GAMELIB_BACKEND"
OLD_ENV_VAR = "SENSEHAT_C4_BACKEND"
"""Read when :data:`ENV_VAR` is unset or empty (its name from before gamelib had its own launcher)."""
BACKENDS = ("auto", "hat", "emu", "terminal")

Notice = Callable[[str], None]

TERMINAL_NOTICE = "no Sense HAT or emulator found"
"""Shown under the board when ``auto`` chose the terminal (the full notice is hidden by the board)."""


def _open_named(name: str, rotation: int, low_light: bool) -> Backend:
    if name == "terminal":
        from .terminal import TerminalBackend  # noqa: PLC0415

        return TerminalBackend(rotation=rotation, low_light=low_light)
    from . import senselib  # noqa: PLC0415 (keeps `import gamelib.backends` light)

    if name == "hat":
        return senselib.HatBackend(rotation=rotation, low_light=low_light)
    return senselib.EmuBackend(rotation=rotation, low_light=low_light)


def _auto(rotation: int, low_light: bool, notice: Notice) -> Backend:
    from . import senselib  # noqa: PLC0415

    if senselib.hat_present():
        notice("using the Sense HAT (found its LED framebuffer)")
        return _open_named("hat", rotation, low_light)
    installed = senselib.emu_installed()
    pid = senselib.emulator_running() if installed else None
    if pid is not None:
        notice(f"no Sense HAT found; using the running emulator (pid {pid})")
        return _open_named("emu", rotation, low_light)
    from .terminal import standard_fds  # noqa: PLC0415

    if standard_fds() is not None:
        notice("no Sense HAT or running emulator found; playing in this terminal "
               "(--backend emu opens the emulator window)")
        terminal = _open_named("terminal", rotation, low_light)
        terminal.notice(TERMINAL_NOTICE)  # type: ignore[attr-defined]
        return terminal
    if installed and senselib.can_start_window():
        notice("no Sense HAT, running emulator or terminal found; starting the emulator window (sense_emu_gui)")
        return _open_named("emu", rotation, low_light)
    if installed:
        raise BackendError(
            "no Sense HAT found, the emulator is not running and this is not a terminal: run it in a "
            "terminal, start sense_emu_gui on a desktop, or on a Pi check the HAT and that this user is "
            "in the 'video' and 'input' groups")
    raise BackendError(
        "no Sense HAT found, the emulator is not installed and this is not a terminal: run it in a "
        "terminal, or pip install sense-emu and start sense_emu_gui, or on a Pi check the HAT "
        "and the 'video' and 'input' groups")


def open_backend(name: Optional[str] = None, *, rotation: int = 0, low_light: bool = False,
                 notice: Optional[Notice] = None) -> Backend:
    """Open the backend called ``name`` (or chosen by the environment, or detected)."""
    say: Notice = notice or (lambda message: None)
    source = "--backend"
    for variable in (ENV_VAR, OLD_ENV_VAR):
        if name:
            break
        name, source = os.environ.get(variable, ""), variable
    name = (name or "auto").strip().lower()
    if name not in BACKENDS:
        raise SetupError(f"{source}={name!r} is not a backend: use one of {', '.join(BACKENDS)}")
    if name == "auto":
        return _auto(rotation, low_light, say)
    return _open_named(name, rotation, low_light)


def add_arguments(parser: "argparse.ArgumentParser") -> None:
    """Add ``--backend``, ``--rotation`` and ``--low-light`` (shared by the game and the launcher)."""
    parser.add_argument("--backend", choices=BACKENDS, default=None,
                        help=f"where to play (default: ${ENV_VAR}, else auto-detect)")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn the picture and the joystick clockwise by this many degrees")
    parser.add_argument("--low-light", action="store_true", help="dim the LEDs")


def from_args(args: "argparse.Namespace", notice: Optional[Notice] = None) -> Backend:
    """Open the backend that :func:`add_arguments`'s options ask for."""
    return open_backend(args.backend, rotation=args.rotation, low_light=args.low_light, notice=notice)
