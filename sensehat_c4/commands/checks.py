"""``sensehat-c4 doctor``'s checks: the machine's (:mod:`gamelib.doctor`) and the game's own.

The game adds three lines to what :mod:`gamelib.doctor` checks: the solver's native core
(loaded, and its checksum file matching: the loader's own checks, :func:`~..engine.native.load_library`),
the opening books (the shipped 7x6 book and the other sizes', and the optional 12-ply book), and
the games database (its path, whether this user can write it, ``PRAGMA quick_check``).  None of
them is needed to play: the Python core plays without the native one, and a damaged database
is set aside by the next game.  :func:`examine` runs every check in the order of the report.

The words are in one table, :data:`WORDS`, as in :mod:`gamelib.doctor`.
"""
from __future__ import annotations

import enum
import hashlib
import json
import os
import socket
import sys
from importlib import metadata
from pathlib import Path
from typing import Dict, List, Mapping, Optional

from gamelib import backends
from gamelib.doctor import (MDNS_PORT, Check, Choice, Report, Status, System, check_driver, check_i2c, check_leds,
                            check_port, check_python, check_sense_hat, check_service, check_stick, check_terminal,
                            check_zeroconf, fail, find_emulator, ok, verdict)
from gamelib.lan import DEFAULT_PORT
from gamelib.launcher.service import TEMPLATE_UNIT, UNIT

from ..engine import native
from ..engine.corefiles import build_failure
from ..engine.book12 import Book12
from ..engine.book12 import default_path as book12_path
from ..engine.openings import PATH as BOOK8
from ..engine.openings import OpeningBook
from ..errors import NativeCoreError
from ..i18n import N_, _
from ..records import RecordsError, default_path
from ..records import Records as RecordsFile

WORDS: Dict[str, str] = {
    "label.core": N_("solver core"),
    "label.book": N_("opening books"),
    "label.records": N_("games database"),
    "core.native": N_("native ({path}; sha256 {digest}... matches {digest_file})"),
    "core.forced": N_("python (${variable} is set)"),
    "core.missing": N_("python: the native core was not built (no {path})"),
    "core.missing.fix": N_("perfect searches 50-100 times slower without it: install gcc, then install "
                           "sensehat-c4 again"),
    "core.not_built": N_("python: the native core did not build when sensehat-c4 was installed ({reason})"),
    "core.not_built.pipx": N_("install a C compiler and build it again: sudo apt install gcc, then pipx reinstall "
                              "sensehat-c4"),
    "core.not_built.editable": N_("install a C compiler and build it again: sudo apt install gcc, then {python} -m "
                                  "pip install -e {tree}"),
    "core.not_built.pip": N_("install a C compiler and build it again: sudo apt install gcc, then {python} -m pip "
                             "install --force-reinstall --no-deps {source}"),
    "core.refused": N_("python: {error}"),
    "core.refused.fix": N_("install sensehat-c4 again (it builds the library and its checksum)"),
    "book.ok": N_("7x6 up to 8 stones ({entries} positions), {sizes} other sizes; 12-ply book: {book12}"),
    "book.12.installed": N_("{path}"),
    "book.12.missing": N_("not installed (optional: pip install bitbully-databases, Python 3.10+)"),
    "book.12.broken": N_("{path} cannot be used: {error}"),
    "book.12.fix": N_("unset $SENSEHAT_C4_BOOK12 or point it at book_12ply_distances.dat"),
    "book.broken": N_("{path}: {error}"),
    "book.broken.fix": N_("install sensehat-c4 again"),
    "records.new": N_("{path} not made yet (the first game makes it; {folder} is writable)"),
    "records.no_folder": N_("{path} cannot be made: {folder} is not writable by {user}"),
    "records.ok": N_("{path}: {matches} matches, writable, quick_check ok"),
    "records.readonly": N_("{path}: {matches} matches, quick_check ok, but not writable by {user}"),
    "records.fix": N_("the owner of {path} or its folder can give it back: sudo chown {user} {path}"),
    "records.damaged": N_("{path}: quick_check: {finding}{more}"),
    "records.damaged.fix": N_("the next game moves it aside ({name}.corrupt-TIME) and starts a new one; "
                              "'sensehat-c4 history' shows what can still be read"),
    "records.unreadable": N_("{error}"),
    "records.unreadable.fix": N_("name another file with --db or $SENSEHAT_C4_DB, or move this one aside"),
}
"""Every word of the game's checks (marked with ``N_``, translated when said); ``{names}`` are filled in
with :meth:`str.format`."""



