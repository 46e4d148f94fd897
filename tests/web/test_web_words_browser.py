"""Every word the web pages show comes from the catalogues, in the language the browser asks for: with a
pseudo-translation (every message wrapped in ``[!...!]``, a gettext ``NullTranslations`` put in both
catalogues for the language ``eo``) and Chromium asking for ``eo`` (``tests/browser.py``), the live page
(a seat asked for), the games played, a round's review (made) and its replay show no English outside
the brackets in ``document.body.innerText``, nor in the title.

What is not the pages' words, and so stays as it is (:data:`NOT_WORDS`): the players' names, the game's
own sentence (the Pi's words, in the Pi's language: its ``text``, which the page no longer shows), the language switch's
choices (each language named in itself), numbers, scores, board sizes, column digits, signs and symbols, and dates (the browser's ``Intl`` writes them in the page's
language).  The games played, a review and a replay are read over a database of every kind of game
(``records_data.every_kind``): no stored value (a level's name, ``match-me``) is put into a message as it is
(``pseudo_words.raw_words``).  The Pi's own language stays English throughout.
"""
import time

import pytest
from browser import start, text, wait
from ci_needs import require
import pseudo_words
from pseudo_words import Pseudo
from web_client import Console

import browser
from gamelib import i18n
from gamelib.status import Status
from gamelib.web.address import Address
from gamelib.web.server import WebServer
from records_data import every_kind
from sensehat_c4 import i18n as c4_i18n
from sensehat_c4.records import MatchStatus, Records
from sensehat_c4.web import pages as webpages

pytestmark = pytest.mark.slow

SAID = "Ann to move: the game's own words"
"""The game's sentence (the Pi's words, in the Pi's language): the page says the line in its own words."""
NOT_WORDS = {"Ann", "Bob"} | {word for code in i18n.languages() for word in i18n.own_name(code).split()}
"""Names: the players', and the languages' in the switch (each in itself)."""
MESSAGES = pseudo_words.template_messages()


def bare_words(shown: str) -> set:
    """The words of ``shown`` outside every ``[!...!]`` or put into a message as they are (a stored value), but
    names and the game's own sentence (were it shown)."""
    return pseudo_words.raw_words(shown.replace(SAID, ""), MESSAGES, NOT_WORDS)


def body(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def check(driver, where, leave_out=()):
    shown = body(driver)
    for text_left in leave_out:
        shown = shown.replace(text_left, "")
    assert bare_words(shown) == set(), f"{where}: English not from the catalogue in {shown!r}"
    title = driver.execute_script("return document.title")
    assert title.startswith("[!") and bare_words(title) == set(), (where, title)
    assert driver.execute_script("return document.documentElement.lang") == "eo"


def test_every_page_shows_only_the_catalogues_words_in_the_language_asked_for(tmp_path, monkeypatch):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    monkeypatch.setattr(i18n.Catalogue, "languages", lambda catalogue: frozenset({"eo"}))
    for catalogue in (i18n.CATALOGUE, c4_i18n.CATALOGUE):
        monkeypatch.setattr(catalogue, "translations", lambda languages=None, real=catalogue.translations:
                            Pseudo() if languages and languages[0] == "eo" else real(languages))
    db = tmp_path / "games.db"
    every_kind(db)
    with Records(db) as stored:
        matches = stored.matches()
    rounds = [rnd.id for match in matches for rnd in match.rounds]
    match_me = next(match for match in matches if match.sides[1].level == "match-me" and match.status is MatchStatus.FINISHED)
    server = WebServer(Console(), Address("127.0.0.1", 0), pages=[webpages.RecordsPages(db).pages()]).start()
    server.feed.shown([(0, 0, 0)] * 64)
    server.feed.said(Status("playing", SAID, turn=1, seats=(
        {"seat": 1, "name": "Ann", "colour": "#ff0000", "colour_name": "red", "kind": "stick"},
        {"seat": 2, "level": "hard", "colour": "#ffff00", "colour_name": "yellow", "kind": "computer"}),
        details={"game": "Connect 4", "score": [1, 0], "round": 2, "board": "7x6"}))
    driver = start(phone=False)
    try:
        driver.execute_cdp_cmd("Network.setUserAgentOverride", {
            "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": "eo"})
        base = f"http://127.0.0.1:{server.port}"
        driver.get(base + "/")
        wait(driver, lambda: text(driver, "connection") == "[!live!]", "the page to connect, in its words")
        wait(driver, lambda: text(driver, "text") == "[![!round 2 (1-0, 7x6)!]: [!Ann ([!red!])!] to move!]",
             "the game's line, in the page's words (never the Pi's sentence)")
        wait(driver, lambda: [a.text for a in driver.find_elements("css selector", "#links a")] == ["[!Games played!]"],
             "the link to the games played")
        assert text(driver, "turn") == "Ann" and text(driver, "sit-1") == "[!Player 1!]"
        assert text(driver, "score") == "1 \u2013 0 [!(round 2)!]"
        assert "[!computer ([!hard!])!]" in text(driver, "players")             # the level's value: a word too
        check(driver, "the live page")
        driver.find_element("id", "sit-1").click()                      # a seat asked for: the PIN's words
        wait(driver, lambda: text(driver, "seat-message") == "[!The PIN scrolls across the LEDs: type it here.!]",
             "the seat's words")
        check(driver, "the live page, a seat asked for")

        driver.get(base + "/history")
        wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == len(rounds), "every round")
        assert text(driver, "message") == f"[!the last {len(matches)} matches!]"
        second = driver.find_element("css selector", f'.round[data-round="{match_me.rounds[1].id}"]')
        assert [s.text for s in second.find_elements("css selector", "span")][:4] == [
            "[!Round 2!]", "[![!computer [!match me!] (1 s)!] first!]", "[![!computer [!match me!] (1 s)!] won!]",
            "[!7 moves, 1:00!]"]
        dates = {node.text for node in driver.find_elements("css selector", ".when")}   # the browser's, in the
        check(driver, "the games played", leave_out=dates)                              # page's language

        driver.get(base + f"/review/{match_me.rounds[0].id}")
        wait(driver, lambda: driver.find_element("id", "graph-box").is_displayed(), "the review", timeout=120)
        wait(driver, lambda: text(driver, "position").startswith("[!Move 7:"), "the last move described")
        assert text(driver, "title") == (f"[!Review: round {match_me.rounds[0].id} (match {match_me.id}, "
                                         "round 1)!]")
        assert len(driver.find_elements("css selector", "#move-rows tr")) == 7
        check(driver, "a round's review")

        driver.get(base + f"/replay/{match_me.rounds[1].id}")
        wait(driver, lambda: text(driver, "position") == "[!The empty board.!]", "the replay")
        driver.find_element("id", "play").click()
        wait(driver, lambda: text(driver, "play") == "\u23F8\uFE0E [!pause!]", "playing")
        time.sleep(1.0)
        check(driver, "a round's replay")
        severe = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert severe == []
        assert i18n.CATALOGUE.translations().gettext("live") == "live"   # the Pi's own language: English still
    finally:
        driver.quit()
        server.close()
