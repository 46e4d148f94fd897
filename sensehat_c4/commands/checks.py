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

import contextlib
import errno
import hashlib
import json
import os
import shlex
import socket
import sqlite3
import stat
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

from gamelib import backends
from gamelib.doctor import (MDNS_PORT, Check, Choice, Report, Status, System, check_driver, check_i2c, check_leds,
                            check_port, check_python, check_sense_hat, check_service, check_stick, check_terminal,
                            check_needs, check_zeroconf, fail, find_emulator, ok, verdict, ways)
from gamelib.install import BITBULLY_DATABASES, Install, Kind
from gamelib.install import this as this_install
from gamelib.lan import DEFAULT_PORT
from gamelib.launcher.service import TEMPLATE_UNIT, UNIT

from ..engine import native
from ..engine.book12 import ENV_VAR as BOOK12_ENV
from ..engine.book12 import FILE_NAME as BOOK12_FILE
from ..engine.book12 import Book12
from ..engine.book12 import default_path as book12_path
from ..engine.corefiles import build_failure
from ..engine.openings import PATH as BOOK8
from ..engine.openings import OpeningBook
from ..errors import NativeCoreError
from ..i18n import N_, _
from ..records import BUSY_SECONDS, RecordsError, default_path
from ..records import Records as RecordsFile
from ..records.files import connect, is_busy, side_files, why

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
    "book.12.missing": N_("not installed (optional: {command}, Python 3.10+)"),
    "book.12.missing.debian": N_("not installed (optional; Debian has no package of it: ${variable} can name a copy "
                                 "of {name})"),
    "book.12.broken": N_("{path} cannot be used: {error}"),
    "book.12.fix": N_("unset $SENSEHAT_C4_BOOK12 or point it at book_12ply_distances.dat"),
    "book.broken": N_("{path}: {error}"),
    "book.broken.fix": N_("install sensehat-c4 again"),
    "records.new": N_("{path} not made yet (the first game makes it; {folder} is writable)"),
    "records.no_folder": N_("{path} cannot be made: {user} cannot write {places}"),
    "records.ok": N_("{path}: {matches} matches, writable, quick_check ok"),
    "records.busy": N_("{path}: {matches} matches, quick_check ok; another program is writing it now (a game?)"),
    "records.readonly": N_("{path}: {matches} matches, quick_check ok, but {user} cannot write {places}"),
    "records.place": N_("{path} ({owner}:{group} {mode})"),
    "records.place.error": N_("{path} ({error})"),
    "records.write_fails": N_("{path}: {matches} matches, quick_check ok, but a write fails: {error}"),
    "records.chown.fix": N_("sudo chown {user} {paths}"),
    "records.chmod.fix": N_("chmod u+w {paths}"),
    "records.both.fix": N_("{chown}, then {chmod}"),
    "records.elsewhere.fix": N_("name a file on a disk this user can write with --db or $SENSEHAT_C4_DB"),
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


PACKAGE = Path(__file__).resolve().parents[1]
"""This package's folder: in a tree (an editable install) it is in no ``site-packages``."""


def editable(package: Path = PACKAGE) -> bool:
    """``package`` is a tree's (``pip install -e``): its modules are in no ``site-packages`` or ``dist-packages``."""
    return "site-packages" not in package.parts and "dist-packages" not in package.parts


def _installed_from() -> str:
    """What pip installed this copy from: the folder or file (its ``direct_url.json``), else the name."""
    try:
        url = json.loads(metadata.distribution("sensehat-c4").read_text("direct_url.json") or "{}").get("url", "")
    except (metadata.PackageNotFoundError, ValueError, AttributeError):
        url = ""
    return url[len("file://"):] if url.startswith("file://") else "sensehat-c4"


def rebuild_fix(install: Install, package: Path = PACKAGE) -> str:
    """The commands that build the native core again, for this install (:mod:`gamelib.install`'s kind; a tree's
    own, installed with ``pip install -e``, or a copy pip installed from a folder or a file)."""
    if install.kind is Kind.DEBIAN:
        return say("core.refused.fix")
    if install.kind is Kind.PIPX:
        return say("core.not_built.pipx")
    if editable(package):
        return say("core.not_built.editable", python=sys.executable, tree=PACKAGE.parent)
    return say("core.not_built.pip", python=sys.executable, source=_installed_from())


