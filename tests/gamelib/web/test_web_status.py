"""``gamelib/web/static/status.js``: the live page's line, worded from the state's values in the page's language.

Every phase a status can be in (the Connect 4 choosers, the rules, a match's turns, its abandon question and
results, the resume question, a replay, training, the day's puzzle, the games not recorded for each reason's
code and for none; the launcher's menu, the LAN's screens, a phone waited for) is made by the code that makes it, with the Pi in English; its JSON goes through the real
words script of each language (``/page-words.js``, English, French, Indonesian) and ``status.js`` in Node, with
Connect 4's values in that language (``/api/pages``' ``words``); the line must be exactly what the Pi itself
says in that language (the same status made with the Pi speaking it).  Names typed by players, and paths, are data."""
import errno
import json
import os
import shutil
import sqlite3
import string
import subprocess
from datetime import date

import pytest
from ci_needs import require

from gamelib import i18n
from gamelib.backends.mock import MockBackend
from gamelib.colours import NAMES, RED, YELLOW
from gamelib.games import Entry
from gamelib.launcher.menu import LANGUAGE, LIGHT, PALETTE, POWEROFF, QUIT, ROTATION, Idle, Launcher, LauncherOptions, Screen
from gamelib.launcher.settings import Settings
from gamelib.lan import screens
from gamelib.players import MAX_LENGTH
from gamelib.seats import Kind
from gamelib.web import api
from gamelib.web.console import away_words
from gamelib.web.words import PageWords
from sensehat_c4.engine import rungs
from sensehat_c4.engine.puzzles import daily
from sensehat_c4.i18n import CATALOGUE as C4
from sensehat_c4.match import chooser, words
from sensehat_c4.match.controller import MatchResult
from sensehat_c4.game import GAME as C4_GAME
from sensehat_c4.match.opponents import HUMAN, LAN, MATCH_ME, Opponent
from sensehat_c4.records import access, files
from sensehat_c4.rules import SIZES, Size
from sensehat_c4.study import puzzle
from sensehat_c4.study.training import GAME as TRAINING

STATUS_JS = api.STATIC / "status.js"
LANGUAGES = i18n.languages()
"""Every language the program speaks: English and each compiled catalogue."""
SIZE = Size(7, 6)
ZOE = words.Seat(1, RED, "Zoé")
BOB = words.Seat(2, YELLOW, "Bob", kind=Kind.PHONE)
P2 = words.Seat(2, YELLOW)
EASY = words.Seat(2, YELLOW, level="easy", kind=Kind.COMPUTER)
MATCHED = words.Seat(2, YELLOW, level=rungs.RUNGS[3].name, kind=Kind.COMPUTER, match_me=True)
PUZZLE = daily(date(2026, 11, 27))
DAY = date(2026, 11, 27)


def _match(phase, seats=(ZOE, BOB), **options):
    values = dict(size=SIZE, number=2, score=(1, 0))
    values.update(options)
    return lambda: words.match(phase, seats, **values)


def _ended(seats, score, winner=None):
    """The match's result (won by ``winner``, else abandoned), its line as the controller makes it."""
    names = tuple(None if seat.level else seat.name for seat in seats)

    def status():
        result = MatchResult(winner, score, winner is None, sum(score), names)
        return words.match(words.RESULT, seats, size=SIZE, number=sum(score), score=score, winner=winner,
                           result=words.ABANDONED if winner is None else words.MATCH, summary=result.summary())
    return status


def _menu(screen=Screen.GAMES, item=None, idle=Idle.AWAKE, entries=None, failed=(), poweroff_failed=False,
          **settings):
    def made():
        entries_ = [Entry("connect4", C4_GAME), Entry("connect4-training", TRAINING)] if entries is None else entries
        launcher = Launcher(MockBackend(), entries_, LauncherOptions(allow_poweroff=True), settings=Settings(**settings))
        launcher.screen, launcher.idle = screen, idle
        launcher.failed, launcher.poweroff_failed = set(failed), poweroff_failed
        if item is not None:
            launcher.system_items = [LIGHT, ROTATION, PALETTE, LANGUAGE, QUIT, POWEROFF]
            launcher.system_index = launcher.system_items.index(item)
        return launcher.words()
    return made


def _loss(seat, **side):
    winner = {"seat": seat, "name": None, "level": None, "seconds": None, "remote": False, **side}
    return words.try_outcome(-3, winner=winner, moves=2)


