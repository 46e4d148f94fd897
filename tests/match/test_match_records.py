"""The match loop keeps every round: exact database rows from scripted matches, names, the winner's
name scrolling, an abandoned or interrupted match, and a real game killed with SIGKILL."""
from __future__ import annotations

import os
import signal
import sqlite3
import tempfile
import shutil

import pytest

from emu_sandbox import child_env
from frames import grid
from gamelib.backends.mock import MockBackend
from gamelib.backends.terminal_screen import ENTER, LEAVE
from gamelib.errors import MockExhausted
from gamelib.colours import BLACK, GREEN, RED, YELLOW
from gamelib.palette import DEFAULT, PALETTES
from gamelib.scroll import scroll_frames
from pty_terminal import PtyProgram, game, hex_colours, leds
from records_data import rows, ticking
from sensehat_c4.match import render
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.controller import MatchOptions, Timing, play
from sensehat_c4.errors import ConfigError
from gamelib.players import check_name, parse_names
from sensehat_c4.records import Recorder
from sensehat_c4.rules import Board
from scripted import ClockThinker, ROUND_SETTLE, moves


def red_wins_two_rounds(second: str = "14142424") -> MockBackend:
    """A mock scripted with round 1 (red stacks column 4) and ``second`` as round 2's moves."""
    mock = MockBackend()
    moves(mock, "4545454")
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, second)
    return mock


def test_a_named_match_is_recorded_round_by_round_and_the_winner_scrolls(tmp_path):
    path = tmp_path / "games.db"
    mock = red_wins_two_rounds()
    result = play(mock, MatchOptions(names=("Ann", "Bob")), recorder=Recorder(path, clock=ticking()))
    assert (result.winner, result.score) == (1, (2, 0))
    # the clock ticks a minute a read: the match's start, each round's start, each move (ended: the last);
    # the match ended with its last move, committed with it
    assert rows(path, "SELECT * FROM matches") == [
        (1, "2026-11-23T14:00:00Z", "2026-11-23T14:17:00Z", "finished", 1, 7, 6, "mock",
         "Ann", None, None, "#ff0000", "Bob", None, None, "#ffff00", None, "alternate", 2, None, 0, 0)]
    assert rows(path, "SELECT * FROM rounds") == [
        (1, 1, 1, 1, "4545454", "win", 1, "[[4, 1], [4, 2], [4, 3], [4, 4]]",
         "2026-11-23T14:01:00Z", "2026-11-23T14:08:00Z", None, 0, 0),
        (2, 1, 2, 2, "14142424", "win", 1, "[[4, 1], [4, 2], [4, 3], [4, 4]]",
         "2026-11-23T14:09:00Z", "2026-11-23T14:17:00Z", None, 0, 0)]
    # after the winner's colour: "ANN" scrolls in red, one column every 80 ms, then the LEDs clear
    fill = max(i for i, (_, f) in enumerate(mock.frames) if f == (RED,) * 64)
    scrolled = [list(f) for _, f in mock.frames][fill + 1:-1]
    assert scrolled == [f for f, _ in scroll_frames("Ann", RED, (0, 0, 0))]
    times = [t for t, _ in mock.frames][fill + 1:]
    assert times[0] - mock.frames[fill][0] == pytest.approx(Timing().match_end)
    assert all(b - a == pytest.approx(0.08) for a, b in zip(times, times[1:]))
    assert grid(mock.frames[fill + 6][1]) == "\n".join([
        "........",
        "........",
        "...R..R.",
        "..R.R.RR",
        "..RRR.R.",
        "..R.R.R.",
        "..R.R.R.",
        "........"])
    assert mock.leds == (BLACK,) * 64


def test_without_names_nothing_scrolls(tmp_path):
    mock = red_wins_two_rounds()
    play(mock, recorder=Recorder(tmp_path / "games.db", clock=ticking()))
    assert mock.frames[-2][1] == (RED,) * 64 and mock.leds == (BLACK,) * 64
    assert rows(tmp_path / "games.db", "SELECT p1_name, p2_name FROM matches") == [(None, None)]


