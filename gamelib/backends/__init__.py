"""Choosing and opening a backend: one registry, one selection order.

Backends are registered by name under the entry-point group :data:`GROUP`
(``gamelib.backends``), as games are under ``gamelib.games``: each entry point names
a constructor that takes ``rotation`` and ``low_light`` (a :class:`Backend` class), which
declares how it is found and what it needs (:mod:`.entry`: its ``probe()`` and ``needs``).
This package's own, the HAT (``hat``), the emulator (``emu``) and the terminal
(``terminal``), are entry points in its ``setup.cfg``; another package adds one in
its own.  An entry point is loaded only when its backend is opened, probed by ``auto``
or asked what it needs (``doctor``, whether a service can use it); the libraries it
opens are imported only when it is opened.  :func:`register` adds one for this process (tests).

Order: the explicit ``name`` (``--backend``), then the ``GAMELIB_BACKEND``
environment variable (the old name ``SENSEHAT_C4_BACKEND`` is still read when
``GAMELIB_BACKEND`` is unset or empty), then ``auto``: the first backend, in the registry's order,
whose probe finds it here (the real HAT if the kernel shows one, else a running emulator, else this
terminal, else another package's backend), else the first that can be started (the emulator window
on this desktop), else a :class:`~gamelib.errors.BackendError` that says what is missing.  A name that is
not registered is a :class:`~gamelib.errors.SetupError` naming the ones that are.
The mock is for tests and is not registered (a test may, with :func:`registered`).
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from .. import install
from ..errors import BackendError, ConfigError, SetupError
from ..i18n import N_, _, one_of
from ..palette import DEFAULT as DEFAULT_PALETTE, PALETTES, palette
from .base import STICK, Action, Backend, Direction, Frame, Observer, Picture, StickEvent
from . import senselib
from .entry import Found, Needs, Probe

__all__ = ["Action", "Backend", "Direction", "Frame", "Observer", "Picture", "STICK", "StickEvent", "ENV_VAR",
           "AUTO", "GROUP", "Found", "Needs", "Opener", "Probe", "Registration", "auto_choice", "names", "open_backend",
           "register", "registered", "registrations", "resolve", "unregister"]

log = logging.getLogger("gamelib")

GROUP = "gamelib.backends"
"""The entry-point group backends are registered under (``name = module:BackendClass``)."""

ENV_VAR = "GAMELIB_BACKEND"
OLD_ENV_VAR = "SENSEHAT_C4_BACKEND"
"""Read when :data:`ENV_VAR` is unset or empty (its name from before gamelib had its own launcher)."""
AUTO = "auto"

Notice = Callable[[str], None]

TERMINAL_NOTICE = N_("no Sense HAT or emulator found")
"""Shown under the board when ``auto`` chose the terminal (the full notice is hidden by the board)."""
AUTO_AFTER: Dict[str, str] = {"terminal": TERMINAL_NOTICE}
"""What a backend ``auto`` chose shows beside its picture once open (:meth:`Screen.notice`), by the choice
(English, shown through ``_()``)."""

Opener = Callable[..., Backend]
"""A backend's constructor: called with the keyword arguments ``rotation`` (int) and ``low_light`` (bool)."""


@dataclass(frozen=True)
class Registration:
    """A backend in the registry."""

    name: str
    open: Opener
    service: Optional[bool] = None
    """False for a backend a service cannot use (the terminal: a service has none); ``None``: ask the
    opener's :attr:`~.entry.Needs.terminal` (an entry point is loaded then)."""

    def _opener(self) -> Opener:
        return self.open.load() if isinstance(self.open, _EntryOpener) else self.open

    def serves(self) -> bool:
        """Whether a service (a systemd unit, no terminal) can use it."""
        if self.service is not None:
            return self.service
        return not self.needs().terminal

    def needs(self) -> Needs:
        """What it needs (:mod:`.entry`; nothing declared: nothing)."""
        needs = getattr(self._opener(), "needs", None)
        return needs if isinstance(needs, Needs) else Needs()

    def probe(self) -> Optional[Probe]:
        """Whether it can run here now (:mod:`.entry`); ``None``: it has no probe (``auto`` never takes it).
        A probe that fails is logged and found absent: another package's bug does not stop ``auto``."""
        probe = getattr(self._opener(), "probe", None)
        if not callable(probe):
            return None
        try:
            found = probe()
        except Exception as exc:  # noqa: BLE001 (another package's probe)
            log.warning(_("the probe of backend {name} failed: {error}").format(name=self.name, error=exc))
            return Probe(Found.ABSENT, str(exc))
        return found if isinstance(found, Probe) else None


