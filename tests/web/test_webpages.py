"""Connect 4's pages in the web view (``web/pages.py``, and what ``gamelib.web`` gives a game: routes under
a path, ``Pages``, ``Game.web``), with real sockets on loopback: the files, ``/api/history``,
``/api/round/ID``, ``/api/review/ID`` (made in its thread, progress, the queue, the same as ``review
--json``), errors, and the launcher asking each game for its pages."""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from web_client import call, Console

from gamelib.games import Entry, as_game
from gamelib.launcher.cli import game_pages
from gamelib.web.address import Address
from gamelib.web.http import CSP, wildcard
from gamelib.web.pages import Pages
from gamelib.web.server import WebServer
from gamelib.palette import palette as default_palette
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4 import game as c4
from sensehat_c4.web import pages as webpages
from sensehat_c4.errors import SearchAborted
from sensehat_c4.records import Recorder

ROOT = Path(__file__).resolve().parents[2]
SHORT, LONG = "1122334", "4344744673633212217741661367327622115555"


def record(tmp_path, rounds=(SHORT, LONG)) -> Path:
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), list(rounds), sides=(ANN, BOB))
    return path


@contextlib.contextmanager
def served(db, reviews=None):
    pages = webpages.RecordsPages(db, reviews)
    with WebServer(Console(), Address("127.0.0.1", 0), pages=[pages.pages()]) as server:
        yield server.port, pages


def command(*args):
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def wait_review(port, ident, seconds=60.0):
    """Poll ``/api/review/ID`` as the page does; the 202 answers seen, then the review."""
    seen, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        reply = call(port, "GET", f"/api/review/{ident}")
        if reply.status == 200:
            return seen, reply.json()
        assert reply.status == 202, reply.body
        seen.append(reply.json())
        time.sleep(0.02)
    raise AssertionError(f"no review after {seconds} s: {seen[-3:]}")


# -- gamelib.web: routes under a path, a game's pages --------------------------------------

def test_a_path_s_wildcard_route():
    assert [wildcard(p) for p in ("/review/12", "/api/review/last", "/review/", "/review", "/")] == [
        "/review/*", "/api/review/*", "", "", ""]


def test_the_pages_files_are_served_with_the_live_page_s_headers(tmp_path):
    with served(record(tmp_path)) as (port, _):
        for path, kind in (("/history", "text/html"), ("/review/2", "text/html"), ("/replay/last", "text/html"),
                           ("/history.js", "text/javascript"), ("/round.js", "text/javascript"),
                           ("/records.css", "text/css")):
            reply = call(port, "GET", path)
            assert reply.status == 200 and reply.headers["content-type"].startswith(kind), path
            assert reply.headers["content-security-policy"] == CSP and reply.headers["x-frame-options"] == "DENY"
        page = call(port, "GET", "/review/2")
        assert page.body == (ROOT / "sensehat_c4" / "web" / "static" / "round.html").read_bytes()
        assert call(port, "GET", "/review/2", headers=(("If-None-Match", page.headers["etag"]),)).status == 304
        assert call(port, "GET", "/api/pages").json() == {"links": [{"path": "/history", "title": "Games played"}],
                                                          "words": {}}   # English: every value is its own word
        for path in ("/review/", "/review", "/history/2", "/review/2/3", "/static/round.js"):
            assert call(port, "GET", path).status == 404, path
        assert call(port, "POST", "/api/review/2", {}).status == 405
        assert call(port, "GET", "/").status == 200   # the live page is still there


def test_the_live_page_links_nothing_without_a_game_s_pages():
    with WebServer(Console(), Address("127.0.0.1", 0)) as server:
        assert call(server.port, "GET", "/api/pages").json() == {"links": [], "words": {}}
        assert call(server.port, "GET", "/history").status == 404


def test_a_game_s_pages_are_closed_with_the_server():
    closed = []
    server = WebServer(Console(), Address("127.0.0.1", 0), pages=[Pages(close=lambda: closed.append(1))])
    with server:
        pass
    server.close()
    assert closed == [1]


def test_the_launcher_asks_each_game_for_its_pages(caplog):
    assert as_game(c4.GAME).web is c4.web_pages
    broken = as_game(type("Broken", (), {"name": "broken", "icon": c4.ICON(default_palette()), "play": print,
                                         "web": staticmethod(lambda: 1 / 0)}))
    with pytest.raises(TypeError, match="web must be a function"):
        as_game(type("Bad", (), {"name": "bad", "icon": c4.ICON(default_palette()), "play": print, "web": 3}))
    entries = [Entry("connect4", game=as_game(c4.GAME)), Entry("broken", game=broken), Entry("gone", error="x")]
    import logging

    with caplog.at_level(logging.ERROR, logger="gamelib"):
        found = game_pages(entries)
    assert len(found) == 1 and [link.path for link in found[0].links] == ["/history"]
    assert "the web pages of broken cannot be served" in caplog.text
    found[0].close()


