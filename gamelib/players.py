"""Players' names: what a game's ``--names`` and the launcher's settings accept.

A name is what the LEDs can scroll (letters, digits, spaces and ``. , : ' / ( ) + - ! ?``,
drawn in capitals) and short enough to read as it passes: at most :data:`MAX_LENGTH`
characters, with a letter or digit in it.

The launcher keeps names in its settings (``gamelib names``) and hands them to the games it
starts as :attr:`gamelib.games.Choices.names`.
"""
from __future__ import annotations

from typing import Optional, Tuple

from .errors import ConfigError
from .font import CHARACTERS
from .i18n import _

Names = Tuple[Optional[str], Optional[str]]

MAX_LENGTH = 12


def check_name(text: str) -> str:
    """``text`` without surrounding spaces, if it is a good name; else :class:`ConfigError`."""
    name = text.strip()
    if not name:
        raise ConfigError(_("a name cannot be empty"))
    if len(name) > MAX_LENGTH:
        raise ConfigError(_("name {name} is longer than {count} characters").format(name=repr(name), count=MAX_LENGTH))
    bad = sorted({ch for ch in name if ch not in CHARACTERS})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        raise ConfigError(_("name {name} has characters the LEDs cannot show ({shown}): use letters A-Z, "
                            "digits, spaces and . , : ' / ( ) + - ! ?").format(name=repr(name), shown=shown))
    if not any(ch.isalnum() for ch in name):
        raise ConfigError(_("name {name} needs a letter or a digit").format(name=repr(name)))
    return name


def parse_names(text: str, source: str = "--names") -> Names:
    """``"Ann,Bob"`` -> ``("Ann", "Bob")``; ``"Ann"`` names player 1 only.  Two equal names are
    refused.  Errors start with ``source`` (the option or setting the text came from)."""
    parts = text.split(",")
    if len(parts) > 2:
        raise ConfigError(_("{source} takes one or two names separated by a comma (not {text})").format(
            source=source, text=repr(text)))
    try:
        names = [check_name(p) for p in parts]
    except ConfigError as exc:
        raise ConfigError(_("{source}: {error}").format(source=source, error=exc)) from None
    if len(names) == 2 and names[0].upper() == names[1].upper():
        raise ConfigError(_("{source}: the two players need different names (not {name} twice)").format(
            source=source, name=repr(names[0])))
    return names[0], names[1] if len(names) == 2 else None