def test_an_abandoned_match_keeps_its_rounds_and_its_unfinished_one(tmp_path):
    path = tmp_path / "games.db"
    mock = red_wins_two_rounds("141")
    mock.tap("up", "up")
    result = play(mock, MatchOptions(colours=(GREEN, YELLOW)), recorder=Recorder(path, clock=ticking()))
    assert result.abandoned
    assert rows(path, "SELECT status, winner, p1_colour, ended FROM matches") == [
        ("abandoned", None, "#00ff00", "2026-11-23T14:13:00Z")]
    assert rows(path, "SELECT number, starter, moves, result, winner, ended FROM rounds") == [
        (1, 1, "4545454", "win", 1, "2026-11-23T14:08:00Z"),
        (2, 2, "141", "abandoned", None, "2026-11-23T14:12:00Z")]   # its last move


def test_a_match_left_by_an_exception_is_kept_as_abandoned(tmp_path):
    path = tmp_path / "games.db"
    mock = MockBackend()
    moves(mock, "44")   # then the script runs out: the mock raises, as a signal would end the loop
    with pytest.raises(MockExhausted):
        play(mock, recorder=Recorder(path, clock=ticking()))
    assert rows(path, "SELECT status FROM matches") == [("abandoned",)]
    assert rows(path, "SELECT moves, result FROM rounds") == [("44", "abandoned")]


def test_the_computer_seat_is_stored_with_its_level_and_budget(tmp_path):
    path = tmp_path / "games.db"
    mock = MockBackend()
    ClockThinker.made.clear()
    moves(mock, "4", settle=2.0)
    moves(mock, "4", settle=2.0)
    moves(mock, "4", settle=2.0)
    moves(mock, "4", settle=2.0)
    mock.tap("up", "up", at=mock._cursor + 10)
    options = MatchOptions(computer=Computer("hard", player=2, seconds=2.5), names=("Ann", "Bob"))
    play(mock, options, thinker=lambda computer, seed: ClockThinker(mock, 0, 0.1),  # the computer stacks column 1
         recorder=Recorder(path, clock=ticking()))
    assert rows(path, "SELECT p1_name, p1_level, p1_seconds, p2_name, p2_level, p2_seconds FROM matches") == [
        ("Ann", None, None, None, "hard", 2.5)]
    assert rows(path, "SELECT moves, result, winner FROM rounds")[0] == ("4141414", "win", 1)


def test_names_are_checked():
    assert parse_names(" Ann ,Bob") == ("Ann", "Bob")
    assert parse_names("Zoe") == ("Zoe", None)
    assert check_name("Mary-Jo 2") == "Mary-Jo 2" and check_name("Zoë") == "Zoë"     # French's accents are drawn
    bad = {
        "Ann,Bob,Cy": "--names takes one or two names separated by a comma (not 'Ann,Bob,Cy')",
        "Ann,": "--names: a name cannot be empty",
        "Bartholomew Jr": "--names: name 'Bartholomew Jr' is longer than 12 characters",
        "Zoñ": "--names: name 'Zoñ' has characters the LEDs cannot show ('ñ'): use letters A-Z, digits, "
               "spaces and . , : ' / ( ) + - ! ?",
        "A\tB": "--names: name 'A\\tB' has characters the LEDs cannot show ('\\t'): use letters A-Z, digits, "
                "spaces and . , : ' / ( ) + - ! ?",
        "...": "--names: name '...' needs a letter or a digit",
        "ann,ANN": "--names: the two players need different names (not 'ann' twice)",
    }
    for text, message in bad.items():
        with pytest.raises(ConfigError) as err:
            parse_names(text)
        assert str(err.value) == message


# -- a real game in a terminal, killed with SIGKILL mid-game ---------------------------------------------

P = render.Palette()


def board(moves, cursor=3, palette=P):
    return hex_colours(render.board_frame(Board.from_moves(moves), palette, cursor=cursor))


def red_wins_round_one(program: PtyProgram) -> None:
    """Red stacks column 4 (yellow plays 5), by the keys; returns when round 2's board is up."""
    for ply, move in enumerate("4545454"):
        before = "4545454"[:ply]
        program.wait_for(lambda p: leds(p.screen) == board(before), what=f"the board before move {ply + 1}")
        program.press(*(["right"] if move == "5" else []))
        program.wait_for(lambda p: leds(p.screen) == board(before, int(move) - 1))
        program.press("enter" if ply % 2 else "space")
    program.wait_for(lambda p: leds(p.screen) == board("", 3, render.Palette(YELLOW, RED)), what="round 2",
                     timeout=20)


