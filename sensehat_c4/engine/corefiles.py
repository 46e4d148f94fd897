"""The native core's files as the install left them, read without loading anything (light: a command's
first look costs a ``stat``).

``setup.py`` builds ``_c4core.so`` (:data:`CORE_NAME`) beside this module with its checksum
(:data:`DIGEST_SUFFIX`); when the build fails (no compiler) it writes why into ``_c4core.so.not-built``
(:data:`NOT_BUILT_SUFFIX`) instead, which :func:`build_failure` reads: the first run says so once and
``doctor`` names the fix.  :data:`PURE_ENV` at install time skips the build and leaves no note.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Mapping, Optional

PURE_ENV = "SENSEHAT_C4_PURE_PYTHON"
"""Set (to anything but ``""`` or ``0``) to use the pure-Python core (at install time too: no build)."""
CORE_NAME = "_c4core.so"
DIGEST_SUFFIX = ".sha256"
"""The build writes the library's SHA-256 beside it (``_c4core.so.sha256``); a library without
it, or that no longer matches it (damaged on disk), is not loaded."""
NOT_BUILT_SUFFIX = ".not-built"
"""The build's note where the core failed to build (``_c4core.so.not-built``): one line, why."""
ENGINE = Path(__file__).resolve().parent
MAX_NOTE = 1024


def pure_python_forced(environ: Optional[Mapping[str, str]] = None) -> bool:
    """True if :data:`PURE_ENV` asks for the Python core."""
    return (os.environ if environ is None else environ).get(PURE_ENV, "") not in ("", "0")


def note_path(folder: Path = ENGINE) -> Path:
    """Where the build leaves its note when the core did not build."""
    return folder / (CORE_NAME + NOT_BUILT_SUFFIX)


def build_failure(folder: Path = ENGINE) -> Optional[str]:
    """Why the native core did not build when this package was installed (the note's line, printable
    characters only), or ``None``: it was built, the build was skipped (:data:`PURE_ENV`), or no note
    can be read."""
    if (folder / CORE_NAME).exists():
        return None
    try:   # (non-blocking, and regular files only: a FIFO there is not waited on)
        fd = os.open(note_path(folder), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = os.read(fd, MAX_NOTE).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)
    line = "".join(c for c in text.split("\n", 1)[0] if c.isprintable()).strip()
    return line or "?"
