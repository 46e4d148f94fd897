"""Where gamelib keeps files, and writing one so that a power cut leaves the old or the new."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Mapping, Optional


def _xdg_home(variable: str, default: str, environ: Optional[Mapping[str, str]]) -> Path:
    env = os.environ if environ is None else environ
    base = env.get(variable, "")
    if not os.path.isabs(base):
        base = os.path.join(env.get("HOME") or os.path.expanduser("~"), default)
    return Path(base)


def config_home(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_CONFIG_HOME``, else ``~/.config`` (a relative value is ignored, as the XDG spec says)."""
    return _xdg_home("XDG_CONFIG_HOME", ".config", environ)


def data_home(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_DATA_HOME``, else ``~/.local/share`` (a relative value is ignored)."""
    return _xdg_home("XDG_DATA_HOME", os.path.join(".local", "share"), environ)


def atomic_write(path: Path, text: str, mode: int = 0o600) -> None:
    """Write ``text`` to ``path`` through a temporary file in its directory, ``fsync`` and
    ``os.replace``; the directory is made if missing.  ``OSError`` if it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=str(path.parent))
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
