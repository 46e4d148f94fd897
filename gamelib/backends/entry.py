"""What a backend's entry point declares besides its constructor: how it is found, and what it needs.

``auto`` and ``doctor`` know no backend by name: they ask each registered one.  A backend class (the
object an entry point of ``gamelib.backends`` names) may have

- ``probe()`` (a static or class method): a :class:`Probe`, whether it can run here now and why (not).
  ``auto`` takes the first backend found :attr:`Found.HERE`, in the registry's order, else the first
  that can be :attr:`Found.STARTED` (the emulator's window); a backend without ``probe`` is never
  chosen by ``auto`` (one opened by name only).
- ``needs``: a :class:`Needs`, the libraries, devices and groups it needs, which ``doctor`` checks
  (a line each) and marks as needed when that backend is the way to play.

Nothing here imports a library: a probe looks at the machine (``/sys``, a lock file, the terminal) and
imports at most the module it would open.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Tuple


class Found(enum.Enum):
    """What a backend's :class:`Probe` found."""

    HERE = "here"
    """It can run here now (the HAT's LEDs, a running emulator, this terminal)."""
    STARTED = "started"
    """It can run once started (the emulator's window on this desktop): ``auto`` takes it only when no
    backend is :attr:`HERE`."""
    ABSENT = "absent"
    """It cannot run here now."""


@dataclass(frozen=True)
class Probe:
    """Whether a backend can run here now: what was found, and in a line why (or why not)."""

    found: Found
    why: str
    """What was found, or what is missing (one line, in the language of the moment: ``doctor`` shows it)."""
    chosen: str = ""
    """The line ``auto`` says when it takes this backend (empty: ``using NAME: why``)."""


@dataclass(frozen=True)
class Needs:
    """What a backend needs on this machine, for ``doctor`` (a line each; the chosen backend's are needed)."""

    libraries: Tuple[str, ...] = ()
    """The modules it imports (``sense_hat``): each must import."""
    devices: Tuple[str, ...] = ()
    """The device files it opens, by path, or by the name the kernel gives them in ``/sys`` (the HAT's
    framebuffer ``RPi-Sense FB``, its joystick): each must be there and usable by this user."""
    groups: Tuple[str, ...] = ()
    """The groups this user must be in (``video`` for the LEDs, ``input`` for the joystick)."""
    terminal: bool = False
    """Standard input and output must be a terminal."""
