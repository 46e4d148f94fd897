"""The pages' language switch in the real browser, with the real catalogues (``fr`` and ``id``).

Debian's Chromium (``tests/browser.py``) asking for French (``Accept-Language: fr``) sees the live page and the
games played in French, the exact words of the ``.po`` files; it chooses Bahasa Indonesia with the switch (a
labelled ``<select>`` of the program's languages, each named in itself, with its ``lang``): the live page,
the games played and a round's review are then in Indonesian (the choice kept in the ``lang`` cookie, over
the browser's French); and the game's process speaks English all along: its words on the LEDs (a
:class:`~gamelib.status.Status` made now by Connect 4's own words) and :func:`gamelib.i18n.chosen`, while the
page says the game's line in its own language.  The whole program, in English in a terminal, and a French
page reading each turn, the abandon question and the match's end in French.
"""
import pytest
from browser import start, text, wait
from ci_needs import require
from frames import board
from web_client import Console

import browser
from gamelib import i18n
from gamelib.web.address import Address
from gamelib.web.server import WebServer
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4 import i18n as c4_i18n
from sensehat_c4.match import words as c4_words
from sensehat_c4.records import Recorder
from sensehat_c4.web import pages as webpages

pytestmark = pytest.mark.slow

ROUNDS = ("1122334", "4455667")
CHOICES = [(code, i18n.own_name(code), code) for code in i18n.languages()]
"""The switch's options: value, text, lang (the program's languages, each named in itself: ``Fran\u00e7ais``)."""


def switch(driver):
    """The switch as the reader meets it: its label, the options, the one selected."""
    select = driver.find_element("id", "language")
    label = driver.find_element("css selector", "label[for=language]").text
    options = [(o.get_attribute("value"), o.text, o.get_attribute("lang"))
               for o in select.find_elements("tag name", "option")]
    return label, options, select.get_attribute("value")


def content(driver, css):
    """The text of ``css``'s element, shown or not (a fact the game's state leaves out now)."""
    return driver.execute_script("return document.querySelector(arguments[0]).textContent", css)


def facts(driver):
    """The live page's words: its language, the connection, two facts' names, a seat's button, the link."""
    return (driver.execute_script("return document.documentElement.lang"), text(driver, "connection"),
            content(driver, "#turn-row dt"), content(driver, "#score-row dt"), text(driver, "sit-1"),
            [a.text for a in driver.find_elements("css selector", "#links a")])


def test_a_reader_chooses_the_pages_language_and_the_pi_speaks_its_own(tmp_path):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from selenium.webdriver.support.ui import Select

    before = i18n.chosen()
    db = tmp_path / "games.db"
    record_match(Recorder(db, clock=ticking()), list(ROUNDS), sides=(ANN, BOB))
    server = WebServer(Console(), Address("127.0.0.1", 0), pages=[webpages.RecordsPages(db).pages()]).start()
    server.feed.shown(board("4453", 3))
    said = c4_words.replay(2, 4, 7, paused=False, ended=False)     # the game's words on its LEDs
    server.feed.said(said)
    driver = start(phone=True)
    try:
        driver.execute_cdp_cmd("Network.setUserAgentOverride", {
            "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": "fr"})
        base = f"http://127.0.0.1:{server.port}"
        driver.get(base + "/")
        wait(driver, lambda: text(driver, "connection") == "en direct", "the live page, in French")
        wait(driver, lambda: driver.find_elements("css selector", "#links a") != [], "the link to the games played")
        assert facts(driver) == ("fr", "en direct", "Au tour de", "Score", "Joueur 1", ["Parties jou\u00e9es"])
        assert switch(driver) == ("Langue", CHOICES, "fr")
        assert {("fr", "Fran\u00e7ais", "fr"), ("id", "Bahasa Indonesia", "id")} <= set(CHOICES)   # in itself
        assert text(driver, "text") == said_in("fr", lambda: c4_words.replay(2, 4, 7, paused=False, ended=False)) \
            == "revoir manche 2 : coup 4 sur 7"                            # the page's language, not the Pi's
        assert said.details["game"] == "Connect 4" and text(driver, "game") == "\u00b7 Puissance 4"   # the game's value, shown

        driver.get(base + "/history")
        wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == 2, "the two rounds")
        assert driver.find_element("tag name", "h1").text == "Parties jou\u00e9es \u00b7 Puissance 4"
        assert text(driver, "message") == "le dernier match"
        assert driver.execute_script("return document.documentElement.lang") == "fr"
        assert switch(driver) == ("Langue", CHOICES, "fr")

        driver.get(base + "/")
        wait(driver, lambda: text(driver, "connection") == "en direct", "the live page again")
        Select(driver.find_element("id", "language")).select_by_value("id")   # the reader's choice
        wait(driver, lambda: text(driver, "connection") == "langsung", "the live page, in Indonesian")
        wait(driver, lambda: driver.find_elements("css selector", "#links a") != [], "the link, again")
        assert facts(driver) == ("id", "langsung", "Giliran", "Skor", "Pemain 1",
                                 ["Riwayat permainan"])
        assert switch(driver) == ("Bahasa", CHOICES, "id")
        cookie = driver.get_cookie("lang")
        assert (cookie["value"], cookie["path"], cookie["sameSite"]) == ("id", "/", "Strict")

        driver.find_element("css selector", "#links a").click()      # moving between pages: the choice kept
        wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == 2, "the games played")
        assert driver.find_element("tag name", "h1").text == "Riwayat permainan \u00b7 Connect 4"
        assert text(driver, "message") == "1 pertandingan terakhir"
        assert driver.execute_script("return document.documentElement.lang") == "id"
        assert switch(driver) == ("Bahasa", CHOICES, "id")

        driver.get(base + "/review/1")
        wait(driver, lambda: text(driver, "title") == "Ulasan: ronde 1 (pertandingan 1, ronde 1)", "the review")
        assert driver.find_element("id", "first").get_attribute("aria-label") == "awal"
        assert driver.execute_script("return document.documentElement.lang") == "id"
        assert switch(driver) == ("Bahasa", CHOICES, "id")

        server.feed.said(c4_words.replay(2, 5, 7, paused=False, ended=False))   # the Pi goes on in English
        driver.get(base + "/")
        fifth = said_in("id", lambda: c4_words.replay(2, 5, 7, paused=False, ended=False))
        wait(driver, lambda: text(driver, "text") == fifth, "the game's line, in Indonesian")
        assert text(driver, "connection") == "langsung"
        severe = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert severe == []
    finally:
        driver.quit()
        server.close()
    assert said.text == c4_words.replay(2, 4, 7, paused=False, ended=False).text == "replay of round 2: move 4 of 7"
    assert i18n.chosen() == before
    assert (i18n.CATALOGUE.gettext("live"), c4_i18n.CATALOGUE.gettext("Games played")) == ("live", "Games played")


