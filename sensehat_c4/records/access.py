"""Whether this process can keep its games at a path, asked before anything is opened.

:func:`writable` is what the writer checks before SQLite opens the file (a directory, a FIFO or
a device, a folder or a file it may not write, a path it cannot reach), and what a game asks
before play starts, so that the warning comes before the match, not after it (and ``doctor``
may ask it too: it creates nothing unless told to make the folders).  :func:`missing_folder`
says whether the folder a file would be in is there: a file named with ``--db`` in a folder
that does not exist is refused (a typo would leave a database where nobody looks), while the
default path's folders are made.  :func:`os_reason` says what the operating system answered in
the catalogue's words (its own text, ``strerror``, is English whatever the player's language).
"""
from __future__ import annotations

import errno
import os
import stat
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Mapping, Optional

from gamelib.app import one_line

from ..errors import C4Error
from ..i18n import N_, _

OS_WORDS: Dict[int, str] = {
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EDQUOT: N_("Disk quota exceeded"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ENOENT: N_("No such file or directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EISDIR: N_("Is a directory"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EEXIST: N_("File exists"),
    errno.EIO: N_("Input/output error"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.ENXIO: N_("No such device or address"),
    errno.EMFILE: N_("Too many open files"),
    errno.ENFILE: N_("Too many open files in system"),
    errno.ENOMEM: N_("Cannot allocate memory"),
    errno.ESTALE: N_("Stale file handle"),
}
"""What the operating system may answer about a file, by ``errno``: the C library's English words (so
English says what it always said), translated where shown."""


DIRECTORY = "directory"
NOT_REGULAR = "not-regular"
READ_ONLY = "read-only"
NO_FOLDER = "no-folder"

REASONS: Dict[str, str] = {
    DIRECTORY: N_("{name} is a directory"),
    NOT_REGULAR: N_("{name} is not a regular file"),
    READ_ONLY: N_("{place} is read-only"),
    NO_FOLDER: N_("the folder {folder} does not exist"),
    **{errno.errorcode[number]: words for number, words in OS_WORDS.items()},
}
"""Every reason the games cannot be written that has a code (a value of the API: ``EACCES``, ``directory``),
with its message, whose placeholders are the reason's fields (paths as shown, one line).  The live page words
each code from its own copy of this table (``gamelib/web/static/status.js``; a test keeps the two the same)."""


@dataclass(frozen=True)
class Reason:
    """Why the games cannot be written, as values: ``code`` (a key of :data:`REASONS`) and ``fields``, the
    values its message names (``name``, ``place``, ``folder``)."""

    code: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        message = REASONS.get(self.code)
        wanted = {name for _text, name, _spec, _conv in string.Formatter().parse(message or "") if name}
        if message is None or set(self.fields) != wanted:   # a program's error, not a player's
            raise ValueError(f"no reason {self.code!r} with fields {sorted(self.fields)}")

    def words(self) -> str:
        """The reason in the player's words."""
        return _(REASONS[self.code]).format(**self.fields)

    def as_json(self) -> Dict[str, str]:
        """``reason`` (the code) and the fields, as a status's details hold them."""
        return {"reason": self.code, **self.fields}


def os_reason(exc: OSError) -> str:
    """``exc``'s reason in the player's words (:data:`OS_WORDS`; the system's own text for another
    ``errno``), one line, without ``[Errno 13]`` or the path."""
    words = OS_WORDS.get(exc.errno) if exc.errno is not None else None
    if words is not None:
        return _(words)
    return one_line(exc.strerror or str(exc) or type(exc).__name__)


def os_code(exc: OSError) -> Optional[Reason]:
    """``exc``'s reason as a value: its ``errno``'s name, when :data:`OS_WORDS` words it (``None`` for another:
    only the system's own text says it)."""
    name = errno.errorcode.get(exc.errno) if exc.errno in OS_WORDS else None
    return Reason(name) if name is not None else None


class Unwritable(C4Error, OSError):
    """The games cannot be written at a path; the message says why, in the player's words, and ``reason`` as
    values (``None``: the system's own words for an ``errno`` :data:`OS_WORDS` does not have)."""

    def __init__(self, message: str, reason: Optional[Reason] = None) -> None:
        super().__init__(message)
        self.reason = reason

    @classmethod
    def because(cls, code: str, **fields: str) -> "Unwritable":
        """Refused for the reason ``code`` with its ``fields``, in the player's words."""
        reason = Reason(code, fields)
        return cls(reason.words(), reason)

    @classmethod
    def system(cls, exc: OSError) -> "Unwritable":
        """Refused for what the operating system answered (:func:`os_reason`, :func:`os_code`)."""
        return cls(os_reason(exc), os_code(exc))


class NoFolder(Unwritable):
    """The folder the games file would be in does not exist (and is not to be made)."""

    def __init__(self, folder: Path) -> None:
        reason = Reason(NO_FOLDER, {"folder": one_line(str(folder))})
        super().__init__(reason.words(), reason)
        self.folder = folder


def _real(path: Path) -> Path:
    try:
        return path.resolve()   # a symbolic link is followed: its target is the database
    except (OSError, RuntimeError):   # a loop of links (Python 3.9's resolve() raises)
        return path.absolute()


def missing_folder(path: Path) -> Optional[Path]:
    """The folder the file at ``path`` (a symbolic link followed) would be in, if there is no such folder
    (nothing there, or a file); ``None`` if there is, or if it cannot be told (:func:`writable` says why)."""
    folder = _real(path).parent
    try:
        found = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        return folder
    except OSError:
        return None
    return None if stat.S_ISDIR(found.st_mode) else folder


def writable(path: Path, *, make_folders: bool = True) -> Path:
    """The file the games database at ``path`` is (a symbolic link followed), once it is known that this
    process may write it as the writer does: a regular file it may open for reading and writing, or no
    file yet in a folder it may write in (made first if ``make_folders``, else :class:`NoFolder`).
    :class:`Unwritable` says why not.  Nothing but the folders is made; the file is not opened by SQLite
    (whether it is a games database is the writer's to find)."""
    real = _real(path)
    name = one_line(path.name or str(path))   # "." and "" have no name of their own
    try:
        found: Optional[os.stat_result] = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        found = None
    except OSError as exc:
        raise Unwritable.system(exc) from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise Unwritable.because(DIRECTORY, name=name)
    if found is not None and not stat.S_ISREG(found.st_mode):   # a FIFO would hang the open, a device holds no games
        raise Unwritable.because(NOT_REGULAR, name=name)
    if found is None and missing_folder(real) is not None:
        if not make_folders:
            raise NoFolder(real.parent)
        try:
            real.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Unwritable.system(exc) from None
    for place in (real.parent, real):   # WAL needs its journal files beside the database
        try:
            there = place.exists()
        except OSError as exc:
            raise Unwritable.system(exc) from None
        if there and not os.access(place, os.W_OK):
            raise Unwritable.because(READ_ONLY, place=one_line(str(place)))
    if found is not None:
        try:
            os.close(os.open(real, os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)))
        except OSError as exc:
            raise Unwritable.system(exc) from None
    return real