class _EntryOpener:
    """An entry point's constructor, loaded at its first use."""

    def __init__(self, point: Any) -> None:
        self._point = point
        self._loaded: Optional[Opener] = None

    def load(self) -> Opener:
        if self._loaded is None:
            self._loaded = self._point.load()
        return self._loaded

    def __call__(self, **options: Any) -> Backend:
        return self.load()(**options)


def entry_points(group: str = GROUP) -> List[Any]:
    """The installed entry points of ``group`` (Python 3.9's dict API and 3.10+'s ``select``)."""
    found = metadata.entry_points()
    if hasattr(found, "select"):
        return list(found.select(group=group))
    return list(found.get(group, ()))  # Python 3.9


_ADDED: Dict[str, Registration] = {}
"""Registered in this process (:func:`register`), after the entry points."""
_INSTALLED: Optional[Dict[str, Registration]] = None
"""The entry points' registrations, found once (each name once: the first found)."""


def _installed() -> Dict[str, Registration]:
    global _INSTALLED
    if _INSTALLED is None:
        found: Dict[str, Registration] = {}
        for point in entry_points():
            name = point.name
            if name == AUTO or not _plain(name):
                log.warning(_("backend entry point {name} ignored: a backend's name is a lower-case word, not auto").format(
                    name=repr(name)))
            elif name not in found:
                found[name] = Registration(name, _EntryOpener(point))
        _INSTALLED = found
    return _INSTALLED


def rediscover() -> None:
    """Forget the entry points found, so the next look finds them again (a package installed meanwhile)."""
    global _INSTALLED
    _INSTALLED = None


def _registry() -> Dict[str, Registration]:
    """Every backend in the order :func:`names` gives: those ``auto`` may choose in its order
    (:data:`AUTO_ORDER`), the other entry points as found, then those :func:`register` added."""
    installed = _installed()
    ranked = sorted(installed, key=lambda name: AUTO_ORDER.index(name) if name in AUTO_ORDER else len(AUTO_ORDER))
    return {**{name: installed[name] for name in ranked}, **_ADDED}


def _plain(name: str) -> bool:
    return bool(name) and name == name.strip().lower() and not any(ch.isspace() or ch == "," for ch in name)


def register(name: str, opener: Opener, *, service: bool = True) -> None:
    """Add a backend for this process: ``--backend NAME`` and ``$GAMELIB_BACKEND`` then open it with
    ``opener(rotation=..., low_light=...)``.  :class:`~gamelib.errors.ConfigError` if the name is taken or
    not a plain lower-case word."""
    if name == AUTO or name in _registry():
        raise ConfigError(_("a backend called {name} is already registered").format(name=repr(name)))
    if not _plain(name):
        raise ConfigError(_("a backend's name is a lower-case word (not {name})").format(name=repr(name)))
    _ADDED[name] = Registration(name, opener, service)


def unregister(name: str) -> None:
    """Remove a backend :func:`register` added (nothing if it is not there)."""
    _ADDED.pop(name, None)


@contextlib.contextmanager
def registered(name: str, opener: Opener, *, service: bool = True) -> Iterator[None]:
    """A backend registered for the ``with`` block only (tests register the mock this way)."""
    register(name, opener, service=service)
    try:
        yield
    finally:
        unregister(name)


def registrations() -> Tuple[Registration, ...]:
    """Every registered backend, in :func:`names`' order (``doctor`` asks each what it needs and finds)."""
    return tuple(_registry().values())


def names(*, service: bool = False) -> Tuple[str, ...]:
    """``auto``, then every registered backend: those ``auto`` may choose in its order, the other entry
    points as found, then those :func:`register` added (``service``: only those a service can use)."""
    return (AUTO,) + tuple(r.name for r in _registry().values() if not service or r.serves())


