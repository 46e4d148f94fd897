"""What the terminal backend writes: colour modes, colours, layout and escape sequences.

Pure functions and one small :class:`Painter` that turns frames into the text to
write; nothing here reads or writes a file descriptor, so it is tested on strings.

Colour modes (chosen once, by :func:`colour_mode`):

``truecolor``
    each LED is a dot (``●``, ``O`` outside a UTF-8 locale) in its 24-bit colour on black,
    with a space after it, so neighbours of one colour stay apart as on the matrix; an
    LED that is off is a dark grey dot (``COLORTERM`` is ``truecolor``/``24bit``)
``256``
    the same dots in the nearest colour of the xterm 256-colour cube or grey ramp
``letters``
    no colour at all (``NO_COLOR`` set, or terminfo says the terminal has none): a letter
    per LED (:data:`LETTERS`), drawn in place like the colour modes
``plain``
    ``TERM=dumb`` (or unset): no cursor movement either; each changed frame is printed as
    eight lines of letters below the previous one, and a line of dashes under each
"""
from __future__ import annotations

import enum
import textwrap
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

from gamelib.colours import (BLACK, BLUE, CYAN, GREEN, MAGENTA, ORANGE, PINK, PURPLE, RED, RGB, WHITE,
                             YELLOW)
from gamelib.i18n import N_, _
from gamelib.status import printable
from gamelib.matrix import PIXELS, SIDE



class ColourMode(enum.Enum):
    """How the terminal shows the LEDs (see the module; chosen by :func:`colour_mode`)."""

    TRUECOLOR = "truecolor"
    COLOURS_256 = "256"
    LETTERS = "letters"
    PLAIN = "plain"

    @property
    def coloured(self) -> bool:
        """The LEDs in colour, by escape sequences (``truecolor`` or ``256``)."""
        return self in (ColourMode.TRUECOLOR, ColourMode.COLOURS_256)


LOW_LIGHT = 0.4
"""Low light multiplies every channel by this (the LEDs' low-light gamma is about as dim)."""

LETTERS: Dict[RGB, str] = {
    BLACK: ".", WHITE: "W", RED: "R", GREEN: "G", BLUE: "B", YELLOW: "Y",
    ORANGE: "O", CYAN: "C", MAGENTA: "M", PURPLE: "V", PINK: "P",
}
"""An LED's letter when colour is off: the nearest of these colours ('.' is off)."""

LED_WIDTH = 2
"""Characters per LED (a dot and a gap), so the matrix is about as wide as it is high."""

OFF_DOT: RGB = (48, 48, 48)
"""The colour an LED that is off is drawn in: a dark dot, so the matrix keeps its shape."""

DOTS = {True: "●", False: "O"}
"""An LED's glyph in the colour modes, in a UTF-8 locale or not."""

PLAIN_RULE = "-" * 15
"""Printed under each picture in ``plain`` mode, so one picture is told from the next."""

CSI = "\x1b["
ENTER = CSI + "?1049h" + CSI + "?25l" + CSI + "?7l" + CSI + "0m" + CSI + "2J"
"""Alternate screen, hidden cursor, no auto-wrap, plain colours, cleared."""
LEAVE = CSI + "0m" + CSI + "?7h" + CSI + "?25h" + CSI + "?1049l"
"""Plain colours, auto-wrap and cursor back, and the screen as it was before."""
HINT = N_("arrows and Enter (or space) play, q quits")
"""The line under the board: the keys (the status line under it says what each does now)."""
SHORT_HINT = N_("arrows, Enter; q quits")
"""The hint on a terminal narrower than :data:`HINT`."""
PAIR_HINT = N_("arrows and Enter (or space) play, p pairs a phone, q quits")
SHORT_PAIR_HINT = N_("arrows, Enter; p pairs; q quits")
"""The hints while the web view serves seats (:attr:`Painter.pairing`): ``p`` shows a pairing PIN.
(The hints are English here, shown through ``_()`` in the language of the moment.)"""
PLAIN_KEYS = (("←/→", N_("left/right")), ("←", N_("left")), ("→", N_("right")), ("↑", N_("up")), ("↓", N_("down")))
"""The arrows a caption names (:mod:`gamelib.status`), in words for a terminal without UTF-8."""


def hint(columns: int, pairing: bool) -> str:
    """The key help for a terminal ``columns`` wide (naming ``p`` when ``pairing``)."""
    long, short = (_(PAIR_HINT), _(SHORT_PAIR_HINT)) if pairing else (_(HINT), _(SHORT_HINT))
    return long if len(long) <= columns else short