def _loss_words(label_seat, **side):
    from sensehat_c4.records.rows import Side
    label = Side(YELLOW, side.get("name"), side.get("level"), side.get("seconds"), side.get("remote", False)).label(label_seat)
    return lambda: words._("loses ({who} wins in {moves})").format(who=label, moves=2)


GAMES_AT = "/home/pi/Zoé's games/games.db"
"""The path a reason of the records names."""


def _failed(exc):
    """Phase ``unrecorded`` as a game says it when its recorder gave up for what ``exc()`` raises (made in the
    language of the moment, as the records make it)."""
    return lambda: words.unrecorded(files.why(exc()), files.reason(exc()))


def _refused(code):
    """The records refused for reason ``code`` of ``records/access.py``'s table: an errno's by the system's error,
    else by the records' own refusal, each of its message's fields a path."""
    if hasattr(errno, code):
        number = getattr(errno, code)
        return _failed(lambda: OSError(number, os.strerror(number), GAMES_AT))
    fields = {name: GAMES_AT for _text, name, _spec, _conv in string.Formatter().parse(access.REASONS[code]) if name}
    return _failed(lambda: access.Unwritable.because(code, **fields))


CASES = {
    "choosing: 2 players": lambda: words.choosing_opponent(HUMAN, [HUMAN, LAN]),
    "choosing: over the LAN": lambda: words.choosing_opponent(LAN, [HUMAN, LAN]),
    "choosing: match me": lambda: words.choosing_opponent(MATCH_ME, [HUMAN, MATCH_ME]),
    **{f"choosing: {rung.name}": (lambda name: lambda: words.choosing_opponent(Opponent.computer(name), [HUMAN]))(rung.name)
       for rung in rungs.RUNGS},
    "choosing: the rules entry": lambda: words.choosing_opponent(None, [HUMAN, None]),
    "rules": lambda: words.rules(words._(chooser.RULES), chooser.RULES),
    **{f"choosing size {size}": (lambda size: lambda: words.choosing_size(size, SIZES))(size) for size in SIZES},
    "choosing helps: on": lambda: words.choosing_helps(True),
    "choosing helps: off": lambda: words.choosing_helps(False),
    "playing: Zoé, the issue's line": _match(words.PLAYING, turn=1, number=1, score=(0, 0)),
    "playing: a phone": _match(words.PLAYING, turn=2),
    "playing: a seat without a name": _match(words.PLAYING, (ZOE, P2), turn=2),
    "playing: helps": _match(words.PLAYING, (words.Seat(1, RED, "Zoé", helps=True), EASY), turn=1, helps=(2, 1)),
    "playing: no helps used": _match(words.PLAYING, (words.Seat(1, RED, "Zoé", helps=True), EASY), turn=1,
                                     helps=(0, 0)),
    "thinking: a level": _match(words.THINKING, (ZOE, EASY), turn=2),
    "thinking: match me": _match(words.THINKING, (ZOE, MATCHED), turn=2),
    "confirming": _match(words.CONFIRMING),
    "confirming: down takes back": _match(words.CONFIRMING, (ZOE, EASY), take_back=True),
    "result: a round": _match(words.RESULT, winner=2, result=words.ROUND),
    "result: a draw": _match(words.RESULT, result=words.DRAW),
    "result: the match": _ended((ZOE, BOB), (2, 1), winner=1),
    "result: the match, the computer's": _ended((ZOE, EASY), (0, 2), winner=2),
    "result: abandoned, one ahead": _ended((ZOE, BOB), (0, 1)),
    "result: abandoned, level": _ended((ZOE, P2), (1, 1)),
    "resume": lambda: words.resume((ZOE, EASY), size=Size(6, 5), number=3, score=(1, 1), turn=2),
    "replay": lambda: words.replay(12, 3, 17, paused=False, ended=False),
    "replay: paused": lambda: words.replay(12, 3, 17, paused=True, ended=False),
    "replay: the end": lambda: words.replay(12, 17, 17, paused=False, ended=True),
    "training: reviewing": lambda: words.training_review(7),
    "training: a position to win": lambda: words.training(7, 1, 3, ZOE, words.WIN, [2]),
    "training: a position to draw": lambda: words.training(7, 2, 3, EASY, words.DRAW_GOAL, [1, 3, 4]),
    "training: right": lambda: words.training_try(7, 1, 3, ZOE, words.WIN, [2], 2, words._("wins"),
                                                  words.try_outcome(5)),
    "training: right, a draw": lambda: words.training_try(7, 2, 3, ZOE, words.DRAW_GOAL, [2, 3], 3, words._("draws"),
                                                          words.try_outcome(0)),
    "training: wrong, the computer wins": lambda: words.training_try(
        7, 1, 3, ZOE, words.WIN, [2, 4], 0, _loss_words(2, level="hard", seconds=1.5)(),
        _loss(2, level="hard", seconds=1.5)),
    "training: wrong, a remote player wins": lambda: words.training_try(
        7, 1, 3, ZOE, words.DRAW_GOAL, [2], 0, _loss_words(2, name="Bob", remote=True)(), _loss(2, name="Bob", remote=True)),
    "training: wrong, player 2 wins": lambda: words.training_try(7, 1, 3, ZOE, words.WIN, [2], 0, _loss_words(2)(), _loss(2)),
    "training: over": lambda: words.training_done(7, 2, 3, 3),
    "training: over, left early": lambda: words.training_done(7, 1, 2, 3),
    "puzzle: to move, one stone": lambda: puzzle.playing(DAY, PUZZLE, words.colour_word(RED), 1, 1, None, RED),
    "puzzle: to move, three stones": lambda: puzzle.playing(DAY, PUZZLE, words.colour_word(YELLOW), 3, 2, 4, YELLOW),
    "puzzle: wrong": lambda: puzzle.wrong(DAY, PUZZLE, 0, [3], 1, None),
    "puzzle: wrong, two columns": lambda: puzzle.wrong(DAY, PUZZLE, 0, [3, 5], 2, 4),
    "puzzle: solved, a streak": lambda: puzzle.solved(DAY, PUZZLE, 1, 3),
    "puzzle: solved, one day": lambda: puzzle.solved(DAY, PUZZLE, 1, 1),
    "puzzle: solved, no streak": lambda: puzzle.solved(DAY, PUZZLE, 2, None),
    "menu: a game": _menu(),
    "menu: a game, dimmed": _menu(idle=Idle.DIM),
    "menu: a game, LEDs off": _menu(idle=Idle.BLANK),
    "menu: a game that cannot be played": _menu(failed=("connect4",)),
    "menu: no games": _menu(entries=[]),
    "menu: brightness low": _menu(Screen.SYSTEM, LIGHT, low_light=True),
    "menu: brightness high": _menu(Screen.SYSTEM, LIGHT),
    "menu: rotation": _menu(Screen.SYSTEM, ROTATION, rotation=180),
    "menu: colours": _menu(Screen.SYSTEM, PALETTE, palette="green-pink"),
    "menu: language auto": _menu(Screen.SYSTEM, LANGUAGE),
    "menu: language": _menu(Screen.SYSTEM, LANGUAGE, language="id"),
    "menu: quit": _menu(Screen.SYSTEM, QUIT),
    "menu: shut down": _menu(Screen.SYSTEM, POWEROFF),
    "menu: shut down, failed before": _menu(Screen.SYSTEM, POWEROFF, poweroff_failed=True),
    "menu: shut down?": _menu(Screen.CONFIRM),
    "lan: offering": lambda: screens.offering_words("Zoé", "Connect 4"),
    "lan: a request": lambda: screens.request_words("Bob", "192.168.1.7"),
    "lan: searching": screens.searching_words,
    "lan: found": lambda: screens.found_words(["Zoé", "Bob"], 1),
    "lan: asking": lambda: screens.asking_words("Zoé"),
    "lan: refused": lambda: screens.refused_words("Zoé", "Zoé said no"),
    "lan: away": lambda: screens.away_words("Zoé", 90.0),
    "lan: left": lambda: screens.left_words("Zoé", screens.QUIT),
    "lan: gone": lambda: screens.left_words("Zoé", screens.GONE),
    **{f"unrecorded: {code}": _refused(code) for code in access.REASONS},
    "unrecorded: SQLite's words, no code": _failed(lambda: sqlite3.OperationalError("database is locked")),
    "unrecorded: the system's words, no code": _failed(lambda: OSError(errno.ECHILD, os.strerror(errno.ECHILD))),
    "waiting for a phone": lambda: away_words(2, "Bob", 30.0, "Bob"),
    "waiting for a phone without a name": lambda: away_words(2, words._("player {seat}").format(seat=2), 30.0),
}
"""Every phase a status can be in, each way its line can go: a function making it, in the language of the moment."""

