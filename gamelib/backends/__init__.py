"""Choosing and opening a backend: one registry, one selection order.

Backends are registered by name (:func:`register`: a name and a constructor that
takes ``rotation`` and ``low_light``); the HAT (``hat``), the emulator (``emu``) and
the terminal (``terminal``) are registered here, and a new backend is one more
:func:`register` call.  The constructors import their libraries only when called.

Order: the explicit ``name`` (``--backend``), then the ``GAMELIB_BACKEND``
environment variable (the old name ``SENSEHAT_C4_BACKEND`` is still read when
``GAMELIB_BACKEND`` is unset or empty), then ``auto``: the real HAT if the kernel shows one, else a
running emulator, else this terminal (standard input and output are both one),
else the emulator window started on this desktop, else a
:class:`~gamelib.errors.BackendError` that says what is missing.  A name that is
not registered is a :class:`~gamelib.errors.SetupError` naming the ones that are.
The mock is for tests and is not registered (a test may, with :func:`registered`).
"""
from __future__ import annotations

import argparse
import contextlib
import os
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, Optional, Tuple

from ..errors import BackendError, ConfigError, SetupError
from .base import STICK, Action, Backend, Direction, Frame, Observer, Picture, StickEvent

__all__ = ["Action", "Backend", "Direction", "Frame", "Observer", "Picture", "STICK", "StickEvent", "ENV_VAR",
           "AUTO", "Opener", "Registration", "auto_choice", "names", "open_backend", "register", "registered", "resolve",
           "unregister"]

ENV_VAR = "GAMELIB_BACKEND"
OLD_ENV_VAR = "SENSEHAT_C4_BACKEND"
"""Read when :data:`ENV_VAR` is unset or empty (its name from before gamelib had its own launcher)."""
AUTO = "auto"

Notice = Callable[[str], None]

TERMINAL_NOTICE = "no Sense HAT or emulator found"
"""Shown under the board when ``auto`` chose the terminal (the full notice is hidden by the board)."""

Opener = Callable[..., Backend]
"""A backend's constructor: called with the keyword arguments ``rotation`` (int) and ``low_light`` (bool)."""


@dataclass(frozen=True)
class Registration:
    """A backend in the registry."""

    name: str
    open: Opener
    service: bool = True
    """False for a backend a service cannot use (the terminal: a service has none)."""


_REGISTRY: Dict[str, Registration] = {}


def register(name: str, opener: Opener, *, service: bool = True) -> None:
    """Add a backend: ``--backend NAME`` and ``$GAMELIB_BACKEND`` then open it with ``opener(rotation=...,
    low_light=...)``.  :class:`~gamelib.errors.ConfigError` if the name is taken or not a plain lower-case word."""
    if name == AUTO or name in _REGISTRY:
        raise ConfigError(f"a backend called {name!r} is already registered")
    if not name or name != name.strip().lower() or any(ch.isspace() or ch == "," for ch in name):
        raise ConfigError(f"a backend's name is a lower-case word (not {name!r})")
    _REGISTRY[name] = Registration(name, opener, service)


def unregister(name: str) -> None:
    """Remove a backend from the registry (nothing if it is not there)."""
    _REGISTRY.pop(name, None)


@contextlib.contextmanager
def registered(name: str, opener: Opener, *, service: bool = True) -> Iterator[None]:
    """A backend registered for the ``with`` block only (tests register the mock this way)."""
    register(name, opener, service=service)
    try:
        yield
    finally:
        unregister(name)


def names(*, service: bool = False) -> Tuple[str, ...]:
    """``auto``, then every registered backend in the order registered (``service``: only those a
    service can use)."""
    return (AUTO,) + tuple(r.name for r in _REGISTRY.values() if r.service or not service)


def _open_named(name: str, rotation: int, low_light: bool, source: str = "--backend") -> Backend:
    registration = _REGISTRY.get(name)
    if registration is None:
        raise SetupError(f"{source}={name!r} is not a backend: use one of {', '.join(names())}")
    return registration.open(rotation=rotation, low_light=low_light)


def _terminal(*, rotation: int, low_light: bool) -> Backend:
    from .terminal import TerminalBackend  # noqa: PLC0415 (keeps `import gamelib.backends` light)

    return TerminalBackend(rotation=rotation, low_light=low_light)


def _hat(*, rotation: int, low_light: bool) -> Backend:
    from .senselib import HatBackend  # noqa: PLC0415 (sense_hat is imported only when it is opened)

    return HatBackend(rotation=rotation, low_light=low_light)


