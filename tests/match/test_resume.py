"""Resuming a match a power cut or a crash interrupted (``resume.py``): the question on the LEDs as
exact frames on the mock, resuming every kind of match exactly, up abandoning it, the command's and
the launcher's paths.  (Real games killed with SIGKILL in a pty: ``test_resume_kill.py``.)"""
from __future__ import annotations

import logging
from datetime import datetime, timezone

import pytest

from frames import g, grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import GREEN, ORANGE, RED, YELLOW
from gamelib.launcher import cli as launcher_cli
from gamelib.launcher.settings import Settings
from gamelib.scroll import scroll_frames
from gamelib.palette import palette as default_palette
from records_data import ANN, BOB, interrupted_match, rows, ticking
from sensehat_c4.match import render, resume, words
from sensehat_c4.match.chooser import choice_frame
from sensehat_c4.commands import main as c4_main
from sensehat_c4.match.computer import LEVELS, Computer
from sensehat_c4.match.opponents import HUMAN
from sensehat_c4.match.controller import MatchOptions, MatchResult, Timing, play
from sensehat_c4.match.game import play_matches
from sensehat_c4.match.report import print_result
from sensehat_c4.match.players import Person, Seats
from sensehat_c4.records import Recorder, Side
from sensehat_c4.rules import Board, Size, Starts
from scripted import ClockThinker, MATCH_SETTLE, ROUND_SETTLE, moves

LATER = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)
"""The clock of the program that resumes (the next morning)."""

BOARD_4453 = g("""
    ...Y....
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBRBBB.
    BBRYYBB.
""")
"""Round 2 as the power cut left it: yellow (seat 2) started, four moves, yellow to move."""
SCORE_1_0 = g("""
    ........
    ........
    .R...YYY
    RR...Y.Y
    .R...Y.Y
    .R...Y.Y
    RRR..YYY
    ........
""")


def shown(mock, until):
    """``(time, grid)`` of every frame shown before ``until``."""
    return [(round(t, 3), grid(f)) for t, f in mock.frames if t < until]


def statuses(mock, phase):
    return [s for _, s in mock.statuses if s.phase == phase]


def recorder(path):
    return Recorder(path, clock=ticking(LATER))


NAMELESS = (Side(RED), Side(YELLOW))


def steer(mock, columns, moves_):
    """Script ``moves_`` (1-based columns) as a player steers each from the middle of a board ``columns`` wide."""
    start = (columns - 1) // 2
    for char in moves_:
        steps = int(char) - 1 - start
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
        mock.wait_until(mock._cursor + 0.5)


def test_the_question_shows_the_board_and_the_score_in_turn_and_middle_resumes(games_db):
    interrupted_match(games_db, ["4545454", "4453"], sides=NAMELESS)   # seat 1 won round 1; seat 2 began round 2
    mock = MockBackend()
    mock.tap("right", "left", at=0.5)                    # left and right do nothing here
    mock.tap("middle", at=6.5)                           # the board is up for the third time
    mock.wait_until(7.0)
    moves(mock, "617")                                   # yellow 6, red 1, yellow 7: yellow wins round 2 (1-1)
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                               # round 3: red (seat 1) starts and wins: 2-1
    mock.wait_until(mock._cursor + MATCH_SETTLE)
    reports = []
    assert play_matches(mock, opponent=HUMAN, matches=1, recorder=recorder(games_db),
                        report=lambda *report: reports.append(report)) == 1
    assert shown(mock, 6.5) == [(0.0, BOARD_4453), (2.0, SCORE_1_0), (3.0, BOARD_4453), (5.0, SCORE_1_0),
                                (6.0, BOARD_4453)]
    assert grid(mock.frames[5][1]) == BOARD_4453 and mock.frames[5][0] == 6.5   # the match goes on from there
    assert reports == [(1, None, MatchResult(1, (2, 1), False, 3))]
    question = statuses(mock, words.RESUME)
    assert [(s.text, s.caption) for s in question] == [(
        "resume? an interrupted match, round 2 (1-0, 7x6): player 2 (yellow) to move (middle or down: resume, "
        "up: start afresh)", "resume? Enter: yes, ↑: start afresh")]
    assert question[0].as_json()["choices"] == ["resume", "start afresh"]
    assert statuses(mock, words.PLAYING)[0].text == "round 2 (1-0, 7x6): player 2 (yellow) to move"
    # round 2 went on in its own row; round 3 is seat 1's to start, as alternating says
    assert rows(games_db, "SELECT id, match_id, number, starter, moves, result, winner, started, ended FROM rounds") == [
        (1, 1, 1, 1, "4545454", "win", 1, "2026-11-23T14:01:00Z", "2026-11-23T14:08:00Z"),
        (2, 1, 2, 2, "4453617", "win", 2, "2026-11-23T14:09:00Z", "2026-11-24T09:02:00Z"),
        (3, 1, 3, 1, "4545454", "win", 1, "2026-11-24T09:03:00Z", "2026-11-24T09:10:00Z")]
    assert rows(games_db, "SELECT id, status, winner, ended, owner FROM matches") == [
        (1, "finished", 1, "2026-11-24T09:10:00Z", None)]


