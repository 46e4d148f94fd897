"""The web view in a real browser (Debian's Chromium, driven by Selenium; ``tests/helpers/browser.py``), on the real
program: ``sensehat-c4 --backend emu --web`` on the emulator's files (``emu_sandbox``).

It watches a move made at the stick appear on the page, takes seat 2 with the PIN read off the LEDs
(the page never shows it), plays that seat's side of a whole round with the page's joystick while the
stick plays the other, sees the result on the page, and the seat end with the match.  With the queue for PINs
full or long, the page says how to pair at the Pi, and takes the 8-digit pairing PIN (typed in two groups).
``C4_WEB_SCREENSHOT=docs/images/web-phone.png`` keeps a phone-sized screenshot of the page for README.
"""
import os
import re
import subprocess
import sys
import time

import pytest
from browser import page_leds, start, read_address, wait, text
from ci_needs import require
from frames import board
from emu_sandbox import child_env, lit

import browser
from gamelib.colours import BLACK, RED, WHITE, YELLOW
from gamelib.scroll import scroll_frames
from gamelib.web.console import PIN_TEXT
from sensehat_c4.match import render
from sensehat_c4.rules import Board

pytestmark = pytest.mark.slow

P = render.Palette()


def columns_of(frame):
    """The lit rows of each of the frame's 8 columns."""
    return [tuple(frame[y * 8 + x] != BLACK for y in range(8)) for x in range(8)]


def scrolled_text_columns(frames):
    """The columns of text scrolled across ``frames`` (consecutive screens, some steps possibly missed):
    each screen is the last one shifted left by one to three columns, plus what came in on the right."""
    stream = columns_of(frames[0])
    for frame in frames[1:]:
        now = columns_of(frame)
        shift = next((s for s in (1, 2, 3) if now[:8 - s] == stream[len(stream) - 8 + s:]), None)
        if shift is None:
            break                    # not one scroll any more (the board came back)
        stream += now[8 - shift:]
    while stream and not any(stream[0]):
        stream.pop(0)
    return stream


def read_pin(frames):
    """The four digits of the PIN the LEDs scrolled, decoded with the font they were drawn in."""
    stream = scrolled_text_columns(frames)

    def text_columns(text):
        """The text's columns, from its first lit one to the gap after its last."""
        drawn = [columns_of(f)[7] for f, _ in scroll_frames(text, WHITE, (0, 0, 0))]
        while drawn and not any(drawn[0]):
            drawn.pop(0)
        while drawn and not any(drawn[-1]):
            drawn.pop()
        return drawn + [(False,) * 8]

    pin = ""
    for _ in range(4):
        for digit in "0123456789":
            width = len(text_columns(f"PIN {pin}{digit}"))
            if stream[:width] == text_columns(f"PIN {pin}{digit}")[:width]:
                pin += digit
                break
        else:
            raise AssertionError(f"could not read the PIN after {pin!r}")
    return pin


def interlude(emulator, still, meanwhile=lambda: True, timeout=15.0):
    """The screens the LEDs show from when they leave ``still`` until they come back to it (polled every
    5 ms); ``meanwhile()`` must hold all along (what the page shows)."""
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        pixels = emulator.pixels()
        if pixels == still:
            if seen:
                return seen
        elif not seen or pixels != seen[-1]:
            seen.append(pixels)
            assert meanwhile(), "the page showed what only the LEDs may"
        time.sleep(0.005)
    raise AssertionError(f"the LEDs never came back ({len(seen)} screens seen)")


