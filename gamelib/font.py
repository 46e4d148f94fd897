"""A 3x5 pixel font for digits and a few letters, for scores and menus on the 8x8 matrix."""
from __future__ import annotations

from typing import Dict, List, MutableSequence, Tuple

from .colours import RGB

WIDTH = 3
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
    "?": ("##.", "..#", ".#.", "...", ".#."),
    "!": (".#.", ".#.", ".#.", "...", ".#."),
    "-": ("...", "...", "###", "...", "..."),
    " ": ("...", "...", "...", "...", "..."),
}


def glyph(char: str) -> Tuple[str, ...]:
    """The rows of ``char`` top to bottom, ``#`` lit and ``.`` dark (KeyError if unknown)."""
    return _GLYPHS[char.upper()]


def draw_text(pixels: MutableSequence[RGB], text: str, colour: RGB, x: int = 0, y: int = 0) -> None:
    """Draw ``text`` into a 64-pixel frame at ``(x, y)``, one dark column between glyphs."""
    for char in text:
        for dy, row in enumerate(glyph(char)):
            for dx, mark in enumerate(row):
                px, py = x + dx, y + dy
                if mark == "#" and 0 <= px < 8 and 0 <= py < 8:
                    pixels[py * 8 + px] = colour
        x += WIDTH + 1


def centred_text(text: str, colour: RGB, background: RGB = (0, 0, 0)) -> List[RGB]:
    """A whole frame with ``text`` (one or two glyphs) centred."""
    pixels: List[RGB] = [background] * 64
    width = len(text) * (WIDTH + 1) - 1
    draw_text(pixels, text, colour, x=(8 - width + 1) // 2, y=(8 - HEIGHT + 1) // 2)
    return pixels