def say(key: str, **fields: object) -> str:
    return _(WORDS[key]).format(**fields)


def _ok(name: str, detail: str) -> Check:
    return ok(name, detail, label=_(WORDS[f"label.{name}"]))


def _fail(name: str, detail: str, fix: str = "", *, absent: bool = False) -> Check:
    return fail(name, detail, fix, absent=absent, label=_(WORDS[f"label.{name}"]))


class Install(enum.Enum):
    """How this copy of the game was installed: what building the native core again takes."""

    DEBIAN = "debian"
    PIPX = "pipx"
    EDITABLE = "editable"
    PIP = "pip"


PACKAGE = Path(__file__).resolve().parents[1]


def install_kind(package: Path = PACKAGE, prefix: str = sys.prefix) -> Install:
    """The Debian package's modules are the system's (``/usr/lib/python3/dist-packages``); pipx's venv holds its
    ``pipx_metadata.json``; an editable install's modules are the tree's (in no ``site-packages``)."""
    parts = package.parts
    if package.is_relative_to(Path("/usr/lib/python3/dist-packages")):
        return Install.DEBIAN
    if (Path(prefix) / "pipx_metadata.json").is_file():
        return Install.PIPX
    if "site-packages" not in parts and "dist-packages" not in parts:
        return Install.EDITABLE
    return Install.PIP


def _installed_from() -> str:
    """What pip installed this copy from: the folder or file (its ``direct_url.json``), else the name."""
    try:
        url = json.loads(metadata.distribution("sensehat-c4").read_text("direct_url.json") or "{}").get("url", "")
    except (metadata.PackageNotFoundError, ValueError, AttributeError):
        url = ""
    return url[len("file://"):] if url.startswith("file://") else "sensehat-c4"


def rebuild_fix(kind: Install) -> str:
    """The commands that build the native core again, for this kind of install."""
    if kind is Install.DEBIAN:
        return say("core.refused.fix")
    if kind is Install.PIPX:
        return say("core.not_built.pipx")
    if kind is Install.EDITABLE:
        return say("core.not_built.editable", python=sys.executable, tree=PACKAGE.parent)
    return say("core.not_built.pip", python=sys.executable, source=_installed_from())


def check_core(environ: Mapping[str, str], *, kind: Optional[Install] = None) -> Check:
    """The native solver core: built, chosen for this CPU and loaded by the loader's own checks (size, checksum,
    ELF, CPU, ABI); where the build failed, its reason and the fix for this kind of install."""
    if native.pure_python_forced():
        return _ok("core", say("core.forced", variable=native.PURE_ENV))
    explicit = environ.get(native.LIBRARY_ENV)
    if not explicit and not any(path.exists() for path in native.libraries()):
        reason = build_failure(native.LIBRARY.parent)
        if reason is not None:   # (not merely absent: it was to be built, so its fix is shown)
            return _fail("core", say("core.not_built", reason=reason), rebuild_fix(kind or install_kind()))
        return _fail("core", say("core.missing", path=native.LIBRARY), say("core.missing.fix"), absent=True)
    try:
        path = native.choose(environ=environ)
        native.load_library(path)
        digest = hashlib.sha256(native.read_regular(path, native.MAX_LIBRARY_BYTES)).hexdigest()
    except NativeCoreError as exc:
        return _fail("core", say("core.refused", error=exc), say("core.refused.fix"))
    return _ok("core", say("core.native", path=path, digest=digest[:12], digest_file=path.name + native.DIGEST_SUFFIX))