PI_SAYS_IN_ENGLISH = {"lan: offering": ("Connect 4", "Connect 4")}
"""Where the Pi's line keeps an English value the page says in its language: (the value, as the page's values say
it) is put into the Pi's line (the LAN's lobby names the game as offered over the network: ``Connect 4``)."""

HARNESS = r"""
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const shown = (value) => (Object.prototype.hasOwnProperty.call(cases.values, value) ? cases.values[value] : value);
process.stdout.write(JSON.stringify(cases.statuses.map((s) => STATUS.line(s, shown))));
"""
DOCUMENT = """
const NodeFilter = {SHOW_TEXT: 4};
const document = {documentElement: {}, createTreeWalker: () => ({nextNode: () => null}), querySelectorAll: () => [],
                  querySelector: () => null};
"""


def node_missing():
    return [] if shutil.which("node") else ["node"]


def say(statuses, language, values=None):
    """The lines ``status.js`` says for ``statuses`` (JSON) in ``language``, with ``values`` (a game's values' words)."""
    require(node_missing(), "Node runs the page's scripts", ".ci/install-browser-deps")
    script, _etag = PageWords(i18n.CATALOGUE, api.STATIC, api.WORDS[1], extra=tuple(NAMES)).script(
        None if language == "en" else language)
    source = DOCUMENT + script.decode() + "\n" + STATUS_JS.read_text(encoding="utf-8") + HARNESS
    done = subprocess.run(["node", "-e", source], input=json.dumps({"statuses": statuses, "values": values or {}}),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def values_in(language):
    """Connect 4's values in ``language``, as ``/api/pages`` gives them to the live page."""
    from sensehat_c4.web.pages import SHOWN_VALUES
    from gamelib.web.pages import Pages
    return Pages(values=SHOWN_VALUES).said(C4.translations([language] if language != "en" else []))


def made(language):
    """Every case made with the Pi speaking ``language``."""
    i18n.choose([language])
    try:
        return {name: make() for name, make in CASES.items()}
    finally:
        i18n.choose(None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_says_every_phase_as_the_pi_says_it_in_the_page_s_language(language):
    """The Pi speaks English; the page, in ``language``, says each line as the Pi would in that language."""
    english = made("en")
    local = made(language)
    values = values_in(language)
    lines = say([english[name].as_json() for name in CASES], language, values)
    expected = []
    for name in CASES:
        text = local[name].text
        if name in PI_SAYS_IN_ENGLISH:
            value, _shown = PI_SAYS_IN_ENGLISH[name]
            text = text.replace(value, values.get(value, value))
        expected.append(text)
    wrong = [(name, line, text) for name, line, text in zip(CASES, lines, expected) if line != text]
    assert wrong == []
    if language != "en":       # it is the page's language, not the Pi's: not one line is the Pi's English
        assert [name for name, line in zip(CASES, lines) if line == english[name].text
                and line != local[name].text] == []


def test_the_issue_s_line_in_french_and_in_indonesian():
    status = CASES["playing: Zoé, the issue's line"]().as_json()
    assert status["text"] == "round 1 (0-0, 7x6): Zoé (red) to move"
    assert say([status], "en") == ["round 1 (0-0, 7x6): Zoé (red) to move"]
    assert say([status], "fr", values_in("fr")) == ["manche 1 (0-0, 7x6) : Zoé (rouge) joue"]
    assert say([status], "id", values_in("id")) == ["ronde 1 (0-0, 7x6): giliran Zoé (merah)"]


def test_every_phase_a_status_is_made_in_is_worded_by_the_page():
    """A phase the page did not know would show the Pi's own words: every phase the cases make is one it words, and
    only a game's own phase, which the page cannot know, shows the Pi's words (control characters taken out)."""
    require(node_missing(), "Node runs the page's scripts", ".ci/install-browser-deps")
    source = DOCUMENT + "const WORDS = {m: {}, p: {}};" + STATUS_JS.read_text(encoding="utf-8") + \
        "process.stdout.write(JSON.stringify(Object.keys(STATUS.PHASES)));"
    done = subprocess.run(["node", "-e", source], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    phases = {CASES[name]().phase for name in CASES}
    assert sorted(phases) == sorted(json.loads(done.stdout))
    assert phases >= {words.CHOOSING_OPPONENT, words.CHOOSING_SIZE, words.CHOOSING_HELPS, words.RULES, words.PLAYING,
                      words.THINKING, words.CONFIRMING, words.RESULT, words.RESUME, words.REPLAY, words.TRAINING,
                      words.UNRECORDED, puzzle.PHASE, "menu", screens.PHASE, "waiting"}
    assert say([{"phase": "a game's own", "text": "its \u001b[31mwords"}], "fr") == ["its [31mwords"]


HOSTILE = "<b>{x}\u202e\x1b\x07\nZoé\u200bAnn Bob"
"""A name as another Pi or a bad file could hold it: markup, a placeholder, a bidi override, an escape, a bell, a line
break, a zero-width space, more than 12 characters."""


def test_a_name_is_data_stripped_cut_and_never_a_placeholder():
    seats = (words.Seat(1, RED, HOSTILE), words.Seat(2, YELLOW, "{label}"))
    status = words.match(words.PLAYING, seats, size=SIZE, number=1, score=(0, 0), turn=1).as_json()
    lost = dict(status, phase="lan", screen="left", name=HOSTILE, reason=screens.QUIT)
    refused = dict(status, phase="lan", screen="refused", name="Bob", reason="\x1b]0;x\x07" + "no " * 100)
    said = say([status, lost, refused, dict(status, turn=2)], "en")
    assert said[0] == "round 1 (0-0, 7x6): <b>{x} ZoéAn (red) to move"      # 12 characters, a line break a space
    assert said[1] == "<b>{x} ZoéAn left"
    assert said[2] == "Bob: " + ("]0;x" + "no " * 100)[:200].strip()           # 200 characters of another Pi's words
    assert said[3] == "round 1 (0-0, 7x6): {label} (yellow) to move"       # not the seat's label put in
    assert not any(ch < " " or ch in "\u202e\u200b\x7f" for line in said for ch in line)


def test_the_page_cuts_names_at_the_length_players_have():
    assert f"const MOST_NAME = {MAX_LENGTH};" in STATUS_JS.read_text(encoding="utf-8")


def test_a_colour_without_a_name_is_its_code_and_a_named_one_is_in_the_page_s_language():
    odd = words.Seat(1, (1, 2, 3), "Zoé")
    status = words.match(words.PLAYING, (odd, BOB), size=SIZE, number=1, score=(0, 0), turn=1).as_json()
    assert status["seats"][0]["colour_name"] is None and status["seats"][1]["colour_name"] == "yellow"
    assert say([status, dict(status, turn=2)], "fr", values_in("fr")) == [
        "manche 1 (0-0, 7x6) : Zoé (#010203) joue", "manche 1 (0-0, 7x6) : Bob (jaune) joue"]


def page_table(name):
    """The keys of ``status.js``'s table ``name``, read by running it."""
    require(node_missing(), "Node runs the page's scripts", ".ci/install-browser-deps")
    source = DOCUMENT + "const WORDS = {m: {}, p: {}};" + STATUS_JS.read_text(encoding="utf-8") + \
        f"process.stdout.write(JSON.stringify(Object.keys(STATUS.{name})));"
    done = subprocess.run(["node", "-e", source], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_page_words_every_reason_the_records_give_a_code_and_no_other():
    assert sorted(page_table("REASONS")) == sorted(access.REASONS)


def test_a_reason_the_page_does_not_know_or_none_is_the_pi_s_words_as_data_and_paths_are_data():
    """A code the page does not know (a later Pi's), or none: the Pi's ``why``, its control characters taken out
    (no ``why`` either: the Pi's whole line); a path is data: stripped, cut at 255 characters, never a placeholder."""
    pi_words = words.unrecorded("une raison\u202e \x1b[31mnouvelle\n").as_json()
    directory = words.unrecorded("x is a directory", access.Reason("directory", {"name": "x"})).as_json()
    long_path = "/" + "a/" * 200
    said = say([dict(pi_words, reason="EFUTURE"), pi_words, dict(pi_words, why=None), dict(directory, name=HOSTILE),
                dict(directory, reason="read-only", place=long_path)], "fr", values_in("fr"))
    assert said == ["les parties ne sont pas enregistrées : une raison [31mnouvelle",
                    "les parties ne sont pas enregistrées : une raison [31mnouvelle",
                    "games are not being recorded: une raison [31mnouvelle",
                    "les parties ne sont pas enregistrées : <b>{x} ZoéAnn Bob est un dossier",
                    f"les parties ne sont pas enregistrées : {long_path[:255]} est en lecture seule"]