def test_a_phone_watches_takes_a_seat_and_plays_a_round_in_chromium(emulator, emu_dir):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    game = subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", "--matches", "1",
         "--fall-ms", "10", "--web", "127.0.0.1:0"],
        env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    driver = None
    try:
        emulator.wait_client()
        url = read_address(game)
        driver = start()
        driver.get(url)
        wait(driver, lambda: text(driver, "connection") == "live", "the page to connect")
        wait(driver, lambda: page_leds(driver) == board("", 3), "the empty board on the page")
        assert text(driver, "text") == "round 1 (0-0, 7x6): player 1 (red) to move"
        drawn = [tuple(p) for p in driver.execute_script(browser.LEDS_JS)]   # the dark LEDs in /palette.css's grey
        assert drawn.count(browser.OFF) == 64 - 43 and drawn.count(BLACK) == 0

        # a move at the stick appears on the page
        emulator.tap("right")
        emulator.wait_screen(lambda px: px == lit(board("", 4)))
        wait(driver, lambda: page_leds(driver) == board("", 4), "the cursor the stick moved")
        emulator.tap("left")
        wait(driver, lambda: page_leds(driver) == board("", 3), "the cursor back")

        # seat 2 with the PIN the LEDs scroll (the page shows the board meanwhile, never the PIN)
        still = lit(board("", 3))
        driver.find_element("id", "sit-2").click()
        scrolled = interlude(emulator, still, lambda: page_leds(driver) == board("", 3))
        pin = read_pin(scrolled)
        assert scrolled[0] == lit(list(scroll_frames(PIN_TEXT.format(pin=pin), WHITE, (0, 0, 0)))[0][0])
        driver.find_element("id", "pin").send_keys(pin)
        driver.find_element("id", "sit").click()
        wait(driver, lambda: text(driver, "seat-text") == "You play seat 2.", "the seat")
        assert driver.find_element("id", "down").is_enabled()
        assert [b.get_attribute("aria-label") for b in driver.find_elements("css selector", "#stick button")] == \
            ["up", "left", "middle", "right", "down"]
        wait(driver, lambda: "phone" in text(driver, "players"), "the words naming the phone's seat")
        interlude(emulator, still)                                     # "P2 PHONE" scrolls by

        # a round: the stick plays seat 1 (columns 1, 1, 2, 2), the page seat 2 (column 4 four times: it wins)
        moves = ""
        for turn in range(8):
            if turn % 2 == 0:
                column = (1, 1, 2, 2)[turn // 2]
                emulator.wait_screen(lambda px: px == lit(board(moves, 3)))
                emulator.tap(*["left"] * (4 - column))
                emulator.tap("down")
                moves += str(column)
                wait(driver, lambda: page_leds(driver) == board(moves, 3) and
                     "your-turn" in driver.find_element("id", "stick").get_attribute("class"), "the phone's turn")
                continue
            if turn == 7 and os.environ.get("C4_WEB_SCREENSHOT"):
                driver.save_screenshot(os.environ["C4_WEB_SCREENSHOT"])
            for direction in ("right", "left", "down"):                # to column 5 and back, then drop
                driver.find_element("id", direction).click()
            moves += "4"
        assert moves == "14142424"
        wait(driver, lambda: text(driver, "result") == "player 2 wins the round", "the round's result")
        wait(driver, lambda: text(driver, "score") == "0 \u2013 1 (round 1)", "the score")

        # round 2 (seat 2 starts): the stick abandons the match; the page says so, and the seat has ended with it
        emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), render.Palette(YELLOW, RED), cursor=3)),
                             timeout=15)
        emulator.tap("up")
        time.sleep(0.3)
        emulator.tap("up")
        wait(driver, lambda: text(driver, "text") == "match 1: abandoned at 1-0, player 2 ahead", "the match's end")
        wait(driver, lambda: text(driver, "seat-text") == "Play from here: take a seat.", "the seat ended")
        out, err = game.communicate(timeout=30)
        assert (game.returncode, out) == (0, "match 1: abandoned at 1-0, player 2 ahead\n")
        wait(driver, lambda: text(driver, "connection") == "connection lost: reconnecting\u2026", "the page to say so")
        severe = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "/api/events - Failed to load resource: net::ERR_CONNECTION_REFUSED" not in entry["message"]]
        assert severe == []      # no script error, nothing the security policy blocked, the stream ended cleanly
    finally:
        if driver is not None:
            driver.quit()
        game.kill()
        game.wait()