def check_books() -> Check:
    """The shipped books load; the 12-ply book, if one is named or installed, can be used."""
    try:
        entries = OpeningBook(BOOK8).entries
    except (OSError, ValueError) as exc:
        return _fail("book", say("book.broken", path=BOOK8, error=getattr(exc, "strerror", None) or exc),
                     say("book.broken.fix"))
    sizes = len(list(BOOK8.parent.glob("book-*x*.bin")))
    path = book12_path()
    if path is None:
        return _ok("book", say("book.ok", entries=entries, sizes=sizes, book12=say("book.12.missing")))
    try:
        Book12(path).close()
    except (OSError, ValueError, OverflowError) as exc:
        error = (exc.strerror if isinstance(exc, OSError) else None) or exc
        return _fail("book", say("book.ok", entries=entries, sizes=sizes,
                                 book12=say("book.12.broken", path=path, error=error)), say("book.12.fix"))
    return _ok("book", say("book.ok", entries=entries, sizes=sizes, book12=say("book.12.installed", path=path)))


def _writable_folder(path: Path) -> Path:
    """The nearest folder of ``path`` that exists (where the first game makes the missing ones)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_records(system: System, path: Optional[Path]) -> Check:
    """The games database: where it is, whether this user can write it, and ``PRAGMA quick_check``."""
    path = Path(path) if path is not None else default_path(system.environ)
    user = system.user()
    try:
        with RecordsFile(path) as stored:
            matches, findings = stored.quick_check()
            empty = stored.empty
    except RecordsError as exc:
        return _fail("records", say("records.unreadable", error=exc), say("records.unreadable.fix"))
    if findings:
        more = _(" (and {more} more)").format(more=len(findings) - 1) if len(findings) > 1 else ""
        return _fail("records", say("records.damaged", path=path, finding=findings[0], more=more),
                     say("records.damaged.fix", name=path.name))
    if empty is not None and not path.exists():
        folder = _writable_folder(path)
        if not os.access(folder, os.W_OK):
            return _fail("records", say("records.no_folder", path=path, folder=folder, user=user),
                         say("records.fix", path=folder, user=user))
        return _ok("records", say("records.new", path=path, folder=folder))
    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        blocked = path if not os.access(path, os.W_OK) else path.parent
        return _fail("records", say("records.readonly", path=path, matches=matches, user=user),
                     say("records.fix", path=blocked, user=user))
    return _ok("records", say("records.ok", path=path, matches=matches))


def examine(system: System, *, backend: Optional[str] = None, db: Optional[Path] = None) -> Report:
    """Every check, in the report's order, and the verdict for the way to play ``backend`` (or
    ``$GAMELIB_BACKEND``, or ``auto``) names."""
    name, source = backends.resolve(backend)
    choice = Choice(name, source, backends.names()[1:])
    leds = check_leds(system)
    emulator, found = find_emulator(system)
    user = system.user()
    checks: List[Check] = [
        check_python(system), check_sense_hat(system), leds, check_stick(system), check_driver(system, leds),
        check_i2c(system), emulator, check_terminal(system),
        check_core(system.environ), check_books(), check_records(system, db),
        *check_service(system, [(UNIT, False), (TEMPLATE_UNIT.replace("@.", f"@{user}."), False), (UNIT, True)]),
        check_port(system, "web_port", socket.SOCK_STREAM, DEFAULT_PORT, "port.used.fix"),
        check_port(system, "mdns_port", socket.SOCK_DGRAM, MDNS_PORT, "mdns.used.fix"),
        check_zeroconf(system),
    ]
    return verdict(checks, choice, found)


__all__ = ["WORDS", "Install", "Status", "check_books", "check_core", "check_records", "examine", "install_kind"]