EMPTY_Y = g("""
    ...Y....
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
""")
ONE_MOVE = g("""
    ...Y....
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBRBBB.
""")
EMPTY_R = g("""
    ...R....
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
""")
SCORE_0_0 = g("""
    ........
    ........
    RRR..YYY
    R.R..Y.Y
    R.R..Y.Y
    R.R..Y.Y
    RRR..YYY
    ........
""")
SCORE_1_1 = g("""
    ........
    ........
    .R....Y.
    RR...YY.
    .R....Y.
    .R....Y.
    RRR..YYY
    ........
""")
SIX_BY_FIVE = g("""
    ...Y....
    ........
    ........
    .BBBBBB.
    .BBBBBB.
    .BBBBBB.
    .BBBBBB.
    .BBRBBB.
""")
EIGHT_BY_SIX = g("""
    ...Y....
    ........
    BBBBBBBB
    BBBBBBBB
    BBBBBBBB
    BBBBBBBB
    BBBBBBBB
    BBBBBBBR
""")


@pytest.mark.parametrize("stored, size, board, score, then, rounds", [
    # between rounds (round 2 not begun: no move of it), 1-0: seat 2 starts round 2
    (["4545454"], "7x6", EMPTY_Y, SCORE_1_0, "4", [(1, 1, "4545454", "win"), (2, 2, "4", "abandoned")]),
    # one move of the match
    (["4"], "7x6", ONE_MOVE, SCORE_0_0, "5", [(1, 1, "45", "abandoned")]),
    # 1-1, round 3 not begun: seat 1 starts it
    (["4545454", "4545454"], "7x6", EMPTY_R, SCORE_1_1, "1",
     [(1, 1, "4545454", "win"), (2, 2, "4545454", "win"), (3, 1, "1", "abandoned")]),
    # other sizes: the field where the game draws it
    (["3"], "6x5", SIX_BY_FIVE, SCORE_0_0, "6", [(1, 1, "36", "abandoned")]),
    (["8"], "8x6", EIGHT_BY_SIX, SCORE_0_0, "7", [(1, 1, "87", "abandoned")]),
], ids=["between-rounds-1-0", "one-move", "between-rounds-1-1", "6x5", "8x6"])
def test_resuming_takes_up_exactly_where_the_match_was(games_db, stored, size, board, score, then, rounds):
    columns, rows_ = map(int, size.split("x"))
    interrupted_match(games_db, stored, columns=columns, rows=rows_)
    mock = MockBackend()
    mock.tap("down", at=2.5)                   # down resumes as middle does (the score is up)
    mock.wait_until(3.0)
    steer(mock, columns, then)                 # one more move where it was ...
    mock.tap("up", "up")                       # ... and the match is left
    result = play_matches(mock, opponent=HUMAN, matches=1, recorder=recorder(games_db))
    assert result == 1
    assert shown(mock, 2.5) == [(0.0, board), (2.0, score)]
    assert grid(mock.frames[2][1]) == board    # the resumed match's first frame
    assert rows(games_db, "SELECT number, starter, moves, result FROM rounds") == rounds
    assert rows(games_db, "SELECT columns, rows, status FROM matches") == [(columns, rows_, "abandoned")]