# -- the API ------------------------------------------------------------------------------

def test_history_is_the_history_command_s_with_its_words(tmp_path):
    path = record(tmp_path)
    with served(path) as (port, _):
        data = call(port, "GET", "/api/history").json()
        assert call(port, "GET", "/api/history?limit=201").status == 400
        assert call(port, "GET", "/api/history?limit=x").json()["error"] == "bad_request"
    expected = command("history", "--json", "--db", str(path))
    for match in expected:
        match.update(labels={"1": "Ann", "2": "Bob"}, result_text="Ann wins 2-0")
        for rnd, text in zip(match["rounds"], ("Ann won", "Ann won")):
            rnd.update(result_text=text, helps_text="")
    assert data == {"matches": expected, "skipped": []}


NODE_PAGE = """
const document = {documentElement: {}, createTreeWalker: () => ({nextNode: () => null}),
                  querySelectorAll: () => [], querySelector: () => null};
const NodeFilter = {SHOW_TEXT: 4};
"""
"""What the words script and records.js need of a page, for node (the words are put into a page that has none)."""
NODE_SAY = """
const said = [];
for (const match of HISTORY.matches) {
  said.push(playerLabel(match.players["1"], 1), playerLabel(match.players["2"], 2), matchResult(match));
  for (const round of match.rounds) said.push(roundResult(match, round), helpsText(round));
}
console.log(JSON.stringify(said));
"""
"""records.js's words for every match and round of /api/history: each player's label, each result, the helps."""


def test_the_pages_say_every_stored_value_in_the_page_s_words(tmp_path, monkeypatch):
    """A database of every kind of game, the pages asked for in the pseudo-language: records.js (run by node, with
    the words script the server makes) says each player, result and round in words, and no stored value (a
    level's name, ``match-me``) as it is (history.js and round.js put these into the page: the browser's test,
    tests/web/test_web_words_browser.py, reads the pages whole)."""
    import shutil

    import pseudo_words
    from ci_needs import require
    from records_data import every_kind

    require([] if shutil.which("node") else ["node"], "records.js is run by node", ".ci/install-browser-deps")
    pseudo_words.compile_pseudo(tmp_path / "locale")
    monkeypatch.setenv("GAMELIB_LOCALEDIR", str(tmp_path / "locale"))
    db = tmp_path / "records" / "games.db"
    db.parent.mkdir()
    every_kind(db)
    with served(db) as (port, _):
        words = call(port, "GET", "/records-words.js", headers=[("Accept-Language", "xx")]).body.decode()
        script = call(port, "GET", "/records.js").body.decode()
        history = call(port, "GET", "/api/history?limit=200").json()
    from sensehat_c4.engine.rungs import RUNGS

    assert len(history["matches"]) == len(RUNGS) + 6 and '"match-me":"[!match me!]"' in words
    program = NODE_PAGE + words + script + f"const HISTORY = {json.dumps(history)};" + NODE_SAY
    done = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert "[!computer [!match me!] (1 s)!]" in said and "[!computer [!easy!] (1 s)!]" in said
    messages = pseudo_words.template_messages()
    assert {text: raw for text in said if (raw := pseudo_words.raw_words(text, messages, {"Ann", "Bob"}))} == {}


def test_a_round_and_its_match(tmp_path):
    with served(record(tmp_path)) as (port, _):
        data = call(port, "GET", "/api/round/2").json()
        assert call(port, "GET", "/api/round/last").json() == data
        assert data["round"] == {"round": 2, "number": 2, "started": "2026-11-23T14:03:00Z",
                                 "ended": "2026-11-23T14:04:00Z", "starter": 2, "moves": LONG, "result": "win",
                                 "winner": 1, "winning_cells": [[2, 1], [3, 2], [4, 3], [4, 4], [5, 4], [6, 4], [7, 4]],
                                 "level": None, "hints": 0, "takebacks": 0, "result_text": "Ann won", "helps_text": ""}
        assert data["match"]["labels"] == {"1": "Ann", "2": "Bob"} and data["match"]["board"] == [7, 6]
        assert "score" not in data["match"]          # a match read with one of its rounds: no score
        assert (call(port, "GET", "/api/round/9").status, call(port, "GET", "/api/round/9").json()) == (
            404, {"error": "not_found", "message": "no round 9"})   # no path of the server's files
        assert call(port, "GET", "/api/round/1x").json() == {
            "error": "bad_request", "message": "not a round ID: '1x' (a number from the history, or last)"}
        assert call(port, "GET", "/api/round/99999999999999999999").status == 400


