"""The review pages in a real browser (Debian's Chromium through Selenium, ``tests/helpers/browser.py``) on the real
program: ``sensehat-c4 --backend emu --web`` on the emulator's files, its games database holding two rounds;
and a review's layout on phones 412 and 320 px wide (the table's width, the graph's height).

From the live page's link to the games played, to a round's review: the progress while it is made (the
Python solver core, so a 40-move review takes seconds), the graph with the key moments the review names,
every move's mark, the board following the pointer over the graph, the keys and the table; a phone tapping
the graph; the replay stepping by itself.  (the guide's picture of the review, web-and-phone.md: ``tools/review_picture.py``.)
"""
import json
import subprocess
import sys
import time
import urllib.request

import pytest
from browser import start, read_address, text, wait
from ci_needs import require
from emu_sandbox import child_env

import browser
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.study import review
from sensehat_c4.records import Recorder, Records
from sensehat_c4.rules import Board

pytestmark = pytest.mark.slow

SHORT, LONG = "1122334", "4344744673633212217741661367327622115555"

TOKENS_JS = """
return Array.from(document.querySelectorAll('#board circle.token'))
  .map((c) => [Number(c.dataset.col), Number(c.dataset.row), Number(c.dataset.owner)]);
"""


def tokens(moves: str):
    """``[column, row, board player]`` of every token after ``moves`` (1-based), as the page lists them."""
    board = Board.from_moves(moves)
    return sorted([c + 1, r + 1, board.cell(c, r)] for c in range(7) for r in range(6) if board.cell(c, r))


def shown(driver):
    return sorted(driver.execute_script(TOKENS_JS))


def test_the_review_and_the_replay_in_chromium(emulator, emu_dir, tmp_path):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    db = tmp_path / "games.db"
    record_match(Recorder(db, clock=ticking()), [SHORT, LONG], sides=(ANN, BOB))
    with Records(db) as stored:
        match, rnd = stored.round("2")
    expected = review.review_round(match, rnd, seconds=60.0)   # the same exact scores, from this process
    env = {**child_env(emu_dir), "SENSEHAT_C4_PURE_PYTHON": "1"}
    game = subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", "--web", "127.0.0.1:0",
         "--db", str(db)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    driver = None
    try:
        emulator.wait_client()
        url = read_address(game)
        driver = start(phone=False)
        driver.get(url)
        wait(driver, lambda: [a.text for a in driver.find_elements("css selector", "#links a")] == ["Games played"],
             "the link to the games played")
        driver.find_element("css selector", "#links a").click()
        wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == 2, "the two rounds")
        assert text(driver, "message") == "the last match"
        second = driver.find_element("css selector", '.round[data-round="2"]')
        assert [s.text for s in second.find_elements("css selector", "span")][:4] == [
            "Round 2", "Bob first", "Ann won", "40 moves, 1:00"]
        driver.find_element("css selector", '.round[data-round="2"] a.review').click()

        # the review is made (seconds on the Python core): the page shows how far it is
        progress = []
        deadline = time.monotonic() + 120
        while driver.find_element("id", "graph-box").get_attribute("hidden") is not None:
            assert time.monotonic() < deadline, "no review within 120 s"
            if not driver.find_element("id", "progress-box").get_attribute("hidden"):
                progress.append(text(driver, "progress-text"))
            time.sleep(0.05)
        steps = [p for p in progress if p.startswith("reviewing: move ")]
        assert len(set(steps)) >= 3, progress
        numbers = [int(p.split()[2]) for p in steps]
        assert numbers == sorted(numbers) and all(p.endswith(" of 40") for p in steps)

        # the graph: a bar, line or "?" for each position, "!" at each key moment; the table: every mark.  On a
        # loaded machine the Python core may leave a middle position unsolved in its 10 s: the page shows what
        # the server made (the API's answer, which test_webpages checks against the command)
        made = json.loads(urllib.request.urlopen(url.rstrip("/") + "/api/review/2", timeout=10).read())
        solved = [m["mark"] != "unsolved" for m in made["review"]]
        assert [m.mark for m, ok in zip(expected.moves, solved) if ok] == [m["mark"] for m in made["review"] if
                                                                           m["mark"] != "unsolved"]
        keys = [int(k.get_attribute("data-ply")) for k in driver.find_elements("css selector", "#graph .key")]
        assert keys == made["key_moments"] == list(expected.key_moments()) == [3, 5]
        assert len(driver.find_elements("css selector", "#graph [data-ply]")) == 41 + len(keys)
        marks = [td.text for td in driver.find_elements("css selector", "#move-rows td.mark")]
        assert marks == [review.mark_text(review.MoveReview(m["ply"], m["player"], m["column"] - 1, None if
                                                            m["scores"] is None else
                                                            {int(c) - 1: v for c, v in m["scores"].items()}))
                         for m in made["review"]]
        assert shown(driver) == tokens(LONG)                            # the end of the round first

        # the board follows the pointer over the graph
        for ply in (3, 12, 0):
            ActionChains(driver).move_to_element(driver.find_element("css selector", f'#graph [data-ply="{ply}"]')) \
                .perform()
            wait(driver, lambda: shown(driver) == tokens(LONG[:ply]), f"the board after {ply} moves")
        ActionChains(driver).move_to_element(driver.find_element("css selector", '#graph [data-ply="3"]')).perform()
        wait(driver, lambda: text(driver, "position").startswith("Move 3: Bob played column 4 (0): mistake (missed win);"
                                                                  " best 6 (+2)."), "the words of move 3")
        assert text(driver, "position").endswith("Now: a draw.")
        options = {o.get_attribute("data-col"): (o.text, o.get_attribute("class"))
                   for o in driver.find_elements("css selector", "#options text")}
        assert options["4"] == ("0", "keeps played")                   # Ann's move 4 kept the draw
        assert options["1"] == ("-5", "changes")
        driver.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
        wait(driver, lambda: shown(driver) == tokens(LONG[:4]), "a move forward with the arrow key")
        driver.find_element("css selector", '#move-rows tr[data-ply="9"]').click()
        wait(driver, lambda: shown(driver) == tokens(LONG[:9]), "the position of the table's row")
        assert "selected" in driver.find_element("css selector", '#move-rows tr[data-ply="9"]').get_attribute("class")

        # the replay: the moves on the board, stepping by itself
        driver.find_element("id", "other").click()
        wait(driver, lambda: text(driver, "title") == "Replay: round 2 (match 1, round 2)", "the replay")
        assert driver.find_element("id", "review").get_attribute("hidden") is not None
        assert shown(driver) == []
        driver.find_element("id", "play").click()
        wait(driver, lambda: len(shown(driver)) >= 3, "the replay to step on", timeout=10)
        driver.find_element("id", "play").click()                      # pause
        paused = shown(driver)
        time.sleep(1.0)
        assert shown(driver) == paused and paused == tokens(LONG[:len(paused)])
        severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []       # no script error, nothing the security policy blocked
        driver.quit()

        # a phone taps the graph
        driver = start(phone=True)
        driver.get(url.rstrip("/") + "/review/2")
        wait(driver, lambda: driver.find_element("id", "graph-box").get_attribute("hidden") is None, "the graph")
        driver.find_element("css selector", '#graph [data-ply="5"]').click()
        wait(driver, lambda: shown(driver) == tokens(LONG[:5]), "the board after the tap")
    finally:
        if driver is not None:
            driver.quit()
        game.kill()
        game.wait()


