#!/usr/bin/env python3
"""Take README's picture of the live web page in a language (``docs/images/web-fr.png``).

A Pi speaking ``--language`` (this process, :func:`gamelib.i18n.choose`) plays a round of Connect 4 between
Ann and Bob: its board after a few moves on the LEDs and its own words for them
(``sensehat_c4.match.words``, the real render and words of the game), served by the real web server on
loopback; Debian's Chromium (``tests/helpers/browser.py``: headless, nothing downloaded), 412 CSS pixels
wide as a phone, asks for the same language (``Accept-Language``), and the window is saved once the page
speaks it, in at most :data:`COLOURS` colours (Pillow: a third of the size, the same picture to the eye).  Needs the test extra and ``.ci/install-browser-deps``::

    .venv/bin/python tools/web_picture.py --language fr docs/images/web-fr.png
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests" / "helpers"))
sys.path.insert(0, str(REPOSITORY))

import browser  # noqa: E402
from PIL import Image  # noqa: E402
from web_client import Console  # noqa: E402

from gamelib import i18n  # noqa: E402
from gamelib.web.address import Address  # noqa: E402
from gamelib.web.server import WebServer  # noqa: E402
from sensehat_c4.match import render, words  # noqa: E402
from gamelib.seats import Kind  # noqa: E402
from sensehat_c4.match.words import Seat  # noqa: E402
from sensehat_c4.rules import Board, Size  # noqa: E402
from sensehat_c4.web.pages import pages  # noqa: E402

MOVES = "4453"
"""The round so far (columns, 1-based): Ann to move, her cursor on column 4."""
WIDTH, HEIGHT = 412, 860
"""The phone's window, in CSS pixels."""
COLOURS = 96
"""The picture's colours at most (a palette PNG)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", required=True, choices=[code for code in i18n.languages()])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    i18n.choose([args.language])
    palette = render.PALETTES[render.DEFAULT]
    seats = (Seat(1, palette.players[0], name="Ann"), Seat(2, palette.players[1], name="Bob", kind=Kind.STICK))
    board = Board.from_moves(MOVES)   # 7 x 6
    with WebServer(Console(), Address("127.0.0.1", 0), pages=[pages(Path("/nonexistent/games.db"))]) as server:
        server.feed.shown(render.board_frame(board, palette, cursor=3))
        server.feed.said(words.match("playing", seats, size=Size(7, 6), number=2, score=(1, 0), turn=1))
        driver = browser.start(phone=True, width=WIDTH, height=HEIGHT)
        try:
            driver.execute_cdp_cmd("Network.setUserAgentOverride", {
                "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": args.language})
            driver.get(f"http://127.0.0.1:{server.port}/")
            live = i18n.CATALOGUE.translations([args.language]).gettext("live")
            deadline = time.monotonic() + 20
            while (driver.find_element("id", "connection").text != live
                   or not driver.find_elements("css selector", "#links a")):
                if time.monotonic() > deadline:
                    raise SystemExit(f"the page did not say {live!r} within 20 s")
                time.sleep(0.1)
            time.sleep(0.5)
            shot = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    Image.open(io.BytesIO(shot)).convert("RGB").quantize(COLOURS).save(args.out, optimize=True)
    print(f"{args.out}: the live page in {i18n.own_name(args.language)}, {WIDTH} px wide, round 2 after {MOVES}")


if __name__ == "__main__":
    main()
