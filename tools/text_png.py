"""Render a command's text output as a terminal-like PNG, for the guide's pictures.

    python tools/text_png.py OUT.png -- sensehat-c4 review last --db games.db

Needs Pillow (in the ``test`` extra's dependency tree through sense-emu); uses DejaVu Sans
Mono where the system has it, else Pillow's built-in font.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",)
BACKGROUND, FOREGROUND, PROMPT = (30, 30, 30), (220, 220, 220), (120, 200, 120)
SIZE, PAD = 15, 12


def render(lines, out: Path) -> None:
    font = next((ImageFont.truetype(p, SIZE) for p in FONTS if Path(p).exists()), None) or ImageFont.load_default()
    left, top, right, bottom = font.getbbox("M")
    cell_w, cell_h = font.getlength("M"), int((bottom - top) * 1.6) or SIZE + 4
    width = int(max(len(line) for line in lines) * cell_w) + 2 * PAD
    image = Image.new("RGB", (width, len(lines) * cell_h + 2 * PAD), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((PAD, PAD + i * cell_h), line, font=font, fill=PROMPT if line.startswith("$ ") else FOREGROUND)
    image.save(out)


def main(argv) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: text_png.py OUT.png -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    command = argv[2:]
    done = subprocess.run(command, capture_output=True, text=True)
    shown = " ".join(["sensehat-c4" if Path(command[0]).name == "sensehat-c4" else command[0]] + command[1:])
    render([f"$ {shown}"] + done.stdout.rstrip("\n").splitlines(), Path(argv[0]))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
