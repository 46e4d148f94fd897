"""Where gamelib keeps files, and writing one so that a power cut leaves the old or the new."""
from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path
from typing import List, Mapping, Optional

TEMP_SUFFIX = ".tmp"
STALE_AFTER = 60.0
"""A temporary of :func:`atomic_write` untouched for this many seconds is a leftover (a write
takes milliseconds; one cut short by a kill or a power cut never finishes)."""


def _xdg_home(variable: str, default: str, environ: Optional[Mapping[str, str]]) -> Path:
    env = os.environ if environ is None else environ
    base = env.get(variable, "")
    if not os.path.isabs(base):
        base = os.path.join(env.get("HOME") or os.path.expanduser("~"), default)
    return Path(base)


def config_home(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_CONFIG_HOME``, else ``~/.config`` (a relative value is ignored, as the XDG spec says)."""
    return _xdg_home("XDG_CONFIG_HOME", ".config", environ)


def state_home(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_STATE_HOME`` (logs and other state worth keeping), else ``~/.local/state``."""
    return _xdg_home("XDG_STATE_HOME", os.path.join(".local", "state"), environ)


def data_home(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_DATA_HOME`` (the games' records), else ``~/.local/share``."""
    return _xdg_home("XDG_DATA_HOME", os.path.join(".local", "share"), environ)


def _temp_prefix(path: Path) -> str:
    return f".{path.name}-"


def atomic_write(path: Path, text: str, mode: int = 0o600) -> None:
    """Write ``text`` to ``path`` through a temporary file in its directory, ``fsync`` and
    ``os.replace``; the directory is made if missing.  ``OSError`` if it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=TEMP_SUFFIX, dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def remove_stale_temporaries(path: Path, older_than: float = STALE_AFTER) -> List[Path]:
    """Remove the temporaries :func:`atomic_write` left beside ``path`` (``.NAME-*.tmp``, regular
    files unchanged for ``older_than`` seconds); the ones removed.  Any that cannot be removed stay."""
    prefix, cutoff = _temp_prefix(path), time.time() - older_than
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return []
    removed = []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        candidate = path.parent / name
        try:
            info = candidate.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_mtime <= cutoff:
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            continue
    return removed