def test_colours_names_and_who_starts_are_the_matchs_and_the_winners_name_scrolls(games_db, capsys):
    interrupted_match(games_db, ["4545454"], sides=(Side(GREEN, name="Ann"), Side(ORANGE, name="Bob")),
                      starts=Starts.P2)                 # Bob (orange) starts every round; he won round 1
    mock = MockBackend()
    mock.tap("middle", at=0.5)
    mock.wait_until(1.0)
    moves(mock, "4545454")                              # round 2: Bob starts and wins: 2-0
    mock.wait_until(mock._cursor + MATCH_SETTLE + 2.0)
    play_matches(mock, opponent=HUMAN, matches=1, recorder=recorder(games_db),
                 report=lambda played, computer, result: print_result(computer, result))
    assert capsys.readouterr().out == "match 1: Bob wins 2-0\n"          # the stored match's number
    assert shown(mock, 0.5) == [(0.0, g("""
        ...O....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
    """))]
    score = render.score_frame((0, 1), (GREEN, ORANGE), (0, 0, 0))
    assert grid(score) == g("""
        ........
        ........
        GGG...O.
        G.G..OO.
        G.G...O.
        G.G...O.
        GGG..OOO
        ........
    """)
    assert statuses(mock, words.RESUME)[0].text.startswith(
        "resume? an interrupted match, round 2 (0-1, 7x6): Bob (orange) to move")
    frames = [list(f) for _, f in mock.frames]
    name = [f for f, _ in scroll_frames("Bob", ORANGE, (0, 0, 0))]
    assert frames[frames.index(name[0]):frames.index(name[0]) + len(name)] == name
    assert rows(games_db, "SELECT number, starter, moves, winner FROM rounds") == [
        (1, 2, "4545454", 2), (2, 2, "4545454", 2)]


@pytest.mark.parametrize("seat", [1, 2])
def test_the_computers_seat_is_resumed_with_its_level_and_budget(games_db, seat):
    computer = Side(RED if seat == 1 else YELLOW, level="hard", seconds=2.5)
    sides = (computer, BOB) if seat == 1 else (ANN, computer)
    interrupted_match(games_db, ["44"] if seat == 1 else ["4"], sides=sides)   # the computer's seat to move
    match = resume.interrupted(Recorder(games_db, clock=ticking(LATER)).interrupted())
    assert match.options.computer == Computer("hard", player=seat, seconds=2.5)
    assert match.options.names == ((None, "Bob") if seat == 1 else ("Ann", None))
    Recorder(games_db).abandon(match.record)
    interrupted_match(games_db, ["44"] if seat == 1 else ["4"], sides=sides)
    mock = MockBackend()
    mock.tap("middle", at=0.5)
    mock.wait_until(5.0)                 # the computer answers column 1 after 0.3 s, shown after 0.6 s, aimed 0.3 s
    moves(mock, "2")
    mock.tap("up", "up")
    ClockThinker.made.clear()
    writer = recorder(games_db)
    match = resume.pending(mock, writer)
    assert match is not None and match.options.computer == Computer("hard", player=seat, seconds=2.5)
    result = play(mock, match.options, recorder=writer, resumed=match.resumed,
                  thinker=lambda c, s: ClockThinker(mock, 0, 0.3))   # the computer answers column 1 after 0.3 s
    assert result.abandoned
    assert ClockThinker.made[0].boards == (["44", "4412"] if seat == 1 else ["4", "412"])
    think = statuses(mock, words.THINKING)[0]
    assert think.text.startswith("round 1 (0-0, 7x6): computer (hard, ")
    thinking = render.thinking_frame(Board.from_moves(ClockThinker.made[0].boards[0]), render.Palette(), 0)
    assert mock.frames[1][1] == tuple(thinking)   # after the question: the computer thinks at once
    assert rows(games_db, "SELECT moves, result FROM rounds WHERE match_id = 2") == [
        ("4412" if seat == 1 else "412", "abandoned")]
    assert rows(games_db, "SELECT p1_level, p1_seconds, p2_level, p2_seconds FROM matches WHERE id = 2") == [
        ("hard", 2.5, None, None) if seat == 1 else (None, None, "hard", 2.5)]


