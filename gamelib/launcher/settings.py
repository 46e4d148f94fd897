"""The launcher's settings file: what the system menu changes, kept between runs.

The file is ``$XDG_CONFIG_HOME/gamelib/settings.json`` (``~/.config/gamelib/...``
when the variable is unset), a JSON object such as
``{"low_light": false, "names": ["Ann", "Bob"], "palette": "purple-yellow", "rotation": 90}`` (``names``:
the players' names the launcher hands to its games, see :mod:`gamelib.players`; set with ``gamelib names``;
``palette``: one of :data:`gamelib.palette.PALETTES`, left out for the default; ``language``: ``"fr"``, one of
:func:`gamelib.i18n.languages`, left out for ``auto``, the environment's).  Writes are atomic (a temporary file
in the same directory, then ``os.replace``), so a power cut leaves the old file
or the new one, never half of one; temporaries left by a write that was cut
short are removed at start.  Whatever a file holds, starting never fails: a
corrupt file (not JSON, not UTF-8, nested too deeply, too large, a bad value) is
kept beside it as ``settings.json.corrupt``, the defaults are used and written,
and the log says so in one line.  A file that exists but cannot be read (its
mode or owner) is never overwritten: the log says why, and changes made in the
menu apply until the launcher stops.  Failing to write is logged and play goes on.
"""
from __future__ import annotations

import json
import logging
import os
import reprlib
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple

from ..backends.base import check_rotation
from ..errors import ConfigError
from ..files import atomic_write, config_home, remove_stale_temporaries
from ..i18n import _, languages, ngettext
from ..language import AUTO
from ..palette import DEFAULT as DEFAULT_PALETTE, PALETTES
from ..players import parse_names

log = logging.getLogger("gamelib")

FILE_NAME = "settings.json"
BACKUP_SUFFIX = ".corrupt"
MAX_BYTES = 64 * 1024
"""A larger file is not a settings file (it is reported as corrupt, not read into memory)."""


MAX_NAME = 64
"""The longest name or value of a game's remembered choices."""


@dataclass(frozen=True)
class Settings:
    """What the system menu sets, and what each game asked the launcher to remember."""

    low_light: bool = False
    rotation: int = 0
    games: Dict[str, Dict[str, str]] = field(default_factory=dict)
    """Each game's remembered choices (:class:`gamelib.games.Choices`), by entry-point name:
    ``{"connect4": {"board": "6x5"}}``."""
    names: Tuple[str, ...] = ()
    """Player 1's and (if two) player 2's names, handed to the games (:attr:`Choices.names`)."""
    palette: str = DEFAULT_PALETTE
    """The palette the LEDs and the web pages show (:data:`gamelib.palette.PALETTES`), handed to the games
    with the backend (:attr:`~gamelib.backends.base.Backend.palette`)."""
    language: str = AUTO
    """The language the launcher and the games it starts speak: :data:`~gamelib.language.AUTO` (the environment's)
    or one of :func:`gamelib.i18n.languages` (:func:`gamelib.language.speak`)."""

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        """Parse the file's object; ``ValueError`` naming the first bad value.  Unknown keys are ignored."""
        if not isinstance(data, dict):
            raise ValueError(_("not a JSON object"))
        low_light = data.get("low_light", cls.low_light)
        rotation = data.get("rotation", cls.rotation)
        if not isinstance(low_light, bool):
            raise ValueError(_("low_light must be true or false (not {value})").format(value=reprlib.repr(low_light)))
        return cls(low_light=low_light, rotation=check_rotation(rotation), games=_games(data.get("games", {})),
                   names=check_names(data.get("names", [])), palette=_palette(data.get("palette", cls.palette)),
                   language=_language(data.get("language", cls.language)))


def _palette(value: Any) -> str:
    """The ``palette`` setting: a palette's name; one this version lacks (a newer one's) is the default,
    anything but a short string a ``ValueError``."""
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise ValueError(_("palette must be a palette's name (not {value})").format(value=reprlib.repr(value)))
    return value if value in PALETTES else DEFAULT_PALETTE


def _language(value: Any) -> str:
    """The ``language`` setting: a language's code; one this installation does not speak (a catalogue since
    removed, a hand-made value) is auto, anything but a short string a ``ValueError``."""
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise ValueError(_("language must be a language's code (not {value})").format(value=reprlib.repr(value)))
    return value if value in languages() else AUTO


def _games(data: Any) -> Dict[str, Dict[str, str]]:
    """The ``games`` object: names to objects of short strings; ``ValueError`` otherwise."""
    def short(text: Any) -> bool:
        return isinstance(text, str) and 0 < len(text) <= MAX_NAME

    if not isinstance(data, dict) or not all(short(k) and isinstance(v, dict) for k, v in data.items()):
        raise ValueError(_("games must map game names to objects (not {value})").format(value=reprlib.repr(data)))
    for game, choices in data.items():
        if not all(short(k) and short(v) for k, v in choices.items()):
            raise ValueError(_("games: {game} must map names to short strings (not {value})").format(
                game=repr(game), value=reprlib.repr(choices)))
    return {game: dict(choices) for game, choices in data.items()}


