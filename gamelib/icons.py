"""8x8 pictures for menus: drawing them from text, the shared icons, and dimming a frame.

Pure functions and constants, no I/O: games draw their menu icon with :class:`Icon` (letters
standing for the palette's roles, drawn in the palette shown when it is shown), the launcher
shows :data:`ERROR_ICON` for a game that cannot be played or whose last run raised.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence, Tuple, cast

from .colours import RGB
from .i18n import _
from .matrix import PIXELS, SIDE
from .palette import Palette

Picture = Tuple[RGB, ...]
"""64 ``(r, g, b)`` pixels, row by row from the top left (a frame that cannot be changed)."""


def picture(rows: Sequence[str], colours: Mapping[str, RGB], background: RGB) -> Picture:
    """Eight rows of eight characters -> 64 pixels; ``.`` is ``background`` (unless ``colours`` says), other
    letters come from ``colours``."""
    if len(rows) != SIDE or any(len(row) != SIDE for row in rows):
        raise ValueError(_("a picture is eight rows of eight characters"))
    lookup = {".": background, **colours}
    return tuple(lookup[ch] for row in rows for ch in row)


@dataclass(frozen=True)
class Icon:
    """A picture whose letters stand for a palette's roles, drawn in the palette shown: ``icon(palette)``.

    ``rows``: eight rows of eight characters; ``roles(palette)``: each letter's colour in it (``.``: the
    palette's background)."""

    rows: Tuple[str, ...]
    roles: Callable[[Palette], Mapping[str, RGB]]

    def __call__(self, palette: Palette) -> Picture:
        return picture(self.rows, self.roles(palette), palette.background)


def check_picture(pixels: object) -> Picture:
    """``pixels`` as a :data:`Picture`; ``ValueError`` unless it is 64 ``(r, g, b)`` values 0-255."""
    try:
        result = tuple((int(r), int(g), int(b)) for r, g, b in cast(Iterable[Any], pixels))
    except (TypeError, ValueError):
        raise ValueError(_("an icon is {count} (r, g, b) pixels").format(count=PIXELS)) from None
    if len(result) != PIXELS:
        raise ValueError(_("an icon has {count} pixels, not {found}").format(count=PIXELS, found=len(result)))
    if any(not 0 <= v <= 255 for pixel in result for v in pixel):
        raise ValueError(_("pixel values go from 0 to 255"))
    return result


def dimmed(frame: Sequence[RGB], divisor: int = 4) -> Picture:
    """``frame`` with every colour channel divided by ``divisor`` (a lit LED stays lit)."""
    return tuple(tuple(0 if v == 0 else max(1, v // divisor) for v in pixel) for pixel in frame)  # type: ignore[misc]


ERROR_ICON = Icon((
    "RRRRRRRR",
    "R......R",
    "R.R..R.R",
    "R..RR..R",
    "R..RR..R",
    "R.R..R.R",
    "R......R",
    "RRRRRRRR",
), lambda p: {"R": p.error})
"""A red cross in a red box: this game cannot be played, or its last run failed (see the log)."""

POWER_ICON = Icon((
    "........",
    "...R....",
    ".R.R.R..",
    "R..R..R.",
    "R.....R.",
    "R.....R.",
    ".R...R..",
    "..RRR...",
), lambda p: {"R": p.error})
"""The power symbol (top row left dark for the menu's position dot): shut the computer down."""