def test_a_seat_a_phone_played_is_the_sticks_unless_a_phone_takes_it_again(games_db):
    interrupted_match(games_db, ["44"], sides=NAMELESS)   # red (seat 1) to move; seat 2 was, say, a phone
    phone = Person("phone:1", kind="phone")
    mock = MockBackend()
    mock.tap("middle", at=0.5)
    mock.tap("down", at=1.0)                               # red drops in column 4 with the stick
    mock.tap("down", at=2.0)                               # the stick on seat 2's turn: nothing
    mock.tap("left", "down", at=3.0, source="phone:1")     # the phone plays seat 2: column 3
    mock.tap("up", "up", at=5.0)
    play_matches(mock, opponent=HUMAN, matches=1, recorder=recorder(games_db), seats=Seats(second=phone))
    assert statuses(mock, words.RESUME)[0].as_json()["seats"][1]["kind"] == "phone"
    assert rows(games_db, "SELECT moves, result FROM rounds") == [("4443", "abandoned")]
    interrupted_match(games_db, ["44"], sides=NAMELESS)   # and without a phone: the stick plays both seats
    mock = MockBackend()
    mock.tap("middle", at=0.5)
    mock.tap("down", at=1.0)
    mock.tap("left", "down", at=2.0)
    mock.tap("up", "up", at=4.0)
    play_matches(mock, opponent=HUMAN, matches=1, recorder=recorder(games_db))
    assert rows(games_db, "SELECT moves FROM rounds WHERE match_id = 2") == [("4443",)]


def test_up_abandons_it_and_the_game_starts_as_usual(games_db):
    interrupted_match(games_db, ["4545454", "4453"])
    mock = MockBackend()
    mock.tap("up", at=1.0)               # start afresh ...
    mock.tap("up", at=2.0)               # ... and up on the opponent chooser leaves (as from the launcher)
    assert play_matches(mock, matches=1, back_leaves=True, recorder=recorder(games_db)) == 0
    assert shown(mock, 1.0) == [(0.0, BOARD_4453)]
    assert mock.frames[1] == (1.0, tuple(choice_frame(0, default_palette())))   # the opponent chooser, from 2P
    assert rows(games_db, "SELECT status, ended, owner FROM matches") == [("abandoned", "2026-11-23T14:13:00Z", None)]
    assert rows(games_db, "SELECT number, moves, result, ended FROM rounds") == [
        (1, "4545454", "win", "2026-11-23T14:08:00Z"), (2, "4453", "abandoned", "2026-11-23T14:13:00Z")]
    assert Recorder(games_db).interrupted() is None


def test_a_match_that_cannot_be_resumed_is_kept_as_abandoned(games_db, caplog):
    caplog.set_level(logging.WARNING, logger="sensehat_c4")   # whatever an earlier test left on the root logger
    interrupted_match(games_db, ["44"], sides=(ANN, Side(YELLOW, level="superhard", seconds=1.0)))
    mock = MockBackend()
    mock.tap("up")
    assert play_matches(mock, matches=1, back_leaves=True, recorder=recorder(games_db)) == 0
    assert mock.frames[0][1] == tuple(choice_frame(0, default_palette()))   # no question: the game starts as usual
    assert [r.getMessage() for r in caplog.records if r.name == "sensehat_c4"] == [
        f"the interrupted match 1 cannot be resumed (level must be one of {', '.join(LEVELS)} (not 'superhard')); "
        "it is kept as abandoned"]
    assert rows(games_db, "SELECT status FROM matches") == [("abandoned",)]