def wrapped(text: str, columns: int) -> List[str]:
    """``text`` as lines at most ``columns`` wide, broken between words (a word longer than a line, cut):
    the one way a line under the board fits the terminal's width, whole (one empty line for no text)."""
    return textwrap.wrap(text, max(1, columns), break_on_hyphens=False) or [""]


def plain_keys(text: str) -> str:
    """``text`` with the arrows spelled out (``←/→`` as ``left/right``)."""
    for arrow, words in PLAIN_KEYS:
        text = text.replace(arrow, _(words))
    return text


def colour_mode(env: Mapping[str, str], colours: Optional[Callable[[str], Optional[int]]] = None) -> ColourMode:
    """Pick a mode from the environment (and terminfo's colour count, via ``colours(term)``)."""
    term = env.get("TERM", "")
    if term in ("", "dumb"):
        return ColourMode.PLAIN
    if env.get("NO_COLOR"):
        return ColourMode.LETTERS
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return ColourMode.TRUECOLOR
    count = colours(term) if colours is not None else None
    if count is not None and count < 8:
        return ColourMode.LETTERS
    return ColourMode.COLOURS_256


def terminfo_colours(term: str, fd: int) -> Optional[int]:
    """How many colours terminfo says ``term`` has (``None`` if it does not know ``term``)."""
    try:
        import curses  # noqa: PLC0415 (optional dependency: not every Python has it; only for this look-up)

        curses.setupterm(term, fd)
        count = curses.tigetnum("colors")
    except Exception:  # noqa: BLE001 (no curses, no terminfo entry: we just do not know)
        return None
    if count == -1:  # the entry has no colours capability: a monochrome terminal
        return 0
    return count if count >= 0 else None


_CUBE = (0, 95, 135, 175, 215, 255)


def _nearest_level(value: int) -> int:
    return min(range(6), key=lambda i: abs(_CUBE[i] - value))


def _distance(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b))


def xterm_256(rgb: RGB) -> int:
    """The index of the nearest colour in xterm's cube (16-231) or grey ramp (232-255).

    The first 16 are left alone: terminal themes change them.
    """
    r, g, b = (_nearest_level(c) for c in rgb)
    cube_index = 16 + 36 * r + 6 * g + b
    cube = (_CUBE[r], _CUBE[g], _CUBE[b])
    grey_step = min(23, max(0, round((sum(rgb) / 3 - 8) / 10)))
    grey = (8 + 10 * grey_step,) * 3
    return 232 + grey_step if _distance(grey, rgb) < _distance(cube, rgb) else cube_index


def letter(rgb: RGB) -> str:
    """The letter of the nearest colour in :data:`LETTERS`."""
    return LETTERS[min(LETTERS, key=lambda named: _distance(named, rgb))]


def dim(rgb: RGB) -> RGB:
    """``rgb`` as low light shows it."""
    return tuple(int(c * LOW_LIGHT + 0.5) for c in rgb)  # type: ignore[return-value]


def dot_colour(rgb: RGB, low_light: bool = False) -> RGB:
    """The colour an LED showing ``rgb`` is drawn in (off: :data:`OFF_DOT`)."""
    if rgb == BLACK:
        return OFF_DOT
    return dim(rgb) if low_light else rgb


def _colour(rgb: RGB, mode: ColourMode, ground: int) -> str:
    """The SGR parameters for ``rgb`` as foreground (``ground`` 38) or background (48)."""
    if mode is ColourMode.TRUECOLOR:
        return f"{ground};2;{rgb[0]};{rgb[1]};{rgb[2]}"
    return f"{ground};5;{xterm_256(rgb)}"


def board_background(mode: ColourMode) -> str:
    """The escape sequence that sets the board's black background (nothing without colour)."""
    return f"{CSI}{_colour(BLACK, mode, 48)}m" if mode.coloured else ""


def led(rgb: RGB, mode: ColourMode, low_light: bool = False, utf8: bool = True) -> str:
    """The text of one LED in ``mode``: its dot (or letter) and a gap, two characters."""
    if not mode.coloured:
        return letter(rgb) + " "
    return f"{CSI}{_colour(BLACK, mode, 48)};{_colour(dot_colour(rgb, low_light), mode, 38)}m{DOTS[utf8]} "


