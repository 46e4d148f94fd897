"""The web pages against axe-core (WCAG 2.1 level AA) in a real browser, in every palette.

Debian's Chromium through Selenium (``tests/browser.py``) on the real server with Connect 4's pages over a
games file holding a match: the live page (a board on the LEDs, a seat asked for), the games played, a
round's review (made, its table and graph shown) and its replay, each checked by axe-core, which
``.ci/install-browser-deps`` installs from the npm registry (skipped with the reason where it is missing).
The same pages in every language the program speaks besides English (:func:`gamelib.i18n.languages`), the
first asked for by the browser's ``Accept-Language``, the others chosen with the pages' language switch
(which is on every page, and checked with it).  And an open live page taking the colours of a palette
chosen while it is open.
"""
import contextlib

import pytest
from browser import axe_missing, axe_report, axe_violations, start, wait
from ci_needs import require
from frames import board

from gamelib import i18n
from gamelib.colours import hex_colour
from gamelib.palette import DEFAULT, PALETTES
from gamelib.status import Status
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.records import Recorder

pytestmark = pytest.mark.slow

ROUNDS = ("1122334", "4455667")
LANGUAGES = [code for code in i18n.languages() if code != i18n.SOURCE_LANGUAGE]
"""The languages besides English, each a catalogue of the program's words."""
PAGES = ["live", "live, asking for a seat", "games played", "review", "replay"]


def walk(driver, root, language, connected):
    """axe-core's violations on each page of :data:`PAGES` (and an image without ``alt``: what the check finds
    is wrong), in ``language`` (the switch showing it), the live page's connection saying ``connected``."""
    found = {}

    def spoken():
        assert driver.execute_script("return document.documentElement.lang") == language
        assert driver.find_element("id", "language").get_attribute("value") == language   # the switch, checked too

    driver.get(root + "/")
    wait(driver, lambda: driver.find_element("id", "connection").text == connected and
         driver.find_element("id", "turn-row").get_attribute("hidden") is None, "the live page and its words")
    assert driver.find_element("id", "players").text.startswith("Ann")
    spoken()
    found["live"] = axe_violations(driver)
    driver.find_element("id", "sit-1").click()          # the PIN's form, shown
    wait(driver, lambda: driver.find_element("id", "pin-form").get_attribute("hidden") is None, "the form")
    found["live, asking for a seat"] = axe_violations(driver)
    driver.get(root + "/history")
    wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == 2, "the two rounds")
    spoken()
    found["games played"] = axe_violations(driver)
    driver.get(root + "/review/2")
    wait(driver, lambda: driver.find_element("id", "moves").get_attribute("hidden") is None,
         "the review", timeout=120)
    spoken()
    found["review"] = axe_violations(driver)
    driver.get(root + "/replay/2")
    wait(driver, lambda: driver.find_elements("css selector", "#board circle.token") != [] or
         driver.find_element("id", "position").text != "", "the replay")
    spoken()
    found["replay"] = axe_violations(driver)
    driver.execute_script("document.querySelector('main').insertAdjacentHTML('beforeend', "
                          "'<img src=\"/icon.svg\">');")
    broken = axe_violations(driver)                     # the check itself finds what is wrong
    assert [v["id"] for v in broken] == ["image-alt"]
    return found


@contextlib.contextmanager
def serve(tmp_path, name):
    """The web server with Connect 4's pages over a games file of :data:`ROUNDS`, a board on the LEDs and Ann
    to move, in palette ``name``."""
    from web_client import Console

    from gamelib.web.address import Address
    from gamelib.web.server import WebServer
    from sensehat_c4.web.pages import pages

    db = tmp_path / "games.db"
    record_match(Recorder(db, clock=ticking()), list(ROUNDS), sides=(ANN, BOB))
    chosen = PALETTES[name]
    console = Console()
    console.palette = chosen
    with WebServer(console, Address("127.0.0.1", 0), pages=[pages(db)]) as server:
        server.feed.shown(board("4453", 3))
        seats = tuple({"name": side.name, "colour": hex_colour(colour), "kind": "person"}
                      for side, colour in zip((ANN, BOB), chosen.players))
        server.feed.said(Status("playing", "Ann to move", "Ann to move: left/right choose, Enter drops",
                                {"score": [1, 0], "round": 2, "board": "7x6"}, turn=1, seats=seats))
        yield server


@pytest.mark.parametrize("name", list(PALETTES))
def test_every_page_passes_axe_core_at_wcag_2_1_aa(tmp_path, name):
    require(axe_missing(), "the accessibility test needs Chromium, chromedriver, Selenium and axe-core",
            ".ci/install-browser-deps")
    with serve(tmp_path, name) as server:
        driver = start(phone=True)
        try:
            found = walk(driver, f"http://127.0.0.1:{server.port}", "en", "live")
        finally:
            driver.quit()
    assert {page: axe_report(v) for page, v in found.items() if v} == {}
    assert list(found) == PAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_passes_axe_core_in_every_language(tmp_path, language):
    require(axe_missing(), "the accessibility test needs Chromium, chromedriver, Selenium and axe-core",
            ".ci/install-browser-deps")
    from selenium.webdriver.support.ui import Select

    live = i18n.CATALOGUE.translations([language]).gettext("live")
    assert live != "live"                               # the language's own word for it
    with serve(tmp_path, DEFAULT) as server:
        driver = start(phone=True)
        root = f"http://127.0.0.1:{server.port}"
        try:
            driver.execute_cdp_cmd("Network.setUserAgentOverride", {   # the browser asks for the first language
                "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": LANGUAGES[0]})
            if language != LANGUAGES[0]:                # the others: chosen with the switch
                driver.get(root + "/")
                wait(driver, lambda: driver.find_elements("id", "language") != [], "the switch")
                Select(driver.find_element("id", "language")).select_by_value(language)
                wait(driver, lambda: driver.execute_script("return document.documentElement.lang") == language,
                     "the page in the language chosen")
            found = walk(driver, root, language, live)
        finally:
            driver.quit()
    assert {page: axe_report(v) for page, v in found.items() if v} == {}
    assert list(found) == PAGES


def test_an_open_page_takes_the_colours_of_a_palette_chosen_meanwhile():
    require(axe_missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from web_client import Console, said

    from gamelib.web.address import Address
    from gamelib.web.server import WebServer

    console = Console()
    field = "return getComputedStyle(document.documentElement).getPropertyValue('--field').trim();"
    with WebServer(console, Address("127.0.0.1", 0)) as server:
        server.feed.shown(board("4", 3))
        driver = start(phone=True)
        try:
            driver.get(f"http://127.0.0.1:{server.port}/")
            wait(driver, lambda: driver.find_element("id", "connection").text == "live", "the live page")
            assert driver.execute_script(field) == PALETTES["default"].page.field
            console.palette = PALETTES["purple-yellow"]   # the launcher's colours item; its menu says so
            server.feed.said(said())
            wait(driver, lambda: driver.execute_script(field) == PALETTES["purple-yellow"].page.field,
                 "the new palette's colours")
            assert driver.execute_script("return document.querySelector('link[href^=\"/palette.css\"]')"
                                         ".getAttribute('href');") == "/palette.css?purple-yellow"
            severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert severe == []
        finally:
            driver.quit()