def check_names(value: Any) -> Tuple[str, ...]:
    """The ``names`` setting: a list of at most two good names (:func:`gamelib.players.check_name`),
    else :class:`ConfigError` (a ``ValueError``)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value) or len(value) > 2:
        raise ConfigError(_("names must be a list of one or two names (not {value})").format(value=reprlib.repr(value)))
    if not value:
        return ()
    return tuple(n for n in parse_names(",".join(value), "names") if n is not None)


def default_path(environ: Optional[Mapping[str, str]] = None) -> Path:
    """``$XDG_CONFIG_HOME/gamelib/settings.json``, else under ``~/.config`` (relative values are ignored)."""
    return config_home(environ) / "gamelib" / FILE_NAME


class SettingsFile:
    """Loads and saves :class:`Settings` at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.kept: Optional[str] = None
        """Why the file at :attr:`path` is left as it is (it exists but cannot be read, or is
        corrupt and cannot be moved aside); then :meth:`save` writes nothing."""

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + BACKUP_SUFFIX)

    def load(self) -> Settings:
        """The saved settings; the defaults if there is no file, or (reported) if it cannot be used.

        Called at start: it also removes temporaries that a cut-short write left behind.
        """
        removed = remove_stale_temporaries(self.path)
        if removed:
            log.info(ngettext("removed {count} temporary file left beside {path} by a write that was cut short",
                              "removed {count} temporary files left beside {path} by a write that was cut short",
                              len(removed)).format(count=len(removed), path=self.path))
        try:
            raw = self._read()
        except FileNotFoundError:
            return Settings()
        except OSError as exc:
            self.kept = _("it cannot be read: {error}").format(error=exc.strerror or exc)
            log.warning(_("cannot read the settings file {path} ({error}); using the defaults and leaving the file as "
                          "it is: changes made in the menu apply until the launcher stops").format(
                              path=self.path, error=exc.strerror or exc))
            return Settings()
        if len(raw) > MAX_BYTES:
            return self._corrupt(_("larger than {size} KiB").format(size=MAX_BYTES // 1024))
        try:
            return Settings.from_json(json.loads(raw.decode("utf-8")))
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError and ConfigError are ValueErrors
            return self._corrupt(str(exc))
        except RecursionError:
            return self._corrupt(_("nested too deeply"))

    def _read(self) -> bytes:
        """Up to :data:`MAX_BYTES` + 1 bytes of the file; ``OSError`` if it is not a regular file
        (opened without blocking, so a FIFO cannot hang the start)."""
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(0, _("not a regular file"))
            return f.read(MAX_BYTES + 1)

    def _corrupt(self, reason: str) -> Settings:
        try:
            os.replace(self.path, self.backup)
        except OSError as exc:
            self.kept = _("it is corrupt and cannot be moved aside: {error}").format(error=exc.strerror or exc)
            log.warning(_("the settings file {path} is corrupt ({reason}) and cannot be moved aside ({error}); using the "
                          "defaults and leaving the file as it is: changes made in the menu apply until the "
                          "launcher stops").format(path=self.path, reason=reason, error=exc.strerror or exc))
            return Settings()
        defaults = Settings()
        problem = self._write(defaults)
        if problem:
            log.warning(_("the settings file {path} is corrupt ({reason}); kept it as {backup} and went back to the "
                          "defaults (not written: {problem})").format(path=self.path, reason=reason, backup=self.backup,
                                                                      problem=problem))
        else:
            log.warning(_("the settings file {path} is corrupt ({reason}); kept it as {backup} and went back to the "
                          "defaults").format(path=self.path, reason=reason, backup=self.backup))
        return defaults

    def save(self, settings: Settings) -> bool:
        """Write ``settings`` atomically; ``False`` (and a line in the log) if it is not written."""
        if self.kept is not None:
            log.info(_("not saving the settings to {path}, which is left as it is ({why}); the change applies until "
                       "the launcher stops").format(path=self.path, why=self.kept))
            return False
        problem = self._write(settings)
        if problem:
            log.warning(_("cannot save the settings to {path} ({problem}); they apply until the launcher stops").format(
                path=self.path, problem=problem))
            return False
        return True

    def _write(self, settings: Settings) -> Optional[str]:
        """Write ``settings``; why not, if it failed."""
        try:
            data = asdict(settings)
            if not data["games"]:
                del data["games"]  # no game has asked to remember anything: the file stays as it was
            if not settings.names:
                del data["names"]  # a file without names reads as before names existed
            if settings.palette == DEFAULT_PALETTE:
                del data["palette"]  # likewise without a palette
            if settings.language == AUTO:
                del data["language"]  # and without a language
            atomic_write(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            return str(exc)
        return None