@pytest.mark.parametrize("path", ["/api/history?limit=" + "1" * 4301, "/api/history?limit=" + "0" * 5000 + "20",
                                  "/api/round/" + "7" * 4301, "/api/review/" + "7" * 4301, "/api/round/" + "0" * 5000 + "9",
                                  "/api/review/" + "0" * 5000 + "9"])
def test_numbers_of_thousands_of_digits_are_a_bad_request_or_name_nothing_and_log_nothing(tmp_path, caplog, path):
    """``int()`` refuses more than 4,300 digits (a ValueError): each was a 500 and a 5 KB traceback."""
    import logging

    with served(record(tmp_path)) as (port, _):
        caplog.clear()                                       # (the server's start may be logged)
        with caplog.at_level(logging.INFO):
            reply = call(port, "GET", path)
            assert call(port, "GET", "/api/state").status == 200
    if path.endswith("0" * 5000 + "20"):          # leading zeros: 20 all the same
        assert reply.status == 200 and len(reply.json()["matches"]) == 1
    elif path.endswith("9"):
        assert reply.json() == {"error": "not_found", "message": "no round 9"}
    else:
        assert (reply.status, reply.json()["error"]) == (400, "bad_request") and len(reply.body) < 200
    assert caplog.records == []


def test_nothing_recorded_and_a_file_that_is_not_a_database(tmp_path, caplog):
    with served(tmp_path / "none.db") as (port, _):
        assert call(port, "GET", "/api/history").json() == {"matches": [], "skipped": []}
        assert call(port, "GET", "/api/review/last").json() == {"error": "not_found", "message": "no games recorded yet"}
    bad = tmp_path / "bad.db"
    bad.write_text("not a database, " * 100)
    import logging

    with served(bad) as (port, _), caplog.at_level(logging.WARNING, logger="sensehat_c4.web"):
        reply = call(port, "GET", "/api/history")
    assert (reply.status, reply.json()["error"]) == (500, "records")
    assert str(bad) not in reply.json()["message"] and str(bad) in caplog.text


def test_the_review_is_made_in_its_thread_and_is_the_command_s(tmp_path):
    path = record(tmp_path)
    with served(path) as (port, pages):
        seen, data = wait_review(port, 2)
        assert seen and all(s["round"] == 2 and s["total"] == 40 and 0 <= s["done"] <= 40 for s in seen)
        assert call(port, "GET", "/api/review/2").json() == data       # kept: answered at once
        short = wait_review(port, "last")[1]
    assert data == command("review", "2", "--json", "--db", str(path))
    assert short["round"] == 2
    assert pages.reviews._thread is not None and not pages.reviews._thread.is_alive()   # closed with the server


class Slow:
    """A scorer the test steps: each position waits for ``go``; the scores are made up (every move draws)."""

    def __init__(self) -> None:
        self.go = threading.Semaphore(0)
        self.positions = 0

    def __call__(self, stop):
        def scores(board, seconds):
            while not self.go.acquire(timeout=0.05):
                if stop.is_set():
                    raise SearchAborted("stopped")
            self.positions += 1
            return {c: 0 for c in board.legal_moves()}
        return scores


def test_progress_the_queue_and_a_full_queue(tmp_path):
    path = record(tmp_path, [SHORT, "4455", "1212", "7766"])
    slow = Slow()
    with served(path, webpages.Reviews(queue=2, scorer=slow)) as (port, pages):
        assert call(port, "GET", "/api/review/1").json() == {"round": 1, "done": 0, "total": 7, "waiting": 0}
        for _ in range(3):
            slow.go.release()
        deadline = time.monotonic() + 10
        while call(port, "GET", "/api/review/1").json()["done"] < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert call(port, "GET", "/api/review/1").json() == {"round": 1, "done": 3, "total": 7, "waiting": 0}
        assert call(port, "GET", "/api/review/2").json() == {"round": 2, "done": 0, "total": 4, "waiting": 1}
        assert call(port, "GET", "/api/review/3").json() == {"round": 3, "done": 0, "total": 4, "waiting": 2}
        full = call(port, "GET", "/api/review/4")
        assert (full.status, full.json()["error"], full.headers["retry-after"]) == (503, "busy", "2")
        for _ in range(4 + 4 + 4):
            slow.go.release()
        _, first = wait_review(port, 1)
        assert [m["mark"] for m in first["review"]] == ["best"] * 7
        assert wait_review(port, 3)[1]["round"] == 3
        # the server stops while a review is being made: it ends at once, nothing more is made
        assert call(port, "GET", "/api/review/4").status == 202
        started = time.monotonic()
    assert time.monotonic() - started < 5
    assert not pages.reviews._thread.is_alive() and 4 not in pages.reviews._done