def check_core(environ: Mapping[str, str], *, install: Optional[Install] = None) -> Check:
    """The native solver core: built, chosen for this CPU and loaded by the loader's own checks (size, checksum,
    ELF, CPU, ABI); where the build failed, its reason and the fix for this kind of install."""
    if native.pure_python_forced():
        return _ok("core", say("core.forced", variable=native.PURE_ENV))
    explicit = environ.get(native.LIBRARY_ENV)
    if not explicit and not any(path.exists() for path in native.libraries()):
        reason = build_failure(native.LIBRARY.parent)
        if reason is not None:   # (not merely absent: it was to be built, so its fix is shown)
            return _fail("core", say("core.not_built", reason=reason), rebuild_fix(install or this_install()))
        return _fail("core", say("core.missing", path=native.LIBRARY), say("core.missing.fix"), absent=True)
    try:
        path = native.choose(environ=environ)
        native.load_library(path)
        digest = hashlib.sha256(native.read_regular(path, native.MAX_LIBRARY_BYTES)).hexdigest()
    except NativeCoreError as exc:
        return _fail("core", say("core.refused", error=exc), say("core.refused.fix"))
    return _ok("core", say("core.native", path=path, digest=digest[:12], digest_file=path.name + native.DIGEST_SUFFIX))


def check_books(system: System) -> Check:
    """The shipped books load; the 12-ply book, if one is named or installed, can be used (if not, how this
    install adds it)."""
    try:
        entries = OpeningBook(BOOK8).entries
    except (OSError, ValueError) as exc:
        return _fail("book", say("book.broken", path=BOOK8, error=getattr(exc, "strerror", None) or exc),
                     say("book.broken.fix"))
    sizes = len(list(BOOK8.parent.glob("book-*x*.bin")))
    path = book12_path()
    if path is None:
        command = system.install().add(BITBULLY_DATABASES)
        missing = (say("book.12.missing", command=command) if command else
                   say("book.12.missing.debian", variable=BOOK12_ENV, name=BOOK12_FILE))
        return _ok("book", say("book.ok", entries=entries, sizes=sizes, book12=missing))
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


WRITE_BUSY_SECONDS = BUSY_SECONDS
"""How long the write test waits for another process's write (a game's move holds the lock for milliseconds)."""


@dataclass(frozen=True)
class Blocked:
    """A place the game writes that this process cannot: the folder, the database, its ``-wal`` or ``-shm``."""

    path: Path
    error: OSError
    info: os.stat_result


def _refusal(place: Path) -> Optional[OSError]:
    """Why this process cannot write ``place`` as the game does (``None``: it can): a file opened for
    writing, a folder to make files in."""
    try:
        if place.is_dir():
            if os.access(place, os.W_OK | os.X_OK):
                return None
            code = errno.EROFS if os.statvfs(place).f_flag & os.ST_RDONLY else errno.EACCES
            return OSError(code, os.strerror(code))
        os.close(os.open(place, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY))
    except OSError as exc:
        return exc
    return None


def blocked_places(places: Sequence[Path]) -> List[Blocked]:
    """The places of ``places`` this process cannot write (one gone meanwhile, a ``-wal`` a game closing
    removed, is not in the way)."""
    found = []
    for place in places:
        error = _refusal(place)
        if error is None or isinstance(error, FileNotFoundError):
            continue
        try:
            found.append(Blocked(place, error, os.stat(place)))
        except FileNotFoundError:
            continue
    return found


def _places(system: System, blocked: Sequence[Blocked]) -> str:
    """``/x/games.db (pi:pi r--r--r--), ...``: each place, its owner and mode, or what refused it."""
    shown = []
    for place in blocked:
        if place.error.errno in (errno.EACCES, errno.EPERM):
            access = system.access(str(place.path), os.W_OK)
            shown.append(say("records.place", path=place.path, owner=access.owner, group=access.group,
                             mode=access.mode))
        else:
            shown.append(say("records.place.error", path=place.path, error=place.error.strerror or place.error))
    return ", ".join(shown)


