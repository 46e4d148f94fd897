"""A games file: where it is, opening it, telling whether it is ours, and what SQLite's errors mean.

The file is ours when ``PRAGMA application_id`` is :data:`~.schema.APPLICATION_ID` (or, as the
first version left it, 0 with our two tables: :func:`identify`); a file that is not SQLite at
all is never touched (:func:`check_header`).  Text is read as SQLite holds it, bytes that are
not UTF-8 kept visible to the row checks.
"""
from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Mapping, Optional, Set, Tuple

from gamelib.app import one_line
from gamelib.files import data_home

from ..errors import C4Error
from ..i18n import _
from .access import Reason, Unwritable, os_code, os_reason
from .migrations import FIRST_TABLES, is_newer
from .rows import BadRow
from .schema import APPLICATION_ID

DB_ENV = "SENSEHAT_C4_DB"
"""Environment variable naming the database file (the ``--db`` option wins over it)."""
BUSY_SECONDS = 2.0
"""How long the last write (:meth:`Recorder.close`) waits for the lock, each try."""


class RecordsError(C4Error, OSError):
    """The records cannot be read: not a database, not ours, unreadable, or no such round."""


class NotRecorded(RecordsError):
    """What was asked for is not recorded (no games yet, no such round): the file is fine.  ``shown`` says
    so without the file's path (for a page anyone on the LAN may read)."""

    def __init__(self, message: str, shown: str) -> None:
        super().__init__(message)
        self.shown = shown


class NotOurs(C4Error, ValueError):
    """A database another program made (its own ``application_id``, or other tables), or a file that is
    not SQLite at all: never written."""


class Damaged(C4Error, ValueError):
    """A games database SQLite reads but whose structure or rows are wrong: the writer sets it aside."""


def default_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$SENSEHAT_C4_DB`` if set, else ``$XDG_DATA_HOME/sensehat-c4/games.db``."""
    env = os.environ if environ is None else environ
    named = env.get(DB_ENV, "")
    return Path(named) if named else data_home(env) / "sensehat-c4" / "games.db"


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""


def check_header(path: Path) -> None:
    """:class:`NotOurs` if ``path`` holds something other than an SQLite database (an empty file is
    an empty database); ``OSError`` if it cannot be read."""
    with open(path, "rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise NotOurs(_("not an SQLite database"))


def _decode(data: bytes) -> str:
    """Text as SQLite holds it; bytes that are not UTF-8 (a damaged page) stay visible to the
    row checks as lone surrogates instead of failing the whole query."""
    return data.decode("utf-8", "surrogateescape")


def _uri(path: Path, query: str) -> str:
    return "file:" + "/".join(_quote(part) for part in str(path.resolve()).split("/")) + "?" + query


def connect(path: Path, *, busy: float, query: Optional[str] = None) -> sqlite3.Connection:
    """A connection to ``path``: read-write, or as the URI ``query`` says (``mode=ro``, ``immutable=1``)."""
    if query is None:
        conn = sqlite3.connect(str(path), timeout=busy, isolation_level=None)
    else:
        conn = sqlite3.connect(_uri(path, query), uri=True, timeout=busy, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.text_factory = _decode
    return conn


SIDE_SUFFIXES = ("-wal", "-shm")
"""The files SQLite keeps beside a database in WAL mode while it is open (the log, the shared index)."""


def side_files(path: Path) -> Tuple[Path, ...]:
    """The ``-wal`` and ``-shm`` files of the database at ``path``."""
    return tuple(path.with_name(path.name + suffix) for suffix in SIDE_SUFFIXES)


def side_files_usable(path: Path) -> bool:
    """True if the ``-wal`` and ``-shm`` files a connection of this process would make beside ``path`` are
    files its owner's game can write.  SQLite gives them the database's mode and, when it runs as root,
    the database's owner (else this process's): a database its owner may not write (``444``) gets
    ``444`` side files, which stop the game once the database is writable again; one read by another
    user gets side files its owner cannot write."""
    info = os.stat(path)
    return bool(info.st_mode & stat.S_IWUSR) and os.geteuid() in (0, info.st_uid)


def _quote(part: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-._~" else "%{:02X}".format(ord(ch)) for ch in part)


def identify(conn: sqlite3.Connection) -> bool:
    """True if the file is ours, False if it is empty (ours to start); :class:`NotOurs` if another
    program's, :class:`Damaged` if ours but its tables are not the games' (a damaged schema page)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise NotOurs(_("another program's database (application_id {id:#x})").format(id=app_id))
    if app_id == APPLICATION_ID and is_newer(version):
        return True  # a later version's tables: not for this one to judge
    tables = sorted(str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                    if not str(row[0]).startswith("sqlite_"))
    if app_id == 0 and version == 0 and not tables:
        return False
    if version >= 1 and all(_is_ours(conn, name, wanted) for name, wanted in FIRST_TABLES.items()):
        return True
    shown = ", ".join(one_line(t) for t in tables[:5]) + (", ..." if len(tables) > 5 else "") or _("none")
    if app_id == APPLICATION_ID:
        raise Damaged(_("its tables are not the games' (tables: {tables}; user_version {version})").format(
            tables=shown, version=version))
    raise NotOurs(_("another program's database (tables: {tables}; user_version {version})").format(
        tables=shown, version=version))


