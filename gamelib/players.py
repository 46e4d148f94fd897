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

Names = Tuple[Optional[str], Optional[str]]

MAX_LENGTH = 12


def check_name(text: str) -> str:
    """``text`` without surrounding spaces, if it is a good name; else :class:`ConfigError`."""
    name = text.strip()
    if not name:
        raise ConfigError("a name cannot be empty")
    if len(name) > MAX_LENGTH:
        raise ConfigError(f"name {name!r} is longer than {MAX_LENGTH} characters")
    bad = sorted({ch for ch in name if ch not in CHARACTERS})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        raise ConfigError(f"name {name!r} has characters the LEDs cannot show ({shown}): use letters A-Z, "
                          "digits, spaces and . , : ' / ( ) + - ! ?")
    if not any(ch.isalnum() for ch in name):
        raise ConfigError(f"name {name!r} needs a letter or a digit")
    return name


def parse_names(text: str, source: str = "--names") -> Names:
    """``"Ann,Bob"`` -> ``("Ann", "Bob")``; ``"Ann"`` names player 1 only.  Two equal names are
    refused.  Errors start with ``source`` (the option or setting the text came from)."""
    parts = text.split(",")
    if len(parts) > 2:
        raise ConfigError(f"{source} takes one or two names separated by a comma (not {text!r})")
    try:
        names = [check_name(p) for p in parts]
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    if len(names) == 2 and names[0].upper() == names[1].upper():
        raise ConfigError(f"{source}: the two players need different names (not {names[0]!r} twice)")
    return names[0], names[1] if len(names) == 2 else None