def give_back(user: str, blocked: Sequence[Blocked]) -> str:
    """The fix that makes ``blocked`` writable for ``user``, this process's user: ``chmod u+w`` what is
    theirs without its write bit, ``sudo chown`` (first) what another user owns; where neither would
    help (a read-only disk, an immutable file), another file."""
    denied = [place for place in blocked if place.error.errno in (errno.EACCES, errno.EPERM)]
    chown = [place.path for place in denied if place.info.st_uid != os.geteuid()]
    chmod = [place.path for place in denied if not place.info.st_mode & stat.S_IWUSR]
    if len(denied) < len(blocked) or any(place.path not in chown + chmod for place in denied):
        return say("records.elsewhere.fix")
    owned = say("records.chown.fix", user=user, paths=_quoted(chown)) if chown else ""
    moded = say("records.chmod.fix", paths=_quoted(chmod)) if chmod else ""
    return say("records.both.fix", chown=owned, chmod=moded) if owned and moded else owned or moded


def _quoted(paths: Sequence[Path]) -> str:
    return " ".join(shlex.quote(str(path)) for path in paths)


def write_test(real: Path) -> Optional[sqlite3.Error]:
    """The game's first write, rolled back: the database opened for writing (never made), a write
    transaction that sets ``user_version`` to what it is, and a rollback; ``None`` if SQLite took it."""
    try:
        with contextlib.closing(connect(real, busy=WRITE_BUSY_SECONDS, query="mode=rw")) as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                conn.execute(f"PRAGMA user_version = {version}")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        return exc
    return None


def check_records(system: System, path: Optional[Path]) -> Check:
    """The games database: where it is, ``PRAGMA quick_check``, and whether this user can write it as
    the game does (its folder, the file and the files SQLite keeps beside it opened for writing, then
    a write rolled back), with the fix that works."""
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
        blocked = blocked_places([folder])
        if blocked:
            return _fail("records", say("records.no_folder", path=path, user=user, places=_places(system, blocked)),
                         give_back(user, blocked))
        return _ok("records", say("records.new", path=path, folder=folder))
    real = path.resolve()
    blocked = blocked_places([real.parent, real, *(p for p in side_files(real) if os.path.lexists(p))])
    if blocked:
        return _fail("records", say("records.readonly", path=path, matches=matches, user=user,
                                    places=_places(system, blocked)), give_back(user, blocked))
    refused = write_test(real)
    if refused is not None and is_busy(refused):
        return _ok("records", say("records.busy", path=path, matches=matches))
    if refused is not None:
        return _fail("records", say("records.write_fails", path=path, matches=matches, error=why(refused)),
                     say("records.elsewhere.fix"))
    return _ok("records", say("records.ok", path=path, matches=matches))


def examine(system: System, *, backend: Optional[str] = None, db: Optional[Path] = None) -> Report:
    """Every check, in the report's order, and the verdict for the way to play ``backend`` (or
    ``$GAMELIB_BACKEND``, or ``auto``) names."""
    name, source = backends.resolve(backend)
    choice = Choice(name, source, ways(backends.registrations()))
    leds = check_leds(system)
    emulator, found = find_emulator(system)
    user = system.user()
    checks: List[Check] = [
        check_python(system), check_sense_hat(system), leds, check_stick(system), check_driver(system, leds),
        check_i2c(system), emulator, check_terminal(system),
        check_core(system.environ, install=system.install()), check_books(system), check_records(system, db),
        *check_service(system, [(UNIT, False), (TEMPLATE_UNIT.replace("@.", f"@{user}."), False), (UNIT, True)]),
        check_port(system, "web_port", socket.SOCK_STREAM, DEFAULT_PORT, "port.used.fix"),
        check_port(system, "mdns_port", socket.SOCK_DGRAM, MDNS_PORT, "mdns.used.fix"),
        check_zeroconf(system),
        *check_needs(system, choice.registered),
    ]
    return verdict(checks, choice, found)


__all__ = ["WORDS", "Status", "check_books", "check_core", "check_records", "editable", "examine", "rebuild_fix"]