def _open_named(name: str, rotation: int, low_light: bool, source: str = "--backend") -> Backend:
    registration = _registry().get(name)
    if registration is None:
        raise SetupError(_("{setting} is not a backend: use one of {names}").format(setting=f"{source}={name!r}",
                                                                                 names=", ".join(names())))
    return registration.open(rotation=rotation, low_light=low_light)


AUTO_ORDER = ("hat", "emu", "terminal")
"""This package's backends first, in this order (another package's come after them): the order in which
``auto`` takes the first found :attr:`~.entry.Found.HERE` (then the first that can be
:attr:`~.entry.Found.STARTED`)."""


def auto_choice(probes: Iterable[Tuple[str, Probe]]) -> Optional[Tuple[str, Probe]]:
    """What ``auto`` opens, from the backends' probes in the registry's order (pure: ``_auto`` probes the
    machine, the doctor reads its checks): the first found here, else the first that can be started;
    ``None``: nothing.  ``probes`` is read only as far as the first found here."""
    started: Optional[Tuple[str, Probe]] = None
    for name, probe in probes:
        if probe.found is Found.HERE:
            return name, probe
        if probe.found is Found.STARTED and started is None:
            started = name, probe
    return started


def _probed() -> Iterator[Tuple[str, Probe]]:
    """Each registered backend that has a probe, probed as it is reached."""
    for registration in _registry().values():
        probe = registration.probe()
        if probe is not None:
            yield registration.name, probe


def _auto(rotation: int, low_light: bool, notice: Notice) -> Backend:
    chosen = auto_choice(_probed())
    if chosen is None:
        found, fix = nothing_to_play_on(senselib.emu_installed(),
                                        add_emulator=install.this().add(install.SENSE_EMU) or "")
        raise BackendError(_("{found}: {fix}").format(found=found, fix=fix))
    name, probe = chosen
    notice(probe.chosen or _("using {name}: {why}").format(name=name, why=probe.why))
    backend = _open_named(name, rotation, low_light)
    after = AUTO_AFTER.get(name)
    if after is not None:
        backend.screen.notice(_(after))
    return backend


def nothing_to_play_on(emu_installed: bool, *, add_emulator: str) -> Tuple[str, str]:
    """What ``auto`` found (nothing), and what to do (the emulator library installed or not; if not,
    ``add_emulator``: the command that installs it here, as :mod:`gamelib.install` says)."""
    if emu_installed:
        return (_("no Sense HAT found, the emulator is not running and this is not a terminal"),
                _("run it in a terminal, start sense_emu_gui on a desktop, or on a Pi check the HAT and that this "
                  "user is in the 'video' and 'input' groups"))
    return (_("no Sense HAT found, the emulator is not installed and this is not a terminal"),
            _("run it in a terminal, or {command} and start sense_emu_gui, or on a Pi check the HAT and the "
              "'video' and 'input' groups").format(command=add_emulator))


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
    """Add ``--backend``, ``--rotation``, ``--low-light`` and ``--palette`` (shared by the game and the launcher)."""
    parser.add_argument("--backend", choices=names(), default=None,
                        help=_("where to play (default: ${variable}, else auto-detect)").format(variable=ENV_VAR))
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help=_("turn the picture and the joystick clockwise by this many degrees"))
    parser.add_argument("--low-light", action="store_true", help=_("dim the LEDs"))
    parser.add_argument("--palette", choices=tuple(PALETTES), default=DEFAULT_PALETTE,
                        help=_("the colours of the LEDs and the web pages: {default} (the default), or {others}, "
                               "chosen to stay apart with colour blindness (the launcher: its saved setting "
                               "unless given)").format(default=DEFAULT_PALETTE, others=one_of(
                                   [name for name in PALETTES if name != DEFAULT_PALETTE])))


def from_args(args: "argparse.Namespace", notice: Optional[Notice] = None) -> Backend:
    """Open the backend that :func:`add_arguments`'s options ask for (its :attr:`~.base.Backend.palette` too)."""
    backend = open_backend(args.backend, rotation=args.rotation, low_light=args.low_light, notice=notice)
    backend.palette = palette(getattr(args, "palette", None) or DEFAULT_PALETTE)
    return backend
