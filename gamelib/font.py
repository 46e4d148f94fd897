"""A 5-pixel-high font for the 8x8 matrix: digits, A-Z, French's accented capitals and some punctuation.

Most glyphs are 3 pixels wide; a few need more to be read (``M``, ``N``, ``W``) or fewer
(``.``, ``:``, ``'``).  Text is drawn with one dark column between glyphs; lowercase is
drawn as uppercase (``é`` as ``É``, ``œ`` as ``Œ``).  A character the font lacks (``_``, ``ñ``, an emoji: a name from another
Pi or an mDNS advertisement may hold anything) is drawn as :data:`FALLBACK`, a small box,
never an error.
"""
from __future__ import annotations

from typing import Dict, List, MutableSequence, Tuple

from .colours import RGB
from .matrix import PIXELS, SIDE

WIDTH = 3
"""The width of the digits (most glyphs)."""
HEIGHT = 5

_GLYPHS: Dict[str, Tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "M": ("#...#", "##.##", "#.#.#", "#...#", "#...#"),
    "N": ("#..#", "##.#", "#.##", "#..#", "#..#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#...#", "#...#", "#.#.#", "##.##", "#...#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    "?": ("##.", "..#", ".#.", "...", ".#."),
    ".": (".", ".", ".", ".", "#"),
    ",": ("..", "..", "..", ".#", "#."),
    ":": (".", "#", ".", "#", "."),
    "'": ("#", "#", ".", ".", "."),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "(": (".#", "#.", "#.", "#.", ".#"),
    ")": ("#.", ".#", ".#", ".#", "#."),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "!": (".#.", ".#.", ".#.", "...", ".#."),
    "-": ("...", "...", "###", "...", "..."),
    " ": ("...", "...", "...", "...", "..."),
    # French's accented capitals: the accent on the top row (acute ``..#``, grave ``#..``,
    # circumflex ``.#.``, diaeresis ``#.#``), a dark row, the letter in the three below; the cedilla
    # under a four-row C; the ligature five wide.  Their lower-case forms are drawn as these.
    "É": ("..#", "...", "###", "##.", "###"),
    "È": ("#..", "...", "###", "##.", "###"),
    "Ê": (".#.", "...", "###", "##.", "###"),
    "Ë": ("#.#", "...", "###", "##.", "###"),
    "À": ("#..", "...", ".#.", "###", "#.#"),
    "Â": (".#.", "...", ".#.", "###", "#.#"),
    "Ç": (".##", "#..", "#..", ".##", ".#."),
    "Î": (".#.", "...", "###", ".#.", "###"),
    "Ï": ("#.#", "...", "###", ".#.", "###"),
    "Ô": (".#.", "...", "###", "#.#", "###"),
    "Ù": ("#..", "...", "#.#", "#.#", "###"),
    "Û": (".#.", "...", "#.#", "#.#", "###"),
    "Ü": ("#.#", "...", "#.#", "#.#", "###"),
    "Œ": (".####", "#.#..", "#.###", "#.#..", ".####"),
}


FALLBACK: Tuple[str, ...] = ("...", "###", "#.#", "###", "...")
"""What a character the font lacks is drawn as: a small box (no glyph of the font looks like it)."""

CHARACTERS = frozenset(_GLYPHS) | frozenset(c.lower() for c in _GLYPHS)
"""Every character the font draws as itself (the others are drawn as :data:`FALLBACK`)."""


def glyph(char: str) -> Tuple[str, ...]:
    """The rows of ``char`` top to bottom, ``#`` lit and ``.`` dark: its capital's where the font has
    that, else :data:`FALLBACK`."""
    return _GLYPHS.get(char.upper(), FALLBACK)


def text_width(text: str) -> int:
    """Columns ``text`` takes, with one dark column between glyphs."""
    return sum(len(glyph(char)[0]) + 1 for char in text) - 1 if text else 0


def draw_glyph(pixels: MutableSequence[RGB], rows: Tuple[str, ...], colour: RGB, x: int, y: int) -> None:
    """Draw one glyph's ``rows`` into a 64-pixel frame at ``(x, y)`` (what falls outside is left out)."""
    for dy, row in enumerate(rows):
        py = y + dy
        if not 0 <= py < SIDE:
            continue
        for dx, mark in enumerate(row):
            px = x + dx
            if mark == "#" and 0 <= px < SIDE:
                pixels[py * SIDE + px] = colour


def draw_text(pixels: MutableSequence[RGB], text: str, colour: RGB, x: int = 0, y: int = 0) -> None:
    """Draw ``text`` into a 64-pixel frame at ``(x, y)``, one dark column between glyphs (the glyphs
    past the right edge are not looked at)."""
    for char in text:
        if x >= SIDE:
            return
        rows = glyph(char)
        if x + len(rows[0]) > 0:
            draw_glyph(pixels, rows, colour, x, y)
        x += len(rows[0]) + 1


def centred_text(text: str, colour: RGB, background: RGB) -> List[RGB]:
    """A whole frame with ``text`` (one or two glyphs) centred in ``colour`` on ``background``."""
    pixels: List[RGB] = [background] * PIXELS
    draw_text(pixels, text, colour, x=(SIDE - text_width(text) + 1) // 2, y=(SIDE - HEIGHT + 1) // 2)
    return pixels