def test_the_page_says_when_the_connection_drops_and_reconnects_by_itself():
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from web_client import Console

    from gamelib.web.address import Address
    from gamelib.web.server import WebServer

    first = WebServer(Console(), Address("127.0.0.1", 0)).start()
    port = first.port
    first.feed.shown(board("", 3))
    driver = start(phone=False)
    second = None
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        wait(driver, lambda: text(driver, "connection") == "live", "the page to connect")
        wait(driver, lambda: page_leds(driver) == board("", 3), "the board")
        first.close()                                                  # the game stopped (or the Wi-Fi dropped)
        wait(driver, lambda: text(driver, "connection") == "connection lost: reconnecting\u2026", "the page to say so")
        second = WebServer(Console(), Address("127.0.0.1", port)).start()   # it is back
        second.feed.shown(board("4", 3))
        wait(driver, lambda: text(driver, "connection") == "live", "the page to reconnect by itself", timeout=20)
        wait(driver, lambda: page_leds(driver) == board("4", 3), "the board as it is now")
    finally:
        driver.quit()
        first.close()
        if second is not None:
            second.close()


HOLD_ADVICE = ("At the Pi, hold the middle of the stick for 3 seconds: the LEDs show an 8-digit PIN for any phone at "
               "once. Type it here.")


def test_with_the_queue_full_or_long_the_page_says_how_to_pair_and_takes_the_8_digit_pin():
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from web_client import Console
    from web_client import post

    from gamelib.backends.base import PAIR_HOLD
    from gamelib.web.address import Address
    from gamelib.web.limits import Limits
    from gamelib.web.server import WebServer

    assert PAIR_HOLD == 3.0                                            # what the page says (page.js: HOLD_SECONDS)
    full = WebServer(Console(), Address("127.0.0.1", 0), limits=Limits(pin_queue=2)).start()
    long = WebServer(Console(), Address("127.0.0.1", 0), limits=Limits(pin_queue=3)).start()
    driver = start()
    try:
        for server in (full, long):                                   # the first shown at once, two waiting
            for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
                post(server.port, "/api/pin", {}, source=source)
        driver.get(f"http://127.0.0.1:{long.port}/")
        wait(driver, lambda: text(driver, "connection") == "live", "the page to connect")
        driver.find_element("id", "sit-2").click()                    # behind two, the next scroll in 30 s: 90 s
        advice = re.compile(r"The PIN scrolls across the LEDs in about (\d+) s \(others asked first\)\. " +
                            re.escape(HOLD_ADVICE))
        wait(driver, lambda: advice.fullmatch(text(driver, "seat-message")), "the advice")
        assert 60 < int(advice.fullmatch(text(driver, "seat-message")).group(1)) <= 90

        driver.get(f"http://127.0.0.1:{full.port}/")
        wait(driver, lambda: text(driver, "connection") == "live", "the page to connect")
        driver.find_element("id", "sit-2").click()                    # 503 busy
        wait(driver, lambda: text(driver, "seat-message") == f"Too many devices are waiting for a PIN. {HOLD_ADVICE}",
             "the advice")
        field = driver.find_element("id", "pin")
        assert field.is_displayed() and field.get_attribute("maxlength") == "12"
        for wrong in ("12345", "123456", "1234 567", "1234x5678"):   # neither 4 digits nor 8: not sent
            field.clear()
            field.send_keys(wrong)
            assert driver.execute_script("return document.getElementById('pin').checkValidity()") is False, wrong
        full.pair()                                                   # the stick's middle held at the Pi
        pin = full.seating.pairing
        assert pin == full.console.pairings[-1]                       # scrolled on the LEDs
        field.clear()
        field.send_keys(f"{pin[:4]} {pin[4:]}")                       # as the LEDs group it: the space left out
        assert driver.execute_script("return document.getElementById('pin').checkValidity()") is True
        driver.find_element("id", "sit").click()
        wait(driver, lambda: text(driver, "seat-text") == "You play seat 2.", "the seat")
        assert full.console.seats[2] is not None and driver.find_element("id", "down").is_enabled()
        severe = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "/api/pin - Failed to load resource: the server responded with a status of 503" not in
                  entry["message"]]
        assert severe == []
    finally:
        driver.quit()
        full.close()
        long.close()