def _is_ours(conn: sqlite3.Connection, table: str, wanted: Set[str]) -> bool:
    """``table`` has our columns, ``id`` its integer primary key (the row id)."""
    info = {str(row[1]): (str(row[2]), row[5]) for row in conn.execute(f"PRAGMA table_info({table})")}
    return set(info) >= wanted and info["id"] == ("INTEGER", 1)


def is_corrupt(exc: BaseException) -> bool:
    """A damaged file: SQLite says so (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``), or our checks did."""
    if isinstance(exc, (Damaged, BadRow, UnicodeDecodeError)):  # the last: a name in a damaged schema
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (11, 26)
    text = str(exc)
    return "not a database" in text or "malformed" in text


def why(exc: BaseException) -> str:
    """``exc`` as one line (a name SQLite keeps that is not UTF-8: the file is damaged)."""
    if isinstance(exc, UnicodeDecodeError):
        return _("database disk image is malformed (a name in its schema is not UTF-8)")
    if isinstance(exc, OSError) and exc.strerror:  # the system's reason in words, without "[Errno 36] ... 'path'"
        return os_reason(exc)
    return one_line(str(exc) or type(exc).__name__)


def reason(exc: BaseException) -> Optional[Reason]:
    """What :func:`why` says, as values, when it has a code (:class:`~.access.Unwritable`'s reason, or an
    ``errno`` the catalogue words); ``None``: :func:`why`'s words alone say it (SQLite's own, a damaged file)."""
    if isinstance(exc, Unwritable):
        return exc.reason
    if isinstance(exc, OSError) and exc.strerror:
        return os_code(exc)
    return None


def cannot_open(exc: sqlite3.Error) -> bool:
    """SQLite could not open its journal files beside the database (a read-only directory, a full disk)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (8, 10, 14)  # SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN
    text = str(exc)
    return any(words in text for words in ("unable to open", "disk I/O error", "readonly", "read-only"))


def integrity(conn: sqlite3.Connection) -> None:
    """``PRAGMA integrity_check`` (b-trees, indexes against their tables, ``NOT NULL`` and ``CHECK``);
    :class:`Damaged` with its first finding, in one line."""
    found = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
    if found != ["ok"]:
        problems = [line for text in found for line in text.splitlines() if line and not line.startswith("***")]
        first = one_line(problems[0] if problems else found[0])
        raise Damaged((_("integrity_check: {first} (and {more} more)") if len(problems) > 1 else
                       _("integrity_check: {first}")).format(first=first, more=len(problems) - 1))


def is_busy(exc: BaseException) -> bool:
    """Another connection holds the lock (``SQLITE_BUSY``, ``SQLITE_LOCKED``): it passes."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (5, 6)
    return "is locked" in str(exc)