def test_the_command_resumes_the_stored_match_whatever_its_options_say(games_db, capsys, monkeypatch):
    from gamelib import backends
    interrupted_match(games_db, ["4545454"], sides=(ANN, BOB))
    mock = MockBackend()
    monkeypatch.setattr(backends, "open_backend", lambda *a, **k: mock)
    mock.tap("middle", at=0.5)
    mock.wait_until(1.0)
    moves(mock, "14142424")              # round 2: Bob (seat 2) starts, Ann stacks column 4: 2-0
    mock.wait_until(mock._cursor + MATCH_SETTLE + 2.0)
    mock.tap("up", "up")                 # match 2, the command's own (easy, 6x5): left at once
    assert c4_main(["--opponent", "easy", "--board", "6x5", "--names", "Xi,Yu", "--matches", "2"]) == 0
    assert capsys.readouterr().out == ("match 1: Ann wins 2-0\n"
                                       "match not recorded (computer: easy, player 2): abandoned at 0-0\n")
    assert grid(mock.frames[0][1]) == EMPTY_Y   # the stored 7x6, not --board
    assert rows(games_db, "SELECT id, status, columns, rows, p1_name, p2_name, p2_level FROM matches") == [
        (1, "finished", 7, 6, "Ann", "Bob", None)]   # (match 2, left before a move, leaves nothing)


def test_connect_4_from_the_launchers_menu_asks_first(config, launcher_mock, games_db, capsys,
                                                     monkeypatch):
    config.save(Settings(names=("Cy", "Di")))
    interrupted_match(games_db, ["4545454", "4453"], sides=NAMELESS)   # a match of two players without names
    mock = launcher_mock
    mock.tap("middle")                                   # Connect 4 from the menu ...
    mock.tap("middle", at=3.0)                           # ... asks first; resume
    mock.wait_until(3.5)
    moves(mock, "617")
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")
    mock.wait_until(mock._cursor + MATCH_SETTLE)
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")                 # quit from the system menu
    assert launcher_cli.main(["--log-level", "error"]) == 0
    assert capsys.readouterr().out == "match 1: player 1 wins 2-1\n"   # the stored match's number and players
    launched = next(t for t, s in mock.statuses if s.phase == words.RESUME)
    dark = grid([(0, 0, 0)] * 64)   # the launcher clears the LEDs as it starts a game
    assert [grid(f) for t, f in mock.frames if launched <= t < 3.0] == [dark, BOARD_4453, SCORE_1_0]
    assert mock.statuses[-1][1].phase == "menu"          # and the menu is back
    assert rows(games_db, "SELECT status, winner, p1_name FROM matches") == [("finished", 1, None)]
    assert rows(games_db, "SELECT moves FROM rounds") == [("4545454",), ("4453617",), ("4545454",)]


def test_the_question_in_words():
    seats = (words.Seat(1, RED, "Ann"), words.Seat(2, YELLOW, level="hard", kind="computer"))
    said = words.resume(seats, size=Size(6, 5), number=3, score=(1, 1), turn=2)
    assert said.as_json() == {
        "phase": "resume", "caption": "resume? Enter: yes, ↑: start afresh",
        "text": "resume? an interrupted match, round 3 (1-1, 6x5): computer (hard, yellow) to move "
                "(middle or down: resume, up: start afresh)",
        "game": "Connect 4", "board": "6x5", "round": 3, "score": [1, 1], "turn": 2,
        "seats": [{"seat": 1, "colour": "#ff0000", "colour_name": "red", "name": "Ann", "level": None, "kind": "stick"},
                  {"seat": 2, "colour": "#ffff00", "colour_name": "yellow", "name": None, "level": "hard",
                   "kind": "computer"}],
        "choices": ["resume", "start afresh"]}


def test_the_question_waits_for_an_answer():
    """No timeout: it waits for the stick (blocking between its two frames), whatever the clock says."""
    interrupted = resume.Interrupted(None, MatchOptions(timing=Timing(resume_board=2.0, resume_score=1.0)),
                                     resume.Resumed((0, 0), 1, 1, "4"))
    mock = MockBackend()
    mock.tap("up", at=3600.0)
    assert resume.ask(mock, interrupted) is False
    assert len(mock.frames) == 2 * 1200 and mock.now() == 3600.0


def test_the_questions_keys_are_bound_from_its_answers():
    from gamelib.backends.base import Action
    from sensehat_c4.match.resume import AFRESH, ANSWERS, RESUME, Question
    assert {press: key.do.__name__ for press, key in Question.KEYS.items()} == {
        (direction, Action.PRESSED): {RESUME: "_resume", AFRESH: "_afresh"}[answer] for direction, answer in ANSWERS.items()}