LAYOUT_JS = """
const frame = document.getElementById('table-box'), graph = document.getElementById('graph');
const hint = document.getElementById('table-hint');
const bars = [...graph.querySelectorAll('rect.bar')].map((b) => b.getBBox());
const box = graph.viewBox.baseVal;
return {page: document.documentElement.scrollWidth, viewport: window.innerWidth,
        table: [frame.scrollWidth, frame.clientWidth], hint: !!hint && hint.offsetParent !== null,
        fades: !!document.querySelector('#table-frame.more'),
        graph: graph.getBoundingClientRect().height, span: box.height,
        bars: [Math.min(...bars.map((b) => b.y)), Math.max(...bars.map((b) => b.y + b.height))]};
"""


@pytest.mark.parametrize("width", [412, 320])
def test_a_review_on_a_phone_fits_its_width_and_the_graph_its_values(tmp_path, width):
    """On a 412 px phone the marks' table was cut at the right edge with no sign that it scrolls, and a short
    one-sided round's graph was 500 px tall and half empty: the table now fits (or says it scrolls, and its
    edge fades), and the graph is as tall as its bars reach, with room for the marks and the numbers."""
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    from web_client import Console

    from gamelib.colours import YELLOW
    from gamelib.web.address import Address
    from gamelib.web.server import WebServer
    from sensehat_c4.records import Side
    from sensehat_c4.web.pages import pages

    db = tmp_path / "games.db"
    computer = Side(YELLOW, level="perfect", seconds=8.0)           # the longest label a seat has
    record_match(Recorder(db, clock=ticking()), [SHORT, LONG], sides=(ANN, computer))
    with WebServer(Console(), Address("127.0.0.1", 0), pages=[pages(db)]) as server:
        driver = start(phone=True, width=width, height=915)
        try:
            for number in (1, 2):
                driver.get(f"http://127.0.0.1:{server.port}/review/{number}")
                wait(driver, lambda: driver.find_element("id", "moves").get_attribute("hidden") is None,
                     f"the review of round {number}", timeout=120)
                got = driver.execute_script(LAYOUT_JS)
                where = f"round {number} at {width} px: {got}"
                assert got["page"] == got["viewport"] == width, where   # the page never scrolls sideways
                fits = got["table"][0] <= got["table"][1]
                assert fits or (got["hint"] and got["fades"]), where    # else it says it scrolls
                assert not got["hint"] or not fits, where
                if width == 412:
                    assert fits, where                                  # wrapped, it fits a phone
                assert 50 <= got["graph"] <= 0.3 * 915, where           # never a screen's height
                # no empty half: beyond the bars, only the marks' and the numbers' room (and a draw's)
                assert got["span"] - (got["bars"][1] - got["bars"][0]) <= 32, where
        finally:
            driver.quit()