@dataclass(frozen=True)
class Layout:
    """Where things go on a terminal of ``columns`` x ``lines`` (0-based cells)."""

    columns: int
    lines: int
    boxed: bool
    """False for ``plain`` mode (no cursor movement, nothing placed)."""
    below: int = 2
    """Lines wanted under the box: the hint and the status, the last printed line when a caption
    hides it from the status line, and the note when there is one, each as many lines as it wraps to
    (:func:`wrapped`)."""

    WIDTH = 1 + 1 + 8 * LED_WIDTH + 1
    """The border, a gap before the first LED (each LED has its gap after it), the border."""
    HEIGHT = 8 + 2

    @property
    def fits(self) -> bool:
        return not self.boxed or (self.columns >= self.WIDTH and self.lines >= self.HEIGHT)

    @property
    def extra_lines(self) -> int:
        """How many of the lines under the box fit (0 to :attr:`below`)."""
        return max(0, min(self.below, self.lines - self.HEIGHT))

    @property
    def room(self) -> int:
        """How many lines the terminal has under the box (those :attr:`extra_lines` keeps, and any spare)."""
        return max(0, self.lines - self.top - self.HEIGHT)

    @property
    def left(self) -> int:
        return max(0, (self.columns - self.WIDTH) // 2)

    @property
    def top(self) -> int:
        return max(0, (self.lines - self.HEIGHT - self.extra_lines) // 2)

    def led_cell(self, x: int, y: int) -> Tuple[int, int]:
        """The (row, column) of the first character of LED ``(x, y)``."""
        return self.top + 1 + y, self.left + 2 + x * LED_WIDTH


def move(row: int, column: int) -> str:
    """Put the cursor at 0-based ``(row, column)``."""
    return f"{CSI}{row + 1};{column + 1}H"


def too_small_message(columns: int, lines: int) -> List[str]:
    """The lines shown instead of the board when it does not fit: the longest of the
    texts that fits whole (the shortest, cut, in a terminal too small even for it)."""
    need, has = f"{Layout.WIDTH} x {Layout.HEIGHT}", f"{columns} x {lines}"
    texts = (_("This terminal is too small for the board: it needs {need} characters and has {has}. "
               "Make it bigger (or press q to quit).").format(need=need, has=has),
             _("Too small: needs {need}, has {has}. Make it bigger, or press q to quit.").format(
                 need=need.replace(' ', ''), has=has.replace(' ', '')),
             _("Too small: needs {need}. q quits.").format(need=need.replace(' ', '')),
             _("Too small. q quits."))
    for text in texts:
        wrapped = textwrap.wrap(text, max(1, columns))
        if len(wrapped) <= lines:
            return wrapped
    return wrapped[:max(1, lines)]


class Painter:
    """Turns frames into the text that shows them, remembering what is on the screen.

    :meth:`frame` returns only the LEDs that changed since the last call (nothing
    when the frame is the same); :meth:`full` repaints everything (after a resize,
    a change of low light, or to start).
    """

    def __init__(self, mode: ColourMode, *, utf8: bool = True) -> None:
        self.mode = ColourMode(mode)   # ValueError for a value that is no mode
        self.utf8 = utf8
        self.low_light = False
        self.layout = Layout(80, 24, self.mode is not ColourMode.PLAIN)
        self.status = ""
        self.note = ""
        self.printed = ""
        """The last line the program printed (a match's result): on a line of its own while the
        status line shows a caption (whose turn it is), so neither hides the other."""
        self.pairing = False
        """The key help names ``p`` (the web view serves seats), from the next time it is drawn."""
        self._pairing_said = False
        self._shown: Optional[List[RGB]] = None
        self._last: List[RGB] = [BLACK] * PIXELS

    def resize(self, columns: int, lines: int) -> str:
        """The text for a terminal now ``columns`` x ``lines`` (nothing in ``plain`` mode: no layout)."""
        self.layout = Layout(columns, lines, self.mode is not ColourMode.PLAIN)
        self.layout = replace(self.layout, below=len(self._below()))
        return "" if self.mode is ColourMode.PLAIN else self.full()

    def set_low_light(self, value: bool) -> str:
        """Dim (or undim) the colours; the text that repaints them (nothing without colour)."""
        self.low_light = value
        return self.full() if self.mode.coloured and self._shown is not None else ""

    def frame(self, pixels: Sequence[RGB]) -> str:
        """The text that turns the screen into ``pixels`` (``""`` if nothing changed)."""
        pixels = [cast(RGB, tuple(p)) for p in pixels]
        self._last = list(pixels)
        if self._shown is None or not self.layout.fits:
            return self.full() if self._shown is None else ""
        changed = [i for i in range(PIXELS) if pixels[i] != self._shown[i]]
        if not changed:
            return ""
        if self.mode is ColourMode.PLAIN:
            self._shown = list(self._last)
            return self._plain_block()
        out = []
        for i in changed:
            row, column = self.layout.led_cell(i % SIDE, i // SIDE)
            out.append(move(row, column) + led(self._last[i], self.mode, self.low_light, self.utf8))
        self._shown = list(self._last)
        return "".join(out) + self._reset()

    def full(self) -> str:
        """Everything, from a clear screen (or, in ``plain`` mode, the frame again)."""
        self._shown = list(self._last)
        if self.mode is ColourMode.PLAIN:
            return self._plain_block()
        out = [CSI + "0m" + CSI + "2J"]
        self._fit(self._below())
        layout = self.layout
        if not layout.fits:
            for row, text in enumerate(too_small_message(layout.columns, layout.lines)):
                out.append(move(row, 0) + text)
            return "".join(out)
        top, left = layout.top, layout.left
        h, v, corners = ("─", "│", "┌┐└┘") if self.utf8 else ("-", "|", "++++")
        out.append(move(top, left) + corners[0] + h * (layout.WIDTH - 2) + corners[1])
        for y in range(SIDE):
            out.append(move(top + 1 + y, left) + v + board_background(self.mode) + " ")
            out.extend(led(self._last[y * SIDE + x], self.mode, self.low_light, self.utf8) for x in range(SIDE))
            out.append(self._reset() + v)
        out.append(move(top + 9, left) + corners[2] + h * (layout.WIDTH - 2) + corners[3])
        out.append(self._lines_below())
        return "".join(out)

    def words(self, text: str) -> str:
        """``text`` as this terminal shows it: through :func:`~gamelib.status.printable` (the one
        place words are cleaned), its arrows spelled out without UTF-8."""
        text = printable(text)
        return text if self.utf8 else plain_keys(text)

    def set_status(self, text: str) -> str:
        """Show ``text`` on the line under the hint (the last line the program printed, or a caption)
        as :meth:`words` makes it: words from outside never reach the terminal raw."""
        self.status = text = self.words(text)
        if self.mode is ColourMode.PLAIN:
            return "".join(line + "\r\n" for line in wrapped(text, self.layout.columns))
        if self._shown is None or not self.layout.fits:
            return ""
        return self._lines_below()

    def set_printed(self, text: str) -> str:
        """Keep ``text``, the last line the program printed, on a line of its own under the status
        (shown there while the status line shows something else)."""
        first = not self.printed
        self.printed = self.words(text)
        if self.mode is ColourMode.PLAIN:
            return ""                      # printed already, as the status line
        if first:   # one more line under the box: the board moves up half a line
            return self.resize(self.layout.columns, self.layout.lines) if self._shown is not None else ""
        if self._shown is None or not self.layout.fits:
            return ""
        return self._lines_below()

    def set_note(self, text: str) -> str:
        """Show ``text`` on a line of its own under the status (the web view's address and PIN), as
        :meth:`words` makes it."""
        first = not self.note
        self.note = text = self.words(text)
        if self.mode is ColourMode.PLAIN:   # the key help was printed once at the start: ``p`` gets a line of its own
            said, self._pairing_said = self._pairing_said, self._pairing_said or self.pairing
            lines = ([_("p: pair a phone")] if self.pairing and not said else []) + [text]
            return "".join(part + "\r\n" for line in lines for part in wrapped(line, self.layout.columns))
        if first:   # one more line under the box: the board moves up half a line
            return self.resize(self.layout.columns, self.layout.lines) if self._shown is not None else ""
        if self._shown is None or not self.layout.fits:
            return ""
        return self._lines_below()

    def _below(self) -> List[str]:
        """The lines under the box, each at most the terminal's width: the key help, the status, the last
        printed line (an empty line while the status shows it too), the note; each wrapped whole."""
        columns = self.layout.columns
        printed = [] if not self.printed else ["" if self.printed == self.status else self.printed]
        texts = [hint(columns, self.pairing), self.status, *printed] + ([self.note] if self.note else [])
        return [line for text in texts for line in wrapped(text, columns)]

    def _fit(self, below: List[str]) -> bool:
        """Make room for ``below`` if the terminal has too few lines under the box: the board moves up for
        them (as far as it can); True if it moved (then everything is drawn again)."""
        layout = self.layout
        if len(below) <= layout.below or len(below) <= layout.room:
            return False
        self.layout = replace(layout, below=len(below))
        return self.layout.top != layout.top

    def _lines_below(self) -> str:
        below = self._below()
        if self._fit(below):
            return self.full()
        layout = self.layout
        out = []
        shown = below[:layout.room]
        for k in range(layout.room):
            row = layout.top + layout.HEIGHT + k
            out.append(move(row, 0) + CSI + "2K")
            if k < len(shown):
                out.append(move(row, max(0, (layout.columns - len(shown[k])) // 2)) + shown[k])
        return "".join(out)

    def _plain_block(self) -> str:
        rows = ("".join(letter(self._last[y * SIDE + x]) + " " for x in range(SIDE)).rstrip() for y in range(SIDE))
        return "\r\n".join(rows) + "\r\n" + PLAIN_RULE + "\r\n"

    def _reset(self) -> str:
        return CSI + "0m" if self.mode.coloured else ""