RECORD_LINES = """
window.lines = [];
new MutationObserver(() => window.lines.push([document.getElementById("text").textContent,
                                             document.getElementById("result").textContent]))
  .observe(document.getElementById("words"), {childList: true, subtree: true, characterData: true});
"""
"""Keeps every line and result the live page shows (``window.lines``), however briefly."""


def said_in(language, make):
    """What the Pi would say (a status's ``text``) if it spoke ``language``."""
    i18n.choose([language])
    try:
        return make().text
    finally:
        i18n.choose(None)


def test_the_pi_in_english_and_a_french_page_reading_the_game_s_line_in_french(sandbox, tmp_path):
    """The issue: the live page's line was the Pi's sentence (``round 1 (0-0, 7x6): Zoé (red) to move`` on a French
    page).  The whole program, in English in a terminal, with Zoé and Bob; Chromium asking for French reads each
    turn, the abandon question and the round's end in French, worded by the page from the state's values, while
    the terminal's line under the board stays English."""
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from pty_terminal import start as start_program

    from gamelib.colours import RED, YELLOW
    from sensehat_c4.rules import Size

    program = start_program(sandbox, "--backend", "terminal", "--opponent", "human", "--names", "Zoé,Bob",
                            "--web", "127.0.0.1:0", env={"TERM": "xterm-256color", "COLORTERM": "truecolor",
                                                         "LANG": "C.UTF-8", "LANGUAGE": "en"}, columns=60, lines=16)
    seats = (c4_words.Seat(1, RED, "Zoé"), c4_words.Seat(2, YELLOW, "Bob"))

    def line(phase, **options):
        return lambda: c4_words.match(phase, seats, size=Size(7, 6), number=1, score=(0, 0), **options)

    driver = start(phone=True)
    try:
        program.wait_for(lambda p: any("web: http://127.0.0.1:" in row for row in p.screen.display),
                         what="the web line under the board")
        port = next(row.split("127.0.0.1:")[1].split("/")[0] for row in program.screen.display if "web: http" in row)
        driver.execute_cdp_cmd("Network.setUserAgentOverride", {
            "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": "fr"})
        driver.get(f"http://127.0.0.1:{port}/")
        zoe = said_in("fr", line(c4_words.PLAYING, turn=1))
        assert zoe == "manche 1 (0-0, 7x6) : Zoé (rouge) joue"
        wait(driver, lambda: text(driver, "text") == zoe, "Zoé's turn, in French")
        assert driver.find_element("id", "leds").get_attribute("aria-label") == f"les LED : {zoe}"
        assert any("Zoé (red) to move" in row for row in program.screen.display)    # the Pi: English
        driver.save_screenshot(str(tmp_path / "web-fr-status.png"))

        program.press("down")                                                     # Zoé drops in column 4
        bob = said_in("fr", line(c4_words.PLAYING, turn=2))
        wait(driver, lambda: text(driver, "text") == bob, "Bob's turn, in French")
        assert bob == "manche 1 (0-0, 7x6) : Bob (jaune) joue"
        program.press("up")                                                       # Bob asks to abandon
        question = said_in("fr", line(c4_words.CONFIRMING))
        wait(driver, lambda: text(driver, "text") == question, "the abandon question, in French")
        assert question == "manche 1 (0-0, 7x6) : abandonner le match ? haut encore pour confirmer"
        driver.execute_script(RECORD_LINES)                                       # every line the page shows
        program.press("up")                                                       # yes: the match is over
        ended = said_in("fr", lambda: c4_words.match(c4_words.RESULT, seats, size=Size(7, 6), number=1,
                                                     score=(0, 0), result=c4_words.ABANDONED, match_number=1,
                                                     summary=c4_words._("abandoned at {high}-{low}").format(high=0, low=0)))
        assert ended == "match 1 : abandonn\u00e9 \u00e0 0-0"   # numbered as the sandbox's records number it
        wait(driver, lambda: [ended, "abandonn\u00e9 \u00e0 0-0"] in driver.execute_script("return window.lines"),
             "the match's end, in French (the line with the match's number, and the result)")
        severe = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert severe == []
    finally:
        driver.quit()
        program.close()
    assert i18n.chosen() is None
