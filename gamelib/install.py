"""How this program was installed, so that a fix names the command that works for it.

Four kinds (:class:`Kind`): Debian's package (the modules in ``/usr/lib/python3/dist-packages``, run
by the system's Python, which Raspberry Pi OS lets only apt change), a venv pipx made (its
``pipx_metadata.json`` in it), any other venv (made by hand, a clone's editable install), and a
Python's own site otherwise (``pip install --user``, an older system).  :func:`detect` tells which
from paths alone (tests give it faked ones); :func:`this` asks it about the running program.

A library is added with apt for the first and the last kind, ``pipx inject`` in pipx's venv and the
venv's own ``pip`` in another (:meth:`Install.add`); a venv sees apt's libraries only if it was made
with ``--system-site-packages`` (:attr:`Install.system_site`).  Commands are not words: they are
the same in every language.
"""
from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Optional, Tuple

DEBIAN_SITE = Path("/usr/lib/python3/dist-packages")
"""Where Debian's packages (ours, and ``python3-sense-hat``) put their modules."""
PIPX_METADATA = "pipx_metadata.json"
"""The file pipx keeps in each venv it makes."""
READ_BYTES = 65536
"""At most this much of ``pyvenv.cfg`` or pipx's metadata is read."""


class Kind(Enum):
    DEBIAN = "deb"
    PIPX = "pipx"
    VENV = "venv"
    SYSTEM = "system"


@dataclass(frozen=True)
class Library:
    """A library as PyPI and Debian name it (``debian`` empty: Debian has no package of it)."""

    pypi: str
    debian: str


SENSE_HAT = Library("sense-hat", "python3-sense-hat")
"""Raspberry Pi OS's: it needs RTIMU, which only the system has (so even a venv takes it from apt)."""
SENSE_EMU = Library("sense-emu", "python3-sense-emu sense-emu-tools")
ZEROCONF = Library("zeroconf", "python3-zeroconf")
BITBULLY_DATABASES = Library("bitbully-databases", "")


@dataclass(frozen=True)
class Install:
    """An install: its kind, the Python environment it runs in (``sys.prefix``), whether that
    environment sees the system's packages (always, outside a venv), and for pipx what it was given
    to install (a path, a wheel or a name; else the venv's name)."""

    kind: Kind
    prefix: Path
    system_site: bool = True
    source: str = ""

    @property
    def app(self) -> str:
        """The name pipx knows it by (its venv's)."""
        return self.prefix.name

    def add(self, library: Library) -> Optional[str]:
        """The command that adds ``library`` to this install (``None``: apt would be the way, and Debian
        has no package of it)."""
        if self.kind is Kind.PIPX:
            return f"pipx inject {shlex.quote(self.app)} {library.pypi}"
        if self.kind is Kind.VENV:
            return f"{shlex.quote(str(self.prefix / 'bin' / 'pip'))} install {library.pypi}"
        return f"sudo apt install {library.debian}" if library.debian else None

    def add_sense_hat(self) -> Tuple[str, Optional[str]]:
        """The commands that give this install the ``sense_hat`` library: apt's, then (for a venv that does
        not see the system's packages) the command that makes it see them, else ``None``."""
        return f"sudo apt install {SENSE_HAT.debian}", None if self.system_site else self.with_system_site()

    def with_system_site(self) -> str:
        """The command that makes this venv see the system's packages, keeping what it has."""
        if self.kind is Kind.PIPX:
            return f"pipx install --force --system-site-packages {shlex.quote(self.source or self.app)}"
        return f"python3 -m venv --system-site-packages {shlex.quote(str(self.prefix))}"


def detect(package_file: Path, *, prefix: Path, base_prefix: Path) -> Install:
    """The install that holds ``package_file`` (a module of the package), run by the Python whose
    ``sys.prefix`` is ``prefix`` and ``sys.base_prefix`` is ``base_prefix``."""
    if DEBIAN_SITE in package_file.parents:
        return Install(Kind.DEBIAN, prefix)
    if prefix == base_prefix:
        return Install(Kind.SYSTEM, prefix)
    settings = {key.strip().lower(): value.strip() for key, _, value in
                (line.partition("=") for line in _read(prefix / "pyvenv.cfg").splitlines())}
    system_site = settings.get("include-system-site-packages", "").lower() == "true"
    if (prefix / PIPX_METADATA).is_file():
        return Install(Kind.PIPX, prefix, system_site, _pipx_source(prefix / PIPX_METADATA))
    return Install(Kind.VENV, prefix, system_site)


def this() -> Install:
    """How the running program was installed (where this module is)."""
    return detect(Path(__file__).resolve(), prefix=Path(sys.prefix), base_prefix=Path(sys.base_prefix))


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as file:
            return file.read(READ_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def _pipx_source(metadata: Path) -> str:
    """What ``pipx install`` was given (its metadata's ``main_package.package_or_url``), if it reads as one."""
    try:
        source = json.loads(_read(metadata))["main_package"]["package_or_url"]
    except (ValueError, KeyError, TypeError):
        return ""
    return source if isinstance(source, str) and source.isprintable() else ""
