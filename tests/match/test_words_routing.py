"""Every word the game says goes through its catalogue: with a catalogue that decorates every message
(``[!…!]``), a match on the mock backend, the choosers, the other screens' words, ``--help`` of every
command and their errors say nothing outside a decoration but values (names, numbers, sizes, keys) and
the few words that are not the game's (argparse's, gamelib's), each listed here with why.

The decorated catalogue stands in for a language: it is installed as both packages' catalogue (the
colours' names are gamelib's words), so a word looked up in neither shows as plain English, and a
check that strips every decoration finds it."""
import argparse
import gettext
import re
from dataclasses import replace
from typing import List

import pytest

import gamelib.i18n
from gamelib.backends.mock import MockBackend
from sensehat_c4 import i18n
from sensehat_c4.commands import COMMANDS, main
from sensehat_c4.commands.play import play_parser
from sensehat_c4.match import words
from sensehat_c4.match.chooser import choose_opponent, choose_size
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.opponents import OPPONENTS, Opponent
from sensehat_c4.match.controller import MatchOptions, play
from sensehat_c4.match.report import result_line
from sensehat_c4.rules import SIZES, Size

OPEN, CLOSE = "[!", "!]"


def run(argv: List[str]) -> int:
    """``sensehat-c4 ARGV``'s exit code (``--help`` exits from inside argparse)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


class Decorated(gettext.NullTranslations):
    """Every message ``m`` as ``[!m!]`` (placeholders kept): a language in which all English shows."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)


@pytest.fixture
def decorated(monkeypatch):
    pseudo = Decorated()
    for catalogue in (i18n.CATALOGUE, gamelib.i18n.CATALOGUE):
        monkeypatch.setattr(catalogue, "translations", lambda languages=None: pseudo)
    monkeypatch.setenv("COLUMNS", "10000")   # argparse wraps no help line: each help is whole on its line
    return pseudo


INNERMOST = re.compile(r"\[!((?:(?!\[!|!\]).)*)!\]", re.DOTALL)


def residue(text: str) -> str:
    """``text`` without its decorated parts (innermost first, values inside a message with it): the
    words that did not go through a catalogue."""
    while True:
        stripped = INNERMOST.sub("", text)
        if stripped == text:
            return stripped
        text = stripped


def test_residue_strips_nested_messages_and_keeps_what_escaped():
    assert residue("[![!Ann!] wins [!round!] 2!]") == ""
    assert residue("match 1: [!Ann wins!]") == "match 1: "


def said(status) -> List[str]:
    return [status.text] + ([status.caption] if status.caption is not None else [])


def test_a_match_and_its_choosers_say_only_translated_words(decorated):
    mock = MockBackend()
    mock.tap("left", "middle")                       # the opponent chooser: 2P -> ? (the rules scroll)
    mock.tap("right", "right", "down", at=200.0)     # ? -> 2P -> easy, chosen
    assert choose_opponent(mock) == Opponent.computer("easy")
    mock.tap("left", "middle", at=mock._cursor + 1.0)
    assert choose_size(mock, SIZES, Size()) == Size(6, 6)
    start = mock._cursor + 1.0
    mock.tap("up", at=start)                         # ask to abandon ...
    mock.tap("left", at=start + 0.5)                 # ... and play on
    for round_moves in ("4545454", "4545454", "4545454"):   # Ann, Bob, Ann: Ann wins 2-1
        for char in round_moves:
            steps = int(char) - 4
            mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
            mock.wait_until(mock._cursor + 0.5)
        mock.wait_until(mock._cursor + 6.0)
    result = play(mock, MatchOptions(names=("Ann", "Bob")))
    assert (result.winner, result.score) == (1, (2, 1))
    phases = {status.phase for _, status in mock.statuses}
    assert phases == {words.CHOOSING_OPPONENT, words.RULES, words.CHOOSING_SIZE, words.PLAYING, words.CONFIRMING,
                      words.RESULT}
    lines = [line for _, status in mock.statuses for line in said(status)]
    assert [line for line in lines if residue(line).strip()] == []
    assert "[!yellow!]" in " ".join(lines) and "[!easy!]" in " ".join(lines)   # colours and levels as words
    # the details stay values, in English, whatever the language
    chosen = [status for _, status in mock.statuses if status.phase == words.CHOOSING_OPPONENT][-1]
    assert chosen.details["choice"] == "computer: 1 easy" and chosen.details["about"] == words.LEVEL_WORDS["easy"]
    assert [status.details["result"] for _, status in mock.statuses if status.phase == words.RESULT] == [
        "round", "round", "match"]
    for number in (None, 3):                          # not recorded, and the records' match 3
        numbered = replace(result, number=number)
        assert residue(result_line(None, numbered)) == ""
        assert residue(result_line(Computer("hard", player=2), numbered)) == ""


