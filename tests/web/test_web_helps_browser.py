"""Issue 26's parts on the web page, in a real browser (Debian's Chromium through Selenium,
``tests/helpers/browser.py``) on the real program over the emulator's files: the day's puzzle being played,
as the live page shows it (``sensehat-c4 puzzle --web``), and a round played with hints and take-backs
against match me, as the games played and its review show it ("2 hints, 1 take-back")."""
import subprocess
import sys
from datetime import date

import pytest
from browser import read_address, start, text, wait
from ci_needs import require
from emu_sandbox import child_env

import browser
from records_data import ANN, ticking
from gamelib.colours import YELLOW
from sensehat_c4.engine.puzzles import daily
from sensehat_c4.records import Recorder, RoundFacts, Side
from sensehat_c4.rules import Board

pytestmark = pytest.mark.slow


def serve(emulator, emu_dir, *argv):
    """The program on the emulator's files with its page on loopback, and the page's address."""
    game = subprocess.Popen([sys.executable, "-m", "sensehat_c4", *argv, "--backend", "emu", "--web", "127.0.0.1:0"],
                            env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    emulator.wait_client()
    return game, read_address(game)


def stop(game):
    game.terminate()
    game.communicate(timeout=20)


def test_the_day_s_puzzle_on_the_live_page(emulator, emu_dir, tmp_path):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    puzzle = daily(date.today())
    game, url = serve(emulator, emu_dir, "puzzle", "--db", str(tmp_path / "games.db"))
    driver = None
    try:
        driver = start()
        driver.get(url)
        wait(driver, lambda: text(driver, "puzzle") != "", "the puzzle's row")
        assert text(driver, "puzzle") == (f"{puzzle.ident} of {date.today().isoformat()}: win within {puzzle.n}"
                                          f" \u00b7 {puzzle.n} stone{'s' if puzzle.n > 1 else ''} left \u00b7 try 1")
        emulator.tap("up")                                    # up leaves the puzzle, and the program ends
        game.communicate(timeout=20)
        assert game.returncode == 0
    finally:
        if driver is not None:
            driver.quit()
        if game.poll() is None:
            stop(game)


def test_hints_and_take_backs_in_the_games_played_and_the_review(emulator, emu_dir, tmp_path):
    require(browser.missing(), "the browser test needs Chromium, chromedriver and Selenium",
            ".ci/install-browser-deps")
    db = tmp_path / "games.db"
    recorder = Recorder(db, clock=ticking())
    recorder.start_match((ANN, Side(YELLOW, level="match-me")), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4141414"), facts=RoundFacts(level="tough", hints=2, takebacks=1))
    recorder.start_round()
    recorder.played(2, 2, Board.from_moves("1414141"), facts=RoundFacts(level="hard"))
    recorder.end_match(None)
    recorder.close()
    game, url = serve(emulator, emu_dir, "--opponent", "human", "--db", str(db))
    driver = None
    try:
        driver = start(phone=False)
        driver.get(url)
        wait(driver, lambda: [a.text for a in driver.find_elements("css selector", "#links a")] == ["Games played"],
             "the link to the games played")
        driver.find_element("css selector", "#links a").click()
        wait(driver, lambda: len(driver.find_elements("css selector", ".round")) == 2, "the two rounds")
        first = driver.find_element("css selector", '.round[data-round="1"]')
        second = driver.find_element("css selector", '.round[data-round="2"]')
        assert "2 hints, 1 take-back" in [s.text for s in first.find_elements("css selector", "span")]
        assert not second.find_elements("css selector", "span.helps")      # none: nothing said
        first.find_element("css selector", "a.review").click()
        wait(driver, lambda: "2 hints, 1 take-back" in driver.find_element("tag name", "body").text,
             "the review naming the helps")
    finally:
        if driver is not None:
            driver.quit()
        stop(game)