@pytest.mark.slow
def test_committed_moves_survive_sigkill_of_the_game(tmp_path):
    path = tmp_path / "games.db"
    sandbox = tempfile.mkdtemp(prefix="c4kill-")
    env = child_env(sandbox)
    env.update({"TERM": "xterm-256color", "COLORTERM": "truecolor", "SENSEHAT_C4_DB": str(path)})
    program = PtyProgram(game("--backend", "terminal", "--opponent", "human", "--names", "Ann,Bob"),
                         env=env)
    try:
        red_wins_round_one(program)
        yellow_first = render.Palette(YELLOW, RED)
        program.press("space")                                   # one move of round 2, then the power goes
        program.wait_for(lambda p: leds(p.screen) == board("4", 3, yellow_first), what="round 2's first move")
        os.kill(program.process.pid, signal.SIGKILL)
        program.process.wait()
    finally:
        program.close()
        shutil.rmtree(sandbox, ignore_errors=True)
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("SELECT status, p1_name, p2_name, backend FROM matches").fetchall() == [
            ("playing", "Ann", "Bob", "terminal")]
        assert conn.execute("SELECT number, moves, result, winner FROM rounds").fetchall() == [
            (1, "4545454", "win", 1), (2, "4", "playing", None)]   # the move on the screen is kept too
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.parametrize("language, why, words, caption", [
    ("en", "games.db is a directory", "GAMES NOT RECORDED", "games are not being recorded: games.db is a directory; any"),
    ("fr", "games.db est un dossier", "PARTIES NON ENREGISTRÉES",
     "les parties ne sont pas enregistrées : games.db est un dossier ; n'importe"),
], ids=["en", "fr"])
def test_the_recorders_warning_comes_before_the_match_in_the_terminal_and_on_the_leds(tmp_path, language, why, words,
                                                                                        caption):
    """``sensehat-c4 --backend terminal`` with a database it cannot write: the recorder's line is printed
    before the board takes the terminal (in the player's language), then the LEDs scroll the warning in the
    palette's warning colour, its words under the board; a key ends it, the match is played unrecorded, and
    nothing more is said after (no line kept aside while the board was shown)."""
    folder = tmp_path / "games.db"
    folder.mkdir()
    sandbox = tempfile.mkdtemp(prefix="c4log-")
    env = child_env(sandbox)
    env.update({"TERM": "xterm-256color", "COLORTERM": "truecolor", "SENSEHAT_C4_DB": str(folder),
                "XDG_STATE_HOME": str(tmp_path / "state"), "LANGUAGE": language})
    colours = PALETTES[DEFAULT]
    scrolled = [hex_colours(frame) for frame, _ in scroll_frames(words, colours.warning, colours.background)]
    program = PtyProgram(game("--backend", "terminal", "--opponent", "human"), env=env, columns=80, lines=20,
                         stderr_on_terminal=True)
    try:
        program.wait_for(lambda p: leds(p.screen) == scrolled[12], what="the warning scrolling")
        assert caption in program.text()
        program.press("space")                                   # ends it: no token dropped
        red_wins_round_one(program)
        program.press("q")
        program.finish()
    finally:
        program.close()
        shutil.rmtree(sandbox, ignore_errors=True)
    assert program.process.returncode == 0
    output = program.output.decode()
    before, board = output[:output.index(ENTER)], output[output.index(ENTER):output.rindex(LEAVE)]
    warning = {"en": "sensehat-c4: WARNING: games are not being recorded: {why} ({path})",
               "fr": "sensehat-c4: WARNING: les parties ne sont pas enregistrées : {why} ({path})"}[language]
    assert before.splitlines() == [warning.format(why=why, path=folder)]
    assert warning.format(why=why, path=folder) not in board + output[output.rindex(LEAVE):]
    assert (tmp_path / "state" / "sensehat-c4" / "sensehat-c4.log").read_text() == ""   # nothing logged meanwhile
