"""Colour constants shared by the games, and parsing of colour names and hex codes."""
from __future__ import annotations

import re
from typing import Dict, Iterable, Optional, Tuple

from .errors import ConfigError
from .i18n import N_, _

RGB = Tuple[int, int, int]

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
RED: RGB = (255, 0, 0)
GREEN: RGB = (0, 255, 0)
BLUE: RGB = (0, 0, 255)
YELLOW: RGB = (255, 255, 0)
ORANGE: RGB = (255, 128, 0)
CYAN: RGB = (0, 255, 255)
MAGENTA: RGB = (255, 0, 255)
PURPLE: RGB = (128, 0, 255)
PINK: RGB = (255, 96, 160)

NAMES: Dict[str, RGB] = {
    N_("black"): BLACK, N_("white"): WHITE, N_("red"): RED, N_("green"): GREEN, N_("blue"): BLUE,
    N_("yellow"): YELLOW, N_("orange"): ORANGE, N_("cyan"): CYAN, N_("magenta"): MAGENTA,
    N_("purple"): PURPLE, N_("pink"): PINK,
}
"""The colours known by name: the names ``--colors`` takes (English, as values are), each a word of
gamelib's catalogue where a player reads it (``_(colour_name(rgb))``)."""


HEX = re.compile(r"#[0-9a-f]{6}")
"""A colour as programs keep and exchange it (the records, the LAN's game messages, the web API's seats):
``#rrggbb``, lower case, as :func:`hex_colour` writes it."""


def hex_colour(rgb: RGB) -> str:
    """``rgb`` as ``#rrggbb`` (:data:`HEX`)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def from_hex(text: object) -> Optional[RGB]:
    """The colour ``text`` is if it is ``#rrggbb`` (:data:`HEX`: lower case), else ``None``."""
    if not isinstance(text, str) or not HEX.fullmatch(text):
        return None
    value = int(text[1:], 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def colour_name(rgb: RGB) -> str:
    """The name of ``rgb`` in :data:`NAMES`, else its hex code (``#12ab00``)."""
    return next((name for name, colour in NAMES.items() if colour == tuple(rgb)), hex_colour(rgb))


def led_colour(rgb: RGB) -> RGB:
    """``rgb`` as the Sense HAT's LEDs show it: its framebuffer keeps 5, 6 and 5 bits (RGB565)."""
    r, g, b = rgb
    return r & 0xF8, g & 0xFC, b & 0xF8


class ColourError(ConfigError):
    """A colour that is neither a known name nor a hex code."""


def parse_colour(text: str, offered: Optional[Iterable[str]] = None) -> RGB:
    """Turn ``"red"``, ``"#ff8800"``, ``"ff8800"`` or ``"#f80"`` into an ``(r, g, b)`` tuple.

    ``offered``: the names the error lists (a caller that refuses some colours lists
    only those it accepts); default all of :data:`NAMES`.
    """
    key = text.strip().lower()
    if key in NAMES:
        return NAMES[key]
    digits = key[1:] if key.startswith("#") else key
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    if len(digits) == 6:
        try:
            value = int(digits, 16)
        except ValueError:
            pass
        else:
            return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
    raise ColourError(_("unknown colour {text}: use a name ({names}) or a hex code like #ff8800").format(
        text=repr(text), names=", ".join(NAMES if offered is None else offered)))
