"""The launcher's settings file: what the system menu changes, kept between runs.

The file is ``$XDG_CONFIG_HOME/gamelib/settings.json`` (``~/.config/gamelib/...``
when the variable is unset), a JSON object such as
``{"low_light": false, "rotation": 90}``.  Writes are atomic (a temporary file
in the same directory, then ``os.replace``), so a power cut leaves the old file
or the new one, never half of one.  A corrupt file is reported once (a warning
in the log), kept beside it as ``settings.json.corrupt`` and replaced by the
defaults.  Failing to write is logged and play goes on.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping, Optional

from ..backends.base import check_rotation
from ..files import atomic_write, config_home

log = logging.getLogger("gamelib")

FILE_NAME = "settings.json"
BACKUP_SUFFIX = ".corrupt"


@dataclass(frozen=True)
class Settings:
    """What the system menu sets."""

    low_light: bool = False
    rotation: int = 0

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        """Parse the file's object; ``ValueError`` naming the first bad value.  Unknown keys are ignored."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        low_light = data.get("low_light", cls.low_light)
        rotation = data.get("rotation", cls.rotation)
        if not isinstance(low_light, bool):
            raise ValueError(f"low_light must be true or false (not {low_light!r})")
        return cls(low_light=low_light, rotation=check_rotation(rotation))


def default_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_CONFIG_HOME/gamelib/settings.json``, else under ``~/.config`` (relative values are ignored)."""
    return config_home(environ) / "gamelib" / FILE_NAME


class SettingsFile:
    """Loads and saves :class:`Settings` at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + BACKUP_SUFFIX)

    def load(self) -> Settings:
        """The saved settings; the defaults if there is no file, or (reported) if it is corrupt."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return Settings()
        except OSError as exc:
            log.warning("cannot read the settings file %s (%s); using the defaults", self.path, exc)
            return Settings()
        try:
            return Settings.from_json(json.loads(raw.decode("utf-8")))
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            return self._corrupt(str(exc))

    def _corrupt(self, reason: str) -> Settings:
        try:
            os.replace(self.path, self.backup)
        except OSError as exc:
            log.warning("the settings file %s is corrupt (%s) and cannot be moved aside (%s); "
                        "using the defaults", self.path, reason, exc)
            return Settings()
        log.warning("the settings file %s is corrupt (%s); kept it as %s and went back to the defaults",
                    self.path, reason, self.backup)
        defaults = Settings()
        self.save(defaults)
        return defaults

    def save(self, settings: Settings) -> bool:
        """Write ``settings`` atomically; ``False`` (and a warning in the log) if it cannot be written."""
        try:
            atomic_write(self.path, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            log.warning("cannot save the settings to %s (%s); they apply until the launcher stops",
                        self.path, exc)
            return False
        return True
