#!/usr/bin/env python3
"""Take README's picture of the game in a terminal (``docs/images/terminal.png``; in a language,
``--language fr``: README's French section's ``docs/images/terminal-fr.png``).

Runs ``sensehat-c4 --backend terminal`` in a pseudo-terminal (24-bit colour, UTF-8),
plays a few moves with the arrow keys, reads the screen through ``pyte`` (as the
tests do) and paints it cell by cell with Pillow in DejaVu Sans Mono: what a
terminal with that font shows.  Needs the test extra and Pillow::

    .venv/bin/pip install pillow
    .venv/bin/python tools/terminal_picture.py docs/images/terminal.png
    .venv/bin/python tools/terminal_picture.py --language fr --columns 66 docs/images/terminal-fr.png
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests" / "helpers"))
sys.path.insert(0, str(REPOSITORY))

from emu_sandbox import child_env  # noqa: E402
from pty_terminal import PtyProgram, game  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FOREGROUND, BACKGROUND = (204, 204, 204), (30, 30, 30)
NAMED = {"black": (0, 0, 0), "white": (229, 229, 229), "red": (205, 0, 0), "green": (0, 205, 0),
         "yellow": (205, 205, 0), "blue": (0, 0, 238), "magenta": (205, 0, 205), "cyan": (0, 205, 205)}
MOVES = "4453"


def colour(value: str, default: tuple) -> tuple:
    if value == "default":
        return default
    if value in NAMED:
        return NAMED[value]
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def paint(screen, path: str, size: int = 20) -> None:
    font = ImageFont.truetype(FONT, size)
    width = round(font.getlength("M"))
    height = round(size * 1.25)
    image = Image.new("RGB", (screen.columns * width, screen.lines * height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row in range(screen.lines):
        line = screen.buffer[row]
        for column in range(screen.columns):
            cell = line[column]
            x, y = column * width, row * height
            draw.rectangle([x, y, x + width - 1, y + height - 1], fill=colour(cell.bg, BACKGROUND))
            if cell.data.strip():
                draw.text((x, y + height // 2), cell.data, font=font, fill=colour(cell.fg, FOREGROUND), anchor="lm")
    image.save(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="the PNG to write")
    parser.add_argument("--language", default="en", help="the game's language (LANGUAGE), e.g. fr (default: en)")
    parser.add_argument("--columns", type=int, default=62, help="the terminal's width: the turn's line whole (default: 62)")
    args = parser.parse_args()
    env = child_env(tempfile.mkdtemp(prefix="c4picture-"))
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8", LANGUAGE=args.language)
    program = PtyProgram(game("--opponent", "human"), columns=args.columns, lines=15, env=env)
    try:
        program.pump(1.5)
        for move in MOVES:
            steps = int(move) - 4
            for _ in range(abs(steps)):
                program.press("right" if steps > 0 else "left", gap=0.1)
            program.press("enter", gap=0.8)
        paint(program.screen, args.output)
        print(program.text())
    finally:
        program.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