@pytest.mark.parametrize("level", [o.level for o in OPPONENTS if o.level is not None])
def test_every_level_and_every_seat_s_turn_is_said_in_words(decorated, level):
    assert residue(words.opponent_label(Opponent.computer(level))) == ""
    assert residue(words.choosing_opponent(Opponent.computer(level), OPPONENTS).text) == ""
    for kind in ("stick", "phone", "remote", "computer"):
        seat = words.Seat(1, (255, 0, 0), "Ann" if kind != "computer" else None,
                          level if kind == "computer" else None, kind)
        status = words.match(words.PLAYING, (seat, words.Seat(2, (255, 255, 0))), size=Size(), number=1,
                             score=(0, 0), turn=1)
        assert [line for line in said(status) if residue(line)] == []


def test_the_other_screens_say_words(decorated):
    seats = (words.Seat(1, (255, 0, 0), "Ann"), words.Seat(2, (255, 255, 0), None, "hard", "computer"))
    statuses = [
        words.resume(seats, size=Size(), number=2, score=(1, 0), turn=1),
        words.replay(7, 3, 20, paused=False, ended=False), words.replay(7, 3, 20, paused=True, ended=False),
        words.replay(7, 20, 20, paused=False, ended=True),
        words.training_review(7), words.training(7, 1, 3, seats[0], words.WIN, [3]),
        words.training_try(7, 1, 3, seats[0], words.DRAW_GOAL, [2, 3, 4], 0, "[!loses!]"),
        words.training_done(7, 1, 2, 3),
        words.match(words.RESULT, seats, size=Size(), number=1, score=(1, 0), result=words.DRAW),
    ]
    assert [line for status in statuses for line in said(status) if residue(line)] == []


SYNTAX = re.compile(r"[\[\](){},|:]*(?:-{1,2}[a-z0-9-]+|[A-Z0-9\[][A-Z0-9_:,\[\]x-]*|\{[^}]*\}|\.\.\.)[\[\](){},|:]*")
"""An option's own syntax in a help line: ``--colors``, ``P1,P2``, ``[HOST:]PORT``, ``COLSxROWS``,
``YYYY-MM-DD``, ``{p1,p2,alternate}``."""
HEADING = ":"
"""What is left of a help section's heading (``[!options!]:``): argparse's own words are gamelib's
(``gamelib.app.ARGPARSE_WORDS``), decorated like the rest, but only Python 3.13's argparse looks its
heading's colon up."""


def gamelib_helps(parser: argparse.ArgumentParser) -> List[str]:
    """The helps of the options gamelib adds (``--backend``, ``--rotation``, ``--low-light``, ``--web``): its
    words, routed by gamelib's own module (a word of gamelib's that is not is that module's to route)."""
    formatter = parser._get_formatter()
    own = {"--backend", "--rotation", "--low-light", "--web", "-h"}
    return [formatter._expand_help(action) for action in parser._actions
            if own & set(action.option_strings) and action.help]


def escaped(out: str, prog: str, allowed: List[str]) -> List[str]:
    """The lines of a ``--help`` whose words escaped the catalogue: neither decorated, nor an option's
    syntax, nor the program's or a command's name, nor one of ``allowed``."""
    names = {prog, *prog.split(), *(c.name for c in COMMANDS)}
    found = []
    usage = False
    for line in residue(out).splitlines():
        # the usage line: what is left of ``[!usage: !]PROG [-h] ...``, and the lines it goes on to
        usage = line.startswith(prog + " ") or (usage and line.startswith(" ") and line.strip() != "")
        if line.strip() == HEADING:
            continue
        rest = line
        for words_of_theirs in sorted(allowed, key=len, reverse=True):
            rest = rest.replace(words_of_theirs, "")
        if usage:
            continue                                  # argparse's usage: the program's name and its options' syntax
        tokens = [t for t in rest.split() if t not in names and not SYNTAX.fullmatch(t)]
        if tokens:
            found.append(line)
    return found


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_every_command_s_help_is_in_words(decorated, capsys, command):
    argv = ["--help"] if command == "play" else [command, "--help"]
    assert run(argv) == 0
    out = capsys.readouterr().out
    prog = "sensehat-c4" if command == "play" else f"sensehat-c4 {command}"
    from gamelib import backends, web
    probe = argparse.ArgumentParser()
    backends.add_arguments(probe)
    web.add_argument(probe)
    assert escaped(out, prog, gamelib_helps(probe)) == []
    assert OPEN in out


def test_the_play_parser_marks_every_help_of_its_own(decorated):
    parser = play_parser()
    ours = [a for a in parser._actions
            if a.help and not {"--backend", "--rotation", "--low-light", "--web", "-h"} & set(a.option_strings)]
    assert ours and [a.option_strings for a in ours if not (a.help.startswith(OPEN) and a.help.endswith(CLOSE))] == []
    assert parser.description.startswith(OPEN) and parser.epilog.startswith(OPEN)


FRAME = re.compile(r"error:|\(see --help\)|argument -[-a-z]+:")
"""gamelib's parser's frame of a bad argument's line (``PROG: error: ... (see --help)``) and argparse's
``argument --x:``: theirs to translate (gamelib's module, Python's argparse)."""