def _emu(*, rotation: int, low_light: bool) -> Backend:
    from .senselib import EmuBackend  # noqa: PLC0415

    return EmuBackend(rotation=rotation, low_light=low_light)


register("hat", _hat)
register("emu", _emu)
register("terminal", _terminal, service=False)


def auto_choice(*, hat: bool, emulator_running: bool, terminal: bool, window: bool) -> Optional[str]:
    """What ``auto`` opens, from what is there (pure: ``_auto`` and the doctor ask the machine): the HAT
    if the kernel shows its LEDs, else a running emulator, else this terminal, else the emulator window
    started on this desktop (``"hat"``, ``"emu"``, ``"terminal"``); ``None``: nothing."""
    if hat:
        return "hat"
    if emulator_running:
        return "emu"
    if terminal:
        return "terminal"
    if window:
        return "emu"
    return None


def _auto(rotation: int, low_light: bool, notice: Notice) -> Backend:
    from . import senselib  # noqa: PLC0415
    from .terminal import standard_fds  # noqa: PLC0415

    hat = senselib.hat_present()
    installed = not hat and senselib.emu_installed()
    pid = senselib.emulator_running() if installed else None
    terminal = not hat and pid is None and standard_fds() is not None
    choice = auto_choice(hat=hat, emulator_running=pid is not None, terminal=terminal,
                         window=installed and senselib.can_start_window())
    if choice == "hat":
        notice("using the Sense HAT (found its LED framebuffer)")
    elif choice == "emu" and pid is not None:
        notice(f"no Sense HAT found; using the running emulator (pid {pid})")
    elif choice == "terminal":
        notice("no Sense HAT or running emulator found; playing in this terminal "
               "(--backend emu opens the emulator window)")
        terminal_backend = _open_named("terminal", rotation, low_light)
        terminal_backend.notice(TERMINAL_NOTICE)  # type: ignore[attr-defined]
        return terminal_backend
    elif choice == "emu":
        notice("no Sense HAT, running emulator or terminal found; starting the emulator window (sense_emu_gui)")
    if choice is not None:
        return _open_named(choice, rotation, low_light)
    raise BackendError(nothing_to_play_on(installed))


def nothing_to_play_on(emu_installed: bool) -> str:
    """Why ``auto`` found nothing, and what to do (the emulator library installed or not)."""
    if emu_installed:
        return ("no Sense HAT found, the emulator is not running and this is not a terminal: run it in a "
                "terminal, start sense_emu_gui on a desktop, or on a Pi check the HAT and that this user is "
                "in the 'video' and 'input' groups")
    return ("no Sense HAT found, the emulator is not installed and this is not a terminal: run it in a "
            "terminal, or pip install sense-emu and start sense_emu_gui, or on a Pi check the HAT "
            "and the 'video' and 'input' groups")


def resolve(name: Optional[str] = None) -> Tuple[str, str]:
    """The backend's name as :func:`open_backend` takes it (lower case; ``auto`` if nothing names one) and
    where it came from: ``"--backend"``, :data:`ENV_VAR`, :data:`OLD_ENV_VAR` or ``"default"``."""
    source = "--backend"
    for variable in (ENV_VAR, OLD_ENV_VAR):
        if name:
            break
        name, source = os.environ.get(variable, ""), variable
    name = (name or "").strip().lower()
    return (name, source) if name else (AUTO, "default")


def open_backend(name: Optional[str] = None, *, rotation: int = 0, low_light: bool = False,
                 notice: Optional[Notice] = None) -> Backend:
    """Open the backend called ``name`` (or chosen by the environment, or detected)."""
    say: Notice = notice or (lambda message: None)
    name, source = resolve(name)
    if name == AUTO:
        return _auto(rotation, low_light, say)
    return _open_named(name, rotation, low_light, source)


def add_arguments(parser: "argparse.ArgumentParser") -> None:
    """Add ``--backend``, ``--rotation`` and ``--low-light`` (shared by the game and the launcher)."""
    parser.add_argument("--backend", choices=names(), default=None,
                        help=f"where to play (default: ${ENV_VAR}, else auto-detect)")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn the picture and the joystick clockwise by this many degrees")
    parser.add_argument("--low-light", action="store_true", help="dim the LEDs")


def from_args(args: "argparse.Namespace", notice: Optional[Notice] = None) -> Backend:
    """Open the backend that :func:`add_arguments`'s options ask for."""
    return open_backend(args.backend, rotation=args.rotation, low_light=args.low_light, notice=notice)
