"""Every colour the games show, by role: one table of palettes (:data:`PALETTES`), a round's palette.

A :class:`Palette` names each colour by what it is for: the board (the field, the players'
tokens and cursors, the flash of a full column), the words and icons on the LEDs, the levels'
labels, and the web pages' colours (:class:`PageColours`, made into CSS custom properties by
:func:`css`, served as ``/palette.css``: ``docs/API.md``).  Every drawing takes its colours from a
palette; nowhere else in the games' code is a colour written (``tests/test_palette.py`` scans for
one).  The players' roles are the only ones a player chooses (``--colors``; a resumed match's and
a stored round's are those recorded): :func:`for_round` puts them in, once per round.

A new palette is one entry of :data:`PALETTES` (its name, a :class:`Palette` with the roles it
changes); nothing else changes.  The palette shown is a context given to every screen at run time: the
place that resolves the user's choice (``--palette``, the launcher's setting) calls :func:`palette` with it and
sets :attr:`gamelib.backends.base.Backend.palette`, which the screens read when they draw; no module reads
:data:`PALETTES` at import or as a default argument (``tests/gamelib/test_palette_screens.py`` checks).
Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Dict, Tuple

from .colours import BLACK, BLUE, CYAN, GREEN, MAGENTA, ORANGE, RED, RGB, WHITE, YELLOW

DEFAULT = "default"
PURPLE_YELLOW = "purple-yellow"
GREEN_PINK = "green-pink"

@dataclass(frozen=True)
class PageColours:
    """The web pages' colours (CSS colour values), each served as ``--NAME`` (``_`` as ``-``)."""

    bg: str = "#111"                 # the page
    text: str = "#eee"
    accent: str = "#9cf"             # links, the game's name, focus, the cursor on the graph
    accent_glow: str = "#9cf5"       # the stick's ring on your turn
    soft: str = "#bbb"               # a label, a message
    dim: str = "#ccc"                # the players' line, the review's progress
    muted: str = "#999"              # terms, times, captions
    bright: str = "#fff"             # the PIN typed, the graph's key moments, the board's last move
    ring: str = "#fff4"              # around a colour swatch
    key_line: str = "#fff6"          # the graph's key moments' lines
    panel: str = "#1b1b1b"           # a box on the page
    row_hover: str = "#1d1d1d"
    selected: str = "#223246"
    fade_from: str = "#1110"         # the table's edge fading (more to the right)
    fade_to: str = "#111e"
    button: str = "#2a2a2a"
    stick: str = "#262626"           # the joystick's buttons
    line: str = "#333"               # a button hovered, the stick's middle, borders
    rule: str = "#222"               # the lines between a table's rows
    edge: str = "#444"               # a button's border, a button pressed
    input_edge: str = "#555"
    shadow: str = "#0008"
    leds: str = "#000"               # behind the LEDs
    input_bg: str = "#000"           # the PIN's box
    led_off: str = "#1c1c1c"         # a dark LED
    live_bg: str = "#143"            # the connection: live
    live: str = "#8f8"
    connecting_bg: str = "#332"      # connecting
    connecting: str = "#fd6"
    lost_bg: str = "#511"            # lost
    lost: str = "#fbb"
    notice: str = "#fb8"             # the seat's message
    axis: str = "#666"               # the graph
    draw_line: str = "#ddd"
    unknown: str = "#888"
    good: str = "#9d9"               # a mark: best, only move; a move that keeps the outcome
    inaccuracy: str = "#fd6"
    mistake: str = "#fa6"
    blunder: str = "#f77"
    missed: str = "#f9c"
    changes: str = "#f88"            # a move that changes the outcome
    field: str = "#1d3fb8"           # the review's board
    hole: str = "#0a0f24"


@dataclass(frozen=True)
class Palette:
    """One palette: every colour the LEDs show, by role, and the web pages' (:attr:`page`)."""

    first: RGB = RED                 # the board's first mover: tokens, cursor (a round's, see for_round)
    second: RGB = YELLOW             # the second mover
    field: RGB = BLUE                # an empty cell
    background: RGB = BLACK          # a dark LED: behind everything
    flash: RGB = WHITE               # a full column flashed; the size chooser's lid; training's progress bar
    text: RGB = WHITE                # words scrolled (PINs, the rules), 2P and ?, a place mark, a draw
    lan: RGB = CYAN                  # offering a game on the LAN: waves, the LAN's entry
    join: RGB = GREEN                # joining one: waves, the games found
    menu: RGB = CYAN                 # the launcher's system menu
    warning: RGB = ORANGE            # the hourglass, the dropped link's boxes, who left, quit
    sand: RGB = YELLOW               # the hourglass's sand
    error: RGB = RED                 # the error icon, a refusal, the dropped link, power off
    levels: Tuple[RGB, ...] = (GREEN, (128, 255, 0), YELLOW, (255, 192, 0), ORANGE, (255, 64, 0), RED,
                               (255, 0, 128), MAGENTA)
    """The levels' labels in the chooser, weakest first (repeated if there are more levels)."""
    page: PageColours = PageColours()
    cue: bool = False
    """A second cue beyond colour: a winning line blinks in its seat's own rhythm (seat 2's twice as fast;
    ``sensehat_c4.match.render.win_blinks``).  The colour-blind palettes have it; the default keeps its
    one steady blink."""
    name: str = DEFAULT
    """The palette's name: its key in :data:`PALETTES`, what the web view's state says (``palette``)."""

    def player(self, player: int) -> RGB:
        """The colour of the board's player 1 or 2."""
        return self.first if player == 1 else self.second

    @property
    def players(self) -> Tuple[RGB, RGB]:
        """Seat 1's and seat 2's colours before anyone chooses (``--colors``' default)."""
        return self.first, self.second


PALETTES: Dict[str, Palette] = {p.name: p for p in (
    Palette(),
    # For colour vision deficiency, chosen by measurement (benchmarks/palettes.py, docs/BENCHMARKS.md): the
    # players, the empty field, a dark LED and the highlight stay apart for deuteranopia, protanopia and
    # tritanopia, at normal and low light, every lit channel at least 48 (what the LEDs light).
    Palette(first=(208, 0, 255), second=(255, 255, 0), field=(0, 128, 0), flash=(160, 255, 255),
            page=PageColours(field="#0a600a", hole="#041804"), cue=True, name=PURPLE_YELLOW),
    Palette(first=(0, 255, 0), second=(160, 128, 128), cue=True, name=GREEN_PINK),   # the default's blue field
)}
"""The palettes by name; :data:`DEFAULT` is the one shown unless another is chosen (``--palette``, the
launcher's system menu)."""


def palette(name: str = DEFAULT) -> Palette:
    """The palette called ``name`` (``KeyError`` if none is): the one resolver of a choice; without one, the
    default (a backend nobody set: :attr:`gamelib.backends.base.Backend.palette`)."""
    return PALETTES[name]


def for_round(colours: Tuple[RGB, RGB], starter: int, base: Palette) -> Palette:
    """A round's palette: ``base`` with seat 1's and seat 2's ``colours`` (as chosen), the board's first
    mover being seat ``starter``."""
    return replace(base, first=colours[starter - 1], second=colours[2 - starter])


def css(page: PageColours) -> str:
    """``page`` as CSS custom properties on ``:root`` (``--accent: #9cf;``), one a line."""
    lines = [f"  --{f.name.replace('_', '-')}: {getattr(page, f.name)};" for f in fields(page)]
    return "/* The pages' colours (gamelib/palette.py). */\n:root {\n" + "\n".join(lines) + "\n}\n"