@pytest.mark.parametrize("argv", [
    ["--colors", "red"], ["--colors", "red,red"], ["--colors", "red,#0000fc"], ["--fall-ms", "5000"],
    ["--opponent", "tough", "--board", "8x6"], ["--names", "Ann,Bob", "--opponent", "easy", "--join", "["],
    ["bogus"], ["history", "--limit", "x"], ["history", "--limit", "-1"],
    ["puzzle", "--date", "2024-13-01"], ["analyse", "--threads", "99"],
])
def test_a_bad_argument_s_message_is_in_words(decorated, capsys, argv):
    """Whatever the game says about a bad argument is decorated: what is left is the program's name
    and the frame around the words, each command's own."""
    assert run(argv) == 2
    err = capsys.readouterr().err
    prog = "sensehat-c4" if argv[0].startswith("-") or argv[0] == "bogus" else f"sensehat-c4 {argv[0]}"
    assert err.count("\n") == 1
    assert " ".join(FRAME.sub("", residue(err)).split()) == prog + ":", err


@pytest.mark.parametrize("argv, decorated_words", [
    (["analyse", "--board", "9x9"], "[!board 9x9 is not offered: boards have 4-8 columns and 4-6 rows (e.g. 6x5)!]"),
    (["analyse", "4459"], "[!move 4 ('9'): [!not a column: use digits 1-7!]!]"),
    (["analyse", "4444444"], "[!move 7 ('4'): [!column 4 is full!]!]"),
])
def test_the_rules_errors_are_words(decorated, capsys, argv, decorated_words):
    """The rules core's errors (:mod:`sensehat_c4.rules`, :mod:`sensehat_c4.errors`) are the game's words,
    worded where they are raised (the rules core and its errors import the game's words module, which
    imports only gamelib's: tests/docs/test_docs.py)."""
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert decorated_words in err, err
    assert residue(err).replace("sensehat-c4 analyse:", "").strip() == "", err


def test_the_records_commands_say_words_and_keep_their_json_values(decorated, capsys, tmp_path):
    """``history``, ``stats`` and ``review`` in words, whatever is left a value (a name, a number, a
    backend's name); their ``--json`` keeps the values as stored, in English."""
    import json

    from gamelib.colours import RED, YELLOW
    from records_data import record_match, ticking
    from sensehat_c4.records import Recorder, Side

    db = tmp_path / "games.db"
    recorder = Recorder(db, clock=ticking())
    record_match(recorder, ["4545454", "4545454"], sides=(Side(RED, name="Ann"), Side(YELLOW, level="hard", seconds=1.0)),
                 winner=None)
    record_match(recorder, ["4545454"], sides=(Side(RED, name="Ann"), Side(YELLOW, name="Bob", remote=True)))
    recorder.close()
    values = {"Ann", "Bob", "mock"}
    for argv in (["history"], ["stats"], ["review", "last", "--time-limit", "30"]):
        assert run([*argv, "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert OPEN in out
        assert set(re.findall(r"[A-Za-z]{2,}", residue(out))) <= values, (argv, residue(out))
    assert run(["history", "--db", str(db), "--json"]) == 0
    matches = json.loads(capsys.readouterr().out)
    assert [m["status"] for m in matches] == ["finished", "abandoned"]
    assert matches[1]["players"]["2"]["level"] == "hard" and OPEN not in json.dumps(matches)
    assert run(["review", "last", "--db", str(db), "--json"]) == 0
    reviewed = json.loads(capsys.readouterr().out)
    assert OPEN not in json.dumps(reviewed) and {m["mark"] for m in reviewed["review"]} <= {
        "best", "only move", "inaccuracy", "mistake", "blunder", "unsolved"}


@pytest.mark.parametrize("argv", [["puzzle", "--date", "2026-11-23", "--solution"], ["analyse", "4453"],
                                  ["analyse", "4444"], ["analyse", "1122334"]])
def test_the_puzzle_and_analyse_say_words(decorated, capsys, argv):
    assert run(argv) == 0
    out = capsys.readouterr().out
    board = re.compile(r"^[.XO]+$", re.MULTILINE)     # the board's rows: marks, not words
    assert OPEN in out and re.findall(r"[A-Za-z]{2,}", board.sub("", residue(out))) == [], residue(out)


def test_the_launcher_names_the_games_in_words_and_keeps_their_names_as_values(decorated):
    from gamelib.games import Entry
    from sensehat_c4.lan.game import GAME as LAN
    from sensehat_c4.game import GAME
    from sensehat_c4.study.puzzle import GAME as PUZZLE
    from sensehat_c4.study.training import GAME as TRAINING

    games = (GAME, LAN, TRAINING, PUZZLE)
    assert [Entry("key", game).name for game in games] == [
        "[!Connect 4!]", "[!Connect 4 over the LAN!]", "[!Connect 4 training!]", "[!puzzle of the day!]"]
    assert [game.name for game in games] == ["Connect 4", "Connect 4 over the LAN", "Connect 4 training",
                                             "puzzle of the day"]
